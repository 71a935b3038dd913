/**
 * Parameter types of the direct semantic model of four AscendC / TIK vector instructions:
 * WholeReduceMin (seed 000), BlockReduceSum (seed 001), vec_reduce_add (seed 002, TIK) and Copy (seed 003),
 * plus the TCOLMIN tile instruction (seed 004) that the conformance cases also cover.
 *
 * Everything is in bytes and in the units of the seeds: addresses are byte offsets into the memory the
 * model is given (the 192 KiB UB, or a tile's bytes), strides are in 32-byte data blocks unless a field
 * says otherwise. See reference/ascendc.md §1 for the common execution model.
 */

/** Element types the seeds allow for at least one of the instructions. */
export type DType = 'f16' | 'f32' | 'bf16' | 'u16' | 'i16' | 'u32' | 'i32';

export const DTYPES: readonly DType[] = ['f16', 'f32', 'bf16', 'u16', 'i16', 'u32', 'i32'];

/** Bytes per element. */
export const DTYPE_SIZE: Readonly<Record<DType, 2 | 4>> = {
  f16: 2,
  bf16: 2,
  u16: 2,
  i16: 2,
  f32: 4,
  u32: 4,
  i32: 4,
};

/** The C++ spelling of each element type, for messages ("half", "float", ...). */
export const DTYPE_NAME: Readonly<Record<DType, string>> = {
  f16: 'half',
  f32: 'float',
  bf16: 'bfloat16_t',
  u16: 'uint16_t',
  i16: 'int16_t',
  u32: 'uint32_t',
  i32: 'int32_t',
};

/**
 * Products whose behaviour differs (reference/ascendc.md §1 "Products").
 * A2: Atlas A2 training / 800I A2 (and A3); 310B: Atlas 200I/500 A2 inference; 310P: Atlas inference series
 * AI Core / Vector Core; 910: Atlas training series; 310: Atlas 200/300/500 inference (TIK only).
 */
export type Product = 'A2' | '310B' | '310P' | '910' | '310';

export const PRODUCTS: readonly Product[] = ['A2', '310B', '310P', '910', '310'];

export const PRODUCT_NAME: Readonly<Record<Product, string>> = {
  A2: 'Atlas A2 training series / Atlas 800I A2 inference',
  '310B': 'Atlas 200I/500 A2 inference',
  '310P': 'Atlas inference series AI Core',
  '910': 'Atlas training series',
  '310': 'Atlas 200/300/500 inference',
};

/** The product the seeds recommend as the default (reference/ascendc.md §10.7). */
export const DEFAULT_PRODUCT: Product = 'A2';

/**
 * Bit-mode mask in AscendC order: `[M0, M1]`, M0 bit i enables lane i (lanes 0..63), M1 bit i enables
 * lane 64+i (lanes 64..127). TIK writes the two words the other way round (`[mask_h, mask_l]`); convert
 * with `tikMask` from ./mask.
 */
export type BitMask = readonly [bigint, bigint];

/** Contiguous mode (the first `mask` lanes are active) or bit mode. */
export type Mask = number | BitMask;

export function isBitMask(mask: Mask): mask is BitMask {
  return typeof mask !== 'number';
}

export type ReduceOrder = 'ORDER_VALUE_INDEX' | 'ORDER_INDEX_VALUE' | 'ORDER_ONLY_VALUE' | 'ORDER_ONLY_INDEX';

export const REDUCE_ORDERS: readonly ReduceOrder[] = ['ORDER_VALUE_INDEX', 'ORDER_INDEX_VALUE', 'ORDER_ONLY_VALUE', 'ORDER_ONLY_INDEX'];

/** Fields every vector instruction has. */
export interface CommonParams {
  dtype: DType;
  mask: Mask;
  /** Default `DEFAULT_PRODUCT` (A2). */
  product?: Product;
  /**
   * fp16 saturation mode (CTRL[48] = 0, the documented default): an f16 add whose result is +-inf gives
   * +-65504 and one whose result is NaN gives +0. `false` gives IEEE results. float32 never saturates.
   * Default true.
   */
  sat?: boolean;
}

/** WholeReduceMin<T>(dst, src, mask, repeatTimes, dstRepStride, srcBlkStride, srcRepStride, order). */
export interface WholeReduceMinParams extends CommonParams {
  /** repeatTimes, [0, 255]; 0 is a NOP. */
  repeat: number;
  /** In units of the written size (see `wholeReduceMinDstUnit`). Default 1. */
  dstRepStride?: number;
  /** In 32-byte blocks. Default 1. */
  srcBlkStride?: number;
  /** In 32-byte blocks. Default 8. */
  srcRepStride?: number;
  /** Default ORDER_VALUE_INDEX. */
  order?: ReduceOrder;
}

/** BlockReduceSum<T>(dst, src, repeatTime, mask, dstRepStride, srcBlkStride, srcRepStride). */
export interface BlockReduceSumParams extends CommonParams {
  /** repeatTime, [0, 255]; 0 is a NOP. */
  repeat: number;
  /** In units of 8 elements (16 B for half, 32 B for float). Default 1. */
  dstRepStride?: number;
  /** In 32-byte blocks. Default 1. */
  srcBlkStride?: number;
  /** In 32-byte blocks. Default 8. */
  srcRepStride?: number;
}

