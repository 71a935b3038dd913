import { DiagnosticKind } from './catalog';
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

/** Collects the diagnostics of one source file; every phase reports here instead of throwing. */
export class DiagnosticBag {
  readonly items: Diagnostic[] = [];

  constructor(readonly source: SourceFile) {}

  /** Reports a problem of a kind of the catalog, at its severity. */
  report(kind: DiagnosticKind, span: Span, message: string, notes?: Diagnostic['notes']): void {
    this.items.push({
      severity: kind.severity,
      code: kind.code,
      message,
      span: this.clamp(span),
      notes: notes?.map((n) => ({ ...n, span: this.clamp(n.span) })),
    });
  }

  /** Problems found at the end of the file point at its last character, or at an empty span. */
  private clamp(span: Span): Span {
    const n = this.source.text.length;
    const start = Math.max(0, Math.min(span.start, n));
    return { start, end: Math.max(start, Math.min(span.end, n)) };
  }

  get errorCount(): number {
    let n = 0;
    for (const d of this.items) if (d.severity === 'error') n++;
    return n;
  }

  hasErrors(): boolean {
    return this.items.some((d) => d.severity === 'error');
  }

  /** Diagnostics in source order (stable for equal positions). */
  sorted(): Diagnostic[] {
    return this.items
      .map((d, i) => ({ d, i }))
      .sort((a, b) => a.d.span.start - b.d.span.start || a.i - b.i)
      .map((x) => x.d);
  }
}

/** `FILE:LINE:COL: severity: message`, then the source line and a caret under the span. */
export function formatDiagnostic(source: SourceFile, d: Diagnostic): string {
  const out = [formatOne(source, d.code ? `${d.severity}[${d.code}]` : d.severity, d.message, d.span)];
  for (const note of d.notes ?? []) out.push(formatOne(source, 'note', note.message, note.span));
  return out.join('\n');
}

function formatOne(source: SourceFile, severity: string, message: string, span: Span): string {
  const { line, col } = source.position(span.start);
  const lineText = source.lineText(line);
  const end = source.position(Math.max(span.start, span.end - 1));
  const width = end.line === line ? Math.max(1, end.col - col + 1) : Math.max(1, lineText.length - col + 1);
  const pad = lineText.slice(0, col - 1).replace(/[^\t]/g, ' ');
  const caret = '^' + '~'.repeat(Math.max(0, Math.min(width, 200) - 1));
  return `${source.path}:${line}:${col}: ${severity}: ${message}\n${lineText}\n${pad}${caret}`;
}

export function formatAll(bag: DiagnosticBag): string {
  return bag
    .sorted()
    .map((d) => formatDiagnostic(bag.source, d))
    .join('\n');
}
