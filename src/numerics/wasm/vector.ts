import { VECTOR_MODULE } from './vector-module';
import { VECTOR_OPERATIONS, VectorOperation } from './vector-source';
import { Numerics as NumericsProfile } from '../arithmetic';

/**
 * The f32 vector kernels (vector-source.ts), instantiated over a WebAssembly memory. A core's vector buffer lives
 * in such a memory when the host allows (`kernelBackedBuffer`), so that the kernels run on its tiles in place; a
 * tile elsewhere goes through the process's copy-in instance (`vectorKernels`): the caller copies operands into its
 * scratch, runs a kernel and copies the result out. Undefined where the host's WebAssembly lacks SIMD (the callers
 * then take their JavaScript paths).
 */
export interface VectorKernels {
  /** The memory the kernels run over. */
  buffer: ArrayBuffer;
  /** That memory as f32 elements (the offsets below index it). */
  f32: Float32Array;
  /** The f32 index where the scratch area starts; it runs to the end of the memory. Tiles may lie below it. */
  scratch: number;
  /** The kernel d[k] = a[k] op b[k] for k < n, n a multiple of 4. */
  tiles(op: VectorOperation, numerics: NumericsProfile): (d: number, a: number, b: number, n: number) => void;
  /** Row r (cols a multiple of 4) of the matrix at a op the f32 at s + r, into d. */
  rows(op: VectorOperation, numerics: NumericsProfile, d: number, a: number, s: number, rows: number, cols: number): void;
  /** cpu-sim row sums of the rows x cols matrix at a, rows `stride` apart (rows a multiple of 4), into the f32 at d. */
  rowSums(d: number, a: number, rows: number, cols: number, stride: number): void;
}

/** The scratch after a vector buffer: per-row operands and row sums of up to 8192 rows, and room for padded reads. */
const SCRATCH_BYTES = 1 << 16;
/** The copy-in instance's memory: three operands of up to a whole 256 KiB vector buffer, and the scratch. */
const COPY_IN_BYTES = 3 * (256 << 10) + SCRATCH_BYTES;
const PAGE = 1 << 16;

type Kernel = (...args: number[]) => void;

let compiled: WebAssembly.Module | null | undefined;

function kernelModule(): WebAssembly.Module | undefined {
  if (compiled === undefined) {
    try {
      compiled = new WebAssembly.Module(Buffer.from(VECTOR_MODULE, 'base64'));
    } catch {
      compiled = null; // no WebAssembly SIMD here
    }
  }
  return compiled ?? undefined;
}

/** The kernels over each memory that holds a vector buffer, by the memory's bytes. */
const byBuffer = new WeakMap<ArrayBufferLike, VectorKernels>();

let copyIn: VectorKernels | null | undefined;

/** The process's copy-in instance (its scratch is the whole memory). */
export function vectorKernels(): VectorKernels | undefined {
  if (copyIn === undefined) copyIn = instantiate(COPY_IN_BYTES, 0) ?? null;
  return copyIn ?? undefined;
}

/**
 * A vector buffer of `capacity` bytes in a memory of its own with the kernels over it, or undefined when the host
 * cannot give one (no SIMD, or no memory left for another WebAssembly memory): the caller then uses plain bytes.
 */
export function kernelBackedBuffer(capacity: number): Uint8Array | undefined {
  const kernels = instantiate(capacity + SCRATCH_BYTES, Math.ceil(capacity / 16) * 4);
  if (!kernels) return undefined;
  byBuffer.set(kernels.buffer, kernels);
  return new Uint8Array(kernels.buffer, 0, capacity);
}

/** The kernels that run over the memory of these bytes, if it is a kernel-backed buffer's. */
export function kernelsHolding(buffer: ArrayBufferLike): VectorKernels | undefined {
  return byBuffer.get(buffer);
}

function instantiate(bytes: number, scratch: number): VectorKernels | undefined {
  const module = kernelModule();
  if (!module) return undefined;
  let memory: WebAssembly.Memory;
  let exports: Record<string, unknown>;
  try {
    // Never grown: the typed arrays over its buffer stay valid.
    memory = new WebAssembly.Memory({ initial: Math.ceil(bytes / PAGE) });
    exports = new WebAssembly.Instance(module, { vm: { memory } }).exports;
  } catch {
    return undefined;
  }
  const kernel = (name: string) => exports[name] as Kernel;
  const byProfile = (form: string) => {
    const forProfile = (profile: string) => Object.fromEntries(VECTOR_OPERATIONS.map((op) => [op, kernel(`${form}_${op}_${profile}`)]));
    const table = { npu: forProfile('npu'), 'cpu-sim': forProfile('cpu_sim') };
    return (op: VectorOperation, numerics: NumericsProfile) => table[numerics][op];
  };
  const tiles = byProfile('tiles');
  const rows = byProfile('rows');
  const rowSums = kernel('row_sums_cpu_sim');
  const buffer = memory.buffer;
  return {
    buffer,
    f32: new Float32Array(buffer),
    scratch,
    tiles: (op, numerics) => {
      const kernel = tiles(op, numerics);
      return (d, a, b, n) => kernel(4 * d, 4 * a, 4 * b, n);
    },
    rows: (op, numerics, d, a, s, r, cols) => rows(op, numerics)(4 * d, 4 * a, 4 * s, r, cols),
    rowSums: (d, a, r, cols, stride) => rowSums(4 * d, 4 * a, r, cols, 4 * stride),
  };
}
