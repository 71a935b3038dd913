import { DIAGNOSTICS as D } from '../../../diag/catalog';
import { ElemType, TileType, elemSize, elemTypeName, isInteger, isStoredFormat } from '../../../types/type';
import { TargetName } from '../../../spec/schema';
import { isPackedFp4 } from '../../../numerics/low-precision';
import { CheckContext, InstructionCheck } from './context';
import { scratchHolds } from './scratch';

/**
 * The (src -> dst) element-type pairs pto-isa's TCvt implements, per target: the manual's "Supported Conversions"
 * table (pto-isa docs/isa/TCVT.md), which is its npu/a2a3 TCvt.hpp dispatcher's and its npu/a5 TCvt.hpp castData
 * overloads' (and PTOAS's A5 templates'), restricted to the element types PTO-AS has (no int4). PTOAS accepts more
 * (acceptsPair); the VM runs these as pto-isa does, the others as semantics/convert.ts says. A5's low-precision
 * pairs are PTOAS's isA5LowPrecisionTCvtPair too.
 */
export const CONVERSION_PAIRS: Record<TargetName, Partial<Record<ElemType, ElemType[]>>> = {
  a2a3: {
    f32: ['f16', 'f32', 'bf16', 'i16', 'i32', 'i64'],
    f16: ['f32', 'i32', 'i16', 'i8', 'u8'],
    bf16: ['f32', 'i32'],
    i16: ['f16', 'f32'],
    i32: ['f32', 'i16', 'i64', 'f16'],
    i64: ['f32', 'i32'],
    u8: ['f16'],
    i8: ['f16'],
  },
  a5: {
    f32: ['f32', 'f16', 'bf16', 'i16', 'i32', 'i64', 'f8E4M3FN', 'f8E5M2', '!pto.hif8'],
    f16: ['f32', 'i32', 'i16', 'i8', 'u8', '!pto.hif8'],
    bf16: ['f32', 'i32', 'f16', '!pto.f4E1M2x2', '!pto.f4E2M1x2'],
    i16: ['u8', 'f16', 'f32', 'u32', 'i32'],
    i32: ['f32', 'i16', 'u16', 'i64', 'u8'],
    i64: ['f32', 'i32'],
    u8: ['f16', 'u16'],
    i8: ['f16', 'i16', 'i32'],
    u32: ['u8', 'u16', 'i16'],
    f8E4M3FN: ['f32'],
    f8E5M2: ['f32'],
    '!pto.hif8': ['f32'],
    '!pto.f4E1M2x2': ['bf16'],
    '!pto.f4E2M1x2': ['bf16'],
  },
};

/**
 * The narrowing pairs whose saturation the A2/A3 implementation lets the program choose (and whose 3-argument
 * default is OFF on both targets); A2/A3's TCVT without a tmp runs every other pair saturated (pto-isa
 * npu/a2a3/TCvt.hpp kIsNarrowingCvt).
 */
export const NARROWING_PAIRS: readonly string[] = ['f16->u8', 'f16->i8', 'f32->i16', 'f16->i16', 'i64->i32', 'i32->i16'];

/**
 * A tile's columns counted in elements, as PTOAS counts a row-major tile's (getLogicalTileDim): a packed fp4 byte
 * holds two. `cols` is the tile's cols or valid cols; null (dynamic) stays null.
 */
export function logicalCols(t: Pick<TileType, 'dtype' | 'blayout'>, cols: number | null): number | null {
  return cols !== null && isPackedFp4(t.dtype) && t.blayout === 'row_major' ? 2 * cols : cols;
}

/** `64`, or for a packed fp4 tile `32 bytes = 64 fp4 elements`: valid cols as a message shows them. */
export function describeValidCols(t: Pick<TileType, 'dtype' | 'blayout'>, cols: number | null): string {
  const logical = logicalCols(t, cols);
  return logical === cols ? `${cols ?? '?'}` : `${cols} bytes = ${logical} fp4 elements`;
}

/**
 * PTOAS's TCvtOp::verify compares src and dst in logical elements (verifyTileBufSameLogicalExtent): their shapes
 * ("compatible shapes"; it skips this for a subview its own passes resolved, which text does not have), then their
 * valid shapes. Valid rows are a table rule.
 */
function sameLogicalExtent(ctx: CheckContext, src: TileType, dst: TileType): void {
  const [srcCols, dstCols] = [logicalCols(src, src.cols), logicalCols(dst, dst.cols)];
  if (src.rows !== dst.rows || srcCols !== dstCols)
    ctx.error(ctx.op.nameSpan, `src and dst must have compatible shapes: src is ${src.rows}x${srcCols} elements, dst ${dst.rows}x${dstCols}`);
  const [srcValid, dstValid] = [logicalCols(src, src.vCol), logicalCols(dst, dst.vCol)];
  if (srcValid !== null && dstValid !== null && srcValid !== dstValid)
    ctx.error(
      ctx.op.nameSpan,
      `src valid cols (${describeValidCols(src, src.vCol)}) must equal dst valid cols (${describeValidCols(dst, dst.vCol)})`,
      D.validRegion,
    );
}

