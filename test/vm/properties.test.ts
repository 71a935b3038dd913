/**
 * Algebraic facts that hold in both numerics profiles, checked on random tiles (fast-check):
 * a minimum is one of its elements and no element is smaller, an arg-min points at the minimum
 * (the first one on ties), views (treshape) and transposes give back the same bits, and conversions through a
 * wider type come back exact.
 */
import fc from 'fast-check';
import { assemble } from '../../src/verify/assemble';
import { formatAll } from '../../src/diag/diagnostic';
import { NumericsProfile } from '../../src/ops/instructions/semantics/context';
import { Value, runFunction } from '../../src/vm/interpreter';
import { GlobalBuffer } from '../../src/machine/memory';

const PROFILES: NumericsProfile[] = ['npu', 'cpu-sim'];
const ROWS = 8;
const COLS = 16;

const tile = (dtype: string, rows: number, cols: number, layout = 'row_major') =>
  `!pto.tile_buf<loc=vec, dtype=${dtype}, rows=${rows}, cols=${cols}, v_row=${rows}, v_col=${cols}, blayout=${layout}, slayout=none_box, fractal=512, pad=0>`;

interface Port {
  name: string;
  dtype: 'f32' | 'i32' | 'f16';
  rows: number;
  cols: number;
  layout?: string;
}

/**
 * A kernel that loads %x (ROWS x COLS f32) into tile %src, runs `body`, and stores tile %dst (shape
 * `out`) to %y. Returns %y's bytes after a run under `numerics`.
 */
function runKernel(body: string[], out: Port, x: Float32Array, numerics: NumericsProfile, extraTiles: Port[] = []): Uint8Array {
  const srcType = tile('f32', ROWS, COLS);
  const dstType = tile(out.dtype, out.rows, out.cols, out.layout);
  const text = [
    'module {',
    `  func.func @k(%x: !pto.ptr<f32>, %y: !pto.ptr<${out.dtype}>) {`,
    '    %c0 = arith.constant 0 : index',
    '    %c1 = arith.constant 1 : index',
    `    %rows = arith.constant ${ROWS} : index`,
    `    %cols = arith.constant ${COLS} : index`,
    `    %orows = arith.constant ${out.rows} : index`,
    `    %ocols = arith.constant ${out.cols} : index`,
    '    %xv = pto.make_tensor_view %x, shape = [%rows, %cols], strides = [%cols, %c1] : !pto.tensor_view<?x?xf32>',
    `    %yv = pto.make_tensor_view %y, shape = [%orows, %ocols], strides = [%ocols, %c1] : !pto.tensor_view<?x?x${out.dtype}>`,
    `    %xp = pto.partition_view %xv, offsets = [%c0, %c0], sizes = [%rows, %cols] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<${ROWS}x${COLS}xf32>`,
    `    %yp = pto.partition_view %yv, offsets = [%c0, %c0], sizes = [%orows, %ocols] : !pto.tensor_view<?x?x${out.dtype}> -> !pto.partition_tensor_view<${out.rows}x${out.cols}x${out.dtype}>`,
    `    %src = pto.alloc_tile : ${srcType}`,
    `    %dst = pto.alloc_tile : ${dstType}`,
    ...extraTiles.map((t) => `    %${t.name} = pto.alloc_tile : ${tile(t.dtype, t.rows, t.cols, t.layout)}`),
    `    pto.tload ins(%xp : !pto.partition_tensor_view<${ROWS}x${COLS}xf32>) outs(%src : ${srcType})`,
    ...body.map((l) => '    ' + l.replace(/\bSRC\b/g, srcType).replace(/\bDST\b/g, dstType)),
    `    pto.tstore ins(%dst : ${dstType}) outs(%yp : !pto.partition_tensor_view<${out.rows}x${out.cols}x${out.dtype}>)`,
    '    return',
    '  }',
    '}',
  ].join('\n');
  const asm = assemble('property.pto', text, { target: 'a5' });
  if (asm.diags.hasErrors()) throw new Error(formatAll(asm.diags) + '\n' + text);
  const xBuffer = new GlobalBuffer('x', 'f32', new Uint8Array(x.buffer.slice(0)));
  const yBuffer = new GlobalBuffer('y', out.dtype, new Uint8Array(out.rows * out.cols * 4));
  const args = new Map<string, Value>([
    ['%x', xBuffer],
    ['%y', yBuffer],
  ]);
  runFunction(asm.program, asm.types, asm.program.functions.get('k')!, args, { numerics, maxSteps: 10_000 });
  return yBuffer.bytes;
}

