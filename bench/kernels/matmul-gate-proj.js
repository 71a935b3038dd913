#!/usr/bin/env node
// Baseline for programs/matmul-gate-proj.pto: C (16x256 f32) = A (16x8192 bf16) x B (8192x256 bf16) in plain
// JavaScript, with the kernel's inputs (pto-vm's generated data: A seed 1, B seed 2) and its order of additions:
// each tmatmul sums 128 products from 0, every add rounded to f32, and the 64 partial sums are added to the
// accumulator in K order, each add rounded to f32 (a bf16 x bf16 product is exact in f32, so rounding the sum
// is the cube's fused multiply-add). Prints a checksum of C's bytes, which `pto-vm run --out c=C.bin` matches.
//   node bench/kernels/matmul-gate-proj.js
'use strict';
const { randomBf16, fnv1a } = require('./bf16-data');

const M = 16;
const K = 8192;
const N = 256;
const K_STEP = 128; // K of one tmatmul: the part of a 256-wide L1 slice that fits L0B

const a = randomBf16(M * K, 1);
const b = randomBf16(K * N, 2);
const c = new Float32Array(M * N);
const partial = new Float64Array(N);

for (let i = 0; i < M; i++) {
  for (let k0 = 0; k0 < K; k0 += K_STEP) {
    partial.fill(0);
    for (let k = k0; k < k0 + K_STEP; k++) {
      const aik = a[i * K + k];
      const row = k * N;
      for (let j = 0; j < N; j++) partial[j] = Math.fround(partial[j] + aik * b[row + j]);
    }
    for (let j = 0; j < N; j++) c[i * N + j] = k0 === 0 ? partial[j] : Math.fround(c[i * N + j] + partial[j]);
  }
}

let sum = 0;
for (const v of c) sum += v;
console.log(`matmul-gate-proj: C[0][0..3] = ${Array.from(c.subarray(0, 4)).join(' ')}; sum ${sum}; fnv1a ${fnv1a(new Uint8Array(c.buffer))}`);
