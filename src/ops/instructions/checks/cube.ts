import { DIAGNOSTICS as D } from '../../../diag/catalog';
import { BLayout, ElemType, SLayout, TileLoc, TileType, elemTypeName } from '../../../types/type';
import { CheckContext, InstructionCheck } from './context';

/**
 * The cube's accumulator/input pairs (pto-isa TMATMUL/TGEMV, both targets, the standard element types):
 * an i32 accumulator takes i8 inputs; an f32 accumulator takes f16, bf16 or f32 inputs, both the same.
 * A5 adds f32 accumulators of 8-bit floats (PTOAS verifyMatmulTypeTriple): any two fp8 formats (E4M3 x E5M2
 * mixes), or hif8 with hif8.
 */
const INPUTS_FOR: Record<string, ElemType[]> = { i32: ['i8'], f32: ['f16', 'bf16', 'f32', 'f8E4M3FN', 'f8E5M2', '!pto.hif8'] };
const FP8: ElemType[] = ['f8E4M3FN', 'f8E5M2'];

const matmul: InstructionCheck = (ctx) => {
  const c = ctx.tiles.get('cMatrix') ?? ctx.tiles.get('cOutMatrix');
  const a = ctx.tiles.get('aMatrix');
  const b = ctx.tiles.get('bMatrix');
  if (!c || !a || !b) return;
  const mixedFp8 = FP8.includes(a.dtype) && FP8.includes(b.dtype);
  if (a.dtype !== b.dtype && !mixedFp8)
    ctx.error(ctx.spanOf('bMatrix'), `aMatrix (${elemTypeName(a.dtype)}) and bMatrix (${elemTypeName(b.dtype)}) must have the same element type`);
  const allowed = INPUTS_FOR[c.dtype] ?? [];
  // An input type no accumulator takes was already reported by the dtype tables.
  const someAccumulatorTakes = Object.values(INPUTS_FOR).some((l) => l.includes(a.dtype));
  if (someAccumulatorTakes && !allowed.includes(a.dtype)) {
    const name = ctx.tiles.has('cMatrix') ? 'cMatrix' : 'cOutMatrix';
    ctx.error(ctx.spanOf(name), `an ${elemTypeName(c.dtype)} accumulator takes ${allowed.map(elemTypeName).join(', ')} inputs, not ${elemTypeName(a.dtype)}`);
  }
  const names: Operands = ['aMatrix', 'bMatrix', ctx.tiles.has('cMatrix') ? 'cMatrix' : 'cOutMatrix'];
  if (ctx.spec.name.startsWith('tgemv')) gemvValid(ctx, a, b, c, names);
  else matmulShapes(ctx, a, b, c);
  a5Layouts(ctx, names);
};

/** The left input, the right input and the accumulator, by their operand names. */
type Operands = [string, string, string];

/**
 * PTOAS's A5 cube operand layouts (verifyMatTileOperandsA5, for every matmul and gemv form): the left tile
 * slayout=row_major, the right tile blayout=row_major with slayout=col_major, the accumulator blayout=col_major
 * with slayout=row_major. A left tile's blayout is not checked: PTOAS's parser makes it col_major on A5 (row_major
 * on A2/A3) whatever is written (PTOTypeDefs.cpp resolveTileBufBLayout). A2/A3 checks no layout here.
 */
function a5Layouts(ctx: CheckContext, [left, right, accumulator]: Operands): void {
  if (ctx.target !== 'a5') return;
  const wanted: [string, TileLoc, BLayout | undefined, SLayout][] = [
    [left, 'left', undefined, 'row_major'],
    [right, 'right', 'row_major', 'col_major'],
    [accumulator, 'acc', 'col_major', 'row_major'],
  ];
  // As PTOAS, only for three tile buffers (a Level 1 !pto.tile has no layout of its own there) in their places
  // (a tile in another location was reported by the tables).
  if (wanted.some(([name, loc]) => ctx.tiles.get(name)?.level !== 'buf' || ctx.tiles.get(name)?.loc !== loc)) return;
  for (const [name, , blayout, slayout] of wanted) {
    const t = ctx.tiles.get(name)!;
    if ((blayout && t.blayout !== blayout) || t.slayout !== slayout)
      ctx.error(ctx.spanOf(name), `${name} must have ${blayout ? `blayout=${blayout}, ` : ''}slayout=${slayout} on a5`, D.tileLayout);
  }
}