/** Random finite f32 tiles with many ties (values drawn from a small set) and signed zeros. */
const finiteTile = fc
  .array(fc.oneof(fc.float({ noNaN: true, noDefaultInfinity: true }), fc.constantFrom(0, -0, 1, -1, 2.5)), { minLength: ROWS * COLS, maxLength: ROWS * COLS })
  .map((v) => new Float32Array(v));

const f32 = (bytes: Uint8Array) => new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
const i32 = (bytes: Uint8Array) => new Int32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
const row = (x: Float32Array, r: number) => Array.from(x.subarray(r * COLS, (r + 1) * COLS));

describe.each(PROFILES)('numerics %s', (numerics) => {
  test('trowmin: each row minimum is an element of its row and no element is smaller', () => {
    fc.assert(
      fc.property(finiteTile, (x) => {
        const dst = { name: 'dst', dtype: 'f32' as const, rows: ROWS, cols: 1, layout: 'col_major' };
        const y = f32(
          runKernel(['pto.trowmin ins(%src, %tmp : SRC, SRC) outs(%dst : DST)'], dst, x, numerics, [{ name: 'tmp', dtype: 'f32', rows: ROWS, cols: COLS }]),
        );
        for (let r = 0; r < ROWS; r++) {
          const values = row(x, r);
          if (!values.some((v) => Object.is(v, y[r]))) return false;
          if (values.some((v) => v < y[r])) return false;
        }
        return true;
      }),
      { numRuns: 40 },
    );
  });

  test('tcolmax: each column maximum is an element of its column and no element is larger', () => {
    fc.assert(
      fc.property(finiteTile, (x) => {
        const y = f32(runKernel(['pto.tcolmax ins(%src : SRC) outs(%dst : DST)'], { name: 'dst', dtype: 'f32', rows: 1, cols: COLS }, x, numerics));
        for (let c = 0; c < COLS; c++) {
          const column = Array.from({ length: ROWS }, (_, r) => x[r * COLS + c]);
          if (!column.some((v) => Object.is(v, y[c])) || column.some((v) => v > y[c])) return false;
        }
        return true;
      }),
      { numRuns: 40 },
    );
  });

  test('trowargmin points at the first element equal to the row minimum', () => {
    fc.assert(
      fc.property(finiteTile, (x) => {
        const dst = { name: 'dst', dtype: 'i32' as const, rows: ROWS, cols: 1, layout: 'col_major' };
        const y = i32(
          runKernel(['pto.trowargmin ins(%src, %tmp : SRC, SRC) outs(%dst : DST)'], dst, x, numerics, [{ name: 'tmp', dtype: 'f32', rows: ROWS, cols: COLS }]),
        );
        for (let r = 0; r < ROWS; r++) {
          const values = row(x, r);
          const k = y[r];
          if (k < 0 || k >= COLS) return false;
          // No element is smaller than the chosen one, and none before it is equal (ties keep the first).
          if (values.some((v) => v < values[k])) return false;
          if (values.slice(0, k).some((v) => v === values[k])) return false;
        }
        return true;
      }),
      { numRuns: 40 },
    );
  });

  test('treshape there and back (8x16 f32 -> 16x8 i32 -> 8x16 f32) keeps every bit, NaN payloads included', () => {
    const anyBits = fc.array(fc.integer(), { minLength: ROWS * COLS, maxLength: ROWS * COLS }).map((v) => new Float32Array(new Int32Array(v).buffer));
    fc.assert(
      fc.property(anyBits, (x) => {
        const wide = tile('i32', COLS, ROWS);
        const body = [
          `%as_int = pto.treshape %src : SRC -> ${wide}`,
          `%back = pto.treshape %as_int : ${wide} -> SRC`,
          'pto.tmov ins(%back : SRC) outs(%dst : DST)',
        ];
        const y = runKernel(body, { name: 'dst', dtype: 'f32', rows: ROWS, cols: COLS }, x, numerics);
        return Buffer.from(y).equals(Buffer.from(x.buffer));
      }),
      { numRuns: 40 },
    );
  });

  test('ttrans there and back (8x16 -> 16x8 -> 8x16) keeps every bit', () => {
    const anyBits = fc.array(fc.integer(), { minLength: ROWS * COLS, maxLength: ROWS * COLS }).map((v) => new Float32Array(new Int32Array(v).buffer));
    fc.assert(
      fc.property(anyBits, (x) => {
        const wide = tile('f32', COLS, ROWS);
        const body = [`pto.ttrans ins(%src, %tmpw : SRC, ${wide}) outs(%w : ${wide})`, `pto.ttrans ins(%w, %tmp : ${wide}, SRC) outs(%dst : DST)`];
        const extra = [
          { name: 'w', dtype: 'f32' as const, rows: COLS, cols: ROWS },
          { name: 'tmpw', dtype: 'f32' as const, rows: COLS, cols: ROWS },
          { name: 'tmp', dtype: 'f32' as const, rows: ROWS, cols: COLS },
        ];
        const y = runKernel(body, { name: 'dst', dtype: 'f32', rows: ROWS, cols: COLS }, x, numerics, extra);
        return Buffer.from(y).equals(Buffer.from(x.buffer));
      }),
      { numRuns: 30 },
    );
  });

  test('tcvt f32 -> f16 -> f32 is exact for values f16 can hold, whatever the round mode', () => {
    const f16Values = fc
      .integer({ min: 0, max: 0xffff })
      .filter((b) => (b & 0x7c00) !== 0x7c00)
      .map((b) => (b & 0x8000 ? -1 : 1) * ((b >> 10) & 31 ? (1024 + (b & 1023)) * 2 ** (((b >> 10) & 31) - 25) : (b & 1023) * 2 ** -24));
    const mode = fc.constantFrom('RINT', 'ROUND', 'FLOOR', 'CEIL', 'TRUNC', 'ODD', 'NONE', 'CAST_RINT');
    fc.assert(
      fc.property(fc.array(f16Values, { minLength: ROWS * COLS, maxLength: ROWS * COLS }), mode, (values, m) => {
        const x = new Float32Array(values);
        const half = tile('f16', ROWS, COLS);
        const body = [`pto.tcvt ins(%src {rmode = #pto<round_mode ${m}>} : SRC) outs(%h : ${half})`, `pto.tcvt ins(%h : ${half}) outs(%dst : DST)`];
        const y = runKernel(body, { name: 'dst', dtype: 'f32', rows: ROWS, cols: COLS }, x, numerics, [{ name: 'h', dtype: 'f16', rows: ROWS, cols: COLS }]);
        return Buffer.from(y).equals(Buffer.from(x.buffer));
      }),
      { numRuns: 30 },
    );
  });

  test('tcvt f32 -> i32 -> f32 is exact for integers below 2^24', () => {
    const ints = fc.integer({ min: -(2 ** 24), max: 2 ** 24 });
    fc.assert(
      fc.property(fc.array(ints, { minLength: ROWS * COLS, maxLength: ROWS * COLS }), (values) => {
        const x = new Float32Array(values);
        const i32 = tile('i32', ROWS, COLS);
        const body = [`pto.tcvt ins(%src {rmode = #pto<round_mode TRUNC>} : SRC) outs(%n : ${i32})`, `pto.tcvt ins(%n : ${i32}) outs(%dst : DST)`];
        const y = runKernel(body, { name: 'dst', dtype: 'f32', rows: ROWS, cols: COLS }, x, numerics, [{ name: 'n', dtype: 'i32', rows: ROWS, cols: COLS }]);
        return Buffer.from(y).equals(Buffer.from(x.buffer));
      }),
      { numRuns: 30 },
    );
  });
});
