/**
 * PTOAS's A5 tile-op suite (test/tilelang_st/npu/a5/src/st/testcase of a PTOAS export) with the VM as the board.
 * Each testcase folder has a kernel file (.pto, compiled by PTOAS with --pto-backend=vpto), gen_data.py (writes each
 * case's inputs and goldens), a host harness (main.cpp with a case table, launch.cpp with the kernel launches) and
 * compare.py (judges a case). As on a board: gen_data.py runs once per testcase; for each case the host harness runs
 * as written (host/run.ts interprets its C++: allocations, file reads, copies, the launch, the file writes), its
 * launch runs the kernel on the VM; compare.py judges each case whose host finished.
 */
import * as fs from 'fs';
import * as path from 'path';
import { LocatedError } from '../diag/located-error';
import { formatAll, formatDiagnostic } from '../diag/diagnostic';
import { codec } from '../numerics/elements';
import { ElemType, elemSize } from '../types/type';
import { GlobalBuffer } from '../machine/memory';
import { OpNode } from '../syntax/ast';
import { assemble } from '../verify/assemble';
import { CodeBackend } from '../ir/definition';
import { Value, runLaunch } from '../vm/interpreter';
import { unimplementedInstructions } from '../ops/instructions/semantics';
import { PythonRunner } from './python-runner';
import { preprocess, HostSyntaxError } from './host/tokens';
import { HostProgram, parseHost } from './host/parse';
import { HostError, HostInterpreter, Launch } from './host/run';

/** Where the suite lives in a PTOAS export. */
export const suiteDirectory = (exportRoot: string): string => path.join(exportRoot, 'test', 'tilelang_st', 'npu', 'a5', 'src', 'st', 'testcase');

/** `skip`: the case cannot run here (gen_data.py imports a Python module this machine does not have). */
export type Outcome = 'pass' | 'fail' | 'error' | 'skip';

export interface CaseResult {
  /** testcase/case (the row's name in main.cpp's table); `testcase` alone when its cases could not be listed. */
  id: string;
  outcome: Outcome;
  /** Why it did not pass: which step, and its first message. */
  reason?: string;
}

/** The testcase folders that have a kernel, a host harness and gen_data.py, by name. */
export function listTestcases(suite: string): string[] {
  return fs
    .readdirSync(suite)
    .filter(
      (t) => ['main.cpp', 'launch.cpp', 'gen_data.py', 'compare.py'].every((f) => fs.existsSync(path.join(suite, t, f))) && kernelFile(path.join(suite, t)),
    )
    .sort();
}

function kernelFile(dir: string): string | undefined {
  return fs.readdirSync(dir).find((f) => f.endsWith('.pto'));
}

/** main.cpp and launch.cpp as one program. */
export function loadHost(dir: string): HostProgram {
  const files = ['main.cpp', 'launch.cpp'].map((f) => ({
    name: f,
    // AICORE is the kernel attribute's macro; __FILE__ and __LINE__ appear only in the harness's error messages.
    tokens: preprocess(fs.readFileSync(path.join(dir, f), 'utf8'), f, { AICORE: '', __FILE__: `"${f}"`, __LINE__: '0' }),
  }));
  return parseHost(files);
}

export interface TestcaseOptions {
  runner: PythonRunner;
  /** The testcase runs in scratch/<testcase> (a copy of its folder). */
  scratch: string;
  /** Bounds each launch (VM steps per core; default 200M). */
  maxSteps?: number;
  /** Bounds each launch's time in seconds (default 600). */
  timeout?: number;
  /** The PTOAS back end the kernel is compiled for (default vpto, as the tile-op suite's CMake passes). */
  backend?: CodeBackend;
}

const lastLine = (text: string): string =>
  text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .pop() ?? '';

