import { ElemType, isFloat } from '../../types/type';
import { Scalar, codec } from '../../numerics/elements';
import { Fail, Mask, VREG_BYTES, VReg, laneActive, mapLanes, newVReg, view } from './core';

/**
 * Broadcasts, index generation and in-register rearrangement (docs/isa/micro-isa/05, 12, 13). Lanes move as bits
 * (`size`-byte copies) wherever no value is computed.
 */

const copyLane = (src: VReg, from: number, dst: VReg, to: number, size: number): void => dst.set(src.subarray(from * size, from * size + size), to * size);

/** vbr: the scalar (rounded to the element type, as its register holds it) in every lane; no mask. */
export function vbr(elem: ElemType, scalar: Scalar): VReg {
  const c = codec(elem);
  const v = c.round(scalar);
  const r = newVReg();
  const d = view(r);
  for (let i = 0; i < VREG_BYTES / c.size; i++) c.write(d, i * c.size, v);
  return r;
}

/** vdup of a scalar: the scalar in the active lanes, zero elsewhere. */
export function vdupScalar(elem: ElemType, scalar: Scalar, mask: Mask): VReg {
  const v = codec(elem).round(scalar);
  return mapLanes(elem, mask, () => v);
}

/**
 * vdup of a register lane: position LOWEST copies lane 0, HIGHEST the last lane, into the active lanes (the
 * vdup-lane golden: chunk[0] and chunk[-1] of each 64-lane block), zero elsewhere.
 */
export function vdupLane(size: number, src: VReg, position: string, mask: Mask, fail: Fail): VReg {
  const n = VREG_BYTES / size;
  const from = position === 'LOWEST' ? 0 : position === 'HIGHEST' ? n - 1 : fail(`vdup position ${position} is not implemented yet`);
  const r = newVReg();
  for (let i = 0; i < n; i++) if (laneActive(mask, i, size)) copyLane(src, from, r, i, size);
  return r;
}

/**
 * vci: lane i = base + i (order ASC) or base - i (DESC), integers wrapping in the element type, floats rounded
 * once to it (the vci golden: arange from the base).
 */
export function vci(elem: ElemType, base: Scalar, order: string, fail: Fail): VReg {
  if (order !== 'ASC' && order !== 'DESC') return fail(`vci order ${order} is not implemented yet`);
  const c = codec(elem);
  if (c.size === 8) return fail(`vci of ${elem} lanes is not defined`);
  const step = order === 'ASC' ? 1 : -1;
  const b = Number(c.round(base));
  const r = newVReg();
  const d = view(r);
  for (let i = 0; i < VREG_BYTES / c.size; i++) c.write(d, i * c.size, c.round(b + step * i));
  return r;
}

/**
 * vintlv: low = lhs[0], rhs[0], lhs[1], rhs[1], ... over the first halves, high the same over the second halves.
 * vdintlv: the inverse, lhs ++ rhs read as one stream: low its even elements, high its odd ones
 * (vintlv-vdintlv's golden: the round trip gives the sources back).
 */
export function vintlv(size: number, lhs: VReg, rhs: VReg): { low: VReg; high: VReg } {
  const n = VREG_BYTES / size;
  const [low, high] = [newVReg(), newVReg()];
  for (let i = 0; i < n; i++) {
    const [dst, j] = i < n / 2 ? [low, 2 * i] : [high, 2 * (i - n / 2)];
    copyLane(lhs, i, dst, j, size);
    copyLane(rhs, i, dst, j + 1, size);
  }
  return { low, high };
}

export function vdintlv(size: number, lhs: VReg, rhs: VReg): { low: VReg; high: VReg } {
  const n = VREG_BYTES / size;
  const [low, high] = [newVReg(), newVReg()];
  for (let k = 0; k < 2 * n; k++) {
    const [src, i] = k < n ? [lhs, k] : [rhs, k - n];
    copyLane(src, i, k % 2 === 0 ? low : high, k >> 1, size);
  }
  return { low, high };
}

/**
 * vpack: each lane of `size` bytes truncated to its low half (i32/u32 -> u16, i16/u16 -> u8), placed in the
 * result's lower (LOWER) or upper (HIGHER) half, the other half zero (the vpack-higher golden).
 */
export function vpack(size: number, src: VReg, part: string, fail: Fail): VReg {
  if (size !== 2 && size !== 4) return fail(`vpack of ${size * 8}-bit lanes is not defined`);
  const half = size / 2;
  const n = VREG_BYTES / size;
  const base = part === 'LOWER' ? 0 : part === 'HIGHER' ? n : fail(`vpack part ${part} is not implemented yet`);
  const r = newVReg();
  // Little-endian: a lane's low half is its first bytes.
  for (let i = 0; i < n; i++) r.set(src.subarray(i * size, i * size + half), (base + i) * half);
  return r;
}

/**
 * vsunpack / vzunpack: lanes part * N/2 .. part * N/2 + N/2 - 1 of `narrow` (N lanes), sign- or zero-extended to
 * twice the width (the vsunpack golden: part 0 widens the first 64 i16 lanes); part is 0 or 1.
 */
export function vunpack(name: 'vsunpack' | 'vzunpack', narrow: ElemType, src: VReg, part: number, fail: Fail): VReg {
  const size = codec(narrow).size;
  if (isFloat(narrow) || size > 2) return fail(`${name} of ${narrow} lanes is not defined`);
  if (part !== 0 && part !== 1) return fail(`${name} part ${part} is not 0 or 1`);
  const signed = name === 'vsunpack';
  const from = codec(size === 1 ? (signed ? 'i8' : 'u8') : signed ? 'i16' : 'u16');
  const to = codec(size === 1 ? (signed ? 'i16' : 'u16') : signed ? 'i32' : 'u32');
  const half = VREG_BYTES / size / 2;
  const [s, r] = [view(src), newVReg()];
  const d = view(r);
  for (let i = 0; i < half; i++) to.write(d, i * to.size, from.read(s, (part * half + i) * size));
  return r;
}

/** vsqz: the active lanes packed to the front in lane order, the rest zero. */
export function vsqz(size: number, src: VReg, mask: Mask): VReg {
  const r = newVReg();
  let j = 0;
  for (let i = 0; i < VREG_BYTES / size; i++) if (laneActive(mask, i, size)) copyLane(src, i, r, j++, size);
  return r;
}

/**
 * vusqz (si8, si16, si32): lane i = the number of active lanes before i (lane 0 is 0; the vusqz golden); every lane
 * is written, the source's values are not read.
 */
export function vusqz(elem: ElemType, mask: Mask, fail: Fail): VReg {
  if (elem !== 'i8' && elem !== 'i16' && elem !== 'i32') return fail(`vusqz of ${elem} lanes is not defined`);
  const c = codec(elem);
  const r = newVReg();
  const d = view(r);
  let count = 0;
  for (let i = 0; i < VREG_BYTES / c.size; i++) {
    c.write(d, i * c.size, count);
    if (laneActive(mask, i, c.size)) count++;
  }
  return r;
}
