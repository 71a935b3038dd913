import { DIAGNOSTICS as D } from '../../../diag/catalog';
import { attrOf } from '../../../syntax/ast';
import { TileType, elemSize, elemTypeName, isInteger } from '../../../types/type';
import { CheckContext, InstructionCheck } from './context';
import { scratchHolds, tileBytes } from './scratch';

/**
 * The tmp contracts (and the precision modes that need or forbid a tmp) of the elementwise and unary ops, as
 * PTOAS's verifiers (lib/PTO/IR/PTO.cpp) state them per target. A dynamic valid size skips the rule it enters.
 */

const precisionSpan = (ctx: CheckContext) => attrOf(ctx.op, 'precisionType')?.span ?? ctx.op.nameSpan;

const holds = (ctx: CheckContext, bytes: number, why: string) => scratchHolds(ctx, 'tmp', bytes, why, D.scratchContract);

/**
 * TPOW/TPOWS (TPowOp/TPowSOp::verify): A2/A3 has no high-precision path; A5's takes floats only. The integer
 * lowering is the three-operand form, so an integer pow takes no tmp; a float tmp has dst's valid shape and, on
 * A2/A3, at least dst's bytes.
 */
function pow(ctx: CheckContext): void {
  const dst = ctx.tiles.get('dst');
  const base = ctx.tiles.get('base');
  const tmp = ctx.tiles.get('tmp');
  if (!dst || !base) return;
  const highPrecision = ctx.attributes.get('precisionType') === 'high_precision';
  if (highPrecision && ctx.target === 'a2a3') {
    ctx.error(precisionSpan(ctx), 'A2/A3 does not support precisionType=high_precision', D.instructionAttribute);
    return;
  }
  if (highPrecision && isInteger(base.dtype)) {
    const what = ctx.spec.opName.slice('pto.'.length);
    ctx.error(
      ctx.spanOf('base'),
      `expects A5 ${what} element type to be f16/f32/bf16 when precisionType=high_precision, got ${elemTypeName(base.dtype)}`,
      D.elementType,
    );
    return;
  }
  if (!tmp) return;
  if (isInteger(base.dtype)) {
    ctx.error(
      ctx.spanOf('tmp'),
      `does not accept tmp when element type is integer (${elemTypeName(base.dtype)}: the integer lowering takes none)`,
      D.scratchContract,
    );
    return;
  }
  if (!sameValidShape(tmp, dst)) {
    ctx.error(ctx.spanOf('tmp'), `expects tmp and dst to have the same valid_shape (tmp ${shapeOf(tmp)}, dst ${shapeOf(dst)})`, D.scratchContract);
    return;
  }
  if (ctx.target === 'a2a3') holds(ctx, tileBytes(dst), `dst (${dst.rows}x${dst.cols} ${elemTypeName(dst.dtype)})`);
}

/**
 * TREM/TREMS on A2/A3 (TRemOp/TRemSOp::verify): tmp covers dst's valid columns, in at least `rows` valid rows
 * (2 for trem, 1 for trems), and holds that many rows of dst.
 */
const remainder =
  (rows: number): InstructionCheck =>
  (ctx) => {
    const dst = ctx.tiles.get('dst');
    const tmp = ctx.tiles.get('tmp');
    if (!dst || !tmp || ctx.target !== 'a2a3') return;
    if (tmp.vRow !== null && tmp.vRow < rows) {
      ctx.error(ctx.spanOf('tmp'), `expects A2/A3 tmp valid_shape[0] to be at least ${rows}, got ${tmp.vRow}`, D.scratchContract);
      return;
    }
    if (dst.vCol !== null && tmp.vCol !== null && tmp.vCol < dst.vCol) {
      ctx.error(ctx.spanOf('tmp'), `expects A2/A3 tmp valid columns (${tmp.vCol}) to cover dst valid columns (${dst.vCol})`, D.scratchContract);
      return;
    }
    holds(ctx, rows * dst.cols * elemSize(dst.dtype), `${rows} row(s) of dst (${dst.cols} ${elemTypeName(dst.dtype)})`);
  };

