/** micro/semantics/rearrange.ts: lane placements worked out by hand. */
import { lanes, maskFromLanes, vregOf } from '../../../src/micro/semantics/core';
import { pattern, plt } from '../../../src/micro/semantics/predicate';
import { vbr, vci, vdintlv, vdupLane, vdupScalar, vintlv, vpack, vsqz, vunpack, vusqz } from '../../../src/micro/semantics/rearrange';

const fail = (message: string): never => {
  throw new Error(message);
};
const all32 = pattern('b32', 'PAT_ALL', fail);
const iota = (n: number, from = 0): number[] => Array.from({ length: n }, (_, i) => from + i);

describe('broadcasts and index generation', () => {
  it('vbr fills every lane with the rounded scalar; vdup of a scalar only the active lanes', () => {
    expect(lanes(vbr('f32', 0.1), 'f32').every((x) => x === Math.fround(0.1))).toBe(true);
    expect(lanes(vbr('u8', 300), 'u8')[255]).toBe(44);
    expect(lanes(vdupScalar('i8', -3, plt('b8', 2).mask), 'i8').slice(0, 3)).toEqual([-3, -3, 0]);
  });

  it('vdup LOWEST / HIGHEST copies lane 0 / lane 63 into the active lanes (vdup-lane)', () => {
    const src = vregOf('f32', iota(64, 10));
    expect(lanes(vdupLane(4, src, 'LOWEST', all32, fail), 'f32').slice(62)).toEqual([10, 10]);
    expect(lanes(vdupLane(4, src, 'HIGHEST', plt('b32', 1).mask, fail), 'f32').slice(0, 2)).toEqual([73, 0]);
  });

  it('vci: base + i ascending, base - i descending; i8 wraps, f16 rounds', () => {
    expect(lanes(vci('i32', 5, 'ASC', fail), 'i32').slice(0, 3)).toEqual([5, 6, 7]);
    expect(lanes(vci('i8', 0, 'ASC', fail), 'i8').slice(127, 130)).toEqual([127, -128, -127]);
    expect(lanes(vci('i16', 1, 'DESC', fail), 'i16').slice(0, 3)).toEqual([1, 0, -1]);
    expect(lanes(vci('f16', 0.5, 'ASC', fail), 'f16').slice(0, 2)).toEqual([0.5, 1.5]);
  });
});

describe('interleave', () => {
  it('vintlv interleaves first halves into low, second into high; vdintlv undoes it (vintlv-vdintlv)', () => {
    const a = vregOf('i32', iota(64, 0));
    const b = vregOf('i32', iota(64, 100));
    const { low, high } = vintlv(4, a, b);
    expect(lanes(low, 'i32').slice(0, 4)).toEqual([0, 100, 1, 101]);
    expect(lanes(high, 'i32').slice(0, 4)).toEqual([32, 132, 33, 133]);
    const back = vdintlv(4, low, high);
    expect(lanes(back.low, 'i32')).toEqual(iota(64, 0));
    expect(lanes(back.high, 'i32')).toEqual(iota(64, 100));
  });
});

describe('pack and unpack', () => {
  it('vpack keeps the low 16 bits in the chosen half, the other half zero (vpack-higher)', () => {
    const src = vregOf('i32', [0x12345678, -1]);
    const higher = lanes(vpack(4, src, 'HIGHER', fail), 'u16');
    expect(higher.slice(0, 64).every((x) => x === 0)).toBe(true);
    expect(higher.slice(64, 66)).toEqual([0x5678, 0xffff]);
    expect(lanes(vpack(2, vregOf('u16', [0x1ff]), 'LOWER', fail), 'u8').slice(0, 2)).toEqual([0xff, 0]);
  });

  it('vsunpack sign-extends, vzunpack zero-extends the chosen half', () => {
    const src = vregOf('i16', [-2, 7, ...new Array(62).fill(0), -32768]);
    expect(lanes(vunpack('vsunpack', 'i16', src, 0, fail), 'i32').slice(0, 2)).toEqual([-2, 7]);
    expect(lanes(vunpack('vsunpack', 'i16', src, 1, fail), 'i32')[0]).toBe(-32768);
    expect(lanes(vunpack('vzunpack', 'u16', src, 0, fail), 'u32')[0]).toBe(65534);
  });
});

describe('squeeze', () => {
  it('vsqz packs the active lanes to the front, the rest zero', () => {
    const mask = maskFromLanes((i) => i === 1 || i === 3 || i === 4, 4);
    expect(lanes(vsqz(4, vregOf('f32', [1, 2, 3, 4, 5, 6]), mask), 'f32').slice(0, 5)).toEqual([2, 4, 5, 0, 0]);
  });

  it('vusqz: lane i counts the active lanes before i (vusqz)', () => {
    expect(lanes(vusqz('i32', plt('b32', 3).mask, fail), 'i32').slice(0, 6)).toEqual([0, 1, 2, 3, 3, 3]);
  });
});
