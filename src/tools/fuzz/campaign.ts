/**
 * A fuzzing campaign: generates cases from a seed (mutants of the corpus and adversarial programs), runs them through
 * pto-as and, when pto-as accepts them, pto-vm (in a worker pool), checks each run (oracle.ts), and for each new
 * failure signature confirms it alone in a fresh worker, minimizes it and saves it to the findings directory.
 */
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { ADVERSARIES } from './adversarial';
import { kernelArguments } from './arguments';
import { Seed } from './corpus';
import { MutationKind, mutate } from './mutators';
import { Failure, FailureClass, check, matchesKnown, poolFailure } from './oracle';
import { Outcome, Pool, PoolOptions } from './pool';
import { CaseRequest, ToolName } from './protocol';
import { minimize } from './minimize';
import { Rng } from './rng';

export type ToolChoice = ToolName | 'both';

export interface KnownFinding {
  /** A signature, `*` matching anything. */
  signature: string;
  reason: string;
}

export interface CampaignOptions {
  seed: number;
  cases: number;
  /** The first case's index (to continue a campaign). */
  start?: number;
  tool: ToolChoice;
  jobs: number;
  corpus: Seed[];
  /** Where findings are saved; none: not saved. */
  outDir?: string;
  timeLimitMs: number;
  heapLimitMb: number;
  rssLimitMb: number;
  stackSizeMb: number;
  /** pto-vm's --max-steps. */
  maxSteps: number;
  /**
   * pto-vm's --timeout, in seconds: below the time limit, so that a long run stops itself with its located error
   * and only a run that does not look at its clock is a `timeout`.
   */
  vmTimeoutSeconds?: number;
  /** The share of cases that are generated adversarial programs rather than mutants. */
  adversarialRate: number;
  /**
   * The share of mutants made from corpus programs pto-as accepts as they are (found by a first pass over the
   * corpus): their mutants get past the parser more often, and pto-vm runs the accepted ones. 0: no first pass.
   */
  validBias: number;
  minimize: boolean;
  minimizeMs: number;
  /** Time to minimize a timeout or a memory blow-up (each test of a candidate that still hangs costs the time limit); 0: not minimized. */
  minimizeHangMs?: number;
  knownFindings: KnownFinding[];
  distDir: string;
  /** The empty working directory the tools run in. */
  cwd: string;
  /** Progress lines (none: quiet). */
  log?: (line: string) => void;
  progressEveryMs?: number;
  /** Set `requested` to stop after the cases under way (the summary covers the cases run). */
  stop?: { requested: boolean };
}

export interface FindingRecord {
  signature: string;
  class: FailureClass;
  tool: ToolName;
  message: string;
  /** How many cases hit it. */
  count: number;
  /** The first case that hit it. */
  caseIndex: number;
  origin: string;
  argv: string[];
  /** The minimized program (or the case's, when not minimized). */
  text: string;
  originalBytes: number;
  minimizeTests?: number;
  known?: KnownFinding;
  /** Where it was saved. */
  file?: string;
  output: string;
}

export interface ToolCounts {
  runs: number;
  exit0: number;
  exit1: number;
  exit2: number;
  failures: number;
  ms: number;
}

export interface CampaignSummary {
  seed: number;
  start: number;
  cases: number;
  /** The cases' time (the first pass over the corpus is setupSeconds). */
  seconds: number;
  setupSeconds: number;
  tools: Record<ToolName, ToolCounts>;
  origins: { mutant: number; adversarial: number };
  findings: FindingRecord[];
  /** Failures that did not happen again alone in a fresh worker (load, or state left by an earlier case). */
  unconfirmed: { signature: string; count: number; caseIndex: number }[];
  workersStarted: number;
}

export interface GeneratedCase {
  index: number;
  text: string;
  origin: string;
  mutations: MutationKind[];
  fileName: string;
}

/** Case `index` of a campaign with `seed`: the same text for the same seed, index and corpus. */
export function generateCase(seed: number, index: number, corpus: Seed[], adversarialRate: number, valid: Seed[] = [], validBias = 0): GeneratedCase {
  const rng = Rng.derive(seed, index);
  if (corpus.length === 0 || rng.chance(adversarialRate)) {
    const adversary = rng.pick(ADVERSARIES);
    return { index, text: adversary.make(rng), origin: `adversary:${adversary.name}`, mutations: [], fileName: `case${index}.pto` };
  }
  const source = valid.length > 0 && rng.chance(validBias) ? rng.pick(valid) : rng.pick(corpus);
  const donors: string[] = [];
  for (let i = 0; i < 3; i++) donors.push(rng.pick(corpus).text);
  const { text, kinds } = mutate(source.text, rng, { donors });
  return { index, text, origin: source.name, mutations: kinds, fileName: `case${index}.pto` };
}

