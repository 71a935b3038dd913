/**
 * A micro-level op's types may be memrefs (PTOAS's cube loads take buffer-like operands): `memref<...>` in the type
 * list is a type, not a keyword group named `memref` before a type; a dynamic on-chip memref is a pointer into its
 * space, printed back as written.
 */
import { assemble } from '../../src/verify/assemble';
import { formatAll } from '../../src/diag/diagnostic';
import { printCanonical } from '../../src/emit/canonical';

const MAT = 'memref<?xf16, #pto.address_space<mat>>';
const LEFT = 'memref<?xf16, #pto.address_space<left>>';
const text = [
  'module attributes {pto.target_arch = "a5", pto.kernel_kind = #pto.kernel_kind<cube>} {',
  `  func.func @k(%src: ${MAT}, %dst: ${LEFT}) attributes {pto.kernel} {`,
  '    %c0 = arith.constant 0 : i64',
  '    %c16 = arith.constant 16 : i64',
  '    pto.mte_l1_l0a %src, %dst, %c16, %c16, %c0, %c0',
  `      : ${MAT}, ${LEFT}, i64, i64, i64, i64`,
  '    return',
  '  }',
  '}',
  '',
].join('\n');

test('pto.mte_l1_l0a over dynamic memrefs of L1 and L0A assembles, and its canonical form keeps the memref types', () => {
  const first = assemble('t.pto', text, { target: 'a5' });
  expect(formatAll(first.diags)).toBe('');
  const canonical = printCanonical(first.module, first.types);
  expect(canonical).toContain(`: ${MAT}, ${LEFT}, i64, i64, i64, i64`);
  const again = assemble('t.pto', canonical, { target: 'a5' });
  expect(formatAll(again.diags)).toBe('');
  expect(printCanonical(again.module, again.types)).toBe(canonical);
});
