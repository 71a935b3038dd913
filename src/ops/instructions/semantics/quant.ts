import { InstructionContext, SemanticsModule } from './context';

/**
 * TDEQUANT: dst[i, j] = (src[i, j] - offset[i, 0]) * scale[i, 0], the manual's two vector steps (vsub, then vmul)
 * each rounded to f32; the integer code converts to f32 exactly. The manual defines signed 8- and 16-bit codes.
 */
export function dequant(ctx: InstructionContext): void {
  const dst = ctx.tile('dst');
  const src = ctx.tile('src');
  const scale = ctx.tile('scale');
  const offset = ctx.tile('offset');
  const code = src.type.dtype;
  if (code !== 'i8' && code !== 'i16') ctx.trap(`dequantizing ${code === 'u8' ? 'ui8' : 'ui16'} codes is not implemented yet (the manual defines i8 and i16)`);
  if (src.vRow !== dst.vRow || src.vCol !== dst.vCol) ctx.trap(`src's valid region (${src.vRow}x${src.vCol}) must equal dst's (${dst.vRow}x${dst.vCol})`);
  for (const [name, para] of [
    ['scale', scale],
    ['offset', offset],
  ] as const) {
    if (para.vRow !== dst.vRow) ctx.trap(`${name} has ${para.vRow} valid rows; it needs one per row of dst (${dst.vRow})`);
  }
  // A wider parameter tile: the NPU reads each row's first element (a2a3 a scalar load per row, a5 a broadcast load
  // of the row's first 32 bits) for every column; the reference simulator reads column min(c, valid cols - 1).
  const perColumn = ctx.numerics === 'cpu-sim';
  const paraCols = Math.max(1, scale.vCol);
  for (let r = 0; r < dst.vRow; r++) {
    for (let c = 0; c < dst.vCol; c++) {
      const k = perColumn ? Math.min(c, paraCols - 1) : 0;
      const shifted = Math.fround((src.get(r, c) as number) - (offset.get(r, k) as number));
      dst.set(r, c, Math.fround(shifted * (scale.get(r, k) as number)));
    }
  }
}

export const module: SemanticsModule = { semantics: { dequant } };
