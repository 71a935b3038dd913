import { ElemType } from '../../../types/type';
import { BinaryOperationName, ElementOperation, binaryOperation } from '../../../numerics/arithmetic';
import { Scalar, codec } from '../../../numerics/elements';
import { Tile } from '../../../machine/memory';
import { InstructionContext, SemanticsModule } from './context';
import { copyElement } from './memory';
import { finisher } from './elementwise';
import { f32BinaryLoops } from './fast-f32';
import { vectorRows } from './vector-kernels';
import { f32Lanes, sharesBytes } from '../../../machine/tile-loops';

/** The operations of the row/column expand families (spec `op`): the binary ones plus exp(src0 - src1). */
export const EXPAND_OPERATIONS = ['add', 'sub', 'mul', 'div', 'max', 'min', 'expdif'] as const;
type ExpandOperation = (typeof EXPAND_OPERATIONS)[number];

function operationName(ctx: InstructionContext): ExpandOperation {
  const name = ctx.bound.spec.op as ExpandOperation;
  if (!EXPAND_OPERATIONS.includes(name)) ctx.trap(`unknown expand op '${name}' in spec/instructions`);
  return name;
}

/**
 * exp(a - b): the difference rounded to the element type (the simulator's `src0 - src1` in T; A2/A3's TROWEXPANDSUB
 * step), then exp of it rounded once to T (the simulator's std::exp in double). A NaN difference is returned as is,
 * so its sign survives (Math.exp(NaN) would give the host's NaN).
 */
function expDifference(dtype: ElemType, ctx: InstructionContext, finish: (v: Scalar) => Scalar): ElementOperation {
  const sub = binaryOperation('sub', dtype, ctx.numerics, ctx.trap);
  const target = codec(dtype);
  // A5's f32 TROW/TCOLEXPANDEXPDIF is one fused vexpdif (pto-isa npu/a5/TRowExpandExpdif.hpp, TColExpandExpdif.hpp):
  // the difference is not rounded to f32 first (exact in a double), the result rounded once, as the micro-op VM's
  // vexpdif. Its f16 form, A2/A3 and the simulator keep vsub then vexp.
  const fused = ctx.numerics === 'npu' && ctx.target === 'a5' && dtype === 'f32';
  return (a, b) => {
    const exact = (a as number) - (b as number);
    if (fused && !Number.isNaN(exact)) return target.round(Math.exp(exact));
    const d = finish(sub(a, b)) as number;
    return Number.isNaN(d) ? d : target.round(Math.exp(d));
  };
}

/**
 * The element operation of an expand instruction, including the npu fp16 saturation of the arithmetic ones (those that
 * declare the `saturation` attribute; max/min do not overflow).
 */
function expandOperation(ctx: InstructionContext, dtype: ElemType): ElementOperation {
  const finish = finisher(ctx, dtype);
  const name = operationName(ctx);
  const op = name === 'expdif' ? expDifference(dtype, ctx, finish) : binaryOperation(name as BinaryOperationName, dtype, ctx.numerics, ctx.trap);
  return (a, b) => finish(op(a, b));
}

function copyBits(src: Tile, r: number, c: number, dst: Tile, dr: number, dc: number): void {
  copyElement(src.bytes, src.elementIndex(r, c) * src.codec.size, dst.bytes, dst.elementIndex(dr, dc) * dst.codec.size, dst.codec.size);
}

/** TROWEXPAND: dst[i, j] = src[i, 0] over dst's valid region (bits copied). */
export function rowExpand(ctx: InstructionContext): void {
  const src = ctx.tile('src');
  const dst = ctx.tile('dst');
  if (src.vCol === 0) return;
  for (let r = 0; r < dst.vRow; r++) {
    for (let c = 0; c < dst.vCol; c++) copyBits(src, r, 0, dst, r, c);
  }
}

/** TCOLEXPAND: dst[i, j] = src[0, j] over dst's valid region (bits copied). */
export function colExpand(ctx: InstructionContext): void {
  const src = ctx.tile('src');
  const dst = ctx.tile('dst');
  if (src.vRow === 0) return;
  for (let r = 0; r < dst.vRow; r++) {
    for (let c = 0; c < dst.vCol; c++) copyBits(src, 0, c, dst, r, c);
  }
}

