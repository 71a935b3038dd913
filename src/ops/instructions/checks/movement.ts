import { attrOf } from '../../../syntax/ast';
import { ElemType, TileType, elemSize, elemTypeName, printType } from '../../../types/type';
import { TargetName } from '../../../spec/schema';
import { CheckContext, InstructionCheck } from './context';

/** Element types of the cube extraction Mat -> Left/Right (manual TEXTRACT, A2A3 and A5 checks, standard types only). */
const CUBE_EXTRACT_TYPES: ElemType[] = ['i8', 'f16', 'bf16', 'f32'];
const INDEX_TYPES = ['index', 'i8', 'u8', 'i16', 'u16', 'i32', 'u32', 'i64', 'u64'];

type Shape = { vRow: number; vCol: number };

/** The shape rules of tdeinterleave (manual TDEINTERLEAVE constraints), or null when they hold. Also run by the VM. */
export function deinterleaveShapeProblem(dst0: Shape, dst1: Shape, src0: Shape, src1: Shape | undefined): string | null {
  const same = (a: Shape, b: Shape) => a.vRow === b.vRow && a.vCol === b.vCol;
  const shape = (s: Shape) => `${s.vRow}x${s.vCol}`;
  if (!same(dst0, dst1)) return `dst0 (${shape(dst0)}) and dst1 (${shape(dst1)}) must have the same valid region`;
  if (src1) {
    if (!same(src0, dst0) || !same(src1, dst0)) return `src0 (${shape(src0)}), src1 (${shape(src1)}) and dst0 (${shape(dst0)}) must have the same valid region`;
    return dst0.vCol % 2 === 0 ? null : `valid cols (${dst0.vCol}) must be even`;
  }
  if (src0.vCol % 2 !== 0) return `src0 valid cols (${src0.vCol}) must be even`;
  if (src0.vRow !== dst0.vRow || src0.vCol !== 2 * dst0.vCol) return `dst0 valid region (${shape(dst0)}) must be src0's (${shape(src0)}) with half the cols`;
  return null;
}

/** The valid region of a tile type, or undefined while it is dynamic. */
function staticShape(t: TileType | undefined): Shape | undefined {
  return t && t.vRow !== null && t.vCol !== null ? { vRow: t.vRow, vCol: t.vCol } : undefined;
}

const layoutName = (t: TileType) => `blayout=${t.blayout}, slayout=${t.slayout}`;

/** Row/column index operands are index or integer scalars. */
function checkIndexOperands(ctx: CheckContext, names: string[]): void {
  for (const name of names) {
    const type = ctx.bound.operands.get(name)?.type;
    if (type && !(type.kind === 'scalar' && INDEX_TYPES.includes(type.elem)))
      ctx.error(ctx.spanOf(name), `${name} must be an index or integer value, got ${printType(type)}`);
  }
}

function checkSameLayout(ctx: CheckContext, dst: TileType, src: TileType): void {
  if (dst.blayout !== src.blayout || dst.slayout !== src.slayout) {
    ctx.error(ctx.spanOf('dst'), `dst (${layoutName(dst)}) and src (${layoutName(src)}) must have the same layout`);
  }
}

/**
 * A window of `extent` (a tile's valid region) at the static (row, col) operands must lie inside the
 * `outer` tile's rows x cols, the bound on every target (cpu-sim's tighter valid-region bound and
 * dynamic positions are checked when the VM runs).
 */
function checkStaticWindow(ctx: CheckContext, position: [string, string], extent: TileType, outer: TileType, outerName: string): void {
  const row = ctx.constant(position[0]);
  const col = ctx.constant(position[1]);
  if (row === undefined || col === undefined || extent.vRow === null || extent.vCol === null) return;
  if (row < 0n || col < 0n || Number(row) + extent.vRow > outer.rows || Number(col) + extent.vCol > outer.cols) {
    ctx.error(ctx.spanOf(position[0]), `the ${extent.vRow}x${extent.vCol} window at (${row}, ${col}) leaves ${outerName}'s ${outer.rows}x${outer.cols}`);
  }
}

