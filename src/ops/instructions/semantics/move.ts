import { bitsArray } from '../../../machine/element-arrays';
import { Tile } from '../../../machine/memory';
import { InstructionContext, SemanticsModule } from './context';
import { FixpipeOptions, fixpipeFor, fixpipeOptions, quantWords, usesFixpipe } from './fixpipe';
import { copyElement } from './memory';
import { accumulatorCast } from './cube';

/**
 * TMOV and TMOV_FP; the direction comes from the two locations. Vec -> Vec and Mat -> Left/Right/Scaling copy the
 * bits of dst's valid region (same element size / type); Mat -> Bias and Acc -> Mat/Vec convert values (cube.ts's
 * accumulator types to their narrower destinations, through the fixpipe); other pairs trap.
 */
export function move(ctx: InstructionContext): void {
  const dst = ctx.tile('dst');
  const src = ctx.tile('src');
  const direction = `${src.type.loc}->${dst.type.loc}`;
  const tmp = ctx.optionalTile('fp');
  if (tmp?.type.loc === 'vec') return moveExponentsToZz(ctx, src, dst, tmp);
  if (direction === 'vec->vec') {
    if (src.codec.size !== dst.codec.size) ctx.trap(`tmov from ${src.type.dtype} to ${dst.type.dtype}: the element sizes differ`);
    return copyWindow({ tile: src, row: 0, col: 0 }, { tile: dst, row: 0, col: 0 }, dst.vRow, dst.vCol);
  }
  if (src.type.loc === 'mat' && ['left', 'right', 'scaling', 'bias'].includes(dst.type.loc)) return moveToCubeInput(ctx, src, dst);
  if (src.type.loc === 'acc' && (dst.type.loc === 'mat' || dst.type.loc === 'vec')) return moveFromAccumulator(ctx, src, dst);
  ctx.trap(`tmov from ${src.type.loc} to ${dst.type.loc} is not implemented yet`);
}

/**
 * TMOV's X-to-ZZ form (A5, npu/a5/TMov.hpp): MX exponent bytes into [16, 2] boxes, as raw bytes from the start of
 * each tile. The simulator has no such TMOV (cpu/TMov.hpp), so cpu-sim traps.
 * - axis1 (ND -> ZZ, TMovNdTo2Zz): dst's valid rows x cols, src read as rows of dst's valid cols (its row stride),
 *   in pairs: box (row block b, pair p) holds rows 16b..16b+15 of pair p. Its gather first zeroes src's pairs from
 *   the valid rows up to a multiple of 16 and writes its index tables into tmp: 16 u16 k * P (P pairs per row),
 *   then b * 16P + p per box, then 16 more from the last row block's run.
 * - axis0 (DN -> ZZ, TMovDnTo2Zz): src's valid M^ rows x N cols (row stride N); box (col block cb, row pair p) at
 *   cb * (M^ / 2) + p holds, per column q of the block, rows 2p and 2p + 1. tmp is unused.
 */
function moveExponentsToZz(ctx: InstructionContext, src: Tile, dst: Tile, tmp: Tile): void {
  if (ctx.numerics === 'cpu-sim') ctx.trap("tmov's X-to-ZZ form is not implemented for cpu-sim: the simulator has no such TMOV");
  if (src.codec.size !== 1 || dst.codec.size !== 1 || tmp.codec.size !== 1) ctx.trap('the X-to-ZZ tmov moves 8-bit exponents');
  const need = (tile: Tile, name: string, bytes: number) => {
    if (bytes > tile.bytes.length) ctx.trap(`the X-to-ZZ tmov touches ${bytes} bytes of ${name}, which has ${tile.bytes.length}: not implemented`);
  };
  if (ctx.attribute('grpAxis') === 'axis0') {
    const cols = src.vCol;
    const pairs = Math.floor(src.vRow / 2);
    const blocks = Math.floor(cols / 16);
    need(src, 'src', src.vRow * cols);
    need(dst, 'dst', blocks * pairs * 32);
    for (let cb = 0; cb < blocks; cb++) {
      for (let p = 0; p < pairs; p++) {
        for (let q = 0; q < 16; q++) {
          for (let d = 0; d < 2; d++) dst.bytes[(cb * pairs + p) * 32 + 2 * q + d] = src.bytes[(2 * p + d) * cols + 16 * cb + q];
        }
      }
    }
    return;
  }
  const rows = dst.vRow;
  const pairsPerRow = Math.floor(dst.vCol / 2);
  const rowBlocks = Math.ceil(rows / 16);
  need(src, 'src', rowBlocks * 16 * pairsPerRow * 2);
  need(dst, 'dst', rowBlocks * pairsPerRow * 32);
  need(tmp, 'tmp', (32 + rowBlocks * pairsPerRow) * 2);
  const src16 = new DataView(src.bytes.buffer, src.bytes.byteOffset, src.bytes.byteLength);
  const tmp16 = new DataView(tmp.bytes.buffer, tmp.bytes.byteOffset, tmp.bytes.byteLength);
  const dst16 = new DataView(dst.bytes.buffer, dst.bytes.byteOffset, dst.bytes.byteLength);
  for (let k = 0; k < 16; k++) tmp16.setUint16(2 * k, (k * pairsPerRow) & 0xffff, true);
  let slot = 16;
  for (let b = 0; b < rowBlocks; b++) {
    for (let p = 0; p < pairsPerRow; p++) tmp16.setUint16(2 * slot++, (b * 16 * pairsPerRow + p) & 0xffff, true);
  }
  for (let k = 0; k < 16; k++) tmp16.setUint16(2 * slot++, ((rowBlocks - 1) * 16 * pairsPerRow + k) & 0xffff, true);
  for (let i = rows * pairsPerRow; i < rowBlocks * 16 * pairsPerRow; i++) src16.setUint16(2 * i, 0, true);
  for (let b = 0; b < rowBlocks; b++) {
    for (let p = 0; p < pairsPerRow; p++) {
      for (let k = 0; k < 16; k++)
        dst16.setUint16(((b * pairsPerRow + p) * 16 + k) * 2, src16.getUint16((b * 16 * pairsPerRow + p + k * pairsPerRow) * 2, true), true);
    }
  }
}

