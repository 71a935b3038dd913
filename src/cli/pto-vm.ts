import * as fs from 'fs';
import yargs from 'yargs';
import { assemble } from '../assemble';
import { formatAll, formatDiagnostic } from '../diag/diagnostic';
import { TargetName } from '../spec/schema';
import { attrOf, OpNode } from '../syntax/ast';
import { elemSize } from '../syntax/types';
import { runFunction } from '../vm/interpreter';
import { NumericsProfile } from '../vm/instructions/context';
import { ArgumentError, bindArguments } from '../vm/io/arguments';
import { bufferValues, formatValue, summarize } from '../vm/io/results';
import { writeNpy } from '../vm/io/npy';
import { VmTrap } from '../vm/trap';
import { TARGET_OPTION, UsageError, exitWith, usageFailure } from './common';

/** pto-vm run FILE [--target] [--entry] [--arg NAME=VALUE]... [--out NAME=PATH]... [--numerics] [--json] [--max-steps N] */
export function main(argv: string[]): number {
  let args;
  try {
    args = yargs(argv)
      .scriptName('pto-vm')
      .usage('$0 run FILE [options]\n\nRun a PTO-AS program on the PTO virtual machine.')
      .command('run <file>', 'run a function of FILE', (y) => y.positional('file', { type: 'string', describe: 'the .pto program' }))
      .option('target', TARGET_OPTION)
      .option('entry', { type: 'string', describe: 'function to run (default: the only function, or the hacc.entry one)' })
      .option('arg', { type: 'string', array: true, default: [] as string[], describe: 'bind an argument: NAME=FILE.npy|FILE.bin|zeros:N|random:N[:SEED]|NUMBER' })
      .option('out', { type: 'string', array: true, default: [] as string[], describe: 'write a pointer argument after the run: NAME=PATH.npy|PATH.bin' })
      .option('numerics', { choices: ['npu', 'cpu-sim'] as const, default: 'npu' as const, describe: 'rounding and reduction-order profile' })
      .option('json', { type: 'boolean', default: false, describe: 'print the results as JSON' })
      .option('max-steps', { type: 'number', default: 100_000_000, describe: 'stop after this many executed ops' })
      .demandCommand(1, 'pto-vm: give a command: run FILE')
      .strict()
      .exitProcess(false)
      .fail(usageFailure)
      .help()
      .version(false)
      .parseSync();
  } catch (e) {
    return exitWith(e);
  }
  if (args.help) return 0;
  try {
    if (args._[0] !== 'run') throw new UsageError(`unknown command '${String(args._[0])}' (expected 'run')`);
    return run({
      file: String(args.file),
      target: args.target as TargetName | undefined,
      entry: args.entry,
      argSpecs: parsePairs(args.arg, '--arg'),
      outSpecs: parsePairs(args.out, '--out'),
      numerics: args.numerics as NumericsProfile,
      json: args.json,
      maxSteps: checkMaxSteps(args['max-steps']),
    });
  } catch (e) {
    return exitWith(e);
  }
}

function checkMaxSteps(n: number): number {
  if (!Number.isInteger(n) || n <= 0) throw new UsageError(`--max-steps must be a positive integer, got ${n}`);
  return n;
}

function parsePairs(items: string[], flag: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const item of items) {
    const eq = item.indexOf('=');
    if (eq <= 0) throw new UsageError(`${flag} ${item}: expected NAME=VALUE`);
    const name = item.slice(0, eq).replace(/^%/, '');
    if (map.has(name)) throw new UsageError(`${flag} ${name} is given twice`);
    map.set(name, item.slice(eq + 1));
  }
  return map;
}

interface RunRequest {
  file: string;
  target?: TargetName;
  entry?: string;
  argSpecs: Map<string, string>;
  outSpecs: Map<string, string>;
  numerics: NumericsProfile;
  json: boolean;
  maxSteps: number;
}

function run(req: RunRequest): number {
  let text: string;
  try {
    text = fs.readFileSync(req.file, 'utf8');
  } catch (e) {
    throw new UsageError(`cannot read ${req.file}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
  }
  const assembled = assemble(req.file, text, { target: req.target });
  if (assembled.diags.items.length > 0) process.stderr.write(formatAll(assembled.diags) + '\n');
  if (assembled.diags.hasErrors()) return 1;
  const { program, types } = assembled;
  const fn = chooseEntry(program.functions, req.entry);
  let bound;
  try {
    bound = bindArguments(types, fn, req.argSpecs);
  } catch (e) {
    if (e instanceof ArgumentError) throw new UsageError(e.message);
    throw e;
  }
  for (const name of req.outSpecs.keys()) {
    if (!bound.buffers.some((b) => b.name === name)) throw new UsageError(`--out ${name}: @${fn.symbol} has no pointer argument %${name}`);
  }
  let result;
  try {
    result = runFunction(program, types, fn, bound.values, { numerics: req.numerics, maxSteps: req.maxSteps });
  } catch (e) {
    if (e instanceof VmTrap) {
      process.stderr.write(formatDiagnostic(assembled.source, { severity: 'error', message: e.message, span: e.span }) + '\n');
      return 1;
    }
    throw e;
  }
  for (const note of result.notes) process.stderr.write(`${req.file}: note: ${note}\n`);
  for (const [name, path] of req.outSpecs) {
    const buffer = bound.buffers.find((b) => b.name === name)!;
    const data = path.endsWith('.npy') ? writeNpy(buffer.elem === 'f64' || buffer.elem === 'i1' || buffer.elem === 'index' ? 'u8' : buffer.elem, [buffer.length], buffer.bytes) : buffer.bytes;
    if (!path.endsWith('.npy') && !path.endsWith('.bin')) throw new UsageError(`--out ${name}=${path}: expected PATH.npy or PATH.bin`);
    try {
      fs.writeFileSync(path, data);
    } catch (e) {
      throw new UsageError(`--out ${name}=${path}: cannot write (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
    }
  }
  if (req.json) {
    const outputs: Record<string, unknown> = {};
    for (const b of bound.buffers) {
      let written = 0;
      for (const w of b.written) written += w;
      outputs[b.name] = { dtype: b.elem, elements: b.length, bytes: b.length * elemSize(b.elem), input: bound.origins.get(b.name), written, values: bufferValues(b).map(formatValue) };
    }
    process.stdout.write(JSON.stringify({ function: fn.symbol, target: program.target, numerics: req.numerics, steps: result.steps, notes: result.notes, outputs }) + '\n');
  } else if (req.outSpecs.size === 0) {
    process.stdout.write(`@${fn.symbol} on ${program.target} (numerics ${req.numerics}): ${result.steps} ops executed\n`);
    process.stdout.write(summarize(bound.buffers, bound.origins));
  }
  return 0;
}

function chooseEntry(functions: Map<string, OpNode>, entry: string | undefined): OpNode {
  const defined = [...functions.values()].filter((f) => f.regions.length > 0);
  if (entry !== undefined) {
    const fn = functions.get(entry.replace(/^@/, ''));
    if (!fn || fn.regions.length === 0) throw new UsageError(`--entry ${entry}: no function @${entry.replace(/^@/, '')} with a body (have: ${defined.map((f) => '@' + f.symbol).join(', ')})`);
    return fn;
  }
  if (defined.length === 1) return defined[0];
  const marked = defined.filter((f) => attrOf(f, 'hacc.entry'));
  if (marked.length === 1) return marked[0];
  if (defined.length === 0) throw new UsageError('the file defines no function to run');
  throw new UsageError(`the file defines ${defined.length} functions; choose one with --entry (${defined.map((f) => '@' + f.symbol).join(', ')})`);
}
