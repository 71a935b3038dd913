/** pto-vm run --trace and --timeline: the Chrome Trace Event format, perf_sim's layout and summary, the SVG picture. */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { z } from 'zod';
import { runTool } from '../fixtures/cli';
import { summaryPath } from '../../src/cli/pto-vm';

/**
 * The Trace Event Format's documented fields (Google's "Trace Event Format" document) for the phases a trace may
 * hold: complete "X" (ts, dur), flow start/end "s"/"f" (id, ts; "bp": "e" binds to the enclosing slice), metadata
 * "M" (process_name, thread_name, *_sort_index with their args); the JSON Object Format around them.
 */
const common = {
  name: z.string(),
  cat: z.string().optional(),
  pid: z.number().int(),
  tid: z.union([z.number().int(), z.string()]),
  args: z.record(z.string(), z.unknown()).optional(),
};
const complete = z.object({ ...common, ph: z.literal('X'), ts: z.number().nonnegative(), dur: z.number().nonnegative() }).strict();
const flow = z
  .object({ ...common, ph: z.enum(['s', 'f']), ts: z.number().nonnegative(), id: z.union([z.number(), z.string()]), bp: z.literal('e').optional() })
  .strict();
const metadata = z
  .object({
    ...common,
    ph: z.literal('M'),
    name: z.enum(['process_name', 'process_labels', 'process_sort_index', 'thread_name', 'thread_sort_index']),
    args: z.union([z.object({ name: z.string() }).strict(), z.object({ sort_index: z.number().int() }).strict(), z.object({ labels: z.string() }).strict()]),
  })
  .strict();
