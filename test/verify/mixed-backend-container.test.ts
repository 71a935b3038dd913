/**
 * PTOAS's driver (resolveSingleBackend) builds an outer module of two or more child modules, with no back end named
 * on the command line or the outer module, as a fat object of one compile unit per child; a function beside the
 * child modules is an error there (PTOAS's lit test backend_mixed_reject_stray_outer_func.pto).
 */
import { assemble } from '../../src/verify/assemble';
import { formatAll } from '../../src/diag/diagnostic';
import { CodeBackend } from '../../src/ir/definition';

const errors = (text: string, backend?: CodeBackend) =>
  formatAll(assemble('t.pto', text, { target: 'a5', backend }).diags)
    .split('\n')
    .filter((l) => /error/.test(l));

const child = (attrs: string, name: string) => `  module${attrs} {\n    func.func @${name}() {\n      return\n    }\n  }\n`;
const stray = '  func.func @stray() {\n    return\n  }\n';
const outer = (attrs: string, body: string) => `module${attrs} {\n${body}}\n`;

describe('an outer module of child modules with no back end named', () => {
  test('a function beside two child modules: E0310 at the function', () => {
    const text = outer('', child(' attributes {pto.backend = "emitc"}', 'a') + stray + child(' attributes {pto.backend = "vpto"}', 'b'));
    expect(errors(text)).toEqual([
      't.pto:7:3: error[E0310]: mixed pto.backend fatobj mode expects either a single module or an outer module containing only child modules; found non-module top-level ops alongside child modules',
    ]);
  });

  test('only child modules, one child beside a function, or a back end named: accepted', () => {
    expect(errors(outer('', child('', 'a') + child('', 'b')))).toEqual([]);
    expect(errors(outer('', child('', 'a') + stray))).toEqual([]);
    expect(errors(outer(' attributes {pto.backend = "emitc"}', child('', 'a') + stray + child('', 'b')))).toEqual([]);
    expect(errors(outer('', child('', 'a') + stray + child('', 'b')), 'vpto')).toEqual([]);
  });
});
