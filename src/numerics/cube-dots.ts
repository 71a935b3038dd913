import { fusedMultiplyAdd, x86Nan } from './arithmetic';
import { codec } from './elements';

/**
 * The cube's arithmetic (moved here from src/ops/instructions/semantics/cube.ts so that the tile-level tmatmul and
 * the micro level's pto.mad share it): the dot products of decoded inputs, as the reference simulator
 * (pto-isa cpu/TMatmul.hpp) sums them.
 */

// Hot loops read Math's functions once: a global lookup per call is slow where the code runs in a vm context (jest).
const fround = Math.fround;
const F32 = codec('f32');

/**
 * One step of a dot product: the f32 fused multiply-add x * y + sum, rounded once. fusedMultiplyAdd's common case
 * inline: x * y is exact (f32 inputs), and when x * y + sum is exact in double too, one rounding to f32 is the FMA.
 * A NaN follows x86's rule instead of the host's: a NaN input propagates (x, then y, then the sum); 0 x inf gives
 * the default NaN.
 */
function fmaStep(x: number, y: number, sum: number): number {
  const p = x * y;
  const s = p + sum;
  let next: number;
  if (s - s === 0) {
    const bv = s - p;
    next = p - (s - bv) + (sum - bv) === 0 || s === 0 ? fround(s) : fusedMultiplyAdd(x, y, sum, F32);
  } else next = fround(s);
  return next === next ? next : x86Nan(x86Nan(x, y), sum);
}

/**
 * fmaStep, its common case first: when the addition's error (TwoSum's) is 0, x * y + sum is exact in double and
 * finite, and fmaStep gives fround(s); every other step (an inexact sum, an infinity, a NaN) goes through fmaStep.
 * The same result as fmaStep, without its checks for a finite sum and a NaN result on the hot path.
 */
function dotStep(x: number, y: number, sum: number): number {
  const p = x * y;
  const s = p + sum;
  const bv = s - p;
  return p - (s - bv) + (sum - bv) === 0 || s === 0 ? fround(s) : fmaStep(x, y, sum);
}

/**
 * Every sum over t < k of a[i, t] * b[t, j] in the simulator's order (from +0, t ascending, one fused multiply-add
 * per step) into out[i * n + j]. `a` is the m x k input row by row, `bt` the k x n input column by column (both
 * decoded once per instruction); four columns at a time, so that four independent sums keep the processor busy.
 */
export function floatDots(a: Float64Array, bt: Float64Array, m: number, n: number, k: number, out: Float64Array): void {
  for (let i = 0; i < m; i++) {
    const ai = i * k;
    let j = 0;
    for (; j + 3 < n; j += 4) {
      const b0 = j * k;
      const b1 = b0 + k;
      const b2 = b1 + k;
      const b3 = b2 + k;
      let s0 = 0;
      let s1 = 0;
      let s2 = 0;
      let s3 = 0;
      for (let t = 0; t < k; t++) {
        const x = a[ai + t];
        s0 = dotStep(x, bt[b0 + t], s0);
        s1 = dotStep(x, bt[b1 + t], s1);
        s2 = dotStep(x, bt[b2 + t], s2);
        s3 = dotStep(x, bt[b3 + t], s3);
      }
      const o = i * n + j;
      out[o] = s0;
      out[o + 1] = s1;
      out[o + 2] = s2;
      out[o + 3] = s3;
    }
    for (; j < n; j++) {
      const bj = j * k;
      let sum = 0;
      for (let t = 0; t < k; t++) sum = dotStep(a[ai + t], bt[bj + t], sum);
      out[i * n + j] = sum;
    }
  }
}

/**
 * floatDots for 16-bit float inputs (f16, bf16), where every step is fround(x * y + sum): a product has at most 22
 * significant bits and is exact in double, and for two addends of at most 24 bits a sum rounded to double (53 >=
 * 2 * 24 + 1 bits) and then to f32 is the sum rounded once (Figueroa, "When is double rounding innocuous?", 1995).
 * Where f32's range ends the same holds: the double sum is inexact only when one addend is below 2^-28 of the
 * other, and then both roundings give the larger one (a subnormal f32 sum: it is on the grid, the product below
 * 2^-155), and no such sum sits on the overflow threshold. A sum that ends a NaN is summed again by fmaStep, which
 * takes x86's NaN; an infinity stays one, as fmaStep keeps it.
 */
