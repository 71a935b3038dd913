import type { BoundOp } from '../ir/bound';
import { Tile } from '../machine/memory';
import type { Value } from '../machine/value';
import { instructionPipe } from '../ops/instructions/pipe';
import { costModelTables } from '../spec/costmodel';
import type { TransferPath } from '../spec/costmodel-schema';
import type { TileLoc } from '../types/type';
import type { RunObserver } from '../vm/observer';
import { CostArch, elemBytes, noData, OpCost } from './cost';
import { tileOpCost } from './estimate';
import { CorePipeline, ProfileSummary, summarize } from './pipeline';
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

  constructor(readonly arch: CostArch) {}

  private core(i: number): CorePipeline {
    return (this.cores[i] ??= new CorePipeline());
  }

  instruction(core: number, op: BoundOp, objects: ReadonlyMap<string, Value>): void {
    const bound = op.instruction!;
    const isa = bound.spec.isa;
    this.core(core).issue(instructionPipe(bound), this.cost(isa, op, objects), isa);
  }

  sync(core: number, op: BoundOp, id?: number): void {
    const s = op.sync!;
    const event = id ?? s.id;
    const p = this.core(core);
    if (s.spec.role === 'set') p.setFlag(s.pipes[0], s.pipes[1], event);
    else if (s.spec.role === 'wait') p.waitFlag(s.pipes[0], s.pipes[1], event);
    else if (s.spec.role === 'barrier') p.barrier(s.pipes[0]);
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

  summary(): ProfileSummary {
    return summarize(
      this.cores.filter((c) => c !== undefined),
      costModelTables().arch.frequencyHz,
    );
  }
}
