/** Partial elementwise ops (spec/instructions/partial.json): the manual's cases, computed here by hand. */
import { runValues } from './tile-kernel';

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

test('a pattern where no source covers dst is an error', () => {
  expect(() =>
    runValues(
      'pto.tpartmax ins(%a, %b : T(a), T(b)) outs(%d : T(d))',
      {
        a: { dtype: 'f32', rows: 2, cols: 8, valid: [2, 3] },
        b: { dtype: 'f32', rows: 2, cols: 8, valid: [1, 4] },
        d: { dtype: 'f32', rows: 2, cols: 8, valid: [2, 4] },
      },
      'npu',
    ),
  ).toThrow(/must equal dst/);
});
