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

/** Valid shapes that agree where both sizes are static (PTOAS's validShapeMatches: a dynamic size matches any). */
function validMatches(a: TileType, b: TileType): boolean {
  const agree = (x: number | null, y: number | null) => x === null || y === null || x === y;
  return agree(a.vRow, b.vRow) && agree(a.vCol, b.vCol);
}

/**
 * The row-expand ops take two sources: the full-sized one (dst's valid shape, row-major) and the per-row operand,
 * DN with 1 valid column (a scalar per row, mode 1) or row-major with one 32-byte block of valid columns (mode 2).
 * PTOAS checks this to a different degree per op (lib/PTO/IR/PTO.cpp at e32488c9): trowexpandadd (src0 is the
 * full-sized one), max/min/expdif (verifyTRowExpandReduceLikeOp: either is) check both; sub/mul/div
 * (verifyTRowExpandBinaryCore) neither, except that a tmp on A2/A3 asks for mode 1, as it does for all but expdif
 * (verifyTRowExpandImplicitTmpContract). The VM traps on the shapes it cannot run.
 */

/** Why `operand` cannot be the per-row operand of dst (PTOAS's checkBroadcastOperand), or null when it can. */
function perRowProblem(ctx: CheckContext, name: string, operand: TileType, dst: TileType): string | null {
  if (operand.vRow !== null && dst.vRow !== null && operand.vRow !== dst.vRow)
    return `${name}, the per-row operand, needs dst's ${dst.vRow} valid rows, not ${operand.vRow}`;
  if (operand.blayout !== 'row_major') {
    return operand.vCol === null || operand.vCol === 1 ? null : `${name}, the per-row operand, is column-major: it needs 1 valid column, not ${operand.vCol}`;
  }
  if (ctx.target === 'a2a3' && ctx.tiles.has('tmp'))
    return `with a tmp tile on a2a3, ${name}, the per-row operand, must be column-major (DN) with 1 valid column`;
  const block = 32 / elemSize(operand.dtype);
  if (operand.vCol === null || operand.vCol === block) return null;
  return `${name}, the per-row operand, is row-major: it needs ${block} valid columns (one 32-byte block of ${elemTypeName(operand.dtype)}), not ${operand.vCol}`;
}

/**
 * A2/A3 with a tmp (verifyTRowExpandImplicitTmpContract): mode 1, the source that does not match dst being a DN
 * column; tmp has dst's dtype and holds rowExpandScratchBytes.
 */
function a2a3TmpContract(ctx: CheckContext, dst: TileType, src0: TileType, src1: TileType): void {
  const tmp = ctx.tiles.get('tmp');
  if (ctx.target !== 'a2a3' || !tmp) return;
  const [name, expanded] = validMatches(src0, dst) ? ['src1', src1] : validMatches(src1, dst) ? ['src0', src0] : [undefined, undefined];
  if (!name || !expanded) {
    ctx.error(ctx.spanOf('src0'), `with a tmp tile on a2a3, one of src0 and src1 must have dst's valid shape ${dst.vRow}x${dst.vCol}`);
    return;
  }
  if (expanded.blayout !== 'col_major' || (expanded.vCol !== null && expanded.vCol !== 1)) {
    ctx.error(ctx.spanOf(name), `with a tmp tile on a2a3, ${name}, the per-row operand, must be column-major (DN) with 1 valid column`);
    return;
  }
  if (tmp.dtype !== dst.dtype) {
    ctx.error(ctx.spanOf('tmp'), `on a2a3, tmp (${elemTypeName(tmp.dtype)}) must have dst's element type (${elemTypeName(dst.dtype)})`);
    return;
  }
  scratchHolds(ctx, 'tmp', rowExpandScratchBytes(dst.vRow), `broadcasting to ${dst.vRow ?? 'a dynamic number of'} valid rows on a2a3`);
}

function rowExpandSources(ctx: CheckContext): [TileType, TileType, TileType] | undefined {
  const [dst, src0, src1] = ['dst', 'src0', 'src1'].map((n) => ctx.tiles.get(n));
  if (ctx.attributes.get('precisionType') === 'high_precision' && !ctx.tiles.has('tmp'))
    ctx.error(ctx.op.nameSpan, 'precisionType = high_precision needs a tmp tile');
  return dst && src0 && src1 ? [dst, src0, src1] : undefined;
}

