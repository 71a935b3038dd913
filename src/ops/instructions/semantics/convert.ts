import { NARROWING_PAIRS, implementsPair, logicalCols, describeValidCols, requestedSaturation } from '../checks/convert';
import { ElemType, elemTypeName, isStoredFormat } from '../../../types/type';
import { f32Bits } from '../../../numerics/elements';
import { CastMode, Converter, castMode, cpuSimConverter, npuConverter, npuRounding, npuSaturates, valueConverter } from '../../../numerics/conversion';
import { OutOfRange, encodeLowPrecision, isPackedFp4, lowPrecisionFormat } from '../../../numerics/low-precision';
import { RoundingMode } from '../../../numerics/rounding';
import { InstructionContext, SemanticsModule } from './context';
import { Tile } from '../../../machine/memory';
import { Lanes, f32Lanes, halfLanes } from '../../../machine/tile-loops';

const FLOAT_BITS: Partial<Record<ElemType, { size: 2 | 4; mantissa: number; exponentMask: number }>> = {
  f16: { size: 2, mantissa: 10, exponentMask: 0x7c00 },
  bf16: { size: 2, mantissa: 7, exponentMask: 0x7f80 },
  f32: { size: 4, mantissa: 23, exponentMask: 0x7f800000 },
};

/**
 * cpu-sim NaNs between float types, on bit patterns: x86 (and the compiler's half/float conversions) keeps the
 * sign and the top payload bits and sets the quiet bit; a same-type cast changes nothing. A JS number would lose them.
 * Returns undefined when the source element is not a NaN.
 */
function simulatorNanBits(bits: number, src: ElemType, dst: ElemType): number | undefined {
  const from = FLOAT_BITS[src]!;
  const to = FLOAT_BITS[dst]!;
  const mantissaMask = 2 ** from.mantissa - 1;
  if ((bits & from.exponentMask) >>> 0 !== from.exponentMask || (bits & mantissaMask) === 0) return undefined;
  if (src === dst) return bits;
  const signed = bits >>> (from.size * 8 - 1) === 1;
  const payload = bits & mantissaMask;
  const shifted = from.mantissa >= to.mantissa ? payload >>> (from.mantissa - to.mantissa) : payload << (to.mantissa - from.mantissa);
  const quiet = 2 ** (to.mantissa - 1);
  const sign = signed ? 2 ** (to.size * 8 - 1) : 0;
  return (sign + to.exponentMask + (shifted | quiet)) >>> 0;
}

/** TCVT: dst = src converted to dst's element type per rmode and saturation, over the valid region. */
function convert(ctx: InstructionContext): void {
  const dst = ctx.tile('dst');
  const src = ctx.tile('src');
  const from = src.type.dtype;
  const to = dst.type.dtype;
  // Valid cols count elements, two per byte of a packed fp4 tile (the verifier's rule, again for run-time shapes).
  if (logicalCols(src.type, src.vCol) !== logicalCols(dst.type, dst.vCol))
    ctx.trap(`src valid cols (${describeValidCols(src.type, src.vCol)}) must equal dst valid cols (${describeValidCols(dst.type, dst.vCol)})`);
  const mode = castMode(String(ctx.attribute('rmode')));
  if (isStoredFormat(from) || isStoredFormat(to)) return convertLowPrecision(ctx, dst, src, mode);
  const explicitSaturation = requestedSaturation((n) => ctx.attribute(n));
  let element: Converter;
  if (ctx.numerics === 'cpu-sim') {
    // PTOAS passes SaturationMode::OFF when satmode is absent, as the simulator's 3-argument TCVT assumes.
    element = cpuSimConverter(from, to, mode, explicitSaturation ?? false);
  } else {
    // PTOAS e32488c9's EmitC lowering passes SaturationMode::OFF when satmode is absent (its default, PTOOps.td).
    // Its vpto templates never read satmode: there the VM keeps the per-pair choice of pto-isa's 3-argument TCVT.
    element = npuElement(ctx, from, to, mode, explicitSaturation ?? (ctx.backend === 'vpto' ? undefined : false));
  }
  const nanBits = ctx.numerics === 'cpu-sim' && !explicitSaturation && FLOAT_BITS[from] && FLOAT_BITS[to];
  const nan = nanBits ? (bits: number) => simulatorNanBits(bits, from, to) : () => undefined;
  // Everything `element` and `nan` depend on: conversions with the same key give the same bits.
  const key = [ctx.numerics, ctx.target, ctx.backend, from, to, mode, explicitSaturation, ctx.optionalTile('tmp') !== undefined].join('/');
  const bf16Rounding =
    ctx.numerics === 'npu' && from === 'f32' && to === 'bf16' && implementsPair(ctx.target, from, to) ? npuRounding(from, to, mode) : undefined;
  const run = convertFloats(dst, src, element, nan, key, bf16Rounding === 'rint' || bf16Rounding === 'round' ? bf16Rounding : undefined);
  if (run) {
    run();
    return ctx.repeatWith(run);
  }
  for (let r = 0; r < dst.vRow; r++) {
    for (let c = 0; c < dst.vCol; c++) {
      // Only float elements (2 or 4 bytes) have a NaN's bits to keep.
      const bits = nanBits ? nan(src.getBits(r, c)) : undefined;
      if (bits !== undefined) dst.setBits(r, c, bits);
      else dst.set(r, c, element(src.get(r, c)));
    }
  }
}

