/** micro/semantics/conversion.ts: lane placements and values worked out by hand (the goldens' layouts cited per case). */
import { lanes, vregOf } from '../../../src/micro/semantics/core';
import { vcvt, vtrc } from '../../../src/micro/semantics/conversion';
import { binary } from '../../../src/micro/semantics/lanewise';
import { pattern, plt } from '../../../src/micro/semantics/predicate';

const fail = (message: string): never => {
  throw new Error(message);
};
const all32 = pattern('b32', 'PAT_ALL', fail);
const all16 = pattern('b16', 'PAT_ALL', fail);
const all8 = pattern('b8', 'PAT_ALL', fail);

describe('vcvt narrowing', () => {
  it('f32 -> f16 R SAT: EVEN to lanes 2i, ODD to 2i + 1, merged by vor (vcvt-f32-special); NaN -> 0, +-inf and overflow -> +-65504', () => {
    const lower = vregOf('f32', [1, 65520, NaN, -Infinity, 1e-8]);
    const upper = vregOf('f32', [-1, 0.5, Infinity, 123.75, -0]);
    const even = vcvt('f32', 'f16', lower, all32, { rnd: 'R', sat: 'SAT', part: 'EVEN' }, fail);
    const odd = vcvt('f32', 'f16', upper, all32, { rnd: 'R', sat: 'SAT', part: 'ODD' }, fail);
    expect(lanes(even, 'f16').slice(0, 10)).toEqual([1, 0, 65504, 0, 0, 0, -65504, 0, 0, 0]);
    expect(lanes(odd, 'f16').slice(0, 6)).toEqual([0, -1, 0, 0.5, 0, 65504]);
    const merged = lanes(binary('vor', 'f16', even, odd, all16, fail), 'f16');
    expect(merged.slice(0, 10)).toEqual([1, -1, 65504, 0.5, 0, 65504, -65504, 123.75, 0, -0]);
    expect(Object.is(merged[9], -0)).toBe(true);
  });

  it('i32 -> i16 SAT clamps, NOSAT keeps the low 16 bits (vcvt-i32-to-i16-overflow)', () => {
    const src = vregOf('i32', [40000, -40000, 5, -32769]);
    expect(lanes(vcvt('i32', 'i16', src, all32, { sat: 'SAT', part: 'EVEN' }, fail), 'i16').slice(0, 8)).toEqual([32767, 0, -32768, 0, 5, 0, -32768, 0]);
    expect(lanes(vcvt('i32', 'i16', vregOf('i32', [70000]), all32, { sat: 'NOSAT', part: 'ODD' }, fail), 'i16').slice(0, 2)).toEqual([0, 70000 - 65536]);
  });

  it('u32 -> u8 SAT: part Pk puts lane i in byte 4i + k (vcvt-u32-to-u8-part-p0123)', () => {
    const src = vregOf('u32', [7, 256, 0xffffffff]);
    const p0 = lanes(vcvt('u32', 'u8', src, all32, { sat: 'SAT', part: 'P0' }, fail), 'u8');
    const p3 = lanes(vcvt('u32', 'u8', src, all32, { sat: 'SAT', part: 'P3' }, fail), 'u8');
    expect(p0.slice(0, 12)).toEqual([7, 0, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0]);
    expect(p3.slice(0, 12)).toEqual([0, 0, 0, 7, 0, 0, 0, 255, 0, 0, 0, 255]);
  });

  it('i64 -> f32 R EVEN: lane i to f32 lane 2i, rounded to nearest even (vcvt-i64-to-f32)', () => {
    const src = vregOf('i64', [2n ** 24n + 1n, 2n ** 24n + 3n, -(2n ** 31n)]);
    const r = lanes(vcvt('i64', 'f32', src, all32, { rnd: 'R', part: 'EVEN' }, fail), 'f32');
    expect(r.slice(0, 6)).toEqual([16777216, 0, 16777220, 0, -2147483648, 0]);
  });

  it('an inactive source lane gives zero; the mask is read at the source lane', () => {
    const r = lanes(vcvt('f32', 'f16', vregOf('f32', [1, 2, 3]), plt('b32', 2).mask, { rnd: 'R', sat: 'SAT', part: 'ODD' }, fail), 'f16');
    expect(r.slice(0, 6)).toEqual([0, 1, 0, 2, 0, 0]);
  });
});

