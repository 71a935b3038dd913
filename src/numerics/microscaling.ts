import { ElemType } from '../types/type';

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
