import { ElemType } from '../../syntax/types';
import { Scalar } from '../numerics/elements';
import { saturateF16, saturates } from '../numerics/saturation';
import { InstructionContext, SemanticsModule } from './context';

type Binary = (a: Scalar, b: Scalar) => Scalar;

/** The exact result of one operation; the destination codec rounds (floats) or wraps (integers) it. */
function exactOp(kind: 'add' | 'mul', dtype: ElemType): Binary {
  if (dtype === 'i64' || dtype === 'u64') return kind === 'add' ? (a, b) => BigInt(a) + BigInt(b) : (a, b) => BigInt(a) * BigInt(b);
  if (kind === 'add') return (a, b) => (a as number) + (b as number);
  // 32-bit integer products exceed 2^53: Math.imul gives the low 32 bits exactly.
  if (dtype === 'i32' || dtype === 'u32') return (a, b) => Math.imul(a as number, b as number);
  return (a, b) => (a as number) * (b as number);
}

/** x86's default NaN (the "real indefinite", sign bit set): f32 0xffc00000, f16 0xfe00 once rounded. */
const X86_DEFAULT_NAN = new Float64Array(new BigUint64Array([0xfff8000000000000n]).buffer)[0];

/**
 * cpu-sim: the NaN the simulator's x86 build gives, whatever host the VM runs on. A NaN operand
 * propagates (the first one when both are); an invalid operation (inf - inf, 0 * inf) gives the x86
 * default NaN, which is negative. Plain JS arithmetic gives the host's default NaN, which is
 * positive on ARM (Apple silicon, Graviton), so the sign of such results would depend on the machine.
 */
function x86Nan(a: Scalar, b: Scalar): number {
  if (Number.isNaN(a)) return a as number;
  if (Number.isNaN(b)) return b as number;
  return X86_DEFAULT_NAN;
}

/** TADD/TMUL: dst = src0 op src1 over dst's valid region, one rounding per element. */
export function elementwise(ctx: InstructionContext): void {
  const dst = ctx.tile('dst');
  const a = ctx.tile('src0');
  const b = ctx.tile('src1');
  const kind = ctx.bound.spec.op;
  if (kind !== 'add' && kind !== 'mul') ctx.trap(`${ctx.bound.spec.opName}: unknown elementwise op '${kind}' in spec/instructions`);
  const exact = exactOp(kind, dst.type.dtype);
  const op: Binary =
    ctx.numerics === 'cpu-sim' && dst.codec.isFloat
      ? (x, y) => {
          const v = exact(x, y);
          return Number.isNaN(v) ? x86Nan(x, y) : v;
        }
      : exact;
  // bf16 results are computed in f32 and then rounded to bf16, as the vector unit does.
  const round = dst.type.dtype === 'bf16' ? (v: Scalar) => Math.fround(Number(v)) : (v: Scalar) => v;
  const saturate = saturates(dst.type.dtype, ctx.numerics, ctx.flag('saturation')) ? (v: Scalar) => saturateF16(v as number) : (v: Scalar) => v;
  for (let r = 0; r < dst.vRow; r++) {
    for (let c = 0; c < dst.vCol; c++) dst.set(r, c, saturate(dst.codec.round(round(op(a.get(r, c), b.get(r, c))))));
  }
}

export const module: SemanticsModule = { semantics: { elementwise }, operations: { elementwise: ['add', 'mul'] } };
