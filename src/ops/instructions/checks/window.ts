import { TileType, printType } from '../../../types/type';
import { CheckContext } from './context';

/** Shared rules of the ops that read or write a window of a tile at (row, col) operands. */

const INDEX_TYPES = ['index', 'i8', 'u8', 'i16', 'u16', 'i32', 'u32', 'i64', 'u64'];

export const layoutName = (t: TileType) => `blayout=${t.blayout}, slayout=${t.slayout}`;

/** Row/column index operands are index or integer scalars. */
export function checkIndexOperands(ctx: CheckContext, names: string[]): void {
  for (const name of names) {
    const type = ctx.bound.operands.get(name)?.type;
    if (type && !(type.kind === 'scalar' && INDEX_TYPES.includes(type.elem)))
      ctx.error(ctx.spanOf(name), `${name} must be an index or integer value, got ${printType(type)}`);
  }
}

export function checkSameLayout(ctx: CheckContext, dst: TileType, src: TileType): void {
  if (dst.blayout !== src.blayout || dst.slayout !== src.slayout) {
    ctx.error(ctx.spanOf('dst'), `dst (${layoutName(dst)}) and src (${layoutName(src)}) must have the same layout`);
  }
}

/**
 * A window of `extent` (a tile's valid region) at the static (row, col) operands must lie inside the
 * `outer` tile's rows x cols, the bound on every target (cpu-sim's tighter valid-region bound and
 * dynamic positions are checked when the VM runs).
 */
export function checkStaticWindow(ctx: CheckContext, position: [string, string], extent: TileType, outer: TileType, outerName: string): void {
  const row = ctx.constant(position[0]);
  const col = ctx.constant(position[1]);
  if (row === undefined || col === undefined || extent.vRow === null || extent.vCol === null) return;
  if (row < 0n || col < 0n || Number(row) + extent.vRow > outer.rows || Number(col) + extent.vCol > outer.cols) {
    ctx.error(ctx.spanOf(position[0]), `the ${extent.vRow}x${extent.vCol} window at (${row}, ${col}) leaves ${outerName}'s ${outer.rows}x${outer.cols}`);
  }
}
