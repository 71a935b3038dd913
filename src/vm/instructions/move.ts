import { Tile } from '../memory';
import { InstructionContext, SemanticsModule } from './context';
import { copyElement } from './memory';

/** TMOV. Vec -> Vec copies the bits of the destination's valid region; the cube-side moves arrive with the cube path. */
export function move(ctx: InstructionContext): void {
  const dst = ctx.tile('dst');
  const src = ctx.tile('src');
  if (src.type.loc !== 'vec' || dst.type.loc !== 'vec') {
    ctx.trap(`tmov from ${src.type.loc} to ${dst.type.loc} is not implemented yet`);
  }
  const size = dst.codec.size;
  if (src.codec.size !== size) ctx.trap(`tmov from ${src.type.dtype} to ${dst.type.dtype}: the element sizes differ`);
  copyWindow({ tile: src, row: 0, col: 0 }, { tile: dst, row: 0, col: 0 }, dst.vRow, dst.vCol);
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
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const fromByte = from.tile.elementIndex(from.row + r, from.col + c) * size;
      copyElement(from.tile.bytes, fromByte, to.tile.bytes, to.tile.elementIndex(to.row + r, to.col + c) * size, size);
    }
  }
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
function checkWindow(ctx: InstructionContext, row: number, col: number, rows: number, cols: number, bounds: { rows: number; cols: number; what: string }, whose: string): void {
  if (row + rows > bounds.rows || col + cols > bounds.cols) {
    ctx.trap(`the ${rows}x${cols} window at (${row}, ${col}) leaves ${whose}'s ${bounds.what} ${bounds.rows}x${bounds.cols}`);
  }
}

function requireVecToVec(ctx: InstructionContext, name: string, src: Tile, dst: Tile): void {
  if (src.type.loc !== 'vec' || dst.type.loc !== 'vec') ctx.trap(`${name} from ${src.type.loc} to ${dst.type.loc} is not implemented yet`);
}

/** TEXTRACT, Vec -> Vec: dst's valid region from the window of src at (indexRow, indexCol). */
export function extract(ctx: InstructionContext): void {
  const dst = ctx.tile('dst');
  const src = ctx.tile('src');
  requireVecToVec(ctx, 'textract', src, dst);
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
