import { ElemType, isFloat } from '../types/type';
import { Scalar, codec } from './elements';
import { FORMATS, FloatFormat, RoundingMode, roundHalfAway, roundHalfEven, roundToFormat, roundToIntegral } from './rounding';

/**
 * Element conversions of TCVT between the PTO-AS element types, under both numerics profiles
 * (docs/numerics.md, "tcvt"). Values are numbers, 64-bit integers bigints; a converter returns the
 * destination element, or traps through `fail` where the hardware's result is not documented.
 */
export type Fail = (message: string) => never;
export type Converter = (value: Scalar) => Scalar;

/** TCVT's rmode as pto::RoundMode names it; `none` is CAST_NONE. */
export type CastMode = RoundingMode | 'none';

/** PTOAS's #pto<round_mode X> spellings: RINT and CAST_RINT both lower to pto::RoundMode::CAST_RINT. */
export function castMode(ptoasName: string): CastMode {
  const modes: Record<string, CastMode> = {
    NONE: 'none',
    RINT: 'rint',
    CAST_RINT: 'rint',
    ROUND: 'round',
    FLOOR: 'floor',
    CEIL: 'ceil',
    TRUNC: 'trunc',
    ODD: 'odd',
  };
  const mode = modes[ptoasName];
  if (!mode) throw new Error(`unknown round mode ${ptoasName}`);
  return mode;
}

const isFloatType = (t: ElemType): boolean => isFloat(t);

/** The range of an integer element type, as bigints. */
export function integerRange(t: ElemType): [bigint, bigint] {
  const bits = BigInt(codec(t).size * 8);
  return t.startsWith('u') ? [0n, (1n << bits) - 1n] : [-(1n << (bits - 1n)), (1n << (bits - 1n)) - 1n];
}

/** Wraps an integer (two's complement) into an integer element type. */
function wrapInteger(v: bigint, t: ElemType): Scalar {
  const bits = codec(t).size * 8;
  const wrapped = t.startsWith('u') ? BigInt.asUintN(bits, v) : BigInt.asIntN(bits, v);
  return bits === 64 ? wrapped : Number(wrapped);
}

// ---- cpu-sim: pto-isa cpu/TCvt.hpp built with clang for x86-64 -------------------------------------------------

/**
 * x86-64's `static_cast<T>(double)` for an integer T in that build: cvttsd2si truncates into a 32-bit register
 * (64-bit for u8 via int64_t, u32 and i64), whose NaN and out-of-range result is the register's minimum; the
 * element keeps the register's low bits.
 */
export function x86TruncateToInteger(v: number, t: ElemType): Scalar {
  const wide = t === 'u8' || t === 'u32' || t === 'i64' || t === 'u64';
  const limit = wide ? 2 ** 63 : 2 ** 31;
  const truncated = Math.trunc(v);
  const register = Number.isFinite(truncated) && truncated >= -limit && truncated < limit ? BigInt(truncated) : BigInt(-limit);
  return wrapInteger(register, t);
}

/** The simulator's applyRoundingToIntegral: CAST_ODD there is nearest with ties to odd, CAST_NONE no rounding. */
function simulatorRounding(v: number, mode: CastMode): number {
  switch (mode) {
    case 'none':
      return v;
    case 'rint':
      return roundHalfEven(v);
    case 'round':
      return roundHalfAway(v);
    case 'floor':
    case 'ceil':
    case 'trunc':
      return roundToIntegral(v, mode);
    case 'odd': {
      const f = Math.floor(v);
      const fraction = v - f;
      if (fraction > 0.5) return f + 1;
      if (fraction < 0.5) return f;
      return Math.abs(f) % 2 === 1 ? f : f + 1; // a tie, or NaN/inf, whose f + 1 is itself
    }
  }
}

/** `static_cast<T>(double)` for any element type T of the simulator (floats round to nearest even from the double). */
function simulatorCastFromDouble(v: number, t: ElemType): Scalar {
  return isFloatType(t) ? codec(t).round(v) : x86TruncateToInteger(v, t);
}