/**
 * The region a cube-side move copies: dst's valid region. The simulator asserts that src's valid region is the
 * same (cpu/TMov.hpp); the NPU copies dst's valid region (rounded up to whole fractals) from wherever src has it,
 * so npu only requires it inside src's rows x cols.
 */
function checkMoveRegion(ctx: InstructionContext, src: Tile, dst: Tile): void {
  if (ctx.numerics === 'cpu-sim') {
    if (src.vRow !== dst.vRow || src.vCol !== dst.vCol) ctx.trap(`src's valid region ${src.vRow}x${src.vCol} differs from dst's ${dst.vRow}x${dst.vCol}`);
  } else if (dst.vRow > src.type.rows || dst.vCol > src.type.cols) {
    ctx.trap(`dst's valid region ${dst.vRow}x${dst.vCol} is larger than src's ${src.type.rows}x${src.type.cols}`);
  }
}

/** Mat -> Left/Right/Scaling/Bias: element (r, c) keeps its place whatever the two fractal layouts are. */
function moveToCubeInput(ctx: InstructionContext, src: Tile, dst: Tile): void {
  checkMoveRegion(ctx, src, dst);
  const from = src.type.dtype;
  const to = dst.type.dtype;
  if (from === to) return copyWindow({ tile: src, row: 0, col: 0 }, { tile: dst, row: 0, col: 0 }, dst.vRow, dst.vCol);
  // The bias table load widens half to float (A2/A3 TMovToBt's convControl; exact).
  if (dst.type.loc === 'bias' && from === 'f16' && to === 'f32') return convertWindow(src, dst, (v) => v);
  ctx.trap(`tmov from a ${from} ${src.type.loc} tile to a ${to} ${dst.type.loc} tile is not implemented yet`);
}

/**
 * Acc -> Mat/Vec (the fixpipe): the same type is copied; f32 -> f16/bf16 is the plain cast (A2/A3 GetCastPreQuantMode:
 * F322F16/F322BF16), rounded to nearest even. {relu}, {pre_quant} and tmov.fp's fp tile go through
 * numerics/fixpipe.ts. On the NPU, A2/A3 has no Acc -> Vec path (PTOAS's verifier accepts one; pto-isa's TMOV
 * static_asserts) and its plain Acc -> Mat move always casts (npu/a2a3/TMov.hpp, CheckTMovAccToMat). The simulator
 * copies any pair (cpu/TMov.hpp), so cpu-sim runs Acc -> Vec on either target.
 */
