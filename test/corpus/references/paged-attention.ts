/**
 * The vector kernels of the PyPTO paged attention example: 16 query rows against a 128-column block. softmax_prepare
 * scales the scores, takes each row's max, exponentiates, rounds to bf16 (P for the next matmul) and sums the rounded
 * row; online_update folds one block's (mij, lij, oi_new) into the running (mi, li, oi) and, on the last block,
 * divides by the row sums. Every tile op rounds to f32; row vectors are 16 x 1 (one element per row).
 */
import { bf16, exp32, f32 } from '../../models/float';
import { rowsOf } from '../../models/matrix';
import { rowMax, rowSum } from '../../models/reduce';
import { SampleIO, SampleReference } from './harness';

const ROWS = 16;
const COLS = 128;
const DIR = 'test/samples/PyPTOIRParser/paged_attention_example_kernel';

/** tmax's rule (src0 < src1 ? src1 : src0); the generated data has no NaN, where the profiles differ. */
const max = (a: number, b: number): number => (a < b ? b : a);

/**
 * kernel_softmax_prepare(sij, scale, pij, mi, li): s = sij * scale, mi = row max of s, pij = bf16(exp(s - mi)) with
 * tcvt ROUND (npu: ties away from zero; cpu-sim's C cast: ties to even), li = row sum of pij widened back to f32 in
 * the profile's order (a 128-element row is two 64-lane f32 repeats: npu folds them, then the pair tree).
 */
function softmaxPrepare(io: SampleIO): Record<string, number[]> {
  const scale = f32(io.scalar.arg1);
  const ties = io.profile === 'npu' ? 'away' : 'even';
  const scaled = rowsOf(io.in.arg0, ROWS, COLS).map((row) => row.map((x) => f32(x * scale)));
  const rowMaxima = scaled.map(rowMax);
  const probabilities = scaled.map((row, r) => row.map((x) => bf16(exp32(f32(x - rowMaxima[r])), ties)));
  return { arg2: probabilities.flat(), arg3: rowMaxima, arg4: probabilities.map((row) => rowSum(row, io.profile)) };
}

/**
 * kernel_online_update(mij, lij, oi_new, mi, li, oi, dst, is_first, is_last). First block: (mi, li, oi) = (mij, lij,
 * oi_new). Later blocks: m = max(mi, mij), alpha = exp(mi - m), beta = exp(mij - m), li = alpha li + beta lij,
 * oi = alpha oi + beta oi_new, mi = m. Last block: dst = oi / li per row; otherwise dst is filled with 0.
 */
function onlineUpdate(io: SampleIO): Record<string, number[]> {
  const [mij, lij, oiNew, mi, li, oi] = ['arg0', 'arg1', 'arg2', 'arg3', 'arg4', 'arg5'].map((name) => io.in[name]);
  const first = io.scalar.arg7 !== 0;
  const last = io.scalar.arg8 !== 0;
  let m: number[], l: number[], o: number[];
  if (first) {
    [m, l, o] = [mij, lij, oiNew];
  } else {
    m = mi.map((x, r) => max(x, mij[r]));
    const alpha = mi.map((x, r) => exp32(f32(x - m[r])));
    const beta = mij.map((x, r) => exp32(f32(x - m[r])));
    l = li.map((x, r) => f32(f32(alpha[r] * x) + f32(beta[r] * lij[r])));
    o = oi.map((x, k) => {
      const r = Math.floor(k / COLS);
      return f32(f32(x * alpha[r]) + f32(oiNew[k] * beta[r]));
    });
  }
  const dst = last ? o.map((x, k) => f32(x / l[Math.floor(k / COLS)])) : o.map(() => 0);
  return { arg3: m, arg4: l, arg5: o, arg6: dst };
}

const onlineUpdateEntry = (isFirst: string, isLast: string): SampleReference => ({
  file: `${DIR}_online_update.pto`,
  // dst is only written, so the VM would start it at zeros: random contents make the zero fill visible.
  args: { arg6: `random:${ROWS * COLS}:7`, arg7: isFirst, arg8: isLast },
  expect: onlineUpdate,
});

export const PAGED_ATTENTION: SampleReference[] = [
  // scale = 1 / sqrt(128), the head dimension's softmax scale (not exact in f32: the scalar rounds first).
  { file: `${DIR}_softmax_prepare.pto`, args: { arg1: String(1 / Math.sqrt(COLS)) }, expect: softmaxPrepare },
  // A wider spread of scores: the small exps make the two profiles' row sums differ (11 rows), and with the generated
  // scores one exp falls exactly halfway between two bf16 values, where ROUND (npu) and the C cast (cpu-sim) differ.
  { file: `${DIR}_softmax_prepare.pto`, args: { arg1: '1.501' }, expect: softmaxPrepare },
  // All four paths of the two nested scf.if: (is_first, is_last).
  onlineUpdateEntry('1', '0'),
  onlineUpdateEntry('1', '1'),
  onlineUpdateEntry('0', '0'),
  onlineUpdateEntry('0', '1'),
  // kernel_init_inplace only makes tensor views of oi, li, mi and returns: no tile op, so every buffer is unchanged.
  // Nothing loads them, so the VM would start them at zeros; random contents make a stray zero fill visible.
  {
    file: `${DIR}_init_inplace.pto`,
    args: { arg0: `random:${ROWS * COLS}:1`, arg1: `random:${ROWS}:2`, arg2: `random:${ROWS}:3` },
    expect: () => ({}),
  },
];
