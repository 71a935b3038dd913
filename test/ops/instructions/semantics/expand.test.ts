/**
 * Row and column expands on the VM (spec/instructions/expand.json): expected values are computed here from the
 * manual's formulas with Math.fround / f16round, one rounding per element.
 */
import { f16round } from '@petamoriken/float16';
import { Elem, runKernel, runValues } from './tile-kernel';

const range = (n: number, f: (k: number) => number) => Array.from({ length: n }, (_, k) => f(k));
const bits = (v: Elem) => (Object.is(v, -0) ? '-0' : String(v));

describe('trowexpand<op>: dst = src0 op a per-row operand', () => {
  const src0 = range(32, (k) => Math.fround(Math.sin(k) * 5));
  const scalars = [Math.fround(0.3), Math.fround(-1.7), Math.fround(2.25), Math.fround(1e-3)];

  test.each(['cpu-sim', 'npu'] as const)('trowexpandsub f32, DN scalar per row, valid 3x5 of 4x8: padding untouched (%s)', (numerics) => {
    const out = runValues(
      'pto.trowexpandsub ins(%a, %s : T(a), T(s)) outs(%d : T(d))',
      {
        a: { dtype: 'f32', rows: 4, cols: 8, valid: [3, 5], data: src0 },
        s: { dtype: 'f32', rows: 8, cols: 1, valid: [3, 1], columnMajor: true, data: scalars },
        d: { dtype: 'f32', rows: 4, cols: 8, valid: [3, 5], data: range(32, () => 99) },
      },
      numerics,
    );
    const want = range(32, (k) => (Math.floor(k / 8) < 3 && k % 8 < 5 ? Math.fround(src0[k] - scalars[Math.floor(k / 8)]) : 99));
    expect(out.d).toEqual(want);
  });

  test('mode 2: a row-major block per row repeats along the row (dst[i, j] uses block element j mod 8)', () => {
    const a = range(32, (k) => k + 0.5);
    const block = range(16, (k) => 100 * (k + 1));
    const out = runValues(
      'pto.trowexpandadd ins(%a, %b : T(a), T(b)) outs(%d : T(d))',
      {
        a: { dtype: 'f32', rows: 2, cols: 16, data: a },
        b: { dtype: 'f32', rows: 2, cols: 8, data: block },
        d: { dtype: 'f32', rows: 2, cols: 16 },
      },
      'cpu-sim',
    );
    expect(out.d).toEqual(range(32, (k) => a[k] + block[Math.floor(k / 16) * 8 + ((k % 16) % 8)]));
  });

  test("PTOAS's vpto back end reads a row-major per-row block's first column for every dst column", () => {
    const a = range(32, (k) => k + 0.5);
    const block = range(16, (k) => 100 * (k + 1));
    const tiles = {
      a: { dtype: 'f32' as const, rows: 2, cols: 16, data: a },
      b: { dtype: 'f32' as const, rows: 2, cols: 8, data: block },
      d: { dtype: 'f32' as const, rows: 2, cols: 16 },
    };
    const out = runKernel('pto.trowexpandadd ins(%a, %b : T(a), T(b)) outs(%d : T(d))', tiles, { backend: 'vpto' }).values;
    // Row 0 adds block[0] = 100 everywhere, row 1 adds block[8] = 900.
    expect(out.d).toEqual(range(32, (k) => a[k] + (k < 16 ? 100 : 900)));
    // src0 as the per-row block: PTOAS's template takes src0 as the full-sized operand only (no legal template).
    expect(() => runKernel('pto.trowexpandsub ins(%b, %a : T(b), T(a)) outs(%d : T(d))', tiles, { backend: 'vpto' })).toThrow(
      /src0 as the per-row operand is not implemented yet under the vpto back end/,
    );
  });

  test('src0 may be the per-row operand: the order stays src0 / src1', () => {
    const b = range(16, (k) => k + 1);
    const out = runValues(
      'pto.trowexpanddiv ins(%s, %b : T(s), T(b)) outs(%d : T(d))',
      {
        s: { dtype: 'f32', rows: 8, cols: 1, valid: [2, 1], columnMajor: true, data: [1, 3] },
        b: { dtype: 'f32', rows: 2, cols: 8, data: b },
        d: { dtype: 'f32', rows: 2, cols: 8 },
      },
      'cpu-sim',
    );
    expect(out.d).toEqual(range(16, (k) => Math.fround((k < 8 ? 1 : 3) / b[k])));
  });

  test('trowexpanddiv f16: one correctly rounded quotient; x / 0 is inf', () => {
    const a = [1, 2, 3, 5, 7, 11, 13, -17, ...range(8, (k) => k)].map(f16round);
    const out = runValues(
      'pto.trowexpanddiv ins(%a, %s : T(a), T(s)) outs(%d : T(d))',
      {
        a: { dtype: 'f16', rows: 1, cols: 16, data: a },
        s: { dtype: 'f16', rows: 16, cols: 1, valid: [1, 1], columnMajor: true, data: [3] },
        d: { dtype: 'f16', rows: 1, cols: 16 },
      },
      'cpu-sim',
    );
    expect(out.d).toEqual(a.map((x) => f16round(x / 3)));
    const byZero = runValues(
      'pto.trowexpanddiv ins(%a, %s : T(a), T(s)) outs(%d : T(d))',
      {
        a: { dtype: 'f16', rows: 1, cols: 16, valid: [1, 2], data: [1, -1] },
        s: { dtype: 'f16', rows: 16, cols: 1, valid: [1, 1], columnMajor: true, data: [0] },
        d: { dtype: 'f16', rows: 1, cols: 16, valid: [1, 2] },
      },
      'cpu-sim',
    );
    expect(byZero.d.slice(0, 2)).toEqual([Infinity, -Infinity]);
  });

  test('trowexpandexpdif f32: exp of the f32 difference, rounded once', () => {
    const out = runValues(
      'pto.trowexpandexpdif ins(%a, %s : T(a), T(s)) outs(%d : T(d))',
      {
        a: { dtype: 'f32', rows: 4, cols: 8, data: src0 },
        s: { dtype: 'f32', rows: 8, cols: 1, valid: [4, 1], columnMajor: true, data: scalars },
        d: { dtype: 'f32', rows: 4, cols: 8 },
      },
      'cpu-sim',
    );
    expect(out.d).toEqual(range(32, (k) => Math.fround(Math.exp(Math.fround(src0[k] - scalars[Math.floor(k / 8)])))));
  });

  test('trowexpandmax i32 and a wrapping trowexpandmul i16', () => {
    const max = runValues(
      'pto.trowexpandmax ins(%a, %s : T(a), T(s)) outs(%d : T(d))',
      {
        a: { dtype: 'i32', rows: 1, cols: 8, data: [-5, 0, 5, 10, -10, 3, 4, 6] },
        s: { dtype: 'i32', rows: 8, cols: 1, valid: [1, 1], columnMajor: true, data: [4] },
        d: { dtype: 'i32', rows: 1, cols: 8 },
      },
      'npu',
    );
    expect(max.d).toEqual([4, 4, 5, 10, 4, 4, 4, 6]);
    const mul = runValues(
      'pto.trowexpandmul ins(%a, %s : T(a), T(s)) outs(%d : T(d))',
      {
        a: { dtype: 'i16', rows: 1, cols: 16, valid: [1, 3], data: [300, -300, 2] },
        s: { dtype: 'i16', rows: 16, cols: 1, valid: [1, 1], columnMajor: true, data: [300] },
        d: { dtype: 'i16', rows: 1, cols: 16, valid: [1, 3] },
      },
      'npu',
    );
    // 90000 wraps to 90000 - 65536 = 24464; -90000 to -24464.
    expect(mul.d.slice(0, 3)).toEqual([24464, -24464, 600]);
  });

  test('npu f16 saturates an overflowing trowexpandmul to 65504 on A2/A3; A5 and cpu-sim give inf', () => {
    const tiles = () => ({
      a: { dtype: 'f16' as const, rows: 1, cols: 16, valid: [1, 1] as [number, number], data: [60000] },
      s: { dtype: 'f16' as const, rows: 16, cols: 1, valid: [1, 1] as [number, number], columnMajor: true, data: [2] },
      d: { dtype: 'f16' as const, rows: 1, cols: 16, valid: [1, 1] as [number, number] },
    });
    const line = 'pto.trowexpandmul ins(%a, %s : T(a), T(s)) outs(%d : T(d))';
    expect(runValues(line, tiles(), 'npu', 'a2a3').d[0]).toBe(65504);
    expect(runValues(line, tiles(), 'npu', 'a5').d[0]).toBe(Infinity);
    expect(runValues(line, tiles(), 'cpu-sim').d[0]).toBe(Infinity);
    expect(runValues(line + ' {saturation = true}', tiles(), 'npu', 'a5').d[0]).toBe(65504);
  });

  test.each(['emitc', 'vpto'] as const)(
    'trowexpandmul with a row-major per-row operand of one valid column (tile_fusion passes Mx1 ones): row i takes its element (i, 0) (%s)',
    (backend) => {
      const a = range(32, (k) => k + 0.5);
      const out = runKernel(
        'pto.trowexpandmul ins(%a, %s : T(a), T(s)) outs(%d : T(d))',
        {
          a: { dtype: 'f32', rows: 4, cols: 8, data: a },
          s: { dtype: 'f32', rows: 4, cols: 8, valid: [4, 1], data: [2, 9, 9, 9, 9, 9, 9, 9, -1, 9, 9, 9, 9, 9, 9, 9, 0.5, 9, 9, 9, 9, 9, 9, 9, 3] },
          d: { dtype: 'f32', rows: 4, cols: 8 },
        },
        { backend },
      ).values;
      // Row 0: (k + 0.5) * 2, row 1: -(k + 0.5), row 2: (k + 0.5) / 2, row 3: 3 (k + 0.5); all exact in f32.
      expect(out.d).toEqual(range(32, (k) => a[k] * [2, -1, 0.5, 3][Math.floor(k / 8)]));
    },
  );

  test('a row-major per-row operand of 4 valid columns (not one block of 8) gives each row its column 0', () => {
    const b = range(32, (k) => 10 * (k + 1));
    const out = runValues(
      'pto.trowexpandsub ins(%a, %b : T(a), T(b)) outs(%d : T(d))',
      {
        a: { dtype: 'f32', rows: 2, cols: 16, data: range(32, (k) => k) },
        b: { dtype: 'f32', rows: 2, cols: 16, valid: [2, 4], data: b },
        d: { dtype: 'f32', rows: 2, cols: 16 },
      },
      'cpu-sim',
    );
    // b[0, 0] = 10, b[1, 0] = 170.
    expect(out.d).toEqual(range(32, (k) => k - (k < 16 ? 10 : 170)));
  });
});

