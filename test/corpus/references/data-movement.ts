/**
 * The PTOAS data movement samples and the legacy memref-form kernels: each moves or transforms one box of a global
 * tensor (a 32x32 block of a 1024x1024 i32 tensor, or a 5-D partition). The reference writes exactly that box of the
 * destination and keeps every other element as it was.
 *
 * Reading of the memref form (docs/corpus.md): an on-chip `memref<1024xi32>` is a tile of one row of 1024 elements,
 * and a tload/tstore between a 32x32 window and such a flat buffer moves the window's elements in row-major order.
 */
import { f32 } from '../../models/float';
import { SampleIO, SampleReference } from './harness';

/** Two's-complement wrap to 32 bits, as i32 arithmetic does. */
const i32 = (x: number): number => x | 0;

/** The 1024x1024 tensors of the memref kernels, cut into 32x32 blocks. */
const WIDTH = 1024;
const BLOCK = 32;

/**
 * `before` with the rows x cols box at (row0, col0) of a row-major matrix of `width` columns replaced by value(r, c)
 * (r, c relative to the box).
 */
function withBox(before: number[], width: number, row0: number, col0: number, rows: number, cols: number, value: (r: number, c: number) => number): number[] {
  const after = before.slice();
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) after[(row0 + r) * width + col0 + c] = value(r, c);
  return after;
}

/** The element (r, c) of the 32x32 block (blockRow, blockCol) of a 1024x1024 tensor. */
const inBlock = (data: number[], blockRow: number, blockCol: number) => (r: number, c: number) => data[(blockRow * BLOCK + r) * WIDTH + blockCol * BLOCK + c];

/** `dst` with its block (blockRow, blockCol) set to value(r, c): the only elements a block kernel writes. */
const blockResult = (dst: number[], blockRow: number, blockCol: number, value: (r: number, c: number) => number) =>
  withBox(dst, WIDTH, blockRow * BLOCK, blockCol * BLOCK, BLOCK, BLOCK, value);

/** Elementwise over one block: out block = fn(inputs' same block), everything else of `out` unchanged. */
function blockwise(io: SampleIO, out: string, inputs: string[], blockRow: number, blockCol: number, fn: (...xs: number[]) => number): Record<string, number[]> {
  const sources = inputs.map((name) => inBlock(io.in[name], blockRow, blockCol));
  return { [out]: blockResult(io.in[out], blockRow, blockCol, (r, c) => fn(...sources.map((s) => s(r, c)))) };
}

/**
 * The 5-D copy of the Partition5D samples: the box at `offsets` of extent `sizes` in a tensor of shape 1x1x16x1024x1024
 * (row-major strides) goes from src to the same place in dst; the rest of dst stays.
 */
function copyBox5d(src: number[], dst: number[], offsets: number[], sizes: number[]): number[] {
  const shape = [1, 1, 16, 1024, 1024];
  const strides = shape.map((_, d) => shape.slice(d + 1).reduce((p, n) => p * n, 1));
  const after = dst.slice();
  const visit = (d: number, base: number): void => {
    if (d === shape.length) {
      after[base] = src[base];
      return;
    }
    for (let k = 0; k < sizes[d]; k++) visit(d + 1, base + (offsets[d] + k) * strides[d]);
  };
  visit(0, 0);
  return after;
}

/** partition5d_dynamic's bindings: offsets arg2..arg6 and sizes arg7..arg11 of the partition, as --arg strings. */
function partitionArgs(offsets: number[], sizes: number[]): Record<string, string> {
  return Object.fromEntries([...offsets, ...sizes].map((v, k) => [`arg${k + 2}`, String(v)]));
}

/** tcolexpand: `rows` rows, each a copy of row 0 of src. */
const colExpand = (src: number[][], rows: number): number[][] => Array.from({ length: rows }, () => src[0].slice());

const elementwise = (fn: string, args: Record<string, string>, expect: SampleReference['expect']): SampleReference => ({
  file: 'test/samples/Elementwise/5-post-insert-sync.pto',
  fn,
  target: 'a5', // tabs on i32 exists only on A5; the file is verified as a whole
  args,
  expect,
});

