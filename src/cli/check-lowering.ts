/**
 * `pto-vm check-lowering FILE`: each function of an A5 tile-level module and its expansion (the tile ops through
 * PTOAS's templates, src/expand, or PTOAS's own --emit-vpto output with --vpto) run on the same arguments; one line
 * per function, agree or the first differing element (docs/cli.md, docs/lowering.md). Exit 0: all agree; 1: a
 * difference or an error of a program; 2: usage, or what the expansion needs (python3, PTO_UPSTREAM_DIR) missing.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import { formatAll } from '../diag/diagnostic';
import { attrOf, Block, OpNode } from '../syntax/ast';
import { Assembled, assemble } from '../verify/assemble';
import { ArgumentError, bindArguments } from '../vm/io/arguments';
import { LIMITS } from '../diag/limits';
import { pythonCommand } from '../board/python-runner';
import { callOp } from '../ops/structure/builtin';
import { Expanded, NotExpanded, expandModule } from '../expand/expand';
import { upstreamTree } from '../expand/tilelib';
import { FunctionCheck, Runnable, WriterReport, checkFunction } from '../expand/check-run';
import { TARGET_OPTION, UsageError, exitWith, loadYargs, usageFailure } from './common';
import { rankedPairs } from './ranks';
import { checkArgValues } from './vm-checks';
import type { OpComparison } from './lowering-profile';

export const CHECK_LOWERING_OPTIONS = {
  target: { ...TARGET_OPTION, choices: ['a5'] as const, describe: "target chip (the templates are A5's; default: the module's pto.target_arch)" },
  entry: { type: 'string', describe: 'check only this function (default: every function with a body, but the expansions)' },
  arg: {
    type: 'string',
    array: true,
    default: [] as string[],
    describe: 'bind an argument as pto-vm run does: NAME=FILE.npy|FILE.bin|zeros:N|random:N[:SEED]|NUMBER (unbound pointers: generated)',
  },
  vpto: { type: 'string', describe: "PTOAS's own --emit-vpto output of FILE, checked instead of our expansion (needs neither python3 nor PTO_UPSTREAM_DIR)" },
  'save-expanded': { type: 'string', describe: 'write the expansion checked (the lines the report names) to this file' },
  json: { type: 'boolean', default: false, describe: 'print one JSON document: every function, the first difference of each' },
  profile: {
    type: 'boolean',
    default: false,
    describe: "estimate both runs' cycles (docs/performance.md): the tile level from pto-isa's A5 curves, the expansion's micro-ops from VfSim's tables",
  },
  'max-steps': { type: 'number', default: LIMITS.steps.value, describe: 'stop a run after this many steps' },
} as const;

/** What our expansion needs, or a usage error naming what is missing. */
function expansionTools(): string {
  const tree = upstreamTree(process.env.PTO_UPSTREAM_DIR);
  if ('error' in tree) throw new UsageError(`check-lowering expands through PTOAS's templates: ${tree.error}; or give PTOAS's output with --vpto`);
  const python = pythonCommand();
  const r = spawnSync(python, ['-c', 'import numpy'], { encoding: 'utf8' });
  if (r.error || r.status !== 0)
    throw new UsageError(`check-lowering runs PTOAS's templates under ${python} with numpy: ${r.error ? `${python} is not installed` : 'numpy is missing'}`);
  return tree.dir;
}

function* opsOf(blocks: Block[]): Generator<OpNode> {
  for (const b of blocks)
    for (const op of b.ops) {
      yield op;
      for (const r of op.regions) yield* opsOf(r.blocks);
    }
}

const INSTANCE = /^__pto_tilelang_/;

/** The tile op each call of an instance stands for: the calls and the expanded ops, both in source order. */
function callsToTileOps(expandedAsm: Assembled, expanded: Expanded[]): Map<OpNode, { op: string; line: number }> {
  const calls: OpNode[] = [];
  for (const fn of expandedAsm.program.functions.values())
    for (const op of opsOf(fn.regions.flatMap((r) => r.blocks))) {
      const callee = op.name === callOp.name ? attrOf(op, 'callee') : undefined;
      if (callee?.kind === 'symbol' && INSTANCE.test(callee.name)) calls.push(op);
    }
  calls.sort((a, b) => a.span.start - b.span.start);
  const ops = [...expanded].sort((a, b) => a.line - b.line);
  return new Map(calls.map((c, i) => [c, ops[i]]));
}

