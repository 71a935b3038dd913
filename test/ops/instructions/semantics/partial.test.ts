/** Partial elementwise ops (spec/instructions/partial.json): the manual's cases, computed here by hand. */
import { runKernel, runValues } from './tile-kernel';

test('tpartadd: the sum where both are valid, src0 elsewhere; dst padding untouched', () => {
  const out = runValues(
    'pto.tpartadd ins(%a, %b : T(a), T(b)) outs(%d : T(d))',
    {
      a: { dtype: 'i32', rows: 2, cols: 8, valid: [2, 3], data: [1, 2, 3, 0, 0, 0, 0, 0, 4, 5, 6] },
      b: { dtype: 'i32', rows: 2, cols: 8, valid: [1, 2], data: [10, 20] },
      d: { dtype: 'i32', rows: 2, cols: 8, valid: [2, 3], data: Array(16).fill(-1) },
    },
    'npu',
  );
  expect(out.d).toEqual([11, 22, 3, -1, -1, -1, -1, -1, 4, 5, 6, -1, -1, -1, -1, -1]);
});

test('tpartargmax: src0 wins only when strictly greater (ties and NaN pick src1); the smaller region copies', () => {
  const out = runValues(
    'pto.tpartargmax ins(%a, %b, %ai, %bi : T(a), T(b), T(ai), T(bi)) outs(%d, %di : T(d), T(di))',
    {
      a: { dtype: 'f32', rows: 1, cols: 8, valid: [1, 4], data: [5, 2, NaN, 1] },
      b: { dtype: 'f32', rows: 1, cols: 8, valid: [1, 3], data: [4, 2, 3] },
      ai: { dtype: 'i32', rows: 1, cols: 8, valid: [1, 4], data: [100, 101, 102, 103] },
      bi: { dtype: 'i32', rows: 1, cols: 8, valid: [1, 3], data: [200, 201, 202] },
      d: { dtype: 'f32', rows: 1, cols: 8, valid: [1, 4] },
      di: { dtype: 'i32', rows: 1, cols: 8, valid: [1, 4] },
    },
    'cpu-sim',
  );
  expect(out.d.slice(0, 4)).toEqual([5, 2, 3, 1]);
  expect(out.di.slice(0, 4)).toEqual([100, 201, 202, 103]);
});

test('on a2a3 a pattern where no source covers dst is an error', () => {
  expect(() =>
    runValues(
      'pto.tpartmax ins(%a, %b : T(a), T(b)) outs(%d : T(d))',
      {
        a: { dtype: 'f32', rows: 2, cols: 8, valid: [2, 3] },
        b: { dtype: 'f32', rows: 2, cols: 8, valid: [1, 4] },
        d: { dtype: 'f32', rows: 2, cols: 8, valid: [2, 4] },
      },
      'npu',
      'a2a3',
    ),
  ).toThrow(/must equal dst/);
});

describe('A5: no source covers dst (src0 2x3, src1 3x2, dst 3x3)', () => {
  const FLT_MAX = 3.4028234663852886e38;
  // Row-major 3x8 contents; columns 3.. and b's (0, 2), (1, 2), (2, 2) lie outside the valid regions.
  const tiles = () => ({
    a: { dtype: 'f32' as const, rows: 3, cols: 8, valid: [2, 3] as [number, number], data: [1, 5, 2, 0, 0, 0, 0, 0, 4, 0, 7, 0, 0, 0, 0, 0, 99, 99, 99] },
    b: {
      dtype: 'f32' as const,
      rows: 3,
      cols: 8,
      valid: [3, 2] as [number, number],
      data: [3, 3, 50, 0, 0, 0, 0, 0, -1, 8, 51, 0, 0, 0, 0, 0, -Infinity, 6, 60],
    },
    d: { dtype: 'f32' as const, rows: 3, cols: 8, valid: [3, 3] as [number, number], data: Array(24).fill(-7) },
  });
  const rows = (d: unknown[]) => [d.slice(0, 4), d.slice(8, 12), d.slice(16, 20)];

  test("vpto (_part.py's register_part_extreme): pad -FLT_MAX, src0 copied, then max with src1 over src1's region", () => {
    const out = runKernel('pto.tpartmax ins(%a, %b : T(a), T(b)) outs(%d : T(d))', tiles(), { backend: 'vpto' }).values;
    // (2, 0) is max(-FLT_MAX, -inf): the finite pad; (2, 2) is covered by neither source.
    expect(rows(out.d)).toEqual([
      [3, 5, 2, -7],
      [4, 8, 7, -7],
      [-FLT_MAX, 6, -FLT_MAX, -7],
    ]);
  });

  test("emitc (pto-isa A5 TPartOp): max over the common 2x2, src1's storage elsewhere (src1 has more valid rows)", () => {
    const out = runKernel('pto.tpartmax ins(%a, %b : T(a), T(b)) outs(%d : T(d))', tiles(), { backend: 'emitc' }).values;
    expect(rows(out.d)).toEqual([
      [3, 5, 50, -7],
      [4, 8, 51, -7],
      [-Infinity, 6, 60, -7],
    ]);
  });

  test('vpto tpartadd has no template for it: a trap', () => {
    expect(() => runKernel('pto.tpartadd ins(%a, %b : T(a), T(b)) outs(%d : T(d))', tiles(), { backend: 'vpto' })).toThrow(
      /under the vpto back end one source's valid region must equal dst's 3x3/,
    );
  });
});

