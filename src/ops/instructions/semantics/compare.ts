import { f16BitsToNumber } from '../../../numerics/float16';
import { Scalar } from '../../../numerics/elements';
import { Tile } from '../../../machine/memory';
import { InstructionContext, SemanticsModule } from './context';
import { scalarAsElement } from './elementwise';

/**
 * Compare and select: TCMP, TCMPS write a packed predicate mask; TSEL, TSELS read one.
 *
 * The mask format (npu, both targets): row r of the mask holds the predicates of source row r as a
 * little-endian bit stream, column c at bit c % W of mask element (r, c / W), W = the mask element's
 * bits (8 for u8 on A2/A3, 32 for u32 on A5; the same bytes either way). A2/A3 TCmp.hpp writes byte
 * rows with vcmpv; A5 stores predicate registers a block at a time (see storePredicates), at each row's
 * stride, except PTOAS's tcmps template, which packs rows one after another (see templateScalarCompare).
 */

export type CmpMode = 'eq' | 'ne' | 'lt' | 'le' | 'gt' | 'ge';

/** IEEE comparison: a NaN operand makes every mode false but ne, which is true. Bigints compare exactly. */
export function ieeeCompare(mode: CmpMode, a: Scalar, b: Scalar): boolean {
  switch (mode) {
    case 'eq':
      return a === b; // both operands share a dtype: never a number against a bigint
    case 'ne':
      return a !== b;
    case 'lt':
      return a < b;
    case 'le':
      return a <= b;
    case 'gt':
      return a > b;
    case 'ge':
      return a >= b;
  }
}

/**
 * The reference simulator's TCMPS compare (cpu/TCmps.hpp CmpCall): eq and ne go through the double difference
 * with a 1e-9 tolerance (so inf eq inf is false, and integers beyond 2^53 may compare equal); the orderings are
 * plain comparisons in the element type.
 */
function simulatorScalarCompare(mode: CmpMode, a: Scalar, b: Scalar): boolean {
  const diff = Number(a) - Number(b);
  switch (mode) {
    case 'eq':
      return Math.abs(diff) < 1e-9;
    case 'ne':
      return Number.isNaN(Number(a)) || Number.isNaN(Number(b)) ? true : Math.abs(diff) > 1e-9;
    default:
      return ieeeCompare(mode, a, b);
  }
}

function cmpMode(ctx: InstructionContext): CmpMode {
  return (ctx.attribute('cmpMode') ?? 'eq') as CmpMode;
}

/** Bits per mask element: 8 for an 8-bit mask, 16 or 32 for wider ones. */
export function maskBits(mask: Tile): number {
  return mask.codec.size * 8;
}

/** Bit c of mask row r, per the mask format above: the element's bits, little-endian, whatever its type says. */
function maskBit(mask: Tile, r: number, c: number): boolean {
  const w = maskBits(mask);
  const bit = c % w;
  const byte = mask.elementIndex(r, Math.floor(c / w)) * mask.codec.size + (bit >> 3);
  return ((mask.bytes[byte] >> (bit & 7)) & 1) === 1;
}

/** Copies one element's bits (NaN payloads included): selections and gathers move data, they do not compute. */
export function copyElement(dst: Tile, r: number, c: number, src: Tile, sr: number, sc: number): void {
  const size = dst.codec.size;
  const from = src.elementIndex(sr, sc) * size;
  const to = dst.elementIndex(r, c) * size;
  for (let k = 0; k < size; k++) dst.bytes[to + k] = src.bytes[from + k];
}

function zeroWholeTile(t: Tile): void {
  const zero = t.codec.isFloat ? 0 : t.codec.size === 8 ? 0n : 0;
  for (let r = 0; r < t.type.rows; r++) for (let c = 0; c < t.type.cols; c++) t.set(r, c, zero);
}

function requireMaskColumns(ctx: InstructionContext, mask: Tile, what: string, columns: number): void {
  const w = maskBits(mask);
  const needed = Math.ceil(columns / w);
  if (needed > mask.vCol) {
    ctx.trap(
      `the mask's ${mask.vCol} valid ${mask.type.dtype} columns hold ${mask.vCol * w} bits per row; ${what} has ${columns} valid columns (needs ${needed} mask columns)`,
    );
  }
}

/** Packs `predicate(r, c)` for the valid rows x columns into mask rows; bits past the last column are 0. */
function writeMask(mask: Tile, rows: number, columns: number, predicate: (r: number, c: number) => boolean): void {
  const w = maskBits(mask);
  for (let r = 0; r < rows; r++) {
    for (let e = 0; e * w < columns; e++) {
      let element = 0;
      for (let bit = 0; bit < w && e * w + bit < columns; bit++) if (predicate(r, e * w + bit)) element |= 1 << bit;
      mask.set(r, e, element >>> 0);
    }
  }
}

