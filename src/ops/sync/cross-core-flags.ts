import { CoreIndex, Execution, Executor, HappensBefore } from '../../ir/definition';

/**
 * Flags between cores (FFTS cross-core sync: `ffts_cross_core_sync` / `wait_flag_dev`, set/wait_intra_block,
 * set/wait_cross_block). A set signals a group of cores, each of which counts it; a wait passes once its core has
 * counted as many signals as the mode's senders give per round, and consumes them. FFTS modes:
 * - 2 (block, the default of sync.set and the intra-block ops): a cube core's set reaches each vector core of its
 *   block; a vector core's set reaches the cube core, whose wait needs one from each of its vector cores;
 * - 1 (sub-block): a vector core's set reaches every vector core of its block; a wait needs one from each;
 * - 0 (inter-block, set/wait_cross_block): a set reaches every core of its kind in the launch; a wait needs one from
 *   each (a barrier across blocks).
 * (pto-isa's SYNCALL is built from these: mode 0 among the vector cores, or the cube cores, then mode 2 between a
 * cube core and its vector cores.) In a launch whose cores have no kind (a kernel for one kind of core) modes 0 and
 * 1 still join its cores (every core of the launch, the sub-blocks of a block); mode 2 needs the other kind of core,
 * so there the op only informs the sync checker.
 */

export type FftsMode = 0 | 1 | 2;

/** One core's counted signals, per flag id: the clock each sender released with it, in order. */
type Inbox = Map<number, HappensBefore[]>;

function inboxOf(x: Executor, core: CoreIndex): Inbox {
  return x.shared('launch', `ffts:${core.block}:${core.kind ?? '-'}:${core.subblock}`, () => new Map<number, HappensBefore[]>());
}

/** The cores a set by `from` reaches in this mode. */
function receivers(from: CoreIndex, mode: FftsMode): CoreIndex[] {
  const vectors = (block: number) =>
    Array.from({ length: from.subblocks }, (_, subblock) => ({ ...from, block, subblock, kind: from.kind && ('vector' as const) }));
  if (mode === 2) return from.kind === 'cube' ? vectors(from.block) : [{ ...from, subblock: 0, kind: 'cube' }];
  if (mode === 1) return vectors(from.block);
  const blocks = Array.from({ length: from.blocks }, (_, block) => block);
  return from.kind === 'cube' ? blocks.map((block) => ({ ...from, block, subblock: 0 })) : blocks.flatMap(vectors);
}

/** How many signals one wait of `core` needs in this mode: one per core that signals it. */
function needed(core: CoreIndex, mode: FftsMode): number {
  if (mode === 2) return core.kind === 'cube' ? core.subblocks : 1;
  if (mode === 1) return core.subblocks;
  return core.kind === 'cube' ? core.blocks : core.blocks * core.subblocks;
}

export function signalFlag(x: Executor, id: number, mode: FftsMode): void {
  if (!x.core.kind && mode === 2) return;
  const clock = x.release();
  for (const core of receivers(x.core, mode)) {
    const inbox = inboxOf(x, core);
    let queue = inbox.get(id);
    if (!queue) inbox.set(id, (queue = []));
    queue.push(clock);
  }
}

export function* waitFlag(x: Executor, id: number, mode: FftsMode): Execution {
  if (!x.core.kind && mode === 2) return;
  const inbox = inboxOf(x, x.core);
  const need = needed(x.core, mode);
  const count = () => inbox.get(id)?.length ?? 0;
  yield { what: `flag ${id} (${need} signal${need > 1 ? 's' : ''}; ${count()} counted)`, ready: () => count() >= need };
  for (const clock of inbox.get(id)!.splice(0, need)) x.acquire(clock);
}