describe('trowexpand / tcolexpand copy bits', () => {
  test('trowexpand broadcasts column 0 of each valid row (-0 and NaN kept)', () => {
    const out = runValues(
      'pto.trowexpand ins(%s : T(s)) outs(%d : T(d))',
      {
        s: { dtype: 'f32', rows: 3, cols: 8, valid: [2, 8], data: [-0, 1, 1, 1, 1, 1, 1, 1, NaN, 2, 2, 2, 2, 2, 2, 2, 7, 3, 3, 3, 3, 3, 3, 3] },
        d: { dtype: 'f32', rows: 3, cols: 8, valid: [2, 6], data: range(24, () => 5) },
      },
      'npu',
    );
    expect(out.d.map(bits)).toEqual(Array.from({ length: 24 }, (_, k) => (k < 16 && k % 8 < 6 ? (k < 8 ? '-0' : 'NaN') : '5')));
  });

  test('trowexpand of a DN source (one column, as PTOAS allows): row i of dst is src(i, 0)', () => {
    const out = runValues(
      'pto.trowexpand ins(%s : T(s)) outs(%d : T(d))',
      {
        s: { dtype: 'f32', rows: 8, cols: 1, valid: [3, 1], columnMajor: true, data: [4, -2, 9.5, 1, 1, 1, 1, 1] },
        d: { dtype: 'f32', rows: 3, cols: 8, data: range(24, () => 5) },
      },
      'npu',
    );
    expect(out.d).toEqual([...Array(8).fill(4), ...Array(8).fill(-2), ...Array(8).fill(9.5)]);
  });

  test('trowexpandmax with a 0x0 dst (the no-op marker) writes nothing', () => {
    const out = runValues(
      'pto.trowexpandmax ins(%a, %s : T(a), T(s)) outs(%d : T(d))',
      {
        a: { dtype: 'f32', rows: 2, cols: 8, valid: [0, 0], data: range(16, (k) => k) },
        s: { dtype: 'f32', rows: 8, cols: 1, valid: [0, 0], columnMajor: true, data: range(8, () => 100) },
        d: { dtype: 'f32', rows: 2, cols: 8, valid: [0, 0], data: range(16, () => 5) },
      },
      'npu',
    );
    expect(out.d).toEqual(range(16, () => 5));
  });

  test('tcolexpand broadcasts row 0 down each valid column', () => {
    const out = runValues(
      'pto.tcolexpand ins(%s : T(s)) outs(%d : T(d))',
      {
        s: { dtype: 'i16', rows: 1, cols: 16, valid: [1, 10], data: range(16, (k) => k - 8) },
        d: { dtype: 'i16', rows: 3, cols: 16, valid: [3, 10], data: range(48, () => 77) },
      },
      'npu',
    );
    expect(out.d).toEqual(range(48, (k) => (k % 16 < 10 ? (k % 16) - 8 : 77)));
  });

  test('tcolexpandsub / tcolexpandexpdif use src1[0, j]', () => {
    const a = range(16, (k) => Math.fround(k / 3));
    const s = range(8, (k) => Math.fround(k * 0.7));
    const sub = runValues(
      'pto.tcolexpandsub ins(%a, %s : T(a), T(s)) outs(%d : T(d))',
      {
        a: { dtype: 'f32', rows: 2, cols: 8, data: a },
        s: { dtype: 'f32', rows: 1, cols: 8, data: s },
        d: { dtype: 'f32', rows: 2, cols: 8 },
      },
      'cpu-sim',
    );
    expect(sub.d).toEqual(range(16, (k) => Math.fround(a[k] - s[k % 8])));
    const e = runValues(
      'pto.tcolexpandexpdif ins(%a, %s : T(a), T(s)) outs(%d : T(d))',
      {
        a: { dtype: 'f32', rows: 2, cols: 8, data: a },
        s: { dtype: 'f32', rows: 1, cols: 8, data: s },
        d: { dtype: 'f32', rows: 2, cols: 8 },
      },
      'cpu-sim',
    );
    expect(e.d).toEqual(range(16, (k) => Math.fround(Math.exp(Math.fround(a[k] - s[k % 8])))));
  });

  test('tcolexpandexpdif / trowexpandexpdif f32 on A5: one fused vexpdif, the difference not rounded to f32 first', () => {
    // 80 - 2^-20 rounds to 80 in f32 (steps of 2^-17 there): vsub then vexp gives f32(e^80) = 0x792abbce. The fused
    // vexpdif takes e^(80 - 2^-20) = e^80 (1 - 2^-20 + ...), 2^-20 e^80 = 5.3e28 below, about 10.7 f32 steps (2^92)
    // of e^80 = 5.54e34: 0x792abbc3. A2/A3 (vsub, vexp) keeps the rounded difference.
    const f32Bits = (v: Elem) => new Uint32Array(Float32Array.of(v as number).buffer)[0];
    const tiles = {
      a: { dtype: 'f32' as const, rows: 1, cols: 8, data: [80, 1] },
      s: { dtype: 'f32' as const, rows: 1, cols: 8, data: [2 ** -20, 1] },
      d: { dtype: 'f32' as const, rows: 1, cols: 8 },
    };
    const col = 'pto.tcolexpandexpdif ins(%a, %s : T(a), T(s)) outs(%d : T(d))';
    expect(runValues(col, tiles, 'npu', 'a5').d.slice(0, 2).map(f32Bits)).toEqual([0x792abbc3, 0x3f800000]);
    expect(runValues(col, tiles, 'npu', 'a2a3').d.slice(0, 2).map(f32Bits)).toEqual([0x792abbce, 0x3f800000]);
    const row = runValues(
      'pto.trowexpandexpdif ins(%a, %s : T(a), T(s)) outs(%d : T(d))',
      {
        a: { dtype: 'f32', rows: 1, cols: 8, data: [80] },
        s: { dtype: 'f32', rows: 8, cols: 1, valid: [1, 1], columnMajor: true, data: [2 ** -20] },
        d: { dtype: 'f32', rows: 1, cols: 8 },
      },
      'npu',
      'a5',
    );
    expect(f32Bits(row.d[0])).toBe(0x792abbc3);
  });

  test('tcolexpandexpdif f16 overflow: +inf on A5 (as its board suite expects), 65504 under A2/A3 saturation', () => {
    // exp(12 - 0) = 162754.8 is past f16's largest finite 65504 (anything from 65520 up rounds to inf); exp(1 - 1) = 1.
    const tiles = {
      a: { dtype: 'f16' as const, rows: 1, cols: 16, data: [12, 1] },
      s: { dtype: 'f16' as const, rows: 1, cols: 16, data: [0, 1] },
      d: { dtype: 'f16' as const, rows: 1, cols: 16 },
    };
    const line = 'pto.tcolexpandexpdif ins(%a, %s : T(a), T(s)) outs(%d : T(d))';
    expect(runValues(line, tiles, 'npu', 'a5').d.slice(0, 2)).toEqual([Infinity, 1]);
    expect(runValues(line, tiles, 'npu', 'a2a3').d.slice(0, 2)).toEqual([65504, 1]);
  });
});