describe('vcvt widening and same width', () => {
  it('f16 -> f32: EVEN reads lanes 2i, ODD lanes 2i + 1', () => {
    const src = vregOf('f16', [1, 2, 3, 4, -0.5, 65504]);
    expect(lanes(vcvt('f16', 'f32', src, all16, { part: 'EVEN' }, fail), 'f32').slice(0, 3)).toEqual([1, 3, -0.5]);
    expect(lanes(vcvt('f16', 'f32', src, all16, { part: 'ODD' }, fail), 'f32').slice(0, 3)).toEqual([2, 4, 65504]);
  });

  it('f32 -> i32 by round mode: R ties to even, A away, F, C, Z', () => {
    const src = vregOf('f32', [2.5, -2.5, 1.2]);
    const run = (rnd: string) => lanes(vcvt('f32', 'i32', src, all32, { rnd, sat: 'SAT' }, fail), 'i32').slice(0, 3);
    expect(run('R')).toEqual([2, -2, 1]);
    expect(run('A')).toEqual([3, -3, 1]);
    expect(run('F')).toEqual([2, -3, 1]);
    expect(run('C')).toEqual([3, -2, 2]);
    expect(run('Z')).toEqual([2, -2, 1]);
  });

  it('fails where no source settles it: a missing part, O off f32 -> f16, a part on a same-width pair', () => {
    expect(() => vcvt('f32', 'f16', vregOf('f32', [1]), all32, { rnd: 'R', sat: 'SAT' }, fail)).toThrow('needs part EVEN/ODD');
    expect(() => vcvt('f32', 'i32', vregOf('f32', [1]), all32, { rnd: 'O', sat: 'SAT' }, fail)).toThrow('round mode O is not implemented yet');
    expect(() => vcvt('f32', 'i32', vregOf('f32', [1]), all32, { rnd: 'R', sat: 'SAT', part: 'EVEN' }, fail)).toThrow('takes no part');
  });
});

describe('vcvt low precision', () => {
  it('f8E4M3FN <-> f32 under P1: byte 4j + 1 <-> f32 lane j; SAT: inf -> 0x7e, NaN -> 0, ties to even (vcvt-low-precision-special)', () => {
    const bytes = new Array(12).fill(0);
    [bytes[1], bytes[5], bytes[9]] = [0x38, 0x3c, 0x7e];
    const decoded = lanes(vcvt('f8E4M3FN', 'f32', vregOf('u8', bytes), all8, { part: 'P1' }, fail), 'f32');
    expect(decoded.slice(0, 3)).toEqual([1, 1.5, 448]);
    const src = vregOf('f32', [Infinity, NaN, 1.0625, 1.1875, -1000]);
    const out = lanes(vcvt('f32', 'f8E4M3FN', src, all32, { rnd: 'R', sat: 'SAT', part: 'P1' }, fail), 'u8');
    expect([out[1], out[5], out[9], out[13], out[17]]).toEqual([0x7e, 0x00, 0x38, 0x3a, 0xfe]);
    expect([out[0], out[2], out[3], out[4]]).toEqual([0, 0, 0, 0]);
  });

  it('NOSAT to f8E4M3FN of a NaN (no single code) fails', () => {
    expect(() => vcvt('f32', 'f8E4M3FN', vregOf('f32', [NaN]), all32, { rnd: 'R', sat: 'NOSAT', part: 'P0' }, fail)).toThrow('not documented');
  });

  it('bf16 -> f4E2M1x2 under P2: lanes 2j, 2j + 1 to the nibbles of byte 4j + 2, and back', () => {
    const src = vregOf('bf16', [0.5, 1, 1.25, -6]);
    const packed = lanes(vcvt('bf16', '!pto.f4E2M1x2', src, all16, { rnd: 'R', part: 'P2' }, fail), 'u8');
    // 0.5 -> 1, 1 -> 2; 1.25 ties to the even code 2 (1.0), -6 -> 0xf.
    expect(packed.slice(0, 8)).toEqual([0, 0, 0x21, 0, 0, 0, 0xf2, 0]);
    const back = lanes(vcvt('!pto.f4E2M1x2', 'bf16', vregOf('u8', packed), all8, { part: 'P2' }, fail), 'bf16');
    expect(back.slice(0, 4)).toEqual([0.5, 1, 1, -6]);
  });
});

describe('vtrc', () => {
  it('rounds to integral values in the lane type (vtrc-f32-rounding: rint, trunc, floor)', () => {
    const src = vregOf('f32', [-2.5, 2.5, -0.4, 1.5]);
    expect(lanes(vtrc('f32', src, all32, 'R', fail), 'f32').slice(0, 4)).toEqual([-2, 2, -0, 2]);
    expect(lanes(vtrc('f32', src, all32, 'Z', fail), 'f32').slice(0, 4)).toEqual([-2, 2, -0, 1]);
    expect(lanes(vtrc('f32', src, all32, 'F', fail), 'f32').slice(0, 4)).toEqual([-3, 2, -1, 1]);
    expect(lanes(vtrc('f32', src, all32, 'C', fail), 'f32').slice(0, 4)).toEqual([-2, 3, -0, 2]);
    expect(lanes(vtrc('f32', src, all32, 'A', fail), 'f32').slice(0, 4)).toEqual([-3, 3, -0, 2]);
  });

  it('f16 Z keeps -0 (np.trunc in vtrc-f16-rounding); inactive lanes zero', () => {
    const r = lanes(vtrc('f16', vregOf('f16', [-0.5, 6.75, -7.5]), plt('b16', 2).mask, 'Z', fail), 'f16');
    expect(Object.is(r[0], -0)).toBe(true);
    expect(r.slice(1, 3)).toEqual([6, 0]);
  });
});
