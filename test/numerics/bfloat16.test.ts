import fc from 'fast-check';
import { bf16BitsToNumber, bf16DecodeTable, numberToBf16Bits } from '../../src/numerics/bfloat16';

/** Exact value of a bf16 bit pattern from the format definition (8-bit exponent, bias 127, 7-bit mantissa). */
function exactBf16Value(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const exponent = (bits >> 7) & 0xff;
  const mantissa = bits & 0x7f;
  if (exponent === 0xff) return mantissa === 0 ? sign * Infinity : NaN;
  if (exponent === 0) return sign * mantissa * 2 ** -133; // subnormal: mantissa * 2^(1-127-7)
  return sign * (128 + mantissa) * 2 ** (exponent - 134);
}

const isNaNBits = (bits: number) => (bits & 0x7f80) === 0x7f80 && (bits & 0x7f) !== 0;

/**
 * POSITIVE[n] = value of positive bf16 pattern n for n = 0 .. 0x7f7f, plus a virtual
 * POSITIVE[0x7f80] = 2^128, the next value if the exponent range went on: rounding to
 * it is overflow to infinity (0x7f80).
 */
const POSITIVE: number[] = [];
for (let n = 0; n < 0x7f80; n++) POSITIVE.push(exactBf16Value(n));
POSITIVE.push(2 ** 128);

/**
 * Reference encoder with the documented semantics: x -> float32 (Math.fround), then
 * round-to-nearest-even to bf16, by comparing against the exact midpoint of the two
 * bracketing bf16 values (midpoints have 9 significant bits, so they are exact doubles).
 */
function referenceNumberToBf16Bits(x: number): number {
  const f = Math.fround(x);
  if (Number.isNaN(f)) return ((bitsOfFloat32(f) >>> 16) & 0x8000) | 0x7fc0; // the only way to see a NaN's sign
  const sign = f < 0 || Object.is(f, -0) ? 0x8000 : 0;
  const magnitude = Math.abs(f);
  if (magnitude >= 2 ** 128) return sign | 0x7f80; // float32 infinity
  let lo = 0;
  let hi = 0x7f7f;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (POSITIVE[mid] <= magnitude) lo = mid;
    else hi = mid - 1;
  }
  const midpoint = (POSITIVE[lo] + POSITIVE[lo + 1]) / 2;
  if (magnitude < midpoint) return sign | lo;
  if (magnitude > midpoint) return sign | (lo + 1);
  return sign | (lo % 2 === 0 ? lo : lo + 1);
}

const f32 = new Float32Array(1);
const f32Bits = new Uint32Array(f32.buffer);
function float32FromBits(bits: number): number {
  f32Bits[0] = bits;
  return f32[0];
}
function bitsOfFloat32(x: number): number {
  f32[0] = x;
  return f32Bits[0];
}

describe('bf16BitsToNumber', () => {
  it('matches the format definition for all 65536 patterns', () => {
    for (let bits = 0; bits < 65536; bits++) {
      const decoded = bf16BitsToNumber(bits);
      const expected = exactBf16Value(bits);
      const same = isNaNBits(bits) ? Number.isNaN(decoded) : Object.is(decoded, expected);
      if (!same) throw new Error(`0x${bits.toString(16)} decoded as ${decoded}, expected ${expected}`);
    }
  });

  it('the decode table of the fast paths holds the same 65536 values', () => {
    const table = bf16DecodeTable();
    expect(table).toHaveLength(65536);
    for (let bits = 0; bits < 65536; bits++) {
      const [fromTable, expected] = [table[bits], exactBf16Value(bits)];
      const same = isNaNBits(bits) ? Number.isNaN(fromTable) : Object.is(fromTable, expected);
      if (!same) throw new Error(`table[0x${bits.toString(16)}] is ${fromTable}, expected ${expected}`);
    }
  });

  it('decodes landmark values', () => {
    expect(bf16BitsToNumber(0x3f80)).toBe(1);
    expect(bf16BitsToNumber(0xc000)).toBe(-2);
    expect(bf16BitsToNumber(0x4049)).toBe(3.140625);
    expect(bf16BitsToNumber(0x7f7f)).toBe(3.3895313892515355e38); // largest finite
    expect(bf16BitsToNumber(0x0001)).toBe(2 ** -133); // smallest subnormal
    expect(bf16BitsToNumber(0x7f80)).toBe(Infinity);
    expect(bf16BitsToNumber(0xff80)).toBe(-Infinity);
    expect(Object.is(bf16BitsToNumber(0x8000), -0)).toBe(true);
    expect(bf16BitsToNumber(0x13f80)).toBe(1); // only the low 16 bits count
  });
});

