import { DIAGNOSTICS } from '../../diag/catalog';
import { OpNode } from '../../syntax/ast';
import { GlobalAccess, GlobalAccessObserver, GlobalBuffer } from '../../machine/memory';
import { SyncFinding } from './tracker';

/** What a core last did to a run of elements: at which of its epochs (its own clock entry), by which op, how. */
export interface Segment {
  start: number;
  end: number;
  epoch: number;
  op: OpNode;
  atomic: boolean;
}

/**
 * One core's last accesses of one kind (reads, or writes) to one buffer: disjoint runs of elements, sorted, each
 * with the access that touched it last. A new access replaces what it covers and merges with an equal neighbour,
 * so the list never holds more runs than the buffer has elements, and in practice as many as the tiles a core
 * moves in one round (a loop that stores the same rows every iteration keeps overwriting the same runs).
 */
export class AccessRuns {
  private readonly runs: Segment[] = [];

  /** The runs that overlap [start, end). */
  overlapping(start: number, end: number): Segment[] {
    const out: Segment[] = [];
    for (let i = this.firstEndingAfter(start); i < this.runs.length && this.runs[i].start < end; i++) out.push(this.runs[i]);
    return out;
  }

  assign(s: Segment): void {
    const runs = this.runs;
    const i = this.firstEndingAfter(s.start);
    const replaced: Segment[] = [];
    let j = i;
    while (j < runs.length && runs[j].start < s.end) replaced.push(runs[j++]);
    const pieces: Segment[] = [];
    const first = replaced[0];
    const last = replaced[replaced.length - 1];
    if (first && first.start < s.start) pieces.push({ ...first, end: s.start });
    pieces.push({ ...s });
    if (last && last.end > s.end) pieces.push({ ...last, start: s.end });
    runs.splice(i, j - i, ...pieces);
    // Merge the new run with equal neighbours (same access, touching).
    const at = i + (first && first.start < s.start ? 1 : 0);
    const same = (a: Segment, b: Segment) => a.end === b.start && a.epoch === b.epoch && a.op === b.op && a.atomic === b.atomic;
    if (at + 1 < runs.length && same(runs[at], runs[at + 1])) runs.splice(at, 2, { ...runs[at], end: runs[at + 1].end });
    if (at > 0 && same(runs[at - 1], runs[at])) runs.splice(at - 1, 2, { ...runs[at - 1], end: runs[at].end });
  }

  /** The index of the first run whose end is past `element` (binary search). */
  private firstEndingAfter(element: number): number {
    let lo = 0;
    let hi = this.runs.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.runs[mid].end <= element) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

/** The access being gathered: consecutive elements one op of one core touches the same way, checked as one run. */
interface Pending {
  buffer: GlobalBuffer;
  core: number;
  op: OpNode;
  how: GlobalAccess;
  epoch: number;
  start: number;
  end: number;
}

/** One racing pair of ops: the cores, how each touched the buffer, and the elements both touched. */
interface Race {
  buffer: GlobalBuffer;
  earlier: { core: number; op: OpNode; how: GlobalAccess };
  later: { core: number; op: OpNode; how: GlobalAccess };
  start: number;
  end: number;
  /** The pairs of cores seen racing through these two ops (a kernel's blocks often all race the same way). */
  corePairs: Set<string>;
}

/**
 * Finds data races between the cores of a run on global memory: two accesses to the same element from different
 * cores, at least one a write (atomic updates do not race with each other), neither ordered before the other by
 * the cores' vector clocks (flags, pipes, barriers: what `release`/`acquire` pass between cores). An access carries
 * its core's own clock entry at that moment (its epoch); a later access of core B is ordered after core A's access
 * exactly when that epoch is <= B's clock entry for A.
 *
 * The shadow state is per buffer and per core, the last read and the last write of every element as runs of
 * elements (AccessRuns): bounded by the buffer's size whatever the number of iterations, and small for tile-sized
 * transfers, where a per-element shadow would cost (buffer size x cores) from the first access. Keeping only each
 * core's last access suffices: a clock that covers it covers every earlier one of that core (epochs grow). The
 * observer is installed only when a run has more than one core; a single core pays one undefined check per element.
 */
export class CrossCoreRaces implements GlobalAccessObserver {
  private readonly shadows = new Map<GlobalBuffer, { reads: (AccessRuns | undefined)[]; writes: (AccessRuns | undefined)[] }>();
  /** The op each core runs (the op whose accesses these are). */
  private readonly ops: (OpNode | undefined)[];
  private current = 0;
  private pending?: Pending;
  private readonly races = new Map<string, Race>();
  private readonly opIds = new Map<OpNode, number>();

  constructor(
    /** The run's vector clocks (one per core, indexed by core), read when an access is checked. */
    private readonly clocks: readonly (readonly number[])[],
    /** How reports name each core. */
    private readonly labels: readonly string[],
  ) {
    this.ops = labels.map(() => undefined);
  }