export function halfDots(a: Float64Array, bt: Float64Array, m: number, n: number, k: number, out: Float64Array): void {
  // Two rows by four columns at a time: eight independent sums, each value of B read once for two rows. With an odd
  // m the last row is taken as both rows (the same sums twice, to the same place).
  for (let i = 0; i < m; i += 2) {
    const i2 = Math.min(i + 1, m - 1);
    const [ai, ai2] = [i * k, i2 * k];
    let j = 0;
    for (; j + 3 < n; j += 4) {
      const b0 = j * k;
      const b1 = b0 + k;
      const b2 = b1 + k;
      const b3 = b2 + k;
      let [s0, s1, s2, s3, u0, u1, u2, u3] = [0, 0, 0, 0, 0, 0, 0, 0];
      for (let t = 0; t < k; t++) {
        const x = a[ai + t];
        const z = a[ai2 + t];
        const y0 = bt[b0 + t];
        const y1 = bt[b1 + t];
        const y2 = bt[b2 + t];
        const y3 = bt[b3 + t];
        s0 = fround(x * y0 + s0);
        s1 = fround(x * y1 + s1);
        s2 = fround(x * y2 + s2);
        s3 = fround(x * y3 + s3);
        u0 = fround(z * y0 + u0);
        u1 = fround(z * y1 + u1);
        u2 = fround(z * y2 + u2);
        u3 = fround(z * y3 + u3);
      }
      const [o, o2] = [i * n + j, i2 * n + j];
      out[o] = s0 === s0 ? s0 : exactDot(a, ai, bt, b0, k);
      out[o + 1] = s1 === s1 ? s1 : exactDot(a, ai, bt, b1, k);
      out[o + 2] = s2 === s2 ? s2 : exactDot(a, ai, bt, b2, k);
      out[o + 3] = s3 === s3 ? s3 : exactDot(a, ai, bt, b3, k);
      out[o2] = u0 === u0 ? u0 : exactDot(a, ai2, bt, b0, k);
      out[o2 + 1] = u1 === u1 ? u1 : exactDot(a, ai2, bt, b1, k);
      out[o2 + 2] = u2 === u2 ? u2 : exactDot(a, ai2, bt, b2, k);
      out[o2 + 3] = u3 === u3 ? u3 : exactDot(a, ai2, bt, b3, k);
    }
    for (; j < n; j++) {
      out[i * n + j] = exactDot(a, ai, bt, j * k, k);
      out[i2 * n + j] = exactDot(a, ai2, bt, j * k, k);
    }
  }
}

/** One sum of floatDots: a[ai + t] * bt[bj + t] over t < k, each step by fmaStep. */
function exactDot(a: Float64Array, ai: number, bt: Float64Array, bj: number, k: number): number {
  let sum = 0;
  for (let t = 0; t < k; t++) sum = fmaStep(a[ai + t], bt[bj + t], sum);
  return sum;
}

/** Whether a product of the two dtypes has at most 24 significant bits (see halfDots). */
export const isHalf = (dtype: string): boolean => dtype === 'f16' || dtype === 'bf16';

/** The i8 x i8 -> i32 dot product; the i32 sum wraps (every partial sum fits a double exactly, so wrapping once is the same). */
export function integerDot(a: Float64Array, bt: Float64Array, i: number, j: number, k: number): number {
  let sum = 0;
  for (let t = 0; t < k; t++) sum += a[i * k + t] * bt[j * k + t];
  return sum | 0;
}

/** f32 a + b rounded once, with x86's NaN choice (the simulator's `acc + mul_acc` and `c += bias`). */
export function addF32(a: number, b: number): number {
  const v = a + b;
  return v === v ? fround(v) : x86Nan(a, b);
}

/**
 * The sums of matmul for inputs already decoded (`av` m x k row by row, `bt` k x n column by column) into
 * out[i * n + j], without an accumulator or bias: the tile-level tmatmul and the micro level's pto.mad
 * (src/micro/run/cube.ts) read their inputs each their own way and share this arithmetic. `kind`: i8 inputs (an i32 sum, wrapping), 16-bit floats,
 * or other floats.
 */
export function dotProducts(av: Float64Array, bt: Float64Array, m: number, n: number, k: number, kind: 'integer' | 'half' | 'float', out: Float64Array): void {
  if (kind === 'half') return halfDots(av, bt, m, n, k, out);
  if (kind === 'float') return floatDots(av, bt, m, n, k, out);
  for (let i = 0; i < m; i++) for (let j = 0; j < n; j++) out[i * n + j] = integerDot(av, bt, i, j, k);
}
