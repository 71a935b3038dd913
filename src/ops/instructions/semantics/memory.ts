import { Scalar, codec } from '../../../numerics/elements';
import { GlobalBuffer, PartitionView, Tile } from '../../../machine/memory';
import { bitsArray } from '../../../machine/element-arrays';
import { InstructionContext } from './context';
import { CUSTOM_PAD_BASE, ElemType, TileType, isStoredFormat } from '../../../types/type';
import { F16_MAX, f16BitsToNumber } from '../../../numerics/float16';
import { bf16BitsToNumber } from '../../../numerics/bfloat16';
import { accumulatorCast } from './cube';
import { FixpipeOptions, fixpipeFor, fixpipeOptions, quantWords, usesFixpipe } from './fixpipe';
import { Direction, reshapedTransfer, viewMatrix } from './transfer';

export { viewMatrix } from './transfer';

/**
 * Visits the elements a transfer moves: tile (r, c) <-> global element index. A view whose shape is the valid region
 * moves the valid region; other views follow transfer.ts (a larger view into a vec tile, an NZ view), which traps
 * where the implementations do not define them.
 */
function forEachTransfer(
  ctx: InstructionContext,
  view: PartitionView,
  tile: Tile,
  direction: Direction,
  visit: (r: number, c: number, index: number) => void,
): void {
  const matrix = viewMatrix(ctx, view);
  if (tile.type.memref) {
    // The memref form: a flat buffer takes the view's elements in row-major order.
    const count = matrix.rows * matrix.cols;
    if (count !== tile.type.rows * tile.type.cols)
      ctx.trap(`view shape ${view.shape.join('x')} has ${count} elements, but the buffer holds ${tile.type.rows * tile.type.cols}`);
    for (let k = 0; k < count; k++) visit(Math.floor(k / tile.type.cols), k % tile.type.cols, matrix.element(Math.floor(k / matrix.cols), k % matrix.cols));
    return;
  }
  if (matrix.cols === tile.vCol && matrix.rows === tile.vRow) return tile.forEachValid((r, c) => visit(r, c, matrix.element(r, c)));
  // An empty valid region (issue 708: a zero-row or zero-column tail) moves nothing, whatever the view's shape; but
  // an A5 tload, whose view's shape drives the copy (vpto's templates, pto-isa's TLoadVecND2ND), still moves it.
  const shapeDriven = direction === 'load' && ctx.target === 'a5' && (ctx.backend === 'vpto' || ctx.numerics === 'npu');
  if ((tile.vRow === 0 || tile.vCol === 0) && !shapeDriven) return;
  const plan = reshapedTransfer(ctx, view, tile, direction);
  for (let r = 0; r < plan.rows; r++) {
    for (let c = 0; c < plan.cols; c++) visit(r, c, plan.element(r, c));
  }
}

/**
 * The fast path of a plain transfer (a tile's valid region <-> a view of its shape, no memref): element bits copied
 * through unsigned arrays of the element's size, a row at a time, each row told to the buffer's observer (the race
 * checker of a run of several cores) as one run. False when it does not apply, or at a row past the buffer (then the
 * general path runs from the start: a transfer copies the same bits again, and traps at the element it names).
 */
