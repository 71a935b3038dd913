/**
 * MLIR lets an op with results be written without naming them (PTOAS's VPTO lit tests write loops whose carried
 * values nothing reads after the loop: `scf.for ... iter_args(...) -> (index, index) { ... }`): such an op is
 * accepted; a count of names that is neither 0 nor the op's is still an error.
 */
import { at, diagLines, kernel, run } from '../fixtures/verify/helpers';
import { printCanonical } from '../../src/emit/canonical';

const loop = (names: string) =>
  kernel([
    '%c0 = arith.constant 0 : index',
    '%c1 = arith.constant 1 : index',
    '%c4 = arith.constant 4 : index',
    `${names}scf.for %i = %c0 to %c4 step %c1 iter_args(%a = %c0, %b = %c1) -> (index, index) {`,
    '  %n = arith.addi %a, %i : index',
    '  scf.yield %n, %b : index, index',
    '}',
    'return',
  ]);

describe('results written without names', () => {
  test('an scf.for that carries two values and names none is accepted, and prints back without names', () => {
    const r = run(loop(''), 'a5');
    expect(diagLines(r)).toEqual([]);
    expect(printCanonical(r.module, r.types)).toMatch(/\n\s+scf\.for %i = /);
  });

  test('an arith.constant whose result is not named is accepted', () => {
    expect(diagLines(run(kernel(['arith.constant 7 : i32', 'return']), 'a5'))).toEqual([]);
  });

  test('naming one of two results is still an error', () => {
    const text = loop('%r = ');
    expect(diagLines(run(text, 'a5'))).toEqual([`${at(text, '%r')}: error[E0306]: 'scf.for' produces 2 result(s), but 1 is named`]);
  });
});