/**
 * A5's predicate stores (pto-isa npu/a5/TCmp.hpp, TCmps.hpp, Int64Binary.hpp; PTOAS lib/TileOps/a5/tcmp.py,
 * tcmps.py): each psts writes `bytes` bytes holding the compares of `elements` consecutive source elements, bit k
 * (little-endian) for the k-th, 0 for the lanes past the last one compared. 8-bit sources: 256 per 32-byte NORM
 * store; 16-bit: 128 per 16-byte PK store; 32-bit: two 64-lane compares deinterleaved into one 16-byte PK store;
 * 64-bit (pto-isa only): one 32-byte store per row holding at most 64.
 */
interface PredicateBlock {
  elements: number;
  bytes: number;
}

function a5PredicateBlock(src: Tile): PredicateBlock {
  if (src.codec.size === 1) return { elements: 256, bytes: 32 };
  if (src.codec.size === 8) return { elements: 64, bytes: 32 };
  return { elements: 128, bytes: 16 };
}

/** Stores the bits of `count` compares as whole blocks from byte `at` of dst's storage (`bit(k)`: the k-th). */
function storePredicates(ctx: InstructionContext, dst: Tile, at: number, count: number, block: PredicateBlock, bit: (k: number) => boolean): void {
  const blocks = Math.ceil(count / block.elements);
  const end = at + blocks * block.bytes;
  if (end > dst.bytes.length) ctx.trap(`the predicate stores write bytes ${at}..${end - 1} of dst, which has ${dst.bytes.length}`);
  for (let j = 0; j < blocks; j++) {
    for (let b = 0; b < block.bytes; b++) {
      let byte = 0;
      for (let i = 0; i < 8; i++) {
        const lane = b * 8 + i;
        const k = j * block.elements + lane;
        if (lane < block.elements && k < count && bit(k)) byte |= 1 << i;
      }
      dst.bytes[at + j * block.bytes + b] = byte;
    }
  }
}

/** Source dtypes and mask dtype of PTOAS's A5 compare templates (tcmp.py, tcmps.py _DTYPES). */
const TEMPLATE_SOURCES = ['f32', 'i32', 'f16', 'i16', 'i8', 'u8'];

/** Traps unless PTOAS's vpto template exists for the operands (else PTOAS finds no template to expand the op with). */
function requireTemplate(ctx: InstructionContext, src: Tile, dst: Tile, maskType: string): void {
  if (!TEMPLATE_SOURCES.includes(src.type.dtype) || dst.type.dtype !== maskType) {
    ctx.trap(
      `${src.type.dtype} into ${dst.type.dtype} under the vpto back end is not implemented yet ` +
        `(PTOAS's template takes ${TEMPLATE_SOURCES.join(', ')} sources and a ${maskType} mask)`,
    );
  }
  if (src.strides || dst.strides) ctx.trap(`a tile window under the vpto back end is not implemented yet`);
}

/**
 * A5 TCMP/TCMPS as pto-isa and PTOAS's tcmp template write the mask: row r's blocks from dst's row r. (The tcmp
 * template's 1-D form applies only where it lays the same bytes: one row, or dst rows exactly one row's blocks.)
 */
function a5RowMasks(ctx: InstructionContext, dst: Tile, src: Tile, predicate: (r: number, c: number) => boolean): void {
  const block = a5PredicateBlock(src);
  if (src.codec.size === 8 && src.vCol > block.elements) {
    ctx.trap(`a 64-bit compare of ${src.vCol} columns is not implemented yet (pto-isa's A5 Int64Compare stores one block of 64 per row)`);
  }
  for (let r = 0; r < src.vRow; r++) {
    storePredicates(ctx, dst, dst.elementIndex(r, 0) * dst.codec.size, src.vCol, block, (c) => predicate(r, c));
  }
}

/** TCMP: dst = packed mask of src0 cmpMode src1 over src0's valid region. */
export function compare(ctx: InstructionContext): void {
  const dst = ctx.tile('dst');
  const a = ctx.tile('src0');
  const b = ctx.tile('src1');
  const mode = cmpMode(ctx);
  requireMaskColumns(ctx, dst, 'src0', a.vCol);
  const predicate = (r: number, c: number): boolean => ieeeCompare(mode, a.get(r, c), b.get(r, c));
  if (ctx.numerics === 'npu' && ctx.target === 'a5') {
    if (ctx.backend === 'vpto') {
      requireTemplate(ctx, a, dst, 'i8');
      if (dst.vRow !== a.vRow || dst.vCol !== a.vCol) {
        ctx.trap(
          `pto.tcmp with dst's valid region ${dst.vRow}x${dst.vCol} other than the sources' ${a.vRow}x${a.vCol} under the vpto back end ` +
            "is not implemented yet (PTOAS's template requires the same valid shape)",
        );
      }
    }
    return a5RowMasks(ctx, dst, a, predicate);
  }
  if (ctx.numerics === 'cpu-sim') zeroWholeTile(dst); // the simulator zeroes the whole mask tile first
  writeMask(dst, a.vRow, a.vCol, predicate);
}

