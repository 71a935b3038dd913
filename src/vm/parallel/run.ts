import type { Worker } from 'worker_threads';
import { OpNode } from '../../syntax/ast';
import { TypeTable } from '../../syntax/type-table';
import { Program } from '../../ir/program';
import { GlobalBuffer } from '../../machine/memory';
import { LaunchPlan, LaunchShape, RunOptions, RunResult, Value, launchCanWait, mergeWarnings, planLaunch, runRanks, withWarnings } from '../interpreter';
import { runCores } from '../scheduler';
import { CoreAccesses, findConflict } from './accesses';
import { claim, isClaiming, lowerLimit, newControl, unclaimed } from './control';
import { CoreReport, CoreRunner, errorOf, syncFindingOf, warningOf } from './core-run';
import { InitialMemory, rebuildArguments, shareArguments } from './shared-memory';
import { ProgramSource, WorkerLaunch, WorkerNotice } from './worker';
import { WorkerThreads } from './threads';

export type { ProgramSource } from './worker';
export { AHEAD_MIN_ELEMENTS, WorkerThreads } from './threads';

/**
 * Worker threads start when the cores still to run are expected to take at least this long (ms) on one thread,
 * judged from the cores the main thread has run (its first apart). A worker thread is ready to run cores 120-180 ms
 * after it is started on an idle machine (the thread, the bundle, the modules' set-up, assembling the program), 300 ms
 * and more on a busy one, and while it starts it slows the main thread. Measured on two CPUs (softmax-blocks, 16
 * cores): with 250 ms of cores left a worker thread made the run 90 ms slower, with 800 ms left it broke even (then
 * with copies of the memory into and out of shared memory, which a run over buffers bound in shared memory no longer
 * makes; starting earlier, at 0 or 400 ms, still gained nothing measurable on a 1.2 s launch). Below this a run is as
 * quick on one thread, and the machine's other CPUs stay free.
 */
export const SPAWN_AFTER_MS = 800;

/**
 * A thread's first cores run while its code warms up, up to twice as slow as the later ones: judged from the first
 * alone, the cores left must look this many times longer than SPAWN_AFTER_MS for threads to start at once.
 */
const FIRST_CORE_MARGIN = 2;

export interface JobsOptions {
  /** Threads, the main thread's included (--jobs). */
  jobs: number;
  /** How a worker thread builds the same program. */
  source: ProgramSource;
  /** The script a worker thread runs (compiled JavaScript: src/cli/jobs-thread.ts); none, or none there: no threads. */
  threadScript?: string;
  /** Overrides SPAWN_AFTER_MS (0: always start worker threads; Infinity: never). */
  spawnAfterMs?: number;
  /**
   * Worker threads started before the launch (WorkerThreads.start), which take the launch at once (SPAWN_AFTER_MS
   * weighs the cost of starting threads, already paid); those it does not take are stopped.
   */
  started?: WorkerThreads;
  /** Told, in one line, how the run went (PTO_JOBS_TRACE=1): threads, and whether the parallel result was kept. */
  trace?: (line: string) => void;
}

/** A worker thread that stopped without saying why (out of memory, terminated): the run has no result. */
export class WorkerCrash extends Error {}

/**
 * runRanks with the cores of a launch on several threads, when none of them can wait for another (launchCanWait):
 * the same result, memory, printed text, warnings and trap as runRanks, which runs such cores one after another in
 * the scheduler's order. Each core runs alone over global memory shared by the threads, recording the elements it
 * reads and writes. If two cores touched an element one of them wrote, or a core reached state shared between cores,
 * or a core met an error that is not a trap, the parallel run is discarded and runRanks runs the launch from the
 * initial memory (kept, or made again: src/vm/parallel/shared-memory.ts). Buffers bound in shared memory are run
 * over in place; others are copied in and get the final memory at the end. A trap is reported as runRanks reports
 * the first one in the order; the stores of the cores after it are undone. A Promise when worker threads ran.
 */
