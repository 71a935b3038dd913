/**
 * Board validation without a board: PTOAS's board flow for one sample case, with the VM as the board. The case is
 * derived from the kernel (case.ts) and written as the two files the golden scripts read (main.cpp, outputs.txt);
 * the golden script writes the inputs and expected outputs, the VM runs the kernel on the inputs and writes the
 * outputs, and the case's compare script decides.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { LocatedError } from '../diag/located-error';
import { formatAll, formatDiagnostic } from '../diag/diagnostic';
import { TargetName } from '../spec/schema';
import { elemSize } from '../types/type';
import { GlobalBuffer } from '../machine/memory';
import { assemble } from '../verify/assemble';
import { RunOptions, Value, runLaunch } from '../vm/interpreter';
import { kernelFromPythonWith } from './python-kernel';
import { PythonRunner, ScriptResult, pythonCommand, pythonRunner, spawningRunner } from './python-runner';
import { unimplementedInstructions } from '../ops/instructions/semantics';
import { BoardCase, caseTarget } from './cases';
import { CaseError, CaseMeta, deriveCase, kernelFunctions, renderMainCpp, renderOutputs } from './case';
import { Difference, Tolerance, compareBuffers, compareCallOf, harnessTolerance } from './compare';
import { boardSkipReason, usesCaseGolden } from './harness-defaults';

export type Outcome = 'pass' | 'fail' | 'error' | 'determinism-only' | 'no-pto';

export interface CaseResult {
  case: BoardCase;
  outcome: Outcome;
  /**
   * What the case's golden script checks, once it ran: expected outputs (`golden`), or only that two runs agree
   * (`determinism`; such a case that ran is `determinism-only`, one that did not is an error or failure counted apart).
   */
  checks?: 'golden' | 'determinism';
  /** Why PTOAS's board runner does not run this case (a limit of its runtime or harness); the VM runs it anyway. */
  boardSkips?: string;
  /** Why it failed or could not run; what the determinism-only case checked. */
  reason?: string;
  target?: TargetName;
  /** Per output buffer, when the kernel ran and a golden existed. */
  differences?: { buffer: string; difference: Difference }[];
  seconds: number;
  /** Where the case's time went, in seconds: its Python scripts, assembling and deriving, the VM's runs. */
  phases?: Phases;
}

export interface Phases {
  python: number;
  assemble: number;
  vm: number;
}

export interface ValidateOptions {
  target?: TargetName;
  /** Keep each case's folder under this directory (else a temporary one, removed after). */
  keep?: string;
  python?: string;
  /** Runs the case's scripts (golden, compare, kernel builder); else one python3 process per script. */
  runner?: PythonRunner;
  maxSteps?: number;
  /**
   * A folder with a stand-in for PTOAS's Python bindings: a sample without a .pto is then built by running its
   * `<case>.py` with the folder on PYTHONPATH, which prints the kernel.
   */
  pythonShim?: string;
}

/** The SoC the board runner names for a target (SOC_VERSION): the golden scripts branch on it. */
const SOC_VERSIONS: Record<TargetName, string> = { a5: 'Ascend950', a2a3: 'Ascend910' };

export async function validateCase(c: BoardCase, options: ValidateOptions = {}): Promise<CaseResult> {
  const started = Date.now();
  const phases: Phases = { python: 0, assemble: 0, vm: 0 };
  const done = (r: Omit<CaseResult, 'case' | 'seconds'>): CaseResult => ({ case: c, ...r, seconds: (Date.now() - started) / 1000, phases });
  const runner = options.runner ?? spawningRunner(options.python ?? pythonCommand());
  const timed = new TimedRunner(runner, phases);
  let text: string;
  if (c.kernel) text = fs.readFileSync(c.kernel, 'utf8');
  else {
    const ownBuilder = c.builder && path.basename(c.builder) === `${c.testcase}.py` ? c.builder : undefined;
    const built =
      ownBuilder && options.pythonShim ? await kernelFromPythonWith(timed, ownBuilder, caseTarget(c, '', options.target), options.pythonShim) : undefined;
    if (built === undefined)
      return done({ outcome: 'no-pto', reason: c.builder ? `no .pto (built from ${path.basename(c.builder)})` : 'no kernel .pto found' });
    if ('error' in built) return done({ outcome: 'error', reason: `${path.basename(c.builder!)} did not print a kernel: ${lastLine(built.error)}` });
    text = built.text;
    c = { ...c, kernel: c.builder!.replace(/\.py$/, '.pto') };
  }
  const target = caseTarget(c, text, options.target);
  const assembling = Date.now();
  const assembled = assemble(c.kernel!, text, { target });
  phases.assemble += (Date.now() - assembling) / 1000;
  const boardSkips = boardSkipReason(path.basename(c.sampleDir), c.testcase, /\bpto\.comm\./.test(text));
  const result = await validateAssembled(c, assembled, target, options, timed, phases);
  return done(boardSkips ? { ...result, boardSkips } : result);
}

