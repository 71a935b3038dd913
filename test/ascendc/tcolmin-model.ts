/**
 * An independent model of TCOLMIN (seed 004) over raw bytes, with its parameter rules: the oracle the
 * conformance cases of the seed instruction are checked against. Only the tests use it, so it lives here.
 */
import { throwIfProblems } from '../../src/ascendc/model/errors';
import { atomically } from '../../src/ascendc/model/memory';
import { bitsToNumber } from '../../src/ascendc/model/numerics';
import { BLOCK_BYTES, DTYPES, DTYPE_SIZE, DType } from '../../src/ascendc/model/params';
import { Checker } from '../../src/ascendc/model/validate';
import { Problem } from '../../src/ascendc/model/errors';

/** A row-major (ND) Vec tile in the memory: `rows x cols` elements at `addr`, valid region `validRow x validCol`. */
export interface TileRef {
  addr: number;
  dtype: DType;
  rows: number;
  cols: number;
  validRow: number;
  validCol: number;
}

/** TCOLMIN dtypes on A2A3 [seed 004]. */
export const TCOLMIN_DTYPES: readonly DType[] = ['f16', 'f32', 'i16', 'i32'];

function checkTile(c: Checker, name: 'src' | 'dst', t: TileRef): boolean {
  let ok = c.range(`${name}.rows`, `${name}.rows`, t.rows, 1, Number.MAX_SAFE_INTEGER);
  ok = c.range(`${name}.cols`, `${name}.cols`, t.cols, 1, Number.MAX_SAFE_INTEGER) && ok;
  if (!ok) return false;
  ok = c.range(`${name}.validRow`, `${name}.validRow`, t.validRow, 0, t.rows) && ok;
  ok = c.range(`${name}.validCol`, `${name}.validCol`, t.validCol, 0, t.cols) && ok;
  ok = c.address(`${name}.addr`, t.addr, 32, 'a Vec tile starts on a 32-byte boundary') && ok;
  if (DTYPES.includes(t.dtype) && (t.cols * DTYPE_SIZE[t.dtype]) % BLOCK_BYTES !== 0) {
    c.add(`${name}.cols`, `TCOLMIN: ${name} row of ${t.cols} x ${t.dtype} is ${t.cols * DTYPE_SIZE[t.dtype]} bytes, not a multiple of 32`);
    ok = false;
  }
  return ok;
}

export function validateTcolmin(dst: TileRef, src: TileRef): Problem[] {
  const c = new Checker('TCOLMIN');
  if (!TCOLMIN_DTYPES.includes(src.dtype)) {
    c.add('src.dtype', `TCOLMIN: dtype ${String(src.dtype)} not supported on A2A3; supported: ${TCOLMIN_DTYPES.join(', ')}`);
  }
  if (dst.dtype !== src.dtype) {
    c.add('dst.dtype', `TCOLMIN: dst.DType must equal src.DType (dst ${String(dst.dtype)}, src ${String(src.dtype)})`);
  }
  checkTile(c, 'src', src);
  checkTile(c, 'dst', dst);
  if (src.validCol !== dst.validCol) {
    c.add('dst.validCol', `TCOLMIN: src.GetValidCol() must equal dst.GetValidCol() (src ${src.validCol}, dst ${dst.validCol})`);
  }
  return c.problems;
}

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
