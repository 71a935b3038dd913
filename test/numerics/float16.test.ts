/**
 * Tests for the binary16 conversions.
 *
 * Finding about the oracle: @petamoriken/float16 3.9.3 (src/_util/converter.mjs,
 * roundToFloat16) rounds straight from the double — a Veltkamp-style split
 * `t = (1 + 2^42) * |x|; t - (t - |x|)` for normal values and a scaled
 * `(y + 2^52) - 2^52` ties-to-even trick for subnormals — and only then stores
 * the already-exact f16 value through a float32. So it does NOT double-round
 * via float32, and in our checks (every exact midpoint plus large random
 * samples) it agrees with correctly rounded RNE. We still keep our own exact
 * midpoint reference below, so the tests do not rely on that library being right.
 */
import fc from 'fast-check';
import { Float16Array, getFloat16, setFloat16 } from '@petamoriken/float16';
import { F16_MAX, f16BitsToNumber, numberToF16Bits } from '../../src/numerics/float16';

/** Exact value of a finite f16 bit pattern, from the format definition. */
function exactF16Value(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const exponent = (bits >> 10) & 0x1f;
  const mantissa = bits & 0x3ff;
  if (exponent === 0x1f) return mantissa === 0 ? sign * Infinity : NaN;
  if (exponent === 0) return sign * mantissa * 2 ** -24;
  return sign * (1024 + mantissa) * 2 ** (exponent - 25);
}

const isNaNBits = (bits: number) => (bits & 0x7c00) === 0x7c00 && (bits & 0x3ff) !== 0;

/**
 * POSITIVE[n] = value of positive f16 pattern n, for n = 0 .. 0x7bff, plus a
 * virtual POSITIVE[0x7c00] = 2^16: the next value the format would have if it
 * had more exponent range. Rounding to it means overflow to infinity (0x7c00),
 * which makes the 65504/65536 midpoint (65520) an ordinary tie.
 */
const POSITIVE: number[] = [];
for (let n = 0; n < 0x7c00; n++) POSITIVE.push(exactF16Value(n));
POSITIVE.push(65536);

/** Reference RNE encoder: find the bracketing f16 values and compare against their exact midpoint. */
function referenceNumberToF16Bits(x: number): number {
  const sign = x < 0 || Object.is(x, -0) ? 0x8000 : 0;
  if (Number.isNaN(x)) return 0x7e00 | sign;
  const magnitude = Math.abs(x);
  if (magnitude >= 65536) return sign | 0x7c00;
  // Largest n with POSITIVE[n] <= magnitude.
  let lo = 0;
  let hi = 0x7bff;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (POSITIVE[mid] <= magnitude) lo = mid;
    else hi = mid - 1;
  }
  const midpoint = (POSITIVE[lo] + POSITIVE[lo + 1]) / 2; // exact: both have <= 11 significant bits
  if (magnitude < midpoint) return sign | lo;
  if (magnitude > midpoint) return sign | (lo + 1);
  return sign | (lo % 2 === 0 ? lo : lo + 1);
}

// Double-precision neighbours, computed on the bit pattern (positive finite inputs only).
const f64 = new Float64Array(1);
const f64Bits = new BigUint64Array(f64.buffer);
function nextUp(x: number): number {
  f64[0] = x;
  f64Bits[0] += 1n;
  return f64[0];
}
function nextDown(x: number): number {
  f64[0] = x;
  f64Bits[0] -= 1n;
  return f64[0];
}
function doubleFromBits(bits: bigint): number {
  f64Bits[0] = bits;
  return f64[0];
}

const oracleView = new DataView(new ArrayBuffer(2));
function oracleEncode(x: number): number {
  setFloat16(oracleView, 0, x, true);
  return oracleView.getUint16(0, true);
}

