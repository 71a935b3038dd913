import { tileBytes } from '../../types/geometry';
import { PartitionView, Tile } from '../../machine/memory';

/** Half-open ranges [start, end) of units (bytes on chip, elements in global memory), sorted and merged. */
export type Ranges = [number, number][];

/**
 * The last accesses to each unit of one memory space: who wrote it last and, per pipe, who read it since.
 * Values are access ids + 1 (0 = none), so that a typed array can hold them.
 */
export class ShadowSpace {
  readonly writer: Int32Array;
  private readonly readers: (Int32Array | undefined)[];

  constructor(
    readonly name: string,
    readonly size: number,
    pipes: number,
  ) {
    this.writer = new Int32Array(size);
    this.readers = new Array(pipes).fill(undefined);
  }

  reader(pipe: number): Int32Array | undefined {
    return this.readers[pipe];
  }

  readersOf(pipe: number): Int32Array {
    let r = this.readers[pipe];
    if (!r) r = this.readers[pipe] = new Int32Array(this.size);
    return r;
  }

  /** A write makes every earlier read irrelevant for later writers: they are ordered through this write. */
  clearReaders(unit: number): void {
    for (const r of this.readers) if (r) r[unit] = 0;
  }
}

function merge(ranges: Ranges): Ranges {
  ranges.sort((a, b) => a[0] - b[0]);
  const out: Ranges = [];
  for (const r of ranges) {
    const last = out[out.length - 1];
    if (last && r[0] <= last[1]) last[1] = Math.max(last[1], r[1]);
    else out.push([r[0], r[1]]);
  }
  return out;
}

/** The bytes of its buffer a tile occupies: the whole storage of a tile, the elements of a window (pto.subview). */
export function tileRanges(tile: Tile): Ranges {
  if (!tile.strides && !tile.frame) return [[tile.address, tile.address + tileBytes(tile.type)]];
  const size = tile.codec.size;
  const ranges: Ranges = [];
  for (let r = 0; r < tile.type.rows; r++) {
    for (let c = 0; c < tile.type.cols; c++) {
      const at = tile.address + tile.elementIndex(r, c) * size;
      ranges.push([at, at + size]);
    }
  }
  return merge(ranges);
}

/** The elements of its global buffer a partition view covers (runs along a unit-stride innermost dimension). */
export function viewRanges(view: PartitionView): Ranges {
  const rank = view.shape.length;
  if (rank === 0) return [[view.offset, view.offset + 1]];
  if (view.shape.some((n) => n <= 0)) return [];
  const innermost = rank - 1;
  const contiguous = view.strides[innermost] === 1;
  const outerRank = contiguous ? innermost : rank;
  const ranges: Ranges = [];
  const index = new Array(outerRank).fill(0);
  for (;;) {
    let at = view.offset;
    for (let d = 0; d < outerRank; d++) at += index[d] * view.strides[d];
    ranges.push([at, at + (contiguous ? view.shape[innermost] : 1)]);
    let d = outerRank - 1;
    while (d >= 0 && ++index[d] === view.shape[d]) index[d--] = 0;
    if (d < 0) break;
  }
  return merge(ranges);
}
