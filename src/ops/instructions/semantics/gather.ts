import { Tile } from '../../../machine/memory';
import { binaryOperation } from '../../../numerics/arithmetic';
import { copyElement } from './compare';
import { InstructionContext, SemanticsModule } from './context';
import { viewMatrix } from './memory';

/**
 * Gather and scatter within tiles: TGATHER (index and mask-pattern forms), TGATHERB (32-byte blocks by byte
 * offset), TSCATTER. Every index and offset is checked: one outside its tile is a trap, never a silent read.
 */

const BLOCK_BYTES = 32;

/** A flat row-major element index into `tile`'s rows x cols, checked; `where` names the index's position. */
function flatPosition(ctx: InstructionContext, raw: number | bigint, tile: Tile, tileName: string, where: string): [number, number] {
  const { rows, cols } = tile.type;
  const n = BigInt(raw);
  if (n < 0n || n >= BigInt(rows * cols)) ctx.trap(`index ${n} at ${where} is outside ${tileName}'s ${rows}x${cols} elements (0..${rows * cols - 1})`);
  const k = Number(n);
  return [Math.floor(k / cols), k % cols];
}

function requireCovers(ctx: InstructionContext, tile: Tile, name: string, rows: number, cols: number, of: string): void {
  if (tile.vRow < rows || tile.vCol < cols) ctx.trap(`${name}'s valid region ${tile.vRow}x${tile.vCol} does not cover ${of}'s ${rows}x${cols}`);
}

/**
 * Which columns a mask pattern keeps (pto-isa common/type.hpp MaskPattern, cpu/TGather.hpp MaskSelect): the
 * pattern's bits read right to left over each group of 2 or 4 columns.
 */
const KEEPS: Record<string, (c: number) => boolean> = {
  P0101: (c) => c % 2 === 0,
  P1010: (c) => c % 2 === 1,
  P0001: (c) => c % 4 === 0,
  P0010: (c) => c % 4 === 1,
  P0100: (c) => c % 4 === 2,
  P1000: (c) => c % 4 === 3,
  P1111: () => true,
};

/** TGATHER: the index form when src1 is a tile, the mask-pattern form (axis row; the verifier requires an axis). */
export function gather(ctx: InstructionContext): void {
  const pattern = ctx.attribute('maskPattern');
  if (typeof pattern === 'string') {
    if (ctx.attribute('axis') === 'col') ctx.trap('pto.tgather with a maskPattern along axis "col" is not implemented yet');
    return gatherByPattern(ctx, pattern);
  }
  if (ctx.bound.operands.get('src1')?.type.kind !== 'tile') ctx.trap('pto.tgather in the compare form (kValue, cdst) is not implemented yet');
  gatherByIndex(ctx, ctx.tile('src1'));
}

/** dst[i, j] = src0 at flat row-major index src1[i, j] (cpu/TGather.hpp). */
function gatherByIndex(ctx: InstructionContext, indices: Tile): void {
  const dst = ctx.tile('dst');
  const src = ctx.tile('src0');
  requireCovers(ctx, indices, 'src1', dst.vRow, dst.vCol, 'dst');
  for (let r = 0; r < dst.vRow; r++) {
    for (let c = 0; c < dst.vCol; c++) {
      const [sr, sc] = flatPosition(ctx, indices.get(r, c), src, 'src0', `src1[${r}, ${c}]`);
      copyElement(dst, r, c, src, sr, sc);
    }
  }
}

/** The kept elements of src0's valid rows, in row-major order, fill dst's valid region row-major. */
function gatherByPattern(ctx: InstructionContext, pattern: string): void {
  const dst = ctx.tile('dst');
  const src = ctx.tile('src0');
  const keeps = KEEPS[pattern] ?? ctx.trap(`maskPattern ${pattern} has no pto-isa meaning`);
  const kept: [number, number][] = [];
  for (let r = 0; r < src.vRow; r++) for (let c = 0; c < src.vCol; c++) if (keeps(c)) kept.push([r, c]);
  if (kept.length !== dst.vRow * dst.vCol) {
    ctx.trap(
      `maskPattern ${pattern} keeps ${kept.length} elements of src0's ${src.vRow}x${src.vCol} valid region, but dst's valid region holds ${dst.vRow}x${dst.vCol} = ${dst.vRow * dst.vCol}`,
    );
  }
  kept.forEach(([sr, sc], k) => copyElement(dst, Math.floor(k / dst.vCol), k % dst.vCol, src, sr, sc));
}

