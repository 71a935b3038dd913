/**
 * A core's own storage: local arrays, structs, event-id arrays, multi-tile buffers. Expected values are worked out
 * by hand from the writes each program makes; reads of cells never written and indices past the storage are traps.
 */
import { assemble } from '../../../src/verify/assemble';
import { formatAll } from '../../../src/diag/diagnostic';
import { printCanonical } from '../../../src/emit/canonical';
import { runFunction, Value } from '../../../src/vm/interpreter';
import { GlobalBuffer } from '../../../src/machine/memory';

/** Runs `body` in a kernel whose %out (8 x i32) collects results with `store`; returns %out. */
function run(body: string[]): number[] {
  const text = [
    'module attributes {"pto.target_arch" = "a5"} {',
    '  func.func @k(%out: !pto.ptr<i32>) {',
    ...[0, 1, 2, 3, 4, 5, 6, 7].map((n) => `    %c${n} = arith.constant ${n} : index`),
    ...body.map((l) => '    ' + l),
    '    return',
    '  }',
    '}',
  ].join('\n');
  const asm = assemble('s.pto', text);
  if (asm.diags.hasErrors()) throw new Error(formatAll(asm.diags));
  const out = new GlobalBuffer('out', 'i32', new Uint8Array(32));
  runFunction(asm.program, asm.types, asm.program.functions.get('k')!, new Map<string, Value>([['%out', out]]), { numerics: 'npu', maxSteps: 1e6 });
  return Array.from(new Int32Array(out.bytes.buffer, out.bytes.byteOffset, 8));
}

const store = (value: string, at: number) => [`pto.store_scalar %${value}, %out[%c${at}] : !pto.ptr<i32>, i32`];
const storeIndex = (value: string, at: number) => [`%${value}_i = arith.index_cast %${value} : index to i32`, ...store(`${value}_i`, at)];
const errorsOf = (text: string) => formatAll(assemble('s.pto', text).diags);

describe('local arrays', () => {
  test('a 2x4 array is row-major: [1][3] and [0][2] are cells 7 and 2, each read back as written', () => {
    const out = run([
      '%a = pto.declare_local_array -> !pto.local_array<2x4xi32>',
      '%v = arith.constant -7 : i32',
      '%w = arith.constant 40 : i32',
      'pto.local_array_set %a[%c1, %c3], %v : !pto.local_array<2x4xi32>, i32',
      'pto.local_array_set %a[%c0, %c2], %w : !pto.local_array<2x4xi32>, i32',
      // Overwriting a cell keeps the last value.
      '%x = arith.constant 41 : i32',
      'pto.local_array_set %a[%c0, %c2], %x : !pto.local_array<2x4xi32>, i32',
      '%r0 = pto.local_array_get %a[%c1, %c3] : !pto.local_array<2x4xi32> -> i32',
      '%r1 = pto.local_array_get %a[%c0, %c2] : !pto.local_array<2x4xi32> -> i32',
      ...store('r0', 0),
      ...store('r1', 1),
    ]);
    expect(out.slice(0, 2)).toEqual([-7, 41]);
  });

  test('reading a cell never written and an index past the array are traps', () => {
    expect(() => run(['%a = pto.declare_local_array -> !pto.local_array<4xi32>', '%r = pto.local_array_get %a[%c2] : !pto.local_array<4xi32> -> i32'])).toThrow(
      'pto.local_array_get: the cell is read before anything was written to it',
    );
    expect(() =>
      run([
        '%a = pto.declare_local_array -> !pto.local_array<4xi32>',
        '%v = arith.constant 1 : i32',
        'pto.local_array_set %a[%c4], %v : !pto.local_array<4xi32>, i32',
      ]),
    ).toThrow('pto.local_array_set: index 4 is outside 0..3');
  });

  test('the index count, the value type and the result type are checked', () => {
    const k = (line: string) =>
      `func.func @f() {\n  %c0 = arith.constant 0 : index\n  %v = arith.constant 1 : i32\n  %a = pto.declare_local_array -> !pto.local_array<2x4xi32>\n  ${line}\n  return\n}\n`;
    expect(errorsOf(k('pto.local_array_set %a[%c0], %v : !pto.local_array<2x4xi32>, i32'))).toContain(
      'pto.local_array_set takes 2 index(es) for a 2x4 array, got 1',
    );
    expect(errorsOf(k('%r = pto.local_array_get %a[%c0, %c0] : !pto.local_array<2x4xi32> -> f32'))).toContain(
      "pto.local_array_get gives the array's element type i32, not f32",
    );
    expect(errorsOf(k('%f = arith.constant 1.0 : f32\n  pto.local_array_set %a[%c0, %c0], %f : !pto.local_array<2x4xi32>, f32'))).toContain(
      'pto.local_array_set: the value must be i32, got f32',
    );
  });
});

