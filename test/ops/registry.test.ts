/**
 * The op registry is the one place that knows the ops: what a definition says about its syntax must be
 * backed by the grammar (a body rule) and the canonical printer (a printer for that rule), and the names the
 * parser resolves come from it.
 */
import { PRINTED_SYNTAXES } from '../../src/emit/canonical';
import { opRegistry } from '../../src/ops/registry';
import { assemble } from '../../src/verify/assemble';
import { formatAll } from '../../src/diag/diagnostic';
import { ptoGrammar } from '../../src/syntax/grammar';

describe('the op registry', () => {
  const registry = opRegistry();
  const withSyntax = registry.definitions.filter((d) => d.syntax !== undefined);

  it('names a custom syntax for the structural ops and none for the table instructions', () => {
    expect(withSyntax.map((d) => d.name)).toEqual(expect.arrayContaining(['module', 'func.func', 'scf.for', 'arith.addi', 'pto.alloc_tile', 'pto.bind_tile']));
    expect(registry.lookup('pto.tadd')?.def.syntax).toBeUndefined();
  });

  it('names only body rules the grammar defines, each of which the canonical printer prints', () => {
    const rules = ptoGrammar().rules as Record<string, unknown>;
    const syntaxes = [...new Set(withSyntax.map((d) => d.syntax!))];
    expect(syntaxes.filter((s) => !(s in rules))).toEqual([]);
    expect(syntaxes.filter((s) => !PRINTED_SYNTAXES.has(s))).toEqual([]);
    // ...and the printer has nothing for a syntax no op uses.
    expect([...PRINTED_SYNTAXES].filter((s) => !syntaxes.includes(s))).toEqual([]);
  });

  it('resolves spellings to the canonical name, old ones marked deprecated', () => {
    expect(registry.syntaxOf('return')).toEqual({ name: 'func.return', syntax: 'ReturnBody', deprecated: false, hasRegions: false });
    expect(registry.syntaxOf('pto.subset')).toMatchObject({ name: 'pto.subview', deprecated: true });
    // The name once meant a view partition: a statement of that syntax is still read as one.
    expect(registry.syntaxOf('pto.subview')).toMatchObject({
      name: 'pto.subview',
      deprecated: false,
      formerly: { name: 'pto.partition_view', deprecated: true },
    });
    expect(registry.syntaxOf('pto.tadd_dps')).toMatchObject({ name: 'pto.tadd', deprecated: true });
    expect(registry.syntaxOf('pto.load_dps')).toMatchObject({ name: 'pto.tload', deprecated: true });
    expect(registry.syntaxOf('scf.while')).toMatchObject({ hasRegions: true });
    expect(registry.syntaxOf('pto.no_such_op')).toBeUndefined();
  });
});

describe("PTOAS's vector micro-ops (VPTO): their types, checked where written", () => {
  test('a VPTO register type that is not 256 bytes is reported where it is written', () => {
    const text = 'module {\n  func.func @f(%v: !pto.vreg<63xf32>) {\n    return\n  }\n}\n';
    expect(formatAll(assemble('v.pto', text).diags)).toContain("v.pto:2:20: error[E0201]: '!pto.vreg<63xf32>' expected exactly 256 bytes");
  });

  test('a pto name in neither the dialect nor the micro-ops stays unknown', () => {
    expect(opRegistry().unknownOpMessage('pto.vfoo')).toBe("unknown op 'pto.vfoo'");
    expect(opRegistry().unknownOpMessage('pto.vsel')).toContain('VPTO micro-op');
  });
});
