/**
 * C = A x B the simulator's way (docs/numerics.md, cube): for each element a sum from 0 over k ascending, every step
 * rounded to f32 (a * b is exact in double for inputs with few significant bits, so fround(sum + a * b) is one fused
 * multiply-add); K is cut into `chunks` (tmatmul, then tmatmul.acc per chunk: total = fround(total + chunk sum)); the
 * bias is added to the first chunk. Integer inputs accumulate exactly and wrap to i32.
 */
import { Matrix } from './matrix';

export function matmul(a: Matrix, b: Matrix, opts: { integer?: boolean; chunks?: number; bias?: number[] } = {}): Matrix {
  const k = b.length;
  const chunks = opts.chunks ?? 1;
  const step = k / chunks;
  return a.map((row) =>
    b[0].map((_, j) => {
      let total = 0;
      for (let s = 0; s < chunks; s++) {
        let sum = 0;
        for (let t = s * step; t < (s + 1) * step; t++) sum = opts.integer ? sum + row[t] * b[t][j] : Math.fround(sum + row[t] * b[t][j]);
        if (s === 0 && opts.bias) sum = opts.integer ? sum + opts.bias[j] : Math.fround(sum + opts.bias[j]);
        total = s === 0 ? sum : opts.integer ? total + sum : Math.fround(total + sum);
      }
      return opts.integer ? total | 0 : total;
    }),
  );
}
