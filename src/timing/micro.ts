import type { BoundOp } from '../ir/bound';
import { pairOf } from '../micro/run/config';
import type { Executor } from '../ir/definition';
import type { TransferPath } from '../spec/costmodel-schema';
import type { Type } from '../types/type';
import { CostArch, noData, OpCost, Pipe } from './cost';
import type { CorePipeline } from './pipeline';
import { transferCost, transferPath } from './transfer';
import type { VfLoop } from './vf-loops';
import { vfCost, VfOp } from './vf-sim';

/**
 * The micro level (VPTO) in the timing model (docs/performance.md, "Micro-ops (A5)"): the vector ops of a vector
 * function are gathered as they run and costed together by VfSim's tables (./vf-sim.ts) when the function ends, as
 * one slice on the vector pipe; a DMA op is a transfer on its MTE pipe. Ops without vector registers (masks, scalar
 * ops, loop control) are not VfSim ops and take no time here.
 */

/** The pipe names of spec/sync.json the pipe model keys its queues by. */
const PIPE_NAMES: Record<Pipe, string> = {
  scalar: 'PIPE_S',
  vector: 'PIPE_V',
  cube: 'PIPE_M',
  mte1: 'PIPE_MTE1',
  mte2: 'PIPE_MTE2',
  mte3: 'PIPE_MTE3',
  fixpipe: 'PIPE_FIX',
};

/** VfSim's names of our element types (its forms): fp32/fp16 for ops, f32/f16/s32 inside a conversion's name. */
const FORMS: Record<string, string> = { f32: 'fp32', f16: 'fp16' };
const CONVERSION: Record<string, string> = { f32: 'f32', f16: 'f16', i32: 's32' };

/** The hardware loop registers (set_loop_size_*) a raw copy on each path runs under. */
const HARDWARE_LOOPS: Partial<Record<TransferPath, string>> = { GM_TO_UB: 'outtoub', UB_TO_GM: 'ubtoout', GM_TO_L1: 'outtol1' };

/** The vector function being gathered on one core: its ops so far, and the last op's results to read back. */
class VectorFunction {
  readonly ops: VfOp[] = [];
  missing?: string;
  private readonly ids = new Map<object, number>();
  private pending?: { op: VfOp; slots: number[]; x: Executor };

  constructor(readonly source: { op: string; at: number }) {}

  private id(value: unknown): number {
    if (typeof value !== 'object' || value === null) return -1;
    let id = this.ids.get(value);
    if (id === undefined) this.ids.set(value, (id = this.ids.size));
    return id;
  }

  /** The values the previous op wrote (it has run by the time the next op or the scope's end is seen). */
  settle(): void {
    const p = this.pending;
    if (!p) return;
    this.pending = undefined;
    (p.op.dsts as number[]).push(...p.slots.map((s) => this.id(p.x.slot(s))));
  }

  add(op: BoundOp, x: Executor, loops: readonly VfLoop[]): void {
    this.settle();
    const isReg = (t: Type | undefined) => t?.kind === 'vreg';
    const srcSlots = op.operands.filter((_, i) => isReg(op.operandTypes[i]));
    const dstIndex = op.resultTypes.flatMap((t, i) => (isReg(t) ? [i] : []));
    if (srcSlots.length === 0 && dstIndex.length === 0) return;
    const elems = [...dstIndex.map((i) => op.resultTypes[i]), ...op.operandTypes.filter(isReg)].map((t) => (t?.kind === 'vreg' ? t.elem : ''));
    const mnemonic = op.def.name.replace(/^pto\./, '').toUpperCase();
    let name = mnemonic;
    let form = FORMS[elems[0]] ?? elems[0];
    if (mnemonic === 'VCVT') {
      // VfSim names a conversion by its two types (VCVT_F32_TO_F16, form f32_to_f16).
      const [to, from] = [CONVERSION[elems[0]] ?? elems[0], CONVERSION[elems[elems.length - 1]] ?? elems[elems.length - 1]];
      name = `VCVT_${from.toUpperCase()}_TO_${to.toUpperCase()}`;
      form = `${from}_to_${to}`;
    }
    const vf: VfOp = { op: name, form, srcs: srcSlots.map((s) => this.id(x.slot(s))), dsts: [], names: dstIndex.map((i) => op.results[i]), loops };
    this.ops.push(vf);
    this.pending = { op: vf, slots: dstIndex.map((i) => op.results[i]), x };
  }
}

/** A loop that is running: its run number, its iteration, and the first op seen in its body (seen again: next iteration). */
interface Frame {
  run: number;
  iteration: number;
  first?: BoundOp['node'];
}

