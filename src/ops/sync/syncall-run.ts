import { BoundOp } from '../../ir/bound';
import { CoreIndex, Execution, Executor, HappensBefore } from '../../ir/definition';
import { vmTrap } from '../../machine/trap';
import { DeclaredBinding } from '../define/declared';

/**
 * `pto.syncall` (pto-isa's SYNCALL): a barrier across the cores of the launch of one type. Once every participant
 * has arrived, each goes on having seen the work every other did before it arrived (each acquires the join of all
 * their clocks). Participants by `core_type`: `aiv_only` the vector cores, `aic_only` the cube cores (a core of the
 * other kind passes at once: pto-isa compiles the call away for it), `mix` every core; in a launch whose cores have
 * no kind (a kernel for one kind of core) every core. Soft mode's `used_cores`, when given and not 0, is how many
 * cores take part (the others must not call it). Hard and soft mode have the same semantics (pto-isa's manual); the
 * VM does not model soft mode's arrival counter in the workspace. A participant that never arrives leaves the
 * others waiting: a deadlock report.
 */

/** One barrier round: how many arrived, and the join of their clocks. */
interface Round {
  arrived: number;
  clock: number[];
}

interface Barrier {
  rounds: Round[];
  /** How many rounds each core has entered, by its key: the round a core's next arrival belongs to. */
  entered: Map<string, number>;
}

type CoreType = 'aiv_only' | 'aic_only' | 'mix';

export function* syncAll(x: Executor, op: BoundOp, binding: DeclaredBinding): Execution {
  const coreType = coreTypeOf(binding);
  const core = x.core;
  if (core.kind && ((coreType === 'aiv_only' && core.kind !== 'vector') || (coreType === 'aic_only' && core.kind !== 'cube'))) return;
  const need = participants(x, op, binding, coreType);
  const barrier = x.shared<Barrier>('launch', `syncall:${core.kind ? coreType : 'all'}`, () => ({ rounds: [], entered: new Map() }));
  const me = `${core.block}:${core.kind ?? '-'}:${core.subblock}`;
  const index = barrier.entered.get(me) ?? 0;
  barrier.entered.set(me, index + 1);
  const round = (barrier.rounds[index] ??= { arrived: 0, clock: [] });
  join(round.clock, x.release());
  round.arrived++;
  yield {
    get what() {
      return `every core of pto.syncall (${coreType}) to arrive (${need} must; ${round.arrived} arrived)`;
    },
    ready: () => round.arrived >= need,
  };
  x.acquire(round.clock);
}

/** How many cores take part: `used_cores` when given and not 0, else every core of the type in the launch. */
function participants(x: Executor, op: BoundOp, binding: DeclaredBinding, coreType: CoreType): number {
  const all = launchCores(x.core, coreType);
  const used = binding.operands.used_cores?.[0];
  if (used === undefined) return all;
  const n = Number(x.int(op, used));
  if (n === 0) return all;
  if (n < 0 || n > all)
    throw vmTrap(`pto.syncall: used_cores is ${n}, but the launch has ${all} core${all === 1 ? '' : 's'} of type ${coreType}`, op.node.span);
  return n;
}

function launchCores(core: CoreIndex, coreType: CoreType): number {
  if (!core.kind) return core.blocks * core.subblocks;
  if (coreType === 'aic_only') return core.blocks;
  if (coreType === 'aiv_only') return core.blocks * core.subblocks;
  return core.blocks * (core.subblocks + 1);
}

/** The verified `core_type` (`#pto.sync_core_type<mix>`): the word before the closing `>`. */
function coreTypeOf(binding: DeclaredBinding): CoreType {
  const attr = binding.attrs.core_type;
  const value = attr?.kind === 'dialect' ? /(aiv_only|aic_only|mix)\s*>\s*$/.exec(attr.text)?.[1] : undefined;
  return (value ?? 'mix') as CoreType;
}

function join(into: number[], clock: HappensBefore): void {
  clock.forEach((v, i) => (into[i] = Math.max(into[i] ?? 0, v)));
}
