/**
 * The PTOAS matmul kernels with explicit sync: the split-K kernel RunTMATMULSplitK (C = A x B over K = 256 in eight
 * chunks of 32, tmatmul or tmatmul.bias on the first, tmatmul.acc on the rest, bias when the i1 flag is set), the
 * textract kernel whose flags pick each operand's layout in GM, and the mixed cube/vector kernel. Inputs are exact
 * (small multiples of 1/8), so every product is exact and only the documented f32 accumulation order matters.
 */
import { matmul } from '../../models/matmul';
import { rowsOf, transpose } from '../../models/matrix';
import { rowMax } from '../../models/reduce';
import { product } from './cube';
import { SampleReference } from './harness';

/** RunTMATMULSplitK(out, A 32x256, B 256x32, bias 1x32, isBias): out = A x B (+ bias) in K chunks of 32. */
const splitK = (file: string, withBias: boolean): SampleReference => ({
  file,
  fill: 'exact',
  args: { arg4: withBias ? '1' : '0' },
  expect: (io) => ({ arg0: product(io, { a: 'arg1', b: 'arg2', m: 32, n: 32, chunk: 32, bias: withBias ? 'arg3' : undefined }) }),
});

/**
 * RunTEXTRACT(out, src0, src1, isAtranspose, isBtranspose): out = A x B, 32x256 by 256x32, one tmatmul over all of K.
 * isAtranspose = 1 reads A column-major (DN, A[i][k] at src0[i + 32k]), else row-major; isBtranspose = 1 reads B
 * row-major (ND), else column-major (DN, B[k][j] at src1[k + 256j]) - the flag names follow the .py, not the layouts.
 */
const extractThenMultiply = (aColumnMajor: boolean, bRowMajor: boolean): SampleReference => ({
  file: 'test/samples/Matmul_transpose/Matmul_transpose-pto-ir.pto',
  fill: 'exact',
  args: { arg3: aColumnMajor ? '1' : '0', arg4: bRowMajor ? '1' : '0' },
  expect: (io) => {
    const a = aColumnMajor ? transpose(rowsOf(io.in.arg1, 256, 32)) : rowsOf(io.in.arg1, 32, 256);
    const b = bRowMajor ? rowsOf(io.in.arg2, 256, 32) : transpose(rowsOf(io.in.arg2, 32, 256));
    return { arg0: matmul(a, b).flat() };
  },
});

export const MATMUL_KERNELS: SampleReference[] = [
  splitK('test/samples/MatMul/0.pto', true),
  splitK('test/samples/MatMul/0.pto', false),
  splitK('test/samples/MatMul/tmatmulk.pto', true),
  splitK('test/samples/MatMul/tmatmulk.pto', false),
  // The same kernel inside pto.section.cube.
  splitK('tools/ptobc/testdata/matmul_static_singlecore.pto', true),
  splitK('tools/ptobc/testdata/matmul_static_singlecore.pto', false),
  extractThenMultiply(false, true),
  extractThenMultiply(true, true),
  extractThenMultiply(false, false),
  extractThenMultiply(true, false),
  // A x B on the cube, moved Acc -> Vec and reduced by trowmax; the .pto (unlike its .py) stores nothing back to GM,
  // so the harness stores the two vector tiles it leaves (%21 = A x B, %22 = the row maxima). Block 0 of one core.
  {
    file: 'test/samples/Complex/mix_kernel.pto',
    target: 'a5',
    fill: 'exact',
    observe: ['%21', '%22'],
    expect: (io) => {
      const c = matmul(rowsOf(io.in.arg0, 32, 32), rowsOf(io.in.arg1, 32, 32));
      return { observed_21: c.flat(), observed_22: c.map(rowMax) };
    },
  },
];