function fastTransfer(
  ctx: InstructionContext,
  view: PartitionView,
  tile: Tile,
  direction: 'load' | 'store',
  /** The tile's elements are read as one ND row whatever its layout (see tstore). */
  oneLinearRow = false,
): boolean {
  const buffer = view.buffer;
  const size = tile.codec.size;
  if (!tile.fastPaths || tile.type.memref || buffer.codec.size !== size) return false;
  const matrix = viewMatrix(ctx, view);
  if (matrix.cols !== tile.vCol || matrix.rows !== tile.vRow) return false;
  const observer = buffer.observer;
  const innerStride = view.strides[view.shape.length - 1];
  // An observer sees rows of consecutive elements as runs; a strided row goes the general way, element by element.
  if (observer && innerStride !== 1) return false;
  const how = direction === 'load' ? 'read' : 'write';
  // The buffer's bytes as they are: each row's range is made first (a generated input is made where first touched).
  const global = bitsArray(buffer.storage, size);
  const local = bitsArray(tile.bytes, size);
  if (!global || !local) return false;
  const { rows, cols } = matrix;
  const limit = buffer.length;
  const strided = tile.elements();
  const contiguous = innerStride === 1 && strided !== undefined && strided.col === 1;
  // The tile's index is a part of the row plus a part of the column (Tile.elementIndex): the column's found once.
  const colPart = new Int32Array(cols);
  for (let c = 0; c < cols; c++) colPart[c] = oneLinearRow ? c : tile.elementIndex(0, c);
  for (let r = 0; r < rows; r++) {
    if (cols === 0) break;
    const first = matrix.element(r, 0);
    const last = first + (cols - 1) * innerStride;
    if (last < 0 || last >= limit) return false;
    observer?.accessRun(buffer, first, last + 1, how);
    buffer.materialize(Math.min(first, last) * size, (Math.max(first, last) + 1) * size, direction === 'store');
    const at = oneLinearRow ? 0 : tile.elementIndex(r, 0);
    // Every layout's index grows along a row: the row's last element has its largest index.
    if (at + colPart[cols - 1] >= local.length) return false;
    if (contiguous) {
      if (direction === 'load') local.set(global.subarray(first, first + cols), at);
      else {
        global.set(local.subarray(at, at + cols), first);
        buffer.written.fill(1, first, first + cols);
      }
      continue;
    }
    if (direction === 'load') for (let c = 0, index = first; c < cols; c++, index += innerStride) local[at + colPart[c]] = global[index];
    else
      for (let c = 0, index = first; c < cols; c++, index += innerStride) {
        global[index] = local[at + colPart[c]];
        buffer.written[index] = 1;
      }
  }
  return true;
}

/**
 * Transfers copy bits, never values: an f16/f32 NaN keeps its payload (and a signalling NaN stays
 * signalling), and a same-size pair of element types (u16 view, f16 tile) moves the bit pattern.
 */
export function copyElement(from: Uint8Array, fromByte: number, to: Uint8Array, toByte: number, size: number): void {
  for (let k = 0; k < size; k++) to[toByte + k] = from[fromByte + k];
}

/** The element size both sides share (the verifier's same-size rule; checked again here). */
function elementSize(ctx: InstructionContext, buffer: GlobalBuffer, tile: Tile): number {
  if (buffer.codec.size !== tile.codec.size) ctx.trap(`${buffer.name} has ${buffer.elem} elements, but the tile has ${tile.type.dtype}: their sizes differ`);
  return tile.codec.size;
}

/**
 * The value a pad writes (PadValueMap of pto-isa); null for PadNull (leave as is). A custom pad
 * (CUSTOM_PAD_BASE | bits) holds the element's bit pattern: f32 all 32 bits, 16-bit types the low
 * 16, 8-bit types the low 8, 32-bit integers all 32, 64-bit integers the 32 bits zero-extended.
 */