const toDouble = (v: Scalar): number => (typeof v === 'bigint' ? Number(v) : v);

/** The simulator's SafeLimits<T>: f16 is +-65504, the others std::numeric_limits (lowest, max) as doubles. */
function simulatorLimits(t: ElemType): [number, number] {
  if (isFloatType(t)) {
    const max = t === 'f16' ? 65504 : t === 'bf16' ? FORMATS.bf16.max : FORMATS.f32.max;
    return [-max, max];
  }
  const [lo, hi] = integerRange(t);
  return [Number(lo), Number(hi)];
}

/**
 * SaturationMode::ON in the simulator: the source value is clamped in double to the range both types share,
 * `std::max(lo, std::min(hi, v))` (so NaN becomes hi), and converted back to the source type before the cast.
 */
function simulatorSaturate(src: ElemType, dst: ElemType): Converter {
  const [sLo, sHi] = simulatorLimits(src);
  const [dLo, dHi] = simulatorLimits(dst);
  const lo = Math.max(sLo, dLo);
  const hi = Math.min(sHi, dHi);
  return (value) => {
    const v = toDouble(value);
    const upper = v < hi ? v : hi; // std::min(hi, v) = (v < hi) ? v : hi
    const clamped = lo < upper ? upper : lo; // std::max(lo, x) = (lo < x) ? x : lo
    return simulatorCastFromDouble(clamped, src);
  };
}

/** The simulator's convert_value<D, S>: the rounding mode only matters from float to integer. */
function simulatorConvert(src: ElemType, dst: ElemType, mode: CastMode): Converter {
  if (isFloatType(src) && !isFloatType(dst)) return (value) => x86TruncateToInteger(simulatorRounding(value as number, mode), dst);
  // Integer to float goes through double (an i64 rounds there first); float to float is a plain cast.
  if (isFloatType(dst)) return (value) => codec(dst).round(toDouble(value));
  return (value) => wrapInteger(BigInt(value), dst);
}

export function cpuSimConverter(src: ElemType, dst: ElemType, mode: CastMode, saturate: boolean): Converter {
  const convert = simulatorConvert(src, dst, mode);
  if (!saturate) return convert;
  const clamp = simulatorSaturate(src, dst);
  return (value) => convert(clamp(value));
}

// ---- npu: pto-isa npu/a2a3 and npu/a5 TCvt.hpp, the vector unit's vconv/vcvt ------------------------------------

/** The pairs whose 3-argument TCVT runs without saturation on the NPU (a2a3 kIsNarrowingCvt, a5 TCVT_IMPL). */
const NARROWING = new Set(['f16->u8', 'f16->i8', 'f32->i16', 'f16->i16', 'i64->i32', 'i32->i16']);

/** Whether the NPU saturates: the explicit attribute, else the pair's default. */
export function npuSaturates(src: ElemType, dst: ElemType, attribute: boolean | undefined): boolean {
  return attribute ?? !NARROWING.has(`${src}->${dst}`);
}

/**
 * The mode the NPU applies: CAST_NONE and an unsupported CAST_ODD fall back to the pair's default, truncation
 * from float to integer and round-to-nearest-even otherwise; round-to-odd exists for f32 -> f16 only.
 */
export function npuRounding(src: ElemType, dst: ElemType, mode: CastMode): RoundingMode {
  const fallback: RoundingMode = isFloatType(src) && !isFloatType(dst) ? 'trunc' : 'rint';
  // A2/A3's only i32 -> f16 path is the dequantising vconv_deq (scale 1.0), which takes no rounding mode.
  if (mode === 'none' || (src === 'i32' && dst === 'f16')) return fallback;
  if (mode === 'odd' && !(src === 'f32' && dst === 'f16')) return fallback;
  return mode;
}

const PRECISION: Record<string, number> = { f16: 11, bf16: 8, f32: 24 };