/** TROWEXPANDSUB/MUL/DIV: only the A2/A3 tmp contract. */
function rowExpandTmpContractOnly(ctx: CheckContext): void {
  const tiles = rowExpandSources(ctx);
  if (tiles) a2a3TmpContract(ctx, ...tiles);
}

/** TROWEXPANDADD: src0 is the full-sized operand (dst's valid shape, row-major) and src1 the per-row one. */
function rowExpandAdd(ctx: CheckContext): void {
  const tiles = rowExpandSources(ctx);
  if (!tiles) return;
  const [dst, src0, src1] = tiles;
  if (!validMatches(src0, dst)) ctx.error(ctx.spanOf('src0'), `src0 must have dst's valid shape ${dst.vRow}x${dst.vCol}, not ${src0.vRow}x${src0.vCol}`);
  else if (src0.blayout !== 'row_major') ctx.error(ctx.spanOf('src0'), 'src0 must be row-major');
  else {
    const problem = perRowProblem(ctx, 'src1', src1, dst);
    if (problem) ctx.error(ctx.spanOf('src1'), problem);
    else a2a3TmpContract(ctx, dst, src0, src1);
  }
}

/**
 * TROWEXPANDMAX/MIN/EXPDIF (verifyTRowExpandReduceLikeOp): a tmp has dst's dtype; a 0x0 dst is a no-op; else one
 * source matches dst's valid shape and is row-major, and the other is a per-row operand, tried src0 first; then,
 * for max and min (`tmpContract`), the A2/A3 tmp contract.
 */
const rowExpandReduceLike = (tmpContract: boolean) => (ctx: CheckContext) => {
  const tiles = rowExpandSources(ctx);
  const tmp = ctx.tiles.get('tmp');
  if (!tiles) return;
  const [dst, src0, src1] = tiles;
  if (tmp && tmp.dtype !== dst.dtype)
    ctx.error(ctx.spanOf('tmp'), `tmp (${elemTypeName(tmp.dtype)}) must have dst's element type (${elemTypeName(dst.dtype)})`);
  if (dst.vRow === 0 && dst.vCol === 0) return;
  if (dst.vRow === 0 || dst.vCol === 0) {
    ctx.error(ctx.spanOf('dst'), `dst's valid region ${dst.vRow}x${dst.vCol} must be non-empty in both dimensions (or 0x0, a no-op)`);
    return;
  }
  const attempts = (
    [
      ['src0', src0, 'src1', src1],
      ['src1', src1, 'src0', src0],
    ] as const
  ).filter(([, full]) => validMatches(full, dst));
  if (attempts.length === 0) {
    ctx.error(ctx.spanOf('src0'), `one of src0 and src1 must be a row-major tile with dst's valid shape ${dst.vRow}x${dst.vCol}`);
    return;
  }
  let first: [string, string] | undefined;
  for (const [fullName, full, rowName, perRow] of attempts) {
    const problem = full.blayout !== 'row_major' ? `${fullName}, which has dst's valid shape, must be row-major` : perRowProblem(ctx, rowName, perRow, dst);
    if (!problem) {
      if (tmpContract) a2a3TmpContract(ctx, dst, src0, src1);
      return;
    }
    first ??= [full.blayout !== 'row_major' ? fullName : rowName, problem];
  }
  if (first) ctx.error(ctx.spanOf(first[0]), first[1]);
};

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

/** TPARTARGMAX/TPARTARGMIN: the regions; element types are the tables' (every index is 32-bit, as PTOAS checks). */
function partialArg(ctx: CheckContext): void {
  partialRegions(ctx);
  indexShapes(ctx);
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

/** Rules beyond the tables, by op name (`pto.NAME`). */
export const checks: Record<string, InstructionCheck> = {
  'pto.trowexpandadd': rowExpandAdd,
  ...Object.fromEntries(['sub', 'mul', 'div'].map((o) => [`pto.trowexpand${o}`, rowExpandTmpContractOnly])),
  'pto.trowexpandmax': rowExpandReduceLike(true),
  'pto.trowexpandmin': rowExpandReduceLike(true),
  'pto.trowexpandexpdif': rowExpandReduceLike(false),
  ...Object.fromEntries(['tpartadd', 'tpartmax', 'tpartmin', 'tpartmul'].map((n) => [`pto.${n}`, partialBinary])),
  'pto.tpartargmax': partialArg,
  'pto.tpartargmin': partialArg,
  ...Object.fromEntries(['trowargmin', 'trowargmax', 'tcolargmin', 'tcolargmax'].map((n) => [`pto.${n}`, argReduceDestinations])),
};
