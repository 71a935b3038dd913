/**
 * The element-wise polynomials of the PTOAS attention and FFN samples, each op rounded to f32 as its tile op is: the
 * Taylor "softmax" (exp by its series over 32.0001, a stand-in for the row sum) and the SiLU-like FFN gates. The
 * samples differ in the degree and in the order of their adds, so each variant is spelled out.
 */
import { f32 } from '../../models/float';

/** The constants as the samples write them (`arith.constant ... : f32`). */
const SCALE = f32(1.767767e-1);
const LOW = f32(-4.0001);
const HIGH = f32(4.0001);
const ONE = f32(1.0001);
const DIVISOR = f32(32.0001);
const HALF = f32(0.5);
const SIXTH = f32(1.666667e-1);
const TWENTY_FOURTH = f32(4.166667e-2);
const QUARTER = f32(0.25);
const MINUS_FORTY_EIGHTH = f32(-2.083333e-2);

/** tmaxs then tmins: exact, no rounding. */
const clamp = (x: number): number => Math.min(Math.max(x, LOW), HIGH);

/**
 * The softmax stage on one score: tmuls by 1/sqrt(32), clamp, powers by repeated tmul, each scaled by its Taylor
 * coefficient, summed from x upwards, + 1.0001, / 32.0001. Degree 4, or 3 in gqa_full_tiled (no x^4 term).
 */
export function taylorSoftmax(score: number, degree: 3 | 4 = 4): number {
  const x = clamp(f32(score * SCALE));
  const square = f32(x * x);
  const cube = f32(square * x);
  let e = f32(x + f32(square * HALF));
  e = f32(e + f32(cube * SIXTH));
  if (degree === 4) e = f32(e + f32(f32(cube * x) * TWENTY_FOURTH));
  return f32(f32(e + ONE) / DIVISOR);
}

/** ffn_act and ffn-pto-new: clamp h1, ((0.25 x + 0.5) + (-1/48) x^2 x), times h2. */
export function cubicGate(h1: number, h2: number): number {
  const x = clamp(h1);
  const term = f32(f32(f32(x * x) * x) * MINUS_FORTY_EIGHTH);
  return f32(f32(f32(f32(x * QUARTER) + HALF) + term) * h2);
}

/** ffn_act_dynamic: as the cubic gate with x^5 = x^2 x^3 in place of x^3. */
export function quinticGate(h1: number, h2: number): number {
  const x = clamp(h1);
  const square = f32(x * x);
  const term = f32(f32(square * f32(square * x)) * MINUS_FORTY_EIGHTH);
  return f32(f32(f32(f32(x * QUARTER) + HALF) + term) * h2);
}

/** ffn_full_tiled: x^5 as (x^2 x^2) x, and the adds in the other order: ((-1/48) x^5 + 0.25 x) + 0.5, times h2. */
export function tiledQuinticGate(h1: number, h2: number): number {
  const x = clamp(h1);
  const square = f32(x * x);
  const term = f32(f32(f32(square * square) * x) * MINUS_FORTY_EIGHTH);
  return f32(f32(f32(term + f32(x * QUARTER)) + HALF) * h2);
}