export function padValue(dtype: ElemType, pad: number, ctx: Pick<InstructionContext, 'numerics' | 'backend' | 'trap'>): number | bigint | null {
  if (pad === 0) return null;
  if (isStoredFormat(dtype)) {
    if (pad === 1) return 0;
    ctx.trap(
      `a ${pad >= CUSTOM_PAD_BASE ? 'custom' : pad === 2 ? 'Max' : 'Min'} pad of a ${dtype} tile is not defined here (its format's extremes are not modelled)`,
    );
  }
  if (ctx.backend === 'vpto') return templatePadValue(dtype, pad, ctx);
  const profile = ctx.numerics;
  if (pad >= CUSTOM_PAD_BASE) {
    const c = codec(dtype);
    const bits = new DataView(new ArrayBuffer(8));
    bits.setUint32(0, pad - CUSTOM_PAD_BASE, true);
    return c.read(bits, 0);
  }
  if (pad === 1) return codec(dtype).isFloat ? 0 : dtype === 'i64' || dtype === 'u64' ? 0n : 0;
  const max = pad === 2;
  switch (dtype) {
    case 'f32':
      return max ? Infinity : -Infinity;
    case 'f16':
      // The CPU simulator's numeric_limits<half> has no infinity: it pads with 0 (see docs/numerics.md).
      if (profile === 'cpu-sim') return 0;
      return f16BitsToNumber(max ? 0x7c00 : 0xfc00);
    case 'bf16':
      return bf16BitsToNumber(max ? 0x7f80 : 0xff80);
    case 'i8':
      return max ? 0x7f : -0x80;
    case 'u8':
      return max ? 0xff : 0;
    case 'i16':
      return max ? 0x7fff : -0x8000;
    case 'u16':
      return max ? 0xffff : 0;
    case 'i32':
      return max ? 0x7fffffff : -0x80000000;
    case 'u32':
      return max ? 0xffffffff : 0;
    default:
      return 0n; // 64-bit types always pad with 0
  }
}

/** The largest finite f32, FLT_MAX. */
const F32_MAX = 3.4028234663852886e38;

/**
 * The pad of PTOAS's TileLang templates (lib/TileOps/a5, the vpto back end): Max and Min are the finite extremes of
 * a float type (+-FLT_MAX, +-65504, bf16's +-0x7f7f), not infinities; the integer ones are pto-isa's.
 */
function templatePadValue(dtype: ElemType, pad: number, ctx: Pick<InstructionContext, 'trap'>): number | bigint | null {
  if (pad >= CUSTOM_PAD_BASE || codec(dtype).size === 8)
    ctx.trap(`the vpto back end's pad of ${dtype} tiles ${pad >= CUSTOM_PAD_BASE ? 'with a custom value ' : ''}is not defined here`);
  const max = pad === 2;
  switch (dtype) {
    case 'f32':
      return pad === 1 ? 0 : max ? F32_MAX : -F32_MAX;
    case 'f16':
      return pad === 1 ? 0 : max ? F16_MAX : -F16_MAX;
    case 'bf16':
      return pad === 1 ? 0 : bf16BitsToNumber(max ? 0x7f7f : 0xff7f);
    default:
      return padValue(dtype, pad, { numerics: 'npu', backend: 'emitc', trap: ctx.trap });
  }
}

/**
 * The global layout PTOAS gives the source of a tload of E8M0 scales into a mat tile with fractal 32 (InferPTOLayout's
 * preference, PTOToEmitC's getSpecialScaleGlobalTensorTypeSpecForTileValue): MX_A_ZZ for a row_major/row_major tile of
 * more than one row, MX_B_NN for col_major/col_major; undefined for any other load (a one-row tile stays ND).
 */
export function mxScaleGlobalLayout(t: TileType): 'MX_A_ZZ' | 'MX_B_NN' | undefined {
  if (t.loc !== 'mat' || t.dtype !== '!pto.f8E8M0' || t.fractal !== 32 || t.memref) return undefined;
  if (t.blayout === 'row_major' && t.slayout === 'row_major' && t.rows !== 1) return 'MX_A_ZZ';
  if (t.blayout === 'col_major' && t.slayout === 'col_major') return 'MX_B_NN';
  return undefined;
}

/**
 * The elements a tload into `t` reads from its view's first element when that is not the view's shape: an MX_A_ZZ /
 * MX_B_NN scale load reads the tile's whole rows x cols (its global tensor has the tile's shape). The VM's pointer
 * sizing counts them, as the board harness sizes the buffer from that global tensor.
 */
export function mxScaleLoadElements(t: TileType): number | undefined {
  return mxScaleGlobalLayout(t) ? t.rows * t.cols : undefined;
}

