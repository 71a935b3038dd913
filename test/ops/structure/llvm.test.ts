/**
 * The LLVM-dialect ops PTOAS's SIMT kernels write (src/ops/structure/llvm.ts): read in MLIR's forms, their types
 * checked, printed back as written; the VM says it does not run them yet.
 */
import { assemble } from '../../../src/verify/assemble';
import { formatAll } from '../../../src/diag/diagnostic';
import { printCanonical } from '../../../src/emit/canonical';
import { runFunction } from '../../../src/vm/interpreter';

const kernel = (lines: string[]) =>
  [
    'module attributes {pto.target_arch = "a5"} {',
    '  func.func @k() {',
    '    %c2 = arith.constant 2 : i32',
    '    %c4 = arith.constant 4 : i64',
    '    %one = arith.constant 1.0 : f32',
    ...lines.map((l) => '    ' + l),
    '    return',
    '  }',
    '}',
    '',
  ].join('\n');

const FRAGMENT = [
  '%f = llvm.alloca %c2 x f32 {pto.persistent} : (i32) -> !llvm.ptr',
  'llvm.store %one, %f : f32, !llvm.ptr',
  '%e = llvm.getelementptr %f[%c4] : (!llvm.ptr, i64) -> !llvm.ptr, i8',
  'llvm.store %one, %e : f32, !llvm.ptr',
  '%v = llvm.load %e : !llvm.ptr -> f32',
];
const errors = (text: string) =>
  formatAll(assemble('t.pto', text, { target: 'a5' }).diags)
    .split('\n')
    .filter((l) => /error/.test(l));

describe('llvm.alloca, llvm.getelementptr, llvm.load, llvm.store', () => {
  test('a persistent fragment written as PTOAS writes it assembles, and its canonical form is a fixed point', () => {
    const first = assemble('t.pto', kernel(FRAGMENT), { target: 'a5' });
    expect(formatAll(first.diags)).toBe('');
    const canonical = printCanonical(first.module, first.types);
    expect(canonical).toContain('%f = llvm.alloca %c2 x f32 {pto.persistent} : (i32) -> !llvm.ptr');
    expect(canonical).toContain('%e = llvm.getelementptr %f[%c4] : (!llvm.ptr, i64) -> !llvm.ptr, i8');
    const again = assemble('t.pto', canonical, { target: 'a5' });
    expect(formatAll(again.diags)).toBe('');
    expect(printCanonical(again.module, again.types)).toBe(canonical);
  });

  test('types that disagree with the operands, or a result that is not a pointer, are E0438 errors', () => {
    expect(errors(kernel(['%f = llvm.alloca %c4 x f32 : (i32) -> !llvm.ptr']))).toEqual([
      't.pto:6:34: error[E0438]: llvm.alloca: operand 1 is i64, but its type is written i32',
    ]);
    expect(errors(kernel(['%f = llvm.alloca %c2 x f32 : (i32) -> i32']))).toEqual(['t.pto:6:34: error[E0438]: llvm.alloca gives an !llvm.ptr, not i32']);
    expect(errors(kernel(['llvm.store %one, %c4 : f32, i64']))).toEqual(['t.pto:6:22: error[E0438]: llvm.store: the address must be an !llvm.ptr, got i64']);
    expect(errors(kernel(['%v = llvm.load %one : f32']))).toEqual([
      "t.pto:6:10: error[E0438]: llvm.load expects '-> type'",
      "t.pto:6:10: error[E0438]: llvm.load is written '%v = llvm.load %p : !llvm.ptr -> T'",
    ]);
  });

  test('llvm.extractelement reads a lane of a vector at a run-time position: a scalar of its element type', () => {
    const lines = [
      '%w = arith.constant dense<[1.000000e+00, 2.000000e+00]> : vector<2xf32>',
      '%x = llvm.extractelement %w[%c2 : i32] : vector<2xf32>',
      '%y = arith.addf %x, %one : f32',
    ];
    const first = assemble('t.pto', kernel(lines), { target: 'a5' });
    expect(formatAll(first.diags)).toBe('');
    const canonical = printCanonical(first.module, first.types);
    expect(canonical).toContain('%x = llvm.extractelement %w[%c2 : i32] : vector<2xf32>');
    expect(printCanonical(assemble('t.pto', canonical, { target: 'a5' }).module, first.types)).toBe(canonical);
    expect(errors(kernel(['%x = llvm.extractelement %c2[%c4 : i64] : i32']))).toEqual([
      't.pto:6:30: error[E0438]: llvm.extractelement takes a vector of scalars, got i32',
    ]);
  });

  test('llvm.inttoptr and llvm.ptrtoint in the cast form', () => {
    const lines = ['%p = llvm.inttoptr %c4 : i64 to !llvm.ptr<6>', '%a = llvm.ptrtoint %p : !llvm.ptr<6> to i64'];
    const first = assemble('t.pto', kernel(lines), { target: 'a5' });
    expect(formatAll(first.diags)).toBe('');
    const canonical = printCanonical(first.module, first.types);
    for (const l of lines) expect(canonical).toContain(l);
    expect(errors(kernel(['%p = llvm.inttoptr %one : f32 to !llvm.ptr']))).toEqual([
      't.pto:6:24: error[E0438]: llvm.inttoptr: the source must be a signless integer, got f32',
    ]);
  });

  test('the VM says it does not run them yet', () => {
    const { program, types } = assemble('t.pto', kernel(FRAGMENT), { target: 'a5' });
    expect(() => runFunction(program, types, program.functions.get('k')!, new Map(), { numerics: 'npu', maxSteps: 100 })).toThrow(
      /llvm\.alloca is not implemented yet/,
    );
  });
});
