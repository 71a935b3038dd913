import { ElemType, isStoredFormat } from '../types/type';
import { codec } from './elements';
import { F16_MAX } from './float16';
import { roundHalfEven } from './rounding';

/**
 * The fixpipe: the conversion an accumulator (f32 or i32, L0C) goes through on its way out to a Vec/Mat tile
 * (tmov, tmov.fp) or to global memory (tstore, tstore_fp). Optional quantisation by a 64-bit word, then
 * optional ReLU, then the destination type. The order follows the manual's FIXPIPE pages (pre_quant, then
 * pre_relu, then saturation) and both references (cpu/common.hpp quantize_element; the NPU tests' goldens).
 *
 * A quant word holds: bits 0..31 the scale as an f32, bits 32..35 the i32 -> i16 shift (minus one),
 * bits 37..45 an unsigned offset added before the 8-bit saturation, bit 46 whether the 8-bit result is
 * signed (-128..127) or unsigned (0..255).
 */

export type FixpipeProfile = 'npu' | 'cpu-sim';

/** How the quantisation parameters arrive: none (plain cast), one word for all (scalar), a word per column (vector). */
export type QuantForm = 'none' | 'scalar' | 'vector';

/** Where the conversion runs: the cpu simulator applies ReLU differently on each path. */
export type FixpipeSite = 'tmov' | 'tmov.fp' | 'tstore';

/** What a quant word converts with. */
type Mode = 'b8' | 'deq-f16' | 'f16' | 'bf16' | 'f32' | 'shift-i16';

export interface FixpipeRequest {
  from: ElemType;
  to: ElemType;
  form: QuantForm;
  relu: boolean;
  profile: FixpipeProfile;
  site: FixpipeSite;
}

/** One element through the fixpipe: the accumulator value and its quant word (0n when the form is 'none'). */
export type FixpipeConvert = (value: number, word: bigint) => number;

export interface QuantWord {
  scaleBits: number;
  offset: number;
  signed: boolean;
  shift: number;
}

export function decodeQuantWord(word: bigint): QuantWord {
  return {
    scaleBits: Number(word & 0xffffffffn),
    offset: Number((word >> 37n) & 0x1ffn),
    signed: ((word >> 46n) & 1n) === 1n,
    shift: Number((word >> 32n) & 0xfn) + 1,
  };
}

const f32Scratch = new DataView(new ArrayBuffer(4));

/** The low 32 bits as an f32 (the cpu simulator's scalar-quant scale). */
export function fullScale(bits: number): number {
  f32Scratch.setUint32(0, bits >>> 0);
  return f32Scratch.getFloat32(0);
}

/**
 * The scale the fixpipe's M1 field holds: the f32's sign, exponent and top 10 mantissa bits (bits 13..31), the
 * lower 13 bits dropped. Exponent 0 is read as a normal number (implicit 1), except that an all-zero field is 0;
 * exponent 255 is +-infinity whatever the mantissa (cpu/common.hpp extract_m1_from_quant, computed in float).
 */
export function m1Scale(bits: number): number {
  const exponent = (bits >>> 23) & 0xff;
  const mantissa = (bits >>> 13) & 0x3ff;
  if (exponent === 0 && mantissa === 0) return 0;
  const sign = bits >>> 31 ? -1 : 1;
  if (exponent === 255) return sign * Infinity;
  return sign * (1 + mantissa / 1024) * 2 ** (exponent - 127); // exact: 11 significant bits, >= 2^-137
}

/**
 * The mode the simulator's GetScalarPreQuantMode / GetVectorPreQuantMode pick (cpu/common.hpp); undefined when
 * they pick NoQuant, i.e. the simulator ignores the word for that pair.
 */
function cpuSimMode(from: ElemType, to: ElemType, form: QuantForm): Mode | undefined {
  const b8 = to === 'i8' || to === 'u8';
  if (from === 'f32') {
    if (b8) return 'b8';
    if (form === 'scalar' && to === 'f16') return 'f16';
    if (form === 'scalar' && to === 'bf16') return 'bf16';
    return undefined;
  }
  if (from !== 'i32') return undefined;
  if (b8) return 'b8';
  if (to === 'f16') return 'deq-f16';
  if (to === 'i16') return 'shift-i16';
  return undefined;
}

/** The NPU's quant modes (npu/a2a3/common.hpp, npu/a5/common.hpp and a5/TStore.hpp: which pairs exist is the verifier's business). */
function npuMode(from: ElemType, to: ElemType): Mode | undefined {
  if (to === 'i8' || to === 'u8') return 'b8';
  if (from === 'f32') return to === 'f16' ? 'f16' : to === 'bf16' ? 'bf16' : to === 'f32' ? 'f32' : undefined;
  if (from === 'i32') return to === 'f16' ? 'deq-f16' : to === 'bf16' ? 'bf16' : to === 'i16' ? 'shift-i16' : undefined;
  return undefined;
}

/** `(v > 0) ? v : 0`: the simulator's ReLU helper (NaN and -0 give +0). */
const cpuRelu = (v: number): number => (v > 0 ? v : 0);
/** `v < 0 ? 0 : v`: the simulator's relu form of TMOV, on the converted value (NaN and -0 stay). */
const cpuTmovRelu = (v: number): number => (v < 0 ? 0 : v);
/** npu: negatives and -0 give +0, NaN stays NaN (the fixpipe's rule is not documented; the vector unit's vrelu). */
const npuRelu = (v: number): number => (v < 0 || Object.is(v, -0) ? 0 : v);

