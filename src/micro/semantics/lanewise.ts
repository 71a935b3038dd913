import { ElemType, isFloat } from '../../types/type';
import { BinaryOperationName, binaryOperation, relu } from '../../numerics/arithmetic';
import { Scalar, codec } from '../../numerics/elements';
import { Fail, Mask, VReg, laneActive, mapLanes, maskFromLanes, view } from './core';

/**
 * Lane-wise unary, binary and vector-scalar ops (docs/isa/micro-isa/06, 07, 08). Every result lane is one element
 * operation of src/numerics (npu profile: one IEEE rounding into the element type, two's complement wrap for
 * integers); inactive lanes are zero (core.ts mapLanes).
 *
 * Element types: the ElemType of the register (si32/i32 -> 'i32', ui32 -> 'u32': VPTO's signless integers compute
 * as signed, as the goldens' numpy int types do).
 */

/** Binary ops and their element operation in src/numerics. */
const BINARY: Record<string, BinaryOperationName> = {
  vadd: 'add',
  vsub: 'sub',
  vmul: 'mul',
  vdiv: 'div',
  vmax: 'max',
  vmin: 'min',
  vand: 'and',
  vor: 'or',
  vxor: 'xor',
  vshl: 'shl',
  vshr: 'shr',
};

/** Vector-scalar ops: the binary op with the scalar as every lane's right operand. */
const VEC_SCALAR: Record<string, BinaryOperationName> = {
  vadds: 'add',
  vmuls: 'mul',
  vmaxs: 'max',
  vmins: 'min',
  vshls: 'shl',
  vshrs: 'shr',
};

export const BINARY_OPS = Object.keys(BINARY);
export const VEC_SCALAR_OPS = Object.keys(VEC_SCALAR);

/** The signed integer type of an element's width: vshl/vshr read their counts as siW (07-binary-vector-ops.md). */
const SIGNED_OF_SIZE: Record<number, ElemType> = { 1: 'i8', 2: 'i16', 4: 'i32', 8: 'i64' };

/**
 * The element operation of `op`. vdiv of floats: a zero denominator gives NaN, not IEEE's infinity — the vdiv
 * golden's f32_exceptional variant writes NaN wherever the denominator is +-0 (1 / -0, 0 / 0, inf / 0 alike); the
 * quiet NaN is 0x7fc00000. Integer vdiv (i16, i32) truncates, MIN / -1 wraps to MIN, and a zero divisor traps.
 */
function elementOperation(op: BinaryOperationName, elem: ElemType, fail: Fail): (a: Scalar, b: Scalar) => Scalar {
  if ((op === 'and' || op === 'or' || op === 'xor' || op === 'shl' || op === 'shr') && isFloat(elem)) return fail(`${op} of ${elem} lanes is not defined`);
  const f = binaryOperation(op, elem, 'npu', fail);
  if (op === 'div' && isFloat(elem)) return (a, b) => (b === 0 ? NaN : f(a, b));
  return f;
}

/** The unsigned integer type of a float lane's width: its bits, as vand/vor/vxor read them. */
const BITS_OF_SIZE: Record<number, ElemType> = { 2: 'u16', 4: 'u32' };

/**
 * vadd, vsub, vmul, vdiv, vmax, vmin, vand, vor, vxor, vshl, vshr. vand/vor/vxor of float lanes act on the lanes'
 * bits (NaN payloads included): the vor golden's f16 variant ORs random 16-bit patterns, and vcvt's EVEN/ODD
 * results are merged with an f16 vor (09-conversion-ops.md).
 */
export function binary(name: string, elem: ElemType, a: VReg, b: VReg, mask: Mask, fail: Fail): VReg {
  const op = BINARY[name] ?? fail(`${name} is not a binary vector op`);
  if ((op === 'and' || op === 'or' || op === 'xor') && isFloat(elem) && BITS_OF_SIZE[codec(elem).size])
    return binary(name, BITS_OF_SIZE[codec(elem).size], a, b, mask, fail);
  const f = elementOperation(op, elem, fail);
  const c = codec(elem);
  const rhs = op === 'shl' || op === 'shr' ? codec(SIGNED_OF_SIZE[c.size]) : c;
  const [da, db] = [view(a), view(b)];
  return mapLanes(elem, mask, (i) => f(c.read(da, i * c.size), rhs.read(db, i * c.size)));
}

/** vadds, vmuls, vmaxs, vmins, vshls, vshrs: `scalar` is the op's scalar operand (a number, a bigint for 64-bit). */
export function vecScalar(name: string, elem: ElemType, a: VReg, scalar: Scalar, mask: Mask, fail: Fail): VReg {
  const op = VEC_SCALAR[name] ?? fail(`${name} is not a vector-scalar op`);
  const f = elementOperation(op, elem, fail);
  const c = codec(elem);
  // The scalar is an operand of the element type (a float rounded to it, as the scalar register holds it).
  const s = op === 'shl' || op === 'shr' ? scalar : c.round(scalar);
  const da = view(a);
  return mapLanes(elem, mask, (i) => f(c.read(da, i * c.size), s));
}

