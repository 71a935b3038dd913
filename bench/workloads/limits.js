// The in-run physical limits of the VM workloads: plain typed-array JavaScript doing each workload's arithmetic on
// the same tile, with nothing of the VM around it (what a JavaScript VM cannot beat without WebAssembly).
'use strict';

const f32 = (n, seed) => Float32Array.from({ length: n }, (_, i) => Math.sin(i * 12.9898 + seed) * 4);

/** TADD f32 32x32. */
function tadd() {
  const [a, b, d] = [f32(1024, 1), f32(1024, 2), new Float32Array(1024)];
  return () => {
    for (let i = 0; i < 1024; i++) d[i] = a[i] + b[i];
  };
}

/** TROWSUM f32 32x32: each row in order, rounded to f32 after every add. */
function trowsum() {
  const [a, d] = [f32(1024, 3), new Float32Array(32)];
  return () => {
    for (let r = 0; r < 32; r++) {
      let s = a[r * 32];
      for (let c = 1; c < 32; c++) s = Math.fround(s + a[r * 32 + c]);
      d[r] = s;
    }
  };
}

/** softmax of 16x64 f32: row max, subtract, exp, row sum, divide. */
function softmax() {
  const [x, e, y] = [f32(1024, 4), new Float32Array(1024), new Float32Array(1024)];
  return () => {
    for (let r = 0; r < 16; r++) {
      let max = x[r * 64];
      for (let c = 1; c < 64; c++) max = Math.max(max, x[r * 64 + c]);
      let sum = 0;
      for (let c = 0; c < 64; c++) sum = Math.fround(sum + (e[r * 64 + c] = Math.exp(Math.fround(x[r * 64 + c] - max))));
      for (let c = 0; c < 64; c++) y[r * 64 + c] = e[r * 64 + c] / sum;
    }
  };
}

/** TCOLMIN f16 64x128: f16 bits decoded through a table, strict `<` per column. */
function tcolmin() {
  const table = new Float32Array(65536);
  const bits = new Uint32Array(table.buffer);
  for (let h = 0; h < 65536; h++) {
    const [s, e, m] = [(h & 0x8000) << 16, (h >>> 10) & 31, h & 1023];
    if (e === 0) table[h] = (s ? -1 : 1) * m * 2 ** -24;
    else bits[h] = (s | (e === 31 ? 0x7f800000 | (m << 13) : ((e + 112) << 23) | (m << 13))) >>> 0;
  }
  const src = Uint16Array.from({ length: 64 * 128 }, (_, i) => (Math.imul(i, 2654435761) >>> 17) & 0x7bff);
  const dst = new Uint16Array(128);
  return () => {
    for (let c = 0; c < 128; c++) {
      let best = 0;
      for (let r = 1; r < 64; r++) if (table[src[r * 128 + c]] < table[src[best * 128 + c]]) best = r;
      dst[c] = src[best * 128 + c];
    }
  };
}

module.exports = { tadd, trowsum, softmax, tcolmin };