/**
 * A2/A3 TCMPS on i16/u16 reinterprets the elements and the scalar as half (npu/a2a3/TCmps.hpp): the comparison
 * is between the fp16 numbers their bits encode.
 */
function a2a3HalfView(src: Tile, ctx: InstructionContext): ((v: Scalar) => Scalar) | undefined {
  const isHalfword = src.type.dtype === 'i16' || src.type.dtype === 'u16';
  if (ctx.numerics !== 'npu' || !isHalfword || ctx.target !== 'a2a3') return undefined;
  return (v) => f16BitsToNumber(Number(v) & 0xffff);
}

/** TCMPS: dst = packed mask of src0 cmpMode scalar. */
export function compareScalar(ctx: InstructionContext): void {
  const dst = ctx.tile('dst');
  const src = ctx.tile('src0');
  const mode = cmpMode(ctx);
  const s = scalarAsElement(ctx.scalar('scalar'), src.type.dtype, ctx.trap);
  if (ctx.numerics === 'cpu-sim') return simulatorCompareScalar(dst, src, mode, s);
  if (ctx.target === 'a5' && ctx.backend === 'vpto') return templateScalarCompare(ctx, dst, src, (r, c) => ieeeCompare(mode, src.get(r, c), s));
  requireMaskColumns(ctx, dst, 'src0', src.vCol);
  if (ctx.target === 'a5') return a5RowMasks(ctx, dst, src, (r, c) => ieeeCompare(mode, src.get(r, c), s));
  const asHalf = a2a3HalfView(src, ctx);
  if (asHalf) {
    const h = asHalf(s);
    writeMask(dst, src.vRow, src.vCol, (r, c) => ieeeCompare(mode, asHalf(src.get(r, c)), h));
  } else {
    writeMask(dst, src.vRow, src.vCol, (r, c) => ieeeCompare(mode, src.get(r, c), s));
  }
}

/**
 * PTOAS's tcmps template (lib/TileOps/a5/tcmps.py) writes the mask as a byte stream from dst's first byte, whatever
 * dst's row stride. Its 1-D form (when flatPredicateStream holds) compares src's valid region as one run of vRow x
 * vCol elements and stores their blocks one after another; the 2-D form stores each row's blocks right after the
 * previous row's (row r from byte r x ceil(vCol / elements) x bytes).
 */
function templateScalarCompare(ctx: InstructionContext, dst: Tile, src: Tile, predicate: (r: number, c: number) => boolean): void {
  requireTemplate(ctx, src, dst, 'u8');
  const block = a5PredicateBlock(src);
  const { vRow, vCol } = src;
  if (flatPredicateStream(dst, src, block)) {
    return storePredicates(ctx, dst, 0, vRow * vCol, block, (k) => predicate(Math.floor(k / vCol), k % vCol));
  }
  const rowBytes = Math.ceil(vCol / block.elements) * block.bytes;
  for (let r = 0; r < vRow; r++) storePredicates(ctx, dst, r * rowBytes, vCol, block, (c) => predicate(r, c));
}

/** A ub tile the templates may walk as one run: row-major, no boxes, no row padding (compact row_plus_one), static valid shape. */
function isFlat(t: Tile): boolean {
  const { type } = t;
  return type.loc === 'vec' && type.blayout === 'row_major' && type.slayout === 'none_box' && type.compact !== 2 && type.vRow !== null && type.vCol !== null;
}

/** PTOAS's require_predicate_compare_1d(flattened_destination=True) (ptodsl tilelib/constraints.py), which picks tcmps's 1-D form. */
function flatPredicateStream(dst: Tile, src: Tile, block: PredicateBlock): boolean {
  if (!isFlat(src) || !isFlat(dst) || dst.vRow !== src.vRow) return false;
  const { vRow, vCol } = src;
  const rowBytes = dst.type.cols * dst.codec.size;
  const rowStores = Math.ceil(vCol / block.elements);
  if (rowBytes % 32 !== 0 || rowBytes < rowStores * block.bytes) return false;
  if (vRow === 1) return src.type.cols >= rowStores * block.elements;
  const contiguous = vCol === src.type.cols;
  if (rowBytes >= src.type.cols * dst.codec.size) {
    return contiguous && dst.type.rows * rowBytes >= Math.ceil((vRow * vCol) / block.elements) * block.bytes;
  }
  return contiguous && vCol % block.elements === 0 && rowBytes === rowStores * block.bytes;
}

