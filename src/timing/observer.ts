import type { BoundOp } from '../ir/bound';
import type { CoreIndex, HappensBefore } from '../ir/definition';
import type { Program } from '../ir/program';
import { PartitionView, Tile } from '../machine/memory';
import type { Value } from '../machine/value';
import { instructionPipe } from '../ops/instructions/pipe';
import { costModelTables } from '../spec/costmodel';
import type { Executor } from '../ir/definition';
import type { RunObserver } from '../vm/observer';
import { CostArch, elemBytes, noData, OpCost } from './cost';
import { tileOpCost } from './estimate';
import { MicroTiming } from './micro';
import { CorePipeline, ProfileSummary, Signal, Slice, summarize } from './pipeline';
import { sliceInstructions, transferCost, transferPath, ubCopyInstructions } from './transfer';

export { criticalPathText } from './critical-path';

/** An op as parsed (the syntax package's OpNode, named through the IR, which timing may import). */
type OpNode = BoundOp['node'];

const MOVES = new Set(['TLOAD', 'TSTORE', 'TMOV', 'TEXTRACT']);

/**
 * The timing model as the VM's observer: each instruction goes to its pipe's queue with its cost from pto-isa's
 * tables (src/timing/estimate.ts, transfer.ts), each flag and barrier orders the queues (pipeline.ts). It reads
 * the operands' tiles (types, valid regions) and never changes them.
 */
export class TimingObserver implements RunObserver {
  private readonly cores: CorePipeline[] = [];
  /** The launch's cores (undefined: one core, run alone). */
  launched?: readonly CoreIndex[];
  /**
   * Per core, its hand-offs to other cores by the epoch of its vector clock they end (the VM's release): when the
   * latest of them up to that epoch fired and the op that fired it. A clock taken in covers a prefix of each core's.
   */
  private readonly handoffs: { time: number; from?: Slice }[][] = [];
  /** Per core, the epoch of every other core it has already waited for (a wait covers only what is new). */
  private readonly seen: number[][] = [];

  /** The ops of functions without an intra-core sync op, which PTOAS synchronizes itself (--enable-insert-sync). */
  private readonly autoSynced = new Set<OpNode>();
  /** Per core, what each on-chip range was last written and read by (for the functions PTOAS synchronizes). */
  private readonly tiles: Map<string, TileUse>[] = [];
  /** Per core, per source and destination pipe, the latest point of the source the destination waited for. */
  private readonly ordered: Map<string, number>[] = [];
  /** The micro-ops (A5 VPTO): vector functions costed by VfSim's tables, DMA ops on their MTE pipe. */
  private readonly micro: MicroTiming;
  /** Per core, per buffer id, the latest rls_buf: a get_buf of the id waits for every earlier release (A5). */
  private readonly buffers: Map<number, Signal>[] = [];

  /**
   * `record`: keep every op's slice and the flows, for --trace and --timeline. `program`: to find the functions
   * with no intra-core sync op, which PTOAS synchronizes itself (docs/sync.md): there a tile one pipe writes holds
   * the pipe that reads it, as the flag PTOAS inserts would (without it, such pipes are not ordered).
   */
  constructor(
    readonly arch: CostArch,
    readonly record = false,
    program?: Program,
  ) {
    this.micro = new MicroTiming((core) => this.core(core), arch);
    if (program) for (const fn of program.functions.values()) collectAutoSynced(fn, program, this.autoSynced);
  }

  private core(i: number): CorePipeline {
    // Every op is linked to what it waited for, for --profile's critical path (cheap: unlinked slices are dropped).
    return (this.cores[i] ??= new CorePipeline('PIPE_ALL', i, this.record, true));
  }

  launch(cores: readonly CoreIndex[]): void {
    this.launched = cores;
  }

  microOp(core: number, op: BoundOp, x: Executor): (() => void) | void {
    return this.micro.microOp(core, op, x);
  }