/**
 * A load of MX scales (pto-isa npu/a5 TLoadMxCubeZZ2ZZ / TLoadMxCubeNN2NN). The global tensor has the tile's shape
 * R x C in the MX layout (TileShape2D<R, C, MX_A_ZZ> = Shape<1, R/16, C/2, 16, 2>, BaseShape2D = Stride<RC, 16C, 32, 2,
 * 1>; MX_B_NN: Shape<1, C/16, R/2, 16, 2>, Stride<RC, 16R, 32, 2, 1>). ZZ2ZZ moves R/16 bursts of 16C bytes, source
 * stride 16C, destination stride 16 * Cols = 16C; NN2NN C/16 bursts of 16R bytes, strides 16R and 16 * Rows = 16R:
 * both copy the R * C bytes from the view's first element to the tile's bytes in order, whatever the valid region
 * (the data is already in the tile's fractal order in global memory) and without padding.
 */
function loadMxScales(ctx: InstructionContext, view: PartitionView, tile: Tile, layout: 'MX_A_ZZ' | 'MX_B_NN'): void {
  const t = tile.type;
  // TileShape2D's static_asserts (cols % 2 for MX_A_ZZ, rows % 2 for MX_B_NN); the bursts count whole 16-row / 16-col blocks.
  const [block, blockDim, pair, pairDim] = layout === 'MX_A_ZZ' ? [t.rows, 'rows', t.cols, 'cols'] : [t.cols, 'cols', t.rows, 'rows'];
  if (block % 16 !== 0 || pair % 2 !== 0)
    ctx.trap(
      `a load of MX scales in PTOAS's ${layout} layout needs the tile's ${blockDim} to be a multiple of 16 and its ${pairDim} even (pto-isa's TileShape2D, whole bursts); the tile is ${t.rows}x${t.cols}`,
    );
  const src = view.buffer;
  elementSize(ctx, src, tile);
  const count = t.rows * t.cols;
  if (view.offset < 0 || view.offset + count > src.length)
    ctx.trap(
      `${src.name}: a load of MX scales (${layout}) reads the tile's ${t.rows}x${t.cols} = ${count} bytes from element ${view.offset}, past the buffer's ${src.length}`,
    );
  for (let k = 0; k < count; k++) src.copyElementTo(view.offset + k, tile.bytes, k);
}

export function load(ctx: InstructionContext): void {
  const view = ctx.view('src');
  const tile = ctx.tile('dst');
  const mx = mxScaleGlobalLayout(tile.type);
  if (mx) return loadMxScales(ctx, view, tile, mx);
  const src = view.buffer;
  const size = elementSize(ctx, src, tile);
  // The pad first: a view larger than the valid region also writes past it, and what it copies stays.
  const pad = padValue(tile.type.dtype, tile.type.pad, ctx);
  if (pad !== null) {
    for (let r = 0; r < tile.type.rows; r++) {
      for (let c = 0; c < tile.type.cols; c++) {
        if (r >= tile.vRow || c >= tile.vCol) tile.set(r, c, pad);
      }
    }
  }
  if (!fastTransfer(ctx, view, tile, 'load'))
    forEachTransfer(ctx, view, tile, 'load', (r, c, index) => src.copyElementTo(index, tile.bytes, tile.elementIndex(r, c) * size));
}

/**
 * TSTORE and TSTORE_FP. Bits are copied between same-size types; from an Acc tile an f32 accumulator may also be
 * stored as f16 or bf16 (the fixpipe's cast, TSTORE manual's ACC-to-GM table), rounded to nearest even. The relu,
 * scalar-quant ({pre_quant}) and vector-quant (tstore_fp's fp tile) forms go through numerics/fixpipe.ts.
 */
