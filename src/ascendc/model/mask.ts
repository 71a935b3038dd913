import { Problem } from './errors';
import { BitMask, Mask, isBitMask, lanesPerRepeat } from './params';

/**
 * Normal-mode masks (seed 000/003 "mask", reference/ascendc.md §1 "Masks"). The same mask applies to
 * every repeat.
 *
 * - Contiguous mode, an integer m: lanes 0..m-1 are active. 16-bit operands: m in [1, 128];
 *   32-bit: [1, 64]; 64-bit: [1, 32].
 * - Bit mode, `[M0, M1]` (two uint64): bit i of M0 enables lane i, bit i of M1 enables lane 64+i.
 *   16-bit: both words in [0, 2^64-1] and not both 0; 32-bit: M1 = 0 and M0 in (0, 2^64-1];
 *   64-bit: M1 = 0 and M0 in (0, 2^32-1].
 */

const U64_MAX = (1n << 64n) - 1n;
const U32_MAX = (1n << 32n) - 1n;

function hex(v: bigint): string {
  return v < 0n ? `-0x${(-v).toString(16)}` : `0x${v.toString(16)}`;
}

/** Every rule a mask must satisfy for operands of `elemSize` bytes; `typeName` names the operand type in messages. */
export function maskProblems(mask: Mask, elemSize: number, typeName: string): Problem[] {
  const lanes = lanesPerRepeat(elemSize);
  const bits = elemSize * 8;
  const problems: Problem[] = [];
  const add = (message: string) => problems.push({ param: 'mask', message });
  if (!isBitMask(mask)) {
    if (!Number.isInteger(mask) || mask < 1 || mask > lanes) {
      add(`mask (contiguous mode)=${mask} out of range [1, ${lanes}] for ${bits}-bit ${typeName}`);
    }
    return problems;
  }
  if (mask.length !== 2 || typeof mask[0] !== 'bigint' || typeof mask[1] !== 'bigint') {
    add('bit-mode mask must be two uint64 words [mask[0], mask[1]]');
    return problems;
  }
  const [m0, m1] = mask;
  for (const [i, w] of [m0, m1].entries()) {
    if (w < 0n || w > U64_MAX) add(`bit-mode mask: mask[${i}]=${hex(w)} out of range [0, 2^64-1]`);
  }
  if (problems.length > 0) return problems;
  if (bits === 16) {
    if (m0 === 0n && m1 === 0n) add('bit-mode mask: mask[0] and mask[1] must not both be 0');
  } else if (bits === 32) {
    if (m1 !== 0n) add(`bit-mode mask: mask[1]=${hex(m1)} must be 0 for 32-bit ${typeName} (64 lanes)`);
    if (m0 === 0n) add(`bit-mode mask: mask[0] must not be 0 for 32-bit ${typeName}`);
  } else {
    if (m1 !== 0n) add(`bit-mode mask: mask[1]=${hex(m1)} must be 0 for 64-bit ${typeName} (32 lanes)`);
    if (m0 === 0n || m0 > U32_MAX) add(`bit-mode mask: mask[0]=${hex(m0)} out of range (0, 2^32-1] for 64-bit ${typeName}`);
  }
  return problems;
}

/** Per-lane enables (length L = 256/elemSize) of a valid mask. */
export function laneEnables(mask: Mask, elemSize: number): boolean[] {
  const lanes = lanesPerRepeat(elemSize);
  const enabled = new Array<boolean>(lanes).fill(false);
  if (!isBitMask(mask)) {
    for (let l = 0; l < Math.min(mask, lanes); l++) enabled[l] = true;
    return enabled;
  }
  for (let l = 0; l < lanes; l++) {
    const word = l < 64 ? mask[0] : mask[1];
    enabled[l] = ((word >> BigInt(l % 64)) & 1n) === 1n;
  }
  return enabled;
}

/** TIK writes bit masks as `[mask_h, mask_l]`; this returns the AscendC order `[mask_l, mask_h]` = `[M0, M1]`. */
export function tikMask(tik: readonly [bigint, bigint]): BitMask {
  return [tik[1], tik[0]];
}
