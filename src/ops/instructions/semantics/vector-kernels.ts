import { Lanes, isFlat } from '../../../machine/tile-loops';
import { vectorKernels } from '../../../numerics/wasm/vector';
import { VECTOR_OPERATIONS, VectorOperation } from '../../../numerics/wasm/vector-source';
import { NumericsProfile } from './context';

/**
 * The WebAssembly kernels (numerics/wasm) applied to f32 tiles: the operands' regions are copied into the kernels'
 * scratch memory, the kernel runs, the result is copied back. Each function returns false when it does not apply
 * (no kernels on this host, an operation without one, regions that are not one contiguous run, a source that
 * overlaps the destination at another place — reading everything before writing would then differ from the
 * element-by-element definition), and the caller takes its other paths.
 */

const isVectorOperation = (name: string): name is VectorOperation => (VECTOR_OPERATIONS as readonly string[]).includes(name);

/** Whether source `s` and destination `d` (n elements each) are the same elements or do not share any. */
function sameOrApart(s: Lanes<Float32Array>, d: Lanes<Float32Array>, n: number): boolean {
  if (s.data.buffer !== d.data.buffer) return true;
  const s0 = s.data.byteOffset + 4 * s.base;
  const d0 = d.data.byteOffset + 4 * d.base;
  return s0 === d0 || s0 + 4 * n <= d0 || d0 + 4 * n <= s0;
}

/** dst = a op b over rows x cols, every tile contiguous over the region. */
export function vectorTiles(
  name: string,
  numerics: NumericsProfile,
  d: Lanes<Float32Array>,
  a: Lanes<Float32Array>,
  b: Lanes<Float32Array>,
  rows: number,
  cols: number,
): boolean {
  const k = vectorKernels();
  const n = rows * cols;
  if (!k || !isVectorOperation(name) || 3 * (n + 4) > k.capacity) return false;
  if (!isFlat(d, rows, cols) || !isFlat(a, rows, cols) || !isFlat(b, rows, cols) || !sameOrApart(a, d, n) || !sameOrApart(b, d, n)) return false;
  const [at, bt, dt] = [0, n + 4, 2 * (n + 4)];
  k.f32.set(a.data.subarray(a.base, a.base + n), at);
  k.f32.set(b.data.subarray(b.base, b.base + n), bt);
  k.tiles(name, numerics, dt, at, bt, n);
  d.data.set(k.f32.subarray(dt, dt + n), d.base);
  return true;
}

/**
 * dst[r, c] = a[r, c] op s[r] over rows x cols (a row-expand instruction whose per-row operand is second): the
 * per-row values `s` are given, read before anything is written.
 */
export function vectorRows(
  name: string,
  numerics: NumericsProfile,
  d: Lanes<Float32Array>,
  a: Lanes<Float32Array>,
  s: Float64Array,
  rows: number,
  cols: number,
): boolean {
  const k = vectorKernels();
  const n = rows * cols;
  if (!k || !isVectorOperation(name) || cols % 4 !== 0 || 2 * n + rows + 4 > k.capacity) return false;
  if (!isFlat(d, rows, cols) || !isFlat(a, rows, cols) || !sameOrApart(a, d, n)) return false;
  const [at, dt, st] = [0, n, 2 * n];
  k.f32.set(a.data.subarray(a.base, a.base + n), at);
  k.f32.set(s, st);
  k.rows(name, numerics, dt, at, st, rows, cols);
  d.data.set(k.f32.subarray(dt, dt + n), d.base);
  return true;
}
