/** Verifier rules of the expand and partial families beyond the tables (src/verify/checks/expand.ts). */
import { at, atOnLine, diagLines, kernel, run, tileBuf } from '../fixtures/verify/helpers';

const full = tileBuf({ dtype: 'f32', rows: 16, cols: 8 });
const dn = (vRow = 16, vCol = 1, cols = 1) => tileBuf({ dtype: 'f32', rows: 16, cols, vRow, vCol, blayout: 'col_major' });
function program(line: string, types: Record<string, string>): string {
  return kernel([...Object.entries(types).map(([n, t]) => `%${n} = pto.alloc_tile : ${t}`), line, 'return']);
}

test('trowexpandadd: a DN per-row operand needs one valid column; trowexpandsub checks no shapes (PTOAS TRowExpandSubOp::verify)', () => {
  const src1 = dn(16, 2, 2);
  const text = program(`pto.trowexpandadd ins(%a, %s : ${full}, ${src1}) outs(%d : ${full})`, { a: full, s: src1, d: full });
  const line = text.split('\n').findIndex((l) => l.includes('pto.trowexpandadd')) + 1;
  const col = text.split('\n')[line - 1].indexOf(src1) + 1;
  expect(diagLines(run(text, 'a5'))).toEqual([
    `${line}:${col}: error[E0508]: pto.trowexpandadd: src1, the per-row operand, is column-major: it needs 1 valid column, not 2`,
  ]);
  expect(diagLines(run(text.replace('pto.trowexpandadd', 'pto.trowexpandsub'), 'a5'))).toEqual([]);
});

describe('trowexpandmul/sub/div with a row-major 32x1 per-row operand (test/lit/tile_fusion): accepted without a tmp', () => {
  const wide = '!pto.tile_buf<vec, 32x32xf32>';
  const column = '!pto.tile_buf<vec, 32x1xf32>';
  const text = (op: string, tmp = '') =>
    [
      'module {',
      `  func.func @f(%a: ${wide}, %r: ${column}${tmp ? `, %t: ${tmp}` : ''}) {`,
      `    %d = pto.alloc_tile : ${wide}`,
      `    pto.${op} ins(%a, %r${tmp ? ', %t' : ''} : ${wide}, ${column}${tmp ? `, ${tmp}` : ''}) outs(%d : ${wide})`,
      '    return',
      '  }',
      '}',
      '',
    ].join('\n');
  test.each(['trowexpandmul', 'trowexpandsub', 'trowexpanddiv'])('%s on a5 and a2a3', (op) => {
    expect(diagLines(run(text(op), 'a5'))).toEqual([]);
    expect(diagLines(run(text(op), 'a2a3'))).toEqual([]);
  });
  test('with a tmp on a2a3 the per-row operand must be DN (mode 1); a5 ignores the tmp', () => {
    const tmp = '!pto.tile_buf<vec, 4x256xf32>';
    expect(diagLines(run(text('trowexpandmul', tmp), 'a2a3'))).toEqual([
      `${at(text('trowexpandmul', tmp), column, 1)}: error[E0508]: pto.trowexpandmul: with a tmp tile on a2a3, src1, the per-row operand, must be column-major (DN) with 1 valid column`,
    ]);
    expect(diagLines(run(text('trowexpandmul', tmp), 'a5'))).toEqual([]);
  });
  test('trowexpandmax (verifyTRowExpandReduceLikeOp) still asks one 32-byte block of a row-major per-row operand', () => {
    const t = text('trowexpandmax');
    expect(diagLines(run(t, 'a5'))).toEqual([
      `${at(t, column, 1)}: error[E0508]: pto.trowexpandmax: src1, the per-row operand, is row-major: it needs 8 valid columns (one 32-byte block of f32), not 1`,
    ]);
  });
});

test('trowexpanddiv with tmp: a row-major block is an error on a2a3, accepted on a5 (the tmp contract is A2/A3 only)', () => {
  const block = tileBuf({ dtype: 'f32', rows: 16, cols: 8 });
  const narrow = tileBuf({ dtype: 'f32', rows: 16, cols: 16, vCol: 8 });
  const wide = tileBuf({ dtype: 'f32', rows: 16, cols: 16 });
  const text = program(`pto.trowexpanddiv ins(%a, %s, %t : ${wide}, ${narrow}, ${block}) outs(%d : ${wide})`, { a: wide, s: narrow, t: block, d: wide });
  expect(diagLines(run(text, 'a2a3'))).toEqual([
    `${at(text, narrow, 1)}: error[E0508]: pto.trowexpanddiv: with a tmp tile on a2a3, src1, the per-row operand, must be column-major (DN) with 1 valid column`,
  ]);
  expect(diagLines(run(text, 'a5'))).toEqual([]);
});