/**
 * The simulator's TCMPS layout (cpu/TCmps.hpp): predicates over src's whole Rows x Cols (0 outside its valid
 * region), packed into Cols / 8 bytes per source row, and that byte stream laid row after row into dst's valid
 * region, one byte per dst element, after the whole dst tile is zeroed.
 */
function simulatorCompareScalar(dst: Tile, src: Tile, mode: CmpMode, s: Scalar): void {
  const bytesPerRow = Math.floor(src.type.cols / 8);
  const bytes: number[] = [];
  for (let r = 0; r < src.type.rows; r++) {
    for (let k = 0; k < bytesPerRow; k++) {
      let byte = 0;
      for (let bit = 0; bit < 8; bit++) {
        const c = k * 8 + bit;
        if (r < src.vRow && c < src.vCol && simulatorScalarCompare(mode, src.get(r, c), s)) byte |= 1 << bit;
      }
      bytes.push(byte);
    }
  }
  zeroWholeTile(dst);
  if (dst.vCol === 0) return;
  const capacity = Math.min(bytes.length, dst.type.rows * dst.type.cols);
  for (let k = 0; k < capacity; k++) {
    const r = Math.floor(k / dst.vCol);
    if (r < dst.vRow) dst.set(r, k % dst.vCol, dst.codec.size === 8 ? BigInt(bytes[k]) : bytes[k]);
  }
}

/** TSEL: dst = selMask bit ? src0 : src1 over dst's valid region. */
export function select(ctx: InstructionContext): void {
  const dst = ctx.tile('dst');
  const mask = ctx.tile('selMask');
  const a = ctx.tile('src0');
  const b = ctx.tile('src1');
  const bit = ctx.numerics === 'cpu-sim' ? simulatorSelectBits(ctx, mask, dst) : rowBits(ctx, mask, dst);
  for (let r = 0; r < dst.vRow; r++) {
    for (let c = 0; c < dst.vCol; c++) {
      if (bit(r, c)) copyElement(dst, r, c, a, r, c);
      else copyElement(dst, r, c, b, r, c);
    }
  }
}

/** The per-row mask format, after checking the mask's valid region covers dst's. */
function rowBits(ctx: InstructionContext, mask: Tile, dst: Tile): (r: number, c: number) => boolean {
  if (mask.vRow < dst.vRow) ctx.trap(`the mask has ${mask.vRow} valid rows, fewer than dst's ${dst.vRow}`);
  requireMaskColumns(ctx, mask, 'dst', dst.vCol);
  return (r, c) => maskBit(mask, r, c);
}

/**
 * The simulator's TSEL (cpu/TSel.hpp): one bit stream over dst's valid region in row-major order, 8 bits from the
 * low byte of each mask element, moving to the next mask row after selMask.vCol elements.
 */
function simulatorSelectBits(ctx: InstructionContext, mask: Tile, dst: Tile): (r: number, c: number) => boolean {
  const perRow = mask.vCol;
  return (r, c) => {
    const n = r * dst.vCol + c;
    const k = Math.floor(n / 8);
    const mr = perRow === 0 ? mask.vRow : Math.floor(k / perRow);
    if (mr >= mask.vRow) ctx.trap(`the mask's ${mask.vRow}x${mask.vCol} valid region has no bit for dst element (${r}, ${c}) (bit ${n} of the stream)`);
    return ((Number(mask.get(mr, k % perRow)) >>> (n % 8)) & 1) === 1;
  };
}

/** TSELS: dst = mask bit ? src : scalar; bit c of row r is bit c % W of mask element (r, c / W) under both profiles. */
export function selectScalar(ctx: InstructionContext): void {
  const dst = ctx.tile('dst');
  const mask = ctx.tile('mask');
  const src = ctx.tile('src');
  const s = scalarAsElement(ctx.scalar('scalar'), dst.type.dtype, ctx.trap);
  const bit = rowBits(ctx, mask, dst);
  for (let r = 0; r < dst.vRow; r++) {
    for (let c = 0; c < dst.vCol; c++) {
      if (bit(r, c)) copyElement(dst, r, c, src, r, c);
      else dst.set(r, c, s);
    }
  }
}

export const module: SemanticsModule = {
  semantics: { compare, 'compare-scalar': compareScalar, select, 'select-scalar': selectScalar },
};
