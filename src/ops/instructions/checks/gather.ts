import { DIAGNOSTICS as D } from '../../../diag/catalog';
import { attrOf } from '../../../syntax/ast';
import { TileType, elemSize, elemTypeName, printType } from '../../../types/type';
import { CheckContext, InstructionCheck } from './context';
import { checkAsTile } from './polymorphic';

/** Gather and scatter within tiles: rules beyond the tables (global-gather.ts: mgather and mscatter). */

/** How many source columns (rows for axis col) a mask pattern's group spans: it keeps one of them. */
export function maskGroupSize(pattern: string): number {
  if (pattern === 'P1111') return 1;
  return pattern === 'P0101' || pattern === 'P1010' ? 2 : 4;
}

type Dims = { vRow: number | null; vCol: number | null };
const known = (...ns: (number | null)[]): boolean => ns.every((n) => n !== null);

/**
 * The mask form's shape rule along its axis (PTOAS's TGatherOp/TScatterOp verifiers): the packed side has the
 * same extent across the axis and a group-size fraction of the spread side's extent along it.
 */
function maskAxisShape(ctx: CheckContext, axis: string, pattern: string, packed: Dims, spread: Dims, names: { packed: string; spread: string }): void {
  const times = maskGroupSize(pattern);
  const [across, along] = axis === 'row' ? (['vRow', 'vCol'] as const) : (['vCol', 'vRow'] as const);
  const what = axis === 'row' ? ['rows', 'cols'] : ['cols', 'rows'];
  if (known(packed[across], spread[across]) && packed[across] !== spread[across])
    ctx.error(
      ctx.op.nameSpan,
      `${names.packed} valid ${what[0]} (${packed[across]}) must equal ${names.spread} valid ${what[0]} (${spread[across]}) for axis "${axis}"`,
      D.validRegion,
    );
  if (known(packed[along], spread[along]) && spread[along] !== packed[along]! * times)
    ctx.error(
      ctx.op.nameSpan,
      `${names.spread} valid ${what[1]} (${spread[along]}) must be ${names.packed} valid ${what[1]} (${packed[along]}) x ${times}, the ${pattern} group size, for axis "${axis}"`,
      D.validRegion,
    );
}

/** dst (and an index tile) must be contiguous: valid columns == columns. */
function contiguous(ctx: CheckContext, name: string): void {
  const t = ctx.tiles.get(name) ?? (ctx.bound.operands.get(name)?.type.kind === 'tile' ? (ctx.bound.operands.get(name)!.type as TileType) : undefined);
  if (t && t.vCol !== null && t.vCol !== t.cols)
    ctx.error(ctx.spanOf(name), `${name}'s valid columns (${t.vCol}) must equal its columns (${t.cols})`, D.validRegion);
}

/**
 * TGATHER has three forms (PTOAS TGatherOp): an index tile src1 (A2/A3 with tmp), a maskPattern with its axis, or
 * a scalar kValue compared with src0 (outs dst and cdst, with tmp).
 */
const tgather: InstructionCheck = (ctx) => {
  const second = ctx.bound.operands.get('src1')?.type;
  const patternAttr = attrOf(ctx.op, 'maskPattern');
  const axisAttr = attrOf(ctx.op, 'axis');
  if (patternAttr) {
    for (const extra of ['src1', 'tmp', 'cdst'])
      if (ctx.bound.operands.has(extra)) {
        ctx.error(ctx.spanOf(extra), `the mask-pattern form takes only src0 and dst, not ${extra}`);
        return;
      }
    return tgatherByMask(ctx, String(ctx.attributes.get('maskPattern')));
  }
  if (axisAttr) {
    ctx.error(axisAttr.span, 'axis is given only with a maskPattern');
    return;
  }
  if (second?.kind === 'scalar' || ctx.bound.operands.has('cdst')) return tgatherByCompare(ctx);
  if (!second) {
    ctx.error(
      ctx.op.nameSpan,
      'needs an index tile (ins(%src0, %src1, %tmp : S, I, T)), a maskPattern or a kValue (ins(%src0, %kValue, %tmp ...) outs(%dst, %cdst ...))',
    );
    return;
  }
  if (second.kind !== 'tile') {
    ctx.error(ctx.spanOf('src1'), `src1 must be an index tile or a scalar kValue, got ${printType(second)}`, D.operandKind);
    return;
  }
  tgatherByIndex(ctx, second);
};