const textract: InstructionCheck = (ctx) => {
  checkIndexOperands(ctx, ['indexRow', 'indexCol']);
  const src = ctx.tiles.get('src');
  const dst = ctx.tiles.get('dst');
  if (!src || !dst) return;
  checkStaticWindow(ctx, ['indexRow', 'indexCol'], dst, src, 'src');
  if (src.loc === 'vec' && dst.loc === 'vec') return checkSameLayout(ctx, dst, src);
  if (src.loc !== 'mat' || (dst.loc !== 'left' && dst.loc !== 'right')) {
    return ctx.error(ctx.spanOf('dst'), `extracting from a ${src.loc} tile into a ${dst.loc} tile is not supported (Vec -> Vec, Mat -> Left/Right)`);
  }
  if (!CUBE_EXTRACT_TYPES.includes(src.dtype)) {
    ctx.error(ctx.spanOf('src'), `Mat -> ${dst.loc} extraction takes ${CUBE_EXTRACT_TYPES.map(elemTypeName).join(', ')}, not ${elemTypeName(src.dtype)}`);
  }
  // The source layouts the A2A3/A5 implementations accept (manual TEXTRACT), GEMV's one-row Left source included.
  const zn = src.slayout === 'col_major' && src.blayout === 'row_major';
  const nz = src.slayout === 'row_major' && src.blayout === 'col_major';
  const gemv = dst.loc === 'left' && src.rows === 1 && src.blayout === 'row_major';
  if (!zn && !nz && !gemv) ctx.error(ctx.spanOf('src'), `a Mat source must be NZ or ZN (or a one-row row-major source for Left), not ${layoutName(src)}`);
};

const tinsert: InstructionCheck = (ctx) => {
  checkIndexOperands(ctx, ['indexRow', 'indexCol']);
  const src = ctx.tiles.get('src');
  const dst = ctx.tiles.get('dst');
  if (!src || !dst) return;
  checkSameLayout(ctx, dst, src);
  checkStaticWindow(ctx, ['indexRow', 'indexCol'], src, dst, 'dst');
};

const tsubview: InstructionCheck = (ctx) => {
  checkIndexOperands(ctx, ['rowIdx', 'colIdx']);
  const src = ctx.tiles.get('src');
  const dst = ctx.tiles.get('dst');
  if (!src || !dst) return;
  if (src.loc !== dst.loc) ctx.error(ctx.spanOf('dst'), `dst (loc=${dst.loc}) and src (loc=${src.loc}) must be in the same location`);
  if (src.blayout !== dst.blayout) ctx.error(ctx.spanOf('dst'), `dst (blayout=${dst.blayout}) and src (blayout=${src.blayout}) must have the same blayout`);
  checkStaticWindow(ctx, ['rowIdx', 'colIdx'], dst, src, 'src');
};

const tconcat: InstructionCheck = (ctx) => {
  const has = (n: string) => ctx.bound.operands.has(n);
  if (has('src0Idx') !== has('src1Idx')) return ctx.error(ctx.op.nameSpan, 'takes both index tiles (src0Idx, src1Idx) or neither');
  if (has('dstIdx') && !has('src0Idx')) return ctx.error(ctx.spanOf('dstIdx'), 'dstIdx needs the index tiles src0Idx and src1Idx');
  const dstIdx = ctx.tiles.get('dstIdx');
  if (dstIdx && dstIdx.vCol !== null && dstIdx.vCol !== 1) ctx.error(ctx.spanOf('dstIdx'), `dstIdx must have one valid col, not ${dstIdx.vCol}`);
  if (has('src0Idx')) return; // the indexed form takes its column counts from the index tiles at run time
  const [dst, src0, src1] = ['dst', 'src0', 'src1'].map((n) => ctx.tiles.get(n));
  if (!dst || !src0 || !src1 || src0.vCol === null || src1.vCol === null) return;
  const sum = src0.vCol + src1.vCol;
  if (ctx.target === 'a5') {
    if (dst.vCol !== null && dst.vCol !== sum)
      ctx.error(ctx.op.nameSpan, `dst valid cols (${dst.vCol}) must equal src0 valid cols + src1 valid cols (${src0.vCol} + ${src1.vCol}) on a5`);
  } else if (sum > dst.cols) {
    ctx.error(ctx.op.nameSpan, `src0 valid cols + src1 valid cols (${src0.vCol} + ${src1.vCol}) must not exceed dst cols (${dst.cols})`);
  }
};

const tinterleave: InstructionCheck = (ctx) => {
  const dst0 = ctx.tiles.get('dst0');
  if (dst0?.vCol !== null && dst0 !== undefined && dst0.vCol % 2 !== 0) ctx.error(ctx.op.nameSpan, `valid cols (${dst0.vCol}) must be even`);
};

const tdeinterleave: InstructionCheck = (ctx) => {
  const [dst0, dst1, src0] = ['dst0', 'dst1', 'src0'].map((n) => staticShape(ctx.tiles.get(n)));
  const src1Type = ctx.tiles.get('src1');
  const src1 = staticShape(src1Type);
  if (!dst0 || !dst1 || !src0 || (src1Type && !src1)) return; // dynamic: checked at run time
  const problem = deinterleaveShapeProblem(dst0, dst1, src0, src1);
  if (problem) ctx.error(ctx.op.nameSpan, problem);
};