/**
 * TPRELU on A2/A3 (TPReluOp::verify): tmp is a byte mask, one bit per dst element, with one row more than dst's
 * valid rows and rows of at least 32 bytes; src0, src1, tmp and dst are four different tiles.
 */
function prelu(ctx: CheckContext): void {
  const dst = ctx.tiles.get('dst');
  const tmp = ctx.tiles.get('tmp');
  if (!dst || !tmp || ctx.target !== 'a2a3') return;
  if (dst.vRow !== null && tmp.rows < dst.vRow + 1) {
    ctx.error(ctx.spanOf('tmp'), `expects A2/A3 tmp shape[0] (${tmp.rows}) to be at least dst valid_shape[0] + 1 (${dst.vRow + 1})`, D.scratchContract);
    return;
  }
  if (dst.vCol !== null && tmp.vCol !== null && tmp.vCol < Math.ceil(dst.vCol / 8)) {
    ctx.error(
      ctx.spanOf('tmp'),
      `expects A2/A3 tmp valid_shape[1] (${tmp.vCol}) to be at least ceil(dst valid_shape[1] / 8) (${Math.ceil(dst.vCol / 8)})`,
      D.scratchContract,
    );
    return;
  }
  if (dst.vRow === null || dst.vCol === null) {
    ctx.error(ctx.spanOf('dst'), 'expects A2/A3 tprelu dst valid_shape to be static when tmp is provided', D.scratchContract);
    return;
  }
  const maskRowBytes = Math.max(32, Math.ceil(Math.ceil(dst.vCol / 8) / 32) * 32);
  holds(ctx, (dst.vRow + 1) * maskRowBytes, `a mask of ${dst.vRow + 1} rows of ${maskRowBytes} bytes`);
  const names = ['src0', 'src1', 'tmp', 'dst'];
  const values = names.map((n) => ctx.bound.operands.get(n)?.use?.value?.name);
  for (let i = 1; i < names.length; i++) {
    const j = values.findIndex((v, k) => k < i && v !== undefined && v === values[i]);
    if (j >= 0) {
      ctx.error(ctx.spanOf(names[i]), `expects A3 src0, src1, tmp, and dst to use different storage (${names[i]} is ${names[j]})`, D.scratchContract);
      return;
    }
  }
}

/** TRSQRT (TRsqrtOp::verify): the high-precision mode needs a tmp; a tmp holds at least 32 bytes. */
function rsqrt(ctx: CheckContext): void {
  if (ctx.attributes.get('precisionType') === 'high_precision' && !ctx.tiles.has('tmp')) {
    ctx.error(precisionSpan(ctx), 'expects tmp when precisionType is high_precision', D.scratchContract);
    return;
  }
  holds(ctx, 32, 'the high-precision path');
}

/** Elements of one 256-byte vector repeat and of one 32-byte block (pto-isa's A2/A3 vector unit). */
const repeatElements = (t: TileType) => 256 / elemSize(t.dtype);
const blockElements = (t: TileType) => 32 / elemSize(t.dtype);

/**
 * The A2/A3 arg reduction's tmp row (getArgReductionTmpMinStride): per repeat of src's valid columns, a value and
 * an index pair, then the repeat's winners, each part rounded up to whole blocks.
 */
function argTmpMinCols(src: TileType, validCols: number): number {
  const repeats = Math.ceil(validCols / repeatElements(src));
  const block = blockElements(src);
  return (Math.ceil((repeats * 2) / block) + Math.ceil(repeats / block)) * block;
}

/**
 * TROWARG* / TCOLARG* with a tmp on A2/A3 (verifyTRowArgTmpA2A3, verifyTColArgTmpA2A3). A tmp of src's valid
 * shape always fits; otherwise its valid columns hold the reduction's per-repeat stride (a row reduction whose
 * row fits in one repeat needs only a DN column of 2 x rows or an ND tile of 2 columns). It holds 32 bytes at least.
 */
