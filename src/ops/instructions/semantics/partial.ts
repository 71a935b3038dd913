import { BinaryOperationName, binaryOperation } from '../../../numerics/arithmetic';
import { Scalar } from '../../../numerics/elements';
import { Tile } from '../../../machine/memory';
import { InstructionContext, SemanticsModule } from './context';
import { copyElement } from './memory';
import { finisher } from './elementwise';

export const PARTIAL_OPERATIONS = ['add', 'max', 'min', 'mul'] as const;
export const PARTIAL_ARG_OPERATIONS = ['max', 'min'] as const;

const inside = (t: Tile, r: number, c: number): boolean => r < t.vRow && c < t.vCol;

/**
 * The manual's supported patterns: one source covers dst's valid region exactly and the other fits inside it, so
 * every dst element is valid in at least one source. Anything else is implementation-defined: a trap here.
 */
function checkPattern(ctx: InstructionContext, dst: Tile, src0: Tile, src1: Tile): void {
  const covers = (t: Tile) => t.vRow === dst.vRow && t.vCol === dst.vCol;
  const fits = (t: Tile) => t.vRow <= dst.vRow && t.vCol <= dst.vCol;
  if ((covers(src0) && fits(src1)) || (covers(src1) && fits(src0))) return;
  ctx.trap(
    `${ctx.bound.spec.opName}: unsupported valid regions src0 ${src0.vRow}x${src0.vCol}, src1 ${src1.vRow}x${src1.vCol}, dst ${dst.vRow}x${dst.vCol} ` +
      "(one source's valid region must equal dst's and the other must fit inside it)",
  );
}

function copyBits(src: Tile, dst: Tile, r: number, c: number): void {
  copyElement(src.bytes, src.elementIndex(r, c) * src.codec.size, dst.bytes, dst.elementIndex(r, c) * dst.codec.size, dst.codec.size);
}

/** TPARTADD/TPARTMAX/TPARTMIN/TPARTMUL: src0 op src1 where both are valid, else a bit copy of the one valid source. */
export function partial(ctx: InstructionContext): void {
  const dst = ctx.tile('dst');
  const src0 = ctx.tile('src0');
  const src1 = ctx.tile('src1');
  if (dst.vRow === 0 || dst.vCol === 0) return;
  checkPattern(ctx, dst, src0, src1);
  const name = ctx.bound.spec.op as BinaryOperationName;
  if (!(PARTIAL_OPERATIONS as readonly string[]).includes(name)) ctx.trap(`unknown partial op '${name}' in spec/instructions`);
  const op = binaryOperation(name, dst.type.dtype, ctx.numerics, ctx.trap);
  const finish = finisher(ctx, dst.type.dtype);
  for (let r = 0; r < dst.vRow; r++) {
    for (let c = 0; c < dst.vCol; c++) {
      const in0 = inside(src0, r, c);
      const in1 = inside(src1, r, c);
      if (in0 && in1) dst.set(r, c, finish(op(src0.get(r, c), src1.get(r, c))));
      else copyBits(in0 ? src0 : src1, dst, r, c);
    }
  }
}

/**
 * TPARTARGMAX/TPARTARGMIN: where both are valid, (src0, src0Idx) when src0 is strictly greater (smaller), else
 * (src1, src1Idx), so ties and NaN comparisons pick src1 (the manual's rule, the simulator's comparison); where only
 * one is valid, its value and index. Values and indexes are copied as bits.
 */
export function partialArg(ctx: InstructionContext): void {
  const [dst, dstIdx, src0, src1, src0Idx, src1Idx] = ['dst', 'dstIdx', 'src0', 'src1', 'src0Idx', 'src1Idx'].map((n) => ctx.tile(n));
  if (dst.vRow === 0 || dst.vCol === 0) return;
  checkPattern(ctx, dst, src0, src1);
  for (const [index, value, name] of [
    [dstIdx, dst, 'dstIdx'],
    [src0Idx, src0, 'src0Idx'],
    [src1Idx, src1, 'src1Idx'],
  ] as const) {
    if (index.vRow !== value.vRow || index.vCol !== value.vCol)
      ctx.trap(`${ctx.bound.spec.opName}: ${name}'s valid shape ${index.vRow}x${index.vCol} differs from its value tile's (${value.vRow}x${value.vCol})`);
  }
  const kind = ctx.bound.spec.op;
  if (kind !== 'max' && kind !== 'min') ctx.trap(`unknown partial arg op '${kind}' in spec/instructions`);
  const firstWins = kind === 'max' ? (a: Scalar, b: Scalar) => a > b : (a: Scalar, b: Scalar) => a < b;
  for (let r = 0; r < dst.vRow; r++) {
    for (let c = 0; c < dst.vCol; c++) {
      const in0 = inside(src0, r, c);
      const in1 = inside(src1, r, c);
      const fromFirst = in0 && (!in1 || firstWins(src0.get(r, c), src1.get(r, c)));
      copyBits(fromFirst ? src0 : src1, dst, r, c);
      copyBits(fromFirst ? src0Idx : src1Idx, dstIdx, r, c);
    }
  }
}

export const module: SemanticsModule = {
  semantics: { partial, 'partial-arg': partialArg },
  operations: { partial: PARTIAL_OPERATIONS, 'partial-arg': PARTIAL_ARG_OPERATIONS },
};
