import { TileType, elemSize, elemTypeName } from '../../../types/type';
import { CheckContext, InstructionCheck } from './context';
import { scratchHolds } from './scratch';
import { argReduceScratch } from './tmp-contracts';

/** Valid rows x cols of a tile when both are static, else null (the VM checks at run time). */
function staticValid(t: TileType): { rows: number; cols: number } | null {
  return t.vRow === null || t.vCol === null ? null : { rows: t.vRow, cols: t.vCol };
}

function sameValid(a: TileType, b: TileType): boolean {
  const x = staticValid(a);
  const y = staticValid(b);
  return x !== null && y !== null && x.rows === y.rows && x.cols === y.cols;
}

/** A2/A3's tmp for the per-row broadcast (TRowExpand*Op::verify): 256 bytes per 8 valid rows of dst, at most 30 x 256. */
function rowExpandScratchBytes(dstValidRows: number | null): number {
  if (dstValidRows === null) return 8192;
  return dstValidRows < 256 ? Math.ceil(dstValidRows / 8) * 256 : 30 * 256;
}

/**
 * TROWEXPAND{ADD,SUB,MUL,DIV,MAX,MIN,EXPDIF}: one source is the full-sized operand (dst's valid shape, row-major), the
 * other the per-row operand: DN with 1 valid column (a scalar per row, mode 1) or row-major with one 32-byte block of
 * valid columns (mode 2). A dst with a 0x0 valid region is a no-op of max, min and expdif (noOpWhenEmpty). On A2/A3 a tmp
 * (except trowexpandexpdif's) takes mode 1 only, has dst's dtype and holds rowExpandScratchBytes.
 */
function rowExpandOperands(ctx: CheckContext): void {
  const dst = ctx.tiles.get('dst');
  const src0 = ctx.tiles.get('src0');
  const src1 = ctx.tiles.get('src1');
  const tmp = ctx.tiles.get('tmp');
  if (ctx.attributes.get('precisionType') === 'high_precision' && !tmp) ctx.error(ctx.op.nameSpan, 'precisionType = high_precision needs a tmp tile');
  if (!dst || (ctx.spec.noOpWhenEmpty === 'dst' && dst.vRow === 0 && dst.vCol === 0)) return;
  if (dst.vRow === 0 || dst.vCol === 0) {
    ctx.error(ctx.spanOf('dst'), `dst's valid region ${dst.vRow}x${dst.vCol} must be non-empty in both dimensions (or 0x0, a no-op)`);
    return;
  }
  const a2a3Scratch = ctx.target === 'a2a3' && tmp !== undefined && ctx.spec.opName !== 'pto.trowexpandexpdif';
  if (a2a3Scratch) {
    if (tmp.dtype !== dst.dtype)
      ctx.error(ctx.spanOf('tmp'), `on a2a3, tmp (${elemTypeName(tmp.dtype)}) must have dst's element type (${elemTypeName(dst.dtype)})`);
    else scratchHolds(ctx, 'tmp', rowExpandScratchBytes(dst.vRow), `broadcasting to ${dst.vRow ?? 'a dynamic number of'} valid rows on a2a3`);
  }
  if (!src0 || !src1 || !staticValid(dst) || !staticValid(src0) || !staticValid(src1)) return;
  const src0Full = sameValid(src0, dst) && src0.blayout === 'row_major';
  const src1Full = sameValid(src1, dst) && src1.blayout === 'row_major';
  if (!src0Full && !src1Full) {
    ctx.error(ctx.spanOf('src0'), `one of src0 and src1 must be a row-major tile with dst's valid shape ${dst.vRow}x${dst.vCol}`);
    return;
  }
  const [name, expanded] = src0Full ? ['src1', src1] : ['src0', src0];
  if (src0Full && src1Full) return; // both full-sized: an elementwise operation, which either mode computes alike
  const block = 32 / elemSize(expanded.dtype);
  if (expanded.blayout === 'col_major') {
    if (expanded.vCol !== 1) ctx.error(ctx.spanOf(name), `${name}, the per-row operand, is column-major: it needs 1 valid column, not ${expanded.vCol}`);
  } else if (ctx.target === 'a2a3' && tmp) {
    ctx.error(ctx.spanOf(name), `with a tmp tile on a2a3, ${name}, the per-row operand, must be column-major (DN) with 1 valid column`);
  } else if (expanded.vCol !== block) {
    ctx.error(
      ctx.spanOf(name),
      `${name}, the per-row operand, is row-major: it needs ${block} valid columns (one 32-byte block of ${elemTypeName(expanded.dtype)}), not ${expanded.vCol}`,
    );
  }
}