function tgatherByMask(ctx: CheckContext, pattern: string): void {
  const dst = ctx.tiles.get('dst');
  const src = ctx.tiles.get('src0');
  if (!dst || !src) return;
  if (elemSize(dst.dtype) !== elemSize(src.dtype)) {
    ctx.error(ctx.spanOf('dst'), `src0 (${elemTypeName(src.dtype)}) and dst (${elemTypeName(dst.dtype)}) must have elements of the same size`, D.elementType);
    return;
  }
  contiguous(ctx, 'dst');
  // PTOAS TGatherOp requires the axis on both targets (the toolchain once read its absence as "row").
  const axis = ctx.attributes.get('axis');
  if (axis === undefined) {
    ctx.error(attrOf(ctx.op, 'maskPattern')!.span, 'the mask-pattern form needs its axis: ins(%src0, {maskPattern = ...} : S, "row")');
    return;
  }
  maskAxisShape(ctx, String(axis), pattern, dst, src, { packed: 'dst', spread: 'src0' });
}

function tgatherByIndex(ctx: CheckContext, indices: TileType): void {
  checkAsTile(ctx, 'src1', indices);
  const dst = ctx.tiles.get('dst');
  const src = ctx.tiles.get('src0');
  if (dst && src && dst.dtype !== src.dtype) {
    ctx.error(ctx.spanOf('dst'), `src0 (${elemTypeName(src.dtype)}) and dst (${elemTypeName(dst.dtype)}) must have the same element type`, D.elementType);
    return;
  }
  contiguous(ctx, 'dst');
  contiguous(ctx, 'src1');
  const tmp = ctx.tiles.get('tmp');
  if (ctx.target === 'a2a3') {
    if (!tmp) {
      ctx.error(ctx.op.nameSpan, 'the index form needs tmp on a2a3: ins(%src0, %src1, %tmp : S, I, T)');
      return;
    }
    if (tmp.dtype !== indices.dtype)
      ctx.error(ctx.spanOf('tmp'), `tmp (${elemTypeName(tmp.dtype)}) must have the element type of src1 (${elemTypeName(indices.dtype)})`, D.elementType);
    else if ((known(tmp.vRow, indices.vRow) && tmp.vRow !== indices.vRow) || (known(tmp.vCol, indices.vCol) && tmp.vCol !== indices.vCol))
      ctx.error(ctx.spanOf('tmp'), `tmp's valid shape ${tmp.vRow}x${tmp.vCol} must equal src1's ${indices.vRow}x${indices.vCol}`, D.validRegion);
  }
  if (dst && known(indices.vRow, indices.vCol, dst.vRow, dst.vCol) && (indices.vRow! < dst.vRow! || indices.vCol! < dst.vCol!))
    ctx.error(ctx.spanOf('src1'), `src1's valid region ${indices.vRow}x${indices.vCol} does not cover dst's ${dst.vRow}x${dst.vCol}`);
}

/** The compare form: dst gets the indices of the src0 elements that compare true with kValue, cdst their count. */
function tgatherByCompare(ctx: CheckContext): void {
  const kValue = ctx.bound.operands.get('src1')?.type;
  for (const needed of ['cdst', 'tmp'])
    if (!ctx.bound.operands.has(needed) || kValue?.kind !== 'scalar') {
      ctx.error(ctx.op.nameSpan, 'the compare form needs ins(%src0, %kValue, %tmp : S, s, T) outs(%dst, %cdst : D, C)');
      return;
    }
  const dst = ctx.tiles.get('dst');
  const cdst = ctx.tiles.get('cdst');
  const src = ctx.tiles.get('src0');
  if (!dst || !cdst || !src || kValue?.kind !== 'scalar') return;
  if (dst.dtype !== 'i32' && dst.dtype !== 'u32')
    ctx.error(ctx.spanOf('dst'), `dst of the compare form must be i32, not ${elemTypeName(dst.dtype)}`, D.elementType);
  else if (cdst.dtype !== dst.dtype)
    ctx.error(ctx.spanOf('cdst'), `cdst (${elemTypeName(cdst.dtype)}) must have dst's element type (${elemTypeName(dst.dtype)})`, D.elementType);
  if (kValue.elem !== src.dtype)
    ctx.error(ctx.spanOf('src1'), `kValue (${kValue.elem}) must have src0's element type (${elemTypeName(src.dtype)})`, D.elementType);
  const mode = ctx.attributes.get('cmpMode');
  if (mode !== 'eq' && mode !== 'gt') {
    ctx.error(attrOf(ctx.op, 'cmpMode')!.span, `the compare form takes cmpMode eq or gt, not ${mode}`);
    return;
  }
  const ok =
    ctx.target === 'a5'
      ? ['f16', 'f32', 'i16', 'i32'].includes(src.dtype)
      : src.dtype === 'f16' || src.dtype === 'f32' || (src.dtype === 'i32' && mode === 'eq');
  if (!ok) {
    const allowed = ctx.target === 'a5' ? 'i16, i32, f16 or f32' : 'f16 or f32, or i32 with cmpMode eq';
    ctx.error(ctx.spanOf('src0'), `src0 of the compare form must be ${allowed} on ${ctx.target}, not ${elemTypeName(src.dtype)}`, D.elementType);
  }
}

