/**
 * The A5 low-precision formats of TCVT (src/numerics/low-precision.ts). Codes are worked out by hand from the formats'
 * definitions: E2M1 = s ee m (bias 1: 0, 0.5, 1, 1.5, 2, 3, 4, 6), E1M2 = s e mm (bias 1: 0 to 1.75 in quarters),
 * OCP E4M3FN (bias 7, no infinity, S.1111.111 NaN) and E5M2 (bias 15, IEEE specials), HiFloat8 (sign, a prefix
 * giving the exponent width, a sign-magnitude exponent with an implicit top bit, the mantissa).
 */
import { OutOfRange, encodeLowPrecision, isPackedFp4, lowPrecisionFormat } from '../../src/numerics/low-precision';
import { RoundingMode } from '../../src/numerics/rounding';

const format = (name: string) => lowPrecisionFormat(name)!;
const encode = (name: string, x: number, mode: RoundingMode = 'rint', range: OutOfRange = 'undocumented') => encodeLowPrecision(format(name), x, mode, range);

describe('decoding', () => {
  test('fp4 E2M1 and E1M2: every code', () => {
    const e2m1 = Array.from({ length: 16 }, (_, c) => format('!pto.f4E2M1x2').decode(c));
    expect(e2m1).toEqual([0, 0.5, 1, 1.5, 2, 3, 4, 6, -0, -0.5, -1, -1.5, -2, -3, -4, -6]);
    const e1m2 = Array.from({ length: 16 }, (_, c) => format('!pto.f4E1M2x2').decode(c));
    expect(e1m2).toEqual([0, 0.25, 0.5, 0.75, 1, 1.25, 1.5, 1.75, -0, -0.25, -0.5, -0.75, -1, -1.25, -1.5, -1.75]);
  });

  test('fp8: normals, subnormals and specials', () => {
    const e4m3 = format('f8E4M3FN').decode;
    expect([e4m3(0x38), e4m3(0x7e), e4m3(0x01), e4m3(0x80), e4m3(0xb8)]).toEqual([1, 448, 2 ** -9, -0, -1]);
    expect([e4m3(0x7f), e4m3(0xff)]).toEqual([NaN, NaN]);
    const e5m2 = format('f8E5M2').decode;
    expect([e5m2(0x3c), e5m2(0x7b), e5m2(0x01), e5m2(0x7c), e5m2(0xfc), e5m2(0x7d)]).toEqual([1, 57344, 2 ** -16, Infinity, -Infinity, NaN]);
  });

  test('hifloat8: each prefix, the denormals, zero, NaN and the infinities', () => {
    const h = format('!pto.hif8').decode;
    // 0001 mmm: 2^0; 001 s mmm: 2^+-1; 01 s e mmm: 2^+-(2|e); 10 s ee mm: 2^+-(4|ee); 11 s eee m: 2^+-(8|eee).
    expect([h(0x08), h(0x09), h(0x10), h(0x14), h(0x18), h(0x20), h(0x40), h(0x50), h(0x60), h(0x61), h(0x6e), h(0x7e)]).toEqual([
      1,
      1.125,
      2,
      3,
      0.5,
      4,
      16,
      2 ** -4,
      256,
      384,
      32768,
      2 ** -15,
    ]);
    expect([h(0x01), h(0x07), h(0x87), h(0x00)]).toEqual([2 ** -22, 2 ** -16, -(2 ** -16), 0]);
    expect([h(0x80), h(0x6f), h(0xef)]).toEqual([NaN, Infinity, -Infinity]);
  });

  test('only the x2 types are packed', () => {
    expect(['!pto.f4E2M1x2', '!pto.f4E1M2x2', 'f8E4M3FN', '!pto.hif8'].map(isPackedFp4)).toEqual([true, true, false, false]);
  });
});

