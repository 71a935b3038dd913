import { ElemType, TileType, elemSize, elemTypeName, printType } from '../../syntax/types';
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
    if (type && !(type.kind === 'scalar' && INDEX_TYPES.includes(type.elem))) ctx.error(ctx.spanOf(name), `${name} must be an index or integer value, got ${printType(type)}`);
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
    if (dst.vCol !== null && dst.vCol !== sum) ctx.error(ctx.op.nameSpan, `dst valid cols (${dst.vCol}) must equal src0 valid cols + src1 valid cols (${src0.vCol} + ${src1.vCol}) on a5`);
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

const tprint: InstructionCheck = (ctx) => {
  const src = ctx.tiles.get('src');
  if (src?.loc === 'mat' && ctx.target === 'a5') ctx.error(ctx.spanOf('src'), 'printing a mat tile is not supported on a5');
};

/**
 * tstore copies bits, so the view's element type has the tile's size; an f32 Acc tile may also be stored as
 * f16 or bf16 (the fixpipe's cast, TSTORE manual's ACC-to-GM table, both targets).
 */
const tstore: InstructionCheck = (ctx) => {
  const src = ctx.tiles.get('src');
  const view = ctx.bound.operands.get('dst')?.type;
  if (!src || view?.kind !== 'partition_view' || !view.elem) return;
  if (elemSize(view.elem) === elemSize(src.dtype)) return;
  if (src.loc === 'acc' && src.dtype === 'f32' && (view.elem === 'f16' || view.elem === 'bf16')) return;
  ctx.error(ctx.spanOf('dst'), `src (${elemTypeName(src.dtype)}) and dst (${elemTypeName(view.elem)}) must have element types of the same size`);
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
};
