import { DIAGNOSTICS as D } from './catalog';
import { Diagnostic, Severity } from './diagnostic';
import { SourceFile, Span } from './source';

/**
 * mlir-opt's test conventions, for `pto-as --verify-diagnostics` and `--split-input-file`: a file says in comments
 * which diagnostics it expects, `// expected-error@+1 {{substring}}` (or `expected-warning`, `expected-note`; `@-N`,
 * `@+N`, `@above`, `@below`, or nothing for its own line), and passes when it gets exactly those: each expected one
 * produced (on that line, of that severity, its message containing the substring) and each produced one expected.
 */

/** One `expected-*` comment. */
export interface Expectation {
  severity: Severity;
  /** What the message must contain. */
  substring: string;
  /** The 1-based line the diagnostic is expected on. */
  line: number;
  /** The `expected-...` text, where a missing diagnostic is reported. */
  span: Span;
}

// mlir's pattern (one designator per line, its `{{...}}` ending the line); `-re` is matched to be refused.
const DESIGNATOR = /expected-(error|warning|note|remark)(-re)? *(?:@([+-]\d+|above|below|unknown))? *\{\{(.*)\}\}\s*$/;

/** The file's expectations, and its designators pto-as cannot check (reported as problems). */
export function readExpectations(source: SourceFile): { expectations: Expectation[]; problems: Diagnostic[] } {
  const expectations: Expectation[] = [];
  const problems: Diagnostic[] = [];
  /** `@below` designators waiting for the next line that is not a designator. */
  let below: Expectation[] = [];
  let lastPlainLine = 0;
  const lines = source.text.split('\n');
  let offset = 0;
  lines.forEach((text, i) => {
    const line = i + 1;
    const m = DESIGNATOR.exec(text);
    const start = offset;
    offset += text.length + 1;
    if (!m) {
      for (const e of below) e.line = line;
      below = [];
      lastPlainLine = line;
      return;
    }
    const span = { start: start + m.index, end: start + m.index + m[0].trimEnd().length };
    if (m[1] === 'remark' || m[2]) {
      const what = m[2] ? `expected-${m[1]}-re (a regular expression)` : 'expected-remark (pto-as reports no remarks)';
      problems.push({ severity: 'error', code: D.diagnosticExpectation.code, message: `${what} is not supported`, span });
      return;
    }
    const at = m[3];
    const expectation: Expectation = { severity: m[1] as Severity, substring: m[4], line, span };
    if (at === 'above') expectation.line = lastPlainLine;
    else if (at === 'below') {
      // A designator with no line after it expects a diagnostic past the end, which none can be.
      expectation.line = lines.length + 1;
      below.push(expectation);
    } else if (at === 'unknown') expectation.line = 0;
    else if (at !== undefined) expectation.line = line + Number(at);
    expectations.push(expectation);
  });
  return { expectations, problems };
}

/**
 * What a file's expectations say of the diagnostics it got (notes count on their own, as MLIR's do): one error for
 * each one produced and not expected, and for each one expected and not produced. None: the file passes.
 */
export function checkExpectations(source: SourceFile, produced: readonly Diagnostic[]): Diagnostic[] {
  const { expectations, problems } = readExpectations(source);
  const open = new Set(expectations);
  const report = (message: string, span: Span): Diagnostic => ({ severity: 'error', code: D.diagnosticExpectation.code, message, span });
  const flat = produced.flatMap((d) => [d, ...(d.notes ?? []).map((n) => ({ severity: 'note' as const, message: n.message, span: n.span }))]);
  for (const d of flat) {
    const line = source.position(d.span.start).line;
    const match = [...open].find((e) => e.severity === d.severity && e.line === line && d.message.includes(e.substring));
    if (match) open.delete(match);
    else problems.push(report(`unexpected ${d.severity}: ${d.message}`, d.span));
  }
  for (const e of open) problems.push(report(`expected ${e.severity} "${e.substring}" was not produced`, e.span));
  return problems.sort((a, b) => a.span.start - b.span.start);
}

/** `--split-input-file`: a line `// -----` separates chunks. */
const SPLIT_MARKER = /^\s*\/\/ -----\s*$/;

/**
 * The chunks of a file split as mlir-opt's --split-input-file splits it, each padded with the newlines before it so
 * that its diagnostics have the line numbers of the whole file.
 */
export function splitInputFile(text: string): string[] {
  const lines = text.split('\n');
  const chunks: string[] = [];
  let first = 0;
  const flush = (end: number) => chunks.push('\n'.repeat(first) + lines.slice(first, end).join('\n'));
  lines.forEach((line, i) => {
    if (!SPLIT_MARKER.test(line)) return;
    flush(i);
    first = i + 1;
  });
  flush(lines.length);
  return chunks;
}
