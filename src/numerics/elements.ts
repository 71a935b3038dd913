import { ElemType } from '../types/type';
import { bf16BitsToNumber, numberToBf16Bits } from './bfloat16';
import { f16BitsToNumber, numberToF16Bits } from './float16';

/**
 * Reading, writing and rounding elements of every dtype, little-endian, as the NPU stores them.
 * Values are JS numbers, except 64-bit integers, which are bigints.
 */
export type Scalar = number | bigint;

export interface ElementCodec {
  size: number;
  read(view: DataView, byteOffset: number): Scalar;
  write(view: DataView, byteOffset: number, value: Scalar): void;
  /** Rounds or wraps an exact result into this type (RNE for floats, two's complement for ints). */
  round(value: Scalar): Scalar;
  isFloat: boolean;
}

const num = (v: Scalar): number => (typeof v === 'bigint' ? Number(v) : v);
const big = (v: Scalar): bigint => (typeof v === 'bigint' ? v : BigInt(Math.trunc(v)));

function intCodec(size: 1 | 2 | 4, signed: boolean): ElementCodec {
  const bits = size * 8;
  const wrap = signed ? (v: number) => (v << (32 - bits)) >> (32 - bits) : bits === 32 ? (v: number) => v >>> 0 : (v: number) => v & ((1 << bits) - 1);
  const read =
    size === 1
      ? signed
        ? (d: DataView, o: number) => d.getInt8(o)
        : (d: DataView, o: number) => d.getUint8(o)
      : size === 2
        ? signed
          ? (d: DataView, o: number) => d.getInt16(o, true)
          : (d: DataView, o: number) => d.getUint16(o, true)
        : signed
          ? (d: DataView, o: number) => d.getInt32(o, true)
          : (d: DataView, o: number) => d.getUint32(o, true);
  const write =
    size === 1
      ? (d: DataView, o: number, v: Scalar) => d.setUint8(o, wrapNumber(v) & 0xff)
      : size === 2
        ? (d: DataView, o: number, v: Scalar) => d.setUint16(o, wrapNumber(v) & 0xffff, true)
        : (d: DataView, o: number, v: Scalar) => d.setUint32(o, wrapNumber(v) >>> 0, true);
  return { size, read, write, round: (v) => wrap(wrapNumber(v)), isFloat: false };
}

/** Exact integer results wider than 32 bits keep their low 32 bits (two's complement wrap). */
function wrapNumber(v: Scalar): number {
  if (typeof v === 'bigint') return Number(BigInt.asIntN(32, v));
  if (Number.isSafeInteger(v) && (v > 0xffffffff || v < -0x80000000)) return Number(BigInt.asIntN(32, BigInt(v)));
  return v | 0;
}

function int64Codec(signed: boolean): ElementCodec {
  const wrap = signed ? (v: bigint) => BigInt.asIntN(64, v) : (v: bigint) => BigInt.asUintN(64, v);
  return {
    size: 8,
    read: signed ? (d, o) => d.getBigInt64(o, true) : (d, o) => d.getBigUint64(o, true),
    write: (d, o, v) => d.setBigUint64(o, BigInt.asUintN(64, big(v)), true),
    round: (v) => wrap(big(v)),
    isFloat: false,
  };
}

const CODECS: Record<ElemType, ElementCodec> = {
  i1: { ...intCodec(1, false), round: (v) => (num(v) !== 0 ? 1 : 0) },
  i8: intCodec(1, true),
  u8: intCodec(1, false),
  i16: intCodec(2, true),
  u16: intCodec(2, false),
  i32: intCodec(4, true),
  u32: intCodec(4, false),
  i64: int64Codec(true),
  u64: int64Codec(false),
  index: int64Codec(true),
  f16: {
    size: 2,
    read: (d, o) => f16BitsToNumber(d.getUint16(o, true)),
    write: (d, o, v) => d.setUint16(o, numberToF16Bits(num(v)), true),
    round: (v) => f16BitsToNumber(numberToF16Bits(num(v))),
    isFloat: true,
  },
  bf16: {
    size: 2,
    read: (d, o) => bf16BitsToNumber(d.getUint16(o, true)),
    write: (d, o, v) => d.setUint16(o, numberToBf16Bits(num(v)), true),
    round: (v) => bf16BitsToNumber(numberToBf16Bits(num(v))),
    isFloat: true,
  },
  f32: {
    size: 4,
    read: (d, o) => d.getFloat32(o, true),
    write: (d, o, v) => d.setFloat32(o, num(v), true),
    round: (v) => Math.fround(num(v)),
    isFloat: true,
  },
  f64: {
    size: 8,
    read: (d, o) => d.getFloat64(o, true),
    write: (d, o, v) => d.setFloat64(o, num(v), true),
    round: (v) => num(v),
    isFloat: true,
  },
  // The low-precision formats move as their bits (an unsigned integer of their size); no op computes on them.
  f8E4M3FN: intCodec(1, false),
  f8E5M2: intCodec(1, false),
  '!pto.hif8': intCodec(1, false),
  '!pto.f8E8M0': intCodec(1, false),
  '!pto.hif8x2': intCodec(2, false),
  '!pto.f4E1M2x2': intCodec(1, false),
  '!pto.f4E2M1x2': intCodec(1, false),
  '!pto.bf16x2': intCodec(4, false),
};

export function codec(e: ElemType): ElementCodec {
  return CODECS[e];
}

const f32Scratch = new Float32Array(1);
const f32ScratchBits = new Uint32Array(f32Scratch.buffer);

/** The bits of an f32 element that a value is stored as (rounded to f32 as a Float32Array store rounds it). */
export function f32Bits(v: number): number {
  f32Scratch[0] = v;
  return f32ScratchBits[0];
}