const runnable = (asm: Assembled, text: string): Runnable => ({
  program: asm.program,
  types: asm.types,
  lineOf: (offset) => text.slice(0, offset).split('\n').length,
});

function writerText(w: WriterReport | undefined, file: string, expandedName: string): string {
  if (!w) return 'no op of the expanded run (the element kept its initial bytes)';
  const tile = w.tileOp ? ` in the expansion of ${w.tileOp} (${file}:${w.tileLine})` : '';
  return `${w.op} (${expandedName}:${w.line})${tile}`;
}

/** The line printed for a function. */
function line(r: FunctionCheck, file: string, expandedName: string): string {
  if ('error' in r) return `@${r.fn}: error: ${r.error}`;
  if (r.agree) return `@${r.fn}: agree (${r.bytes} bytes of global memory)`;
  const d = r.difference;
  const at = d.coords ? ` [${d.coords.join(', ')}]` : '';
  const value = (v: { hex: string; value: string }): string => `0x${v.hex} (${v.value})`;
  const parts = [
    `@${r.fn}: differ at %${d.buffer}[${d.element}]${at}: tile level ${value(d.tileLevel)}, expanded ${value(d.expanded)}`,
    `stored by ${writerText(d.stored, file, expandedName)}`,
  ];
  if (d.computed) parts.push(`computed by ${writerText(d.computed, file, expandedName)}`);
  return parts.join('; ');
}

/** The timing model and the comparison, loaded only for --profile. */
function timing() {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a static import would load it for every check
  const t = require('../timing/observer') as typeof import('../timing/observer');
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded with it
  const compare = require('./lowering-profile') as typeof import('./lowering-profile');
  return { observer: (a: Assembled) => new t.TimingObserver('a5', true, a.program), ...compare };
}

export function checkLoweringMain(argv: string[]): number {
  let args;
  try {
    args = loadYargs()(argv)
      .scriptName('pto-vm')
      .usage(
        "$0 check-lowering FILE [options]\n\nRun each function of an A5 tile-level FILE and its expansion through PTOAS's templates on the same inputs, and compare every output byte.",
      )
      .command('check-lowering <file>', 'check the lowering of FILE', (y) => y.positional('file', { type: 'string', describe: 'the tile-level .pto program' }))
      .options(CHECK_LOWERING_OPTIONS)
      .strict()
      .exitProcess(false)
      .fail((message, error) => {
        if (message?.startsWith('Not enough non-option arguments'))
          throw new UsageError('pto-vm check-lowering: give the .pto file (pto-vm check-lowering FILE)');
        return usageFailure(message, error);
      })
      .help()
      .alias('h', 'help')
      .parseSync();
  } catch (e) {
    return exitWith(e);
  }
  if (args.help) return 0;
  try {
    return check({
      file: String(args.file),
      target: args.target,
      entry: args.entry,
      args: args.arg,
      vpto: args.vpto,
      saveExpanded: args['save-expanded'],
      json: args.json,
      profile: args.profile,
      maxSteps: args['max-steps'],
    });
  } catch (e) {
    return exitWith(e);
  }
}

interface Request {
  file: string;
  target?: 'a5';
  entry?: string;
  args: string[];
  vpto?: string;
  saveExpanded?: string;
  json: boolean;
  profile: boolean;
  maxSteps: number;
}

function read(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new UsageError(`${file}: ${code === 'ENOENT' ? 'no such file' : `cannot read it (${code ?? String(e)})`}`);
  }
}

