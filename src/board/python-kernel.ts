/**
 * A kernel that a PTOAS sample script prints (`<case>.py` builds a module with PTOAS's MLIR Python bindings and
 * prints it). The script runs under python3 with our pure-Python stand-in for those bindings (python/ptoas_shim)
 * first on PYTHONPATH, so no PTOAS build is needed; PTOAS_SAMPLE_ARCH tells it the target, as PTOAS's runner does.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';

export type PythonTarget = 'a2a3' | 'a5';

/** The script's printed module, or why there is none. */
export type PythonKernel = { text: string } | { error: string };

/** The interpreter to run: $PYTHON if set, else python3. */
export const pythonCommand = (): string => process.env.PYTHON ?? 'python3';

/** python/ptoas_shim of this package: found from this file by walking up to the folder holding package.json. */
export function shimDirectory(): string {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json'))) return path.join(dir, 'python', 'ptoas_shim');
    if (path.dirname(dir) === dir) throw new Error(`no package.json above ${__dirname}: cannot locate python/ptoas_shim`);
  }
}

/** PTOAS's runner names the A2/A3 target `a3`. */
const SAMPLE_ARCH: Record<PythonTarget, string> = { a2a3: 'a3', a5: 'a5' };

/**
 * Runs `python3 pyFile` in the script's folder with the shim (by default this package's) on PYTHONPATH; its standard
 * output is the kernel.
 */
export function kernelFromPython(pyFile: string, target: PythonTarget, timeoutMs = 60_000, shim = shimDirectory()): PythonKernel {
  const script = path.resolve(pyFile);
  if (!fs.existsSync(script)) return { error: `${pyFile}: no such file` };
  const inherited = process.env.PYTHONPATH;
  const run = spawnSync(pythonCommand(), [script], {
    cwd: path.dirname(script),
    encoding: 'utf8',
    timeout: timeoutMs,
    maxBuffer: 256 * 1024 * 1024,
    env: {
      ...process.env,
      PYTHONPATH: inherited ? `${shim}${path.delimiter}${inherited}` : shim,
      PTOAS_SAMPLE_ARCH: SAMPLE_ARCH[target],
      PYTHONDONTWRITEBYTECODE: '1',
    },
  });
  if (run.error) {
    const missing = (run.error as NodeJS.ErrnoException).code === 'ENOENT';
    return { error: missing ? `${pythonCommand()} is not installed (needed to run ${pyFile})` : `${pyFile}: ${run.error.message}` };
  }
  if (run.status !== 0) {
    const lastLines = run.stderr.trim().split('\n').slice(-5).join('\n');
    return { error: `${pyFile} exited with ${run.status ?? run.signal}:\n${lastLines}` };
  }
  if (run.stdout.trim() === '') return { error: `${pyFile} printed nothing (it should print the module it builds)` };
  return { text: run.stdout };
}
