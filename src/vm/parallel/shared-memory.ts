import { GlobalBuffer } from '../../machine/memory';
import { ElemType } from '../../types/type';
import { Value } from '../interpreter';

/** A global buffer in shared memory: its bytes and `written` marks, which every thread of a run sees. */
export interface SharedBuffer {
  name: string;
  elem: ElemType;
  bytes: SharedArrayBuffer;
  written: SharedArrayBuffer;
  /** In a run of several ranks: its rank and the same argument's buffer on each rank (indices; -1 for none). */
  placement?: { rank: number; byRank: number[] };
}

/** One argument of a rank, in a form a thread can rebuild: a buffer, a view or pointer into one, or a plain value. */
export type SharedValue = { buffer: number } | { into: number; object: Record<string, unknown> } | { value: Value };

/** The global memory and arguments of a run, in shared memory: what a worker thread is given. */
export interface SharedArguments {
  buffers: SharedBuffer[];
  perRank: [string, SharedValue][][];
}

/**
 * The arguments of each rank with their global buffers copied into shared memory; undefined when an argument is a
 * value a thread could not rebuild (none that the VM binds). The original buffers keep the initial memory.
 */
export function shareArguments(perRank: Map<string, Value>[]): { shared: SharedArguments; originals: GlobalBuffer[] } | undefined {
  const originals: GlobalBuffer[] = [];
  const index = new Map<GlobalBuffer, number>();
  const add = (b: GlobalBuffer): number => {
    let i = index.get(b);
    if (i === undefined) {
      index.set(b, (i = originals.length));
      originals.push(b);
      for (const peer of b.placement?.byRank ?? []) if (peer) add(peer);
    }
    return i;
  };
  const values: [string, SharedValue][][] = [];
  for (const args of perRank) {
    const rank: [string, SharedValue][] = [];
    for (const [name, v] of args) {
      if (v instanceof GlobalBuffer) rank.push([name, { buffer: add(v) }]);
      else if (typeof v === 'bigint' || typeof v === 'number') rank.push([name, { value: v }]);
      else if (v.kind === 'tile_contents') rank.push([name, { value: { kind: 'tile_contents', bytes: v.bytes.slice() } }]);
      else if ((v.kind === 'partition_view' || v.kind === 'tensor_view' || v.kind === 'pointer') && v.buffer instanceof GlobalBuffer) {
        const { buffer, ...rest } = v;
        rank.push([name, { into: add(buffer), object: structuredClone(rest) }]);
      } else return undefined;
    }
    values.push(rank);
  }
  const buffers = originals.map((b): SharedBuffer => {
    const bytes = new SharedArrayBuffer(b.bytes.byteLength);
    new Uint8Array(bytes).set(b.bytes);
    const written = new SharedArrayBuffer(b.written.byteLength);
    new Uint8Array(written).set(b.written);
    const placement = b.placement && { rank: b.placement.rank, byRank: b.placement.byRank.map((peer) => (peer ? index.get(peer)! : -1)) };
    return { name: b.name, elem: b.elem, bytes, written, ...(placement ? { placement } : {}) };
  });
  return { shared: { buffers, perRank: values }, originals };
}

/** The buffers over shared memory and each rank's arguments bound to them, as on the thread that shared them. */
export function rebuildArguments(shared: SharedArguments): { buffers: GlobalBuffer[]; perRank: Map<string, Value>[] } {
  const buffers = shared.buffers.map((b) => new GlobalBuffer(b.name, b.elem, new Uint8Array(b.bytes), new Uint8Array(b.written)));
  shared.buffers.forEach((b, i) => {
    if (b.placement) {
      const byRank = b.placement.byRank.map((k) => (k < 0 ? undefined : buffers[k])) as GlobalBuffer[];
      buffers[i].placement = { rank: b.placement.rank, byRank };
    }
  });
  const perRank = shared.perRank.map(
    (rank) =>
      new Map<string, Value>(
        rank.map(([name, v]) => {
          if ('buffer' in v) return [name, buffers[v.buffer]];
          if ('into' in v) return [name, { ...v.object, buffer: buffers[v.into] } as unknown as Value];
          return [name, v.value];
        }),
      ),
  );
  return { buffers, perRank };
}

/** Copies the shared memory's final bytes and `written` marks back into the original buffers. */
export function copyBack(from: GlobalBuffer[], to: GlobalBuffer[]): void {
  to.forEach((b, i) => {
    b.bytes.set(from[i].bytes);
    b.written.set(from[i].written);
  });
}
