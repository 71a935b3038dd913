import { roundHalfEven } from '../../../numerics/rounding';
import { e4m3Step, encodeE4M3 } from '../../../numerics/microscaling';
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

/** An element of a tile's storage by its index there (pto-isa's flat views of max, scaling and exp). */
function writeFlat(ctx: InstructionContext, tile: Tile, name: string, index: number, value: number, bits = false): void {
  const size = tile.codec.size;
  if ((index + 1) * size > tile.bytes.length)
    ctx.trap(`tquant.mx writes ${name}'s element ${index}, past its ${tile.bytes.length / size} elements of storage: not implemented`);
  if (bits) tile.view.setUint8(index, value);
  else tile.codec.write(tile.view, index * size, value);
}

/**
 * TQUANT MXFP8 with the OCP scale algorithm from f32 (tquant.mx): per group of 32 along the group axis (axis1: a row's
 * 32 consecutive columns; axis0: a column's 32 consecutive rows) the abs max m; its f32 biased exponent E gives the
 * shared E8M0 exponent e = E - 8 (0 when E <= 8) and the scaling 2^(254 - e) as f32 bits (e = 0 gives 2^127); each
 * element is x * scaling (an f32 product) encoded as E4M3 (encodeE4M3). pto-isa's two implementations agree on these
 * values and differ in where the scratch outputs go and which groups they cover:
 * - npu (npu/a5/TQuant.hpp): the valid region's groups. max and scaling are flat: group (r, g) of axis1 at
 *   r * groups per row + g, axis0 group (g, c) at g * src physical cols + c. exp: axis1 a 2D exp (more than one
 *   physical row) at r * exp physical cols + g, a one-row exp flat; axis0 at g * src physical cols + c. The axis1 flat
 *   form with more than 1024 elements of which a multiple of 256 (the unrolled path) writes each scaling twice (flat
 *   2k and 2k + 1). The axis1 abs-max pass handles two groups per vector; with an odd count per row it also writes
 *   a 0 after the last row's groups in max. Stage 3 is vcvt ROUND_R (round to nearest even) with RS_ENABLE
 *   (saturation): the VM follows that documented rounding; the manual's stochastic rounding (CTRL[50], which the
 *   kernel sets) is not modelled and is reported as a note. A NaN or infinite input traps (the NPU's vmax and fp8
 *   conversion of them are not documented).
 * - cpu-sim (cpu/TQuant.hpp): axis1 covers src's valid rows and all its physical cols, axis0 all physical rows and
 *   the valid cols; max and scaling flat (axis1 r * groups per row + g, axis0 g * valid cols + c); exp at its tile
 *   position (r, g) / (g, c). NaN is skipped by the max (std::max), gives 0x7f; a zero code is always 0x00.
 * The deprecated exp_zz form is the simulator's only (the A5 NPU has no such overload): exp's first rows x groups
 * bytes reordered into 16 x 2 boxes, row blocks outer, then group pairs, rows, the pair.
 * quantScaleAlg nv (pto-isa's NVIDIA algorithm, npu ComputeF32NvExpAndScaling, cpu ComputeNvSharedExponent) changes
 * only the shared exponent and scaling (nvScale) and, under cpu-sim, the code of tiny negatives (encodeNvSimulator).
 * MXFP4, f16/bf16 sources and interleaved exponents are not implemented yet (they trap): MXFP4's stage 3 is the
 * NPU's vcvt to E2M1 without saturation (RS_ENABLE off), and what it gives for scaled values that round past 6 (the
 * group's largest element scales into [4, 8)) is not documented.
 */