describe('f16BitsToNumber', () => {
  it("decodes the same 65536 values directly (before any table is built) and through the fast paths' table", () => {
    jest.isolateModules(() => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- a fresh copy of the module: no table yet
      const fresh = require('../../src/numerics/float16') as typeof import('../../src/numerics/float16');
      const same = (a: number, b: number) => (Number.isNaN(b) ? Number.isNaN(a) : Object.is(a, b));
      for (let bits = 0; bits < 65536; bits++) {
        if (!same(fresh.f16BitsToNumber(bits), exactF16Value(bits))) throw new Error(`direct decode differs at 0x${bits.toString(16)}`);
      }
      const table = fresh.f16DecodeTable();
      for (let bits = 0; bits < 65536; bits++) {
        if (!same(table[bits], exactF16Value(bits))) throw new Error(`table differs at 0x${bits.toString(16)}`);
        if (!same(fresh.f16BitsToNumber(bits), exactF16Value(bits))) throw new Error(`decode through the table differs at 0x${bits.toString(16)}`);
      }
    });
  });

  it('matches @petamoriken/float16 getFloat16, Float16Array and the format definition for all 65536 patterns', () => {
    const allBits = new Uint16Array(65536).map((_, i) => i);
    const viaFloat16Array = new Float16Array(allBits.buffer);
    const view = new DataView(allBits.buffer);
    for (let bits = 0; bits < 65536; bits++) {
      const decoded = f16BitsToNumber(bits);
      if (isNaNBits(bits)) {
        expect(Number.isNaN(decoded)).toBe(true);
        expect(Number.isNaN(getFloat16(view, bits * 2, true))).toBe(true);
        continue;
      }
      // Object.is distinguishes +0 from -0.
      if (!Object.is(decoded, getFloat16(view, bits * 2, true))) throw new Error(`getFloat16 differs at 0x${bits.toString(16)}`);
      if (!Object.is(decoded, viaFloat16Array[bits])) throw new Error(`Float16Array differs at 0x${bits.toString(16)}`);
      if (!Object.is(decoded, exactF16Value(bits))) throw new Error(`definition differs at 0x${bits.toString(16)}`);
    }
  });

  it('decodes landmark values', () => {
    expect(f16BitsToNumber(0x3c00)).toBe(1);
    expect(f16BitsToNumber(0xc000)).toBe(-2);
    expect(f16BitsToNumber(0x7bff)).toBe(F16_MAX);
    expect(f16BitsToNumber(0x0400)).toBe(6.103515625e-5); // smallest normal, 2^-14
    expect(f16BitsToNumber(0x0001)).toBe(5.960464477539063e-8); // smallest subnormal, 2^-24
    expect(f16BitsToNumber(0x7c00)).toBe(Infinity);
    expect(f16BitsToNumber(0xfc00)).toBe(-Infinity);
    expect(Object.is(f16BitsToNumber(0x8000), -0)).toBe(true);
    expect(f16BitsToNumber(0x3555)).toBe(0.333251953125);
  });

  it('uses only the low 16 bits of its argument', () => {
    expect(f16BitsToNumber(0x13c00)).toBe(1);
  });
});

