import { Fail, Mask, VREG_BYTES, VReg, laneActive, newVReg } from './core';

/**
 * Distribution modes of the vector loads and stores (docs/isa/micro-isa/03-vector-load-store.md), as maps between a
 * window of UB bytes starting at the effective address and registers. The memory model (bounds, alignment, sync)
 * is the caller's: it reads `loadFootprint(dist)` bytes, or writes the bytes a store marks.
 *
 * Widths: `_B8`, `_B16`, `_B32`, `_B64` name the element size the mode moves; `NORM` and `BRC_BLK` are
 * width-agnostic.
 */

const WIDTH: Record<string, number> = { B8: 1, B16: 2, B32: 4, B64: 8 };

function parse(dist: string, fail: Fail): { family: string; width: number } {
  const m = /^(.*?)_(B8|B16|B32|B64)$/.exec(dist);
  if (!m) return { family: dist, width: 0 };
  return { family: m[1], width: WIDTH[m[2]] ?? fail(`distribution ${dist} is not implemented yet`) };
}

/** The bytes a vlds/vldsx2 of `dist` reads from its effective address. */
export function loadFootprint(dist: string, fail: Fail): number {
  const { family } = parse(dist, fail);
  switch (family) {
    case 'NORM':
      return VREG_BYTES;
    case 'BRC':
      return parse(dist, fail).width;
    case 'BRC_BLK':
      return 32;
    case 'US':
    case 'UNPK':
      return VREG_BYTES / 2;
    case 'DS':
    case 'DINTLV':
      return 2 * VREG_BYTES;
  }
  return fail(`vlds distribution ${dist} is not implemented yet`);
}

/**
 * vlds: a register from `window` (at least loadFootprint bytes).
 * - NORM: the 256 bytes as they are;
 * - BRC_Bw: the first element in every lane;
 * - BRC_BLK: the first 32-byte block in each of the 8 blocks (vlds-brc-blk's golden tiles 32 bytes 8 times);
 * - US_Bw: element i in lanes 2i and 2i + 1; DS_Bw: lane i from element 2i;
 * - UNPK_Bw: element i of width w into the low w bytes of lane i of width 2w, the high half zero (vlds-unpk-b16's
 *   golden writes 64 f16 at the even f16 positions and zeros between them).
 */
export function vlds(dist: string, window: Uint8Array, fail: Fail): VReg {
  const { family, width: w } = parse(dist, fail);
  const r = newVReg();
  const copy = (toLane: number, fromElem: number, size: number, toSize = size) =>
    r.set(window.subarray(fromElem * size, fromElem * size + size), toLane * toSize);
  switch (family) {
    case 'NORM':
      r.set(window.subarray(0, VREG_BYTES));
      return r;
    case 'BRC':
      for (let i = 0; i < VREG_BYTES / w; i++) copy(i, 0, w);
      return r;
    case 'BRC_BLK':
      for (let b = 0; b < VREG_BYTES / 32; b++) r.set(window.subarray(0, 32), b * 32);
      return r;
    case 'US':
      if (w > 2) break;
      for (let i = 0; i < VREG_BYTES / w; i++) copy(i, i >> 1, w);
      return r;
    case 'DS':
      if (w > 2) break;
      for (let i = 0; i < VREG_BYTES / w; i++) copy(i, 2 * i, w);
      return r;
    case 'UNPK':
      if (w > 4) break;
      for (let i = 0; i < VREG_BYTES / (2 * w); i++) copy(i, i, w, 2 * w);
      return r;
  }
  return fail(`vlds distribution ${dist} is not implemented yet`);
}

/** vldsx2 DINTLV_Bw: 512 bytes of pairs; `low` gets the even elements, `high` the odd ones. */
export function vldsx2(dist: string, window: Uint8Array, fail: Fail): { low: VReg; high: VReg } {
  const { family, width: w } = parse(dist, fail);
  if (family !== 'DINTLV' || w > 4) return fail(`vldsx2 distribution ${dist} is not implemented yet`);
  const low = newVReg();
  const high = newVReg();
  for (let i = 0; i < VREG_BYTES / w; i++) {
    low.set(window.subarray(2 * i * w, 2 * i * w + w), i * w);
    high.set(window.subarray((2 * i + 1) * w, (2 * i + 2) * w), i * w);
  }
  return { low, high };
}

/** What a store writes: `bytes[i]` goes to effective address + i where `written[i]` is 1. */
export interface StoreImage {
  bytes: Uint8Array;
  written: Uint8Array;
}

/**
 * vsts: the bytes a store of `dist` writes (the default dist is NORM_B<element width>, the caller's to choose).
 * - NORM_Bw: lane i (width w) to bytes i*w.., where the mask's lane i (bit i*w) is on;
 * - 1PT_Bw: lane 0 only, whatever the mask;
 * - PK_Bw (w = 2, 4, 8): the low half of each lane, packed (lane i to bytes i*w/2..), for active lanes (mask read
 *   at granularity w: vsts-packed-dist-mask-granularity stores PK_B64 under a b32 PAT_ALL mask, bit 8i on);
 * - PK4_B32: the low byte of each 32-bit lane, packed (the same golden's v3[0::4]).
 */
export function vsts(dist: string, v: VReg, mask: Mask, fail: Fail): StoreImage {
  const { family, width: w } = parse(dist, fail);
  const bytes = new Uint8Array(VREG_BYTES);
  const written = new Uint8Array(VREG_BYTES);
  // Byte by byte: a lane is at most 8 bytes, which a loop copies faster than subarray and set make views for.
  const put = (lane: number, keep: number, active: boolean) => {
    if (!active) return;
    const from = lane * w;
    const to = lane * keep;
    for (let k = 0; k < keep; k++) {
      bytes[to + k] = v[from + k];
      written[to + k] = 1;
    }
  };
  switch (family) {
    case 'NORM':
      if (w === 0 || w > 4) break;
      for (let i = 0; i < VREG_BYTES / w; i++) put(i, w, laneActive(mask, i, w));
      return { bytes, written };
    case '1PT':
      if (w === 0 || w > 4) break;
      put(0, w, true);
      return { bytes, written };
    case 'PK':
      if (w < 2) break;
      for (let i = 0; i < VREG_BYTES / w; i++) put(i, w / 2, laneActive(mask, i, w));
      return { bytes, written };
    case 'PK4':
      if (w !== 4) break;
      for (let i = 0; i < VREG_BYTES / w; i++) put(i, 1, laneActive(mask, i, w));
      return { bytes, written };
  }
  return fail(`vsts distribution ${dist} is not implemented yet`);
}

/** vstsx2 INTLV_Bw: `low` and `high` interleaved element by element into 512 bytes; the mask is ignored (the docs). */
export function vstsx2(dist: string, low: VReg, high: VReg, fail: Fail): Uint8Array {
  const { family, width: w } = parse(dist, fail);
  if (family !== 'INTLV' || w > 4) return fail(`vstsx2 distribution ${dist} is not implemented yet`);
  const out = new Uint8Array(2 * VREG_BYTES);
  for (let i = 0; i < VREG_BYTES / w; i++) {
    out.set(low.subarray(i * w, i * w + w), 2 * i * w);
    out.set(high.subarray(i * w, i * w + w), (2 * i + 1) * w);
  }
  return out;
}
