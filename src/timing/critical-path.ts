import type { Cause, CorePipeline, Slice } from './pipeline';

/** One line of the critical path: an op, or a run of the same ops repeated (a loop's body, `count` times). */
export interface PathStep {
  /** The ops of one repetition, in order (one op when an op repeats alone). */
  ops: Slice[];
  count: number;
  start: number;
  end: number;
  /** What the first op waited for (undefined: it starts at 0). */
  after?: Cause;
}

/** The longest body a repeat is looked for in (a loop of more ops than this is shown op by op). */
const MAX_PERIOD = 8;

/**
 * The chain of ops that set the run's time: from the op that ends last (on the slowest core), each op's `after`
 * back to one that nothing held, across pipes and cores. Empty when the pipelines did not link their ops (`chain`).
 */
export function criticalPath(cores: CorePipeline[]): Slice[] {
  let slowest: CorePipeline | undefined;
  for (const c of cores) if (!slowest || c.total() > slowest.total()) slowest = c;
  const chain: Slice[] = [];
  for (let s = slowest?.totalCause()?.from; s; s = s.after?.from) chain.push(s);
  return chain.reverse();
}

/** The same op in the source, on the same core and pipe: what a repeat compares. */
const same = (a: Slice, b: Slice): boolean => a.at === b.at && a.op === b.op && a.core === b.core && a.pipe === b.pipe;

/**
 * The path with repeats folded: at each point the period (1..MAX_PERIOD ops) that covers the most ops by repeating
 * back to back, when it repeats at least twice (an op alone) or three times (a body of several ops).
 */
export function foldRepeats(path: Slice[]): PathStep[] {
  const steps: PathStep[] = [];
  let i = 0;
  while (i < path.length) {
    let best = { period: 1, count: 1 };
    for (let p = 1; p <= MAX_PERIOD && i + 2 * p <= path.length; p++) {
      let n = 1;
      while (i + (n + 1) * p <= path.length && path.slice(i, i + p).every((s, j) => same(s, path[i + n * p + j]))) n++;
      if (n >= (p === 1 ? 2 : 3) && n * p > best.period * best.count) best = { period: p, count: n };
    }
    const covered = best.period * best.count;
    steps.push({ ops: path.slice(i, i + best.period), count: best.count, start: path[i].start, end: path[i + covered - 1].end, after: path[i].after });
    i += covered;
  }
  return steps;
}

const short = (pipe: string): string => pipe.replace(/^PIPE_/, '');

/**
 * The path as lines for --profile: `start..end`, the op(s) with their line and pipe, and why the first waited.
 * `lineOf` turns a source offset into a 1-based line.
 */
export function criticalPathText(path: Slice[], lineOf: (offset: number) => number): string[] {
  if (path.length === 0) return [];
  const cores = new Set(path.map((s) => s.core)).size > 1;
  const where = (s: Slice): string =>
    `${s.op ?? s.name}${s.at !== undefined ? ` (line ${lineOf(s.at)})` : ''} on ${cores ? `core ${s.core} ` : ''}${short(s.pipe)}`;
  const why = (c: Cause | undefined): string => {
    if (!c) return 'starts at 0';
    const line = c.at !== undefined ? `, line ${lineOf(c.at)}` : '';
    if (c.kind === 'pipe') return 'after the op before it on its pipe';
    if (c.kind === 'cross-core') return `waits for core ${c.from.core} (${c.label ?? 'a hand-off'}${line})`;
    if (c.kind === 'data') return `waits for ${c.from.op ?? c.from.name}: a tile shared by two pipes (PTOAS inserts the flag)`;
    return `waits for ${c.label ?? c.kind}${line}`;
  };
  const steps = foldRepeats(path);
  const lines = [
    `critical path: ${path.length} op${path.length === 1 ? '' : 's'}, 0..${path[path.length - 1].end} cycles${steps.length < path.length ? ' (repeats folded)' : ''}`,
  ];
  for (const s of steps) {
    const what = s.count === 1 ? where(s.ops[0]) : s.ops.length === 1 ? `${where(s.ops[0])} x ${s.count}` : `(${s.ops.map(where).join('; ')}) x ${s.count}`;
    lines.push(`  ${s.start}..${s.end} ${what}: ${why(s.after)}`);
  }
  return lines;
}
