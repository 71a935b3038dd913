import type { BoundOp } from '../ir/bound';
import type { Value } from '../machine/value';

/**
 * Watches a run without changing it (RunOptions.observer): told of each table instruction as it is about to run,
 * with its operand objects by spec name, and of each synchronization op. The timing model (src/timing/observer.ts)
 * is one; the VM never imports it.
 */
export interface RunObserver {
  instruction(core: number, op: BoundOp, objects: ReadonlyMap<string, Value>): void;
  /** A sync op ran; `id` is its event id when read at run time. */
  sync(core: number, op: BoundOp, id?: number): void;
}
