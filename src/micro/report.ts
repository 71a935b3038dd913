import { DIAGNOSTICS as D } from '../diag/catalog';
import { OpVerifier } from '../ir/definition';

type At = Parameters<OpVerifier['error']>[0];

/**
 * How a micro-level op's verifier reports, under the op's name: `formatError` when the op is not written in its
 * format (E0450: `pto.x expects ...`), `err` when a value or attribute breaks a rule (E0451: `pto.x: ...`).
 */
export function microReporters(v: OpVerifier, name: string): { formatError: (span: At, message: string) => void; err: (span: At, message: string) => void } {
  return {
    formatError: (span, message) => v.error(span, `${name} ${message}`, undefined, D.microFormat),
    err: (span, message) => v.error(span, `${name}: ${message}`, undefined, D.microOperand),
  };
}
