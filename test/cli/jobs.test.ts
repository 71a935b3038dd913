/**
 * bin/pto-vm run --jobs J: the blocks of a launch that never wait run on J threads, and the tool prints exactly what
 * it prints with --jobs 1 (stdout, stderr, exit code, --out files). PTO_JOBS_SPAWN_AFTER_MS=-1 hands every core to
 * the worker threads, so that they run even the small programs; PTO_JOBS_TRACE=1 tells how the run went. These spawn
 * the built CLI: `npm test` builds dist/ first.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ToolRun } from '../fixtures/cli';

const ROOT = path.join(__dirname, '..', '..');
const program = (name: string) => path.join('programs', `${name}.pto`);
const fixture = (name: string) => path.join('test', 'fixtures', 'parallel', `${name}.pto`);

function ptoVm(args: string[], env: Record<string, string> = {}): ToolRun {
  const r = spawnSync(process.execPath, [path.join(ROOT, 'bin', 'pto-vm'), ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, PTO_DEBUG: '', PTO_JOBS_TRACE: '', PTO_JOBS_SPAWN_AFTER_MS: '', PTO_JOBS_TEST_CRASH: '', ...env },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Worker threads run every core. */
const ON_WORKERS = { PTO_JOBS_SPAWN_AFTER_MS: '-1' };

let tmp: string;
beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'pto-vm-jobs-'));
});
afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('the same output as --jobs 1', () => {
  it.each([
    [program('softmax-blocks'), ['--blocks', '16', '--target', 'a5', '--json']],
    [program('softmax-blocks'), ['--blocks', '8', '--target', 'a5', '--numerics', 'cpu-sim']],
    [program('vadd-blocks'), ['--blocks', '4', '--json']],
    [program('vadd-blocks'), ['--blocks', '2', '--ranks', '2', '--json']],
    [program('vadd-blocks'), ['--blocks', '5']],
    [fixture('trap-middle'), ['--blocks', '4']],
    [fixture('chain'), ['--blocks', '4', '--json']],
    [fixture('overlap'), ['--blocks', '5', '--strict-sync']],
    [program('cube-vector-handoff'), ['--blocks', '2', '--target', 'a5', '--json']],
    [program('copy'), ['--blocks', '2', '--check-lowering']],
  ])('%s %s', (file, args) => {
    const one = ptoVm(['run', file, ...args, '--jobs', '1']);
    expect(ptoVm(['run', file, ...args, '--jobs', '3'], ON_WORKERS)).toEqual(one);
    expect(ptoVm(['run', file, ...args])).toEqual(one);
  });

  it('--out files: byte for byte', () => {
    const out = (jobs: string) => path.join(tmp, `y${jobs}.npy`);
    for (const jobs of ['1', '2']) {
      const r = ptoVm(['run', program('softmax-blocks'), '--target', 'a5', '--blocks', '16', '--jobs', jobs, '--out', `y=${out(jobs)}`], ON_WORKERS);
      expect(r.status).toBe(0);
    }
    expect(fs.readFileSync(out('2')).equals(fs.readFileSync(out('1')))).toBe(true);
  });

  it('--max-steps counts each core: one step short traps in block 0, as one after another', () => {
    const args = ['run', program('vadd-blocks'), '--blocks', '4', '--max-steps'];
    const steps = Number(/(\d+) ops executed/.exec(ptoVm([...args, '1000', '--jobs', '1']).stdout)![1]) / 4;
    for (const n of [steps, steps - 1]) {
      const one = ptoVm([...args, String(n), '--jobs', '1']);
      expect(ptoVm([...args, String(n), '--jobs', '3'], ON_WORKERS)).toEqual(one);
      expect(one.status).toBe(n === steps ? 0 : 1);
    }
  });
});

describe('how the run went (PTO_JOBS_TRACE=1)', () => {
  const trace = (file: string, ...args: string[]) => ptoVm(['run', file, ...args], { ...ON_WORKERS, PTO_JOBS_TRACE: '1' }).stderr;

  it('blocks on disjoint rows: the worker threads ran them all, the result kept', () => {
    expect(trace(program('softmax-blocks'), '--target', 'a5', '--blocks', '16', '--jobs', '3')).toMatch(
      /trace: --jobs: 16 cores on 3 threads \(0 on the main thread, \d+ on worker 1 .*\d+ on worker 2 .*\): the parallel result is kept/,
    );
  });

  it('a block that reads what another wrote: run again one after another', () => {
    expect(trace(fixture('chain'), '--blocks', '4')).toMatch(/both touch element \d+ of %c, one of them writing it: the cores ran one after another/);
  });

  it('a mixed kernel whose cores wait for each other: the scheduler', () => {
    expect(trace(program('cube-vector-handoff'), '--target', 'a5', '--blocks', '2')).toMatch(
      /--jobs: a core can wait for another \(the scheduler runs them\): the cores ran one after another/,
    );
  });

  it('a lowered AscendC program is lowered on the worker threads too', () => {
    expect(trace(program('copy'), '--blocks', '2')).toMatch(/block 0 and block 1 both touch element 0 of %out/);
  });

  it('one block, or --jobs 1: no threads, nothing to tell', () => {
    expect(trace(program('vadd-blocks'))).not.toMatch(/trace/);
    expect(trace(program('vadd-blocks'), '--blocks', '4', '--jobs', '1')).not.toMatch(/trace/);
  });
});

