import { RoundingMode } from './rounding';

/**
 * The A5 vector unit's low-precision float formats as TCVT reads and writes them (vcvt): OCP's fp8 E4M3FN and E5M2,
 * HiFloat8 and the two fp4 formats of the packed `x2` types (one 4-bit code per nibble). Codes are the format's
 * bits (an fp4 code is 0..15, the caller packs two per byte). Decoding is exact in a double; encoding rounds to the
 * nearest codes of the format (IEEE 754's rounding, on the format's own value ladder).
 */
export interface LowPrecisionFormat {
  name: string;
  bits: 4 | 8;
  /** The value of a code: NaN and +-Infinity where the format has them. */
  decode(code: number): number;
  /** The largest finite value and its code (sign clear). */
  max: number;
  maxCode: number;
  /**
   * The value one mantissa step past `max` at max's exponent, had the format one more code there: a result that
   * rounds to it has overflowed (IEEE 754's overflow, with an unbounded exponent).
   */
  pastMax: number;
  /** The code of +infinity, when the format has exactly one per sign. */
  infinityCode?: number;
  /** The code of NaN, when the format has exactly one. */
  nanCode?: number;
  /** Whether a zero keeps its sign (HiFloat8's sign-bit zero is its NaN, so its zero is unsigned). */
  signedZero: boolean;
  /** Below this magnitude an inexact result is not documented (HiFloat8's denormals are powers of two only). */
  inexactUndocumentedBelow?: number;
}

/** An IEEE-style value: sign, exponent field (bias), mantissa field; a zero exponent field is subnormal. */
function ieee(code: number, exponentBits: number, mantissaBits: number, bias: number): number {
  const mantissa = code & ((1 << mantissaBits) - 1);
  const exponent = (code >> mantissaBits) & ((1 << exponentBits) - 1);
  const sign = (code >> (exponentBits + mantissaBits)) & 1 ? -1 : 1;
  const magnitude = exponent === 0 ? mantissa * 2 ** (1 - bias - mantissaBits) : 2 ** (exponent - bias) * (1 + mantissa / 2 ** mantissaBits);
  return sign * magnitude;
}

/**
 * HiFloat8: sign, then a prefix ("dot") field saying how many exponent bits follow, then the exponent in sign-magnitude
 * form with an implicit leading 1 in its magnitude, then the mantissa (1.M):
 *   0001 mmm: 2^0;  001 s mmm: 2^+-1;  01 s e mmm: 2^+-(2..3);  10 s ee mm: 2^+-(4..7);  11 s eee m: 2^+-(8..15).
 * 0000 mmm (m > 0) are the denormals 2^(m - 23); 0x00 is zero, 0x80 NaN, and 11 0111 1 (0x6f / 0xef) +-infinity.
 */
function hifloat8(code: number): number {
  const sign = code & 0x80 ? -1 : 1;
  const payload = code & 0x7f;
  if (payload >> 3 === 0) {
    if (payload === 0) return code === 0x80 ? NaN : 0;
    return sign * 2 ** (payload - 23);
  }
  // The prefix sets the exponent width: 0001 -> 0 bits, 001 -> 1, 01 -> 2, 10 -> 3, 11 -> 4.
  const width = payload >> 5 === 3 ? 4 : payload >> 5 === 2 ? 3 : payload >> 5 === 1 ? 2 : payload >> 4 === 1 ? 1 : 0;
  const mantissaBits = width === 4 ? 1 : width === 3 ? 2 : 3;
  const mantissa = payload & ((1 << mantissaBits) - 1);
  let exponent = 0;
  if (width > 0) {
    const field = (payload >> mantissaBits) & ((1 << width) - 1);
    const top = 1 << (width - 1);
    exponent = (field & top ? -1 : 1) * (top | (field & (top - 1)));
  }
  if (exponent === 15 && mantissa === 1) return sign * Infinity;
  return sign * 2 ** exponent * (1 + mantissa / 2 ** mantissaBits);
}

const FORMATS: Record<string, LowPrecisionFormat> = {
  // OCP E4M3FN: no infinity, S.1111.111 is NaN; max 1.75 x 2^8 = 448 (0x7e).
  f8E4M3FN: {
    name: 'f8E4M3FN',
    bits: 8,
    decode: (c) => ((c & 0x7f) === 0x7f ? NaN : ieee(c, 4, 3, 7)),
    max: 448,
    maxCode: 0x7e,
    pastMax: 480,
    signedZero: true,
  },
  // OCP E5M2: IEEE 754 style, infinity 0x7c, NaNs 0x7d..0x7f; max 1.75 x 2^15 = 57344 (0x7b).
  f8E5M2: {
    name: 'f8E5M2',
    bits: 8,
    decode: (c) => ((c & 0x7c) === 0x7c ? ((c & 3) === 0 ? (c & 0x80 ? -Infinity : Infinity) : NaN) : ieee(c, 5, 2, 15)),
    max: 57344,
    maxCode: 0x7b,
    pastMax: 65536,
    infinityCode: 0x7c,
    signedZero: true,
  },
  // HiFloat8: max 2^15 (0x6e) has one mantissa bit, so the next value would be 1.5 x 2^15.
  '!pto.hif8': {
    name: '!pto.hif8',
    bits: 8,
    decode: hifloat8,
    max: 32768,
    maxCode: 0x6e,
    pastMax: 49152,
    infinityCode: 0x6f,
    nanCode: 0x80,
    signedZero: false,
    inexactUndocumentedBelow: 2 ** -15,
  },
  // fp4 E2M1 (bias 1): 0, 0.5, 1, 1.5, 2, 3, 4, 6; no infinity or NaN.
  '!pto.f4E2M1x2': { name: 'f4E2M1', bits: 4, decode: (c) => ieee(c, 2, 1, 1), max: 6, maxCode: 0x7, pastMax: 8, signedZero: true },
  // fp4 E1M2 (bias 1): 0, 0.25, ..., 1.75 in steps of 0.25; no infinity or NaN.
  '!pto.f4E1M2x2': { name: 'f4E1M2', bits: 4, decode: (c) => ieee(c, 1, 2, 1), max: 1.75, maxCode: 0x7, pastMax: 2, signedZero: true },
};

