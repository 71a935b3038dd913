import { Tile } from './memory';

/**
 * Typed-array loops over the valid region of tiles: the fast paths of the instructions that compute element by
 * element. Each loop reads and writes exactly the elements, in exactly the order, of the general path
 * (`Tile.get`/`Tile.set` row by row); it applies when every tile has a typed array (Tile.elements) of the same
 * float kind that holds the region, and returns false otherwise so that the caller takes the general path. The
 * loops are separate functions per array kind so that each stays monomorphic for the JIT.
 */

/** Where a loop finds a tile's element (r, c): `data[base + r * row + c * col]`. */
export interface Lanes<A> {
  data: A;
  base: number;
  row: number;
  col: number;
}

/** An element operation over values (already rounded to the element type by the caller's definition). */
type Map1 = (x: number) => number;
type Map2 = (x: number, y: number) => number;

/** The lanes of `tile` when its typed array holds the rows x cols region (the general path reports the others). */
function lanesOf(tile: Tile, rows: number, cols: number): Lanes<unknown> | undefined {
  const e = tile.elements();
  if (!e || e.row < 0 || e.col < 0) return undefined;
  const last = rows > 0 && cols > 0 ? e.base + (rows - 1) * e.row + (cols - 1) * e.col : -1;
  return last < e.data.length ? e : undefined;
}

/** The f32 lanes of every tile, or undefined when one of them has none (another dtype, a boxed layout). */
export function f32Lanes(tiles: readonly Tile[], rows: number, cols: number): Lanes<Float32Array>[] | undefined {
  const out: Lanes<Float32Array>[] = [];
  for (const t of tiles) {
    const l = t.type.dtype === 'f32' ? lanesOf(t, rows, cols) : undefined;
    if (!l) return undefined;
    out.push(l as Lanes<Float32Array>);
  }
  return out;
}

/** 16-bit float lanes (bits) of tiles of one dtype (f16 or bf16), with the dtype's decode table and encoder. */
export interface HalfLanes {
  lanes: Lanes<Uint16Array>[];
  decode: Float32Array;
  encode: (v: number) => number;
}

export function halfLanes(tiles: readonly Tile[], rows: number, cols: number): HalfLanes | undefined {
  const dtype = tiles[0].type.dtype;
  if (dtype !== 'f16' && dtype !== 'bf16') return undefined;
  const lanes: Lanes<Uint16Array>[] = [];
  for (const t of tiles) {
    const l = t.type.dtype === dtype ? lanesOf(t, rows, cols) : undefined;
    if (!l) return undefined;
    lanes.push(l as Lanes<Uint16Array>);
  }
  const e = tiles[0].elements()!;
  return { lanes, decode: e.decode!, encode: e.encode! };
}

/** dst = f(a) over rows x cols, when both tiles have lanes of one float kind. */
export function mapFloat1(dst: Tile, a: Tile, rows: number, cols: number, f: Map1): boolean {
  const single = f32Lanes([dst, a], rows, cols);
  if (single) return (f32Map1(single[0], single[1], rows, cols, f), true);
  const half = halfLanes([dst, a], rows, cols);
  if (half) return (halfMap1(half, rows, cols, f), true);
  return false;
}

/** dst = f(a, b) over rows x cols. */
export function mapFloat2(dst: Tile, a: Tile, b: Tile, rows: number, cols: number, f: Map2): boolean {
  const single = f32Lanes([dst, a, b], rows, cols);
  if (single) return (f32Map2(single[0], single[1], single[2], rows, cols, f), true);
  const half = halfLanes([dst, a, b], rows, cols);
  if (half) return (halfMap2(half, rows, cols, f), true);
  return false;
}

function f32Map1(d: Lanes<Float32Array>, a: Lanes<Float32Array>, rows: number, cols: number, f: Map1): void {
  const D = d.data;
  const A = a.data;
  for (let r = 0; r < rows; r++) {
    let i = d.base + r * d.row;
    let j = a.base + r * a.row;
    for (let c = 0; c < cols; c++, i += d.col, j += a.col) D[i] = f(A[j]);
  }
}

