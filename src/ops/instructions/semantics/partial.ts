import { BinaryOperationName, binaryOperation } from '../../../numerics/arithmetic';
import { Scalar } from '../../../numerics/elements';
import { Tile } from '../../../machine/memory';
import { ElemType, elemTypeName } from '../../../types/type';
import { InstructionContext, SemanticsModule } from './context';
import { copyElement, padValue } from './memory';
import { finisher } from './elementwise';

export const PARTIAL_OPERATIONS = ['add', 'max', 'min', 'mul'] as const;
export const PARTIAL_ARG_OPERATIONS = ['max', 'min'] as const;

/** pto-isa's PadValue::Max and PadValue::Min. */
const PAD_MAX = 2;
const PAD_MIN = 3;

const inside = (t: Tile, r: number, c: number): boolean => r < t.vRow && c < t.vCol;
const sameValid = (a: Tile, b: Tile): boolean => a.vRow === b.vRow && a.vCol === b.vCol;

/** The manual's pattern: one source covers dst's valid region exactly and the other fits inside it. */
function coversPattern(dst: Tile, src0: Tile, src1: Tile): boolean {
  const fits = (t: Tile) => t.vRow <= dst.vRow && t.vCol <= dst.vCol;
  return (sameValid(src0, dst) && fits(src1)) || (sameValid(src1, dst) && fits(src0));
}

/** The manual's supported patterns (every dst element is valid in at least one source); anything else traps. */
function checkPattern(ctx: InstructionContext, dst: Tile, src0: Tile, src1: Tile): void {
  if (coversPattern(dst, src0, src1)) return;
  ctx.trap(
    `unsupported valid regions src0 ${src0.vRow}x${src0.vCol}, src1 ${src1.vRow}x${src1.vCol}, dst ${dst.vRow}x${dst.vCol} ` +
      "(one source's valid region must equal dst's and the other must fit inside it)",
  );
}

function copyBits(src: Tile, dst: Tile, r: number, c: number): void {
  copyElement(src.bytes, src.elementIndex(r, c) * src.codec.size, dst.bytes, dst.elementIndex(r, c) * dst.codec.size, dst.codec.size);
}

type Combine = (a: Scalar, b: Scalar) => Scalar;

/**
 * The element types pto-isa's TPARTADD/MAX/MIN/MUL take where they are narrower than what PTOAS verifies (ui16 and
 * ui32 on A2/A3): its A2/A3 code static_asserts int32/int16/half/float (npu/a2a3/TPart*.hpp), its simulator those
 * and bfloat16/int8/uint8 (cpu/TPartOp.hpp, TPartCheck). Its A5 code takes every type PTOAS accepts there.
 */
const PTO_ISA_DTYPES: { where: (ctx: InstructionContext) => boolean; dtypes: readonly ElemType[]; header: string }[] = [
  {
    where: (ctx) => ctx.numerics === 'cpu-sim',
    dtypes: ['i8', 'u8', 'i16', 'i32', 'f16', 'bf16', 'f32'],
    header: "its simulator's TPartCheck (cpu/TPartOp.hpp)",
  },
  { where: (ctx) => ctx.target === 'a2a3', dtypes: ['i16', 'i32', 'f16', 'f32'], header: 'its A2/A3 code (npu/a2a3)' },
];

/** A type PTOAS accepts but the pto-isa code the run follows does not compile for: not implemented. */
function requireImplementedDtype(ctx: InstructionContext, dtype: ElemType): void {
  const rule = PTO_ISA_DTYPES.find((r) => r.where(ctx));
  if (!rule || rule.dtypes.includes(dtype)) return;
  const profile = ctx.numerics === 'cpu-sim' ? 'under cpu-sim' : `on ${ctx.target}`;
  ctx.trap(
    `${elemTypeName(dtype)} tiles ${profile} are not implemented yet: PTOAS accepts it, but pto-isa's ${ctx.bound.spec.isa} ` +
      `static_asserts ${rule.dtypes.map(elemTypeName).join('/')} in ${rule.header}`,
  );
}

