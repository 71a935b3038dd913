import type { TimingObserver } from './observer';
import type { Slice } from './pipeline';
import { pipeLabel, timelineData } from './trace';

/**
 * The timing model's run as an SVG picture, for people without a trace viewer: a lane per core and pipe (grouped by
 * AI core, named as the trace names its threads), a box per op, an arrow per flag or hand-off the model honoured,
 * and a time axis in cycles. Plain SVG text: no dependency, opens in a browser.
 */

const LABEL_WIDTH = 170;
const PLOT_WIDTH = 820;
const LANE = 22;
const BOX = 16;
const HEADER = 20;
const TOP = 34;
const AXIS = 34;
/** Fills by pipe (perf_sim's label); an unknown pipe is grey. */
const FILL: Record<string, string> = {
  Scalar: '#c9c9c9',
  MTE2: '#7fb3e0',
  MTE1: '#5cc6c0',
  CUBE: '#e07f7f',
  FIXP: '#c59be0',
  VEC: '#8fd18f',
  MTE3: '#f0b060',
};

/** Arrows by what they stand for: a set/wait flag, a hand-off between cores, a flag PTOAS inserts. */
const FLOW_COLOR = { flag: '#34495e', 'cross-core': '#c0392b', data: '#2471a3' } as const;

const escape = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const num = (n: number): string => String(Math.round(n * 10) / 10);

/** A tick step of 1, 2 or 5 times a power of ten giving at most about ten ticks. */
function tickStep(total: number): number {
  const raw = Math.max(total, 1) / 10;
  const power = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? power * 10;
}

export function timelineSvg(observer: TimingObserver, options: { title: string; frequencyHz: number }): string {
  const data = timelineData(observer);
  const total = Math.max(data.totalCycles, 1);
  const x = (cycle: number): number => LABEL_WIDTH + (cycle / total) * PLOT_WIDTH;
  // Lanes top to bottom, with a header row before each AI core's first lane.
  const laneY = new Map<string, number>();
  const parts: string[] = [];
  let y = TOP;
  let pid: number | undefined;
  for (const t of data.tracks) {
    if (t.pid !== pid) {
      pid = t.pid;
      parts.push(`<text class="core" x="4" y="${num(y + 14)}">Core ${t.pid}</text>`);
      y += HEADER;
    }
    laneY.set(`${t.core}:${t.pipe}`, y);
    parts.push(
      `<g class="lane" data-track="${escape(t.name)}"><rect x="${LABEL_WIDTH}" y="${num(y)}" width="${PLOT_WIDTH}" height="${LANE}" fill="#f6f6f6"/>` +
        `<text x="${LABEL_WIDTH - 6}" y="${num(y + 15)}" text-anchor="end">${escape(t.name)}</text></g>`,
    );
    y += LANE + 2;
  }
  const boxTop = (s: Slice): number => laneY.get(`${s.core}:${s.pipe}`)! + (LANE - BOX) / 2;
  for (const { pipeline } of data.cores) {
    for (const s of pipeline.slices) {
      const left = x(s.start);
      // An op without cost data takes no time: drawn as a thin box so that it is still seen.
      const width = Math.max(x(s.end) - left, 1.5);
      const tip = `${s.name}: ${s.start}..${s.end} cycles (${s.args.cost ?? ''})`;
      const label = width > 7 * s.name.length ? `<text x="${num(left + 3)}" y="${num(boxTop(s) + 12)}">${escape(s.name)}</text>` : '';
      parts.push(
        `<g class="op"><rect x="${num(left)}" y="${num(boxTop(s))}" width="${num(width)}" height="${BOX}" fill="${FILL[pipeLabel(s.pipe)] ?? '#b0b0b0'}" stroke="#555" stroke-width="0.5"><title>${escape(tip)}</title></rect>${label}</g>`,
      );
    }
  }
  for (const f of data.flows) {
    const to = f.to!;
    const color = FLOW_COLOR[f.kind];
    parts.push(
      `<line class="flow" data-kind="${f.kind}" x1="${num(x(f.from.end))}" y1="${num(boxTop(f.from) + BOX / 2)}" x2="${num(x(to.start))}" y2="${num(boxTop(to) + BOX / 2)}" stroke="${color}" stroke-width="1.2" marker-end="url(#arrow-${f.kind})"><title>${escape(`${f.label}: ${f.from.name} -> ${to.name}`)}</title></line>`,
    );
  }
  // The time axis under the lanes.
  const step = tickStep(total);
  const axisY = y + 6;
  parts.push(`<line class="axis" x1="${LABEL_WIDTH}" y1="${num(axisY)}" x2="${LABEL_WIDTH + PLOT_WIDTH}" y2="${num(axisY)}" stroke="#333"/>`);
  for (let t = 0; t <= total; t += step) {
    parts.push(
      `<g class="tick"><line x1="${num(x(t))}" y1="${num(axisY)}" x2="${num(x(t))}" y2="${num(axisY + 5)}" stroke="#333"/><text x="${num(x(t))}" y="${num(axisY + 17)}" text-anchor="middle">${t}</text></g>`,
    );
  }
  const us = (data.totalCycles / options.frequencyHz) * 1e6;
  parts.push(
    `<text x="${LABEL_WIDTH + PLOT_WIDTH}" y="${num(axisY + 30)}" text-anchor="end">cycles (${data.totalCycles} in all, ${us.toFixed(3)} us at ${options.frequencyHz / 1e9} GHz)</text>`,
  );
  const height = axisY + AXIS + 6;
  const width = LABEL_WIDTH + PLOT_WIDTH + 20;
  const markers = (['flag', 'cross-core', 'data'] as const)
    .map(
      (kind) =>
        `<marker id="arrow-${kind}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" fill="${FLOW_COLOR[kind]}"/></marker>`,
    )
    .join('');
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${num(height)}" viewBox="0 0 ${width} ${num(height)}" font-family="sans-serif" font-size="11">\n` +
    `<defs>${markers}</defs>\n` +
    `<rect width="100%" height="100%" fill="white"/>\n` +
    `<text class="title" x="4" y="18" font-size="13" font-weight="bold">${escape(options.title)}: ${data.totalCycles} cycles</text>\n` +
    parts.join('\n') +
    '\n</svg>\n'
  );
}