function moveFromAccumulator(ctx: InstructionContext, src: Tile, dst: Tile): void {
  checkMoveRegion(ctx, src, dst);
  const from = src.type.dtype;
  const to = dst.type.dtype;
  const options = fixpipeOptions(ctx);
  const split = ctx.attribute('accToVecMode');
  if (split === 'dual_mode_split_m' || split === 'dual_mode_split_n')
    ctx.trap(`tmov with accToVecMode = ${split} (the two vector cores' halves) is not implemented yet`);
  const cast = from === 'f32' && (to === 'f16' || to === 'bf16');
  if (ctx.numerics === 'npu' && ctx.target === 'a2a3') {
    // PTOAS's TMovOp verifier allows the pair on either target, but pto-isa has no A2/A3 path for it.
    if (dst.type.loc === 'vec')
      ctx.trap(
        "tmov from acc to vec on a2a3 is not implemented yet: pto-isa defines none (npu/a2a3/TMov.hpp static_asserts 'TMov: Invalid TileType.': the A2/A3 fixpipe writes the accumulator to Mat or global memory, not to the vector buffer); store it with pto.tstore and load it with pto.tload",
      );
    if (!cast && options.form === 'none') ctx.trap(`tmov from acc to mat on a2a3 casts f32 to f16 or bf16; ${from} to ${to} is not implemented yet`);
  }
  if (usesFixpipe(options)) return moveThroughFixpipe(ctx, src, dst, options);
  if (from === to) return copyWindow({ tile: src, row: 0, col: 0 }, { tile: dst, row: 0, col: 0 }, dst.vRow, dst.vCol);
  if (!cast) ctx.trap(`tmov from a ${from} acc tile to a ${to} ${dst.type.loc} tile is not implemented yet (quantisation needs tmov.fp)`);
  convertWindow(src, dst, accumulatorCast(ctx, to));
}

/**
 * The relu and quantising forms. Column c of dst takes fp's word c (tmov.fp) or the scalar word. The simulator's
 * scalar-quant TMOV drops the word and copies with a plain C++ conversion (cpu/TMov.hpp), which the VM does not model.
 */
function moveThroughFixpipe(ctx: InstructionContext, src: Tile, dst: Tile, options: FixpipeOptions): void {
  if (options.form === 'scalar' && ctx.numerics === 'cpu-sim')
    ctx.trap('tmov {pre_quant} under cpu-sim: the simulator ignores the quant word (cpu/TMov.hpp); not implemented');
  const convert = fixpipeFor(ctx, options, src, dst.type.dtype, options.form === 'vector' ? 'tmov.fp' : 'tmov');
  const fp = ctx.optionalTile('fp');
  const words = fp ? quantWords(fp) : undefined;
  if (words && dst.vCol > words.length) ctx.trap(`fp has ${words.length} valid cols, but dst has ${dst.vCol}: one quant word per dst col`);
  dst.forEachValid((r, c) => dst.set(r, c, convert(src.get(r, c) as number, words ? words[c] : options.word)));
}

/** Converts dst's valid region from src, value by value. */
function convertWindow(src: Tile, dst: Tile, convert: (v: number) => number): void {
  dst.forEachValid((r, c) => dst.set(r, c, convert(src.get(r, c) as number)));
}

/** One corner of a rectangular copy: element (row, col) of a tile. */
export interface Corner {
  tile: Tile;
  row: number;
  col: number;
}

/** Copies the bits of a rows x cols window, each tile addressed through its own layout. */
export function copyWindow(from: Corner, to: Corner, rows: number, cols: number): void {
  const size = to.tile.codec.size;
  if (copyWindowBits(from, to, rows, cols, size)) return;
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const fromByte = from.tile.elementIndex(from.row + r, from.col + c) * size;
      copyElement(from.tile.bytes, fromByte, to.tile.bytes, to.tile.elementIndex(to.row + r, to.col + c) * size, size);
    }
  }
}

/**
 * copyWindow through unsigned arrays of the element size (both tiles' fast paths on): the same element pairs, when
 * every index lies inside both arrays; false otherwise (the general path then reports what is out of place).
 */
function copyWindowBits(from: Corner, to: Corner, rows: number, cols: number, size: number): boolean {
  if (!from.tile.fastPaths || !to.tile.fastPaths || from.tile.codec.size !== size || rows === 0 || cols === 0) return false;
  const source = bitsArray(from.tile.bytes, size);
  const target = bitsArray(to.tile.bytes, size);
  if (!source || !target) return false;
  // Every layout's index grows with the row and with the column: the last element bounds them all.
  if (from.tile.elementIndex(from.row + rows - 1, from.col + cols - 1) >= source.length) return false;
  if (to.tile.elementIndex(to.row + rows - 1, to.col + cols - 1) >= target.length) return false;
  // Every layout's index is a part of the row plus a part of the column (Tile.elementIndex): each part found once
  // per copy, where a fractal tile's index takes divisions.
  const [fromRows, fromCols] = indexParts(from, rows, cols);
  const [toRows, toCols] = indexParts(to, rows, cols);
  for (let r = 0; r < rows; r++) {
    const [s, t] = [fromRows[r], toRows[r]];
    for (let c = 0; c < cols; c++) target[t + toCols[c]] = source[s + fromCols[c]];
  }
  return true;
}

