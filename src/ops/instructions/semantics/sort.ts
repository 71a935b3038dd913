import { Tile } from '../../../machine/memory';
import { InstructionContext, SemanticsModule } from './context';
import { copyElement } from './memory';

/**
 * TSORT32 and TMRGSORT work on 8-byte records: [value f32, index u32] (2 f32 columns) or [value f16, 0, index u32]
 * (4 f16 columns), written along a row. Records are copied as bits: sorting selects, it computes nothing.
 */
const RECORD_BYTES = 8;
const BLOCK = 32;

interface SortRecord {
  /** The value, for comparisons. */
  value: number;
  /** The 8 bytes of the record as they are stored. */
  bytes: Uint8Array;
}

const recordColumns = (tile: Tile): number => RECORD_BYTES / tile.codec.size;

function readRecord(tile: Tile, row: number, position: number): SortRecord {
  const size = tile.codec.size;
  const k = recordColumns(tile);
  const bytes = new Uint8Array(RECORD_BYTES);
  for (let i = 0; i < k; i++) copyElement(tile.bytes, tile.elementIndex(row, position * k + i) * size, bytes, i * size, size);
  return { value: tile.get(row, position * k) as number, bytes };
}

function writeRecord(tile: Tile, row: number, position: number, record: SortRecord): void {
  const size = tile.codec.size;
  const k = recordColumns(tile);
  for (let i = 0; i < k; i++) copyElement(record.bytes, i * size, tile.bytes, tile.elementIndex(row, position * k + i) * size, size);
}

/** A record made of a value (its bits, copied from `src`) and an index. */
function makeRecord(src: Tile, row: number, col: number, index: number): SortRecord {
  const size = src.codec.size;
  const bytes = new Uint8Array(RECORD_BYTES);
  copyElement(src.bytes, src.elementIndex(row, col) * size, bytes, 0, size);
  new DataView(bytes.buffer).setUint32(4, index, true); // f16 records keep bytes 2..3 zero
  return { value: src.get(row, col) as number, bytes };
}

const indexOf = (record: SortRecord): number => new DataView(record.bytes.buffer).getUint32(4, true);

/**
 * The padding of a partial last block on the NPU (4-argument form): the header fills it with `-(0.0/0.0)`, the
 * negative quiet NaN, and the manual says these records sort after every real value.
 */
function paddingRecord(src: Tile, index: number): SortRecord {
  const bytes = new Uint8Array(RECORD_BYTES);
  const view = new DataView(bytes.buffer);
  if (src.codec.size === 4) view.setUint32(0, 0xffc00000, true);
  else view.setUint16(0, 0xfe00, true);
  view.setUint32(4, index, true);
  return { value: NaN, bytes };
}

/** Descending by value; equal values (+0 and -0 too) by smaller index, then in their order (a stable sort). */
function sortBlock(records: SortRecord[]): SortRecord[] {
  return records
    .map((record, position) => ({ record, position }))
    .sort((a, b) => b.record.value - a.record.value || indexOf(a.record) - indexOf(b.record) || a.position - b.position)
    .map((x) => x.record);
}

/** Where the index of src(r, c) comes from: idx(r, c), or idx(0, c) for a one-row idx on the NPU. */
function indexRow(ctx: InstructionContext, src: Tile, idx: Tile): (r: number) => number {
  if (ctx.numerics === 'npu' && idx.vRow === 1) return () => 0;
  if (idx.vRow !== src.vRow) ctx.trap(`idx has ${idx.vRow} valid rows; it needs src's ${src.vRow}${ctx.numerics === 'npu' ? ' or 1' : ''}`);
  return (r) => r;
}

/**
 * TSORT32: each row of src in blocks of 32, each block's (value, index) records sorted descending into dst.
 * cpu-sim sorts a partial last block as it is (n < 32 records); npu needs the 4-argument form (tmp) for one and
 * then writes a full block, the valid records followed by padding records (docs/numerics.md).
 */
export function sort32(ctx: InstructionContext): void {
  const src = ctx.tile('src');
  const dst = ctx.tile('dst');
  const idx = ctx.tile('idx');
  const tmp = ctx.optionalTile('tmp');
  if (ctx.numerics === 'cpu-sim' && (idx.vRow !== src.vRow || idx.vCol !== src.vCol)) {
    // The simulator returns without writing anything when the valid regions differ (cpu/TSort32.hpp).
    ctx.note(`pto.tsort32: idx's valid region (${idx.vRow}x${idx.vCol}) differs from src's (${src.vRow}x${src.vCol}): the CPU simulator leaves dst untouched`);
    return;
  }
  const idxRow = indexRow(ctx, src, idx);
  const tail = src.vCol % BLOCK;
  if (ctx.numerics === 'npu' && tail !== 0 && !tmp) {
    ctx.trap(`src has ${src.vCol} valid columns, not a multiple of 32: the NPU sorts a partial block only in the 4-argument form (with tmp)`);
  }
  const padded = ctx.numerics === 'npu' && tail !== 0;
  const records = padded ? src.vCol - tail + BLOCK : src.vCol;
  if (records * recordColumns(dst) > dst.vCol) {
    ctx.trap(`dst needs ${records * recordColumns(dst)} valid columns for ${records} records per row, but has ${dst.vCol}`);
  }
  if (padded && records > idx.type.cols)
    ctx.trap(`the NPU reads the indices of the padded last block from idx columns up to ${records - 1}, past idx's ${idx.type.cols} columns`);
  for (let r = 0; r < src.vRow; r++) {
    for (let start = 0; start < src.vCol; start += BLOCK) {
      const n = Math.min(BLOCK, src.vCol - start);
      const block: SortRecord[] = [];
      for (let k = 0; k < n; k++) block.push(makeRecord(src, r, start + k, Number(idx.get(idxRow(r), start + k))));
      if (block.some((x) => Number.isNaN(x.value))) {
        ctx.trap(
          'a NaN in src: its place in the sorted order is not defined (the NPU manual does not give it; the simulator’s comparator is not a strict weak order)',
        );
      }
      const sorted = sortBlock(block);
      if (padded && n < BLOCK) {
        const pads: SortRecord[] = [];
        for (let k = n; k < BLOCK; k++) pads.push(paddingRecord(src, Number(idx.get(idxRow(r), start + k))));
        sorted.push(...pads.sort((a, b) => indexOf(a) - indexOf(b)));
      }
      sorted.forEach((record, k) => writeRecord(dst, r, start + k, record));
    }
  }
}

