/**
 * A fuzzing worker thread: runs cases through the tools' main functions (from the built dist/) in-process, with
 * process.stdout/stderr writes captured, the way src/cli/entry.ts runs them. An exception escaping main is reported,
 * not thrown. Hangs and memory blow-ups are the pool's business (it terminates this thread).
 */
import * as fs from 'fs';
import * as path from 'path';
import { parentPort, workerData } from 'worker_threads';
import { CaseRequest, CaseResult, ToolName, WorkerSetup } from './protocol';

const HEAD = 48 * 1024;
const TAIL = 16 * 1024;

/** Keeps the first HEAD and last TAIL characters written to a stream, and the total length. */
class Capture {
  head = '';
  tail = '';
  length = 0;
  write(chunk: unknown): void {
    const s = typeof chunk === 'string' ? chunk : Buffer.isBuffer(chunk) || chunk instanceof Uint8Array ? Buffer.from(chunk).toString('utf8') : String(chunk);
    this.length += s.length;
    if (this.head.length < HEAD) {
      const room = HEAD - this.head.length;
      this.head += s.slice(0, room);
      if (s.length <= room) return;
      this.tail = (this.tail + s.slice(room)).slice(-TAIL);
    } else this.tail = (this.tail + s).slice(-TAIL);
  }
  /** The text kept: the head, and the tail from its first whole line. */
  text(): string {
    if (this.tail.length === 0) return this.head;
    const tail = this.tail.slice(this.tail.indexOf('\n') + 1);
    return `${this.head}\n[... ${this.length - HEAD - tail.length} characters left out ...]\n${tail}`;
  }
}

type Main = (argv: string[]) => number;

function loadMains(distDir: string): Record<ToolName, Main> {
  /* eslint-disable @typescript-eslint/no-require-imports -- the tools are loaded from the built dist/, by path */
  return {
    'pto-as': (require(path.join(distDir, 'cli', 'pto-as.js')) as { main: Main }).main,
    'pto-vm': (require(path.join(distDir, 'cli', 'pto-vm.js')) as { main: Main }).main,
  };
  /* eslint-enable @typescript-eslint/no-require-imports */
}

export function runCase(mains: Record<ToolName, Main>, setup: WorkerSetup, req: CaseRequest): CaseResult {
  const file = path.join(setup.dir, req.fileName);
  fs.writeFileSync(file, req.text);
  const argv = req.argv.map((a) => a.replace(/FILE/g, file).replace(/OUT/g, setup.dir));
  const out = new Capture();
  const err = new Capture();
  const stdout = process.stdout as unknown as { write: unknown };
  const stderr = process.stderr as unknown as { write: unknown };
  const [savedOut, savedErr] = [stdout.write, stderr.write];
  stdout.write = (chunk: unknown) => (out.write(chunk), true);
  stderr.write = (chunk: unknown) => (err.write(chunk), true);
  let code: number | undefined;
  let exception: CaseResult['exception'];
  const start = performance.now();
  try {
    code = mains[req.tool](argv);
  } catch (e) {
    exception = e instanceof Error ? { message: e.message, stack: e.stack, name: e.name } : { message: String(e) };
  } finally {
    stdout.write = savedOut;
    stderr.write = savedErr;
  }
  const ms = performance.now() - start;
  const allowed = new Set([req.fileName, ...req.allowedOutputs]);
  const strays: string[] = [];
  for (const name of fs.readdirSync(setup.dir)) {
    if (!allowed.has(name)) strays.push(name);
    fs.rmSync(path.join(setup.dir, name), { recursive: true, force: true });
  }
  for (const name of fs.readdirSync(setup.cwd)) {
    strays.push(path.join('<cwd>', name));
    fs.rmSync(path.join(setup.cwd, name), { recursive: true, force: true });
  }
  return {
    id: req.id,
    code,
    stdout: out.text(),
    stderr: err.text(),
    stdoutLength: out.length,
    stderrLength: err.length,
    exception,
    ms,
    strays,
    path: file,
  };
}

if (parentPort) {
  const setup = workerData as WorkerSetup;
  const mains = loadMains(setup.distDir);
  const port = parentPort;
  port.on('message', (req: CaseRequest) => port.postMessage(runCase(mains, setup, req)));
  port.postMessage({ ready: true });
}
