import { DiagnosticKind } from './catalog';
import { LIMITS } from './limits';
import { SourceFile, Span } from './source';

export type Severity = 'error' | 'warning' | 'note';

export interface Diagnostic {
  severity: Severity;
  /** The catalog code (`E0301`); every error and warning has one. */
  code?: string;
  message: string;
  span: Span;
  /** Notes attached to this diagnostic, e.g. where a value was defined. */
  notes?: { message: string; span: Span }[];
}

/** What `DiagnosticBag.mark` remembers. */
export interface BagMark {
  items: number;
  keptErrors: number;
  keptOthers: number;
  leftOut: number;
  leftOutErrors: number;
}

/**
 * Collects the diagnostics of one source file; every phase reports here instead of throwing. It keeps
 * LIMITS.diagnostics errors and as many warnings (apart, so that warnings never crowd out an error), then only counts
 * them: a note at the first one left out says how many there were.
 */
export class DiagnosticBag {
  readonly items: Diagnostic[] = [];
  private keptErrors = 0;
  private keptOthers = 0;
  private leftOut = 0;
  private leftOutErrors = 0;
  private leftOutNote?: Diagnostic;

  constructor(readonly source: SourceFile) {}

  /** Reports a problem of a kind of the catalog, at its severity. */
  report(kind: DiagnosticKind, span: Span, message: string, notes?: Diagnostic['notes']): void {
    this.add({
      severity: kind.severity,
      code: kind.code,
      message,
      span: this.clamp(span),
      notes: notes?.map((n) => ({ ...n, span: this.clamp(n.span) })),
    });
  }

  /** Takes the diagnostics of another bag of the same file, after this one's, under this bag's limit. */
  absorb(other: DiagnosticBag): void {
    for (const d of other.items) if (d !== other.leftOutNote) this.add(d);
    if (other.leftOut > 0) this.countLeftOut(other.leftOut, other.leftOutErrors, other.leftOutNote!.span);
  }

  private add(d: Diagnostic): void {
    const error = d.severity === 'error';
    if ((error ? this.keptErrors : this.keptOthers) < LIMITS.diagnostics.value) {
      if (error) this.keptErrors++;
      else this.keptOthers++;
      this.items.push(d);
    } else this.countLeftOut(1, error ? 1 : 0, d.span);
  }

  private countLeftOut(count: number, errors: number, span: Span): void {
    this.leftOut += count;
    this.leftOutErrors += errors;
    if (!this.leftOutNote) {
      this.leftOutNote = { severity: 'note', message: '', span };
      this.items.push(this.leftOutNote);
    }
    const n = this.leftOut;
    const what =
      this.leftOutErrors === n
        ? `error${n === 1 ? '' : 's'}`
        : this.leftOutErrors === 0
          ? `warning${n === 1 ? '' : 's'}`
          : `diagnostics (${this.leftOutErrors} of them errors)`;
    this.leftOutNote.message = `${n} more ${what} not shown, the first of them here: the tools show ${LIMITS.diagnostics.value} errors and ${LIMITS.diagnostics.value} warnings per file`;
  }

  /** Where a speculative step may begin; `rollback` forgets what was reported after it. */
  mark(): BagMark {
    return { items: this.items.length, keptErrors: this.keptErrors, keptOthers: this.keptOthers, leftOut: this.leftOut, leftOutErrors: this.leftOutErrors };
  }

  rollback(mark: BagMark): void {
    this.items.length = mark.items;
    this.keptErrors = mark.keptErrors;
    this.keptOthers = mark.keptOthers;
    this.leftOut = mark.leftOut;
    this.leftOutErrors = mark.leftOutErrors;
    if (this.leftOut === 0) this.leftOutNote = undefined;
    else this.countLeftOut(0, 0, this.leftOutNote!.span);
  }

  /** Problems found at the end of the file point at its last character, or at an empty span. */
  private clamp(span: Span): Span {
    const n = this.source.text.length;
    const start = Math.max(0, Math.min(span.start, n));
    return { start, end: Math.max(start, Math.min(span.end, n)) };
  }

  get errorCount(): number {
    let n = this.leftOutErrors;
    for (const d of this.items) if (d.severity === 'error') n++;
    return n;
  }