export function runRanksWithJobs(
  program: Program,
  types: TypeTable,
  fn: OpNode,
  perRank: Map<string, Value>[],
  options: RunOptions,
  shape: LaunchShape,
  jobs: JobsOptions,
): RunResult | Promise<RunResult> {
  const trace = jobs.trace ?? (() => {});
  // Threads started for the launch stop when it runs one after another.
  const alone = () => {
    void jobs.started?.release();
    return runRanks(program, types, fn, perRank, options, shape);
  };
  const sequential = (why: string) => {
    trace(`--jobs: ${why}: the cores ran one after another`);
    return alone();
  };
  if (jobs.jobs <= 1) return alone();
  let plan: LaunchPlan;
  try {
    plan = planLaunch(program, fn, perRank, shape);
  } catch {
    return sequential('the launch could not be planned');
  }
  if (plan.cores.length < 2) return alone();
  if (launchCanWait(program, plan)) return sequential('a core can wait for another (the scheduler runs them)');
  const sharing = shareArguments(perRank);
  if (!sharing) return sequential('an argument cannot be shared between threads');
  const mine = rebuildArguments(sharing.shared);
  try {
    const run = new ParallelRun(
      program,
      options,
      planLaunch(program, fn, mine.perRank, shape),
      mine.buffers,
      executionOrder(plan.cores.length, options.scheduleSeed),
      jobs,
      fn.symbol!,
      shape,
      sharing.shared,
    );
    const decide = (): RunResult => {
      const outcome = run.outcome(sharing.initial);
      if ('rerun' in outcome) {
        sharing.initial.restore();
        return sequential(outcome.rerun);
      }
      trace(`--jobs: ${run.summary()}: the parallel result is kept`);
      if ('trap' in outcome) throw outcome.trap;
      return outcome.result;
    };
    const waiting = run.runHere();
    return waiting ? waiting.then(decide) : decide();
  } finally {
    // Threads started for the launch and not given it (it took fewer).
    void jobs.started?.release();
  }
}

/** The order in which the scheduler runs cores that never wait: block order, or the draws of a seeded schedule. */
export function executionOrder(cores: number, seed: number | undefined): number[] {
  const order: number[] = [];
  if (seed === undefined) for (let i = 0; i < cores; i++) order.push(i);
  else
    runCores(
      Array.from({ length: cores }, (_, i) => ({
        label: '',
        // A core that never waits ends at its first turn.
        // eslint-disable-next-line require-yield
        run: (function* () {
          order.push(i);
        })(),
        at: () => undefined,
      })),
      seed,
    );
  return order;
}

/** How a worker thread of a launch went: when it was ready (ms after it was started), how many cores it ran. */
interface ThreadRecord {
  ready?: number;
  ran: number;
  /** It was stopped before it began to claim cores: none was left. */
  idle?: boolean;
}

/** One launch run by the main thread and the worker threads it starts, over shared memory. */
class ParallelRun {
  /** Each position's report, when its core ran. */
  private readonly reports: (CoreReport | undefined)[];
  private readonly control: Int32Array;
  private readonly runner: CoreRunner;
  private readonly workers: Worker[] = [];
  private ranHere = 0;
  /** How long the main thread's first core took, and all of its cores (ms), for the trace. */
  private firstCoreMs = 0;
  private mainMs = 0;
  /** When this thread began the launch (ms since 1970). */
  private launchedAt = 0;
  /** How many cores after a trap ran, whose stores were undone. */
  private undone = 0;
  /** When the worker threads were started (ms since 1970). */
  private spawnedAt = 0;
  /** Per worker thread, for the trace. */
  private readonly threads: ThreadRecord[] = [];
  /** Why the parallel result cannot be used (a worker thread could not start its work), if it cannot. */
  private failed?: string;

  constructor(
    program: Program,
    private readonly options: RunOptions,
    private readonly plan: LaunchPlan,
    private readonly buffers: GlobalBuffer[],
    private readonly order: number[],
    private readonly jobs: JobsOptions,
    private readonly entry: string,
    private readonly shape: LaunchShape,
    private readonly shared: WorkerLaunch['shared'],
  ) {
    this.reports = new Array(order.length);
    this.control = new Int32Array(newControl(order.length, Math.max(0, jobs.jobs - 1)));
    // Cores this thread runs before any other thread starts run as one after another: they need a record only for
    // the races the sequential run would report between them (the synchronization checks).
    this.runner = new CoreRunner(program, options, plan, buffers, options.syncCheck !== false);
  }

  /**
   * Runs cores on this thread until none is left, starting worker threads once the rest looks long enough to pay
   * for them; a Promise of their end when it started any.
   */
  runHere(): Promise<void> | undefined {
    const started = performance.now();
    this.launchedAt = performance.timeOrigin + started;
    const spawnAfter = this.jobs.spawnAfterMs ?? SPAWN_AFTER_MS;
    const n = this.order.length;
    // 0: the worker threads start at once (as threads started before the launch take it); below 0 they run every
    // core (the tests' way to give them work).
    if (spawnAfter <= 0 || this.jobs.started) this.spawn(Math.min(this.jobs.jobs - 1, n));
    if (spawnAfter < 0 && this.workers.length > 0) return this.waitForWorkers(false);
    let coreStarted = started;
    for (let position = claim(this.control, n); position >= 0; position = claim(this.control, n)) {
      this.settle(this.runner.run(position, this.order[position]));
      this.ranHere++;
      const now = performance.now();
      const coreMs = now - coreStarted;
      coreStarted = now;
      if (this.ranHere === 1) this.firstCoreMs = coreMs;
      if (this.workers.length > 0) continue;
      // A core for this thread, the others for the workers: one core left is this thread's.
      const left = unclaimed(this.control, n);
      // Judged from the first core alone, or from the mean of the cores after it.
      const perCore = this.ranHere === 1 ? coreMs : (now - started - this.firstCoreMs) / (this.ranHere - 1);
      const expected = perCore * left;
      const threshold = this.ranHere === 1 ? spawnAfter * FIRST_CORE_MARGIN : spawnAfter;
      if (left > 1 && expected >= threshold) this.spawn(Math.min(this.jobs.jobs - 1, left - 1));
    }
    this.mainMs = performance.now() - started;
    return this.workers.length > 0 ? this.waitForWorkers(true) : undefined;
  }

