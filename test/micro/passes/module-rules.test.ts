/**
 * Module rules of ptoas's VPTO back end. A child module the back end compiles must carry `pto.kernel_kind`
 * (VPTONormalizeContainer.cpp: "expected VPTO kernel submodule to carry 'pto.kernel_kind'"; which child it
 * compiles: tools/ptoas/driver.cpp resolveSingleBackend / collectChildJobs). Expected values from those files and
 * PTOAS's test/lit/vpto/backend_vpto_child_missing_kernel_kind_invalid.pto.
 */
import { CodeBackend } from '../../../src/ir/definition';
import { errorsAt } from '../../fixtures/micro';

/** Each error as `code line:col`. */
const errors = (text: string, backend?: CodeBackend): string[] => errorsAt(text, { target: 'a5', backend });

/** An outer module (attributes `outer`) of children, each given by its attributes and its function's body. */
function container(outer: string, ...children: [string, string][]): string {
  const mods = children.map(
    ([attrs, body], i) => `  module${attrs ? ` attributes {${attrs}}` : ''} {\n    func.func @f${i}() {\n${body}      return\n    }\n  }\n`,
  );
  return `module attributes {${outer}} {\n${mods.join('')}}\n`;
}

const A5 = 'pto.target_arch = "a5"';
const VPTO = 'pto.backend = "vpto"';
const EMITC = 'pto.backend = "emitc"';
const VECTOR = 'pto.kernel_kind = #pto.kernel_kind<vector>';

describe('a child module the VPTO back end compiles carries pto.kernel_kind', () => {
  test('a vpto child without a kind is reported at the child module', () => {
    expect(errors(container(A5, [VPTO, '']))).toEqual(['E0485 2:3']);
    // Beside an emitc child (a mixed fat object): the vpto child is still compiled as a kernel module.
    expect(errors(container(A5, [EMITC, ''], [VPTO, '']))).toEqual(['E0485 7:3']);
  });

  test('when the command line or the outer module names vpto, every child is compiled by it', () => {
    expect(errors(container(A5, ['', '']), 'vpto')).toEqual(['E0485 2:3']);
    expect(errors(container(`${A5}, ${VPTO}`, [EMITC, '']))).toEqual(['E0485 2:3']);
  });

  test('a child with its kind, an emitc child, or a child with code to infer its kind from is accepted', () => {
    expect(errors(container(A5, [`${VPTO}, ${VECTOR}`, '']))).toEqual([]);
    expect(errors(container(A5, [EMITC, ''], ['', '']))).toEqual([]);
    expect(errors(container(A5, [VPTO, '      pto.section.vector {\n      }\n']))).toEqual([]);
    // normalize_uncovered_raw_vpto_vector_module_kind.pto: ptoas infers vector from the micro-ops.
    expect(errors(container(A5, [VPTO, '      %m = pto.pset_b32 "PAT_ALL" : !pto.mask<b32>\n']))).toEqual([]);
    // The outer module's kind covers its children; a top-level module is no child.
    expect(errors(container(`${A5}, ${VECTOR}`, [VPTO, '']))).toEqual([]);
    expect(errors(`module attributes {${A5}, ${VPTO}} {\n  func.func @k() {\n    return\n  }\n}\n`)).toEqual([]);
  });
});
