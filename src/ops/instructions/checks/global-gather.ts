import { DIAGNOSTICS as D } from '../../../diag/catalog';
import { attrOf } from '../../../syntax/ast';
import { TileType, elemSize, elemTypeName, printType } from '../../../types/type';
import { CheckContext, InstructionCheck } from './context';

/**
 * MGATHER and MSCATTER between global memory and tiles (PTOAS's MGatherOp/MScatterOp verifiers): the index tile's
 * valid shape per coalesce mode, and MGATHER's GM -> L1 form (a mat dst, the indices in global memory).
 */

/** A dynamic extent (null) is compatible with anything, as PTOAS's hasCompatibleKnownExtent. */
const fits = (a: number | null, b: number | null): boolean => a === null || b === null || a === b;
const zeroOrOne = (n: number | null): boolean => n === null || n === 0 || n === 1;

/**
 * The index tile's valid shape against the data tile's: row takes [1, R] row-major or [R, 1] col-major; elem the
 * data's valid shape. Left out (mscatter only), idx is [R, 0|1] row-major or the data's valid shape.
 */
function indexShape(ctx: CheckContext, data: TileType, dataName: string, idx: TileType, coalesce: string | undefined): void {
  const rowMajor = idx.blayout === 'row_major';
  const row1xR = rowMajor && zeroOrOne(idx.vRow) && fits(idx.vCol, data.vRow);
  const rowRx1 = !rowMajor && fits(idx.vRow, data.vRow) && zeroOrOne(idx.vCol);
  const baseRow = rowMajor && fits(idx.vRow, data.vRow) && zeroOrOne(idx.vCol);
  const elem = fits(idx.vRow, data.vRow) && fits(idx.vCol, data.vCol);
  const shape = `${idx.vRow ?? '?'}x${idx.vCol ?? '?'}`;
  const where = ctx.spanOf('indexes');
  if (coalesce === undefined) {
    if (!baseRow && !elem)
      ctx.error(
        where,
        `without coalesce, indexes' valid shape (${shape}) must be [${dataName}.valid_row, 0|1] (row-major) or ${dataName}'s valid shape`,
        D.validRegion,
      );
  } else if (coalesce === 'row' && !row1xR && !rowRx1) {
    ctx.error(
      where,
      `coalesce = row needs indexes' valid shape (${shape}) to be [0|1, ${dataName}.valid_row] (row-major) or [${dataName}.valid_row, 0|1] (col-major)`,
      D.validRegion,
    );
  } else if (coalesce === 'elem' && !elem) {
    ctx.error(where, `coalesce = elem needs indexes' valid shape (${shape}) to match ${dataName}'s`, D.validRegion);
  }
}

/** The index operand of the GM -> UB forms: a vec index tile (the table's rules, then the shape rule). */
function indexTile(ctx: CheckContext, data: TileType | undefined, dataName: string, coalesce: string | undefined): void {
  const idx = ctx.bound.operands.get('indexes')?.type;
  if (!idx) return;
  // A table operand of kind tile: the generic checks have looked at it already.
  const polymorphic = ctx.spec.operands.some((o) => o.name === 'indexes' && o.polymorphic);
  if (idx.kind !== 'tile') {
    if (polymorphic)
      ctx.error(ctx.spanOf('indexes'), `indexes must be a vec index tile, got ${printType(idx)} (a global index view needs a mat dst)`, D.operandKind);
    return;
  }
  if (data) indexShape(ctx, data, dataName, idx, coalesce);
}

/**
 * GM -> L1: dst is an NZ mat tile (col_major blocks of row_major 512-byte fractals, cols a multiple of C0 = 32 /
 * element bytes, rows of 16), the indices an i32 global view (the cube core cannot read UB), and coalesce = elem
 * stages the elements through a global scratch view of dst's element type, which row does without.
 */