/**
 * The npu conversion of a pair of ordinary element types, all of which PTOAS accepts on both targets:
 * - a pair pto-isa's TCvt implements (CONVERSION_PAIRS) runs as it does. Saturation: the attribute, else the pair's
 *   default; but A2/A3's TCVT without a tmp passes SaturationMode::ON for every pair but the narrowing ones,
 *   whatever it is given (npu/a2a3/TCvt.hpp TCVT_IMPL), while with a tmp it passes the requested mode on;
 * - A2/A3 has no other pair: pto-isa's GenCastCall dispatcher emits no vconv for it, so dst would keep what it
 *   held. Not modelled: a trap;
 * - on A5 another pair has no implementation at all (pto-isa has no castData for it, PTOAS no template): the VM
 *   computes what the value alone decides (numerics valueConverter), and says so in a note.
 */
function npuElement(ctx: InstructionContext, from: ElemType, to: ElemType, mode: CastMode, explicit: boolean | undefined): Converter {
  const pair = `${elemTypeName(from)} -> ${elemTypeName(to)}`;
  const forcedOn = ctx.target === 'a2a3' && !ctx.optionalTile('tmp') && !NARROWING_PAIRS.includes(`${from}->${to}`);
  const saturate = forcedOn || npuSaturates(from, to, explicit);
  if (implementsPair(ctx.target, from, to)) return npuConverter(from, to, mode, saturate, ctx.trap);
  if (ctx.target === 'a2a3') {
    ctx.trap(
      `converting ${pair} on a2a3 is not implemented yet: PTOAS accepts it, but pto-isa's A2/A3 TCvt has no conversion for it (its GenCastCall dispatcher emits no vconv, leaving dst as it was)`,
    );
  }
  ctx.note(
    `pto.tcvt ${pair}: neither pto-isa's A5 TCvt nor PTOAS's A5 templates implement this pair; the VM keeps exact values and rounds others per rmode as IEEE 754 does`,
  );
  return valueConverter(from, to, mode, saturate, ctx.trap);
}

/** A cpu-sim NaN's converted bits (simulatorNanBits), undefined for other elements (and under npu). */
type NanBits = (bits: number) => number | undefined;

/**
 * The result bits of each 16-bit source pattern, per conversion (convert's key), kept from run to run: a kernel
 * converts the same patterns in every iteration, and working a pattern out (a rounding through the format's
 * encoder and decoder) cost more than the rest of the conversion. A pattern is worked out when first met.
 */
const sixteenBitResults = new Map<string, { known: Uint8Array; table: Uint32Array }>();

/**
 * f32 bits to bf16 bits in RINT (nearest, ties to even) or ROUND (nearest, ties away from zero): the f32 pattern's
 * magnitude plus half a bf16 step (less one for RINT when the kept last bit is 0), truncated; bf16 has f32's
 * exponents, so subnormals round alike. -1 when the value or the result is not finite: such a value goes the general
 * way (saturation, NaN bits), as does every other mode. For a finite result it is roundToFormat's value.
 */
export function f32ToBf16Bits(bits: number, mode: 'rint' | 'round'): number {
  if ((bits & 0x7f800000) === 0x7f800000) return -1; // an infinity or a NaN (whose pattern the add could wrap)
  const rounded = ((bits + (mode === 'round' ? 0x8000 : 0x7fff + ((bits >>> 16) & 1))) >>> 16) & 0xffff;
  return (rounded & 0x7f80) === 0x7f80 ? -1 : rounded;
}

