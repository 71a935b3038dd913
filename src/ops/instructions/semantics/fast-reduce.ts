import { Tile } from '../../../machine/memory';
import { Lanes, f32Lanes, halfLanes, sharesBytes } from '../../../machine/tile-loops';
import { x86Nan } from '../../../numerics/arithmetic';
import { NumericsProfile } from './context';
import { vectorRowSums } from './vector-kernels';

// Hot loops read Math's functions once: a global lookup per call is slow where the code runs in a vm context (jest).
const fround = Math.fround;

/**
 * Typed-array paths of the row and column reductions (reduce.ts keeps the definitions): the same scans in the same
 * order, with the comparisons and adds inline. Each returns false when it does not apply.
 */

/**
 * The position (0..count-1) of the element a min/max scan keeps, reading x(k) = values at first + k * step: the
 * first element, replaced only by a strictly smaller (min) or greater (max) one; under npu a NaN replaces anything
 * that is not already NaN, and nothing replaces a NaN (reduce.ts `replaces`).
 */
function scanF32(values: Float32Array, first: number, step: number, count: number, min: boolean, npu: boolean): number {
  let best = values[first];
  let index = 0;
  for (let k = 1, at = first + step; k < count; k++, at += step) {
    const x = values[at];
    const better = min ? x < best : x > best;
    if (npu ? best === best && (x !== x || better) : better) {
      best = x;
      index = k;
    }
  }
  return index;
}

/** scanF32 over 16-bit floats' bits, decoded through their table. */
function scanHalf(bits: Uint16Array, decode: Float32Array, first: number, step: number, count: number, min: boolean, npu: boolean): number {
  let best = decode[bits[first]];
  let index = 0;
  for (let k = 1, at = first + step; k < count; k++, at += step) {
    const x = decode[bits[at]];
    const better = min ? x < best : x > best;
    if (npu ? best === best && (x !== x || better) : better) {
      best = x;
      index = k;
    }
  }
  return index;
}

/**
 * min/max along rows (`along` = 'row': one result per row, scanning its columns) or columns of src's rows x cols
 * region: calls keep(line, k) with the position each scan keeps, in order.
 */
export function fastArgScan(
  src: Tile,
  rows: number,
  cols: number,
  along: 'row' | 'col',
  kind: 'min' | 'max',
  numerics: NumericsProfile,
  keep: (line: number, k: number) => void,
): boolean {
  if (rows === 0 || cols === 0) return false;
  const [lines, count] = along === 'row' ? [rows, cols] : [cols, rows];
  const start = (l: Lanes<unknown>, line: number) => l.base + line * (along === 'row' ? l.row : l.col);
  const step = (l: Lanes<unknown>) => (along === 'row' ? l.col : l.row);
  const [min, npu] = [kind === 'min', numerics === 'npu'];
  const single = f32Lanes([src], rows, cols);
  if (single) {
    const [l] = single;
    for (let line = 0; line < lines; line++) keep(line, scanF32(l.data, start(l, line), step(l), count, min, npu));
    return true;
  }
  const half = halfLanes([src], rows, cols);
  if (half) {
    const [l] = half.lanes;
    for (let line = 0; line < lines; line++) keep(line, scanHalf(l.data, half.decode, start(l, line), step(l), count, min, npu));
    return true;
  }
  return false;
}

/**
 * cpu-sim f32 row sums into dst's column 0 (reduce.ts rowReduce's in-order sum: from each row's first element, an
 * f32 rounding after every add, a NaN sum keeping the running sum's NaN): the WebAssembly kernel four rows at a
 * time when it can run, else the loop. The run, prepared (it reads the tiles when called), or undefined when the
 * tiles are not f32 arrays.
 */
export function fastRowSums(src: Tile, dst: Tile, rows: number, cols: number, vectorKernelsAllowed: boolean): (() => void) | undefined {
  const lanes = f32Lanes([src], rows, cols);
  const out = lanes && f32Lanes([dst], rows, 1);
  if (!lanes || !out || rows === 0 || cols === 0) return undefined;
  const [l] = lanes;
  const [d] = out;
  // The kernel reads every row before anything is written: only when dst is apart from src.
  const kernel = vectorKernelsAllowed && !sharesBytes(src, dst) ? vectorRowSums(l, rows, cols, d) : undefined;
  return kernel ?? (() => loopRowSums(l, d, rows, cols));
}

function loopRowSums(l: Lanes<Float32Array>, d: Lanes<Float32Array>, rows: number, cols: number): void {
  for (let r = 0; r < rows; r++) {
    let at = l.base + r * l.row;
    let acc = l.data[at];
    for (let c = 1; c < cols; c++) {
      at += l.col;
      const x = l.data[at];
      const v = acc + x;
      acc = v === v ? fround(v) : fround(x86Nan(acc, x) as number);
    }
    d.data[d.base + r * d.row] = acc;
  }
}

/** The NPU's lanes of f32 row sums: one 256-byte repeat. */
const NPU_F32_LANES = 64;

/**
 * npu f32 row sums into dst's column 0 (reduce.ts npuRowSum with the f32 add: 64 lanes folded repeat after repeat,
 * then the adjacent-pair tree, a row of at most 64 padded with +0 to a power of two; `a5`: reduce.ts a5RowSum, the
 * tree of each repeat added to an accumulator starting at +0), prepared; undefined when the tiles are not f32 arrays
 * or share bytes (the definition reads every row before it writes).
 */
export function npuF32RowSums(src: Tile, dst: Tile, rows: number, cols: number, a5 = false): (() => void) | undefined {
  const lanes = f32Lanes([src], rows, cols);
  const out = lanes && f32Lanes([dst], rows, 1);
  if (!lanes || !out || rows === 0 || cols === 0 || sharesBytes(src, dst)) return undefined;
  const [l] = lanes;
  const [d] = out;
  const acc = new Float64Array(NPU_F32_LANES);
  const add = (a: number, b: number): number => {
    const v = a + b;
    return v === v ? fround(v) : fround(x86Nan(a, b));
  };
  // The pair tree of the `count` values from column `first` (count <= 64), padded with +0 to a power of two.
  const tree = (base: number, first: number, count: number): number => {
    let width = 1;
    while (width < count) width *= 2;
    acc.fill(0, 0, width);
    for (let k = 0; k < count; k++) acc[k] = l.data[base + (first + k) * l.col];
    for (let n = width; n > 1; n >>= 1) for (let i = 0; i < n; i += 2) acc[i >> 1] = add(acc[i], acc[i + 1]);
    return acc[0];
  };
  if (a5)
    return () => {
      for (let r = 0; r < rows; r++) {
        const base = l.base + r * l.row;
        let sum = 0;
        for (let k = 0; k < cols; k += NPU_F32_LANES) sum = add(sum, tree(base, k, Math.min(NPU_F32_LANES, cols - k)));
        d.data[d.base + r * d.row] = sum;
      }
    };
  let width = 1;
  while (width < Math.min(cols, NPU_F32_LANES)) width *= 2;
  return () => {
    for (let r = 0; r < rows; r++) {
      const base = l.base + r * l.row;
      acc.fill(0);
      for (let k = 0; k < width && k < cols; k++) acc[k] = l.data[base + k * l.col];
      for (let k = NPU_F32_LANES; k < cols; k++) acc[k % NPU_F32_LANES] = add(acc[k % NPU_F32_LANES], l.data[base + k * l.col]);
      for (let n = width; n > 1; n >>= 1) for (let i = 0; i < n; i += 2) acc[i >> 1] = add(acc[i], acc[i + 1]);
      d.data[d.base + r * d.row] = acc[0];
    }
  };
}