/** The format of a low-precision element type TCVT converts (a packed fp4 type: the format of each nibble). */
export function lowPrecisionFormat(dtype: string): LowPrecisionFormat | undefined {
  return FORMATS[dtype];
}

/** Whether a low-precision element holds two codes (one per nibble, the first element in the low nibble). */
export const isPackedFp4 = (dtype: string): boolean => dtype === '!pto.f4E2M1x2' || dtype === '!pto.f4E1M2x2';

interface Rung {
  value: number;
  code: number;
}

const LADDERS = new Map<LowPrecisionFormat, Rung[]>();

/** The format's finite non-negative values with their codes, ascending. */
function ladder(format: LowPrecisionFormat): Rung[] {
  let rungs = LADDERS.get(format);
  if (!rungs) {
    rungs = [];
    for (let code = 0; code < 1 << (format.bits - 1); code++) {
      const value = format.decode(code);
      if (Number.isFinite(value)) rungs.push({ value, code });
    }
    rungs.sort((a, b) => a.value - b.value);
    LADDERS.set(format, rungs);
  }
  return rungs;
}

/**
 * What a conversion does with results outside the finite range: `saturate` (vcvt's #sat: overflow and +-infinity
 * give +-max, NaN gives 0), `keep` (no saturation: +-infinity and NaN keep their codes where the format has a single
 * one; an overflowing finite value is not documented) or `undocumented` (none of them is).
 */
export type OutOfRange = 'saturate' | 'keep' | 'undocumented';

/**
 * The code of x (a double, exact in the caller's eyes: an f32, f16 or bf16 value) in the format, rounded in the
 * mode; undefined where the NPU's result is not documented (see OutOfRange and inexactUndocumentedBelow).
 */
export function encodeLowPrecision(format: LowPrecisionFormat, x: number, mode: RoundingMode, outOfRange: OutOfRange): number | undefined {
  const signBit = 1 << (format.bits - 1);
  if (Number.isNaN(x)) {
    if (outOfRange === 'saturate') return 0;
    return outOfRange === 'keep' ? format.nanCode : undefined;
  }
  const negative = x < 0 || Object.is(x, -0);
  const sign = negative ? signBit : 0;
  const a = Math.abs(x);
  if (a === Infinity) {
    if (outOfRange === 'saturate') return sign | format.maxCode;
    return outOfRange === 'keep' && format.infinityCode !== undefined ? sign | format.infinityCode : undefined;
  }
  const rungs = ladder(format);
  // lo <= a < hi, hi past the top being the overflow value pastMax (with the code that would follow maxCode).
  let low = 0;
  let high = rungs.length - 1;
  if (a >= format.max) low = high;
  else
    while (high - low > 1) {
      const mid = (low + high) >> 1;
      if (rungs[mid].value <= a) low = mid;
      else high = mid;
    }
  const lo = rungs[low];
  const overflow: Rung = { value: format.pastMax, code: format.maxCode + 1 };
  const hi = a >= format.max ? overflow : rungs[low + 1];
  let chosen: Rung;
  if (lo.value === a) chosen = lo;
  else if (a >= format.pastMax) {
    // Beyond the last step: only the modes that round toward zero stay finite.
    const towardZero = mode === 'trunc' || (mode === 'floor' && !negative) || (mode === 'ceil' && negative);
    chosen = towardZero ? lo : overflow;
  } else {
    if (format.inexactUndocumentedBelow !== undefined && a < format.inexactUndocumentedBelow) return undefined;
    const middle = (lo.value + hi.value) / 2; // exact: both are short binary fractions
    switch (mode) {
      case 'trunc':
        chosen = lo;
        break;
      case 'floor':
        chosen = negative ? hi : lo;
        break;
      case 'ceil':
        chosen = negative ? lo : hi;
        break;
      case 'odd':
        chosen = (lo.code & 1) === 1 ? lo : hi;
        break;
      case 'round':
        chosen = a < middle ? lo : hi;
        break;
      case 'rint':
        chosen = a < middle ? lo : a > middle ? hi : (lo.code & 1) === 0 ? lo : hi;
        break;
    }
  }
  if (chosen === overflow) return outOfRange === 'saturate' ? sign | format.maxCode : undefined;
  return chosen.value === 0 && !format.signedZero ? chosen.code : sign | chosen.code;
}
