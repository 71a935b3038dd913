import { DIAGNOSTICS as D } from '../../../diag/catalog';
import { ElemType, TileLoc, TileType, elemTypeName } from '../../../types/type';

import { CheckContext, InstructionCheck } from './context';
import { checkIndexOperands, checkSameLayout, checkStaticWindow, layoutName } from './window';

/**
 * textract and tinsert: the location pairs, layouts and element types of PTOAS's TExtractOp/TInsertOp verifiers,
 * per target. A move out of an acc tile goes through the fixpipe, which casts or quantises (fp tile, preQuantScalar)
 * and may apply relu; the other pairs copy bits.
 */

const isNZ = (t: TileType) => t.blayout !== 'row_major' && t.slayout === 'row_major';
const isND = (t: TileType) => t.blayout === 'row_major' && t.slayout === 'none_box';

/** The fixpipe forms the op is written with. */
interface FixpipeForm {
  fp: boolean;
  preQuant: boolean;
  relu: boolean;
  accToVec: boolean;
}

function fixpipeForm(ctx: CheckContext): FixpipeForm {
  const relu = ctx.attributes.get('reluPreMode');
  return {
    fp: ctx.tiles.has('fp'),
    preQuant: ctx.bound.operands.has('preQuantScalar'),
    relu: relu !== undefined && relu !== 'no_relu',
    accToVec: ctx.attributes.get('accToVecMode') !== undefined,
  };
}

/** preQuantScalar is a 64-bit word (PTOAS: I64). */
function checkQuantWordType(ctx: CheckContext): void {
  const type = ctx.bound.operands.get('preQuantScalar')?.type;
  if (type && !(type.kind === 'scalar' && (type.elem === 'i64' || type.elem === 'u64')))
    ctx.error(ctx.spanOf('preQuantScalar'), 'preQuantScalar must be an i64 quant word', D.elementType);
}

/** fp, preQuantScalar and reluPreMode configure the fixpipe: one quant source at most, and an acc source. */
function checkFixpipeOperands(ctx: CheckContext, src: TileType, form: FixpipeForm): boolean {
  checkQuantWordType(ctx);
  if (form.fp && form.preQuant) {
    ctx.error(ctx.spanOf('fp'), 'fp and preQuantScalar are mutually exclusive');
    return false;
  }
  const needsAcc = form.fp ? 'fp' : form.preQuant ? 'preQuantScalar' : form.relu ? 'reluPreMode' : undefined;
  if (needsAcc && src.loc !== 'acc') {
    const at = form.fp ? ctx.spanOf('fp') : form.preQuant ? ctx.spanOf('preQuantScalar') : ctx.op.nameSpan;
    ctx.error(at, `the ${needsAcc} form needs an acc src, not loc=${src.loc}`, D.tileLocation);
    return false;
  }
  return true;
}

type Pairs = Partial<Record<ElemType, ElemType[]>>;

/**
 * The acc -> destination element types of the fixpipe's cast and quantising forms (PTOAS's verifiers); A5 quantises
 * f32 to MLIR's 8-bit floats too (TExtractOp::verify's isA5AccQuantExtractTypePair).
 */
const ACC_TYPES: Record<'a2a3' | 'a5', { cast: Pairs; quant: Pairs }> = {
  a2a3: { cast: { f32: ['f16', 'bf16'] }, quant: { f32: ['i8', 'u8'], i32: ['i8', 'u8', 'f16', 'i16', 'u16'] } },
  a5: {
    cast: { f32: ['f16', 'bf16', 'f32'], i32: ['i32', 'u32'] },
    quant: { f32: ['i8', 'u8', 'f16', 'bf16', 'f32', 'f8E4M3FN', 'f8E5M2'], i32: ['i8', 'u8', 'f16', 'bf16'] },
  },
};

const describe = (pairs: Pairs) =>
  Object.entries(pairs)
    .map(([from, to]) => `${elemTypeName(from as ElemType)} -> ${to!.map(elemTypeName).join('/')}`)
    .join('; ');