/** The micro-ops of each core as the timing model sees them. */
export class MicroTiming {
  private readonly open: (VectorFunction | undefined)[] = [];
  /** Per core, the loops running; those from `base` on began after the last end of a vector function (its loops). */
  private readonly frames: Frame[][] = [];
  private readonly base: number[] = [];
  private runs = 0;

  constructor(
    private readonly pipeline: (core: number) => CorePipeline,
    private readonly arch: CostArch,
  ) {}

  /** A micro op is about to run: a vector scope opens a function (closed by what is returned), others go to it. */
  microOp(core: number, op: BoundOp, x: Executor): (() => void) | void {
    const frames = (this.frames[core] ??= []);
    // The loop's iterations: its body's first op seen again starts the next one.
    const inner = frames[frames.length - 1];
    if (inner && inner.first === undefined) [inner.first, inner.iteration] = [op.node, 0];
    else if (inner && inner.first === op.node) inner.iteration++;
    // A vector function lies within one function: a call ends the one open before it, and its own at its return.
    if (op.def.properties?.callsFunction) {
      this.flush(core);
      return () => this.flush(core);
    }
    const flow = op.def.properties?.controlFlow;
    if (flow === 'conditional') return;
    if (flow) {
      frames.push({ run: this.runs++, iteration: -1 });
      return () => {
        frames.pop();
        this.base[core] = Math.min(this.base[core] ?? 0, frames.length);
      };
    }
    const source = { op: op.node.name, at: op.node.span.start };
    if (op.def.properties?.vecscopeInference === 'explicit-scope') {
      this.flush(core);
      this.open[core] = new VectorFunction(source);
      return () => this.flush(core);
    }
    const transfer = dmaCost(op, x);
    if (transfer) {
      // A DMA is never inside a vector function: ops before it without a scope of their own end theirs here.
      this.flush(core);
      this.pipeline(core).issue(PIPE_NAMES[transfer.pipe ?? 'mte2'], transfer, op.node.name, op.node.name, {}, source);
      return;
    }
    const loops = frames.slice(this.base[core] ?? 0).map((f) => ({ run: f.run, iteration: f.iteration }));
    (this.open[core] ??= new VectorFunction(source)).add(op, x, loops);
  }

  /** Ends the core's open vector function (its scope ended, or a sync op, DMA or tile op follows it): one slice on V. */
  flush(core: number): void {
    // Loops running now enclose whatever comes next: the next function's loops are those that begin after this.
    this.base[core] = this.frames[core]?.length ?? 0;
    const vf = this.open[core];
    if (!vf) return;
    this.open[core] = undefined;
    vf.settle();
    if (vf.ops.length === 0) return;
    // VfSim models the A5 vector core; another target's vector function has no data, counted as 'VF on <arch>'.
    const cost = this.arch === 'a5' ? vfCost(vf.ops) : noData(`VfSim models the A5 vector core, not ${this.arch}'s`, 'vector');
    // A function VfSim lacks an op of is counted by that op (the profile's no-data list names it).
    const label = this.arch !== 'a5' ? `VF on ${this.arch}` : cost.kind === 'cycles' ? 'VF' : cost.reason.replace(/^VfSim's tables have no /, '');
    this.pipeline(core).issue('PIPE_V', cost, label, `VF(${vf.ops.length} ops)`, {}, vf.source);
  }

  /** Ends every core's open function (before a summary). */
  flushAll(): void {
    this.open.forEach((_, core) => this.flush(core));
  }
}

/** A DMA micro-op's transfer: its bursts (n_burst x len_burst, 32-byte blocks between on-chip buffers) per loop. */
function dmaCost(op: BoundOp, x: Executor): OpCost | undefined {
  const operands = (op.decoded as { operands?: Record<string, number[]> } | undefined)?.operands;
  if (!operands?.n_burst || !operands.len_burst) return undefined;
  const ptrs = op.operandTypes.flatMap((t) => (t?.kind === 'ptr' ? [t.space] : []));
  // The pointer operands are the op's source, then its destination.
  const path = ptrs.length >= 2 ? transferPath(ptrs[0], ptrs[1]) : undefined;
  if (!path) return noData(`${op.node.name}: no transfer path for ${ptrs.join(' -> ')}`);
  const int = (name: string, k = 0) => Number(x.int(op, operands[name][k]));
  const block = ptrs[0] !== 'gm' && ptrs[1] !== 'gm' ? 32 : 1;
  let bytes = int('n_burst') * int('len_burst') * block;
  if (operands.loop_counts) operands.loop_counts.forEach((_, k) => (bytes *= int('loop_counts', k)));
  else {
    // A raw copy repeats its bursts under the hardware loops set_loop_size_* set for its direction.
    const direction = HARDWARE_LOOPS[path];
    if (direction) for (const size of pairOf(x.memory, `loop_size_${direction}`)) bytes *= Number(size);
  }
  return transferCost({ path, instructions: [bytes] });
}