export function store(ctx: InstructionContext): void {
  const view = ctx.view('dst');
  const tile = ctx.tile('src');
  const dst = view.buffer;
  const fixpipe = fixpipeOptions(ctx);
  const atomicAdd = ctx.attribute('atomicType') === 'atomic_add';
  if (tile.type.loc === 'acc' && usesFixpipe(fixpipe)) return storeThroughFixpipe(ctx, view, tile, fixpipe, atomicAdd);
  if (tile.type.loc === 'acc' && tile.type.dtype !== dst.elem) return storeConverted(ctx, view, tile, atomicAdd);
  if (atomicAdd) {
    forEachTransfer(ctx, view, tile, 'store', (r, c, index) => writeElement(dst, index, tile.get(r, c), true));
    return;
  }
  const size = elementSize(ctx, dst, tile);
  // The NPU stores a one-row vec tile as ND rows whatever its box layout (pto-isa a5 TStore: CheckStaticVec's one-row
  // case, TStoreVecND's bursts read row r from r * Cols): element (0, c) is byte c * size, not its place in a box.
  const linear =
    ctx.numerics === 'npu' && ctx.target === 'a5' && tile.type.loc === 'vec' && tile.type.rows === 1 && tile.type.slayout !== 'none_box' && !tile.strides;
  const tileIndex = (r: number, c: number) => (linear ? c : tile.elementIndex(r, c));
  if (fastTransfer(ctx, view, tile, 'store', linear)) return;
  forEachTransfer(ctx, view, tile, 'store', (r, c, index) => dst.copyElementFrom(index, tile.bytes, tileIndex(r, c) * size));
}

/** Writes element `index` of a global buffer: the value, or with atomic add its sum with what is there, rounded to the buffer's type. */
function writeElement(dst: GlobalBuffer, index: number, value: Scalar, atomicAdd: boolean): void {
  if (!atomicAdd) return dst.writeElement(index, dst.codec.round(value));
  dst.updateElement(index, (old) => dst.codec.round(typeof old === 'bigint' || typeof value === 'bigint' ? BigInt(old) + BigInt(value) : old + value));
}

/** An f32 accumulator stored as f16/bf16; the other converting stores need quantisation parameters (pre_quant, tstore_fp). */
function storeConverted(ctx: InstructionContext, view: PartitionView, tile: Tile, atomicAdd: boolean): void {
  const dst = view.buffer;
  if (tile.type.dtype !== 'f32' || (dst.elem !== 'f16' && dst.elem !== 'bf16')) {
    ctx.trap(`storing a ${tile.type.dtype} accumulator as ${dst.elem} needs a quant word ({pre_quant = WORD} or pto.tstore_fp)`);
  }
  const cast = accumulatorCast(ctx, dst.elem);
  forEachTransfer(ctx, view, tile, 'store', (r, c, index) => writeElement(dst, index, cast(tile.get(r, c) as number), atomicAdd));
}

/**
 * An Acc tile through the fixpipe into global memory. The quant word of element (r, c): the scalar word, or fp's
 * column c (npu); the simulator indexes its word vector by row for a column-major tile such as Acc (cpu/TStore.hpp).
 */
function storeThroughFixpipe(ctx: InstructionContext, view: PartitionView, tile: Tile, options: FixpipeOptions, atomicAdd: boolean): void {
  const dst = view.buffer;
  const convert = fixpipeFor(ctx, options, tile, dst.elem, 'tstore');
  const fp = ctx.optionalTile('fp');
  const words = fp ? quantWords(fp) : undefined;
  const byRow = ctx.numerics === 'cpu-sim' && tile.type.blayout === 'col_major';
  const wordAt = (r: number, c: number): bigint => {
    if (!words) return options.word;
    const k = byRow ? r : c;
    if (k >= words.length)
      ctx.trap(`fp has ${words.length} valid cols, but ${byRow ? `row ${r} (the simulator picks the word by row)` : `col ${c}`} needs a word`);
    return words[k];
  };
  forEachTransfer(ctx, view, tile, 'store', (r, c, index) => writeElement(dst, index, convert(tile.get(r, c) as number, wordAt(r, c)), atomicAdd));
}