const sameValidShape = (a: Tile, b: Tile): boolean => a.vRow === b.vRow && a.vCol === b.vCol;

/**
 * Why `expanded` cannot be the per-row operand of dst, or null when it can: DN with one valid column (a scalar per
 * row), or row-major (one 32-byte block per row, or another width, read at its column 0); with a tmp tile on A2/A3,
 * only the DN form.
 */
function rowOperandProblem(expanded: Tile, dst: Tile, a2a3Tmp: boolean): string | null {
  const dn = expanded.type.blayout === 'col_major';
  if (expanded.vRow !== dst.vRow) return `its valid rows (${expanded.vRow}) differ from dst's (${dst.vRow})`;
  if (dn && expanded.vCol !== 1) return `a column-major per-row operand needs 1 valid column, not ${expanded.vCol}`;
  if (!dn && a2a3Tmp) return 'with a tmp tile on a2a3 the per-row operand must be column-major (DN) with one column';
  if (expanded.vCol === 0) return 'it has no valid column';
  return null;
}

/**
 * TROWEXPANDADD/SUB/MUL/DIV/MAX/MIN/EXPDIF: dst[i, j] = src0 op src1, one of the two being the per-row operand. Its
 * column is j mod its valid columns: 0 for a DN scalar per row, the position within the repeating 32-byte block for
 * a row-major block (the manual's mode 2; the simulator and the A2/A3 block-stride-0 vector op read it so). PTOAS's
 * vpto back end reads column 0 of a row-major operand, whatever its width: its TileLang template
 * (lib/TileOps/a5/_expand_binary.py) loads the row and broadcasts the lowest lane (vdup), and takes src0 as the
 * full-sized operand only. A row-major operand of another width than one block (an Mx1 column, which PTOAS accepts
 * for sub/mul/div) is read at column 0 under emitc too: pto-isa's A5 TRowExpand* has no such form (it reads one
 * 32-byte block per row, and a row-major tile needs 32-byte rows), so a note says the VM follows the template.
 */
export function rowExpandBinary(ctx: InstructionContext): void {
  const dst = ctx.tile('dst');
  const src0 = ctx.tile('src0');
  const src1 = ctx.tile('src1');
  if (dst.vRow === 0 || dst.vCol === 0) return;
  const src0Full = sameValidShape(src0, dst) && src0.type.blayout === 'row_major';
  const full = src0Full ? src0 : src1;
  const expanded = src0Full ? src1 : src0;
  if (!sameValidShape(full, dst) || full.type.blayout !== 'row_major') {
    ctx.trap(`neither source is a row-major tile with dst's valid shape ${dst.vRow}x${dst.vCol}`);
  }
  const vpto = ctx.backend === 'vpto';
  if (vpto && !src0Full)
    ctx.trap(`src0 as the per-row operand is not implemented yet under the vpto back end (PTOAS's template takes src0 as the full-sized operand)`);
  const problem = rowOperandProblem(expanded, dst, ctx.target === 'a2a3' && ctx.optionalTile('tmp') !== undefined);
  if (problem) ctx.trap(`${src0Full ? 'src1' : 'src0'} is the per-row operand, but ${problem}`);
  const block = 32 / expanded.codec.size;
  const oneBlock = expanded.type.blayout === 'row_major' && expanded.vCol === block;
  if (!vpto && expanded.type.blayout === 'row_major' && !oneBlock) {
    ctx.note(
      `${ctx.bound.spec.opName}: a row-major per-row operand of ${expanded.vCol} valid columns (not one 32-byte block, ${block}) has no pto-isa form; ` +
        "each row takes its column 0, as PTOAS's vpto template reads it",
    );
  }
  const width = oneBlock && !vpto ? block : 1;
  const width0 = src0Full ? src0.vCol : width;
  const width1 = src0Full ? width : src1.vCol;
  if (width === 1 && fastRowExpand(ctx, dst, full, expanded, !src0Full)) return;
  const op = expandOperation(ctx, dst.type.dtype);
  for (let r = 0; r < dst.vRow; r++) {
    for (let c = 0; c < dst.vCol; c++) dst.set(r, c, op(src0.get(r, c % width0), src1.get(r, c % width1)));
  }
}

