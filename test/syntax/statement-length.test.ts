/**
 * The statement length limit (LIMITS.statementLength): a statement or block label longer than it, its regions left
 * out, is one located error and is dropped before the grammar's matcher sees it (whose memory grows with the length);
 * at the limit it is read as usual.
 */
import { assemble } from '../../src/verify/assemble';
import { formatAll } from '../../src/diag/diagnostic';
import { LIMITS } from '../../src/diag/limits';

const limit = LIMITS.statementLength.value;

/** A function whose header carries an array attribute padded so the header is exactly `length` characters. */
function headerOf(length: number): string {
  const fixed = 'func.func @k() attributes {x = []} {'.length;
  const items = Math.floor((length - fixed + 2) / 3); // `1, ` each, the last without `, `
  let header = `func.func @k() attributes {x = [${Array(items).fill('1').join(', ')}]} {`;
  // Pad with spaces inside the brackets to hit the length exactly.
  header = header.replace('[', '[' + ' '.repeat(length - header.length));
  return header;
}

function program(header: string, body = ''): string {
  return `module {\n  ${header}\n${body}    return\n  }\n}\n`;
}

test(`a statement of ${limit} characters is read; one more is an error at its start`, () => {
  // The statement's text runs from `func.func` to the `{` of its body (which is a region, not counted).
  const ok = headerOf(limit + 1);
  expect(formatAll(assemble('ok.pto', program(ok)).diags)).toBe('');
  const r = assemble('long.pto', program(headerOf(limit + 2)));
  expect(r.diags.items.map((d) => [r.source.position(d.span.start), d.code, d.message])).toEqual([
    [{ line: 2, col: 3 }, 'E0106', `a statement of ${limit + 1} characters: longer than the ${limit} the assembler takes`],
  ]);
});

test('the regions a statement holds do not count: a long body is read', () => {
  const body = Array.from({ length: Math.ceil((2 * limit) / 34) }, (_, i) => `    %c${i} = arith.constant 1 : index\n`).join('');
  const r = assemble('body.pto', program('func.func @k() {', body));
  expect(r.diags.items.length).toBe(0);
});

test('a block label longer than the limit is an error at the label', () => {
  const args = Array.from({ length: limit / 10 }, (_, i) => `%a${i}: i32`).join(', ');
  const text = `module {\n  func.func @k() {\n    cf.br ^bb1\n  ^bb1(${args}):\n    return\n  }\n}\n`;
  const r = assemble('label.pto', text);
  const errors = r.diags.items.filter((d) => d.code === 'E0106');
  expect(errors.map((d) => [r.source.position(d.span.start), d.message.replace(/\d+ characters/, 'N characters')])).toEqual([
    [{ line: 4, col: 3 }, `a block label of N characters: longer than the ${limit} the assembler takes`],
  ]);
});

test('an array attribute of a million elements is one error, and the statements around it are still checked', () => {
  const elements = Array(1e6).fill('1').join(', ');
  const text = `module {
  func.func @k() attributes {x = [${elements}]} {
    return
  }
  func.func @m(%a: i32) {
    %b = arith.addi %a, %a : f32
    return
  }
}
`;
  const r = assemble('huge.pto', text);
  expect(r.diags.sorted().map((d) => [r.source.position(d.span.start).line, d.code, d.message])).toEqual([
    // The line without its indent and the `{` that opens the body.
    [2, 'E0106', `a statement of ${text.split('\n')[1].length - 3} characters: longer than the ${limit} the assembler takes`],
    [6, 'E0203', 'type of %a is i32, but this use says f32'],
    [6, 'E0203', 'type of %a is i32, but this use says f32'],
  ]);
});

test('comments after the last op do not count: a module followed by pages of FileCheck lines is read', () => {
  const checks = Array.from({ length: 2 * (limit / 40) }, (_, i) => `// CHECK: pto.tadd {{.*}} "line ${i}" // more`).join('\n');
  const text = `module {\n  func.func @k() {\n    return // done\n  }\n}\n${checks}\n`;
  expect(text.length).toBeGreaterThan(2 * limit);
  const r = assemble('checks.pto', text);
  expect(r.diags.items).toEqual([]);
  // The module's span ends at its `}`.
  expect(r.module.ops[0].span.end).toBe(text.indexOf('}\n// CHECK') + 1);
});
