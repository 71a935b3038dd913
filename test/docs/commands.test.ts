/**
 * Every shell command the README and docs/ show (```sh blocks) runs as written from the project's root, with bin/
 * on PATH, and exits 0. The commands of a block run in order in one shell, as a reader pastes them. A command that
 * needs what this machine may not have is skipped, saying so: $PTO_UPSTREAM_DIR or $PTO_CORPUS_DIR unset, python3
 * without numpy. Some kinds of command are never run here (NOT_RUN, each with why).
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { ROOT } from '../fixtures/cli';

/**
 * The kinds of command not run here, each with why: the test suite itself (running it from a test would recurse),
 * installs (CI's .ci/run installs on a fresh clone), and fuzzing campaigns (minutes to hours). A kind no command
 * of the docs is of fails the check below, so the list cannot go stale.
 */
const NOT_RUN: [RegExp, string][] = [
  [/\bnpm (test|t)\b|\bnpx jest\b|\bjest\b/, 'runs this test suite or a part of it'],
  [/\bnpm (install|i|ci)\b/, 'installs: CI (.ci/run) installs on a fresh clone; the README first command runs again in the quick start'],
  [/\bnpm run fuzz\b|scripts\/fuzz\.js/, 'a fuzzing campaign, minutes to hours (test/tools/fuzz tests the fuzzer)'],
];
const notRun = (command: string) => NOT_RUN.find(([pattern]) => pattern.test(command))?.[1];

interface Block {
  file: string;
  line: number;
  commands: string[];
}

function shellBlocks(): Block[] {
  const files = ['README.md', ...fs.readdirSync(path.join(ROOT, 'docs')).map((f) => path.join('docs', f))].filter((f) => f.endsWith('.md'));
  const blocks: Block[] = [];
  for (const file of files) {
    const lines = fs.readFileSync(path.join(ROOT, file), 'utf8').split('\n');
    let current: Block | undefined;
    lines.forEach((text, i) => {
      if (current === undefined && /^```(sh|bash|shell)\s*$/.test(text)) current = { file, line: i + 1, commands: [] };
      else if (current !== undefined && text.startsWith('```')) {
        blocks.push(current);
        current = undefined;
      } else if (current !== undefined && text.trim() !== '') current.commands.push(text);
    });
  }
  return blocks;
}

const hasNumpy = () => spawnSync('python3', ['-c', 'import numpy'], { stdio: 'ignore' }).status === 0;

/** Why a command cannot run on this machine, or undefined. */
function missing(command: string): string | undefined {
  for (const name of ['PTO_UPSTREAM_DIR', 'PTO_CORPUS_DIR']) if (command.includes(`$${name}`) && !process.env[name]) return `${name} is not set`;
  if (/python3 .*numpy|validate/.test(command) && !hasNumpy()) return 'python3 with numpy is not installed';
  return undefined;
}

const blocks = shellBlocks();

test('the docs show shell commands, and every kind of command not run here is among them', () => {
  const shown = blocks.flatMap((b) => b.commands);
  expect(blocks.length).toBeGreaterThan(5);
  expect(NOT_RUN.filter(([pattern]) => !shown.some((c) => pattern.test(c))).map(([, why]) => why)).toEqual([]);
});

const runnable = blocks.filter((b) => b.commands.some((c) => !notRun(c)));
test.each(runnable.map((b) => [`${b.file}:${b.line}`, b] as const))('%s runs as written', (_where, block) => {
  const env = { ...process.env, PATH: `${path.join(ROOT, 'bin')}${path.delimiter}${process.env.PATH}`, NO_COLOR: '1' };
  for (const command of block.commands) {
    if (notRun(command)) continue;
    const why = missing(command);
    if (why) {
      console.log(`skipped (${why}): ${command}`);
      return; // the block's later commands may need this one's output
    }
    const r = spawnSync('bash', ['-c', command], { cwd: ROOT, env, encoding: 'utf8', maxBuffer: 64 << 20 });
    expect({ command, status: r.status, stderr: r.status === 0 ? '' : r.stderr }).toEqual({ command, status: 0, stderr: '' });
  }
});
