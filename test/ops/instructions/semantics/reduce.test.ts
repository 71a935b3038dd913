/**
 * The reductions added with the expand family (trowprod, tcolprod, tcolsum isBinary, tpairreducesum): expected
 * values are written out here as explicit Math.fround expressions in the order each profile documents.
 */
import { runValues } from './tile-kernel';

const f = Math.fround;
const e = 2 ** -24;

describe('tcolsum isBinary = true', () => {
  // Five rows of one column: x0 = 1, the others 2^-24 (half an ulp of 1, so each lone add to 1 rounds back to 1).
  const column = [1, e, e, e, e];
  const tiles = () => ({
    s: { dtype: 'f32' as const, rows: 5, cols: 8, valid: [5, 1] as [number, number], data: column.flatMap((x) => [x, 0, 0, 0, 0, 0, 0, 0]) },
    t: { dtype: 'f32' as const, rows: 3, cols: 8 },
    d: { dtype: 'f32' as const, rows: 1, cols: 8, valid: [1, 1] as [number, number] },
  });
  const line = 'pto.tcolsum ins(%s, %t {isBinary = true} : T(s), T(t)) outs(%d : T(d))';
  test('npu on a2a3: the A2/A3 pairwise order ((x0 + x1) + x4) + (x2 + x3)', () => {
    expect(runValues(line, tiles(), 'npu', 'a2a3').d[0]).toBe(f(f(f(1 + e) + e) + f(e + e)));
    expect(f(f(f(1 + e) + e) + f(e + e))).not.toBe(1); // the order is observable
  });
  test('cpu-sim: the simulator ignores isBinary and adds row after row from +0', () => {
    expect(runValues(line, tiles(), 'cpu-sim').d[0]).toBe(1);
  });
  test('npu on a5: the odd row joins the last pair, (x0 + x1) + (x4 + (x2 + x3))', () => {
    // x0 = 1 pairs with e (rounds to 1); x4 + (x2 + x3) = 3e survives, and 1 + 3e rounds to 1 + 2^-22 (A2/A3: 1 + 2^-23).
    expect(runValues(line, tiles(), 'npu', 'a5').d[0]).toBe(f(f(1 + e) + f(e + f(e + e))));
    expect(f(f(1 + e) + f(e + f(e + e)))).not.toBe(f(f(f(1 + e) + e) + f(e + e)));
  });
  test('npu on a5: one row is added to the zeroed accumulator, so -0 gives +0 (a2a3 keeps -0)', () => {
    const one = {
      s: { dtype: 'f32' as const, rows: 1, cols: 8, valid: [1, 1] as [number, number], data: [-0] },
      t: { dtype: 'f32' as const, rows: 1, cols: 8 },
      d: { dtype: 'f32' as const, rows: 1, cols: 8, valid: [1, 1] as [number, number] },
    };
    expect(Object.is(runValues(line, one, 'npu', 'a5').d[0], 0)).toBe(true);
    expect(Object.is(runValues(line, one, 'npu', 'a2a3').d[0], -0)).toBe(true);
  });
});

describe('trowsum f32 over more than one repeat (npu)', () => {
  // 72 valid columns: x0 = 1, x1 = 2^-24, x64 = -1, the rest 0. A2/A3's order folds repeat 2 into the lanes of
  // repeat 1 first (x0 + x64 = 0), then the pair tree: 0 + 2^-24 = 2^-24. A5's (pto-isa npu/a5/TRowReduce.hpp, and
  // PTOAS's template_trowsum): +0 + tree(x0..x63) = 1 + 2^-24, a tie that rounds to 1; then 1 + tree(x64..x71) = +0.
  const row = new Array<number>(72).fill(0);
  row[0] = 1;
  row[1] = e;
  row[64] = -1;
  const tiles = (data: number[], cols: number) => ({
    s: { dtype: 'f32' as const, rows: 1, cols: 128, valid: [1, cols] as [number, number], data },
    t: { dtype: 'f32' as const, rows: 1, cols: 128 },
    d: { dtype: 'f32' as const, rows: 8, cols: 1, valid: [1, 1] as [number, number], columnMajor: true },
  });
  const line = 'pto.trowsum ins(%s, %t : T(s), T(t)) outs(%d : T(d))';
  test('a5: each repeat reduced by its own tree and added to an accumulator from +0; a2a3: lanes folded first', () => {
    expect(Object.is(runValues(line, tiles(row, 72), 'npu', 'a5').d[0], 0)).toBe(true);
    expect(runValues(line, tiles(row, 72), 'npu', 'a2a3').d[0]).toBe(e);
  });
  test('a5: a row of -0 sums to +0 (the accumulator starts at +0); a2a3 keeps -0', () => {
    expect(Object.is(runValues(line, tiles([-0], 1), 'npu', 'a5').d[0], 0)).toBe(true);
    expect(Object.is(runValues(line, tiles([-0], 1), 'npu', 'a2a3').d[0], -0)).toBe(true);
  });
});