function checkAccTypes(ctx: CheckContext, src: TileType, dst: TileType, form: FixpipeForm): void {
  const quantised = form.fp || form.preQuant;
  const pairs = ACC_TYPES[ctx.target][quantised ? 'quant' : 'cast'];
  if (!pairs[src.dtype]?.includes(dst.dtype))
    ctx.error(
      ctx.spanOf('dst'),
      `${quantised ? 'a quantising' : 'an'} acc move from ${elemTypeName(src.dtype)} to ${elemTypeName(dst.dtype)} is not supported on ${ctx.target} (${describe(pairs)})`,
      D.elementType,
    );
}

function requireLayout(ctx: CheckContext, operand: string, tile: TileType, ok: boolean, wanted: string): void {
  if (!ok) ctx.error(ctx.spanOf(operand), `${operand} must use ${wanted}, not ${layoutName(tile)}`, D.tileLayout);
}

const NZ_TEXT = 'blayout=col_major, slayout=row_major';
const ND_TEXT = 'blayout=row_major, slayout=none_box';

/** An acc source: NZ, and on a2a3 a mat destination NZ with 512-byte fractals. */
function checkAccSource(ctx: CheckContext, src: TileType, dst: TileType, form: FixpipeForm): void {
  requireLayout(ctx, 'src', src, isNZ(src), NZ_TEXT);
  if (dst.loc === 'mat') requireLayout(ctx, 'dst', dst, isNZ(dst), NZ_TEXT);
  if (ctx.target === 'a2a3' && dst.fractal !== 512) ctx.error(ctx.spanOf('dst'), `dst fractal size must be 512 on a2a3, not ${dst.fractal}`, D.tileLayout);
  checkAccTypes(ctx, src, dst, form);
}

function checkPair(ctx: CheckContext, src: TileType, dst: TileType, pairs: [TileLoc, TileLoc[]][]): boolean {
  if (pairs.some(([s, ds]) => s === src.loc && ds.includes(dst.loc))) return true;
  const text = pairs.map(([s, ds]) => `${s}->${ds.join('/')}`).join(', ');
  ctx.error(ctx.spanOf('dst'), `moving a ${src.loc} tile into a ${dst.loc} tile is not supported on ${ctx.target} (${text})`, D.tileLocation);
  return false;
}

const EXTRACT_PAIRS: Record<'a2a3' | 'a5', [TileLoc, TileLoc[]][]> = {
  a2a3: [
    ['vec', ['vec']],
    ['mat', ['left', 'right']],
    ['acc', ['mat']],
  ],
  a5: [
    ['vec', ['vec', 'mat']],
    ['mat', ['left', 'right', 'scaling']],
    ['acc', ['mat', 'vec']],
  ],
};

const textract: InstructionCheck = (ctx) => {
  checkIndexOperands(ctx, ['indexRow', 'indexCol']);
  const src = ctx.tiles.get('src');
  const dst = ctx.tiles.get('dst');
  if (!src || !dst) return;
  checkStaticWindow(ctx, ['indexRow', 'indexCol'], dst, src, 'src');
  const form = fixpipeForm(ctx);
  if (src.loc !== 'acc' && src.dtype !== dst.dtype)
    ctx.error(ctx.spanOf('dst'), `src (${elemTypeName(src.dtype)}) and dst (${elemTypeName(dst.dtype)}) must have the same element type`, D.elementType);
  if (!checkFixpipeOperands(ctx, src, form)) return;
  if (form.accToVec && (ctx.target !== 'a5' || src.loc !== 'acc' || dst.loc !== 'vec'))
    return ctx.error(ctx.op.nameSpan, 'accToVecMode applies only to an acc -> vec move on a5');
  if (!checkPair(ctx, src, dst, EXTRACT_PAIRS[ctx.target])) return;
  if (src.loc === 'acc') {
    if (dst.loc === 'vec') requireLayout(ctx, 'dst', dst, isND(dst), ND_TEXT);
    return checkAccSource(ctx, src, dst, form);
  }
  if (src.loc === 'vec' && dst.loc === 'vec') {
    if (ctx.target === 'a5') {
      requireLayout(ctx, 'src', src, isND(src), ND_TEXT);
      requireLayout(ctx, 'dst', dst, isND(dst), ND_TEXT);
    }
    return checkSameLayout(ctx, dst, src);
  }
  if (src.loc !== 'mat') return;
  // Mat sources: the layouts the A2A3/A5 implementations read (PTOAS's verifier).
  const zn = src.blayout === 'row_major' && src.slayout === 'col_major';
  const boxedRows = src.blayout !== 'row_major' && src.slayout === 'row_major';
  const srcOk = ctx.target === 'a2a3' ? src.blayout === 'row_major' || boxedRows : zn || boxedRows || (dst.loc === 'left' && src.blayout === 'row_major');
  requireLayout(ctx, 'src', src, srcOk, 'a supported mat layout (NZ or ZN)');
  // PTOAS's parser gives a left tile the target's blayout (row_major on a2a3, col_major on a5) whatever is written.
  if (dst.loc === 'left') {
    requireLayout(ctx, 'dst', dst, dst.slayout === 'row_major', 'slayout=row_major');
  } else if (dst.loc === 'right') {
    requireLayout(ctx, 'dst', dst, dst.blayout === 'row_major' && dst.slayout === 'col_major', 'blayout=row_major, slayout=col_major');
  }
};

