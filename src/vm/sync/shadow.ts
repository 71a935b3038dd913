import { tileBytes } from '../../types/geometry';
import { PartitionView, Tile } from '../../machine/memory';

/** Half-open ranges [start, end) of units (bytes on chip, elements in global memory), sorted and merged. */
export type Ranges = [number, number][];

/** What a span of units saw last: the access that wrote it and, per pipe, the access that read it since. */
export interface Segment<A> {
  start: number;
  end: number;
  writer?: A;
  /** Per pipe; shared between segments until one of them changes (copy on write). */
  readers: readonly (A | undefined)[];
}

/**
 * The last accesses to the units of one memory space, as disjoint sorted segments of units that saw the same
 * accesses. An access costs a binary search plus the segments it covers, and neighbours that end up alike merge
 * again, so the shadow stays as small as the program's distinct placements however long it runs.
 */
export class ShadowSpace<A> {
  private readonly segments: Segment<A>[] = [];
  private readonly noReaders: readonly (A | undefined)[];

  constructor(
    readonly name: string,
    readonly size: number,
    pipes: number,
  ) {
    this.noReaders = new Array(pipes).fill(undefined);
  }

  /** The segments of [start, end) (clipped to the space), split so that each lies inside it; gaps become segments. */
  cover(start: number, end: number): Segment<A>[] {
    start = Math.max(0, start);
    end = Math.min(end, this.size);
    if (start >= end) return [];
    const segs = this.segments;
    let i = this.firstEndingAfter(start);
    let at = start;
    const out: Segment<A>[] = [];
    while (at < end) {
      const seg = segs[i];
      if (!seg || seg.start >= end || seg.start > at) {
        // A gap: units nobody touched yet.
        const gapEnd = seg ? Math.min(seg.start, end) : end;
        const fresh: Segment<A> = { start: at, end: gapEnd, readers: this.noReaders };
        segs.splice(i, 0, fresh);
        out.push(fresh);
        at = gapEnd;
        i++;
        continue;
      }
      if (seg.start < at) {
        segs.splice(i + 1, 0, { ...seg, start: at });
        seg.end = at;
        i++;
        continue;
      }
      if (seg.end > end) {
        segs.splice(i + 1, 0, { ...seg, start: end });
        seg.end = end;
      }
      out.push(seg);
      at = seg.end;
      i++;
    }
    return out;
  }

  /** Records a write of the segments (from `cover`): later accesses are ordered against it, not against what came before. */
  write(segs: Segment<A>[], access: A): void {
    for (const seg of segs) {
      seg.writer = access;
      seg.readers = this.noReaders;
    }
  }

  /** Records a read of the segments by `pipe`. */
  read(segs: Segment<A>[], pipe: number, access: A): void {
    for (const seg of segs) {
      if (seg.readers[pipe] === access) continue;
      const readers = seg.readers.slice();
      readers[pipe] = access;
      seg.readers = readers;
    }
  }

  /** Merges the segments around [start, end) with neighbours that saw the same accesses. */
  compact(start: number, end: number): void {
    const segs = this.segments;
    let i = Math.max(0, this.firstEndingAfter(start) - 1);
    while (i + 1 < segs.length && segs[i].start <= end) {
      const [a, b] = [segs[i], segs[i + 1]];
      if (a.end === b.start && a.writer === b.writer && sameReaders(a.readers, b.readers)) {
        a.end = b.end;
        segs.splice(i + 1, 1);
      } else i++;
    }
  }

  /** The index of the first segment whose end is past `unit`. */
  private firstEndingAfter(unit: number): number {
    const segs = this.segments;
    let [lo, hi] = [0, segs.length];
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (segs[mid].end <= unit) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

function sameReaders<A>(a: readonly (A | undefined)[], b: readonly (A | undefined)[]): boolean {
  if (a === b) return true;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
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
