// Runs PTOAS's VPTO golden suite (test/vpto/cases of a PTOAS export) with the VM as the simulator
// (src/board/vpto.ts): per case, as test/vpto/scripts/run_host_vpto_validation.sh does, golden.py in an empty output
// folder, the host harness as written (main.cpp and launch.cpp interpreted; its launch runs kernel.pto on the VM with
// the back end of the case's ptoas.flags, else vpto), then compare.py with COMPARE_STRICT=1. Cases run in a pool of
// child processes, one per CPU. Needs the build (`npm run build`: a dist/ from tsc alone keeps an old grammar) and python3 with numpy.
//
//   node scripts/vpto-suite.js PTOAS_EXPORT [CASE...] [--jobs N] [--keep DIR] [--write-exceptions]
//
// CASE: a case's folder under test/vpto/cases (micro-op/binary-vector/vadd) or a folder above cases (vmi_new).
// Prints one line per case, a summary per family, the counts by category (a case waiting for an op the toolchain
// does not support yet is counted under the first such op of its kernel file), and the totals.
// --write-exceptions rewrites test/corpus/vpto-exceptions.json from this run (test/corpus/vpto.test.ts compares
// each run with it).
'use strict';
const fs = require('fs');
const path = require('path');

const { suiteCommandLine, builtSuite } = require('./suite-command-line');

const { exportRoot, only, options } = suiteCommandLine(
  'node scripts/vpto-suite.js PTOAS_EXPORT [CASE...] [--jobs N] [--keep DIR] [--write-exceptions]',
  ['--jobs', '--keep'],
  ['--write-exceptions'],
);
const { jobs, keep } = options;
const writeExceptions = options['write-exceptions'];
const { runSuite, categoryOf, exceptionsOf, familySummary } = builtSuite('vpto-suite');

(async () => {
  const started = Date.now();
  const results = await runSuite(exportRoot, { jobs: jobs === undefined ? undefined : Number(jobs), only, keep: keep && path.resolve(keep) });
  const seconds = ((Date.now() - started) / 1000).toFixed(0);
  if (results.length === 0) {
    process.stderr.write(`no VPTO case matches ${only.join(' ')} under ${path.join(exportRoot, 'test', 'vpto', 'cases')}\n`);
    process.exit(2);
  }
  const out = (line) => process.stdout.write(`${line}\n`);
  for (const r of results) out(r.outcome === 'pass' ? `${r.id}: pass` : `${r.id}: ${r.outcome}: [${categoryOf(r.reason ?? '')}] ${r.reason ?? ''}`);

  out('');
  out(`${'family'.padEnd(36)} ${['pass', 'fail', 'error', 'skip'].map((h) => h.padStart(5)).join(' ')}`);
  for (const f of familySummary(results)) out(`${f.family.padEnd(36)} ${[f.pass, f.fail, f.error, f.skip].map((n) => String(n).padStart(5)).join(' ')}`);

  const failing = results.filter((r) => r.outcome !== 'pass');
  const counts = new Map();
  for (const r of failing) counts.set(categoryOf(r.reason ?? ''), (counts.get(categoryOf(r.reason ?? '')) ?? 0) + 1);
  out('');
  for (const [c, n] of [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))) out(`${String(n).padStart(5)}  ${c}`);

  const skipped = failing.filter((r) => r.outcome === 'skip').length;
  const runnable = results.length - skipped;
  const passed = results.length - failing.length;
  const percent = runnable === 0 ? '-' : ((100 * passed) / runnable).toFixed(1);
  out(
    `vpto cases: ${passed} of ${runnable} cases that can run here pass (${percent}%), ${failing.length - skipped} do not; ` +
      `${skipped} skipped (PTODSL, onboard-only or a missing Python module) (${seconds} s)`,
  );
  if (writeExceptions) {
    const file = path.join(__dirname, '..', 'test', 'corpus', 'vpto-exceptions.json');
    fs.writeFileSync(file, JSON.stringify(exceptionsOf(results), null, 2) + '\n');
    out(`wrote ${path.relative(process.cwd(), file)} (${failing.length - skipped} entries)`);
  }
})().catch((e) => {
  process.stderr.write(`${e.stack ?? e}\n`);
  process.exit(1);
});
