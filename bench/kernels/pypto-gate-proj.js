#!/usr/bin/env node
// Baseline for pypto's Qwen3Decode gate_proj (PTOAS test/samples/Qwen3DecodeA3/kernels/aic/gate_proj.pto; the A5
// kernel is the same program): block 0 with arg3 = 0 computes C (16x256 f32) = A (16x8192 bf16) x W[:, 0:256], W an
// 8192x25600 bf16 weight, in plain JavaScript. The inputs are pto-vm's generated data (A seed 1, W seed 2); element
// n of W is mulberry32's n-th number, so only the 8192x256 slice the block reads is generated, as pto-vm now does.
// The kernel's order of additions: each tmatmul sums 64 products from 0 (f32 fused multiply-adds: a bf16 x bf16
// product is exact in f32), and its sum is added to the accumulator in K order, rounded to f32. The output is 16x512
// f32, zeros where an output pto-vm generates is not stored into: block 0 stores C in columns 0-255. Prints a
// checksum of the output's bytes, which `pto-vm run --out arg2=OUT.bin` matches.
//   node bench/kernels/pypto-gate-proj.js
'use strict';
const { bf16Values, fnv1a } = require('./bf16-data');

const M = 16;
const K = 8192;
const N = 256;
const WIDTH = 25600; // W's row length
const OUT_WIDTH = 512; // the output's row length
const K_STEP = 64; // K of one tmatmul (a 64x256 L0B tile)

const a = bf16Values(1, [[0, M * K]]);
const w = bf16Values(
  2,
  Array.from({ length: K }, (_, k) => [k * WIDTH, k * WIDTH + N]),
);
const c = new Float32Array(M * OUT_WIDTH);
const partial = new Float64Array(N);

for (let i = 0; i < M; i++) {
  for (let k0 = 0; k0 < K; k0 += K_STEP) {
    partial.fill(0);
    for (let k = k0; k < k0 + K_STEP; k++) {
      const aik = a[i * K + k];
      const row = k * N;
      for (let j = 0; j < N; j++) partial[j] = Math.fround(partial[j] + aik * w[row + j]);
    }
    for (let j = 0; j < N; j++) c[i * OUT_WIDTH + j] = k0 === 0 ? partial[j] : Math.fround(c[i * OUT_WIDTH + j] + partial[j]);
  }
}

console.log(`pypto gate_proj: C[0][0..3] = ${Array.from(c.subarray(0, 4)).join(' ')}; fnv1a ${fnv1a(new Uint8Array(c.buffer))}`);
