import { DIAGNOSTICS as D } from '../../../diag/catalog';
import { TileType, elemTypeName } from '../../../types/type';
import { layoutProblem } from '../../memory/tile-rules';
import { CheckContext } from './context';

/**
 * The table's rules (location, layout, element type) for a tile bound to an operand the table declares
 * polymorphic: the generic checks skip such operands, since their kind depends on the op's form.
 */
export function checkAsTile(ctx: CheckContext, name: string, tile: TileType): void {
  const where = ctx.spanOf(name);
  const locs = ctx.spec.tileLocs[name];
  if (locs && !locs.includes(tile.loc)) ctx.error(where, `${name} must be a ${locs.join('/')} tile, not loc=${tile.loc}`, D.tileLocation);
  const rule = ctx.spec.layouts[name];
  const layout = rule ? layoutProblem(rule, tile) : null;
  if (layout) ctx.error(where, `${name} ${layout}`, D.tileLayout);
  const allowed = ctx.spec.dtypes[ctx.target]?.[name] ?? [];
  if (allowed.length > 0 && !allowed.includes(tile.dtype)) {
    ctx.error(
      where,
      `${name} dtype ${elemTypeName(tile.dtype)} is not supported on ${ctx.target} (allowed: ${allowed.map(elemTypeName).join(', ')})`,
      D.elementType,
    );
  }
}