describe('numberToF16Bits', () => {
  it('round-trips every non-NaN pattern and maps every NaN to the quiet NaN with its sign', () => {
    for (let bits = 0; bits < 65536; bits++) {
      const encoded = numberToF16Bits(f16BitsToNumber(bits));
      const expected = isNaNBits(bits) ? (bits & 0x8000) | 0x7e00 : bits;
      if (encoded !== expected) {
        throw new Error(`0x${bits.toString(16)} re-encoded as 0x${encoded.toString(16)}, expected 0x${expected.toString(16)}`);
      }
    }
  });

  it('rounds every exact midpoint between adjacent finite values to the even neighbour, and near-midpoints to the nearer one', () => {
    for (const sign of [0, 0x8000]) {
      // Pairs (n, n + 1) for n = 0 .. 0x7bff; the last pair is (65504, 65536 = overflow to infinity).
      for (let n = 0; n < 0x7c00; n++) {
        const below = POSITIVE[n];
        const above = POSITIVE[n + 1];
        const midpoint = (below + above) / 2;
        const s = sign ? -1 : 1;
        const even = n % 2 === 0 ? n : n + 1;
        const cases: Array<[number, number]> = [
          [midpoint, even],
          [nextUp(midpoint), n + 1],
          [nextDown(midpoint), n],
          [midpoint + (above - below) * 2 ** -20, n + 1],
          [midpoint - (above - below) * 2 ** -20, n],
        ];
        for (const [x, expectedMagnitude] of cases) {
          const got = numberToF16Bits(s * x);
          if (got !== (sign | expectedMagnitude)) {
            throw new Error(`${s * x} encoded as 0x${got.toString(16)}, expected 0x${(sign | expectedMagnitude).toString(16)}`);
          }
        }
      }
    }
  });

  it('handles the special cases', () => {
    expect(numberToF16Bits(0)).toBe(0x0000);
    expect(numberToF16Bits(-0)).toBe(0x8000);
    expect(numberToF16Bits(Infinity)).toBe(0x7c00);
    expect(numberToF16Bits(-Infinity)).toBe(0xfc00);
    expect(numberToF16Bits(NaN)).toBe(0x7e00);
    expect(numberToF16Bits(F16_MAX)).toBe(0x7bff);
    expect(numberToF16Bits(65519.99999999999)).toBe(0x7bff); // just below the 65520 midpoint
    expect(numberToF16Bits(65520)).toBe(0x7c00); // tie between 65504 and 2^16: even side overflows
    expect(numberToF16Bits(-65520)).toBe(0xfc00);
    expect(numberToF16Bits(1e300)).toBe(0x7c00);
    expect(numberToF16Bits(-Number.MAX_VALUE)).toBe(0xfc00);
    expect(numberToF16Bits(2 ** -25)).toBe(0x0000); // tie between 0 and 2^-24: even is zero
    expect(numberToF16Bits(-(2 ** -25))).toBe(0x8000);
    expect(numberToF16Bits(nextUp(2 ** -25))).toBe(0x0001);
    expect(numberToF16Bits(1.5 * 2 ** -24)).toBe(0x0002); // tie between subnormals 1 and 2
    expect(numberToF16Bits(2 ** -14 - 2 ** -25)).toBe(0x0400); // largest-subnormal/smallest-normal tie: even is 0x400
    expect(numberToF16Bits(Number.MIN_VALUE)).toBe(0x0000);
    expect(numberToF16Bits(-1e-300)).toBe(0x8000);
    expect(numberToF16Bits(1 / 3)).toBe(0x3555);
  });

  it('keeps the sign of a negative NaN when the engine exposes it', () => {
    const negativeNaN = doubleFromBits(0xfff8000000000000n);
    f64[0] = negativeNaN;
    const signObservable = f64Bits[0] >> 63n === 1n;
    expect(numberToF16Bits(negativeNaN)).toBe(signObservable ? 0xfe00 : 0x7e00);
    // NaNs with payloads (signalling or not) still become the canonical quiet NaN.
    expect(numberToF16Bits(doubleFromBits(0x7ff0000000000001n))).toBe(0x7e00);
  });

  it('does not double-round through float32', () => {
    // 1 + 2^-11 is the midpoint of 1 (0x3c00) and 1 + 2^-10 (0x3c01). Adding 2^-40
    // puts x above it, so the answer is 0x3c01; but Math.fround(x) drops the 2^-40,
    // landing exactly on the midpoint, which would then tie to even (0x3c00).
    const x = 1 + 2 ** -11 + 2 ** -40;
    expect(Math.fround(x)).toBe(1 + 2 ** -11);
    expect(numberToF16Bits(x)).toBe(0x3c01);
    expect(numberToF16Bits(Math.fround(x))).toBe(0x3c00);
  });

  // Doubles concentrated where f16 rounding is interesting.
  const interestingDoubles = fc.oneof(
    fc.double(), // everything, including NaN, infinities, subnormal doubles
    fc.double({ min: -70000, max: 70000 }),
    fc.double({ min: 65000, max: 66000 }), // overflow boundary at 65520
    fc.double({ min: -(2 ** -13), max: 2 ** -13 }), // f16 subnormal range
    fc.double({ min: 2 ** -30, max: 2 ** -22 }), // around the smallest subnormal
    fc.double({ min: -1e-300, max: 1e-300 }), // tiny
    fc.double({ min: 1e10, max: Number.MAX_VALUE }), // huge
    // Exact midpoints of adjacent f16 values, nudged by up to 4 double ulps either way.
    fc.tuple(fc.integer({ min: 0, max: 0x7bff }), fc.integer({ min: -4, max: 4 }), fc.boolean()).map(([n, nudge, negative]) => {
      f64[0] = (POSITIVE[n] + POSITIVE[n + 1]) / 2;
      f64Bits[0] += BigInt(nudge);
      return negative ? -f64[0] : f64[0];
    }),
  );

  it('agrees with the exact-midpoint reference on arbitrary doubles', () => {
    fc.assert(
      fc.property(interestingDoubles, (x) => numberToF16Bits(x) === referenceNumberToF16Bits(x)),
      { numRuns: 200_000 },
    );
  });

  it('agrees with @petamoriken/float16 setFloat16 on float32-representable values', () => {
    fc.assert(
      fc.property(fc.float(), (x) => {
        const expected = oracleEncode(x);
        // The oracle drops the NaN payload but may differ in how it treats the sign; compare NaN-ness only.
        return Number.isNaN(x) ? isNaNBits(numberToF16Bits(x)) && isNaNBits(expected) : numberToF16Bits(x) === expected;
      }),
      { numRuns: 200_000 },
    );
  });

  it('also agrees with @petamoriken/float16 on arbitrary doubles (it rounds from the double directly; see header)', () => {
    fc.assert(
      fc.property(interestingDoubles, (x) => {
        const expected = oracleEncode(x);
        return Number.isNaN(x) ? isNaNBits(numberToF16Bits(x)) && isNaNBits(expected) : numberToF16Bits(x) === expected;
      }),
      { numRuns: 100_000 },
    );
  });
});
