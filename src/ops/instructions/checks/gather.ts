import { DIAGNOSTICS as D } from '../../../diag/catalog';
import { attrOf } from '../../../syntax/ast';
import { elemSize, elemTypeName } from '../../../types/type';
import { CheckContext, InstructionCheck } from './context';

/** Gather and scatter rules beyond the tables. */

/** MaskPattern values of PTOAS that pto-isa's MaskPattern enum lacks (it has P0010, P0100, P1000 instead). */
const PATTERNS_WITHOUT_MEANING = ['P0011', 'P0110'];

/** TGATHER has two forms: an index tile (src1, optional tmp) or a maskPattern attribute, never both. */
const tgather: InstructionCheck = (ctx) => {
  const pattern = ctx.attributes.get('maskPattern');
  const patternAttr = attrOf(ctx.op, 'maskPattern');
  const hasIndices = ctx.bound.operands.has('src1');
  if (hasIndices && patternAttr) {
    ctx.error(patternAttr.span, 'takes either an index tile (ins(%src0, %src1 : ...)) or a maskPattern, not both');
    return;
  }
  if (!hasIndices && !patternAttr) {
    ctx.error(ctx.op.nameSpan, 'needs an index tile (ins(%src0, %src1 : S, I)) or a maskPattern (ins(%src0, {maskPattern = #pto.mask_pattern<P0101>} : S))');
    return;
  }
  if (typeof pattern === 'string' && PATTERNS_WITHOUT_MEANING.includes(pattern)) {
    ctx.error(
      patternAttr!.span,
      `maskPattern ${pattern} has no pto-isa MaskPattern (pto-isa has P0101, P1010, P0001, P0010, P0100, P1000, P1111), so it cannot be lowered; use P0101, P1010, P0001 or P1111`,
    );
  }
  const dst = ctx.tiles.get('dst');
  const src = ctx.tiles.get('src0');
  if (!hasIndices && dst && src && dst.dtype !== src.dtype) return; // reported by the dtype relation
  const indices = ctx.tiles.get('src1');
  if (
    indices &&
    dst &&
    indices.vRow !== null &&
    indices.vCol !== null &&
    dst.vRow !== null &&
    dst.vCol !== null &&
    (indices.vRow < dst.vRow || indices.vCol < dst.vCol)
  ) {
    ctx.error(ctx.spanOf('src1'), `src1's valid region ${indices.vRow}x${indices.vCol} does not cover dst's ${dst.vRow}x${dst.vCol}`);
  }
  indexScratch(ctx);
};

/** Two valid sizes that are both static and differ (a dynamic one is checked by nothing here, as in PTOAS). */
const differs = (a: number | null, b: number | null) => a !== null && b !== null && a !== b;

/** A2/A3's index form keeps its tmp beside the indices (TGatherOp::verify): their element type and valid shape. A5 takes any tmp. */
function indexScratch(ctx: CheckContext): void {
  const indices = ctx.tiles.get('src1');
  const tmp = ctx.tiles.get('tmp');
  if (!indices || !tmp || ctx.target !== 'a2a3') return;
  if (tmp.dtype !== indices.dtype) {
    ctx.error(
      ctx.spanOf('tmp'),
      `expects tmp and indices to have the same element type (tmp ${elemTypeName(tmp.dtype)}, src1 ${elemTypeName(indices.dtype)})`,
      D.elementType,
    );
  } else if (differs(tmp.vRow, indices.vRow) || differs(tmp.vCol, indices.vCol)) {
    ctx.error(
      ctx.spanOf('tmp'),
      `expects tmp to have the indices' valid shape (tmp ${tmp.vRow ?? '?'}x${tmp.vCol ?? '?'}, src1 ${indices.vRow ?? '?'}x${indices.vCol ?? '?'})`,
      D.scratchContract,
    );
  }
}

/** TSCATTER's index size: 4 bytes for 4- and 8-byte data, 2 bytes for 1- and 2-byte data (npu TScatter.hpp). */
const tscatter: InstructionCheck = (ctx) => {
  const dst = ctx.tiles.get('dst');
  const indexes = ctx.tiles.get('indexes');
  if (!dst || !indexes) return;
  const want = elemSize(dst.dtype) >= 4 ? 4 : 2;
  if (elemSize(indexes.dtype) !== want) {
    const names = want === 4 ? 'i32 or ui32' : 'i16 or ui16';
    ctx.error(ctx.spanOf('indexes'), `indexes of ${elemTypeName(dst.dtype)} data must be ${names}, not ${elemTypeName(indexes.dtype)}`);
  }
};

/** TGATHERB copies whole 32-byte blocks: dst's valid row must be a whole number of them. */
const tgatherb: InstructionCheck = (ctx) => {
  const dst = ctx.tiles.get('dst');
  if (!dst || dst.vCol === null) return;
  if ((dst.vCol * elemSize(dst.dtype)) % 32 !== 0)
    ctx.error(ctx.spanOf('dst'), `dst's valid row (${dst.vCol} x ${elemSize(dst.dtype)} bytes) must be whole 32-byte blocks`);
};

/** MSCATTER's atomic max and min exist on A5 only (ScatterAtomicOp; the A2/A3 path has only add). */
const mscatter: InstructionCheck = (ctx) => {
  const key = ctx.attributes.get('atomic') !== undefined ? 'atomic' : 'scatterAtomicOp';
  const atomic = ctx.attributes.get(key);
  if (ctx.target === 'a2a3' && (atomic === 'max' || atomic === 'min'))
    ctx.error(attrOf(ctx.op, key)!.span, `${key} = ${atomic} is A5 only (A2/A3 has none and add)`);
  if (ctx.attributes.get('atomic') !== undefined && attrOf(ctx.op, 'scatterAtomicOp'))
    ctx.error(attrOf(ctx.op, 'atomic')!.span, 'give atomic or scatterAtomicOp, not both');
  if (ctx.attributes.get('oob') !== undefined && attrOf(ctx.op, 'scatterOob')) ctx.error(attrOf(ctx.op, 'oob')!.span, 'give oob or scatterOob, not both');
};

/** `oob` is the earlier spelling of gatherOob: one of them. */
const mgather: InstructionCheck = (ctx) => {
  if (ctx.attributes.get('oob') !== undefined && attrOf(ctx.op, 'gatherOob')) ctx.error(attrOf(ctx.op, 'oob')!.span, 'give oob or gatherOob, not both');
};

/** Rules beyond the tables, by op name (`pto.NAME`). */
export const checks: Record<string, InstructionCheck> = {
  'pto.mgather': mgather,
  'pto.tgather': tgather,
  'pto.tscatter': tscatter,
  'pto.tgatherb': tgatherb,
  'pto.mscatter': mscatter,
};
