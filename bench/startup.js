#!/usr/bin/env node
// Start-up of the command-line tools: wall-clock time of a whole process, against `node -e 0` measured in the same
// run (the part of a short run that is Node's own). Needs dist/ built. Run: node bench/startup.js
'use strict';
const { spawnSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

const ROOT = path.join(__dirname, '..');

/** One process: its wall-clock time in ms; it must succeed. */
function spawnMs(args) {
  const t0 = process.hrtime.bigint();
  const run = spawnSync(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (run.status !== 0) throw new Error(`node ${args.join(' ')} exited with ${run.status}: ${run.stderr}`);
  return ms;
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * The two start-up measurements, each the median of `spawns` processes. The processes take turns (baseline, pto-as,
 * pto-vm, baseline, ...), so that a change in the machine's load falls on all three alike.
 */
function startupRows(spawns = 9) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pto-startup-'));
  const empty = path.join(dir, 'empty.pto');
  fs.writeFileSync(empty, 'module {}\n');
  const commands = {
    baseline: ['-e', '0'],
    ptoAs: [path.join('bin', 'pto-as'), empty],
    ptoVm: [path.join('bin', 'pto-vm'), 'run', path.join('programs', 'tcolmin.pto'), '--target', 'a5'],
  };
  const times = { baseline: [], ptoAs: [], ptoVm: [] };
  try {
    for (const args of Object.values(commands)) spawnMs(args); // not counted: fills the file system's cache
    for (let i = 0; i < spawns; i++) for (const [name, args] of Object.entries(commands)) times[name].push(spawnMs(args));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const baseline = median(times.baseline);
  const row = (name, ms, target) => {
    const ratio = ms / baseline;
    return { name, ours: ms, baseline, ratio, unit: 'ms', target, met: ratio <= target };
  };
  return [
    row('start-up: `pto-as FILE` on `module {}` vs `node -e 0`', median(times.ptoAs), 2),
    row('start-up: `pto-vm run programs/tcolmin.pto --target a5` vs `node -e 0`', median(times.ptoVm), 3),
  ];
}

module.exports = { startupRows };

if (require.main === module) {
  console.log('| measurement | ours | baseline | ratio | target | met |');
  console.log('|---|---|---|---|---|---|');
  for (const r of startupRows()) {
    console.log(
      `| ${r.name} | ${r.ours.toFixed(0)} ${r.unit} | ${r.baseline.toFixed(0)} ${r.unit} | ${r.ratio.toFixed(2)} | <= ${r.target} | ${r.met ? 'yes' : 'no'} |`,
    );
  }
}
