/**
 * The whole tile-op suite (tilelang.ts runs one testcase): its testcases spread over a pool of child processes (the
 * VM runs a launch on one thread: a process per CPU keeps them all busy), the largest first; and what the
 * suite's results are kept as: tilelang-exceptions.json (each case that does not pass, with why) and categories of
 * why, for the engineers who fix the VM.
 */
import { ChildProcess, fork } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { pythonCommand, pythonRunner } from './python-runner';
import { CaseResult, TestcaseOptions, listTestcases, runTestcase, suiteDirectory } from './tilelang';

export interface SuiteOptions extends Omit<TestcaseOptions, 'runner' | 'scratch'> {
  /** Child processes (default: one per CPU); 1 runs in this process. */
  jobs?: number;
  /** Only these testcases (folder names). */
  only?: string[];
  /** Keep the testcases' folders (with their data and outputs) in this directory. */
  keep?: string;
  /** Told as each testcase ends. */
  onTestcase?: (testcase: string, results: CaseResult[]) => void;
}

/** Runs the suite of a PTOAS export; the results in testcase order. */
export async function runSuite(exportRoot: string, options: SuiteOptions = {}): Promise<CaseResult[]> {
  const suite = suiteDirectory(exportRoot);
  const testcases = listTestcases(suite).filter((t) => !options.only?.length || options.only.includes(t));
  const scratch = options.keep ?? fs.mkdtempSync(path.join(os.tmpdir(), 'tilelang-suite-'));
  fs.mkdirSync(scratch, { recursive: true });
  const byTestcase = new Map<string, CaseResult[]>();
  const done = (testcase: string, results: CaseResult[]) => {
    byTestcase.set(testcase, results);
    options.onTestcase?.(testcase, results);
  };
  const { maxSteps, timeout } = options;
  try {
    const jobs = Math.max(1, Math.min(options.jobs ?? os.availableParallelism(), testcases.length));
    if (jobs === 1) {
      const runner = pythonRunner(pythonCommand());
      try {
        for (const t of testcases) done(t, await runTestcase(suite, t, { runner, scratch, maxSteps, timeout }));
      } finally {
        runner.close();
      }
    } else await runPool(suite, largestFirst(suite, testcases), jobs, scratch, { maxSteps, timeout }, done);
  } finally {
    if (!options.keep) fs.rmSync(scratch, { recursive: true, force: true });
  }
  return testcases.flatMap((t) => byTestcase.get(t) ?? [{ id: t, outcome: 'error' as const, reason: 'internal error: no result' }]);
}

/** The testcases by the size of their kernel files, largest first: a long one started last would run alone. */
function largestFirst(suite: string, testcases: string[]): string[] {
  const size = (t: string) =>
    fs
      .readdirSync(path.join(suite, t))
      .filter((f) => f.endsWith('.pto'))
      .reduce((n, f) => n + fs.statSync(path.join(suite, t, f)).size, 0);
  const sizes = new Map(testcases.map((t) => [t, size(t)]));
  return [...testcases].sort((a, b) => sizes.get(b)! - sizes.get(a)!);
}

/**
 * Runs the queue's testcases in `jobs` child processes of `workerModule` (a module of this folder: tilelang-worker,
 * or vpto-worker for the VPTO suite, which speaks the same messages).
 */
export async function runPool(
  suite: string,
  queue: string[],
  jobs: number,
  scratch: string,
  options: Omit<TestcaseOptions, 'runner' | 'scratch'>,
  done: (testcase: string, results: CaseResult[]) => void,
  workerModule = 'tilelang-worker',
): Promise<void> {
  const worker = await workerScript(workerModule);
  try {
    let next = 0;
    const lane = (child: ChildProcess) =>
      new Promise<void>((resolve, reject) => {
        let current: string | undefined;
        const give = () => {
          current = queue[next++];
          if (current === undefined) {
            child.send({});
            resolve();
          } else child.send({ testcase: current });
        };
        child.on('message', (m: { testcase: string; results: CaseResult[] }) => {
          done(m.testcase, m.results);
          give();
        });
        child.on('exit', (code, signal) => {
          if (current !== undefined) reject(new Error(`the suite's worker process ended (${signal ?? `exit ${code}`}) while running ${current}`));
        });
        give();
      });
    const children = Array.from({ length: jobs }, () =>
      fork(worker.script, [suite, scratch, JSON.stringify(options)], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] }),
    );
    try {
      await Promise.all(children.map(lane));
    } finally {
      for (const c of children) if (c.exitCode === null && c.connected) c.disconnect();
    }
  } finally {
    worker.cleanup?.();
  }
}

