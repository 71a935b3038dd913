/**
 * The data-movement family in the verifier: the rules of verify/checks/movement.ts (dtype acceptance is
 * instructions.test.ts's, over the builders of test/fixtures/verify/cases/movement.ts).
 */
import { at, diagLines, kernel, run, tileBuf } from '../fixtures/verify/helpers';

const T = (dtype: string, rows: number, cols: number, extra: Record<string, unknown> = {}) => tileBuf({ dtype, rows, cols, ...extra });

function check(lines: string[], args = '', target: 'a2a3' | 'a5' = 'a5') {
  const text = kernel([...lines, 'return'], args);
  return { text, diags: diagLines(run(text, target)) };
}

describe('rules beyond the tables', () => {
  test('tfillpad needs a pad value on dst', () => {
    const src = T('f32', 8, 8, { vRow: 4 });
    const dst = T('f32', 8, 8);
    const { text, diags } = check([`%s = pto.alloc_tile : ${src}`, `%d = pto.alloc_tile : ${dst}`, `pto.tfillpad ins(%s : ${src}) outs(%d : ${dst})`]);
    expect(diags).toEqual([`${at(text, dst, 1)}: error: pto.tfillpad: dst needs a pad value (pad=zero, max or min), not null`]);
  });

  test('tfillpad_expand needs dst at least as large as src', () => {
    const src = T('f32', 16, 8);
    const dst = T('f32', 8, 8, { pad: 1 });
    const { text, diags } = check([`%s = pto.alloc_tile : ${src}`, `%d = pto.alloc_tile : ${dst}`, `pto.tfillpad_expand ins(%s : ${src}) outs(%d : ${dst})`]);
    expect(diags).toEqual([`${at(text, 'pto.tfillpad_expand')}: error: pto.tfillpad_expand: src rows (16) must not exceed dst rows (8)`]);
  });

  test('ttrans: dst valid region must mirror src', () => {
    const src = T('f32', 16, 8);
    const dst = T('f32', 16, 8);
    const { text, diags } = check([`%s = pto.alloc_tile : ${src}`, `%d = pto.alloc_tile : ${dst}`, `pto.ttrans ins(%s : ${src}) outs(%d : ${dst})`]);
    const p = at(text, 'pto.ttrans');
    expect(diags).toEqual([`${p}: error: pto.ttrans: dst valid rows (16) must equal src valid cols (8)`, `${p}: error: pto.ttrans: dst valid cols (8) must equal src valid rows (16)`]);
  });

  test('tconcat: a5 needs dst valid cols = the sum; a2a3 only that it fits', () => {
    const s = T('f16', 4, 16, { vCol: 8 });
    const d = T('f16', 4, 32, { vCol: 20 });
    const lines = [`%a = pto.alloc_tile : ${s}`, `%b = pto.alloc_tile : ${s}`, `%d = pto.alloc_tile : ${d}`, `pto.tconcat ins(%a, %b : ${s}, ${s}) outs(%d : ${d})`];
    const a5 = check(lines, '', 'a5');
    expect(a5.diags).toEqual([`${at(a5.text, 'pto.tconcat')}: error: pto.tconcat: dst valid cols (20) must equal src0 valid cols + src1 valid cols (8 + 8) on a5`]);
    expect(check(lines, '', 'a2a3').diags).toEqual([]);
  });

  test('tconcat: the index tiles come in pairs', () => {
    const s = T('f16', 4, 16);
    const d = T('f16', 4, 32);
    const i = T('i32', 4, 8, { vCol: 1 });
    const { text, diags } = check([`%a = pto.alloc_tile : ${s}`, `%b = pto.alloc_tile : ${s}`, `%d = pto.alloc_tile : ${d}`, `%i = pto.alloc_tile : ${i}`, `pto.tconcat ins(%a, %b, %i : ${s}, ${s}, ${i}) outs(%d : ${d})`]);
    expect(diags).toEqual([`${at(text, 'pto.tconcat')}: error: pto.tconcat: takes both index tiles (src0Idx, src1Idx) or neither`]);
  });

  test('tinterleave needs even valid cols', () => {
    const t = T('f32', 4, 8, { vCol: 3 });
    const { text, diags } = check([...['a', 'b', 'x', 'y'].map((n) => `%${n} = pto.alloc_tile : ${t}`), `pto.tinterleave ins(%a, %b : ${t}, ${t}) outs(%x, %y : ${t}, ${t})`]);
    expect(diags).toEqual([`${at(text, 'pto.tinterleave')}: error: pto.tinterleave: valid cols (3) must be even`]);
  });

  test('tinterleave does not exist on a2a3', () => {
    const t = T('f32', 4, 8);
    const { text, diags } = check([...['a', 'b', 'x', 'y'].map((n) => `%${n} = pto.alloc_tile : ${t}`), `pto.tinterleave ins(%a, %b : ${t}, ${t}) outs(%x, %y : ${t}, ${t})`], '', 'a2a3');
    expect(diags).toEqual([`${at(text, 'pto.tinterleave')}: error: pto.tinterleave is not available on a2a3`]);
  });

  test('tdeinterleave, one source: dst cols are half of src cols', () => {
    const s = T('f32', 4, 16);
    const d = T('f32', 4, 16);
    const { text, diags } = check([`%s = pto.alloc_tile : ${s}`, `%x = pto.alloc_tile : ${d}`, `%y = pto.alloc_tile : ${d}`, `pto.tdeinterleave ins(%s : ${s}) outs(%x, %y : ${d}, ${d})`]);
    expect(diags).toEqual([`${at(text, 'pto.tdeinterleave')}: error: pto.tdeinterleave: dst0 valid region (4x16) must be src0's (4x16) with half the cols`]);
  });

  test('textract: a window larger than the source, a float index, a cube direction', () => {
    const src = T('f32', 8, 8);
    const dst = T('f32', 16, 8);
    const { text, diags } = check([`%s = pto.alloc_tile : ${src}`, `%d = pto.alloc_tile : ${dst}`, `pto.textract ins(%s, %r, %c : ${src}, index, f32) outs(%d : ${dst})`], '%r: index, %c: f32');
    expect(diags).toEqual([
      `${at(text, 'pto.textract')}: error: pto.textract: dst rows (16) must not exceed src rows (8)`,
      `${at(text, 'f32) outs')}: error: pto.textract: indexCol must be an index or integer value, got f32`,
    ]);
  });

  test('textract Mat -> Left passes the verifier with a cube dtype and layout, not with others', () => {
    const mat = (dtype: string) => tileBuf({ loc: 'mat', dtype, rows: 16, cols: 16, blayout: 'col_major', slayout: 'row_major' });
    const left = (dtype: string) => tileBuf({ loc: 'left', dtype, rows: 16, cols: 16, blayout: 'row_major', slayout: 'row_major' });
    const program = (dtype: string) => [`%s = pto.alloc_tile : ${mat(dtype)}`, `%d = pto.alloc_tile : ${left(dtype)}`, `pto.textract ins(%s, %r, %r : ${mat(dtype)}, index, index) outs(%d : ${left(dtype)})`];
    const f16 = check(program('f16'), '%r: index');
    expect(f16.diags.filter((l) => l.includes('pto.textract'))).toEqual([]);
    const i16 = check(program('i16'), '%r: index');
    expect(i16.diags.filter((l) => l.includes('pto.textract: src'))).toEqual([]);
    expect(i16.diags.some((l) => l.includes('Mat -> left extraction takes i8, f16, bf16, f32, not i16'))).toBe(true);
  });

  test('tsubview needs one location; tprint of a mat tile only on a2a3', () => {
    const vec = T('f32', 8, 8);
    const acc = tileBuf({ loc: 'acc', dtype: 'f32', rows: 16, cols: 16, blayout: 'col_major', slayout: 'row_major', fractal: 1024 });
    const sub = check([`%s = pto.alloc_tile : ${acc}`, `%d = pto.alloc_tile : ${vec}`, `pto.tsubview ins(%s, %r, %r : ${acc}, index, index) outs(%d : ${vec})`], '%r: index');
    expect(sub.diags.some((l) => l.endsWith('error: pto.tsubview: dst (loc=vec) and src (loc=acc) must be in the same location'))).toBe(true);
    const mat = tileBuf({ loc: 'mat', dtype: 'f32', rows: 16, cols: 16, blayout: 'col_major', slayout: 'row_major' });
    const lines = [`%m = pto.alloc_tile : ${mat}`, `pto.tprint ins(%m : ${mat})`];
    const a5 = check(lines, '', 'a5');
    expect(a5.diags).toEqual([`${at(a5.text, mat, 1)}: error: pto.tprint: printing a mat tile is not supported on a5`]);
    expect(check(lines, '', 'a2a3').diags).toEqual([]);
  });

  test('a window at static positions must lie inside the tile it reads or writes', () => {
    const src = T('f32', 8, 16);
    const dst = T('f32', 4, 8);
    const consts = ['%c0 = arith.constant 0 : index', '%c4 = arith.constant 4 : index', '%c5 = arith.constant 5 : index', '%c9 = arith.constant 9 : index'];
    const allocs = [`%s = pto.alloc_tile : ${src}`, `%d = pto.alloc_tile : ${dst}`];
    const ok = check([...consts, ...allocs, `pto.textract ins(%s, %c4, %c0 : ${src}, index, index) outs(%d : ${dst})`]);
    expect(ok.diags).toEqual([]);
    const rows = check([...consts, ...allocs, `pto.textract ins(%s, %c5, %c0 : ${src}, index, index) outs(%d : ${dst})`]);
    expect(rows.diags).toEqual([`${at(rows.text, 'index, index')}: error: pto.textract: the 4x8 window at (5, 0) leaves src's 8x16`]);
    const cols = check([...consts, ...allocs, `pto.tinsert ins(%d, %c0, %c9 : ${dst}, index, index) outs(%s : ${src})`]);
    expect(cols.diags).toEqual([`${at(cols.text, 'index, index')}: error: pto.tinsert: the 4x8 window at (0, 9) leaves dst's 8x16`]);
    const view = check([...consts, ...allocs, `pto.tsubview ins(%s, %c5, %c9 : ${src}, index, index) outs(%d : ${dst})`]);
    expect(view.diags).toEqual([`${at(view.text, 'index, index')}: error: pto.tsubview: the 4x8 window at (5, 9) leaves src's 8x16`]);
  });
});

