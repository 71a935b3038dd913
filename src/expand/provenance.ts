/**
 * Which op last wrote each byte of global memory and of the vector buffer (UB) during a run: pto-vm check-lowering
 * names the micro-op behind a differing element. The tracker compares the memories after every op with their
 * state before it (RunOptions.afterOp), so it sees writes by every path (element methods, typed-array fast paths,
 * the vector kernels) at the price of a copy of the UB per op: a check-lowering run pays it, a plain run never does.
 * A write that leaves a byte's value as it was is not seen; the report says "last changed".
 */
import { GlobalBuffer, OnChipMemory, Tile } from '../machine/memory';
import { Value } from '../machine/value';
import { OpNode } from '../syntax/ast';

export interface Writer {
  /** The innermost op that ran when the byte changed (a micro-op of an expansion, or a tile-level op). */
  op: OpNode;
  /** Its place in the run's order of writers (a later writer has a larger one). */
  seq: number;
  /** The op of the traced function (`top`) during which it changed: a tile op or the call of its expansion. */
  top?: OpNode;
  /** The vector tiles among the top op's operands (a tstore's source: where a stored element came from). */
  tiles?: Tile[];
}

interface Tracked {
  snapshot: Uint8Array;
  live: () => Uint8Array;
  writers: (Writer | undefined)[];
}

export class WriteTracker {
  private readonly gm = new Map<string, Tracked>();
  private ub?: Tracked;
  /** Writers made since the last op of the traced function, which claims them as their `top`. */
  private pending: Writer[] = [];
  private seq = 0;

  constructor(
    buffers: GlobalBuffer[],
    /** The ops of the traced function (any depth): the tile ops, or the calls of their expansions. */
    private readonly topOps: Set<OpNode>,
  ) {
    for (const b of buffers) this.gm.set(b.name, { snapshot: b.bytes.slice(), live: () => b.bytes, writers: new Array(b.byteLength) });
  }

  /** RunOptions.afterOp. */
  readonly afterOp = (op: OpNode, operands: () => (Value | undefined)[], memory: OnChipMemory): void => {
    if (!this.ub) {
      const buffer = memory.bufferOf('vec');
      const capacity = memory.capacity(buffer);
      const live = (): Uint8Array => memory.bytesAt(buffer, 0, capacity, op.name, op.span);
      this.ub = { snapshot: live().slice(), live, writers: new Array(capacity) };
    }
    let writer: Writer | undefined;
    for (const t of [this.ub, ...this.gm.values()]) {
      const now = t.live();
      const before = t.snapshot;
      for (let i = 0; i < now.length; i++)
        if (now[i] !== before[i]) {
          if (!writer) this.pending.push((writer = { op, seq: ++this.seq }));
          t.writers[i] = writer;
          before[i] = now[i];
        }
    }
    if (this.topOps.has(op)) {
      const tiles = operands().filter((v): v is Tile => v instanceof Tile && v.buffer === memory.bufferOf('vec'));
      for (const w of this.pending) Object.assign(w, { top: op, tiles });
      this.pending = [];
    }
  };

  /** The last writer of the bytes [byte, byte + size) of a global buffer (of any of them: a write may leave some as they were). */
  global(buffer: string, byte: number, size: number): Writer | undefined {
    const t = this.gm.get(buffer);
    return t && latest(t.writers, byte, size);
  }

  /** The same in the UB. */
  vector(byte: number, size: number): Writer | undefined {
    return this.ub && latest(this.ub.writers, byte, size);
  }
}

function latest(writers: (Writer | undefined)[], byte: number, size: number): Writer | undefined {
  let last: Writer | undefined;
  for (let i = byte; i < byte + size; i++) if (writers[i] && (!last || writers[i]!.seq > last.seq)) last = writers[i];
  return last;
}