export function quantMx(ctx: InstructionContext): void {
  const dst = ctx.tile('dst');
  const src = ctx.tile('src');
  const exp = ctx.tile('exp');
  const max = ctx.tile('max');
  const scaling = ctx.tile('scaling');
  const expZz = ctx.optionalTile('exp_zz');
  const npu = ctx.numerics === 'npu';
  if (ctx.attribute('quant_type') !== 'MXFP8') {
    ctx.trap(
      "MXFP4_E2M1 quantization in tquant.mx is not implemented yet (pto-isa's A5 stage 3 converts to E2M1 without saturation; the NPU's result for values rounding past 6 is not documented)",
    );
  }
  const nv = ctx.attribute('quantScaleAlg') === 'nv';
  if (ctx.flag('interleave') === true) ctx.trap('interleaved axis0 exponents in tquant.mx are not implemented yet');
  if (src.type.dtype !== 'f32') ctx.trap(`MXFP8 quantization of ${src.type.dtype} in tquant.mx is not implemented yet (f32 only)`);
  if (expZz && npu) ctx.trap("the exp_zz form of tquant.mx is not implemented for npu: pto-isa's A5 NPU has no such TQUANT overload (only the simulator has)");
  const dn = ctx.attribute('grpAxis') === 'axis0';
  // Groups: [lines across the axis, groups along it], as each implementation covers them.
  const lines = dn ? src.vCol : src.vRow;
  const groups = dn ? (npu ? Math.ceil(src.vRow / 32) : Math.floor(src.type.rows / 32)) : Math.floor((npu ? src.vCol : src.type.cols) / 32);
  const at = (line: number, g: number, k: number): [number, number] => (dn ? [g * 32 + k, line] : [line, g * 32 + k]);
  const flatIndex = (line: number, g: number) => (dn ? g * (npu ? src.type.cols : src.vCol) + line : line * groups + g);
  const expFlat = !dn && npu && exp.type.rows === 1;
  const expIndex = (line: number, g: number) => {
    if (dn) return npu ? g * src.type.cols + line : exp.elementIndex(g, line);
    if (expFlat) return line * groups + g;
    return npu ? line * exp.type.cols + g : exp.elementIndex(line, g);
  };
  const unrolled = expFlat && src.type.rows * src.type.cols > 1024 && (src.type.rows * src.type.cols) % 256 === 0 && (src.vRow * src.type.cols) % 256 === 0;
  let rounded = false;
  for (let line = 0; line < lines; line++) {
    for (let g = 0; g < groups; g++) {
      const values: number[] = [];
      let m = 0;
      for (let k = 0; k < 32; k++) {
        const [r, c] = at(line, g, k);
        const v = src.get(r, c) as number;
        if (npu && !Number.isFinite(v))
          ctx.trap(
            `a ${Number.isNaN(v) ? 'NaN' : 'infinite'} src element at (${r}, ${c}): the NPU's abs max and fp8 conversion of it are not documented, so it is not implemented`,
          );
        if (m < Math.abs(v)) m = Math.abs(v); // std::max(m, |v|): a NaN never replaces m
        values.push(v);
      }
      const { e8m0, scale } = nv ? nvScale(m) : ocpScale(m);
      const index = flatIndex(line, g);
      writeFlat(ctx, max, 'max', index, m);
      if (unrolled) {
        writeFlat(ctx, scaling, 'scaling', 2 * index, scale);
        writeFlat(ctx, scaling, 'scaling', 2 * index + 1, scale);
      } else writeFlat(ctx, scaling, 'scaling', index, scale);
      writeFlat(ctx, exp, 'exp', expIndex(line, g), e8m0, true);
      values.forEach((v, k) => {
        const [r, c] = at(line, g, k);
        const scaled = Math.fround(v * scale);
        if (npu && Math.abs(scaled) < 448 && !Number.isInteger(Math.abs(scaled) / e4m3Step(Math.abs(scaled)))) rounded = true;
        dst.view.setUint8(dst.elementIndex(r, c), nv && !npu ? encodeNvSimulator(scaled) : encodeE4M3(scaled, npu));
      });
    }
  }
  // The axis1 abs-max pass stores two group maxima per 64-element vector: an odd count leaves a 0 after the last.
  if (npu && !dn && (expFlat ? lines * groups : groups) % 2 === 1) writeFlat(ctx, max, 'max', lines * groups, 0);
  if (rounded)
    ctx.note("npu: tquant.mx rounds to fp8 as its vcvt's ROUND_R says (nearest, ties to even); the manual's stochastic rounding (CTRL[50]) is not modelled");
  if (expZz) reorderExponentsZz(ctx, exp, expZz, src.vRow, src.vCol / 32);
}