/** The i32 accumulator value as the float the fixpipe scales (rounded to f32, nearest even). */
const asF32 = (v: number): number => Math.fround(v);

const clamp = (v: number, lo: number, hi: number): number => (v < lo ? lo : v > hi ? hi : v); // NaN passes, as std::clamp

/**
 * The converter for one request, or a string saying why the VM does not model it. The returned function is applied
 * element by element; the result is the destination's value (the caller's codec wraps integers, which is what the
 * x86 conversion of the simulator does for an 8-bit result outside the destination's range).
 */
export function fixpipeConverter(request: FixpipeRequest): FixpipeConvert | string {
  const { from, to, form, relu, profile } = request;
  if (form === 'none') return castConverter(request);
  const mode = profile === 'cpu-sim' ? cpuSimMode(from, to, form) : npuMode(from, to);
  // A5 quantises f32 to the 8-bit floats (hif8, e4m3, e5m2) too; their rounding is not modelled.
  if (isStoredFormat(to)) return `quantising to ${to} (an 8-bit float the fixpipe writes) is not implemented yet`;
  if (mode === undefined) {
    return profile === 'cpu-sim'
      ? `the simulator has no ${form} quant mode for ${from} -> ${to} and ignores the quant word (cpu/common.hpp)`
      : `${from} -> ${to} has no quant mode`;
  }
  if (mode === 'shift-i16' && profile === 'npu') return `the i32 -> i16 shift mode's rounding and saturation are not documented`;
  const scaleOf = (word: QuantWord) => (profile === 'cpu-sim' && form === 'scalar' ? fullScale(word.scaleBits) : m1Scale(word.scaleBits));
  const reluAfter = relu ? (profile === 'cpu-sim' ? cpuRelu : npuRelu) : (v: number) => v;
  const target = codec(to);
  return (value, raw) => {
    const word = decodeQuantWord(raw);
    const scaled = Math.fround(asF32(value) * scaleOf(word));
    switch (mode) {
      case 'b8':
        return reluAfter(profile === 'cpu-sim' ? cpuSimB8(scaled, word) : npuB8(scaled, word));
      case 'deq-f16':
        return target.round(reluAfter(clamp(scaled, -F16_MAX, F16_MAX))) as number;
      case 'f16':
        // cpu-sim keeps infinities (its saturate-inf control bit is 0); the NPU goldens clip them to the f16 range.
        return target.round(reluAfter(profile === 'cpu-sim' && !Number.isFinite(scaled) ? scaled : clamp(scaled, -F16_MAX, F16_MAX))) as number;
      case 'bf16':
      case 'f32':
        return target.round(reluAfter(scaled)) as number;
      case 'shift-i16':
        return shiftToI16(value, word, relu);
      default:
        throw new Error(`fixpipe: mode ${mode}`);
    }
  };
}

/**
 * The simulator's 8-bit quantisation (cpu/common.hpp quantize_element): nearbyint(scaled + offset) in float (ties
 * to even), clamped to the sign bit's range. NaN survives the clamp and x86 converts it to 0.
 */
function cpuSimB8(scaled: number, word: QuantWord): number {
  const rounded = roundHalfEven(Math.fround(scaled + word.offset));
  const limited = word.signed ? clamp(rounded, -128, 127) : clamp(rounded, 0, 255);
  return Number.isNaN(limited) ? 0 : limited;
}

/**
 * The NPU's 8-bit quantisation, as its tests' goldens compute it (tests/npu/{a2a3,a5}/.../tstore_acc2gm/gen_data.py
 * qf2b8_pre): the scaled value rounded (ties to even) and saturated to the 9-bit range -256..255, the offset added,
 * then saturated to the sign bit's 8-bit range. NaN is not documented: the VM gives 0.
 */
function npuB8(scaled: number, word: QuantWord): number {
  if (Number.isNaN(scaled)) return 0;
  const nine = clamp(roundHalfEven(scaled), -256, 255) + word.offset;
  return word.signed ? clamp(nine, -128, 127) : clamp(nine, 0, 255);
}

/** The simulator's i32 -> i16 shift mode: an arithmetic right shift by bits 32..35 + 1, then wrapped to i16. */
function shiftToI16(value: number, word: QuantWord, relu: boolean): number {
  const shifted = (value | 0) >> word.shift;
  const wrapped = (shifted << 16) >> 16;
  return relu ? cpuRelu(wrapped) : wrapped;
}

/**
 * No quant word: the same type is kept, f32 -> f16/bf16 is the fixpipe's cast (round to nearest even). ReLU: the
 * NPU applies it after the cast; the simulator's TMOV relu form tests the converted value (`v < 0`), its TSTORE
 * and TEXTRACT paths apply its ReLU helper to the accumulator value before the cast.
 */
function castConverter(request: FixpipeRequest): FixpipeConvert | string {
  const { from, to, relu, profile, site } = request;
  const cast = from === 'f32' && (to === 'f16' || to === 'bf16');
  if (from !== to && !cast) return `${from} -> ${to} needs a quant word`;
  const target = codec(to);
  const convert = (v: number) => (from === to ? v : (target.round(v) as number));
  if (!relu) return convert;
  if (profile === 'npu') return (v) => npuRelu(convert(v));
  if (site === 'tmov') return (v) => cpuTmovRelu(convert(v));
  return (v) => convert(cpuRelu(v));
}
