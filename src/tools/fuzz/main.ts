/**
 * `npm run fuzz -- --cases N --seed S [--tool pto-as|pto-vm|both] [--out DIR] [--jobs J] ...`: a fuzzing campaign
 * over the built tools (docs/fuzzing.md). Exit code 0 when every finding is a known one, 1 when there are new ones,
 * 2 for a bad command line.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { CampaignOptions, KnownFinding, ToolChoice, runCampaign } from './campaign';
import { defaultCorpus, loadSeeds } from './corpus';
import { defaultDistDir } from './pool';
import { formatSummary } from './report';

const USAGE = `usage: npm run fuzz -- [options]
  --cases N            cases to run (default 1000)
  --seed S             the campaign's seed (default: from the clock; printed)
  --start K            the first case's index (default 0): continue a campaign
  --tool T             pto-as, pto-vm or both (default both: pto-vm runs what pto-as accepts)
  --out DIR            findings directory (default fuzz-findings)
  --jobs J             worker threads (default: the CPUs)
  --time-limit MS      a case's time limit (default 2000)
  --heap-mb MB         a worker's heap limit (default 1024)
  --rss-mb MB          the process's memory limit (default 3072)
  --stack-mb MB        a worker's stack (default 1, about a tool's own)
  --max-steps N        pto-vm --max-steps (default 100000)
  --vm-timeout S       pto-vm --timeout in seconds (default: half the time limit)
  --adversarial P      share of generated adversarial programs (default 0.05)
  --valid-bias P       share of mutants made from corpus programs pto-as accepts (default 0.5; 0: no first pass)
  --no-minimize        save findings as found
  --minimize-ms MS     time to minimize one finding (default 60000)
  --minimize-hang-ms MS  the same for a timeout or memory blow-up (default: --minimize-ms; 0: not minimized)
  --known FILE         known findings (default test/tools/fuzz/known-findings.json)
  --corpus DIR         more .pto files to mutate (repeatable; also $PTO_UPSTREAM_DIR, $PTO_CORPUS_DIR)
  --max-seed-bytes B   skip corpus files larger than this (default 65536)
  --json FILE          write the summary as JSON too
  --quiet              no progress lines`;

class UsageError extends Error {}

function parse(argv: string[]): {
  opts: Omit<CampaignOptions, 'corpus' | 'knownFindings'>;
  known: string;
  corpusDirs: string[];
  maxSeedBytes: number;
  json?: string;
  quiet: boolean;
} {
  const root = path.resolve(defaultDistDir(), '..');
  const v: Record<string, string> = {};
  const corpusDirs: string[] = [];
  let minimize = true;
  let quiet = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--no-minimize') minimize = false;
    else if (a === '--quiet') quiet = true;
    else if (a === '--help' || a === '-h') throw new UsageError('');
    else if (a.startsWith('--')) {
      const [key, inline] = a.slice(2).split(/=(.*)/s, 2);
      const value = inline ?? argv[++i];
      if (value === undefined) throw new UsageError(`${a} needs a value`);
      if (key === 'corpus') corpusDirs.push(path.resolve(value));
      else v[key] = value;
    } else throw new UsageError(`unexpected argument ${a}`);
  }
  const known = new Set([
    'cases',
    'seed',
    'start',
    'tool',
    'out',
    'jobs',
    'time-limit',
    'heap-mb',
    'rss-mb',
    'stack-mb',
    'max-steps',
    'vm-timeout',
    'adversarial',
    'valid-bias',
    'minimize-ms',
    'minimize-hang-ms',
    'known',
    'max-seed-bytes',
    'json',
  ]);
  for (const k of Object.keys(v)) if (!known.has(k)) throw new UsageError(`unknown option --${k}`);
  const num = (k: string, d: number, min = 0) => {
    if (v[k] === undefined) return d;
    const n = Number(v[k]);
    if (!Number.isFinite(n) || n < min) throw new UsageError(`--${k} must be a number >= ${min}, got ${v[k]}`);
    return n;
  };
  const tool = (v.tool ?? 'both') as ToolChoice;
  if (!['pto-as', 'pto-vm', 'both'].includes(tool)) throw new UsageError(`--tool must be pto-as, pto-vm or both, got ${tool}`);
  const seed = v.seed === undefined ? Date.now() % 0x100000000 : num('seed', 0) >>> 0;
  return {
    opts: {
      seed,
      cases: Math.floor(num('cases', 1000, 1)),
      start: Math.floor(num('start', 0)),
      tool,
      jobs: Math.floor(num('jobs', Math.max(1, os.availableParallelism?.() ?? os.cpus().length), 1)),
      outDir: path.resolve(v.out ?? 'fuzz-findings'),
      timeLimitMs: num('time-limit', 2000, 10),
      heapLimitMb: num('heap-mb', 1024, 16),
      rssLimitMb: num('rss-mb', 3072, 64),
      stackSizeMb: num('stack-mb', 1, 0.25),
      maxSteps: Math.floor(num('max-steps', 100_000, 1)),
      vmTimeoutSeconds: num('vm-timeout', num('time-limit', 2000, 10) / 2000, 0.001),
      adversarialRate: num('adversarial', 0.05),
      validBias: num('valid-bias', 0.5),
      minimize,
      minimizeMs: num('minimize-ms', 60_000),
      minimizeHangMs: v['minimize-hang-ms'] === undefined ? undefined : num('minimize-hang-ms', 0),
      distDir: defaultDistDir(),
      cwd: fs.mkdtempSync(path.join(os.tmpdir(), 'pto-fuzz-cwd-')),
      progressEveryMs: 5000,
    },
    known: path.resolve(v.known ?? path.join(root, 'test', 'tools', 'fuzz', 'known-findings.json')),
    corpusDirs,
    maxSeedBytes: num('max-seed-bytes', 65536, 1),
    json: v.json,
    quiet,
  };
}

export function loadKnown(file: string): KnownFinding[] {
  if (!fs.existsSync(file)) return [];
  const data = JSON.parse(fs.readFileSync(file, 'utf8')) as { findings?: KnownFinding[] } | KnownFinding[];
  return Array.isArray(data) ? data : (data.findings ?? []);
}

export async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parse(argv);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    process.stderr.write(e.message ? `fuzz: ${e.message}\n${USAGE}\n` : `${USAGE}\n`);
    return e.message ? 2 : 0;
  }
  const root = path.resolve(parsed.opts.distDir, '..');
  const corpus = defaultCorpus(root, parsed.maxSeedBytes);
  for (const dir of parsed.corpusDirs) corpus.push(...loadSeeds(dir, dir, parsed.maxSeedBytes));
  const knownFindings = loadKnown(parsed.known);
  const log = parsed.quiet ? undefined : (line: string) => process.stdout.write(line + '\n');
  log?.(
    `[fuzz] seed ${parsed.opts.seed}, ${parsed.opts.cases} cases from ${parsed.opts.start}, tool ${parsed.opts.tool}, ${parsed.opts.jobs} worker(s), corpus of ${corpus.length} programs, ${knownFindings.length} known signature(s), findings to ${parsed.opts.outDir}`,
  );
  // Ctrl-C (or SIGTERM) ends the campaign after the cases under way, with its summary; a second one ends the process.
  const stop = { requested: false };
  const onSignal = (signal: NodeJS.Signals) => {
    if (stop.requested) process.exit(130);
    stop.requested = true;
    log?.(`[fuzz] ${signal}: stopping after the cases under way`);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const summary = await runCampaign({ ...parsed.opts, corpus, knownFindings, log, stop });
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);
  fs.rmSync(parsed.opts.cwd, { recursive: true, force: true });
  process.stdout.write(formatSummary(summary) + '\n');
  if (parsed.json) fs.writeFileSync(parsed.json, JSON.stringify(summary, null, 1) + '\n');
  return summary.findings.some((f) => !f.known) ? 1 : 0;
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => (process.exitCode = code),
    (e: unknown) => {
      process.stderr.write(`fuzz: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
      process.exitCode = 1;
    },
  );
}