function gatherIntoL1(ctx: CheckContext, dst: TileType, coalesce: string): void {
  const dstSpan = ctx.spanOf('dst');
  if (dst.blayout !== 'col_major' || dst.slayout !== 'row_major')
    ctx.error(dstSpan, `a mat dst (GM -> L1) must be NZ (blayout=col_major, slayout=row_major), not ${dst.blayout}/${dst.slayout}`, D.tileLayout);
  else if (dst.fractal !== 512) ctx.error(dstSpan, `a mat dst (GM -> L1) needs fractal=512, not ${dst.fractal}`, D.tileLayout);
  const c0 = 32 / elemSize(dst.dtype);
  if (dst.cols % c0 !== 0)
    ctx.error(dstSpan, `a mat dst's cols (${dst.cols}) must be a multiple of ${c0} (32 bytes of ${elemTypeName(dst.dtype)})`, D.tileLayout);
  if (dst.rows % 16 !== 0) ctx.error(dstSpan, `a mat dst's rows (${dst.rows}) must be a multiple of 16 (the NZ fractal's rows)`, D.tileLayout);
  const idx = ctx.bound.operands.get('indexes')?.type;
  if (idx?.kind === 'tile') {
    ctx.error(
      ctx.spanOf('indexes'),
      'with a mat dst (GM -> L1), indexes must be a global !pto.partition_tensor_view, not a tile (the cube core cannot read UB)',
      D.operandKind,
    );
  } else if (idx && idx.kind !== 'partition_view') {
    ctx.error(ctx.spanOf('indexes'), `with a mat dst (GM -> L1), indexes must be a !pto.partition_tensor_view, got ${printType(idx)}`, D.operandKind);
  } else if (idx && elemSize(idx.elem) !== 4) {
    ctx.error(ctx.spanOf('indexes'), `global indexes must be i32, not ${elemTypeName(idx.elem)}`, D.elementType);
  }
  const scratch = ctx.bound.operands.get('scratch')?.type;
  if (coalesce === 'row' && scratch) ctx.error(ctx.spanOf('scratch'), 'coalesce = row (GM -> L1) takes no scratch operand', D.instructionOperands);
  if (coalesce === 'elem' && !scratch)
    ctx.error(ctx.op.nameSpan, 'coalesce = elem with a mat dst (GM -> L1) needs a global scratch view: ins(%mem, %idx, %scratch : ...)', D.instructionOperands);
  if (scratch?.kind === 'partition_view' && scratch.elem !== dst.dtype)
    ctx.error(ctx.spanOf('scratch'), `scratch (${elemTypeName(scratch.elem)}) must have dst's element type (${elemTypeName(dst.dtype)})`, D.elementType);
}

/** `oob` is the earlier spelling of gatherOob: one of them. A mat dst is the GM -> L1 form; a vec dst takes no scratch. */
const mgather: InstructionCheck = (ctx) => {
  if (ctx.attributes.get('oob') !== undefined && attrOf(ctx.op, 'gatherOob')) ctx.error(attrOf(ctx.op, 'oob')!.span, 'give oob or gatherOob, not both');
  const dst = ctx.tiles.get('dst');
  const coalesce = ctx.attributes.get('coalesce') as string;
  if (dst?.loc === 'mat') return gatherIntoL1(ctx, dst, coalesce);
  if (ctx.bound.operands.has('scratch')) ctx.error(ctx.spanOf('scratch'), 'a scratch operand is only for a mat dst (GM -> L1)', D.instructionOperands);
  indexTile(ctx, dst, 'dst', coalesce);
};

/**
 * MSCATTER's atomic max and min exist on A5 only (ScatterAtomicOp; the A2/A3 path has only add); its coalesce may
 * be left out, but not with a scatter policy (PTOAS then emits no template arguments at all).
 */
const mscatter: InstructionCheck = (ctx) => {
  const key = ctx.attributes.get('atomic') !== undefined ? 'atomic' : 'scatterAtomicOp';
  const atomic = ctx.attributes.get(key);
  if (ctx.target === 'a2a3' && (atomic === 'max' || atomic === 'min'))
    ctx.error(attrOf(ctx.op, key)!.span, `${key} = ${atomic} is A5 only (A2/A3 has none and add)`);
  if (ctx.attributes.get('atomic') !== undefined && attrOf(ctx.op, 'scatterAtomicOp'))
    ctx.error(attrOf(ctx.op, 'atomic')!.span, 'give atomic or scatterAtomicOp, not both');
  if (ctx.attributes.get('oob') !== undefined && attrOf(ctx.op, 'scatterOob')) ctx.error(attrOf(ctx.op, 'oob')!.span, 'give oob or scatterOob, not both');
  const conflict = attrOf(ctx.op, 'scatterConflict');
  if (conflict && ctx.target !== 'a5') ctx.error(conflict.span, 'scatterConflict is A5 only');
  const coalesce = ctx.attributes.get('coalesce') as string | undefined;
  const oob = ctx.attributes.get('oob') ?? ctx.attributes.get('scatterOob');
  const policy = (atomic !== undefined && atomic !== 'none') || (oob !== undefined && oob !== 'undefined') || conflict;
  if (coalesce === undefined && policy)
    ctx.error(ctx.op.nameSpan, 'needs coalesce when scatterAtomicOp, scatterOob or scatterConflict is given', D.instructionAttribute);
  indexTile(ctx, ctx.tiles.get('src'), 'src', coalesce);
};

/** Rules beyond the tables, by op name (`pto.NAME`). */
export const checks: Record<string, InstructionCheck> = {
  'pto.mgather': mgather,
  'pto.mscatter': mscatter,
};
