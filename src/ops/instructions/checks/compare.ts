import { attrOf } from '../../../syntax/ast';
import { TileType, elemSize, elemTypeName } from '../../../types/type';
import { CheckContext, InstructionCheck } from './context';
import { scratchHolds } from './scratch';

/**
 * Compare and select rules beyond the tables: the packed mask must have room for every predicate bit, and
 * A2/A3 compares i32 only for equality (npu/a2a3/TCmp.hpp and TCmps.hpp take the eq path whatever the mode).
 */

const ORDERINGS = ['lt', 'le', 'gt', 'ge'];

function a2a3IntegerOrdering(ctx: CheckContext): void {
  const src = ctx.tiles.get('src0');
  const mode = ctx.attributes.get('cmpMode');
  if (ctx.target !== 'a2a3' || src?.dtype !== 'i32' || typeof mode !== 'string' || !ORDERINGS.includes(mode)) return;
  const span = attrOf(ctx.op, 'cmpMode')?.span ?? ctx.op.nameSpan;
  ctx.error(span, `a2a3 compares i32 only with eq or ne (its vector compare of i32 is equality whatever the mode), not ${mode}`);
}

/** A mask of `mask`'s valid columns must hold `columns` bits per row (both known statically). */
function maskHolds(ctx: CheckContext, maskName: string, mask: TileType | undefined, dataName: string, columns: number | null | undefined): void {
  if (!mask || mask.vCol === null || columns === null || columns === undefined) return;
  const bits = elemSize(mask.dtype) * 8;
  const needed = Math.ceil(columns / bits);
  if (mask.vCol < needed) {
    const type = elemTypeName(mask.dtype);
    ctx.error(
      ctx.spanOf(maskName),
      `${maskName}'s ${mask.vCol} valid ${type} columns hold ${mask.vCol * bits} bits per row, but ${dataName} has ${columns} valid columns (needs v_col >= ${needed})`,
    );
  }
}

function maskRows(ctx: CheckContext, maskName: string, mask: TileType | undefined, dst: TileType | undefined): void {
  if (!mask || !dst || mask.vRow === null || dst.vRow === null || mask.vRow >= dst.vRow) return;
  ctx.error(ctx.spanOf(maskName), `${maskName} has ${mask.vRow} valid rows, fewer than dst's ${dst.vRow}`);
}

const compareCheck: InstructionCheck = (ctx) => {
  a2a3IntegerOrdering(ctx);
  maskHolds(ctx, 'dst', ctx.tiles.get('dst'), 'src0', ctx.tiles.get('src0')?.vCol);
};

function selectCheck(maskName: string): InstructionCheck {
  return (ctx) => {
    const dst = ctx.tiles.get('dst');
    maskHolds(ctx, maskName, ctx.tiles.get(maskName), 'dst', dst?.vCol);
    maskRows(ctx, maskName, ctx.tiles.get(maskName), dst);
  };
}

/** A2/A3 tsel's scratch (compare-mask words): 16 bytes for 16-bit data, 8 for 32-bit (TSelOp::verify). */
function a2a3SelectScratch(ctx: CheckContext): void {
  const dst = ctx.tiles.get('dst');
  if (ctx.target !== 'a2a3' || !dst) return;
  scratchHolds(ctx, 'tmp', elemSize(dst.dtype) === 2 ? 16 : 8, `tsel of ${elemTypeName(dst.dtype)} data`);
}

/** A2/A3 tsels's scratch holds one row of src, in src's dtype (TSelSOp::verify); A5 leaves it unconstrained. */
function a2a3SelectScalarScratch(ctx: CheckContext): void {
  const src = ctx.tiles.get('src');
  const tmp = ctx.tiles.get('tmp');
  if (ctx.target !== 'a2a3' || !src || !tmp) return;
  if (tmp.dtype !== src.dtype) {
    ctx.error(ctx.spanOf('tmp'), `on a2a3, tmp (${elemTypeName(tmp.dtype)}) must have src's element type (${elemTypeName(src.dtype)})`);
    return;
  }
  scratchHolds(ctx, 'tmp', src.cols * elemSize(src.dtype), `one row of src (${src.cols} elements)`);
}

/** Rules beyond the tables, by op name (`pto.NAME`). */
export const checks: Record<string, InstructionCheck> = {
  'pto.tcmp': compareCheck,
  'pto.tcmps': compareCheck,
  'pto.tsel': (ctx) => {
    selectCheck('selMask')(ctx);
    a2a3SelectScratch(ctx);
  },
  'pto.tsels': (ctx) => {
    selectCheck('mask')(ctx);
    a2a3SelectScalarScratch(ctx);
  },
};
