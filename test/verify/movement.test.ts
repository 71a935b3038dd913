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
    expect(diags).toEqual([`${at(text, dst, 1)}: error[E0508]: pto.tfillpad: dst needs a pad value (pad=zero, max or min), not null`]);
  });

  test('tfillpad_expand needs dst at least as large as src', () => {
    const src = T('f32', 16, 8);
    const dst = T('f32', 8, 8, { pad: 1 });
    const { text, diags } = check([`%s = pto.alloc_tile : ${src}`, `%d = pto.alloc_tile : ${dst}`, `pto.tfillpad_expand ins(%s : ${src}) outs(%d : ${dst})`]);
    expect(diags).toEqual([`${at(text, 'pto.tfillpad_expand')}: error[E0506]: pto.tfillpad_expand: src rows (16) must not exceed dst rows (8)`]);
  });

  test("ttrans: dst's valid shape is free (the transpose size is src's valid region, and PTOAS puts no rule on dst)", () => {
    const src = T('f32', 16, 8);
    const dst = T('f32', 16, 8);
    const { diags } = check([`%s = pto.alloc_tile : ${src}`, `%d = pto.alloc_tile : ${dst}`, `pto.ttrans ins(%s : ${src}) outs(%d : ${dst})`]);
    expect(diags).toEqual([]);
  });

  test('tconcat: a5 needs dst valid cols = the sum; a2a3 only that it fits', () => {
    const s = T('f16', 4, 16, { vCol: 8 });
    const d = T('f16', 4, 32, { vCol: 20 });
    const lines = [
      `%a = pto.alloc_tile : ${s}`,
      `%b = pto.alloc_tile : ${s}`,
      `%d = pto.alloc_tile : ${d}`,
      `pto.tconcat ins(%a, %b : ${s}, ${s}) outs(%d : ${d})`,
    ];
    const a5 = check(lines, '', 'a5');
    expect(a5.diags).toEqual([
      `${at(a5.text, 'pto.tconcat')}: error[E0508]: pto.tconcat: dst valid cols (20) must equal src0 valid cols + src1 valid cols (8 + 8) on a5`,
    ]);
    expect(check(lines, '', 'a2a3').diags).toEqual([]);
  });

  test('tconcat: the index tiles come in pairs', () => {
    const s = T('f16', 4, 16);
    const d = T('f16', 4, 32);
    const i = T('i32', 4, 8, { vCol: 1 });
    const { text, diags } = check([
      `%a = pto.alloc_tile : ${s}`,
      `%b = pto.alloc_tile : ${s}`,
      `%d = pto.alloc_tile : ${d}`,
      `%i = pto.alloc_tile : ${i}`,
      `pto.tconcat ins(%a, %b, %i : ${s}, ${s}, ${i}) outs(%d : ${d})`,
    ]);
    expect(diags).toEqual([`${at(text, 'pto.tconcat')}: error[E0508]: pto.tconcat: takes both index tiles (src0Idx, src1Idx) or neither`]);
  });

  test('tinterleave needs even valid cols', () => {
    const t = T('f32', 4, 8, { vCol: 3 });
    const { text, diags } = check([
      ...['a', 'b', 'x', 'y'].map((n) => `%${n} = pto.alloc_tile : ${t}`),
      `pto.tinterleave ins(%a, %b : ${t}, ${t}) outs(%x, %y : ${t}, ${t})`,
    ]);
    expect(diags).toEqual([`${at(text, 'pto.tinterleave')}: error[E0508]: pto.tinterleave: valid cols (3) must be even`]);
  });

  test('tinterleave does not exist on a2a3', () => {
    const t = T('f32', 4, 8);
    const { text, diags } = check(
      [...['a', 'b', 'x', 'y'].map((n) => `%${n} = pto.alloc_tile : ${t}`), `pto.tinterleave ins(%a, %b : ${t}, ${t}) outs(%x, %y : ${t}, ${t})`],
      '',
      'a2a3',
    );
    expect(diags).toEqual([`${at(text, 'pto.tinterleave')}: error[E0508]: pto.tinterleave is not available on a2a3`]);
  });

  test('tdeinterleave, one source: dst cols are half of src cols', () => {
    const s = T('f32', 4, 16);
    const d = T('f32', 4, 16);
    const { text, diags } = check([
      `%s = pto.alloc_tile : ${s}`,
      `%x = pto.alloc_tile : ${d}`,
      `%y = pto.alloc_tile : ${d}`,
      `pto.tdeinterleave ins(%s : ${s}) outs(%x, %y : ${d}, ${d})`,
    ]);
    expect(diags).toEqual([
      `${at(text, 'pto.tdeinterleave')}: error[E0508]: pto.tdeinterleave: dst0 valid region (4x16) must be src0's (4x16) with half the cols`,
    ]);
  });

  test('textract: a window larger than the source, a float index, a cube direction', () => {
    const src = T('f32', 8, 8);
    const dst = T('f32', 16, 8);
    const { text, diags } = check(
      [`%s = pto.alloc_tile : ${src}`, `%d = pto.alloc_tile : ${dst}`, `pto.textract ins(%s, %r, %c : ${src}, index, f32) outs(%d : ${dst})`],
      '%r: index, %c: f32',
    );
    expect(diags).toEqual([
      `${at(text, 'pto.textract')}: error[E0506]: pto.textract: dst rows (16) must not exceed src rows (8)`,
      `${at(text, 'f32) outs')}: error[E0508]: pto.textract: indexCol must be an index or integer value, got f32`,
    ]);
  });

  test('textract Mat -> Left passes the verifier with a cube dtype and layout, not with others', () => {
    const mat = (dtype: string) => tileBuf({ loc: 'mat', dtype, rows: 16, cols: 16, blayout: 'col_major', slayout: 'row_major' });
    const left = (dtype: string) => tileBuf({ loc: 'left', dtype, rows: 16, cols: 16, blayout: 'row_major', slayout: 'row_major' });
    const program = (dtype: string) => [
      `%s = pto.alloc_tile : ${mat(dtype)}`,
      `%d = pto.alloc_tile : ${left(dtype)}`,
      `pto.textract ins(%s, %r, %r : ${mat(dtype)}, index, index) outs(%d : ${left(dtype)})`,
    ];
    const f16 = check(program('f16'), '%r: index');
    expect(f16.diags.filter((l) => l.includes('pto.textract'))).toEqual([]);
    const i16 = check(program('i16'), '%r: index');
    // PTOAS's lists: src may also be an i32 acc tile; both go on with A5's low-precision formats.
    expect(i16.diags.filter((l) => l.includes('pto.textract')).map((l) => l.replace(/^\S+ /, ''))).toEqual([
      'error[E0505]: pto.textract: src dtype i16 is not supported on a5 (allowed: i8, ui8, i32, f16, bf16, f32, f8E4M3FN, f8E5M2, !pto.hif8, !pto.f4E1M2x2, !pto.f4E2M1x2)',
      'error[E0505]: pto.textract: dst dtype i16 is not supported on a5 (allowed: i8, ui8, f16, bf16, f32, f8E4M3FN, f8E5M2, !pto.hif8, !pto.f4E1M2x2, !pto.f4E2M1x2)',
    ]);
  });

  test('tsubview needs one location; tprint of a mat tile only on a2a3', () => {
    const vec = T('f32', 8, 8);
    const acc = tileBuf({ loc: 'acc', dtype: 'f32', rows: 16, cols: 16, blayout: 'col_major', slayout: 'row_major', fractal: 1024 });
    const sub = check(
      [`%s = pto.alloc_tile : ${acc}`, `%d = pto.alloc_tile : ${vec}`, `pto.tsubview ins(%s, %r, %r : ${acc}, index, index) outs(%d : ${vec})`],
      '%r: index',
    );
    expect(sub.diags.some((l) => l.endsWith('error[E0508]: pto.tsubview: dst (loc=vec) and src (loc=acc) must be in the same location'))).toBe(true);
    const mat = tileBuf({ loc: 'mat', dtype: 'f32', rows: 16, cols: 16, blayout: 'col_major', slayout: 'row_major' });
    const view = '!pto.partition_tensor_view<16x16xf32>';
    const lines = [`%m = pto.alloc_tile : ${mat}`, `pto.tprint ins(%m, %g : ${mat}, ${view})`];
    const a5 = check(lines, `%g: ${view}`, 'a5');
    expect(a5.diags).toEqual([`${at(a5.text, mat, 1)}: error[E0508]: pto.tprint: printing a mat tile is not supported on a5`]);
    expect(check(lines, `%g: ${view}`, 'a2a3').diags).toEqual([]);
  });

  test('tprint of a mat or acc tile needs a global scratch of rows x cols elements', () => {
    const mat = tileBuf({ loc: 'mat', dtype: 'f32', rows: 16, cols: 16, blayout: 'col_major', slayout: 'row_major' });
    const bare = check([`%m = pto.alloc_tile : ${mat}`, `pto.tprint ins(%m : ${mat})`], '', 'a2a3');
    expect(bare.diags).toEqual([
      `${at(bare.text, mat, 1)}: error[E0508]: pto.tprint: printing a mat tile needs a global scratch: ins(%src, %tmp : T, !pto.partition_tensor_view<...>)`,
    ]);
    const small = '!pto.partition_tensor_view<8x16xf32>';
    const short = check([`%m = pto.alloc_tile : ${mat}`, `pto.tprint ins(%m, %g : ${mat}, ${small})`], `%g: ${small}`, 'a2a3');
    expect(short.diags).toEqual([`${at(short.text, small, 1)}: error[E0508]: pto.tprint: tmp holds 128 elements; printing a 16x16 tile needs at least 256`]);
  });

  test('a window at static positions must lie inside the tile it reads or writes', () => {
    const src = T('f32', 8, 16);
    const dst = T('f32', 4, 8);
    const consts = ['%c0 = arith.constant 0 : index', '%c4 = arith.constant 4 : index', '%c5 = arith.constant 5 : index', '%c9 = arith.constant 9 : index'];
    const allocs = [`%s = pto.alloc_tile : ${src}`, `%d = pto.alloc_tile : ${dst}`];
    const ok = check([...consts, ...allocs, `pto.textract ins(%s, %c4, %c0 : ${src}, index, index) outs(%d : ${dst})`]);
    expect(ok.diags).toEqual([]);
    const rows = check([...consts, ...allocs, `pto.textract ins(%s, %c5, %c0 : ${src}, index, index) outs(%d : ${dst})`]);
    expect(rows.diags).toEqual([`${at(rows.text, 'index, index')}: error[E0508]: pto.textract: the 4x8 window at (5, 0) leaves src's 8x16`]);
    const cols = check([...consts, ...allocs, `pto.tinsert ins(%d, %c0, %c9 : ${dst}, index, index) outs(%s : ${src})`]);
    expect(cols.diags).toEqual([`${at(cols.text, 'index, index')}: error[E0508]: pto.tinsert: the 4x8 window at (0, 9) leaves dst's 8x16`]);
    const view = check([...consts, ...allocs, `pto.tsubview ins(%s, %c5, %c9 : ${src}, index, index) outs(%d : ${dst})`]);
    expect(view.diags).toEqual([`${at(view.text, 'index, index')}: error[E0508]: pto.tsubview: the 4x8 window at (5, 9) leaves src's 8x16`]);
  });
});

