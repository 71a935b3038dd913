import { roundHalfEven } from '../../../numerics/rounding';
import { codec } from '../../../numerics/elements';
import { Tile } from '../../../machine/memory';
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

/**
 * TQUANT INT8_SYM / INT8_ASYM: q = saturate(round(x * fp[row] (+ offset[row]))) into i8 / ui8. Both NPUs and the
 * reference simulator multiply by fp (the manual's "x / scale" takes fp as the reciprocal), add the offset as a
 * second f32 step, round to nearest even and saturate: a2a3 through f32 -> s32 -> f16 -> int8 conversions, a5
 * through s32 and f16 with saturation, the simulator with nearbyint and a clamp; for finite values all three give
 * the same code. A2/A3's NPU path works in place and leaves its steps behind, as here: tmp holds the s32 codes,
 * src's first bytes the f16 codes as a row-major tile of src's rows and its cols rounded up to 16, the rest of src
 * x * fp (+ offset).
 */
export function quantInt8(ctx: InstructionContext): void {
  const dst = ctx.tile('dst');
  const src = ctx.tile('src');
  const fp = ctx.tile('fp');
  const offset = ctx.optionalTile('offset');
  const tmp = ctx.optionalTile('tmp');
  const asymmetric = ctx.attribute('quant_type') === 'INT8_ASYM';
  if (asymmetric !== (offset !== undefined)) ctx.trap(asymmetric ? 'INT8_ASYM needs an offset tile' : 'INT8_SYM takes no offset tile');
  const [low, high] = asymmetric ? [0, 255] : [-128, 127];
  for (const [name, para] of [
    ['fp', fp],
    ['offset', offset],
  ] as const) {
    if (para && para.vRow < src.vRow) ctx.trap(`${name} has ${para.vRow} valid rows; it needs one per row of src (${src.vRow})`);
  }
  const steps: number[][] = [];
  for (let r = 0; r < src.vRow; r++) {
    const scale = fp.get(r, 0) as number;
    const zero = offset ? (offset.get(r, 0) as number) : 0;
    steps.push([]);
    for (let c = 0; c < src.vCol; c++) {
      let v = Math.fround((src.get(r, c) as number) * scale);
      if (offset) v = Math.fround(v + zero);
      if (Number.isNaN(v)) ctx.trap(`a NaN at (${r}, ${c}): its int8 code is not documented, so it is not implemented`);
      dst.set(r, c, Math.min(high, Math.max(low, roundHalfEven(v))));
      steps[r].push(v);
    }
  }
  if (ctx.target === 'a2a3' && ctx.numerics === 'npu') leaveA2A3Steps(ctx, src, tmp, steps);
}

/** What A2/A3's in-place chain leaves in src and tmp (npu/a2a3/TQuant.hpp): see quantInt8. */
function leaveA2A3Steps(ctx: InstructionContext, src: Tile, tmp: Tile | undefined, steps: number[][]): void {
  const half = codec('f16');
  const padCols = Math.ceil(src.type.cols / 16) * 16;
  steps.forEach((row, r) => row.forEach((v, c) => src.set(r, c, v)));
  steps.forEach((row, r) =>
    row.forEach((v, c) => {
      const code = Math.min(2 ** 31 - 1, Math.max(-(2 ** 31), roundHalfEven(v)));
      tmp?.setBits(r, c, code >>> 0);
      if (Math.abs(code) > 65504) ctx.note('npu: an s32 code beyond f16 range in tquant; the conversion overflow is not documented, the VM gives infinity');
      half.write(src.view, (r * padCols + c) * 2, half.round(code) as number);
    }),
  );
}

export const module: SemanticsModule = { semantics: { dequant, quantInt8 } };
