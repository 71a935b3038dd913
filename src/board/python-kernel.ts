/**
 * A kernel that a PTOAS sample script prints (`<case>.py` builds a module with PTOAS's MLIR Python bindings and
 * prints it). The script runs under python3 with our pure-Python stand-in for those bindings (python/ptoas_shim)
 * first on PYTHONPATH, so no PTOAS build is needed; PTOAS_SAMPLE_ARCH tells it the target, as PTOAS's runner does.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { PythonRunner, ScriptResult, ScriptRun, packageDirectory, pythonCommand } from './python-runner';

export type PythonTarget = 'a2a3' | 'a5';

/** The script's printed module, or why there is none. */
export type PythonKernel = { text: string } | { error: string };

/** python/ptoas_shim of this package. */
export const shimDirectory = (): string => path.join(packageDirectory(), 'python', 'ptoas_shim');

/** PTOAS's runner names the A2/A3 target `a3`. */
const SAMPLE_ARCH: Record<PythonTarget, string> = { a2a3: 'a3', a5: 'a5' };

/** `python3 pyFile` in the script's folder with the shim on PYTHONPATH. */
function builderRun(script: string, target: PythonTarget, timeoutMs: number, shim: string): ScriptRun {
  const inherited = process.env.PYTHONPATH;
  return {
    script,
    cwd: path.dirname(script),
    timeoutMs,
    env: {
      ...process.env,
      PYTHONPATH: inherited ? `${shim}${path.delimiter}${inherited}` : shim,
      PTOAS_SAMPLE_ARCH: SAMPLE_ARCH[target],
      PYTHONDONTWRITEBYTECODE: '1',
    },
  };
}

/** The kernel a builder's run printed, or what went wrong. */
function kernelOf(run: ScriptResult, pyFile: string, python: string): PythonKernel {
  if (run.error && run.status === null)
    return { error: /ENOENT/.test(run.error) ? `${python} is not installed (needed to run ${pyFile})` : `${pyFile}: ${run.error}` };
  if (run.status !== 0) {
    const lastLines = run.stderr.trim().split('\n').slice(-5).join('\n');
    return { error: `${pyFile} exited with ${run.status}:\n${lastLines}` };
  }
  if (run.stdout.trim() === '') return { error: `${pyFile} printed nothing (it should print the module it builds)` };
  return { text: run.stdout };
}

/**
 * Runs `python3 pyFile` in the script's folder with the shim (by default this package's) on PYTHONPATH; its standard
 * output is the kernel.
 */
export function kernelFromPython(pyFile: string, target: PythonTarget, timeoutMs = 60_000, shim = shimDirectory()): PythonKernel {
  const script = path.resolve(pyFile);
  if (!fs.existsSync(script)) return { error: `${pyFile}: no such file` };
  const r = builderRun(script, target, timeoutMs, shim);
  const run = spawnSync(pythonCommand(), [script], { cwd: r.cwd, encoding: 'utf8', timeout: timeoutMs, maxBuffer: 256 * 1024 * 1024, env: r.env });
  const error = run.error ? run.error.message : run.signal ? `killed by ${run.signal}` : undefined;
  return kernelOf({ status: run.status, stdout: run.stdout ?? '', stderr: run.stderr ?? '', error }, pyFile, pythonCommand());
}

/** The same through a board flow's Python runner. */
export async function kernelFromPythonWith(
  runner: PythonRunner,
  pyFile: string,
  target: PythonTarget,
  shim: string,
  timeoutMs = 60_000,
): Promise<PythonKernel> {
  const script = path.resolve(pyFile);
  if (!fs.existsSync(script)) return { error: `${pyFile}: no such file` };
  return kernelOf(await runner.run(builderRun(script, target, timeoutMs, shim)), pyFile, pythonCommand());
}