describe('structs and event-id arrays', () => {
  test('a nested field is reached by its path; event ids are index cells', () => {
    const out = run([
      '%s = pto.declare_struct -> !pto.struct<f32, !pto.struct<i8, i32>>',
      '%v = arith.constant 123456 : i32',
      'pto.struct_set %s[1, 1], %v : !pto.struct<f32, !pto.struct<i8, i32>>, i32',
      '%g = pto.struct_get %s[1, 1] : !pto.struct<f32, !pto.struct<i8, i32>> -> i32',
      ...store('g', 0),
      '%e = pto.declare_eventid_array -> !pto.eventid_array<4>',
      'pto.eventid_array_set %e[%c3], %c5 : !pto.eventid_array<4>',
      '%id = pto.eventid_array_get %e[%c3] : !pto.eventid_array<4>',
      ...storeIndex('id', 1),
    ]);
    expect(out.slice(0, 2)).toEqual([123456, 5]);
  });

  test('a path past the struct, or to a field of another type, is an error', () => {
    const k = (line: string) => `func.func @f() {\n  %v = arith.constant 1 : i32\n  %s = pto.declare_struct -> !pto.struct<f32, i8>\n  ${line}\n  return\n}\n`;
    expect(errorsOf(k('%g = pto.struct_get %s[2] : !pto.struct<f32, i8> -> f32'))).toContain('pto.struct_get: field 2 is outside 0..1 of !pto.struct<f32, i8>');
    expect(errorsOf(k('%g = pto.struct_get %s[0, 1] : !pto.struct<f32, i8> -> f32'))).toContain('the path goes past f32, which is not a struct');
    expect(errorsOf(k('pto.struct_set %s[1], %v : !pto.struct<f32, i8>, i32'))).toContain('pto.struct_set: the value must be i8, got i32');
  });
});

describe('multi-tile buffers', () => {
  test('each slot is its own tile: values written through slot 0 and slot 1 stay apart', () => {
    const MT = '!pto.multi_tile_buf<vec, 1x8xi32, count=2>';
    const T = '!pto.tile_buf<vec, 1x8xi32>';
    const out = run([
      `%mb = pto.alloc_multi_tile : ${MT}`,
      `%t0 = pto.multi_tile_get %mb[%c0] : ${MT} -> ${T}`,
      `%t1 = pto.multi_tile_get %mb[%c1] : ${MT} -> ${T}`,
      '%a = arith.constant 11 : i32',
      '%b = arith.constant 22 : i32',
      `pto.texpands ins(%a : i32) outs(%t0 : ${T})`,
      `pto.texpands ins(%b : i32) outs(%t1 : ${T})`,
      `%x = pto.tgetval ins(%t0, %c3 : ${T}, index) outs : i32`,
      `%y = pto.tgetval ins(%t1, %c3 : ${T}, index) outs : i32`,
      ...store('x', 0),
      ...store('y', 1),
    ]);
    expect(out.slice(0, 2)).toEqual([11, 22]);
  });

  test('a slot past the count is a trap; the result type is the slot type', () => {
    const MT = '!pto.multi_tile_buf<vec, 1x8xi32, count=2>';
    expect(() =>
      run(['%n = arith.addi %c1, %c1 : index', `%mb = pto.alloc_multi_tile : ${MT}`, `%t = pto.multi_tile_get %mb[%n] : ${MT} -> !pto.tile_buf<vec, 1x8xi32>`]),
    ).toThrow('pto.multi_tile_get: slot 2 is outside 0..1');
    const wrong = `func.func @f() {\n  %c0 = arith.constant 0 : index\n  %mb = pto.alloc_multi_tile : ${MT}\n  %t = pto.multi_tile_get %mb[%c0] : ${MT} -> !pto.tile_buf<vec, 1x8xf32>\n  return\n}\n`;
    expect(errorsOf(wrong)).toContain('pto.multi_tile_get gives the slot type !pto.tile_buf<vec, 1x8xi32>, not !pto.tile_buf<vec, 1x8xf32>');
  });
});