function check(req: Request): number {
  if (!Number.isSafeInteger(req.maxSteps) || req.maxSteps <= 0) throw new UsageError(`--max-steps must be a positive integer, got ${req.maxSteps}`);
  const specs = rankedPairs(req.args, '--arg', 1)[0];
  checkArgValues([specs]);
  const text = read(req.file);
  const upstreamDir = req.vpto === undefined ? expansionTools() : undefined;
  const vptoText = req.vpto === undefined ? undefined : read(req.vpto);
  const tile = assemble(req.file, text, { target: req.target ?? 'a5' });
  if (tile.diags.items.length > 0) process.stderr.write(formatAll(tile.diags) + '\n');
  if (tile.diags.hasErrors()) return 1;
  if (tile.program.target !== 'a5') throw new UsageError(`${req.file} targets ${tile.program.target}: the templates are A5's (--target a5)`);

  let expandedText: string;
  let expanded: Expanded[] = [];
  let notExpanded: NotExpanded[] = [];
  const expandedName = req.vpto ?? req.saveExpanded ?? `${req.file} (expanded)`;
  if (vptoText !== undefined) expandedText = vptoText;
  else {
    const e = expandModule(req.file, text, { upstreamDir: upstreamDir!, target: 'a5' });
    if ('error' in e) {
      process.stderr.write(`${req.file}: error: ${e.error}\n`);
      return 1;
    }
    ({ text: expandedText, expanded, notExpanded } = e);
  }
  if (req.saveExpanded !== undefined) {
    try {
      fs.writeFileSync(req.saveExpanded, expandedText);
    } catch (e) {
      throw new UsageError(`--save-expanded ${req.saveExpanded}: cannot write it (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
    }
  }
  const after = assemble(expandedName, expandedText, { target: 'a5' });
  if (after.diags.hasErrors()) {
    process.stderr.write(formatAll(after.diags) + '\n');
    process.stderr.write(`${expandedName}: error: the expansion does not assemble\n`);
    return 1;
  }
  if (!req.json)
    for (const n of notExpanded) process.stderr.write(`${req.file}:${n.line}: note: ${n.op} is not expanded (it runs tile-level in both): ${n.reason}\n`);

  const defined = [...tile.program.functions.values()].filter((f) => f.regions.length > 0 && !INSTANCE.test(f.symbol ?? ''));
  let fns = defined;
  if (req.entry !== undefined) {
    const name = req.entry.replace(/^@/, '');
    fns = defined.filter((f) => f.symbol === name);
    if (fns.length === 0)
      throw new UsageError(`--entry ${req.entry}: no function @${name} with a body (have: ${defined.map((f) => '@' + f.symbol).join(', ')})`);
  }
  const unused = [...specs.keys()].filter((name) => !fns.some((f) => f.regions[0].blocks[0].args.some((a) => a.name === `%${name}`)));
  if (unused.length > 0) throw new UsageError(`--arg ${unused[0]}: no function checked has an argument %${unused[0]}`);
  const tileOpOfCall = callsToTileOps(after, expanded);
  const results: FunctionCheck[] = [];
  const profiles = new Map<string, OpComparison[]>();
  for (const fn of fns) {
    const names = new Set((fn.regions[0].blocks[0].args ?? []).map((a) => a.name.slice(1)));
    const mine = new Map([...specs].filter(([name]) => names.has(name)));
    let bound;
    try {
      bound = bindArguments(tile.types, fn, mine, (symbol) => tile.program.functions.get(symbol));
    } catch (e) {
      if (e instanceof ArgumentError) throw new UsageError(`@${fn.symbol}: ${e.message}`);
      throw e;
    }
    const observers = req.profile ? { tileLevel: timing().observer(tile), expanded: timing().observer(after) } : undefined;
    results.push(
      checkFunction(runnable(tile, text), runnable(after, expandedText), fn.symbol!, bound.values, { maxSteps: req.maxSteps, tileOpOfCall, observers }),
    );
    if (observers) profiles.set(fn.symbol!, timing().compareOps(tile, observers.tileLevel, after, observers.expanded, expanded));
  }

  if (req.json) {
    const doc = {
      ok: results.every((r) => 'agree' in r && r.agree),
      file: req.file,
      expansion: req.vpto ?? 'templates',
      expanded: expanded.map((e) => ({ op: e.op, line: e.line, template: e.template, instance: e.instance })),
      notExpanded: notExpanded.map((n) => ({ op: n.op, line: n.line, reason: n.reason })),
      functions: results.map((r) => (profiles.has(r.fn) ? { ...r, profile: profiles.get(r.fn) } : r)),
    };
    process.stdout.write(JSON.stringify(doc) + '\n');
  } else {
    if (expanded.length > 0)
      process.stdout.write(`${req.file}: ${expanded.length} tile op${expanded.length > 1 ? 's' : ''} expanded, ${notExpanded.length} not\n`);
    for (const r of results) process.stdout.write(line(r, req.file, expandedName) + '\n');
    for (const [fn, ops] of profiles)
      for (const l of timing().comparisonLines(fn, ops)) process.stderr.write(`${req.file}${l.line === undefined ? '' : `:${l.line}`}: ${l.text}\n`);
  }
  return results.every((r) => 'agree' in r && r.agree) ? 0 : 1;
}
