/**
 * tdequant (spec/instructions/quant.json), PTOAS's tconcatidx, and the instructions of the quantization and MX
 * paths the VM reports instead of running. Expected values are worked out by hand from the manual's formulas.
 */
import { TileArg, runKernel } from './tile-kernel';

const DEQUANT = 'pto.tdequant ins(%s, %k, %o : T(s), T(k), T(o)) outs(%d : T(d))';

/** A rows x 1 parameter column, in rows of 8 f32 (one 32-byte block). */
const perRow = (values: number[]): TileArg => ({
  dtype: 'f32',
  rows: values.length,
  cols: 8,
  data: values.flatMap((v) => [v, 0, 0, 0, 0, 0, 0, 0]),
  valid: [values.length, 1],
});

describe('tdequant', () => {
  test('dst = (src - offset[row]) * scale[row] on i8 codes', () => {
    const s: TileArg = { dtype: 'i8', rows: 2, cols: 32, data: [-128, 0, 5, 127, ...Array(28).fill(0), 10, -10, 1, 3, ...Array(28).fill(0)], valid: [2, 4] };
    const d: TileArg = { dtype: 'f32', rows: 2, cols: 8, valid: [2, 4] };
    const { values } = runKernel(DEQUANT, { s, k: perRow([0.5, -2]), o: perRow([1, 3]), d });
    // Row 0: (x - 1) * 0.5; row 1: (x - 3) * -2.
    expect(values.d.slice(0, 4)).toEqual([-64.5, -0.5, 2, 63]);
    expect(values.d.slice(8, 12)).toEqual([-14, 26, 4, -0]);
  });

  test('i16 codes, each step rounded to f32: (16777217 is not an f32) the difference rounds before the product', () => {
    const s: TileArg = { dtype: 'i16', rows: 1, cols: 16, data: [32767, -32768], valid: [1, 2] };
    const d: TileArg = { dtype: 'f32', rows: 1, cols: 8, valid: [1, 2] };
    // 32767 - (-16744450) = 16777217 rounds to 16777216 (ties to even) before * 1.
    const { values } = runKernel(DEQUANT, { s, k: perRow([1]), o: perRow([-16744450]), d });
    expect(values.d.slice(0, 2)).toEqual([16777216, -32768 + 16744450]);
  });

  test("a wider parameter tile: the NPU uses each row's first element for every column, the simulator column min(c, cols - 1)", () => {
    const s: TileArg = { dtype: 'i8', rows: 1, cols: 32, data: [10, 10, 10, 10], valid: [1, 4] };
    const d: TileArg = { dtype: 'f32', rows: 1, cols: 8, valid: [1, 4] };
    // scale [2, 3] and offset [1, 5] over two valid cols.
    const k: TileArg = { dtype: 'f32', rows: 1, cols: 8, data: [2, 3], valid: [1, 2] };
    const o: TileArg = { dtype: 'f32', rows: 1, cols: 8, data: [1, 5], valid: [1, 2] };
    // NPU: (10 - 1) * 2 = 18 in every column.
    expect(runKernel(DEQUANT, { s, k, o, d }, { numerics: 'npu' }).values.d.slice(0, 4)).toEqual([18, 18, 18, 18]);
    // Simulator: column 0 as above; columns 1..3 read column 1: (10 - 5) * 3 = 15.
    expect(runKernel(DEQUANT, { s, k, o, d }, { numerics: 'cpu-sim' }).values.d.slice(0, 4)).toEqual([18, 15, 15, 15]);
  });

  test('unsigned codes are reported, not guessed', () => {
    const s: TileArg = { dtype: 'u8', rows: 1, cols: 32, valid: [1, 4] };
    const d: TileArg = { dtype: 'f32', rows: 1, cols: 8, valid: [1, 4] };
    expect(() => runKernel(DEQUANT, { s, k: perRow([1]), o: perRow([0]), d })).toThrow('dequantizing ui8 codes is not implemented yet');
  });
});

describe('tconcatidx', () => {
  test("row r takes idx0[r] / 4 columns of src0 then idx1[r] / 4 of src1 (i32 counts in bytes, TCONCAT's 5-argument form)", () => {
    const a: TileArg = { dtype: 'f32', rows: 2, cols: 8, data: [1, 2, 3, 4, 5, 6, 7, 8, 11, 12, 13, 14, 15, 16, 17, 18] };
    const b: TileArg = { dtype: 'f32', rows: 2, cols: 8, data: [-1, -2, -3, -4, -5, -6, -7, -8, -11, -12, -13, -14, -15, -16, -17, -18] };
    const idx = (counts: number[]): TileArg => ({ dtype: 'i32', rows: 2, cols: 8, data: counts.flatMap((n) => [n, 0, 0, 0, 0, 0, 0, 0]), valid: [2, 1] });
    const d: TileArg = { dtype: 'f32', rows: 2, cols: 16, data: Array(32).fill(99) };
    const { values } = runKernel(
      'pto.tconcatidx ins(%a, %b, %i, %j : T(a), T(b), T(i), T(j)) outs(%d : T(d))',
      { a, b, i: idx([8, 4]), j: idx([12, 0]), d },
      { numerics: 'npu' },
    );
    expect(values.d.slice(0, 6)).toEqual([1, 2, -1, -2, -3, 99]);
    expect(values.d.slice(16, 18)).toEqual([11, 99]);
  });
});

describe('instructions verified but not run', () => {
  test('tquant (the manual leaves its rounding open) is reported before anything runs', () => {
    const s: TileArg = { dtype: 'f32', rows: 8, cols: 8 };
    const fp: TileArg = { dtype: 'f32', rows: 8, cols: 1, columnMajor: true };
    const d: TileArg = { dtype: 'i8', rows: 8, cols: 32, valid: [8, 8] };
    expect(() =>
      runKernel('pto.tquant ins(%s, %f : T(s), T(f)) outs(%d : T(d)) {quant_type = #pto<quant_type INT8_SYM>}', { s, f: fp, d }, { target: 'a5' }),
    ).toThrow('pto.tquant: is not implemented yet');
  });

  test('a product of fp8 inputs and a conversion to hif8 trap instead of computing on bits', () => {
    const s: TileArg = { dtype: 'f32', rows: 1, cols: 8 };
    const d: TileArg = { dtype: '!pto.hif8', rows: 1, cols: 32, valid: [1, 8] };
    expect(() => runKernel('pto.tcvt ins(%s : T(s)) outs(%d : T(d)) {rmode = #pto<round_mode CAST_RINT>}', { s, d }, { target: 'a5' })).toThrow(
      'converting f32 to !pto.hif8 is not implemented yet',
    );
  });
});
