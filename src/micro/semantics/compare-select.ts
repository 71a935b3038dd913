import { ElemType } from '../../types/type';
import { Scalar, codec } from '../../numerics/elements';
import { Fail, Mask, VREG_BYTES, VReg, laneActive, maskFromLanes, newVReg, view } from './core';

/**
 * Compares and selects (docs/isa/micro-isa/11-compare-select.md). A compare's result mask has lane i set where the
 * seed mask has it and the comparison holds (lanes off in the seed are 0); comparisons of floats are IEEE's (a NaN
 * is unequal to everything, `ne` holds), of integers by the element type's signedness (vcmp-i16-signed/-unsigned).
 */

const COMPARE: Record<string, (a: Scalar, b: Scalar) => boolean> = {
  eq: (a, b) => a === b,
  ne: (a, b) => a !== b,
  lt: (a, b) => a < b,
  le: (a, b) => a <= b,
  gt: (a, b) => a > b,
  ge: (a, b) => a >= b,
};

function comparison(mode: string, fail: Fail): (a: Scalar, b: Scalar) => boolean {
  return COMPARE[mode] ?? fail(`compare mode ${mode} is not implemented yet`);
}

/** vcmp: lane-wise `a MODE b` under `seed`. */
export function vcmp(mode: string, elem: ElemType, a: VReg, b: VReg, seed: Mask, fail: Fail): Mask {
  const f = comparison(mode, fail);
  const c = codec(elem);
  const [da, db] = [view(a), view(b)];
  return maskFromLanes((i) => laneActive(seed, i, c.size) && f(c.read(da, i * c.size), c.read(db, i * c.size)), c.size);
}

/** vcmps: lane-wise `a MODE scalar` under `seed`; the scalar is rounded to the element type as its register holds it. */
export function vcmps(mode: string, elem: ElemType, a: VReg, scalar: Scalar, seed: Mask, fail: Fail): Mask {
  const f = comparison(mode, fail);
  const c = codec(elem);
  const s = c.round(scalar);
  const da = view(a);
  return maskFromLanes((i) => laneActive(seed, i, c.size) && f(c.read(da, i * c.size), s), c.size);
}

/** vsel: lane i of `a` where the mask's lane i is on, of `b` elsewhere (lanes of `size` bytes; bits copied as they are). */
export function vsel(size: number, a: VReg, b: VReg, mask: Mask): VReg {
  const r = newVReg();
  for (let i = 0; i < VREG_BYTES / size; i++) r.set((laneActive(mask, i, size) ? a : b).subarray(i * size, i * size + size), i * size);
  return r;
}

/** vselr: lane i is lane idx[i] of `src` (indices unsigned lanes of the same width); an index past the last lane traps. */
export function vselr(size: number, src: VReg, idx: VReg, fail: Fail): VReg {
  const index = codec(size === 1 ? 'u8' : size === 2 ? 'u16' : 'u32');
  const di = view(idx);
  const n = VREG_BYTES / size;
  const r = newVReg();
  for (let i = 0; i < n; i++) {
    const k = index.read(di, i * size) as number;
    if (k >= n) return fail(`vselr index ${k} is past lane ${n - 1}`);
    r.set(src.subarray(k * size, k * size + size), i * size);
  }
  return r;
}
