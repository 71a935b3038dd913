/**
 * pto-vm validate PATH... [--target] [--keep DIR] [--json]: PTOAS's board validation of sample cases with the VM
 * as the board (src/board). One line per case, a summary line; exit 0 iff no case failed or could not run.
 */
import * as fs from 'fs';
import * as path from 'path';
import { TargetName } from '../spec/schema';
import { BoardCase, findCases } from '../board/cases';
import { CaseResult, Phases, validateCases } from '../board/validate';
import { shimDirectory } from '../board/python-kernel';
import { pythonCommand, resolvePython } from '../board/python-runner';
import { Argv } from 'yargs';
import { UsageError } from './common';

export interface ValidateRequest {
  paths: string[];
  target?: TargetName;
  keep?: string;
  json: boolean;
  /** Cases under way at once (each with its own Python). */
  jobs?: number;
  /** Where the progress line goes (a terminal's standard error); none when undefined. */
  progress?: (text: string) => void;
}

export async function validate(req: ValidateRequest, write: (text: string) => void = (t) => process.stdout.write(t)): Promise<number> {
  const started = Date.now();
  const cases: BoardCase[] = [];
  for (const p of req.paths) {
    if (!fs.existsSync(p)) throw new UsageError(`${p}: no such file or folder`);
    try {
      cases.push(...findCases(p));
    } catch (e) {
      throw new UsageError((e as Error).message);
    }
  }
  if (cases.length === 0) throw new UsageError(`no golden cases (<case>_golden.py) under ${req.paths.join(', ')}`);
  // One check up front: every case needs python3 with numpy.
  const python = resolvePython(pythonCommand());
  if ('error' in python) throw new UsageError(`${python.error}: the golden and compare scripts need python3 with numpy`);
  if (!python.numpy) throw new UsageError(`${python.executable} cannot import numpy, which the golden and compare scripts need (pip install numpy)`);
  const jobs = Math.max(1, Math.min(req.jobs ?? 1, cases.length));
  const done: (CaseResult | undefined)[] = new Array(cases.length);
  let finished = 0;
  let printed = 0;
  // A terminal's progress line: the cases done, and the last one started.
  let latest: BoardCase | undefined;
  const progress = () => req.progress?.(`\r\x1b[K${latest ? `[${finished}/${cases.length}] ${path.basename(latest.sampleDir)}/${latest.testcase}` : ''}`);
  const results = await validateCases(cases, {
    target: req.target,
    keep: req.keep,
    pythonShim: pythonShim(),
    python: python.executable,
    jobs,
    onStart: (c) => {
      latest = c;
      progress();
    },
    onResult: (r, i) => {
      done[i] = r;
      finished++;
      progress();
      // Lines come out in the cases' order, whatever order they end in (the progress line cleared first).
      req.progress?.('\r\x1b[K');
      for (; printed < cases.length && done[printed]; printed++) if (!req.json) write(reportLine(done[printed]!) + '\n');
      progress();
    },
  });
  req.progress?.('\r\x1b[K');
  const counts = countOutcomes(results);
  const seconds = (Date.now() - started) / 1000;
  const phases = totalPhases(results);
  if (req.json) write(JSON.stringify({ cases: results.map(jsonOf), counts, seconds, phases, jobs }) + '\n');
  else write(summaryLine(counts, seconds) + '\n' + phasesLine(phases, jobs) + '\n');
  return counts.fail + counts.error + counts.determinismFail + counts.determinismError > 0 ? 1 : 0;
}

function totalPhases(results: CaseResult[]): Phases {
  const total: Phases = { python: 0, assemble: 0, vm: 0 };
  for (const r of results) for (const k of Object.keys(total) as (keyof Phases)[]) total[k] += r.phases?.[k] ?? 0;
  return total;
}

/** Where the time went, summed over the cases (cases run side by side, so the sum can pass the elapsed time). */
function phasesLine(p: Phases, jobs: number): string {
  return `time in cases: python ${p.python.toFixed(1)}s, assembling and deriving ${p.assemble.toFixed(1)}s, VM ${p.vm.toFixed(1)}s (${jobs} at a time)`;
}

/** The stand-in for PTOAS's Python bindings: $PTOAS_PY_SHIM, else the package's python/ptoas_shim when it has one. */
function pythonShim(): string | undefined {
  const own = shimDirectory();
  return process.env.PTOAS_PY_SHIM ?? (fs.existsSync(own) ? own : undefined);
}

