import { F16_MAX, f16BitsToNumber, numberToF16Bits } from '../../numerics/float16';

/**
 * Floating-point arithmetic of the model (reference/ascendc.md §1 "Floating point").
 *
 * - Every add is one IEEE binary16 or binary32 add, rounded to nearest-even. For f16 the exact sum of
 *   two halves fits in a double, so `numberToF16Bits(a + b)` is the correctly rounded f16 add. For f32,
 *   `Math.fround(a + b)` is the correctly rounded f32 add (double has more than 2*24+2 bits, so the
 *   double rounding is innocuous).
 * - fp16 saturation mode (`sat`, the default): an add whose f16 result is +-inf gives +-65504 and one
 *   whose result is NaN gives +0. It applies to every f16 add, never to f32.
 * - NaN results are stored as the canonical quiet NaN (f16 0x7e00, f32 0x7fc00000) [policy: the seeds
 *   do not say which NaN the hardware produces].
 */

export type FloatType = 'f16' | 'f32';

export type Add = (a: number, b: number) => number;

/** The add of `dtype` in the given saturation mode, on values already exact in that type. */
export function adder(dtype: FloatType, sat: boolean): Add {
  if (dtype === 'f32') return (a, b) => Math.fround(a + b);
  return (a, b) => {
    const r = f16BitsToNumber(numberToF16Bits(a + b));
    if (!sat) return r;
    if (Number.isNaN(r)) return 0;
    if (r === Infinity) return F16_MAX;
    if (r === -Infinity) return -F16_MAX;
    return r;
  };
}

/** Decodes element bits of a float type. */
export function bitsToNumber(dtype: FloatType, bits: number): number {
  if (dtype === 'f16') return f16BitsToNumber(bits);
  const scratch = new DataView(new ArrayBuffer(4));
  scratch.setUint32(0, bits >>> 0);
  return scratch.getFloat32(0);
}

/** Encodes a value exact in the float type; NaN becomes the canonical quiet NaN. */
export function numberToBits(dtype: FloatType, value: number): number {
  if (dtype === 'f16') return Number.isNaN(value) ? 0x7e00 : numberToF16Bits(value);
  if (Number.isNaN(value)) return 0x7fc00000;
  const scratch = new DataView(new ArrayBuffer(4));
  scratch.setFloat32(0, value);
  return scratch.getUint32(0);
}

export { pairTree } from '../../numerics/pair-tree';

/** Sequential left fold ((x0+x1)+x2)+...; one value needs no add. */
export function sequentialSum(values: readonly number[], add: Add): number {
  if (values.length === 0) return 0;
  let acc = values[0];
  for (let i = 1; i < values.length; i++) acc = add(acc, values[i]);
  return acc;
}
