#!/usr/bin/env node
// Baseline for programs/rmsnorm.pto: y = x / sqrt(mean(x^2) + eps) * g over 16 rows of 8192 bf16 values, in plain
// JavaScript, with the kernel's inputs (pto-vm's generated data: x seed 1, g seed 2) and its f32 steps in its order:
// per 1024-column chunk, squares (tmul) summed per row as trowsum does on the NPU (16 repeats of 64 lanes folded
// lane by lane, then an adjacent-pair tree over the 64 lanes), the chunk sums added to the row's sum; then
// x 1/8192, + eps, sqrt, 1/x; then x * (1 / rms) * g rounded to bf16 (nearest even). Every step rounds to f32.
// Prints a checksum of y's bytes, which `pto-vm run --out y=Y.bin` matches.
//   node bench/kernels/rmsnorm.js
'use strict';
const { randomBf16, toBf16Bits, fnv1a } = require('./bf16-data');

const ROWS = 16;
const COLS = 8192;
const CHUNK = 1024; // columns per trowsum, as the kernel walks them
const LANES = 64; // f32 lanes of one 256-byte vector repeat
const EPS = Math.fround(1e-6);

const x = randomBf16(ROWS * COLS, 1);
const g = randomBf16(COLS, 2);
const y = new Uint16Array(ROWS * COLS);
const lanes = new Float64Array(LANES);

/** trowsum of the squares of x[start, start + CHUNK) on the NPU: fold the repeats lane-wise, then the pair tree. */
function chunkSumOfSquares(start) {
  for (let l = 0; l < LANES; l++) lanes[l] = Math.fround(x[start + l] * x[start + l]);
  for (let r = LANES; r < CHUNK; r += LANES) {
    for (let l = 0; l < LANES; l++) {
      const v = x[start + r + l];
      lanes[l] = Math.fround(lanes[l] + Math.fround(v * v));
    }
  }
  for (let width = LANES / 2; width >= 1; width /= 2) {
    for (let l = 0; l < width; l++) lanes[l] = Math.fround(lanes[2 * l] + lanes[2 * l + 1]);
  }
  return lanes[0];
}

for (let r = 0; r < ROWS; r++) {
  let sum = 0;
  for (let c0 = 0; c0 < COLS; c0 += CHUNK) sum = Math.fround(sum + chunkSumOfSquares(r * COLS + c0));
  let invRms = Math.fround(sum * (1 / COLS));
  invRms = Math.fround(invRms + EPS);
  invRms = Math.fround(Math.sqrt(invRms));
  invRms = Math.fround(1 / invRms);
  for (let c = 0; c < COLS; c++) {
    const scaled = Math.fround(x[r * COLS + c] * invRms);
    y[r * COLS + c] = toBf16Bits(Math.fround(scaled * g[c]));
  }
}

let sum = 0;
const f32 = new Float32Array(1);
const bits = new Uint32Array(f32.buffer);
for (const v of y) {
  bits[0] = v << 16;
  sum += f32[0];
}
console.log(`rmsnorm: sum of y ${sum}; fnv1a ${fnv1a(new Uint8Array(y.buffer))}`);
