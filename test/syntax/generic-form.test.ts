/**
 * MLIR's generic operation form (src/syntax/generic-form.ts, each definition's `fromGeneric`): a statement
 * `"pto.x"(%a, %b) <{props}> {attrs} : (A, B) -> R` binds its operands to the op's declared operands in PTOAS's
 * order, verifies as the op's own form, and prints in it; operands that do not fit are one located error.
 */
import { at, diagLines, kernel, run } from '../fixtures/verify/helpers';
import { printCanonical } from '../../src/emit/canonical';

const V = '!pto.tile_buf<vec, 16x16xf32>';

function canonical(text: string, target?: 'a2a3' | 'a5'): { diags: string[]; printed: string } {
  const r = run(text, target);
  return { diags: diagLines(r), printed: printCanonical(r.module, r.types) };
}

test('a table instruction in the generic form verifies and prints in its own form', () => {
  const text = kernel([`%a = pto.alloc_tile : ${V}`, `%c = pto.alloc_tile : ${V}`, `"pto.tadd"(%a, %a, %c) : (${V}, ${V}, ${V}) -> ()`, 'return']);
  const { diags, printed } = canonical(text);
  expect(diags).toEqual([]);
  expect(printed).toContain(`pto.tadd ins(%a, %a : ${V}, ${V}) outs(%c : ${V})`);
});

test("operands bind in PTOAS's declaration order: tcvt's tmp comes before dst", () => {
  const I = '!pto.tile_buf<vec, 16x16xi32>';
  const U = '!pto.tile_buf<vec, 16x32xui8>';
  const text = kernel([
    `%s = pto.alloc_tile : ${V}`,
    `%t = pto.alloc_tile : ${U}`,
    `%d = pto.alloc_tile : ${I}`,
    `"pto.tcvt"(%s, %t, %d) {rmode = #pto<round_mode CAST_RINT>} : (${V}, ${U}, ${I}) -> ()`,
    'return',
  ]);
  const { diags, printed } = canonical(text);
  expect(diags).toEqual([]);
  expect(printed).toContain(`ins(%s, %t {rmode = #pto<round_mode CAST_RINT>} : ${V}, ${U}) outs(%d : ${I})`);
});

test('operandSegmentSizes places the optional operands: a pre-quantization scalar without fp goes after pre_quant', () => {
  const ACC = '!pto.tile_buf<acc, 16x16xf32, blayout=col_major, slayout=row_major, fractal=1024>';
  const MAT = '!pto.tile_buf<mat, 16x32xi8, blayout=col_major, slayout=row_major>';
  const text = kernel([
    '%c0 = arith.constant 0 : index',
    '%q = arith.constant 7 : i64',
    `%src = pto.alloc_tile : ${ACC}`,
    `%dst = pto.alloc_tile : ${MAT}`,
    `"pto.tinsert"(%src, %c0, %c0, %dst, %q) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 1>}> : (${ACC}, index, index, ${MAT}, i64) -> ()`,
    'return',
  ]);
  const { diags, printed } = canonical(text, 'a5');
  expect(diags).toEqual([]);
  expect(printed).toContain(`pto.tinsert ins(%src, %c0, %c0 : ${ACC}, index, index pre_quant %q : i64) outs(%dst : ${MAT})`);
});

describe('located errors', () => {
  const tadd = (call: string) => kernel([`%a = pto.alloc_tile : ${V}`, call, 'return']);
  test.each([
    ['too few operands for the op', tadd(`"pto.tadd"(%a, %a) : (${V}, ${V}) -> ()`), '"pto.tadd"', 'pto.tadd takes 3 operand(s) (src0, src1, dst), got 2'],
    ['operands and signature disagree', tadd(`"pto.tadd"(%a, %a, %a) : (${V}, ${V}) -> ()`), '(!pto', 'pto.tadd: 3 operand(s) but 2 type(s) in the signature'],
    [
      'operandSegmentSizes that do not add up to the operands',
      tadd(`"pto.tadd"(%a, %a, %a) <{operandSegmentSizes = array<i32: 1, 1>}> : (${V}, ${V}, ${V}) -> ()`),
      'operandSegmentSizes',
      'pto.tadd: operand count (3) does not match the total size (2) given by operandSegmentSizes',
    ],
    [
      'operandSegmentSizes with a group per operand the op does not declare',
      tadd(`"pto.tadd"(%a, %a, %a) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> : (${V}, ${V}, ${V}) -> ()`),
      'operandSegmentSizes',
      'pto.tadd: operandSegmentSizes has 4 group(s), but the op declares 3 operand(s) (src0, src1, dst)',
    ],
    [
      'a declared op whose later optional operand is written without the earlier one',
      kernel([
        '%n = arith.constant 2 : i32',
        '"pto.syncall"(%n) <{core_type = #pto.sync_core_type<aiv_only>, mode = #pto.sync_all_mode<soft>, operandSegmentSizes = array<i32: 0, 1>}> : (i32) -> ()',
        'return',
      ]),
      '%n) <{',
      "pto.syncall: used_cores without gm_workspace cannot be written in the op's own form",
    ],
  ])('%s', (_why, text, needle, message) => {
    expect(diagLines(run(text))).toEqual([`${at(text, needle)}: error[E0422]: ${message}`]);
  });

  test('an op the toolchain does not know is reported by name', () => {
    const text = kernel(['%0 = "pto.materialize_tile"() : () -> i32', 'return']);
    expect(diagLines(run(text))).toEqual([`${at(text, '"pto.materialize_tile"')}: error[E0301]: unknown op 'pto.materialize_tile'`]);
  });

  test('a declared op verifies its rules in the generic form (hard syncall takes no workspace)', () => {
    const text = kernel(
      [
        '"pto.syncall"(%gm) <{core_type = #pto.sync_core_type<aiv_only>, mode = #pto.sync_all_mode<hard>, operandSegmentSizes = array<i32: 1, 0>}> : (!pto.ptr<i32, gm>) -> ()',
        'return',
      ],
      '%gm: !pto.ptr<i32, gm>',
    );
    expect(diagLines(run(text))).toEqual([`${at(text, '"pto.syncall"')}: error[E0408]: pto.syncall in hard mode takes no operands`]);
  });
});
