import { laneEnables } from '../ascendc/model/mask';
import {
  BLOCKS_PER_REPEAT,
  BlockReduceSumParams,
  CopyParams,
  ReduceOrder,
  VecReduceAddParams,
  WholeReduceMinParams,
  elemsPerBlock,
  lanesPerRepeat,
  resolveBlockReduceSum,
  resolveCopy,
  resolveVecReduceAdd,
  resolveWholeReduceMin,
} from '../ascendc/model/params';
import { A2_CHUNK, vecReduceAddOrder } from '../ascendc/model/vec-reduce-add';
import { AscendcParams } from '../ops/instructions/ascendc-text-form';
import { AttrEntry } from '../syntax/ast';
import { ElemType, elemSize } from '../types/type';
import { Emitter, IndexValue, TileValue, bitsType, roundUp } from './emitter';

/**
 * Lowering of the AscendC/TIK instructions to PTO tile ops (reference/ascendc.md §8; docs/ascendc.md).
 *
 * Every instruction becomes a loop over its repeats. A repeat's lanes are read either through a view
 * of the source's storage (`pto.treshape` to data-block rows, `pto.subset` at the repeat's first
 * block: no copy) when they are contiguous, or gathered element by element (`pto.tgetval` /
 * `pto.tsetval` on integer views, so every bit is kept) into a scratch tile. The arithmetic is done by
 * tile ops whose npu numerics are the vector unit's (TROWSUM's pairwise tree, TROWMIN/TROWARGMIN's
 * first-index ties, fp16 saturation), and the results are written back element by element, so that
 * gaps and masked slots of the destination keep their bits.
 */

export interface LoweringOperands {
  src: TileValue;
  dst: TileValue;
  /** src and dst are one tile: a repeat is read completely before it is written. */
  inPlace: boolean;
}

/** One run of active lanes inside one data block: lanes `lane .. lane+count-1`, block `block`, from element `offset`. */
interface LaneRun {
  lane: number;
  block: number;
  offset: number;
  count: number;
}

function laneRuns(enabled: boolean[], perBlock: number): LaneRun[] {
  const runs: LaneRun[] = [];
  for (let l = 0; l < enabled.length; l++) {
    if (!enabled[l]) continue;
    const last = runs.at(-1);
    if (last && last.lane + last.count === l && Math.floor(l / perBlock) === last.block) last.count++;
    else runs.push({ lane: l, block: Math.floor(l / perBlock), offset: l % perBlock, count: 1 });
  }
  return runs;
}

/** What every lowering needs about the element type and the mask. */
class Lanes {
  readonly size: number;
  readonly perBlock: number;
  readonly perRepeat: number;
  readonly enabled: boolean[];
  readonly runs: LaneRun[];
  readonly bits: ElemType;

  constructor(
    readonly dtype: ElemType,
    readonly mask: AscendcParams['mask'],
  ) {
    this.size = elemSize(dtype);
    this.perBlock = elemsPerBlock(this.size);
    this.perRepeat = lanesPerRepeat(this.size);
    this.enabled = laneEnables(mask, this.size);
    this.runs = laneRuns(this.enabled, this.perBlock);
    this.bits = bitsType(this.size);
  }

  get activeCount(): number {
    return this.enabled.filter(Boolean).length;
  }

  /** The contiguous prefix length m when lanes 0..m-1 are exactly the active ones, else undefined. */
  get prefix(): number | undefined {
    const m = this.activeCount;
    return this.enabled.every((on, l) => on === l < m) ? m : undefined;
  }

  get full(): boolean {
    return this.activeCount === this.perRepeat;
  }
}

/** Element offset, in a flat view of the source, of repeat r's block b (strides in 32-byte blocks). */
function blockOffset(e: Emitter, lanes: Lanes, r: IndexValue, repStride: number, blkStride: number, block: number): IndexValue {
  return e.affine(r, repStride * lanes.perBlock, block * blkStride * lanes.perBlock);
}

