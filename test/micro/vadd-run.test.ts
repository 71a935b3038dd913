/**
 * The micro-op level end to end: a vector-core kernel of the shape of PTOAS's vadd golden (test/vpto/cases/micro-op/
 * binary-vector/vadd, its f32 tail variant): two DMA loads GM -> UB, a vecscope whose loop makes a plt_b32 mask of
 * the elements left and runs vlds, vadd, vsts over 64-lane registers, and a DMA store UB -> GM. 1000 of 1024
 * elements are summed; the last 24 are outside every mask and keep what UB held (zero).
 */
import { GlobalBuffer } from '../../src/machine/memory';
import { runMicroKernel } from '../fixtures/micro';

const KERNEL = `module attributes {pto.target_arch = "a5", pto.kernel_kind = #pto.kernel_kind<vector>} {
  func.func @vadd_tail(%a: !pto.ptr<f32, gm>, %b: !pto.ptr<f32, gm>, %out: !pto.ptr<f32, gm>) attributes {pto.kernel} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c1024 = arith.constant 1024 : index
    %c0_i64 = arith.constant 0 : i64
    %c32_i64 = arith.constant 32 : i64
    %c128_i64 = arith.constant 128 : i64
    %c4096_i64 = arith.constant 4096 : i64
    %c8192_i64 = arith.constant 8192 : i64
    %n = arith.constant 1000 : i32
    %ub_a = pto.castptr %c0_i64 : i64 -> !pto.ptr<f32, ub>
    %ub_b = pto.castptr %c4096_i64 : i64 -> !pto.ptr<f32, ub>
    %ub_out = pto.castptr %c8192_i64 : i64 -> !pto.ptr<f32, ub>
    pto.mte_gm_ub %a, %ub_a, %c0_i64, %c128_i64
      nburst(%c32_i64, %c128_i64, %c128_i64)
      : !pto.ptr<f32, gm>, !pto.ptr<f32, ub>, i64, i64, i64, i64, i64
    pto.mte_gm_ub %b, %ub_b, %c0_i64, %c128_i64
      nburst(%c32_i64, %c128_i64, %c128_i64)
      : !pto.ptr<f32, gm>, !pto.ptr<f32, ub>, i64, i64, i64, i64, i64
    pto.set_flag["PIPE_MTE2", "PIPE_V", "EVENT_ID0"]
    pto.wait_flag["PIPE_MTE2", "PIPE_V", "EVENT_ID0"]
    pto.vecscope {
      %left:1 = scf.for %i = %c0 to %c1024 step %c64 iter_args(%rem = %n) -> (i32) {
        %mask, %next = pto.plt_b32 %rem : i32 -> !pto.mask<b32>, i32
        %x = pto.vlds %ub_a[%i] : !pto.ptr<f32, ub> -> !pto.vreg<64xf32>
        %y = pto.vlds %ub_b[%i] : !pto.ptr<f32, ub> -> !pto.vreg<64xf32>
        %s = pto.vadd %x, %y, %mask : !pto.vreg<64xf32>, !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>
        pto.vsts %s, %ub_out[%i], %mask : !pto.vreg<64xf32>, !pto.ptr<f32, ub>, !pto.mask<b32>
        scf.yield %next : i32
      }
    }
    pto.set_flag["PIPE_V", "PIPE_MTE3", "EVENT_ID0"]
    pto.wait_flag["PIPE_V", "PIPE_MTE3", "EVENT_ID0"]
    pto.mte_ub_gm %ub_out, %out, %c128_i64
      nburst(%c32_i64, %c128_i64, %c128_i64)
      : !pto.ptr<f32, ub>, !pto.ptr<f32, gm>, i64, i64, i64, i64
    return
  }
}
`;

test('vadd over 1000 f32 elements: plt_b32 masks the tail, a + b where a lane is on', () => {
  const a = Float32Array.from({ length: 1024 }, (_, i) => i * 0.25 - 100);
  const b = Float32Array.from({ length: 1024 }, (_, i) => 1 / (i + 1));
  const buffers = {
    a: new GlobalBuffer('a', 'f32', new Uint8Array(a.buffer.slice(0))),
    b: new GlobalBuffer('b', 'f32', new Uint8Array(b.buffer.slice(0))),
    out: new GlobalBuffer('out', 'f32', new Uint8Array(4096)),
  };
  runMicroKernel(KERNEL, 'vadd_tail', buffers, 100_000);
  const out = new Float32Array(buffers.out.bytes.buffer.slice(0));
  // Each sum rounded once to f32, as Math.fround does; lanes 1000.. were never stored into UB and stay zero.
  const expected = Array.from({ length: 1024 }, (_, i) => (i < 1000 ? Math.fround(a[i] + b[i]) : 0));
  expect(Array.from(out)).toEqual(expected);
});
