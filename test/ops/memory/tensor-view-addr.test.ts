/**
 * pto.tensor_view_addr (VPTOOps.td TensorViewAddrOp): the GM address of a tensor view or of a partition of one, as a
 * !pto.ptr — how PTOAS's tload/tstore templates find the memory they move.
 */
import { GlobalBuffer } from '../../../src/machine/memory';
import { microErrors, runMicroKernel } from '../../fixtures/micro';

/** Copies 8 f32 from the partition at row 1, column 2 of a 4 x 16 view of %src to the start of %dst through UB. */
const COPY = `module attributes {pto.target_arch = "a5"} {
  func.func @copy(%src: !pto.ptr<f32>, %dst: !pto.ptr<f32>) attributes {pto.kernel_kind = #pto.kernel_kind<vector>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %c0_i64 = arith.constant 0 : i64
    %c1_i64 = arith.constant 1 : i64
    %c32_i64 = arith.constant 32 : i64
    %sv = pto.make_tensor_view %src, shape = [%c4, %c16], strides = [%c16, %c1] : !pto.tensor_view<?x?xf32>
    %sp = pto.partition_view %sv, offsets = [%c1, %c2], sizes = [%c1, %c8] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<1x8xf32>
    %dv = pto.make_tensor_view %dst, shape = [%c1, %c8], strides = [%c8, %c1] : !pto.tensor_view<?x?xf32>
    %from = pto.tensor_view_addr %sp : !pto.partition_tensor_view<1x8xf32> -> !pto.ptr<f32, gm>
    %to = pto.tensor_view_addr %dv : !pto.tensor_view<?x?xf32> -> !pto.ptr<f32, gm>
    %ub = pto.castptr %c0_i64 : i64 -> !pto.ptr<f32, ub>
    pto.mte_gm_ub %from, %ub, %c0_i64, %c32_i64 nburst(%c1_i64, %c32_i64, %c32_i64) : !pto.ptr<f32, gm>, !pto.ptr<f32, ub>, i64, i64, i64, i64, i64
    pto.set_flag[<PIPE_MTE2>, <PIPE_MTE3>, <EVENT_ID0>]
    pto.wait_flag[<PIPE_MTE2>, <PIPE_MTE3>, <EVENT_ID0>]
    pto.mte_ub_gm %ub, %to, %c32_i64 nburst(%c1_i64, %c32_i64, %c32_i64) : !pto.ptr<f32, ub>, !pto.ptr<f32, gm>, i64, i64, i64, i64
    return
  }
}
`;

test("a partition's address is its first element (row 1, column 2 of a 16-wide view: element 18); a view's, its pointer's", () => {
  const src = new GlobalBuffer('src', 'f32', new Uint8Array(Float32Array.from({ length: 64 }, (_, i) => i).buffer));
  const dst = new GlobalBuffer('dst', 'f32', new Uint8Array(32));
  runMicroKernel(COPY, 'copy', { src, dst });
  expect(Array.from(new Float32Array(dst.bytes.slice().buffer))).toEqual([18, 19, 20, 21, 22, 23, 24, 25]);
});

test('the result is a GM pointer to the view’s element type', () => {
  const params = '%v: !pto.partition_tensor_view<1x8xf32>';
  expect(microErrors('  %p = pto.tensor_view_addr %v : !pto.partition_tensor_view<1x8xf32> -> !pto.ptr<f32, gm>', params)).toEqual([]);
  const wrong = microErrors('  %p = pto.tensor_view_addr %v : !pto.partition_tensor_view<1x8xf32> -> !pto.ptr<f16, gm>', params);
  expect(wrong).toHaveLength(1);
  expect(wrong[0]).toContain("pto.tensor_view_addr gives a pointer to the view's elements in global memory (!pto.ptr<f32, gm>), not !pto.ptr<f16, gm>");
  expect(microErrors('  %p = pto.tensor_view_addr %v : !pto.partition_tensor_view<1x8xf32> -> !pto.ptr<f32, ub>', params)[0]).toContain(
    'not !pto.ptr<f32, ub>',
  );
});
