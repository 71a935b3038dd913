import { Lanes, isFlat } from '../../../machine/tile-loops';
import { VectorKernels, kernelsHolding, vectorKernels } from '../../../numerics/wasm/vector';
import { VECTOR_OPERATIONS, VectorOperation } from '../../../numerics/wasm/vector-source';
import { NumericsProfile } from './context';
import { f32BinaryLoops } from './fast-f32';

/**
 * The WebAssembly kernels (numerics/wasm) applied to f32 tiles. Tiles of a kernel-backed vector buffer are
 * operands where they lie; others are copied into the copy-in instance's scratch and the result copied back. Each
 * function returns the run, prepared (the caller runs it, and may repeat it: ctx.repeatWith), or undefined when the
 * kernels do not apply (none on this host, an operation without one, regions that are not one contiguous run, a
 * source that overlaps the destination at another place — reading everything before writing would then differ from
 * the element-by-element definition); the caller then takes its other paths.
 */

const isVectorOperation = (name: string): name is VectorOperation => (VECTOR_OPERATIONS as readonly string[]).includes(name);

/** The f32 index of a lane set's first element in its memory. */
const at = (l: Lanes<Float32Array>): number => (l.data.byteOffset >> 2) + l.base;

/** Whether source `s` and destination `d` (n elements each) are the same elements or do not share any. */
function sameOrApart(s: Lanes<Float32Array>, d: Lanes<Float32Array>, n: number): boolean {
  if (s.data.buffer !== d.data.buffer) return true;
  const [s0, d0] = [at(s), at(d)];
  return s0 === d0 || s0 + n <= d0 || d0 + n <= s0;
}

/** The kernels over the memory holding every one of these lane sets, if one does. */
function kernelsInPlace(d: Lanes<Float32Array>, ...sources: Lanes<Float32Array>[]): VectorKernels | undefined {
  const buffer = d.data.buffer;
  const k = kernelsHolding(buffer);
  return k && sources.every((s) => s.data.buffer === buffer) ? k : undefined;
}

/**
 * dst = a op b over rows x cols, every tile contiguous over the region: the run, prepared (it reads the tiles when
 * called), or undefined when the kernels do not apply.
 */
export function vectorTiles(
  name: string,
  numerics: NumericsProfile,
  d: Lanes<Float32Array>,
  a: Lanes<Float32Array>,
  b: Lanes<Float32Array>,
  rows: number,
  cols: number,
): (() => void) | undefined {
  const n = rows * cols;
  if (!isVectorOperation(name) || !isFlat(d, rows, cols) || !isFlat(a, rows, cols) || !isFlat(b, rows, cols)) return undefined;
  if (!sameOrApart(a, d, n) || !sameOrApart(b, d, n)) return undefined;
  const local = kernelsInPlace(d, a, b);
  if (local) {
    // The kernel takes whole vectors; the last n % 4 elements go through the loops of the same arithmetic.
    const whole = n & ~3;
    const kernel = local.tiles(name, numerics);
    const [d0, a0, b0] = [at(d), at(a), at(b)];
    if (whole === n) return () => kernel(d0, a0, b0, n);
    const tail = f32BinaryLoops(name, numerics)!.tiles;
    return () => {
      kernel(d0, a0, b0, whole);
      tail(d.data, d.base + whole, a.data, a.base + whole, b.data, b.base + whole, n - whole);
    };
  }
  const k = vectorKernels();
  if (!k || 3 * (n + 4) > k.f32.length) return undefined;
  const kernel = k.tiles(name, numerics);
  const [at0, bt, dt] = [0, n + 4, 2 * (n + 4)];
  return () => {
    k.f32.set(a.data.subarray(a.base, a.base + n), at0);
    k.f32.set(b.data.subarray(b.base, b.base + n), bt);
    kernel(dt, at0, bt, Math.ceil(n / 4) * 4);
    d.data.set(k.f32.subarray(dt, dt + n), d.base);
  };
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
  const n = rows * cols;
  if (!isVectorOperation(name) || cols % 4 !== 0 || !isFlat(d, rows, cols) || !isFlat(a, rows, cols) || !sameOrApart(a, d, n)) return false;
  const local = kernelsInPlace(d, a);
  if (local && local.scratch + rows <= local.f32.length) {
    local.f32.set(s, local.scratch);
    local.rows(name, numerics, at(d), at(a), local.scratch, rows, cols);
    return true;
  }
  const k = vectorKernels();
  if (!k || 2 * n + rows > k.f32.length) return false;
  const [at0, dt, st] = [0, n, 2 * n];
  k.f32.set(a.data.subarray(a.base, a.base + n), at0);
  k.f32.set(s, st);
  k.rows(name, numerics, dt, at0, st, rows, cols);
  d.data.set(k.f32.subarray(dt, dt + n), d.base);
  return true;
}

/**
 * cpu-sim row sums of a's rows x cols (one contiguous run per row) into column d, apart from a: the run, prepared,
 * or undefined when the kernels cannot run (the caller loops). The kernel sums four rows at a time, so a rows count
 * that is not a multiple of 4 reads past the last row: in place only when that stays inside the memory, else from
 * copies padded with zeros.
 */
export function vectorRowSums(a: Lanes<Float32Array>, rows: number, cols: number, d: Lanes<Float32Array>): (() => void) | undefined {
  if (a.col !== 1 || rows === 0 || cols === 0) return undefined;
  const padded = Math.ceil(rows / 4) * 4;
  const local = kernelsInPlace(a);
  if (local && local.scratch + padded <= local.f32.length && at(a) + (padded - 1) * a.row + cols <= local.f32.length) {
    const [a0, sums] = [at(a), local.scratch];
    return () => {
      local.rowSums(sums, a0, padded, cols, a.row);
      copyColumn(local.f32, sums, d, rows);
    };
  }
  const k = vectorKernels();
  if (!k || padded * cols + padded > k.f32.length) return undefined;
  const out = padded * cols;
  return () => {
    if (isFlat(a, rows, cols)) k.f32.set(a.data.subarray(a.base, a.base + rows * cols), 0);
    else for (let r = 0; r < rows; r++) k.f32.set(a.data.subarray(a.base + r * a.row, a.base + r * a.row + cols), r * cols);
    k.f32.fill(0, rows * cols, padded * cols);
    k.rowSums(out, 0, padded, cols, cols);
    copyColumn(k.f32, out, d, rows);
  };
}

function copyColumn(from: Float32Array, start: number, d: Lanes<Float32Array>, rows: number): void {
  if (d.row === 1) d.data.set(from.subarray(start, start + rows), d.base);
  else for (let r = 0; r < rows; r++) d.data[d.base + r * d.row] = from[start + r];
}