/**
 * TGATHERB (cpu/TGatherB.hpp): row i of dst is vCol x size / 32 blocks; block b is the 32 bytes of src's storage
 * starting at byte offset[i, b].
 */
export function gatherBlocks(ctx: InstructionContext): void {
  const dst = ctx.tile('dst');
  const src = ctx.tile('src');
  const offsets = ctx.tile('offset');
  const size = dst.codec.size;
  if ((dst.vCol * size) % BLOCK_BYTES !== 0) ctx.trap(`dst's ${dst.vCol} valid columns of ${size}-byte elements are not whole 32-byte blocks`);
  if (src.strides) ctx.trap('pto.tgatherb with a src window (pto.subset) is not implemented yet');
  const perBlock = BLOCK_BYTES / size;
  const blocks = dst.vCol / perBlock;
  requireCovers(ctx, offsets, 'offset', dst.vRow, blocks, `dst's blocks`);
  const srcBytes = src.bytes.length;
  for (let r = 0; r < dst.vRow; r++) {
    for (let b = 0; b < blocks; b++) {
      const off = Number(offsets.get(r, b));
      if (off + BLOCK_BYTES > srcBytes) ctx.trap(`offset ${off} at offset[${r}, ${b}]: its 32-byte block ends past src's ${srcBytes} bytes`);
      for (let k = 0; k < perBlock; k++) {
        const to = dst.elementIndex(r, b * perBlock + k) * size;
        for (let byte = 0; byte < size; byte++) dst.bytes[to + byte] = src.bytes[off + k * size + byte];
      }
    }
  }
}

/** TSCATTER (cpu/TScatter.hpp): dst at flat row-major index indexes[i, j] = src[i, j]; a later duplicate wins. */
export function scatter(ctx: InstructionContext): void {
  if (ctx.attribute('maskPattern') !== undefined) ctx.trap('pto.tscatter with a maskPattern is not implemented yet');
  const dst = ctx.tile('dst');
  const src = ctx.tile('src');
  const indexes = ctx.tile('indexes');
  requireCovers(ctx, src, 'src', indexes.vRow, indexes.vCol, 'indexes');
  for (let r = 0; r < indexes.vRow; r++) {
    for (let c = 0; c < indexes.vCol; c++) {
      const [dr, dc] = flatPosition(ctx, indexes.get(r, c), dst, 'dst', `indexes[${r}, ${c}]`);
      copyElement(dst, dr, dc, src, r, c);
    }
  }
}

/**
 * MGATHER / MSCATTER: global memory (a partition view, read as a matrix: rows = its outer indices, cols = its
 * innermost dimension) through a tile of indices. Indices are read as unsigned 32-bit values. `coalesce = row`
 * moves whole rows (idx[0, r], or idx[r, 0] for a one-column index tile); `coalesce = elem` moves elements of the
 * flattened view (idx has the data tile's valid shape). Out-of-range indices follow `oob`; `undefined` (the C++
 * default: the caller guarantees the range) is a trap, never a silent access.
 */
type Remap = (index: number, capacity: number) => number | 'skip' | 'zero';

function remapper(ctx: InstructionContext, what: string): Remap {
  // `oob` is the earlier spelling of gatherOob / scatterOob (no default: written, it decides).
  const oob = (ctx.attribute('oob') ?? ctx.attribute(ctx.op.name === 'pto.mgather' ? 'gatherOob' : 'scatterOob')) as string;
  return (index, capacity) => {
    if (index < capacity) return index;
    switch (oob) {
      case 'clamp':
        return capacity - 1;
      case 'wrap':
        return index % capacity;
      case 'zero':
      case 'skip':
        return oob;
      default:
        return ctx.trap(`${what} ${index} is out of range (capacity ${capacity}); oob = undefined leaves it to the caller`);
    }
  };
}