/**
 * TSCATTER (PTOAS TScatterOp): an index tile, or a maskPattern with its axis. Index element size: 4 bytes for
 * 4-byte data, 2 bytes for 1- and 2-byte data.
 */
const tscatter: InstructionCheck = (ctx) => {
  const patternAttr = attrOf(ctx.op, 'maskPattern');
  const indexes = ctx.tiles.get('indexes');
  if (!!patternAttr === ctx.bound.operands.has('indexes')) {
    ctx.error(patternAttr?.span ?? ctx.op.nameSpan, 'takes exactly one of an indexes operand and a maskPattern');
    return;
  }
  const dst = ctx.tiles.get('dst');
  const src = ctx.tiles.get('src');
  if (!dst || !src) return;
  if (dst.dtype !== src.dtype) {
    ctx.error(ctx.spanOf('dst'), `src (${elemTypeName(src.dtype)}) and dst (${elemTypeName(dst.dtype)}) must have the same element type`, D.elementType);
    return;
  }
  if (patternAttr) {
    const axis = ctx.attributes.get('axis');
    if (axis === undefined) {
      ctx.error(patternAttr.span, 'the mask-pattern form needs its axis: ins(%src, {maskPattern = ...} : S, "row")');
      return;
    }
    maskAxisShape(ctx, String(axis), String(ctx.attributes.get('maskPattern')), src, dst, { packed: 'src', spread: 'dst' });
    return;
  }
  const axisAttr = attrOf(ctx.op, 'axis');
  if (axisAttr) ctx.error(axisAttr.span, 'axis is given only with a maskPattern');
  if (!indexes) return;
  const want = elemSize(dst.dtype) >= 4 ? 4 : 2;
  if (elemSize(indexes.dtype) !== want) {
    const names = want === 4 ? 'i32 or ui32' : 'i16 or ui16';
    ctx.error(ctx.spanOf('indexes'), `indexes of ${elemTypeName(dst.dtype)} data must be ${names}, not ${elemTypeName(indexes.dtype)}`);
  }
  if (known(src.vRow, src.vCol, indexes.vRow, indexes.vCol) && (src.vRow !== indexes.vRow || src.vCol !== indexes.vCol))
    ctx.error(ctx.spanOf('indexes'), `indexes' valid shape ${indexes.vRow}x${indexes.vCol} must equal src's ${src.vRow}x${src.vCol}`, D.validRegion);
  else if (known(src.vRow, src.vCol, dst.vRow, dst.vCol) && (dst.vRow! < src.vRow! || dst.vCol! < src.vCol!))
    ctx.error(ctx.spanOf('dst'), `dst's valid shape ${dst.vRow}x${dst.vCol} must cover src's ${src.vRow}x${src.vCol}`, D.validRegion);
};

/** TGATHERB copies whole 32-byte blocks: dst's valid row must be a whole number of them. */
const tgatherb: InstructionCheck = (ctx) => {
  const dst = ctx.tiles.get('dst');
  if (!dst || dst.vCol === null) return;
  if ((dst.vCol * elemSize(dst.dtype)) % 32 !== 0)
    ctx.error(ctx.spanOf('dst'), `dst's valid row (${dst.vCol} x ${elemSize(dst.dtype)} bytes) must be whole 32-byte blocks`);
};

/** Rules beyond the tables, by op name (`pto.NAME`). */
export const checks: Record<string, InstructionCheck> = {
  'pto.tgather': tgather,
  'pto.tscatter': tscatter,
  'pto.tgatherb': tgatherb,
};