/** Gathers repeat r's active lanes from `srcBits` into `to` (an integer view): at their lane, or packed when `packed`. */
function gather(e: Emitter, lanes: Lanes, srcBits: TileValue, r: IndexValue, repStride: number, blkStride: number, to: TileValue, packed: boolean): void {
  let position = 0;
  for (const run of lanes.runs) {
    const from = e.add(blockOffset(e, lanes, r, repStride, blkStride, run.block), run.offset);
    e.moveRun(srcBits, from, to, packed ? position : run.lane, run.count);
    position += run.count;
  }
}

/**
 * The view of repeat r's first `blocks` data blocks, when they are adjacent (block stride 1): the
 * source as 32-byte rows, a window of `blocks` rows at row r*repStride, as one row.
 */
function repeatView(e: Emitter, blockRows: TileValue, r: IndexValue, repStride: number, blocks: number, lanes: Lanes, validCols: number): TileValue {
  const window = e.subset(blockRows, e.affine(r, repStride, 0), 0, blocks, lanes.perBlock);
  return e.reshape(window, { dtype: lanes.dtype, rows: 1, cols: blocks * lanes.perBlock, vCol: validCols }, 'row');
}

/**
 * The call's saturation mode, written out for its f16 adds: the tile ops' default depends on the target (A5 keeps
 * IEEE results), the AscendC call's mode does not.
 */
const saturationAttr = (e: Emitter, dtype: ElemType, sat: boolean): AttrEntry[] => (dtype === 'f16' ? e.flag('saturation', sat) : []);

// ---- WholeReduceMin ------------------------------------------------------------------------------

const ORDER_WRITES: Record<ReduceOrder, { value?: number; index?: number; slot: number; indexBits: 16 | 32 | 'elem' }> = {
  ORDER_VALUE_INDEX: { value: 0, index: 1, slot: 2, indexBits: 'elem' },
  ORDER_INDEX_VALUE: { index: 0, value: 1, slot: 2, indexBits: 'elem' },
  ORDER_ONLY_VALUE: { value: 0, slot: 1, indexBits: 'elem' },
  ORDER_ONLY_INDEX: { index: 0, slot: 1, indexBits: 32 },
};

export function lowerWholeReduceMin(e: Emitter, io: LoweringOperands, params: AscendcParams): void {
  const p = resolveWholeReduceMin(params as unknown as WholeReduceMinParams);
  if (p.repeat === 0) return;
  const lanes = new Lanes(p.dtype as ElemType, p.mask);
  const writes = ORDER_WRITES[p.order];
  // The destination as integers of the slot's element: halves (or words) for values, words for ONLY_INDEX.
  const slotElem: ElemType = writes.indexBits === 32 ? 'i32' : lanes.bits;
  const dstBits = e.flat(io.dst, slotElem, 'd');
  const prefix = lanes.prefix;
  const viewable = prefix !== undefined && p.srcBlkStride === 1;
  const blocks = prefix !== undefined ? Math.ceil(prefix / lanes.perBlock) : 0;
  const blockRows = viewable ? e.blockRows(io.src) : undefined;
  const srcBits = viewable ? undefined : e.flat(io.src, lanes.bits, 's');
  // Without a view, the active lanes are packed into a scratch row; a non-prefix mask needs the map back to lanes.
  const packedCols = roundUp(lanes.activeCount, lanes.perBlock);
  const packed = viewable ? undefined : e.alloc({ dtype: lanes.dtype, rows: 1, cols: packedCols, vCol: lanes.activeCount }, 'pk');
  const packedBits = packed ? e.flat(packed, lanes.bits, 'pkb') : undefined;
  const laneOf = !viewable && prefix === undefined ? e.alloc({ dtype: 'i32', rows: 1, cols: roundUp(lanes.activeCount, 8) }, 'lane') : undefined;
  if (laneOf) {
    let position = 0;
    for (const run of lanes.runs) {
      e.loop(0, run.count, (k) => {
        const lane = e.cast(e.index(e.add(k, run.lane)), 'index', 'i32', 'arith.index_cast');
        e.setval(laneOf, e.add(k, position), lane);
      });
      position += run.count;
    }
  }
  const rowCols = viewable ? blocks * lanes.perBlock : packedCols;
  const tmp = e.alloc({ dtype: lanes.dtype, rows: 1, cols: rowCols }, 'tmp');
  const value = e.alloc({ dtype: lanes.dtype, rows: lanes.perBlock, cols: 1, vRow: 1, columnMajor: true }, 'min');
  const valueBits = e.flat(value, lanes.bits, 'minb');
  const index = e.alloc({ dtype: 'i32', rows: 8, cols: 1, vRow: 1, columnMajor: true }, 'arg');
  e.loop(0, p.repeat, (r) => {
    let row: TileValue;
    if (viewable) {
      row = repeatView(e, blockRows!, r, p.srcRepStride, blocks, lanes, prefix!);
    } else {
      gather(e, lanes, srcBits!, r, p.srcRepStride, p.srcBlkStride, packedBits!, true);
      row = packed!;
    }
    const slot = e.affine(r, p.dstRepStride * writes.slot, 0);
    if (writes.value !== undefined) {
      e.op('trowmin', [row, tmp], [value]);
      e.setval(dstBits, e.add(slot, writes.value), e.getval(valueBits, 0));
    }
    if (writes.index !== undefined) {
      e.op('trowargmin', [row, tmp], [index]);
      let lane = e.getval(index, 0);
      if (laneOf) lane = e.getval(laneOf, e.cast(lane, 'i32', 'index', 'arith.index_cast'));
      if (slotElem === 'i16') lane = e.cast(lane, 'i32', 'i16', 'arith.trunci');
      e.setval(dstBits, e.add(slot, writes.index), lane);
    }
  });
}

