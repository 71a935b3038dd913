/**
 * MLIR's generic operation form (src/syntax/generic-form.ts, each definition's `fromGeneric`): a statement
 * `"pto.x"(%a, %b) <{props}> {attrs} : (A, B) -> R` binds its operands to the op's declared operands in PTOAS's
 * order, verifies as the op's own form, and prints in it; operands that do not fit are one located error.
 */
import { at, diagLines, kernel, run } from '../fixtures/verify/helpers';
import { printCanonical } from '../../src/emit/canonical';
import { runFunction } from '../../src/vm/interpreter';
import { GlobalBuffer } from '../../src/machine/memory';

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

/**
 * Ops with a syntax of their own whose operands are all there is to them (pto.addptr, the scalar accesses, the
 * arith ops, return and yield): their generic form, which PTOAS (MLIR) parses for every op, reads into the AST of
 * their own form. It was refused ("the generic form of pto.addptr is not supported yet").
 */
describe('the generic form of ops with a plain custom syntax', () => {
  const P = '!pto.ptr<f32, gm>';
  const args = `%p: ${P}, %off: index, %x: f32, %a: i32, %b: i32, %c: i1, %v: !pto.tensor_view<?x16xf32>`;
  const program = (line: string) => kernel([line, 'return'], args);
  test.each([
    [`%q = pto.addptr %p, %off : ${P} -> ${P}`, `%q = "pto.addptr"(%p, %off) : (${P}, index) -> ${P}`],
    [`%s = pto.load_scalar %p[%off] : ${P} -> f32`, `%s = "pto.load_scalar"(%p, %off) : (${P}, index) -> f32`],
    // PTOAS declares store_scalar's operands as (ptr, offset, value): the generic form writes the value last.
    [`pto.store_scalar %x, %p[%off] : ${P}, f32`, `"pto.store_scalar"(%p, %off, %x) : (${P}, index, f32) -> ()`],
    [
      `%d = pto.get_tensor_view_dim %v, %off : !pto.tensor_view<?x16xf32> -> index`,
      `%d = "pto.get_tensor_view_dim"(%v, %off) : (!pto.tensor_view<?x16xf32>, index) -> index`,
    ],
    ['%s = arith.addi %a, %b : i32', '%s = "arith.addi"(%a, %b) : (i32, i32) -> i32'],
    ['%s = arith.negf %x : f32', '%s = "arith.negf"(%x) : (f32) -> f32'],
    ['%s = arith.bitcast %a : i32 to f32', '%s = "arith.bitcast"(%a) : (i32) -> f32'],
    ['%s = arith.select %c, %a, %b : i32', '%s = "arith.select"(%c, %a, %b) : (i1, i32, i32) -> i32'],
  ])('%s', (own, generic) => {
    const expected = canonical(program(own));
    expect(expected.diags).toEqual([]);
    expect(canonical(program(generic))).toEqual(expected);
  });

  test('return and scf.yield', () => {
    const own = ['module {', '  func.func @k(%n: index) -> index {', '    %c0 = arith.constant 0 : index'];
    own.push(
      '    %r = scf.for %i = %c0 to %n step %n iter_args(%x = %n) -> (index) {',
      '      scf.yield %x : index',
      '    }',
      '    return %r : index',
      '  }',
      '}',
      '',
    );
    const generic = own.map((l) =>
      l.replace('scf.yield %x : index', '"scf.yield"(%x) : (index) -> ()').replace('return %r : index', '"func.return"(%r) : (index) -> ()'),
    );
    const expected = canonical(own.join('\n'));
    expect(expected.diags).toEqual([]);
    expect(canonical(generic.join('\n'))).toEqual(expected);
  });

  test('runs as its own form: a pointer moved by 2 elements, the element 1 past it (element 3) stored at element 0', () => {
    const text = kernel(
      [
        '%c0 = arith.constant 0 : index',
        '%c1 = arith.constant 1 : index',
        '%c2 = arith.constant 2 : index',
        `%q = "pto.addptr"(%p, %c2) : (${P}, index) -> ${P}`,
        `%s = "pto.load_scalar"(%q, %c1) : (${P}, index) -> f32`,
        `"pto.store_scalar"(%p, %c0, %s) : (${P}, index, f32) -> ()`,
        'return',
      ],
      `%p: ${P}`,
    );
    const r = run(text);
    expect(diagLines(r)).toEqual([]);
    const buffer = new GlobalBuffer('p', 'f32', new Uint8Array(new Float32Array([1, 2, 3, 4]).buffer));
    runFunction(r.program, r.types, [...r.program.functions.values()][0], new Map([['%p', buffer]]), { numerics: 'npu', maxSteps: 100 });
    expect([...new Float32Array(buffer.bytes.buffer)]).toEqual([4, 2, 3, 4]);
  });

  test.each([
    ['too few operands', `"pto.addptr"(%p) : (${P}) -> ${P}`, '"pto.addptr"', 'pto.addptr takes 2 operand(s) (ptr, offset), got 1'],
    [
      'operandSegmentSizes on an op without optional operands',
      `"pto.addptr"(%p, %off) <{operandSegmentSizes = array<i32: 1, 1>}> : (${P}, index) -> ${P}`,
      'operandSegmentSizes',
      'pto.addptr has no optional operands: operandSegmentSizes does not apply',
    ],
    // A predicate is more than operands: arith.cmpi's generic form is still refused.
    [
      'a syntax that reads more than operands',
      '"arith.cmpi"(%a, %b) <{predicate = 2 : i64}> : (i32, i32) -> i1',
      '"arith.cmpi"',
      'the generic form of arith.cmpi is not supported yet: write it in its own form',
    ],
  ])('%s is a located error', (_why, line, needle, message) => {
    const text = program(line);
    expect(diagLines(run(text))).toEqual([`${at(text, needle)}: error[E0422]: ${message}`]);
  });
});
