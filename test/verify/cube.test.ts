/** The cube instructions in the verifier (verify/checks/cube.ts and the tables): accumulator/input pairs and M/K/N. */
import { at, diagLines, kernel, run, tileBuf } from '../fixtures/verify/helpers';

const left = (dtype: string, rows: number, cols: number) => tileBuf({ loc: 'left', dtype, rows, cols, blayout: 'row_major', slayout: 'row_major' });
const right = (dtype: string, rows: number, cols: number) => tileBuf({ loc: 'right', dtype, rows, cols, blayout: 'row_major', slayout: 'col_major' });
const acc = (dtype: string, rows: number, cols: number) =>
  tileBuf({ loc: 'acc', dtype, rows, cols, blayout: 'col_major', slayout: 'row_major', fractal: 1024 });

function matmul(a: string, b: string, c: string) {
  const text = kernel([
    `%a = pto.alloc_tile : ${a}`,
    `%b = pto.alloc_tile : ${b}`,
    `%c = pto.alloc_tile : ${c}`,
    `pto.tmatmul ins(%a, %b : ${a}, ${b}) outs(%c : ${c})`,
    'return',
  ]);
  return { text, lines: diagLines(run(text, 'a5')) };
}

test('f16 x f16 into f32 and i8 x i8 into i32 verify', () => {
  expect(matmul(left('f16', 16, 32), right('f16', 32, 16), acc('f32', 16, 16)).lines).toEqual([]);
  expect(matmul(left('i8', 16, 32), right('i8', 32, 16), acc('i32', 16, 16)).lines).toEqual([]);
});

test('an i32 accumulator takes i8 inputs only, and both inputs share a type', () => {
  const wrongAcc = matmul(left('f16', 16, 32), right('f16', 32, 16), acc('i32', 16, 16));
  expect(wrongAcc.lines).toEqual([`${at(wrongAcc.text, acc('i32', 16, 16), 1)}: error[E0508]: pto.tmatmul: an i32 accumulator takes i8 inputs, not f16`]);
  const mixed = matmul(left('f16', 16, 32), right('bf16', 32, 16), acc('f32', 16, 16));
  expect(mixed.lines).toEqual([
    `${at(mixed.text, right('bf16', 32, 16), 1)}: error[E0508]: pto.tmatmul: aMatrix (f16) and bMatrix (bf16) must have the same element type`,
  ]);
});

test('K must agree between the inputs, M and N with the accumulator', () => {
  const { text, lines } = matmul(left('f16', 16, 32), right('f16', 16, 16), acc('f32', 32, 16));
  expect(lines).toEqual([
    `${at(text, 'pto.tmatmul')}: error[E0506]: pto.tmatmul: the tiles must be aMatrix [M, K], bMatrix [K, N], cMatrix [M, N] (valid extents where static, else the tile's): got 16x32, 16x16, 32x16`,
  ]);
});

// PTOAS compares each tile's logical shape: its valid extent where static, its physical extent where dynamic.
const dynamicRows = (t: {
  loc: string;
  dtype: string;
  rows: number;
  cols: number;
  blayout: 'row_major' | 'col_major';
  slayout: 'row_major' | 'col_major';
  fractal?: number;
}) => tileBuf({ ...t, vRow: '?' });

test('a dynamic valid extent counts as the physical one: 16-row tiles with dynamic rows agree, a static 8 against them does not', () => {
  const a = dynamicRows({ loc: 'left', dtype: 'f16', rows: 16, cols: 32, blayout: 'row_major', slayout: 'row_major' });
  const b = right('f16', 32, 16);
  const c = dynamicRows({ loc: 'acc', dtype: 'f32', rows: 16, cols: 16, blayout: 'col_major', slayout: 'row_major', fractal: 1024 });
  const body = (cType: string) => [
    '%r = arith.constant 8 : index',
    `%a = pto.alloc_tile valid_row = %r : ${a}`,
    `%b = pto.alloc_tile : ${b}`,
    cType === c ? `%c = pto.alloc_tile valid_row = %r : ${c}` : `%c = pto.alloc_tile : ${cType}`,
    `pto.tmatmul ins(%a, %b : ${a}, ${b}) outs(%c : ${cType})`,
    'return',
  ];
  expect(diagLines(run(kernel(body(c)), 'a5'))).toEqual([]);
  const staticEight = tileBuf({ loc: 'acc', dtype: 'f32', rows: 16, cols: 16, vRow: 8, blayout: 'col_major', slayout: 'row_major', fractal: 1024 });
  const text = kernel(body(staticEight));
  expect(diagLines(run(text, 'a5'))).toEqual([
    `${at(text, 'pto.tmatmul')}: error[E0506]: pto.tmatmul: the tiles must be aMatrix [M, K], bMatrix [K, N], cMatrix [M, N] (valid extents where static, else the tile's): got 16x32, 32x16, 8x16`,
  ]);
});
