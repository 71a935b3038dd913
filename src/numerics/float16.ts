/**
 * IEEE 754 binary16 ("half", f16) conversions for the VM hot path.
 *
 * Layout: 1 sign bit, 5 exponent bits (bias 15), 10 mantissa bits.
 *
 * - Decoding uses a 65536-entry Float32Array table: every f16 value is
 *   exactly representable as a float32, so the table is lossless.
 * - Encoding rounds a JS double directly to f16 with round-to-nearest,
 *   ties-to-even. It never goes through float32 first, because rounding
 *   twice (double -> f32 -> f16) can turn a value just above an f16
 *   midpoint into an exact midpoint and then round it the wrong way.
 *
 * NaN policy: every NaN encodes to the canonical quiet NaN 0x7e00, with the
 * sign bit copied from the double's bit pattern (so -NaN gives 0xfe00).
 * JS engines may canonicalise NaN payloads/signs when values flow through
 * arithmetic, so the sign is "whatever we can observe"; the payload is
 * always dropped.
 */

/** Largest finite f16 value (0x7bff). */
export const F16_MAX = 65504;

// Shared scratch view for reading a double's bits without allocating.
const scratchF64 = new Float64Array(1);
const scratchU32 = new Uint32Array(scratchF64.buffer);
const hostIsLittleEndian = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
const HI = hostIsLittleEndian ? 1 : 0;
const LO = hostIsLittleEndian ? 0 : 1;

/**
 * f16 bits -> float32 value, for all 65536 patterns. Built when a fast path first asks for it (f16DecodeTable): at
 * start-up, when the loop has not been optimized yet, it takes milliseconds, which a run without f16 data need not pay.
 */
let F16_TO_F32: Float32Array | undefined;

const scratchF32 = new Float32Array(1);
const scratchF32Bits = new Uint32Array(scratchF32.buffer);

/** The float32 bits of the f16 value with bits `bits` (16 of them). */
function f32BitsOfF16(bits: number): number {
  const sign = (bits & 0x8000) << 16;
  const exponent = (bits >>> 10) & 0x1f;
  const mantissa = bits & 0x3ff;
  if (exponent === 0) {
    // Zero or subnormal: mantissa * 2^-24, exact in float32.
    const magnitude = mantissa * 5.9604644775390625e-8;
    scratchF32[0] = sign ? -magnitude : magnitude;
    return scratchF32Bits[0];
  }
  // Inf / NaN: keep the payload (the f16 quiet bit lands on the f32 quiet bit).
  if (exponent === 0x1f) return (sign | 0x7f800000 | (mantissa << 13)) >>> 0;
  // Normal: rebias exponent 15 -> 127.
  return (sign | ((exponent + 112) << 23) | (mantissa << 13)) >>> 0;
}

function buildDecodeTable(): Float32Array {
  const table = new Float32Array(65536);
  const tableBits = new Uint32Array(table.buffer);
  for (let bits = 0; bits < 65536; bits++) tableBits[bits] = f32BitsOfF16(bits);
  return table;
}

/** The decode table itself (for loops over typed arrays of bits). */
export function f16DecodeTable(): Float32Array {
  return (F16_TO_F32 ??= buildDecodeTable());
}

/**
 * Decode f16 bits (low 16 bits of `bits`) to a number: from the table once a fast path has built it, else directly
 * (one value, an `arith.constant` the assembler rounds, is not worth 65536).
 */
export function f16BitsToNumber(bits: number): number {
  if (F16_TO_F32) return F16_TO_F32[bits & 0xffff];
  scratchF32Bits[0] = f32BitsOfF16(bits & 0xffff);
  return scratchF32[0];
}

/** Encode a double to f16 bits with round-to-nearest, ties-to-even (directly from the double). */
export function numberToF16Bits(x: number): number {
  scratchF64[0] = x;
  const hi = scratchU32[HI];
  const lo = scratchU32[LO];
  const sign = (hi >>> 16) & 0x8000;
  const biasedExponent = (hi >>> 20) & 0x7ff;
  const mantissaHigh = hi & 0xfffff; // top 20 of the double's 52 mantissa bits

  if (biasedExponent === 0x7ff) {
    const isNaN = mantissaHigh !== 0 || lo !== 0;
    return sign | (isNaN ? 0x7e00 : 0x7c00);
  }

  const exponent = biasedExponent - 1023;
  if (exponent >= 16) return sign | 0x7c00; // >= 65536: beyond 65504 even before rounding.

  if (exponent >= -14) {
    // Normal f16 range. Keep the top 10 mantissa bits; the 42 dropped bits are
    // the low 10 bits of mantissaHigh plus all 32 bits of lo.
    const kept = ((exponent + 15) << 10) | (mantissaHigh >>> 10);
    const droppedHigh = mantissaHigh & 0x3ff;
    const roundUp = droppedHigh > 0x200 || (droppedHigh === 0x200 && (lo !== 0 || (kept & 1) === 1));
    // A carry out of the mantissa correctly bumps the exponent (and 0x7bff + 1 = infinity).
    return sign | (kept + (roundUp ? 1 : 0));
  }

  if (exponent < -25) return sign; // below half the smallest subnormal (2^-25): rounds to zero.

  // Subnormal f16: result is the value in units of 2^-24, i.e. significand53 >> (28 - exponent).
  // That shift is 43..53, so all of lo is dropped plus `shift` (11..21) bits of the high part.
  const significandHigh = mantissaHigh | 0x100000; // 21 bits, implicit leading 1 restored
  const shift = -4 - exponent;
  const kept = significandHigh >>> shift;
  const dropped = significandHigh & ((1 << shift) - 1);
  const half = 1 << (shift - 1);
  const roundUp = dropped > half || (dropped === half && (lo !== 0 || (kept & 1) === 1));
  // Rounding up from 0x3ff yields 0x400, the smallest normal, as it should.
  return sign | (kept + (roundUp ? 1 : 0));
}
