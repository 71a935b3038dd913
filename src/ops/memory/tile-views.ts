import { TileType } from '../../types/type';
import { innerBox, tileBytes } from '../../types/geometry';

/**
 * Tile views: `pto.treshape` (the same bytes as another tile type) and `pto.subset` (a window of a
 * tile that keeps the parent's strides). Both alias storage; neither moves data. The rules here are
 * shared by the verifier (types) and the VM (run-time offsets).
 */

/** Why `src` cannot be reinterpreted as `dst`, or null. Element types may differ (a bit view). */
export function treshapeProblem(src: TileType, dst: TileType): string | null {
  if (src.loc !== dst.loc) return `the result must stay in loc=${src.loc}, not loc=${dst.loc}`;
  if ((src.slayout === 'none_box') !== (dst.slayout === 'none_box')) return 'cannot reshape between a boxed (fractal) layout and none_box';
  if (tileBytes(src) !== tileBytes(dst)) return `the result has ${tileBytes(dst)} bytes but the source has ${tileBytes(src)}: a reshape keeps the size`;
  return null;
}

/**
 * The type of `pto.subview %t[...] sizes [rows, cols]`: the window, fully valid, in the parent's layout. A window of
 * a boxed (fractal) tile covers whole boxes, as PTOAS requires.
 */
export function subsetType(parent: TileType, sizes: number[]): { type?: TileType; problem?: string } {
  if (sizes.length !== 2) return { problem: `sizes must have 2 entries (rows, cols), got ${sizes.length}` };
  const [rows, cols] = sizes;
  if (rows < 1 || cols < 1) return { problem: `sizes must be positive, got [${rows}, ${cols}]` };
  const box = boxedWindowUnit(parent);
  if (box && (rows % box.rows !== 0 || cols % box.cols !== 0))
    return { problem: `sizes [${rows}, ${cols}] of a window of a boxed tile must be whole ${box.rows}x${box.cols} boxes` };
  if (rows > parent.rows || cols > parent.cols) return { problem: `sizes [${rows}, ${cols}] exceed the ${parent.rows}x${parent.cols} source` };
  return { type: { ...parent, rows, cols, vRow: rows, vCol: cols } };
}

/** The box a window of a boxed tile must be made of, or undefined for a none_box tile. */
export function boxedWindowUnit(parent: TileType): { rows: number; cols: number } | undefined {
  return parent.slayout === 'none_box' ? undefined : innerBox(parent);
}

/** Why an offset of a window of a boxed tile does not start a box (`what`: row or col), or null. */
export function boxedOffsetProblem(parent: TileType, what: 'row' | 'col', offset: number): string | null {
  const box = boxedWindowUnit(parent);
  const unit = box && (what === 'row' ? box.rows : box.cols);
  return unit && offset % unit !== 0 ? `the ${what} offset ${offset} of a window of a boxed tile must be a multiple of ${unit} (its box)` : null;
}

/** Why a window at (row, col) does not fit its parent, or null (checked at run time for dynamic offsets). */
export function subsetBoundsProblem(parent: TileType, row: number, col: number, sizes: [number, number]): string | null {
  if (row < 0 || col < 0 || row + sizes[0] > parent.rows || col + sizes[1] > parent.cols) {
    return `the window [${row}, ${col}] + [${sizes[0]}, ${sizes[1]}] is outside the ${parent.rows}x${parent.cols} source`;
  }
  return boxedOffsetProblem(parent, 'row', row) ?? boxedOffsetProblem(parent, 'col', col);
}
