/** micro/semantics/compare-select.ts: compare masks and selections worked out by hand. */
import { lanes, maskBit, vregOf } from '../../../src/micro/semantics/core';
import { vcmp, vcmps, vsel, vselr } from '../../../src/micro/semantics/compare-select';
import { pattern, plt } from '../../../src/micro/semantics/predicate';

const fail = (message: string): never => {
  throw new Error(message);
};
const laneBits = (m: Uint8Array, size: number, n: number): boolean[] => Array.from({ length: n }, (_, i) => maskBit(m, i * size));

describe('vcmp / vcmps', () => {
  it('vcmps gt on f32 sets bit 4i (the vcmps-f32 golden: 0.5 > 0.5 is false, 0.5001 > 0.5 true)', () => {
    const v = vregOf('f32', [0.5, 0.5001, 0.4999, -0.5, 1.0, -1.0, 0.0, 2.0]);
    const m = vcmps('gt', 'f32', v, 0.5, plt('b32', 8).mask, fail);
    expect(laneBits(m, 4, 8)).toEqual([false, true, false, false, true, false, false, true]);
    expect(Array.from(m.slice(0, 4))).toEqual([0x10, 0x00, 0x01, 0x10]); // lanes 1, 4, 7 = bits 4, 16, 28
  });
  it('lanes off in the seed are 0; NaN compares unequal', () => {
    const a = vregOf('f32', [1, 1, NaN, NaN]);
    const b = vregOf('f32', [1, 1, NaN, 0]);
    expect(laneBits(vcmp('eq', 'f32', a, b, plt('b32', 1).mask, fail), 4, 4)).toEqual([true, false, false, false]);
    expect(laneBits(vcmp('ne', 'f32', a, b, pattern('b32', 'PAT_ALL', fail), fail), 4, 4)).toEqual([false, false, true, true]);
  });
  it('integers compare by the element type signedness', () => {
    const all = pattern('b16', 'PAT_ALL', fail);
    const a = vregOf('i16', [-1, 5]);
    const b = vregOf('i16', [1, 5]);
    expect(laneBits(vcmp('lt', 'i16', a, b, all, fail), 2, 2)).toEqual([true, false]);
    expect(laneBits(vcmp('lt', 'u16', a, b, all, fail), 2, 2)).toEqual([false, false]); // 65535 < 1 is false
    expect(laneBits(vcmps('ge', 'u8', vregOf('u8', [200, 3]), 128, pattern('b8', 'PAT_ALL', fail), fail), 1, 2)).toEqual([true, false]);
    expect(() => vcmp('ult', 'i16', a, b, all, fail)).toThrow('compare mode ult is not implemented yet');
  });
});

describe('vsel / vselr', () => {
  it('vsel picks whole lanes', () => {
    const r = vsel(4, vregOf('f32', [1, 2, 3]), vregOf('f32', [-1, -2, -3]), plt('b32', 2).mask);
    expect(lanes(r, 'f32').slice(0, 3)).toEqual([1, 2, -3]);
    const b8 = vsel(1, vregOf('u8', [1, 1]), vregOf('u8', [0, 0]), plt('b8', 1).mask);
    expect(Array.from(b8.slice(0, 2))).toEqual([1, 0]);
  });
  it('vselr gathers lanes by index', () => {
    const src = vregOf(
      'f32',
      Array.from({ length: 64 }, (_, i) => i * 10),
    );
    const idx = vregOf('i32', [63, 0, 5]);
    expect(lanes(vselr(4, src, idx, fail), 'f32').slice(0, 4)).toEqual([630, 0, 50, 0]);
    expect(() => vselr(4, src, vregOf('i32', [64]), fail)).toThrow('vselr index 64 is past lane 63');
  });
});