/** Runs one testcase's cases; the results in the case table's order. */
export async function runTestcase(suite: string, testcase: string, options: TestcaseOptions): Promise<CaseResult[]> {
  const source = path.join(suite, testcase);
  const work = path.join(options.scratch, testcase);
  fs.rmSync(work, { recursive: true, force: true });
  fs.cpSync(source, work, { recursive: true });
  let host: HostProgram;
  let names: string[];
  try {
    host = loadHost(work);
    names = new HostInterpreter(host, work, () => undefined).caseNames();
  } catch (e) {
    if (e instanceof HostSyntaxError || e instanceof HostError) return [{ id: testcase, outcome: 'error', reason: `host harness: ${e.message}` }];
    throw e;
  }
  const all = (outcome: Outcome, reason: string) => names.map((n) => ({ id: `${testcase}/${n}`, outcome, reason }));
  // gen_data.py imports st_common from the suite's folder (CMake puts it on PYTHONPATH).
  const env = { ...process.env, PYTHONPATH: [suite, process.env.PYTHONPATH].filter(Boolean).join(path.delimiter) };
  const gen = await options.runner.run({ script: 'gen_data.py', cwd: work, env, timeoutMs: 600_000 });
  if (gen.status !== 0) {
    const message = lastLine(gen.stderr || gen.stdout || gen.error || '');
    const missing = /^ModuleNotFoundError: No module named '([\w.]+)'/.exec(message);
    // A module the suite's Python needs and this machine lacks: the case is skipped, saying so, not failed.
    if (missing) return all('skip', `gen_data.py needs the Python module ${missing[1]}, which is not installed here`);
    return all('error', `gen_data.py failed: ${message}`);
  }
  const file = path.join(work, kernelFile(work)!);
  // Named as in the suite (testcase/kernel.pto): the messages do not depend on where the copy runs.
  const assembled = assemble(path.join(testcase, path.basename(file)), fs.readFileSync(file, 'utf8'), { target: 'a5' });
  const results: CaseResult[] = [];
  for (const name of names) {
    const id = `${testcase}/${name}`;
    try {
      const launched: string[] = [];
      const run = new HostInterpreter(host, work, (l) => launched.push(runKernel(assembled, l, options))).main([name]);
      if (run.status !== 0) results.push({ id, outcome: 'error', reason: `host harness failed: ${run.stderr[0] ?? `main returned ${run.status}`}` });
      else if (launched.length === 0) results.push({ id, outcome: 'error', reason: 'host harness launched no kernel' });
      else results.push({ id, outcome: 'pass' });
    } catch (e) {
      if (e instanceof KernelFailure) results.push({ id, outcome: 'error', reason: e.message });
      else if (e instanceof HostError || e instanceof HostSyntaxError) results.push({ id, outcome: 'error', reason: `host harness: ${e.message}` });
      else throw e;
    }
  }
  await compare(results, names, work, env, options.runner);
  return results;
}

/**
 * Judges the cases whose host finished: compare.py once for the whole testcase when all did (it exits 0 when all
 * pass), else (or when it does not) once per case.
 */
async function compare(results: CaseResult[], names: string[], work: string, env: NodeJS.ProcessEnv, runner: PythonRunner): Promise<void> {
  const ran = results.filter((r) => r.outcome === 'pass');
  if (ran.length === 0) return;
  if (ran.length === results.length) {
    const whole = await runner.run({ script: 'compare.py', cwd: work, env, timeoutMs: 600_000 });
    if (whole.status === 0) return;
  }
  for (const r of ran) {
    const name = names[results.indexOf(r)];
    const one = await runner.run({ script: 'compare.py', args: [name], cwd: work, env, timeoutMs: 600_000 });
    if (one.status === 0) continue;
    const output = `${one.stdout}\n${one.stderr}`;
    r.outcome = 'fail';
    r.reason = `compare.py: ${output.split('\n').find((l) => /\[ERROR\]/.test(l) && !/compare failed/.test(l)) ?? lastLine(output) ?? `exit ${one.status}`}`;
  }
}

/** A launch that could not run: the kernel does not verify, its op is not implemented, or it trapped. */
export class KernelFailure extends Error {}

