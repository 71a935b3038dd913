import { assemble } from '../../src/verify/assemble';
import { GlobalBuffer } from '../../src/machine/memory';
import { Value, runFunction } from '../../src/vm/interpreter';
import { TimingObserver } from '../../src/timing/observer';

/** Load 32 x 64 f32, add a scalar, store: with the flags a kernel needs, or without. */
function kernel(flags: boolean): string {
  const t = '!pto.tile_buf<vec, 32x64xf32>';
  const f = (s: string): string => (flags ? s : '');
  return `module attributes {pto.target_arch = "a2a3"} {
  func.func @k(%x: !pto.ptr<f32>, %y: !pto.ptr<f32>) attributes {pto.kernel_kind = #pto.kernel_kind<vector>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %s = arith.constant 1.5 : f32
    %xv = pto.make_tensor_view %x, shape = [%c32, %c64], strides = [%c64, %c1] : !pto.tensor_view<?x?xf32>
    %yv = pto.make_tensor_view %y, shape = [%c32, %c64], strides = [%c64, %c1] : !pto.tensor_view<?x?xf32>
    %xp = pto.partition_view %xv, offsets = [%c0, %c0], sizes = [%c32, %c64] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<32x64xf32>
    %yp = pto.partition_view %yv, offsets = [%c0, %c0], sizes = [%c32, %c64] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<32x64xf32>
    %a = pto.alloc_tile : ${t}
    %b = pto.alloc_tile : ${t}
    pto.tload ins(%xp : !pto.partition_tensor_view<32x64xf32>) outs(%a : ${t})
    ${f('pto.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]')}
    ${f('pto.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]')}
    pto.tadds ins(%a, %s : ${t}, f32) outs(%b : ${t})
    ${f('pto.set_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]')}
    ${f('pto.wait_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]')}
    pto.tstore ins(%b : ${t}) outs(%yp : !pto.partition_tensor_view<32x64xf32>)
    return
  }
}
`;
}

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
  // TLOAD 8192 bytes GM -> UB on the fitted curve: (30643 + 8192) / 143.4516 = 270.7; TADDS f32 32 x 64:
  // 0.0156 * 2048 + 25 = 56.95; TSTORE 8192 bytes UB -> GM at 188.46 GiB/s (109.38 bytes a cycle): 74.9.
  it('queues each op on its pipe with its cost, and the flags order the pipes', () => {
    const s = profile(true);
    expect(s.totalCycles).toBe(270 + 57 + 74);
    expect(s.cores[0].pipes.map((p) => [p.pipe, p.busy])).toEqual([
      ['PIPE_MTE2', 270],
      ['PIPE_MTE3', 74],
      ['PIPE_V', 57],
    ]);
    expect(s.bottleneck).toBe('MTE2 busy 67%: loads from GM bound the run; MTE3 busy 18%, V busy 14%');
    expect(s.noData).toEqual([]);
  });

  it('without flags the pipes overlap: the total is the longest pipe', () => {
    expect(profile(false).totalCycles).toBe(270);
  });
});
