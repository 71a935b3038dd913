// What the two kernel baselines share: the inputs pto-vm generates for an unbound pointer, bf16 bits and a
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

/** FNV-1a over the bytes: equal checksums mean equal outputs, bit for bit. */
function fnv1a(bytes) {
  let h = 0x811c9dc5;
  for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i], 0x01000193);
  return (h >>> 0).toString(16).padStart(8, '0');
}

module.exports = { randomBf16, bf16Values, toBf16Bits, fromBf16Bits, fnv1a };
