/** micro/semantics/reduction.ts: sums, extrema and their lanes worked out by hand. */
import { lanes, vregOf } from '../../../src/micro/semantics/core';
import { pattern, plt } from '../../../src/micro/semantics/predicate';
import { vcadd, vcaddResultType, vcgroup, vcmaxmin, vcpadd } from '../../../src/micro/semantics/reduction';

const fail = (message: string): never => {
  throw new Error(message);
};
const all32 = pattern('b32', 'PAT_ALL', fail);
const all16 = pattern('b16', 'PAT_ALL', fail);
const all8 = pattern('b8', 'PAT_ALL', fail);

describe('vcadd', () => {
  it('f32: the adjacent-pair tree, each add rounded: (1e8 + 1) + (-1e8 + 1) = 0 where the lane-order loop gives 1', () => {
    const r = lanes(vcadd('f32', vregOf('f32', [1e8, 1, -1e8, 1]), all32, fail), 'f32');
    expect(r[0]).toBe(0);
    expect(r.slice(1).every((x) => x === 0)).toBe(true);
  });

  it('inactive lanes count as +0; none active gives +0', () => {
    expect(lanes(vcadd('f32', vregOf('f32', [1, 2, 3, 100]), plt('b32', 3).mask, fail), 'f32')[0]).toBe(6);
    expect(Object.is(lanes(vcadd('f32', vregOf('f32', [-0]), plt('b32', 0).mask, fail), 'f32')[0], 0)).toBe(true);
  });

  it('8- and 16-bit integers widen (256 x 127 = 32512 in i16, 256 x 255 = 65280 in u16); i32 wraps', () => {
    expect(vcaddResultType('i8')).toBe('i16');
    expect(lanes(vcadd('i8', vregOf('i8', new Array(256).fill(127)), all8, fail), 'i16')[0]).toBe(32512);
    expect(lanes(vcadd('u8', vregOf('u8', new Array(256).fill(255)), all8, fail), 'u16')[0]).toBe(65280);
    expect(lanes(vcadd('i16', vregOf('i16', new Array(128).fill(-32768)), all16, fail), 'i32')[0]).toBe(-4194304);
    expect(lanes(vcadd('i32', vregOf('i32', [2147483647, 1]), all32, fail), 'i32')[0]).toBe(-2147483648);
  });
});

describe('vcmax / vcmin', () => {
  it('lane 0 the extremum, lane 1 the first index as u32 bits (the vcmax golden), the rest zero', () => {
    const r = vcmaxmin('vcmax', 'f32', vregOf('f32', [3, 7, 7, -1]), all32, fail);
    expect(lanes(r, 'f32')[0]).toBe(7);
    expect(lanes(r, 'u32').slice(1, 4)).toEqual([1, 0, 0]);
    const m = vcmaxmin('vcmin', 'i16', vregOf('i16', [5, -3, -3, 9]), all16, fail);
    expect(lanes(m, 'i16').slice(0, 3)).toEqual([-3, 1, 0]);
  });

  it('inactive lanes are the identity: all inactive gives -inf / the integer maximum and index 0', () => {
    expect(lanes(vcmaxmin('vcmax', 'f32', vregOf('f32', [3, 70]), plt('b32', 1).mask, fail), 'f32')[0]).toBe(3);
    expect(lanes(vcmaxmin('vcmax', 'f32', vregOf('f32', [3]), plt('b32', 0).mask, fail), 'f32').slice(0, 2)).toEqual([-Infinity, 0]);
    expect(lanes(vcmaxmin('vcmin', 'u8', vregOf('u8', [3]), plt('b8', 0).mask, fail), 'u8').slice(0, 2)).toEqual([255, 0]);
  });

  it('a NaN lane fails (the docs defer to the target, no golden has one)', () => {
    expect(() => vcmaxmin('vcmax', 'f32', vregOf('f32', [NaN]), all32, fail)).toThrow('not implemented yet');
  });
});

describe('vcgadd / vcgmax / vcgmin', () => {
  // The first rows of the vcg-group golden: VLane 0 and VLane 2.
  const src = new Array(64).fill(0);
  src.splice(0, 8, -7, 1, 3.5, -2, 9, -4.5, 6, 0.5);
  src.splice(16, 8, -0, 0, -5, 5, 11, -12, 13, -14);

  it('one result per 32-byte VLane in lanes 0..7 (vcg-group)', () => {
    const v = vregOf('f32', src);
    expect(lanes(vcgroup('vcgadd', 'f32', v, all32, fail), 'f32').slice(0, 9)).toEqual([6.5, 0, -2, 0, 0, 0, 0, 0, 0]);
    expect(lanes(vcgroup('vcgmax', 'f32', v, all32, fail), 'f32').slice(0, 3)).toEqual([9, 0, 13]);
    expect(lanes(vcgroup('vcgmin', 'f32', v, all32, fail), 'f32').slice(0, 3)).toEqual([-7, 0, -14]);
  });

  it('vcgadd adds by the pair tree per VLane; i16 VLanes of 16 lanes wrap', () => {
    expect(lanes(vcgroup('vcgadd', 'f32', vregOf('f32', [1e8, 1, -1e8, 1]), all32, fail), 'f32')[0]).toBe(0);
    const r = lanes(vcgroup('vcgadd', 'i16', vregOf('i16', [...new Array(16).fill(4096), 1]), all16, fail), 'i16');
    expect(r.slice(0, 3)).toEqual([0, 1, 0]);
  });

  it('max(+0, -0) = +0 and min(-0, +0) = -0 in either order; an all-inactive VLane gives the identity', () => {
    const zeros = vregOf('f32', [-0, 0, 0, -0, 0, 0, 0, 0, ...new Array(8).fill(-0)]);
    const max = lanes(vcgroup('vcgmax', 'f32', zeros, all32, fail), 'f32');
    const min = lanes(vcgroup('vcgmin', 'f32', zeros, all32, fail), 'f32');
    expect([Object.is(max[0], 0), Object.is(max[1], -0)]).toEqual([true, true]);
    expect([Object.is(min[0], -0), Object.is(min[1], -0)]).toEqual([true, true]);
    const partial = lanes(vcgroup('vcgmax', 'f32', vregOf('f32', [5]), plt('b32', 8).mask, fail), 'f32');
    expect(partial.slice(0, 3)).toEqual([5, -Infinity, -Infinity]);
  });
});

describe('vcpadd', () => {
  it('the inclusive prefix sum; inactive lanes add nothing and are zero', () => {
    expect(lanes(vcpadd('f32', vregOf('f32', [1, 2, 3, 4]), all32, fail), 'f32').slice(0, 5)).toEqual([1, 3, 6, 10, 10]);
    expect(lanes(vcpadd('f32', vregOf('f32', [1, 2, 3, 4]), plt('b32', 2).mask, fail), 'f32').slice(0, 4)).toEqual([1, 3, 0, 0]);
    // f16: 2048 + 1 rounds to 2048 (ties to even), + 1 again to 2048.
    expect(lanes(vcpadd('f16', vregOf('f16', [2048, 1, 1]), all16, fail), 'f16').slice(0, 3)).toEqual([2048, 2048, 2048]);
  });
});
