import { LocatedError } from '../diag/located-error';
import * as fs from 'fs';
import { assemble } from '../verify/assemble';
import { formatAll, formatDiagnostic } from '../diag/diagnostic';
import { printCanonical } from '../emit/canonical';
import { lowerProgram } from '../lower';
import { moduleToJson } from '../emit/json';
import { TargetName } from '../spec/schema';
import { emitAtLevel } from '../emit/level-convert';
import { LEVEL_OPTION, TARGET_OPTION, exitWith, loadYargs, usageFailure } from './common';
import { CommandLine, OptionSpec, parseSimply } from './simple-args';
import { BuildLevel } from '../ir/definition';

/** The options of pto-as, for yargs and for the usual command lines (simple-args.ts). */
const OPTIONS = {
  target: TARGET_OPTION,
  level: LEVEL_OPTION,
  emit: {
    choices: ['none', 'canonical', 'lowered', 'l1', 'l2', 'json'] as const,
    default: 'none' as const,
    describe: 'what to print for valid input (lowered: AscendC/TIK ops rewritten as PTO tile ops)',
  },
  o: { alias: 'output', type: 'string', describe: 'write the emitted text to this file instead of stdout' },
} satisfies Record<string, OptionSpec>;

export const COMMAND_LINE: CommandLine = { scriptName: 'pto-as', options: OPTIONS };

/** The arguments as yargs gives them. */
export function parseWithYargs(argv: string[]) {
  return loadYargs()(argv)
    .scriptName('pto-as')
    .usage('$0 FILE... [options]\n\nParse and verify PTO-AS programs; print diagnostics or a normalized form.')
    .options(OPTIONS)
    .demandCommand(1, 'pto-as: give at least one FILE')
    .strict()
    .exitProcess(false)
    .fail(usageFailure)
    .help()
    .version(false)
    .parseSync();
}

/** pto-as FILE... [--target a2a3|a5] [--level level1|level2|level3] [--emit none|canonical|lowered|l1|l2|json] [-o OUT] */
export function main(argv: string[]): number {
  let args;
  try {
    args = (parseSimply(argv, COMMAND_LINE) as ReturnType<typeof parseWithYargs> | undefined) ?? parseWithYargs(argv);
  } catch (e) {
    return exitWith(e);
  }
  if (args.help) return 0;
  const files = args._.map(String);
  const out: string[] = [];
  let failed = false;
  for (const file of files) {
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch (e) {
      process.stderr.write(`pto-as: error: cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? String(e)}\n`);
      return 2;
    }
    const result = assemble(file, text, { target: args.target as TargetName | undefined, level: args.level as BuildLevel | undefined });
    if (result.diags.items.length > 0) process.stderr.write(formatAll(result.diags) + '\n');
    if (result.diags.hasErrors()) {
      failed = true;
      continue;
    }
    switch (args.emit) {
      case 'canonical':
        out.push(printCanonical(result.module, result.types));
        break;
      case 'json':
        out.push(JSON.stringify(moduleToJson(result.module, result.source), null, 1) + '\n');
        break;
      case 'lowered':
        try {
          out.push(printCanonical(lowerProgram(result).module, result.types));
        } catch (e) {
          if (!(e instanceof LocatedError)) throw e;
          process.stderr.write(formatDiagnostic(result.source, e.diagnostic) + '\n');
          failed = true;
        }
        break;
      case 'l1':
      case 'l2':
        try {
          out.push(emitAtLevel(result, args.emit === 'l1' ? 1 : 2));
        } catch (e) {
          if (!(e instanceof LocatedError)) throw e;
          process.stderr.write(formatDiagnostic(result.source, e.diagnostic) + '\n');
          failed = true;
        }
        break;
    }
  }
  if (out.length > 0) {
    if (args.o) fs.writeFileSync(args.o, out.join(''));
    else process.stdout.write(out.join(''));
  }
  return failed ? 1 : 0;
}
