import { workerData, parentPort } from 'worker_threads';
import { Program } from '../../ir/program';
import { LaunchShape, RunOptions, planLaunch } from '../interpreter';
import { CoreRunner } from './core-run';
import { SharedArguments, rebuildArguments } from './shared-memory';
import { claim, lowerLimit, markClaiming } from './control';

/** The text a thread assembles the program from, as the main thread did. */
export interface ProgramText {
  path: string;
  text: string;
  target?: 'a2a3' | 'a5';
}

/** How a worker thread builds the program the main thread runs: the text it assembled, and whether it lowered it. */
export interface ProgramSource extends ProgramText {
  /** Whether the run is of the lowered program (AscendC/TIK ops lowered to PTO tile ops, src/lower). */
  lower: boolean;
}

/** What a worker thread starts with (its workerData): the text, which it assembles while it waits for its launch. */
export interface WorkerStart {
  text: ProgramText;
}

/** The launch the main thread hands a worker thread, in a message: what it needs besides the program. */
export interface WorkerLaunch {
  /** Whether to run the lowered program. */
  lower: boolean;
  entry: string;
  options: RunOptions;
  shape: LaunchShape;
  shared: SharedArguments;
  /** The cores in the order the scheduler would run them. */
  order: number[];
  /** Which position of `order` comes next, and where to stop (src/vm/parallel/control.ts). */
  control: SharedArrayBuffer;
  /** This thread's number among the worker threads (0 for the first), which it marks in `control` as it starts. */
  thread: number;
}

/** What a worker thread posts besides its cores' reports: it has no more cores to run, or it could not start. */
/** `ready.at`: when the thread was ready to run cores (ms since 1970, performance.timeOrigin + now). */
export type WorkerNotice = { status: 'ready'; at: number } | { status: 'finished' } | { status: 'failed'; message: string };

/**
 * A worker thread's run. It assembles the program as the main thread did (`prepare`: src/cli/jobs-worker.ts), which
 * it may do before the launch comes, then takes the launch: builds the program to run (`prepare`'s function lowers it
 * when the launch says so), binds the launch's arguments to the shared global memory, and runs cores alone until none
 * is left, posting a report for each.
 */
export function serveCores(prepare: (text: ProgramText) => (lower: boolean) => Program): void {
  const port = parentPort!;
  const start = workerData as WorkerStart;
  // The tests' way to see a worker thread stop without a word (as one out of memory would).
  if (process.env.PTO_JOBS_TEST_CRASH) process.exit(70);
  let build: ((lower: boolean) => Program) | Error;
  try {
    build = prepare(start.text);
  } catch (e) {
    build = e instanceof Error ? e : new Error(String(e));
  }
  port.once('message', (launch: WorkerLaunch) => {
    const control = new Int32Array(launch.control);
    try {
      if (build instanceof Error) throw build;
      const program = build(launch.lower);
      const fn = program.functions.get(launch.entry);
      if (!fn) throw new Error(`no function @${launch.entry} on a worker thread`);
      const { buffers, perRank } = rebuildArguments(launch.shared);
      const plan = planLaunch(program, fn, perRank, launch.shape);
      const runner = new CoreRunner(program, launch.options, plan, buffers);
      port.postMessage({ status: 'ready', at: performance.timeOrigin + performance.now() } satisfies WorkerNotice);
      markClaiming(control, launch.thread);
      for (let position = claim(control, launch.order.length); position >= 0; position = claim(control, launch.order.length)) {
        const report = runner.run(position, launch.order[position]);
        if (report.status === 'trap') lowerLimit(control, position + 1);
        else if (report.status !== 'done') lowerLimit(control, 0);
        port.postMessage(report);
      }
      port.postMessage({ status: 'finished' } satisfies WorkerNotice);
    } catch (e) {
      lowerLimit(control, 0);
      port.postMessage({ status: 'failed', message: e instanceof Error ? e.message : String(e) } satisfies WorkerNotice);
    }
  });
}
