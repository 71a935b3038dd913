#!/usr/bin/env node
// Baseline for pypto's DeepseekV4Decode weights_proj (PTOAS test/samples/DeepseekV4DecodeA3/kernels/aic/
// weights_proj.pto, block 0): C (8x64 f32) = x[:, 0:1024] (x 8x4096 bf16) x W[0:1024, :] (W 4096x64 bf16), in plain
// JavaScript on pto-vm's generated inputs (x seed 1, W seed 2), in the kernel's order of additions: four tmatmuls of
// K = 256 (k 0-255, 256-511, 512-767, 768-1023), each a sum from +0 over its k in ascending order, one f32 fused
// multiply-add per step (a bf16 x bf16 product is exact, so the double sum rounded once is the fused add whenever
// that sum is exact in double, which it is for these inputs: the checksum says so); the first sum is C, each later
// one is added to C, rounded to f32. The 64x64 f32 output starts as zeros (an output pto-vm generates) and the block
// stores its 16-row accumulator: rows 0-7 C, rows 8-15 the accumulator's untouched zeros. Prints a checksum of the
// output's bytes, which `pto-vm run --out arg2=C.bin` matches.
//   node bench/kernels/pypto-deepseek-weights-proj.js
'use strict';
const { bf16Values, fnv1a } = require('./bf16-data');

const M = 8;
const X_WIDTH = 4096; // x's row length
const K = 1024; // the K block 0 sums over
const N = 64;
const K_STEP = 256; // K of one tmatmul

const x = bf16Values(
  1,
  Array.from({ length: M }, (_, i) => [i * X_WIDTH, i * X_WIDTH + K]),
);
const w = bf16Values(2, [[0, K * N]]);
const out = new Float32Array(64 * N);
const partial = new Float64Array(N);

for (let i = 0; i < M; i++) {
  for (let k0 = 0; k0 < K; k0 += K_STEP) {
    partial.fill(0);
    for (let k = k0; k < k0 + K_STEP; k++) {
      const xik = x[i * K + k];
      const row = k * N;
      for (let j = 0; j < N; j++) partial[j] = Math.fround(partial[j] + xik * w[row + j]);
    }
    for (let j = 0; j < N; j++) out[i * N + j] = k0 === 0 ? partial[j] : Math.fround(out[i * N + j] + partial[j]);
  }
}

console.log(`pypto deepseek weights_proj: C[0][0..3] = ${Array.from(out.subarray(0, 4)).join(' ')}; fnv1a ${fnv1a(new Uint8Array(out.buffer))}`);
