import { costModelTables } from '../spec/costmodel';
import type { A5VfSimData } from '../spec/costmodel-schema';
import { noData, OpCost } from './cost';
import { VfLoop, VloopGate } from './vf-loops';

/**
 * The cycles of one vector function (a `pto.vecscope` on A5) from pto-isa's VfSim tables (spec/costmodel/a5-vfsim.json,
 * docs/performance.md "Micro-ops (A5)"). VfSim steps a fetch/dispatch unit and an out-of-order core cycle by cycle;
 * this takes its ops one at a time, in program order, and places each at the first cycle its queues, ports and
 * source registers allow, with VfSim's numbers:
 *
 * - dispatch: up to IDU_issue_width ops a cycle, from vf_startup_cost - idu_dispatch_start_advance (and the first
 *   loop's opening, initial_top_block_vloop_start_cycle + vloop_to_dispatch_delay) on, while a physical register
 *   (vreg_num) and a shared-queue credit (shq_depth) are free;
 * - an op reaches its queue idu_to_ooo_delay + ooo_to_shq/lsq_delay after dispatch, never before vf_startup_cost;
 * - a load issues on one of load_ports and its result is there load_done_latency later;
 * - a compute op waits for each source: its producer's start plus the forwarding cycles (one less, through the issue
 *   queue), passes the issue queue (exq_recv_delay), and issues on an eligible port (dispatch_exu) at least the
 *   initiation interval after the port's previous op, with at most exq_issue_inflight_cap_per_port ops in flight;
 *   it is done its latency later;
 * - a store waits for its source's producer start plus the forwarding cycles, issues on store_ports and is done
 *   the producer's data_store_cost later;
 * - the function ends vf_drain_cost after its last op is done.
 *
 * - the loops around the ops open as VfSim's IDU opens them (./vf-loops.ts).
 *
 * Not modelled: VfSim's renaming of registers inside a loop body (ProgramVregLiveRangeNormalization), which drops a
 * value carried from one iteration to the next (an accumulator); memory barriers inside a function.
 */

/** One vector micro-op as VfSim sees it: its name and form in the tables, and the registers it reads and writes. */
export interface VfOp {
  /** VfSim's name (VADD, VLDS, VCVT_F32_TO_F16). */
  op: string;
  /** VfSim's form (fp32, fp16, f32_to_f16). */
  form: string;
  /** The values it reads and writes (ids: each value written is a new id; a read names the value it reads). */
  srcs: readonly number[];
  dsts: readonly number[];
  /**
   * The registers its results are written to (absent: the result ids themselves): writing one renames it, and the
   * value it held gives its physical register back once its readers have started.
   */
  names?: readonly number[];
  /** The loops around it inside its function, outermost first (absent: none). */
  loops?: readonly VfLoop[];
}

/** Where the register a source names was last produced: the producer's name, form, start and class. */
interface Producer {
  key: string;
  start: number;
  storeCost: number;
}

/** A pool of `size` credits each held from when it is taken until a release cycle (unknown: still held). */
class Credits {
  private readonly releases: number[] = [];
  private held = 0;
  constructor(private readonly size: number) {}

  /** The first cycle from `at` on with `n` free, counting a credit released at c as free from c + 1. */
  firstFree(at: number, n: number): number {
    for (;;) {
      const busy = this.held + this.releases.filter((r) => r >= at).length;
      if (busy + n <= this.size) return at;
      const later = this.releases.filter((r) => r >= at);
      if (later.length === 0) return Infinity;
      at = Math.min(...later) + 1;
    }
  }

  take(n: number): void {
    this.held += n;
  }

  /** One held credit is released at `cycle` (free to the next cycle's dispatch). */
  release(cycle: number): void {
    this.held--;
    this.releases.push(cycle);
    // Keep the list short: releases long past every later query are free for good.
    if (this.releases.length > 4 * this.size) this.releases.splice(0, this.releases.length - 2 * this.size);
  }
}

/** Per cycle, how many ops a set of ports has started. */
class Ports {
  private readonly used = new Map<number, number>();
  constructor(private readonly width: number) {}

  take(from: number): number {
    let c = from;
    while ((this.used.get(c) ?? 0) >= this.width) c++;
    this.used.set(c, (this.used.get(c) ?? 0) + 1);
    return c;
  }
}

/**
 * One issue port of the compute units: the ops issued on it, in time order. Ops enter a port's queue as they become
 * ready, not in program order, so a later op may take a free cycle before one already placed; each op keeps the
 * initiation interval to the ops issued just before and after it, and at most `cap` ops are in flight at its issue.
 */
