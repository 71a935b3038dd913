import { DIAGNOSTICS as D } from '../../../diag/catalog';
import { TileType, Type, elemSize, elemTypeName, printType } from '../../../types/type';
import { layoutProblem } from '../../memory/tile-rules';
import { CheckContext, InstructionCheck } from './context';
import { scratchHolds, tileBytes } from './scratch';

/** A sort record is 8 bytes: [value, index u32] for f32, [value, 0, index u32] for f16. */
const RECORD_BYTES = 8;

/** Tile columns one (value, index) record takes: 2 for f32, 4 for f16. */
export function recordColumns(tile: TileType): number {
  return RECORD_BYTES / elemSize(tile.dtype);
}

/** PTOAS has no Level 1 form of the sort instructions (their outs hold several results). */
function requireLevel2(ctx: CheckContext, spelling: string): boolean {
  if (ctx.op.form === 'dps') return true;
  ctx.error(ctx.op.nameSpan, `has no Level 1 form; write '${spelling}'`);
  return false;
}

/**
 * TSORT32: PTOAS's TSort32Op::verify checks no valid shapes (idx's rows, dst's width): the VM checks what it needs
 * when it runs. A2/A3's tmp holds src's bytes.
 */
function tsort32(ctx: CheckContext): void {
  if (!requireLevel2(ctx, 'pto.tsort32 ins(%src, %idx : T, ui32) outs(%dst : T)')) return;
  const src = ctx.tiles.get('src');
  if (src && ctx.target === 'a2a3') scratchHolds(ctx, 'tmp', tileBytes(src), `src (${src.rows}x${src.cols} ${elemTypeName(src.dtype)})`);
}

const isIntegerScalar = (t: Type): boolean => t.kind === 'scalar' && !['f16', 'bf16', 'f32', 'f64', 'i1'].includes(t.elem);

/**
 * TMRGSORT has two formats that share the second ins position: format 1 `ins(%src, %blockLen : T, i32)
 * outs(%dst : T)` and format 2 `ins(%s0, %s1[, %s2[, %s3]], %tmp : T, ...) outs(%dst, %executed : T,
 * vector<4xi16>)`. The table declares src1 as a scalar so both bind; this check gives src1 the tile rules in
 * format 2 and checks each format's operands.
 */
function tmrgsort(ctx: CheckContext): void {
  if (!requireLevel2(ctx, 'pto.tmrgsort ins(%src, %blockLen : T, i32) outs(%dst : T)')) return;
  const second = ctx.bound.operands.get('src1')?.type;
  if (!second) return;
  for (const [name, tile] of ctx.tiles) {
    if (tile.rows !== 1) ctx.error(ctx.spanOf(name), `${name} must have 1 row, not ${tile.rows}`);
  }
  if (second.kind === 'tile') return mergeLists(ctx, second);
  if (!isIntegerScalar(second)) {
    ctx.error(
      ctx.spanOf('src1'),
      `the second ins operand must be the integer blockLen (format 1) or the tile src1 (format 2), not ${printType(second)}`,
      D.operandKind,
    );
    return;
  }
  for (const extra of ['src2', 'src3', 'tmp', 'executed']) {
    if (ctx.bound.operands.has(extra)) ctx.error(ctx.spanOf(extra), `format 1 (src, blockLen) takes no ${extra}`);
  }
  if (ctx.attributes.get('exhausted') === true) ctx.error(ctx.op.nameSpan, 'exhausted = true applies to format 2 (several lists) only');
  const src = ctx.tiles.get('src0');
  const dst = ctx.tiles.get('dst');
  // Format 1 alone is f16/f32 in PTOAS (format 2 takes any one element type), so the tables leave it to this check.
  for (const [name, tile] of [
    ['src0', src],
    ['dst', dst],
  ] as const) {
    if (tile && tile.dtype !== 'f16' && tile.dtype !== 'f32')
      ctx.error(ctx.spanOf(name), `${name} dtype ${elemTypeName(tile.dtype)} is not supported in format 1 (allowed: f16, f32)`, D.elementType);
  }
  if (src && dst && src.cols !== dst.cols) ctx.error(ctx.spanOf('dst'), `dst must have as many columns as src (${src.cols}), not ${dst.cols}`);
}

/** Format 2: src1 is a tile like the other lists, tmp the scratch, and the outs are dst and the executed counts. */
function mergeLists(ctx: CheckContext, src1: TileType): void {
  const where = ctx.spanOf('src1');
  if (src1.loc !== 'vec') ctx.error(where, `src1 must be a vec tile, not loc=${src1.loc}`, D.tileLocation);
  const layout = layoutProblem('row-major', src1);
  if (layout) ctx.error(where, `src1 ${layout}`, D.tileLayout);
  const allowed = ctx.spec.dtypes[ctx.target]?.src1 ?? [];
  if (allowed.length > 0 && !allowed.includes(src1.dtype)) {
    ctx.error(
      where,
      `src1 dtype ${elemTypeName(src1.dtype)} is not supported on ${ctx.target} (allowed: ${allowed.map(elemTypeName).join(', ')})`,
      D.elementType,
    );
  } else {
    const src0 = ctx.tiles.get('src0');
    if (src0 && src0.dtype !== src1.dtype) {
      ctx.error(where, `src0 (${elemTypeName(src0.dtype)}) and src1 (${elemTypeName(src1.dtype)}) must have the same element type`, D.elementType);
    }
  }
  if (src1.rows !== 1) ctx.error(where, `src1 must have 1 row, not ${src1.rows}`);
  if (!ctx.bound.operands.has('executed')) {
    ctx.error(ctx.op.nameSpan, 'format 2 (several lists) needs outs(%dst, %executed : T, vector<4xi16>); executed is missing', D.instructionOperands);
  }
  const executed = ctx.bound.operands.get('executed')?.type;
  if (executed && printType(executed).replace(/\s+/g, '') !== 'vector<4xi16>') {
    ctx.error(ctx.spanOf('executed'), `executed must be a vector<4xi16> (the counts taken from each list), not ${printType(executed)}`);
  }
  checkScratch(ctx, src1);
}

/**
 * Format 2's tmp, the last ins operand (PTOAS reads it so unless `no_tmp` says PTOAS allocates it), holds every
 * list's records and dst is copied from it: at least as wide as dst and as all the lists together.
 */
function checkScratch(ctx: CheckContext, src1: TileType): void {
  const tmp = ctx.tiles.get('tmp');
  if (!tmp) {
    if (!(ctx.op.insMarkers ?? []).includes('no_tmp')) {
      ctx.error(
        ctx.op.nameSpan,
        'format 2 (several lists) writes tmp as the last ins operand, or no_tmp after the lists for PTOAS to allocate it',
        D.instructionOperands,
      );
    }
    return;
  }
  const dst = ctx.tiles.get('dst');
  const lists = ['src0', 'src2', 'src3'].flatMap((name) => ctx.tiles.get(name) ?? []);
  const total = [...lists, src1].reduce((n, list) => n + list.cols, 0);
  // PTOAS stops at the first of the two.
  if (dst && tmp.cols < dst.cols) ctx.error(ctx.spanOf('tmp'), `tmp must have at least as many columns as dst (${dst.cols}), not ${tmp.cols}`);
  else if (tmp.cols < total) ctx.error(ctx.spanOf('tmp'), `tmp must have at least as many columns as the lists together (${total}), not ${tmp.cols}`);
}

export const checks: Record<string, InstructionCheck> = { 'pto.tsort32': tsort32, 'pto.tmrgsort': tmrgsort };
