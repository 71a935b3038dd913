/**
 * The cube-side movement rules of PTOAS's verifiers (TExtractOp, TInsertOp, TStoreOp, TLoadOp): location pairs per
 * target, the fixpipe's forms (`fp %fp : F` inside ins, the preQuantScalar word, reluPreMode), the tstore element
 * count, and the scaling tile's size limit.
 */
import { at, diagLines, kernel, run, tileBuf } from '../fixtures/verify/helpers';
import { assemble } from '../../src/verify/assemble';
import { printCanonical } from '../../src/emit/canonical';

const ACC = (dtype: string) => tileBuf({ loc: 'acc', dtype, rows: 16, cols: 32, blayout: 'col_major', slayout: 'row_major', fractal: 1024 });
const NZ = (loc: string, dtype: string) => tileBuf({ loc, dtype, rows: 16, cols: 32, blayout: 'col_major', slayout: 'row_major' });
const ND = (loc: string, dtype: string) => tileBuf({ loc, dtype, rows: 16, cols: 32 });
const FP = tileBuf({ loc: 'scaling', dtype: 'u64', rows: 1, cols: 16, slayout: 'row_major' });

function check(lines: string[], target: 'a2a3' | 'a5', args = '') {
  const text = kernel([...lines, 'return'], args);
  return { text, diags: diagLines(run(text, target)) };
}

const allocs = (pairs: [string, string][]) => pairs.map(([name, type]) => `${name} = pto.alloc_tile : ${type}`);

describe('textract and tinsert: location pairs per target', () => {
  const insertAccTo = (dst: string) => [
    ...allocs([
      ['%a', ACC('f32')],
      ['%d', dst],
    ]),
    `pto.tinsert ins(%a, %c0, %c0 : ${ACC('f32')}, index, index) outs(%d : ${dst})`,
  ];

  test('tinsert acc -> mat is accepted on both targets; acc -> vec on a5 only', () => {
    expect(check(insertAccTo(NZ('mat', 'f16')), 'a2a3', '%c0: index').diags).toEqual([]);
    expect(check(insertAccTo(NZ('mat', 'f16')), 'a5', '%c0: index').diags).toEqual([]);
    expect(check(insertAccTo(ND('vec', 'f16')), 'a5', '%c0: index').diags).toEqual([]);
    const a2a3 = check(insertAccTo(ND('vec', 'f16')), 'a2a3', '%c0: index');
    expect(a2a3.diags).toEqual([
      `${at(a2a3.text, ND('vec', 'f16'), 1)}: error[E0503]: pto.tinsert: moving a acc tile into a vec tile is not supported on a2a3 (vec->vec, acc->mat)`,
    ]);
  });

  test("A5 quantises an f32 acc to MLIR's 8-bit floats with a scaling tile; a2a3 does not", () => {
    const f8 = (target: 'a2a3' | 'a5', dtype: string) =>
      check(
        [
          ...allocs([
            ['%a', ACC('f32')],
            ['%fp', FP],
            ['%d', NZ('mat', dtype)],
          ]),
          `pto.textract ins(%a, %c0, %c0 : ${ACC('f32')}, index, index fp %fp : ${FP}) outs(%d : ${NZ('mat', dtype)})`,
        ],
        target,
        '%c0: index',
      );
    expect(f8('a5', 'f8E4M3FN').diags).toEqual([]);
    expect(f8('a5', 'f8E5M2').diags).toEqual([]);
    expect(f8('a2a3', 'f8E4M3FN').diags.length).toBeGreaterThan(0);
  });

  test('an acc move casts f32 to f16/bf16 (a5 also f32); i8 needs a quant word', () => {
    const i8 = check(insertAccTo(NZ('mat', 'i8')), 'a5', '%c0: index');
    expect(i8.diags).toEqual([
      `${at(i8.text, NZ('mat', 'i8'), 1)}: error[E0505]: pto.tinsert: an acc move from f32 to i8 is not supported on a5 (f32 -> f16/bf16/f32; i32 -> i32/ui32)`,
    ]);
    const quantised = [
      ...allocs([
        ['%a', ACC('f32')],
        ['%d', NZ('mat', 'i8')],
      ]),
      `pto.tinsert ins(%a, %c0, %c0 : ${ACC('f32')}, index, index pre_quant %q : i64) outs(%d : ${NZ('mat', 'i8')})`,
    ];
    expect(check(quantised, 'a5', '%c0: index, %q: i64').diags).toEqual([]);
  });

  test('textract: mat -> scaling and acc -> vec on a5, not on a2a3', () => {
    const scaling = tileBuf({ loc: 'scaling', dtype: 'f16', rows: 16, cols: 16, slayout: 'row_major' });
    const mat = tileBuf({ loc: 'mat', dtype: 'f16', rows: 16, cols: 16, blayout: 'col_major', slayout: 'row_major' });
    const lines = [
      ...allocs([
        ['%m', mat],
        ['%s', scaling],
      ]),
      `pto.textract ins(%m, %c0, %c0 : ${mat}, index, index) outs(%s : ${scaling})`,
    ];
    expect(check(lines, 'a5', '%c0: index').diags).toEqual([]);
    const a2a3 = check(lines, 'a2a3', '%c0: index');
    expect(a2a3.diags).toEqual([
      `${at(a2a3.text, scaling, 1)}: error[E0503]: pto.textract: moving a mat tile into a scaling tile is not supported on a2a3 (vec->vec, mat->left/right, acc->mat)`,
    ]);
  });

  test('the fixpipe forms need an acc source', () => {
    const vec = ND('vec', 'f16');
    const lines = [
      ...allocs([
        ['%s', vec],
        ['%d', vec],
      ]),
      `pto.textract ins(%s, %c0, %c0 : ${vec}, index, index) outs(%d : ${vec}) {reluPreMode = #pto<relu_pre_mode normal_relu>}`,
    ];
    const { text, diags } = check(lines, 'a5', '%c0: index');
    expect(diags).toEqual([`${at(text, 'pto.textract')}: error[E0503]: pto.textract: the reluPreMode form needs an acc src, not loc=vec`]);
  });
});