describe('fp4 encoding', () => {
  test('exact values, signed zero', () => {
    expect([1, 0.5, 6, -0, -6, 3].map((x) => encode('!pto.f4E2M1x2', x))).toEqual([0x2, 0x1, 0x7, 0x8, 0xf, 0x5]);
    expect([1, 0.25, 1.75, -1.5].map((x) => encode('!pto.f4E1M2x2', x))).toEqual([0x4, 0x1, 0x7, 0xe]);
  });

  test('ties: RINT to the even code, ROUND away from zero', () => {
    // E2M1: 0.75 between 0.5 (0x1) and 1 (0x2); 1.25 between 1 (0x2) and 1.5 (0x3); 5 between 4 (0x6) and 6 (0x7).
    expect([0.75, 1.25, 5, -1.25].map((x) => encode('!pto.f4E2M1x2', x))).toEqual([0x2, 0x2, 0x6, 0xa]);
    expect([0.75, 1.25, 5, -1.25].map((x) => encode('!pto.f4E2M1x2', x, 'round'))).toEqual([0x2, 0x3, 0x7, 0xb]);
    // E1M2: 0.625 between 0.5 (0x2) and 0.75 (0x3); 0.875 between 0.75 (0x3) and 1 (0x4).
    expect([0.625, 0.875].map((x) => encode('!pto.f4E1M2x2', x))).toEqual([0x2, 0x4]);
  });

  test('directed modes; a negative value rounded to zero keeps its sign', () => {
    expect([5.9, -5.9].map((x) => encode('!pto.f4E2M1x2', x, 'trunc'))).toEqual([0x6, 0xe]);
    expect([0.1, -0.1].map((x) => encode('!pto.f4E2M1x2', x, 'floor'))).toEqual([0x0, 0x9]);
    expect([0.1, -0.1].map((x) => encode('!pto.f4E2M1x2', x, 'ceil'))).toEqual([0x1, 0x8]);
    expect(encode('!pto.f4E2M1x2', -0.2)).toBe(0x8);
  });

  test('beyond the largest value: what rounds to it is kept, an overflow, NaN or infinity is not documented', () => {
    expect(encode('!pto.f4E2M1x2', 6.9)).toBe(0x7);
    // 7 is the tie between 6 (odd 0x7) and 8, past the format: nearest even overflows.
    expect(encode('!pto.f4E2M1x2', 7)).toBeUndefined();
    expect(encode('!pto.f4E2M1x2', 100, 'trunc')).toBe(0x7);
    expect(encode('!pto.f4E2M1x2', 100)).toBeUndefined();
    expect(encode('!pto.f4E1M2x2', 1.8)).toBe(0x7);
    expect(encode('!pto.f4E1M2x2', 1.875)).toBeUndefined();
    expect([NaN, Infinity].map((x) => encode('!pto.f4E2M1x2', x))).toEqual([undefined, undefined]);
  });
});

describe('fp8 encoding', () => {
  test('E4M3 saturated: exact, ties to even, subnormals, +-max for overflow and infinity, 0 for NaN', () => {
    const sat = (x: number, mode: RoundingMode = 'rint') => encode('f8E4M3FN', x, mode, 'saturate');
    expect([1, 448, 2 ** -9, -0].map((x) => sat(x))).toEqual([0x38, 0x7e, 0x01, 0x80]);
    // 1.0625 between 1 (0x38) and 1.125 (0x39); 1.1875 between 1.125 (0x39) and 1.25 (0x3a); 464 between 448 and 480.
    expect([1.0625, 1.1875, -1.0625, 464].map((x) => sat(x))).toEqual([0x38, 0x3a, 0xb8, 0x7e]);
    expect([2 ** -10, -(2 ** -10), 3 * 2 ** -10].map((x) => sat(x))).toEqual([0x00, 0x80, 0x02]);
    expect([500, -1e30, Infinity, -Infinity, NaN].map((x) => sat(x))).toEqual([0x7e, 0xfe, 0x7e, 0xfe, 0x00]);
    expect([sat(1.0625, 'round'), sat(1.99, 'trunc')]).toEqual([0x39, 0x3f]);
  });

  test('E4M3 unsaturated: an overflow, NaN and infinity (which E4M3 lacks) are not documented', () => {
    expect([500, NaN, Infinity].map((x) => encode('f8E4M3FN', x, 'rint', 'keep'))).toEqual([undefined, undefined, undefined]);
    expect(encode('f8E4M3FN', 464, 'rint', 'keep')).toBe(0x7e);
  });

  test('E5M2: ties to even, saturation, and the infinity code kept without it', () => {
    expect([1, 57344, 1.125, 1.375].map((x) => encode('f8E5M2', x, 'rint', 'saturate'))).toEqual([0x3c, 0x7b, 0x3c, 0x3e]);
    // 61440 is the tie between 57344 (odd 0x7b) and 65536: nearest even overflows.
    expect([61440, 1e10, NaN].map((x) => encode('f8E5M2', x, 'rint', 'saturate'))).toEqual([0x7b, 0x7b, 0x00]);
    expect([61440, Infinity, -Infinity, NaN].map((x) => encode('f8E5M2', x, 'rint', 'keep'))).toEqual([undefined, 0x7c, 0xfc, undefined]);
  });
});

describe('hifloat8 encoding (round half away from zero, unsaturated)', () => {
  const h = (x: number) => encode('!pto.hif8', x, 'round', 'keep');

  test('exact values of each prefix, the denormals; zero is unsigned', () => {
    expect([1, 2, 0.5, 3, 256, 32768, 2 ** -15, 2 ** -22, 2 ** -16, -0, -1].map(h)).toEqual([0x08, 0x10, 0x18, 0x14, 0x60, 0x6e, 0x7e, 0x01, 0x07, 0x00, 0x88]);
  });

  test('ties go away from zero, with the precision of the value binade', () => {
    // 1.0625: 3 mantissa bits at 2^0, between 1 and 1.125; 320: 1 mantissa bit at 2^8, between 256 and 384.
    expect([1.0625, -1.0625, 320, 1.05].map(h)).toEqual([0x09, 0x89, 0x61, 0x08]);
  });

  test('NaN and the infinities keep their codes; an overflow or an inexact denormal is not documented', () => {
    expect([NaN, Infinity, -Infinity].map(h)).toEqual([0x80, 0x6f, 0xef]);
    expect([1e6, 3 * 2 ** -17].map(h)).toEqual([undefined, undefined]);
  });
});
