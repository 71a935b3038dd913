import { bf16BitsToNumber, numberToBf16Bits } from './bfloat16';
import { f16BitsToNumber, numberToF16Bits } from './float16';

/**
 * Rounding modes of TCVT (pto::RoundMode) and the rounding of values to integers and to the 16/32-bit float
 * formats in each of them. RINT = nearest, ties to even; ROUND = nearest, ties away from zero; FLOOR, CEIL,
 * TRUNC = toward -inf, +inf, zero; ODD = round to odd (the kept result has an odd last bit unless exact).
 */
export type RoundingMode = 'rint' | 'round' | 'floor' | 'ceil' | 'trunc' | 'odd';

/** C's rint under the default rounding mode: nearest integer, ties to even (Math.round ties toward +inf). */
export function roundHalfEven(x: number): number {
  const r = Math.round(x);
  // Exact for |x| < 2^52; above that every double is an integer and Math.round returns it.
  return r - x === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

/** C's round: nearest integer, ties away from zero (keeps the sign of zero). */
export function roundHalfAway(x: number): number {
  const r = Math.round(Math.abs(x));
  return x < 0 || Object.is(x, -0) ? -r : r;
}

/** An integral value of x in the mode (true round-to-odd: an inexact x goes to the odd one of its two neighbours). */
export function roundToIntegral(x: number, mode: RoundingMode): number {
  switch (mode) {
    case 'rint':
      return roundHalfEven(x);
    case 'round':
      return roundHalfAway(x);
    case 'floor':
      return Math.floor(x);
    case 'ceil':
      return Math.ceil(x);
    case 'trunc':
      return Math.trunc(x);
    case 'odd': {
      const f = Math.floor(x);
      if (f === x || !Number.isFinite(x)) return x;
      return f % 2 !== 0 ? f : f + 1;
    }
  }
}

/** A float format the conversions round to: its encoder (round to nearest even) and decoder on bit patterns. */
export interface FloatFormat {
  name: 'f16' | 'bf16' | 'f32';
  /** Largest finite value. */
  max: number;
  encode(x: number): number;
  decode(bits: number): number;
}

const f32Scratch = new Float32Array(1);
const f32Bits = new Uint32Array(f32Scratch.buffer);

export const FORMATS: Record<FloatFormat['name'], FloatFormat> = {
  f16: { name: 'f16', max: 65504, encode: numberToF16Bits, decode: f16BitsToNumber },
  // max: bf16 0x7f7f, written out so that loading this module does not build the bf16 decode table.
  bf16: { name: 'bf16', max: 3.3895313892515355e38, encode: numberToBf16Bits, decode: bf16BitsToNumber },
  f32: {
    name: 'f32',
    max: 3.4028234663852886e38,
    encode: (x) => ((f32Scratch[0] = x), f32Bits[0]),
    decode: (bits) => ((f32Bits[0] = bits), f32Scratch[0]),
  },
};

/**
 * x (a double that is exact in the caller's eyes: an f32/f16 value or an integer below 2^53) rounded to `format`
 * in the mode. Overflow follows IEEE 754: the nearest modes give +-inf, the directed modes the largest finite
 * value on the side they round toward, round-to-odd the largest finite value. NaN stays NaN.
 */
export function roundToFormat(x: number, format: FloatFormat, mode: RoundingMode): number {
  const nearest = format.decode(format.encode(x));
  if (nearest === x || Number.isNaN(x)) return nearest;
  if (!Number.isFinite(x)) return x;
  // Nearest-even needs no neighbours (most conversions are this one).
  if (mode === 'rint') return nearest;
  // The two values of the format around x: `nearest` is one of them, the other is one bit pattern away
  // (the pattern after the largest finite value is infinity, which is how overflow comes out).
  const belowInMagnitude = Math.abs(nearest) < Math.abs(x);
  const towardZero = belowInMagnitude ? nearest : adjacent(nearest, format, -1);
  const awayFromZero = belowInMagnitude ? adjacent(nearest, format, +1) : nearest;
  switch (mode) {
    case 'round': {
      const tie = Math.abs(x) - Math.abs(towardZero) === Math.abs(awayFromZero) - Math.abs(x);
      return tie ? awayFromZero : nearest;
    }
    case 'trunc':
      return towardZero;
    case 'floor':
      return x > 0 ? towardZero : awayFromZero;
    case 'ceil':
      return x > 0 ? awayFromZero : towardZero;
    case 'odd':
      return (format.encode(towardZero) & 1) === 1 ? towardZero : awayFromZero;
  }
}

/** The value of the format one bit pattern away from `v` (a value of the format, not zero when stepping toward zero), keeping its sign. */
function adjacent(v: number, format: FloatFormat, step: 1 | -1): number {
  const bits = format.encode(v);
  const signBit = format.name === 'f32' ? 0x80000000 : 0x8000;
  const magnitude = (bits & ~signBit) >>> 0;
  return format.decode(((bits & signBit) | (magnitude + step)) >>> 0);
}
