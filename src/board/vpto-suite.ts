/**
 * The whole VPTO golden suite (vpto.ts runs one case): its cases spread over the tile-op suite's pool of child
 * processes (tilelang-suite.ts runPool, with vpto-worker), and what its results are kept as: a summary per family
 * and vpto-exceptions.json, each case that does not pass grouped under why (its category), for the engineers
 * bringing up the micro-op level. A case waiting for an op the toolchain does not support yet is counted under
 * that op (the first one in its kernel file), so the counts move as the level lands.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { pythonCommand, pythonRunner } from './python-runner';
import { categoryOf as tileCategoryOf, runPool } from './tilelang-suite';
import { CaseOptions, CaseResult, VptoCase, casesDirectory, familyOf, listCases, runCaseReporting } from './vpto';

export interface SuiteOptions extends Omit<CaseOptions, 'runner' | 'scratch'> {
  /** Child processes (default: one per CPU); 1 runs in this process. */
  jobs?: number;
  /** Only these cases: ids or folders above them (micro-op/binary-vector runs that family). */
  only?: string[];
  /** Keep the cases' output folders (their data and outputs) in this directory. */
  keep?: string;
  /** Told as each case ends. */
  onCase?: (result: CaseResult) => void;
}

const selected = (c: VptoCase, only: string[] | undefined): boolean =>
  !only?.length || only.some((o) => c.id === o.replace(/\/+$/, '') || c.id.startsWith(`${o.replace(/\/+$/, '')}/`));

/** Runs the suite of a PTOAS export; the results in case order. */
export async function runSuite(exportRoot: string, options: SuiteOptions = {}): Promise<CaseResult[]> {
  const cases = casesDirectory(exportRoot);
  const chosen = listCases(cases).filter((c) => selected(c, options.only));
  const scratch = options.keep ?? fs.mkdtempSync(path.join(os.tmpdir(), 'vpto-suite-'));
  fs.mkdirSync(scratch, { recursive: true });
  const byId = new Map<string, CaseResult>();
  const done = (r: CaseResult) => {
    byId.set(r.id, r);
    options.onCase?.(r);
  };
  const { maxSteps, timeout } = options;
  try {
    const jobs = Math.max(1, Math.min(options.jobs ?? os.availableParallelism(), chosen.length));
    if (jobs === 1) {
      const runner = pythonRunner(pythonCommand());
      try {
        for (const c of chosen) done(await runCaseReporting(cases, c, { runner, scratch, maxSteps, timeout }));
      } finally {
        runner.close();
      }
    } else
      await runPool(
        cases,
        chosen.map((c) => c.id),
        jobs,
        scratch,
        { maxSteps, timeout },
        (_, results) => results.forEach(done),
        'vpto-worker',
      );
  } finally {
    if (!options.keep) fs.rmSync(scratch, { recursive: true, force: true });
  }
  return chosen.map((c) => byId.get(c.id) ?? { id: c.id, outcome: 'error' as const, reason: 'internal error: no result' });
}

/** Why a case does not pass, as a category: what would have to change for it to pass (most specific rule first). */
const CATEGORIES: [RegExp, (m: RegExpMatchArray) => string][] = [
  [/^PTODSL case (not|partly) taken/, () => 'skipped: PTODSL kernel traced by ptodsl from its Python body'],
  [/^onboard-only/, () => 'skipped: onboard-only'],
  [/needs the Python module ([\w.]+)/, (m) => `skipped: golden.py needs the Python module ${m[1]}`],
  [/^golden\.py failed/, () => 'golden.py fails'],
  [/^not supported yet: ([!\w.]+)/, (m) => `not supported yet: ${m[1]}`],
  [/^internal error/, () => 'internal error (a defect of this toolchain)'],
];

export function categoryOf(reason: string): string {
  for (const [pattern, name] of CATEGORIES) {
    const m = reason.match(pattern);
    if (m) return name(m);
  }
  // The rest reads as the tile-op suite's reasons do (verifier rules, VM traps, compare.py, the host harness).
  return tileCategoryOf(reason);
}

/** The exception list: each case that does not pass (skipped ones aside), by category, then by id, with its reason. */
export function exceptionsOf(results: CaseResult[]): Record<string, Record<string, string>> {
  const grouped: Record<string, Record<string, string>> = {};
  const failing = results.filter((r) => r.outcome !== 'pass' && r.outcome !== 'skip').sort((a, b) => a.id.localeCompare(b.id));
  for (const r of failing) (grouped[categoryOf(r.reason ?? '')] ??= {})[r.id] = r.reason ?? r.outcome;
  return Object.fromEntries(
    Object.keys(grouped)
      .sort()
      .map((c) => [c, grouped[c]]),
  );
}

export interface FamilyCounts {
  family: string;
  pass: number;
  fail: number;
  error: number;
  skip: number;
}

/** Counts per family (micro-op/<family>, vmi_new, kernels, onboard-only), micro-op families first, by name. */
export function familySummary(results: CaseResult[]): FamilyCounts[] {
  const byFamily = new Map<string, FamilyCounts>();
  for (const r of results) {
    const family = familyOf(r.id);
    const counts = byFamily.get(family) ?? { family, pass: 0, fail: 0, error: 0, skip: 0 };
    counts[r.outcome]++;
    byFamily.set(family, counts);
  }
  const order = (f: string) => (f.startsWith('micro-op/') ? 0 : 1);
  return [...byFamily.values()].sort((a, b) => order(a.family) - order(b.family) || a.family.localeCompare(b.family));
}
