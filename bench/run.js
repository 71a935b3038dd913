#!/usr/bin/env node
// Benchmarks against the targets of issue 15, each a ratio against a baseline measured in the same run (absolute
// times vary from machine to machine; ratios much less). Run: npm run bench
'use strict';
const fs = require('fs');
const path = require('path');
const { assemble } = require('../dist/verify/assemble');
const { bindArguments } = require('../dist/vm/io/arguments');
const { runFunction } = require('../dist/vm/interpreter');
const { lowerProgram } = require('../dist/lower');
const { startupRows } = require('./startup');
const { vmRows, microRows, realKernelRows, profileRow, pyptoKernelRows, jobsRows } = require('./vm');

/** The assembler's rows (bench/assembler.js), in this table's form: a throughput's target is a least. */
function assemblerRows() {
  return require('./assembler')
    .assemblerRows()
    .map((r) => {
      const [unit, baseline] = r.unit.split(/ \((baseline: [^)]*)\)/);
      return { ...r, name: `assembler: ${r.name}${baseline ? ` (${baseline})` : ''}`, unit, higherIsBetter: unit === 'MB/s' };
    });
}

const fixed = (v) => (Math.abs(v) >= 100 ? v.toFixed(0) : v.toFixed(2));
const rows = [...vmRows(), ...microRows(), ...realKernelRows(), profileRow(), ...pyptoKernelRows(), ...jobsRows(), ...assemblerRows(), ...startupRows()];
console.log('| measurement | ours | baseline | ratio | target | met |');
console.log('|---|---|---|---|---|---|');
// A row that could not be measured here (its inputs are missing) has null figures: it is marked skipped, not failed.
const skipped = (r) => r.ours === null;
for (const r of rows) {
  const sense = r.higherIsBetter ? '>=' : '<=';
  if (skipped(r)) {
    console.log(`| ${r.name} | - | - | - | ${sense} ${r.target} | skipped |`);
    continue;
  }
  console.log(
    `| ${r.name} | ${fixed(r.ours)} ${r.unit} | ${fixed(r.baseline)} ${r.unit} | ${r.ratio.toFixed(2)} | ${sense} ${r.target} | ${r.met ? 'yes' : 'no'} |`,
  );
}
const measured = rows.filter((r) => !skipped(r));
const skippedCount = rows.length - measured.length;
console.log(`\n${measured.filter((r) => r.met).length} of ${measured.length} targets met${skippedCount ? `; ${skippedCount} skipped` : ''}.\n`);

// AscendC lowering (not a target): each shipped program run lowered (the default) against its direct model.
function time(fn, repeat) {
  let best = Infinity;
  let result;
  for (let i = 0; i < repeat; i++) {
    const t0 = process.hrtime.bigint();
    result = fn();
    best = Math.min(best, Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return { ms: best, result };
}
for (const name of ['whole-reduce-min', 'block-reduce-sum', 'vec-reduce-add', 'copy']) {
  const text = fs.readFileSync(path.join(__dirname, '..', 'programs', `${name}.pto`), 'utf8');
  const direct = assemble(`${name}.pto`, text);
  const lowered = lowerProgram(direct);
  const runOnce = (a) => {
    const f = [...a.program.functions.values()][0];
    const bound = bindArguments(a.types, f, new Map());
    return runFunction(a.program, a.types, f, bound.values, { numerics: 'npu', maxSteps: 1e8 });
  };
  const d = time(() => runOnce(direct), 20);
  const l = time(() => runOnce(lowered), 20);
  console.log(`${name}.pto: lowered run ${l.ms.toFixed(2)} ms (${l.result.steps} ops) = ${(l.ms / d.ms).toFixed(1)}x the direct model's ${d.ms.toFixed(2)} ms`);
}