/**
 * TPARTADD/TPARTMAX/TPARTMIN/TPARTMUL: src0 op src1 where both are valid. Elsewhere the back ends differ once no
 * source covers dst (A5 accepts that, PTOAS's verifyPartialValidPatternLoose); under the manual's pattern all three
 * give the one valid source's element, bit for bit, except the vpto max/min (see partExtreme).
 */
export function partial(ctx: InstructionContext): void {
  const dst = ctx.tile('dst');
  const src0 = ctx.tile('src0');
  const src1 = ctx.tile('src1');
  if (dst.vRow === 0 || dst.vCol === 0) return;
  requireImplementedDtype(ctx, dst.type.dtype);
  const name = ctx.bound.spec.op as BinaryOperationName;
  if (!(PARTIAL_OPERATIONS as readonly string[]).includes(name)) ctx.trap(`unknown partial op '${name}' in spec/instructions`);
  const op = binaryOperation(name, dst.type.dtype, ctx.numerics, ctx.trap);
  const finish = finisher(ctx, dst.type.dtype);
  const combine: Combine = (a, b) => finish(op(a, b));
  if (ctx.target === 'a5' && ctx.backend === 'vpto') return partTemplate(ctx, dst, src0, src1, name, combine);
  if (ctx.target === 'a5' && !coversPattern(dst, src0, src1)) return partLargerSource(ctx, dst, src0, src1, combine);
  checkPattern(ctx, dst, src0, src1);
  for (let r = 0; r < dst.vRow; r++) {
    for (let c = 0; c < dst.vCol; c++) {
      const in0 = inside(src0, r, c);
      const in1 = inside(src1, r, c);
      if (in0 && in1) dst.set(r, c, combine(src0.get(r, c), src1.get(r, c)));
      else copyBits(in0 ? src0 : src1, dst, r, c);
    }
  }
}

/**
 * pto-isa's A5 TPartOp (npu/a5/TPartBinOps.hpp), which the emitc back end calls, on valid regions outside the
 * manual's pattern (its PTO_ASSERT, off in release builds, rejects them): when a source is empty, the other's valid
 * region is copied and the rest of dst kept; otherwise src0 op src1 over the rows and columns both have, and every
 * other dst element is the "larger" source's (src1 when src0 has fewer valid rows or columns, else src0), read from
 * its storage whether or not it is valid there.
 */
function partLargerSource(ctx: InstructionContext, dst: Tile, src0: Tile, src1: Tile, combine: Combine): void {
  const empty = (t: Tile) => t.vRow === 0 || t.vCol === 0;
  if (empty(src0) || empty(src1)) {
    const src = empty(src0) ? src1 : src0;
    for (let r = 0; r < Math.min(dst.vRow, src.vRow); r++) {
      for (let c = 0; c < Math.min(dst.vCol, src.vCol); c++) copyBits(src, dst, r, c);
    }
    return;
  }
  const larger = src0.vRow < src1.vRow || src0.vCol < src1.vCol ? src1 : src0;
  const rows = Math.min(src0.vRow, src1.vRow);
  const cols = Math.min(src0.vCol, src1.vCol);
  let invalidRead = false;
  for (let r = 0; r < dst.vRow; r++) {
    for (let c = 0; c < dst.vCol; c++) {
      if (r < rows && c < cols) {
        dst.set(r, c, combine(src0.get(r, c), src1.get(r, c)));
        continue;
      }
      invalidRead ||= !inside(larger, r, c);
      copyBits(larger, dst, r, c);
    }
  }
  if (invalidRead) {
    const which = larger === src0 ? 'src0' : 'src1';
    ctx.note(
      `${ctx.bound.spec.opName}: no source's valid region equals dst's; as pto-isa's A5 TPartOp does, dst takes ${which}'s elements ` +
        `outside its valid region ${larger.vRow}x${larger.vCol} from its storage`,
    );
  }
}

