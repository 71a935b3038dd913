/** --profile's critical path: each op linked to what made it start when it did, walked back from the last. */
import { assemble } from '../../src/verify/assemble';
import { SourceFile } from '../../src/diag/source';
import { GlobalBuffer } from '../../src/machine/memory';
import { Value, runFunction } from '../../src/vm/interpreter';
import { TimingObserver } from '../../src/timing/observer';
import { CorePipeline, summarize } from '../../src/timing/pipeline';
import { criticalPath, criticalPathText, foldRepeats } from '../../src/timing/critical-path';
import type { OpCost } from '../../src/timing/cost';
import { loadAddStore } from '../fixtures/timing';

const c = (cycles: number): OpCost => ({ kind: 'cycles', cycles, pipe: 'vector', basis: 'test' });
const line = (n: number) => ({ op: `op${n}`, at: n });
const lineOf = (offset: number): number => offset;

describe('the critical path', () => {
  // TLOAD 0..327 on MTE2, set/wait flag MTE2 -> V, TADDS 327..384, set/wait flag V -> MTE3, TSTORE 384..458
  // (test/timing/observer.test.ts derives each cost): every op waits for the one before it, through a flag.
  it('load -> flag -> vector op -> flag -> store: the three ops, each waiting for the flag before it', () => {
    const text = loadAddStore(true);
    const { program, types, diags } = assemble('k.pto', text);
    expect(diags.sorted().filter((d) => d.severity === 'error')).toEqual([]);
    const observer = new TimingObserver('a2a3');
    const args = new Map<string, Value>([
      ['%x', new GlobalBuffer('x', 'f32', new Uint8Array(32 * 64 * 4))],
      ['%y', new GlobalBuffer('y', 'f32', new Uint8Array(32 * 64 * 4))],
    ]);
    runFunction(program, types, program.functions.get('k')!, args, { numerics: 'npu', maxSteps: 1000, observer, syncCheck: false });
    const path = observer.summary().critical;
    expect(path.map((s) => [s.op, s.pipe, s.start, s.end, s.after?.kind, s.after?.label])).toEqual([
      ['pto.tload', 'PIPE_MTE2', 0, 327, undefined, undefined],
      ['pto.tadds', 'PIPE_V', 327, 384, 'flag', 'wait_flag PIPE_MTE2 -> PIPE_V #0'],
      ['pto.tstore', 'PIPE_MTE3', 384, 458, 'flag', 'wait_flag PIPE_V -> PIPE_MTE3 #0'],
    ]);
    expect(path[1].after?.from).toBe(path[0]);
    expect(path[2].after?.from).toBe(path[1]);
    // The fixture's lines: tload 14, the MTE2 -> V wait 16, tadds 17, the V -> MTE3 wait 19, tstore 20.
    const source = new SourceFile('k.pto', text);
    expect(criticalPathText(path, (o) => source.position(o).line)).toEqual([
      'critical path: 3 ops, 0..458 cycles',
      '  0..327 pto.tload (line 14) on MTE2: starts at 0',
      '  327..384 pto.tadds (line 17) on V: waits for wait_flag PIPE_MTE2 -> PIPE_V #0, line 16',
      '  384..458 pto.tstore (line 20) on MTE3: waits for wait_flag PIPE_V -> PIPE_MTE3 #0, line 19',
    ]);
  });

  it('a pipe that ran alongside is off the path: the chain follows what the last op waited for', () => {
    const p = new CorePipeline('PIPE_ALL', 0, false, true);
    p.issue('PIPE_MTE2', c(100), 'TLOAD', 'TLOAD', {}, line(1)); // 0..100
    p.issue('PIPE_V', c(30), 'TADD', 'TADD', {}, line(2)); // 0..30, no flag: off the path
    p.setFlag('PIPE_MTE2', 'PIPE_V', 0);
    p.waitFlag('PIPE_MTE2', 'PIPE_V', 0, 3);
    p.issue('PIPE_V', c(50), 'TADD', 'TADD', {}, line(4)); // 100..150
    p.issue('PIPE_MTE3', c(5), 'TSTORE', 'TSTORE', {}, line(5)); // 0..5
    p.barrier('PIPE_ALL', 6);
    p.issue('PIPE_MTE3', c(5), 'TSTORE', 'TSTORE', {}, line(7)); // 150..155
    expect(criticalPath([p]).map((s) => [s.op, s.start, s.end, s.after?.kind])).toEqual([
      ['op1', 0, 100, undefined],
      ['op4', 100, 150, 'flag'],
      ['op7', 150, 155, 'barrier'],
    ]);
    expect(summarize([p], 1e9).critical.map((s) => s.op)).toEqual(['op1', 'op4', 'op7']);
  });

  it('a hand-off links the waiting core to the op that ended last on the core that released it', () => {
    const cube = new CorePipeline('PIPE_ALL', 0, false, true);
    const vec = new CorePipeline('PIPE_ALL', 1, false, true);
    cube.issue('PIPE_MTE2', c(40), 'TLOAD', 'TLOAD', {}, line(1)); // 0..40
    cube.issue('PIPE_M', c(10), 'TMATMUL', 'TMATMUL', {}, line(2)); // 0..10
    vec.issue('PIPE_V', c(20), 'TADD', 'TADD', {}, line(10)); // 0..20: before the wait, off the path
    vec.hold(undefined, cube.drained(), 'pto.tpop_from_aic', 'cross-core', 11); // every pipe waits until 40
    vec.issue('PIPE_V', c(7), 'TADD', 'TADD', {}, line(12)); // 40..47
    const path = criticalPath([cube, vec]);
    expect(path.map((s) => [s.core, s.op, s.start, s.end])).toEqual([
      [0, 'op1', 0, 40],
      [1, 'op12', 40, 47],
    ]);
    expect(criticalPathText(path, lineOf)[2]).toBe('  40..47 op12 (line 12) on core 1 V: waits for core 0 (pto.tpop_from_aic, line 11)');
  });

  it('folds repeats: an op repeated, and a loop body repeated', () => {
    const p = new CorePipeline('PIPE_ALL', 0, false, true);
    p.issue('PIPE_MTE2', c(10), 'TLOAD', 'TLOAD', {}, line(1)); // 0..10
    p.setFlag('PIPE_MTE2', 'PIPE_V', 0);
    p.waitFlag('PIPE_MTE2', 'PIPE_V', 0, 2);
    for (let i = 0; i < 64; i++) p.issue('PIPE_V', c(3), 'TADD', 'TADD', {}, line(3)); // 10..202
    // A loop of three: load, flag, add, flag, store, flag back to the load (4 times).
    for (let i = 0; i < 4; i++) {
      p.setFlag('PIPE_V', 'PIPE_MTE2', 1);
      p.waitFlag('PIPE_V', 'PIPE_MTE2', 1, 4);
      p.issue('PIPE_MTE2', c(10), 'TLOAD', 'TLOAD', {}, line(5));
      p.setFlag('PIPE_MTE2', 'PIPE_V', 0);
      p.waitFlag('PIPE_MTE2', 'PIPE_V', 0, 6);
      p.issue('PIPE_V', c(5), 'TADD', 'TADD', {}, line(7));
    }
    const path = criticalPath([p]);
    expect(path).toHaveLength(1 + 64 + 8);
    expect(foldRepeats(path).map((s) => [s.ops.map((o) => o.op), s.count, s.start, s.end])).toEqual([
      [['op1'], 1, 0, 10],
      [['op3'], 64, 10, 202],
      [['op5', 'op7'], 4, 202, 262],
    ]);
    expect(criticalPathText(path, lineOf)).toEqual([
      'critical path: 73 ops, 0..262 cycles (repeats folded)',
      '  0..10 op1 (line 1) on MTE2: starts at 0',
      '  10..202 op3 (line 3) on V x 64: waits for wait_flag PIPE_MTE2 -> PIPE_V #0, line 2',
      '  202..262 (op5 (line 5) on MTE2; op7 (line 7) on V) x 4: waits for wait_flag PIPE_V -> PIPE_MTE2 #1, line 4',
    ]);
  });

  it('is empty when the pipelines do not link their ops', () => {
    const p = new CorePipeline();
    p.issue('PIPE_V', c(8), 'TADD');
    expect(summarize([p], 1e9).critical).toEqual([]);
  });
});