class IssuePort {
  private readonly at: number[] = [];
  private readonly keys: string[] = [];
  private readonly done: number[] = [];
  constructor(
    private readonly interval: (previous: string, current: string) => number,
    private readonly cap: number,
  ) {}

  /** The first cycle from `from` on where `key` may issue. */
  firstCycle(from: number, key: string): number {
    let t = from;
    for (;;) {
      const i = this.position(t);
      let next = t;
      if (i > 0) next = Math.max(next, this.at[i - 1] + this.interval(this.keys[i - 1], key));
      if (i < this.at.length && this.at[i] === t) next = t + 1;
      if (next === t && i < this.at.length && this.at[i] - t < this.interval(key, this.keys[i])) next = this.at[i] + 1;
      if (next === t && this.cap > 0 && this.inFlight(i, t) >= this.cap) next = t + 1;
      if (next === t) return t;
      t = next;
    }
  }

  place(t: number, key: string, done: number): void {
    const i = this.position(t);
    this.at.splice(i, 0, t);
    this.keys.splice(i, 0, key);
    this.done.splice(i, 0, done);
  }

  /** How many ops issued before `t` (those before index i) are still running at t (the last few suffice: in flight). */
  private inFlight(i: number, t: number): number {
    let n = 0;
    for (let k = i - 1; k >= 0 && k >= i - 64; k--) if (this.done[k] > t) n++;
    return n;
  }