/**
 * PTOAS's TileLang templates (lib/TileOps/a5/_part.py), the vpto back end. tpartadd/tpartmul (register_part_binary)
 * take a source equal to dst (its constraint; none matches otherwise) and compute full op part over the other's
 * valid region, copying full elsewhere. tpartmax/tpartmin: see partExtreme. Both exist for the 8- to 32-bit and
 * float types only (NUMERIC_DTYPES).
 */
function partTemplate(ctx: InstructionContext, dst: Tile, src0: Tile, src1: Tile, name: BinaryOperationName, combine: Combine): void {
  if (dst.codec.size === 8) ctx.trap(`${dst.type.dtype} tiles under the vpto back end are not implemented yet (PTOAS's template has no 64-bit form)`);
  if (name === 'max' || name === 'min') return partExtreme(ctx, dst, src0, src1, name, combine);
  const [full, part] = sameValid(src0, dst) ? [src0, src1] : [src1, src0];
  if (!sameValid(full, dst)) {
    ctx.trap(
      `under the vpto back end one source's valid region must equal dst's ${dst.vRow}x${dst.vCol} ` +
        `(src0 ${src0.vRow}x${src0.vCol}, src1 ${src1.vRow}x${src1.vCol}): PTOAS's template takes no other pattern`,
    );
  }
  for (let r = 0; r < dst.vRow; r++) {
    for (let c = 0; c < dst.vCol; c++) {
      if (inside(part, r, c)) dst.set(r, c, combine(full.get(r, c), part.get(r, c)));
      else copyBits(full, dst, r, c);
    }
  }
}

/**
 * The vpto tpartmax/tpartmin (register_part_extreme): dst's valid region is filled with the pad (the type's lowest
 * finite value for max, its highest for min: pad_min/pad_max), src0's valid region copied over it, then
 * dst = dst op src1 over src1's valid region. So an element of src1 alone is pad op src1, one of neither the pad.
 */
function partExtreme(ctx: InstructionContext, dst: Tile, src0: Tile, src1: Tile, name: 'max' | 'min', combine: Combine): void {
  const pad = padValue(dst.type.dtype, name === 'max' ? PAD_MIN : PAD_MAX, { numerics: ctx.numerics, backend: 'vpto', trap: ctx.trap });
  if (pad === null) ctx.trap(`no pad value for ${dst.type.dtype}`);
  for (let r = 0; r < dst.vRow; r++) {
    for (let c = 0; c < dst.vCol; c++) {
      if (inside(src0, r, c)) copyBits(src0, dst, r, c);
      else dst.set(r, c, pad);
    }
  }
  for (let r = 0; r < src1.vRow; r++) {
    for (let c = 0; c < src1.vCol; c++) dst.set(r, c, combine(dst.get(r, c), src1.get(r, c)));
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
  // PTOAS also verifies integer and (A5) bf16 values; pto-isa's A2/A3 and A5 TPARTARG* static_assert half/float.
  if (dst.type.dtype !== 'f16' && dst.type.dtype !== 'f32') {
    ctx.trap(
      `${elemTypeName(dst.type.dtype)} values are not implemented yet: PTOAS accepts it, but pto-isa's ` +
        `${ctx.bound.spec.isa} static_asserts f16/f32 values`,
    );
  }
  checkPattern(ctx, dst, src0, src1);
  for (const [index, value, name] of [
    [dstIdx, dst, 'dstIdx'],
    [src0Idx, src0, 'src0Idx'],
    [src1Idx, src1, 'src1Idx'],
  ] as const) {
    if (index.vRow !== value.vRow || index.vCol !== value.vCol)
      ctx.trap(`${name}'s valid shape ${index.vRow}x${index.vCol} differs from its value tile's (${value.vRow}x${value.vCol})`);
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
