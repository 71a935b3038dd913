import { GlobalAccess, GlobalAccessObserver, GlobalBuffer } from '../../machine/memory';

/**
 * What one core read and wrote of each global buffer, as runs of elements: enough to tell whether cores that ran at
 * the same time could have seen each other's stores (src/vm/parallel/run.ts). Atomic updates count as writes: two
 * cores adding to the same element in another order can round differently.
 */
export interface CoreAccesses {
  /** Per buffer (by its index in the run's list), the runs read: [start0, end0, start1, end1, ...], ends excluded. */
  reads: Float64Array[];
  writes: Float64Array[];
}

/** Most runs a set keeps: past it, neighbouring runs merge into one that covers both (and the gap: more than was touched). */
export const MAX_RUNS = 4096;

/**
 * Runs of elements, kept sorted and disjoint when asked for (normalized): appended as they come, sorted and joined
 * every so often, and when still more than MAX_RUNS, joined pairwise. Joining only grows the runs, so a conflict
 * test on them can only err towards a conflict (a sequential rerun), never miss one.
 */
export class RunSet {
  private runs: number[] = [];
  private sorted = true;

  add(start: number, end: number): void {
    const runs = this.runs;
    const n = runs.length;
    if (n > 0 && runs[n - 1] === start) {
      runs[n - 1] = end;
      return;
    }
    if (n > 0 && runs[n - 2] <= start && start <= runs[n - 1]) {
      if (end > runs[n - 1]) runs[n - 1] = end;
      return;
    }
    if (n > 0 && start < runs[n - 2]) this.sorted = false;
    runs.push(start, end);
    if (runs.length > 4 * MAX_RUNS) this.normalize();
  }

  /** The runs, sorted and disjoint, at most MAX_RUNS of them. */
  toArray(): Float64Array {
    this.normalize();
    return Float64Array.from(this.runs);
  }

  private normalize(): void {
    let runs = this.runs;
    if (!this.sorted) {
      const order = Array.from({ length: runs.length / 2 }, (_, i) => i).sort((a, b) => runs[2 * a] - runs[2 * b] || runs[2 * a + 1] - runs[2 * b + 1]);
      runs = order.flatMap((i) => [runs[2 * i], runs[2 * i + 1]]);
      this.sorted = true;
    }
    const joined: number[] = [];
    for (let i = 0; i < runs.length; i += 2) {
      const n = joined.length;
      if (n > 0 && runs[i] <= joined[n - 1]) joined[n - 1] = Math.max(joined[n - 1], runs[i + 1]);
      else joined.push(runs[i], runs[i + 1]);
    }
    while (joined.length > 2 * MAX_RUNS) {
      const halved: number[] = [];
      for (let i = 0; i < joined.length; i += 4) halved.push(joined[i], i + 3 < joined.length ? joined[i + 3] : joined[i + 1]);
      joined.splice(0, joined.length, ...halved);
    }
    this.runs = joined;
  }
}

/**
 * The observer of the global buffers while cores run alone: gathers consecutive elements one core touches the same
 * way (reading, or writing) into one run, and keeps each core's runs per buffer. One core runs at a time on a
 * thread: `begin` starts a core's record, `end` hands it back.
 */
export class AccessRecorder implements GlobalAccessObserver {
  private readonly index = new Map<GlobalBuffer, number>();
  private reads: RunSet[] = [];
  private writes: RunSet[] = [];
  private buffer?: GlobalBuffer;
  private write = false;
  private start = 0;
  private stop = 0;

  constructor(private readonly buffers: readonly GlobalBuffer[]) {
    buffers.forEach((b, i) => this.index.set(b, i));
  }

  begin(): void {
    this.reads = this.buffers.map(() => new RunSet());
    this.writes = this.buffers.map(() => new RunSet());
    this.buffer = undefined;
  }

  end(): CoreAccesses {
    this.flush();
    return { reads: this.reads.map((r) => r.toArray()), writes: this.writes.map((w) => w.toArray()) };
  }

  access(buffer: GlobalBuffer, element: number, how: GlobalAccess): void {
    this.accessRun(buffer, element, element + 1, how);
  }

  accessRun(buffer: GlobalBuffer, start: number, end: number, how: GlobalAccess): void {
    const write = how !== 'read';
    if (buffer === this.buffer && write === this.write && start <= this.stop && end >= this.start) {
      if (start < this.start) this.start = start;
      if (end > this.stop) this.stop = end;
      return;
    }
    this.flush();
    this.buffer = buffer;
    this.write = write;
    this.start = start;
    this.stop = end;
  }

  private flush(): void {
    const buffer = this.buffer;
    if (!buffer) return;
    this.buffer = undefined;
    const i = this.index.get(buffer);
    // A buffer the run was not given (none is made while a kernel runs): nothing can share it.
    if (i === undefined) return;
    (this.write ? this.writes : this.reads)[i].add(this.start, this.stop);
  }
}

/** The first pair of cores whose accesses overlap with one of them a write, or undefined: `buffer` is its index. */
export interface Conflict {
  buffer: number;
  element: number;
  cores: [number, number];
}

/**
 * Whether the cores' accesses conflict: an element one core wrote that another read or wrote. Where none does, each
 * core saw only the initial memory and its own stores, whatever the order the cores ran in. A sweep over every run
 * by its start, keeping, for the runs still open, the two that reach furthest from different cores (for reads and
 * for writes apart): a new run meets a run of another core exactly when one of those two reaches past its start.
 */
export function findConflict(perCore: (CoreAccesses | undefined)[], buffers: number): Conflict | undefined {
  for (let b = 0; b < buffers; b++) {
    const runs: { start: number; end: number; core: number; write: boolean }[] = [];
    perCore.forEach((accesses, core) => {
      if (!accesses) return;
      for (const [set, write] of [
        [accesses.reads[b], false],
        [accesses.writes[b], true],
      ] as const)
        for (let i = 0; i < set.length; i += 2) runs.push({ start: set[i], end: set[i + 1], core, write });
    });
    if (!runs.some((r) => r.write)) continue;
    runs.sort((x, y) => x.start - y.start);
    const reads = new Reach();
    const writes = new Reach();
    for (const r of runs) {
      const other = writes.otherThan(r.core, r.start) ?? (r.write ? reads.otherThan(r.core, r.start) : undefined);
      if (other !== undefined) return { buffer: b, element: r.start, cores: [Math.min(other, r.core), Math.max(other, r.core)] };
      (r.write ? writes : reads).add(r.end, r.core);
    }
  }
  return undefined;
}

/** The run that reaches furthest, and the one that reaches furthest among the other cores' runs. */
class Reach {
  private first = { end: -Infinity, core: -1 };
  private second = { end: -Infinity, core: -1 };

  add(end: number, core: number): void {
    const { first, second } = this;
    if (core === first.core) first.end = Math.max(first.end, end);
    else if (end > first.end) {
      this.second = first;
      this.first = { end, core };
    } else if (core === second.core) second.end = Math.max(second.end, end);
    else if (end > second.end) this.second = { end, core };
  }

  /** A core other than `core` with a run that reaches past `start`, if any. */
  otherThan(core: number, start: number): number | undefined {
    if (this.first.core !== core && this.first.end > start) return this.first.core;
    if (this.second.core !== core && this.second.end > start) return this.second.core;
    return undefined;
  }
}