/**
 * vlrelu: x >= 0 ? x : alpha * x (f16, f32), the product rounded once into the element type.
 * vprelu is the same with a per-lane alpha (13-dsa-sfu-ops.md).
 */
export function vlrelu(elem: ElemType, a: VReg, alpha: Scalar, mask: Mask, fail: Fail): VReg {
  const mul = elementOperation('mul', elem, fail);
  const c = codec(elem);
  const s = c.round(alpha);
  const da = view(a);
  return mapLanes(elem, mask, (i) => {
    const x = c.read(da, i * c.size);
    return x >= 0 ? x : mul(x, s);
  });
}

export function vprelu(elem: ElemType, a: VReg, alpha: VReg, mask: Mask, fail: Fail): VReg {
  const mul = elementOperation('mul', elem, fail);
  const c = codec(elem);
  const [da, db] = [view(a), view(alpha)];
  return mapLanes(elem, mask, (i) => {
    const x = c.read(da, i * c.size);
    return x >= 0 ? x : mul(x, c.read(db, i * c.size));
  });
}

/**
 * Unary ops. vabs and vneg of integers wrap (not saturating: 06-unary-vector-ops.md), so |-128| is -128 in i8.
 * vexp, vln, vsqrt: the double result of Math's function rounded once into f16/f32 (the goldens compute numpy's
 * f32 functions and compare with a tolerance). vrelu keeps a NaN (the npu ReLU of src/numerics) and gives +0 for -0.
 * vnot: the bitwise complement of integer lanes.
 */
export function unary(name: string, elem: ElemType, a: VReg, mask: Mask, fail: Fail): VReg {
  const c = codec(elem);
  const float = isFloat(elem);
  const onlyFloat = (): void => {
    if (!float) fail(`${name} of ${elem} lanes is not defined`);
  };
  let f: (x: Scalar) => Scalar;
  switch (name) {
    case 'vabs':
      f = float ? (x) => Math.abs(x as number) : c.size === 8 ? (x) => c.round((x as bigint) < 0n ? -(x as bigint) : x) : (x) => c.round(Math.abs(x as number));
      break;
    case 'vneg':
      f = c.size === 8 ? (x) => c.round(-(x as bigint)) : (x) => c.round(-(x as number));
      break;
    case 'vexp':
      onlyFloat();
      f = (x) => c.round(Math.exp(x as number));
      break;
    case 'vln':
      onlyFloat();
      f = (x) => c.round(Math.log(x as number));
      break;
    case 'vsqrt':
      onlyFloat();
      f = (x) => c.round(Math.sqrt(x as number));
      break;
    case 'vrelu':
      f = (x) => relu(x, 'npu');
      break;
    case 'vnot':
      if (float) return fail(`vnot of ${elem} lanes is not defined`);
      f = c.size === 8 ? (x) => c.round(~(x as bigint)) : (x) => c.round(~(x as number));
      break;
    default:
      return fail(`${name} is not a unary vector op`);
  }
  const da = view(a);
  return mapLanes(elem, mask, (i) => f(c.read(da, i * c.size)));
}

/**
 * vaddc / vaddcs (with a carry-in mask) on 32-bit lanes: the sum's low 32 bits, and a carry-out mask with lane i
 * set when the unsigned sum overflows 32 bits. vsubc / vsubcs: the difference, and the carry set when no borrow
 * occurs (the unsigned lhs >= rhs + borrow-in); without a carry-in, vsubc borrows nothing. The unsigned reading is
 * the docs' `(uint64_t)` C for both i32 and u32 lanes. Inactive lanes give 0 and no carry.
 */
export function carry(
  name: 'vaddc' | 'vsubc' | 'vaddcs' | 'vsubcs',
  elem: ElemType,
  a: VReg,
  b: VReg,
  mask: Mask,
  fail: Fail,
  carryIn?: Mask,
): { result: VReg; carry: Mask } {
  if (elem !== 'i32' && elem !== 'u32') return fail(`${name} of ${elem} lanes is not defined (32-bit integers only)`);
  const withCarryIn = name === 'vaddcs' || name === 'vsubcs';
  if (withCarryIn && !carryIn) return fail(`${name} needs a carry-in mask`);
  const [da, db] = [view(a), view(b)];
  const c = codec(elem);
  const carries: boolean[] = [];
  const add = name === 'vaddc' || name === 'vaddcs';
  const result = mapLanes(elem, mask, (i) => {
    const x = da.getUint32(i * 4, true);
    const y = db.getUint32(i * 4, true);
    const cin = withCarryIn && laneActive(carryIn as Mask, i, 4) ? 1 : 0;
    if (add) {
      const r = x + y + cin;
      carries[i] = r > 0xffffffff;
      return c.round(r);
    }
    const borrow = withCarryIn ? 1 - cin : 0;
    carries[i] = x >= y + borrow;
    return c.round(x - y - borrow);
  });
  return { result, carry: maskFromLanes((i) => carries[i] === true, 4) };
}
