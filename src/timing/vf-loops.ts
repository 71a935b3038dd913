import type { A5VfSimData } from '../spec/costmodel-schema';

/** A loop around a vector op inside its vector function: the loop's run (one per time it is entered) and iteration. */
export interface VfLoop {
  /** Which run of a loop (a new number each time a loop is entered). */
  run: number;
  iteration: number;
}

/** When each vector loop of a function may start dispatching: VfSim's IDU rules (IDU.cpp), from uarch.csv. */
interface Vloop {
  start: number;
  open: number;
  /** The dispatch cycle of the loop's last op so far, and of its first op (the iterations' stride counts from it). */
  last: number;
  first?: number;
}

const num = (t: A5VfSimData, key: string): number => {
  const v = t.uarch[key];
  if (typeof v !== 'number') throw new Error(`spec/costmodel/a5-vfsim.json: uarch.${key} is not a number`);
  return v;
};

/**
 * The earliest dispatch of each op by the loops around it, as VfSim's IDU opens them:
 * - a loop at the function's top level (a top block) starts at initial_top_block_vloop_start_cycle, or, after the
 *   first, when the previous top block's last op dispatched;
 * - a loop nested in it starts nested_vloop_initial_start_gap after its parent's start for the parent's first
 *   iteration, and for each later one when the previous run's last op dispatched, but not before
 *   loop1_min_feedback_gap after that run's start (the third level: when the previous run's last op dispatched);
 * - a loop's ops dispatch vloop_to_dispatch_delay after it starts, and iteration k of the innermost loop not before
 *   innermost_iter_dispatch_stride * k after its first op.
 * Ops outside every loop dispatch from the first top block's opening.
 */
export class VloopGate {
  private readonly delay: number;
  private readonly firstTop: number;
  private readonly nestedGap: number;
  private readonly feedback: number;
  private readonly stride: number;
  /** Per loop run: its state; per level, the run last seen there (the previous run of a new one). */
  private readonly runs = new Map<number, Vloop>();
  private readonly lastAt: (number | undefined)[] = [];

  constructor(t: A5VfSimData) {
    this.delay = num(t, 'vloop_to_dispatch_delay');
    this.firstTop = num(t, 'initial_top_block_vloop_start_cycle');
    this.nestedGap = num(t, 'nested_vloop_initial_start_gap');
    this.feedback = num(t, 'loop1_min_feedback_gap');
    this.stride = num(t, 'innermost_iter_dispatch_stride');
  }

  /** The first cycle an op inside `loops` (outermost first) may dispatch. */
  gate(loops: readonly VfLoop[]): number {
    if (loops.length === 0) return this.firstTop + this.delay;
    let open = 0;
    loops.forEach((l, level) => {
      let v = this.runs.get(l.run);
      if (!v) {
        v = { start: this.startOf(loops, level), open: 0, last: -Infinity };
        v.open = v.start + this.delay;
        this.runs.set(l.run, v);
        this.lastAt[level] = l.run;
        // A new run at this level ends the record of deeper ones (their next run is a parent's next iteration).
        this.lastAt.length = level + 1;
      }
      open = Math.max(open, v.open);
    });
    const inner = this.runs.get(loops[loops.length - 1].run)!;
    if (inner.first !== undefined) open = Math.max(open, inner.first + this.stride * loops[loops.length - 1].iteration);
    return open;
  }

  /** The op was dispatched at `cycle`: the last op so far of each loop around it. */
  dispatched(loops: readonly VfLoop[], cycle: number): void {
    for (const l of loops) {
      const v = this.runs.get(l.run)!;
      v.last = Math.max(v.last, cycle);
      v.first ??= cycle;
    }
  }

  private startOf(loops: readonly VfLoop[], level: number): number {
    const previous = this.lastAt[level] !== undefined ? this.runs.get(this.lastAt[level]!) : undefined;
    if (level === 0) return previous ? previous.last : this.firstTop;
    const parent = this.runs.get(loops[level - 1].run)!;
    // The parent's first iteration: a fixed gap after it started; later ones follow the previous run's last dispatch.
    if (!previous || loops[level - 1].iteration === 0) return parent.start + this.nestedGap;
    return level === 1 ? Math.max(previous.last, previous.start + this.feedback) : previous.last;
  }
}
