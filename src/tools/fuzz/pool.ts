/**
 * A pool of worker threads running fuzz cases (worker.ts). A case that does not answer within the time limit, or
 * whose worker runs out of heap or grows the process past the memory limit, cannot be stopped from inside the
 * worker: the pool terminates that worker, reports the outcome, and starts a new worker for the next case.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Worker } from 'worker_threads';
import { CaseRequest, CaseResult, WorkerSetup } from './protocol';

export interface PoolOptions {
  /** Worker threads (cases run at once). */
  size: number;
  /** The built dist/ directory (the tools' main functions and worker.js). */
  distDir: string;
  /** Milliseconds a case may take before its worker is terminated. */
  timeLimitMs: number;
  /** A worker's V8 heap limit (old generation), in MB. */
  heapLimitMb: number;
  /** The whole process's resident size past which the busy workers are terminated, in MB. */
  rssLimitMb: number;
  /** A worker's stack, in MB (about the 1 MB a tool's main thread has). */
  stackSizeMb: number;
  /** The (empty) working directory the tools run in; the pool changes to it and back. */
  cwd: string;
}

export type Outcome = { kind: 'done'; result: CaseResult } | { kind: 'timeout' | 'out-of-memory' | 'worker-died'; ms: number; detail: string };

interface Slot {
  worker: Worker;
  ready: Promise<void>;
  dir: string;
  busy?: { req: CaseRequest; start: number; timer: NodeJS.Timeout; resolve: (o: Outcome) => void; settled: boolean };
  dead: boolean;
}

export function defaultDistDir(): string {
  // Compiled, this file is dist/tools/fuzz/pool.js; under ts-jest it is src/tools/fuzz/pool.ts.
  const root = path.resolve(__dirname, '..', '..', '..');
  return __filename.endsWith('.ts') ? path.join(root, 'dist') : path.resolve(__dirname, '..', '..');
}

export class Pool {
  private slots: Slot[] = [];
  private queue: { req: CaseRequest; resolve: (o: Outcome) => void }[] = [];
  private monitor: NodeJS.Timeout;
  private savedCwd: string;
  private root: string;
  private nextDir = 0;
  /** Workers started (the first ones and replacements). */
  started = 0;

  constructor(readonly opts: PoolOptions) {
    const worker = path.join(opts.distDir, 'tools', 'fuzz', 'worker.js');
    if (!fs.existsSync(worker)) throw new Error(`${worker} is missing: build first (npm run build)`);
    this.root = fs.mkdtempSync(path.join(os.tmpdir(), 'pto-fuzz-'));
    this.savedCwd = process.cwd();
    fs.mkdirSync(opts.cwd, { recursive: true });
    process.chdir(opts.cwd);
    for (let i = 0; i < opts.size; i++) this.slots.push(this.spawn());
    this.monitor = setInterval(() => this.checkMemory(), 50);
    this.monitor.unref();
  }

  private spawn(): Slot {
    const dir = path.join(this.root, `w${this.nextDir++}`);
    fs.mkdirSync(dir);
    const setup: WorkerSetup = { distDir: this.opts.distDir, dir, cwd: this.opts.cwd };
    const worker = new Worker(path.join(this.opts.distDir, 'tools', 'fuzz', 'worker.js'), {
      workerData: setup,
      resourceLimits: { maxOldGenerationSizeMb: this.opts.heapLimitMb, maxYoungGenerationSizeMb: 64, stackSizeMb: this.opts.stackSizeMb },
      stdout: true,
      stderr: true,
    });
    // The worker's own console (none expected: the tools' writes are captured) is drained and dropped.
    worker.stdout.resume();
    worker.stderr.resume();
    this.started++;
    let markReady: () => void = () => {};
    const slot: Slot = { worker, dir, dead: false, ready: new Promise<void>((r) => (markReady = r)) };
    worker.on('message', (m: CaseResult | { ready: true }) => {
      if ('ready' in m) return markReady();
      this.finish(slot, { kind: 'done', result: m });
    });
    worker.on('error', (e: Error & { code?: string }) => {
      const oom = e.code === 'ERR_WORKER_OUT_OF_MEMORY' || /out of memory|heap limit/i.test(e.message);
      this.kill(slot, oom ? 'out-of-memory' : 'worker-died', `${e.code ?? e.name}: ${e.message}`);
    });
    worker.on('exit', (code) => this.kill(slot, 'worker-died', `the worker exited with code ${code}`));
    return slot;
  }

