import { ElemType } from '../types/type';
import { bf16DecodeTable, numberToBf16Bits } from '../numerics/bfloat16';
import { f16DecodeTable, numberToF16Bits } from '../numerics/float16';

/** A typed array over a tile's bytes: floats as values (f32) or bits (f16, bf16), integers as themselves. */
export type ElementArray = Float32Array | Int8Array | Uint8Array | Int16Array | Uint16Array | Int32Array | Uint32Array;

type ElementArrayConstructor = new (buffer: ArrayBufferLike, byteOffset: number, length: number) => ElementArray;

/**
 * A tile's elements as a typed array (the fast path of element access): `data` holds f32 values and integers as
 * themselves, 16-bit floats as bits that `decode` maps to values and `encode` rounds values to (nearest even).
 */
export interface ElementStore {
  data: ElementArray;
  decode?: Float32Array;
  encode?: (v: number) => number;
  /** An integer dtype: a stored value wraps to the element's width as the DataView path's codec does. */
  integer: boolean;
}

/** Element (r, c) of a none_box tile is `data[base + r * row + c * col]`. */
export interface StridedElements extends ElementStore {
  base: number;
  row: number;
  col: number;
}

interface ArrayKind {
  make: ElementArrayConstructor;
  size: number;
  /** The decode table, made on first use (numerics/float16.ts). */
  decode?: () => Float32Array;
  encode?: (v: number) => number;
}

const ARRAY_OF: Partial<Record<ElemType, ArrayKind>> = {
  f32: { make: Float32Array, size: 4 },
  f16: { make: Uint16Array, size: 2, decode: f16DecodeTable, encode: numberToF16Bits },
  bf16: { make: Uint16Array, size: 2, decode: bf16DecodeTable, encode: numberToBf16Bits },
  i8: { make: Int8Array, size: 1 },
  u8: { make: Uint8Array, size: 1 },
  i16: { make: Int16Array, size: 2 },
  u16: { make: Uint16Array, size: 2 },
  i32: { make: Int32Array, size: 4 },
  u32: { make: Uint32Array, size: 4 },
};

/** Typed arrays use the host's byte order; the VM's memory is little-endian, so the fast paths need a little-endian host. */
const HOST_IS_LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** The elements of `bytes` as an array of `dtype`, or undefined when the dtype has none or the bytes are not aligned to it. */
export function elementStore(dtype: ElemType, bytes: Uint8Array): ElementStore | undefined {
  const kind = HOST_IS_LITTLE_ENDIAN ? ARRAY_OF[dtype] : undefined;
  if (!kind || bytes.byteOffset % kind.size !== 0) return undefined;
  const data = new kind.make(bytes.buffer, bytes.byteOffset, Math.floor(bytes.byteLength / kind.size));
  return { data, decode: kind.decode?.(), encode: kind.encode, integer: !kind.decode && kind.make !== Float32Array };
}

/** Elements as unsigned integers of their size: what a transfer copies (bits, never values). */
export type BitsArray = Uint8Array | Uint16Array | Uint32Array;

/** The elements of `bytes` as their bits, or undefined when the size has no array, the host is big-endian or the bytes are not aligned. */
export function bitsArray(bytes: Uint8Array, size: number): BitsArray | undefined {
  if (!HOST_IS_LITTLE_ENDIAN || bytes.byteOffset % size !== 0) return undefined;
  const length = Math.floor(bytes.byteLength / size);
  if (size === 1) return bytes;
  if (size === 2) return new Uint16Array(bytes.buffer, bytes.byteOffset, length);
  if (size === 4) return new Uint32Array(bytes.buffer, bytes.byteOffset, length);
  return undefined;
}
