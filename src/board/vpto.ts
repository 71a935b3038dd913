/**
 * PTOAS's VPTO golden suite (test/vpto/cases of a PTOAS export) with the VM as the simulator. Each case folder has
 * kernel.pto (compiled upstream by ptoas with the flags of its ptoas.flags, else `--pto-arch a5 --pto-backend=vpto`),
 * golden.py (writes the inputs and the goldens), a host harness (main.cpp, launch.cpp) and compare.py. As
 * test/vpto/scripts/run_host_vpto_validation.sh does on CANN's simulator, in an empty output folder per case:
 * golden.py, then the host (host/run.ts interprets its C++; its launch runs the kernel on the VM), then compare.py
 * with COMPARE_STRICT=1, its exit status the verdict. Both scripts run from the case's folder with the output
 * folder as their working directory, as upstream (some import a helper from the family's folder by __file__).
 * onboard-only cases are skipped on the simulator upstream, and here; PTODSL cases (kernel.py, or a script) run
 * through src/board/vpto-dsl.ts when their kernels are written out as MLIR, else are skipped, saying why.
 */
import * as fs from 'fs';
import * as path from 'path';
import { formatDiagnostic } from '../diag/diagnostic';
import { CodeBackend } from '../ir/definition';
import { TargetName } from '../spec/schema';
import { assemble } from '../verify/assemble';
import { HostSyntaxError } from './host/tokens';
import { HostProgram } from './host/parse';
import { HostError, HostInterpreter } from './host/run';
import { PythonRunner } from './python-runner';
import { CaseResult, KernelFailure, Outcome, loadHost, runKernel } from './tilelang';
import { runDslScript } from './vpto-dsl';

export type { CaseResult, Outcome };

/** Where the suite lives in a PTOAS export. */
export const casesDirectory = (exportRoot: string): string => path.join(exportRoot, 'test', 'vpto', 'cases');

/** The files a kernel.pto case has (run_host_vpto_validation.sh's validate_case_path). */
const CASE_FILES = ['kernel.pto', 'launch.cpp', 'main.cpp', 'golden.py', 'compare.py'];
/** The flags ptoas is given when the case has no ptoas.flags. */
const DEFAULT_FLAGS = ['--pto-arch', 'a5', '--pto-backend=vpto'];
const ONBOARD_ONLY = 'onboard-only/';

export interface VptoCase {
  /** The folder (or, for a PTODSL script, the file) relative to the cases folder: micro-op/binary-vector/vadd. */
  id: string;
  /** micro-op/<family>, or the top folder (vmi_new, kernels, onboard-only). */
  family: string;
  /** kernel.pto with its host harness; a PTODSL case (kernel.py, or a script beside the case folders). */
  kind: 'pto' | 'ptodsl';
}

export const familyOf = (id: string): string => {
  const parts = id.split('/');
  return parts[0] === 'micro-op' && parts.length > 2 ? `${parts[0]}/${parts[1]}` : parts.length > 1 ? parts[0] : '(top)';
};

/** The cases as upstream discovers them (a folder with kernel.pto and its four files, or a PTODSL case), sorted. */
export function listCases(cases: string): VptoCase[] {
  const found: VptoCase[] = [];
  const walk = (rel: string) => {
    const dir = path.join(cases, rel);
    const entries = fs.readdirSync(dir, { withFileTypes: true });
    const has = (f: string) => entries.some((e) => e.isFile() && e.name === f);
    if (rel !== '' && has('kernel.py')) found.push({ id: rel, family: familyOf(rel), kind: 'ptodsl' });
    else if (rel !== '' && CASE_FILES.every(has)) found.push({ id: rel, family: familyOf(rel), kind: 'pto' });
    for (const e of entries) {
      const child = rel === '' ? e.name : `${rel}/${e.name}`;
      if (e.isDirectory()) walk(child);
      // A PTODSL script: a .py that is not a case's own script nor a private helper (is_ptodsl_case_file).
      else if (e.name.endsWith('.py') && !['golden.py', 'compare.py', 'kernel.py'].includes(e.name) && !e.name.startsWith('_'))
        found.push({ id: child, family: familyOf(child), kind: 'ptodsl' });
    }
  };
  walk('');
  return found.sort((a, b) => a.id.localeCompare(b.id));
}

/** What ptoas.flags (or the default) asks of the compile that matters to a run: the target and the back end. */
export function compileFlags(caseDir: string): { target: TargetName; backend?: CodeBackend; flags: string[] } {
  const file = path.join(caseDir, 'ptoas.flags');
  const flags = fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim().split(/\s+/) : DEFAULT_FLAGS;
  const value = (name: string) => {
    const at = flags.findIndex((f) => f === name || f.startsWith(`${name}=`));
    return at < 0 ? undefined : flags[at].includes('=') ? flags[at].split('=')[1] : flags[at + 1];
  };
  const backend = value('--pto-backend');
  return { target: (value('--pto-arch') ?? 'a5') as TargetName, backend: backend as CodeBackend | undefined, flags };
}

export interface CaseOptions {
  runner: PythonRunner;
  /** The case's output folder is scratch/<id with / as _> (upstream's case_output_token). */
  scratch: string;
  /** Bounds the launch (VM steps per core; default 200M). */
  maxSteps?: number;
  /** Bounds the launch's time in seconds (default 600). */
  timeout?: number;
}

const lastLine = (text: string): string =>
  text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .pop() ?? '';

