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
  test('tquant INT8_SYM: x * fp[row], rounded to nearest even, saturated to i8', () => {
    const s: TileArg = { dtype: 'f32', rows: 2, cols: 8, data: [1.5, 2.5, -2.5, 200, 0, 0, 0, 0, 0.25, -1000, 0.5, 12.7, 0, 0, 0, 0], valid: [2, 4] };
    // Per-row parameters: a column-major 8 x 1 tile (one 32-byte column), its first rows valid.
    const fp: TileArg = { dtype: 'f32', rows: 8, cols: 1, data: [1, 10], valid: [2, 1], columnMajor: true };
    const d: TileArg = { dtype: 'i8', rows: 2, cols: 32, valid: [2, 4] };
    const { values } = runKernel('pto.tquant ins(%s, %f : T(s), T(f)) outs(%d : T(d)) {quant_type = #pto<quant_type INT8_SYM>}', { s, f: fp, d });
    // Row 0 (x 1): 1.5 -> 2, 2.5 -> 2, -2.5 -> -2 (ties to even), 200 -> 127. Row 1 (x 10): 2.5 -> 2, -10000 -> -128,
    // 5 -> 5, 127 -> 127 (12.7f * 10 rounds to 127 in f32).
    expect(values.d.slice(0, 4)).toEqual([2, 2, -2, 127]);
    expect(values.d.slice(32, 36)).toEqual([2, -128, 5, 127]);
  });

  test('tquant INT8_ASYM adds offset[row] after the product and saturates to ui8', () => {
    const s: TileArg = { dtype: 'f32', rows: 1, cols: 8, data: [1, -3, 250, 0.5, 300], valid: [1, 5] };
    const fp: TileArg = { dtype: 'f32', rows: 8, cols: 1, data: [1], valid: [1, 1], columnMajor: true };
    const off: TileArg = { dtype: 'f32', rows: 8, cols: 1, data: [2.5], valid: [1, 1], columnMajor: true };
    const d: TileArg = { dtype: 'u8', rows: 1, cols: 32, valid: [1, 5] };
    const line = 'pto.tquant ins(%s, %f, %o : T(s), T(f), T(o)) outs(%d : T(d)) {quant_type = #pto<quant_type INT8_ASYM>}';
    // 3.5 -> 4, -0.5 -> -0 -> 0, 252.5 -> 252 (ties to even), 3 -> 3, 302.5 -> 255.
    expect(runKernel(line, { s, f: fp, o: off, d }).values.d.slice(0, 5)).toEqual([4, 0, 252, 3, 255]);
  });

  test("tquant on A2/A3's NPU works in place: tmp keeps the s32 codes, src the f16 ones; the simulator leaves them", () => {
    const s: TileArg = { dtype: 'f32', rows: 1, cols: 8, data: [1.25, -300, 7.5], valid: [1, 3] };
    const fp: TileArg = { dtype: 'f32', rows: 8, cols: 1, data: [2], valid: [1, 1], columnMajor: true };
    const t: TileArg = { dtype: 'f32', rows: 1, cols: 8, valid: [1, 3] };
    const d: TileArg = { dtype: 'i8', rows: 1, cols: 32, valid: [1, 3] };
    const line = 'pto.tquant ins(%s, %f : T(s), T(f)) outs(%d, %t : T(d), T(t)) {quant_type = #pto<quant_type INT8_SYM>}';
    const npu = runKernel(line, { s, f: fp, t, d }, { target: 'a2a3', numerics: 'npu' }).values;
    // 2.5 -> 2, -600 -> -128, 15 -> 15.
    expect(npu.d.slice(0, 3)).toEqual([2, -128, 15]);
    // tmp's bytes hold the s32 codes 2, -600, 15 (read here as the f32 tile they sit in).
    const asF32 = (codes: number[]) => Array.from(new Float32Array(new Int32Array(codes).buffer));
    expect(npu.t.slice(0, 3)).toEqual(asF32([2, -600, 15]));
    // src's first 6 bytes hold the f16 codes 2, -600, 15 (over elements 0 and 1); element 2 keeps the product 15.
    const f16 = new Uint16Array(new Float32Array(npu.s.slice(0, 2) as number[]).buffer);
    expect(Array.from(f16.slice(0, 3))).toEqual([0x4000, 0xe0b0, 0x4b80]);
    expect(npu.s[2]).toBe(15);
    const sim = runKernel(line, { s, f: fp, t, d }, { target: 'a2a3', numerics: 'cpu-sim' }).values;
    expect(sim.d.slice(0, 3)).toEqual([2, -128, 15]);
    expect(sim.s.slice(0, 3)).toEqual([1.25, -300, 7.5]);
  });
});

