import type { CoreIndex, Executor, HappensBefore } from '../ir/definition';
import type { BoundOp } from '../ir/bound';
import type { Value } from '../machine/value';

/**
 * Watches a run without changing it (RunOptions.observer): told of each table instruction as it is about to run,
 * with its operand objects by spec name, and of each synchronization op. The timing model (src/timing/observer.ts)
 * is one; the VM never imports it.
 */
export interface RunObserver {
  /** The cores of a launch, by the index the other calls name them with (not called for a single-core run). */
  launch?(cores: readonly CoreIndex[]): void;
  instruction(core: number, op: BoundOp, objects: ReadonlyMap<string, Value>): void;
  /**
   * A micro-level op (VPTO: written in a micro-op format, or a vector scope), a control-flow op (scf.for, scf.if:
   * the loops around vector ops) or a call (a vector function ends at a call and at its return) is about to run; `x`
   * reads its operands (`x.slot(op.operands[i])`). For an op with regions or a call, what it returns is called when
   * the op has run.
   */
  microOp?(core: number, op: BoundOp, x: Executor): (() => void) | void;
  /** A sync op ran; `id` is its event id when read at run time. */
  sync(core: number, op: BoundOp, id?: number): void;
  /**
   * `op` handed this core's work so far to other cores (a cross-core flag, a pushed or freed pipe slot, a notify):
   * `clock` is the vector clock it handed, whose own entry names this hand-off.
   */
  released?(core: number, op: BoundOp, clock: HappensBefore): void;
  /** `op` took in what other cores released (a wait that passed, a pop): their hand-offs `clock` covers. */
  acquired?(core: number, op: BoundOp, clock: HappensBefore): void;
}
