/** Hand-offs between cores in the pipe model: cross-core flags and the cube -> vector pipe hold the waiting core. */
import * as fs from 'fs';
import * as path from 'path';
import { assemble } from '../../src/verify/assemble';
import { GlobalBuffer } from '../../src/machine/memory';
import { ElemType } from '../../src/types/type';
import { runLaunch, Value } from '../../src/vm/interpreter';
import { TimingObserver } from '../../src/timing/observer';
import { crossCoreFlag } from '../fixtures/timing';

/** Runs one block of a mixed kernel (core 0 the cube, 1 and 2 the vector cores) under the timing model. */
function observe(text: string, entry: string, buffers: [string, ElemType, number][]): TimingObserver {
  const { program, types, diags } = assemble('k.pto', text);
  expect(diags.sorted().filter((d) => d.severity === 'error')).toEqual([]);
  const args = new Map<string, Value>(buffers.map(([name, elem, bytes]) => [`%${name}`, new GlobalBuffer(name, elem, new Uint8Array(bytes))]));
  const observer = new TimingObserver(program.target, true);
  runLaunch(program, types, program.functions.get(entry)!, args, { numerics: 'npu', maxSteps: 10_000, observer, syncCheck: false }, 1);
  return observer;
}

const slices = (o: TimingObserver, core: number) => o.pipelines()[core].slices.map((s) => [s.pipe, s.name, s.start, s.end]);

describe('waits for another core', () => {
  // Each vector core`s TLOAD of 8192 bytes GM -> UB on the measured curve: round(262.35 + 8192 / 127.66) = 327; the
  // cube's TLOAD of 512 bytes GM -> L1 at 135 GiB/s (78.35 bytes a cycle): floor(6.53) = 6.
  it('sync.wait holds the pipe it names until the producer`s pipe has drained', () => {
    const o = observe(crossCoreFlag('PIPE_MTE2'), 'k', [
      ['x', 'f32', 8192],
      ['h', 'f16', 512],
    ]);
    expect(slices(o, 1)).toEqual([['PIPE_MTE2', 'TLOAD(32x64,f32)', 0, 327]]);
    expect(slices(o, 0)).toEqual([['PIPE_MTE2', 'TLOAD(16x16,f16)', 327, 333]]);
    expect(o.summary().totalCycles).toBe(333);
    // The cube is the slowest core, and most of its time is the wait.
    expect(o.summary().bottleneck).toBe('MTE2 busy 2%: loads from GM bound the run; core 0 waited 327 cycles (98%) for other cores');
    const [flow] = o.pipelines()[0].flows;
    expect([flow.kind, flow.from.core, flow.from.name, flow.to?.core, flow.to?.name]).toEqual(['cross-core', 1, 'TLOAD(32x64,f32)', 0, 'TLOAD(16x16,f16)']);
  });

  it('a wait on another pipe does not hold the load', () => {
    const o = observe(crossCoreFlag('PIPE_FIX'), 'k', [
      ['x', 'f32', 8192],
      ['h', 'f16', 512],
    ]);
    expect(slices(o, 0)).toEqual([['PIPE_MTE2', 'TLOAD(16x16,f16)', 0, 6]]);
    expect(o.summary().totalCycles).toBe(327);
  });

  // programs/cube-vector-handoff.pto on a2a3 (its default target): the cube's two TLOADs GM -> L1 of 512 bytes, 6
  // cycles each (0..12); TMOV L1 -> L0A at 441 GiB/s (255.96 bytes a cycle) 2 (12..14), L1 -> L0B at 220.5 GiB/s 4
  // (14..18); TMATMUL 16x16x16 f16: 6 + 1 repeat (18..25); the push hands off at 25. Each vector core's tpop waits for
  // it: its TADDS starts at 25, and TSTORE (512 bytes UB -> GM at 188.46 GiB/s: floor(4.68) = 4) after it.
  it('tpop holds the vector core until the cube has pushed: the hand-off is a flow from the cube to each vector core', () => {
    const text = fs.readFileSync(path.join(__dirname, '../../programs/cube-vector-handoff.pto'), 'utf8');
    const o = observe(text, 'handoff', [
      ['a', 'f16', 512],
      ['b', 'f16', 512],
      ['d', 'f32', 1024],
    ]);
    expect(slices(o, 0).at(-1)).toEqual(['PIPE_M', 'TMATMUL(16x16,f32)', 18, 25]);
    const [adds, store] = o.pipelines()[1].slices;
    for (const core of [1, 2]) {
      expect(slices(o, core)).toEqual([
        ['PIPE_V', 'TADDS(8x16,f32)', 25, adds.end],
        ['PIPE_MTE3', 'TSTORE(8x16,f32)', adds.end, adds.end + 4],
      ]);
      const cross = o.pipelines()[core].flows.filter((f) => f.kind === 'cross-core');
      expect(cross.map((f) => [f.label, f.from.core, f.from.name, f.to?.name])).toEqual([['pto.tpop_from_aic', 0, 'TMATMUL(16x16,f32)', 'TADDS(8x16,f32)']]);
    }
    expect(o.summary().totalCycles).toBe(store.end);
  });
});