  instruction(core: number, op: BoundOp, objects: ReadonlyMap<string, Value>): void {
    this.micro.flush(core);
    const bound = op.instruction!;
    const isa = bound.spec.isa;
    const cost = this.cost(isa, op, objects);
    const pipe = instructionPipe(bound);
    const auto = this.autoSynced.has(op.node);
    if (auto) this.waitForTiles(core, op, objects, pipe);
    const source = { op: op.node.name, at: op.node.span.start };
    let issued;
    if (!this.record) issued = this.core(core).issue(pipe, cost, isa, isa, undefined, source);
    else {
      const tile = firstTile(op, objects);
      const name = tile ? `${isa}(${tile.vRow}x${tile.vCol},${tile.type.dtype})` : isa;
      issued = this.core(core).issue(pipe, cost, isa, name, { op: op.node.name }, source);
    }
    if (auto) this.useTiles(core, op, objects, pipe, { time: issued.end, from: issued.slice, by: issued.slice });
  }

  /** The op's tile operands: on-chip byte ranges, each read or written. */
  private *tileUses(op: BoundOp, objects: ReadonlyMap<string, Value>): Generator<{ key: string; lo: number; hi: number; write: boolean }> {
    for (const [name, b] of op.instruction!.operands) {
      const v = objects.get(name);
      if (v instanceof Tile) yield { key: v.buffer, lo: v.address, hi: v.address + v.bytes.byteLength, write: b.spec.role !== 'src' };
    }
  }

  /**
   * Where PTOAS inserts a flag: a read waits for another pipe's write of the tile, a write for other pipes' uses; a
   * pipe already ordered after that point (an earlier inserted flag) needs none.
   */
  private waitForTiles(core: number, op: BoundOp, objects: ReadonlyMap<string, Value>, pipe: string): void {
    const uses = (this.tiles[core] ??= new Map());
    const ordered = (this.ordered[core] ??= new Map());
    let latest: Signal | undefined;
    const after = (from: string, s: Signal) => {
      const key = `${from}>${pipe}`;
      if (from === pipe || (ordered.get(key) ?? -1) >= s.time) return;
      ordered.set(key, s.time);
      if (!latest || s.time > latest.time) latest = s;
    };
    for (const t of this.tileUses(op, objects)) {
      for (const [at, use] of uses) {
        if (!at.startsWith(`${t.key}:`) || use.hi <= t.lo || t.hi <= use.lo) continue;
        if (use.writer) after(use.writer.pipe, use.writer);
        if (t.write) for (const [p, r] of use.readers) after(p, r);
      }
    }
    if (latest) this.core(core).hold(pipe, latest, 'a tile shared by two pipes (PTOAS inserts the flag)', 'data', op.node.span.start);
  }

  private useTiles(core: number, op: BoundOp, objects: ReadonlyMap<string, Value>, pipe: string, done: Signal): void {
    const uses = (this.tiles[core] ??= new Map());
    for (const t of this.tileUses(op, objects)) {
      const at = `${t.key}:${t.lo}:${t.hi}`;
      const use = uses.get(at) ?? { lo: t.lo, hi: t.hi, readers: new Map() };
      if (t.write) uses.set(at, { lo: t.lo, hi: t.hi, writer: { ...done, pipe }, readers: new Map() });
      else {
        use.readers.set(pipe, done);
        uses.set(at, use);
      }
    }
  }

  sync(core: number, op: BoundOp, id?: number): void {
    this.micro.flush(core);
    const s = op.sync!;
    const event = id ?? s.id;
    const p = this.core(core);
    if (s.spec.role === 'set') p.setFlag(s.pipes[0], s.pipes[1], event);
    else if (s.spec.role === 'wait') p.waitFlag(s.pipes[0], s.pipes[1], event, op.node.span.start);
    else if (s.spec.role === 'barrier') p.barrier(s.pipes[0], op.node.span.start);
    else if (s.spec.role === 'release') {
      const released = (this.buffers[core] ??= new Map());
      const done = p.drained(s.pipes[0]);
      if (done.time >= (released.get(event)?.time ?? -1)) released.set(event, done);
    } else if (s.spec.role === 'acquire') {
      const last = this.buffers[core]?.get(event);
      if (last) p.hold(s.pipes[0], last, `the last rls_buf of buffer #${event}`, 'flag', op.node.span.start);
    }
  }