  /** The core that runs from now on (the scheduler switched to it). */
  switchTo(core: number): void {
    if (core !== this.current) this.flush();
    this.current = core;
  }

  /** Core `core` starts running `op`. */
  enter(core: number, op: OpNode): void {
    this.flush();
    this.ops[core] = op;
  }

  access(buffer: GlobalBuffer, element: number, how: GlobalAccess): void {
    this.accessRun(buffer, element, element + 1, how);
  }

  accessRun(buffer: GlobalBuffer, start: number, end: number, how: GlobalAccess): void {
    const core = this.current;
    const op = this.ops[core];
    if (!op) return;
    const epoch = this.clocks[core][core];
    const p = this.pending;
    if (p && p.buffer === buffer && p.core === core && p.op === op && p.how === how && p.epoch === epoch && start >= p.start && start <= p.end) {
      if (end > p.end) p.end = end;
      return;
    }
    this.flush();
    this.pending = { buffer, core, op, how, epoch, start, end };
  }

  /** Checks and records the access being gathered (before a clock changes or another core runs). */
  flush(): void {
    const p = this.pending;
    if (!p) return;
    this.pending = undefined;
    let shadow = this.shadows.get(p.buffer);
    if (!shadow) this.shadows.set(p.buffer, (shadow = { reads: [], writes: [] }));
    const seen = this.clocks[p.core];
    const check = (runs: (AccessRuns | undefined)[], how: GlobalAccess) =>
      runs.forEach((r, other) => {
        if (!r || other === p.core) return;
        for (const s of r.overlapping(p.start, p.end)) {
          if (s.epoch <= seen[other] || (s.atomic && p.how === 'atomic')) continue;
          this.race(p, { core: other, op: s.op, how: s.atomic ? 'atomic' : how }, Math.max(s.start, p.start), Math.min(s.end, p.end));
        }
      });
    check(shadow.writes, 'write');
    if (p.how !== 'read') check(shadow.reads, 'read');
    const mine = p.how === 'read' ? shadow.reads : shadow.writes;
    const runs = (mine[p.core] ??= new AccessRuns());
    runs.assign({ start: p.start, end: p.end, epoch: p.epoch, op: p.op, atomic: p.how === 'atomic' });
  }

  /** One finding per racing pair of ops (and cores), covering every element they were seen to race on. */
  get findings(): SyncFinding[] {
    this.flush();
    return [...this.races.values()].map((r) => this.describe(r));
  }

  private race(p: Pending, earlier: Race['earlier'], start: number, end: number): void {
    // A pair of ops is one report whichever ran first (another interleaving, another block, may run them the other way).
    const key = [this.opId(earlier.op), this.opId(p.op)].sort((a, b) => a - b).join('|') + `|${p.buffer.name}`;
    const cores = `${earlier.core}|${p.core}`;
    const known = this.races.get(key);
    if (!known) {
      this.races.set(key, { buffer: p.buffer, earlier, later: { core: p.core, op: p.op, how: p.how }, start, end, corePairs: new Set([cores]) });
      return;
    }
    known.corePairs.add(cores);
    // The range is that of the first pair of cores: other pairs (other blocks) usually race on other elements.
    if (cores !== `${known.earlier.core}|${known.later.core}`) return;
    known.start = Math.min(known.start, start);
    known.end = Math.max(known.end, end);
  }

  private describe(r: Race): SyncFinding {
    const size = r.buffer.codec.size;
    const elements = r.end - r.start === 1 ? `element ${r.start}` : `elements ${r.start}..${r.end - 1}`;
    const bytes = `bytes ${r.start * size}..${r.end * size - 1}`;
    const { earlier, later } = r;
    const message =
      `${this.labels[later.core]}: ${later.op.name} ${PRESENT[later.how]} ${elements} of %${r.buffer.name} (${bytes}), which ` +
      `${this.labels[earlier.core]}'s ${earlier.op.name} ${PAST[earlier.how]}, and no flag or barrier orders the two cores' accesses` +
      (r.corePairs.size > 1 ? ` (${r.corePairs.size - 1} more pair${r.corePairs.size > 2 ? 's' : ''} of cores race through these ops)` : '');
    const note = `${this.labels[earlier.core]}: ${earlier.op.name} ${PRESENT[earlier.how]} them here`;
    return { message, span: later.op.nameSpan, notes: [{ message: note, span: earlier.op.nameSpan }], kind: DIAGNOSTICS.crossCoreRace };
  }

  private opId(op: OpNode): number {
    let id = this.opIds.get(op);
    if (id === undefined) this.opIds.set(op, (id = this.opIds.size));
    return id;
  }
}

const PRESENT: Record<GlobalAccess, string> = { read: 'reads', write: 'writes', atomic: 'atomically updates' };
const PAST: Record<GlobalAccess, string> = { read: 'read', write: 'wrote', atomic: 'updated atomically' };