  summary(): string {
    const threads = this.workers.length + 1;
    const when = (t: ThreadRecord) =>
      t.idle ? ' (stopped: not ready when no core was left)' : t.ready === undefined ? '' : ` (ready after ${Math.round(t.ready)} ms)`;
    const workers = this.threads.map((t, i) => `, ${t.ran} on worker ${i + 1}${when(t)}`);
    const undone = this.undone > 0 ? `; the stores of ${this.undone} core${this.undone > 1 ? 's' : ''} after the trap undone` : '';
    const times = this.ranHere > 0 ? ` in ${Math.round(this.mainMs)} ms, the first in ${Math.round(this.firstCoreMs)} ms` : '';
    const ahead =
      this.jobs.started && this.workers.length > 0 ? `; the threads started ${Math.round(this.launchedAt - this.spawnedAt)} ms before the launch` : '';
    return `${this.order.length} cores on ${threads} thread${threads > 1 ? 's' : ''} (${this.ranHere} on the main thread${times}${workers.join('')})${ahead}${undone}`;
  }

  private settle(report: CoreReport): void {
    this.reports[report.position] = report;
    if (report.status === 'trap') lowerLimit(this.control, report.position + 1);
    else if (report.status !== 'done') lowerLimit(this.control, 0);
  }

  private spawn(count: number): void {
    const threads = this.jobs.started ?? WorkerThreads.start(this.jobs.threadScript, this.jobs.source, count);
    if (!threads) return;
    this.spawnedAt = threads.startedAt;
    this.runner.recording = true;
    const launch = {
      lower: this.jobs.source.lower,
      entry: this.entry,
      options: { ...this.options, core: undefined },
      shape: this.shape,
      shared: this.shared,
      order: this.order,
      control: this.control.buffer as SharedArrayBuffer,
    };
    this.workers.push(...threads.launch(launch, count));
  }

  /**
   * Resolves when every worker thread has run its last core; rejects with WorkerCrash if one stopped before. Once
   * this thread has found no core left (`allClaimed`), a worker thread that has not begun to claim cores will run
   * none: it is stopped, not waited for (one still starting would keep a short launch waiting for nothing).
   */
  private waitForWorkers(allClaimed: boolean): Promise<void> {
    return new Promise((resolve, reject) => {
      let running = this.workers.length;
      let crash: WorkerCrash | undefined;
      const stopAll = () => {
        lowerLimit(this.control, 0);
        for (const w of this.workers) void w.terminate();
      };
      const ended = () => {
        if (--running > 0) return;
        if (crash) reject(crash);
        else resolve();
      };
      this.workers.forEach((worker, i) => {
        let finished = false;
        const thread: ThreadRecord = { ran: 0 };
        this.threads.push(thread);
        if (allClaimed && !isClaiming(this.control, i)) {
          thread.idle = true;
          void worker.terminate();
          ended();
          return;
        }
        worker.on('message', (m: CoreReport | WorkerNotice) => {
          if (m.status === 'ready') thread.ready = m.at - this.spawnedAt;
          else if (m.status === 'finished') finished = true;
          else if (m.status === 'failed') {
            finished = true;
            this.failed ??= `a worker thread could not run (${m.message})`;
          } else {
            thread.ran++;
            this.settle(m);
            // The parallel result is lost already: the sequential rerun need not wait for the others.
            if (m.status === 'shared' || m.status === 'internal') stopAll();
          }
        });
        worker.on('error', (e) => {
          crash ??= new WorkerCrash(`worker thread ${i + 1} stopped: ${e.message}`);
        });
        worker.on('exit', (code) => {
          if (!finished && !this.voided()) crash ??= new WorkerCrash(`worker thread ${i + 1} stopped (exit code ${code})`);
          if (crash) stopAll();
          ended();
        });
      });
    });
  }

  /** Whether a report already makes the parallel result unusable (then a terminated thread is no crash). */
  private voided(): boolean {
    return this.reports.some((r) => r !== undefined && r.status !== 'done' && r.status !== 'trap');
  }

