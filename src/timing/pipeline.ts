import type { OpCost } from './cost';
import { criticalPath } from './critical-path';

/** One op as it ran on its pipe, kept when a trace or a timeline is asked for (--trace, --timeline). */
export interface Slice {
  core: number;
  pipe: string;
  /** As perf_sim names a slice: the ISA op and its tile (TADDS(8x16,f32)). */
  name: string;
  start: number;
  end: number;
  /** What the trace shows beside it: the op as written, its line, where its cost comes from. */
  args: Record<string, string | number>;
  /** The op as written and its offset in the source (for the critical path's lines). */
  op?: string;
  at?: number;
  /** What made it start when it did; undefined: nothing held it (it starts at 0). */
  after?: Cause;
}

/** Why an op started when it did: one link of the critical path (--profile). */
export interface Cause {
  /** 'pipe': its pipe's previous op; 'barrier': a PIPE_ALL barrier; else a wait, as a Flow's kind. */
  kind: 'pipe' | 'barrier' | Flow['kind'];
  /** The op whose end it waited for (on this pipe, another pipe, or another core). */
  from: Slice;
  /** The wait as written (wait_flag PIPE_MTE2 -> PIPE_V #0, pto.tpop_from_aic) and its offset in the source. */
  label?: string;
  at?: number;
}

/** A dependency the model honoured: a flag between two pipes of a core, or a hand-off between cores. */
export interface Flow {
  /** A set/wait flag; a hand-off between cores; a tile shared by two pipes where PTOAS inserts the flag itself. */
  kind: 'flag' | 'cross-core' | 'data';
  /** The op that released it: a set_flag's source pipe's last op, a producer core's last op. */
  from: Slice;
  /** The first op that ran after the wait on the held pipe (unset until one does; a flow without one is dropped). */
  to?: Slice;
  /** set_flag PIPE_MTE2 -> PIPE_V #0, pto.tpop_from_aic, ... */
  label: string;
}

/** A time something fires at, and the op that ends then (for the trace's flow arrows). */
export interface Signal {
  time: number;
  from?: Slice;
  /** The op whose end sets `time` (from may end earlier, when a wait moved its pipe on): the critical path's link. */
  by?: Slice;
}

/**
 * The pipes of one core as in-order queues (perf_sim's model, include/pto/costmodel/perf_sim): each op waits for its
 * pipe to finish the ops before it, and a flag orders two pipes. The scalar unit hands ops to their pipes at no
 * cost, so pipes run ahead of each other until a wait stops them; pipe names are the VM's (spec/sync.json: PIPE_V,
 * PIPE_MTE2, ...). A wait for another core holds one pipe (sync.wait names it) or, when the scalar unit waits
 * (tpop, comm waits), every op issued after it.
 */
export class CorePipeline {
  /** When each pipe has finished everything issued to it so far. */
  private readonly free = new Map<string, number>();
  private readonly busy = new Map<string, number>();
  /** Flags set and not yet waited for, per source, destination and event: when they fire, in order. */
  private readonly flags = new Map<string, Signal[]>();
  /** Ops the tables have no cost for: they take no time here, and the summary says how many there were. */
  readonly noData = new Map<string, number>();
  ops = 0;
  /** Cycles this core's waits for other cores held it beyond where it had got to (what the summary names). */
  waited = 0;
  /** No pipe starts before this (the last PIPE_ALL barrier, the last wait of the scalar unit). */
  private floor = 0;
  /** Recorded only when asked for (`record`): every op's slice, and the flows into this core. */
  readonly slices: Slice[] = [];
  readonly flows: Flow[] = [];
  /** The last slice of each pipe, and the one that ended last. */
  private readonly lastOf = new Map<string, Slice>();
  private lastEnding?: Slice;
  /** Flows waiting for the next op of a pipe ('*': of any pipe). */
  private readonly pending = new Map<string, Flow[]>();
  /** Why each pipe is free only from its time on, and why the floor is where it is (with `chain`). */
  private readonly freeCause = new Map<string, Cause>();
  private floorCause?: Cause;

