/**
 * pto-vm run --jobs: the cores of a launch that never wait, run on several threads (or alone on this one), give what
 * runRanks gives running them one after another: the result, every global byte and `written` mark, the trap. The
 * worker threads run dist/ (`npm test` builds it first); without it the main thread runs every core.
 */
import * as fs from 'fs';
import * as path from 'path';
import { assemble } from '../../../src/verify/assemble';
import { formatAll } from '../../../src/diag/diagnostic';
import { LocatedError } from '../../../src/diag/located-error';
import { Span } from '../../../src/diag/source';
import { bindRanks } from '../../../src/cli/ranks';
import { RunOptions, RunResult, planLaunch, runRanks } from '../../../src/vm/interpreter';
import { JobsOptions, executionOrder, outcomeOf, runRanksWithJobs } from '../../../src/vm/parallel/run';
import { CoreReport, CoreRunner } from '../../../src/vm/parallel/core-run';
import { rebuildArguments, shareArguments } from '../../../src/vm/parallel/shared-memory';
import { BoundArguments } from '../../../src/vm/io/arguments';
import { BufferMemory } from '../../../src/machine/memory';

const ROOT = path.join(__dirname, '..', '..', '..');
const program = (name: string) => path.join(ROOT, 'programs', `${name}.pto`);
const fixture = (name: string) => path.join(ROOT, 'test', 'fixtures', 'parallel', `${name}.pto`);

interface Launch {
  file: string;
  blocks: number;
  ranks?: number;
  subblocks?: number;
  options?: Partial<RunOptions>;
}

/** What a run leaves: its result or its trap, and every buffer's bytes and written marks. */
interface Ending {
  result?: RunResult;
  trap?: { message: string; code: string; span: unknown; notes: unknown };
  memory: { name: string; bytes: Buffer; written: Buffer }[];
}

function prepare(launch: Launch) {
  const text = fs.readFileSync(launch.file, 'utf8');
  const asm = assemble(launch.file, text, { target: 'a5' });
  if (asm.diags.hasErrors()) throw new Error(formatAll(asm.diags));
  const fn = [...asm.program.functions.values()].find((f) => f.regions.length > 0)!;
  const bind = (memory: BufferMemory = 'own'): BoundArguments[] =>
    bindRanks(
      asm.types,
      fn,
      Array.from({ length: launch.ranks ?? 1 }, () => new Map()),
      (s) => asm.program.functions.get(s),
      undefined,
      memory,
    );
  const options: RunOptions = { numerics: 'npu', maxSteps: 1e8, ...launch.options };
  const shape = { blocks: launch.blocks, subblocks: launch.subblocks };
  return { text, asm, fn, bind, options, shape };
}

function memoryOf(ranks: BoundArguments[]): Ending['memory'] {
  return ranks.flatMap((r) => r.buffers.map((b) => ({ name: b.name, bytes: Buffer.from(b.bytes), written: Buffer.from(b.written) })));
}

async function ending(run: () => RunResult | Promise<RunResult>, ranks: BoundArguments[]): Promise<Ending> {
  try {
    return { result: await run(), memory: memoryOf(ranks) };
  } catch (e) {
    if (!(e instanceof LocatedError)) throw e;
    // Positions alone: a span may be an AST node that is its own span, and a thread reports its position only.
    const at = (s: Span) => ({ start: s.start, end: s.end });
    const notes = e.notes?.map((n) => ({ message: n.message, span: at(n.span) }));
    return { trap: { message: e.message, code: e.kind.code, span: at(e.span), notes }, memory: memoryOf(ranks) };
  }
}

/**
 * The launch run one core after another, and with `jobs` over arguments bound in `memory`: both endings, and the
 * trace of the second.
 */
async function both(launch: Launch, jobs: Partial<JobsOptions> = {}, memory: BufferMemory = 'own') {
  const { text, asm, fn, bind, options, shape } = prepare(launch);
  const a = bind();
  const sequential = await ending(
    () =>
      runRanks(
        asm.program,
        asm.types,
        fn,
        a.map((r) => r.values),
        options,
        shape,
      ),
    a,
  );
  const b = bind(memory);
  const trace: string[] = [];
  const parallel = await ending(
    () =>
      runRanksWithJobs(
        asm.program,
        asm.types,
        fn,
        b.map((r) => r.values),
        options,
        shape,
        {
          jobs: 3,
          source: { path: launch.file, text, target: 'a5', lower: false },
          threadScript: path.join(ROOT, 'dist', 'cli', 'jobs-thread.js'),
          trace: (line) => trace.push(line),
          ...jobs,
        },
      ),
    b,
  );
  return { sequential, parallel, trace: trace.join('\n') };
}