/**
 * The typed-array paths of TCVT between float types (f32, f16, bf16): the same element conversions (a NaN's bits
 * through `nan` first), prepared; undefined when a tile has no float lanes. A 16-bit source has 65536 patterns: each
 * one's result bits are worked out once per conversion `key` (sixteenBitResults). `bf16` (npu f32 -> bf16 in RINT or
 * ROUND): the rounding on the bits, f32ToBf16Bits, where its result is finite.
 */
function convertFloats(dst: Tile, src: Tile, element: Converter, nan: NanBits, key: string, bf16?: 'rint' | 'round'): (() => void) | undefined {
  const [rows, cols] = [dst.vRow, dst.vCol];
  const [d, a] = [bitLanes(dst, rows, cols), bitLanes(src, rows, cols)];
  if (!d || !a) return undefined;
  // Each loop walks the region row by row, i over the source's lanes and j over the destination's.
  if (a.decode) {
    let results = sixteenBitResults.get(key);
    if (!results) sixteenBitResults.set(key, (results = { known: new Uint8Array(1 << 16), table: new Uint32Array(1 << 16) }));
    const { known, table } = results;
    const decode = a.decode;
    // The result bits of a value, stored as the general path stores it (an f32 through a Float32Array).
    const encode = d.encode ?? f32Bits;
    const [from, to] = [a.bits, d.bits];
    return () => {
      for (let r = 0; r < rows; r++)
        for (let c = 0, i = a.base + r * a.row, j = d.base + r * d.row; c < cols; c++, i += a.col, j += d.col) {
          const x = from[i];
          if (known[x] === 0) {
            table[x] = nan(x) ?? encode(element(decode[x]) as number);
            known[x] = 1;
          }
          to[j] = table[x];
        }
    };
  }
  const [from, fromBits, toBits] = [a.values!, a.bits, d.bits];
  // f32 -> f32 (an integral rounding) stores values; f32 -> a 16-bit float, their encoding.
  const to = d.values;
  const encode = d.encode;
  if (bf16 && !to && d.bits.BYTES_PER_ELEMENT === 2) {
    return () => {
      for (let r = 0; r < rows; r++)
        for (let c = 0, i = a.base + r * a.row, j = d.base + r * d.row; c < cols; c++, i += a.col, j += d.col) {
          const bits = f32ToBf16Bits(fromBits[i], bf16);
          toBits[j] = bits >= 0 ? bits : encode!(element(from[i]) as number);
        }
    };
  }
  return () => {
    for (let r = 0; r < rows; r++)
      for (let c = 0, i = a.base + r * a.row, j = d.base + r * d.row; c < cols; c++, i += a.col, j += d.col) {
        const x = from[i];
        const bits = x !== x ? nan(fromBits[i]) : undefined;
        if (bits !== undefined) toBits[j] = bits;
        else if (to) to[j] = element(x) as number;
        else toBits[j] = encode!(element(x) as number);
      }
  };
}

/**
 * A float tile's lanes as bits (Uint32 for f32, the Uint16 pattern for 16-bit floats), with the f32 values or the
 * 16-bit decode table and encoder.
 */
interface BitLanes extends Lanes<unknown> {
  bits: Uint32Array | Uint16Array;
  values?: Float32Array;
  decode?: Float32Array;
  encode?: (v: number) => number;
}

function bitLanes(tile: Tile, rows: number, cols: number): BitLanes | undefined {
  const single = f32Lanes([tile], rows, cols);
  if (single) {
    const [l] = single;
    return { ...l, values: l.data, bits: new Uint32Array(l.data.buffer, l.data.byteOffset, l.data.length) };
  }
  const half = halfLanes([tile], rows, cols);
  if (!half) return undefined;
  const [l] = half.lanes;
  return { ...l, bits: l.data, decode: half.decode, encode: half.encode };
}

/**
 * TCVT to and from A5's low-precision formats under npu: pto-isa's npu/a5/TCvt.hpp under emitc, PTOAS's TileLang
 * templates (lib/TileOps/a5/tcvt.py) under vpto. Neither reads satmode for these pairs. From fp8, hif8 (to f32) and
 * fp4 (to bf16) the vcvt is exact. To them (see lowPrecisionRounding for the modes):
 * - a packed fp4 byte holds elements 2j (low nibble) and 2j + 1 (high nibble) of its row; emitc's castBf16toFp4 first
 *   zeroes the dst's valid rows whole (their padding columns too), vpto's template writes the valid bytes only;
 * - a result the NPU's documentation leaves open (an fp4 overflow, NaN or infinity; a NaN or overflow without
 *   saturation; an inexact hif8 denormal) traps.
 * cpu-sim (pto-isa cpu/TCvt.hpp) is not modelled for these formats.
 */