export interface ManyOptions extends Omit<ValidateOptions, 'runner'> {
  /** Cases under way at once, each lane with a Python of its own (its scripts run while another case's kernel runs). */
  jobs?: number;
  /** Told as a case starts and as it ends (in the order they end). */
  onStart?: (c: BoardCase, index: number) => void;
  onResult?: (r: CaseResult, index: number) => void;
}

/** Validates the cases, `jobs` at a time; the results in the cases' order. */
export async function validateCases(cases: BoardCase[], options: ManyOptions = {}): Promise<CaseResult[]> {
  const jobs = Math.max(1, Math.min(options.jobs ?? 1, cases.length));
  const python = options.python ?? pythonCommand();
  const results: CaseResult[] = new Array(cases.length);
  let next = 0;
  const lane = async (runner: PythonRunner) => {
    for (let i = next++; i < cases.length; i = next++) {
      options.onStart?.(cases[i], i);
      try {
        results[i] = await validateCase(cases[i], { ...options, runner });
      } catch (e) {
        // An internal error of one case must not hide the others' results.
        results[i] = { case: cases[i], outcome: 'error', reason: `internal error: ${(e as Error).message}`, seconds: 0 };
      }
      options.onResult?.(results[i], i);
    }
  };
  const runners = Array.from({ length: jobs }, () => pythonRunner(python));
  try {
    await Promise.all(runners.map(lane));
  } finally {
    for (const r of runners) r.close();
  }
  return results;
}

/** A runner that adds the time its scripts take to the case's phases. */
class TimedRunner implements PythonRunner {
  constructor(
    private readonly runner: PythonRunner,
    private readonly phases: Phases,
  ) {}
  async run(request: Parameters<PythonRunner['run']>[0]): Promise<ScriptResult> {
    const started = Date.now();
    try {
      return await this.runner.run(request);
    } finally {
      this.phases.python += (Date.now() - started) / 1000;
    }
  }
  close(): void {
    this.runner.close();
  }
}