// ---- BlockReduceSum ------------------------------------------------------------------------------

export function lowerBlockReduceSum(e: Emitter, io: LoweringOperands, params: AscendcParams): void {
  const p = resolveBlockReduceSum(params as unknown as BlockReduceSumParams);
  if (p.repeat === 0) return;
  const lanes = new Lanes(p.dtype as ElemType, p.mask);
  const E = lanes.perBlock;
  const dstBits = e.flat(io.dst, lanes.bits, 'd');
  const viewable = lanes.full && p.srcBlkStride === 1;
  const blockRows = viewable ? e.blockRows(io.src) : undefined;
  const srcBits = viewable ? undefined : e.flat(io.src, lanes.bits, 's');
  // Without a view: one repeat as 8 rows of E lanes, masked lanes +0 (they are never written).
  const scratch = viewable ? undefined : e.alloc({ dtype: lanes.dtype, rows: BLOCKS_PER_REPEAT, cols: E }, 'x');
  const scratchBits = scratch ? e.flat(scratch, lanes.bits, 'xb') : undefined;
  if (scratchBits) e.fill(scratchBits, 0);
  const tmp = e.alloc({ dtype: lanes.dtype, rows: BLOCKS_PER_REPEAT, cols: E }, 'tmp');
  const sumRows = Math.max(BLOCKS_PER_REPEAT, E);
  const sums = e.alloc({ dtype: lanes.dtype, rows: sumRows, cols: 1, vRow: BLOCKS_PER_REPEAT, columnMajor: true }, 'sum');
  const sumBits = e.flat(sums, lanes.bits, 'sumb');
  // A2 (and 910, 310P) leave a block with no active lane unwritten; 310B writes its sum, 0.
  const written = Array.from({ length: BLOCKS_PER_REPEAT }, (_, b) => p.product === '310B' || lanes.enabled.slice(b * E, b * E + E).some(Boolean));
  e.loop(0, p.repeat, (r) => {
    let blocks: TileValue;
    if (viewable) {
      blocks = e.subset(blockRows!, e.affine(r, p.srcRepStride, 0), 0, BLOCKS_PER_REPEAT, E);
    } else {
      gather(e, lanes, srcBits!, r, p.srcRepStride, p.srcBlkStride, scratchBits!, false);
      blocks = scratch!;
    }
    e.op('trowsum', [blocks, tmp], [sums], saturationAttr(e, lanes.dtype, p.sat));
    const base = e.affine(r, p.dstRepStride * BLOCKS_PER_REPEAT, 0);
    written.forEach((w, b) => {
      if (w) e.setval(dstBits, e.add(base, b), e.getval(sumBits, b));
    });
  });
}

