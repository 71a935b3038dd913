import { Tile } from '../../../machine/memory';
import { elemTypeName } from '../../../types/type';
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

/** A record made of a value (its bits, copied from `src`) and an index (an i32 idx's negative value as its 32 bits). */
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

/**
 * Descending by value; equal values (+0 and -0 too) by smaller index, then in their order (a stable sort). A NaN
 * is a trap: its place is not defined (the NPU manual does not give it; the simulator's comparator is not a strict
 * weak order).
 */
function sortBlock(ctx: InstructionContext, records: SortRecord[]): SortRecord[] {
  if (records.some((x) => Number.isNaN(x.value))) ctx.trap('a NaN in src: its place in the sorted order is not defined');
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
 * The pad value of PTOAS's A5 template (lib/TileOps/a5/tsort32.py, _pad_min): the integers 0xFF800000 and 0xFC00
 * taken as numbers, not as bits (pto.f32(0xFF800000) is 4286578688.0, pto.f16(0xFC00) 64512.0), so the pads are
 * large finite values that sort before the data.
 */
const TEMPLATE_PAD: Record<number, number> = { 4: 4286578688, 2: 64512 };

/** MAX_UB_TMP of pto-isa and the template: a row of at most this many bytes goes through tmp whole, else its tail alone. */
const MAX_UB_TMP = 32 * 255;

/** The elements the tail path writes into tmp (pto-isa's tmpSize): the row rounded up to 32, or one block. */
const tmpElements = (validCols: number, size: number): number => (validCols * size <= MAX_UB_TMP ? Math.ceil(validCols / BLOCK) * BLOCK : BLOCK);

/**
 * TSORT32: each row of src in blocks of 32, each block's (value, index) records sorted descending into dst, at
 * dst's columns from the row's start, within dst's storage row whatever dst's valid columns (pto-isa and the
 * simulator write at the element offsets). A row whose length is not a multiple of 32 ends with a partial block:
 * cpu-sim sorts it as it is (n < 32 records); npu sorts a full block through tmp (PTOAS supplies one when the
 * program leaves it out, pto-materialize-implicit-tmp), the partial block's records among padding ones:
 * - emitc, pto-isa's A5 TSort32Impl with tmp: the block's columns past the row's end hold -(0.0/0.0), the negative
 *   quiet NaN, which sorts after every value, and all 32 records are written (docs/numerics.md);
 * - vpto, PTOAS's template (tsort32.py, template_tsort32_with_tmp): see templateSort.
 * The indices come from idx's storage along the row, past its valid columns for the padding (the hardware's
 * addressing: past a row's end, the next row's).
 */
export function sort32(ctx: InstructionContext): void {
  const src = ctx.tile('src');
  const dst = ctx.tile('dst');
  const idx = ctx.tile('idx');
  if (ctx.numerics === 'cpu-sim' && (idx.vRow !== src.vRow || idx.vCol !== src.vCol)) {
    // The simulator returns without writing anything when the valid regions differ (cpu/TSort32.hpp).
    ctx.note(`pto.tsort32: idx's valid region (${idx.vRow}x${idx.vCol}) differs from src's (${src.vRow}x${src.vCol}): the CPU simulator leaves dst untouched`);
    return;
  }
  // pto-isa and the template sort dst's valid rows, the simulator src's.
  if (ctx.numerics === 'npu' && dst.vRow !== src.vRow) ctx.trap(`sorting dst's ${dst.vRow} valid rows of src's ${src.vRow} is not implemented yet`);
  const idxRow = indexRow(ctx, src, idx);
  const indexAt = (r: number, c: number): number => Number(idx.get(idxRow(r), c));
  const tail = src.vCol % BLOCK;
  const padded = ctx.numerics === 'npu' && tail !== 0;
  const records = padded ? src.vCol - tail + BLOCK : src.vCol;
  if (records * recordColumns(dst) > dst.type.cols) {
    ctx.trap(`the ${records} records of a row take ${records * recordColumns(dst)} columns of dst, past its ${dst.type.cols}`);
  }
  const tmp = ctx.optionalTile('tmp');
  // pto-isa reads tmp as src's element type whatever its own (PTOAS takes a tmp of any type): capacity in src elements.
  const tmpHolds = tmp ? Math.floor((tmp.type.rows * tmp.type.cols * tmp.codec.size) / src.codec.size) : 0;
  if (padded && tmp && tmpHolds < tmpElements(src.vCol, src.codec.size)) {
    const of = tmp.type.dtype === src.type.dtype ? '' : ` ${elemTypeName(tmp.type.dtype)}`;
    ctx.trap(
      `the partial last block goes through tmp's first ${tmpElements(src.vCol, src.codec.size)} elements, but tmp (${tmp.type.rows}x${tmp.type.cols}${of}) has ` +
        `${tmpHolds}: the NPU would write past it`,
    );
  }
  if (padded && ctx.backend === 'vpto') return templateSort(ctx, src, dst, indexAt);
  for (let r = 0; r < src.vRow; r++) {
    for (let start = 0; start < src.vCol; start += BLOCK) {
      const n = Math.min(BLOCK, src.vCol - start);
      const block: SortRecord[] = [];
      for (let k = 0; k < n; k++) block.push(makeRecord(src, r, start + k, indexAt(r, start + k)));
      const sorted = sortBlock(ctx, block);
      if (padded && n < BLOCK) {
        const pads: SortRecord[] = [];
        for (let k = n; k < BLOCK; k++) pads.push(paddingRecord(src, indexAt(r, start + k)));
        sorted.push(...pads.sort((a, b) => indexOf(a) - indexOf(b)));
      }
      sorted.forEach((record, k) => writeRecord(dst, r, start + k, record));
    }
  }
}

/**
 * The partial last block under PTOAS's template (template_tsort32_with_tmp), as it runs: it copies the row (the
 * tail block alone past MAX_UB_TMP bytes) into tmp in 32-byte bursts, stores its pad over the first 32 - n columns of
 * the last block in tmp (pto.make_mask(dtype, 32 - n) takes the first lanes, so the pads land on the data, not after
 * it) and sorts tmp's blocks. So the last block holds the pads, then whatever tmp holds in its other n columns:
 * the row's data past the pads, src's columns past its valid ones that the burst copied, tmp's own earlier contents.
 * Without an explicit tmp (PTOAS allocates one) those contents are unknown: a trap.
 */
function templateSort(ctx: InstructionContext, src: Tile, dst: Tile, indexAt: (r: number, c: number) => number): void {
  const tmp = ctx.optionalTile('tmp');
  if (!tmp) {
    ctx.trap(
      'a partial last block under the vpto back end without an explicit tmp is not implemented yet: PTOAS allocates the tmp, and its template sorts columns of it that it never writes',
    );
  }
  if (tmp.type.dtype !== src.type.dtype) {
    ctx.trap(
      `a partial last block under the vpto back end with a ${elemTypeName(tmp.type.dtype)} tmp for ${elemTypeName(src.type.dtype)} values is not implemented yet: PTOAS's template takes a tmp of src's type only`,
    );
  }
  const size = src.codec.size;
  const burst = 32 / size;
  const blocks = Math.ceil(src.vCol / BLOCK);
  const n = src.vCol % BLOCK;
  const last = (blocks - 1) * BLOCK;
  const whole = src.vCol * size <= MAX_UB_TMP;
  const flat = (t: Tile, f: number): [number, number] => [Math.floor(f / t.type.cols), f % t.type.cols];
  const pad = TEMPLATE_PAD[size];
  for (let r = 0; r < src.vRow; r++) {
    // The columns of the row that go through tmp start at `from`; tmp's element f holds the row's column from + f.
    const from = whole ? 0 : last;
    const copied = Math.ceil((src.vCol - from) / burst) * burst;
    for (let f = 0; f < copied; f++) tmp.setBits(...flat(tmp, f), src.getBits(r, from + f));
    const padAt = last - from;
    for (let f = padAt; f < padAt + BLOCK - n; f++) tmp.set(...flat(tmp, f), pad);
    for (let start = 0; start < src.vCol; start += BLOCK) {
      const block: SortRecord[] = [];
      for (let k = 0; k < BLOCK; k++) {
        const c = start + k;
        block.push(c >= from ? makeRecord(tmp, ...flat(tmp, c - from), indexAt(r, c)) : makeRecord(src, r, c, indexAt(r, c)));
      }
      sortBlock(ctx, block).forEach((record, k) => writeRecord(dst, r, start + k, record));
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
  const dtype = ctx.tile('dst').type.dtype;
  // PTOAS verifies format 2 of any element type; pto-isa's TMRGSORT static_asserts half/float.
  if (dtype !== 'f16' && dtype !== 'f32')
    ctx.trap(`${elemTypeName(dtype)} lists are not implemented yet: PTOAS accepts them, but pto-isa's TMRGSORT takes f16/f32 only`);
  const src1 = ctx.optionalTile('src1');
  if (!src1) return mergeBlocks(ctx, Number(ctx.scalar('src1')));
  const sources = [ctx.tile('src0'), src1, ctx.optionalTile('src2'), ctx.optionalTile('src3')].filter((t): t is Tile => t !== undefined);
  mergeLists(ctx, sources);
}

export const module: SemanticsModule = { semantics: { sort32, 'merge-sort': mergeSort } };