/**
 * PTOAS's matmul shape rule: lhs [M, K], rhs [K, N], dst [M, N] over each tile's logical shape, a static valid extent
 * where there is one and the physical one where the valid extent is dynamic. The hardware itself reads m, k from A
 * and n from B and checks nothing of C at run time (manual, TMATMUL), so the VM checks these only here.
 */
function matmulShapes(ctx: CheckContext, a: TileType, b: TileType, c: TileType): void {
  const logical = (t: TileType): [number, number] => [t.vRow ?? t.rows, t.vCol ?? t.cols];
  const [[m, k], [k2, n], [cm, cn]] = [a, b, c].map(logical);
  if (m !== cm || n !== cn || k !== k2) {
    ctx.error(
      ctx.op.nameSpan,
      `the tiles must be aMatrix [M, K], bMatrix [K, N], cMatrix [M, N] (valid extents where static, else the tile's): got ${m}x${k}, ${k2}x${n}, ${cm}x${cn}`,
      D.validRegion,
    );
  }
  for (const [name, v] of [
    ['m', a.vRow],
    ['k', a.vCol],
    ['n', b.vCol],
  ] as const) {
    if (v !== null && v > MAX_MMAD) ctx.error(ctx.op.nameSpan, `${name} = ${v} is outside the cube's range [0, ${MAX_MMAD}]`, D.validRegion);
  }
}

/** PTOAS's gemv rules over static valid extents: one row of A and of the result, K and N agreeing (names: A, B, result). */
function gemvValid(ctx: CheckContext, a: TileType, b: TileType, c: TileType, [an, bn, cn]: Operands): void {
  if (differs(a.vRow, 1)) ctx.error(ctx.spanOf(an), `${an} must have one valid row for a gemv, not ${a.vRow}`, D.validRegion);
  if (differs(c.vRow, 1)) ctx.error(ctx.spanOf(cn), `${cn} must have one valid row for a gemv, not ${c.vRow}`, D.validRegion);
  if (differs(a.vCol, b.vRow)) ctx.error(ctx.spanOf(bn), `${an}'s valid cols (${a.vCol}) must equal ${bn}'s valid rows (${b.vRow})`, D.validRegion);
  if (differs(b.vCol, c.vCol)) ctx.error(ctx.spanOf(cn), `${cn}'s valid cols (${c.vCol}) must equal ${bn}'s (${b.vCol})`, D.validRegion);
}

const FP4: ElemType[] = ['!pto.f4E1M2x2', '!pto.f4E2M1x2'];
const MAX_MMAD = 4095;

/** A known extent differs from the one expected (a dynamic one, null, matches anything). */
const differs = (got: number | null, want: number | null): boolean => got !== null && want !== null && got !== want;
const ceil32 = (k: number | null): number | null => (k === null ? null : Math.ceil(k / 32));

/**
 * PTOAS's MX matmul and gemv rules (A5): a and b both 8-bit floats or both packed fp4; m, k, n in [1, 4095]; the
 * scale tiles in scaling with one E8M0 exponent per 32 of K: a_scale [M, ceil(K/32)], b_scale [ceil(K/32), N].
 */