const traceFile = z
  .object({
    traceEvents: z.array(z.discriminatedUnion('ph', [complete, flow, metadata])),
    displayTimeUnit: z.enum(['ms', 'ns']).optional(),
    otherData: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();

describe('pto-vm run --trace, --timeline', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pto-trace-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  const json = path.join(dir, 'handoff.json');
  const svg = path.join(dir, 'handoff.svg');
  const plain = runTool('pto-vm', 'run', 'programs/cube-vector-handoff.pto');
  const drawn = runTool('pto-vm', 'run', 'programs/cube-vector-handoff.pto', '--trace', json, '--timeline', svg);

  it('leaves the results alone', () => {
    expect(drawn.status).toBe(0);
    expect(drawn.stdout).toBe(plain.stdout);
  });

  it('writes Chrome Trace Event JSON in perf_sim`s layout, with the cube -> vector hand-off as flows', () => {
    const trace = traceFile.parse(JSON.parse(fs.readFileSync(json, 'utf8')));
    const events = trace.traceEvents;
    const threadName = new Map(
      events.filter((e) => e.ph === 'M' && e.name === 'thread_name').map((e) => [`${e.pid}:${e.tid}`, (e.args as { name: string }).name]),
    );
    // One AI core (a cube core and two vector cores): perf_sim's process and thread names.
    expect(events.filter((e) => e.ph === 'M' && e.name === 'process_name').map((e) => e.args)).toEqual([{ name: 'Core 0' }]);
    expect([...threadName.values()]).toEqual([
      '[AIC-0] MTE2',
      '[AIC-0] MTE1',
      '[AIC-0] CUBE',
      '[AIC-0/AIV-0] VEC',
      '[AIC-0/AIV-0] MTE3',
      '[AIC-0/AIV-1] VEC',
      '[AIC-0/AIV-1] MTE3',
    ]);
    const slices = events.filter((e) => e.ph === 'X');
    const on = (e: { pid: number; tid: number | string }) => threadName.get(`${e.pid}:${e.tid}`);
    expect(slices.map((e) => `${on(e)} ${e.name}`)).toEqual([
      '[AIC-0] MTE2 TLOAD(16x16,f16)',
      '[AIC-0] MTE2 TLOAD(16x16,f16)',
      '[AIC-0] MTE1 TMOV(16x16,f16)',
      '[AIC-0] MTE1 TMOV(16x16,f16)',
      '[AIC-0] CUBE TMATMUL(16x16,f32)',
      '[AIC-0/AIV-0] VEC TADDS(8x16,f32)',
      '[AIC-0/AIV-1] VEC TADDS(8x16,f32)',
      '[AIC-0/AIV-0] MTE3 TSTORE(8x16,f32)',
      '[AIC-0/AIV-1] MTE3 TSTORE(8x16,f32)',
    ]);
    // Each flow is an "s" and an "f" of one id, each inside a slice of its thread.
    const flows = new Map<number | string, typeof events>();
    for (const e of events.filter((e) => e.ph === 's' || e.ph === 'f'))
      flows.set((e as { id: number }).id, [...(flows.get((e as { id: number }).id) ?? []), e]);
    const inside = (e: (typeof events)[number]) =>
      slices.some((s) => s.pid === e.pid && s.tid === e.tid && s.ts <= (e as { ts: number }).ts && (e as { ts: number }).ts <= s.ts + s.dur);
    const pairs = [...flows.values()].map((pair) => {
      expect(pair.map((e) => e.ph)).toEqual(['s', 'f']);
      expect(pair.every(inside)).toBe(true);
      return `${on(pair[0])} -> ${on(pair[1])}`;
    });
    expect(pairs.sort()).toEqual(
      [
        // The flags inside the cube core and inside each vector core.
        '[AIC-0] MTE2 -> [AIC-0] MTE1',
        '[AIC-0] MTE1 -> [AIC-0] CUBE',
        '[AIC-0/AIV-0] VEC -> [AIC-0/AIV-0] MTE3',
        '[AIC-0/AIV-1] VEC -> [AIC-0/AIV-1] MTE3',
        // The hand-off: the cube's matmul result, pushed, to each vector core's first op after its pop.
        '[AIC-0] CUBE -> [AIC-0/AIV-0] VEC',
        '[AIC-0] CUBE -> [AIC-0/AIV-1] VEC',
      ].sort(),
    );
    const matmul = slices.find((s) => s.name.startsWith('TMATMUL'))!;
    for (const adds of slices.filter((s) => s.name.startsWith('TADDS'))) expect(adds.ts).toBe(matmul.ts + matmul.dur);
  });

  it('writes perf_sim`s pipeline summary beside the trace: per AI core a row for the AIC and each AIV', () => {
    expect(summaryPath(json)).toBe(path.join(dir, 'handoff_pipeline_summary.csv'));
    const [header, ...rows] = fs.readFileSync(summaryPath(json), 'utf8').trim().split('\n');
    expect(header).toBe(
      'op_name,core_id,unit,total_cycles,active_start_cycle,active_end_cycle,active_cycles,busy_cycles,scalar_cycles,mte2_aic_cycles,mte2_aiv_cycles,mte1_cycles,cube_cycles,fixp_cycles,vec_cycles,mte3_cycles',
    );
    const cells = rows.map((r) => r.split(','));
    expect(cells.map((c) => c.slice(0, 3))).toEqual([
      ['handoff', '0', 'AIC'],
      ['handoff', '0', 'AIV0'],
      ['handoff', '0', 'AIV1'],
    ]);
    // The AIC (test/timing/cross-core.test.ts derives each): MTE2 0..12, MTE1 12..18, CUBE 18..25.
    expect(cells[0].slice(4).map(Number)).toEqual([0, 25, 25, 25, 0, 12, 0, 6, 7, 0, 0, 0]);
    for (const aiv of cells.slice(1)) {
      const [start, end, active, busy, , , , , , , vec, mte3] = aiv.slice(4).map(Number);
      expect([start, end - start, active, busy, mte3]).toEqual([25, vec + 4, vec + 4, vec + 4, 4]);
    }
  });

  it('draws the timeline as SVG: a lane per core and pipe, a box per op, an arrow per flow, a time axis', () => {
    const text = fs.readFileSync(svg, 'utf8');
    // Well formed, as far as tags go: every element opened is closed, in order.
    const stack: string[] = [];
    for (const [, close, name, selfClosing] of text.matchAll(/<(\/?)([a-zA-Z][\w-]*)[^>]*?(\/?)>/g)) {
      if (close) expect(stack.pop()).toBe(name);
      else if (!selfClosing) stack.push(name);
    }
    expect(stack).toEqual([]);
    expect(text.match(/<g class="lane"/g)).toHaveLength(7);
    expect(text.match(/<g class="op"/g)).toHaveLength(9);
    expect(text.match(/<line class="flow" data-kind="flag"/g)).toHaveLength(4);
    expect(text.match(/<line class="flow" data-kind="cross-core"/g)).toHaveLength(2);
    expect(text).toContain('data-track="[AIC-0] CUBE"');
    expect(text.match(/<g class="tick"/g)!.length).toBeGreaterThanOrEqual(3);
  });
});
