/**
 * A fuzzing worker thread: runs cases through the tools' main functions (from the built dist/) in-process, with
 * process.stdout/stderr writes captured, the way src/cli/entry.ts runs them. An exception escaping main is reported,
 * not thrown. Hangs and memory blow-ups are the pool's business (it terminates this thread).
 */
import * as fs from 'fs';
import * as path from 'path';
import { parentPort, workerData } from 'worker_threads';
import { CaseRequest, CaseResult, ToolName, WorkerSetup } from './protocol';
import { isLocatedError } from './oracle';
import { Capture } from './capture';

/** A tool's main: its exit code, or a Promise of it (pto-vm run, when worker threads ran its launch). */
type Main = (argv: string[]) => number | Promise<number>;

function loadMains(distDir: string): Record<ToolName, Main> {
  /* eslint-disable @typescript-eslint/no-require-imports -- the tools are loaded from the built dist/, by path */
  return {
    'pto-as': (require(path.join(distDir, 'cli', 'pto-as.js')) as { main: Main }).main,
    'pto-vm': (require(path.join(distDir, 'cli', 'pto-vm.js')) as { main: Main }).main,
  };
  /* eslint-enable @typescript-eslint/no-require-imports */
}

/** Runs one case; a Promise when the tool's main returned one (the output is captured until it settles). */
export function runCase(mains: Record<ToolName, Main>, setup: WorkerSetup, req: CaseRequest): CaseResult | Promise<CaseResult> {
  const file = path.join(setup.dir, req.fileName);
  fs.writeFileSync(file, req.text);
  const argv = req.argv.map((a) => a.replace(/FILE/g, file).replace(/OUT/g, setup.dir));
  const out = new Capture();
  const err = new Capture((line) => isLocatedError(line, file));
  const stdout = process.stdout as unknown as { write: unknown };
  const stderr = process.stderr as unknown as { write: unknown };
  const [savedOut, savedErr] = [stdout.write, stderr.write];
  stdout.write = (chunk: unknown) => (out.write(chunk), true);
  stderr.write = (chunk: unknown) => (err.write(chunk), true);
  const start = performance.now();
  const finish = (code: number | undefined, exception?: CaseResult['exception']): CaseResult => {
    stdout.write = savedOut;
    stderr.write = savedErr;
    err.end();
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
      stderrErrors: err.counted,
      exception,
      ms,
      strays,
      path: file,
    };
  };
  let code: number | Promise<number>;
  try {
    code = mains[req.tool](argv);
  } catch (e) {
    return finish(undefined, exceptionOf(e));
  }
  return code instanceof Promise ? code.then(finish, (e: unknown) => finish(undefined, exceptionOf(e))) : finish(code);
}

/** An exception that escaped a tool's main, as the oracle reads it. */
function exceptionOf(e: unknown): CaseResult['exception'] {
  return e instanceof Error ? { message: e.message, stack: e.stack, name: e.name } : { message: String(e) };
}

if (parentPort) {
  const setup = workerData as WorkerSetup;
  const mains = loadMains(setup.distDir);
  const port = parentPort;
  port.on('message', (req: CaseRequest) => void Promise.resolve(runCase(mains, setup, req)).then((result) => port.postMessage(result)));
  port.postMessage({ ready: true });
}