test('vpto tpartmin on u8: the pad is 255 where no source is valid, min(255, src1) where only src1 is', () => {
  const out = runKernel(
    'pto.tpartmin ins(%a, %b : T(a), T(b)) outs(%d : T(d))',
    {
      a: { dtype: 'u8', rows: 2, cols: 32, valid: [1, 2], data: [10, 20] },
      b: { dtype: 'u8', rows: 2, cols: 32, valid: [2, 1], data: [30, 0, ...Array(30).fill(0), 40] },
      d: { dtype: 'u8', rows: 2, cols: 32, valid: [2, 2], data: Array(64).fill(7) },
    },
    { backend: 'vpto' },
  ).values;
  expect([out.d.slice(0, 3), out.d.slice(32, 35)]).toEqual([
    [10, 20, 7],
    [40, 255, 7],
  ]);
});

test('emitc A5 tpartadd with an empty src0: src1 valid region copied, the rest of dst kept (pto-isa TPartCopySrc)', () => {
  const out = runKernel(
    'pto.tpartadd ins(%a, %b : T(a), T(b)) outs(%d : T(d))',
    {
      a: { dtype: 'i32', rows: 2, cols: 8, valid: [0, 0], data: Array(16).fill(5) },
      b: { dtype: 'i32', rows: 2, cols: 8, valid: [1, 2], data: [10, 20, 30, 0, 0, 0, 0, 0, 40, 50] },
      d: { dtype: 'i32', rows: 2, cols: 8, valid: [2, 4], data: Array(16).fill(-1) },
    },
    { backend: 'emitc' },
  ).values;
  expect(out.d).toEqual([10, 20, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1]);
});

describe('ui16/ui32 tiles, which PTOAS accepts on both targets (any signedness of its 16- and 32-bit widths)', () => {
  // src0 covers dst; src1 covers its first column: 65535 and 1 are compared unsigned, 2^32 - 2 + 3 wraps to 1.
  const tiles = (dtype: 'u16' | 'u32', big: number) => ({
    a: { dtype, rows: 2, cols: 16, valid: [2, 2] as [number, number], data: [big, 7, ...Array(14).fill(0), 1, 9] },
    b: { dtype, rows: 2, cols: 16, valid: [2, 1] as [number, number], data: [1, ...Array(15).fill(0), 3] },
    d: { dtype, rows: 2, cols: 16, valid: [2, 2] as [number, number] },
  });
  const rows = (d: unknown[]) => [d.slice(0, 2), d.slice(16, 18)];

  test('A5 (pto-isa npu/a5 TPartMax/TPartAdd take them): unsigned max, wrapping add', () => {
    const max = runValues('pto.tpartmax ins(%a, %b : T(a), T(b)) outs(%d : T(d))', tiles('u16', 65535), 'npu');
    expect(rows(max.d)).toEqual([
      [65535, 7],
      [3, 9],
    ]);
    const add = runValues('pto.tpartadd ins(%a, %b : T(a), T(b)) outs(%d : T(d))', tiles('u32', 2 ** 32 - 2), 'npu');
    expect(rows(add.d)).toEqual([
      [2 ** 32 - 1, 7],
      [4, 9],
    ]);
  });

  test("A2/A3 verifies them but pto-isa's A2/A3 TPART* static_asserts signed types: a trap", () => {
    expect(() => runValues('pto.tpartmax ins(%a, %b : T(a), T(b)) outs(%d : T(d))', tiles('u16', 65535), 'npu', 'a2a3')).toThrow(
      "pto.tpartmax: ui16 tiles on a2a3 are not implemented yet: PTOAS accepts it, but pto-isa's TPARTMAX static_asserts i16/i32/f16/f32 in its A2/A3 code (npu/a2a3)",
    );
  });

  test("the simulator's TPartCheck takes neither: a trap under cpu-sim on both targets", () => {
    for (const target of ['a2a3', 'a5'] as const) {
      expect(() => runValues('pto.tpartmul ins(%a, %b : T(a), T(b)) outs(%d : T(d))', tiles('u32', 5), 'cpu-sim', target)).toThrow(
        "pto.tpartmul: ui32 tiles under cpu-sim are not implemented yet: PTOAS accepts it, but pto-isa's TPARTMUL static_asserts i8/ui8/i16/i32/f16/bf16/f32 in its simulator's TPartCheck (cpu/TPartOp.hpp)",
      );
    }
  });
});
