/** Verifier rules of the expand and partial families beyond the tables (src/verify/checks/expand.ts). */
import { at, diagLines, kernel, run, tileBuf } from '../fixtures/verify/helpers';

const full = tileBuf({ dtype: 'f32', rows: 16, cols: 8 });
const dn = (vRow = 16, vCol = 1, cols = 1) => tileBuf({ dtype: 'f32', rows: 16, cols, vRow, vCol, blayout: 'col_major' });
function program(line: string, types: Record<string, string>): string {
  return kernel([...Object.entries(types).map(([n, t]) => `%${n} = pto.alloc_tile : ${t}`), line, 'return']);
}

test('trowexpandsub: a DN per-row operand needs one valid column', () => {
  const src1 = dn(16, 2, 2);
  const text = program(`pto.trowexpandsub ins(%a, %s : ${full}, ${src1}) outs(%d : ${full})`, { a: full, s: src1, d: full });
  const line = text.split('\n').findIndex((l) => l.includes('pto.trowexpandsub')) + 1;
  const col = text.split('\n')[line - 1].indexOf(src1) + 1;
  expect(diagLines(run(text, 'a5'))).toEqual([
    `${line}:${col}: error[E0508]: pto.trowexpandsub: src1, the per-row operand, is column-major: it needs 1 valid column, not 2`,
  ]);
});

test('trowexpanddiv with tmp: a row-major block is not allowed', () => {
  const block = tileBuf({ dtype: 'f32', rows: 16, cols: 8 });
  const narrow = tileBuf({ dtype: 'f32', rows: 16, cols: 16, vCol: 8 });
  const wide = tileBuf({ dtype: 'f32', rows: 16, cols: 16 });
  const text = program(`pto.trowexpanddiv ins(%a, %s, %t : ${wide}, ${narrow}, ${block}) outs(%d : ${wide})`, { a: wide, s: narrow, t: block, d: wide });
  expect(diagLines(run(text, 'a5'))).toEqual([
    `${at(text, narrow, 1)}: error[E0508]: pto.trowexpanddiv: with a tmp tile, src1, the per-row operand, must be column-major (DN) with 1 valid column`,
  ]);
});

test('tpartmax: one source must cover dst', () => {
  const a = tileBuf({ dtype: 'f32', rows: 16, cols: 8, vRow: 16, vCol: 4 });
  const b = tileBuf({ dtype: 'f32', rows: 16, cols: 8, vRow: 8, vCol: 8 });
  const text = program(`pto.tpartmax ins(%a, %b : ${a}, ${b}) outs(%d : ${full})`, { a, b, d: full });
  expect(diagLines(run(text, 'a5'))).toEqual([
    `${at(text, full, 1)}: error[E0508]: pto.tpartmax: the valid region of src0 (16x4) or src1 (8x8) must equal dst's (16x8)`,
  ]);
});

test('tpartargmax: an f32 value needs a 32-bit index', () => {
  const i16 = tileBuf({ dtype: 'i16', rows: 16, cols: 16, vCol: 8 });
  const text = program(`pto.tpartargmax ins(%a, %b, %ai, %bi : ${full}, ${full}, ${i16}, ${i16}) outs(%d, %di : ${full}, ${i16})`, {
    a: full,
    b: full,
    ai: i16,
    bi: i16,
    d: full,
    di: i16,
  });
  expect(diagLines(run(text, 'a5'))).toEqual([`${at(text, i16, 5)}: error[E0508]: pto.tpartargmax: an f32 value needs a 32-bit index (i32 or ui32), not i16`]);
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
