import { VECTOR_MODULE } from './vector-module';
import { VECTOR_OPERATIONS, VECTOR_PAGES, VectorOperation } from './vector-source';
import { Numerics as NumericsProfile } from '../arithmetic';

/**
 * The f32 vector kernels (vector-source.ts), instantiated once per process over a scratch memory of their own:
 * callers copy operands in, run a kernel, copy the result out. Undefined where the host's WebAssembly lacks SIMD
 * (the callers then take their JavaScript paths).
 */
export interface VectorKernels {
  /** The scratch memory as f32 elements (the offsets below index it). */
  f32: Float32Array;
  /** How many f32 elements the scratch holds. */
  capacity: number;
  /** d[k] = a[k] op b[k] for k < n, n rounded up to a multiple of 4 (the scratch past n is the caller's to ignore). */
  tiles(op: VectorOperation, numerics: NumericsProfile, d: number, a: number, b: number, n: number): void;
  /** Row r (cols a multiple of 4) of the matrix at a op the f32 at s + 4r, into d. */
  rows(op: VectorOperation, numerics: NumericsProfile, d: number, a: number, s: number, rows: number, cols: number): void;
  /** cpu-sim row sums of the rows x cols matrix at a (rows a multiple of 4) into the f32 at d. */
  rowSums(d: number, a: number, rows: number, cols: number): void;
}

type Kernel = (...args: number[]) => void;

let kernels: VectorKernels | null | undefined;

export function vectorKernels(): VectorKernels | undefined {
  if (kernels === undefined) kernels = instantiate();
  return kernels ?? undefined;
}

function instantiate(): VectorKernels | null {
  let exports: Record<string, unknown>;
  try {
    const module = new WebAssembly.Module(Buffer.from(VECTOR_MODULE, 'base64'));
    exports = new WebAssembly.Instance(module, {}).exports;
  } catch {
    return null; // no WebAssembly SIMD here
  }
  const memory = exports.memory as WebAssembly.Memory;
  const kernel = (name: string) => exports[name] as Kernel;
  const byProfile = (form: string) => {
    const forProfile = (profile: string) => Object.fromEntries(VECTOR_OPERATIONS.map((op) => [op, kernel(`${form}_${op}_${profile}`)]));
    const table = { npu: forProfile('npu'), 'cpu-sim': forProfile('cpu_sim') };
    return (op: VectorOperation, numerics: NumericsProfile) => table[numerics][op];
  };
  const tiles = byProfile('tiles');
  const rows = byProfile('rows');
  const rowSums = kernel('row_sums_cpu_sim');
  const f32 = new Float32Array(memory.buffer);
  return {
    f32,
    capacity: (VECTOR_PAGES * 65536) / 4,
    tiles: (op, numerics, d, a, b, n) => tiles(op, numerics)(4 * d, 4 * a, 4 * b, n),
    rows: (op, numerics, d, a, s, r, cols) => rows(op, numerics)(4 * d, 4 * a, 4 * s, r, cols),
    rowSums: (d, a, r, cols) => rowSums(4 * d, 4 * a, r, cols),
  };
}