/** Vector tfillpad* write dst's pad value: PadValue::Null is rejected by the implementations (static_assert). */
const fillPad: InstructionCheck = (ctx) => {
  const dst = ctx.tiles.get('dst');
  if (dst && dst.pad === 0) ctx.error(ctx.spanOf('dst'), 'dst needs a pad value (pad=zero, max or min), not null');
};

/** TPRINT of a vec tile prints it directly; mat (a2a3 only) and acc tiles go through a global scratch (tmp). */
const tprint: InstructionCheck = (ctx) => {
  const src = ctx.tiles.get('src');
  const tmp = ctx.bound.operands.get('tmp')?.type;
  if (!src) return;
  if (src.loc === 'mat' && ctx.target === 'a5') ctx.error(ctx.spanOf('src'), 'printing a mat tile is not supported on a5');
  else if (!tmp && src.loc !== 'vec')
    ctx.error(ctx.spanOf('src'), `printing a ${src.loc} tile needs a global scratch: ins(%src, %tmp : T, !pto.partition_tensor_view<...>)`);
  if (tmp?.kind !== 'partition_view' || tmp.shape.some((d) => d === null)) return;
  const elements = tmp.shape.reduce<number>((n, d) => n * d!, 1);
  if (elements < src.rows * src.cols)
    ctx.error(ctx.spanOf('tmp'), `tmp holds ${elements} elements; printing a ${src.rows}x${src.cols} tile needs at least ${src.rows * src.cols}`);
};

type QuantPairs = Partial<Record<ElemType, ElemType[]>>;

const A5_QUANT_PAIRS: QuantPairs = { f32: ['i8', 'u8', 'f16', 'bf16', 'f32'], i32: ['i8', 'u8', 'f16', 'bf16'] };

/**
 * The accumulator -> destination pairs the fixpipe quantises (scalar {pre_quant} and vector fp forms alike), standard
 * types only. Moves: npu/a2a3/common.hpp CheckTMovAccToMat (f32 -> int8 only), npu/a5/common.hpp CheckTMovAccValid.
 * Stores: npu/a2a3/TStore.hpp CheckAcc2gm and the TSTORE manual's ACC-to-GM table, npu/a5/TStore.hpp CheckStaticAcc.
 */
const QUANT_PAIRS: Record<'move' | 'store', Record<TargetName, QuantPairs>> = {
  move: { a2a3: { f32: ['i8'], i32: ['i8', 'u8', 'f16', 'i16'] }, a5: A5_QUANT_PAIRS },
  store: { a2a3: { f32: ['i8', 'u8'], i32: ['i8', 'u8', 'f16'] }, a5: A5_QUANT_PAIRS },
};

const describePairs = (pairs: QuantPairs) =>
  Object.entries(pairs)
    .map(([from, to]) => `${elemTypeName(from as ElemType)} -> ${to!.map(elemTypeName).join(', ')}`)
    .join('; ');

/** A quantising move or store: the accumulator -> destination pair must be one the target's fixpipe has. */
function checkQuantPair(ctx: CheckContext, path: 'move' | 'store', from: ElemType, to: ElemType, at: string): void {
  const pairs = QUANT_PAIRS[path][ctx.target];
  if (!pairs[from]) return ctx.error(ctx.spanOf('src'), `quantisation takes an f32 or i32 accumulator, not ${elemTypeName(from)}`);
  if (!pairs[from]!.includes(to)) {
    ctx.error(ctx.spanOf(at), `quantising ${elemTypeName(from)} to ${elemTypeName(to)} is not supported on ${ctx.target} (${describePairs(pairs)})`);
  }
}

/**
 * {relu} and {pre_quant} configure the fixpipe, so they need an Acc source; pre_quant is the scalar-quant form's
 * 64-bit word. Returns whether a quant word is given (and valid).
 */
function checkFixpipeAttributes(ctx: CheckContext, src: TileType): boolean {
  const word = attrOf(ctx.op, 'pre_quant');
  const relu = ctx.attributes.get('relu') === true;
  if ((relu || word) && src.loc !== 'acc') {
    ctx.error(ctx.op.nameSpan, `relu and pre_quant apply to the fixpipe: src must be an acc tile, not loc=${src.loc}`);
    return false;
  }
  if (word?.kind === 'int' && (word.value < 0n || word.value >= 1n << 64n)) {
    ctx.error(word.span, `'pre_quant' must be a 64-bit quant word in 0..0xFFFFFFFFFFFFFFFF, got ${word.value}`);
    return false;
  }
  return word !== undefined;
}

/** On a2a3 the accumulator's quantising and relu moves go to Mat only (npu/a2a3/TMov.hpp, CheckTMovAccToMat). */
function checkA2a3MoveToMat(ctx: CheckContext, dst: TileType): void {
  if (ctx.target === 'a2a3' && dst.loc !== 'mat') ctx.error(ctx.spanOf('dst'), `on a2a3 the fixpipe moves the accumulator to a mat tile, not loc=${dst.loc}`);
}

