import { Problem } from './errors';
import { laneEnables, maskProblems } from './mask';
import {
  BlockReduceSumParams,
  CopyParams,
  DTYPES,
  DTYPE_NAME,
  DTYPE_SIZE,
  DType,
  PRODUCTS,
  PRODUCT_NAME,
  Product,
  REDUCE_ORDERS,
  BLOCK_BYTES,
  ReduceOrder,
  VecReduceAddParams,
  WholeReduceMinParams,
  resolveBlockReduceSum,
  resolveCopy,
  resolveVecReduceAdd,
  resolveWholeReduceMin,
} from './params';

/**
 * Every range, alignment and availability rule of the seeds and reference/ascendc.md, per instruction.
 * Each validator returns all problems it finds (an empty list means the call is valid); bounds against
 * the memory are checked by the model's accessor at run time (ModelError with the byte address).
 */

const U16_MAX = 65535;

/** Collects the problems of one call: ranges, alignment, availability (also used by the tests' models). */
export class Checker {
  readonly problems: Problem[] = [];

  constructor(readonly instr: string) {}

  add(param: string, message: string): void {
    this.problems.push({ param, message });
  }

  /** `label=value out of range [lo, hi]` unless value is an integer in range; returns whether it is. */
  range(param: string, label: string, value: number, lo: number, hi: number): boolean {
    if (Number.isInteger(value) && value >= lo && value <= hi) return true;
    this.add(param, `${label}=${value} out of range [${lo}, ${hi}]`);
    return false;
  }

  /** A byte address: a non-negative integer, aligned to `align` bytes. */
  address(param: string, value: number, align: number, why = ''): boolean {
    if (!Number.isInteger(value) || value < 0) {
      this.add(param, `${param} address ${value} is not a non-negative integer byte address`);
      return false;
    }
    if (value % align !== 0) {
      this.add(param, `${param} address ${value} is not ${align}-byte aligned${why ? ` (${why})` : ''}`);
      return false;
    }
    return true;
  }

  /** Known product, and one of `supported`. */
  product(product: Product, supported: readonly Product[], what: string): boolean {
    if (!PRODUCTS.includes(product)) {
      this.add('product', `product ${String(product)} is not one of ${PRODUCTS.join(', ')}`);
      return false;
    }
    if (!supported.includes(product)) {
      this.add('product', `${what} is not supported on product ${product} (${PRODUCT_NAME[product]}); supported on: ${supported.join(', ')}`);
      return false;
    }
    return true;
  }

  /** Known dtype, and one of `supported` on this product. */
  dtype(dtype: DType, supported: readonly DType[], product: Product): boolean {
    if (!DTYPES.includes(dtype)) {
      this.add('dtype', `${this.instr}: dtype ${String(dtype)} is not one of ${DTYPES.join(', ')}`);
      return false;
    }
    if (!supported.includes(dtype)) {
      this.add(
        'dtype',
        `${this.instr}: dtype ${dtype} not supported on ${product} (${PRODUCT_NAME[product]}); supported: ${supported.map((d) => `${d} (${DTYPE_NAME[d]})`).join(', ')}`,
      );
      return false;
    }
    return true;
  }

  /** dstRepStride / srcBlkStride / srcRepStride of the two reductions: 16-bit ranges, and no dstRepStride=0 on 910. */
  reduceStrides(instr: string, p: { dstRepStride: number; srcBlkStride: number; srcRepStride: number; product: Product }): void {
    if (this.range('dstRepStride', 'dstRepStride', p.dstRepStride, 0, U16_MAX) && p.dstRepStride === 0 && p.product === '910') {
      this.add('dstRepStride', `${instr}: dstRepStride=0 is not supported on Atlas training series (910)`);
    }
    this.range('srcBlkStride', 'srcBlkStride', p.srcBlkStride, 0, U16_MAX);
    this.range('srcRepStride', 'srcRepStride', p.srcRepStride, 0, U16_MAX);
  }

  mask(params: { mask: WholeReduceMinParams['mask']; dtype: DType }): boolean {
    const found = maskProblems(params.mask, DTYPE_SIZE[params.dtype], DTYPE_NAME[params.dtype]);
    this.problems.push(...found);
    return found.length === 0;
  }

  sat(sat: unknown): void {
    if (typeof sat !== 'boolean') this.add('sat', `sat must be true or false, got ${String(sat)}`);
  }
}

// ---------------------------------------------------------------------------------------------------
// WholeReduceMin (seed 000, reference §2)

const WRM_PRODUCTS: readonly Product[] = ['910', '310P', 'A2', '310B'];

