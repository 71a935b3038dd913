import * as fs from 'fs';
import type { Worker } from 'worker_threads';
import { ProgramText, WorkerLaunch, WorkerStart } from './worker';

/**
 * The elements of a generated input from which pto-vm starts a launch's worker threads before it generates them
 * (then they take the launch at once). Generating 8M elements takes 55-75 ms in a fresh process (f32, bf16; f16
 * ~180 ms), a good part of what a thread needs to start (120-200 ms); with less to hide behind, a thread starting
 * beside the launch only slows it. Measured on two CPUs: programs/matmul-gate-proj-blocks.pto on 8 blocks (16.8M bf16 generated,
 * ~1.2 s of cores) went from 0.89 to 0.78 of its --jobs 1 time; softmax-blocks over 65536 x 64 f32 (4.2M, ~250 ms of
 * cores) lost 5% with its thread started ahead, and starts none.
 */
export const AHEAD_MIN_ELEMENTS = 8 << 20;

/**
 * Worker threads for a launch, started before it: each assembles the program while the main thread binds the
 * arguments and plans the launch (a worker thread takes 120-200 ms to be ready, most of it the program's assembly),
 * then waits for its launch. Until a thread is given one it does not keep the process alive, and `release` stops it.
 */
export class WorkerThreads {
  private given = 0;

  private constructor(
    private readonly workers: Worker[],
    /** When the threads were started (ms since 1970). */
    readonly startedAt: number,
  ) {}

  /** `count` threads running `script` (src/cli/jobs-thread.ts) on `text`; none when there is no such script. */
  static start(script: string | undefined, text: ProgramText, count: number): WorkerThreads | undefined {
    if (!script || count < 1 || !fs.existsSync(script)) return undefined;
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only for a run that starts threads
    const { Worker } = require('worker_threads') as typeof import('worker_threads');
    const startedAt = performance.timeOrigin + performance.now();
    const workerData: WorkerStart = { text };
    const workers: Worker[] = [];
    for (let i = 0; i < count; i++) {
      // Whatever a thread might print is its own: the run's output is the main thread's.
      const worker = new Worker(script, { workerData, stdout: true, stderr: !process.env.PTO_DEBUG });
      worker.unref();
      workers.push(worker);
    }
    return new WorkerThreads(workers, startedAt);
  }

  get count(): number {
    return this.workers.length - this.given;
  }

  /** Gives the launch to `count` of the threads not given one yet (their numbers follow the earlier ones'). */
  launch(launch: Omit<WorkerLaunch, 'thread'>, count: number): Worker[] {
    const taken = this.workers.slice(this.given, this.given + count);
    taken.forEach((worker, i) => {
      worker.ref();
      worker.postMessage({ ...launch, thread: this.given + i } satisfies WorkerLaunch);
    });
    this.given += taken.length;
    return taken;
  }

  /** Stops the threads not given a launch; resolves when they have stopped. */
  release(): Promise<void> {
    const stopping = this.workers.slice(this.given).map((worker) => worker.terminate());
    this.given = this.workers.length;
    return Promise.all(stopping).then(() => undefined);
  }
}