/** TIK vec_reduce_add(mask, dst, src, work_tensor, repeat_times, src_rep_stride). */
export interface VecReduceAddParams extends CommonParams {
  /** repeat_times, [1, 4095]. */
  repeat: number;
  /** src_rep_stride in 32-byte blocks, [0, 65535]. Default 8. The block stride is fixed at 1. */
  srcRepStride?: number;
  /**
   * Size of work_tensor in elements, when known. It must be at least `repeat`. When omitted the work
   * tensor is taken to be exactly `repeat` elements long.
   */
  workElems?: number;
}

/** Copy<T>(dst, src, mask, repeatTime, CopyRepeatParams{dstStride, srcStride, dstRepeatSize, srcRepeatSize}). */
export interface CopyParams extends CommonParams {
  /** repeatTime, [0, 255]; 0 is a NOP. */
  repeat: number;
  /** Block stride of dst within a repeat, in 32-byte blocks, [0, 65535]. Default 1. */
  dstStride?: number;
  /** Block stride of src within a repeat, in 32-byte blocks, [0, 65535]. Default 1. */
  srcStride?: number;
  /** Repeat stride of dst, in 32-byte blocks, [0, 4095]. Default 8. */
  dstRepeatSize?: number;
  /** Repeat stride of src, in 32-byte blocks, [0, 4095]. Default 8. */
  srcRepeatSize?: number;
  /**
   * dstStride = 0 is undefined behaviour per the 高维切分 doc and is rejected; `true` accepts it with
   * last-block-wins (all blocks of a repeat go to the same 32 bytes, written in block order).
   */
  allowDstStride0?: boolean;
}

export type Resolved<T> = Required<T>;

export const DEFAULT_DST_REP_STRIDE = 1;
export const DEFAULT_BLK_STRIDE = 1;
export const DEFAULT_REP_STRIDE = 8;

/** Defaults of the fields every instruction has (each also has its own `repeat`). */
function resolveCommon<P extends CommonParams & { repeat: number }>(p: P): Resolved<CommonParams> & { repeat: number } {
  return { dtype: p.dtype, mask: p.mask, repeat: p.repeat, product: p.product ?? DEFAULT_PRODUCT, sat: p.sat ?? true };
}

export function resolveWholeReduceMin(p: WholeReduceMinParams): Resolved<WholeReduceMinParams> {
  return {
    ...resolveCommon(p),
    dstRepStride: p.dstRepStride ?? DEFAULT_DST_REP_STRIDE,
    srcBlkStride: p.srcBlkStride ?? DEFAULT_BLK_STRIDE,
    srcRepStride: p.srcRepStride ?? DEFAULT_REP_STRIDE,
    order: p.order ?? 'ORDER_VALUE_INDEX',
  };
}

export function resolveBlockReduceSum(p: BlockReduceSumParams): Resolved<BlockReduceSumParams> {
  return {
    ...resolveCommon(p),
    dstRepStride: p.dstRepStride ?? DEFAULT_DST_REP_STRIDE,
    srcBlkStride: p.srcBlkStride ?? DEFAULT_BLK_STRIDE,
    srcRepStride: p.srcRepStride ?? DEFAULT_REP_STRIDE,
  };
}

export function resolveVecReduceAdd(p: VecReduceAddParams): Resolved<VecReduceAddParams> {
  return { ...resolveCommon(p), srcRepStride: p.srcRepStride ?? DEFAULT_REP_STRIDE, workElems: p.workElems ?? p.repeat };
}

export function resolveCopy(p: CopyParams): Resolved<CopyParams> {
  return {
    ...resolveCommon(p),
    dstStride: p.dstStride ?? DEFAULT_BLK_STRIDE,
    srcStride: p.srcStride ?? DEFAULT_BLK_STRIDE,
    dstRepeatSize: p.dstRepeatSize ?? DEFAULT_REP_STRIDE,
    srcRepeatSize: p.srcRepeatSize ?? DEFAULT_REP_STRIDE,
    allowDstStride0: p.allowDstStride0 ?? false,
  };
}

/** Bytes per data block. */
export const BLOCK_BYTES = 32;
/** Bytes per repeat (8 data blocks): the 256-byte logical vector. */
export const REPEAT_BYTES = 256;
/** Data blocks per repeat. */
export const BLOCKS_PER_REPEAT = 8;

/** E: elements per 32-byte data block (16 for 16-bit types, 8 for 32-bit). */
export function elemsPerBlock(elemSize: number): number {
  return BLOCK_BYTES / elemSize;
}

/** L: lanes per repeat (128 for 16-bit types, 64 for 32-bit, 32 for 64-bit). */
export function lanesPerRepeat(elemSize: number): number {
  return REPEAT_BYTES / elemSize;
}

/**
 * Byte address of lane `l` of repeat `r` (reference/ascendc.md §1):
 * `base + r*repStride*32 + b*blkStride*32 + e*sz` with `b = l div E` and `e = l mod E`.
 */
export function laneAddress(base: number, r: number, l: number, blkStride: number, repStride: number, elemSize: number): number {
  const e = elemsPerBlock(elemSize);
  const b = Math.floor(l / e);
  return base + r * repStride * BLOCK_BYTES + b * blkStride * BLOCK_BYTES + (l % e) * elemSize;
}

/** The full lane count of `dtype` as a contiguous mask: every lane of a repeat active. */
export function fullMask(dtype: DType): number {
  return lanesPerRepeat(DTYPE_SIZE[dtype]);
}

export type AscendcParams = Record<string, unknown> & { dtype: DType; mask: Mask; repeat: number; product: Product; sat: boolean };