/** An integer rounded to a float format in the mode, exactly (i64 values beyond 2^53 included); overflow as roundToFormat. */
export function roundIntegerToFormat(v: bigint, format: FloatFormat, mode: RoundingMode): number {
  const negative = v < 0n;
  const magnitude = negative ? -v : v;
  const bits = magnitude.toString(2).length;
  const shift = Math.max(0, bits - PRECISION[format.name]);
  let kept = magnitude >> BigInt(shift);
  const rest = magnitude - (kept << BigInt(shift));
  if (rest !== 0n) {
    const half = 1n << BigInt(shift - 1);
    const up =
      mode === 'rint'
        ? rest > half || (rest === half && (kept & 1n) === 1n)
        : mode === 'round'
          ? rest >= half
          : mode === 'floor'
            ? negative
            : mode === 'ceil'
              ? !negative
              : mode === 'odd'
                ? (kept & 1n) === 0n
                : false;
    if (up) kept += 1n;
  }
  const rounded = Number(kept << BigInt(shift));
  if (rounded > format.max) {
    // Past the largest finite value: the modes that round toward zero for this sign stop at it.
    const towardZero = mode === 'trunc' || mode === 'odd' || (mode === 'floor' && !negative) || (mode === 'ceil' && negative);
    return (negative ? -1 : 1) * (towardZero ? format.max : Infinity);
  }
  return negative ? -rounded : rounded;
}

/** Saturation of a float result: +-inf and overflow to +-max finite, NaN to 0 (the vector unit's saturation mode). */
function saturateFloat(v: number, max: number): number {
  if (Number.isNaN(v)) return 0;
  return Math.max(-max, Math.min(max, v));
}

function clampInteger(v: bigint, t: ElemType): bigint {
  const [lo, hi] = integerRange(t);
  return v < lo ? lo : v > hi ? hi : v;
}

/** float -> integer on the NPU; `describe` names the pair for trap messages. */
function npuFloatToInteger(dst: ElemType, mode: RoundingMode, saturate: boolean, fail: Fail, describe: string): Converter {
  const [lo, hi] = integerRange(dst);
  const [lo32, hi32] = integerRange('i32');
  return (value) => {
    const r = roundToIntegral(value as number, mode);
    if (saturate) return wrapInteger(Number.isNaN(r) ? 0n : r <= Number(lo) ? lo : r >= Number(hi) ? hi : BigInt(r), dst);
    if (dst === 'i16' || dst === 'i8' || dst === 'u8') {
      // The non-saturating narrowing path: convert to i32 with saturation, then keep the low bits.
      const wide = Number.isNaN(r) ? 0n : r <= Number(lo32) ? lo32 : r >= Number(hi32) ? hi32 : BigInt(r);
      return wrapInteger(wide, dst);
    }
    const exact = Number.isFinite(r) ? BigInt(r) : undefined;
    if (exact === undefined || exact < lo || exact > hi) fail(`${describe} without saturation: the NPU result for ${value} is not documented`);
    return wrapInteger(exact, dst);
  };
}

export function npuConverter(src: ElemType, dst: ElemType, castMode: CastMode, saturate: boolean, fail: Fail): Converter {
  const mode = npuRounding(src, dst, castMode);
  const describe = `pto.tcvt ${src} -> ${dst}`;
  if (isFloatType(src) && !isFloatType(dst)) return npuFloatToInteger(dst, mode, saturate, fail, describe);
  if (isFloatType(dst)) {
    const format = FORMATS[dst as FloatFormat['name']];
    // Saturation narrows only: conversions into f32 run unsaturated (a5 TCvt.hpp's CTRL notes).
    const finish = saturate && dst !== 'f32' ? (v: number) => saturateFloat(v, format.max) : (v: number) => v;
    if (!isFloatType(src)) return (value) => finish(roundIntegerToFormat(BigInt(value), format, mode));
    // f32 -> f32 rounds to an integral value (vconv_f322f32*, vtrc); the others round to the narrower format.
    if (src === 'f32' && dst === 'f32') return (value) => roundToIntegral(value as number, mode);
    return (value) => finish(roundToFormat(value as number, format, mode));
  }
  return (value) => wrapInteger(saturate ? clampInteger(BigInt(value), dst) : BigInt(value), dst);
}

