import { throwIfProblems } from './errors';
import { atomically } from './memory';
import { bitsToNumber } from './numerics';
import { DTYPE_SIZE, DType } from './params';
import { TileRef, validateTcolmin } from './validate';

/** Element bits -> a comparable number (floats decoded, integers sign-extended where signed). */
function decode(dtype: DType, bits: number): number {
  switch (dtype) {
    case 'f16':
    case 'f32':
      return bitsToNumber(dtype, bits);
    case 'i16':
      return (bits << 16) >> 16;
    case 'i32':
      return bits | 0;
    default:
      return bits;
  }
}

/**
 * TCOLMIN (seed 004; reference/ascendc.md §6), on row-major ND tiles in the memory:
 *   dst[0, j] = min over 0 <= i < R of src[i, j], for j < C, with R x C = src's valid region.
 * validRow = 0 or validCol = 0 returns without writing; only dst[0, 0..C-1] is written. Like the A2A3
 * implementation (copy row 0, then dst = vmin(dst, row_i)), ties keep the earlier row's bits (so +-0
 * keeps the first) and a NaN, once reached, stays [policy]; no arithmetic, the chosen bits are copied.
 */
export function tcolmin(memory: Uint8Array, dst: TileRef, src: TileRef): void {
  throwIfProblems('TCOLMIN', validateTcolmin(dst, src));
  if (src.validRow === 0 || src.validCol === 0) return;
  atomically(memory, (mem) => {
    const sz = DTYPE_SIZE[src.dtype];
    const at = (t: TileRef, i: number, j: number) => t.addr + (i * t.cols + j) * sz;

    for (let j = 0; j < src.validCol; j++) {
      let bestBits = mem.readBits(at(src, 0, j), sz);
      let best = decode(src.dtype, bestBits);
      for (let i = 1; i < src.validRow; i++) {
        const bits = mem.readBits(at(src, i, j), sz);
        const x = decode(src.dtype, bits);
        if (!Number.isNaN(best) && (Number.isNaN(x) || x < best)) {
          best = x;
          bestBits = bits;
        }
      }
      mem.writeBits(at(dst, 0, j), sz, bestBits);
    }
  });
}
