#!/usr/bin/env node
// Benchmarks, reported as ratios against baselines measured in the same run (figures in absolute
// time vary from machine to machine; ratios much less). Run: npm run bench
'use strict';
const fs = require('fs');
const path = require('path');
const { assemble } = require('../dist/verify/assemble');
const { SourceFile } = require('../dist/diag/source');
const { DiagnosticBag } = require('../dist/diag/diagnostic');
const { parseModule } = require('../dist/syntax/parse');
const { opRegistry } = require('../dist/ops/registry');
const { bindArguments } = require('../dist/vm/io/arguments');
const { runFunction } = require('../dist/vm/interpreter');
const { lowerProgram } = require('../dist/lower');

function time(fn, repeat = 3) {
  let best = Infinity;
  let result;
  for (let i = 0; i < repeat; i++) {
    const t0 = process.hrtime.bigint();
    result = fn();
    best = Math.min(best, Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return { ms: best, result };
}

/**
 * A module of copies of the function in programs/rowsum.pto. With `distinct`, every copy renames
 * its SSA values, so no statement repeats (the parser's statement cache cannot help); without it,
 * the copies repeat statements word for word, as compiler output often does.
 */
function bigProgram(targetBytes, distinct = true) {
  const text = fs.readFileSync(path.join(__dirname, '..', 'programs', 'rowsum.pto'), 'utf8');
  const fn = text.slice(text.indexOf('func.func'), text.lastIndexOf('}'));
  const parts = ['module {'];
  let size = 0;
  for (let i = 0; size < targetBytes; i++) {
    let copy = fn.replace('@row_sum_max', `@row_sum_max_${i}`);
    if (distinct) copy = copy.replace(/%([A-Za-z_][\w]*)/g, `%$1_${i}`);
    parts.push(copy);
    size += copy.length;
  }
  parts.push('}');
  return parts.join('\n');
}

const mb = bigProgram(1 << 20);
const megabytes = mb.length / (1 << 20);

// Baseline 1: a regex tokenizer over the same text (a lower bound for any parser).
const lex = time(() => mb.match(/%[\w.$-]+|![\w.]+<[^>]*>|[\w.]+|\S/g).length);
// Ours: scanner + Ohm per statement + interned types; then the verifier.
const parseWith = (text, options) => {
  const src = new SourceFile('bench.pto', text);
  return parseModule(src, new DiagnosticBag(src), opRegistry(), options);
};
const parse = time(() => parseWith(mb));
const full = time(() => assemble('bench.pto', mb));
const repeated = bigProgram(1 << 20, false);
const fullRepeated = time(() => assemble('bench.pto', repeated));
// Baseline 2: the parser without its fast paths (no statement reuse, no type interning), on repeated statements.
const parseRepeated = time(() => parseWith(repeated));
const parseRepeatedSlow = time(() => parseWith(repeated, { fastPaths: false }));

// VM: colsum-loop.pto run end to end (bind + run), against the time to assemble it.
const loopText = fs.readFileSync(path.join(__dirname, '..', 'programs', 'colsum-loop.pto'), 'utf8');
const loop = assemble('colsum-loop.pto', loopText, { target: 'a5' });
const fn = loop.program.functions.get('colsum_blocks');
const vm = time(() => {
  const args = bindArguments(loop.types, fn, new Map());
  return runFunction(loop.program, loop.types, fn, args.values, { numerics: 'cpu-sim', maxSteps: 1e9 });
}, 20);
const asm = time(() => assemble('colsum-loop.pto', loopText, { target: 'a5' }), 20);

const rows = [
  ['regex tokenizer (baseline)', lex.ms, 1],
  ['parse (scanner + Ohm per statement)', parse.ms, parse.ms / lex.ms],
  ['parse + verify', full.ms, full.ms / lex.ms],
  ['parse + verify, statements repeated', fullRepeated.ms, fullRepeated.ms / lex.ms],
  ['parse, statements repeated', parseRepeated.ms, parseRepeated.ms / lex.ms],
  ['parse, statements repeated, no fast paths', parseRepeatedSlow.ms, parseRepeatedSlow.ms / lex.ms],
];
console.log(`input: ${megabytes.toFixed(2)} MB of PTO-AS, every statement distinct (${full.result.diags.errorCount} errors)`);
console.log('| phase | ms per MB | x baseline |');
console.log('|---|---|---|');
for (const [name, ms, ratio] of rows) console.log(`| ${name} | ${(ms / megabytes).toFixed(0)} | ${ratio.toFixed(1)} |`);
console.log(
  `parse + verify throughput: ${(megabytes / (full.ms / 1000)).toFixed(2)} MB/s distinct, ${(megabytes / (fullRepeated.ms / 1000)).toFixed(2)} MB/s repeated; the fast paths parse repeated statements ${(parseRepeatedSlow.ms / parseRepeated.ms).toFixed(1)}x faster`,
);
console.log(
  `colsum-loop.pto: run ${vm.ms.toFixed(2)} ms vs assemble ${asm.ms.toFixed(2)} ms (run/assemble = ${(vm.ms / asm.ms).toFixed(2)}), ${vm.result.steps} ops`,
);
// The vector ISA: softmax.pto (16x64 f32: trowmax, trowexpandsub, texp, trowsum, trowexpanddiv) per element,
// against a plain JS softmax of the same elements as the baseline.
const softmaxText = fs.readFileSync(path.join(__dirname, '..', 'programs', 'softmax.pto'), 'utf8');
const softmax = assemble('softmax.pto', softmaxText, { target: 'a5' });
const softmaxFn = softmax.program.functions.get('softmax_16x64');
const softmaxArgs = bindArguments(softmax.types, softmaxFn, new Map());
const softmaxRun = time(() => runFunction(softmax.program, softmax.types, softmaxFn, softmaxArgs.values, { numerics: 'cpu-sim', maxSteps: 1e6 }), 50);
const jsInput = Float32Array.from({ length: 1024 }, (_, i) => Math.sin(i));
const jsSoftmax = time(() => {
  const out = new Float32Array(1024);
  for (let r = 0; r < 16; r++) {
    let max = -Infinity;
    for (let c = 0; c < 64; c++) max = Math.max(max, jsInput[r * 64 + c]);
    let sum = 0;
    for (let c = 0; c < 64; c++) sum += out[r * 64 + c] = Math.exp(jsInput[r * 64 + c] - max);
    for (let c = 0; c < 64; c++) out[r * 64 + c] /= sum;
  }
  return out;
}, 200);
console.log(
  `softmax.pto: run ${softmaxRun.ms.toFixed(2)} ms for 1024 elements (${((softmaxRun.ms * 1e6) / 1024).toFixed(0)} ns each) = ${(softmaxRun.ms / jsSoftmax.ms).toFixed(0)}x a plain JS softmax (${jsSoftmax.ms.toFixed(3)} ms)`,
);
// AscendC lowering: each shipped program run lowered (the default) against its direct model.
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
  const lower = time(() => lowerProgram(direct), 20);
  console.log(
    `${name}.pto: lowered run ${l.ms.toFixed(2)} ms (${l.result.steps} ops) = ${(l.ms / d.ms).toFixed(1)}x the direct model's ${d.ms.toFixed(2)} ms; lowering + verification ${lower.ms.toFixed(2)} ms`,
  );
}
console.log(`heap used: ${(process.memoryUsage().heapUsed / (1 << 20)).toFixed(0)} MB, rss ${(process.memoryUsage().rss / (1 << 20)).toFixed(0)} MB`);
