import { Assembled, assemble } from '../verify/assemble';
import { printCanonical } from './canonical';
import { levelOf } from './level';
import { LevelConversionError } from './level-convert/ast-edit';
import { moduleToLevel1 } from './level-convert/to-level1';
import { moduleToLevel2 } from './level-convert/to-level2';

export { LevelConversionError } from './level-convert/ast-edit';

/**
 * The text of an assembled, verified program at PTO-AS Level 1 (SSA tile values) or Level 2 (buffers, ins/outs).
 * A program already at that level (or with no tile instruction) prints in canonical form. A program that cannot be
 * expressed at the requested level throws a LevelConversionError located at the construct in the way.
 */
export function emitAtLevel(assembled: Assembled, level: 1 | 2): string {
  const current = levelOf(assembled.program);
  if (current === level || current === 'none') return printCanonical(assembled.module, assembled.types);
  const module = level === 2 ? moduleToLevel2(assembled.program, assembled.types) : moduleToLevel1(assembled.program, assembled.types);
  const text = printCanonical(module, assembled.types);
  checkConverted(assembled, text, level);
  return text;
}

/** The converted text must verify; if it does not, that is reported at the first function rather than printed. */
function checkConverted(original: Assembled, text: string, level: 1 | 2): void {
  const again = assemble(original.source.path, text, { target: original.program.target });
  const error = again.diags.items.find((d) => d.severity === 'error');
  if (!error) return;
  const where = again.source.position(error.span.start);
  const first = [...original.program.functions.values()][0];
  const direction = level === 2 ? 'L1 -> L2' : 'L2 -> L1';
  throw new LevelConversionError(
    `${direction}: the converted program does not verify (line ${where.line}: ${error.message}); this program cannot be expressed at Level ${level} by this converter`,
    first?.nameSpan ?? original.module.span,
  );
}
