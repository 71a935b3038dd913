/**
 * pto-vm's checks of a command line before any work: the command and flag names (with a "did you mean"), the `--arg` values' forms and files, the `--out` paths. Everything here is a usage error (exit
 * 2) naming the value and what was expected.
 */
import * as fs from 'fs';
import * as path from 'path';
import { didYouMean } from '../diag/suggest';
import { argSpecProblem } from '../vm/io/arguments';
import { UsageError } from './common';
import { OptionSpec } from './simple-args';

export const COMMANDS = ['run', 'validate', 'check-lowering', 'help'] as const;

/** The flags `validate` takes besides --help (its own --keep, and pto-vm's --target, --json, --jobs). */
export const VALIDATE_FLAGS = ['target', 'json', 'jobs', 'keep'];

/** The options named on a command line (their declared names), in order, with the text each was given. */
export function givenOptions(argv: readonly string[], options: Record<string, OptionSpec>): { name: string; text?: string }[] {
  const given: { name: string; text?: string }[] = [];
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i];
    if (token === '--') break;
    if (!token.startsWith('--')) continue;
    const equals = token.indexOf('=');
    const flag = token.slice(2, equals > 0 ? equals : undefined);
    const name = declaredName(flag, options);
    if (name === undefined) continue;
    const boolean = options[name]?.type === 'boolean';
    const text = equals > 0 ? token.slice(equals + 1) : boolean || argv[i + 1]?.startsWith('--') ? undefined : argv[i + 1];
    given.push({ name, text });
  }
  return given;
}

/** The option a flag names (`max-steps`, `maxSteps`, `no-sync-check` for a boolean), or undefined. */
function declaredName(flag: string, options: Record<string, OptionSpec>): string | undefined {
  const kebab = flag.replace(/[A-Z]/g, (c) => '-' + c.toLowerCase());
  if (kebab in options) return kebab;
  const negated = kebab.startsWith('no-') ? kebab.slice(3) : undefined;
  if (negated !== undefined && options[negated]?.type === 'boolean') return negated;
  return undefined;
}

/**
 * The command and every flag are known ones, else a usage error with the closest name. `options` holds every
 * option of every command (validate's --keep among them); --help, -h and --version are always known.
 */
export function checkNames(argv: readonly string[], options: Record<string, OptionSpec>): void {
  // The command comes first (a flag first, and its value could look like a command: yargs tells then).
  const first = argv[0];
  if (first !== undefined && !first.startsWith('-') && !(COMMANDS as readonly string[]).includes(first))
    throw new UsageError(`unknown command '${first}' (expected ${COMMANDS.map((c) => `'${c}'`).join(', ')})${commandHint(first)}`);
  const known = [...Object.keys(options), 'help', 'version'];
  for (const token of argv) {
    if (token === '--') break;
    if (token.startsWith('--')) {
      const flag = token.slice(2).split('=')[0];
      if (flag === 'help' || flag === 'version' || declaredName(flag, options) !== undefined) continue;
      throw new UsageError(`unknown option --${flag}${didYouMean(flag, known, '').replace('you mean ', 'you mean --')}`);
    }
    // A short flag (a negative number is a value): -h is --help; another suggests the one option it begins, if one.
    if (/^-[a-zA-Z]/.test(token) && token !== '-h') {
      const starting = known.filter((k) => k.startsWith(token[1]));
      throw new UsageError(`unknown option ${token}${starting.length === 1 ? `; did you mean --${starting[0]}?` : ''}`);
    }
  }
}

/**
 * "did you mean" for a command: the closest name, else one with the same letters (Levenshtein counts two letters
 * swapped as two edits, more than a three-letter name is allowed: `rnu` is `run`).
 */
function commandHint(name: string): string {
  const letters = (s: string) => [...s.toLowerCase()].sort().join('');
  const anagram = COMMANDS.find((c) => letters(c) === letters(name));
  return didYouMean(name, COMMANDS) || (anagram ? `; did you mean '${anagram}'?` : '');
}

/** Every `--arg` value has a form the VM reads, and every file it names can be read. */
export function checkArgValues(perRank: Map<string, string>[]): void {
  const seen = new Set<string>();
  for (const specs of perRank)
    for (const [name, spec] of specs) {
      if (seen.has(`${name}=${spec}`)) continue;
      seen.add(`${name}=${spec}`);
      const problem = argSpecProblem(spec);
      if (problem) throw new UsageError(`--arg ${name}=${spec}: ${problem}`);
    }
}

/**
 * Every `--out` path can be written where it says: it ends in .npy or .bin, its folder exists, and no two outputs
 * (of any rank) go to one file.
 */
export function checkOutPaths(perRank: Map<string, string>[]): void {
  const writers = new Map<string, string>();
  perRank.forEach((specs, rank) => {
    for (const [name, file] of specs) {
      const item = `--out ${perRank.length > 1 ? `${rank}:` : ''}${name}=${file}`;
      if (!file.endsWith('.npy') && !file.endsWith('.bin')) throw new UsageError(`${item}: expected PATH.npy or PATH.bin`);
      const folder = path.dirname(path.resolve(file));
      const stat = fs.statSync(folder, { throwIfNoEntry: false });
      if (!stat?.isDirectory()) throw new UsageError(`${item}: the folder ${path.dirname(file)} does not exist`);
      if (fs.statSync(file, { throwIfNoEntry: false })?.isDirectory()) throw new UsageError(`${item}: ${file} is a folder`);
      const resolved = path.resolve(file);
      const other = writers.get(resolved);
      if (other !== undefined) throw new UsageError(`${item}: ${other} already writes ${file}; give each output its own file`);
      writers.set(resolved, item);
    }
  });
}
