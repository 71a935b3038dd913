import type { OpCost } from './cost';

/**
 * The pipes of one core as in-order queues (perf_sim's model, include/pto/costmodel/perf_sim): each op waits for its
 * pipe to finish the ops before it, and a flag orders two pipes. The scalar unit hands ops to their pipes at no
 * cost, so pipes run ahead of each other until a wait stops them; pipe names are the VM's (spec/sync.json: PIPE_V,
 * PIPE_MTE2, ...).
 */
export class CorePipeline {
  /** When each pipe has finished everything issued to it so far. */
  private readonly free = new Map<string, number>();
  private readonly busy = new Map<string, number>();
  /** Flags set and not yet waited for, per source, destination and event: the times they fire, in order. */
  private readonly flags = new Map<string, number[]>();
  /** Ops the tables have no cost for: they take no time here, and the summary says how many there were. */
  readonly noData = new Map<string, number>();
  ops = 0;
  /** No pipe starts before this (the last PIPE_ALL barrier), not even one that has run nothing yet. */
  private floor = 0;

  constructor(readonly allPipes = 'PIPE_ALL') {}

  private freeAt(pipe: string): number {
    return Math.max(this.free.get(pipe) ?? 0, this.floor);
  }

  /** An op on its pipe: it starts when the pipe is free and takes its cost. Returns when it ends. */
  issue(pipe: string, cost: OpCost, label: string): { start: number; end: number } {
    this.ops++;
    const start = this.freeAt(pipe);
    if (cost.kind !== 'cycles') {
      this.noData.set(label, (this.noData.get(label) ?? 0) + 1);
      return { start, end: start };
    }
    const end = start + cost.cycles;
    this.free.set(pipe, end);
    this.busy.set(pipe, (this.busy.get(pipe) ?? 0) + cost.cycles);
    return { start, end };
  }

  /** set_flag src -> dst: fires once src has finished what was issued to it before. */
  setFlag(src: string, dst: string, event: number): void {
    const key = `${src}>${dst}#${event}`;
    const queue = this.flags.get(key) ?? [];
    queue.push(this.freeAt(src));
    this.flags.set(key, queue);
  }

  /** wait_flag src -> dst: dst starts nothing more until the flag set first has fired (an unset flag: no wait). */
  waitFlag(src: string, dst: string, event: number): void {
    const fired = this.flags.get(`${src}>${dst}#${event}`)?.shift();
    if (fired !== undefined && fired > this.freeAt(dst)) this.free.set(dst, fired);
  }

  /** pipe_barrier: one pipe is in order already; PIPE_ALL makes every pipe wait for all of them. */
  barrier(pipe: string): void {
    if (pipe !== this.allPipes) return;
    this.floor = this.total();
  }

  /** Cycles until every pipe is done. */
  total(): number {
    let t = this.floor;
    for (const v of this.free.values()) t = Math.max(t, v);
    return t;
  }

  /** Busy cycles per pipe, busiest first. */
  busyPipes(): { pipe: string; busy: number }[] {
    return [...this.busy.entries()].map(([pipe, busy]) => ({ pipe, busy })).sort((a, b) => b.busy - a.busy || a.pipe.localeCompare(b.pipe));
  }
}

/** What a pipe's being the bottleneck means, in a kernel writer's words. */
const BOUND_BY: Record<string, string> = {
  PIPE_MTE2: 'loads from GM',
  PIPE_MTE3: 'stores to GM',
  PIPE_V: 'vector compute',
  PIPE_M: 'cube compute',
  PIPE_MTE1: 'moves from L1 to L0',
  PIPE_FIX: 'accumulator write-back (fixpipe)',
  PIPE_S: 'scalar work',
};

const short = (pipe: string): string => pipe.replace(/^PIPE_/, '');

export interface ProfileSummary {
  totalCycles: number;
  microseconds: number;
  /** Per core: its total and each pipe's busy cycles and share of the core's total. */
  cores: { core: number; total: number; pipes: { pipe: string; busy: number; share: number }[] }[];
  /** "MTE2 busy 83%: loads from GM bound the run; V busy 20%" */
  bottleneck: string;
  /** Ops without data, by op, summed over cores. */
  noData: [string, number][];
}

/** The run's totals: the slowest core sets the time; the busiest pipe of that core is named. */
export function summarize(cores: CorePipeline[], frequencyHz: number): ProfileSummary {
  const perCore = cores.map((c, core) => {
    const total = c.total();
    return { core, total, pipes: c.busyPipes().map((p) => ({ ...p, share: total ? p.busy / total : 0 })) };
  });
  const slowest = perCore.reduce((a, b) => (b.total > a.total ? b : a), perCore[0] ?? { core: 0, total: 0, pipes: [] });
  const totalCycles = slowest.total;
  const noData = new Map<string, number>();
  for (const c of cores) for (const [k, v] of c.noData) noData.set(k, (noData.get(k) ?? 0) + v);
  const [top, ...rest] = slowest.pipes;
  const pct = (share: number): string => `${Math.round(share * 100)}%`;
  const bottleneck = top
    ? `${short(top.pipe)} busy ${pct(top.share)}: ${BOUND_BY[top.pipe] ?? top.pipe} bound the run` +
      (rest.length ? `; ${rest.map((p) => `${short(p.pipe)} busy ${pct(p.share)}`).join(', ')}` : '')
    : 'no op with a known cost ran';
  return {
    totalCycles,
    microseconds: (totalCycles / frequencyHz) * 1e6,
    cores: perCore,
    bottleneck,
    noData: [...noData.entries()].sort((a, b) => b[1] - a[1]),
  };
}