describe('tquant.mx (MXFP8, OCP, f32)', () => {
  const MX = 'pto.tquant.mx ins(%s : T(s)) outs(%d, %e, %m, %k : T(d), T(e), T(m), T(k)) {quant_type = #pto<quant_type MXFP8>';
  const u8 = (values: number[]) => values.map((v) => v & 0xff);

  // One row of three groups of 32 (axis1), exp/max/scaling in the flat one-row form.
  const group0 = [15, -14.5, 14, 13.5, 13, 10, -10, 7, 0.296875, 0.328125, 0.265625, -1e-6, 3 * 2 ** -14, 2.5 * 2 ** -14];
  const group1 = [0.001, -0.0005];
  const rowTiles = (): Record<string, TileArg> => ({
    s: { dtype: 'f32', rows: 1, cols: 96, data: [...group0, ...Array(32 - group0.length).fill(0), ...group1, ...Array(62).fill(0)] },
    d: { dtype: 'i8', rows: 1, cols: 96 },
    e: { dtype: 'u8', rows: 1, cols: 32, data: Array(32).fill(7), valid: [1, 3] },
    m: { dtype: 'f32', rows: 1, cols: 8, data: Array(8).fill(99), valid: [1, 3] },
    k: { dtype: 'f32', rows: 1, cols: 64, data: Array(64).fill(99), valid: [1, 3] },
  });

  test('axis1: shared exponent from the group abs max, scaling 2^(254 - e), e4m3 nearest-even codes saturated to 448', () => {
    const { values } = runKernel(MX + '}', rowTiles(), { target: 'a5', numerics: 'npu' });
    // Group 0: max 15 (biased exponent 130) -> e = 122, scaling 2^5 = 32. Group 1: max f32(0.001) (117) -> e = 109,
    // scaling 2^18. Group 2: all zero (exponent 0 <= 8) -> e = 0, scaling 2^127.
    expect(values.e.slice(0, 4)).toEqual([122, 109, 0, 7]);
    expect(values.m.slice(0, 3)).toEqual([15, Math.fround(0.001), 0]);
    expect(values.k.slice(0, 4)).toEqual([32, 2 ** 18, 2 ** 127, 99]);
    // x32: 480, -464, 448 saturate (0x7e / 0xfe); 432 = 13.5 x 32 ties to 448 (even mantissa 6); 416 = 1.625 x 2^8 (0x7d);
    // 320 (0x7a), -320 (0xfa), 224 = 1.75 x 2^7 (0x76); 9.5 and 10.5 tie to 10 (0x52); 8.5 ties to 8 (0x50); -3.2e-5
    // rounds to -0 (0x80 on the NPU's IEEE conversion); 3 x 2^-9 and 2.5 x 2^-9 (tie to 2) are subnormals 0x03, 0x02.
    expect(u8(values.d.slice(0, 15) as number[])).toEqual([0x7e, 0xfe, 0x7e, 0x7e, 0x7d, 0x7a, 0xfa, 0x76, 0x52, 0x52, 0x50, 0x80, 0x03, 0x02, 0]);
    // Group 1 x 2^18: 262.14 -> 256 (0x78), -131.07 -> -128 (0xf0).
    expect(u8(values.d.slice(32, 34) as number[])).toEqual([0x78, 0xf0]);
    expect(values.d.slice(64, 96)).toEqual(Array(32).fill(0));
    // The NPU's abs-max pass stores two group maxima per vector: the odd third group leaves a 0 in max[3].
    expect(values.m[3]).toBe(0);
  });

  test('axis1 under cpu-sim: the same codes except an unsigned zero, and no extra max store', () => {
    const { values } = runKernel(MX + '}', rowTiles(), { target: 'a5', numerics: 'cpu-sim' });
    expect(values.e.slice(0, 3)).toEqual([122, 109, 0]);
    expect(u8(values.d.slice(8, 14) as number[])).toEqual([0x52, 0x52, 0x50, 0x00, 0x03, 0x02]);
    expect(values.m[3]).toBe(99);
  });

  test('axis0 (DN): groups of 32 rows per column; exp, max and scaling are [rows / 32, cols]', () => {
    const data = Array(64 * 32).fill(0);
    data[0] = 3; // column 0, rows 0..31: max 3 -> e = 120, scaling 2^7
    data[32] = 1; // (1, 0)
    data[32 * 32] = -0.75; // column 0, rows 32..63: max 0.75 -> e = 118, scaling 2^9
    data[1] = 100; // column 1, rows 0..31: max 100 -> e = 125, scaling 4
    for (const numerics of ['npu', 'cpu-sim'] as const) {
      const { values } = runKernel(
        MX + ', grpAxis = #pto<mx_group_axis axis0>}',
        {
          s: { dtype: 'f32', rows: 64, cols: 32, data },
          d: { dtype: 'i8', rows: 64, cols: 32 },
          e: { dtype: 'u8', rows: 2, cols: 32 },
          m: { dtype: 'f32', rows: 2, cols: 32 },
          k: { dtype: 'f32', rows: 2, cols: 32 },
        },
        { target: 'a5', numerics },
      );
      expect(values.e.slice(0, 3)).toEqual([120, 125, 0]);
      expect(values.e.slice(32, 34)).toEqual([118, 0]);
      expect(values.m.slice(0, 3)).toEqual([3, 100, 0]);
      expect(values.m[32]).toBe(0.75);
      expect(values.k.slice(0, 3)).toEqual([128, 4, 2 ** 127]);
      expect(values.k[32]).toBe(512);
      // 3 x 128 = 384 = 1.5 x 2^8 (0x7c); 1 x 128 (0x70); -0.75 x 512 = -384 (0xfc); 100 x 4 = 400 ties to 384 (0x7c).
      expect(u8([values.d[0], values.d[32], values.d[32 * 32], values.d[1]] as number[])).toEqual([0x7c, 0x70, 0xfc, 0x7c]);
    }
  });

  test('quantScaleAlg nv: e = ceil(log2(max / 448)) + 127 from f32(max * f32(1/448)), scaling 2^(127 - e)', () => {
    // Group 0: max 15, 15/448 in [2^-5, 2^-4) with a nonzero mantissa: exponent 122 rounds up to 123, scaling 16
    // (OCP: 122 and 32). Group 1: max 500, 500/448 = 1.116: 127 -> 128, scaling 1/2 (OCP: 127 and 1, which
    // saturates 500). Group 2: max 448, f32(448 * f32(1/448)) = 1 exactly: 127 stays, scaling 1.
    const tiles = rowTiles();
    tiles.s.data = [...group0, ...Array(32 - group0.length).fill(0), 500, -3, ...Array(30).fill(0), 448, ...Array(31).fill(0)];
    const nv = MX + ', quantScaleAlg = #pto<quant_scale_alg nv>}';
    const { values } = runKernel(nv, tiles, { target: 'a5', numerics: 'npu' });
    expect(values.e.slice(0, 3)).toEqual([123, 128, 127]);
    expect(values.m.slice(0, 3)).toEqual([15, 500, 448]);
    expect(values.k.slice(0, 3)).toEqual([16, 0.5, 1]);
    // x16: 240 = 1.875 x 2^7 (0x77); -232 ties to -224 (even mantissa 6: 0xf6); 4.75 ties to 5 (0x4a); 4.25 ties to
    // 4 (0x48); -1.6e-5 is -0 (0x80); 3 x 2^-10 = 1.5 x 2^-9 ties to 2 x 2^-9 (0x02); 2.5 x 2^-10 rounds to 2^-9 (0x01).
    const picked = [0, 1, 8, 10, 11, 12, 13].map((i) => values.d[i] as number);
    expect(u8(picked)).toEqual([0x77, 0xf6, 0x4a, 0x48, 0x80, 0x02, 0x01]);
    // x1/2: 250 rounds to 256 = 2^8 (0x78), -1.5 (0xbc); 448 x 1 = 1.75 x 2^8 (0x7e).
    expect(u8([values.d[32], values.d[33], values.d[64]] as number[])).toEqual([0x78, 0xbc, 0x7e]);
    // The simulator: the same exponents and scalings; a scaled value below 2^-10 keeps its sign (-1.6e-5: 0x80).
    const sim = runKernel(nv, tiles, { target: 'a5', numerics: 'cpu-sim' }).values;
    expect([...sim.e.slice(0, 3), ...sim.k.slice(0, 3)]).toEqual([123, 128, 127, 16, 0.5, 1]);
    expect(u8([sim.d[11], sim.d[12], sim.d[32]] as number[])).toEqual([0x80, 0x02, 0x78]);
  });

  test('MXFP4_E2M1 traps, saying why', () => {
    const line =
      'pto.tquant.mx ins(%s : T(s)) outs(%d, %e, %m, %k : T(d), T(e), T(m), T(k)) {quant_type = #pto<quant_type MXFP4_E2M1>, grpAxis = #pto<mx_group_axis axis0>}';
    const tiles: Record<string, TileArg> = {
      s: { dtype: 'bf16', rows: 32, cols: 64 },
      d: { dtype: '!pto.f4E2M1x2', rows: 32, cols: 32 },
      e: { dtype: 'u8', rows: 1, cols: 64 },
      m: { dtype: 'bf16', rows: 1, cols: 64 },
      k: { dtype: 'bf16', rows: 1, cols: 64 },
    };
    expect(() => runKernel(line, tiles, { target: 'a5', numerics: 'npu' })).toThrow(/MXFP4_E2M1 .* not implemented yet .* past 6 is not documented/);
  });

  test('a NaN input traps on the NPU; the simulator encodes it as 0x7f', () => {
    const tiles = rowTiles();
    tiles.s.data![5] = NaN;
    expect(() => runKernel(MX + '}', tiles, { target: 'a5', numerics: 'npu' })).toThrow('a NaN src element at (0, 5)');
    // The simulator skips NaN in the max and encodes it as 0x7f.
    expect(u8([runKernel(MX + '}', tiles, { target: 'a5', numerics: 'cpu-sim' }).values.d[5] as number])).toEqual([0x7f]);
  });
});
