/**
 * bfloat16 (bf16) conversions: the top 16 bits of an IEEE float32
 * (1 sign, 8 exponent, 7 mantissa bits).
 *
 * Encoding models the hardware, which converts float32 -> bf16: a JS double
 * is first rounded to float32 (Math.fround), then rounded to bf16 with
 * round-to-nearest, ties-to-even. Note this is deliberately double rounding;
 * it matches what the device computes from an f32 value.
 *
 * NaN policy: every NaN encodes to the quiet NaN 0x7fc0, with the sign bit
 * kept when observable (0xffc0 for a negative NaN); the payload is dropped.
 */

const scratchF32 = new Float32Array(1);
const scratchU32 = new Uint32Array(scratchF32.buffer);

/**
 * bf16 bits -> value for all 65536 patterns: each is the high half of a float32, so the table is lossless. Built when
 * a fast path first asks for it (bf16DecodeTable; see float16.ts).
 */
let BF16_TO_F32: Float32Array | undefined;

function buildDecodeTable(): Float32Array {
  const table = new Float32Array(65536);
  const tableBits = new Uint32Array(table.buffer);
  for (let bits = 0; bits < 65536; bits++) tableBits[bits] = bits << 16;
  return table;
}

/** The decode table itself (for loops over typed arrays of bits). */
export function bf16DecodeTable(): Float32Array {
  return (BF16_TO_F32 ??= buildDecodeTable());
}

/**
 * Decode bf16 bits (low 16 bits of `bits`) to a number: the float32 they are the high half of. Without the table,
 * which one value (an `arith.constant` the assembler rounds) is not worth building: 65536 entries, 4 ms.
 */
export function bf16BitsToNumber(bits: number): number {
  scratchU32[0] = (bits & 0xffff) << 16;
  return scratchF32[0];
}

/** Encode a number to bf16 bits: round to float32, then round-to-nearest-even to bf16. */
export function numberToBf16Bits(x: number): number {
  scratchF32[0] = x; // a Float32Array store rounds exactly like Math.fround
  const f32Bits = scratchU32[0];
  const sign = (f32Bits >>> 16) & 0x8000;
  if ((f32Bits & 0x7f800000) === 0x7f800000 && (f32Bits & 0x7fffff) !== 0) {
    return sign | 0x7fc0;
  }
  // Classic RNE: add 0x7fff plus the lowest kept bit, then truncate. A carry
  // into the exponent is correct, including rounding the largest values up to infinity.
  const lowestKeptBit = (f32Bits >>> 16) & 1;
  return ((f32Bits + 0x7fff + lowestKeptBit) >>> 16) & 0xffff;
}
