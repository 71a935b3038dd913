import { ElemType, elemTypeName } from '../../../types/type';
import { InstructionCheck } from './context';

/**
 * The cube's accumulator/input pairs (pto-isa TMATMUL/TGEMV, both targets, the standard element types):
 * an i32 accumulator takes i8 inputs; an f32 accumulator takes f16, bf16 or f32 inputs, both the same.
 * A5 adds f32 accumulators of 8-bit floats (PTOAS verifyMatmulTypeTriple): any two fp8 formats (E4M3 x E5M2
 * mixes), or hif8 with hif8.
 */
const INPUTS_FOR: Record<string, ElemType[]> = { i32: ['i8'], f32: ['f16', 'bf16', 'f32', 'f8E4M3FN', 'f8E5M2', '!pto.hif8'] };
const FP8: ElemType[] = ['f8E4M3FN', 'f8E5M2'];

const matmul: InstructionCheck = (ctx) => {
  const c = ctx.tiles.get('cMatrix') ?? ctx.tiles.get('cOutMatrix');
  const a = ctx.tiles.get('aMatrix');
  const b = ctx.tiles.get('bMatrix');
  if (!c || !a || !b) return;
  const mixedFp8 = FP8.includes(a.dtype) && FP8.includes(b.dtype);
  if (a.dtype !== b.dtype && !mixedFp8)
    ctx.error(ctx.spanOf('bMatrix'), `aMatrix (${elemTypeName(a.dtype)}) and bMatrix (${elemTypeName(b.dtype)}) must have the same element type`);
  const allowed = INPUTS_FOR[c.dtype] ?? [];
  // An input type no accumulator takes was already reported by the dtype tables.
  const someAccumulatorTakes = Object.values(INPUTS_FOR).some((l) => l.includes(a.dtype));
  if (someAccumulatorTakes && !allowed.includes(a.dtype)) {
    const name = ctx.tiles.has('cMatrix') ? 'cMatrix' : 'cOutMatrix';
    ctx.error(ctx.spanOf(name), `an ${elemTypeName(c.dtype)} accumulator takes ${allowed.map(elemTypeName).join(', ')} inputs, not ${elemTypeName(a.dtype)}`);
  }
};

/** Rules beyond the tables, by op name (`pto.NAME`). */
export const checks: Record<string, InstructionCheck> = Object.fromEntries(
  ['tmatmul', 'tmatmul.acc', 'tmatmul.bias', 'tgemv', 'tgemv.acc', 'tgemv.bias'].map((n) => [`pto.${n}`, matmul]),
);
