/**
 * roundToFormat / roundIntegerToFormat / roundToIntegral (src/vm/numerics/rounding.ts, conversion.ts) against a
 * reference that brackets x between the two nearest f16 values found by search over all of them (from the format
 * definition) and picks one per the mode's definition.
 */
import fc from 'fast-check';
import { FORMATS, RoundingMode, roundToFormat, roundToIntegral } from '../../src/numerics/rounding';
import { roundIntegerToFormat } from '../../src/numerics/conversion';

/** All finite non-negative f16 values in order, from the definition, plus 2^16 standing for infinity. */
const POSITIVE: number[] = [];
for (let n = 0; n < 0x7c00; n++) {
  const e = n >> 10;
  const m = n & 0x3ff;
  POSITIVE.push(e === 0 ? m * 2 ** -24 : (1024 + m) * 2 ** (e - 25));
}
POSITIVE.push(2 ** 16);

function referenceF16(x: number, mode: RoundingMode): number {
  const a = Math.abs(x);
  const sign = x < 0 || Object.is(x, -0) ? -1 : 1;
  let lo = 0;
  let hi = POSITIVE.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (POSITIVE[mid] <= a) lo = mid;
    else hi = mid - 1;
  }
  if (POSITIVE[lo] === a && lo < 0x7c00) return sign * a;
  const down = Math.min(lo, 0x7bff); // toward zero; at or past 2^16 that is the largest finite value
  const up = down + 1; // away from zero; index 0x7c00 is past the largest finite value
  const value = (i: number) => (i === 0x7c00 ? Infinity : POSITIVE[i]);
  const mid = (POSITIVE[down] + POSITIVE[up]) / 2;
  let pick: number;
  switch (mode) {
    case 'rint':
      pick = a < mid ? down : a > mid ? up : down % 2 === 0 ? down : up;
      break;
    case 'round':
      pick = a < mid ? down : up;
      break;
    case 'trunc':
      pick = down;
      break;
    case 'floor':
      pick = sign > 0 ? down : up;
      break;
    case 'ceil':
      pick = sign > 0 ? up : down;
      break;
    case 'odd':
      pick = down % 2 === 1 ? down : up;
      break;
  }
  return sign * value(pick);
}

const MODES: RoundingMode[] = ['rint', 'round', 'floor', 'ceil', 'trunc', 'odd'];
const f32Around = fc.oneof(
  fc.float({ noNaN: true, min: -70000, max: 70000 }),
  fc.float({ noNaN: true, min: Math.fround(-(2 ** -13)), max: Math.fround(2 ** -13) }),
  // Exact f16 midpoints and their float32 neighbours.
  fc.tuple(fc.integer({ min: 0, max: 0x7bff }), fc.integer({ min: -2, max: 2 }), fc.boolean()).map(([n, nudge, neg]) => {
    const m = Math.fround((POSITIVE[n] + POSITIVE[n + 1]) / 2);
    const bits = new Uint32Array(new Float32Array([m]).buffer)[0] + nudge;
    const v = new Float32Array(new Uint32Array([bits]).buffer)[0];
    return neg ? -v : v;
  }),
);

describe('roundToFormat to f16', () => {
  test.each(MODES)('%s agrees with the bracketing reference on f32 inputs', (mode) => {
    fc.assert(
      fc.property(f32Around, (x) => Object.is(roundToFormat(x, FORMATS.f16, mode), referenceF16(x, mode))),
      { numRuns: 20000 },
    );
  });

  test('ties and overflow by hand', () => {
    const tie = 1 + 2 ** -11; // between 1 (0x3c00, even) and 1 + 2^-10 (0x3c01, odd)
    expect(MODES.map((m) => roundToFormat(tie, FORMATS.f16, m))).toEqual([1, 1 + 2 ** -10, 1, 1 + 2 ** -10, 1, 1 + 2 ** -10]);
    expect(MODES.map((m) => roundToFormat(-tie, FORMATS.f16, m))).toEqual([-1, -1 - 2 ** -10, -1 - 2 ** -10, -1, -1, -1 - 2 ** -10]);
    expect(MODES.map((m) => roundToFormat(70000, FORMATS.f16, m))).toEqual([Infinity, Infinity, 65504, Infinity, 65504, 65504]);
    expect(Object.is(roundToFormat(-(2 ** -30), FORMATS.f16, 'ceil'), -0)).toBe(true);
    expect(roundToFormat(2 ** -30, FORMATS.f16, 'ceil')).toBe(2 ** -24);
  });
});

describe('roundIntegerToFormat', () => {
  test.each(MODES)('%s to f16 agrees with the reference on integers', (mode) => {
    fc.assert(
      fc.property(fc.integer({ min: -80000, max: 80000 }), (n) => Object.is(roundIntegerToFormat(BigInt(n), FORMATS.f16, mode), referenceF16(n, mode) || 0)),
      { numRuns: 20000 },
    );
  });

  test('i64 to f32 rounds exactly, without going through double', () => {
    // 2^53 + 2^29 + 1 is just above the midpoint of the f32 values 2^53 and 2^53 + 2^30.
    const v = 2n ** 53n + 2n ** 29n + 1n;
    expect(roundIntegerToFormat(v, FORMATS.f32, 'rint')).toBe(2 ** 53 + 2 ** 30);
    expect(roundIntegerToFormat(v, FORMATS.f32, 'trunc')).toBe(2 ** 53);
    expect(roundIntegerToFormat(-v, FORMATS.f32, 'floor')).toBe(-(2 ** 53 + 2 ** 30));
    expect(roundIntegerToFormat(2n ** 63n - 1n, FORMATS.f32, 'rint')).toBe(2 ** 63);
  });
});

describe('roundToIntegral', () => {
  test('each mode on halves and quarters', () => {
    const xs = [2.5, -2.5, 3.5, 0.5, -0.5, 1.25, -1.75];
    expect(xs.map((x) => roundToIntegral(x, 'rint'))).toEqual([2, -2, 4, 0, -0, 1, -2]);
    expect(xs.map((x) => roundToIntegral(x, 'round'))).toEqual([3, -3, 4, 1, -1, 1, -2]);
    expect(xs.map((x) => roundToIntegral(x, 'floor'))).toEqual([2, -3, 3, 0, -1, 1, -2]);
    expect(xs.map((x) => roundToIntegral(x, 'ceil'))).toEqual([3, -2, 4, 1, -0, 2, -1]);
    expect(xs.map((x) => roundToIntegral(x, 'trunc'))).toEqual([2, -2, 3, 0, -0, 1, -1]);
    expect(xs.map((x) => roundToIntegral(x, 'odd'))).toEqual([3, -3, 3, 1, -1, 1, -1]);
  });
});

describe('FORMATS', () => {
  test('max is the largest finite value of each format (the bit pattern below infinity)', () => {
    expect(FORMATS.f16.max).toBe(FORMATS.f16.decode(0x7bff));
    expect(FORMATS.bf16.max).toBe(FORMATS.bf16.decode(0x7f7f));
    expect(FORMATS.f32.max).toBe(FORMATS.f32.decode(0x7f7fffff));
  });
});
