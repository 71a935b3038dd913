import { InstructionContext } from './context';

/** TMOV. Vec -> Vec copies the destination's valid region; the cube-side moves arrive with the cube path. */
export function move(ctx: InstructionContext): void {
  const dst = ctx.tile('dst');
  const src = ctx.tile('src');
  if (src.type.loc !== 'vec' || dst.type.loc !== 'vec') {
    ctx.trap(`tmov from ${src.type.loc} to ${dst.type.loc} is not implemented yet`);
  }
  for (let r = 0; r < dst.vRow; r++) {
    for (let c = 0; c < dst.vCol; c++) dst.set(r, c, src.get(r, c));
  }
}