  /**
   * A hand-off to other cores fires when what it covers is done: a cross-core flag when its pipe has drained
   * (sync.set[<PIPE_MTE3>, 0]), anything else (a pushed or freed pipe slot, a notify) when every pipe has. The copy
   * of a tpush itself takes no time here: pto-isa has no bandwidth for the L0C -> UB path.
   */
  released(core: number, op: BoundOp, clock: HappensBefore): void {
    this.micro.flush(core);
    const signal = this.core(core).drained(crossCorePipe(op));
    const list = (this.handoffs[core] ??= []);
    const before = list[list.length - 1] ?? { time: 0 };
    // Epochs count up by one per release: entry e is the latest-firing hand-off up to epoch e.
    while (list.length < clock[core]) list.push(before);
    list[clock[core]] = before.time > signal.time ? before : signal;
  }

  /** A wait that passed holds its pipe (or, a scalar wait, every later op) until the hand-offs it takes in fired. */
  acquired(core: number, op: BoundOp, clock: HappensBefore): void {
    const seen = (this.seen[core] ??= []);
    let latest: { time: number; from?: Slice } | undefined;
    for (let other = 0; other < clock.length; other++) {
      if (other === core || clock[other] <= (seen[other] ?? 0)) continue;
      seen[other] = clock[other];
      const list = this.handoffs[other];
      const h = list?.[Math.min(clock[other], list.length - 1)];
      if (h && (!latest || h.time > latest.time)) latest = h;
    }
    if (latest) this.core(core).hold(crossCorePipe(op), latest, op.node.name, 'cross-core', op.node.span.start);
  }

  /** The cost of one instruction from its operand tiles: the first tile destination and the first tile source. */
  cost(isa: string, op: BoundOp, objects: ReadonlyMap<string, Value>): OpCost {
    let dst: Tile | undefined;
    const srcs: Tile[] = [];
    let view: PartitionView | undefined;
    for (const [name, b] of op.instruction!.operands) {
      const v = objects.get(name);
      if (typeof v === 'object' && 'kind' in v && v.kind === 'partition_view') view ??= v;
      if (!(v instanceof Tile)) continue;
      if (b.spec.role === 'dst') dst ??= v;
      else if (b.spec.role === 'src') srcs.push(v);
    }
    if (MOVES.has(isa)) {
      const src = srcs[0];
      // A store moves its source tile; a load or an on-chip move (TMOV, TEXTRACT's slice) fills its destination.
      const moved = isa === 'TSTORE' ? src : dst;
      const path = transferPath(src?.type.loc ?? 'gm', dst?.type.loc ?? 'gm');
      const bytes = moved && elemBytes(moved.type.dtype);
      if (!path || !moved || !bytes) return noData(`no transfer path for ${isa} ${src?.type.loc ?? 'gm'} -> ${dst?.type.loc ?? 'gm'}`);
      const validBytes = moved.vRow * moved.vCol * bytes;
      if (path === 'UB_TO_UB' && src && dst) {
        const shape = (t: Tile) => ({ rows: t.type.rows, cols: t.type.cols, validRows: t.vRow, validCols: t.vCol });
        return transferCost({ path, instructions: ubCopyInstructions(shape(src), shape(dst), bytes, costModelTables().arch.blockBytes) });
      }
      return transferCost({ path, instructions: view ? sliceInstructions(view.shape, validBytes) : [validBytes] });
    }
    const tile = dst ?? srcs[0];
    if (!tile) return noData(`${isa} has no tile operand`);
    if (isa === 'TMATMUL' || isa.startsWith('TMATMUL_')) {
      // The left operand gives k and the input dtype (TMATMUL_ACC's first source is the accumulator).
      const a = srcs.find((t) => t.type.loc === 'left') ?? srcs[0];
      return tileOpCost({ op: 'TMATMUL', arch: this.arch, dtype: a?.type.dtype ?? tile.type.dtype, rows: tile.vRow, cols: tile.vCol, k: a?.vCol });
    }
    const src = srcs[0] ?? tile;
    // The region an op works over is its larger side: a reduction's source (pto-isa's cost tables are keyed by it),
    // an expansion's destination, either for an element-wise op.
    const region = src.vRow * src.vCol > tile.vRow * tile.vCol ? src : tile;
    // TMRGSORT's format 1 gives blockLen as its second source (an integer); TGATHER's mask form a pattern.
    const blockLen = objects.get('src1');
    const maskPattern = op.instruction!.attributes?.get('maskPattern');
    const isBinary = op.instruction!.attributes?.get('isBinary');
    return tileOpCost({
      op: isa,
      arch: this.arch,
      dtype: isa === 'TCVT' ? src.type.dtype : tile.type.dtype,
      dstDtype: isa === 'TCVT' ? tile.type.dtype : undefined,
      rows: region.type.rows,
      cols: region.type.cols,
      validRows: region.vRow,
      validCols: region.vCol,
      sources: srcs.map((t) => ({ validRows: t.vRow, validCols: t.vCol, rowMajor: t.type.blayout === 'row_major' })),
      blockLen: typeof blockLen === 'number' || typeof blockLen === 'bigint' ? Number(blockLen) : undefined,
      maskPattern: typeof maskPattern === 'string' ? maskPattern : undefined,
      binary: typeof isBinary === 'boolean' ? isBinary : undefined,
      loc: tile.type.loc,
      columnDestination: tile.type.blayout === 'col_major' && tile.type.slayout === 'none_box' && tile.vCol === 1,
    });
  }

