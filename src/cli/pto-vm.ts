import { LocatedError } from '../diag/located-error';
import { DIAGNOSTICS } from '../diag/catalog';
import * as fs from 'fs';
import { Assembled, assemble } from '../verify/assemble';
import { Diagnostic, formatAll, formatDiagnostic } from '../diag/diagnostic';
import { SourceFile, Span } from '../diag/source';
import { TargetName } from '../spec/schema';
import { attrOf, OpNode } from '../syntax/ast';
import { elemSize } from '../types/type';
import { firstLowerableOp, lowerProgram } from '../lower';
import * as os from 'os';
import * as path from 'path';
import { RunResult, coresRunApart } from '../vm/interpreter';
import { AHEAD_MIN_ELEMENTS, ProgramSource, WorkerCrash, WorkerThreads, runRanksWithJobs } from '../vm/parallel/run';
import { GlobalBuffer } from '../machine/memory';
import { CodeBackend, NumericsProfile } from '../ops/instructions/semantics/context';
import { ArgumentError, BoundArguments } from '../vm/io/arguments';
import { LIMITS } from '../diag/limits';
import { bufferValues, formatValue, summarize, writtenCount } from '../vm/io/results';
import { unimplementedInstructions } from '../ops/instructions/semantics';
import { TARGET_OPTION, UsageError, exitWith, loadYargs, usageFailure } from './common';
import { CommandLine, OptionSpec, parseSimply } from './simple-args';
import { bindRanks, rankedPairs, summarizeRanks, writeRankOutputs } from './ranks';
import { VALIDATE_FLAGS, checkArgValues, checkNames, checkOutPaths, givenOptions } from './vm-checks';

/** The options of pto-vm, for yargs and for the usual command lines (simple-args.ts). */
const OPTIONS = {
  target: TARGET_OPTION,
  entry: { type: 'string', describe: 'function to run (default: the only function, or the hacc.entry one)' },
  arg: {
    type: 'string',
    array: true,
    default: [] as string[],
    describe: 'bind an argument: [RANK:]NAME=FILE.npy|FILE.bin|zeros:N|random:N[:SEED]|NUMBER|@RANK[:NAME] ({rank} in the value: the rank)',
  },
  out: {
    type: 'string',
    array: true,
    default: [] as string[],
    describe: 'write a pointer argument after the run: [RANK:]NAME=PATH.npy|PATH.bin ({rank} in the path: the rank)',
  },
  numerics: { choices: ['npu', 'cpu-sim'] as const, default: 'npu' as const, describe: 'rounding and reduction-order profile' },
  'pto-backend': {
    choices: ['emitc', 'vpto'] as const,
    describe: "follow this PTOAS back end where the two differ (default: the module's pto.backend, else emitc)",
  },
  json: { type: 'boolean', default: false, describe: 'print the results as JSON (a failed run too: {ok: false, error})' },
  quiet: {
    type: 'boolean',
    default: false,
    describe: 'leave out the notes on what the VM cannot model exactly (--json still lists them)',
  },
  'json-values': { type: 'number', default: LIMITS.jsonValues.value, describe: 'the values --json lists for each buffer, at most' },
  'max-steps': { type: 'number', default: LIMITS.steps.value, describe: 'stop after this many steps per core (an executed op or a loop iteration)' },
  timeout: { type: 'number', default: LIMITS.time.value, describe: 'stop a run after this many seconds' },
  'max-memory': { type: 'number', default: LIMITS.globalMemory.value, describe: "the bytes the run's global memory (its pointer arguments) may take" },
  direct: { type: 'boolean', default: false, describe: 'run AscendC/TIK ops by their direct model instead of lowering them to PTO tile ops' },
  'check-lowering': {
    type: 'boolean',
    default: false,
    describe: 'run the lowered program and the direct model, and report the first byte where they differ',
  },
  blocks: { type: 'number', default: 1, describe: 'run the kernel on this many blocks, sharing global memory' },
  jobs: {
    type: 'number',
    describe: 'threads for the cores of a launch that never wait for each other (default: the number of CPUs; 1: all on the main thread)',
  },
  ranks: { type: 'number', default: 1, describe: 'run the kernel on this many devices (ranks), each with its own global memory and launch' },
  subblocks: { type: 'number', describe: 'vector cores (sub-blocks) per block (default: 2 for a mixed cube/vector kernel, else 1)' },
  'schedule-seed': {
    type: 'number',
    describe: 'run another legal interleaving of the cores (a seeded choice at each op that can wait); default: round robin',
  },
  'strict-sync': {
    type: 'boolean',
    default: false,
    describe: 'make synchronization findings (missing set_flag/wait_flag, races between cores) errors: exit 1',
  },
  'sync-check': {
    type: 'boolean',
    default: true,
    describe: 'check synchronization while running (--no-sync-check: do not, for speed; nothing is reported then)',
  },
  profile: {
    type: 'boolean',
    default: false,
    describe: "estimate the run's cycles from pto-isa's cost tables: total, per-pipe busy share, the bottleneck (docs/performance.md; runs on one thread)",
  },
  trace: {
    type: 'string',
    describe:
      "write the timing model's run as Chrome Trace Event JSON (perf_sim's layout: a process per AI core, a thread per pipe, flows for flags and hand-offs; Perfetto opens it), and its per-pipe summary beside it as FILE_pipeline_summary.csv",
  },
  timeline: {
    type: 'string',
    describe: "draw the timing model's run as an SVG picture: a lane per core and pipe, a box per op, arrows for flags and hand-offs",
  },
} satisfies Record<string, OptionSpec>;

