import * as fs from 'fs';
import * as path from 'path';
import { pathToFileURL } from 'url';
import { DIAGNOSTICS, DiagnosticKind } from '../diag/catalog';
import { formatDiagnostic } from '../diag/diagnostic';
import { FileDiagnostic, diagnosticsJson, diagnosticsSarif } from '../diag/report-formats';
import { didYouMean } from '../diag/suggest';
import { BuildLevel } from '../ir/definition';
import { PASS_CHECKS, REWRITING_PASSES, unknownPasses } from '../micro/passes';
import { TargetName } from '../spec/schema';
import { LEVEL_OPTION, TARGET_OPTION, UsageError, exitWith, hintUnknownOptions, loadYargs, usageFailure } from './common';
import { FileOptions, FileReport, STDIN, processFile, summaryLine } from './pto-as-files';
import { CommandLine, OptionSpec, parseSimply } from './simple-args';

/** The options of pto-as, for yargs and for the usual command lines (simple-args.ts). */
const OPTIONS = {
  target: TARGET_OPTION,
  level: LEVEL_OPTION,
  emit: {
    choices: ['none', 'canonical', 'lowered', 'l1', 'l2', 'json'] as const,
    default: 'none' as const,
    describe: 'what to print for valid input (lowered: AscendC/TIK ops rewritten as PTO tile ops)',
  },
  o: { alias: 'output', type: 'string', describe: 'write the emitted text to this file instead of stdout (nothing is written if any file fails)' },
  'diagnostics-format': {
    choices: ['text', 'json', 'sarif'] as const,
    default: 'text' as const,
    describe: 'text on stderr, or one JSON / SARIF 2.1.0 document on stdout',
  },
  werror: { type: 'boolean', default: false, describe: 'report warnings as errors (exit 1)' },
  quiet: { alias: 'q', type: 'boolean', default: false, describe: 'do not report warnings' },
  color: {
    choices: ['auto', 'always', 'never'] as const,
    default: 'auto' as const,
    describe: 'colour diagnostics (auto: stderr is a terminal and NO_COLOR is not set)',
  },
  'verify-diagnostics': {
    type: 'boolean',
    default: false,
    describe: "check the files' // expected-error {{...}} comments (mlir-opt's) against their diagnostics",
  },
  'split-input-file': { type: 'boolean', default: false, describe: 'assemble each part between // ----- lines on its own' },
  explain: { type: 'string', describe: 'print what a diagnostic code (E0302) means, with an example' },
  passes: {
    type: 'string',
    describe:
      "check the input as these PTOAS passes would take it, comma-separated, in order (pto-test-opt's, e.g. vmi-layout-assignment,vmi-to-vpto); default: those of ptoas's vpto back end when the back end is vpto",
  },
} satisfies Record<string, OptionSpec>;

export const COMMAND_LINE: CommandLine = { scriptName: 'pto-as', options: OPTIONS };

/** The package root: dist/cli/ or src/cli/ is two levels down (the bundle keeps each module's __dirname). */
const ROOT = path.join(__dirname, '..', '..');