/** The command lines a case runs with (random options from the case's seed): pto-as's, and pto-vm's. */
/** pto-vm's --max-memory in the fuzzer's runs. */
const VM_MAX_MEMORY = 64 * 2 ** 20;

export function commandLines(
  seed: number,
  index: number,
  maxSteps: number,
  vmTimeoutSeconds?: number,
): { as: { argv: string[]; outputs: string[] }; vm: string[] } {
  const rng = Rng.derive(seed ^ 0x5bd1e995, index);
  const as = ['FILE'];
  const outputs: string[] = [];
  const emit = rng.pick(['none', 'none', 'canonical', 'json', 'lowered', 'l1', 'l2']);
  if (emit !== 'none') as.push('--emit', emit);
  if (rng.chance(0.3)) as.push('--target', rng.pick(['a2a3', 'a5']));
  if (rng.chance(0.2)) as.push('--level', rng.pick(['level1', 'level2', 'level3']));
  if (emit !== 'none' && rng.chance(0.2)) {
    as.push('-o', 'OUT/emitted.txt');
    outputs.push('emitted.txt');
  }
  // 64 MiB of arguments at most: generating 256 MiB of bf16 inputs alone takes 2-3 s.
  const vm = ['run', 'FILE', '--max-steps', String(maxSteps), '--max-memory', String(VM_MAX_MEMORY)];
  if (vmTimeoutSeconds !== undefined) vm.push('--timeout', String(vmTimeoutSeconds));
  const target = rng.pick(['a5', 'a5', 'a2a3', '']);
  if (target) vm.push('--target', target);
  if (rng.chance(0.15)) vm.push('--json');
  if (rng.chance(0.1)) vm.push('--numerics', 'cpu-sim');
  if (rng.chance(0.05)) vm.push('--blocks', '2');
  return { as: { argv: as, outputs }, vm };
}

/** The command a user would type for a run (FILE and OUT as given). */
export function commandText(tool: ToolName, argv: string[], file: string, outDir = '.'): string {
  return [tool, ...argv.map((a) => a.replace(/FILE/g, file).replace(/OUT/g, outDir))].join(' ');
}

function failureOf(req: CaseRequest, outcome: Outcome): Failure | undefined {
  if (outcome.kind === 'done') return check(req, outcome.result);
  return poolFailure(outcome.kind, req.tool, outcome.detail, req.text);
}

function outputOf(outcome: Outcome): string {
  if (outcome.kind !== 'done') return `${outcome.kind} after ${Math.round(outcome.ms)} ms: ${outcome.detail}`;
  const r = outcome.result;
  const parts = [`exit code: ${r.code ?? '(exception escaped main)'}`, `time: ${Math.round(r.ms)} ms`];
  if (r.exception) parts.push(`exception: ${r.exception.stack ?? r.exception.message}`);
  if (r.stderr) parts.push(`stderr:\n${r.stderr.slice(0, 4000)}`);
  if (r.stdout) parts.push(`stdout:\n${r.stdout.slice(0, 2000)}`);
  if (r.strays.length) parts.push(`stray files: ${r.strays.join(', ')}`);
  return parts.join('\n');
}

const hash = (s: string) => crypto.createHash('sha1').update(s).digest('hex').slice(0, 8);

