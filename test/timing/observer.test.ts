import { assemble } from '../../src/verify/assemble';
import { GlobalBuffer } from '../../src/machine/memory';
import { Value, runFunction } from '../../src/vm/interpreter';
import { TimingObserver } from '../../src/timing/observer';
import { loadAddStore as kernel } from '../fixtures/timing';

function profile(flags: boolean) {
  const { program, types, diags } = assemble('k.pto', kernel(flags));
  expect(diags.sorted().filter((d) => d.severity === 'error')).toEqual([]);
  const x = new GlobalBuffer('x', 'f32', new Uint8Array(32 * 64 * 4));
  const y = new GlobalBuffer('y', 'f32', new Uint8Array(32 * 64 * 4));
  const observer = new TimingObserver('a2a3');
  const args = new Map<string, Value>([
    ['%x', x],
    ['%y', y],
  ]);
  runFunction(program, types, program.functions.get('k')!, args, { numerics: 'npu', maxSteps: 1000, observer, syncCheck: false });
  return observer.summary();
}

describe('the timing model observing a run', () => {
  // TLOAD 8192 bytes GM -> UB on the curve measured from pto-isa`s profiled loads: 262.35 + 8192 / 127.66 = 326.5; TADDS f32 32 x 64:
  // 0.0156 * 2048 + 25 = 56.95; TSTORE 8192 bytes UB -> GM at 188.46 GiB/s (109.38 bytes a cycle): 74.9.
  it('queues each op on its pipe with its cost, and the flags order the pipes', () => {
    const s = profile(true);
    expect(s.totalCycles).toBe(327 + 57 + 74);
    expect(s.cores[0].pipes.map((p) => [p.pipe, p.busy])).toEqual([
      ['PIPE_MTE2', 327],
      ['PIPE_MTE3', 74],
      ['PIPE_V', 57],
    ]);
    expect(s.bottleneck).toBe('MTE2 busy 71%: loads from GM bound the run; MTE3 busy 16%, V busy 12%');
    expect(s.noData).toEqual([]);
  });

  it('without flags the pipes overlap: the total is the longest pipe', () => {
    expect(profile(false).totalCycles).toBe(327);
  });
});