function f32Map2(d: Lanes<Float32Array>, a: Lanes<Float32Array>, b: Lanes<Float32Array>, rows: number, cols: number, f: Map2): void {
  const D = d.data;
  const A = a.data;
  const B = b.data;
  for (let r = 0; r < rows; r++) {
    let i = d.base + r * d.row;
    let j = a.base + r * a.row;
    let k = b.base + r * b.row;
    for (let c = 0; c < cols; c++, i += d.col, j += a.col, k += b.col) D[i] = f(A[j], B[k]);
  }
}

function halfMap1(h: HalfLanes, rows: number, cols: number, f: Map1): void {
  const [d, a] = h.lanes;
  const { decode, encode } = h;
  const D = d.data;
  const A = a.data;
  for (let r = 0; r < rows; r++) {
    let i = d.base + r * d.row;
    let j = a.base + r * a.row;
    for (let c = 0; c < cols; c++, i += d.col, j += a.col) D[i] = encode(f(decode[A[j]]));
  }
}

function halfMap2(h: HalfLanes, rows: number, cols: number, f: Map2): void {
  const [d, a, b] = h.lanes;
  const { decode, encode } = h;
  const D = d.data;
  const A = a.data;
  const B = b.data;
  for (let r = 0; r < rows; r++) {
    let i = d.base + r * d.row;
    let j = a.base + r * a.row;
    let k = b.base + r * b.row;
    for (let c = 0; c < cols; c++, i += d.col, j += a.col, k += b.col) D[i] = encode(f(decode[A[j]], decode[B[k]]));
  }
}

/** Whether lanes hold the rows x cols region as one run of adjacent elements. */
export const isFlat = (l: Lanes<unknown>, rows: number, cols: number): boolean => l.col === 1 && (rows === 1 || l.row === cols);

/**
 * Calls run(d, a, b, n) for the region as runs of adjacent elements, in row order: one run when the three tiles hold
 * it contiguously, else one per row; false (nothing run) when a tile's columns are not adjacent.
 */
export function rowRuns3(
  d: Lanes<unknown>,
  a: Lanes<unknown>,
  b: Lanes<unknown>,
  rows: number,
  cols: number,
  run: (d: number, a: number, b: number, n: number) => void,
): boolean {
  if (d.col !== 1 || a.col !== 1 || b.col !== 1) return false;
  if (isFlat(d, rows, cols) && isFlat(a, rows, cols) && isFlat(b, rows, cols)) run(d.base, a.base, b.base, rows * cols);
  else for (let r = 0; r < rows; r++) run(d.base + r * d.row, a.base + r * a.row, b.base + r * b.row, cols);
  return true;
}

/**
 * The values of a tile's rows x cols region, row by row, or column by column when `transposed` (the cube decodes
 * its inputs once per instruction): through the tile's typed array in any layout when it has one, else Tile.get.
 * Floats and 8- to 32-bit integers only. Into `out` when given (its first rows x cols elements).
 */
export function readValues(tile: Tile, rows: number, cols: number, transposed = false, out: Float64Array = new Float64Array(rows * cols)): Float64Array {
  const store = tile.store;
  const last = rows > 0 && cols > 0 ? tile.elementIndex(rows - 1, cols - 1) : -1;
  // Every layout's element index grows with r and with c, so (rows - 1, cols - 1) is the region's last element.
  if (store && last < store.data.length && !negativeStrides(tile)) {
    readRuns(tile, store.data, store.decode, rows, cols, out, transposed ? 1 : cols, transposed ? rows : 1);
    return out;
  }
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) out[transposed ? c * rows + r : r * cols + c] = Number(tile.get(r, c));
  return out;
}