export function argReduceScratch(ctx: CheckContext, axis: 'row' | 'col'): void {
  const src = ctx.tiles.get('src');
  const tmp = ctx.tiles.get('tmp');
  if (!src || !tmp || ctx.target !== 'a2a3') return;
  if (tmp.dtype !== src.dtype) {
    ctx.error(
      ctx.spanOf('tmp'),
      `expects src and tmp to have the same element type (src ${elemTypeName(src.dtype)}, tmp ${elemTypeName(tmp.dtype)})`,
      D.elementType,
    );
    return;
  }
  if (tmp.vRow !== src.vRow || tmp.vCol !== src.vCol) {
    const problem = axis === 'row' ? rowArgTmpProblem(src, tmp) : colArgTmpProblem(src, tmp);
    if (problem) {
      ctx.error(ctx.spanOf('tmp'), problem, D.scratchContract);
      return;
    }
  }
  holds(ctx, 32, 'the arg reduction');
}

function rowArgTmpProblem(src: TileType, tmp: TileType): string | undefined {
  if (src.vCol !== null && src.vCol <= repeatElements(src)) {
    if (tmp.blayout === 'col_major' && tmp.slayout === 'none_box') {
      if (tmp.cols !== 1 || (tmp.vCol !== null && tmp.vCol !== 1)) return 'expects A2/A3 tmp DN layout to have shape[1] == 1 and valid_shape[1] == 1';
      if (src.vRow !== null && tmp.vRow !== null && tmp.vRow < src.vRow * 2) return `expects A2/A3 tmp DN layout to have valid_shape[0] >= ${src.vRow * 2}`;
      return undefined;
    }
    if (tmp.blayout !== 'row_major' || tmp.slayout !== 'none_box')
      return 'expects A2/A3 tmp to use DN 1-col or ND 2-col layout when src valid_shape[1] fits in one repeat';
    if (src.vRow !== null && tmp.vRow !== null && tmp.vRow < src.vRow) return 'expects A2/A3 tmp valid_shape[0] to cover src valid rows';
    if (tmp.vCol !== null && tmp.vCol < 2) return 'expects A2/A3 tmp valid_shape[1] to be at least 2 in the small-col ND path';
    return undefined;
  }
  if (tmp.rows !== src.rows) return `expects A2/A3 tmp shape[0] (${tmp.rows}) to match src shape[0] (${src.rows})`;
  if (src.vRow !== null && tmp.vRow !== null && tmp.vRow < src.vRow) return 'expects A2/A3 tmp valid_shape[0] to cover src valid rows';
  return minColsProblem(src, tmp);
}

function colArgTmpProblem(src: TileType, tmp: TileType): string | undefined {
  if (tmp.vRow !== null && tmp.vRow < 1) return 'expects A2/A3 tmp valid_shape[0] to be at least 1';
  return minColsProblem(src, tmp);
}

function minColsProblem(src: TileType, tmp: TileType): string | undefined {
  if (src.vCol === null || tmp.vCol === null) return undefined;
  const min = argTmpMinCols(src, src.vCol);
  return tmp.vCol < min ? `expects A2/A3 tmp valid_shape[1] (${tmp.vCol}) to be at least ${min} for src valid_shape[1] = ${src.vCol}` : undefined;
}

/** Equal valid shapes, a dynamic size matching anything (the VM checks it at run time). */
const sameValidShape = (a: TileType, b: TileType) =>
  [a.vRow === null || b.vRow === null || a.vRow === b.vRow, a.vCol === null || b.vCol === null || a.vCol === b.vCol].every(Boolean);
const shapeOf = (t: TileType) => `${t.vRow ?? '?'}x${t.vCol ?? '?'}`;

/** Rules beyond the tables, by op name (`pto.NAME`). */
export const checks: Record<string, InstructionCheck> = {
  'pto.tpow': pow,
  'pto.tpows': pow,
  'pto.trem': remainder(2),
  'pto.trems': remainder(1),
  'pto.tprelu': prelu,
  'pto.trsqrt': rsqrt,
};
