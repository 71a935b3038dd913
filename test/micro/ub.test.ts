/**
 * The A2/A3 UB vector ops, pto.ub.* (spec/micro/ub.json, PTOAS's VPTOUbOps.td): read in their formats, their
 * operands checked as VPTO.cpp's UB*Op verifiers check them (UB-backed buffers, i64 counts and strides); the VM says
 * it does not run them yet.
 */
import { microErrors } from '../fixtures/micro';
import { assemble } from '../../src/verify/assemble';
import { printCanonical } from '../../src/emit/canonical';
import { runFunction } from '../../src/vm/interpreter';

const P = '!pto.ptr<f32, ub>';
const params = `%d: ${P}, %a: ${P}, %b: ${P}, %g: !pto.ptr<f32, gm>`;
const consts = '  %c1 = arith.constant 1 : i64\n  %c0 = arith.constant 0 : i64\n';
const I64S = (n: number) => Array(n).fill('i64').join(', ');
const VADD = `  pto.ub.vadd %d, %a, %b, %c1, %c1, %c1, %c1, %c0, %c0, %c0 : ${P}, ${P}, ${P}, ${I64S(7)}`;
const BODIES = [
  VADD,
  `  pto.ub.vexp %d, %a, %c1, %c1, %c1, %c0, %c0 : ${P}, ${P}, ${I64S(5)}`,
  `  pto.ub.vshl %d, %a, %c1, %c1, %c1, %c1, %c0, %c0 : ${P}, ${P}, ${I64S(6)}`,
  `  pto.ub.vdup %d, %c1, %c1, %c1, %c1, %c0, %c0 : ${P}, ${I64S(6)}`,
  '  pto.ub.set_mask %c1, %c0 : i64, i64',
  '  pto.ub.set_mask_count',
  '  pto.ub.set_mask_norm',
];

describe('pto.ub.*', () => {
  test.each(BODIES)('%s: accepted, and printed back as written', (line) => {
    expect(microErrors(consts + line, params)).toEqual([]);
    const text = `func.func @k(${params}) {\n${consts}${line}\n  return\n}\n`;
    const first = assemble('u.pto', text);
    expect(printCanonical(first.module, first.types)).toContain(line.trim());
  });

  test('an operand in GM, a stride that is not i64, or a missing stride: errors at the op', () => {
    expect(microErrors(consts + VADD.replace('pto.ub.vadd %d', 'pto.ub.vadd %g').replace(`: ${P}`, ': !pto.ptr<f32, gm>'), params)).toEqual([
      "E0451: pto.ub.vadd: 'dst' must point to ub, got !pto.ptr<f32, gm>",
    ]);
    const i32 = '  %s = arith.constant 1 : i32\n';
    expect(microErrors(consts + i32 + `  pto.ub.vdup %d, %s, %c1, %c1, %c1, %c0, %c0 : ${P}, i32, ${I64S(5)}`, params)).toEqual([
      "E0451: pto.ub.vdup: 'scalar' must be i64, got i32",
    ]);
    expect(microErrors(consts + `  pto.ub.set_mask %c1 : i64`, params)).toHaveLength(1);
  });

  test('the VM says it does not run them yet', () => {
    const { program, types } = assemble('u.pto', 'func.func @k() {\n  pto.ub.set_mask_norm\n  return\n}\n');
    expect(() => runFunction(program, types, program.functions.get('k')!, new Map(), { numerics: 'npu', maxSteps: 100 })).toThrow(/is not implemented yet/);
  });
});