export const DATA_MOVEMENT: SampleReference[] = [
  // A 1x1x16x16x16 partition at the origin through a 256x16 Mat tile: those 16 planes of 16x16 are copied to arg1.
  {
    file: 'test/samples/Partition5D/partition5d.pto',
    profiles: ['npu'], // a bit copy: the profiles agree by construction, and each run moves two 64 MiB tensors
    expect: (io) => ({ arg1: copyBox5d(io.in.arg0, io.in.arg1, [0, 0, 0, 0, 0], [1, 1, 16, 16, 16]) }),
  },
  // The same copy with offsets and sizes as arguments: the full 256x16 tile at (0, 0, 0, 16, 32) ...
  {
    file: 'test/samples/Partition5D/partition5d_dynamic.pto',
    args: partitionArgs([0, 0, 0, 16, 32], [1, 1, 16, 16, 16]),
    profiles: ['npu'],
    expect: (io) => ({ arg1: copyBox5d(io.in.arg0, io.in.arg1, [0, 0, 0, 16, 32], [1, 1, 16, 16, 16]) }),
  },
  // ... and a partial one (valid region 8*24 = 192 rows x 5 columns) at an odd place deep in the tensor. A bit copy is
  // the same under both profiles, and each run moves two 64 MiB tensors: npu only.
  {
    file: 'test/samples/Partition5D/partition5d_dynamic.pto',
    args: partitionArgs([0, 0, 7, 1000, 1019], [1, 1, 8, 24, 5]),
    profiles: ['npu'],
    expect: (io) => ({ arg1: copyBox5d(io.in.arg0, io.in.arg1, [0, 0, 7, 1000, 1019], [1, 1, 8, 24, 5]) }),
  },
  // tci into a 1x1024 UB row (dst[0, k] = S + k), stored row-major into block (tile_i, tile_j) of out.
  {
    file: 'test/samples/Complex/5-post-insert-sync.pto',
    args: { tile_i: '3', tile_j: '5', S: '-37' },
    expect: (io) => ({ out: blockResult(io.in.out, 3, 5, (r, c) => i32(-37 + r * BLOCK + c)) }),
  },
  // A start near the i32 maximum: the sequence wraps to -2^31 after element 47.
  {
    file: 'test/samples/Complex/5-post-insert-sync.pto',
    args: { tile_i: '31', tile_j: '0', S: '2147483600' },
    expect: (io) => ({ out: blockResult(io.in.out, 31, 0, (r, c) => i32(2147483600 + r * BLOCK + c)) }),
  },
  // Load block (arg2, arg3) of arg0, textract the 16x16 window at (arg4, arg5) of it, store it at the block's origin
  // in arg1. Both UB buffers sit at address 0; the window is read ahead of where it is written, so the overlap is harmless.
  {
    file: 'test/samples/DataMovement/5-post-insert-sync.pto',
    args: { arg2: '3', arg3: '5', arg4: '4', arg5: '16' },
    expect: (io) => ({ arg1: withBox(io.in.arg1, WIDTH, 3 * BLOCK, 5 * BLOCK, 16, 16, (r, c) => inBlock(io.in.arg0, 3, 5)(4 + r, 16 + c)) }),
  },
  {
    file: 'test/samples/DataMovement/5-post-insert-sync.pto',
    args: { arg2: '31', arg3: '30', arg4: '16', arg5: '0' },
    expect: (io) => ({ arg1: withBox(io.in.arg1, WIDTH, 31 * BLOCK, 30 * BLOCK, 16, 16, (r, c) => inBlock(io.in.arg0, 31, 30)(16 + r, c)) }),
  },
  // i32 arithmetic on one 32x32 block, wrapping: bitwise and, abs, add, and the three-input add.
  elementwise('vec_and_kernel_2d', { arg3: '3', arg4: '5' }, (io) => blockwise(io, 'arg2', ['arg0', 'arg1'], 3, 5, (a, b) => a & b)),
  elementwise('vec_abs_kernel_2d', { arg2: '3', arg3: '5' }, (io) => blockwise(io, 'arg1', ['arg0'], 3, 5, (a) => (a < 0 ? i32(-a) : a))),
  elementwise('vec_add_kernel_2d', { arg3: '3', arg4: '5' }, (io) => blockwise(io, 'arg2', ['arg0', 'arg1'], 3, 5, (a, b) => i32(a + b))),
  elementwise('vec_addc_kernel_2d', { arg4: '3', arg5: '5' }, (io) => blockwise(io, 'arg3', ['arg0', 'arg1', 'arg2'], 3, 5, (a, b, c) => i32(i32(a + b) + c))),
  // tcolexpand: dst[i, j] = src[0, j]. The UB buffers are memref<1024xi32>, tiles of one row holding the whole block
  // in row-major order, so the expansion has a single row to fill and block (arg2, arg3) of arg0 arrives unchanged in arg1.
  {
    file: 'test/samples/Memory/5-post-insert-sync.pto',
    args: { arg2: '3', arg3: '5' },
    expect: (io) => {
      const srcRow = Array.from({ length: BLOCK * BLOCK }, (_, k) => inBlock(io.in.arg0, 3, 5)(Math.floor(k / BLOCK), k % BLOCK));
      const dst = colExpand([srcRow], 1);
      return { arg1: blockResult(io.in.arg1, 3, 5, (r, c) => dst[0][r * BLOCK + c]) };
    },
  },
  // tadds: block + scalar, wrapping in i32; the second scalar makes every non-negative element overflow.
  {
    file: 'test/samples/TileScalar/5-post-insert-sync.pto',
    args: { arg2: '-9', arg3: '3', arg4: '5' },
    expect: (io) => blockwise(io, 'arg1', ['arg0'], 3, 5, (a) => i32(a - 9)),
  },
  {
    file: 'test/samples/TileScalar/5-post-insert-sync.pto',
    args: { arg2: '2147483647', arg3: '0', arg4: '31' },
    expect: (io) => blockwise(io, 'arg1', ['arg0'], 0, 31, (a) => i32(a + 2147483647)),
  },
  // Subset: the 32x64 UB workspace %arg2 is cut into ping (columns 0..31) and pong (32..63); ping = ping + ping, arg0
  // is loaded into pong (not stored), and ping goes to arg1. The windows keep the workspace's row stride of 64.
  {
    file: 'test/samples/Subset/Subset.pto',
    expect: (io) => ({ arg1: Array.from({ length: 32 * 32 }, (_, k) => f32(2 * io.in.arg2[Math.floor(k / 32) * 64 + (k % 32)])) }),
  },
];