// ---- vec_reduce_add ------------------------------------------------------------------------------

export function lowerVecReduceAdd(e: Emitter, io: LoweringOperands, params: AscendcParams): void {
  const p = resolveVecReduceAdd(params as unknown as VecReduceAddParams);
  const lanes = new Lanes(p.dtype as ElemType, p.mask);
  const L = lanes.perRepeat;
  const sat = saturationAttr(e, lanes.dtype, p.sat);
  const dstBits = e.flat(io.dst, lanes.bits, 'd');
  // Repeat r as one row of L lanes: a view when every lane is active, else gathered with masked lanes +0.
  const viewable = lanes.full;
  const blockRows = viewable ? e.blockRows(io.src) : undefined;
  const srcBits = viewable ? undefined : e.flat(io.src, lanes.bits, 's');
  const scratch = viewable ? undefined : e.alloc({ dtype: lanes.dtype, rows: 1, cols: L }, 'x');
  const scratchBits = scratch ? e.flat(scratch, lanes.bits, 'xb') : undefined;
  if (scratchBits) e.fill(scratchBits, 0);
  const row = (r: IndexValue): TileValue => {
    if (viewable) return repeatView(e, blockRows!, r, p.srcRepStride, BLOCKS_PER_REPEAT, lanes, L);
    gather(e, lanes, srcBits!, r, p.srcRepStride, 1, scratchBits!, false);
    return scratch!;
  };
  const rowTmp = e.alloc({ dtype: lanes.dtype, rows: 1, cols: L }, 'tmp');
  const result = e.alloc({ dtype: lanes.dtype, rows: lanes.perBlock, cols: 1, vRow: 1, columnMajor: true }, 'res');
  const resultBits = e.flat(result, lanes.bits, 'resb');
  const R = p.repeat;

  switch (vecReduceAddOrder(p.product)) {
    case 'tree': {
      // rs_r into a zeroed column, then its L-lane groups (a sub-tree each), then the group sums.
      const groups = Math.ceil(R / L);
      const rs = e.alloc({ dtype: lanes.dtype, rows: (groups + 1) * L, cols: 1, columnMajor: true }, 'rs');
      e.fill(e.flat(rs, lanes.bits, 'rsb'), 0);
      e.loop(0, R, (r) => {
        const at = e.reshape(e.subset(rs, r, 0, lanes.perBlock, 1), { dtype: lanes.dtype, rows: lanes.perBlock, cols: 1, vRow: 1, columnMajor: true }, 'rsr');
        e.op('trowsum', [row(r), rowTmp], [at], sat);
      });
      const grid = e.reshape(rs, { dtype: lanes.dtype, rows: groups + 1, cols: L, vRow: groups, vCol: groups === 1 ? R : L }, 'grid');
      const gridTmp = e.alloc({ dtype: lanes.dtype, rows: groups + 1, cols: L }, 'tmp');
      if (groups === 1) {
        e.op('trowsum', [grid, gridTmp], [result], sat);
        break;
      }
      const groupRows = roundUp(groups, lanes.perBlock);
      const groupSums = e.alloc({ dtype: lanes.dtype, rows: groupRows, cols: 1, vRow: groups, columnMajor: true }, 'gs');
      e.op('trowsum', [grid, gridTmp], [groupSums], sat);
      const groupRow = e.reshape(groupSums, { dtype: lanes.dtype, rows: 1, cols: groupRows, vCol: groups }, 'gsr');
      const groupTmp = e.alloc({ dtype: lanes.dtype, rows: 1, cols: groupRows }, 'tmp');
      e.op('trowsum', [groupRow, groupTmp], [result], sat);
      break;
    }
    case 'a2': {
      // Sequential sums of up to 255 repeat sums each, then the tree over the chunk sums.
      const chunks = Math.ceil(R / A2_CHUNK);
      const acc = e.alloc({ dtype: lanes.dtype, rows: 1, cols: lanes.perBlock, vCol: 1 }, 'acc');
      const term = e.alloc({ dtype: lanes.dtype, rows: 1, cols: lanes.perBlock, vCol: 1 }, 'term');
      const accBits = e.flat(acc, lanes.bits, 'accb');
      const chunkCols = roundUp(chunks, lanes.perBlock);
      const chunkSums = e.alloc({ dtype: lanes.dtype, rows: 1, cols: chunkCols, vCol: chunks }, 'cs');
      const chunkBits = e.flat(chunkSums, lanes.bits, 'csb');
      for (let k = 0; k < chunks; k++) {
        const first = k * A2_CHUNK;
        const end = Math.min(R, first + A2_CHUNK);
        e.op('trowsum', [row(first), rowTmp], [acc], sat);
        e.loop(first + 1, end, (r) => {
          e.op('trowsum', [row(r), rowTmp], [term], sat);
          e.op('tadd', [acc, term], [acc], sat);
        });
        e.setval(chunkBits, k, e.getval(accBits, 0));
      }
      const chunkTmp = e.alloc({ dtype: lanes.dtype, rows: 1, cols: chunkCols }, 'tmp');
      e.op('trowsum', [chunkSums, chunkTmp], [result], sat);
      break;
    }
    case 'oddeven': {
      // Lane-wise sums of the even and of the odd repeats, their sum (plus the last repeat if R is odd), then the tree.
      const even = e.alloc({ dtype: lanes.dtype, rows: 1, cols: L }, 'even');
      if (R === 1) {
        e.op('tmov', [row(0)], [even]);
      } else {
        const odd = e.alloc({ dtype: lanes.dtype, rows: 1, cols: L }, 'odd');
        e.op('tmov', [row(0)], [even]);
        e.op('tmov', [row(1)], [odd]);
        e.loop(1, Math.floor(R / 2), (i) => {
          e.op('tadd', [even, row(e.affine(i, 2, 0))], [even], sat);
          e.op('tadd', [odd, row(e.affine(i, 2, 1))], [odd], sat);
        });
        e.op('tadd', [even, odd], [even], sat);
        if (R % 2 === 1) e.op('tadd', [even, row(R - 1)], [even], sat);
      }
      e.op('trowsum', [even, rowTmp], [result], sat);
      break;
    }
  }
  e.setval(dstBits, 0, e.getval(resultBits, 0));
}

