import { ElemType } from '../types/type';
import { roundHalfEven } from './rounding';

/**
 * The values of A5's 8-bit MX formats as the reference simulator decodes them (pto-isa cpu/MXTypes.hpp, MXType's
 * conversion to double): a non-zero exponent field is a normal number, 2^(e - bias) x 1.m, whatever its value (no
 * code is NaN or infinity there); a zero exponent field is subnormal, m x 2^(1 - bias - mantissa bits); E8M0 has no
 * mantissa, so every code is 2^(e - 127). Each value is exact in a double.
 */
interface MxFormat {
  exponentBits: number;
  mantissaBits: number;
  bias: number;
}

const FORMATS: Partial<Record<ElemType, MxFormat>> = {
  f8E4M3FN: { exponentBits: 4, mantissaBits: 3, bias: 7 },
  f8E5M2: { exponentBits: 5, mantissaBits: 2, bias: 15 },
  '!pto.f8E8M0': { exponentBits: 8, mantissaBits: 0, bias: 127 },
};

/** Whether the VM decodes this 8-bit format for the MX matmul (f8E4M3FN, f8E5M2, E8M0). */
export const isMxDecodable = (dtype: ElemType): boolean => FORMATS[dtype] !== undefined;

/** The simulator's value of an 8-bit code of `dtype` (f8E4M3FN, f8E5M2 or E8M0). */
export function mxValue(dtype: ElemType, bits: number): number {
  const f = FORMATS[dtype];
  if (!f) throw new Error(`no MX decoding for ${dtype}`);
  const mantissa = bits & ((1 << f.mantissaBits) - 1);
  const exponent = (bits >> f.mantissaBits) & ((1 << f.exponentBits) - 1);
  const negative = f.exponentBits + f.mantissaBits < 8 && (bits >> (f.exponentBits + f.mantissaBits)) & 1;
  const magnitude =
    exponent > 0 || f.mantissaBits === 0 ? 2 ** (exponent - f.bias) * (1 + mantissa / 2 ** f.mantissaBits) : mantissa * 2 ** (1 - f.bias - f.mantissaBits);
  // The simulator's negative zero decodes to +0 (it returns the integer -0); every other code keeps its sign.
  return negative && magnitude !== 0 ? -magnitude : magnitude;
}

/**
 * The codes IEEE-style decoding gives no finite value, which the simulator decodes as numbers: f8E4M3FN's NaN
 * (S.1111.111), f8E5M2's infinities and NaNs (exponent 11111), E8M0's NaN (0xFF). What the NPU's cube does with
 * them is not documented.
 */
export function isMxSpecialCode(dtype: ElemType, bits: number): boolean {
  if (dtype === 'f8E4M3FN') return (bits & 0x7f) === 0x7f;
  if (dtype === 'f8E5M2') return (bits & 0x7c) === 0x7c;
  if (dtype === '!pto.f8E8M0') return bits === 0xff;
  return false;
}

/**
 * The E4M3 (OCP "fn") code of x, rounded to nearest with ties to the even code and saturated to +-448 (codes 0x7e,
 * 0xfe), subnormals kept (2^-9 steps below 2^-6). NaN gives 0x7f. A zero result keeps x's sign when `signedZero`
 * (an IEEE conversion), else it is 0x00 (the simulator's nearest-code search meets +0 first).
 */
export function encodeE4M3(x: number, signedZero: boolean): number {
  if (Number.isNaN(x)) return 0x7f;
  const sign = x < 0 || Object.is(x, -0) ? 0x80 : 0;
  const a = Math.abs(x);
  if (a >= 448) return sign | 0x7e;
  const step = e4m3Step(a);
  const q = roundHalfEven(a / step) * step; // exact: a is an f32 and step a power of two
  if (q === 0) return signedZero ? sign : 0;
  if (q < 2 ** -6) return sign | (q * 512);
  let qe = Math.floor(Math.log2(q));
  if (2 ** qe > q) qe--;
  return sign | ((qe + 7) << 3) | ((q / 2 ** qe - 1) * 8);
}

/** The spacing of E4M3 values around a (0 <= a < 448): 3 mantissa bits, below 2^-6 the subnormal step 2^-9. */
export function e4m3Step(a: number): number {
  let e = a === 0 ? -6 : Math.floor(Math.log2(a));
  if (2 ** e > a) e--;
  if (2 ** (e + 1) <= a) e++;
  return 2 ** (Math.max(e, -6) - 3);
}
