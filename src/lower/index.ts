import { Assembled, assemble } from '../verify/assemble';
import { DEFAULT_PRODUCT } from '../ascendc/model/params';
import { paramsFromAttributes } from '../ops/instructions/ascendc-text-form';
import { printCanonical } from '../emit/canonical';
import { OpNode } from '../syntax/ast';
import { TileType } from '../types/type';
import { TypeTable } from '../syntax/type-table';
import { Program } from '../ir/program';
import { LOWERINGS, LoweringError } from './ascendc';
import { Emitter, TileValue } from './emitter';

export { LoweringError };

/** A name prefix that no SSA name of the text starts with, so the lowering's fresh names cannot collide. */
function freshPrefix(text: string): string {
  let prefix = 'lw';
  while (text.includes('%' + prefix)) prefix += 'x';
  return prefix + '_';
}

/**
 * The lowered program as PTO-AS text: every AscendC/TIK op of a verified program replaced by PTO tile
 * ops (src/lower/ascendc.ts), everything else printed canonically. The text is meant to be assembled
 * again (`pto-as` accepts it; the VM runs it).
 */
export function lowerToText(program: Program, types: TypeTable, sourceText: string): string {
  const prefix = freshPrefix(sourceText);
  let count = 0;
  return printCanonical(program.module, types, (op: OpNode) => {
    const bound = program.instructions.get(op);
    const lower = bound && LOWERINGS[bound.spec.opName];
    if (!bound || !lower) return undefined;
    const operand = (name: string): TileValue | undefined => {
      const b = bound.operands.get(name);
      if (!b?.use?.value || b.type.kind !== 'tile') return undefined;
      const ref = b.use.value;
      return { name: ref.index !== undefined ? `${ref.name}#${ref.index}` : ref.name, type: b.type as TileType };
    };
    const src = operand('src');
    const dst = operand('dst');
    if (!src || !dst) throw new LoweringError(`${op.name}: the operands are not tiles`, op.nameSpan);
    for (const t of [src, dst]) {
      if (t.type.slayout !== 'none_box') throw new LoweringError(`${op.name}: lowering a boxed (fractal) ${t.name} is not implemented yet`, op.nameSpan);
    }
    const { params, problems } = paramsFromAttributes(op, bound.spec, src.type.dtype, DEFAULT_PRODUCT);
    if (!params) throw new LoweringError(`${op.name}: ${problems.map((p) => p.message).join('; ')}`, op.nameSpan);
    const emitter = new Emitter(`${prefix}${count++}_`);
    lower(emitter, { src, dst, inPlace: src.name === dst.name }, params);
    return emitter.lines();
  });
}

/** The first op (in source order) that lowering rewrites, if any. */
export function firstLowerableOp(program: Program): OpNode | undefined {
  let first: OpNode | undefined;
  for (const [op, bound] of program.instructions) {
    if (LOWERINGS[bound.spec.opName] && (!first || op.span.start < first.span.start)) first = op;
  }
  return first;
}

/**
 * The lowered program, assembled again. Its diagnostics would be the lowering's own mistakes, so they
 * are returned for the caller to report as such.
 */
export function lowerProgram(assembled: Assembled): Assembled {
  const text = lowerToText(assembled.program, assembled.types, assembled.source.text);
  const lowered = assemble(`${assembled.source.path} (lowered)`, text, { target: assembled.program.target });
  const first = lowered.diags.items.find((d) => d.severity === 'error');
  if (first) {
    const at = lowered.source.position(first.span.start);
    throw new LoweringError(
      `internal error: the lowered program does not verify (line ${at.line}: ${first.message}); run with --direct`,
      assembled.module.span,
    );
  }
  return lowered;
}