test('a2a3 trowexpand tmp: dst dtype, 256 bytes per 8 valid rows of dst (16 rows: 512 bytes)', () => {
  const small = tileBuf({ dtype: 'f32', rows: 1, cols: 64 });
  const text = program(`pto.trowexpandmax ins(%a, %s, %t : ${full}, ${dn()}, ${small}) outs(%d : ${full})`, { a: full, s: dn(), t: small, d: full });
  expect(diagLines(run(text, 'a2a3'))).toEqual([
    `${at(text, small, 1)}: error[E0508]: pto.trowexpandmax: tmp (1x64 f32) holds 256 bytes; broadcasting to 16 valid rows on a2a3 needs at least 512`,
  ]);
  const enough = tileBuf({ dtype: 'f32', rows: 1, cols: 128 });
  const ok = program(`pto.trowexpandmax ins(%a, %s, %t : ${full}, ${dn()}, ${enough}) outs(%d : ${full})`, { a: full, s: dn(), t: enough, d: full });
  expect(diagLines(run(ok, 'a2a3'))).toEqual([]);
});

test('trowexpanddiv with precisionType = high_precision needs a tmp', () => {
  const text = program(`pto.trowexpanddiv ins(%a, %s {precisionType = #pto<div_precision high_precision>} : ${full}, ${dn()}) outs(%d : ${full})`, {
    a: full,
    s: dn(),
    d: full,
  });
  expect(diagLines(run(text, 'a5'))).toEqual([
    `${at(text, 'pto.trowexpanddiv')}: error[E0508]: pto.trowexpanddiv: precisionType = high_precision needs a tmp tile`,
  ]);
});

test('a 0x0 dst is a no-op whatever the per-row operand; one empty dimension is an error', () => {
  const empty = tileBuf({ dtype: 'f32', rows: 16, cols: 8, vRow: 0, vCol: 0 });
  const emptySrc1 = dn(0, 0);
  const text = program(`pto.trowexpandmax ins(%a, %s : ${empty}, ${emptySrc1}) outs(%d : ${empty})`, { a: empty, s: emptySrc1, d: empty });
  expect(diagLines(run(text, 'a5'))).toEqual([]);
  const half = tileBuf({ dtype: 'f32', rows: 16, cols: 8, vRow: 16, vCol: 0 });
  const bad = program(`pto.trowexpandmax ins(%a, %s : ${half}, ${dn()}) outs(%d : ${half})`, { a: half, s: dn(), d: half });
  expect(diagLines(run(bad, 'a5'))).toEqual([
    `${atOnLine(bad, 'pto.trowexpandmax', half, 1)}: error[E0508]: pto.trowexpandmax: dst's valid region 16x0 must be non-empty in both dimensions (or 0x0, a no-op)`,
  ]);
});

test('tpartmax: on a2a3 one source must cover dst', () => {
  const a = tileBuf({ dtype: 'f32', rows: 16, cols: 8, vRow: 16, vCol: 4 });
  const b = tileBuf({ dtype: 'f32', rows: 16, cols: 8, vRow: 8, vCol: 8 });
  const text = program(`pto.tpartmax ins(%a, %b : ${a}, ${b}) outs(%d : ${full})`, { a, b, d: full });
  expect(diagLines(run(text, 'a2a3'))).toEqual([
    `${at(text, full, 1)}: error[E0508]: pto.tpartmax: the valid region of src0 (16x4) or src1 (8x8) must equal dst's (16x8)`,
  ]);
});