/** The case's host harness: main.cpp and launch.cpp, as the host compile sees them (no __CCE_AICORE__). */
function loadCaseHost(caseDir: string): HostProgram {
  return loadHost(caseDir);
}

/** The case of an id (a folder or a PTODSL script under the cases folder). */
export function caseOf(cases: string, id: string): VptoCase {
  const at = path.join(cases, id);
  const ptodsl = fs.statSync(at).isFile() || fs.existsSync(path.join(at, 'kernel.py'));
  return { id, family: familyOf(id), kind: ptodsl ? 'ptodsl' : 'pto' };
}

/** runCase, with an internal error (a defect of this toolchain) as the case's result: it must not hide the others'. */
export async function runCaseReporting(cases: string, c: VptoCase, options: CaseOptions): Promise<CaseResult> {
  try {
    return await runCase(cases, c, options);
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    return { id: c.id, outcome: 'error', reason: `internal error: ${message.split('\n').find((l) => l.trim() !== '') ?? message}` };
  }
}

/** Runs one case: its result (one per case folder; the suite's cases have no case table). */
export async function runCase(cases: string, c: VptoCase, options: CaseOptions): Promise<CaseResult> {
  const result = (outcome: Outcome, reason?: string): CaseResult => ({ id: c.id, outcome, ...(reason === undefined ? {} : { reason }) });
  if (c.id.startsWith(ONBOARD_ONLY)) return result('skip', 'onboard-only: upstream runs it on a board only, never on the simulator');
  const source = path.join(cases, c.id);
  const work = path.join(options.scratch, c.id.replace(/[/\s]/g, '_'));
  fs.rmSync(work, { recursive: true, force: true });
  fs.mkdirSync(work, { recursive: true });
  if (c.kind === 'ptodsl') {
    const script = fs.statSync(source).isFile() ? source : path.join(source, 'kernel.py');
    const verdict = await runDslScript(script, work, options.runner, options.maxSteps);
    return verdict.outcome === 'pass' ? result('pass') : result(verdict.outcome, verdict.reason);
  }
  let host: HostProgram;
  try {
    host = loadCaseHost(source);
  } catch (e) {
    if (e instanceof HostSyntaxError || e instanceof HostError) return result('error', `host harness: ${e.message}`);
    throw e;
  }
  const env = { ...process.env, COMPARE_STRICT: '1' };
  const gen = await options.runner.run({ script: path.join(source, 'golden.py'), cwd: work, env, timeoutMs: 600_000 });
  if (gen.status !== 0) {
    const message = lastLine(gen.stderr || gen.stdout || gen.error || '');
    const missing = /^ModuleNotFoundError: No module named '([\w.]+)'/.exec(message);
    if (missing) return result('skip', `golden.py needs the Python module ${missing[1]}, which is not installed here`);
    return result('error', `golden.py failed: ${message}`);
  }
  const { target, backend } = compileFlags(source);
  const file = path.join(source, 'kernel.pto');
  // Named as in the suite: the messages do not depend on where the export is.
  const assembled = assemble(`${c.id}/kernel.pto`, fs.readFileSync(file, 'utf8'), { target });
  const launchBackend = backend ?? assembled.program.backend ?? 'emitc';
  try {
    let launches = 0;
    const run = new HostInterpreter(host, work, (l) => {
      launches++;
      runKernel(assembled, l, { backend: launchBackend, maxSteps: options.maxSteps, timeout: options.timeout });
    }).main([]);
    if (run.status !== 0) return result('error', `host harness failed: ${run.stderr[0]?.trim() ?? `main returned ${run.status}`}`);
    if (launches === 0) return result('error', 'host harness launched no kernel');
  } catch (e) {
    if (e instanceof KernelFailure) return result('error', unsupportedSummary(assembled) ?? e.message);
    if (e instanceof HostError || e instanceof HostSyntaxError) return result('error', `host harness: ${e.message}`);
    throw e;
  }
  const compare = await options.runner.run({ script: path.join(source, 'compare.py'), cwd: work, env, timeoutMs: 600_000 });
  if (compare.status === 0) return result('pass');
  const output = `${compare.stdout}\n${compare.stderr}`;
  const first = output.split('\n').find((l) => /\[ERROR\]/.test(l)) ?? lastLine(output);
  return result('fail', `compare.py: ${first || `exit ${compare.status ?? compare.error}`}`);
}

/**
 * When the kernel file uses ops the toolchain does not support yet: which, the first one by position first (what
 * the case waits for), and how many others. The counts by first op show the progress as the level lands.
 */
function unsupportedSummary(assembled: ReturnType<typeof assemble>): string | undefined {
  const unsupported = assembled.diags.items
    .filter((d) => d.severity === 'error' && /is a VPTO micro-op|not supported yet|does not support yet/.test(d.message))
    .sort((a, b) => (a.span?.start ?? 0) - (b.span?.start ?? 0));
  if (unsupported.length === 0) return undefined;
  // The op's name (pto.vlds), or the type's ('!pto.vmi.vreg' is a VMI type ...).
  const names = [...new Set(unsupported.map((d) => /^'?([!\w.]+)/.exec(d.message)?.[1] ?? d.message))];
  const where = /^(\S+?):\d+:\d+/.exec(formatDiagnostic(assembled.source, unsupported[0]))?.[0] ?? assembled.source.path;
  const others = names.length > 1 ? `; ${names.length - 1} more: ${names.slice(1, 6).join(', ')}${names.length > 6 ? ', ...' : ''}` : '';
  return `not supported yet: ${names[0]} (${where}${others})`;
}
