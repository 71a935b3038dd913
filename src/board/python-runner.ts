/**
 * How the board flow runs its Python scripts (golden, compare, kernel builders): through a warm interpreter
 * (python/board_runner.py: numpy imported once, each script in a fork of it) where the platform can fork, else one
 * python3 process per script. Both give a script what `python3 script` in its folder gives it.
 */
import { ChildProcessWithoutNullStreams, spawn, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';

/** The interpreter to run: $PYTHON if set, else python3. */
export const pythonCommand = (): string => process.env.PYTHON ?? 'python3';

/** This package's folder: found from this file by walking up to the folder holding package.json. */
export function packageDirectory(): string {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no package.json above ${__dirname}: cannot locate the package's python/ folder`);
  }
}

export interface ScriptRun {
  script: string;
  args?: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutMs?: number;
}

export interface ScriptResult {
  /** The exit status; null when a signal ended it or it could not start. */
  status: number | null;
  stdout: string;
  stderr: string;
  /** Why it could not run or finish (no interpreter, a timeout). */
  error?: string;
}

export interface PythonRunner {
  run(request: ScriptRun): Promise<ScriptResult>;
  close(): void;
}

/** The interpreter's own path: a pyenv or conda shim in front of python3 costs a shell per run. */
export function resolvePython(command: string): { executable: string; numpy: boolean } | { error: string } {
  const probe = spawnSync(command, ['-c', 'import sys\ntry:\n import numpy\n n=1\nexcept ImportError:\n n=0\nprint(sys.executable);print(n)'], {
    encoding: 'utf8',
  });
  if (probe.error || probe.status !== 0) {
    const missing = (probe.error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';
    return { error: missing ? `${command} is not installed` : `${command} does not run: ${(probe.stderr || String(probe.error)).trim()}` };
  }
  const [executable, numpy] = probe.stdout.trim().split('\n');
  return { executable: executable || command, numpy: numpy === '1' };
}

/** One python3 process per script. */
export function spawningRunner(python: string): PythonRunner {
  return {
    run: (r) =>
      new Promise((resolve) => {
        const child = spawn(python, [r.script, ...(r.args ?? [])], { cwd: r.cwd, env: r.env, stdio: ['ignore', 'pipe', 'pipe'] });
        let stdout = '';
        let stderr = '';
        child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
        child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
        const timer = r.timeoutMs ? setTimeout(() => child.kill('SIGKILL'), r.timeoutMs) : undefined;
        child.on('error', (e) => {
          if (timer) clearTimeout(timer);
          resolve({ status: null, stdout, stderr, error: e.message });
        });
        child.on('close', (status, signal) => {
          if (timer) clearTimeout(timer);
          resolve({ status, stdout, stderr, error: signal ? `killed by ${signal}${r.timeoutMs ? ` (timeout ${r.timeoutMs / 1000} s)` : ''}` : undefined });
        });
      }),
    close: () => undefined,
  };
}

/** A warm interpreter: requests are answered one at a time, in order. It runs until `close()`. */
export function forkingRunner(python: string): PythonRunner {
  const server: ChildProcessWithoutNullStreams = spawn(python, ['-u', path.join(packageDirectory(), 'python', 'board_runner.py')], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const waiting: ((line: string | undefined) => void)[] = [];
  let buffered = '';
  let ended = false;
  let stderr = '';
  const endAll = () => {
    ended = true;
    for (const w of waiting.splice(0)) w(undefined);
  };
  server.stdout.setEncoding('utf8').on('data', (d: string) => {
    buffered += d;
    for (let nl = buffered.indexOf('\n'); nl >= 0; nl = buffered.indexOf('\n')) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      waiting.shift()?.(line);
    }
  });
  server.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  server.on('error', endAll);
  server.on('close', endAll);
  const nextLine = () =>
    new Promise<string | undefined>((resolve) => {
      if (ended) resolve(undefined);
      else waiting.push(resolve);
    });
  const ready = nextLine();
  let queue: Promise<unknown> = ready;
  const ask = async (r: ScriptRun): Promise<ScriptResult> => {
    if ((await ready) === undefined) return { status: null, stdout: '', stderr, error: `the Python runner did not start: ${stderr.trim()}` };
    const request = { script: r.script, args: r.args ?? [], cwd: r.cwd, env: r.env, timeout: (r.timeoutMs ?? 600_000) / 1000 };
    const reply = nextLine();
    server.stdin.write(JSON.stringify(request) + '\n');
    const line = await reply;
    if (line === undefined) return { status: null, stdout: '', stderr, error: `the Python runner stopped: ${stderr.trim()}` };
    const out = JSON.parse(line) as { status: number | null; signal: number | null; stdout: string; stderr: string; timedOut: boolean };
    const error = out.timedOut ? `timed out after ${request.timeout} s` : out.signal !== null ? `killed by signal ${out.signal}` : undefined;
    return { status: out.status, stdout: out.stdout, stderr: out.stderr, error };
  };
  return {
    run: (r) => {
      const result = queue.then(() => ask(r));
      queue = result.catch(() => undefined);
      return result;
    },
    close: () => {
      server.stdin.end();
    },
  };
}

/** Fork where the platform has it and PTO_BOARD_PYTHON_FORK is not 0. */
export function pythonRunner(python: string): PythonRunner {
  const canFork = process.platform !== 'win32' && process.env.PTO_BOARD_PYTHON_FORK !== '0';
  return canFork && fs.existsSync(path.join(packageDirectory(), 'python', 'board_runner.py')) ? forkingRunner(python) : spawningRunner(python);
}
