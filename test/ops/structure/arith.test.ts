/**
 * The integer `arith` ops of the arith table (src/ops/structure/arith.ts), run by the VM on values whose results were worked
 * out by hand from MLIR's definitions: two's complement of the type's width, signed or unsigned as the op's name says,
 * the result wrapped to the width. Before the table, arith.minui, maxui and shrui verified and then stopped the VM
 * as "not implemented yet".
 */
import { assemble } from '../../../src/verify/assemble';
import { formatAll } from '../../../src/diag/diagnostic';
import { runFunction } from '../../../src/vm/interpreter';
import { GlobalBuffer } from '../../../src/machine/memory';
import { opRegistry } from '../../../src/ops/registry';

/** Runs `%r = OP %a, %b : TYPE` and returns what it stored: a signed reading of the result. */
function compute(op: string, type: 'i8' | 'i32' | 'index', a: bigint, b: bigint): bigint {
  const elem = type === 'index' ? 'i64' : type;
  const store =
    type === 'index'
      ? ['%s = arith.index_cast %r : index to i64', 'pto.store_scalar %s, %out[%c0] : !pto.ptr<i64>, i64']
      : [`pto.store_scalar %r, %out[%c0] : !pto.ptr<${elem}>, ${elem}`];
  const text = [
    'module {',
    `  func.func @k(%a: ${type}, %b: ${type}, %out: !pto.ptr<${elem}>) {`,
    '    %c0 = arith.constant 0 : index',
    `    %r = ${op} %a, %b : ${type}`,
    ...store.map((l) => '    ' + l),
    '    return',
    '  }',
    '}',
  ].join('\n');
  const asm = assemble('t.pto', text);
  if (asm.diags.hasErrors()) throw new Error(formatAll(asm.diags));
  const bytes = { i8: 1, i32: 4, i64: 8 }[elem];
  const out = new GlobalBuffer('out', elem, new Uint8Array(bytes));
  const fn = [...asm.program.functions.values()][0];
  runFunction(
    asm.program,
    asm.types,
    fn,
    new Map<string, bigint | GlobalBuffer>([
      ['%a', a],
      ['%b', b],
      ['%out', out],
    ]),
    { numerics: 'npu', maxSteps: 100 },
  );
  const view = new DataView(out.bytes.buffer);
  return elem === 'i8' ? BigInt(view.getInt8(0)) : elem === 'i32' ? BigInt(view.getInt32(0, true)) : view.getBigInt64(0, true);
}

describe('unsigned integer ops read their operands as unsigned', () => {
  it.each([
    // -1 : i8 is 255 unsigned, so the unsigned minimum of (-1, 1) is 1 and the maximum is -1 (255).
    ['arith.minui', 'i8', -1n, 1n, 1n],
    ['arith.maxui', 'i8', -1n, 1n, -1n],
    ['arith.minsi', 'i8', -1n, 1n, -1n],
    ['arith.maxsi', 'i8', -1n, 1n, 1n],
    // 0x80000000 (i32 min) is 2^31 unsigned, above 5.
    ['arith.minui', 'i32', -2147483648n, 5n, 5n],
    ['arith.maxui', 'i32', -2147483648n, 5n, -2147483648n],
    // -16 : i8 is 0b11110000 = 240; 240 >> 2 = 60 (zeros shifted in), while shrsi keeps the sign: -4.
    ['arith.shrui', 'i8', -16n, 2n, 60n],
    ['arith.shrsi', 'i8', -16n, 2n, -4n],
    // -1 : i32 >> 28 (unsigned) = 0xF.
    ['arith.shrui', 'i32', -1n, 28n, 15n],
    ['arith.shrui', 'index', -1n, 60n, 15n],
    // 200 : i8 is -56; as unsigned 200 / 3 = 66 rem 2; signed -56 / 3 = -18 rem -2.
    ['arith.divui', 'i8', -56n, 3n, 66n],
    ['arith.remui', 'i8', -56n, 3n, 2n],
    ['arith.divsi', 'i8', -56n, 3n, -18n],
    // Unsigned ceiling division: 7 / 2 -> 4; -1 : i32 is 4294967295, / 2 -> 2147483648, which as i32 reads -2^31;
    // 0 / 5 -> 0 (no rounding up from nothing).
    ['arith.ceildivui', 'i32', 7n, 2n, 4n],
    ['arith.ceildivui', 'i32', -1n, 2n, -2147483648n],
    ['arith.ceildivui', 'i8', 0n, 5n, 0n],
    ['arith.remsi', 'i8', -56n, 3n, -2n],
  ] as const)('%s (%s) of %d, %d is %d', (op, type, a, b, expected) => {
    expect(compute(op, type, a, b)).toBe(expected);
  });
});