/** TPART*: one source's valid region equals dst's (the table rules already keep both inside dst's). */
function partialRegions(ctx: CheckContext): void {
  const dst = ctx.tiles.get('dst');
  const src0 = ctx.tiles.get('src0');
  const src1 = ctx.tiles.get('src1');
  if (!dst || !src0 || !src1 || !staticValid(dst) || !staticValid(src0) || !staticValid(src1)) return;
  if (sameValid(src0, dst) || sameValid(src1, dst)) return;
  ctx.error(
    ctx.spanOf('dst'),
    `the valid region of src0 (${src0.vRow}x${src0.vCol}) or src1 (${src1.vRow}x${src1.vCol}) must equal dst's (${dst.vRow}x${dst.vCol})`,
  );
}

/**
 * TPARTADD/TPARTMAX/TPARTMIN/TPARTMUL: PTOAS asks for partialRegions on A2/A3 only (verifyPartialValidPattern); on A5
 * both sources need only fit inside dst (verifyPartialValidPatternLoose, since fb06892a), so a dst element may be
 * covered by one source or by none.
 */
function partialBinary(ctx: CheckContext): void {
  if (ctx.target === 'a2a3') partialRegions(ctx);
}

/** Each index tile has its value tile's valid shape (the spec's valid rules cannot name camel-case operands). */
function indexShapes(ctx: CheckContext): void {
  for (const [index, value] of [
    ['dstIdx', 'dst'],
    ['src0Idx', 'src0'],
    ['src1Idx', 'src1'],
  ]) {
    const i = ctx.tiles.get(index);
    const v = ctx.tiles.get(value);
    if (!i || !v || !staticValid(i) || !staticValid(v) || sameValid(i, v)) continue;
    ctx.error(ctx.spanOf(index), `${index}'s valid shape ${i.vRow}x${i.vCol} must equal ${value}'s (${v.vRow}x${v.vCol})`);
  }
}

/** TPARTARGMAX/TPARTARGMIN: an f32 value takes a 32-bit index; f16 a 16- or 32-bit one (A2/A3 static_assert). */
function partialArg(ctx: CheckContext): void {
  partialRegions(ctx);
  indexShapes(ctx);
  const value = ctx.tiles.get('dst');
  const index = ctx.tiles.get('dstIdx');
  if (!value || !index || value.dtype !== 'f32' || elemSize(index.dtype) === 4) return;
  ctx.error(ctx.spanOf('dstIdx'), `an f32 value needs a 32-bit index (i32 or ui32), not ${elemTypeName(index.dtype)}`);
}

/**
 * TROWARGMIN/TROWARGMAX/TCOLARGMIN/TCOLARGMAX: index only, outs(%dst) with an i32/u32 dst; or value and index,
 * outs(%dst, %dstIdx) with dst of src's type and dstIdx (i32/u32, checked by the tables) of dst's valid shape.
 */
function argReduceDestinations(ctx: CheckContext): void {
  const dst = ctx.tiles.get('dst');
  const src = ctx.tiles.get('src');
  const index = ctx.tiles.get('dstIdx');
  if (!dst || !src) return;
  argReduceScratch(ctx, ctx.spec.opName.startsWith('pto.trow') ? 'row' : 'col');
  if (!index) {
    if (dst.dtype !== 'i32' && dst.dtype !== 'u32')
      ctx.error(ctx.spanOf('dst'), `dst is the index (i32 or ui32) unless a second destination dstIdx is given, got ${elemTypeName(dst.dtype)}`);
    return;
  }
  if (dst.dtype !== src.dtype)
    ctx.error(
      ctx.spanOf('dst'),
      `with dstIdx, dst holds the selected values: its element type must be src's (${elemTypeName(src.dtype)}), got ${elemTypeName(dst.dtype)}`,
    );
  if (staticValid(dst) && staticValid(index) && !sameValid(dst, index))
    ctx.error(ctx.spanOf('dstIdx'), `dstIdx's valid shape ${index.vRow}x${index.vCol} must equal dst's (${dst.vRow}x${dst.vCol})`);
}

const ROW_EXPAND_BINARY = ['add', 'sub', 'mul', 'div', 'max', 'min', 'expdif'].map((o) => `pto.trowexpand${o}`);

/** Rules beyond the tables, by op name (`pto.NAME`). */
export const checks: Record<string, InstructionCheck> = {
  ...Object.fromEntries(ROW_EXPAND_BINARY.map((name) => [name, rowExpandOperands])),
  ...Object.fromEntries(['tpartadd', 'tpartmax', 'tpartmin', 'tpartmul'].map((n) => [`pto.${n}`, partialBinary])),
  'pto.tpartargmax': partialArg,
  'pto.tpartargmin': partialArg,
  ...Object.fromEntries(['trowargmin', 'trowargmax', 'tcolargmin', 'tcolargmax'].map((n) => [`pto.${n}`, argReduceDestinations])),
};