function negativeStrides(tile: Tile): boolean {
  const e = tile.elements();
  return e !== undefined && (e.row < 0 || e.col < 0);
}

/**
 * Element (r, c) into out[r * outRow + c * outCol], decoded when `decode` is given (16-bit floats as bits): along
 * the tile's column runs (Tile.columnRun), an index found once per run and then stepped, not once per element (a
 * fractal tile's index takes divisions). Column by column instead when the output is (`outRow` 1: transposed) and a
 * column of the tile is adjacent elements too (see columnHeight): then both sides are walked a step of 1.
 */
function readRuns(
  tile: Tile,
  data: ArrayLike<number>,
  decode: Float32Array | undefined,
  rows: number,
  cols: number,
  out: Float64Array,
  outRow: number,
  outCol: number,
): void {
  const height = outRow === 1 ? columnHeight(tile) : 0;
  if (height > 0) {
    for (let c = 0; c < cols; c++) {
      for (let r = 0; r < rows;) {
        const n = Math.min(rows - r, height - (r % height));
        const t = tile.elementIndex(r, c);
        const o = r + c * outCol;
        if (decode) for (let k = 0; k < n; k++) out[o + k] = decode[data[t + k]];
        else for (let k = 0; k < n; k++) out[o + k] = data[t + k];
        r += n;
      }
    }
    return;
  }
  const step = tile.columnStep();
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols;) {
      const n = Math.min(cols - c, tile.columnRun(c));
      let t = tile.elementIndex(r, c);
      let o = r * outRow + c * outCol;
      if (decode) for (let k = 0; k < n; k++, t += step, o += outCol) out[o] = decode[data[t]];
      else for (let k = 0; k < n; k++, t += step, o += outCol) out[o] = data[t];
      c += n;
    }
  }
}

/**
 * How many rows of a column lie in adjacent elements, from a row that is a multiple of it: a column-major box's
 * height in a boxed tile with column-major boxes (Zn, Nn: elementIndex's inner index is inC * height + inR, and
 * columnStep() is that height), all of them in a linear tile whose rows are one element apart (DN); 0 otherwise.
 */
function columnHeight(tile: Tile): number {
  if (tile.columnRun(0) === Infinity) return tile.elementIndex(1, 0) - tile.elementIndex(0, 0) === 1 ? Infinity : 0;
  return tile.type.slayout === 'col_major' ? tile.columnStep() : 0;
}

/**
 * Stores values (already rounded to the tile's type) into a tile's rows x cols region, given row by row: an f32
 * tile's through its Float32Array along column runs, a NaN (whose bits a DataView store keeps) and every other
 * type through Tile.set.
 */
export function writeValues(tile: Tile, rows: number, cols: number, values: Float64Array): void {
  const store = tile.store;
  const last = rows > 0 && cols > 0 ? tile.elementIndex(rows - 1, cols - 1) : -1;
  if (!(store && store.data instanceof Float32Array && last < store.data.length && !negativeStrides(tile))) {
    for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) tile.set(r, c, values[r * cols + c]);
    return;
  }
  const data = store.data;
  const step = tile.columnStep();
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols;) {
      const n = Math.min(cols - c, tile.columnRun(c));
      let t = tile.elementIndex(r, c);
      for (let k = 0, i = r * cols + c; k < n; k++, t += step, i++) {
        const v = values[i];
        if (v === v) data[t] = v;
        else tile.set(r, c + k, v);
      }
      c += n;
    }
  }
}

/** Whether two tiles' storage overlaps (the same on-chip buffer, intersecting bytes). */
export function sharesBytes(a: Tile, b: Tile): boolean {
  if (a.bytes.buffer !== b.bytes.buffer) return false;
  const [a0, b0] = [a.bytes.byteOffset, b.bytes.byteOffset];
  return a0 < b0 + b.bytes.byteLength && b0 < a0 + a.bytes.byteLength;
}
