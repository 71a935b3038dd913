import type { BoundOp } from '../ir/bound';
import type { CoreIndex, HappensBefore } from '../ir/definition';
import { Tile } from '../machine/memory';
import type { Value } from '../machine/value';
import { instructionPipe } from '../ops/instructions/pipe';
import { costModelTables } from '../spec/costmodel';
import type { TransferPath } from '../spec/costmodel-schema';
import type { TileLoc } from '../types/type';
import type { RunObserver } from '../vm/observer';
import { CostArch, elemBytes, noData, OpCost } from './cost';
import { tileOpCost } from './estimate';
import { CorePipeline, ProfileSummary, Slice, summarize } from './pipeline';
import { transferCost } from './transfer';

/** The path of a data movement between two locations (pto-isa's formula_backend_transfer.hpp, latency.hpp). */
function pathOf(isa: string, src: TileLoc | 'gm', dst: TileLoc | 'gm'): TransferPath | undefined {
  if (isa === 'TLOAD') return dst === 'vec' ? 'GM_TO_UB' : dst === 'mat' ? 'GM_TO_L1' : undefined;
  if (isa === 'TSTORE') return src === 'vec' ? 'UB_TO_GM' : src === 'mat' ? 'L1_TO_GM' : src === 'acc' ? 'L0C_TO_GM' : undefined;
  if (src === 'mat' && dst === 'left') return 'L1_TO_L0A';
  if (src === 'mat' && dst === 'right') return 'L1_TO_L0B';
  if (src === 'mat' && dst === 'bias') return 'L1_TO_BT';
  if (src === 'mat' && dst === 'scaling') return 'L1_TO_FB';
  if (src === 'acc' && dst === 'mat') return 'L0C_TO_L1';
  if (src === 'vec' && dst === 'vec') return 'UB_TO_UB';
  return undefined;
}

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

  /** `record`: keep every op's slice and the flows, for --trace and --timeline. */
  constructor(
    readonly arch: CostArch,
    readonly record = false,
  ) {}

  private core(i: number): CorePipeline {
    return (this.cores[i] ??= new CorePipeline('PIPE_ALL', i, this.record));
  }

  launch(cores: readonly CoreIndex[]): void {
    this.launched = cores;
  }

  instruction(core: number, op: BoundOp, objects: ReadonlyMap<string, Value>): void {
    const bound = op.instruction!;
    const isa = bound.spec.isa;
    const cost = this.cost(isa, op, objects);
    const pipe = instructionPipe(bound);
    if (!this.record) {
      this.core(core).issue(pipe, cost, isa);
      return;
    }
    const tile = firstTile(op, objects);
    const name = tile ? `${isa}(${tile.vRow}x${tile.vCol},${tile.type.dtype})` : isa;
    this.core(core).issue(pipe, cost, isa, name, { op: op.node.name });
  }

  sync(core: number, op: BoundOp, id?: number): void {
    const s = op.sync!;
    const event = id ?? s.id;
    const p = this.core(core);
    if (s.spec.role === 'set') p.setFlag(s.pipes[0], s.pipes[1], event);
    else if (s.spec.role === 'wait') p.waitFlag(s.pipes[0], s.pipes[1], event);
    else if (s.spec.role === 'barrier') p.barrier(s.pipes[0]);
  }

  /**
   * A hand-off to other cores fires when what it covers is done: a cross-core flag when its pipe has drained
   * (sync.set[<PIPE_MTE3>, 0]), anything else (a pushed or freed pipe slot, a notify) when every pipe has. The copy
   * of a tpush itself takes no time here: pto-isa has no bandwidth for the L0C -> UB path.
   */
  released(core: number, op: BoundOp, clock: HappensBefore): void {
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
    if (latest) this.core(core).hold(crossCorePipe(op), latest, op.node.name, 'cross-core');
  }

  /** The cost of one instruction from its operand tiles: the first tile destination and the first tile source. */
  cost(isa: string, op: BoundOp, objects: ReadonlyMap<string, Value>): OpCost {
    let dst: Tile | undefined;
    const srcs: Tile[] = [];
    for (const [name, b] of op.instruction!.operands) {
      const v = objects.get(name);
      if (!(v instanceof Tile)) continue;
      if (b.spec.role === 'dst') dst ??= v;
      else if (b.spec.role === 'src') srcs.push(v);
    }
    if (MOVES.has(isa)) {
      const src = srcs[0];
      const moved = isa === 'TLOAD' ? dst : src;
      const path = pathOf(isa, src?.type.loc ?? 'gm', dst?.type.loc ?? 'gm');
      const bytes = moved && elemBytes(moved.type.dtype);
      if (!path || !moved || !bytes) return noData(`no transfer path for ${isa} ${src?.type.loc ?? 'gm'} -> ${dst?.type.loc ?? 'gm'}`);
      // One DMA instruction for the tile's valid region (a view with outer dimensions issues one per slice on the
      // board: not modelled yet).
      return transferCost({ path, instructions: [moved.vRow * moved.vCol * bytes] });
    }
    const tile = dst ?? srcs[0];
    if (!tile) return noData(`${isa} has no tile operand`);
    if (isa === 'TMATMUL' || isa.startsWith('TMATMUL_')) {
      const a = srcs[0];
      return tileOpCost({ op: 'TMATMUL', arch: this.arch, dtype: a?.type.dtype ?? tile.type.dtype, rows: tile.vRow, cols: tile.vCol, k: a?.vCol });
    }
    const src = srcs[0] ?? tile;
    return tileOpCost({
      op: isa,
      arch: this.arch,
      dtype: isa === 'TCVT' ? src.type.dtype : tile.type.dtype,
      dstDtype: isa === 'TCVT' ? tile.type.dtype : undefined,
      rows: tile.type.rows,
      cols: tile.type.cols,
      validRows: tile.vRow,
      validCols: tile.vCol,
    });
  }

  /** The pipelines of the cores that ran, by core index (for the trace and the timeline). */
  pipelines(): CorePipeline[] {
    for (let i = 0; i < (this.launched?.length ?? 1); i++) this.core(i);
    return this.cores;
  }

  /** The chip's clock the cycles are counted in. */
  frequencyHz(): number {
    return costModelTables().arch.frequencyHz;
  }

  summary(): ProfileSummary {
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
