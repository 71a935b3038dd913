import { ElemType, isFloat } from '../../types/type';
import { codec } from '../../numerics/elements';
import { fusedMultiplyAdd } from '../../numerics/arithmetic';
import { FORMATS, roundToFormat } from '../../numerics/rounding';
import { Fail, Mask, VReg, VREG_BYTES, laneActive, mapLanes, newVReg, view } from './core';

/**
 * The fused and widening lane ops of docs/isa/micro-isa (07, 13): vmula, vaxpy, vexpdif, vmull, and vbitcast.
 * Inactive lanes are zero (core.ts mapLanes).
 */

/** Integer lanes as bigint (a 32 x 32 product is not exact in a double), wrapped into the element's width. */
function integerLane(elem: ElemType, value: bigint): number | bigint {
  const bits = codec(elem).size * 8;
  const wrapped = elem.startsWith('u') ? BigInt.asUintN(bits, value) : BigInt.asIntN(bits, value);
  return bits === 64 ? wrapped : Number(wrapped);
}
const big = (x: number | bigint): bigint => BigInt(x);

/**
 * vmula: acc + lhs * rhs, one rounding for floats (13-dsa-sfu-ops.md: fused, not a vmul then a vadd), two's
 * complement wrap for integers.
 */
export function vmula(elem: ElemType, acc: VReg, lhs: VReg, rhs: VReg, mask: Mask, fail: Fail): VReg {
  const c = codec(elem);
  const [da, dl, dr] = [view(acc), view(lhs), view(rhs)];
  const at = (i: number) => i * c.size;
  if (isFloat(elem)) {
    if (elem !== 'f16' && elem !== 'f32') return fail(`vmula of ${elem} lanes is not implemented yet`);
    return mapLanes(elem, mask, (i) => fusedMultiplyAdd(c.read(dl, at(i)) as number, c.read(dr, at(i)) as number, c.read(da, at(i)) as number, c));
  }
  return mapLanes(elem, mask, (i) => integerLane(elem, big(c.read(da, at(i))) + big(c.read(dl, at(i))) * big(c.read(dr, at(i)))));
}

/** vmadd (f16, bf16, f32): acc * lhs + rhs rounded once (13-dsa-sfu-ops.md: a direct fused multiply-add). */
export function vmadd(elem: ElemType, acc: VReg, lhs: VReg, rhs: VReg, mask: Mask, fail: Fail): VReg {
  if (elem !== 'f16' && elem !== 'bf16' && elem !== 'f32') return fail(`vmadd of ${elem} lanes is not defined`);
  const c = codec(elem);
  const [da, dl, dr] = [view(acc), view(lhs), view(rhs)];
  // The product of two bf16 (8-bit significand) values is exact in a double, as of f16 and f32 ones.
  return mapLanes(elem, mask, (i) => fusedMultiplyAdd(c.read(da, i * c.size) as number, c.read(dl, i * c.size) as number, c.read(dr, i * c.size) as number, c));
}

/**
 * vmulscvt (f32 -> f16, rnd A): each active f32 lane times the scalar (exact in a double), rounded once to f16 with
 * ties away from zero ("in a single hardware step"), into f16 lane 2i (EVEN) or 2i + 1 (ODD), the other lanes zero
 * (vcvt's narrowing placement). A product beyond f16's range or a NaN has no documented result: it traps.
 */
export function vmulscvt(input: VReg, scalar: number, mask: Mask, part: string, fail: Fail): VReg {
  const k = part === 'EVEN' ? 0 : part === 'ODD' ? 1 : fail(`vmulscvt part ${part} is not defined`);
  const f32 = codec('f32');
  const f16 = codec('f16');
  const s = f32.round(scalar) as number;
  const [src, r] = [view(input), newVReg()];
  const dst = view(r);
  for (let i = 0; i < VREG_BYTES / 4; i++) {
    if (!laneActive(mask, i, 4)) continue;
    const y = roundToFormat((f32.read(src, i * 4) as number) * s, FORMATS.f16, 'round');
    if (!Number.isFinite(y)) fail(`vmulscvt: the f16 result of lane ${i} (${(f32.read(src, i * 4) as number) * s}) is not documented`);
    f16.write(dst, (2 * i + k) * 2, y);
  }
  return r;
}

/** vaxpy (f16, f32): alpha * src0 + src1 rounded once (the docs' fused AXPY). */
export function vaxpy(elem: ElemType, src0: VReg, src1: VReg, alpha: number, mask: Mask, fail: Fail): VReg {
  if (elem !== 'f16' && elem !== 'f32') return fail(`vaxpy of ${elem} lanes is not defined`);
  const c = codec(elem);
  const [d0, d1] = [view(src0), view(src1)];
  const a = c.round(alpha) as number;
  return mapLanes(elem, mask, (i) => fusedMultiplyAdd(a, c.read(d0, i * c.size) as number, c.read(d1, i * c.size) as number, c));
}

/**
 * vexpdif: exp(input - max) into f32 lanes, the difference exact in a double and the result rounded once (the golden
 * compares with a tolerance). f32 sources map lane i to lane i (the docs' loop); f16 sources are twice as many, and
 * part EVEN/ODD takes source lane 2i or 2i + 1 into f32 lane i (vcvt's widening by part). The mask has the source's
 * granularity; an inactive source lane gives 0.
 */
export function vexpdif(elem: ElemType, input: VReg, max: VReg, mask: Mask, part: string, fail: Fail): VReg {
  if (elem !== 'f16' && elem !== 'f32') return fail(`vexpdif of ${elem} lanes is not defined`);
  if (part !== 'EVEN' && part !== 'ODD') return fail(`vexpdif part ${part} is not defined`);
  const c = codec(elem);
  const f32 = codec('f32');
  const [di, dm] = [view(input), view(max)];
  const r = newVReg();
  const dr = view(r);
  for (let i = 0; i < VREG_BYTES / 4; i++) {
    const src = elem === 'f32' ? i : 2 * i + (part === 'ODD' ? 1 : 0);
    if (!laneActive(mask, src, c.size)) continue;
    f32.write(dr, i * 4, Math.exp((c.read(di, src * c.size) as number) - (c.read(dm, src * c.size) as number)));
  }
  return r;
}

/**
 * vmull (32-bit integer lanes): the 64-bit product's low and high 32 bits, signed for i32 and unsigned for ui32 (the
 * golden's int64 product of i32 lanes).
 */
export function vmull(elem: ElemType, lhs: VReg, rhs: VReg, mask: Mask, fail: Fail): { low: VReg; high: VReg } {
  if (elem !== 'i32' && elem !== 'u32') return fail(`vmull of ${elem} lanes is not defined (32-bit integers only)`);
  const c = codec(elem);
  const [dl, dr] = [view(lhs), view(rhs)];
  const product = (i: number) => big(c.read(dl, i * 4)) * big(c.read(dr, i * 4));
  return {
    low: mapLanes(elem, mask, (i) => integerLane(elem, product(i))),
    high: mapLanes(elem, mask, (i) => integerLane(elem, product(i) >> 32n)),
  };
}

/** vbitcast: the same 256 bytes read as another element type. */
export const vbitcast = (input: VReg): VReg => input.slice();