/** The bits of x as an f32. */
function f32Bits(x: number): number {
  return new Uint32Array(new Float32Array([x]).buffer)[0];
}

/** OCP: the max's biased exponent E gives e = E - 8 (0 when E <= 8) and the scaling 2^(127 - e) (2^127 for e = 0). */
function ocpScale(m: number): { e8m0: number; scale: number } {
  const biased = (f32Bits(m) >>> 23) & 0xff;
  return biased <= 8 ? { e8m0: 0, scale: 2 ** 127 } : { e8m0: biased - 8, scale: 2 ** (127 - (biased - 8)) };
}

/** f32(1 / 448): NvMxFp8E4M3Spec's descaleMultiplier. */
const NV_DESCALE = Math.fround(1 / 448);

/**
 * NV: d = f32(max * f32(1/448)); its biased exponent E, rounded up when its mantissa M is not 0 and 0 < E < 0xfe, or
 * when d is subnormal with M > 0x400000, is e (ceil(log2(max / 448)) + 127); the scaling has the bits (0xfe - e) << 23.
 * A finite max never reaches pto-isa's Inf/NaN cases (d <= f32 max / 448) nor e = 0xfe (its scaling differs there).
 */
function nvScale(m: number): { e8m0: number; scale: number } {
  const bits = f32Bits(Math.fround(m * NV_DESCALE));
  const biased = (bits >>> 23) & 0xff;
  const mantissa = bits & 0x7fffff;
  const roundUp = (mantissa !== 0 && biased > 0 && biased < 0xfe) || (biased === 0 && mantissa > 0x400000);
  const e8m0 = roundUp ? biased + 1 : biased;
  return { e8m0, scale: new Float32Array(new Uint32Array([((0xfe - e8m0) << 23) >>> 0]).buffer)[0] };
}

/** The simulator's EncodeE4M3Fn<NV> (cpu/TQuant.hpp): |x| < 2^-10 is a zero keeping x's sign; else as OCP's (zero unsigned). */
function encodeNvSimulator(x: number): number {
  if (Math.abs(x) < 2 ** -10) return x < 0 || Object.is(x, -0) ? 0x80 : 0;
  return encodeE4M3(x, false);
}

/** The simulator's exp_zz: exp's first rows x groupCols bytes in 16 x 2 boxes (row blocks, group pairs, rows, pair). */
function reorderExponentsZz(ctx: InstructionContext, exp: Tile, expZz: Tile, rows: number, groupCols: number): void {
  if (rows % 16 !== 0 || groupCols % 2 !== 0)
    ctx.trap(`the exp_zz reorder needs src valid rows a multiple of 16 (${rows}) and an even group count per row (${groupCols})`);
  const bytes = exp.bytes.slice(0, rows * groupCols);
  if (bytes.length < rows * groupCols) ctx.trap(`exp has ${exp.bytes.length} bytes; the exp_zz reorder reads ${rows * groupCols}`);
  let k = 0;
  for (let rb = 0; rb < rows / 16; rb++) {
    for (let gb = 0; gb < groupCols / 2; gb++) {
      for (let r = 0; r < 16; r++) {
        for (let lane = 0; lane < 2; lane++) writeFlat(ctx, expZz, 'exp_zz', k++, bytes[(rb * 16 + r) * groupCols + gb * 2 + lane], true);
      }
    }
  }
}

export const module: SemanticsModule = { semantics: { dequant, quantInt8, quantMx } };
