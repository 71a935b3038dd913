/**
 * The synopses in README.md and docs/cli.md are what the tools' --help lists (src/tools/cli-doc.ts; regenerate with
 * npm run docs:cli), and the synopsis maker reads a help text as yargs writes it.
 */
import * as fs from 'fs';
import * as path from 'path';
import { COMMANDS, FILES, fillSynopses, helpText, synopsis } from '../../src/tools/cli-doc';
import { ROOT } from '../fixtures/cli';

test('a help text becomes a synopsis: choices, booleans (on by default: --no-), values, repeatable arrays, short names', () => {
  const help = [
    'tool run <file>',
    '',
    'run it',
    '',
    'Options:',
    '  -o, --output   where                                          [string]',
    '      --target   target chip              [choices: "a2a3", "a5"]',
    '      --arg      bind an argument, a long description that wraps onto a',
    '                 second line                    [array] [default: []]',
    '      --strict   stricter                    [boolean] [default: false]',
    '      --sync-check  check             [boolean] [default: true]',
    '      --max-steps   stop after                      [number] [default: 5]',
    '  -h, --help     Show help                                      [boolean]',
  ].join('\n');
  expect(synopsis('tool run', help).split('\n')).toEqual([
    'tool run <file> [-o|--output OUTPUT] [--target a2a3|a5] [--arg ARG]... [--strict] [--no-sync-check]',
    '         [--max-steps MAX_STEPS]',
  ]);
});

test('a long synopsis wraps under its command', () => {
  const options = Array.from({ length: 12 }, (_, i) => `  --option-number-${i}   x   [boolean]`);
  const lines = synopsis('tool', ['tool FILE [options]', '', 'Options:', ...options].join('\n')).split('\n');
  expect(lines.length).toBeGreaterThan(1);
  for (const line of lines) expect(line.length).toBeLessThanOrEqual(118);
  expect(lines.slice(1).every((l) => l.startsWith('     ['))).toBe(true);
});

test.each(FILES)('%s: every synopsis is what the tool lists (npm run docs:cli)', (file) => {
  const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
  const shown = [...text.matchAll(/<!-- synopsis: ([\w -]+?) -->/g)].map((m) => m[1]);
  expect(shown.length).toBeGreaterThan(0);
  for (const command of shown) expect(COMMANDS).toContain(command);
  expect(text).toBe(fillSynopses(text, (command) => synopsis(command, helpText(command))));
});
