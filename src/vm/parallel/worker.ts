import { workerData, parentPort } from 'worker_threads';
import { Program } from '../../ir/program';
import { LaunchShape, RunOptions, planLaunch } from '../interpreter';
import { CoreRunner } from './core-run';
import { SharedArguments, rebuildArguments } from './shared-memory';
import { claim, lowerLimit } from './control';

/** How a thread builds the program the main thread runs: the text it assembled, and whether it lowered it. */
export interface ProgramSource {
  path: string;
  text: string;
  target?: 'a2a3' | 'a5';
  /** Whether the run is of the lowered program (AscendC/TIK ops lowered to PTO tile ops, src/lower). */
  lower: boolean;
}

/** What the main thread gives a worker thread. */
export interface WorkerInit {
  source: ProgramSource;
  entry: string;
  options: RunOptions;
  shape: LaunchShape;
  shared: SharedArguments;
  /** The cores in the order the scheduler would run them. */
  order: number[];
  /** Which position of `order` comes next, and where to stop (src/vm/parallel/control.ts). */
  control: SharedArrayBuffer;
}

/** What a worker thread posts besides its cores' reports: it has no more cores to run, or it could not start. */
/** `ready.at`: when the thread was ready to run cores (ms since 1970, performance.timeOrigin + now). */
export type WorkerNotice = { status: 'ready'; at: number } | { status: 'finished' } | { status: 'failed'; message: string };

/**
 * A worker thread's run: builds the program as the main thread did (`build`: src/cli/jobs-worker.ts assembles the
 * source and lowers it), binds the launch's arguments to the shared global memory, then runs cores alone until none
 * is left, posting a report for each.
 */
export function serveCores(build: (source: ProgramSource) => Program): void {
  const port = parentPort!;
  const init = workerData as WorkerInit;
  const control = new Int32Array(init.control);
  try {
    // The tests' way to see a worker thread stop without a word (as one out of memory would).
    if (process.env.PTO_JOBS_TEST_CRASH) process.exit(70);
    const program = build(init.source);
    const fn = program.functions.get(init.entry);
    if (!fn) throw new Error(`no function @${init.entry} on a worker thread`);
    const { buffers, perRank } = rebuildArguments(init.shared);
    const plan = planLaunch(program, fn, perRank, init.shape);
    const runner = new CoreRunner(program, init.options, plan, buffers);
    port.postMessage({ status: 'ready', at: performance.timeOrigin + performance.now() } satisfies WorkerNotice);
    for (let position = claim(control, init.order.length); position >= 0; position = claim(control, init.order.length)) {
      const report = runner.run(position, init.order[position]);
      if (report.status === 'trap') lowerLimit(control, position + 1);
      else if (report.status !== 'done') lowerLimit(control, 0);
      port.postMessage(report);
    }
    port.postMessage({ status: 'finished' } satisfies WorkerNotice);
  } catch (e) {
    lowerLimit(control, 0);
    port.postMessage({ status: 'failed', message: e instanceof Error ? e.message : String(e) } satisfies WorkerNotice);
  }
}
