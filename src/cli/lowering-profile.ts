/**
 * `pto-vm check-lowering --profile`: each expanded tile op's cycles at both levels, side by side. The tile level is
 * costed from pto-isa's A5 curves, the expansion (the template instance that replaced the op) from VfSim's tables
 * for its vector functions and the DMA curves for its copies (docs/performance.md). Ops are compared one by one and
 * summed, not as whole runs: the expansion carries no flags (PTOAS inserts them), so how its pipes overlap is not
 * the tile level's to compare with.
 */
import type { Assembled } from '../verify/assemble';
import type { Expanded } from '../expand/expand';
import type { TimingObserver } from '../timing/observer';
import type { Slice } from '../timing/pipeline';

/** One level's cost of one execution of an op: cycles per pipe, or the reason there is none. */
export interface LevelCost {
  pipes: Record<string, number>;
  noData?: string;
}

export interface OpComparison {
  op: string;
  line: number;
  /** How many times the op ran. */
  runs: number;
  tileLevel: LevelCost;
  expanded: LevelCost;
}

const cycles = (c: LevelCost): number => Object.values(c.pipes).reduce((a, b) => a + b, 0);

/** Per pipe, the cycles of `slices` divided by `runs`; no data if any slice had none. */
function perRun(slices: readonly Slice[], runs: number): LevelCost {
  const pipes: Record<string, number> = {};
  let noData: string | undefined;
  for (const s of slices) {
    const cost = String(s.args.cost ?? '');
    if (cost.startsWith('no data')) noData ??= cost.replace(/^no data: /, '');
    else pipes[s.pipe] = (pipes[s.pipe] ?? 0) + (s.end - s.start);
  }
  for (const p of Object.keys(pipes)) pipes[p] = Math.round(pipes[p] / runs);
  return noData ? { pipes, noData } : { pipes };
}

const slicesOf = (o: TimingObserver): Slice[] => o.pipelines().flatMap((p) => p.slices);

/** Each expanded op's cost per run at both levels, from two recording observers of check-lowering's two runs. */
export function compareOps(
  tile: Assembled,
  tileRun: TimingObserver,
  after: Assembled,
  afterRun: TimingObserver,
  expanded: readonly Expanded[],
): OpComparison[] {
  const lineOf = (at: number): number => tile.source.position(at).line;
  const tileSlices = new Map<number, Slice[]>();
  const add = <K>(into: Map<K, Slice[]>, key: K, s: Slice) => {
    const list = into.get(key);
    if (list) list.push(s);
    else into.set(key, [s]);
  };
  for (const s of slicesOf(tileRun)) if (s.at !== undefined) add(tileSlices, lineOf(s.at), s);
  // The expansion's slices by the instance function they ran in.
  const instances = [...after.program.functions.values()].filter((f) => expanded.some((e) => e.instance === f.symbol));
  const instanceOf = (at: number) => instances.find((f) => f.span.start <= at && at < f.span.end)?.symbol;
  const bodySlices = new Map<string, Slice[]>();
  for (const s of slicesOf(afterRun)) {
    const instance = s.at === undefined ? undefined : instanceOf(s.at);
    if (instance) add(bodySlices, instance, s);
  }
  // An instance serves every op of its signature: its runs are the runs of all of them.
  const runsOf = (line: number): number => tileSlices.get(line)?.length ?? 0;
  const instanceRuns = new Map<string, number>();
  for (const e of expanded) instanceRuns.set(e.instance, (instanceRuns.get(e.instance) ?? 0) + runsOf(e.line));
  return expanded
    .filter((e) => runsOf(e.line) > 0)
    .map((e) => ({
      op: e.op,
      line: e.line,
      runs: runsOf(e.line),
      tileLevel: perRun(tileSlices.get(e.line)!, runsOf(e.line)),
      expanded: perRun(bodySlices.get(e.instance) ?? [], instanceRuns.get(e.instance)!),
    }))
    .sort((a, b) => a.line - b.line);
}

const levelText = (c: LevelCost): string => {
  if (c.noData !== undefined) return `no data (${c.noData})`;
  const pipes = Object.entries(c.pipes).map(([p, n]) => `${p.replace(/^PIPE_/, '')} ${n}`);
  return pipes.length > 1 ? `${cycles(c)} (${pipes.join(', ')})` : pipes.length === 1 ? pipes[0] : '0';
};

/** The report's lines (without the file prefix): the sums of what both levels cost, then one line per op. */
export function comparisonLines(fn: string, ops: readonly OpComparison[]): { line?: number; text: string }[] {
  const sum = (level: 'tileLevel' | 'expanded'): string => {
    const missing = ops.filter((o) => o[level].noData !== undefined).length;
    const total = ops.reduce((a, o) => a + cycles(o[level]) * o.runs, 0);
    return `${total} cycles${missing > 0 ? ` (a lower bound: ${missing} op${missing > 1 ? 's' : ''} without data)` : ''}`;
  };
  return [
    { text: `@${fn}: profile: the expanded ops' cycles summed: tile level ${sum('tileLevel')}, expanded ${sum('expanded')}` },
    ...ops.map((o) => ({
      line: o.line,
      text: `@${fn}: profile: ${o.op}${o.runs > 1 ? ` (x${o.runs})` : ''}: tile level ${levelText(o.tileLevel)}, expanded ${levelText(o.expanded)}`,
    })),
  ];
}