async function validateAssembled(
  c: BoardCase,
  assembled: ReturnType<typeof assemble>,
  target: TargetName,
  options: ValidateOptions,
  runner: PythonRunner,
  phases: Phases,
): Promise<Omit<CaseResult, 'case' | 'seconds'>> {
  // A case whose own golden the harness does not use on this target checks determinism only, whatever stops it.
  const checks = usesCaseGolden(c.testcase, target) ? undefined : ('determinism' as const);
  const done = (r: Omit<CaseResult, 'case' | 'seconds'>): Omit<CaseResult, 'case' | 'seconds'> => (checks ? { checks, ...r } : r);
  if (assembled.diags.hasErrors()) return done({ outcome: 'error', target, reason: `the kernel does not verify: ${firstLine(formatAll(assembled.diags))}` });
  const missing = unimplementedInstructions(assembled.program);
  if (missing.length > 0) return done({ outcome: 'error', target, reason: `kernel not runnable: ${missing[0].name} is not implemented in the VM yet` });
  let meta: CaseMeta;
  const deriving = Date.now();
  try {
    meta = deriveCase(assembled.program, assembled.types, kernelFunctions(assembled.program), {
      testcase: c.testcase,
      sample: path.basename(c.sampleDir),
    });
  } catch (e) {
    if (e instanceof CaseError) return done({ outcome: 'error', target, reason: `cannot derive the case: ${e.message}` });
    throw e;
  } finally {
    phases.assemble += (Date.now() - deriving) / 1000;
  }
  const dir = options.keep ? path.join(options.keep, path.basename(c.sampleDir), c.testcase) : fs.mkdtempSync(path.join(os.tmpdir(), 'pto-vm-validate-'));
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  try {
    return done({ target, ...(await runCase(c, meta, dir, target, assembled, options, runner, phases)) });
  } finally {
    if (!options.keep) fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function runCase(
  c: BoardCase,
  meta: CaseMeta,
  dir: string,
  target: TargetName,
  assembled: ReturnType<typeof assemble>,
  options: ValidateOptions,
  runner: PythonRunner,
  phases: Phases,
): Promise<Omit<CaseResult, 'case' | 'seconds' | 'target'>> {
  copyScripts(c, dir);
  fs.writeFileSync(path.join(dir, 'main.cpp'), renderMainCpp(meta));
  fs.writeFileSync(path.join(dir, 'outputs.txt'), renderOutputs(meta));
  const env = { ...process.env, SOC_VERSION: SOC_VERSIONS[target], PTOAS_BOARD_IS_A3: target === 'a2a3' ? '1' : '0', COMPARE_STRICT: '1' };
  const golden = await runner.run({ script: path.basename(c.golden), cwd: dir, env });
  if (golden.status !== 0) return { outcome: 'error', reason: `golden script failed: ${lastLine(golden.stderr || golden.stdout || String(golden.error))}` };
  const outputs = meta.buffers.filter((b) => b.output);
  const ownGolden = usesCaseGolden(c.testcase, target);
  const goldens = ownGolden ? outputs.filter((b) => fs.existsSync(path.join(dir, `golden_${b.name}.bin`))) : [];
  const checks = goldens.length > 0 ? 'golden' : 'determinism';
  const run = (scheduleSeed?: number) => {
    const running = Date.now();
    try {
      return runKernel(meta, dir, assembled, { numerics: 'npu', maxSteps: options.maxSteps ?? 200_000_000, scheduleSeed });
    } finally {
      phases.vm += (Date.now() - running) / 1000;
    }
  };
  const first = run();
  if ('error' in first) return { checks, outcome: 'error', reason: first.error };
  const { buffers, cores } = first;
  for (const b of outputs) fs.writeFileSync(path.join(dir, `${b.name}.bin`), buffers.get(b.name)!.bytes);
  if (checks === 'determinism') {
    // The board runs the kernel twice and compares. One core runs the same way every time in the VM; several can
    // interleave otherwise, so the second run takes another legal interleaving (a seeded schedule).
    const why = ownGolden
      ? 'the golden script writes no expected outputs; '
      : 'on A3 the harness checks this case against its simulator, not its golden script; ';
    if (cores === 1) return { checks, outcome: 'determinism-only', reason: `${why}one core: the VM runs it the same way every time` };
    const second = run(1);
    if ('error' in second) return { checks, outcome: 'error', reason: `second interleaving: ${second.error}` };
    for (const b of outputs) {
      const [again, once] = [second.buffers.get(b.name)!.bytes, buffers.get(b.name)!.bytes];
      // Bit for bit, as the board compares its two runs; the figures only say where.
      if (!Buffer.from(again).equals(Buffer.from(once))) {
        const difference = compareBuffers(again, once, { elem: b.elem, atol: 0 });
        return { checks, outcome: 'fail', differences: [{ buffer: b.name, difference }], reason: 'two interleavings of the cores gave different outputs' };
      }
    }
    return { checks, outcome: 'determinism-only', reason: `${why}${cores} cores: a second interleaving gave the same outputs` };
  }
  const call = c.compare ? compareCallOf(fs.readFileSync(c.compare, 'utf8')) : undefined;
  const differences = goldens.map((b) => {
    const tolerance: Tolerance = call ?? (c.compare ? { elem: b.elem, atol: 0 } : harnessTolerance(b.elem));
    const want = new Uint8Array(fs.readFileSync(path.join(dir, `golden_${b.name}.bin`)));
    return { buffer: b.name, difference: compareBuffers(buffers.get(b.name)!.bytes, want, tolerance) };
  });
  if (c.compare) {
    const compare = await runner.run({ script: path.basename(c.compare), cwd: dir, env });
    if (compare.status === 0) return { checks, outcome: 'pass', differences };
    return { checks, outcome: 'fail', differences, reason: compareMessage(compare.stdout + compare.stderr) };
  }
  // No compare script: the harness generates one comparing every output at its type's tolerance.
  const failed = differences.some((d) => d.difference.mismatches > 0 || d.difference.sizes);
  return { checks, outcome: failed ? 'fail' : 'pass', differences };
}

/**
 * One launch of the kernel on the inputs the golden script wrote (fresh buffers each time): a mixed kernel's cube
 * and vector functions run together (the VM pairs a kernel with the peer its pipes name and hands the peer the same
 * arguments).
 */
function runKernel(
  meta: CaseMeta,
  dir: string,
  assembled: ReturnType<typeof assemble>,
  options: RunOptions,
): { buffers: Map<string, GlobalBuffer>; cores: number } | { error: string } {
  const buffers = new Map<string, GlobalBuffer>();
  for (const b of meta.buffers.filter((x) => x.runtime))
    buffers.set(b.name, new GlobalBuffer(b.arg.slice(1), b.elem, new Uint8Array(b.count * elemSize(b.elem))));
  for (const b of meta.buffers.filter((x) => !x.runtime)) {
    const file = path.join(dir, `${b.name}.bin`);
    if (!fs.existsSync(file)) return { error: `golden script wrote no ${b.name}.bin` };
    buffers.set(b.name, new GlobalBuffer(b.arg.slice(1), b.elem, wholeElements(fs.readFileSync(file), elemSize(b.elem))));
  }
  const fn = meta.functions[0];
  const args = new Map<string, Value>();
  (fn.regions[0]?.blocks[0]?.args ?? []).forEach((p, i) => {
    const name = `v${i + 1}`;
    const scalar = meta.scalars.find((s) => s.name === name);
    const value = buffers.get(name) ?? (scalar && (scalar.hostType === 'float' || scalar.hostType === 'double' ? scalar.value : BigInt(scalar.value)));
    if (value !== undefined) args.set(p.name, value);
  });
  try {
    const result = runLaunch(assembled.program, assembled.types, fn, args, options, meta.blocks);
    return { buffers, cores: result.cores };
  } catch (e) {
    if (e instanceof LocatedError) return { error: `kernel trap: ${firstLine(formatDiagnostic(assembled.source, e.diagnostic))}` };
    throw e;
  }
}

/**
 * A file's bytes as a buffer of whole elements, without a copy when the file's read buffer is its own (a large
 * file's is; a small one may share Node's pool, so it is copied).
 */
function wholeElements(read: Buffer, size: number): Uint8Array {
  const usable = read.length - (read.length % size);
  if (read.byteOffset === 0 && read.buffer.byteLength === read.length) return new Uint8Array(read.buffer, 0, usable);
  return new Uint8Array(read.subarray(0, usable));
}

/** The golden/compare scripts of the sample folder, its shared golden helpers and validation_runtime.py above it. */
function copyScripts(c: BoardCase, dir: string): void {
  for (const f of fs.readdirSync(c.sampleDir)) {
    if (/_golden\.py$|_compare\.py$|_golden_\w+\.py$/.test(f)) fs.copyFileSync(path.join(c.sampleDir, f), path.join(dir, f));
  }
  if (c.compare && !fs.existsSync(path.join(dir, path.basename(c.compare)))) fs.copyFileSync(c.compare, path.join(dir, path.basename(c.compare)));
  for (const runtime of [path.join(c.sampleDir, 'validation_runtime.py'), path.join(path.dirname(c.sampleDir), 'validation_runtime.py')]) {
    if (fs.existsSync(runtime)) {
      fs.copyFileSync(runtime, path.join(dir, 'validation_runtime.py'));
      break;
    }
  }
}

function firstLine(text: string): string {
  return text.split('\n').find((l) => l.trim() !== '') ?? text;
}

function lastLine(text: string): string {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  return lines[lines.length - 1] ?? '';
}

/** The compare script's own complaint: its first [ERROR] line. */
function compareMessage(output: string): string {
  return output.split('\n').find((l) => l.includes('[ERROR]') && !l.includes('compare failed')) ?? lastLine(output);
}
