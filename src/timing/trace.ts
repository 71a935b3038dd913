import type { CoreIndex } from '../ir/definition';
import type { TimingObserver } from './observer';
import type { CorePipeline, Flow, Slice } from './pipeline';

/**
 * The timing model's run as perf_sim lays its traces out (pto-isa include/pto/costmodel/perf_sim, reporter_json_impl.inl
 * and reporter_dot_impl.inl): a process per AI core (a block: its cube core and its vector cores, "Core N"), a thread
 * per pipe named "[AIC-N] CUBE", "[AIC-N/AIV-0] VEC", ..., an "X" slice per op, and a flow ("s" -> "f") per
 * dependency the model honoured; and the per-unit summary of its _pipeline_summary.csv. Times are cycles.
 */

/** perf_sim's name of each pipe (its PipeQueue labels); a pipe it does not draw keeps the VM's name. */
const PIPE_LABEL: Record<string, string> = {
  PIPE_S: 'Scalar',
  PIPE_MTE2: 'MTE2',
  PIPE_MTE1: 'MTE1',
  PIPE_M: 'CUBE',
  PIPE_FIX: 'FIXP',
  PIPE_V: 'VEC',
  PIPE_MTE3: 'MTE3',
};
/** perf_sim's track order within a unit. */
const AIC_ORDER = ['Scalar', 'MTE2', 'MTE1', 'CUBE', 'FIXP'];
const AIV_ORDER = ['MTE2', 'VEC', 'MTE3'];
const CUBE_PIPES = new Set(['PIPE_M', 'PIPE_MTE1', 'PIPE_FIX']);

export const pipeLabel = (pipe: string): string => PIPE_LABEL[pipe] ?? pipe.replace(/^PIPE_/, '');

/** Where one VM core goes in the trace: its AI core (process) and its unit (AIC, or AIV-s). */
export interface Placement {
  pid: number;
  /** The AI core's number as perf_sim prints it (the block; with ranks, counted over every rank's blocks). */
  block: number;
  unit: 'AIC' | `AIV-${number}`;
}

/** A core of a mixed kernel has its kind; a core of a one-kind kernel is the cube when it used a cube pipe. */
export function placeCore(pipeline: CorePipeline, core: CoreIndex | undefined): Placement {
  const block = core ? core.rank * core.blocks + core.block : 0;
  const cube = core?.kind ? core.kind === 'cube' : pipeline.busyPipes().some((p) => CUBE_PIPES.has(p.pipe));
  return { pid: block, block, unit: cube ? 'AIC' : `AIV-${core?.subblock ?? 0}` };
}

/** A pipe's track name, as perf_sim writes it: "[AIC-0] CUBE", "[AIC-0/AIV-1] VEC". */
export function trackName(p: Placement, pipe: string): string {
  return p.unit === 'AIC' ? `[AIC-${p.block}] ${pipeLabel(pipe)}` : `[AIC-${p.block}/${p.unit}] ${pipeLabel(pipe)}`;
}

/** Sort key of a track within its process: the AIC's pipes, then each AIV's, in perf_sim's order; others after. */
function trackOrder(p: Placement, pipe: string): number {
  const label = pipeLabel(pipe);
  if (p.unit === 'AIC') {
    const i = AIC_ORDER.indexOf(label);
    return i >= 0 ? i : 50 + label.charCodeAt(0);
  }
  const sub = Number(p.unit.slice(4));
  const i = AIV_ORDER.indexOf(label);
  return 100 + sub * 100 + (i >= 0 ? i : 50 + label.charCodeAt(0));
}

/** Every core's placement, pipeline and slices: what the trace, the CSV and the timeline draw. */
export interface TimelineData {
  cores: { placement: Placement; pipeline: CorePipeline }[];
  /** Tracks in drawing order, each a core's pipe. */
  tracks: { core: number; pipe: string; name: string; pid: number; order: number }[];
  flows: Flow[];
  totalCycles: number;
}

export function timelineData(observer: TimingObserver): TimelineData {
  const pipelines = observer.pipelines();
  const cores = pipelines.map((pipeline, i) => ({ placement: placeCore(pipeline, observer.launched?.[i]), pipeline }));
  const tracks: TimelineData['tracks'] = [];
  cores.forEach(({ placement, pipeline }, core) => {
    const pipes = new Set(pipeline.slices.map((s) => s.pipe));
    for (const pipe of pipes) tracks.push({ core, pipe, name: trackName(placement, pipe), pid: placement.pid, order: trackOrder(placement, pipe) });
  });
  tracks.sort((a, b) => a.pid - b.pid || a.order - b.order);
  const flows = pipelines.flatMap((p) => p.flows).filter((f) => f.to !== undefined);
  return { cores, tracks, flows, totalCycles: Math.max(0, ...pipelines.map((p) => p.total())) };
}

/** One event of the Chrome Trace Event format (the fields this writer uses). */
export interface TraceEvent {
  name: string;
  ph: 'X' | 's' | 'f' | 'M';
  pid: number;
  tid: number;
  ts?: number;
  dur?: number;
  cat?: string;
  id?: number;
  bp?: 'e';
  args?: Record<string, string | number>;
}

