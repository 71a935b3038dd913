/** Functions without intra-core sync ops, which PTOAS synchronizes itself: the model orders pipes by shared tiles. */
import { assemble } from '../../src/verify/assemble';
import { GlobalBuffer } from '../../src/machine/memory';
import { Value, runFunction } from '../../src/vm/interpreter';
import { TimingObserver } from '../../src/timing/observer';
import { loadAddStore } from '../fixtures/timing';

function observe(flags: boolean, withProgram: boolean): TimingObserver {
  const { program, types, diags } = assemble('k.pto', loadAddStore(flags));
  expect(diags.sorted().filter((d) => d.severity === 'error')).toEqual([]);
  const observer = new TimingObserver('a2a3', true, withProgram ? program : undefined);
  const args = new Map<string, Value>([
    ['%x', new GlobalBuffer('x', 'f32', new Uint8Array(32 * 64 * 4))],
    ['%y', new GlobalBuffer('y', 'f32', new Uint8Array(32 * 64 * 4))],
  ]);
  runFunction(program, types, program.functions.get('k')!, args, { numerics: 'npu', maxSteps: 1000, observer, syncCheck: false });
  return observer;
}

const spans = (o: TimingObserver) => o.pipelines()[0].slices.map((s) => [s.pipe, s.start, s.end]);
const flows = (o: TimingObserver) => o.pipelines()[0].flows.map((f) => [f.kind, f.from.pipe, f.to?.pipe]);

describe('a function PTOAS synchronizes itself (no set/wait flag)', () => {
  // TLOAD 327, TADDS 57, TSTORE 74 (test/timing/observer.test.ts derives each): the tile TLOAD writes holds TADDS,
  // the tile TADDS writes holds TSTORE, as the flags PTOAS inserts would; the same times as the hand-written flags.
  it('orders the pipes by the tiles they share, as the flags PTOAS inserts would', () => {
    const o = observe(false, true);
    expect(spans(o)).toEqual([
      ['PIPE_MTE2', 0, 327],
      ['PIPE_V', 327, 384],
      ['PIPE_MTE3', 384, 458],
    ]);
    expect(flows(o)).toEqual([
      ['data', 'PIPE_MTE2', 'PIPE_V'],
      ['data', 'PIPE_V', 'PIPE_MTE3'],
    ]);
    expect(spans(observe(true, true))).toEqual(spans(o));
  });

  it('leaves a function with its own flags to them', () => {
    expect(flows(observe(true, true)).map((f) => f[0])).toEqual(['flag', 'flag']);
  });
});
