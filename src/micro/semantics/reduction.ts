import { ElemType, isFloat } from '../../types/type';
import { Scalar, codec } from '../../numerics/elements';
import { integerRange } from '../../numerics/conversion';
import { pairTree } from '../../numerics/pair-tree';
import { Fail, Mask, VREG_BYTES, VReg, laneActive, newVReg, view } from './core';

/**
 * Reductions (docs/isa/micro-isa/10-reduction-ops.md): results in the low lanes, the other lanes zero.
 *
 * Order of float additions: vcadd is the vector unit's adjacent-pair tree over the whole register and vcgadd over
 * each 32-byte VLane, inactive lanes +0 in their positions, every add rounded in the element type (docs/numerics.md,
 * trowsum, which the TROWSUM runs on the same instructions). The docs' C loop adds in lane order; the goldens
 * (np.sum, compared with a tolerance) accept either, and the tree is the order the tile-level model already
 * commits to. vcpadd is a scan: its C loop is the only order (every partial sum is a result lane).
 */

/** vcadd's widening (10-reduction-ops.md, vpto-spec.md): 8- and 16-bit integers sum into twice the width. */
const WIDENED: Partial<Record<ElemType, ElemType>> = { i8: 'i16', u8: 'u16', i16: 'i32', u16: 'u32' };

/** The element type of vcadd's result for `elem` lanes. */
export const vcaddResultType = (elem: ElemType): ElemType => WIDENED[elem] ?? elem;

const REDUCIBLE = new Set<ElemType>(['i8', 'u8', 'i16', 'u16', 'i32', 'u32', 'f16', 'f32']);

function checkType(op: string, elem: ElemType, fail: Fail): void {
  if (!REDUCIBLE.has(elem)) fail(`${op} of ${elem} lanes is not defined`);
}

/** Each lane's value, or `inactive` where the mask is off. */
function activeLanes(elem: ElemType, a: VReg, mask: Mask, inactive: Scalar): Scalar[] {
  const c = codec(elem);
  const d = view(a);
  return Array.from({ length: VREG_BYTES / c.size }, (_, i) => (laneActive(mask, i, c.size) ? c.read(d, i * c.size) : inactive));
}

/** A sum in `out`: floats by the adjacent-pair tree rounded per add, integers exactly then wrapped into `out`. */
function sum(values: Scalar[], out: ElemType): Scalar {
  const c = codec(out);
  if (isFloat(out)) return pairTree(values as number[], (x, y) => c.round(x + y) as number);
  return c.round(values.reduce<number>((s, v) => s + (v as number), 0));
}

function resultOf(elem: ElemType, values: Scalar[]): VReg {
  const c = codec(elem);
  const r = newVReg();
  const d = view(r);
  values.forEach((v, i) => c.write(d, i * c.size, v));
  return r;
}

/** vcadd: the sum of the active lanes in lane 0 of vcaddResultType(elem) (+0 when none is active). */
export function vcadd(elem: ElemType, a: VReg, mask: Mask, fail: Fail): VReg {
  checkType('vcadd', elem, fail);
  const out = vcaddResultType(elem);
  return resultOf(out, [sum(activeLanes(elem, a, mask, 0), out)]);
}

/** The identity of max (min): -inf (+inf) for floats, the type's minimum (maximum) for integers. */
function identity(elem: ElemType, max: boolean): number {
  if (isFloat(elem)) return max ? -Infinity : Infinity;
  const [lo, hi] = integerRange(elem);
  return Number(max ? lo : hi);
}

function noNaN(op: string, values: Scalar[], fail: Fail): void {
  // The docs leave NaN to "the target instruction semantics" and no golden has one.
  if (values.some((v) => typeof v === 'number' && Number.isNaN(v))) fail(`${op} of a NaN lane is not implemented yet`);
}

/**
 * vcmax / vcmin: lane 0 the extremum of the active lanes (inactive ones are the identity, so all inactive gives
 * -inf / +inf or the integer bound), lane 1 the index of its first occurrence as an unsigned integer of the lane's
 * width (the vcmax golden writes the index's u32 bits into an f32 lane), the rest zero.
 */
export function vcmaxmin(name: 'vcmax' | 'vcmin', elem: ElemType, a: VReg, mask: Mask, fail: Fail): VReg {
  checkType(name, elem, fail);
  const max = name === 'vcmax';
  const values = activeLanes(elem, a, mask, identity(elem, max));
  noNaN(name, values, fail);
  let best = identity(elem, max);
  let index = 0;
  values.forEach((v, i) => {
    if (max ? v > best : v < best) [best, index] = [v as number, i];
  });
  const c = codec(elem);
  const r = resultOf(elem, [best]);
  codec(c.size === 1 ? 'u8' : c.size === 2 ? 'u16' : 'u32').write(view(r), c.size, index);
  return r;
}

/** The 8 VLanes of 32 bytes: the lanes of group g are g*K .. g*K + K - 1 (K = 32 / element size). */
function groups(values: Scalar[]): Scalar[][] {
  const k = values.length / 8;
  return Array.from({ length: 8 }, (_, g) => values.slice(g * k, g * k + k));
}

/**
 * vcgadd, vcgmax, vcgmin: one result per 32-byte VLane in lanes 0..7, the rest zero. vcgadd sums each VLane's
 * active lanes by the pair tree (integers wrap in the element type); vcgmax/vcgmin take inactive lanes as the
 * identity (an all-inactive VLane gives it), max(+0, -0) = +0 and min(-0, +0) = -0 whichever comes first (the docs).
 */
export function vcgroup(name: 'vcgadd' | 'vcgmax' | 'vcgmin', elem: ElemType, a: VReg, mask: Mask, fail: Fail): VReg {
  checkType(name, elem, fail);
  if (name === 'vcgadd')
    return resultOf(
      elem,
      groups(activeLanes(elem, a, mask, 0)).map((g) => sum(g, elem)),
    );
  const max = name === 'vcgmax';
  const values = activeLanes(elem, a, mask, identity(elem, max));
  noNaN(name, values, fail);
  const pick = max
    ? (x: number, y: number) => (x > y || (x === 0 && y === 0 && Object.is(y, -0)) ? x : y)
    : (x: number, y: number) => (x < y || (x === 0 && y === 0 && Object.is(x, -0)) ? x : y);
  return resultOf(
    elem,
    groups(values).map((g) => (g as number[]).reduce(pick, identity(elem, max))),
  );
}

/**
 * vcpadd (f16, f32): the inclusive prefix sum in lane order, each add rounded in the element type. Inactive lanes
 * add nothing and are zero in the result (the docs do not say; no golden observes them, each stores through the
 * same mask).
 */
export function vcpadd(elem: ElemType, a: VReg, mask: Mask, fail: Fail): VReg {
  if (elem !== 'f16' && elem !== 'f32') return fail(`vcpadd of ${elem} lanes is not defined`);
  const c = codec(elem);
  const d = view(a);
  const r = newVReg();
  const rd = view(r);
  let running: number | undefined;
  for (let i = 0; i < VREG_BYTES / c.size; i++) {
    if (!laneActive(mask, i, c.size)) continue;
    const x = c.read(d, i * c.size) as number;
    running = running === undefined ? x : (c.round(running + x) as number);
    c.write(rd, i * c.size, running);
  }
  return r;
}
