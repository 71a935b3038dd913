/**
 * The usual command lines, parsed without yargs: loading yargs and running its parser took a tenth of a short run of
 * the tools. Only what is unambiguous is parsed here: positional arguments and `--name value`, `--name=value`,
 * `--flag` and `-x value` for the options of the table. For anything else (help, a usage error, a repeated or
 * negated option, a value yargs would read as a number or would take for another argument) this returns undefined,
 * and the tool asks yargs. test/cli/simple-args.test.ts checks, on generated command lines, that whatever this
 * returns is what yargs returns.
 */

/** An option, as the tools declare it to yargs (the part of yargs' options they use). */
export interface OptionSpec {
  type?: 'string' | 'number' | 'boolean';
  choices?: readonly string[];
  array?: boolean;
  default?: unknown;
  alias?: string;
  describe?: string;
}

export interface CommandLine {
  /** yargs' scriptName, the result's `$0`. */
  scriptName: string;
  options: Record<string, OptionSpec>;
  /**
   * The command that comes first (`run`) and the name of its one positional argument (`file`). Without a command, the
   * positional arguments are the result's `_`.
   */
  command?: { name: string; positional: string };
}

/** The arguments as yargs would give them (`_`, `$0`, every option under its names), or undefined. */
export function parseSimply(argv: readonly string[], line: CommandLine): Record<string, unknown> | undefined {
  const { options, command } = line;
  const names = optionsByFlag(options);
  const values = new Map<string, unknown>();
  const positionals: string[] = [];
  if (command && argv[0] !== command.name) return undefined;
  for (let i = command ? 1 : 0; i < argv.length; i++) {
    const token = argv[i];
    if (!token.startsWith('-')) {
      // yargs turns a positional argument that looks like a number into one (`_`), but not a command's typed one.
      if (!command && looksLikeNumber(token)) return undefined;
      positionals.push(token);
      continue;
    }
    const equals = token.startsWith('--') ? token.indexOf('=') : -1;
    const name = names.get(equals > 0 ? token.slice(0, equals) : token);
    if (name === undefined) return undefined;
    const spec = options[name];
    if (values.has(name) && !spec.array) return undefined;
    if (spec.type === 'boolean') {
      // yargs reads `--json false` as a value, and `--json=...` we leave to it.
      if (equals > 0 || argv[i + 1] === 'true' || argv[i + 1] === 'false') return undefined;
      values.set(name, true);
      continue;
    }
    let text: string | undefined;
    if (equals > 0) {
      if (spec.array) return undefined;
      text = token.slice(equals + 1);
    } else {
      text = argv[++i];
      // yargs gives an array option every argument that follows, up to the next option.
      if (spec.array && argv[i + 1] !== undefined && !argv[i + 1].startsWith('-')) return undefined;
    }
    const value = text === undefined ? undefined : optionValue(text, spec);
    if (value === undefined) return undefined;
    values.set(name, spec.array ? [...((values.get(name) as unknown[] | undefined) ?? []), value] : value);
  }
  const result: Record<string, unknown> = { _: command ? [command.name] : positionals, $0: line.scriptName };
  if (command) {
    if (positionals.length !== 1) return undefined;
    result[command.positional] = positionals[0];
  } else if (positionals.length === 0) {
    return undefined;
  }
  for (const [name, spec] of Object.entries(options)) {
    const value = values.has(name) ? values.get(name) : spec.default;
    if (value === undefined) continue;
    for (const key of new Set([name, camelCase(name), ...(spec.alias ? [spec.alias] : [])])) result[key] = value;
  }
  return result;
}

/** `--name` (`-n` for a one-letter name) and the same for its alias -> the option's name. */
function optionsByFlag(options: Record<string, OptionSpec>): Map<string, string> {
  const names = new Map<string, string>();
  for (const [name, spec] of Object.entries(options)) {
    for (const spelling of [name, ...(spec.alias ? [spec.alias] : [])]) names.set(spelling.length === 1 ? `-${spelling}` : `--${spelling}`, name);
  }
  return names;
}

/** The value of a non-boolean option as yargs reads this text, when there is no doubt about it. */
function optionValue(text: string, spec: OptionSpec): unknown {
  if (text === '' || text.startsWith('-')) return undefined;
  if (spec.type === 'number') return /^(0|[1-9]\d{0,14})$/.test(text) ? Number(text) : undefined;
  // yargs reads a number-like value of an option without a type as a number, which no choice is.
  if (spec.type !== 'string' && looksLikeNumber(text)) return undefined;
  if (spec.choices) return spec.choices.includes(text) ? text : undefined;
  return spec.type === 'string' ? text : undefined;
}

/** Wider than yargs-parser's test of the same name: whatever it could take for a number. */
function looksLikeNumber(text: string): boolean {
  return /^[-+]?(0x[0-9a-f]+|(\d+(\.\d*)?|\.\d+)(e[-+]?\d+)?)$/i.test(text);
}

function camelCase(name: string): string {
  return name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}
