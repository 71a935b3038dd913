import { ElemType, isFloat, isStoredFormat } from '../../types/type';
import { codec } from '../../numerics/elements';
import { CastMode, npuConverter } from '../../numerics/conversion';
import { LowPrecisionFormat, OutOfRange, encodeLowPrecision, isPackedFp4, lowPrecisionFormat } from '../../numerics/low-precision';
import { RoundingMode, roundToIntegral } from '../../numerics/rounding';
import { Fail, Mask, VREG_BYTES, VReg, maskBit, newVReg, view } from './core';

/**
 * Conversions (docs/isa/micro-isa/09-conversion-ops.md): vcvt and vtrc. The element conversions are those of
 * src/numerics (npuConverter for the ordinary types, low-precision.ts for fp8, hif8 and fp4), never a second rounding.
 */

/** vcvt's and vtrc's round modes: R nearest-even, A nearest with ties away (CANN's ROUND_A), F floor, C ceil, Z trunc, O odd. */
const ROUND: Record<string, RoundingMode> = { R: 'rint', A: 'round', F: 'floor', C: 'ceil', Z: 'trunc', O: 'odd' };

export function vcvtRounding(rnd: string, fail: Fail): RoundingMode {
  return ROUND[rnd] ?? fail(`round mode ${rnd} is not implemented yet`);
}

export interface VcvtAttributes {
  rnd?: string;
  sat?: string;
  part?: string;
}

/**
 * The unit a conversion maps: one element, except for the packed fp4 types, whose byte (two codes) is the
 * conversion of two bf16 lanes — the vcvt-low-precision goldens place the byte of bf16 lanes 2j, 2j + 1 at byte
 * 4j + k under part Pk, so bf16 -> fp4 is a 4-to-1 narrowing of 4-byte units.
 */
function unitBytes(elem: ElemType, other: ElemType): number {
  return isPackedFp4(elem) ? 1 : isPackedFp4(other) ? 2 * codec(elem).size : codec(elem).size;
}

export type UnitConvert = (src: DataView, at: number, dst: DataView, to: number) => void;

/** How a low-precision result out of range is handled: SAT saturates (NaN to 0), NOSAT keeps a format's single NaN/infinity code. */
function lowPrecisionEncoder(format: LowPrecisionFormat, mode: RoundingMode, outOfRange: OutOfRange, fail: Fail): (x: number) => number {
  return (x) => encodeLowPrecision(format, x, mode, outOfRange) ?? fail(`vcvt to ${format.name}: the result for ${x} is not documented`);
}

/** One unit's conversion (an element, or a packed fp4 byte and its two bf16 lanes): vcvt places units by part, VMI's vcvt lane by lane. */
export function unitConverter(from: ElemType, to: ElemType, attributes: VcvtAttributes, fail: Fail): UnitConvert {
  const { rnd, sat } = attributes;
  if (sat !== undefined && sat !== 'SAT' && sat !== 'NOSAT') return fail(`vcvt sat ${sat} is not defined`);
  const saturate = sat === 'SAT';
  const pair = `vcvt ${from} -> ${to}`;
  const source = lowPrecisionFormat(from);
  const target = lowPrecisionFormat(to);
  if (source) {
    // Decoding fp8, hif8 and fp4 is exact in every float destination.
    if (!isFloat(to)) return fail(`${pair} is not implemented yet`);
    const out = codec(to);
    if (isPackedFp4(from))
      return (s, at, d, o) => {
        const byte = s.getUint8(at);
        out.write(d, o, source.decode(byte & 0xf));
        out.write(d, o + out.size, source.decode(byte >> 4));
      };
    return (s, at, d, o) => out.write(d, o, source.decode(s.getUint8(at)));
  }
  if (target) {
    if (!isFloat(from)) return fail(`${pair} is not implemented yet`);
    if (rnd === undefined) return fail(`${pair} needs a round mode`);
    const encode = lowPrecisionEncoder(target, vcvtRounding(rnd, fail), saturate ? 'saturate' : isPackedFp4(to) ? 'undocumented' : 'keep', fail);
    const input = codec(from);
    if (isPackedFp4(to)) return (s, at, d, o) => d.setUint8(o, encode(input.read(s, at) as number) | (encode(input.read(s, at + input.size) as number) << 4));
    return (s, at, d, o) => d.setUint8(o, encode(input.read(s, at) as number));
  }
  if (isStoredFormat(from) || isStoredFormat(to)) return fail(`${pair} is not implemented yet`);
  // Round to odd exists for f32 -> f16 only (npuRounding would silently round another pair to nearest).
  if (rnd === 'O' && !(from === 'f32' && to === 'f16')) return fail(`${pair} with round mode O is not implemented yet`);
  const mode: CastMode = rnd === undefined ? 'none' : vcvtRounding(rnd, fail);
  const element = npuConverter(from, to, mode, saturate, (message) => fail(message.replace('pto.tcvt', 'vcvt')));
  const [input, output] = [codec(from), codec(to)];
  return (s, at, d, o) => output.write(d, o, element(input.read(s, at)));
}

