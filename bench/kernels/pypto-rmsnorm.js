#!/usr/bin/env node
// Baseline for pypto's Qwen3Decode rmsnorm (PTOAS test/samples/Qwen3DecodeA3/kernels/aiv/rmsnorm.pto; the A5 kernel
// is the same program at other addresses): y = x * (1 / sqrt(sum(x^2) / 8192 + eps)) * gamma over 16 rows of 8192
// bf16 values, gamma 8192 f32 values, in plain JavaScript on pto-vm's generated inputs (x seed 1, gamma seed 3) and
// in the kernel's f32 steps and order: per row, the sum starts at +0 and adds, chunk after 512-column chunk, the
// chunk's trowsum of the squares (tmul), as the NPU sums a row (bf16-data.js npuRowSum); then x (1/8192), + eps,
// sqrt, 1/x; then (x * inv) * gamma, rounded to bf16 with ties away from zero (tcvt's ROUND). Every step rounds to
// f32. Prints a checksum of y's bytes, which `pto-vm run --out arg1=Y.bin` matches.
//   node bench/kernels/pypto-rmsnorm.js
'use strict';
const { bf16Values, f32Values, toBf16BitsAway, npuRowSum, fnv1a } = require('./bf16-data');

const ROWS = 16;
const COLS = 8192;
const CHUNK = 512; // columns per trowsum
const INV_COLS = Math.fround(1.220703125e-4);
const EPS = Math.fround(1e-6);

const x = bf16Values(1, [[0, ROWS * COLS]]);
const gamma = f32Values(3, [[0, COLS]]);
const squares = new Float32Array(COLS);
const y = new Uint16Array(ROWS * COLS);

for (let r = 0; r < ROWS; r++) {
  const row = r * COLS;
  for (let c = 0; c < COLS; c++) squares[c] = x[row + c] * x[row + c];
  let sum = 0;
  for (let c0 = 0; c0 < COLS; c0 += CHUNK) sum = Math.fround(sum + npuRowSum(squares, c0, CHUNK));
  const variance = Math.fround(Math.fround(sum * INV_COLS) + EPS);
  const inv = Math.fround(1 / Math.fround(Math.sqrt(variance)));
  for (let c = 0; c < COLS; c++) y[row + c] = toBf16BitsAway(Math.fround(x[row + c] * inv) * gamma[c]);
}

console.log(`pypto rmsnorm: y[0][0..3] bits ${Array.from(y.subarray(0, 4)).join(' ')}; fnv1a ${fnv1a(new Uint8Array(y.buffer))}`);