// ---- Copy ----------------------------------------------------------------------------------------

export function lowerCopy(e: Emitter, io: LoweringOperands, params: AscendcParams): void {
  const p = resolveCopy(params as unknown as CopyParams);
  if (p.repeat === 0) return;
  const lanes = new Lanes(p.dtype as ElemType, p.mask);
  const srcBits = e.flat(io.src, lanes.bits, 's');
  const dstBits = io.inPlace ? srcBits : e.flat(io.dst, lanes.bits, 'd');
  // In place, a repeat is read completely (into a scratch row) before it is written.
  const staging = io.inPlace ? e.alloc({ dtype: lanes.bits, rows: 1, cols: lanes.perRepeat }, 'stage') : undefined;
  e.loop(0, p.repeat, (r) => {
    for (const run of lanes.runs) {
      const from = e.add(blockOffset(e, lanes, r, p.srcRepeatSize, p.srcStride, run.block), run.offset);
      if (staging) e.moveRun(srcBits, from, staging, run.lane, run.count);
      else e.moveRun(srcBits, from, dstBits, e.add(blockOffset(e, lanes, r, p.dstRepeatSize, p.dstStride, run.block), run.offset), run.count);
    }
    if (!staging) return;
    for (const run of lanes.runs) {
      e.moveRun(staging, run.lane, dstBits, e.add(blockOffset(e, lanes, r, p.dstRepeatSize, p.dstStride, run.block), run.offset), run.count);
    }
  });
}

export const LOWERINGS: Record<string, (e: Emitter, io: LoweringOperands, params: AscendcParams) => void> = {
  'ascendc.whole_reduce_min': lowerWholeReduceMin,
  'ascendc.block_reduce_sum': lowerBlockReduceSum,
  'tik.vec_reduce_add': lowerVecReduceAdd,
  'ascendc.copy': lowerCopy,
};
