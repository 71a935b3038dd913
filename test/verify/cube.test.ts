/** The cube instructions in the verifier (verify/checks/cube.ts and the tables): accumulator/input pairs and M/K/N. */
import { at, diagLines, kernel, run, tileBuf } from '../fixtures/verify/helpers';

const left = (dtype: string, rows: number, cols: number) => tileBuf({ loc: 'left', dtype, rows, cols, blayout: 'row_major', slayout: 'row_major' });
const right = (dtype: string, rows: number, cols: number) => tileBuf({ loc: 'right', dtype, rows, cols, blayout: 'row_major', slayout: 'col_major' });
const acc = (dtype: string, rows: number, cols: number) =>
  tileBuf({ loc: 'acc', dtype, rows, cols, blayout: 'col_major', slayout: 'row_major', fractal: 1024 });

function matmul(a: string, b: string, c: string, target: 'a2a3' | 'a5' = 'a5', op = 'tmatmul') {
  const text = kernel([
    `%a = pto.alloc_tile : ${a}`,
    `%b = pto.alloc_tile : ${b}`,
    `%c = pto.alloc_tile : ${c}`,
    `pto.${op} ins(%a, %b : ${a}, ${b}) outs(%c : ${c})`,
    'return',
  ]);
  return { text, lines: diagLines(run(text, target)) };
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

describe('A5 operand layouts (PTOAS verifyMatTileOperandsA5); A2/A3 checks none', () => {
  const tile = (loc: string, dtype: string, rows: number, cols: number, blayout: 'row_major' | 'col_major', slayout: 'row_major' | 'col_major') =>
    tileBuf({ loc, dtype, rows, cols, blayout, slayout, fractal: loc === 'acc' ? 1024 : 512 });
  const [a, b, c] = [left('f16', 16, 32), right('f16', 32, 16), acc('f32', 16, 16)];
  test.each([
    ['the right tile', a, tile('right', 'f16', 32, 16, 'row_major', 'row_major'), c, 'bMatrix must have blayout=row_major, slayout=col_major on a5'],
    ['the right tile', a, tile('right', 'f16', 32, 16, 'col_major', 'col_major'), c, 'bMatrix must have blayout=row_major, slayout=col_major on a5'],
    ['the accumulator', a, b, tile('acc', 'f32', 16, 16, 'row_major', 'row_major'), 'cMatrix must have blayout=col_major, slayout=row_major on a5'],
    ['the left tile', tile('left', 'f16', 16, 32, 'col_major', 'col_major'), b, c, 'aMatrix must have slayout=row_major on a5'],
  ])('tmatmul: %s in another layout is an error on a5, accepted on a2a3', (_what, lt, rt, ct, message) => {
    const bad = matmul(lt, rt, ct);
    const wrong = message.startsWith('aMatrix') ? lt : message.startsWith('bMatrix') ? rt : ct;
    // The type's second occurrence: the first is its alloc_tile.
    expect(bad.lines).toEqual([`${at(bad.text, wrong, 1)}: error[E0504]: pto.tmatmul: ${message}`]);
    expect(matmul(lt, rt, ct, 'a2a3').lines).toEqual([]);
  });
  test('a mat aMatrix is an error on both targets (PTOAS checks the locations before any back end), reported once', () => {
    // As in PTOAS's A5 tile-op suite (tload_mat, tstore_acc2gm), which it compiles with --pto-backend=vpto.
    const matA = tileBuf({ loc: 'mat', dtype: 'f16', rows: 16, cols: 32, blayout: 'col_major', slayout: 'row_major' });
    for (const target of ['a2a3', 'a5'] as const) {
      const r = matmul(matA, b, c, target);
      expect(r.lines).toEqual([`${at(r.text, matA, 1)}: error[E0503]: pto.tmatmul: aMatrix must be a left tile, not loc=mat`]);
    }
  });
  test('a left tile written blayout=row_major is accepted on a5: PTOAS parses every left tile as col_major there', () => {
    expect(matmul(left('f16', 16, 32), b, c).lines).toEqual([]);
    expect(matmul(tile('left', 'f16', 16, 32, 'col_major', 'row_major'), b, c).lines).toEqual([]);
  });
  test('tgemv on a5 too', () => {
    const gemvLeft = tileBuf({ loc: 'left', dtype: 'f16', rows: 16, cols: 32, vRow: 1, blayout: 'row_major', slayout: 'row_major' });
    const gemvAcc = tileBuf({ loc: 'acc', dtype: 'f32', rows: 16, cols: 16, vRow: 1, blayout: 'col_major', slayout: 'row_major', fractal: 1024 });
    const rowRight = tile('right', 'f16', 32, 16, 'row_major', 'row_major');
    const bad = matmul(gemvLeft, rowRight, gemvAcc, 'a5', 'tgemv');
    expect(bad.lines).toEqual([`${at(bad.text, rowRight, 1)}: error[E0504]: pto.tgemv: bMatrix must have blayout=row_major, slayout=col_major on a5`]);
    expect(matmul(gemvLeft, b, gemvAcc, 'a5', 'tgemv').lines).toEqual([]);
    expect(matmul(gemvLeft, rowRight, gemvAcc, 'a2a3', 'tgemv').lines).toEqual([]);
  });
});

describe('the MX forms take the same A5 layouts', () => {
  const t = (loc: string, dtype: string, rows: number, cols: number, blayout: 'row_major' | 'col_major', slayout: 'row_major' | 'col_major', fractal = 512) =>
    tileBuf({ loc, dtype, rows, cols, blayout, slayout, fractal });
  // M = 16 (1 for a gemv), K = 64, N = 16; one E8M0 scale per 32 of K.
  function mx(op: 'tmatmul.mx' | 'tgemv.mx', a: string, b: string) {
    const m = op === 'tgemv.mx' ? 1 : 16;
    const [as, bs, d] = [
      t('scaling', 'u8', m, 2, 'row_major', 'row_major', 32),
      t('scaling', 'u8', 2, 16, 'col_major', 'col_major', 32),
      t('acc', 'f32', m, 16, 'col_major', 'row_major', 1024),
    ];
    const text = kernel([
      ...[
        ['%a', a],
        ['%as', as],
        ['%b', b],
        ['%bs', bs],
        ['%d', d],
      ].map(([n, type]) => `${n} = pto.alloc_tile : ${type}`),
      `pto.${op} ins(%a, %as, %b, %bs : ${a}, ${as}, ${b}, ${bs}) outs(%d : ${d})`,
      'return',
    ]);
    return { text, lines: diagLines(run(text, 'a5')) };
  }
  const right = t('right', 'f8E4M3FN', 64, 16, 'row_major', 'col_major');
  test('tmatmul.mx: a right tile of another layout is an error', () => {
    const a = t('left', 'f8E4M3FN', 16, 64, 'col_major', 'row_major');
    expect(mx('tmatmul.mx', a, right).lines).toEqual([]);
    const wrong = t('right', 'f8E4M3FN', 64, 16, 'col_major', 'col_major');
    const bad = mx('tmatmul.mx', a, wrong);
    expect(bad.lines).toEqual([`${at(bad.text, wrong, 1)}: error[E0504]: pto.tmatmul.mx: b must have blayout=row_major, slayout=col_major on a5`]);
  });
  test('tgemv.mx: a left tile written blayout=row_major is accepted (PTOAS parses it as col_major)', () => {
    expect(mx('tgemv.mx', t('left', 'f8E4M3FN', 1, 64, 'row_major', 'row_major'), right).lines).toEqual([]);
  });
});
