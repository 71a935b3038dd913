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
  for (let r = 0; r < dst.vRow; r++) {
    for (let c = 0; c < dst.vCol; c++) copyElement(src.bytes, src.elementIndex(r, c) * size, dst.bytes, dst.elementIndex(r, c) * size, size);
  }
}

export const module: SemanticsModule = { semantics: { move } };
