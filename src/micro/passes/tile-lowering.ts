import { DIAGNOSTICS as D } from '../../diag/catalog';
import { BoundOp, BoundRegion } from '../../ir/bound';
import { OpNode } from '../../syntax/ast';
import { TileType } from '../../types/type';
import type { PassCheck, PassCheckContext } from './index';
import { ssaGraph } from './ssa-graph';

/**
 * The limits of ptoas's VPTO back end where it lowers tile ops (tools/ptoas/ptoas.cpp lowerPTOToVPTOBackend): on
 * A2/A3 each tload/tstore becomes UB DMA ops (pto-lower-to-ubuf-ops), on A5 each tile op is replaced by a PTODSL
 * template of lib/TileOps/a5 (pto-expand-tile-op). Both reject tile ops the op verifiers accept.
 */

/** Each op of the program's functions by its AST node, as verification bound it (its definition, its types). */
function boundOps(c: PassCheckContext): Map<OpNode, BoundOp> {
  const ops = new Map<OpNode, BoundOp>();
  const walk = (region: BoundRegion | undefined): void => {
    for (const op of region?.blocks.flatMap((b) => b.ops) ?? []) {
      ops.set(op.node, op);
      op.regions.forEach(walk);
    }
  };
  for (const fn of c.program.bound.functions.values()) walk(fn.body);
  return ops;
}

/** The functions with a body, each with the instructions (tile ops) of its body. */
function* tileOps(c: PassCheckContext): Generator<{ fn: OpNode; op: OpNode; name: string }> {
  for (const fn of new Set(c.program.functions.values())) {
    if (fn.regions.length === 0) continue;
    for (const op of ssaGraph(fn).ops) {
      const bound = c.program.instructions.get(op);
      if (bound) yield { fn, op, name: bound.spec.name };
    }
  }
}

/** The op defining operand `index` of `op` in `fn` (undefined: a block argument or unknown). */
function definer(fn: OpNode, op: OpNode, index: number): OpNode | undefined {
  return ssaGraph(fn).operands.get(op)?.[index]?.op;
}

/**
 * pto-lower-to-ubuf-ops (LowerPTOToUBufOps.cpp, A2/A3 only): a tload's source or a tstore's destination made by
 * partition_view of make_tensor_view becomes DMA bursts of contiguous rows, so the tensor view's innermost stride must
 * be the constant 1.
 */
const lowerToUbuf: PassCheck = (c) => {
  if (c.program.target !== 'a2a3') return;
  const bound = boundOps(c);
  for (const { fn, op, name } of tileOps(c)) {
    const role = name === 'tload' ? 'src' : name === 'tstore' ? 'dst' : undefined;
    const use = role && c.program.instructions.get(op)?.operands.get(role)?.use;
    const index = use ? op.operands.indexOf(use) : -1;
    // The view is a partition (a partition_view result) of a tensor view written with its strides (make_tensor_view).
    const part = index >= 0 ? definer(fn, op, index) : undefined;
    if (!part || bound.get(part)?.resultTypes[0]?.kind !== 'partition_view' || !part.segments.source) continue;
    const view = definer(fn, part, part.segments.source[0]);
    const strides = view?.segments.strides;
    if (!view || !strides?.length) continue;
    // The innermost stride as its defining op folds it (an arith.constant folds to its value).
    const last = definer(fn, view, strides[strides.length - 1]);
    const known = last && last.operands.length === 0 ? bound.get(last)?.def.fold?.([], undefined, last) : undefined;
    if (known === 1n) continue;
    c.diags.report(
      D.vptoTileLowering,
      op.operands[index].span,
      `${op.name}: the A2/A3 VPTO back end moves a tensor view as bursts of contiguous elements, so the innermost stride of its make_tensor_view must be the constant 1`,
    );
    return;
  }
};

/**
 * pto-expand-tile-op (ExpandTileOp, A5): a tile op is replaced by a template of lib/TileOps/a5 whose constraints its
 * operands meet. textract has templates for mat -> left/right, vec -> vec and (with an fp tile) acc -> mat only
 * (textract.py, textract_fp.py), so the other moves its verifier allows on A5 (vec -> mat, mat -> scaling, acc -> vec)
 * have none.
 */
const TEXTRACT_TEMPLATES: [string, string][] = [
  ['mat', 'left'],
  ['mat', 'right'],
  ['vec', 'vec'],
  ['acc', 'mat'],
];

const expandTileOp: PassCheck = (c) => {
  if (c.program.target !== 'a5') return;
  for (const { op, name } of tileOps(c)) {
    if (name !== 'textract') continue;
    const operands = c.program.instructions.get(op)!.operands;
    const [src, dst] = [operands.get('src')?.type, operands.get('dst')?.type] as (TileType | undefined)[];
    if (src?.kind !== 'tile' || dst?.kind !== 'tile' || TEXTRACT_TEMPLATES.some(([s, d]) => s === src.loc && d === dst.loc)) continue;
    c.diags.report(
      D.vptoTileLowering,
      op.nameSpan,
      `${op.name}: the A5 VPTO back end has no template for a textract from a ${src.loc} tile into a ${dst.loc} tile (its templates: ${TEXTRACT_TEMPLATES.map(([s, d]) => `${s}->${d}`).join(', ')})`,
    );
    return;
  }
};

export const TILE_LOWERING_CHECKS: Record<string, PassCheck> = {
  'pto-lower-to-ubuf-ops': lowerToUbuf,
  'pto-expand-tile-op': expandTileOp,
};