const INSERT_PAIRS: Record<'a2a3' | 'a5', [TileLoc, TileLoc[]][]> = {
  a2a3: [
    ['vec', ['vec']],
    ['acc', ['mat']],
  ],
  a5: [
    ['vec', ['vec', 'mat']],
    ['acc', ['mat', 'vec']],
  ],
};

const tinsert: InstructionCheck = (ctx) => {
  checkIndexOperands(ctx, ['indexRow', 'indexCol']);
  const src = ctx.tiles.get('src');
  const dst = ctx.tiles.get('dst');
  if (!src || !dst) return;
  checkStaticWindow(ctx, ['indexRow', 'indexCol'], src, dst, 'dst');
  const form = fixpipeForm(ctx);
  if (!checkFixpipeOperands(ctx, src, form)) return;
  if (form.accToVec && (ctx.target !== 'a5' || src.loc !== 'acc' || dst.loc !== 'vec'))
    return ctx.error(ctx.op.nameSpan, 'accToVecMode applies only to an acc -> vec move on a5');
  const splitMode = ctx.attributes.get('tinsertMode') !== undefined;
  if (splitMode && (ctx.target !== 'a5' || src.loc !== 'vec' || dst.loc !== 'mat'))
    return ctx.error(ctx.op.nameSpan, 'tinsertMode (split2/split4) applies only to a vec -> mat insert on a5');
  if (!checkPair(ctx, src, dst, INSERT_PAIRS[ctx.target])) return;
  if (src.loc === 'acc') {
    if (dst.loc === 'vec') requireLayout(ctx, 'dst', dst, isND(dst) || isNZ(dst), `ND (${ND_TEXT}) or NZ (${NZ_TEXT})`);
    return checkAccSource(ctx, src, dst, form);
  }
  // The element types themselves are the table's (spec/instructions/data-movement.json).
  if (src.dtype !== dst.dtype)
    ctx.error(ctx.spanOf('dst'), `src (${elemTypeName(src.dtype)}) and dst (${elemTypeName(dst.dtype)}) must have the same element type`, D.elementType);
  if (dst.loc === 'mat') {
    requireLayout(ctx, 'dst', dst, isNZ(dst), NZ_TEXT);
    requireLayout(ctx, 'src', src, splitMode ? isNZ(src) : isND(src) || isNZ(src), splitMode ? NZ_TEXT : `ND (${ND_TEXT}) or NZ (${NZ_TEXT})`);
    return;
  }
  if (ctx.target === 'a5' && !((isND(src) && isND(dst)) || (isNZ(src) && isNZ(dst))))
    return ctx.error(ctx.spanOf('dst'), `src (${layoutName(src)}) and dst (${layoutName(dst)}) must both be ND or both NZ`, D.tileLayout);
  checkSameLayout(ctx, dst, src);
};

/** Rules beyond the tables, by op name (`pto.NAME`). */
export const checks: Record<string, InstructionCheck> = {
  'pto.textract': textract,
  'pto.tinsert': tinsert,
};