/** Orders per product [seed 000, the `order` parameter]. */
export const WHOLE_REDUCE_MIN_ORDERS: Readonly<Record<ReduceOrder, readonly Product[]>> = {
  ORDER_VALUE_INDEX: ['910', '310P', 'A2', '310B'],
  ORDER_INDEX_VALUE: ['310P', 'A2'],
  ORDER_ONLY_VALUE: ['A2'],
  ORDER_ONLY_INDEX: ['A2'],
};

function wholeReduceMinDtypes(product: Product): DType[] {
  return product === '910' ? ['f16'] : ['f16', 'f32'];
}

/**
 * U: the dstRepStride unit in bytes, which is also the required dst alignment [seed 000 dstRepStride and
 * dstLocal; reference §2 table]: 2*sizeof(T) for [value, index] pairs, sizeof(T) for the value only,
 * sizeof(uint32_t) for the index only.
 */
export function wholeReduceMinDstUnit(dtype: 'f16' | 'f32', order: ReduceOrder): number {
  const sz = DTYPE_SIZE[dtype];
  switch (order) {
    case 'ORDER_VALUE_INDEX':
    case 'ORDER_INDEX_VALUE':
      return 2 * sz;
    case 'ORDER_ONLY_VALUE':
      return sz;
    case 'ORDER_ONLY_INDEX':
      return 4;
  }
}

export function validateWholeReduceMin(dst: number, src: number, params: WholeReduceMinParams): Problem[] {
  const p = resolveWholeReduceMin(params);
  const c = new Checker('WholeReduceMin');
  const productOk = c.product(p.product, WRM_PRODUCTS, 'WholeReduceMin');
  const dtypeOk = productOk && c.dtype(p.dtype, wholeReduceMinDtypes(p.product), p.product);
  let orderOk = true;
  if (!REDUCE_ORDERS.includes(p.order)) {
    c.add('order', `WholeReduceMin: order ${String(p.order)} is not one of ${REDUCE_ORDERS.join(', ')}`);
    orderOk = false;
  } else if (productOk && !WHOLE_REDUCE_MIN_ORDERS[p.order].includes(p.product)) {
    c.add(
      'order',
      `WholeReduceMin: ${p.order} not supported on ${p.product} (${PRODUCT_NAME[p.product]}); supported on: ${WHOLE_REDUCE_MIN_ORDERS[p.order].join(', ')}`,
    );
  }
  if (dtypeOk) c.mask(p);
  c.range('repeat', 'repeatTimes', p.repeat, 0, 255);
  c.reduceStrides('WholeReduceMin', p);
  c.address('src', src, 32);
  if (dtypeOk && orderOk) {
    const unit = wholeReduceMinDstUnit(p.dtype as 'f16' | 'f32', p.order);
    c.address('dst', dst, unit, `${DTYPE_NAME[p.dtype]} with ${p.order} needs ${unit}-byte alignment`);
  }
  c.sat(p.sat);
  return c.problems;
}

// ---------------------------------------------------------------------------------------------------
// BlockReduceSum (seed 001, reference §3)

const BRS_PRODUCTS: readonly Product[] = ['910', '310P', 'A2', '310B'];

function blockReduceSumDtypes(product: Product): DType[] {
  return product === '910' ? ['f16'] : ['f16', 'f32'];
}

export function validateBlockReduceSum(dst: number, src: number, params: BlockReduceSumParams): Problem[] {
  const p = resolveBlockReduceSum(params);
  const c = new Checker('BlockReduceSum');
  const productOk = c.product(p.product, BRS_PRODUCTS, 'BlockReduceSum');
  const dtypeOk = productOk && c.dtype(p.dtype, blockReduceSumDtypes(p.product), p.product);
  if (dtypeOk) c.mask(p);
  c.range('repeat', 'repeatTime', p.repeat, 0, 255);
  c.reduceStrides('BlockReduceSum', p);
  c.address('src', src, 32);
  if (dtypeOk) {
    const align = p.dtype === 'f16' ? 16 : 32;
    c.address('dst', dst, align, `${DTYPE_NAME[p.dtype]} dst needs ${align}-byte alignment`);
  }
  c.sat(p.sat);
  return c.problems;
}

// ---------------------------------------------------------------------------------------------------
// vec_reduce_add (seed 002, TIK, reference §4)

const VRA_PRODUCTS: readonly Product[] = ['310', '910', '310P', 'A2', '310B'];

/** A half-open byte interval [start, end). */
export interface Extent {
  start: number;
  end: number;
}

/**
 * The bytes vec_reduce_add uses of each operand [policy]: src is the hull of the bytes its active lanes
 * are read from, [src + first*sz, src + (R-1)*S*32 + (last+1)*sz); work is the `repeat_times` elements
 * the instruction needs; dst is one element.
 */