describe('tpartadd/max/min/mul on a5: each source need only fit inside dst (PTOAS verifyPartialValidPatternLoose)', () => {
  const tile = (vRow: number, vCol: number) => tileBuf({ dtype: 'f32', rows: 122, cols: 128, vRow, vCol });
  const [a, b, d] = [tile(104, 123), tile(122, 110), tile(122, 123)];
  test.each(['tpartadd', 'tpartmax', 'tpartmin', 'tpartmul'])('%s: src0 104x123, src1 122x110, dst 122x123', (name) => {
    const text = program(`pto.${name} ins(%a, %b : ${a}, ${b}) outs(%d : ${d})`, { a, b, d });
    expect(diagLines(run(text, 'a5'))).toEqual([]);
    expect(diagLines(run(text, 'a2a3'))).toEqual([
      `${at(text, d, 1)}: error[E0508]: pto.${name}: the valid region of src0 (104x123) or src1 (122x110) must equal dst's (122x123)`,
    ]);
  });
  test('a source larger than dst is still an error', () => {
    const big = tile(122, 124);
    const text = program(`pto.tpartmax ins(%a, %b : ${a}, ${big}) outs(%d : ${d})`, { a, b: big, d });
    expect(diagLines(run(text, 'a5'))).toHaveLength(1);
  });
  test('tpartargmax keeps the strict rule on a5', () => {
    const i = (vRow: number, vCol: number) => tileBuf({ dtype: 'i32', rows: 122, cols: 128, vRow, vCol });
    const [ai, bi, di] = [i(104, 123), i(122, 110), i(122, 123)];
    const text = program(`pto.tpartargmax ins(%a, %b, %ai, %bi : ${a}, ${b}, ${ai}, ${bi}) outs(%d, %di : ${d}, ${di})`, { a, b, ai, bi, d, di });
    expect(diagLines(run(text, 'a5'))).toEqual([
      `${at(text, d, 1)}: error[E0508]: pto.tpartargmax: the valid region of src0 (104x123) or src1 (122x110) must equal dst's (122x123)`,
    ]);
  });
});

describe('tpartmax/tpartmin: src0, src1 and dst have the same shape on both targets (PTOAS verifyPTOShapedBinarySameElemAndShape)', () => {
  // dst 16x8; src1 16x16 with dst's valid region, so only the physical shape differs.
  const wide = tileBuf({ dtype: 'f32', rows: 16, cols: 16, vRow: 16, vCol: 8 });
  const tall = tileBuf({ dtype: 'f32', rows: 32, cols: 8, vRow: 16, vCol: 8 });
  test.each(['tpartmax', 'tpartmin'])('%s: a wider src1 or a taller src0 is an error at the op', (name) => {
    const text = program(`pto.${name} ins(%a, %b : ${full}, ${wide}) outs(%d : ${full})`, { a: full, b: wide, d: full });
    for (const target of ['a2a3', 'a5'] as const) {
      expect(diagLines(run(text, target))).toEqual([
        `${atOnLine(text, `pto.${name}`, `pto.${name}`)}: error[E0506]: pto.${name}: src1 cols (16) must equal dst cols (8)`,
      ]);
    }
    const rows = program(`pto.${name} ins(%a, %b : ${tall}, ${full}) outs(%d : ${full})`, { a: tall, b: full, d: full });
    expect(diagLines(run(rows, 'a5'))).toEqual([
      `${atOnLine(rows, `pto.${name}`, `pto.${name}`)}: error[E0506]: pto.${name}: src0 rows (32) must equal dst rows (16)`,
    ]);
  });
  test.each(['tpartadd', 'tpartmul'])('%s checks no shape (PTOAS asks rank-2 tiles only): accepted', (name) => {
    const text = program(`pto.${name} ins(%a, %b : ${full}, ${wide}) outs(%d : ${full})`, { a: full, b: wide, d: full });
    expect(diagLines(run(text, 'a5'))).toEqual([]);
    expect(diagLines(run(text, 'a2a3'))).toEqual([]);
  });
});

describe('arg reductions: index-only or value and index', () => {
  const src = tileBuf({ dtype: 'f32', rows: 16, cols: 8 });
  const column = (dtype: string) => tileBuf({ dtype, rows: 16, cols: 1, blayout: 'col_major' });
  test('index only: dst must be i32/u32', () => {
    const d = column('f32');
    const text = program(`pto.trowargmax ins(%s, %t : ${src}, ${src}) outs(%d : ${d})`, { s: src, t: src, d });
    expect(diagLines(run(text, 'a5'))).toEqual([
      `${at(text, d, 1)}: error[E0508]: pto.trowargmax: dst is the index (i32 or ui32) unless a second destination dstIdx is given, got f32`,
    ]);
  });
  test("value and index: dst has src's type, dstIdx an index type", () => {
    const [v, i] = [column('f32'), column('i32')];
    const ok = program(`pto.trowargmax ins(%s, %t : ${src}, ${src}) outs(%v, %i : ${v}, ${i})`, { s: src, t: src, v, i });
    expect(diagLines(run(ok, 'a5'))).toEqual([]);
    const bad = column('i32');
    const text = program(`pto.trowargmax ins(%s, %t : ${src}, ${src}) outs(%v, %i : ${bad}, ${i})`, { s: src, t: src, v: bad, i });
    expect(diagLines(run(text, 'a5'))).toEqual([
      `${at(text, bad, 2)}: error[E0508]: pto.trowargmax: with dstIdx, dst holds the selected values: its element type must be src's (f32), got i32`,
    ]);
  });
});