  /**
   * `record`: keep every slice and flow (--trace, --timeline). `chain`: only link each op to what it waited for
   * (--profile's critical path); slices off the path are not kept, so memory follows the path, not the run.
   */
  constructor(
    readonly allPipes = 'PIPE_ALL',
    readonly core = 0,
    readonly record = false,
    readonly chain = record,
  ) {}

  private freeAt(pipe: string): number {
    return Math.max(this.free.get(pipe) ?? 0, this.floor);
  }

  /** An op on its pipe: it starts when the pipe is free and takes its cost. Returns when it ends. */
  issue(
    pipe: string,
    cost: OpCost,
    label: string,
    name = label,
    args: Record<string, string | number> = {},
    source?: { op: string; at: number },
  ): { start: number; end: number; slice?: Slice } {
    this.ops++;
    const own = this.free.get(pipe) ?? 0;
    const start = Math.max(own, this.floor);
    let end = start;
    if (cost.kind !== 'cycles') {
      this.noData.set(label, (this.noData.get(label) ?? 0) + 1);
    } else {
      end = start + cost.cycles;
      this.free.set(pipe, end);
      this.busy.set(pipe, (this.busy.get(pipe) ?? 0) + cost.cycles);
    }
    if (!this.chain) return { start, end };
    const after = start === 0 ? undefined : own >= this.floor ? this.freeCause.get(pipe) : this.floorCause;
    const slice: Slice = { core: this.core, pipe, name, start, end, args, op: source?.op, at: source?.at, after };
    if (cost.kind === 'cycles') this.freeCause.set(pipe, { kind: 'pipe', from: slice });
    this.lastOf.set(slice.pipe, slice);
    if (!this.lastEnding || slice.end >= this.lastEnding.end) this.lastEnding = slice;
    if (this.record) {
      slice.args = { ...args, cost: cost.kind === 'cycles' ? cost.basis : `no data: ${cost.reason}` };
      this.keep(slice);
    }
    return { start, end, slice };
  }

  private keep(slice: Slice): void {
    this.slices.push(slice);
    for (const key of [slice.pipe, '*']) {
      const waiting = this.pending.get(key);
      if (!waiting) continue;
      for (const f of waiting) f.to = slice;
      this.pending.delete(key);
    }
  }

  /** When `pipe` (or, undefined, every pipe) has finished what was issued to it so far, and the op that ends then. */
  drained(pipe?: string): Signal {
    if (pipe !== undefined && pipe !== this.allPipes) {
      const own = this.free.get(pipe) ?? 0;
      const by = this.chain ? (own >= this.floor ? this.freeCause.get(pipe) : this.floorCause)?.from : undefined;
      return { time: Math.max(own, this.floor), from: this.lastOf.get(pipe), by };
    }
    return { time: this.total(), from: this.lastEnding, by: this.chain ? this.totalCause()?.from : undefined };
  }

  /** Why every pipe is done only at total(): the cause of the pipe that finishes last, or of the floor. */
  totalCause(): Cause | undefined {
    let t = this.floor;
    let cause = this.floorCause;
    for (const [pipe, v] of this.free)
      if (v > t) {
        t = v;
        cause = this.freeCause.get(pipe);
      }
    return cause;
  }

  /** set_flag src -> dst: fires once src has finished what was issued to it before. */
  setFlag(src: string, dst: string, event: number): void {
    const key = `${src}>${dst}#${event}`;
    const queue = this.flags.get(key) ?? [];
    queue.push(this.drained(src));
    this.flags.set(key, queue);
  }

  /** wait_flag src -> dst: dst starts nothing more until the flag set first has fired (an unset flag: no wait). */
  waitFlag(src: string, dst: string, event: number, at?: number): void {
    const fired = this.flags.get(`${src}>${dst}#${event}`)?.shift();
    if (fired) this.hold(dst, fired, `wait_flag ${src} -> ${dst} #${event}`, 'flag', at);
  }