/** `pto-vm run FILE [options]`: the command line simple-args.ts parses without yargs. */
export const RUN_COMMAND_LINE: CommandLine = { scriptName: 'pto-vm', options: OPTIONS, command: { name: 'run', positional: 'file' } };

/** `pto-vm validate`, loaded only for that command (it brings the board flow and child_process). */
function boardValidation(): typeof import('./validate') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a static import would load it for every run
  return require('./validate');
}

/** Every option of every command, for the check of their names (validate's own --keep among them). */
const ALL_OPTIONS: Record<string, OptionSpec> = { ...OPTIONS, keep: { type: 'string' } };

/** The package's version, from its package.json (two folders up from src/cli, dist/cli and dist/bundle alike). */
function version(): string {
  try {
    return (JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

/** yargs' messages for a missing positional argument, in the project's words. */
function failure(argv: string[]) {
  return (message: string | undefined, error: Error | undefined): never => {
    if (message?.startsWith('Not enough non-option arguments')) {
      if (argv[0] === 'validate') throw new UsageError('pto-vm validate: give the sample kernels or folders to check (pto-vm validate PATH...)');
      throw new UsageError('pto-vm run: give the .pto file to run (pto-vm run FILE)');
    }
    return usageFailure(message, error);
  };
}

/** The arguments as yargs gives them. */
export function parseWithYargs(argv: string[]) {
  return parser(argv).parseSync();
}

function parser(argv: string[]) {
  return loadYargs()(argv)
    .scriptName('pto-vm')
    .usage('$0 run FILE [options]\n$0 validate PATH... [options]\n$0 check-lowering FILE [options]\n\nRun a PTO-AS program on the PTO virtual machine.')
    .command('run <file>', 'run a function of FILE', (y) => y.positional('file', { type: 'string', describe: 'the .pto program' }))
    .command('validate <paths..>', "check sample kernels against PTOAS's golden scripts, with the VM as the board", (y) => boardValidation().validateOptions(y))
    .options(OPTIONS)
    .demandCommand(1, 'pto-vm: give a command: run FILE')
    .strict()
    .exitProcess(false)
    .fail(failure(argv))
    .help()
    .alias('h', 'help')
    .version(version());
}

/** pto-vm run FILE [--target] [--entry] [--arg NAME=VALUE]... [--out NAME=PATH]... [--numerics] [--pto-backend] [--json] [--max-steps N] [--blocks N] [--subblocks N] [--ranks R] [--schedule-seed S] [--strict-sync] */
export function main(argv: string[]): number | Promise<number> {
  // `pto-vm` alone: the help, as a usage error; `pto-vm help`: the help.
  if (argv.length === 0 || argv[0] === 'help') {
    parser(['--help']).showHelp((text) => (argv.length === 0 ? process.stderr : process.stdout).write(text + '\n'));
    return argv.length === 0 ? 2 : 0;
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only for that command (it brings src/expand)
  if (argv[0] === 'check-lowering') return (require('./check-lowering') as typeof import('./check-lowering')).checkLoweringMain(argv);
  let args;
  try {
    args = parseSimply(argv, RUN_COMMAND_LINE) as ReturnType<typeof parseWithYargs> | undefined;
    if (!args) {
      checkNames(argv, ALL_OPTIONS);
      args = parseWithYargs(argv);
    }
  } catch (e) {
    return exitWith(e);
  }
  if (args.help || args.version) return 0;
  try {
    // A number option given text: what it expected, and the text (yargs reads it as NaN).
    for (const { name, text } of givenOptions(argv, OPTIONS))
      if ((OPTIONS as Record<string, OptionSpec>)[name].type === 'number' && Number.isNaN(Number(text)))
        throw new UsageError(`--${name} expects a number, got '${text ?? ''}'`);
    if (args._[0] === 'validate') {
      const runOnly = givenOptions(argv, OPTIONS).find((o) => !VALIDATE_FLAGS.includes(o.name));
      if (runOnly) throw new UsageError(`--${runOnly.name} is an option of 'pto-vm run'; validate takes ${VALIDATE_FLAGS.map((f) => '--' + f).join(', ')}`);
      return boardValidation()
        .validate({
          paths: args.paths as string[],
          target: args.target as TargetName | undefined,
          keep: args.keep as string | undefined,
          json: args.json,
          jobs: args.jobs === undefined ? os.availableParallelism() : checkJobs(args.jobs),
          progress: process.stderr.isTTY ? (t) => process.stderr.write(t) : undefined,
        })
        .catch(exitWith);
    }
    if (args._[0] !== 'run') throw new UsageError(`unknown command '${String(args._[0])}' (expected 'run', 'validate' or 'check-lowering')`);
    if (args.direct && args['check-lowering']) throw new UsageError('--direct and --check-lowering exclude each other (--check-lowering runs both)');
    const ranks = checkCount(args.ranks, '--ranks');
    if (ranks > 1 && args['check-lowering']) throw new UsageError('--check-lowering runs one rank: leave out --ranks');
    checkCores(ranks * checkCount(args.blocks, '--blocks') * (args.subblocks === undefined ? 1 : checkCount(args.subblocks, '--subblocks')));
    // Every value given is checked before the program is read: the arguments' forms and files, the outputs' paths.
    const argSpecs = rankedPairs(args.arg, '--arg', ranks);
    const outSpecs = rankedPairs(args.out, '--out', ranks);
    checkArgValues(argSpecs);
    checkOutPaths(outSpecs);
    const code = run({
      file: String(args.file),
      target: args.target as TargetName | undefined,
      entry: args.entry,
      argSpecs,
      outSpecs,
      quiet: args.quiet,
      numerics: args.numerics as NumericsProfile,
      backend: args['pto-backend'] as CodeBackend | undefined,
      json: args.json,
      jsonValues: checkCountOrZero(args['json-values'], '--json-values'),
      maxSteps: checkPositive(args['max-steps'], '--max-steps'),
      maxMemory: checkPositive(args['max-memory'], '--max-memory'),
      timeout: checkSeconds(args.timeout),
      direct: args.direct,
      checkLowering: args['check-lowering'],
      strictSync: args['strict-sync'],
      syncCheck: args['sync-check'],
      blocks: checkCount(args.blocks, '--blocks'),
      subblocks: args.subblocks === undefined ? undefined : checkCount(args.subblocks, '--subblocks'),
      scheduleSeed: args['schedule-seed'] === undefined ? undefined : checkSeed(args['schedule-seed']),
      jobs:
        args.profile || args.trace !== undefined || args.timeline !== undefined
          ? 1
          : args.jobs === undefined
            ? os.availableParallelism()
            : checkJobs(args.jobs),
      profile: args.profile,
      trace: args.trace,
      timeline: args.timeline,
    });
    return code instanceof Promise ? code.catch(exitWith) : code;
  } catch (e) {
    return exitWith(e);
  }
}

function checkJobs(n: number): number {
  if (!Number.isInteger(n) || n <= 0 || n > 1024) throw new UsageError(`--jobs must be an integer from 1 to 1024, got ${n}`);
  return n;
}

function checkSeconds(n: number): number {
  if (!Number.isFinite(n) || n <= 0) throw new UsageError(`--timeout must be a positive number of seconds, got ${n}`);
  return n;
}

function checkPositive(n: number, flag: string): number {
  if (!Number.isSafeInteger(n) || n <= 0) throw new UsageError(`${flag} must be a positive integer, got ${n}`);
  return n;
}

function checkCountOrZero(n: number, flag: string): number {
  if (!Number.isSafeInteger(n) || n < 0) throw new UsageError(`${flag} must be an integer of 0 or more, got ${n}`);
  return n;
}

function checkSeed(n: number): number {
  if (!Number.isInteger(n) || n < 0 || n > 0xffffffff) throw new UsageError(`--schedule-seed must be an integer from 0 to 4294967295, got ${n}`);
  return n;
}

/** The cores a run makes (before a mixed kernel's default of two sub-blocks, which the VM checks again). */
function checkCores(cores: number): void {
  const limit = LIMITS.cores.value;
  if (cores > limit) throw new UsageError(`--ranks x --blocks x --subblocks make ${cores} cores, more than the VM runs (${limit})`);
}

function checkCount(n: number, flag: string): number {
  if (!Number.isInteger(n) || n <= 0 || n > 65535) throw new UsageError(`${flag} must be an integer from 1 to 65535, got ${n}`);
  return n;
}

interface RunRequest {
  file: string;
  target?: TargetName;
  entry?: string;
  /** Per rank (src/cli/ranks.ts). */
  argSpecs: Map<string, string>[];
  outSpecs: Map<string, string>[];
  numerics: NumericsProfile;
  /** --quiet: no notes on standard error. */
  quiet: boolean;
  /** From --pto-backend; else the module's. */
  backend?: CodeBackend;
  json: boolean;
  /** The values --json lists per buffer, at most. */
  jsonValues: number;
  maxSteps: number;
  maxMemory: number;
  /** Seconds. */
  timeout: number;
  direct: boolean;
  checkLowering: boolean;
  /** Synchronization findings are errors (exit 1) instead of warnings. */
  strictSync: boolean;
  /** Whether synchronization is checked at all (--no-sync-check). */
  syncCheck: boolean;
  blocks: number;
  subblocks?: number;
  scheduleSeed?: number;
  /** Threads for cores that never wait (--jobs). */
  jobs: number;
  /** --profile: the timing model observes the run (on the main thread: worker threads would not report to it). */
  profile: boolean;
  /** --trace FILE.json, --timeline FILE.svg: the timing model's run written out (also on the main thread). */
  trace?: string;
  timeline?: string;
}

type MaybePromise<T> = T | Promise<T>;

/** f of the value, or of what the Promise resolves to (a run on worker threads ends later). */
function then<T, U>(value: MaybePromise<T>, f: (v: T) => MaybePromise<U>): MaybePromise<U> {
  return value instanceof Promise ? value.then(f) : f(value);
}

function run(req: RunRequest): MaybePromise<number> {
  let text: string;
  try {
    text = fs.readFileSync(req.file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new UsageError(
      `${req.file}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'a folder, not a .pto file' : `cannot read it (${code ?? String(e)})`}`,
    );
  }
  const assembled = assemble(req.file, text, { target: req.target });
  if (assembled.diags.items.length > 0) process.stderr.write(formatAll(assembled.diags) + '\n');
  if (assembled.diags.hasErrors()) return failedJson(req, assembled.source, assembled.diags.items);
  if ((req.backend ?? assembled.program.backend) === 'vpto' && assembled.program.target !== 'a5')
    throw new UsageError("the vpto back end's tile-op templates (PTOAS lib/TileOps) are A5's: run --target a5, or --pto-backend emitc");
  const missing = unimplementedInstructions(assembled.program);
  if (missing.length > 0) {
    const message = (op: OpNode) => `${op.name} is not implemented in the VM yet (pto-as verifies it)`;
    const diagnostics = missing.map((op): Diagnostic => ({ severity: 'error', code: DIAGNOSTICS.notRunnable.code, message: message(op), span: op.nameSpan }));
    process.stderr.write(diagnostics.map((d) => formatDiagnostic(assembled.source, d)).join('\n') + '\n');
    return failedJson(req, assembled.source, diagnostics);
  }
  const lowerable = firstLowerableOp(assembled.program);
  let lowered: Assembled | undefined;
  if (lowerable && !req.direct) {
    try {
      lowered = lowerProgram(assembled);
    } catch (e) {
      if (!(e instanceof LocatedError)) throw e;
      process.stderr.write(formatDiagnostic(assembled.source, e.diagnostic) + '\n');
      return failedJson(req, assembled.source, [e.diagnostic]);
    }
  }
  const main = lowered ?? assembled;
  const fn = chooseEntry(main.program.functions, req.entry);
  const source = (lower: boolean): ProgramSource => ({ path: req.file, text, target: req.target, lower });
  return then(execute(main, fn.symbol!, req, source(lowered !== undefined)), (execution) => {
    if (!execution) return 1; // reported (failedJson)
    const { result } = execution;
    if (lowerable && req.numerics !== 'npu' && !req.direct)
      result.notes.push(
        'the lowering of AscendC/TIK ops is exact under --numerics npu; under cpu-sim its sums and NaN handling may differ from the direct model',
      );
    if (!req.checkLowering || !lowerable) return report(req, main, fn, execution);
    return then(execute(assembled, fn.symbol!, req, source(false)), (direct) => {
      if (!direct) return 1;
      const difference = firstDifference(execution.bound.buffers, direct.bound.buffers);
      if (difference) {
        const message = `--check-lowering: ${difference}`;
        const mismatch: Diagnostic = { severity: 'error', code: DIAGNOSTICS.loweringMismatch.code, message, span: lowerable.nameSpan };
        process.stderr.write(formatDiagnostic(assembled.source, mismatch) + '\n');
        return failedJson(req, assembled.source, [mismatch]);
      }
      const bytes = execution.bound.buffers.reduce((n, b) => n + b.byteLength, 0);
      process.stderr.write(
        `${req.file}: note: --check-lowering: the lowered program and the direct model agree on all ${bytes} bytes of ${execution.bound.buffers.map((b) => '%' + b.name).join(', ')}\n`,
      );
      return report(req, main, fn, execution);
    });
  });
}

/**
 * With --json, a failed run's document on standard output: `ok: false`, the first error (its code, message and
 * location) and every error (the text on standard error says the same). Gives the exit code, 1.
 */
function failedJson(req: RunRequest, source: SourceFile | undefined, diagnostics: readonly Diagnostic[], message?: string): number {
  if (!req.json) return 1;
  const errors = diagnostics
    .filter((d) => d.severity === 'error')
    .map((d) => {
      const at = source?.position(d.span.start);
      return { code: d.code ?? null, message: d.message, file: source?.path ?? req.file, line: at?.line, column: at?.col };
    });
  if (message !== undefined) errors.push({ code: null, message, file: req.file, line: undefined, column: undefined });
  process.stdout.write(JSON.stringify({ ok: false, error: errors[0], errors }) + '\n');
  return 1;
}

/** What a run prints: notes, synchronization findings and warnings, then the outputs (or JSON); its exit code. */
function report(req: RunRequest, main: Assembled, fn: OpNode, execution: Execution): number {
  const { bound, ranks, result } = execution;
  const { program } = main;
  if (!req.quiet) for (const note of result.notes) process.stderr.write(`${req.file}: note: ${note}\n`);
  const severity = req.strictSync ? 'error' : 'warning';
  for (const f of result.sync)
    process.stderr.write(
      formatDiagnostic(main.source, { severity, code: (f.kind ?? DIAGNOSTICS.syncFinding).code, message: f.message, span: f.span, notes: f.notes }) + '\n',
    );
  for (const w of result.warnings)
    process.stderr.write(formatDiagnostic(main.source, { severity: 'warning', code: w.kind.code, message: w.message, span: w.span, notes: w.notes }) + '\n');
  const syncFailed = req.strictSync && result.sync.length > 0;
  writeRankOutputs(ranks, req.outSpecs);
  if (req.json) {
    const params = fn.regions[0]?.blocks[0]?.args ?? [];
    const warned = new Set<string>();
    for (const b of ranks.flatMap((r) => r.buffers))
      if (b.length > req.jsonValues && !warned.has(`${b.name}:${b.length}`)) {
        warned.add(`${b.name}:${b.length}`);
        const span = params.find((p) => p.name === `%${b.name}`)?.span ?? fn.nameSpan;
        const message = `--json lists the first ${req.jsonValues} of %${b.name}'s ${b.length} values (--json-values); --out ${b.name}=FILE.npy writes them all`;
        process.stderr.write(formatDiagnostic(main.source, { severity: 'warning', code: DIAGNOSTICS.jsonValuesLeftOut.code, message, span }) + '\n');
      }
    // Written a buffer at a time: all of them in one string could outgrow the longest string the runtime makes.
    const writeOutputs = (bound: BoundArguments) => {
      process.stdout.write('{');
      bound.buffers.forEach((b, i) => {
        const output = {
          dtype: b.elem,
          elements: b.length,
          bytes: b.length * elemSize(b.elem),
          input: bound.origins.get(b.name),
          written: writtenCount(b),
          values: bufferValues(b, req.jsonValues).map(formatValue),
        };
        process.stdout.write(`${i > 0 ? ',' : ''}${JSON.stringify(b.name)}:${JSON.stringify(output)}`);
      });
      process.stdout.write('}');
    };
    const sync = result.sync.map((f) => ({
      severity,
      code: (f.kind ?? DIAGNOSTICS.syncFinding).code,
      message: f.message,
      ...located(main, f.span),
      notes: (f.notes ?? []).map((n) => ({ message: n.message, ...located(main, n.span) })),
    }));
    const head = JSON.stringify({
      ok: !syncFailed,
      function: fn.symbol,
      target: program.target,
      numerics: req.numerics,
      steps: result.steps,
      notes: result.notes,
      printed: result.printed,
      sync,
      warnings: result.warnings.map((w) => ({ severity: 'warning', code: w.kind.code, message: w.message, ...located(main, w.span) })),
    });
    process.stdout.write(head.slice(0, -1));
    // Several ranks: each rank's buffers.
    if (ranks.length > 1) {
      process.stdout.write(',"ranks":[');
      ranks.forEach((r, rank) => {
        process.stdout.write(`${rank > 0 ? ',' : ''}{"rank":${rank},"outputs":`);
        writeOutputs(r);
        process.stdout.write('}');
      });
      process.stdout.write(']');
    } else {
      process.stdout.write(',"outputs":');
      writeOutputs(bound);
    }
    process.stdout.write('}\n');
    return syncFailed ? 1 : 0;
  }
  // What the program printed (pto.tprint) comes first, as a device's printf output would.
  for (const text of result.printed) process.stdout.write(text.endsWith('\n') ? text : text + '\n');
  if (req.outSpecs.every((specs) => specs.size === 0)) {
    const on = ranks.length > 1 ? ` on ${ranks.length} ranks` : '';
    process.stdout.write(`@${fn.symbol} on ${program.target}${on} (numerics ${req.numerics}): ${result.steps} ops executed\n`);
    process.stdout.write(ranks.length > 1 ? summarizeRanks(ranks) : summarize(bound.buffers, bound.origins));
  }
  return syncFailed ? 1 : 0;
}

/** FILE, LINE and COL of a span, for the JSON output. */
function located(assembled: Assembled, span: Span): { file: string; line: number; col: number } {
  return { file: assembled.source.path, ...assembled.source.position(span.start) };
}

/** What a worker thread of --jobs runs: the compiled src/cli/jobs-thread.ts (the tests of src/ run it from dist/). */
const THREAD_SCRIPT = __filename.endsWith('.ts') ? path.join(__dirname, '..', '..', 'dist', 'cli', 'jobs-thread.js') : path.join(__dirname, 'jobs-thread.js');

interface Execution {
  bound: BoundArguments;
  ranks: BoundArguments[];
  result: RunResult;
}

/**
 * Binds the arguments and runs @name of an assembled program (`source`: how a worker thread builds it); a trap, or
 * a worker thread that stopped, is reported and gives undefined.
 */
function execute(assembled: Assembled, name: string, req: RunRequest, source: ProgramSource): MaybePromise<Execution | undefined> {
  const fn = assembled.program.functions.get(name)!;
  const spawnAfter = process.env.PTO_JOBS_SPAWN_AFTER_MS ? Number(process.env.PTO_JOBS_SPAWN_AFTER_MS) : undefined;
  const trace = process.env.PTO_JOBS_TRACE ? (line: string) => process.stderr.write(`${req.file}: trace: ${line}\n`) : undefined;
  const threads: LaunchThreads = { spawnAfter, trace };
  // A large input is generated while the threads start (src/vm/parallel/threads.ts, AHEAD_MIN_ELEMENTS).
  const beforeGenerating = (elements: number) => {
    if (elements < AHEAD_MIN_ELEMENTS || threads.started || spawnAfter === Infinity) return;
    threads.started = threadsAhead(assembled, fn, req, source);
    const n = threads.started?.count ?? 0;
    if (n > 0) trace?.(`--jobs: ${n} worker thread${n > 1 ? 's' : ''} started ahead of the launch, while an input of ${elements} elements is generated`);
  };
  try {
    return bindAndRun(assembled, fn, req, source, threads, beforeGenerating);
  } finally {
    void threads.started?.release();
  }
}

/** The worker threads of a launch: those started ahead of it, when to start more (PTO_JOBS_SPAWN_AFTER_MS), the trace. */
interface LaunchThreads {
  started?: WorkerThreads;
  spawnAfter?: number;
  trace?: (line: string) => void;
}

/** Worker threads for a launch whose cores can run apart, started before it (none when they cannot). */
function threadsAhead(assembled: Assembled, fn: OpNode, req: RunRequest, source: ProgramSource): WorkerThreads | undefined {
  if (req.jobs <= 1) return undefined;
  const apart = coresRunApart(assembled.program, fn, req.argSpecs.length, { blocks: req.blocks, subblocks: req.subblocks });
  if (apart < 2) return undefined;
  return WorkerThreads.start(THREAD_SCRIPT, { path: source.path, text: source.text, target: source.target }, Math.min(req.jobs - 1, apart - 1));
}

/** execute's work, with the threads it may start ahead of the launch (stopped after it if it did not take them). */
function bindAndRun(
  assembled: Assembled,
  fn: OpNode,
  req: RunRequest,
  source: ProgramSource,
  threads: LaunchThreads,
  beforeGenerating: (elements: number) => void,
): MaybePromise<Execution | undefined> {
  let ranks: BoundArguments[];
  try {
    // Each run binds afresh (--check-lowering runs twice): the specs are copied.
    ranks = bindRanks(
      assembled.types,
      fn,
      req.argSpecs.map((specs) => new Map(specs)),
      (symbol) => assembled.program.functions.get(symbol),
      req.maxMemory,
      // Threads run a launch over the bound buffers in place.
      req.jobs > 1 ? 'shared' : 'own',
      beforeGenerating,
    );
  } catch (e) {
    if (e instanceof ArgumentError) throw new UsageError(e.message);
    // The program asks for more than a limit allows (buffers sized by its views).
    if (e instanceof LocatedError) {
      process.stderr.write(formatDiagnostic(assembled.source, e.diagnostic) + '\n');
      failedJson(req, assembled.source, [e.diagnostic]);
      return undefined;
    }
    throw e;
  }
  for (const out of new Set(req.outSpecs.flatMap((specs) => [...specs.keys()]))) {
    if (!ranks[0].origins.has(out) || !ranks.some((b) => b.buffers.some((buffer) => buffer.name === out)))
      throw new UsageError(`--out ${out}: @${fn.symbol} has no pointer argument %${out}`);
  }
  const failed = (e: unknown): undefined => {
    if (e instanceof LocatedError) {
      process.stderr.write(formatDiagnostic(assembled.source, e.diagnostic) + '\n');
      failedJson(req, assembled.source, [e.diagnostic]);
      return undefined;
    }
    if (e instanceof WorkerCrash) {
      const message = `--jobs ${req.jobs}: ${e.message}; the run has no result (--jobs 1 runs without worker threads)`;
      process.stderr.write(`${req.file}: error: ${message}\n`);
      failedJson(req, undefined, [], message);
      return undefined;
    }
    throw e;
  };
  const drawn = req.trace !== undefined || req.timeline !== undefined;
  const observer = req.profile || drawn ? new (timingModel().TimingObserver)(assembled.program.target, drawn, assembled.program) : undefined;
  try {
    const result = runRanksWithJobs(
      assembled.program,
      assembled.types,
      fn,
      ranks.map((b) => b.values),
      {
        numerics: req.numerics,
        backend: req.backend,
        maxSteps: req.maxSteps,
        scheduleSeed: req.scheduleSeed,
        syncCheck: req.syncCheck,
        deadline: Date.now() + req.timeout * 1000,
        observer,
      },
      { blocks: req.blocks, subblocks: req.subblocks },
      { jobs: req.jobs, source, threadScript: THREAD_SCRIPT, trace: threads.trace, started: threads.started, spawnAfterMs: threads.spawnAfter },
    );
    const executed = (result: RunResult): Execution => {
      if (observer && req.profile) process.stderr.write(profileText(req.file, observer.summary(), assembled.source));
      if (observer && drawn) writeTimeline(req, fn.symbol!, observer);
      return { bound: ranks[0], ranks, result };
    };
    return result instanceof Promise ? result.then(executed, failed) : executed(result);
  } catch (e) {
    return failed(e);
  }
}

/** The timing model, loaded only for --profile. */
function timingModel(): typeof import('../timing/observer') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a static import would load it for every run
  return require('../timing/observer');
}

/** --trace's JSON and the summary CSV beside it, --timeline's SVG (the writers are loaded only then). */
function writeTimeline(req: RunRequest, entry: string, observer: import('../timing/observer').TimingObserver): void {
  const frequencyHz = observer.frequencyHz();
  if (req.trace !== undefined) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only for --trace
    const trace = require('../timing/trace') as typeof import('../timing/trace');
    fs.mkdirSync(path.dirname(req.trace), { recursive: true });
    fs.writeFileSync(req.trace, JSON.stringify(trace.chromeTrace(observer, frequencyHz)) + '\n');
    fs.writeFileSync(summaryPath(req.trace), trace.pipelineSummaryCsv(observer, entry));
  }
  if (req.timeline !== undefined) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only for --timeline
    const svg = require('../timing/timeline-svg') as typeof import('../timing/timeline-svg');
    fs.mkdirSync(path.dirname(req.timeline), { recursive: true });
    fs.writeFileSync(req.timeline, svg.timelineSvg(observer, { title: `@${entry} (${path.basename(req.file)})`, frequencyHz }));
  }
}

/** perf_sim's name for the summary beside a trace: k.json -> k_pipeline_summary.csv. */
export function summaryPath(trace: string): string {
  const ext = path.extname(trace);
  return path.join(path.dirname(trace), `${path.basename(trace, ext)}_pipeline_summary.csv`);
}

/** --profile's report, on standard error beside the notes (standard output keeps the results, or the JSON). */
function profileText(file: string, s: import('../timing/pipeline').ProfileSummary, source: SourceFile): string {
  const lines = [`${s.totalCycles} cycles (${s.microseconds.toFixed(3)} us at 1.85 GHz), ${s.bottleneck}`];
  if (s.cores.length > 1)
    for (const c of s.cores)
      lines.push(
        `core ${c.core}: ${c.total} cycles; ${c.pipes.map((p) => `${p.pipe.replace(/^PIPE_/, '')} ${Math.round(p.share * 100)}%`).join(', ')}` +
          (c.waited > 0 ? `; waited ${c.waited} cycles for other cores` : ''),
      );
  if (s.noData.length > 0)
    lines.push(`no cost data for ${s.noData.map(([op, n]) => `${op} (${n})`).join(', ')}: counted as 0 cycles, so the total is a lower bound`);
  lines.push(...timingModel().criticalPathText(s.critical, (offset) => source.position(offset).line));
  return lines.map((l) => `${file}: profile: ${l}\n`).join('');
}

/** The first byte where the lowered run's global buffers differ from the direct run's, described; or null. */
function firstDifference(lowered: GlobalBuffer[], direct: GlobalBuffer[]): string | null {
  for (const a of lowered) {
    const b = direct.find((d) => d.name === a.name)!;
    for (let i = 0; i < a.bytes.length; i++) {
      if (a.bytes[i] !== b.bytes[i]) {
        const size = elemSize(a.elem);
        const element = Math.floor(i / size);
        const hex = (bytes: Uint8Array) =>
          Array.from(bytes.subarray(element * size, element * size + size))
            .reverse()
            .map((x) => x.toString(16).padStart(2, '0'))
            .join('');
        return `%${a.name} differs first at byte ${i} (element ${element}): lowered 0x${hex(a.bytes)}, direct model 0x${hex(b.bytes)}`;
      }
    }
  }
  return null;
}

function chooseEntry(functions: Map<string, OpNode>, entry: string | undefined): OpNode {
  const defined = [...functions.values()].filter((f) => f.regions.length > 0);
  if (entry !== undefined) {
    const fn = functions.get(entry.replace(/^@/, ''));
    if (!fn || fn.regions.length === 0)
      throw new UsageError(`--entry ${entry}: no function @${entry.replace(/^@/, '')} with a body (have: ${defined.map((f) => '@' + f.symbol).join(', ')})`);
    return fn;
  }
  if (defined.length === 1) return defined[0];
  const marked = defined.filter((f) => attrOf(f, 'hacc.entry') || attrOf(f, 'pto.entry'));
  if (marked.length === 1) return marked[0];
  if (defined.length === 0) throw new UsageError('the file defines no function to run');
  throw new UsageError(`the file defines ${defined.length} functions; choose one with --entry (${defined.map((f) => '@' + f.symbol).join(', ')})`);
}
