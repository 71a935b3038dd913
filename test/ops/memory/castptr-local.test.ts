/**
 * pto.castptr of an on-chip pointer to another element type (PTOAS's tsel/tsels templates read an i8 mask tile
 * through a !pto.ptr<ui8, ub>): the same buffer and byte address, its bytes seen as the new type.
 */
import { GlobalBuffer } from '../../../src/machine/memory';
import { runMicroKernel } from '../../fixtures/micro';

const KERNEL = `module attributes {pto.target_arch = "a5"} {
  func.func @k(%src: !pto.ptr<i8, gm>, %dst: !pto.ptr<ui8, gm>) attributes {pto.kernel_kind = #pto.kernel_kind<vector>} {
    %c0_i64 = arith.constant 0 : i64
    %c1_i64 = arith.constant 1 : i64
    %c32_i64 = arith.constant 32 : i64
    %c64_i64 = arith.constant 64 : i64
    %ub = pto.castptr %c32_i64 : i64 -> !pto.ptr<i8, ub>
    %ub_u8 = pto.castptr %ub : !pto.ptr<i8, ub> -> !pto.ptr<ui8, ub>
    pto.mte_gm_ub %src, %ub, %c0_i64, %c32_i64 nburst(%c1_i64, %c32_i64, %c32_i64) : !pto.ptr<i8, gm>, !pto.ptr<i8, ub>, i64, i64, i64, i64, i64
    pto.set_flag[<PIPE_MTE2>, <PIPE_MTE3>, <EVENT_ID0>]
    pto.wait_flag[<PIPE_MTE2>, <PIPE_MTE3>, <EVENT_ID0>]
    pto.mte_ub_gm %ub_u8, %dst, %c32_i64 nburst(%c1_i64, %c32_i64, %c32_i64) : !pto.ptr<ui8, ub>, !pto.ptr<ui8, gm>, i64, i64, i64, i64
    return
  }
}
`;

test('a UB pointer retyped i8 -> ui8 reads the bytes written through the i8 one, at the same address', () => {
  const bytes = Uint8Array.from({ length: 32 }, (_, i) => (i * 37 + 200) & 0xff);
  const src = new GlobalBuffer('src', 'i8', bytes.slice());
  const dst = new GlobalBuffer('dst', 'u8', new Uint8Array(32));
  runMicroKernel(KERNEL, 'k', { src, dst });
  expect(Array.from(dst.bytes)).toEqual(Array.from(bytes));
});