describe('trowprod', () => {
  const row = [1.5, 3, 1 + 2 ** -20, 7, 0.1, 2, 5, 11, 1.25, 1 / 3].map(f);
  const tiles = () => ({
    s: { dtype: 'f32' as const, rows: 1, cols: 16, valid: [1, 10] as [number, number], data: row },
    t: { dtype: 'f32' as const, rows: 1, cols: 16 },
    d: { dtype: 'f32' as const, rows: 8, cols: 1, valid: [1, 1] as [number, number], columnMajor: true },
  });
  const line = 'pto.trowprod ins(%s, %t : T(s), T(t)) outs(%d : T(d))';
  test('cpu-sim: in order, rounded to f32 after every multiply', () => {
    expect(runValues(line, tiles(), 'cpu-sim').d[0]).toBe(row.reduce((a, b) => f(a * b)));
  });
  test('npu: 8 lanes multiply columns k and k + 8, then the lanes are multiplied in order', () => {
    const lanes = [f(row[0] * row[8]), f(row[1] * row[9]), ...row.slice(2, 8)];
    expect(runValues(line, tiles(), 'npu').d[0]).toBe(lanes.reduce((a, b) => f(a * b)));
  });
  test('i32 products wrap', () => {
    const out = runValues(
      line,
      {
        s: { dtype: 'i32', rows: 1, cols: 8, valid: [1, 3], data: [65536, 65536, 3] },
        t: { dtype: 'i32', rows: 1, cols: 8 },
        d: { dtype: 'i32', rows: 8, cols: 1, valid: [1, 1], columnMajor: true },
      },
      'npu',
    );
    expect(out.d[0]).toBe(0);
  });
});

test('tcolprod multiplies row after row', () => {
  const out = runValues(
    'pto.tcolprod ins(%s : T(s)) outs(%d : T(d))',
    {
      s: { dtype: 'f32', rows: 3, cols: 8, valid: [3, 2], data: [0.1, 2, 0, 0, 0, 0, 0, 0, 0.2, -3, 0, 0, 0, 0, 0, 0, 0.3, 4].map(f) },
      d: { dtype: 'f32', rows: 1, cols: 8, valid: [1, 2], data: [9, 9, 9, 9, 9, 9, 9, 9] },
    },
    'cpu-sim',
  );
  expect(out.d).toEqual([f(f(f(0.1) * f(0.2)) * f(0.3)), -24, 9, 9, 9, 9, 9, 9]);
});

test('tpairreducesum: pairs in the lower half, 0 above; an odd last column pairs with 0 (cpu-sim)', () => {
  const out = runValues(
    'pto.tpairreducesum ins(%s : T(s)) outs(%d : T(d))',
    {
      s: { dtype: 'f32', rows: 1, cols: 8, valid: [1, 5], data: [1, 2, 3, 4, -0, 9, 9, 9] },
      d: { dtype: 'f32', rows: 1, cols: 8, valid: [1, 5], data: [7, 7, 7, 7, 7, 7, 7, 7] },
    },
    'cpu-sim',
  );
  expect(out.d.map((v) => (Object.is(v, -0) ? '-0' : v))).toEqual([3, 7, 0, 0, 0, 7, 7, 7]);
});

describe('arg reductions, value and index form (outs(%dst, %dstIdx))', () => {
  test('trowargmax: dst takes the first maximum, dstIdx its column', () => {
    const out = runValues(
      'pto.trowargmax ins(%s, %t : T(s), T(t)) outs(%v, %i : T(v), T(i))',
      {
        s: { dtype: 'f32', rows: 2, cols: 8, valid: [2, 5], data: [1, 9, 3, 9, 2, 100, 100, 100, -4, -0, 0, -3, -1] },
        t: { dtype: 'f32', rows: 2, cols: 8 },
        v: { dtype: 'f32', rows: 8, cols: 1, valid: [2, 1], columnMajor: true },
        i: { dtype: 'i32', rows: 8, cols: 1, valid: [2, 1], columnMajor: true },
      },
      'cpu-sim',
    );
    expect(out.v.slice(0, 2).map((x) => (Object.is(x, -0) ? '-0' : x))).toEqual([9, '-0']);
    expect(out.i.slice(0, 2)).toEqual([1, 1]);
  });
  test('tcolargmin: dst takes the minimum of each column, dstIdx its row', () => {
    const out = runValues(
      'pto.tcolargmin ins(%s, %t : T(s), T(t)) outs(%v, %i : T(v), T(i))',
      {
        s: { dtype: 'f32', rows: 3, cols: 8, valid: [3, 2], data: [5, 1, 0, 0, 0, 0, 0, 0, 2, 1, 0, 0, 0, 0, 0, 0, 7, -1] },
        t: { dtype: 'f32', rows: 3, cols: 8 },
        v: { dtype: 'f32', rows: 1, cols: 8, valid: [1, 2] },
        i: { dtype: 'i32', rows: 1, cols: 8, valid: [1, 2] },
      },
      'npu',
    );
    expect(out.v.slice(0, 2)).toEqual([2, -1]);
    expect(out.i.slice(0, 2)).toEqual([1, 2]);
  });
});