describe('threads started ahead of the launch, while a large input is generated', () => {
  // 8M elements, AHEAD_MIN_ELEMENTS (src/vm/parallel/threads.ts): more than the launch reads, which it may be.
  const large = ['--arg', `a=random:${8 << 20}`];
  const ahead = /trace: --jobs: 1 worker thread started ahead of the launch, while an input of 8388608 elements is generated\n/;
  const withoutTrace = (r: ToolRun) => ({ ...r, stderr: r.stderr.replace(/^.*: trace: .*\n/gm, '') });

  it('take the launch at once, with the output of --jobs 1', () => {
    const args = ['run', program('vadd-blocks'), '--blocks', '4', ...large];
    const one = ptoVm([...args, '--jobs', '1']);
    expect(one.status).toBe(0);
    const two = ptoVm([...args, '--jobs', '2'], { PTO_JOBS_TRACE: '1' });
    expect(two.stderr).toMatch(ahead);
    // The launch is short: the thread ran cores, or was stopped before it was ready, as it happened.
    expect(two.stderr).toMatch(
      /\d+ on worker 1 \((ready after \d+ ms|stopped: not ready when no core was left)\)\); the threads started \d+ ms before the launch: the parallel result is kept/,
    );
    expect(withoutTrace(two)).toEqual(one);
  });

  it('a smaller input starts none', () => {
    const r = ptoVm(['run', program('vadd-blocks'), '--blocks', '4', '--arg', `a=random:${(8 << 20) - 1}`, '--jobs', '2'], { PTO_JOBS_TRACE: '1' });
    expect(r.status).toBe(0);
    expect(r.stderr).toMatch(/--jobs: 4 cores on|--jobs: .*one after another/);
    expect(r.stderr).not.toMatch(/started ahead/);
  });

  it('a launch whose parallel result is discarded runs again one after another, as with --jobs 1', () => {
    const args = ['run', fixture('chain'), '--blocks', '4', ...large];
    const one = ptoVm([...args, '--jobs', '1']);
    const two = ptoVm([...args, '--jobs', '2'], { PTO_JOBS_TRACE: '1' });
    expect(two.stderr).toMatch(ahead);
    expect(two.stderr).toMatch(/one of them writing it: the cores ran one after another/);
    expect(withoutTrace(two)).toEqual(one);
  });

  it('are stopped when an argument after the large one cannot be bound: exit 2, no wait', () => {
    // A number for a pointer is found when %b is bound (a missing file is found before the program is read).
    const r = ptoVm(['run', program('vadd-blocks'), '--blocks', '4', ...large, '--arg', 'b=5', '--jobs', '2'], { PTO_JOBS_TRACE: '1' });
    expect(r.stderr).toMatch(ahead);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/--arg b=5: %b is a pointer/);
  });

  it('start for no launch that cannot run apart (a mixed kernel whose cores wait)', () => {
    const args = ['run', program('cube-vector-handoff'), '--target', 'a5', '--blocks', '2', '--arg', `a=random:${8 << 20}`, '--jobs', '2'];
    const r = ptoVm(args, { PTO_JOBS_TRACE: '1' });
    expect(r.stderr).toMatch(/a core can wait for another/);
    expect(r.stderr).not.toMatch(/started ahead/);
  });
});

it('a worker thread that stops without a word: an error naming it, exit 1, no stack trace', () => {
  const r = ptoVm(['run', program('vadd-blocks'), '--blocks', '4', '--jobs', '2'], { ...ON_WORKERS, PTO_JOBS_TEST_CRASH: '1' });
  expect(r.status).toBe(1);
  expect(r.stdout).toBe('');
  expect(r.stderr).toBe(
    'programs/vadd-blocks.pto: error: --jobs 2: worker thread 1 stopped (exit code 70); the run has no result (--jobs 1 runs without worker threads)\n',
  );
});

it('--jobs takes an integer from 1 to 1024', () => {
  for (const bad of ['0', '1.5', '2000']) {
    const r = ptoVm(['run', program('vadd-blocks'), '--jobs', bad]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`^error: --jobs must be an integer from 1 to 1024, got ${bad}`));
  }
});