/** The trace as Chrome's JSON Object Format: the events, and what the times mean. */
export function chromeTrace(
  observer: TimingObserver,
  frequencyHz: number,
): { traceEvents: TraceEvent[]; displayTimeUnit: 'ns'; otherData: Record<string, string | number> } {
  const data = timelineData(observer);
  const events: TraceEvent[] = [];
  const tid = new Map<string, number>();
  const key = (core: number, pipe: string) => `${core}:${pipe}`;
  for (const pid of new Set(data.tracks.map((t) => t.pid))) {
    events.push({ name: 'process_name', ph: 'M', pid, tid: 0, args: { name: `Core ${pid}` } });
    events.push({ name: 'process_sort_index', ph: 'M', pid, tid: 0, args: { sort_index: pid } });
  }
  data.tracks.forEach((t, i) => {
    // Thread ids are numbers (the format's), one per track; the names are perf_sim's.
    tid.set(key(t.core, t.pipe), i + 1);
    events.push({ name: 'thread_name', ph: 'M', pid: t.pid, tid: i + 1, args: { name: t.name } });
    events.push({ name: 'thread_sort_index', ph: 'M', pid: t.pid, tid: i + 1, args: { sort_index: t.order } });
  });
  const where = (s: Slice) => ({ pid: data.cores[s.core].placement.pid, tid: tid.get(key(s.core, s.pipe))! });
  const all = data.cores.flatMap((c) => c.pipeline.slices).sort((a, b) => a.start - b.start || a.core - b.core);
  for (const s of all) {
    const track = data.tracks[where(s).tid - 1];
    events.push({ name: s.name, cat: track.name, ph: 'X', ts: s.start, dur: s.end - s.start, ...where(s), args: s.args });
  }
  data.flows.forEach((f, i) => {
    const to = f.to!;
    // perf_sim's "dep" flow from the op that fired the dependency to the op it held. The "s" is stamped inside the
    // source op (at its start), the "f" at the held op's start bound to it ("bp": "e"): a viewer binds each to the
    // slice enclosing its time, and draws the arrow from the source's end.
    events.push({ name: 'dep', cat: 'flow', ph: 's', id: i + 1, ts: f.from.start, ...where(f.from), args: { src: f.from.name, via: f.label } });
    events.push({ name: 'dep', cat: 'flow', ph: 'f', bp: 'e', id: i + 1, ts: to.start, ...where(to), args: { dst: to.name, via: f.label } });
  });
  return {
    traceEvents: events,
    displayTimeUnit: 'ns',
    otherData: { source: 'pto-vm run --trace (the timing model of docs/performance.md)', timeUnit: 'cycles', frequencyHz },
  };
}

const CSV_COLUMNS = [
  'op_name',
  'core_id',
  'unit',
  'total_cycles',
  'active_start_cycle',
  'active_end_cycle',
  'active_cycles',
  'busy_cycles',
  'scalar_cycles',
  'mte2_aic_cycles',
  'mte2_aiv_cycles',
  'mte1_cycles',
  'cube_cycles',
  'fixp_cycles',
  'vec_cycles',
  'mte3_cycles',
];

/** The pipe column of perf_sim's summary a pipe's busy cycles go to (other pipes count in busy_cycles only). */
function csvColumn(unit: Placement['unit'], pipe: string): string | undefined {
  const label = pipeLabel(pipe);
  if (label === 'MTE2') return unit === 'AIC' ? 'mte2_aic_cycles' : 'mte2_aiv_cycles';
  const named: Record<string, string> = {
    Scalar: 'scalar_cycles',
    MTE1: 'mte1_cycles',
    CUBE: 'cube_cycles',
    FIXP: 'fixp_cycles',
    VEC: 'vec_cycles',
    MTE3: 'mte3_cycles',
  };
  return named[label];
}

/**
 * perf_sim's _pipeline_summary.csv: per AI core a row for its AIC and one per AIV (AIV0, AIV1), each with the AI
 * core's total, the span its ops were busy in, its busy cycles and those of each pipe.
 */
export function pipelineSummaryCsv(observer: TimingObserver, opName: string): string {
  const data = timelineData(observer);
  const blocks = new Map<number, { unit: Placement['unit']; pipeline: CorePipeline }[]>();
  for (const { placement, pipeline } of data.cores) {
    const list = blocks.get(placement.block) ?? [];
    list.push({ unit: placement.unit, pipeline });
    blocks.set(placement.block, list);
  }
  const lines = [CSV_COLUMNS.join(',')];
  for (const [block, units] of [...blocks.entries()].sort((a, b) => a[0] - b[0])) {
    const total = Math.max(...units.map((u) => u.pipeline.total()));
    const subblocks = Math.max(2, ...units.filter((u) => u.unit !== 'AIC').map((u) => Number(u.unit.slice(4)) + 1));
    const names: Placement['unit'][] = ['AIC', ...Array.from({ length: subblocks }, (_, s) => `AIV-${s}` as const)];
    for (const unit of names) {
      const slices = units.filter((u) => u.unit === unit).flatMap((u) => u.pipeline.slices);
      const row: Record<string, string | number> = Object.fromEntries(CSV_COLUMNS.map((c) => [c, 0]));
      const busy = slices.filter((s) => s.end > s.start);
      row.op_name = opName;
      row.core_id = block;
      row.unit = unit.replace('-', '');
      row.total_cycles = total;
      row.active_start_cycle = busy.length ? Math.min(...busy.map((s) => s.start)) : 0;
      row.active_end_cycle = busy.length ? Math.max(...busy.map((s) => s.end)) : 0;
      row.active_cycles = Number(row.active_end_cycle) - Number(row.active_start_cycle);
      for (const s of busy) {
        row.busy_cycles = Number(row.busy_cycles) + s.end - s.start;
        const column = csvColumn(unit, s.pipe);
        if (column) row[column] = Number(row[column]) + s.end - s.start;
      }
      lines.push(CSV_COLUMNS.map((c) => row[c]).join(','));
    }
  }
  return lines.join('\n') + '\n';
}