export function vecReduceAddExtents(dst: number, src: number, work: number, params: VecReduceAddParams): { src: Extent; work: Extent; dst: Extent } {
  const p = resolveVecReduceAdd(params);
  const sz = DTYPE_SIZE[p.dtype];
  const enabled = laneEnables(p.mask, sz);
  const first = enabled.indexOf(true);
  const last = enabled.lastIndexOf(true);
  return {
    src: { start: src + first * sz, end: src + (p.repeat - 1) * p.srcRepStride * BLOCK_BYTES + (last + 1) * sz },
    work: { start: work, end: work + p.repeat * sz },
    dst: { start: dst, end: dst + sz },
  };
}

function overlaps(a: Extent, b: Extent): boolean {
  return a.start < b.end && b.start < a.end;
}

function showExtent(e: Extent): string {
  return `[${e.start}, ${e.end})`;
}

export function validateVecReduceAdd(dst: number, src: number, work: number, params: VecReduceAddParams): Problem[] {
  const p = resolveVecReduceAdd(params);
  const c = new Checker('vec_reduce_add');
  const productOk = c.product(p.product, VRA_PRODUCTS, 'vec_reduce_add');
  const dtypeOk = productOk && c.dtype(p.dtype, ['f16', 'f32'], p.product);
  const maskOk = dtypeOk && c.mask(p);
  const repeatOk = c.range('repeat', 'repeat_times', p.repeat, 1, 4095);
  const strideOk = c.range('srcRepStride', 'src_rep_stride', p.srcRepStride, 0, U16_MAX);
  const srcOk = c.address('src', src, 32);
  const workOk = c.address('work', work, 32);
  const dstOk = dtypeOk && c.address('dst', dst, DTYPE_SIZE[p.dtype], `dst must be ${DTYPE_NAME[p.dtype]}-element aligned`);
  if (repeatOk && (!Number.isInteger(p.workElems) || p.workElems < p.repeat)) {
    c.add('workElems', `work_tensor needs at least repeat_times=${p.repeat} elements, has ${p.workElems}`);
  }
  if (maskOk && repeatOk && strideOk && srcOk && workOk && dstOk) {
    const ext = vecReduceAddExtents(dst, src, work, p);
    if (overlaps(ext.src, ext.work)) {
      c.add('work', `vec_reduce_add: src and work_tensor overlap (src bytes ${showExtent(ext.src)}, work_tensor bytes ${showExtent(ext.work)})`);
    }
    if (overlaps(ext.src, ext.dst)) {
      c.add('dst', `vec_reduce_add: src and dst overlap (src bytes ${showExtent(ext.src)}, dst bytes ${showExtent(ext.dst)})`);
    }
    if (overlaps(ext.dst, ext.work)) {
      c.add('work', `vec_reduce_add: dst and work_tensor overlap (dst bytes ${showExtent(ext.dst)}, work_tensor bytes ${showExtent(ext.work)})`);
    }
  }
  c.sat(p.sat);
  return c.problems;
}

// ---------------------------------------------------------------------------------------------------
// Copy (seed 003, reference §5)

const COPY_PRODUCTS: readonly Product[] = ['A2', '310B'];

function copyDtypes(product: Product): DType[] {
  const common: DType[] = ['u16', 'i16', 'f16', 'u32', 'i32', 'f32'];
  return product === '310B' ? [...common, 'bf16'] : common;
}

export function validateCopy(dst: number, src: number, params: CopyParams): Problem[] {
  const p = resolveCopy(params);
  const c = new Checker('Copy');
  const productOk = c.product(p.product, COPY_PRODUCTS, 'Copy (UB->UB, masked)');
  const dtypeOk = productOk && c.dtype(p.dtype, copyDtypes(p.product), p.product);
  if (dtypeOk) c.mask(p);
  c.range('repeat', 'repeatTime', p.repeat, 0, 255);
  if (c.range('dstStride', 'dstStride', p.dstStride, 0, U16_MAX) && p.dstStride === 0 && !p.allowDstStride0) {
    c.add('dstStride', 'Copy: dstStride=0 is undefined behaviour (dstBlkStride must not be 0); set allowDstStride0 for last-block-wins');
  }
  c.range('srcStride', 'srcStride', p.srcStride, 0, U16_MAX);
  c.range('dstRepeatSize', 'dstRepeatSize', p.dstRepeatSize, 0, 4095);
  c.range('srcRepeatSize', 'srcRepeatSize', p.srcRepeatSize, 0, 4095);
  c.address('dst', dst, 32);
  c.address('src', src, 32);
  if (typeof p.allowDstStride0 !== 'boolean') c.add('allowDstStride0', `allowDstStride0 must be true or false, got ${String(p.allowDstStride0)}`);
  c.sat(p.sat);
  return c.problems;
}

// ---------------------------------------------------------------------------------------------------
// TCOLMIN (seed 004, reference §6)