  /** Runs one case; the promise always resolves (a hang or a crash is an outcome). */
  run(req: CaseRequest): Promise<Outcome> {
    return new Promise((resolve) => {
      this.queue.push({ req, resolve });
      this.dispatch();
    });
  }

  private dispatch(): void {
    for (const slot of this.slots) {
      if (this.queue.length === 0) return;
      if (slot.busy || slot.dead) continue;
      const { req, resolve } = this.queue.shift()!;
      const busy = { req, resolve, start: 0, settled: false, timer: undefined as unknown as NodeJS.Timeout };
      slot.busy = busy;
      void slot.ready.then(() => {
        if (slot.dead || busy.settled) return;
        busy.start = performance.now();
        busy.timer = setTimeout(() => this.kill(slot, 'timeout', `no answer within ${this.opts.timeLimitMs} ms`), this.opts.timeLimitMs);
        slot.worker.postMessage(req);
      });
    }
  }

  private finish(slot: Slot, outcome: Outcome): void {
    const busy = slot.busy;
    if (!busy || busy.settled) return;
    busy.settled = true;
    clearTimeout(busy.timer);
    slot.busy = undefined;
    busy.resolve(outcome);
    this.dispatch();
  }

  /** Ends a slot's worker (if alive), reports the outcome of its case, and puts a new worker in its place. */
  private kill(slot: Slot, kind: 'timeout' | 'out-of-memory' | 'worker-died', detail: string): void {
    if (slot.dead) return;
    slot.dead = true;
    void slot.worker.terminate();
    const index = this.slots.indexOf(slot);
    if (index >= 0 && !this.closed) this.slots[index] = this.spawn();
    fs.rm(slot.dir, { recursive: true, force: true }, () => {});
    const busy = slot.busy;
    if (busy && !busy.settled) {
      busy.settled = true;
      clearTimeout(busy.timer);
      slot.busy = undefined;
      busy.resolve({ kind, ms: busy.start ? performance.now() - busy.start : 0, detail });
    }
    this.dispatch();
  }

  /** Replaces the idle workers with fresh ones (a case confirmed alone sees no state left by earlier cases). */
  recycle(): void {
    for (let i = 0; i < this.slots.length; i++) {
      const slot = this.slots[i];
      if (slot.busy || slot.dead) continue;
      slot.dead = true;
      void slot.worker.terminate();
      fs.rm(slot.dir, { recursive: true, force: true }, () => {});
      this.slots[i] = this.spawn();
    }
  }

  private checkMemory(): void {
    const rss = process.memoryUsage.rss() / (1024 * 1024);
    if (rss <= this.opts.rssLimitMb) return;
    // Which worker grew cannot be told from here: every busy one is stopped (the campaign re-runs each alone).
    for (const slot of [...this.slots])
      if (slot.busy && !slot.dead) this.kill(slot, 'out-of-memory', `the process grew to ${Math.round(rss)} MB (limit ${this.opts.rssLimitMb} MB)`);
  }

  private closed = false;

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.monitor);
    for (const q of this.queue.splice(0)) q.resolve({ kind: 'worker-died', ms: 0, detail: 'the pool closed' });
    await Promise.all(
      this.slots.map((s) => {
        s.dead = true;
        return s.worker.terminate();
      }),
    );
    process.chdir(this.savedCwd);
    fs.rmSync(this.root, { recursive: true, force: true });
  }
}
