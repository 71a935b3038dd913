// Runs PTOAS's A5 tile-op suite (test/tilelang_st/npu/a5/src/st/testcase of a PTOAS export) with the VM as the
// board (src/board/tilelang.ts): per testcase gen_data.py once, then per case of main.cpp's table the host harness
// as written (main.cpp and launch.cpp interpreted: its allocations, file reads, copies, scalar arguments and launch),
// the kernel on the VM (--pto-backend vpto, the back end the suite is compiled for), and compare.py. Cases run in a
// pool of child processes, one per CPU. Needs the build (`npm run build`) and python3 with numpy
// and ml_dtypes.
//
//   node scripts/tilelang-suite.js PTOAS_EXPORT [TESTCASE...] [--jobs N] [--keep DIR] [--write-exceptions] [--categories FILE]
//
// Prints one line per case that does not pass (with its category), the counts by category, and the totals.
// --write-exceptions rewrites test/corpus/tilelang-exceptions.json from this run (test/corpus/tilelang.test.ts
// compares each run with it); --categories writes the table of categories as Markdown.
'use strict';
const fs = require('fs');
const path = require('path');

const { suiteCommandLine, builtSuite } = require('./suite-command-line');

const { exportRoot, only, options } = suiteCommandLine(
  'node scripts/tilelang-suite.js PTOAS_EXPORT [TESTCASE...] [--jobs N] [--keep DIR] [--write-exceptions] [--categories FILE]',
  ['--jobs', '--keep', '--categories'],
  ['--write-exceptions'],
);
const { jobs, keep } = options;
const writeExceptions = options['write-exceptions'];
const categoriesFile = options.categories;
const { runSuite, categoryOf, categoriesTable, exceptionsOf } = builtSuite('tilelang-suite');

(async () => {
  const started = Date.now();
  const results = await runSuite(exportRoot, { jobs: jobs === undefined ? undefined : Number(jobs), only, keep: keep && path.resolve(keep) });
  const seconds = ((Date.now() - started) / 1000).toFixed(0);
  const failing = results.filter((r) => r.outcome !== 'pass');
  for (const r of [...failing].sort((a, b) => a.id.localeCompare(b.id))) process.stdout.write(`${r.id}: ${r.outcome}: [${categoryOf(r.reason)}] ${r.reason}\n`);
  const counts = new Map();
  for (const r of failing) counts.set(categoryOf(r.reason), (counts.get(categoryOf(r.reason)) ?? 0) + 1);
  for (const [c, n] of [...counts].sort((a, b) => b[1] - a[1])) process.stdout.write(`${String(n).padStart(5)}  ${c}\n`);
  const skipped = failing.filter((r) => r.outcome === 'skip').length;
  const runnable = results.length - skipped;
  const passed = results.length - failing.length;
  process.stdout.write(
    `tilelang_st a5: ${passed} of ${runnable} cases that can run here pass (${((100 * passed) / runnable).toFixed(1)}%), ` +
      `${failing.length - skipped} do not; ${skipped} skipped (a Python module is missing) (${seconds} s)\n`,
  );
  if (writeExceptions) {
    const file = path.join(__dirname, '..', 'test', 'corpus', 'tilelang-exceptions.json');
    fs.writeFileSync(file, JSON.stringify(exceptionsOf(results), null, 2) + '\n');
    process.stdout.write(`wrote ${path.relative(process.cwd(), file)} (${failing.length} entries)\n`);
  }
  if (categoriesFile) fs.writeFileSync(categoriesFile, categoriesTable(results) + '\n');
})().catch((e) => {
  process.stderr.write(`${e.stack ?? e}\n`);
  process.exit(1);
});