function mxOperands(ctx: CheckContext, gemv: boolean): void {
  const [a, b, dst, aScale, bScale] = ['a', 'b', 'dst', 'a_scale', 'b_scale'].map((n) => ctx.tiles.get(n));
  if (!a || !b || !dst) return;
  const pair = (FP8.includes(a.dtype) && FP8.includes(b.dtype)) || (FP4.includes(a.dtype) && FP4.includes(b.dtype));
  const tablesAllow = [a, b].every((t) => ctx.spec.dtypes.a5?.a.includes(t.dtype));
  if (tablesAllow && !pair) {
    ctx.error(ctx.spanOf('b'), `a (${elemTypeName(a.dtype)}) and b (${elemTypeName(b.dtype)}) must both be 8-bit floats or both packed fp4`, D.elementType);
  }
  const [m, k, n] = [a.vRow, a.vCol, b.vCol];
  for (const [name, v] of [
    ['m', m],
    ['k', k],
    ['n', n],
  ] as const) {
    if (v !== null && (v < 1 || v > MAX_MMAD)) ctx.error(ctx.op.nameSpan, `${name} = ${v} is outside the cube's range [1, ${MAX_MMAD}]`, D.validRegion);
  }
  if (gemv) gemvShapes(ctx, a, b, dst);
  else {
    for (const [name, physicalK] of [
      ['a', a.cols],
      ['b', b.rows],
    ] as const) {
      if (physicalK % 64 !== 0) ctx.error(ctx.spanOf(name), `${name}'s physical K (${physicalK}) must be a multiple of 64`, D.validRegion);
    }
  }
  if (aScale) {
    const shape = gemv ? [a.vRow, ceil32(k)] : [a.rows, ceil32(a.cols)];
    scaleShape(ctx, 'a_scale', aScale, shape, [a.vRow, ceil32(k)], '[M, ceil(K/32)]');
  }
  if (bScale) {
    const shape = gemv ? [ceil32(k), b.cols] : [ceil32(a.cols), b.cols];
    scaleShape(ctx, 'b_scale', bScale, shape, [ceil32(k), n], '[ceil(K/32), N]');
  }
  if (!gemv) {
    scaleLayout(ctx, 'a_scale', aScale, 'row_major');
    scaleLayout(ctx, 'b_scale', bScale, 'col_major');
  }
  a5Layouts(ctx, ['a', 'b', 'dst']);
}

function scaleShape(ctx: CheckContext, name: string, t: TileType, shape: (number | null)[], valid: (number | null)[], form: string): void {
  if (differs(t.rows, shape[0]) || differs(t.cols, shape[1]) || differs(t.vRow, valid[0]) || differs(t.vCol, valid[1])) {
    ctx.error(ctx.spanOf(name), `${name} must be ${form}: shape ${shape.map(String).join('x')}, valid ${valid.map(String).join('x')}`, D.validRegion);
  }
}

/** The matmul's scale tiles: a_scale row_major/row_major, b_scale col_major/col_major, fractal 32. */
function scaleLayout(ctx: CheckContext, name: string, t: TileType | undefined, layout: 'row_major' | 'col_major'): void {
  if (t && (t.blayout !== layout || t.slayout !== layout || t.fractal !== 32)) {
    ctx.error(ctx.spanOf(name), `${name} must have blayout=${layout}, slayout=${layout}, fractal=32`, D.tileLayout);
  }
}

/** A gemv's one row: a and dst have one valid row; K and N agree. */
function gemvShapes(ctx: CheckContext, a: TileType, b: TileType, dst: TileType): void {
  gemvValid(ctx, a, b, dst, ['a', 'b', 'dst']);
}

/** PTOAS TGetScaleAddrOp: dst is [M, ceil(K/32)] for a Left src, [ceil(K/32), N] for a Right src. */
const getScaleAddress: InstructionCheck = (ctx) => {
  const src = ctx.tiles.get('src');
  const dst = ctx.tiles.get('dst');
  if (!src || !dst) return;
  if (src.loc === 'left') scaleShape(ctx, 'dst', dst, [src.rows, ceil32(src.vCol)], [src.vRow, ceil32(src.vCol)], '[M, ceil(K/32)]');
  else if (src.loc === 'right') scaleShape(ctx, 'dst', dst, [ceil32(src.vRow), src.cols], [ceil32(src.vRow), src.vCol], '[ceil(K/32), N]');
};

/** Rules beyond the tables, by op name (`pto.NAME`). */
export const checks: Record<string, InstructionCheck> = {
  ...Object.fromEntries(['tmatmul', 'tmatmul.acc', 'tmatmul.bias', 'tgemv', 'tgemv.acc', 'tgemv.bias'].map((n) => [`pto.${n}`, matmul])),
  ...Object.fromEntries(
    ['', '.acc', '.bias'].flatMap((f) => [
      [`pto.tmatmul.mx${f}`, (ctx: CheckContext) => mxOperands(ctx, false)],
      [`pto.tgemv.mx${f}`, (ctx: CheckContext) => mxOperands(ctx, true)],
    ]),
  ),
  'pto.tget_scale_addr': getScaleAddress,
};
