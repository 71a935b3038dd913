import { FORMATS, RoundingMode, roundToFormat, roundToIntegral } from '../../numerics/rounding';
import { roundIntegerToFormat } from '../../numerics/conversion';
import { ElemType } from '../../types/type';
import { Fail } from './core';

/**
 * The scalar operations of the SIMT level (docs/isa/micro-isa/17-simt.md): conversions, integer products, byte
 * permutes and float math, as pure functions of the values the VM holds (integers as bigint, floats as numbers
 * already of their type).
 */

type FloatName = 'f16' | 'bf16' | 'f32';
const isFloatName = (e: ElemType): e is FloatName => e === 'f16' || e === 'bf16' || e === 'f32';

/** pto.convert's rounding selectors as the numerics' modes (`h`, the target's cast-ceil slice, is not documented). */
const ROUNDING: Record<string, RoundingMode | undefined> = { r: 'rint', a: 'round', f: 'floor', c: 'ceil', z: 'trunc', o: 'odd' };

const intRange = (bits: number, signed: boolean): [bigint, bigint] =>
  signed ? [-(1n << BigInt(bits - 1)), (1n << BigInt(bits - 1)) - 1n] : [0n, (1n << BigInt(bits)) - 1n];

/**
 * pto.convert of one scalar: float -> float rounds once in the mode; integer -> float reads the integer as signed or
 * unsigned and rounds it; float -> integer rounds to an integral value in the mode and, saturating (the verifier
 * asks `sat`), clamps to the signed or unsigned range, a NaN giving 0 (as vcvt's SAT, docs/vpto.md). The integer
 * result is held as the VM holds i32/i64 values: its bits, signed.
 */
export function convertScalar(
  value: number | bigint,
  src: ElemType,
  dst: ElemType,
  rounding: string,
  saturate: boolean,
  signed: boolean,
  fail: Fail,
): number | bigint {
  const mode = ROUNDING[rounding] ?? fail(`round(${rounding}) is not implemented yet`);
  if (isFloatName(src) && isFloatName(dst)) return roundToFormat(value as number, FORMATS[dst], mode);
  if (!isFloatName(src) && isFloatName(dst)) {
    const bits = src === 'i64' ? 64 : 32;
    const v = signed ? BigInt.asIntN(bits, BigInt(value)) : BigInt.asUintN(bits, BigInt(value));
    return roundIntegerToFormat(v, FORMATS[dst], mode);
  }
  if (isFloatName(src) && (dst === 'i32' || dst === 'i64')) {
    const bits = dst === 'i64' ? 64 : 32;
    const r = roundToIntegral(value as number, mode);
    const [lo, hi] = intRange(bits, signed);
    if (!saturate) return fail(`${src} -> ${dst} without saturation is not implemented yet`);
    const n = Number.isNaN(r) ? 0n : r <= Number(lo) ? lo : r >= Number(hi) ? hi : BigInt(r);
    return BigInt.asIntN(bits, n);
  }
  return fail(`${src} -> ${dst} is not implemented yet`);
}

/** mulhi (the high half of the 2N-bit product) and mul_i32toi64 (the whole product of two i32), as N-bit values. */
export function multiplyWide(lhs: bigint, rhs: bigint, bits: number, signed: boolean, high: boolean): bigint {
  const read = (v: bigint) => (signed ? BigInt.asIntN(bits, v) : BigInt.asUintN(bits, v));
  const product = read(lhs) * read(rhs);
  return high ? BigInt.asIntN(bits, product >> BigInt(bits)) : BigInt.asIntN(bits * 2, product);
}

/**
 * prmt: byte k of the result is source byte (nibble k of the selector) & 7 of the eight bytes rhs (0-3) then lhs
 * (4-7); the simt-scalar-math-core golden reads the low three bits of each nibble.
 */
export function permuteBytes(lhs: bigint, rhs: bigint, selector: bigint): bigint {
  const source = (BigInt.asUintN(32, lhs) << 32n) | BigInt.asUintN(32, rhs);
  let out = 0n;
  for (let k = 0n; k < 4n; k++) {
    const pick = (selector >> (4n * k)) & 7n;
    out |= ((source >> (8n * pick)) & 0xffn) << (8n * k);
  }
  return BigInt.asIntN(32, out);
}

/** One rounding of a double to the float type (nearest even). */
export const roundTo = (x: number, elem: ElemType): number => (isFloatName(elem) ? roundToFormat(x, FORMATS[elem], 'rint') : Number.NaN);

/**
 * The float math ops: the exact (or correctly rounded double) result rounded once to the type. ceil, floor, rint
 * (nearest even) and round (ties away) are exact; fmin/fmax follow IEEE minNum/maxNum (a NaN operand gives the
 * other one); fma rounds the product and sum once (exact in double for f16/bf16; f32 through the TwoProduct error).
 */
export function floatMath(op: string, args: number[], elem: ElemType, fail: Fail): number {
  const [a, b, c] = args;
  const once = (x: number) => roundTo(x, elem);
  switch (op) {
    case 'absf':
      return Math.abs(a);
    case 'ceil':
      return Math.ceil(a);
    case 'floor':
      return Math.floor(a);
    case 'rint':
      return roundToIntegral(a, 'rint');
    case 'round':
      return roundToIntegral(a, 'round');
    case 'sqrt':
      return once(Math.sqrt(a));
    case 'exp':
      return once(Math.exp(a));
    case 'log':
      return once(Math.log(a));
    case 'sin':
      return once(Math.sin(a));
    case 'cos':
      return once(Math.cos(a));
    case 'pow':
      return once(Math.pow(a, b));
    case 'fmin':
      return Number.isNaN(a) ? b : Number.isNaN(b) ? a : a === b ? (Object.is(a, -0) ? a : b) : Math.min(a, b);
    case 'fmax':
      return Number.isNaN(a) ? b : Number.isNaN(b) ? a : a === b ? (Object.is(a, 0) ? a : b) : Math.max(a, b);
    case 'fma':
      return fusedMultiplyAdd(a, b, c, elem, fail);
  }
  return fail(`${op} is not implemented yet`);
}

/**
 * a * b + c rounded once: for f16/bf16 the product (at most 22 significant bits) and the sum are exact in double,
 * so one rounding to the type is the fused result; for f32 the double result can round twice, so it is used only
 * when it is exact (the product fits 48 bits and the sum does not lose bits), else the op traps.
 */
function fusedMultiplyAdd(a: number, b: number, c: number, elem: ElemType, fail: Fail): number {
  const product = a * b;
  const sum = product + c;
  if (elem !== 'f32') return roundTo(sum, elem);
  // The double sum is exact when undoing it gives both addends back (TwoSum's error is zero).
  const exact = Number.isFinite(sum) && sum - product === c && sum - c === product;
  return exact ? roundTo(sum, elem) : fail('an f32 fma whose double result is inexact is not implemented yet');
}
