import { Tile } from '../../../machine/memory';
import { InstructionContext, SemanticsModule } from './context';
import { copyElement, padValue } from './memory';

/**
 * TFILLPAD, TFILLPAD_EXPAND, TFILLPAD_INPLACE (spec `op`: normal, expand, inplace): src's valid
 * region is copied into dst (bits), and padding positions get dst's pad value. Which positions are
 * padding differs: the NPU (a5 TFillPad.hpp) fills the columns right of src's valid cols in src's
 * valid rows, then the rows from src's valid rows down to dst's valid rows; the simulator fills
 * every other element of dst's rows x cols.
 */
export function fillPad(ctx: InstructionContext): void {
  const dst = ctx.tile('dst');
  const src = ctx.tile('src');
  if (dst.type.loc === 'mat') return fillPadMat(ctx, dst, src);
  const inPlace = ctx.bound.spec.op === 'inplace';
  if (inPlace && (dst.buffer !== src.buffer || dst.address !== src.address)) {
    ctx.trap(`dst and src must be the same tile storage (dst at ${dst.buffer} ${dst.address}, src at ${src.buffer} ${src.address})`);
  }
  const pad = padValue(dst.type.dtype, dst.type.pad, ctx);
  if (pad === null) ctx.trap("dst's pad value is null: there is nothing to fill with");
  const fill = (r: number, c: number) => dst.set(r, c, pad!);
  if (ctx.numerics === 'cpu-sim') {
    // The simulator moves values through dst's C++ type: a different type of the same size converts.
    if (src.type.dtype !== dst.type.dtype)
      ctx.trap(`from ${src.type.dtype} to ${dst.type.dtype} under cpu-sim (a value conversion in the simulator) is not implemented yet`);
    fillWholeTile(dst, src, fill);
    return;
  }
  if (!inPlace) copyValidRegion(src, dst);
  for (let r = 0; r < src.vRow; r++) {
    for (let c = src.vCol; c < dst.type.cols; c++) fill(r, c);
  }
  // Nothing below when src has at least dst's valid rows (a2a3; a5 computes the row count unsigned).
  for (let r = src.vRow; r < dst.vRow; r++) {
    for (let c = 0; c < dst.type.cols; c++) fill(r, c);
  }
}

/** Pad values (PTOAS PadValue): Null, Zero. */
const PAD_NULL = 0;
const PAD_ZERO = 1;

/**
 * TFILLPAD on a Mat tile (the two-operand form with one tile type). a5 NPU (npu/a5/TFillPad.hpp TFillPad_cube): an
 * Nz tile only, pad Zero or Null; dst is zeroed in place (src is not read): in the 32-byte column blocks up to
 * dst's valid cols rounded up to a block, the rows from dst's valid rows down; every row of the blocks beyond.
 * The simulator (cpu/TFillPad.hpp, PadVal defaulting to Zero) copies src's valid region and zeroes the rest of dst.
 */
function fillPadMat(ctx: InstructionContext, dst: Tile, src: Tile): void {
  const zero = (r: number, c: number) => dst.set(r, c, 0);
  if (ctx.numerics === 'cpu-sim') {
    if (src.type.dtype !== dst.type.dtype) ctx.trap(`from ${src.type.dtype} to ${dst.type.dtype} on a mat tile is not implemented yet`);
    return fillWholeTile(dst, src, zero);
  }
  if (ctx.target !== 'a5') ctx.trap(`a mat tile is not implemented yet on ${ctx.target}`);
  const t = dst.type;
  if (t.blayout !== 'col_major' || t.slayout !== 'row_major') ctx.trap(`on a mat tile the NPU fills an Nz tile (blayout=col_major, slayout=row_major) only`);
  if (t.pad !== PAD_ZERO && t.pad !== PAD_NULL) ctx.trap(`on a mat tile the NPU fills with zeros: dst's pad must be Zero or Null`);
  if (dst.codec.size !== 1 && dst.codec.size !== 2 && dst.codec.size !== 4) ctx.trap(`a ${t.dtype} mat tile is not implemented yet`);
  if (t.dtype === '!pto.f4E1M2x2' || t.dtype === '!pto.f4E2M1x2') ctx.trap(`a packed fp4 mat tile is not implemented yet`);
  if (src.buffer !== dst.buffer || src.address !== dst.address) {
    ctx.trap('on a mat tile the NPU zeroes dst in place and does not read src: a src other than dst is not implemented');
  }
  const perBlock = 32 / dst.codec.size;
  const alignedCols = Math.ceil(dst.vCol / perBlock) * perBlock;
  for (let c = 0; c < t.cols; c++) {
    for (let r = c < alignedCols ? dst.vRow : 0; r < t.rows; r++) zero(r, c);
  }
}

function copyValidRegion(src: Tile, dst: Tile): void {
  const size = dst.codec.size;
  for (let r = 0; r < src.vRow; r++) {
    for (let c = 0; c < src.vCol; c++) copyElement(src.bytes, src.elementIndex(r, c) * size, dst.bytes, dst.elementIndex(r, c) * size, size);
  }
}

function fillWholeTile(dst: Tile, src: Tile, fill: (r: number, c: number) => void): void {
  const size = dst.codec.size;
  for (let r = 0; r < dst.type.rows; r++) {
    for (let c = 0; c < dst.type.cols; c++) {
      if (r < src.vRow && c < src.vCol) copyElement(src.bytes, src.elementIndex(r, c) * size, dst.bytes, dst.elementIndex(r, c) * size, size);
      else fill(r, c);
    }
  }
}

export const module: SemanticsModule = { semantics: { 'fill-pad': fillPad }, operations: { 'fill-pad': ['normal', 'expand', 'inplace'] } };