/** The fp tile of the vector-quant forms: 64-bit words, at least one valid col per quantised col. */
function checkQuantTile(ctx: CheckContext, cols: number | null, whose: string): void {
  const fp = ctx.tiles.get('fp');
  if (!fp) return;
  if (fp.dtype !== 'u64' && fp.dtype !== 'i64') return ctx.error(ctx.spanOf('fp'), `fp holds 64-bit quant words (ui64 or i64), not ${elemTypeName(fp.dtype)}`);
  if (fp.vCol !== null && cols !== null && fp.vCol < cols)
    ctx.error(ctx.spanOf('fp'), `fp has ${fp.vCol} valid cols, but ${whose} has ${cols}: one quant word per col`);
}

const tmov: InstructionCheck = (ctx) => {
  const src = ctx.tiles.get('src');
  const dst = ctx.tiles.get('dst');
  if (!src || !dst) return;
  // With fp (today's spelling of tmov.fp) the move is the fixpipe's vector quantisation, with tmov.fp's rules.
  if (ctx.tiles.has('fp')) {
    if (src.loc !== 'acc') ctx.error(ctx.spanOf('fp'), `fp quantises a move out of the accumulator; src is a ${src.loc} tile`);
    else tmovFp(ctx);
    return;
  }
  const quantised = checkFixpipeAttributes(ctx, src);
  if (src.loc === 'acc' && (quantised || ctx.attributes.get('relu') === true)) checkA2a3MoveToMat(ctx, dst);
  if (quantised) checkQuantPair(ctx, 'move', src.dtype, dst.dtype, 'dst');
};

const tmovFp: InstructionCheck = (ctx) => {
  const src = ctx.tiles.get('src');
  const dst = ctx.tiles.get('dst');
  if (!src || !dst) return;
  checkA2a3MoveToMat(ctx, dst);
  checkQuantTile(ctx, dst.vCol, 'dst');
  if (isAllowed(ctx, 'src', src.dtype) && isAllowed(ctx, 'dst', dst.dtype)) checkQuantPair(ctx, 'move', src.dtype, dst.dtype, 'dst');
};

/** Whether the table's dtype list for the operand takes the dtype (if not, the table rule has reported it). */
function isAllowed(ctx: CheckContext, operand: string, dtype: ElemType): boolean {
  const list = ctx.spec.dtypes[ctx.target]?.[operand];
  return !list || list.length === 0 || list.includes(dtype);
}

/** The element type of the view operand `dst`, when it is a typed partition view. */
function viewElem(ctx: CheckContext): ElemType | undefined {
  const view = ctx.bound.operands.get('dst')?.type;
  return view?.kind === 'partition_view' && view.elem ? view.elem : undefined;
}

/**
 * tstore copies bits, so the view's element type has the tile's size; an f32 Acc tile may also be stored as
 * f16 or bf16 (the fixpipe's cast, TSTORE manual's ACC-to-GM table, both targets). With {pre_quant} the
 * quantised pairs of that table apply instead.
 */
const tstore: InstructionCheck = (ctx) => {
  const src = ctx.tiles.get('src');
  const elem = viewElem(ctx);
  if (!src || !elem) return;
  if (checkFixpipeAttributes(ctx, src)) return checkQuantPair(ctx, 'store', src.dtype, elem, 'dst');
  if (elemSize(elem) === elemSize(src.dtype)) return;
  if (src.loc === 'acc' && src.dtype === 'f32' && (elem === 'f16' || elem === 'bf16')) return;
  ctx.error(ctx.spanOf('dst'), `src (${elemTypeName(src.dtype)}) and dst (${elemTypeName(elem)}) must have element types of the same size`);
};

const tstoreFp: InstructionCheck = (ctx) => {
  const src = ctx.tiles.get('src');
  const elem = viewElem(ctx);
  if (!src || !elem) return;
  checkQuantTile(ctx, src.vCol, 'src');
  if (isAllowed(ctx, 'src', src.dtype)) checkQuantPair(ctx, 'store', src.dtype, elem, 'dst');
};

/** Rules beyond the tables, by op name (`pto.NAME`). */
export const checks: Record<string, InstructionCheck> = {
  'pto.textract': textract,
  'pto.tinsert': tinsert,
  'pto.tsubview': tsubview,
  'pto.tconcat': tconcat,
  'pto.tinterleave': tinterleave,
  'pto.tdeinterleave': tdeinterleave,
  'pto.tfillpad': fillPad,
  'pto.tfillpad_expand': fillPad,
  'pto.tfillpad_inplace': fillPad,
  'pto.tprint': tprint,
  'pto.tstore': tstore,
  'pto.tstore_fp': tstoreFp,
  'pto.tmov': tmov,
  'pto.tmov.fp': tmovFp,
};
