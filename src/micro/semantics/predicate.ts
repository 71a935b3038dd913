import { Fail, Granularity, GRANULE_BYTES, MASK_BYTES, Mask, VREG_BYTES, maskBit, maskFromLanes, newMask, setMaskBit } from './core';

/**
 * Mask materialization and predicate logic (docs/isa/micro-isa/05-materialization-predicate.md). Lanes of a typed
 * mask are `VREG_BYTES / size` logical lanes; a produced mask sets only each lane's first bit (see core.ts).
 */

const lanesOf = (g: Granularity): number => VREG_BYTES / GRANULE_BYTES[g];

/**
 * plt_b8/16/32: the first `remaining` lanes, and the count left for the next register: remaining - VL_t, or 0 once
 * fewer than VL_t remain. The count is the op's i32, compared signed as the docs' C does (`scalar_in < VL_t`), so a
 * negative count gives no lanes and 0.
 */
export function plt(g: Granularity, remaining: number): { mask: Mask; remaining: number } {
  const vl = lanesOf(g);
  const n = remaining | 0;
  return { mask: maskFromLanes((i) => i < n, GRANULE_BYTES[g]), remaining: n < vl ? 0 : n - vl };
}

/** pltm_b8/16/32: lanes whose index loop * VL_t + i is below `bound`; no count is returned. */
export function pltm(g: Granularity, loop: number, bound: number): Mask {
  const vl = lanesOf(g);
  return maskFromLanes((i) => i + loop * vl < bound, GRANULE_BYTES[g]);
}

/**
 * pset_b8/16/32 and pge_b8/16/32 patterns: PAT_ALL, PAT_ALLF and PAT_VL<n> (the first n lanes; n beyond the lane count is all of them).
 * PAT_H, PAT_Q, PAT_M3 and PAT_M4 trap: the sources disagree on them (the PTOAS page says the high half and upper
 * quarter, pto-isa's tables both that and bit ranges of a 16/32-lane view) and no golden uses them.
 * pge and pset make the same image for these patterns (pge's doc: "PAT_VL<N> marks the first N logical lanes").
 */
export function pattern(g: Granularity, name: string, fail: Fail): Mask {
  const vl = lanesOf(g);
  let n: number;
  if (name === 'PAT_ALL') n = vl;
  else if (name === 'PAT_ALLF') n = 0;
  else {
    const m = /^PAT_VL([0-9]+)$/.exec(name);
    if (!m) return fail(`predicate pattern ${name} is not implemented yet`);
    n = Math.min(Number(m[1]), vl);
  }
  return maskFromLanes((i) => i < n, GRANULE_BYTES[g]);
}

function bitwise(f: (a: number, b: number, m: number) => number, a: Mask, b: Mask, m: Mask): Mask {
  const r = newMask();
  for (let i = 0; i < MASK_BYTES; i++) r[i] = f(a[i], b[i], m[i]) & 0xff;
  return r;
}

/** pand/por/pxor: the op on all 256 bits, bits off in the governing mask zeroed (the docs' "inactive lanes are zeroed"). */
export const pand = (a: Mask, b: Mask, m: Mask): Mask => bitwise((x, y, g) => x & y & g, a, b, m);
export const por = (a: Mask, b: Mask, m: Mask): Mask => bitwise((x, y, g) => (x | y) & g, a, b, m);
export const pxor = (a: Mask, b: Mask, m: Mask): Mask => bitwise((x, y, g) => (x ^ y) & g, a, b, m);
export const pnot = (a: Mask, m: Mask): Mask => bitwise((x, _y, g) => ~x & g, a, a, m);
/** psel: bits of `a` where `sel` is set, of `b` elsewhere. */
export const psel = (a: Mask, b: Mask, sel: Mask): Mask => bitwise((x, y, s) => (x & s) | (y & ~s), a, b, sel);

/** ppack: bit 2i of the source to bit i of the chosen half (LOWER: bits 0..127, HIGHER: 128..255); the other half is 0. */
export function ppack(src: Mask, part: 'LOWER' | 'HIGHER'): Mask {
  const r = newMask();
  const base = part === 'LOWER' ? 0 : 128;
  for (let i = 0; i < 128; i++) setMaskBit(r, base + i, maskBit(src, 2 * i));
  return r;
}

/** punpack: bit i of the chosen half to bit 2i; odd bits are 0. */
export function punpack(src: Mask, part: 'LOWER' | 'HIGHER'): Mask {
  const r = newMask();
  const base = part === 'LOWER' ? 0 : 128;
  for (let i = 0; i < 128; i++) setMaskBit(r, 2 * i, maskBit(src, base + i));
  return r;
}

/**
 * Predicate loads and stores (04-predicate-load-store.md): the UB image of a predicate is its 256 bits packed, bit i
 * at byte i >> 3. Loads: NORM reads 32 bytes; US 16 bytes, each bit twice (mask bits 2i and 2i + 1 from bit i); DS
 * 64 bytes, every other bit (mask bit i from bit 2i). Stores: NORM writes 32 bytes; PK 16, every other bit.
 */
export const PREDICATE_LOAD_BYTES: Record<string, number> = { NORM: 32, US: 16, DS: 64 };

export function predicateLoad(dist: string, image: Uint8Array, fail: Fail): Mask {
  const bit = (i: number) => ((image[i >> 3] >> (i & 7)) & 1) === 1;
  const source: Record<string, (i: number) => boolean> = { NORM: bit, US: (i) => bit(i >> 1), DS: (i) => bit(2 * i) };
  const f = source[dist] ?? fail(`predicate load dist ${dist} is not defined`);
  const m = newMask();
  for (let i = 0; i < 256; i++) if (f(i)) m[i >> 3] |= 1 << (i & 7);
  return m;
}

export function predicateStore(dist: string, mask: Mask, fail: Fail): Uint8Array {
  if (dist === 'NORM') return mask.slice();
  if (dist !== 'PK') return fail(`predicate store dist ${dist} is not defined`);
  const out = new Uint8Array(16);
  for (let i = 0; i < 128; i++) if (((mask[(2 * i) >> 3] >> ((2 * i) & 7)) & 1) === 1) out[i >> 3] |= 1 << (i & 7);
  return out;
}

/**
 * pintlv_b8/16/32 and pdintlv_b8/16/32 on the lanes of the granularity (lane i = bit i * lane bytes), as vintlv and
 * vdintlv move register lanes: pintlv's stream is a[0], b[0], a[1], b[1], ... (low its first half, high its second:
 * the vsel-f32-plds-us-pintlv-pbitcast golden); pdintlv reads a ++ b, low its even and high its odd lanes (the
 * pdintlv_b16 golden: PAT_ALL with PAT_ALLF gives the first half of the lanes in both). Only lane bits are set.
 */
export function pintlv(g: Granularity, a: Mask, b: Mask): { low: Mask; high: Mask } {
  const [n, size] = [lanesOf(g), GRANULE_BYTES[g]];
  const at = (k: number) => maskBit(k % 2 === 0 ? a : b, (k >> 1) * size);
  return { low: maskFromLanes((i) => at(i), size), high: maskFromLanes((i) => at(n + i), size) };
}

export function pdintlv(g: Granularity, a: Mask, b: Mask): { low: Mask; high: Mask } {
  const [n, size] = [lanesOf(g), GRANULE_BYTES[g]];
  const at = (k: number) => maskBit(k < n ? a : b, (k % n) * size);
  return { low: maskFromLanes((i) => at(2 * i), size), high: maskFromLanes((i) => at(2 * i + 1), size) };
}