function caseName(r: CaseResult): string {
  return `${r.case.testcase} (${path.basename(r.case.sampleDir)})`;
}

export function reportLine(r: CaseResult): string {
  const line = verdictLine(r);
  return r.boardSkips ? `${line} [the board runner skips this case: ${r.boardSkips}]` : line;
}

function verdictLine(r: CaseResult): string {
  // A determinism-only case's problems are marked as such: they are counted apart from the golden checks.
  const tag = r.checks === 'determinism' ? ' [determinism-only]' : '';
  switch (r.outcome) {
    case 'pass':
      return `PASS ${caseName(r)}`;
    case 'determinism-only':
      return `DET  ${caseName(r)}: ran; ${r.reason}`;
    case 'no-pto':
      return `SKIP ${caseName(r)}: ${r.reason}`;
    case 'error':
      return `ERROR ${caseName(r)}${tag}: ${r.reason}`;
    case 'fail':
      return `FAIL ${caseName(r)}${tag}: ${failureDetail(r)}`;
  }
}

function failureDetail(r: CaseResult): string {
  const bad = r.differences?.find((d) => d.difference.mismatches > 0 || d.difference.sizes);
  if (!bad) return r.reason ?? 'the compare script failed';
  const d = bad.difference;
  if (d.sizes) return `${bad.buffer}: ${d.sizes.got} elements, golden has ${d.sizes.want}`;
  const first = d.first!;
  return (
    `first difference at ${bad.buffer}[${first.index}]: got ${first.got}, want ${first.want}; ` +
    `max abs err ${d.maxAbs.toPrecision(3)}, max rel err ${d.maxRel.toPrecision(3)}, ${d.mismatches} of ${d.count} mismatch`
  );
}

/** Golden cases (and those that failed before their golden script could tell): pass, fail, error; determinism-only cases apart. */
type Counts = Record<'pass' | 'fail' | 'error' | 'determinismOnly' | 'determinismFail' | 'determinismError' | 'noPto', number>;

export function countOutcomes(results: CaseResult[]): Counts {
  const counts: Counts = { pass: 0, fail: 0, error: 0, determinismOnly: 0, determinismFail: 0, determinismError: 0, noPto: 0 };
  for (const r of results) {
    const determinism = r.checks === 'determinism';
    if (r.outcome === 'pass') counts.pass++;
    else if (r.outcome === 'determinism-only') counts.determinismOnly++;
    else if (r.outcome === 'no-pto') counts.noPto++;
    else if (r.outcome === 'fail') counts[determinism ? 'determinismFail' : 'fail']++;
    else counts[determinism ? 'determinismError' : 'error']++;
  }
  return counts;
}

function summaryLine(c: Counts, seconds: number): string {
  const checked = c.pass + c.fail + c.error;
  const determinism = c.determinismOnly + c.determinismFail + c.determinismError;
  const total = checked + determinism + c.noPto;
  const percent = checked > 0 ? ` (${((100 * c.pass) / checked).toFixed(1)}%)` : '';
  return (
    `${total} cases: ${checked} checked against goldens: ${c.pass} passed${percent}, ${c.fail} failed, ${c.error} errors; ` +
    `${determinism} determinism-only: ${c.determinismOnly} ran, ${c.determinismFail} differed between runs, ${c.determinismError} errors; ` +
    `${c.noPto} without a .pto; ${seconds.toFixed(1)}s`
  );
}

function jsonOf(r: CaseResult): unknown {
  return {
    case: r.case.testcase,
    folder: path.basename(r.case.sampleDir),
    kernel: r.case.kernel,
    target: r.target,
    outcome: r.outcome,
    checks: r.checks,
    reason: r.reason,
    boardSkips: r.boardSkips,
    line: reportLine(r),
    differences: r.differences?.map((d) => ({ buffer: d.buffer, ...d.difference })),
    seconds: r.seconds,
    phases: r.phases,
  };
}

/** The options of the validate command (yargs builder); --target and --json are pto-vm's own. */
export function validateOptions<T>(y: Argv<T>) {
  return y
    .positional('paths', { type: 'string', array: true, describe: 'sample .pto kernels, or folders of golden cases' })
    .option('keep', { type: 'string', describe: "keep each case's files (inputs, goldens, outputs) under DIR/<folder>/<case>" });
}
