import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';

/**
 * The command synopses of README.md and docs/cli.md, made from what the tools' own `--help` says (the option tables
 * the CLI is built from), so that no flag is left out of them. `npm run docs:cli` rewrites every region
 * `<!-- synopsis: pto-vm run -->` ... `<!-- /synopsis -->`; test/tools/cli-doc.test.ts checks the files are current.
 */

const ROOT = path.join(__dirname, '..', '..');

/** The commands documented, as `tool words...`. */
export const COMMANDS = ['pto-as', 'pto-vm run', 'pto-vm validate', 'pto-vm check-lowering'] as const;

/** What `COMMAND --help` prints, run through the built tools. */
export function helpText(command: string): string {
  const [tool, ...words] = command.split(' ');
  const r = spawnSync(process.execPath, [path.join(ROOT, 'bin', tool), ...words, '--help'], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, PTO_DEBUG: '', NO_COLOR: '1', COLUMNS: '80' },
  });
  if (r.status !== 0) throw new Error(`${command} --help exited ${r.status}: ${r.stderr}`);
  return r.stdout;
}

interface HelpOption {
  names: string[];
  kind: 'boolean' | 'value' | 'array';
  choices?: string[];
  /** A boolean on by default, which is written `--no-NAME`. */
  negated?: boolean;
}

/** The options a yargs help text lists (help and version left out), in its order. */
export function helpOptions(help: string): HelpOption[] {
  const options: HelpOption[] = [];
  const lines = help.split('\n');
  const at = lines.findIndex((l) => l.startsWith('Options:'));
  if (at < 0) return options;
  // An option's entry runs from its line to the next option's (yargs wraps descriptions and tags over lines).
  let current: { head: string; text: string } | undefined;
  const flush = () => {
    if (!current) return;
    const names = [...current.head.matchAll(/(--?[\w-]+)/g)].map((m) => m[1]);
    if (!names.includes('--help') && !names.includes('--version')) {
      const text = current.text.replace(/\s+/g, ' ');
      const choices = /\[choices: ([^\]]*)\]/
        .exec(text)?.[1]
        .split(', ')
        .map((c) => c.replace(/"/g, ''));
      const kind = /\[boolean\]/.test(text) ? 'boolean' : /\[array\]/.test(text) ? 'array' : 'value';
      options.push({ names, kind, choices, negated: kind === 'boolean' && /\[default: true\]/.test(text) });
    }
  };
  for (const line of lines.slice(at + 1)) {
    const head = /^\s{2,6}((?:-\w, )?--[\w-]+)/.exec(line);
    if (head) {
      flush();
      current = { head: head[1], text: line };
    } else if (current) current.text += ' ' + line;
  }
  flush();
  return options;
}

/** `[--name a|b]`, `[--name]`, `[--name VALUE]...`: the placeholder is the long name in capitals. */
function optionSynopsis(o: HelpOption): string {
  const long = o.names.find((n) => n.startsWith('--'))!;
  const short = o.names.find((n) => !n.startsWith('--'));
  const flag = short ? `${short}|${long}` : long;
  if (o.kind === 'boolean') return o.negated ? `[--no-${long.slice(2)}]` : `[${flag}]`;
  const value = o.choices ? o.choices.join('|') : long.slice(2).toUpperCase().replace(/-/g, '_');
  return `[${flag} ${value}]${o.kind === 'array' ? '...' : ''}`;
}

/** The synopsis of a command: its usage line, then every option, wrapped at 118 columns under the command. */
export function synopsis(command: string, help: string): string {
  const usage = help.split('\n')[0].replace(/ \[options\]$/, '');
  const indent = ' '.repeat(command.length + 1);
  const lines = [usage];
  for (const part of helpOptions(help).map(optionSynopsis)) {
    const last = lines[lines.length - 1];
    if (last.length + 1 + part.length > 118) lines.push(indent + part);
    else lines[lines.length - 1] = `${last} ${part}`;
  }
  return lines.join('\n');
}

const REGION = /(<!-- synopsis: ([\w -]+?) -->\n)[\s\S]*?(<!-- \/synopsis -->)/g;

/** The text with every synopsis region filled from `synopsisOf`. */
export function fillSynopses(text: string, synopsisOf: (command: string) => string): string {
  return text.replace(REGION, (_all, open: string, command: string, close: string) => `${open}\n\`\`\`text\n${synopsisOf(command)}\n\`\`\`\n\n${close}`);
}

/** The files that hold synopsis regions. */
export const FILES = ['README.md', path.join('docs', 'cli.md')];

if (require.main === module) {
  const cache = new Map<string, string>();
  const synopsisOf = (command: string) => {
    if (!cache.has(command)) cache.set(command, synopsis(command, helpText(command)));
    return cache.get(command)!;
  };
  for (const file of FILES) {
    const full = path.join(ROOT, file);
    fs.writeFileSync(full, fillSynopses(fs.readFileSync(full, 'utf8'), synopsisOf));
  }
}