describe('the fixpipe: relu, pre_quant, tmov.fp, tstore_fp', () => {
  const ACC = (dtype: string) => T(dtype, 16, 16, { loc: 'acc', blayout: 'col_major', slayout: 'row_major', fractal: 1024 });
  const MAT = (dtype: string) => T(dtype, 16, 32, { loc: 'mat', vCol: 16, blayout: 'col_major', slayout: 'row_major' });
  const VEC = (dtype: string) => T(dtype, 16, 32, { vCol: 16 });
  const FP = (dtype = 'u64', vCol = 16) => T(dtype, 1, 16, { loc: 'scaling', vCol });
  const allocs = (pairs: [string, string][]) => pairs.map(([n, t]) => `${n} = pto.alloc_tile : ${t}`);
  const view = (elem: string) => [
    '%c0 = arith.constant 0 : index',
    '%c1 = arith.constant 1 : index',
    '%c16 = arith.constant 16 : index',
    `%tv = pto.make_tensor_view %p, shape = [%c16, %c16], strides = [%c16, %c1] : !pto.tensor_view<?x?x${elem}>`,
    `%pv = pto.partition_view %tv, offsets = [%c0, %c0], sizes = [%c16, %c16] : !pto.tensor_view<?x?x${elem}> -> !pto.partition_tensor_view<16x16x${elem}>`,
  ];
  const PV = (elem: string) => `!pto.partition_tensor_view<16x16x${elem}>`;

  test('tmov {relu, pre_quant} and tmov.fp from an accumulator are accepted on both targets (Mat on a2a3)', () => {
    for (const target of ['a2a3', 'a5'] as const) {
      const lines = [
        ...allocs([
          ['%a', ACC('i32')],
          ['%m', MAT('i8')],
          ['%s', FP()],
        ]),
        `pto.tmov ins(%a {relu = true, pre_quant = 0x400000003F800000} : ${ACC('i32')}) outs(%m : ${MAT('i8')})`,
        `pto.tmov.fp ins(%a, %s : ${ACC('i32')}, ${FP()}) outs(%m : ${MAT('i8')})`,
        `pto.tmov ins(%a {relu = true} : ${ACC('i32')}) outs(%m : ${MAT('i8')})`,
      ];
      expect(check(lines, '', target).diags).toEqual([]);
    }
  });

  test('relu and pre_quant need an Acc source', () => {
    const lines = [
      ...allocs([
        ['%v', VEC('f32')],
        ['%w', VEC('f32')],
      ]),
      `pto.tmov ins(%v {relu = true} : ${VEC('f32')}) outs(%w : ${VEC('f32')})`,
    ];
    const { text, diags } = check(lines);
    expect(diags).toEqual([
      `${at(text, 'pto.tmov ins')}: error[E0503]: pto.tmov: relu and the quant word apply to the fixpipe: src must be an acc tile, not loc=vec`,
    ]);
  });

  test('pre_quant is a 64-bit word', () => {
    const lines = [
      ...allocs([
        ['%a', ACC('f32')],
        ['%m', MAT('i8')],
      ]),
      `pto.tmov ins(%a {pre_quant = 0x10000000000000000} : ${ACC('f32')}) outs(%m : ${MAT('i8')})`,
    ];
    const { text, diags } = check(lines);
    expect(diags).toEqual([
      `${at(text, '0x1000')}: error[E0508]: pto.tmov: 'pre_quant' must be a 64-bit quant word in 0..0xFFFFFFFFFFFFFFFF, got 18446744073709551616`,
    ]);
  });

  test('quantised pairs per target: a2a3 moves f32 only to i8, a5 also to u8/f16/bf16/f32', () => {
    const lines = [
      ...allocs([
        ['%a', ACC('f32')],
        ['%m', MAT('u8')],
        ['%s', FP()],
      ]),
      `pto.tmov.fp ins(%a, %s : ${ACC('f32')}, ${FP()}) outs(%m : ${MAT('u8')})`,
    ];
    const { text, diags } = check(lines, '', 'a2a3');
    expect(diags).toEqual([
      `${at(text, MAT('u8'), 1)}: error[E0508]: pto.tmov.fp: quantising f32 to ui8 is not supported on a2a3 (f32 -> i8; i32 -> i8, ui8, f16, i16)`,
    ]);
    expect(check(lines, '', 'a5').diags).toEqual([]);
  });

  test('on a2a3 the fixpipe moves the accumulator to Mat, not Vec', () => {
    const lines = [
      ...allocs([
        ['%a', ACC('i32')],
        ['%v', VEC('i8')],
        ['%s', FP()],
      ]),
      `pto.tmov.fp ins(%a, %s : ${ACC('i32')}, ${FP()}) outs(%v : ${VEC('i8')})`,
    ];
    const { text, diags } = check(lines, '', 'a2a3');
    expect(diags).toEqual([`${at(text, VEC('i8'), 1)}: error[E0508]: pto.tmov.fp: on a2a3 the fixpipe moves the accumulator to a mat tile, not loc=vec`]);
    expect(check(lines, '', 'a5').diags).toEqual([]);
  });

  test('fp holds 64-bit words, one valid col per quantised col', () => {
    const narrow = FP('u64', 8);
    const lines = [
      ...allocs([
        ['%a', ACC('i32')],
        ['%v', VEC('i8')],
        ['%s', narrow],
        ['%f', FP('f32')],
      ]),
      `pto.tmov.fp ins(%a, %s : ${ACC('i32')}, ${narrow}) outs(%v : ${VEC('i8')})`,
      `pto.tmov.fp ins(%a, %f : ${ACC('i32')}, ${FP('f32')}) outs(%v : ${VEC('i8')})`,
    ];
    const { text, diags } = check(lines);
    expect(diags).toEqual([
      `${at(text, narrow, 1)}: error[E0508]: pto.tmov.fp: fp has 8 valid cols, but dst has 16: one quant word per col`,
      `${at(text, FP('f32'), 1)}: error[E0508]: pto.tmov.fp: fp holds 64-bit quant words (ui64 or i64), not f32`,
    ]);
  });

  test('tstore {pre_quant} and tstore_fp follow the ACC-to-GM table: i32 -> f16 yes, f32 -> f16 only on a5', () => {
    const ok = [
      ...view('f16'),
      ...allocs([
        ['%a', ACC('i32')],
        ['%s', FP()],
      ]),
      `pto.tstore_fp ins(%a, %s : ${ACC('i32')}, ${FP()}) outs(%pv : ${PV('f16')})`,
    ];
    expect(check(ok, '%p: !pto.ptr<f16>', 'a2a3').diags).toEqual([]);
    const f32 = [...view('f16'), ...allocs([['%a', ACC('f32')]]), `pto.tstore ins(%a {pre_quant = 0x3F800000} : ${ACC('f32')}) outs(%pv : ${PV('f16')})`];
    const { text, diags } = check(f32, '%p: !pto.ptr<f16>', 'a2a3');
    expect(diags).toEqual([
      `${at(text, PV('f16'), 1)}: error[E0508]: pto.tstore: quantising f32 to f16 is not supported on a2a3 (f32 -> i8, ui8; i32 -> i8, ui8, f16)`,
    ]);
    expect(check(f32, '%p: !pto.ptr<f16>', 'a5').diags).toEqual([]);
  });

  test('without a quant word a tstore from Acc writes i32, f32, f16 or bf16 (PTOAS)', () => {
    const lines = [...view('i8'), ...allocs([['%a', ACC('i32')]]), `pto.tstore ins(%a {relu = true} : ${ACC('i32')}) outs(%pv : ${PV('i8')})`];
    const { text, diags } = check(lines, '%p: !pto.ptr<i8>');
    expect(diags).toEqual([`${at(text, PV('i8'), 1)}: error[E0505]: pto.tstore: an acc tile is stored as i32, f32, f16 or bf16 without a quant word, not i8`]);
  });
});

describe("tmov with fp (today's spelling of tmov.fp)", () => {
  const vec = '!pto.tile_buf<vec, 16x16xf16>';
  const fp = '!pto.tile_buf<scaling, 1x16xui64, blayout=row_major, slayout=row_major, fractal=32>';
  test('fp quantises a move out of the accumulator only', () => {
    const text = kernel([
      `%s = pto.alloc_tile : ${vec}`,
      `%d = pto.alloc_tile : ${vec}`,
      `%fp = pto.alloc_tile : ${fp}`,
      `pto.tmov ins(%s, %fp : ${vec}, ${fp}) outs(%d : ${vec})`,
      'return',
    ]);
    expect(diagLines(run(text, 'a5'))).toEqual([`${at(text, fp, 1)}: error[E0503]: pto.tmov: fp quantises a move out of the accumulator; src is a vec tile`]);
  });
});
