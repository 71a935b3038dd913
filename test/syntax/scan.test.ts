/**
 * The scanner's nesting limit (LIMITS.nesting): statements nested past it are refused with one located error and
 * dropped before anything recurses over them; at the limit they are read as usual.
 */
import { assemble } from '../../src/verify/assemble';
import { formatAll } from '../../src/diag/diagnostic';
import { LIMITS } from '../../src/diag/limits';

/** `levels` scf.if nested in one another, the innermost holding one op, in a function that runs them. */
function nestedIfs(levels: number): string {
  const open = Array.from({ length: levels }, (_, i) => `${'  '.repeat(i + 2)}scf.if %t {`).join('\n');
  const close = Array.from({ length: levels }, (_, i) => `${'  '.repeat(levels - i + 1)}}`).join('\n');
  return `module {
  func.func @k() {
    %c0 = arith.constant 0 : index
    %t = arith.cmpi eq, %c0, %c0 : index
${open}
${'  '.repeat(levels + 2)}%z = arith.addi %c0, %c0 : index
${close}
    return
  }
}
`;
}

// The module and the function's body are two of the levels.
test(`regions nested ${LIMITS.nesting.value} deep are read; one more is an error at its '{'`, () => {
  expect(formatAll(assemble('ok.pto', nestedIfs(LIMITS.nesting.value - 2)).diags)).toBe('');
  const deep = nestedIfs(LIMITS.nesting.value - 1);
  const r = assemble('deep.pto', deep);
  const line = 5 + LIMITS.nesting.value - 2;
  expect(r.diags.items.map((d) => `${r.source.position(d.span.start).line}:${d.code} ${d.message}`)).toEqual([
    `${line}:E0106 regions nested deeper than ${LIMITS.nesting.value} levels: more than the assembler takes`,
  ]);
});

test('a thousand nested regions: one error, no stack overflow', () => {
  const r = assemble('deeper.pto', nestedIfs(1000));
  expect(r.diags.items.map((d) => d.code)).toEqual(['E0106']);
});

test("a block label's argument types nested past the limit: one error at the first bracket past it, no stack overflow", () => {
  for (const [open, close] of [
    ['(', ')'],
    ['<', '>'],
    ['[', ']'],
  ]) {
    const text = `module {\n  func.func @k() {\n    cf.br ^bb1\n  ^bb1(%a: ${open.repeat(2000)}i32${close.repeat(2000)}):\n    return\n  }\n}\n`;
    const r = assemble('label.pto', text);
    const deep = r.diags.items.filter((d) => d.code === 'E0106');
    expect(deep.map((d) => [r.source.position(d.span.start), d.message])).toEqual([
      // The label's own `(` (column 7) is the first level; the type's brackets start at column 12.
      [{ line: 4, col: 11 + LIMITS.nesting.value }, `brackets nested deeper than ${LIMITS.nesting.value} levels: more than the assembler takes`],
    ]);
  }
});