function convertLowPrecision(ctx: InstructionContext, dst: Tile, src: Tile, mode: CastMode): void {
  const [from, to] = [src.type.dtype, dst.type.dtype];
  const pair = `${elemTypeName(from)} to ${elemTypeName(to)}`;
  const source = lowPrecisionFormat(from);
  const target = lowPrecisionFormat(to);
  if (ctx.numerics === 'cpu-sim' || (!source && !target))
    ctx.trap(`converting ${pair} ${ctx.numerics === 'cpu-sim' ? 'under cpu-sim ' : ''}is not implemented yet`);
  if (source) {
    const packed = isPackedFp4(from);
    for (let r = 0; r < dst.vRow; r++)
      for (let c = 0; c < dst.vCol; c++) {
        const code = packed ? ((src.get(r, c >> 1) as number) >> ((c & 1) * 4)) & 0xf : (src.get(r, c) as number);
        dst.set(r, c, source.decode(code));
      }
    return;
  }
  const [rounding, outOfRange] = lowPrecisionRounding(ctx, to, mode);
  const encode = (x: number): number => {
    const code = encodeLowPrecision(target!, x, rounding, outOfRange);
    if (code !== undefined) return code;
    const why = Number.isNaN(x) ? 'a NaN' : !Number.isFinite(x) ? 'an infinity' : Math.abs(x) > target!.max ? `beyond +-${target!.max}` : 'an inexact denormal';
    return ctx.trap(`converting ${pair}: the NPU's result for ${x} (${why}) is not documented`);
  };
  for (let r = 0; r < dst.vRow; r++) {
    if (!isPackedFp4(to)) {
      for (let c = 0; c < dst.vCol; c++) dst.set(r, c, encode(src.get(r, c) as number));
      continue;
    }
    for (let j = 0; j < dst.vCol; j++) dst.set(r, j, encode(src.get(r, 2 * j) as number) | (encode(src.get(r, 2 * j + 1) as number) << 4));
    if (ctx.backend !== 'vpto') for (let j = dst.vCol; j < dst.type.cols; j++) dst.set(r, j, 0);
  }
}

/**
 * The rounding and out-of-range handling of a conversion to a low-precision format:
 * - hif8 (from f32 or f16): round half away from zero whatever rmode, without saturation (both back ends' vcvt:
 *   pto-isa's ROUND_A with RS_DISABLE, the templates' rnd=A, NOSAT);
 * - fp8 from f32: emitc rounds to nearest even whatever rmode without saturation (pto-isa's cast32to8: ROUND_R,
 *   RS_DISABLE); vpto rounds per rmode with saturation (the template's rnd = rmode, #sat), and its vcvt takes the
 *   modes R, A, H and Z only (PTOAS's VPTO verifier), so FLOOR, CEIL and ODD trap;
 * - fp4 from bf16: per rmode, with no saturation control (the vcvt takes none); ODD is pto-isa's default (nearest
 *   even) under emitc, and vcvt has no O mode for it under vpto (R, A, F, Z, C): a trap.
 * NONE is nearest even, as in pto-isa's dispatch and the templates.
 */
function lowPrecisionRounding(ctx: InstructionContext, to: ElemType, mode: CastMode): [RoundingMode, OutOfRange] {
  if (to === '!pto.hif8') return ['round', 'keep'];
  const vpto = ctx.backend === 'vpto';
  const named: RoundingMode = mode === 'none' ? 'rint' : mode;
  const refuse = (modes: string): never =>
    ctx.trap(`rmode ${String(ctx.attribute('rmode'))} to ${elemTypeName(to)} under vpto: PTOAS's A5 vcvt takes the round modes ${modes} for it`);
  if (to === 'f8E4M3FN' || to === 'f8E5M2') {
    if (!vpto) return ['rint', 'keep'];
    if (named !== 'rint' && named !== 'round' && named !== 'trunc') refuse('R, A, H and Z');
    return [named, 'saturate'];
  }
  if (named !== 'odd') return [named, 'undocumented'];
  return vpto ? refuse('R, A, F, Z and C') : ['rint', 'undocumented'];
}

export const module: SemanticsModule = { semantics: { convert } };
