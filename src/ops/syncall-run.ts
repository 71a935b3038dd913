import { BoundOp } from '../ir/bound';
import { CoreIndex, CoreKind, Execution, Executor, HappensBefore } from '../ir/definition';
import { vmTrap } from '../machine/trap';
import { DeclaredBinding } from './declared';

/**
 * `pto.syncall` (pto-isa's SYNCALL): a barrier across the cores of a launch of one kind (`aiv_only`: the vector
 * cores, `aic_only`: the cube cores) or of both (`mix`). In a launch whose cores have no kind (not a mixed kernel)
 * every core takes part. Soft mode counts `used_cores` arrivals when given and not zero (else the launch's), in a
 * global workspace on the device: the VM keeps the count itself and leaves the workspace as it is.
 */

interface Barrier {
  /** How many barriers have completed; a core waits for the one it arrived at. */
  completed: number;
  arrived: number;
  /** The clocks of the cores that arrived at the current barrier, merged. */
  clock?: HappensBefore;
  /** The merged clock of each completed barrier. */
  released: HappensBefore[];
}

const KINDS: Record<string, CoreKind | undefined> = { aiv_only: 'vector', aic_only: 'cube', mix: undefined };

/** How many cores of the launch take part. */
function participants(core: CoreIndex, kind: CoreKind | undefined): number {
  if (!core.kind) return core.blocks * core.subblocks;
  if (kind === 'cube') return core.blocks;
  if (kind === 'vector') return core.blocks * core.subblocks;
  return core.blocks * (core.subblocks + 1);
}

export function* runSyncAll(x: Executor, op: BoundOp, b: DeclaredBinding, coreType: string, soft: boolean): Execution {
  const kind = KINDS[coreType];
  // A core of the other kind does not take part (PTOAS compiles the op into its code as nothing).
  if (x.core.kind && kind && x.core.kind !== kind) return;
  let need = participants(x.core, kind);
  const used = b.operands.used_cores?.[0];
  if (soft && used !== undefined) {
    const n = Number(x.int(op, used));
    if (n < 0) throw vmTrap(`pto.syncall: used_cores is ${n}`, op.node.operands[used].span);
    if (n > 0) need = n;
  }
  const barrier = x.shared('launch', `syncall:${coreType}`, (): Barrier => ({ completed: 0, arrived: 0, released: [] }));
  const round = barrier.completed;
  const clock = x.release();
  barrier.clock = barrier.clock ? barrier.clock.map((c, i) => Math.max(c, clock[i])) : clock;
  if (++barrier.arrived === need) {
    barrier.released[round] = barrier.clock;
    barrier.completed++;
    barrier.arrived = 0;
    barrier.clock = undefined;
  }
  yield {
    // Read when reported: how many have arrived by then.
    get what() {
      return `the other cores at pto.syncall (${need} take part; ${barrier.arrived} arrived)`;
    },
    ready: () => barrier.completed > round,
  };
  x.acquire(barrier.released[round]);
}
