import { ModelError } from '../../../ascendc/model/errors';
import { runAscendc } from '../ascendc-run';
import { InstructionContext } from './context';

/**
 * AscendC/TIK ops (ascendc.whole_reduce_min, ascendc.block_reduce_sum, tik.vec_reduce_add,
 * ascendc.copy): the direct model over the tiles' bytes, addresses relative to each tile's first byte.
 */
export function ascendc(ctx: InstructionContext): void {
  const spec = ctx.bound.spec;
  const src = ctx.tile('src');
  const dst = ctx.tile('dst');
  const work = ctx.optionalTile('work');
  const params = ctx.bound.ascendc;
  if (!params) ctx.trap('the attributes were not verified');
  try {
    runAscendc(spec, params!, { src: src.bytes, dst: dst === src ? src.bytes : dst.bytes, work: work === src ? src.bytes : work?.bytes });
  } catch (e) {
    if (e instanceof ModelError) ctx.trap(e.message);
    throw e;
  }
}
