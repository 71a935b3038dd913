#!/usr/bin/env node
// The assembler's speed and memory (issue 15): parse + verify of a 10 MB module of distinct statements, its peak RSS,
// and real compiler output (the pypto kernels of the PTOAS corpus, when PTO_UPSTREAM_DIR is set). Each is measured in
// a fresh child process that reads the files from disk, against a regex tokenizer over the same text in the same
// process (a lower bound for any parser) and the fixed target.
//
//   node bench/assembler.js            prints the rows as a markdown table
//   require('./assembler').assemblerRows()
'use strict';
const { execFileSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

const TARGET_MB_PER_S = 15;
const TARGET_PEAK_RSS_MB = 200;
const DISTINCT_BYTES = 10 << 20;
const CORPUS_FOLDERS = /^(Qwen3Decode|DeepseekV4Decode)/;

/**
 * A module of copies of the function in programs/rowsum.pto, every copy with its own SSA value names so that no
 * statement repeats (bench/run.js's `bigProgram(targetBytes, true)`).
 */
function distinctProgram(targetBytes) {
  const text = fs.readFileSync(path.join(__dirname, '..', 'programs', 'rowsum.pto'), 'utf8');
  const fn = text.slice(text.indexOf('func.func'), text.lastIndexOf('}'));
  const parts = ['module {'];
  let size = 0;
  for (let i = 0; size < targetBytes; i++) {
    const copy = fn.replace('@row_sum_max', `@row_sum_max_${i}`).replace(/%([A-Za-z_][\w]*)/g, `%$1_${i}`);
    parts.push(copy);
    size += copy.length;
  }
  parts.push('}');
  return parts.join('\n');
}

/** The .pto files of the pypto-generated kernels in the corpus, sorted. */
function corpusFiles(root) {
  const samples = path.join(root, 'test', 'samples');
  return fs
    .readdirSync(samples)
    .filter((d) => CORPUS_FOLDERS.test(d))
    .flatMap((d) =>
      fs
        .readdirSync(path.join(samples, d), { recursive: true })
        .map(String)
        .filter((f) => f.endsWith('.pto'))
        .map((f) => path.join(samples, d, f)),
    )
    .sort();
}

const seconds = (t0) => Number(process.hrtime.bigint() - t0) / 1e9;
const megabytes = (texts) => texts.reduce((n, t) => n + t.length, 0) / (1 << 20);

/** The baseline: a regex tokenizer over the texts. */
function tokenizerSeconds(texts) {
  const t0 = process.hrtime.bigint();
  let tokens = 0;
  for (const text of texts) tokens += text.match(/%[\w.$-]+|![\w.]+<[^>]*>|[\w.]+|\S/g).length;
  if (tokens === 0) throw new Error('no tokens');
  return seconds(t0);
}

/** The child assembles as pto-as does: with the V8 flags pto-as sets (src/cli/launch.ts), then its modules. */
function loadAssembler() {
  require('../dist/cli/launch').tuneEngineFor('pto-as');
  return require('../dist/verify/assemble').assemble;
}

/** The grammar and the ISA tables load once per process, before a first file: a small program loads them. */
function warmUp(assemble) {
  assemble('warm-up.pto', fs.readFileSync(path.join(__dirname, '..', 'programs', 'vadd-blocks.pto'), 'utf8'));
}

/**
 * In the child: the distinct module, read from the file the parent wrote, assembled three times. The time and the
 * peak RSS are the first run's, as one `pto-as` run of the file assembles it once; the best of the three is kept
 * too (what a process that assembles many files reaches).
 */
function measureDistinct(file) {
  const assemble = loadAssembler();
  warmUp(assemble);
  const text = fs.readFileSync(file, 'utf8');
  const startRss = process.resourceUsage().maxRSS / 1024;
  const runs = [];
  let errors = 0;
  let peakRss = 0;
  for (let run = 0; run < 3; run++) {
    const t0 = process.hrtime.bigint();
    errors = assemble('distinct.pto', text).diags.errorCount;
    runs.push(seconds(t0));
    if (run === 0) peakRss = process.resourceUsage().maxRSS / 1024;
  }
  return {
    megabytes: megabytes([text]),
    files: 1,
    errors,
    seconds: runs[0],
    bestSeconds: Math.min(...runs),
    peakRss,
    startRss,
    tokenizerSeconds: tokenizerSeconds([text]),
  };
}

/** In the child: each corpus file read and assembled in turn, as `pto-as FILES...` does. */
function measureCorpus() {
  const assemble = loadAssembler();
  warmUp(assemble);
  const files = corpusFiles(process.env.PTO_UPSTREAM_DIR);
  const texts = [];
  let errors = 0;
  const t0 = process.hrtime.bigint();
  for (const file of files) {
    const text = fs.readFileSync(file, 'utf8');
    texts.push(text);
    errors += assemble(file, text).diags.errorCount;
  }
  const took = seconds(t0);
  return { megabytes: megabytes(texts), files: files.length, errors, seconds: took, tokenizerSeconds: tokenizerSeconds(texts) };
}

function child(...args) {
  const out = execFileSync(process.execPath, [path.join(__dirname, 'assembler.js'), '--child', ...args], { encoding: 'utf8', env: process.env });
  return JSON.parse(out);
}

/** Measures the distinct module in a child, which reads it from a temporary file as the tool would. */
function distinctInChild() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pto-bench-'));
  const file = path.join(dir, 'distinct.pto');
  try {
    fs.writeFileSync(file, distinctProgram(DISTINCT_BYTES));
    return child('distinct', file);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function throughputRow(name, m) {
  const ours = m.megabytes / m.seconds;
  const baseline = m.megabytes / m.tokenizerSeconds;
  return {
    name: `${name} (${m.megabytes.toFixed(1)} MB, ${m.files} file(s), ${m.errors} errors)`,
    ours: round(ours),
    baseline: round(baseline),
    ratio: round(ours / baseline),
    unit: 'MB/s (baseline: regex tokenizer)',
    target: TARGET_MB_PER_S,
    met: ours >= TARGET_MB_PER_S,
  };
}

const round = (x) => Math.round(x * 100) / 100;

/** The benchmark's rows: { name, ours, baseline, ratio, unit, target, met }. */
function assemblerRows() {
  const rows = [];
  const distinct = distinctInChild();
  const best = distinct.megabytes / distinct.bestSeconds;
  rows.push(throughputRow(`parse + verify, 10 MB of distinct statements, first run (best of 3: ${best.toFixed(1)} MB/s)`, distinct));
  rows.push({
    name: 'peak RSS, parse + verify of the 10 MB module',
    ours: round(distinct.peakRss),
    baseline: round(distinct.startRss),
    ratio: round(distinct.peakRss / distinct.startRss),
    unit: 'MB (baseline: the process before it assembles)',
    target: TARGET_PEAK_RSS_MB,
    met: distinct.peakRss <= TARGET_PEAK_RSS_MB,
  });
  if (!process.env.PTO_UPSTREAM_DIR) {
    rows.push({
      name: 'parse + verify, pypto kernels (Qwen3Decode*, DeepseekV4Decode*): skipped: PTO_UPSTREAM_DIR unset',
      ours: null,
      baseline: null,
      ratio: null,
      unit: 'MB/s',
      target: TARGET_MB_PER_S,
      met: null,
    });
  } else {
    rows.push(throughputRow('parse + verify, pypto kernels (Qwen3Decode*, DeepseekV4Decode*) in one run', child('corpus')));
  }
  return rows;
}

module.exports = { assemblerRows, distinctProgram };

if (require.main === module) {
  const at = process.argv.indexOf('--child');
  if (at >= 0) {
    const what = process.argv[at + 1];
    process.stdout.write(JSON.stringify(what === 'distinct' ? measureDistinct(process.argv[at + 2]) : measureCorpus()));
  } else {
    const rows = assemblerRows();
    const cell = (x) => (x === null ? '-' : String(x));
    console.log('| benchmark | ours | baseline | ours/baseline | unit | target | met |');
    console.log('|---|---|---|---|---|---|---|');
    for (const r of rows) console.log(`| ${r.name} | ${cell(r.ours)} | ${cell(r.baseline)} | ${cell(r.ratio)} | ${r.unit} | ${r.target} | ${cell(r.met)} |`);
  }
}
