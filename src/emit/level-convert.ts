import { DiagnosticBag } from '../diag/diagnostic';
import { Module } from '../syntax/ast';
import { Assembled } from '../verify/assemble';
import { verifyModule } from '../verify/verifier';
import { printCanonical } from './canonical';
import { levelOf } from './level';
import { conversionError } from './level-convert/ast-edit';
import { moduleToLevel1 } from './level-convert/to-level1';
import { moduleToLevel2 } from './level-convert/to-level2';

/**
 * The text of an assembled, verified program at PTO-AS Level 1 (SSA tile values) or Level 2 (buffers, ins/outs).
 * A program already at that level (or with no tile instruction) prints in canonical form. A program that cannot be
 * expressed at the requested level throws a LocatedError (levelConversion) located at the construct in the way.
 */
export function emitAtLevel(assembled: Assembled, level: 1 | 2): string {
  const current = levelOf(assembled.program);
  if (current === level || current === 'none') return printCanonical(assembled.module, assembled.types);
  const module = level === 2 ? moduleToLevel2(assembled.program, assembled.types) : moduleToLevel1(assembled.program, assembled.types);
  checkConverted(assembled, module, level);
  return printCanonical(module, assembled.types);
}

/**
 * The converted module must verify; if it does not, that is reported at the first function rather than printed.
 * Its ops keep the spans of the constructs they come from, so the verifier's finding points into the original.
 */
function checkConverted(original: Assembled, module: Module, level: 1 | 2): void {
  const diags = new DiagnosticBag(original.source);
  verifyModule(module, original.types, diags, { target: original.program.target });
  const error = diags.items.find((d) => d.severity === 'error');
  if (!error) return;
  const where = original.source.position(error.span.start);
  const first = [...original.program.functions.values()][0];
  const direction = level === 2 ? 'L1 -> L2' : 'L2 -> L1';
  throw conversionError(
    `${direction}: the converted program does not verify (${error.message}, from line ${where.line}); this program cannot be expressed at Level ${level} by this converter`,
    first?.nameSpan ?? original.module.span,
  );
}
