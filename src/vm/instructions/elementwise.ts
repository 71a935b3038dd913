import { ElemType } from '../../syntax/types';
import { Scalar } from '../numerics/elements';
import { InstructionContext } from './context';

type Binary = (a: Scalar, b: Scalar) => Scalar;

/** The exact result of one operation; the destination codec rounds (floats) or wraps (integers) it. */
function exactOp(kind: 'add' | 'mul', dtype: ElemType): Binary {
  if (dtype === 'i64' || dtype === 'u64') return kind === 'add' ? (a, b) => BigInt(a) + BigInt(b) : (a, b) => BigInt(a) * BigInt(b);
  if (kind === 'add') return (a, b) => (a as number) + (b as number);
  // 32-bit integer products exceed 2^53: Math.imul gives the low 32 bits exactly.
  if (dtype === 'i32' || dtype === 'u32') return (a, b) => Math.imul(a as number, b as number);
  return (a, b) => (a as number) * (b as number);
}

/** TADD/TMUL: dst = src0 op src1 over dst's valid region, one rounding per element. */
export function elementwise(ctx: InstructionContext): void {
  const dst = ctx.tile('dst');
  const a = ctx.tile('src0');
  const b = ctx.tile('src1');
  const kind = ctx.bound.spec.elementwise;
  if (!kind) ctx.trap(`pto.${ctx.bound.spec.name} has no elementwise kind in spec/instructions.json`);
  // bf16 results are computed in f32 and then rounded to bf16, as the vector unit does.
  const op = exactOp(kind, dst.type.dtype);
  const round = dst.type.dtype === 'bf16' ? (v: Scalar) => Math.fround(Number(v)) : (v: Scalar) => v;
  for (let r = 0; r < dst.vRow; r++) {
    for (let c = 0; c < dst.vCol; c++) dst.set(r, c, dst.codec.round(round(op(a.get(r, c), b.get(r, c)))));
  }
}
