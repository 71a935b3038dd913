import { ElemType } from '../types/type';
import { codec } from '../numerics/elements';
import { CmpfPredicate, FloatBinaryOp } from '../spec/arith';

/**
 * The floating-point `arith` ops on scalars: each result is rounded to its type (f16, bf16, f32; f64 exact in
 * JavaScript), round to nearest even, as MLIR's arith semantics and IEEE 754 define them.
 */
export const FLOAT_BINARY: Record<FloatBinaryOp, (a: number, b: number) => number> = {
  'arith.addf': (a, b) => a + b,
  'arith.subf': (a, b) => a - b,
  'arith.mulf': (a, b) => a * b,
  'arith.divf': (a, b) => a / b,
  // C fmod: the remainder has the dividend's sign.
  'arith.remf': (a, b) => a % b,
  // maximumf/minimumf propagate NaN and order -0 below +0; maxnumf/minnumf return the other operand for one NaN.
  'arith.maximumf': (a, b) => (Number.isNaN(a) || Number.isNaN(b) ? NaN : Math.max(a, b)),
  'arith.minimumf': (a, b) => (Number.isNaN(a) || Number.isNaN(b) ? NaN : Math.min(a, b)),
  'arith.maxnumf': (a, b) => (Number.isNaN(a) ? b : Number.isNaN(b) ? a : Math.max(a, b)),
  'arith.minnumf': (a, b) => (Number.isNaN(a) ? b : Number.isNaN(b) ? a : Math.min(a, b)),
};

/** `arith.cmpf` predicates: ordered ones are false when either operand is NaN, unordered ones true. */
export const CMPF_PREDICATES: Record<CmpfPredicate, (a: number, b: number) => boolean> = {
  false: () => false,
  oeq: (a, b) => a === b,
  ogt: (a, b) => a > b,
  oge: (a, b) => a >= b,
  olt: (a, b) => a < b,
  ole: (a, b) => a <= b,
  one: (a, b) => a < b || a > b,
  ord: (a, b) => !Number.isNaN(a) && !Number.isNaN(b),
  ueq: (a, b) => Number.isNaN(a) || Number.isNaN(b) || a === b,
  ugt: (a, b) => !(a <= b),
  uge: (a, b) => !(a < b),
  ult: (a, b) => !(a >= b),
  ule: (a, b) => !(a > b),
  une: (a, b) => a !== b,
  uno: (a, b) => Number.isNaN(a) || Number.isNaN(b),
  true: () => true,
};

export function roundTo(elem: ElemType, v: number): number {
  return elem === 'f64' ? v : (codec(elem).round(v) as number);
}

/**
 * An integer from a float, toward zero. Out of range (and NaN) is undefined in MLIR: a RangeError, never a guess.
 */
export function floatToInt(v: number, bits: number, unsigned: boolean): bigint {
  const t = Math.trunc(v);
  const [lo, hi] = unsigned ? [0n, (1n << BigInt(bits)) - 1n] : [-(1n << BigInt(bits - 1)), (1n << BigInt(bits - 1)) - 1n];
  if (!Number.isFinite(t) || BigInt(t) < lo || BigInt(t) > hi) throw new RangeError(`${v} does not fit in ${unsigned ? 'u' : 'i'}${bits}`);
  return BigInt(t);
}
