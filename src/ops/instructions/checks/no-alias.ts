import { DIAGNOSTICS as D } from '../../../diag/catalog';
import { CheckContext } from './context';
import { tileBytes } from './scratch';

/**
 * Operands that must not share bytes (PTOAS's semantic no-alias pairs, checked after its memory planning): the same
 * tile twice, or two tiles placed at constant addresses (`alloc_tile addr = %c`) whose byte ranges in one buffer
 * meet. A tile placed any other way has no known range, as in PTOAS, and is not compared.
 */
export function checkNoAlias(ctx: CheckContext, operands: string[]): void {
  const present = operands.filter((n) => ctx.tiles.has(n));
  for (let i = 0; i < present.length; i++) {
    for (let j = i + 1; j < present.length; j++) {
      const [a, b] = [present[i], present[j]];
      if (overlap(ctx, a, b)) {
        ctx.error(ctx.spanOf(b), `semantic no-alias violation: ${b}'s bytes overlap ${a}'s`, D.instructionRule);
        return;
      }
    }
  }
}

function overlap(ctx: CheckContext, a: string, b: string): boolean {
  const [ta, tb] = [ctx.tiles.get(a)!, ctx.tiles.get(b)!];
  const [va, vb] = [a, b].map((n) => ctx.bound.operands.get(n)?.use?.value?.name);
  if (va !== undefined && va === vb) return tileBytes(ta) > 0;
  const [pa, pb] = [ctx.placement(a), ctx.placement(b)];
  if (pa === undefined || pb === undefined || ta.loc !== tb.loc) return false;
  const [beginA, beginB] = [Number(pa), Number(pb)];
  return beginA < beginB + tileBytes(tb) && beginB < beginA + tileBytes(ta) && tileBytes(ta) > 0 && tileBytes(tb) > 0;
}
