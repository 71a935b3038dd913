import { TileType, elemSize, elemTypeName } from '../../../types/type';
import { CheckContext, InstructionCheck } from './context';

/** Valid rows x cols of a tile when both are static, else null (the VM checks at run time). */
function staticValid(t: TileType): { rows: number; cols: number } | null {
  return t.vRow === null || t.vCol === null ? null : { rows: t.vRow, cols: t.vCol };
}

function sameValid(a: TileType, b: TileType): boolean {
  const x = staticValid(a);
  const y = staticValid(b);
  return x !== null && y !== null && x.rows === y.rows && x.cols === y.cols;
}

/**
 * TROWEXPAND{ADD,SUB,MUL,DIV,MAX,MIN,EXPDIF}: one source is the full-sized operand (dst's valid shape, row-major), the
 * other the per-row operand: DN with 1 valid column (a scalar per row) or row-major with one 32-byte block of valid
 * columns; with tmp, only the DN form (the manual's mode 1).
 */
function rowExpandOperands(ctx: CheckContext): void {
  const dst = ctx.tiles.get('dst');
  const src0 = ctx.tiles.get('src0');
  const src1 = ctx.tiles.get('src1');
  if (!dst || !src0 || !src1 || !staticValid(dst) || !staticValid(src0) || !staticValid(src1)) return;
  const src0Full = sameValid(src0, dst) && src0.blayout === 'row_major';
  const src1Full = sameValid(src1, dst) && src1.blayout === 'row_major';
  if (!src0Full && !src1Full) {
    ctx.error(ctx.spanOf('src0'), `one of src0 and src1 must be a row-major tile with dst's valid shape ${dst.vRow}x${dst.vCol}`);
    return;
  }
  const [name, expanded] = src0Full ? ['src1', src1] : ['src0', src0];
  if (src0Full && src1Full) return; // both full-sized: an elementwise operation, which either mode computes alike
  const block = 32 / elemSize(expanded.dtype);
  const withTmp = ctx.tiles.has('tmp');
  if (expanded.blayout === 'col_major') {
    if (expanded.vCol !== 1) ctx.error(ctx.spanOf(name), `${name}, the per-row operand, is column-major: it needs 1 valid column, not ${expanded.vCol}`);
  } else if (withTmp) {
    ctx.error(ctx.spanOf(name), `with a tmp tile, ${name}, the per-row operand, must be column-major (DN) with 1 valid column`);
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
  ...Object.fromEntries(['tpartadd', 'tpartmax', 'tpartmin', 'tpartmul'].map((n) => [`pto.${n}`, partialRegions])),
  'pto.tpartargmax': partialArg,
  'pto.tpartargmin': partialArg,
  ...Object.fromEntries(['trowargmin', 'trowargmax', 'tcolargmin', 'tcolargmax'].map((n) => [`pto.${n}`, argReduceDestinations])),
};