/**
 * The worker's script: the compiled one beside this module; run from the TypeScript sources (ts-jest), a bundle of
 * them made now with esbuild (a development dependency), each module keeping its own __dirname (the spec tables and
 * the Python runner are found from it).
 */
async function workerScript(workerModule: string): Promise<{ script: string; cleanup?: () => void }> {
  const compiled = path.join(__dirname, `${workerModule}.js`);
  if (fs.existsSync(compiled)) return { script: compiled };
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- only when running from the sources
  const esbuild = require('esbuild') as typeof import('esbuild');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tilelang-worker-'));
  const script = path.join(dir, 'worker.js');
  await esbuild.build({
    entryPoints: [path.join(__dirname, `${workerModule}.ts`)],
    outfile: script,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    logLevel: 'warning',
    plugins: [
      {
        name: 'own-dirnames',
        setup(build) {
          build.onLoad({ filter: /\.ts$/ }, (args) => ({
            contents: fs.readFileSync(args.path, 'utf8').replace(/\b__dirname\b/g, JSON.stringify(path.dirname(args.path))),
            loader: 'ts',
          }));
        },
      },
    ],
  });
  return { script, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** Why a case does not pass, as a category: what would have to change for it to pass (most specific rule first). */
const CATEGORIES: [RegExp, (m: RegExpMatchArray) => string][] = [
  [/needs the Python module ([\w.]+)/, (m) => `skipped: gen_data.py needs the Python module ${m[1]}`],
  [/gen_data\.py failed/, () => 'gen_data.py fails'],
  [/(pto\.[\w.]+) is a VPTO micro-op/, (m) => `VPTO micro-op the VM does not have: ${m[1]}`],
  [/another kernel of the file does not verify/, () => 'blocked: another kernel of its file does not verify'],
  [/does not verify: .*error\[(E\d+)\]: (pto\.[\w.]+)/, (m) => `verifier rule: ${m[2]} (${m[1]})`],
  [/(pto\.[\w.]+) is not implemented in the VM/, (m) => `not implemented in the VM: ${m[1]}`],
  [/kernel trap: .*error\[E\d+\]: (pto\.[\w.]+): .*(not implemented yet)/, (m) => `not implemented in the VM: ${m[1]} (a variant)`],
  [/kernel trap: .*error\[E\d+\]: (pto\.[\w.]+): \w+: element \d+ is out of bounds/, (m) => `${m[1]} past the end of the host's buffer`],
  [/kernel trap: .*error\[E\d+\]: (pto\.[\w.]+)/, (m) => `kernel trap in ${m[1]}`],
  [/^compare\.py/, () => 'wrong values (compare.py fails)'],
  [/^host harness/, () => 'host harness'],
];

export function categoryOf(reason: string): string {
  for (const [pattern, name] of CATEGORIES) {
    const m = reason.match(pattern);
    if (m) return name(m);
  }
  return 'other';
}

/** The exception list's entries: each case that does not pass, with its category and first message. */
export function exceptionsOf(results: CaseResult[], category: (reason: string) => string = categoryOf): Record<string, string> {
  const failing = results.filter((r) => r.outcome !== 'pass' && r.outcome !== 'skip').sort((a, b) => a.id.localeCompare(b.id));
  return Object.fromEntries(failing.map((r) => [r.id, `${category(r.reason ?? '')} -- ${r.reason ?? r.outcome}`]));
}

/** A Markdown table of the categories: how many cases, and a few of them. */
export function categoriesTable(results: CaseResult[]): string {
  const byCategory = new Map<string, CaseResult[]>();
  for (const r of results.filter((x) => x.outcome !== 'pass')) {
    // Skipped cases count in the table too, under their reason.
    const c = categoryOf(r.reason ?? '');
    byCategory.set(c, [...(byCategory.get(c) ?? []), r]);
  }
  const rows = [...byCategory].sort((a, b) => b[1].length - a[1].length);
  const testcases = (rs: CaseResult[]) => [...new Set(rs.map((r) => r.id.split('/')[0]))];
  return [
    '| cases | category | testcases | examples |',
    '|---:|---|---|---|',
    ...rows.map(
      ([c, rs]) =>
        `| ${rs.length} | ${c} | ${testcases(rs).join(', ')} | ${rs
          .slice(0, 2)
          .map((r) => `\`${r.id}\``)
          .join(', ')} |`,
    ),
  ].join('\n');
}
