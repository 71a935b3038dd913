/**
 * Parts of the AST that many ops spell alike, shared rather than made once per op: a large module holds hundreds of
 * thousands of ops, most of them without attributes, result types or regions, and with operand segments of a few
 * layouts. Shared parts are frozen, so that code that means to change one op's list must give the op a list of its
 * own (changing a shared one throws).
 */

const EMPTY: readonly never[] = Object.freeze([]);

/** The list, or the one shared empty list when it is empty. */
export function sharedIfEmpty<T>(list: T[]): T[] {
  return list.length === 0 ? (EMPTY as never[]) : list;
}

/** The one shared empty list. */
export function emptyList<T>(): T[] {
  return EMPTY as never[];
}

/** Ranges up to this start and length are shared. */
const SHARED_RANGE = 16;
const ranges: number[][][] = [];

/** The operand indices start, start + 1, ..., start + count - 1 of a segment (a short one shared). */
export function indexRange(start: number, count: number): number[] {
  if (start >= SHARED_RANGE || count >= SHARED_RANGE) return Array.from({ length: count }, (_, i) => start + i);
  const byStart = (ranges[start] ??= []);
  return (byStart[count] ??= Object.freeze(Array.from({ length: count }, (_, i) => start + i)) as number[]);
}

export type Segments = Record<string, number[]>;

/** The same segment names, in the same order, with the same operand indices. */
export function sameSegments(a: Segments, b: Segments): boolean {
  const keys = Object.keys(a);
  const others = Object.keys(b);
  if (keys.length !== others.length) return false;
  for (let k = 0; k < keys.length; k++) {
    if (keys[k] !== others[k]) return false;
    const x = a[keys[k]];
    const y = b[keys[k]];
    if (x.length !== y.length) return false;
    for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
  }
  return true;
}

/** Freezes a segments object and its lists, to share it. */
export function frozenSegments(segments: Segments): Segments {
  for (const list of Object.values(segments)) Object.freeze(list);
  return Object.freeze(segments);
}