  /** The pipelines of the cores that ran, by core index (for the trace and the timeline). */
  pipelines(): CorePipeline[] {
    this.micro.flushAll();
    for (let i = 0; i < (this.launched?.length ?? 1); i++) this.core(i);
    return this.cores;
  }

  /** The chip's clock the cycles are counted in. */
  frequencyHz(): number {
    return costModelTables().arch.frequencyHz;
  }

  summary(): ProfileSummary {
    this.micro.flushAll();
    return summarize(
      this.cores.filter((c) => c !== undefined),
      costModelTables().arch.frequencyHz,
    );
  }
}

/** The pipe a cross-core flag op names (sync.set/wait, the intra- and cross-block ops); undefined for other ops. */
function crossCorePipe(op: BoundOp): string | undefined {
  const role = op.sync?.spec.role;
  return role === 'cross-set' || role === 'cross-wait' ? op.sync!.pipes[0] : undefined;
}

function firstTile(op: BoundOp, objects: ReadonlyMap<string, Value>): Tile | undefined {
  let src: Tile | undefined;
  for (const [name, b] of op.instruction!.operands) {
    const v = objects.get(name);
    if (!(v instanceof Tile)) continue;
    if (b.spec.role === 'dst') return v;
    src ??= v;
  }
  return src;
}

/** What an on-chip range was last written by, and read by on each pipe since. */
interface TileUse {
  lo: number;
  hi: number;
  writer?: Signal & { pipe: string };
  readers: Map<string, Signal>;
}

/** The ops of `fn` (not of the functions it calls) when it has no intra-core sync op (cross-core ones do not count). */
function collectAutoSynced(fn: OpNode, program: Program, into: Set<OpNode>): void {
  const ops: OpNode[] = [];
  const walk = (op: OpNode): void => {
    ops.push(op);
    for (const region of op.regions) for (const block of region.blocks) for (const inner of block.ops) walk(inner);
  };
  walk(fn);
  const synchronized = ops.some((o) => {
    const role = program.syncOps.get(o)?.spec.role;
    return role !== undefined && role !== 'cross-set' && role !== 'cross-wait';
  });
  if (!synchronized) for (const o of ops) into.add(o);
}