const PARTS: Record<number, string[]> = { 2: ['EVEN', 'ODD'], 4: ['P0', 'P1', 'P2', 'P3'] };

/**
 * vcvt: each active unit of `a` converted from `from` to `to`. Width-changing conversions place units by `part`:
 * - narrowing by r (2: EVEN/ODD, 4: P0-P3): source unit i goes to destination unit r*i + k, the other units zero
 *   (so that vor merges the parts: the vcvt-f32-special and vcvt-u32-to-u8-part-p0123 goldens interleave them);
 * - widening by r: destination unit i is source unit r*i + k (vcvt-f16-to-f32 after an UNPK_B16 load reads the
 *   even halves; vcvt-i64-to-f32 puts lane i in f32 lane 2i, which PK_B64 stores).
 * A unit is active when the mask bit of its source's first byte is on (the mask has the source's granularity);
 * inactive destination units are zero. Saturation: sat = "SAT" (a float: NaN to 0, overflow and +-inf to +-max;
 * an integer: clamped), "NOSAT" or absent (a pair without sat cannot overflow, except to fp4: a trap). rnd absent:
 * the pair is exact.
 */
export function vcvt(from: ElemType, to: ElemType, a: VReg, mask: Mask, attributes: VcvtAttributes, fail: Fail): VReg {
  const convert = unitConverter(from, to, attributes, fail);
  const [su, du] = [unitBytes(from, to), unitBytes(to, from)];
  const ratio = Math.max(su, du) / Math.min(su, du);
  const { part } = attributes;
  let k = 0;
  if (ratio === 1) {
    if (part !== undefined) return fail(`vcvt ${from} -> ${to} takes no part (got ${part})`);
  } else {
    const parts = PARTS[ratio] ?? fail(`vcvt ${from} -> ${to} is not implemented yet`);
    k = part === undefined ? -1 : parts.indexOf(part);
    if (k < 0) return fail(`vcvt ${from} -> ${to} needs part ${parts.join('/')}${part === undefined ? '' : `, got ${part}`}`);
  }
  const r = newVReg();
  const [s, d] = [view(a), view(r)];
  const units = VREG_BYTES / Math.max(su, du);
  for (let i = 0; i < units; i++) {
    const [si, di] = su > du ? [i, ratio * i + k] : su < du ? [ratio * i + k, i] : [i, i];
    if (maskBit(mask, si * su)) convert(s, si * su, d, di * du);
  }
  return r;
}

/**
 * vtrc: each active lane rounded to an integral value in its own float type (f16, bf16, f32), by R, A, F, C or Z;
 * an integral value of an f16/bf16 lane is exact in it. -0 and the signs of rounded-to-zero lanes are kept
 * (np.trunc in the vtrc goldens), NaN and +-inf pass.
 */
export function vtrc(elem: ElemType, a: VReg, mask: Mask, rnd: string, fail: Fail): VReg {
  if (elem !== 'f16' && elem !== 'bf16' && elem !== 'f32') return fail(`vtrc of ${elem} lanes is not defined`);
  if (rnd === 'O') return fail('vtrc takes the round modes R, A, F, C and Z');
  const mode = vcvtRounding(rnd, fail);
  const c = codec(elem);
  const [s, r] = [view(a), newVReg()];
  const d = view(r);
  for (let i = 0; i < VREG_BYTES / c.size; i++) if (maskBit(mask, i * c.size)) c.write(d, i * c.size, roundToIntegral(c.read(s, i * c.size) as number, mode));
  return r;
}
