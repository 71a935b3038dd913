#!/usr/bin/env node
// Baseline for pypto's DeepseekV4Decode rms_norm (PTOAS test/samples/DeepseekV4DecodeA3/kernels/aiv/rms_norm.pto,
// block 0): y = x * (1 / sqrt(sum(x^2) / 4096 + eps)) * w over 8 rows of 4096 bf16 values, w 4096 bf16 values, in
// plain JavaScript on pto-vm's generated inputs (x seed 1, w seed 3) and in the kernel's f32 steps and order: per row,
// the sum starts at +0 and adds, chunk after 128-column chunk, the chunk's trowsum of the squares (tmul), as the NPU
// sums a row (bf16-data.js npuRowSum); then x (1/4096), + eps, trsqrt (1 / sqrt in double, rounded once); then
// (x * inv) * w, rounded to bf16 with ties to even (tcvt's RINT). Every step rounds to f32. Prints a checksum of y's
// bytes, which `pto-vm run --out arg1=Y.bin` matches.
//   node bench/kernels/pypto-deepseek-rms-norm.js
'use strict';
const { bf16Values, toBf16Bits, npuRowSum, fnv1a } = require('./bf16-data');

const ROWS = 8;
const COLS = 4096;
const CHUNK = 128; // columns per trowsum
const INV_COLS = Math.fround(2.44140625e-4);
const EPS = Math.fround(1e-6);

const x = bf16Values(1, [[0, ROWS * COLS]]);
const w = bf16Values(3, [[0, COLS]]);
const squares = new Float32Array(COLS);
const y = new Uint16Array(ROWS * COLS);

for (let r = 0; r < ROWS; r++) {
  const row = r * COLS;
  for (let c = 0; c < COLS; c++) squares[c] = x[row + c] * x[row + c];
  let sum = 0;
  for (let c0 = 0; c0 < COLS; c0 += CHUNK) sum = Math.fround(sum + npuRowSum(squares, c0, CHUNK));
  const inv = Math.fround(1 / Math.sqrt(Math.fround(Math.fround(sum * INV_COLS) + EPS)));
  for (let c = 0; c < COLS; c++) y[row + c] = toBf16Bits(Math.fround(x[row + c] * inv) * w[c]);
}

console.log(`pypto deepseek rms_norm: y[0][0..3] bits ${Array.from(y.subarray(0, 4)).join(' ')}; fnv1a ${fnv1a(new Uint8Array(y.buffer))}`);