/**
 * The typed-array path of rowExpandBinary with one value per row (`expanded`'s column 0): f32 tiles and the six
 * binary operations, in WebAssembly or in the f32 loops (the same arithmetic as expandOperation's, whose finisher
 * does nothing for f32). The per-row values are read first, as the definition reads them before each row's writes
 * could reach them only if dst overlapped them, which the kernels' overlap check rules out.
 */
function fastRowExpand(ctx: InstructionContext, dst: Tile, full: Tile, expanded: Tile, scalarFirst: boolean): boolean {
  const name = operationName(ctx);
  const loops = name === 'expdif' ? undefined : f32BinaryLoops(name, ctx.numerics);
  const lanes = loops && f32Lanes([dst, full], dst.vRow, dst.vCol);
  const column = lanes && f32Lanes([expanded], dst.vRow, 1);
  if (!loops || !lanes || !column || sharesBytes(expanded, dst)) return false;
  const [d, a] = lanes;
  const [e] = column;
  if (d.col !== 1 || a.col !== 1) return false;
  const values = new Float64Array(dst.vRow);
  for (let r = 0; r < dst.vRow; r++) values[r] = e.data[e.base + r * e.row];
  if (!scalarFirst && ctx.vectorKernels && vectorRows(name, ctx.numerics, d, a, values, dst.vRow, dst.vCol)) return true;
  for (let r = 0; r < dst.vRow; r++) loops.scalar(d.data, d.base + r * d.row, a.data, a.base + r * a.row, values[r], dst.vCol, scalarFirst);
  return true;
}

/** TCOLEXPANDADD/SUB/MUL/DIV/MAX/MIN/EXPDIF: dst[i, j] = src0[i, j] op src1[0, j]. */
export function colExpandBinary(ctx: InstructionContext): void {
  const dst = ctx.tile('dst');
  const src0 = ctx.tile('src0');
  const src1 = ctx.tile('src1');
  if (dst.vRow === 0 || dst.vCol === 0) return;
  if (src1.vRow === 0) ctx.trap(`src1 has no valid row to expand`);
  if (fastColExpand(ctx, dst, src0, src1)) return;
  const op = expandOperation(ctx, dst.type.dtype);
  for (let r = 0; r < dst.vRow; r++) {
    for (let c = 0; c < dst.vCol; c++) dst.set(r, c, op(src0.get(r, c), src1.get(0, c)));
  }
}

/**
 * The typed-array path of colExpandBinary for f32 tiles and the six binary operations: each row of src0 with src1's
 * row 0, in the f32 loops, row after row as the definition goes (so an overlap reads what it would).
 */
function fastColExpand(ctx: InstructionContext, dst: Tile, src0: Tile, src1: Tile): boolean {
  const name = operationName(ctx);
  const loops = name === 'expdif' ? undefined : f32BinaryLoops(name, ctx.numerics);
  const lanes = loops && f32Lanes([dst, src0], dst.vRow, dst.vCol);
  const row = lanes && f32Lanes([src1], 1, dst.vCol);
  if (!loops || !lanes || !row) return false;
  const [d, a] = lanes;
  const [b] = row;
  if (d.col !== 1 || a.col !== 1 || b.col !== 1) return false;
  for (let r = 0; r < dst.vRow; r++) loops.tiles(d.data, d.base + r * d.row, a.data, a.base + r * a.row, b.data, b.base, dst.vCol);
  return true;
}

export const module: SemanticsModule = {
  semantics: { 'row-expand': rowExpand, 'col-expand': colExpand, 'row-expand-binary': rowExpandBinary, 'col-expand-binary': colExpandBinary },
  operations: { 'row-expand-binary': EXPAND_OPERATIONS, 'col-expand-binary': EXPAND_OPERATIONS },
};