/** The indices of a data tile's valid region: per row (row mode) or per element (elem mode). */
function indexOf(ctx: InstructionContext, indexes: Tile, data: Tile, mode: string): (r: number, c: number) => number {
  const read = (r: number, c: number) => Number(BigInt.asUintN(32, BigInt(indexes.get(r, c))));
  if (mode === 'elem') {
    if (indexes.vRow !== data.vRow || indexes.vCol !== data.vCol)
      ctx.trap(`elem mode needs indexes' valid region ${indexes.vRow}x${indexes.vCol} to equal ${data.vRow}x${data.vCol}`);
    return read;
  }
  if (indexes.vRow === 1 && indexes.vCol === data.vRow) return (r) => read(0, r);
  if (indexes.vCol === 1 && indexes.vRow === data.vRow) return (r) => read(r, 0);
  return ctx.trap(`row mode needs a 1x${data.vRow} (or ${data.vRow}x1) index tile, got valid ${indexes.vRow}x${indexes.vCol}`);
}

/**
 * MSCATTER's mode when coalesce is left out (the verifier allows an [R, 0|1] index tile or one of the data's valid
 * shape): a one-column index tile is row mode, the C++ default; any other is elem mode.
 */
function inferredCoalesce(indexes: Tile, data: Tile): 'row' | 'elem' {
  return indexes.vCol <= 1 && indexes.vRow === data.vRow ? 'row' : 'elem';
}

/**
 * What MGATHER and MSCATTER share: the tile, the view as a matrix, and for each position of the tile's valid
 * region the table element it maps to (after the out-of-range policy), or the policy's 'zero' / 'skip'.
 */
function globalAccess(ctx: InstructionContext, tileName: 'dst' | 'src') {
  const tile = ctx.tile(tileName);
  if (tile.type.loc === 'mat') ctx.trap(`a mat tile destination (GM -> L1, global indexes) is not implemented yet`);
  const view = ctx.view('mem');
  const table = viewMatrix(ctx, view);
  const indexes = ctx.tile('indexes');
  const mode = (ctx.attribute('coalesce') as string | undefined) ?? inferredCoalesce(indexes, tile);
  const index = indexOf(ctx, indexes, tile, mode);
  const remap = remapper(ctx, 'index');
  const size = tile.codec.size;
  if (view.buffer.codec.size !== size) ctx.trap(`${view.buffer.name} has ${view.buffer.elem} elements, the tile ${tile.type.dtype}: their sizes differ`);
  if (mode === 'row' && tile.vCol > table.cols) ctx.trap(`${tileName}'s ${tile.vCol} valid columns exceed the table's rows of ${table.cols}`);
  const capacity = mode === 'row' ? table.rows : table.rows * table.cols;
  const slot = (r: number, c: number): number | 'zero' | 'skip' => {
    const k = remap(index(r, c), capacity);
    if (typeof k !== 'number') return k;
    return mode === 'row' ? table.element(k, c) : table.element(Math.floor(k / table.cols), k % table.cols);
  };
  return { tile, buffer: view.buffer, size, slot };
}

/** dst[r, :] = table[idx[r], :] (row) or dst[r, c] = table_flat[idx[r, c]] (elem), bits copied. */
export function globalGather(ctx: InstructionContext): void {
  const { tile: dst, buffer, size, slot } = globalAccess(ctx, 'dst');
  dst.forEachValid((r, c) => {
    const element = slot(r, c);
    if (element === 'zero' || element === 'skip') return dst.set(r, c, dst.codec.round(0));
    buffer.copyElementTo(element, dst.bytes, dst.elementIndex(r, c) * size);
  });
}

/**
 * table[idx[r], :] = src[r, :] (row) or table_flat[idx[r, c]] = src[r, c] (elem), in row-major order, so a later
 * duplicate wins (A2/A3's sequential walk, A5's Conflict::Last, the simulator). `atomic = add | max | min`
 * combines with the table's value instead, rounded in the element type.
 */
export function globalScatter(ctx: InstructionContext): void {
  const { tile: src, buffer, size, slot } = globalAccess(ctx, 'src');
  const atomic = (ctx.attribute('atomic') ?? ctx.attribute('scatterAtomicOp')) as string;
  const combine = atomic === 'none' ? undefined : binaryOperation(atomic as 'add' | 'max' | 'min', src.type.dtype, ctx.numerics, ctx.trap);
  src.forEachValid((r, c) => {
    const element = slot(r, c);
    if (element === 'zero' || element === 'skip') return;
    if (!combine) return buffer.copyElementFrom(element, src.bytes, src.elementIndex(r, c) * size);
    buffer.updateElement(element, (old) => buffer.codec.round(combine(old, src.get(r, c))));
  });
}

export const module: SemanticsModule = {
  semantics: { gather, 'gather-blocks': gatherBlocks, scatter, mgather: globalGather, mscatter: globalScatter },
};
