/** micro/semantics/predicate.ts: masks built by hand as packed 256-bit images (bit i = byte i >> 3, bit i & 7). */
import { maskBit, newMask } from '../../../src/micro/semantics/core';
import { pand, pattern, plt, pltm, pnot, por, ppack, psel, punpack, pxor } from '../../../src/micro/semantics/predicate';

const fail = (message: string): never => {
  throw new Error(message);
};
const bitsSet = (m: Uint8Array): number[] => Array.from({ length: 256 }, (_, i) => i).filter((i) => maskBit(m, i));
const range = (n: number, step = 1): number[] => Array.from({ length: n }, (_, i) => i * step);

describe('plt', () => {
  it('sets the first n lanes, one bit per lane at bit lane * size, and returns what is left', () => {
    const b32 = plt('b32', 3);
    expect(bitsSet(b32.mask)).toEqual([0, 4, 8]);
    expect(Array.from(b32.mask.slice(0, 2))).toEqual([0x11, 0x01]); // lane 1 is bit 4 of byte 0 (vcmps-f32's nibble layout)
    expect(b32.remaining).toBe(0);
    expect(plt('b32', 1000).remaining).toBe(936);
    expect(bitsSet(plt('b32', 1000).mask)).toEqual(range(64, 4));
    expect(plt('b32', 64).remaining).toBe(0);
    expect(bitsSet(plt('b16', 2).mask)).toEqual([0, 2]);
    expect(plt('b16', 200).remaining).toBe(72);
    const b8 = plt('b8', 145); // pldi-norm's count
    expect(bitsSet(b8.mask)).toEqual(range(145));
    expect(b8.mask[18]).toBe(0x01);
    expect(plt('b8', -5)).toEqual({ mask: newMask(), remaining: 0 });
  });

  it('pltm counts from loop * VL', () => {
    expect(bitsSet(pltm('b32', 1, 66))).toEqual([0, 4]);
    expect(bitsSet(pltm('b32', 2, 66))).toEqual([]);
  });
});

describe('patterns', () => {
  it('PAT_ALL, PAT_ALLF, PAT_VLn', () => {
    expect(bitsSet(pattern('b32', 'PAT_ALL', fail))).toEqual(range(64, 4));
    expect(bitsSet(pattern('b16', 'PAT_ALL', fail))).toEqual(range(128, 2));
    expect(pattern('b8', 'PAT_ALL', fail).every((b) => b === 0xff)).toBe(true);
    expect(bitsSet(pattern('b8', 'PAT_ALLF', fail))).toEqual([]);
    expect(bitsSet(pattern('b32', 'PAT_VL16', fail))).toEqual(range(16, 4));
    expect(bitsSet(pattern('b32', 'PAT_VL128', fail))).toEqual(range(64, 4));
  });

  it('traps on the patterns whose meaning the sources disagree on', () => {
    expect(() => pattern('b16', 'PAT_M4', fail)).toThrow('predicate pattern PAT_M4 is not implemented yet');
    expect(() => pattern('b16', 'PAT_H', fail)).toThrow('not implemented yet');
  });
});

describe('mask logic', () => {
  const a = Uint8Array.from({ length: 32 }, () => 0b1100);
  const b = Uint8Array.from({ length: 32 }, () => 0b1010);
  const g = Uint8Array.from({ length: 32 }, (_, i) => (i === 0 ? 0xff : 0x0f));
  it('and, or, xor, not under a governing mask', () => {
    expect(pand(a, b, g)[0]).toBe(0b1000);
    expect(por(a, b, g)[1]).toBe(0b1110);
    expect(pxor(a, b, g)[0]).toBe(0b0110);
    expect(pnot(a, g)[0]).toBe(0b11110011);
    expect(pnot(a, g)[5]).toBe(0b0011);
  });
  it('psel takes bits of the first source where sel is set', () => {
    expect(psel(a, b, g)[0]).toBe(0b1100);
    expect(
      psel(
        a,
        b,
        Uint8Array.from({ length: 32 }, () => 0b0110),
      )[3],
    ).toBe(0b1100); // 0100 from a, 1000 from b
  });
  it('ppack keeps even bits in one half; punpack spreads a half onto even bits', () => {
    const src = plt('b8', 6).mask; // bits 0..5 -> even bits 0, 2, 4 -> packed bits 0, 1, 2
    expect(bitsSet(ppack(src, 'LOWER'))).toEqual([0, 1, 2]);
    expect(bitsSet(ppack(src, 'HIGHER'))).toEqual([128, 129, 130]);
    expect(bitsSet(punpack(plt('b8', 3).mask, 'LOWER'))).toEqual([0, 2, 4]);
    expect(bitsSet(punpack(plt('b8', 130).mask, 'HIGHER'))).toEqual([0, 2]);
  });
});