function packageVersion(): string {
  return (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
}

/** The arguments as yargs gives them. */
export function parseWithYargs(argv: string[]) {
  return (
    loadYargs()(argv)
      .scriptName('pto-as')
      .usage('$0 FILE... [options]\n\nParse and verify PTO-AS programs; print diagnostics or a normalized form. FILE - reads stdin.')
      .options(OPTIONS)
      // Positional FILEs are allowed (strict mode refuses them otherwise); none is checked after, as --explain needs none.
      .demandCommand(0)
      .strict()
      .exitProcess(false)
      .fail((message: string | undefined, error: Error | undefined) => usageFailure(message && hintUnknownOptions(message, argv, OPTIONS), error))
      .help()
      .alias('h', 'help')
      .version(packageVersion())
      .parseSync()
  );
}

type Args = ReturnType<typeof parseWithYargs>;

/** pto-as FILE... [--target a2a3|a5] [--level ...] [--emit ...] [-o OUT] [--diagnostics-format text|json|sarif] ... */
export function main(argv: string[]): number {
  let args: Args;
  try {
    args = (parseSimply(argv, COMMAND_LINE) as Args | undefined) ?? parseWithYargs(argv);
    if (args.help || args.version) return 0;
    if (args.explain !== undefined) {
      process.stdout.write(explain(args.explain));
      return 0;
    }
    checkUsage(args);
  } catch (e) {
    return exitWith(e);
  }
  const files = args._.map(String);
  const format = args['diagnostics-format'];
  const color = args.color === 'always' || (args.color === 'auto' && process.stderr.isTTY === true && !process.env.NO_COLOR);
  const options: FileOptions = {
    target: args.target as TargetName | undefined,
    level: args.level as BuildLevel | undefined,
    emit: args.emit,
    verifyDiagnostics: args['verify-diagnostics'],
    splitInputFile: args['split-input-file'],
    werror: args.werror,
    quiet: args.quiet,
    ...(args.passes !== undefined ? { passes: passList(args.passes) } : {}),
  };
  const progress = new Progress(files.length);
  const reports: FileReport[] = [];
  for (const [i, file] of files.entries()) {
    progress.show(i, file);
    const report = processFile(file, options);
    reports.push(report);
    if (report.unreadable !== undefined) progress.write(`pto-as: error: cannot read ${file}: ${report.unreadable}\n`);
    else if (format === 'text' && report.diagnostics.length > 0)
      progress.write(report.diagnostics.map(({ source, diagnostic }) => formatDiagnostic(source, diagnostic, { color }) + '\n').join(''));
  }
  progress.clear();
  const all: FileDiagnostic[] = reports.flatMap((r) => r.diagnostics);
  if (format === 'json') process.stdout.write(diagnosticsJson(all));
  if (format === 'sarif') {
    const diagnosticsDoc = pathToFileURL(path.join(ROOT, 'docs', 'diagnostics.md')).href;
    process.stdout.write(diagnosticsSarif(all, { name: 'pto-as', version: packageVersion(), diagnosticsDoc }));
  }
  const failed = reports.some((r) => r.errors > 0 || r.unreadable !== undefined);
  const out = reports.flatMap((r) => (r.output === undefined ? [] : [r.output])).join('');
  // -o gets all of the output or nothing: a partial file would look like a result.
  if (args.o !== undefined) {
    if (!failed && out) fs.writeFileSync(args.o, out);
  } else if (out) process.stdout.write(out);
  if (files.length > 1) process.stderr.write(summaryLine(reports) + '\n');
  return reports.some((r) => r.unreadable !== undefined) ? 2 : failed ? 1 : 0;
}

/** The usage errors found before any file is read. */
function checkUsage(args: Args): void {
  if (args._.length === 0) throw new UsageError('pto-as: give at least one FILE');
  if (args['diagnostics-format'] !== 'text' && args.emit !== 'none' && args.o === undefined)
    throw new UsageError(`--emit ${args.emit} needs -o with --diagnostics-format ${args['diagnostics-format']}: stdout holds the diagnostics`);
  if (args.o !== undefined) {
    const dir = path.dirname(path.resolve(args.o));
    if (!fs.statSync(dir, { throwIfNoEntry: false })?.isDirectory()) throw new UsageError(`-o ${args.o}: no directory ${path.dirname(args.o)}`);
  }
  if (args._.filter((f) => String(f) === STDIN).length > 1) throw new UsageError('pto-as: - (stdin) can be given once');
  if (args.passes !== undefined) {
    const unknown = unknownPasses(passList(args.passes));
    const knownPasses = [...Object.keys(PASS_CHECKS), ...REWRITING_PASSES];
    if (unknown.length > 0)
      throw new UsageError(
        `--passes: no checks of a pass '${unknown[0]}' are modelled${didYouMean(unknown[0], knownPasses)} (known: ${knownPasses.join(', ')})`,
      );
  }
}

/** `--passes a,b`: the names, a leading dash allowed (pto-test-opt's spelling). */
function passList(text: string): string[] {
  return text
    .split(',')
    .map((p) => p.trim().replace(/^--?/, ''))
    .filter((p) => p.length > 0);
}

/** `--explain CODE`: the catalog's entry for a code (or a kind's name). */
function explain(wanted: string): string {
  const kinds = Object.entries(DIAGNOSTICS) as [string, DiagnosticKind][];
  const found = kinds.find(([name, kind]) => kind.code === wanted.toUpperCase() || name === wanted);
  if (!found)
    throw new UsageError(
      `--explain: no diagnostic code '${wanted}'${didYouMean(
        wanted,
        kinds.flatMap(([name, kind]) => [kind.code, name]),
      )}`,
    );
  const [name, kind] = found;
  const lines = [`${kind.code} ${name} (${kind.severity})`, '', kind.summary, ''];
  if ('noExample' in kind.example) lines.push(`No example: ${kind.example.noExample}.`);
  else {
    const command = kind.example.tool === 'pto-vm' ? 'pto-vm run example.pto' : 'pto-as example.pto';
    lines.push(
      `\`${[command, ...(kind.example.args ?? [])].join(' ')}\` reports it for:`,
      '',
      ...kind.example.program
        .trimEnd()
        .split('\n')
        .map((l) => `    ${l}`),
    );
  }
  return lines.join('\n') + '\n';
}

/**
 * `[3/10] FILE` on stderr while a run on many files goes on, rewritten in place, cleared before anything else is
 * printed and at the end; only on a terminal (a log or a pipe gets none).
 */
class Progress {
  private readonly on: boolean;
  private shown = false;

  constructor(private readonly total: number) {
    this.on = total > 1 && process.stderr.isTTY === true;
  }

  show(index: number, file: string): void {
    if (!this.on) return;
    const width = process.stderr.columns || 80;
    process.stderr.write(`\r\x1b[K${`[${index + 1}/${this.total}] ${file}`.slice(0, width - 1)}`);
    this.shown = true;
  }

  /** Writes a report to stderr, the progress line cleared first. */
  write(text: string): void {
    this.clear();
    process.stderr.write(text);
  }

  clear(): void {
    if (!this.shown) return;
    process.stderr.write('\r\x1b[K');
    this.shown = false;
  }
}