  /** The index of the first op issued at or after t. */
  private position(t: number): number {
    let lo = 0;
    let hi = this.at.length;
    // Most ops go at the end: try it first.
    if (hi === 0 || this.at[hi - 1] < t) return hi;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.at[mid] < t) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

export interface VfResult {
  cycles: number;
  /** When the last op was done (before the drain). */
  lastDone: number;
  ops: number;
}

const num = (t: A5VfSimData, key: string): number => {
  const v = t.uarch[key];
  if (typeof v !== 'number') throw new Error(`spec/costmodel/a5-vfsim.json: uarch.${key} is not a number`);
  return v;
};

/** The op's row of isa.csv, or why there is none. */
export function vfRow(op: string, form: string, t: A5VfSimData = costModelTables().a5VfSim): A5VfSimData['instructions'][number] | undefined {
  return t.instructions.find((r) => r.op === op && r.form === form);
}

/**
 * The cycles of a vector function of `ops` (in program order, loops unrolled as they ran), from its start to the end
 * of its drain; "no data" when an op is not in VfSim's tables. An empty function takes no time (VfSim: 0).
 */
export function vfCost(ops: readonly VfOp[], t: A5VfSimData = costModelTables().a5VfSim): OpCost {
  for (const o of ops) if (!vfRow(o.op, o.form, t)) return noData(`VfSim's tables have no ${o.op}.${o.form}`, 'vector');
  const r = simulateVf(ops, t);
  return { kind: 'cycles', cycles: r.cycles, pipe: 'vector', basis: `a5 VfSim tables: ${r.ops} vector micro-ops, last done at ${r.lastDone}` };
}

export function simulateVf(ops: readonly VfOp[], t: A5VfSimData = costModelTables().a5VfSim): VfResult {
  if (ops.length === 0) return { cycles: 0, lastDone: 0, ops: 0 };
  const startup = t.defaults.vfStartupCost;
  const rows = new Map(t.instructions.map((r) => [`${r.op}.${r.form}`, r]));
  const forwarding = (producer: string, consumer: string): number => {
    const direct = t.forwarding[producer]?.[consumer];
    // VfSim's default for a pair its table lacks: the producer's latency less 3.
    return direct ?? Math.max(0, (rows.get(producer)?.latency ?? 0) - 3);
  };
  const interval = (previous: string, current: string): number => Math.max(1, t.initiationInterval[previous]?.[current] ?? 1);

  const issueWidth = num(t, 'IDU_issue_width');
  const dispatchFrom = Math.max(
    startup - num(t, 'idu_dispatch_start_advance'),
    num(t, 'initial_top_block_vloop_start_cycle') + num(t, 'vloop_to_dispatch_delay'),
  );
  const toQueue = num(t, 'idu_to_ooo_delay') + num(t, 'ooo_to_shq_delay');
  const toLsq = num(t, 'idu_to_ooo_delay') + num(t, 'ooo_to_lsq_delay');
  const exqRecv = num(t, 'exq_recv_delay');
  const loadDone = num(t, 'load_done_latency');
  const releaseOffset = num(t, 'consumer_release_start_offset');
  const inflightCap = num(t, 'exq_issue_inflight_cap_per_port');
  const shqRelease = num(t, 'shq_release_delay');
  const issuePorts = num(t, 'issue_ports');

  const vloops = new VloopGate(t);
  const pregs = new Credits(num(t, 'vreg_num'));
  const shq = new Credits(num(t, 'shq_depth'));
  const loads = new Ports(num(t, 'load_ports'));
  const stores = new Ports(num(t, 'store_ports'));
  const ports = Array.from({ length: issuePorts }, () => new IssuePort(interval, inflightCap));

  /** Per value: its producer, and when its readers started (for the release of its physical register). */
  const producer = new Map<number, Producer>();
  const consumers = new Map<number, number[]>();
  /** Per register name: the value it holds. */
  const holds = new Map<number, number>();
  let dispatch = dispatchFrom;
  let dispatchedThisCycle = 0;
  let lastDone = 0;

  for (const o of ops) {
    const key = `${o.op}.${o.form}`;
    const row = rows.get(key)!;
    const shared = row.opClass !== 'LOAD';
    // Dispatch in order: a slot this cycle, a physical register per result, a shared-queue credit.
    let d = dispatchedThisCycle >= issueWidth ? dispatch + 1 : dispatch;
    d = Math.max(d, vloops.gate(o.loops ?? []));
    for (;;) {
      const free = Math.max(pregs.firstFree(d, o.dsts.length), shared ? shq.firstFree(d, 1) : d);
      if (free === d) break;
      if (free === Infinity) throw new Error('VfSim model: a vector function holds more registers than the core has');
      d = free;
    }
    dispatchedThisCycle = d === dispatch ? dispatchedThisCycle + 1 : 1;
    dispatch = d;
    vloops.dispatched(o.loops ?? [], d);
    pregs.take(o.dsts.length);
    if (shared) shq.take(1);

    const queued = Math.max(startup, d + (row.opClass === 'COMPUTE' ? toQueue : toLsq));
    let start: number;
    let done: number;
    if (row.opClass === 'LOAD') {
      start = loads.take(queued);
      done = start + loadDone;
    } else if (row.opClass === 'STORE') {
      let ready = queued;
      let storeCost = row.storeCost || 1;
      for (const s of o.srcs) {
        const p = producer.get(s);
        if (!p) continue;
        ready = Math.max(ready, p.start + forwarding(p.key, key));
        storeCost = p.storeCost || 1;
      }
      start = stores.take(ready);
      done = start + storeCost;
      shq.release(start + shqRelease);
    } else {
      let ready = queued;
      // Through the issue queue a compute op sees its source one cycle before the forwarding count says.
      for (const s of o.srcs) {
        const p = producer.get(s);
        if (p) ready = Math.max(ready, p.start + Math.max(0, forwarding(p.key, key) - 1));
      }
      // It enters the issue queue when ready (its shared-queue credit goes back then) and issues exq_recv later.
      shq.release(ready + shqRelease);
      const eligible = row.dispatchExu === 'EXU0_ONLY' ? [0] : [...Array(Math.min(issuePorts, row.dispatchExu === 'EXU012' ? 3 : 2)).keys()];
      const latency = Math.max(1, row.latency);
      let best = Infinity;
      let port = 0;
      for (const p of eligible) {
        const at = ports[p].firstCycle(ready + exqRecv, key);
        if (at < best) [best, port] = [at, p];
      }
      start = best;
      done = start + latency;
      ports[port].place(start, key, done);
    }
    // Each source's consumers, for when its register may be renamed away.
    for (const s of o.srcs) consumers.get(s)?.push(start);
    o.dsts.forEach((v, k) => {
      const name = o.names?.[k] ?? v;
      const old = holds.get(name);
      // The register's previous value is freed once this op has renamed it and its readers have started.
      if (old !== undefined) {
        pregs.release(Math.max(d + 1, ...(consumers.get(old) ?? []).map((c) => c + releaseOffset)));
        consumers.delete(old);
      }
      holds.set(name, v);
      producer.set(v, { key, start, storeCost: row.storeCost });
      consumers.set(v, []);
    });
    lastDone = Math.max(lastDone, done);
  }
  return { cycles: lastDone + t.defaults.vfDrainCost, lastDone, ops: ops.length };
}