describe('numberToBf16Bits', () => {
  it('round-trips every non-NaN pattern and maps every NaN to the quiet NaN with its sign', () => {
    for (let bits = 0; bits < 65536; bits++) {
      const encoded = numberToBf16Bits(bf16BitsToNumber(bits));
      const expected = isNaNBits(bits) ? (bits & 0x8000) | 0x7fc0 : bits;
      if (encoded !== expected) {
        throw new Error(`0x${bits.toString(16)} re-encoded as 0x${encoded.toString(16)}, expected 0x${expected.toString(16)}`);
      }
    }
  });

  it('rounds every midpoint between adjacent finite values to the even neighbour, and the float32 neighbours of it to the nearer one', () => {
    for (const sign of [0, 0x8000]) {
      const s = sign ? -1 : 1;
      // Pairs (n, n + 1) for n = 0 .. 0x7f7f; the last is (largest finite, 2^128 = overflow to infinity).
      for (let n = 0; n < 0x7f80; n++) {
        const midpoint = (POSITIVE[n] + POSITIVE[n + 1]) / 2;
        const midpointBits = bitsOfFloat32(midpoint);
        if (float32FromBits(midpointBits) !== midpoint) throw new Error(`midpoint ${midpoint} is not a float32`);
        const even = n % 2 === 0 ? n : n + 1;
        const cases: Array<[number, number]> = [
          [midpoint, even],
          [float32FromBits(midpointBits + 1), n + 1],
          [float32FromBits(midpointBits - 1), n],
        ];
        for (const [x, expectedMagnitude] of cases) {
          const got = numberToBf16Bits(s * x);
          if (got !== (sign | expectedMagnitude)) {
            throw new Error(`${s * x} encoded as 0x${got.toString(16)}, expected 0x${(sign | expectedMagnitude).toString(16)}`);
          }
        }
      }
    }
  });

  it('rounds to float32 first (as the hardware sees an f32), so a double just above a midpoint can tie to even', () => {
    // 1 + 2^-8 is the midpoint of 1 (0x3f80) and 1 + 2^-7 (0x3f81). The extra 2^-40 is
    // lost in Math.fround, leaving an exact tie that goes to the even side, 0x3f80.
    expect(numberToBf16Bits(1 + 2 ** -8 + 2 ** -40)).toBe(0x3f80);
    // A float32-visible excess does round up.
    expect(numberToBf16Bits(1 + 2 ** -8 + 2 ** -23)).toBe(0x3f81);
    // 1 + 3 * 2^-8 is the midpoint of 0x3f81 and 0x3f82: ties to the even 0x3f82.
    expect(numberToBf16Bits(1 + 3 * 2 ** -8)).toBe(0x3f82);
  });

  it('handles the special cases', () => {
    expect(numberToBf16Bits(0)).toBe(0x0000);
    expect(numberToBf16Bits(-0)).toBe(0x8000);
    expect(numberToBf16Bits(Infinity)).toBe(0x7f80);
    expect(numberToBf16Bits(-Infinity)).toBe(0xff80);
    expect(numberToBf16Bits(NaN)).toBe(0x7fc0);
    expect(numberToBf16Bits(float32FromBits(0xff800001))).toBe(0xffc0); // negative signalling NaN
    expect(numberToBf16Bits(float32FromBits(0x7f800001))).toBe(0x7fc0); // payload below the bf16 bits: still a NaN
    expect(numberToBf16Bits(3.4028234663852886e38)).toBe(0x7f80); // float32 max rounds up to infinity
    expect(numberToBf16Bits(float32FromBits(0x7f7f7fff))).toBe(0x7f7f);
    expect(numberToBf16Bits(float32FromBits(0x7f7f8000))).toBe(0x7f80); // tie at the top: even side is infinity
    expect(numberToBf16Bits(1e39)).toBe(0x7f80); // beyond float32: Math.fround gives infinity
    expect(numberToBf16Bits(-1e39)).toBe(0xff80);
    expect(numberToBf16Bits(1e-50)).toBe(0x0000); // below float32's range
    expect(numberToBf16Bits(-1e-50)).toBe(0x8000);
    expect(numberToBf16Bits(Math.PI)).toBe(0x4049);
    expect(numberToBf16Bits(float32FromBits(0x00008000))).toBe(0x0000); // subnormal tie: even is zero
    expect(numberToBf16Bits(float32FromBits(0x00018000))).toBe(0x0002); // subnormal tie between 1 and 2
  });

  const interestingNumbers = fc.oneof(
    fc.double(), // all doubles, incl. NaN, infinities, far beyond float32's range
    fc.float(), // all float32 values
    fc.integer({ min: 0, max: 0xffffffff }).map(float32FromBits), // uniform over float32 bit patterns
    // Exact bf16 midpoints, nudged by up to 3 float32 ulps.
    fc.tuple(fc.integer({ min: 0, max: 0xffff }), fc.integer({ min: -3, max: 3 })).map(([upper, nudge]) => float32FromBits(((upper << 16) | 0x8000) + nudge)),
    fc.double({ min: 3.3e38, max: 3.5e38 }), // overflow boundary
  );

  it('agrees with the exact-midpoint reference on arbitrary numbers', () => {
    fc.assert(
      fc.property(interestingNumbers, (x) => numberToBf16Bits(x) === referenceNumberToBf16Bits(x)),
      { numRuns: 200_000 },
    );
  });
});
