/**
 * The PTODSL cases of PTOAS's VPTO golden suite (a Python script of `@pto.jit` kernels and golden_output_case
 * CASES, test/dsl-st/common.py) with the VM as the simulator. python/dsl_case.py runs the script with a stand-in
 * for ptodsl that records each jit: a kernel whose jit gives its MLIR (`source=`) is taken as written, its inputs and
 * zeroed output saved as raw bytes; the VM runs the kernel on them (its pointer arguments in order, as the launch passes
 * the arrays); the script's own check (assert_allclose at the case's tolerance) judges the output. A kernel that
 * ptodsl would trace from its Python body is not taken, and the case says so.
 */
import * as fs from 'fs';
import * as path from 'path';
import { LocatedError } from '../diag/located-error';
import { assemble } from '../verify/assemble';
import { runLaunch } from '../vm/interpreter';
import { ArgumentError, bindArguments } from '../vm/io/arguments';
import { PythonRunner, packageDirectory } from './python-runner';

/** One case of a script, as dsl_case.py's manifest lists it. */
interface DslEntry {
  name: string;
  kernel: string;
  args?: string[];
  notTaken?: string;
}

export type DslVerdict = { outcome: 'pass' } | { outcome: 'fail' | 'error' | 'skip'; reason: string };

const SCRIPT = () => path.join(packageDirectory(), 'python', 'dsl_case.py');

const lastLine = (text: string): string =>
  text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .pop() ?? '';

/** Runs every case of the PTODSL script `script` in the empty folder `work`: pass when all its taken cases pass. */
export async function runDslScript(script: string, work: string, runner: PythonRunner, maxSteps = 200_000_000): Promise<DslVerdict> {
  const prepared = await runner.run({ script: SCRIPT(), args: ['prepare', script, work], cwd: work, env: process.env, timeoutMs: 600_000 });
  if (prepared.status !== 0) return { outcome: 'error', reason: `dsl_case.py prepare failed: ${lastLine(prepared.stderr || prepared.stdout)}` };
  const manifest = JSON.parse(fs.readFileSync(path.join(work, 'manifest.json'), 'utf8')) as DslEntry[];
  const taken = manifest.filter((e) => e.args);
  if (taken.length === 0) {
    const why = manifest.find((e) => e.notTaken)?.notTaken ?? 'it has no cases';
    return { outcome: 'skip', reason: `PTODSL case not taken: ${why}` };
  }
  for (const [n, entry] of manifest.entries()) {
    if (!entry.args) continue;
    const folder = path.join(work, String(n));
    const ran = runKernel(path.join(folder, 'kernel.pto'), entry, folder, maxSteps);
    if (ran) return { outcome: 'error', reason: `${entry.name}: ${ran}` };
    const checked = await runner.run({ script: SCRIPT(), args: ['check', script, work, String(n)], cwd: work, env: process.env, timeoutMs: 600_000 });
    if (checked.status !== 0)
      return { outcome: 'fail', reason: `${entry.name}: ${lastLine(checked.stderr || checked.stdout) || `check exited ${checked.status}`}` };
  }
  const others = manifest.length - taken.length;
  return others === 0 ? { outcome: 'pass' } : { outcome: 'skip', reason: `PTODSL case partly taken: ${others} of its cases are traced by ptodsl` };
}

/** Runs the kernel on the arrays, writing each argument's bytes after the run as out<i>.bin; what stopped it, if anything. */
function runKernel(file: string, entry: DslEntry, folder: string, maxSteps: number): string | undefined {
  const assembled = assemble(file, fs.readFileSync(file, 'utf8'), { target: 'a5' });
  const error = assembled.diags.sorted().find((d) => d.severity === 'error');
  if (error) return `the kernel does not verify: ${error.message}`;
  const fn = assembled.program.functions.get(entry.kernel);
  if (!fn) return `the kernel has no function @${entry.kernel}`;
  const params = (fn.params ?? []).map((p) => p.name.slice(1));
  if (params.length !== entry.args!.length) return `@${entry.kernel} takes ${params.length} arguments, the case passes ${entry.args!.length}`;
  try {
    const bound = bindArguments(assembled.types, fn, new Map(params.map((p, i) => [p, entry.args![i]])));
    runLaunch(assembled.program, assembled.types, fn, bound.values, { numerics: 'npu', maxSteps }, 1);
    params.forEach((p, i) => {
      const buffer = bound.buffers.find((b) => b.name === p);
      if (!buffer) throw new ArgumentError(`%${p} is not a pointer argument`);
      fs.writeFileSync(path.join(folder, `out${i}.bin`), buffer.bytes);
    });
  } catch (e) {
    if (e instanceof LocatedError || e instanceof ArgumentError) return `kernel trap: ${e.message}`;
    throw e;
  }
  return undefined;
}
