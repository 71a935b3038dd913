/**
 * Every shell command the README and docs/ show (```sh blocks) runs as written from the project's root, with bin/
 * on PATH, and exits 0. The commands of a block run in order in one shell, as a reader pastes them. A command that
 * needs what this machine may not have is skipped, saying so: $PTO_UPSTREAM_DIR or $PTO_CORPUS_DIR unset, python3
 * without numpy. A few commands are runs of minutes that CI makes anyway or that exist to run long (LONG below);
 * each is listed with its reason, and the list fails when it names a command the docs no longer show.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { ROOT } from '../fixtures/cli';

/** Commands not run here, each with why. */
const LONG: Record<string, string> = {
  'npm install && bin/pto-vm run programs/tcolmin.pto --target a5   # install, then run a column-minimum kernel':
    'CI runs it: .ci/run installs (npm ci) on a fresh clone; the run itself is in the quick start below',
  'npm test                                                         # build and run the test suite (under 4 minutes on 2 idle CPUs)':
    'this is the test suite',
  'PTO_UPSTREAM_DIR=/path/to/an/export/of/PTOAS npx jest test/corpus/upstream': 'a test file of this suite, run with the export',
  'PTO_UPSTREAM_DIR=/path/to/PTOAS npx jest test/corpus/tilelang': 'a test file of this suite, run with the export',
  'PTO_CORPUS_DIR=/path/to/an/export/of/PTOAS npx jest test/corpus': 'test files of this suite, run with the legacy corpus',
  'PTO_CORPUS_DIR=/path/to/an/export/of/PTOAS npx jest test/corpus/references': 'a test file of this suite, run with the legacy corpus',
  'npm run fuzz -- --cases 10000 --seed 42                # builds, then runs both tools on 10000 cases': 'a fuzzing campaign: minutes',
  'npm run fuzz -- --cases 2000 --tool pto-vm --jobs 2 --out /tmp/findings': 'a fuzzing campaign: minutes',
  'PTO_UPSTREAM_DIR=/path/to/PTOAS npm run fuzz -- --cases 100000 --seed 7': 'a fuzzing campaign: an hour',
  'node scripts/fuzz.js --cases 500 --seed 42             # without rebuilding (after npm run build)': 'a fuzzing campaign (test/tools/fuzz covers the fuzzer)',
};

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

test('the docs show shell commands, and every command LONG names is still shown', () => {
  const shown = new Set(blocks.flatMap((b) => b.commands));
  expect(blocks.length).toBeGreaterThan(5);
  expect(Object.keys(LONG).filter((c) => !shown.has(c))).toEqual([]);
});

const runnable = blocks.filter((b) => b.commands.some((c) => !(c in LONG)));
test.each(runnable.map((b) => [`${b.file}:${b.line}`, b] as const))('%s runs as written', (_where, block) => {
  const env = { ...process.env, PATH: `${path.join(ROOT, 'bin')}${path.delimiter}${process.env.PATH}`, NO_COLOR: '1' };
  for (const command of block.commands) {
    if (command in LONG) continue;
    const why = missing(command);
    if (why) {
      console.log(`skipped (${why}): ${command}`);
      return; // the block's later commands may need this one's output
    }
    const r = spawnSync('bash', ['-c', command], { cwd: ROOT, env, encoding: 'utf8', maxBuffer: 64 << 20 });
    expect({ command, status: r.status, stderr: r.status === 0 ? '' : r.stderr }).toEqual({ command, status: 0, stderr: '' });
  }
});
