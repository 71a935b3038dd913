import { DiagnosticKind } from '../../../diag/catalog';
import { TileType, elemSize, elemTypeName } from '../../../types/type';
import { CheckContext } from './context';

/**
 * Scratch-tile contracts shared by several families: PTOAS sizes a tmp by the bytes its static shape holds
 * (rows x cols x element size, the valid region aside).
 */

export const tileBytes = (t: TileType): number => t.rows * t.cols * elemSize(t.dtype);

/** The tile `name` (when present) must hold at least `bytes` bytes. */
export function scratchHolds(ctx: CheckContext, name: string, bytes: number, why: string, kind?: DiagnosticKind): void {
  const tmp = ctx.tiles.get(name);
  if (!tmp || tileBytes(tmp) >= bytes) return;
  ctx.error(
    ctx.spanOf(name),
    `${name} (${tmp.rows}x${tmp.cols} ${elemTypeName(tmp.dtype)}) holds ${tileBytes(tmp)} bytes; ${why} needs at least ${bytes}`,
    kind,
  );
}
