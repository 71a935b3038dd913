#!/usr/bin/env node
// Where a pypto kernel's run goes (issue 36): the phases of `pto-vm run`, three times over the same kernel in a fresh
// process per kernel, so that the first pass (cold: V8 interprets and compiles the toolchain's code as it goes)
// stands beside the later ones (warm: the same work with compiled code). Needs dist/ built and PTO_UPSTREAM_DIR.
//
//   node bench/pypto-phases.js
'use strict';
const fs = require('fs');
const { spawnSync } = require('child_process');
const { performance } = require('perf_hooks');
const { PYPTO_KERNELS, sampleFile } = require('./pypto-kernels');

const loadStart = performance.now();
const { assemble } = require('../dist/verify/assemble');
const { bindArguments } = require('../dist/vm/io/arguments');
const { runFunction } = require('../dist/vm/interpreter');
const loadMs = performance.now() - loadStart;

const only = process.argv[2];
if (only === undefined) {
  if (!PYPTO_KERNELS.some((k) => sampleFile(k))) {
    console.log('skipped: set PTO_UPSTREAM_DIR to a PTOAS checkout');
    process.exit(0);
  }
  console.log('| kernel | pass | modules ms | assemble ms | bind ms | run ms |');
  console.log('|---|---|---|---|---|---|');
  PYPTO_KERNELS.forEach((kernel, i) => {
    if (!sampleFile(kernel)) return;
    const child = spawnSync(process.execPath, [__filename, String(i)], { encoding: 'utf8' });
    if (child.status !== 0) throw new Error(`${kernel.sample}: ${child.stderr}`);
    process.stdout.write(child.stdout);
  });
} else {
  const kernel = PYPTO_KERNELS[Number(only)];
  const file = sampleFile(kernel);
  const text = fs.readFileSync(file, 'utf8');
  // The kernel's --arg NAME=VALUE pairs, as pto-vm takes them.
  const specs = new Map();
  for (let i = 0; i + 1 < kernel.args.length; i += 2) if (kernel.args[i] === '--arg') specs.set(...kernel.args[i + 1].split('='));
  ['cold', 'warm', 'warm'].forEach((pass, k) => {
    const t0 = performance.now();
    const asm = assemble(file, text);
    const t1 = performance.now();
    const fn = [...asm.program.functions.values()][0];
    const bound = bindArguments(asm.types, fn, specs);
    const t2 = performance.now();
    const run = runFunction(asm.program, asm.types, fn, bound.values, { numerics: 'npu', maxSteps: 1e9 });
    const t3 = performance.now();
    if (run.trap) throw new Error(`${kernel.sample}: ${run.trap.message}`);
    const modules = k === 0 ? loadMs.toFixed(0) : '-';
    console.log(`| ${kernel.sample} | ${pass} | ${modules} | ${(t1 - t0).toFixed(1)} | ${(t2 - t1).toFixed(1)} | ${(t3 - t2).toFixed(1)} |`);
  });
}