/** elementIndex(row + r, col + c) of a corner's window as rowPart[r] + colPart[c]. */
function indexParts(at: Corner, rows: number, cols: number): [Int32Array, Int32Array] {
  const { tile, row, col } = at;
  const origin = tile.elementIndex(row, col);
  const rowPart = new Int32Array(rows);
  const colPart = new Int32Array(cols);
  for (let r = 0; r < rows; r++) rowPart[r] = tile.elementIndex(row + r, col);
  for (let c = 0; c < cols; c++) colPart[c] = tile.elementIndex(row, col + c) - origin;
  return [rowPart, colPart];
}

/** A row/column index operand as a number; negative values trap. */
export function indexOperand(ctx: InstructionContext, name: string): number {
  const v = ctx.scalar(name);
  const n = typeof v === 'bigint' ? Number(v) : v;
  if (!Number.isInteger(n) || n < 0) ctx.trap(`${name} = ${v} must be a non-negative integer`);
  return n;
}

/** The extent a window may reach in a tile: its valid region under cpu-sim (the simulator asserts it), else its rows x cols. */
function windowBounds(ctx: InstructionContext, tile: Tile): { rows: number; cols: number; what: string } {
  return ctx.numerics === 'cpu-sim'
    ? { rows: tile.vRow, cols: tile.vCol, what: 'valid region' }
    : { rows: tile.type.rows, cols: tile.type.cols, what: 'rows x cols' };
}

/** Traps unless the window rows x cols at (row, col) lies inside `bounds`. */
function checkWindow(
  ctx: InstructionContext,
  row: number,
  col: number,
  rows: number,
  cols: number,
  bounds: { rows: number; cols: number; what: string },
  whose: string,
): void {
  if (row + rows > bounds.rows || col + cols > bounds.cols) {
    ctx.trap(`the ${rows}x${cols} window at (${row}, ${col}) leaves ${whose}'s ${bounds.what} ${bounds.rows}x${bounds.cols}`);
  }
}

function requireVecToVec(ctx: InstructionContext, name: string, src: Tile, dst: Tile): void {
  if (src.type.loc !== 'vec' || dst.type.loc !== 'vec') ctx.trap(`${name} from ${src.type.loc} to ${dst.type.loc} is not implemented yet`);
}

/**
 * TEXTRACT, Vec -> Vec and Mat -> Left/Right: dst's valid region from the window of src at (indexRow, indexCol).
 * Bits are copied; element (r, c) keeps its logical place whatever the fractal layouts.
 */
export function extract(ctx: InstructionContext): void {
  const dst = ctx.tile('dst');
  const src = ctx.tile('src');
  const cube = src.type.loc === 'mat' && (dst.type.loc === 'left' || dst.type.loc === 'right');
  if (!cube) requireVecToVec(ctx, 'textract', src, dst);
  if (src.type.dtype !== dst.type.dtype) ctx.trap(`textract from ${src.type.dtype} to ${dst.type.dtype} is not implemented yet`);
  const row = indexOperand(ctx, 'indexRow');
  const col = indexOperand(ctx, 'indexCol');
  checkWindow(ctx, row, col, dst.vRow, dst.vCol, windowBounds(ctx, src), 'src');
  copyWindow({ tile: src, row, col }, { tile: dst, row: 0, col: 0 }, dst.vRow, dst.vCol);
}

/** TINSERT, Vec -> Vec: src's valid region into dst at (indexRow, indexCol). */
export function insert(ctx: InstructionContext): void {
  const dst = ctx.tile('dst');
  const src = ctx.tile('src');
  requireVecToVec(ctx, 'tinsert', src, dst);
  const row = indexOperand(ctx, 'indexRow');
  const col = indexOperand(ctx, 'indexCol');
  checkWindow(ctx, row, col, src.vRow, src.vCol, windowBounds(ctx, dst), 'dst');
  copyWindow({ tile: src, row: 0, col: 0 }, { tile: dst, row, col }, src.vRow, src.vCol);
}

/**
 * TSUBVIEW. On the NPU dst becomes a view into src; the VM's dst has its own storage, so the window
 * is copied (the manual's math, dst[i, j] = src[rowIdx + i, colIdx + j]).
 */
export function subview(ctx: InstructionContext): void {
  const dst = ctx.tile('dst');
  const src = ctx.tile('src');
  const row = indexOperand(ctx, 'rowIdx');
  const col = indexOperand(ctx, 'colIdx');
  // rowIdx/colIdx count inside src's valid region (manual, TSUBVIEW).
  checkWindow(ctx, row, col, dst.vRow, dst.vCol, { rows: src.vRow, cols: src.vCol, what: 'valid region' }, 'src');
  copyWindow({ tile: src, row, col }, { tile: dst, row: 0, col: 0 }, dst.vRow, dst.vCol);
}

export const module: SemanticsModule = { semantics: { move, extract, insert, subview } };