test("PTOAS's type rules: a multi-tile buffer has at least two slots and no row_plus_one slot; struct fields are scalars", () => {
  const declare = (t: string) => `func.func @f() {\n  %x = pto.declare_struct -> ${t}\n  return\n}\n`;
  const alloc = (t: string) => `func.func @f() {\n  %x = pto.alloc_multi_tile : ${t}\n  return\n}\n`;
  expect(errorsOf(alloc('!pto.multi_tile_buf<vec, 16x16xf16, count=1>'))).toContain("a '!pto.multi_tile_buf' count must be >= 2, got 1");
  expect(errorsOf(alloc('!pto.multi_tile_buf<vec, 1x16xf16, count=16>'))).toBe('');
  expect(errorsOf(alloc('!pto.multi_tile_buf<vec, 1x16xf16, count=17>'))).toContain("a '!pto.multi_tile_buf' count must be <= 16, got 17");
  // A fuzzer finding: 2^64 - 1 slots verified, and the VM's array of them could not be made.
  expect(errorsOf(alloc('!pto.multi_tile_buf<vec, 1x16xf16, count=0xffffffffffffffff>'))).toContain("a '!pto.multi_tile_buf' count must be <= 16");
  expect(errorsOf(alloc('!pto.multi_tile_buf<vec, 16x16xf16, compact=2, count=2>'))).toContain('cannot use row_plus_one compaction');
  expect(errorsOf(declare('!pto.struct<f32, !pto.local_array<4xf32>>'))).toContain("'!pto.struct' field 1 type !pto.local_array<4xf32> is not scalar-storable");
  expect(errorsOf(declare('!pto.struct<f32, !pto.struct<i8, i16>>'))).toBe('');
  const get = `func.func @f() {\n  %s = pto.declare_struct -> !pto.struct<f32, !pto.struct<i8, i16>>\n  %g = pto.struct_get %s[1] : !pto.struct<f32, !pto.struct<i8, i16>> -> !pto.struct<i8, i16>\n  return\n}\n`;
  expect(errorsOf(get)).toContain('pto.struct_get: the path must end at a scalar field');
  const slot = `func.func @f() {\n  %c5 = arith.constant 5 : index\n  %mb = pto.alloc_multi_tile : !pto.multi_tile_buf<vec, 16x16xf16, count=2>\n  %t = pto.multi_tile_get %mb[%c5] : !pto.multi_tile_buf<vec, 16x16xf16, count=2> -> !pto.tile_buf<vec, 16x16xf16>\n  return\n}\n`;
  expect(errorsOf(slot)).toContain('pto.multi_tile_get: constant slot 5 is out of range for count=2');
});

test('the canonical form prints the storage ops as written and is a fixed point', () => {
  const text = [
    'func.func @f() {',
    '  %c0 = arith.constant 0 : index',
    '  %v = arith.constant 1 : i32',
    '  %a = pto.declare_local_array -> !pto.local_array<4xi32>',
    '  pto.local_array_set %a[%c0], %v : !pto.local_array<4xi32>, i32',
    '  %s = pto.declare_struct -> !pto.struct<i32, f32>',
    '  pto.struct_set %s[0], %v : !pto.struct<i32, f32>, i32',
    '  %g = pto.struct_get %s[0] : !pto.struct<i32, f32> -> i32',
    '  %e = pto.declare_eventid_array -> !pto.eventid_array<2>',
    '  pto.eventid_array_set %e[%c0], %c0 : !pto.eventid_array<2>',
    '  %mb = pto.alloc_multi_tile : !pto.multi_tile_buf<!pto.tile_buf<vec, 16x16xf16>, count=3>',
    '  return',
    '}',
  ].join('\n');
  const asm = assemble('s.pto', text);
  expect(formatAll(asm.diags)).toBe('');
  const printed = printCanonical(asm.module, asm.types);
  for (const line of text.split('\n').slice(3, 10)) expect(printed).toContain(line.trim());
  expect(printed).toContain('pto.alloc_multi_tile : !pto.multi_tile_buf<vec, 16x16xf16, count=3>');
  const again = assemble('s.pto', printed);
  expect(printCanonical(again.module, again.types)).toBe(printed);
});
