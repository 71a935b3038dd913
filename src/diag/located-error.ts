import { DiagnosticKind } from './catalog';
import { Diagnostic } from './diagnostic';
import { Span } from './source';

/**
 * A problem found where the tools cannot go on (a trap while the program runs, a program that cannot be
 * converted or lowered), thrown to the command that reports it: a catalog kind, a message and a location.
 */
export class LocatedError extends Error {
  constructor(
    readonly kind: DiagnosticKind,
    message: string,
    readonly span: Span,
    /** Other places the problem involves (every core of a deadlock, where it waits). */
    readonly notes?: { message: string; span: Span }[],
  ) {
    super(message);
  }

  get diagnostic(): Diagnostic {
    return { severity: this.kind.severity, code: this.kind.code, message: this.message, span: this.span, ...(this.notes ? { notes: this.notes } : {}) };
  }
}