/** Whether pto-isa's TCvt for the target implements the pair (CONVERSION_PAIRS). */
export function implementsPair(target: TargetName, src: ElemType, dst: ElemType): boolean {
  return CONVERSION_PAIRS[target][src]?.includes(dst) ?? false;
}

/**
 * Whether PTOAS e32488c9 accepts the pair (TCvtOp::verify): any two ordinary element types on either target; a
 * low-precision format on A5 only, in isA5LowPrecisionTCvtPair's pairs (CONVERSION_PAIRS.a5's).
 */
export function acceptsPair(target: TargetName, src: ElemType, dst: ElemType): boolean {
  if (!isStoredFormat(src) && !isStoredFormat(dst)) return true;
  return target === 'a5' && implementsPair(target, src, dst);
}

/** `f32 -> f8E4M3FN, f16 -> !pto.hif8`: the low-precision pairs of the target that start at src or end at dst. */
function lowPrecisionPairsOf(target: TargetName, src: ElemType, dst: ElemType): string {
  const pairs = Object.entries(CONVERSION_PAIRS[target]).flatMap(([from, tos]) => (tos ?? []).map((to) => [from as ElemType, to] as const));
  const related = pairs.filter(([from, to]) => (from === src || to === dst) && (isStoredFormat(from) || isStoredFormat(to)));
  return related.map(([from, to]) => `${elemTypeName(from)} -> ${elemTypeName(to)}`).join(', ');
}

/**
 * The saturation a TCVT asks for: today's `satmode` (or its other name `sat_mode`) ON/OFF, else the older boolean
 * `saturation`; undefined when none is given.
 */
export function requestedSaturation(attribute: (name: string) => unknown): boolean | undefined {
  const mode = attribute('satmode') ?? attribute('sat_mode');
  if (mode !== undefined) return mode === 'ON';
  const flag = attribute('saturation');
  return typeof flag === 'boolean' ? flag : undefined;
}

function typePair(ctx: CheckContext): void {
  if (ctx.attributes.get('satmode') !== undefined && ctx.attributes.get('sat_mode') !== undefined) {
    ctx.error(ctx.spanOf('dst'), 'pto.tcvt: give satmode or sat_mode, not both');
  }
  const src = ctx.tiles.get('src');
  const dst = ctx.tiles.get('dst');
  if (!src || !dst) return;
  sameLogicalExtent(ctx, src, dst);
  // A dtype outside the target's lists was reported by the tables already.
  const allowed = ctx.spec.dtypes[ctx.target];
  if (!allowed?.src?.includes(src.dtype) || !allowed?.dst?.includes(dst.dtype)) return;
  if (!acceptsPair(ctx.target, src.dtype, dst.dtype)) {
    const pairs = lowPrecisionPairsOf(ctx.target, src.dtype, dst.dtype);
    ctx.error(
      ctx.spanOf('dst'),
      `converting ${elemTypeName(src.dtype)} to ${elemTypeName(dst.dtype)} is not supported on ${ctx.target}: a low-precision format converts in PTO-ISA's pairs only (${pairs || 'none with these types'})`,
    );
    return;
  }
  if (ctx.target === 'a2a3') a2a3TmpCapacity(ctx, src, dst);
}

/**
 * A2/A3's tmp for the non-saturating f32 -> 16-bit and f16 -> 16/8-bit integer paths (PTOAS TCvtOp::verify, verifyTmp:
 * the mode is not ON, the integers of either signedness): a given tmp holds the bytes those paths use, which
 * depend on dst's static valid shape and src's cols.
 */
function a2a3TmpCapacity(ctx: CheckContext, src: TileType, dst: TileType): void {
  const wide = elemSize(dst.dtype);
  const uses = (src.dtype === 'f32' && wide === 2) || (src.dtype === 'f16' && (wide === 2 || wide === 1));
  if (!ctx.tiles.has('tmp') || !uses || !isInteger(dst.dtype) || requestedSaturation((n) => ctx.attributes.get(n)) === true) return;
  const [rows, cols] = [dst.vRow, dst.vCol];
  if (rows === null || cols === null) {
    ctx.error(ctx.spanOf('tmp'), 'a tmp for this conversion needs a static dst valid shape to be checked (PTOAS verifies its capacity)');
    return;
  }
  let bytes = 0;
  if (rows > 0 && cols > 0 && src.dtype === 'f32') {
    const head = 4 * 64 * Math.min(Math.floor(cols / 64), 255);
    const rest = cols % 64;
    const tail = rest === 0 ? 0 : 32 * ((Math.min(rows, 255) - 1) * Math.floor(src.cols / 8) + Math.ceil(rest / 8));
    bytes = Math.max(head, tail);
  } else if (cols > 0 && src.dtype === 'f16') {
    const width = Math.min(cols, 64);
    const toI16 = 32 * Math.ceil(width / 8);
    bytes = wide === 1 ? Math.max(toI16, 128 + 32 * Math.ceil(width / 16)) : toI16;
  }
  scratchHolds(ctx, 'tmp', bytes, `converting ${elemTypeName(src.dtype)} to ${elemTypeName(dst.dtype)} without saturation on a2a3 (dst valid ${rows}x${cols})`);
}

/** Rules beyond the tables, by op name (`pto.NAME`). */
export const checks: Record<string, InstructionCheck> = { 'pto.tcvt': typePair };