describe("the `fp` operand inside ins (PTOAS's `ins(%acc, %r, %c : A, index, index fp %fp : F)`)", () => {
  const textract = [
    ...allocs([
      ['%a', ACC('f32')],
      ['%f', FP],
      ['%d', NZ('mat', 'i8')],
    ]),
    `pto.textract ins(%a, %c0, %c0 : ${ACC('f32')}, index, index fp %f : ${FP}) outs(%d : ${NZ('mat', 'i8')})`,
  ];

  test('binds fp by its keyword and is printed back in place', () => {
    const { text, diags } = check(textract, 'a5', '%c0: index');
    expect(diags).toEqual([]);
    const assembled = assemble('t.pto', text, { target: 'a5' });
    const printed = printCanonical(assembled.module, assembled.types);
    expect(printed).toMatch(/pto\.textract ins\(%a, %c0, %c0 : !pto\.tile_buf<[^>]*>, index, index fp %f : !pto\.tile_buf<scaling, [^>]*>\) outs\(%d :/);
    expect(assemble('again.pto', printed, { target: 'a5' }).diags.hasErrors()).toBe(false);
  });

  test('an op without an fp operand says so at the operand', () => {
    const vec = ND('vec', 'f32');
    const lines = [
      ...allocs([
        ['%s', vec],
        ['%d', vec],
      ]),
      `pto.tadd ins(%s, %s : ${vec}, ${vec} fp %s : ${vec}) outs(%d : ${vec})`,
    ];
    const { text, diags } = check(lines, 'a5');
    expect(diags[0]).toMatch(new RegExp(`^${at(text, 'fp %s').replace(/:\d+$/, '')}:\\d+: error\\[E0501\\]: pto.tadd takes no 'fp' operand`));
  });

  test('tstore takes fp the same way, from an acc tile', () => {
    const pv = '!pto.partition_tensor_view<16x16xi8>';
    const lines = [
      '%tv = pto.make_tensor_view %p, shape = [%c16, %c16], strides = [%c16, %c1] : !pto.tensor_view<?x?xi8>',
      `%pv = pto.partition_view %tv, offsets = [%c0, %c0], sizes = [%c16, %c16] : !pto.tensor_view<?x?xi8> -> ${pv}`,
      ...allocs([
        ['%a', ACC('f32')],
        ['%f', FP],
      ]),
      `pto.tstore ins(%a : ${ACC('f32')} fp %f : ${FP}) outs(%pv : ${pv})`,
    ];
    expect(check(lines, 'a5', '%p: !pto.ptr<i8>, %c0: index, %c1: index, %c16: index').diags).toEqual([]);
  });
});

describe('tstore and tload shapes (PTOAS: a tstore view holds as many elements as the valid region; tload has no rule)', () => {
  const store = (viewShape: [number, number]) => {
    const pv = `!pto.partition_tensor_view<${viewShape[0]}x${viewShape[1]}xf32>`;
    const vec = tileBuf({ dtype: 'f32', rows: 32, cols: 32 });
    return [
      '%tv = pto.make_tensor_view %p, shape = [%c64, %c1024], strides = [%c1024, %c1] : !pto.tensor_view<?x?xf32>',
      `%pv = pto.partition_view %tv, offsets = [%c0, %c0], sizes = [%cr, %cc] : !pto.tensor_view<?x?xf32> -> ${pv}`,
      `%t = pto.alloc_tile : ${vec}`,
      `pto.tstore ins(%t : ${vec}) outs(%pv : ${pv})`,
    ];
  };
  const args = '%p: !pto.ptr<f32>, %c0: index, %c1: index, %c64: index, %c1024: index, %cr: index, %cc: index';

  test('a 1x1024 view of a 32x32 tile is accepted, a 64x64 one is not', () => {
    expect(check(store([1, 1024]), 'a5', args).diags).toEqual([]);
    const { text, diags } = check(store([64, 64]), 'a5', args);
    expect(diags).toEqual([
      `${at(text, '!pto.partition_tensor_view<64x64xf32>)')}: error[E0506]: pto.tstore: dst holds 4096 elements, but src's valid region 32x32 holds 1024`,
    ]);
  });
});

describe('the scaling (FB) tile size', () => {
  test("a 32x32 f32 scaling tile is a valid type on a2a3 (PTOAS's planner assumes a larger scaling buffer than the 2 KiB FB)", () => {
    const fb = tileBuf({ loc: 'scaling', dtype: 'f32', rows: 32, cols: 32, slayout: 'row_major' });
    expect(check([], 'a2a3', `%f: ${fb}`).diags).toEqual([]);
  });
});

describe('textract mat -> left: the left tile takes the target blayout (PTOAS lit left_blayout_parser_a3/_a5)', () => {
  // PTOAS's parser gives every left tile blayout col_major on a5 and row_major on a2a3, whatever is written
  // (PTOTypeDefs.cpp resolveTileBufBLayout), so only its slayout is checked: row_major on both targets.
  const mat = (blayout: 'row_major' | 'col_major', slayout: 'row_major' | 'col_major') =>
    tileBuf({ loc: 'mat', dtype: 'f32', rows: 32, cols: 32, blayout, slayout });
  const left = (blayout: 'row_major' | 'col_major', slayout: 'row_major' | 'col_major') =>
    tileBuf({ loc: 'left', dtype: 'f32', rows: 32, cols: 32, blayout, slayout });
  const extract = (src: string, dst: string, target: 'a2a3' | 'a5') =>
    check(
      [
        ...allocs([
          ['%s', src],
          ['%d', dst],
        ]),
        `pto.textract ins(%s, %c0, %c0 : ${src}, index, index) outs(%d : ${dst})`,
      ],
      target,
      '%c0: index',
    );
  test('a left dst written blayout=row_major on a5, or col_major on a2a3, is accepted', () => {
    expect(extract(mat('col_major', 'row_major'), left('row_major', 'row_major'), 'a5').diags).toEqual([]);
    expect(extract(mat('row_major', 'col_major'), left('col_major', 'row_major'), 'a2a3').diags).toEqual([]);
  });
  test.each(['a2a3', 'a5'] as const)('on %s a left dst with slayout=col_major is an error', (target) => {
    const dst = left('col_major', 'col_major');
    const r = extract(mat('col_major', 'row_major'), dst, target);
    expect(r.diags).toEqual([`${at(r.text, dst, 1)}: error[E0504]: pto.textract: dst must use slayout=row_major, not blayout=col_major, slayout=col_major`]);
  });
});
