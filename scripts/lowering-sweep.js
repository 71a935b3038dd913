#!/usr/bin/env node
/**
 * The whole lowering sweep (issue 38, docs/lowering.md) with one command: every template-backed A5 tile op, tile-level
 * and expanded through PTOAS's templates, on the same inputs, in both tables (the elementwise and reduction sweep,
 * test/expand/sweep.test.ts, and the families, test/expand/families.test.ts); each table is written to OUT_DIR.
 *
 *   node scripts/lowering-sweep.js PTOAS_EXPORT [OUT_DIR]     (OUT_DIR defaults to ./lowering-sweep)
 *
 * It needs python3 with numpy (the templates run in PTOAS's ptodsl over python/ptoas_shim). About 10 minutes on 2 CPUs.
 */
const { spawnSync } = require('child_process');
const fs = require('fs');
const path = require('path');

const [root, out = 'lowering-sweep'] = process.argv.slice(2);
if (!root || !fs.existsSync(path.join(root, 'lib', 'TileOps'))) {
  process.stderr.write('usage: node scripts/lowering-sweep.js PTOAS_EXPORT [OUT_DIR]  (PTOAS_EXPORT: a PTOAS tree with lib/TileOps)\n');
  process.exit(2);
}
fs.mkdirSync(out, { recursive: true });
const env = {
  ...process.env,
  PTO_UPSTREAM_DIR: path.resolve(root),
  PTO_EXPAND_SWEEP: path.resolve(out, 'sweep.md'),
  PTO_EXPAND_FAMILIES: path.resolve(out, 'families.md'),
};
const jest = path.join(__dirname, '..', 'node_modules', 'jest', 'bin', 'jest.js');
const run = spawnSync(process.execPath, [jest, 'test/expand/sweep', 'test/expand/families', '--testTimeout=3600000'], {
  cwd: path.join(__dirname, '..'),
  env,
  stdio: 'inherit',
});
if (run.status === 0) process.stdout.write(`tables: ${env.PTO_EXPAND_SWEEP}, ${env.PTO_EXPAND_FAMILIES}\n`);
process.exit(run.status ?? 1);
