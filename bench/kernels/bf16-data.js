// What the kernel baselines share: the inputs pto-vm generates for an unbound pointer, bf16 bits and a
// checksum of the output's bytes. Written out here (no imports from dist/) so a baseline's time is plain Node's.
'use strict';

/** mulberry32, the generator pto-vm fills unbound inputs with (seed = the argument's index + 1). */
function random32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const f32 = new Float32Array(1);
const f32Bits = new Uint32Array(f32.buffer);

/** f32 -> bf16 bits, round to nearest even (the value is first rounded to f32, as a Float32Array store does). */
function toBf16Bits(x) {
  f32[0] = x;
  const bits = f32Bits[0];
  return ((bits + 0x7fff + ((bits >>> 16) & 1)) >>> 16) & 0xffff;
}

/** bf16 bits -> number: they are the high half of an f32. */
function fromBf16Bits(bits) {
  f32Bits[0] = bits << 16;
  return f32[0];
}

/** `count` bf16 values uniform in [-4, 4), as pto-vm generates a pointer argument it reads, decoded to f32. */
function randomBf16(count, seed) {
  const next = random32(seed);
  const values = new Float32Array(count);
  for (let i = 0; i < count; i++) values[i] = fromBf16Bits(toBf16Bits(next() * 8 - 4));
  return values;
}

/**
 * The bf16 values numbered [from, to) of each range, one after another, as pto-vm generates them (decoded to f32):
 * value n is mulberry32's n-th number, its state the seed plus n + 1 steps, so a part is made without the rest.
 */
function bf16Values(seed, ranges) {
  const values = new Float32Array(ranges.reduce((n, [from, to]) => n + to - from, 0));
  let at = 0;
  for (const [from, to] of ranges) {
    const next = random32((seed + Math.imul(from, 0x6d2b79f5)) >>> 0);
    for (let i = from; i < to; i++) values[at++] = fromBf16Bits(toBf16Bits(next() * 8 - 4));
  }
  return values;
}

/** The f32 values numbered [from, to) of each range, as pto-vm generates an f32 pointer argument (bf16Values' numbers). */
function f32Values(seed, ranges) {
  const values = new Float32Array(ranges.reduce((n, [from, to]) => n + to - from, 0));
  let at = 0;
  for (const [from, to] of ranges) {
    const next = random32((seed + Math.imul(from, 0x6d2b79f5)) >>> 0);
    for (let i = from; i < to; i++) values[at++] = next() * 8 - 4;
  }
  return values;
}

/** f32 -> bf16 bits, round to nearest with ties away from zero (tcvt's ROUND): half a bf16 step added to the magnitude. */
function toBf16BitsAway(x) {
  f32[0] = x;
  return ((f32Bits[0] + 0x8000) >>> 16) & 0xffff;
}

const lanes = new Float64Array(64);

/**
 * trowsum of f32 values[start, start + cols) on the NPU (cols a multiple of 64): the 64 lanes of a 256-byte repeat
 * folded repeat after repeat, then an adjacent-pair tree over the lanes; every add rounded to f32.
 */
function npuRowSum(values, start, cols) {
  for (let l = 0; l < 64; l++) lanes[l] = values[start + l];
  for (let r = 64; r < cols; r += 64) for (let l = 0; l < 64; l++) lanes[l] = Math.fround(lanes[l] + values[start + r + l]);
  for (let width = 32; width >= 1; width /= 2) for (let l = 0; l < width; l++) lanes[l] = Math.fround(lanes[2 * l] + lanes[2 * l + 1]);
  return lanes[0];
}

/** FNV-1a over the bytes: equal checksums mean equal outputs, bit for bit. */
function fnv1a(bytes) {
  let h = 0x811c9dc5;
  for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i], 0x01000193);
  return (h >>> 0).toString(16).padStart(8, '0');
}

module.exports = { randomBf16, bf16Values, f32Values, toBf16Bits, toBf16BitsAway, fromBf16Bits, npuRowSum, fnv1a };
