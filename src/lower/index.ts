import { DiagnosticBag } from '../diag/diagnostic';
import { Span } from '../diag/source';
import { printCanonical } from '../emit/canonical';
import { Program } from '../ir/program';
import { Block, Module, OpNode } from '../syntax/ast';
import { TypeTable } from '../syntax/type-table';
import { TileType } from '../types/type';
import { Assembled } from '../verify/assemble';
import { verifyModule } from '../verify/verifier';
import { LOWERINGS } from './ascendc';
import { DIAGNOSTICS } from '../diag/catalog';
import { LocatedError } from '../diag/located-error';
import { Emitter, TileValue } from './emitter';

/** A program the lowering cannot rewrite, located at the op concerned. */
const loweringError = (message: string, span: Span): LocatedError => new LocatedError(DIAGNOSTICS.lowering, message, span);

/** A name prefix that no SSA name of the text starts with, so the lowering's fresh names cannot collide. */
function freshPrefix(text: string): string {
  let prefix = 'lw';
  while (text.includes('%' + prefix)) prefix += 'x';
  return prefix + '_';
}

/**
 * The lowered module: every AscendC/TIK op of a verified program replaced by PTO tile ops (src/lower/ascendc.ts),
 * built as IR; everything else is the program's own AST.
 */
export function lowerModule(program: Program, sourceText: string): Module {
  const prefix = freshPrefix(sourceText);
  let count = 0;
  const lowerOp = (op: OpNode): OpNode[] => {
    const bound = program.instructions.get(op);
    const lower = bound && LOWERINGS[bound.spec.opName];
    if (!bound || !lower) return [op.regions.length > 0 ? { ...op, regions: op.regions.map((r) => ({ ...r, blocks: r.blocks.map(lowerBlock) })) } : op];
    const operand = (name: string): TileValue | undefined => {
      const b = bound.operands.get(name);
      if (!b?.use?.value || b.type.kind !== 'tile') return undefined;
      const ref = b.use.value;
      return { name: ref.index !== undefined ? `${ref.name}#${ref.index}` : ref.name, type: b.type as TileType };
    };
    const src = operand('src');
    const dst = operand('dst');
    if (!src || !dst) throw loweringError(`${op.name}: the operands are not tiles`, op.nameSpan);
    for (const t of [src, dst]) {
      if (t.type.slayout !== 'none_box') throw loweringError(`${op.name}: lowering a boxed (fractal) ${t.name} is not implemented yet`, op.nameSpan);
    }
    if (!bound.ascendc) throw loweringError(`${op.name}: its attributes did not verify`, op.nameSpan);
    const emitter = new Emitter(`${prefix}${count++}_`, op.span);
    lower(emitter, { src, dst, inPlace: src.name === dst.name }, bound.ascendc);
    return emitter.ops();
  };
  const lowerBlock = (block: Block): Block => ({ ...block, ops: block.ops.flatMap(lowerOp) });
  return { ...program.module, ops: program.module.ops.flatMap(lowerOp) };
}

/** The lowered program as PTO-AS text, printed canonically (`pto-as --emit lowered`). */
export function lowerToText(program: Program, types: TypeTable, sourceText: string): string {
  return printCanonical(lowerModule(program, sourceText), types);
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
 * The lowered program, verified directly (no text in between). Its ops keep the span of the op they replace, so
 * the run's findings point into the original source. A diagnostic would be the lowering's own mistake: it is
 * raised as such.
 */
export function lowerProgram(assembled: Assembled): Assembled {
  const module = lowerModule(assembled.program, assembled.source.text);
  const diags = new DiagnosticBag(assembled.source);
  const program = verifyModule(module, assembled.types, diags, { target: assembled.program.target });
  const first = diags.items.find((d) => d.severity === 'error');
  if (first) {
    const at = assembled.source.position(first.span.start);
    throw loweringError(
      `internal error: the lowered program does not verify (${first.message}, from line ${at.line}); run with --direct`,
      assembled.module.span,
    );
  }
  return { source: assembled.source, diags, module, types: assembled.types, program };
}