  hasErrors(): boolean {
    return this.leftOutErrors > 0 || this.items.some((d) => d.severity === 'error');
  }

  /** Diagnostics in source order (stable for equal positions). */
  sorted(): Diagnostic[] {
    return this.items
      .map((d, i) => ({ d, i }))
      .sort((a, b) => a.d.span.start - b.d.span.start || a.i - b.i)
      .map((x) => x.d);
  }
}

/** How diagnostics are printed. */
export interface FormatOptions {
  /** ANSI colours as clang and gcc use them: the severity word in its colour, the location and message bold, a green caret. */
  color?: boolean;
}

/** SGR codes: bold, and the severity words' colours (gcc's: red errors, magenta warnings, cyan notes; a green caret). */
const STYLE = { bold: '\x1b[1m', error: '\x1b[1;31m', warning: '\x1b[1;35m', note: '\x1b[1;36m', caret: '\x1b[1;32m', reset: '\x1b[0m' };

/** `FILE:LINE:COL: severity: message`, then the source line and a caret under the span. */
export function formatDiagnostic(source: SourceFile, d: Diagnostic, options: FormatOptions = {}): string {
  const out = [formatOne(source, d.severity, d.code, d.message, d.span, options)];
  for (const note of d.notes ?? []) out.push(formatOne(source, 'note', undefined, note.message, note.span, options));
  return out.join('\n');
}

/** 1-based line and column of a span's start and of the character after its end (SARIF's exclusive end column). */
export function spanLocation(source: SourceFile, span: Span): { line: number; column: number; endLine: number; endColumn: number } {
  const start = source.position(span.start);
  const end = source.position(span.end);
  return { line: start.line, column: start.col, endLine: end.line, endColumn: end.col };
}

/**
 * Source lines longer than this are shown as a window of it around the caret: a line can be megabytes long. (PTOAS's
 * longest test line has 921 characters.)
 */
const EXCERPT_WIDTH = 1000;
/** Runs of non-blank characters in a message longer than this are shortened (a number can have 30,000 digits). */
const MESSAGE_RUN = 200;

function formatOne(source: SourceFile, severity: Severity, code: string | undefined, message: string, span: Span, options: FormatOptions): string {
  const { line, col } = source.position(span.start);
  const fullLine = source.lineText(line);
  const end = source.position(Math.max(span.start, span.end - 1));
  const lastCol = end.line === line ? Math.max(col, end.col) : fullLine.length;
  // [from, to) of the line shown; `...` marks a side cut off.
  const from = fullLine.length <= EXCERPT_WIDTH ? 0 : Math.max(0, Math.min(col - 1 - EXCERPT_WIDTH / 4, fullLine.length - EXCERPT_WIDTH));
  const to = fullLine.length <= EXCERPT_WIDTH ? fullLine.length : from + EXCERPT_WIDTH;
  const before = from > 0 ? '...' : '';
  const lineText = before + fullLine.slice(from, to) + (to < fullLine.length ? '...' : '');
  const pad = before.replace(/./g, ' ') + fullLine.slice(from, col - 1).replace(/[^\t]/g, ' ');
  const width = Math.max(1, Math.min(lastCol, to) - col + 1);
  const caret = '^' + '~'.repeat(Math.max(0, Math.min(width, 200) - 1));
  const label = code ? `${severity}[${code}]` : severity;
  if (!options.color) return `${source.path}:${line}:${col}: ${label}: ${shortenRuns(message)}\n${lineText}\n${pad}${caret}`;
  const { bold, reset } = STYLE;
  return (
    `${bold}${source.path}:${line}:${col}: ${reset}${STYLE[severity]}${label}:${reset} ${bold}${shortenRuns(message)}${reset}\n` +
    `${lineText}\n${pad}${STYLE.caret}${caret}${reset}`
  );
}

function shortenRuns(message: string): string {
  if (message.length <= MESSAGE_RUN) return message;
  return message.replace(new RegExp(`\\S{${MESSAGE_RUN + 1},}`, 'g'), (run) => `${run.slice(0, 60)}...${run.slice(-20)} (${run.length} characters)`);
}

export function formatAll(bag: DiagnosticBag, options: FormatOptions = {}): string {
  return bag
    .sorted()
    .map((d) => formatDiagnostic(bag.source, d, options))
    .join('\n');
}