/** One launch of the host: the kernel's function of the module on the device memory the host gave it. */
export function runKernel(assembled: ReturnType<typeof assemble>, launch: Launch, options: Pick<TestcaseOptions, 'maxSteps' | 'timeout' | 'backend'>): string {
  const fn = assembled.program.functions.get(launch.kernel);
  if (!fn) throw new KernelFailure(`the kernel file has no function @${launch.kernel}`);
  const inFunction = (span: { start: number }) => span.start >= fn.span.start && span.start < fn.span.end;
  if (assembled.diags.hasErrors()) {
    const errors = assembled.diags.items.filter((d) => d.severity === 'error');
    const own = errors.find((d) => d.span && inFunction(d.span));
    const first = (text: string) => text.split('\n').find((l) => l.trim() !== '') ?? text;
    if (own) throw new KernelFailure(`the kernel does not verify: ${first(formatDiagnostic(assembled.source, own))}`);
    throw new KernelFailure(`another kernel of the file does not verify: ${first(formatAll(assembled.diags))}`);
  }
  const missing = unimplementedInstructions(assembled.program).filter((op: OpNode) => inFunction(op.span));
  if (missing.length > 0) throw new KernelFailure(`${missing[0].name} is not implemented in the VM yet`);
  const params = fn.regions[0]?.blocks[0]?.args ?? [];
  if (params.length !== launch.args.length) throw new KernelFailure(`@${launch.kernel} has ${params.length} parameters; the host passes ${launch.args.length}`);
  const args = new Map<string, Value>();
  params.forEach((p, i) => {
    const type = p.type ? assembled.types.resolve(p.type).type : undefined;
    const arg = launch.args[i];
    if (type?.kind === 'ptr' && arg.kind === 'buffer') {
      const size = elemSize(type.elem);
      args.set(p.name, new GlobalBuffer(p.name.slice(1), type.elem, arg.bytes.subarray(0, arg.bytes.length - (arg.bytes.length % size))));
    } else if (type?.kind === 'scalar' && arg.kind === 'scalar') args.set(p.name, scalarValue(arg.ctype, arg.value, type.elem));
    else throw new KernelFailure(`argument ${i + 1} of @${launch.kernel}: the host passes a ${arg.kind}, the kernel takes ${p.type?.text ?? 'unknown'}`);
  });
  try {
    runLaunch(
      assembled.program,
      assembled.types,
      fn,
      args,
      {
        numerics: 'npu',
        backend: options.backend ?? 'vpto',
        maxSteps: options.maxSteps ?? 200_000_000,
        deadline: Date.now() + (options.timeout ?? 600) * 1000,
      },
      launch.blocks,
    );
  } catch (e) {
    if (e instanceof LocatedError) throw new KernelFailure(`kernel trap: ${formatDiagnostic(assembled.source, e.diagnostic).split('\n')[0]}`);
    throw e;
  }
  return launch.kernel;
}

/**
 * A scalar argument as the kernel's parameter type reads it. The kernel receives the bits of the host's C value:
 * of the same kind (both integers, both floats) that is the value, rounded to the parameter's type; across kinds
 * (an `unsigned short 0x4200` for an f16 parameter) the bits are reinterpreted.
 */
export function scalarValue(ctype: string, value: bigint | number, elem: ElemType): bigint | number {
  const floatParam = codec(elem).isFloat;
  const floatArg = typeof value === 'number';
  if (floatParam === floatArg) return floatParam ? (codec(elem).round(value) as number) : BigInt(value);
  const size = elemSize(elem);
  const bytes = new DataView(new ArrayBuffer(8));
  if (floatArg) codec(ctype as ElemType).write(bytes, 0, value);
  else bytes.setBigUint64(0, BigInt.asUintN(64, BigInt(value)), true);
  const read = codec(elem).read(new DataView(bytes.buffer, 0, size), 0);
  return floatParam ? (read as number) : BigInt(read);
}