  /**
   * Nothing issued from now on to `pipe` (undefined: to any pipe, the scalar unit waited) starts before the signal
   * fires; the trace draws the dependency from the op that fired it to the next op held.
   */
  hold(pipe: string | undefined, signal: Signal, label: string, kind: Flow['kind'], at?: number): void {
    const all = pipe === undefined || pipe === this.allPipes;
    if (kind === 'cross-core') this.waited += Math.max(0, signal.time - (all ? this.total() : this.freeAt(pipe)));
    const cause: Cause | undefined = this.chain && signal.by ? { kind, from: signal.by, label, at } : undefined;
    if (pipe === undefined || pipe === this.allPipes) {
      if (signal.time > this.floor) {
        this.floor = signal.time;
        this.floorCause = cause;
      }
    } else if (signal.time > this.freeAt(pipe)) {
      this.free.set(pipe, signal.time);
      if (cause) this.freeCause.set(pipe, cause);
      else this.freeCause.delete(pipe);
    }
    if (!this.record || !signal.from) return;
    const flow: Flow = { kind, from: signal.from, label };
    this.flows.push(flow);
    const key = pipe === undefined || pipe === this.allPipes ? '*' : pipe;
    const waiting = this.pending.get(key) ?? [];
    waiting.push(flow);
    this.pending.set(key, waiting);
  }

  /** pipe_barrier: one pipe is in order already; PIPE_ALL makes every pipe wait for all of them. */
  barrier(pipe: string, at?: number): void {
    if (pipe !== this.allPipes) return;
    const total = this.total();
    if (this.chain && total > this.floor) {
      const by = this.totalCause()?.from;
      this.floorCause = by && { kind: 'barrier', from: by, label: `pipe_barrier ${pipe}`, at };
    }
    this.floor = total;
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
  cores: { core: number; total: number; waited: number; pipes: { pipe: string; busy: number; share: number }[] }[];
  /** "MTE2 busy 83%: loads from GM bound the run; V busy 20%" */
  bottleneck: string;
  /** Ops without data, by op, summed over cores. */
  noData: [string, number][];
  /** The ops that set the total, from time 0 to the last (critical-path.ts); empty unless the cores linked them. */
  critical: Slice[];
}

/** The run's totals: the slowest core sets the time; the busiest pipe of that core is named. */
export function summarize(cores: CorePipeline[], frequencyHz: number): ProfileSummary {
  const perCore = cores.map((c, core) => {
    const total = c.total();
    return { core, total, waited: c.waited, pipes: c.busyPipes().map((p) => ({ ...p, share: total ? p.busy / total : 0 })) };
  });
  const slowest = perCore.reduce((a, b) => (b.total > a.total ? b : a), perCore[0] ?? { core: 0, total: 0, waited: 0, pipes: [] });
  const totalCycles = slowest.total;
  const noData = new Map<string, number>();
  for (const c of cores) for (const [k, v] of c.noData) noData.set(k, (noData.get(k) ?? 0) + v);
  const [top, ...rest] = slowest.pipes;
  const pct = (share: number): string => `${Math.round(share * 100)}%`;
  const bottleneck = top
    ? `${short(top.pipe)} busy ${pct(top.share)}: ${BOUND_BY[top.pipe] ?? top.pipe} bound the run` +
      (rest.length ? `; ${rest.map((p) => `${short(p.pipe)} busy ${pct(p.share)}`).join(', ')}` : '')
    : 'no op with a known cost ran';
  // The slowest core may be slow because it waited for another: say for how long.
  const waited = slowest.waited > 0 ? `; core ${slowest.core} waited ${slowest.waited} cycles (${pct(slowest.waited / totalCycles)}) for other cores` : '';
  return {
    totalCycles,
    microseconds: (totalCycles / frequencyHz) * 1e6,
    cores: perCore,
    bottleneck: bottleneck + waited,
    noData: [...noData.entries()].sort((a, b) => b[1] - a[1]),
    critical: criticalPath(cores),
  };
}
