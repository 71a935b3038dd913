import { ElemType } from '../../types/type';
import { Scalar, codec } from '../../numerics/elements';

/**
 * The register model of the VPTO vector core (A5), shared by every lane family:
 * - a vector register is 256 bytes, little-endian lanes of one element type (64 x b32, 128 x b16, 256 x b8, 32 x b64);
 * - a predicate (mask) is 256 bits, one per byte of a vector register, bit i at byte i >> 3, bit i & 7 (the packed image
 *   pto.psts stores: numpy's packbits(bitorder="little") in the predicate goldens).
 * A lane of a b16/b32 element is governed by the bit of its first byte (bit lane * size); producers of a b32 mask
 * set only that bit (vcmps-f32's golden: lane i is bit 4i), so a typed mask is a 256-bit image with every size-th bit
 * meaningful.
 */
export type VReg = Uint8Array;
export type Mask = Uint8Array;
export type Granularity = 'b8' | 'b16' | 'b32';
/** Stops the op with a message (the VM's trap). */
export type Fail = (message: string) => never;

export const VREG_BYTES = 256;
export const MASK_BYTES = 32;
export const GRANULE_BYTES: Record<Granularity, number> = { b8: 1, b16: 2, b32: 4 };

export const newVReg = (): VReg => new Uint8Array(VREG_BYTES);
export const newMask = (): Mask => new Uint8Array(MASK_BYTES);

export const elemBytes = (elem: ElemType): number => codec(elem).size;
export const laneCount = (elem: ElemType): number => VREG_BYTES / codec(elem).size;

export function maskBit(mask: Mask, bit: number): boolean {
  return ((mask[bit >> 3] >> (bit & 7)) & 1) === 1;
}

export function setMaskBit(mask: Mask, bit: number, on: boolean): void {
  if (on) mask[bit >> 3] |= 1 << (bit & 7);
  else mask[bit >> 3] &= ~(1 << (bit & 7));
}

/** Whether lane `lane` of `size`-byte elements is active. */
export const laneActive = (mask: Mask, lane: number, size: number): boolean => maskBit(mask, lane * size);

/** A mask of `size`-byte lanes from one boolean per lane (only each lane's first bit set). */
export function maskFromLanes(active: (lane: number) => boolean, size: number): Mask {
  const m = newMask();
  for (let lane = 0; lane < VREG_BYTES / size; lane++) if (active(lane)) setMaskBit(m, lane * size, true);
  return m;
}

export const view = (v: Uint8Array): DataView => new DataView(v.buffer, v.byteOffset, v.byteLength);

export function readLane(v: VReg, elem: ElemType, lane: number): Scalar {
  const c = codec(elem);
  return c.read(view(v), lane * c.size);
}

export function writeLane(v: VReg, elem: ElemType, lane: number, value: Scalar): void {
  const c = codec(elem);
  c.write(view(v), lane * c.size, value);
}

/** Every lane's value, in lane order (for tests and reductions). */
export function lanes(v: VReg, elem: ElemType): Scalar[] {
  const c = codec(elem);
  const d = view(v);
  return Array.from({ length: VREG_BYTES / c.size }, (_, i) => c.read(d, i * c.size));
}

/** A register whose lanes hold `values` (rounded/wrapped by the element codec), the rest zero. */
export function vregOf(elem: ElemType, values: ArrayLike<Scalar>): VReg {
  const v = newVReg();
  const c = codec(elem);
  const d = view(v);
  for (let i = 0; i < values.length; i++) c.write(d, i * c.size, c.round(values[i]));
  return v;
}

/**
 * A register of `out` lanes (as many as `elem` has), lane i = f(i) where the mask is on and zero elsewhere. VPTO's
 * predication is zeroing (docs/vpto-spec.md, "Predication Behavior"); pto-isa's vadd page says merging, but an SSA
 * result has no previous value to merge into, and no golden of test/vpto/cases observes an inactive lane of an
 * arithmetic result (each stores through the same mask).
 */
export function mapLanes(elem: ElemType, mask: Mask, f: (lane: number) => Scalar, out: ElemType = elem): VReg {
  const size = codec(elem).size;
  const dst = codec(out);
  const r = newVReg();
  const rd = view(r);
  for (let lane = 0; lane < VREG_BYTES / size; lane++) if (laneActive(mask, lane, size)) dst.write(rd, lane * dst.size, f(lane));
  return r;
}