// ---- A5 pairs no implementation defines: what the value alone decides --------------------------------------------

const MODE_NAMES: Record<CastMode, string> = { none: 'NONE', rint: 'RINT', round: 'ROUND', floor: 'FLOOR', ceil: 'CEIL', trunc: 'TRUNC', odd: 'ODD' };

/**
 * A TCVT pair PTOAS accepts (it takes any two ordinary element types) that neither pto-isa's A5 TCvt (no castData
 * for it: the C++ does not compile) nor PTOAS's A5 templates implement, converted where no implementation is
 * needed to say the result:
 * - a value the destination holds exactly is kept, whatever rmode (integer widenings are exact throughout);
 * - another is rounded as IEEE 754 rounds in RINT, ROUND (ties away), FLOOR, CEIL and TRUNC; NONE (pto-isa's
 *   per-pair default) and ODD (a per-pair fallback there) say nothing for a pair it lacks: a trap;
 * - out of range, saturation clamps to the destination's range (floats: +-max finite, so +-inf too); without it a
 *   float result overflows as IEEE 754 says and an integer one traps (no wrapping rule is documented);
 * - a NaN traps (the NPU's result bits are not documented), and so does a same-type float pair (f16 -> f16,
 *   bf16 -> bf16): pto-isa's f32 -> f32 rounds to an integral value, so such a conversion need not be a copy.
 */
export function valueConverter(src: ElemType, dst: ElemType, castMode: CastMode, saturate: boolean, fail: Fail): Converter {
  const describe = `pto.tcvt ${src} -> ${dst}`;
  if (src === dst && isFloatType(src)) {
    fail(
      `${describe} is not implemented yet: pto-isa has none, and its f32 -> f32 rounds to an integral value, so what a same-type conversion gives is not documented`,
    );
  }
  const mode: RoundingMode | undefined = castMode === 'none' || castMode === 'odd' ? undefined : castMode;
  const inexact = (value: Scalar): never =>
    fail(`${describe} with rmode ${MODE_NAMES[castMode]} is not implemented yet: pto-isa has no such conversion, so how it rounds ${value} is not documented`);
  const nan = (): never => fail(`${describe}: the NPU's result for NaN is not documented (pto-isa has no such conversion)`);
  if (isFloatType(dst)) {
    const format = FORMATS[dst as FloatFormat['name']];
    const round = isFloatType(src)
      ? (v: Scalar, m: RoundingMode) => roundToFormat(v as number, format, m)
      : (v: Scalar, m: RoundingMode) => roundIntegerToFormat(BigInt(v), format, m);
    return (value) => {
      if (typeof value === 'number' && Number.isNaN(value)) nan();
      const down = round(value, 'floor');
      const r = down === round(value, 'ceil') ? down : mode ? round(value, mode) : inexact(value);
      return saturate && Math.abs(r) > format.max ? Math.sign(r) * format.max : r;
    };
  }
  const [lo, hi] = integerRange(dst);
  return (value) => {
    let v: bigint;
    if (typeof value === 'bigint' || !isFloatType(src)) v = BigInt(value);
    else if (Number.isNaN(value)) return nan();
    else if (!Number.isFinite(value)) v = value > 0 ? hi + 1n : lo - 1n;
    else v = BigInt(Math.floor(value) === Math.ceil(value) ? value : mode ? roundToIntegral(value, mode) : inexact(value));
    if (v >= lo && v <= hi) return wrapInteger(v, dst);
    if (!saturate) fail(`${describe} without saturation: the NPU's result for ${value} is not documented (pto-isa has no such conversion)`);
    return wrapInteger(v < lo ? lo : hi, dst);
  };
}