/**
 * Each way to share the cores: this thread alone, and worker threads alone (when dist/ is built); over buffers copied
 * into shared memory (a library's caller), and over buffers bound in it, in place (pto-vm run --jobs).
 */
const WAYS: [string, Partial<JobsOptions>, BufferMemory][] = [
  ['on the main thread, over buffers copied into shared memory', { spawnAfterMs: Infinity }, 'own'],
  ['on worker threads, over buffers copied into shared memory', { spawnAfterMs: -1 }, 'own'],
  ['on the main thread, over buffers bound in shared memory', { spawnAfterMs: Infinity }, 'shared'],
  ['on worker threads, over buffers bound in shared memory', { spawnAfterMs: -1 }, 'shared'],
];

describe.each(WAYS)('--jobs 3, %s', (_, jobs, memory) => {
  // (programs/softmax-blocks.pto, larger, runs from the command line: test/cli/jobs.test.ts.)
  it.each([2, 4])('programs/vadd-blocks.pto on %d blocks: the same result and memory, the parallel result kept', async (blocks) => {
    const { sequential, parallel, trace } = await both({ file: program('vadd-blocks'), blocks }, jobs, memory);
    expect(parallel).toEqual(sequential);
    expect(sequential.result!.steps).toBeGreaterThan(0);
    expect(trace).toMatch(/the parallel result is kept/);
  });

  it('ranks that never talk run in parallel too (2 ranks x 4 blocks)', async () => {
    const { sequential, parallel, trace } = await both({ file: program('vadd-blocks'), blocks: 4, ranks: 2 }, jobs, memory);
    expect(parallel).toEqual(sequential);
    expect(trace).toMatch(/8 cores on .*kept/);
  });

  it('a block that reads what the block before it wrote: the parallel run is discarded, the sequential result stands', async () => {
    const { sequential, parallel, trace } = await both({ file: fixture('chain'), blocks: 4 }, jobs, memory);
    expect(parallel).toEqual(sequential);
    expect(trace).toMatch(/block \d and block \d both touch element \d+ of %c, one of them writing it: the cores ran one after another/);
    // The race checker of the sequential run reports the blocks' unordered accesses.
    expect(sequential.result!.sync.map((f) => f.kind?.code)).toContain('W0703');
  });

  it('blocks that add into their rows in place and read their neighbours: the rerun starts from the initial memory', async () => {
    const { sequential, parallel, trace } = await both({ file: fixture('accumulate'), blocks: 4 }, jobs, memory);
    expect(parallel).toEqual(sequential);
    expect(trace).toMatch(/both touch element .*: the cores ran one after another/);
  });

  it('blocks whose stores overlap: the later block wins, as one after another', async () => {
    const { sequential, parallel, trace } = await both({ file: fixture('overlap'), blocks: 5 }, jobs, memory);
    expect(parallel).toEqual(sequential);
    expect(trace).toMatch(/both touch element/);
  });

  it('a trap in block 2 of 4 is reported as one after another would, and nothing of block 3 stays', async () => {
    // Worker threads may run block 3 while block 2 runs: whether they did, the memory is that of blocks 0 to 2.
    for (let i = 0; i < 3; i++) {
      const { sequential, parallel } = await both({ file: fixture('trap-middle'), blocks: 4 }, jobs, memory);
      expect(sequential.trap!.message).toMatch(/^block 2: pto\.tload: a: element 4096 is out of bounds/);
      expect(parallel).toEqual(sequential);
    }
  });

  it('--max-steps bounds each core: the exact count runs, one less traps in block 0', async () => {
    const { sequential } = await both({ file: program('vadd-blocks'), blocks: 4 });
    const perCore = sequential.result!.steps / 4;
    const enough = await both({ file: program('vadd-blocks'), blocks: 4, options: { maxSteps: perCore } }, jobs, memory);
    expect(enough.parallel).toEqual(enough.sequential);
    expect(enough.parallel.result).toBeDefined();
    const short = await both({ file: program('vadd-blocks'), blocks: 4, options: { maxSteps: perCore - 1 } }, jobs, memory);
    expect(short.parallel).toEqual(short.sequential);
    expect(short.parallel.trap!.message).toMatch(/^block 0: stopped after \d+ steps \(--max-steps\)/);
  });

  it('a seeded schedule runs the blocks in its drawn order: what they print comes in that order', async () => {
    for (const scheduleSeed of [1, 7]) {
      const { sequential, parallel } = await both({ file: fixture('trap-middle'), blocks: 2, options: { scheduleSeed } }, jobs, memory);
      expect(parallel).toEqual(sequential);
    }
    expect(executionOrder(4, undefined)).toEqual([0, 1, 2, 3]);
    expect([...executionOrder(6, 7)].sort()).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('a kernel whose cores wait for each other goes through the scheduler', async () => {
    const { sequential, parallel, trace } = await both({ file: program('cube-vector-handoff'), blocks: 2 }, jobs, memory);
    expect(parallel).toEqual(sequential);
    expect(trace).toMatch(/a core can wait for another \(the scheduler runs them\)/);
  });

  it.each([
    [program('vadd-blocks'), 4],
    [fixture('chain'), 4],
    [fixture('trap-middle'), 4],
  ])('without the synchronization checks (cores before any thread starts run unrecorded): %s on %d blocks', async (file, blocks) => {
    const { sequential, parallel } = await both({ file, blocks, options: { syncCheck: false } }, jobs, memory);
    expect(parallel).toEqual(sequential);
  });
});

it('--jobs 1 is runRanks itself: no trace, no threads', async () => {
  const { sequential, parallel, trace } = await both({ file: program('vadd-blocks'), blocks: 4 }, { jobs: 1 });
  expect(parallel).toEqual(sequential);
  expect(trace).toBe('');
});

it('a core that reaches state shared between cores (a cross-core flag it only sets) makes the launch run one after another', async () => {
  const { sequential, parallel, trace } = await both({ file: fixture('set-only'), blocks: 2 }, { spawnAfterMs: Infinity });
  expect(parallel).toEqual(sequential);
  expect(trace).toMatch(/block 0 reached state shared between cores: the cores ran one after another/);
});

describe('outcomeOf: cores that ran out of order on threads', () => {
  /** Runs the launch's cores alone over shared memory in `runOrder` (as threads might), then decides. */
  function outOfOrder(file: string, blocks: number, runOrder: number[], memory: BufferMemory = 'own') {
    const { asm, fn, bind, options, shape } = prepare({ file, blocks });
    const bound = bind(memory);
    const sharing = shareArguments(bound.map((r) => r.values))!;
    const mine = rebuildArguments(sharing.shared);
    const plan = planLaunch(asm.program, fn, mine.perRank, shape);
    const runner = new CoreRunner(asm.program, options, plan, mine.buffers);
    const reports: CoreReport[] = [];
    for (const core of runOrder) reports[core] = runner.run(core, core);
    const order = plan.cores.map((_, i) => i);
    return { outcome: outcomeOf(reports, order, plan.labels, mine.buffers, sharing.initial), memory: memoryOf(bound) };
  }

  it.each<BufferMemory>(['own', 'shared'])('block 3 ran before block 2 trapped: its stores are undone, the trap is block 2s (%s memory)', async (bound) => {
    const { sequential } = await both({ file: fixture('trap-middle'), blocks: 4 }, { jobs: 1 });
    const { outcome, memory } = outOfOrder(fixture('trap-middle'), 4, [0, 1, 3, 2], bound);
    expect(outcome.undone).toBe(1);
    expect('trap' in outcome && outcome.trap.message).toBe(sequential.trap!.message);
    expect(memory).toEqual(sequential.memory);
  });

  it('block 1 ran before block 0 of a chain: a conflict, whatever the order', () => {
    const { outcome } = outOfOrder(fixture('chain'), 3, [2, 1, 0]);
    expect('rerun' in outcome && outcome.rerun).toMatch(/^block [01] and block [12] both touch element \d+ of %c/);
  });

  it.each<BufferMemory>(['own', 'shared'])('blocks that touch disjoint rows, run backwards: the result of running them in order (%s memory)', async (bound) => {
    const { sequential } = await both({ file: program('vadd-blocks'), blocks: 4 }, { jobs: 1 });
    const { outcome, memory } = outOfOrder(program('vadd-blocks'), 4, [3, 2, 1, 0], bound);
    expect('result' in outcome && outcome.result).toEqual(sequential.result);
    expect(memory).toEqual(sequential.memory);
  });
});
