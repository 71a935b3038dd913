import { didYouMean } from '../diag/suggest';
import type { OptionSpec } from './simple-args';

/** A command-line usage problem: reported in one line, exit code 2. */
export class UsageError extends Error {}

export function usageFailure(message: string | undefined, error: Error | undefined): never {
  // yargs spreads some messages over lines ("Invalid values:\n  Argument: ..."): keep one line.
  throw new UsageError((message ?? error?.message ?? 'invalid arguments').replace(/:?\s*\n\s*/g, ': '));
}

/** Turns a usage failure into its exit code; anything else is a bug and is rethrown. */
export function exitWith(e: unknown): number {
  if (e instanceof UsageError || (e instanceof Error && e.name === 'YError')) {
    process.stderr.write(`error: ${e.message}\nRun with --help for usage.\n`);
    return 2;
  }
  throw e;
}

/** `--level`, PTOAS's `--pto-level`, shared by both tools. */
export const LEVEL_OPTION = {
  choices: ['level1', 'level2', 'level3'] as const,
  describe: "PTOAS's build level: level3 programs place their tiles (alloc_tile addr, tassign); default: no level rules",
};

/** `--target`, shared by both tools. */
export const TARGET_OPTION = {
  choices: ['a2a3', 'a5'] as const,
  describe: "target chip (default: the module's pto.target_arch, else a2a3)",
};

/** yargs, loaded only for a command line that simple-args.ts leaves to it. */
export function loadYargs(): typeof import('yargs') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a static import would load it on every run
  return require('yargs');
}

/**
 * yargs' "Unknown argument: traget" as the user wrote it, with the closest known option (`--traget` -> `--target`):
 * give it the failure message, the command line and the tool's options table.
 */
export function hintUnknownOptions(message: string, argv: readonly string[], options: Record<string, OptionSpec>): string {
  const m = /^Unknown arguments?: (.*)$/.exec(message);
  if (!m) return message;
  const flags = Object.entries(options).flatMap(([name, spec]) =>
    [name, ...(spec.alias ? [spec.alias] : [])].map((n) => (n.length === 1 ? `-${n}` : `--${n}`)),
  );
  const hints = m[1].split(', ').map((name) => {
    // yargs names the option without its dashes (and camel-cases some): find how it was written.
    const written = argv.find((a) => a.replace(/=.*$/, '').replace(/^--?/, '') === name)?.replace(/=.*$/, '') ?? `--${name}`;
    return `unknown option '${written}'${didYouMean(written, flags)}`;
  });
  return hints.join('; ');
}