export async function runCampaign(opts: CampaignOptions): Promise<CampaignSummary> {
  const log = opts.log ?? (() => {});
  const poolOptions: PoolOptions = {
    size: opts.jobs,
    distDir: opts.distDir,
    timeLimitMs: opts.timeLimitMs,
    heapLimitMb: opts.heapLimitMb,
    rssLimitMb: opts.rssLimitMb,
    stackSizeMb: opts.stackSizeMb,
    cwd: opts.cwd,
  };
  const pool = new Pool(poolOptions);
  const start = opts.start ?? 0;
  const empty = (): ToolCounts => ({ runs: 0, exit0: 0, exit1: 0, exit2: 0, failures: 0, ms: 0 });
  const summary: CampaignSummary = {
    seed: opts.seed,
    start,
    cases: 0,
    seconds: 0,
    setupSeconds: 0,
    tools: { 'pto-as': empty(), 'pto-vm': empty() },
    origins: { mutant: 0, adversarial: 0 },
    findings: [],
    unconfirmed: [],
    workersStarted: 0,
  };
  /** Final signatures and the preliminary ones that led to them. */
  const bySignature = new Map<string, FindingRecord>();
  const unconfirmed = new Map<string, { signature: string; count: number; caseIndex: number }>();
  const t0 = Date.now();
  let inFlight = 0;
  let gate: Promise<void> | undefined;
  let findingChain: Promise<void> = Promise.resolve();
  if (opts.outDir) fs.mkdirSync(opts.outDir, { recursive: true });

  const count = (tool: ToolName, outcome: Outcome, failed: boolean) => {
    const c = summary.tools[tool];
    c.runs++;
    if (failed) c.failures++;
    if (outcome.kind === 'done') {
      c.ms += outcome.result.ms;
      if (outcome.result.code === 0) c.exit0++;
      else if (outcome.result.code === 1) c.exit1++;
      else if (outcome.result.code === 2) c.exit2++;
    } else c.ms += outcome.ms;
  };

  /** Runs a request with nothing else running (the lanes wait at the gate). */
  const exclusive = async <T>(work: () => Promise<T>): Promise<T> => {
    let release: () => void = () => {};
    const previous = findingChain;
    findingChain = new Promise<void>((r) => (release = r));
    await previous;
    gate = new Promise<void>((r) => {
      const done = release;
      release = () => {
        gate = undefined;
        r();
        done();
      };
    });
    while (inFlight > 0) await new Promise((r) => setTimeout(r, 5));
    try {
      return await work();
    } finally {
      release();
    }
  };

  const sameFailure = (want: Failure) => async (candidate: string, req: CaseRequest) => {
    const outcome = await pool.run({ ...req, text: candidate });
    const got = failureOf({ ...req, text: candidate }, outcome);
    if (!got || got.class !== want.class) return false;
    // Message classes keep their message; a hang or a blow-up only its class.
    return want.class === 'timeout' || want.class === 'out-of-memory' || want.class === 'worker-died' || got.signature === want.signature;
  };

  const handleFailure = async (c: GeneratedCase, req: CaseRequest, failure: Failure, outcome: Outcome) => {
    const seen = bySignature.get(failure.signature);
    if (seen) {
      seen.count++;
      return;
    }
    const pending = unconfirmed.get(failure.signature);
    if (pending) {
      pending.count++;
      return;
    }
    await exclusive(async () => {
      // Another lane may have handled the same signature while this one waited.
      const again = bySignature.get(failure.signature);
      if (again) return void again.count++;
      pool.recycle();
      const confirm = await pool.run(req);
      const confirmed = failureOf(req, confirm);
      if (!confirmed || confirmed.signature !== failure.signature) {
        if (!(confirmed && confirmed.class === failure.class && (failure.class === 'timeout' || failure.class === 'out-of-memory'))) {
          unconfirmed.set(failure.signature, { signature: failure.signature, count: 1, caseIndex: c.index });
          log(`  unconfirmed alone: ${failure.signature} (case ${c.index})`);
          return;
        }
      }
      let text = req.text;
      let tests: number | undefined;
      let final = failure;
      let finalOutcome = outcome;
      const hang = failure.class === 'timeout' || failure.class === 'out-of-memory';
      const minimizeMs = hang ? (opts.minimizeHangMs ?? opts.minimizeMs) : opts.minimizeMs;
      if (opts.minimize && minimizeMs > 0) {
        const fails = sameFailure(failure);
        const m = await minimize(req.text, (cand) => fails(cand, req), { maxMs: minimizeMs, maxTests: 500 });
        text = m.text;
        tests = m.tests;
        finalOutcome = await pool.run({ ...req, text });
        final = failureOf({ ...req, text }, finalOutcome) ?? failure;
      }
      const existing = bySignature.get(final.signature);
      if (existing) {
        existing.count++;
        bySignature.set(failure.signature, existing);
        return;
      }
      const record: FindingRecord = {
        signature: final.signature,
        class: final.class,
        tool: req.tool,
        message: final.message,
        count: 1,
        caseIndex: c.index,
        origin: `${c.origin}${c.mutations.length ? ' (' + c.mutations.join(', ') + ')' : ''}`,
        argv: req.argv,
        text,
        originalBytes: req.text.length,
        minimizeTests: tests,
        known: opts.knownFindings.find((k) => matchesKnown(final.signature, k.signature)),
        output: outputOf(finalOutcome),
      };
      if (opts.outDir) saveFinding(opts.outDir, record, req.text, opts.seed);
      bySignature.set(final.signature, record);
      bySignature.set(failure.signature, record);
      summary.findings.push(record);
      log(
        `  ${record.known ? 'known' : 'NEW'} finding: ${record.signature} [${record.tool}, case ${c.index}, ${text.length} bytes${record.file ? ', ' + record.file : ''}]`,
      );
    });
  };

  const runOne = async (index: number) => {
    const c = generateCase(opts.seed, index, opts.corpus, opts.adversarialRate, valid, opts.validBias);
    if (c.origin.startsWith('adversary:')) summary.origins.adversarial++;
    else summary.origins.mutant++;
    const lines = commandLines(opts.seed, index, opts.maxSteps, opts.vmTimeoutSeconds);
    const tools: ToolName[] = opts.tool === 'both' ? ['pto-as', 'pto-vm'] : [opts.tool];
    for (const tool of tools) {
      const req: CaseRequest =
        tool === 'pto-as'
          ? { id: index, tool, text: c.text, fileName: c.fileName, argv: lines.as.argv, allowedOutputs: lines.as.outputs }
          : {
              id: index,
              tool,
              text: c.text,
              fileName: c.fileName,
              argv: [...lines.vm, ...kernelArguments(c.text, Rng.derive(opts.seed ^ 0x2545f491, index))],
              allowedOutputs: [],
            };
      while (gate) await gate;
      inFlight++;
      let outcome: Outcome;
      try {
        outcome = await pool.run(req);
      } finally {
        inFlight--;
      }
      const failure = failureOf(req, outcome);
      count(tool, outcome, failure !== undefined);
      if (failure) await handleFailure(c, req, failure, outcome);
      // pto-vm runs what pto-as accepts (in both mode); a failure of pto-as ends the case.
      if (opts.tool === 'both' && tool === 'pto-as' && (failure || outcome.kind !== 'done' || outcome.result.code !== 0)) break;
    }
    summary.cases++;
  };

  // The corpus programs pto-as accepts as they are (each checked alone: the answer does not depend on the order).
  const valid: Seed[] = [];
  if (opts.validBias > 0) {
    const verdicts = await Promise.all(
      opts.corpus.map((seed, i) => pool.run({ id: -1 - i, tool: 'pto-as', text: seed.text, fileName: `seed${i}.pto`, argv: ['FILE'], allowedOutputs: [] })),
    );
    verdicts.forEach((o, i) => o.kind === 'done' && o.result.code === 0 && valid.push(opts.corpus[i]));
    log(`[fuzz] ${valid.length} of ${opts.corpus.length} corpus programs are valid as they are`);
  }
  const t1 = Date.now();

  let next = start;
  const end = start + opts.cases;
  let lastProgress = Date.now();
  const lane = async () => {
    while (next < end && !opts.stop?.requested) {
      while (gate) await gate;
      const index = next++;
      await runOne(index);
      if (Date.now() - lastProgress >= (opts.progressEveryMs ?? 5000)) {
        lastProgress = Date.now();
        const s = (Date.now() - t1) / 1000;
        log(
          `[fuzz] ${summary.cases}/${opts.cases} cases, ${(summary.cases / s).toFixed(1)} cases/s, pto-as ${summary.tools['pto-as'].runs}, pto-vm ${summary.tools['pto-vm'].runs}, ${summary.findings.length} finding(s), ${pool.started} workers started`,
        );
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: opts.jobs }, lane));
    await findingChain;
  } finally {
    summary.workersStarted = pool.started;
    await pool.close();
  }
  summary.seconds = (Date.now() - t1) / 1000;
  summary.setupSeconds = (t1 - t0) / 1000;
  summary.unconfirmed = [...unconfirmed.values()];
  return summary;
}

function saveFinding(dir: string, record: FindingRecord, original: string, seed: number): void {
  const base = `${record.class}-${hash(record.signature)}`;
  const file = path.join(dir, `${base}.pto`);
  fs.writeFileSync(file, record.text);
  if (original.length <= 1 << 20) fs.writeFileSync(path.join(dir, `${base}.orig.pto`), original);
  const note = {
    signature: record.signature,
    class: record.class,
    tool: record.tool,
    message: record.message,
    command: commandText(record.tool, record.argv, `${base}.pto`),
    seed,
    caseIndex: record.caseIndex,
    origin: record.origin,
    originalBytes: record.originalBytes,
    minimizedBytes: record.text.length,
    minimizeTests: record.minimizeTests,
    known: record.known,
    output: record.output,
  };
  fs.writeFileSync(path.join(dir, `${base}.json`), JSON.stringify(note, null, 2) + '\n');
  record.file = file;
}