  /** The run's outcome (outcomeOf), from the memory it started from. */
  outcome(initial: InitialMemory): Outcome {
    if (this.failed) return { rerun: this.failed, undone: 0 };
    const outcome = outcomeOf(this.reports, this.order, this.plan.labels, this.buffers, initial);
    this.undone = outcome.undone;
    return outcome;
  }
}

/** What a parallel run comes to, and how many cores' stores were undone (cores after a trap). */
export type Outcome = ({ result: RunResult } | { trap: Error } | { rerun: string }) & { undone: number };

/**
 * The launch's result, the trap it reports, or why it must run again one core after another, from the reports of
 * the cores that ran (by position in `order`) over the shared buffers `shared`, which started from `initial`: the
 * buffers the run was given get the final memory, unless it must run again.
 */
export function outcomeOf(
  reports: readonly (CoreReport | undefined)[],
  order: readonly number[],
  labels: readonly string[],
  shared: GlobalBuffer[],
  initial: InitialMemory,
): Outcome {
  for (const r of reports) {
    if (r?.status === 'shared') return { rerun: `${labels[r.core]} reached state shared between cores`, undone: 0 };
    if (r?.status === 'internal') return { rerun: `${labels[r.core]} met an internal error`, undone: 0 };
  }
  const trapAt = reports.findIndex((r) => r?.status === 'trap');
  const last = trapAt >= 0 ? trapAt : order.length - 1;
  for (let p = 0; p <= last; p++) if (!reports[p]) return { rerun: `position ${p} of the cores did not run`, undone: 0 };
  const byCore = new Array<CoreReport | undefined>(order.length);
  for (const r of reports) if (r) byCore[r.core] = r;
  // A core without a record ran on the main thread before any other thread started: before every core it did not
  // precede, as one after another.
  const accesses = Array.from(byCore, accessesOf);
  const conflict = findConflict(accesses, shared.length);
  if (conflict) {
    const [a, b] = conflict.cores.map((c) => labels[c]);
    return { rerun: `${a} and ${b} both touch element ${conflict.element} of %${shared[conflict.buffer].name}, one of them writing it`, undone: 0 };
  }
  if (trapAt >= 0) {
    // The cores after the trap would not have run: their stores are undone (no core up to it touched those elements,
    // or none without a record: then the elements' bytes before are not the initial ones, and it runs again).
    const after = reports.slice(trapAt + 1).filter((r) => r !== undefined);
    if (after.length > 0 && reports.slice(0, trapAt + 1).some((r) => !accessesOf(r)))
      return { rerun: 'cores after the trap ran, and cores up to it have no record to undo them against', undone: 0 };
    let undone = 0;
    for (const r of after) {
      const accesses = accessesOf(r);
      if (!accesses) return { rerun: 'a core after the trap ran without a record', undone: 0 };
      undo(accesses.writes, shared, initial);
      undone++;
    }
    initial.publish(shared);
    const ran = new Set(order.slice(0, trapAt + 1));
    const warnings = Array.from(byCore, (r, core) => (r && ran.has(core) && 'warnings' in r ? r.warnings.map(warningOf) : []));
    const trap = reports[trapAt] as Extract<CoreReport, { status: 'trap' }>;
    return { trap: withWarnings(errorOf(trap.error), mergeWarnings(warnings)), undone };
  }
  initial.publish(shared);
  const done = byCore as Extract<CoreReport, { status: 'done' }>[];
  const result: RunResult = {
    steps: 0,
    notes: [],
    printed: reports.flatMap((r) => (r as Extract<CoreReport, { status: 'done' }>).printed),
    sync: [],
    warnings: mergeWarnings(done.map((r) => r.warnings.map(warningOf))),
    cores: order.length,
  };
  for (const r of done) {
    result.steps += r.steps;
    for (const note of r.notes) if (!result.notes.includes(note)) result.notes.push(note);
    result.sync.push(...r.sync.map(syncFindingOf));
  }
  return { result, undone: 0 };
}

/** What a core touched, when it ran and was recorded. */
function accessesOf(r: CoreReport | undefined): CoreAccesses | undefined {
  return r && 'accesses' in r ? r.accesses : undefined;
}

/** Puts back the initial bytes and `written` marks of the runs of elements a core wrote. */
function undo(writes: Float64Array[], shared: GlobalBuffer[], initial: InitialMemory): void {
  writes.forEach((runs, b) => {
    if (runs.length === 0) return;
    const original = initial.of(b);
    const size = shared[b].codec.size;
    for (let i = 0; i < runs.length; i += 2) {
      const [start, end] = [runs[i], Math.min(runs[i + 1], shared[b].length)];
      shared[b].materialize(start * size, end * size).set(original.bytes.subarray(start * size, end * size), start * size);
      shared[b].written.set(original.written.subarray(start, end), start);
    }
  });
}
