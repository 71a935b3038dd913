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
 * rows with vcmpv; A5 TCmp.hpp stores predicate registers packed (psts PK) at each row's stride.
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

/** TCMP: dst = packed mask of src0 cmpMode src1 over src0's valid region. */
export function compare(ctx: InstructionContext): void {
  const dst = ctx.tile('dst');
  const a = ctx.tile('src0');
  const b = ctx.tile('src1');
  const mode = cmpMode(ctx);
  requireMaskColumns(ctx, dst, 'src0', a.vCol);
  if (ctx.numerics === 'cpu-sim') zeroWholeTile(dst); // the simulator zeroes the whole mask tile first
  writeMask(dst, a.vRow, a.vCol, (r, c) => ieeeCompare(mode, a.get(r, c), b.get(r, c)));
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
  requireMaskColumns(ctx, dst, 'src0', src.vCol);
  const asHalf = a2a3HalfView(src, ctx);
  if (asHalf) {
    const h = asHalf(s);
    writeMask(dst, src.vRow, src.vCol, (r, c) => ieeeCompare(mode, asHalf(src.get(r, c)), h));
  } else {
    writeMask(dst, src.vRow, src.vCol, (r, c) => ieeeCompare(mode, src.get(r, c), s));
  }
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
