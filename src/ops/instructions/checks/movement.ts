import { DIAGNOSTICS as D } from '../../../diag/catalog';
import { attrOf } from '../../../syntax/ast';
import { ElemType, TileType, elemSize, elemTypeName } from '../../../types/type';
import { checkIndexOperands, checkStaticWindow } from './window';
import { TargetName } from '../../../spec/schema';
import { CheckContext, InstructionCheck } from './context';
import { checkMoveToZz } from './tmov-zz';

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

/** PTOAS TConcatidxOp: on A5 every operand is row-major. */
const tconcatidx: InstructionCheck = (ctx) => {
  if (ctx.target !== 'a5') return;
  for (const [name, t] of ctx.tiles) {
    if (t.blayout !== 'row_major') ctx.error(ctx.spanOf(name), `${name} must be row-major (blayout=row_major) on a5`, D.tileLayout);
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
  const src = ctx.tiles.get('src');
  if (dst && dst.pad === 0) ctx.error(ctx.spanOf('dst'), 'dst needs a pad value (pad=zero, max or min), not null');
  // PTOAS infers the form of pto.tfillpad from the shapes; it takes no mode.
  const mode = ctx.spec.name === 'tfillpad' ? attrOf(ctx.op, 'mode') : undefined;
  if (mode) ctx.error(mode.span, "takes no 'mode': the form (expanding or not) follows from the shapes");
  if (!dst || !src) return;
  if (src.loc !== dst.loc) return ctx.error(ctx.spanOf('dst'), `dst (loc=${dst.loc}) and src (loc=${src.loc}) must be in the same location`, D.tileLocation);
  if (dst.loc === 'vec') {
    for (const [name, t] of [
      ['dst', dst],
      ['src', src],
    ] as const)
      if (t.blayout !== 'row_major') ctx.error(ctx.spanOf(name), `${name} must be row-major (blayout=row_major)`, D.tileLayout);
    return;
  }
  // pto-isa's Mat overload takes one tile type for both (PTOAS: the expanding form is vec only).
  const same = src.rows === dst.rows && src.cols === dst.cols && src.vRow === dst.vRow && src.vCol === dst.vCol && src.pad === dst.pad;
  const sameLayout = src.blayout === dst.blayout && src.slayout === dst.slayout && src.dtype === dst.dtype;
  if (!same || !sameLayout) ctx.error(ctx.spanOf('dst'), 'a mat tfillpad needs src and dst of the same tile type (shape, valid region, layout, pad)');
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
  // A5's store also quantises f32 to the 8-bit floats hif8 and e4m3 (TStoreOp::verify, isA5AccStorePreQuantDstType).
  store: { a2a3: { f32: ['i8', 'u8'], i32: ['i8', 'u8', 'f16'] }, a5: { ...A5_QUANT_PAIRS, f32: [...A5_QUANT_PAIRS.f32!, '!pto.hif8', 'f8E4M3FN'] } },
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

/** Whether the op asks for the fixpipe's relu: reluPreMode other than no_relu, or {relu = true}. */
const wantsRelu = (ctx: CheckContext) => ctx.attributes.get('relu') === true || (ctx.attributes.get('reluPreMode') ?? 'no_relu') !== 'no_relu';

/**
 * Relu and the scalar quant word (the preQuantScalar operand, or {pre_quant = WORD}) configure the fixpipe, so they
 * need an Acc source. Returns whether a quant word is given (and valid).
 */
function checkFixpipeAttributes(ctx: CheckContext, src: TileType): boolean {
  const word = attrOf(ctx.op, 'pre_quant');
  const operand = ctx.bound.operands.get('preQuantScalar');
  if (word && operand) {
    ctx.error(word.span, 'give the quant word once: the preQuantScalar operand or {pre_quant}, not both');
    return false;
  }
  if (operand && !(operand.type.kind === 'scalar' && (operand.type.elem === 'i64' || operand.type.elem === 'u64'))) {
    ctx.error(ctx.spanOf('preQuantScalar'), 'preQuantScalar must be an i64 quant word', D.elementType);
    return false;
  }
  if ((wantsRelu(ctx) || word || operand) && src.loc !== 'acc') {
    ctx.error(ctx.op.nameSpan, `relu and the quant word apply to the fixpipe: src must be an acc tile, not loc=${src.loc}`, D.tileLocation);
    return false;
  }
  if (word?.kind === 'int' && (word.value < 0n || word.value >= 1n << 64n)) {
    ctx.error(word.span, `'pre_quant' must be a 64-bit quant word in 0..0xFFFFFFFFFFFFFFFF, got ${word.value}`);
    return false;
  }
  return word !== undefined || operand !== undefined;
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
  // With fp (today's spelling of tmov.fp) the move is the fixpipe's vector quantisation. PTOAS's TMovOp verifier sets
  // no rule on fp's element type or width (the VM runs 64-bit words and reports others as not implemented yet).
  const third = ctx.tiles.get('fp');
  if (third?.loc === 'vec') return checkMoveToZz(ctx, src, dst, third);
  const groupAxis = attrOf(ctx.op, 'grpAxis');
  if (groupAxis && !third) return ctx.error(groupAxis.span, 'grpAxis belongs to the X-to-ZZ form (a vec third tile)');
  if (third) {
    if (groupAxis) return ctx.error(groupAxis.span, 'grpAxis belongs to the X-to-ZZ form (a vec third tile), not to a move with a scaling fp');
    if (src.loc !== 'acc') return ctx.error(ctx.spanOf('fp'), `fp quantises a move out of the accumulator; src is a ${src.loc} tile`, D.tileLocation);
    if (src.dtype !== 'f32' && src.dtype !== 'i32')
      return ctx.error(ctx.spanOf('src'), `the fp form moves an f32 or i32 accumulator, not ${elemTypeName(src.dtype)}`, D.elementType);
    if (checkFixpipeAttributes(ctx, src)) return ctx.error(ctx.spanOf('fp'), 'fp and the quant word are mutually exclusive');
    checkA2a3MoveToMat(ctx, dst);
    return checkQuantPair(ctx, 'move', src.dtype, dst.dtype, 'dst');
  }
  const quantised = checkFixpipeAttributes(ctx, src);
  if (src.loc === 'acc' && (quantised || wantsRelu(ctx))) checkA2a3MoveToMat(ctx, dst);
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

/** The static element count of a shape, or undefined while a dimension is dynamic. */
const elementCount = (shape: (number | null)[]) => (shape.some((d) => d === null) ? undefined : (shape as number[]).reduce((p, d) => p * d, 1));

/**
 * tstore (PTOAS's TStoreOp verifier): a2a3 stores vec, mat and acc tiles, a5 vec and acc; without fp the view holds
 * as many elements as src's valid region. Vec and mat stores copy bits (same element size); an acc tile of i32 or
 * f32 is stored as i32, f32, f16 or bf16, and with a quant word as the quantised types of the target.
 */
const tstore: InstructionCheck = (ctx) => {
  const src = ctx.tiles.get('src');
  if (!src) return;
  if (ctx.target === 'a5' && src.loc === 'mat') return ctx.error(ctx.spanOf('src'), 'src must be a vec or acc tile on a5, not loc=mat', D.tileLocation);
  const fp = ctx.tiles.has('fp');
  if (fp && src.loc !== 'acc') return ctx.error(ctx.spanOf('fp'), `the fp form needs an acc src, not loc=${src.loc}`, D.tileLocation);
  const view = ctx.bound.operands.get('dst')?.type;
  const viewCount = view?.kind === 'partition_view' ? elementCount(view.shape) : undefined;
  // As TStoreOp::verify, an empty valid region (a zero-sized tail) stores nothing and is not compared.
  const validCount = src.vRow !== null && src.vCol !== null && src.vRow * src.vCol > 0 ? src.vRow * src.vCol : undefined;
  if (!fp && viewCount !== undefined && validCount !== undefined && viewCount !== validCount)
    ctx.error(ctx.spanOf('dst'), `dst holds ${viewCount} elements, but src's valid region ${src.vRow}x${src.vCol} holds ${validCount}`, D.validRegion);
  const quantised = checkFixpipeAttributes(ctx, src);
  if (fp && quantised) return ctx.error(ctx.spanOf('fp'), 'fp and the quant word are mutually exclusive');
  if (src.loc === 'acc' && src.dtype !== 'i32' && src.dtype !== 'f32')
    return ctx.error(ctx.spanOf('src'), `an acc src holds i32 or f32, not ${elemTypeName(src.dtype)}`, D.elementType);
  const elem = viewElem(ctx);
  if (!elem || fp) return;
  if (quantised) return checkQuantPair(ctx, 'store', src.dtype, elem, 'dst');
  if (src.loc !== 'acc') {
    if (elemSize(elem) !== elemSize(src.dtype))
      ctx.error(ctx.spanOf('dst'), `src (${elemTypeName(src.dtype)}) and dst (${elemTypeName(elem)}) must have element types of the same size`, D.elementType);
    return;
  }
  if (!['i32', 'f32', 'f16', 'bf16'].includes(elem))
    ctx.error(ctx.spanOf('dst'), `an acc tile is stored as i32, f32, f16 or bf16 without a quant word, not ${elemTypeName(elem)}`, D.elementType);
};

const tstoreFp: InstructionCheck = (ctx) => {
  const src = ctx.tiles.get('src');
  const elem = viewElem(ctx);
  if (!src || !elem) return;
  checkQuantTile(ctx, src.vCol, 'src');
  if (isAllowed(ctx, 'src', src.dtype)) checkQuantPair(ctx, 'store', src.dtype, elem, 'dst');
};

/** A vec tile loaded on a5 is ND, DN or NZ, and a scaling tile is loaded on a5 only (PTOAS's TLoadOp verifier). */
const tload: InstructionCheck = (ctx) => {
  const dst = ctx.tiles.get('dst');
  if (dst?.loc === 'scaling' && ctx.target === 'a2a3')
    return ctx.error(ctx.spanOf('dst'), 'dst must be a vec or mat tile on a2a3, not loc=scaling', D.tileLocation);
  if (!dst || ctx.target !== 'a5' || dst.loc !== 'vec') return;
  const nd = dst.blayout === 'row_major' && dst.slayout === 'none_box';
  const dn = dst.blayout === 'col_major' && dst.slayout === 'none_box';
  const nz = dst.blayout === 'col_major' && dst.slayout === 'row_major';
  if (!nd && !dn && !nz) ctx.error(ctx.spanOf('dst'), `a vec dst on a5 must be ND, DN or NZ, not blayout=${dst.blayout}, slayout=${dst.slayout}`, D.tileLayout);
};

/** Rules beyond the tables, by op name (`pto.NAME`). */
export const checks: Record<string, InstructionCheck> = {
  'pto.tsubview': tsubview,
  'pto.tconcat': tconcat,
  'pto.tconcatidx': tconcatidx,
  'pto.tinterleave': tinterleave,
  'pto.tdeinterleave': tdeinterleave,
  'pto.tfillpad': fillPad,
  'pto.tfillpad_expand': fillPad,
  'pto.tfillpad_inplace': fillPad,
  'pto.tprint': tprint,
  'pto.tload': tload,
  'pto.tstore': tstore,
  'pto.tstore_fp': tstoreFp,
  'pto.tmov': tmov,
  'pto.tmov.fp': tmovFp,
};
