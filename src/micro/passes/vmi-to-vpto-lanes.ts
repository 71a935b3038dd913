import { VmiLayout, parseVmiLayout, printVmiLayout } from '../../syntax/vmi-layout';
import { VmiMaskType, VmiVregType, elemBits } from '../../types/type';

/**
 * Where the lanes of a layout-assigned VMI value sit in physical 256-byte registers, as PTOAS's VMI -> VPTO lowering
 * counts them (lib/PTO/IR/VMI.cpp: getVMIPhysicalArity, mapLogicalLaneToPhysical, isPaddingLane). Only the dense
 * layouts (`contiguous` and `deinterleaved = F`, each with a lane stride) are modelled: a rule that needs the lanes
 * of a `block_deinterleaved` or `num_groups` value gets undefined and does not apply.
 */

/** The layout a VMI type carries, parsed (undefined: none written). */
export function layoutOf(t: { layout?: string }): VmiLayout | undefined {
  if (t.layout === undefined) return undefined;
  const l = parseVmiLayout(t.layout);
  return 'error' in l ? undefined : l;
}

/** The canonical text of a layout, for comparing two (VMILayoutAttr compares by identity, i.e. by its fields). */
export const layoutText = (l: VmiLayout | undefined): string | undefined => l && printVmiLayout(l);

/** A data register holds 2048 bits: 64 lanes of 32 bits, 128 of 16, 256 of 8 (getDataLanesPerPart). */
export const lanesPerPart = (t: VmiVregType): number => 2048 / elemBits(t.elem);

/** A mask's physical granularity is its own times its layout's lane stride (b16 with lane_stride 2 is b32). */
export function maskPhysicalBits(m: VmiMaskType): number | undefined {
  if (m.granularity === 'pred') return undefined;
  const bits = Number(m.granularity.slice(1)) * (layoutOf(m)?.laneStride ?? 1);
  return bits === 8 || bits === 16 || bits === 32 ? bits : undefined;
}

/** The dense placement of a vreg: `factor` parts (deinterleaved), each lane `stride` physical lanes apart. */
export interface Dense {
  lanes: number;
  factor: number;
  stride: number;
  perPart: number;
}

export function dense(t: VmiVregType): Dense | undefined {
  const l = layoutOf(t);
  if (!l || (l.kind !== 'contiguous' && l.kind !== 'deinterleaved')) return undefined;
  return { lanes: t.lanes, factor: l.kind === 'deinterleaved' ? l.factor : 1, stride: l.laneStride, perPart: lanesPerPart(t) };
}

/** Logical lanes in one part: lane i goes to part i mod F, at index i div F. */
const lanesInPart = (d: Dense, part: number) => Math.floor((d.lanes + d.factor - 1 - part) / d.factor);

/** The physical registers of a dense vreg (getVMIPhysicalArity: a part's last lane decides how many it needs). */
export function arity(d: Dense): number {
  let n = 0;
  for (let part = 0; part < d.factor; part++) {
    const lanes = lanesInPart(d, part);
    n += lanes === 0 ? 0 : Math.ceil(((lanes - 1) * d.stride + 1) / d.perPart);
  }
  return n;
}

/** A mask's registers: its lanes at its physical granularity, split into its layout's parts (no lane stride). */
export function maskArity(m: VmiMaskType): number | undefined {
  const bits = maskPhysicalBits(m);
  const l = layoutOf(m);
  if (bits === undefined || !l || (l.kind !== 'contiguous' && l.kind !== 'deinterleaved')) return undefined;
  const factor = l.kind === 'deinterleaved' ? l.factor : 1;
  let n = 0;
  for (let part = 0; part < factor; part++) n += Math.ceil(Math.floor((m.lanes + factor - 1 - part) / factor) / (2048 / bits));
  return n;
}

/** The registers one part spans when the lowering walks it chunk by chunk (getDataChunksInPart: no stride). */
export const chunksInPart = (d: Dense, part: number) => Math.ceil(lanesInPart(d, part) / d.perPart);

/** Where logical lane i sits: part, register of the part, lane of the register. */
export function physicalOf(d: Dense, i: number): { part: number; chunk: number; lane: number } | undefined {
  if (i < 0 || i >= d.lanes) return undefined;
  const index = Math.floor(i / d.factor) * d.stride;
  return { part: i % d.factor, chunk: Math.floor(index / d.perPart), lane: index % d.perPart };
}

/** The logical lane at a physical lane, or undefined for a padding lane (between strided lanes, or past the end). */
export function logicalAt(d: Dense, part: number, chunk: number, lane: number): number | undefined {
  const index = chunk * d.perPart + lane;
  if (index % d.stride !== 0) return undefined;
  const inPart = index / d.stride;
  return inPart < lanesInPart(d, part) ? inPart * d.factor + part : undefined;
}

/** Every physical lane of every register holds a logical lane (checkFullDataPhysicalChunks). */
export function fullChunks(d: Dense): boolean {
  for (let part = 0; part < d.factor; part++)
    for (let chunk = 0; chunk < chunksInPart(d, part); chunk++)
      for (let lane = 0; lane < d.perPart; lane++) if (logicalAt(d, part, chunk, lane) === undefined) return false;
  return true;
}

/** The index of (part, chunk) among all registers, parts in order (getDataFlatPartIndex). */
export function flatIndex(d: Dense, part: number, chunk: number): number {
  let n = chunk;
  for (let p = 0; p < part; p++) n += chunksInPart(d, p);
  return n;
}