describe('results wrap to the width', () => {
  it.each([
    ['arith.addi', 'i8', 127n, 1n, -128n],
    ['arith.muli', 'i8', 16n, 16n, 0n],
    ['arith.subi', 'i32', -2147483648n, 1n, 2147483647n],
    ['arith.shli', 'i8', 1n, 7n, -128n],
    // floor and ceiling division round toward minus and plus infinity.
    ['arith.floordivsi', 'i32', -7n, 2n, -4n],
    ['arith.ceildivsi', 'i32', -7n, 2n, -3n],
    ['arith.ceildivsi', 'i32', 7n, 2n, 4n],
    ['arith.andi', 'i8', -1n, 85n, 85n],
    ['arith.ori', 'i8', 64n, 64n, 64n],
    ['arith.xori', 'i8', -1n, 1n, -2n],
  ] as const)('%s (%s) of %d, %d is %d', (op, type, a, b, expected) => {
    expect(compute(op, type, a, b)).toBe(expected);
  });
});

test('every arith op the registry defines runs', () => {
  const notRun = opRegistry()
    .definitions.filter((d) => d.name.startsWith('arith.') && !d.execute)
    .map((d) => d.name);
  expect(notRun).toEqual([]);
});

describe('a shift by at least the bit width gives poison (MLIR), which the VM reports', () => {
  it.each([
    ['arith.shli', 'i8', 1n, 8n, 'shift amount 8 is not less than the bit width 8'],
    ['arith.shrsi', 'i32', -1n, 32n, 'shift amount 32 is not less than the bit width 32'],
    // The amount is read as unsigned: -1 : i8 is 255.
    ['arith.shrui', 'i8', 1n, -1n, 'shift amount 255 is not less than the bit width 8'],
    // Once a huge amount made a bigint of 10^11 bits.
    ['arith.shli', 'index', 1n, 100000000000n, 'shift amount 100000000000 is not less than the bit width 64'],
  ] as const)('%s (%s) of %d by %d', (op, type, a, b, message) => {
    expect(() => compute(op, type, a, b)).toThrow(`${op}: ${message}: the result is poison`);
  });

  it('one less than the width still shifts', () => {
    expect(compute('arith.shrsi', 'i32', -8n, 31n)).toBe(-1n);
  });
});

describe('arith.constant takes a number or a bool (a typed attribute, as MLIR wants)', () => {
  test.each([
    ['index', 'index'],
    ['a string', '"x" : index'],
    ['unit', 'unit'],
  ])('%s is an error at the value', (_what, value) => {
    const text = `module {\n  func.func @k() {\n    %c = arith.constant ${value}\n    return\n  }\n}\n`;
    const asm = assemble('t.pto', text);
    expect(asm.diags.items.map((d) => [asm.source.position(d.span.start), d.code, d.message])).toEqual([
      [{ line: 3, col: 25 }, 'E0403', "arith.constant takes a number or a bool, e.g. '0 : index', '1.0 : f32', 'true'"],
    ]);
  });

  test.each(['0 : index', '-1 : i8', '1.5 : f32', '0x7FC00000 : f32', 'true', 'false'])('%s is read', (value) => {
    const asm = assemble('t.pto', `module {\n  func.func @k() {\n    %c = arith.constant ${value}\n    return\n  }\n}\n`);
    expect(formatAll(asm.diags)).toBe('');
  });
});
