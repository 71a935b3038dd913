/**
 * How diagnostics are kept and shown: a long source line is shown as a window around the caret, long runs in a
 * message are shortened, and a bag keeps LIMITS.diagnostics of them, then counts the rest under one note.
 */
import { DiagnosticBag, formatAll, formatDiagnostic } from '../../src/diag/diagnostic';
import { DIAGNOSTICS as D } from '../../src/diag/catalog';
import { LIMITS } from '../../src/diag/limits';
import { SourceFile } from '../../src/diag/source';

const error = (source: SourceFile, start: number, end: number, message = 'bad') =>
  formatDiagnostic(source, { severity: 'error', code: 'E0101', message, span: { start, end } });

describe('source excerpt', () => {
  test('a short line is shown whole with the caret under the span', () => {
    const source = new SourceFile('f.pto', 'ab\n\tcd efg\n');
    expect(error(source, 7, 10)).toBe('f.pto:2:5: error[E0101]: bad\n\tcd efg\n\t   ^~~');
  });

  test('a line of over 1000 characters is a window of 1000, 250 of them before the caret, with its cut sides marked', () => {
    const line = Array.from({ length: 5000 }, (_, i) => String.fromCharCode(97 + (i % 26))).join('');
    const source = new SourceFile('f.pto', line);
    const out = error(source, 2500, 2503).split('\n');
    expect(out[0]).toBe('f.pto:1:2501: error[E0101]: bad');
    expect(out[1]).toBe('...' + line.slice(2250, 3250) + '...');
    expect(out[2]).toBe(' '.repeat(3 + 250) + '^~~');
    // The caret's character is the span's first.
    expect(out[1][out[2].indexOf('^')]).toBe(line[2500]);
  });

  test('near either end of a long line the window stops at the end, with one side marked', () => {
    const line = 'x'.repeat(1500);
    const start = error(new SourceFile('f.pto', line), 2, 3).split('\n');
    expect(start[1]).toBe('x'.repeat(1000) + '...');
    expect(start[2]).toBe('  ^');
    const end = error(new SourceFile('f.pto', line), 1499, 1500).split('\n');
    expect(end[1]).toBe('...' + 'x'.repeat(1000));
    expect(end[2]).toBe(' '.repeat(3 + 999) + '^');
  });

  test('a span running past the window is underlined to its edge', () => {
    const source = new SourceFile('f.pto', 'y'.repeat(3000));
    const out = error(source, 1000, 2500).split('\n');
    // The underline stops at 200 characters in any case.
    expect(out[2]).toBe(' '.repeat(253) + '^' + '~'.repeat(199));
    const narrow = error(source, 1000, 1800).split('\n');
    expect(narrow[2]).toBe(' '.repeat(253) + '^' + '~'.repeat(199));
  });
});

test('a message with a run of more than 200 non-blank characters shows its ends and its length', () => {
  const digits = '1234567890'.repeat(3000);
  const source = new SourceFile('f.pto', 'x');
  const first = error(source, 0, 1, `${digits} does not fit in i32`).split('\n')[0];
  expect(first).toBe(`f.pto:1:1: error[E0101]: ${digits.slice(0, 60)}...${digits.slice(-20)} (30000 characters) does not fit in i32`);
  const words = 'word '.repeat(100);
  expect(error(source, 0, 1, words).split('\n')[0]).toBe(`f.pto:1:1: error[E0101]: ${words}`);
});

describe('the limit on diagnostics per file', () => {
  const source = new SourceFile('f.pto', 'abcdefghij'.repeat(300));
  const limit = LIMITS.diagnostics.value;

  const shown = `the tools show ${limit} errors and ${limit} warnings per file`;

  test(`a bag keeps ${limit} errors and ${limit} warnings, then counts the rest under one note at the first left out`, () => {
    const bag = new DiagnosticBag(source);
    for (let i = 0; i < limit + 3; i++) bag.report(D.oldSpelling, { start: i, end: i + 1 }, `w${i}`);
    for (let i = 0; i < limit + 2; i++) bag.report(D.syntaxError, { start: i, end: i + 1 }, `e${i}`);
    expect(bag.items.length).toBe(2 * limit + 1);
    // The note comes where the first warning was left out; the errors were still kept after it.
    const note = bag.items[limit];
    expect(note).toEqual({
      severity: 'note',
      message: `5 more diagnostics (2 of them errors) not shown, the first of them here: ${shown}`,
      span: { start: limit, end: limit + 1 },
    });
    expect(bag.items.filter((d) => d.severity === 'error').length).toBe(limit);
    // The errors left out still count: the file has errors, and how many.
    expect(bag.errorCount).toBe(limit + 2);
    expect(
      formatAll(bag)
        .split('\n')
        .filter((l) => l.startsWith('f.pto:')).length,
    ).toBe(2 * limit + 1);
  });

  test('warnings past the limit never crowd out an error (a fuzzer finding: exit 1 with no error shown)', () => {
    const bag = new DiagnosticBag(source);
    for (let i = 0; i < limit + 10; i++) bag.report(D.oldSpelling, { start: i, end: i + 1 }, 'w');
    bag.report(D.syntaxError, { start: 5, end: 6 }, 'the error');
    expect(bag.items.filter((d) => d.severity === 'error').map((d) => d.message)).toEqual(['the error']);
    expect(formatAll(bag)).toContain('f.pto:1:6: error[E0101]: the error');
  });

  test('a bag of warnings only stays without errors past the limit', () => {
    const bag = new DiagnosticBag(source);
    for (let i = 0; i < limit + 1; i++) bag.report(D.oldSpelling, { start: i, end: i + 1 }, 'w');
    expect(bag.hasErrors()).toBe(false);
    expect(bag.items[limit].message).toMatch(/^1 more warning not shown/);
  });

  test('absorbing another bag keeps the limit and its count of what it left out', () => {
    const a = new DiagnosticBag(source);
    const b = new DiagnosticBag(source);
    for (let i = 0; i < limit - 1; i++) a.report(D.syntaxError, { start: i, end: i }, 'a');
    for (let i = 0; i < limit + 3; i++) b.report(D.syntaxError, { start: i, end: i }, 'b');
    a.absorb(b);
    // 999 + 1003 errors: the first 1000 kept, 1002 counted.
    expect(a.items.length).toBe(limit + 1);
    expect(a.errorCount).toBe(2 * limit + 2);
    expect(a.items[limit].message).toMatch(/^1002 more errors not shown/);
  });

  test('rollback forgets what was reported after the mark, the note and its count included', () => {
    const bag = new DiagnosticBag(source);
    for (let i = 0; i < limit; i++) bag.report(D.syntaxError, { start: i, end: i }, 'x');
    const mark = bag.mark();
    bag.report(D.syntaxError, { start: 0, end: 0 }, 'speculative');
    expect(bag.errorCount).toBe(limit + 1);
    bag.rollback(mark);
    expect(bag.items.length).toBe(limit);
    expect(bag.errorCount).toBe(limit);
    bag.report(D.syntaxError, { start: 7, end: 7 }, 'y');
    bag.report(D.syntaxError, { start: 8, end: 8 }, 'z');
    const second = bag.mark();
    bag.report(D.syntaxError, { start: 9, end: 9 }, 'speculative');
    bag.rollback(second);
    expect(bag.items[limit]).toEqual({
      severity: 'note',
      message: `2 more errors not shown, the first of them here: ${shown}`,
      span: { start: 7, end: 7 },
    });
  });
});
