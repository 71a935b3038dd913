import { GlobalBuffer } from '../../machine/memory';
import { ElemType } from '../../types/type';
import { Value } from '../interpreter';
import { randomGenerator } from '../io/arguments';

/** A global buffer in shared memory: its bytes and `written` marks, which every thread of a run sees. */
export interface SharedBuffer {
  name: string;
  elem: ElemType;
  bytes: SharedArrayBuffer;
  written: SharedArrayBuffer;
  /** A generated input made where first touched: its seed and chunk states, which every thread shares (GlobalBuffer.generated). */
  generated?: { seed: number; chunks: SharedArrayBuffer };
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
 * The memory a launch on several threads started from, for what needs it after the run: the bound buffers get the
 * final memory, and two rarer paths read the initial one (a rerun one core after another, and undoing the stores
 * of the cores after a trap).
 */
export interface InitialMemory {
  /** The initial bytes and `written` marks of shared buffer `i`. */
  of(i: number): { bytes: Uint8Array; written: Uint8Array };
  /** Gives the bound buffers the final memory of the shared ones. */
  publish(shared: GlobalBuffer[]): void;
  /** Gives the bound buffers their initial memory again, for a rerun one core after another. */
  restore(): void;
}

/**
 * Whether the threads can run over the buffer in place: its bytes and marks are whole shared arrays, and it can be
 * made again as bound (GlobalBuffer.initialBytes).
 */
function sharedInPlace(b: GlobalBuffer): boolean {
  const whole = (a: Uint8Array) => a.buffer instanceof SharedArrayBuffer && a.byteOffset === 0 && a.byteLength === a.buffer.byteLength;
  const chunks = b.generated?.chunks;
  return b.initialBytes !== undefined && whole(b.storage) && whole(b.written) && (!chunks || chunks.buffer instanceof SharedArrayBuffer);
}

/**
 * The arguments of each rank over shared memory; undefined when an argument is a value a thread could not rebuild
 * (none that the VM binds). A buffer bound in shared memory (BufferMemory) is run over in place; any other is copied
 * into shared memory, and keeps the initial memory until the run publishes the final one.
 */
export function shareArguments(perRank: Map<string, Value>[]): { shared: SharedArguments; initial: InitialMemory } | undefined {
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
  const inPlace = originals.map(sharedInPlace);
  const buffers = originals.map((b, i): SharedBuffer => {
    const placement = b.placement && { rank: b.placement.rank, byRank: b.placement.byRank.map((peer) => (peer ? index.get(peer)! : -1)) };
    const [bytes, written] = inPlace[i]
      ? [b.storage.buffer as SharedArrayBuffer, b.written.buffer as SharedArrayBuffer]
      : [copyToShared(b.bytes), copyToShared(b.written)];
    // Threads running over a generated input in place make its chunks where they touch them, each once.
    const generated = inPlace[i] && b.generated ? { seed: b.generated.seed, chunks: b.generated.chunks.buffer as SharedArrayBuffer } : undefined;
    return { name: b.name, elem: b.elem, bytes, written, ...(generated ? { generated } : {}), ...(placement ? { placement } : {}) };
  });
  const made = new Map<number, Uint8Array>();
  const initial: InitialMemory = {
    of: (i) => {
      const b = originals[i];
      if (!inPlace[i]) return { bytes: b.bytes, written: b.written };
      let bytes = made.get(i);
      if (!bytes) made.set(i, (bytes = b.initialBytes!()));
      return { bytes, written: new Uint8Array(b.written.length) };
    },
    publish: (shared) =>
      originals.forEach((b, i) => {
        if (inPlace[i]) return;
        b.assign(shared[i].bytes);
        b.written.set(shared[i].written);
      }),
    restore: () =>
      originals.forEach((b, i) => {
        if (!inPlace[i]) return;
        b.assign(initial.of(i).bytes);
        b.written.fill(0);
      }),
  };
  return { shared: { buffers, perRank: values }, initial };
}

function copyToShared(a: Uint8Array): SharedArrayBuffer {
  const shared = new SharedArrayBuffer(a.byteLength);
  new Uint8Array(shared).set(a);
  return shared;
}

/** The buffers over shared memory and each rank's arguments bound to them, as on the thread that shared them. */
export function rebuildArguments(shared: SharedArguments): { buffers: GlobalBuffer[]; perRank: Map<string, Value>[] } {
  const buffers = shared.buffers.map((b) => {
    const generated = b.generated && {
      generate: randomGenerator(b.elem, b.generated.seed),
      seed: b.generated.seed,
      chunks: new Int32Array(b.generated.chunks),
    };
    return new GlobalBuffer(b.name, b.elem, new Uint8Array(b.bytes), new Uint8Array(b.written), generated);
  });
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
