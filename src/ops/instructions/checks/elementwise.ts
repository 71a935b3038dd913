import { ElemType, elemTypeName } from '../../../types/type';
import { CheckContext, InstructionCheck } from './context';

/** TAXPY accumulates into dst of src0's type, or into f32 from f16 src0. */
function axpy(ctx: CheckContext): void {
  const dst = ctx.tiles.get('dst');
  const src = ctx.tiles.get('src0');
  if (!dst || !src || dst.dtype === src.dtype || (dst.dtype === 'f32' && src.dtype === 'f16')) return;
  const allowed = ctx.spec.dtypes[ctx.target];
  if (!allowed?.dst?.includes(dst.dtype) || !allowed?.src0?.includes(src.dtype)) return;
  ctx.error(ctx.spanOf('dst'), `dst (${elemTypeName(dst.dtype)}) must have src0's element type (${elemTypeName(src.dtype)}), or be f32 with f16 src0`);
}

/** TADDReluConv narrows: f32 -> f16, f16 -> i8, i16 -> i8. */
const ADD_RELU_CONV_PAIRS = ['f32->f16', 'f16->i8', 'i16->i8'];

function addReluConv(ctx: CheckContext): void {
  const dst = ctx.tiles.get('dst');
  const src = ctx.tiles.get('src0');
  if (!dst || !src || ADD_RELU_CONV_PAIRS.includes(`${src.dtype}->${dst.dtype}`)) return;
  // A dtype outside the target's lists was reported by the tables already.
  const allowed = ctx.spec.dtypes[ctx.target];
  if (!allowed?.dst?.includes(dst.dtype) || !allowed?.src0?.includes(src.dtype)) return;
  const pairs = ADD_RELU_CONV_PAIRS.map((p) =>
    p
      .split('->')
      .map((e) => elemTypeName(e as ElemType))
      .join(' -> '),
  ).join(', ');
  ctx.error(ctx.spanOf('dst'), `converting ${elemTypeName(src.dtype)} to ${elemTypeName(dst.dtype)} is not supported (src0 -> dst: ${pairs})`);
}

/** Rules beyond the tables, by op name (`pto.NAME`). */
export const checks: Record<string, InstructionCheck> = {
  'pto.taxpy': axpy,
  'pto.taddreluconv': addReluConv,
};