/**
 * A merge of sorted (descending) lists as pto-isa's simulator does it: the first non-empty list's head is taken
 * unless a later list's head is strictly greater, so equal values keep the list order (the manual's vmrgsort4 is
 * stable). At most `limit` records.
 */
function merge(ctx: InstructionContext, lists: SortRecord[][], limit: number): SortRecord[] {
  if (ctx.numerics === 'npu' && lists.some((l) => l.some((x) => Number.isNaN(x.value)))) {
    ctx.trap('a NaN value in a list: where vmrgsort4 places it is not documented');
  }
  const heads = lists.map(() => 0);
  const out: SortRecord[] = [];
  while (out.length < limit) {
    let pick = -1;
    for (let l = 0; l < lists.length; l++) {
      if (heads[l] >= lists[l].length) continue;
      if (pick < 0 || lists[l][heads[l]].value > lists[pick][heads[pick]].value) pick = l;
    }
    if (pick < 0) break;
    out.push(lists[pick][heads[pick]++]);
  }
  return out;
}

function readList(tile: Tile, first: number, count: number): SortRecord[] {
  return Array.from({ length: count }, (_, p) => readRecord(tile, 0, first + p));
}

/** TMRGSORT format 1: src0 is groups of 4 sorted blocks of blockLen elements; each group merges into dst. */
function mergeBlocks(ctx: InstructionContext, blockLen: number): void {
  const src = ctx.tile('src0');
  const dst = ctx.tile('dst');
  if (blockLen <= 0 || blockLen % 64 !== 0) ctx.trap(`blockLen must be a positive multiple of 64, got ${blockLen}`);
  const group = 4 * blockLen;
  const repeats = src.vCol / group;
  if (!Number.isInteger(repeats) || repeats < 1 || repeats > 255) {
    ctx.trap(`src's ${src.vCol} valid columns must be 1 to 255 groups of 4 x blockLen = ${group}`);
  }
  if (dst.vCol < src.vCol) ctx.trap(`dst has ${dst.vCol} valid columns, fewer than src's ${src.vCol}`);
  const perBlock = blockLen / recordColumns(src);
  for (let g = 0; g < repeats; g++) {
    const first = g * 4 * perBlock;
    const lists = [0, 1, 2, 3].map((b) => readList(src, first + b * perBlock, perBlock));
    merge(ctx, lists, 4 * perBlock).forEach((record, p) => writeRecord(dst, 0, first + p, record));
  }
}

/**
 * TMRGSORT format 2: merges src0..src3 (valid columns / record columns records each). cpu-sim writes up to dst's
 * valid records into dst and leaves tmp alone; npu merges everything into tmp and copies dst's valid columns from
 * it (npu/a2a3/TMrgSort.hpp: vmrgsort4 into tmp, then a UB-to-UB copy).
 */
function mergeLists(ctx: InstructionContext, sources: Tile[]): void {
  if (ctx.flag('exhausted')) ctx.trap('exhausted = true is not implemented yet: the VM cannot return the executed counts (vector<4xi16>)');
  const dst = ctx.tile('dst');
  const k = recordColumns(dst);
  const lists = sources.map((s) => readList(s, 0, Math.floor(s.vCol / k)));
  const total = lists.reduce((n, l) => n + l.length, 0);
  if (ctx.numerics === 'cpu-sim') {
    merge(ctx, lists, Math.floor(dst.vCol / k)).forEach((record, p) => writeRecord(dst, 0, p, record));
    return;
  }
  const tmp = ctx.optionalTile('tmp');
  if (!tmp) return ctx.trap('format 2 without tmp (no_tmp: PTOAS allocates it) is not implemented yet under npu numerics, which merge through tmp');
  if (tmp.vCol < total * k) ctx.trap(`tmp needs ${total * k} valid columns for the ${total} merged records, but has ${tmp.vCol}`);
  if (dst.vCol > tmp.vCol) ctx.trap(`dst's ${dst.vCol} valid columns are copied from tmp, which has ${tmp.vCol}`);
  merge(ctx, lists, total).forEach((record, p) => writeRecord(tmp, 0, p, record));
  const size = dst.codec.size;
  for (let c = 0; c < dst.vCol; c++) copyElement(tmp.bytes, tmp.elementIndex(0, c) * size, dst.bytes, dst.elementIndex(0, c) * size, size);
}

/** TMRGSORT: the second ins operand is blockLen (format 1) or the list src1 (format 2). */
export function mergeSort(ctx: InstructionContext): void {
  const src1 = ctx.optionalTile('src1');
  if (!src1) return mergeBlocks(ctx, Number(ctx.scalar('src1')));
  const sources = [ctx.tile('src0'), src1, ctx.optionalTile('src2'), ctx.optionalTile('src3')].filter((t): t is Tile => t !== undefined);
  mergeLists(ctx, sources);
}

export const module: SemanticsModule = { semantics: { sort32, 'merge-sort': mergeSort } };
