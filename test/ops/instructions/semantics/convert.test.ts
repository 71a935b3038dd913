/**
 * TCVT on the VM (src/vm/instructions/convert.ts) under both numerics profiles. Expected values are worked out
 * by hand from pto-isa's cpu/TCvt.hpp (cpu-sim: rounding in double, x86 truncating conversions, saturation by
 * clamping the source) and npu/a2a3, a5 TCvt.hpp (npu: per-mode rounding, per-pair saturation defaults).
 */
import { ElemType } from '../../../../src/types/type';
import { codec } from '../../../../src/numerics/elements';
import { Numerics, bits16, bits32, elementBytes, elementValues, runKernel, runWithValid } from './tile-kernel';
import { assemble } from '../../../../src/verify/assemble';
import { formatAll } from '../../../../src/diag/diagnostic';
import { Value, runFunction } from '../../../../src/vm/interpreter';

type Elem = number | bigint;
const ROWS = 2;
const COLS = 32;

const bytesOf = (dtype: ElemType, values: Elem[], fill: Elem = 0): Uint8Array => elementBytes(dtype, ROWS * COLS, values, fill);

interface Options {
  numerics?: Numerics;
  target?: 'a2a3' | 'a5';
  attrs?: string;
  srcBytes?: Uint8Array;
}

/** Converts `values` (row 0 of src) and returns the whole dst tile's bytes; the valid region is 1 x values.length. */
function tcvtBytes(from: ElemType, to: ElemType, values: Elem[], opts: Options = {}): Uint8Array {
  const line = `pto.tcvt ins(%src${opts.attrs ? ` {${opts.attrs}}` : ''} : T(src)) outs(%dst : T(dst))`;
  const dstFill = to.startsWith('f') || to === 'bf16' ? 7 : to.endsWith('64') ? 7n : 7;
  const tiles = {
    src: { dtype: from, rows: ROWS, cols: COLS, bytes: opts.srcBytes ?? bytesOf(from, values, from.endsWith('64') ? 0n : 0) },
    dst: { dtype: to, rows: ROWS, cols: COLS, bytes: bytesOf(to, [], dstFill) },
  };
  return runWithValid(line, tiles, { numerics: opts.numerics ?? 'npu', target: opts.target ?? 'a5', valid: [1, values.length] }).dst;
}

function tcvt(from: ElemType, to: ElemType, values: Elem[], opts: Options = {}): Elem[] {
  const bytes = tcvtBytes(from, to, values, opts);
  return elementValues(to, bytes, values.length);
}

const INT_MIN = -(2 ** 31);
const MODES = ['RINT', 'ROUND', 'FLOOR', 'CEIL', 'TRUNC', 'ODD', 'NONE', 'CAST_RINT'];
const mode = (m: string) => `rmode = #pto<round_mode ${m}>`;

describe('cpu-sim (the reference simulator)', () => {
  const cpu = (attrs?: string): Options => ({ numerics: 'cpu-sim', attrs });
  const xs = [2.5, -2.5, 3.5, 0.5, -0.5, 1.25, -1.75];

  test('f32 -> i32 rounds in double per mode; ODD is nearest with ties to odd, NONE truncates', () => {
    const want: Record<string, number[]> = {
      RINT: [2, -2, 4, 0, 0, 1, -2],
      ROUND: [3, -3, 4, 1, -1, 1, -2],
      FLOOR: [2, -3, 3, 0, -1, 1, -2],
      CEIL: [3, -2, 4, 1, 0, 2, -1],
      TRUNC: [2, -2, 3, 0, 0, 1, -1],
      ODD: [3, -3, 3, 1, -1, 1, -2],
      NONE: [2, -2, 3, 0, 0, 1, -1],
      CAST_RINT: [2, -2, 4, 0, 0, 1, -2],
    };
    for (const m of MODES) expect([m, tcvt('f32', 'i32', xs, cpu(mode(m)))]).toEqual([m, want[m]]);
  });

  test('f32 -> i32: NaN, infinities and overflow give INT_MIN (x86 cvttsd2si)', () => {
    expect(tcvt('f32', 'i32', [NaN, Infinity, -Infinity, 3e9, -3e9, 2147483520], cpu())).toEqual([INT_MIN, INT_MIN, INT_MIN, INT_MIN, INT_MIN, 2147483520]);
  });

  test('saturation clamps the source in double and converts it back to f32 first, so a large f32 -> i32 still gives INT_MIN', () => {
    // hi = min(FLT_MAX, INT_MAX) = 2147483647 becomes 2147483648.0f, which is out of i32's range.
    expect(tcvt('f32', 'i32', [NaN, 3e9, -3e9, 100.5], cpu('saturation = true'))).toEqual([INT_MIN, INT_MIN, INT_MIN, 100]);
  });

  test('f32 -> i16 without saturation keeps the low bits of the 32-bit conversion', () => {
    expect(tcvt('f32', 'i16', [40000, -40000, NaN, 3e9, 123.5], cpu())).toEqual([40000 - 65536, 65536 - 40000, 0, 0, 124]);
    expect(tcvt('f32', 'i16', [40000, -40000, NaN, 123.5], cpu('saturation = true'))).toEqual([32767, -32768, 32767, 124]);
  });

  test('f16 -> u8 goes through int64, so negative values wrap', () => {
    expect(tcvt('f16', 'u8', [-1, 300, 255.5, NaN], cpu())).toEqual([255, 44, 0, 0]);
    expect(tcvt('f16', 'u8', [-1, 300, NaN], cpu('saturation = true'))).toEqual([0, 255, 255]);
  });

  test('f16 -> i16 with saturation: 32767 is 32768 in f16, which wraps to -32768', () => {
    expect(tcvt('f16', 'i16', [40000, -40000], cpu('saturation = true'))).toEqual([-32768, -32768]);
  });

  test('f32 -> f16 rounds to nearest even whatever the mode; saturation turns NaN and inf into 65504', () => {
    const values = [1 + 2 ** -11, -(1 + 2 ** -11), 1 + 3 * 2 ** -11, 70000, Infinity];
    for (const m of MODES) expect([m, tcvt('f32', 'f16', values, cpu(mode(m)))]).toEqual([m, [1, -1, 1 + 2 ** -9, Infinity, Infinity]]);
    expect(tcvt('f32', 'f16', [NaN, Infinity, -Infinity, 70000, -1e30], cpu('saturation = true'))).toEqual([65504, 65504, -65504, 65504, -65504]);
  });

  test('float -> float NaNs keep their sign and payload and are quieted', () => {
    const src = bytesOf('f16', []);
    new DataView(src.buffer).setUint16(0, 0x7d01, true); // signalling NaN, payload 0x101
    new DataView(src.buffer).setUint16(2, 0xfe00, true);
    const out = tcvtBytes('f16', 'f32', [0, 0], { numerics: 'cpu-sim', srcBytes: src });
    expect([bits32(out, 0), bits32(out, 1)]).toEqual([0x7fe02000, 0xffc00000]);
    const src32 = bytesOf('f32', []);
    new DataView(src32.buffer).setUint32(0, 0xff812345, true);
    expect(bits16(tcvtBytes('f32', 'f16', [0], { numerics: 'cpu-sim', srcBytes: src32 }), 0)).toBe(0xfe09);
  });

  test('i64 -> f32 rounds to double first (two roundings)', () => {
    // 2^53 + 2^29 + 1 rounds to the double 2^53 + 2^29, an f32 tie that goes to even, 2^53.
    expect(tcvt('i64', 'f32', [2n ** 53n + 2n ** 29n + 1n], cpu())).toEqual([2 ** 53]);
    expect(tcvt('i64', 'f32', [2n ** 53n + 2n ** 29n + 1n])).toEqual([2 ** 53 + 2 ** 30]); // npu: rounded once
  });

  test('f32 -> f32 ignores the mode', () => {
    expect(tcvt('f32', 'f32', [2.7, -2.5], cpu(mode('FLOOR')))).toEqual([Math.fround(2.7), -2.5]);
  });
});

describe('npu', () => {
  test('f32 -> f16 rounds per mode; NONE and CAST_RINT are to nearest even; ODD rounds to odd', () => {
    const x = 1 + 2 ** -11 + 2 ** -20; // above the midpoint of 1 and 1 + 2^-10
    const tie = 1 + 2 ** -11;
    const want: Record<string, number[]> = {
      RINT: [1 + 2 ** -10, 1, -1],
      ROUND: [1 + 2 ** -10, 1 + 2 ** -10, -1 - 2 ** -10],
      FLOOR: [1, 1, -1 - 2 ** -10],
      CEIL: [1 + 2 ** -10, 1 + 2 ** -10, -1],
      TRUNC: [1, 1, -1],
      ODD: [1 + 2 ** -10, 1 + 2 ** -10, -1 - 2 ** -10],
      NONE: [1 + 2 ** -10, 1, -1],
      CAST_RINT: [1 + 2 ** -10, 1, -1],
    };
    for (const m of MODES) expect([m, tcvt('f32', 'f16', [x, tie, -tie], { attrs: mode(m) })]).toEqual([m, want[m]]);
  });

  test('f32 -> f16 saturates when asked (NaN -> 0, inf -> 65504); on a5 absent is OFF (PTOAS passes SaturationMode::OFF)', () => {
    expect(tcvt('f32', 'f16', [NaN, Infinity, -70000, 1], { attrs: 'saturation = true' })).toEqual([0, 65504, -65504, 1]);
    const off = tcvt('f32', 'f16', [NaN, Infinity, -70000], { attrs: 'saturation = false' });
    expect([Number.isNaN(off[0]), off[1], off[2]]).toEqual([true, Infinity, -Infinity]);
    const absent = tcvt('f32', 'f16', [NaN, Infinity, -70000]);
    expect([Number.isNaN(absent[0]), absent[1], absent[2]]).toEqual([true, Infinity, -Infinity]);
  });

  test('f32 -> i32: per mode; ODD and NONE truncate (no round-to-odd for this pair); saturated NaN is 0', () => {
    const xs = [2.5, -2.5, 3.5];
    expect(MODES.map((m) => tcvt('f32', 'i32', xs, { attrs: mode(m) }))).toEqual([
      [2, -2, 4],
      [3, -3, 4],
      [2, -3, 3],
      [3, -2, 4],
      [2, -2, 3],
      [2, -2, 3],
      [2, -2, 3],
      [2, -2, 4],
    ]);
    expect(tcvt('f32', 'i32', [NaN, 3e9, -Infinity], { attrs: 'saturation = true' })).toEqual([0, 2147483647, INT_MIN]);
  });

  test('f32 -> i32 without saturation traps on a value the NPU result is not documented for', () => {
    expect(tcvt('f32', 'i32', [5.5], { attrs: 'saturation = false' })).toEqual([6]);
    expect(() => tcvt('f32', 'i32', [3e9], { attrs: 'saturation = false' })).toThrow(
      'pto.tcvt f32 -> i32 without saturation: the NPU result for 3000000000 is not documented',
    );
  });

  test('f32 -> i16 defaults to no saturation: saturate to i32, then keep the low bits', () => {
    expect(tcvt('f32', 'i16', [40000, NaN, 3e9, -7.9], { target: 'a2a3' })).toEqual([40000 - 65536, 0, -1, -8]); // default rmode: nearest even
    expect(tcvt('f32', 'i16', [40000, NaN, -3e9], { target: 'a2a3', attrs: 'saturation = true' })).toEqual([32767, 0, -32768]);
  });

  test("today's satmode spelling means the same as saturation: ON clamps 40000 to 32767, OFF keeps the low bits 40000 - 65536", () => {
    const on = tcvt('f32', 'i16', [40000, -3e9], { target: 'a2a3', attrs: 'satmode = #pto<saturation_mode ON>' });
    expect(on).toEqual([32767, -32768]);
    expect(tcvt('f32', 'i16', [40000, -3e9], { target: 'a2a3', attrs: 'sat_mode = #pto<saturation_mode ON>' })).toEqual(on);
    expect(tcvt('i32', 'i16', [40000, -40000], { attrs: 'satmode = #pto<saturation_mode OFF>' })).toEqual([40000 - 65536, 65536 - 40000]);
    expect(tcvt('i16', 'u8', [-5, 300], { attrs: 'satmode = #pto<saturation_mode OFF>' })).toEqual([251, 44]);
  });

  test('integer narrowing: i32 -> i16 and i16 -> u8 (a5) wrap by default (PTOAS passes SaturationMode::OFF)', () => {
    expect(tcvt('i32', 'i16', [40000, -40000, 5])).toEqual([40000 - 65536, 65536 - 40000, 5]);
    expect(tcvt('i32', 'i16', [40000, -40000], { attrs: 'saturation = true' })).toEqual([32767, -32768]);
    expect(tcvt('i16', 'u8', [-5, 300, 200], { attrs: 'saturation = true' })).toEqual([0, 255, 200]);
    expect(tcvt('i16', 'u8', [-5, 300, 200])).toEqual([251, 44, 200]);
  });

  test('f32 -> f32 rounds to an integral value per mode', () => {
    expect(tcvt('f32', 'f32', [2.7, -2.5, 2.5], { attrs: mode('RINT') })).toEqual([3, -2, 2]);
    expect(tcvt('f32', 'f32', [2.7, -2.5], { attrs: mode('FLOOR') })).toEqual([2, -3]);
  });

  test('i32 -> f32 rounds per mode', () => {
    const v = 2 ** 24 + 1; // between the f32 values 2^24 and 2^24 + 2: a tie
    expect(tcvt('i32', 'f32', [v], { attrs: mode('RINT') })).toEqual([2 ** 24]);
    expect(tcvt('i32', 'f32', [v], { attrs: mode('CEIL') })).toEqual([2 ** 24 + 2]);
    expect(tcvt('i32', 'f32', [-v], { attrs: mode('ROUND') })).toEqual([-(2 ** 24 + 2)]);
  });

  test('widening is exact: f16 -> f32 keeps infinities and NaN unsaturated, bf16 -> f32, i8 -> i32', () => {
    const r = tcvt('f16', 'f32', [Infinity, -0, 65504, NaN]);
    expect([r[0], Object.is(r[1], -0), r[2], Number.isNaN(r[3])]).toEqual([Infinity, true, 65504, true]);
    expect(tcvt('bf16', 'f32', [3.140625, -Infinity])).toEqual([3.140625, -Infinity]);
    expect(tcvt('i8', 'i32', [-128, 127])).toEqual([-128, 127]);
  });
});

describe('pairs PTOAS accepts that pto-isa does not implement', () => {
  const OFF = 'satmode = #pto<saturation_mode OFF>';
  const ON = 'satmode = #pto<saturation_mode ON>';

  test("a2a3 under npu: a trap (pto-isa's A2/A3 dispatcher emits no vconv for them); cpu-sim runs the simulator's generic cast", () => {
    expect(() => tcvt('i8', 'i32', [-128, 5], { target: 'a2a3' })).toThrow(
      "converting i8 -> i32 on a2a3 is not implemented yet: PTOAS accepts it, but pto-isa's A2/A3 TCvt has no conversion for it (its GenCastCall dispatcher emits no vconv, leaving dst as it was)",
    );
    expect(tcvt('i8', 'i32', [-128, 5], { target: 'a2a3', numerics: 'cpu-sim' })).toEqual([-128, 5]);
    expect(tcvt('u16', 'f32', [65535, 3], { target: 'a2a3', numerics: 'cpu-sim' })).toEqual([65535, 3]);
  });

  test('a5, exact: integer widenings and identities, small integers into floats, whatever rmode', () => {
    expect(tcvt('i8', 'i64', [-128, 127, 5])).toEqual([-128n, 127n, 5n]);
    expect(tcvt('u16', 'u32', [65535, 0])).toEqual([65535, 0]);
    expect(tcvt('i32', 'i32', [INT_MIN, -1, 7], { attrs: mode('ODD') })).toEqual([INT_MIN, -1, 7]);
    expect(tcvt('u64', 'u64', [2n ** 64n - 1n, 1n])).toEqual([2n ** 64n - 1n, 1n]);
    expect(tcvt('u8', 'bf16', [255, 129], { attrs: mode('NONE') })).toEqual([255, 129]);
    expect(tcvt('i16', 'i64', [-32768])).toEqual([-32768n]);
  });

  test('a5 f16 -> bf16 rounds per rmode (bf16 keeps 8 significant bits): 1 + 2^-8 is a tie, 1 + 2^-10 below it', () => {
    const [tie, below] = [1 + 2 ** -8, 1 + 2 ** -10];
    const up = 1 + 2 ** -7;
    const want: Record<string, number[]> = {
      RINT: [1, 1, -1],
      CAST_RINT: [1, 1, -1],
      ROUND: [up, 1, -up],
      FLOOR: [1, 1, -up],
      CEIL: [up, up, -1],
      TRUNC: [1, 1, -1],
    };
    for (const [m, values] of Object.entries(want)) expect([m, tcvt('f16', 'bf16', [tie, below, -tie], { attrs: mode(m) })]).toEqual([m, values]);
  });

  test('a5 u32 -> f16: 2049 between 2048 and 2050; 70000 overflows: +-65504 saturated, IEEE 754 without (the default)', () => {
    expect(tcvt('u32', 'f16', [2049, 70000], { attrs: ON })).toEqual([2048, 65504]);
    expect(tcvt('u32', 'f16', [2049, 70000])).toEqual([2048, Infinity]);
    expect(tcvt('u32', 'f16', [2049], { attrs: mode('ROUND') })).toEqual([2050]);
    expect(tcvt('u32', 'f16', [70000], { attrs: OFF })).toEqual([Infinity]);
    expect(tcvt('u32', 'f16', [70000], { attrs: `${mode('TRUNC')}, ${OFF}` })).toEqual([65504]);
  });

  test('a5 f32 -> u8 rounds per rmode; out of range clamps when saturated and traps without (the default)', () => {
    const xs = [2.5, 255.4, -0.5, 300, -3, Infinity];
    expect(tcvt('f32', 'u8', xs, { attrs: ON })).toEqual([2, 255, 0, 255, 0, 255]);
    expect(tcvt('f32', 'u8', xs, { attrs: `${mode('FLOOR')}, ${ON}` })).toEqual([2, 255, 0, 255, 0, 255]);
    expect(() => tcvt('f32', 'u8', [300])).toThrow("pto.tcvt f32 -> u8 without saturation: the NPU's result for 300 is not documented");
    expect(tcvt('f32', 'u8', [2.5, 7], { attrs: mode('CEIL') })).toEqual([3, 7]);
    expect(tcvt('f32', 'u8', [254.5, 0], { attrs: OFF })).toEqual([254, 0]);
    expect(() => tcvt('f32', 'u8', [300], { attrs: OFF })).toThrow(
      "pto.tcvt f32 -> u8 without saturation: the NPU's result for 300 is not documented (pto-isa has no such conversion)",
    );
  });

  test('a5 traps: a NaN, NONE or ODD where rounding is needed, a same-type float pair', () => {
    expect(() => tcvt('f16', 'bf16', [NaN])).toThrow("pto.tcvt f16 -> bf16: the NPU's result for NaN is not documented");
    expect(tcvt('f16', 'bf16', [2, -0.5], { attrs: mode('NONE') })).toEqual([2, -0.5]);
    expect(() => tcvt('f16', 'bf16', [1 + 2 ** -10], { attrs: mode('NONE') })).toThrow(
      'pto.tcvt f16 -> bf16 with rmode NONE is not implemented yet: pto-isa has no such conversion, so how it rounds 1.0009765625 is not documented',
    );
    expect(() => tcvt('f32', 'u8', [2.5], { attrs: mode('ODD') })).toThrow('pto.tcvt f32 -> u8 with rmode ODD is not implemented yet');
    expect(() => tcvt('f16', 'f16', [1])).toThrow(
      'pto.tcvt f16 -> f16 is not implemented yet: pto-isa has none, and its f32 -> f32 rounds to an integral value, so what a same-type conversion gives is not documented',
    );
  });
});

describe("a2a3 saturation off, which PTOAS accepts for every pair: pto-isa's TCVT without a tmp ignores it but for the narrowing pairs", () => {
  test('f32 -> f16 with satmode OFF still saturates on a2a3 (NaN -> 0, inf -> 65504); a5 gives IEEE results', () => {
    const attrs = 'satmode = #pto<saturation_mode OFF>';
    expect(tcvt('f32', 'f16', [NaN, Infinity, 1], { target: 'a2a3', attrs })).toEqual([0, 65504, 1]);
    expect(tcvt('f32', 'f16', [Infinity], { target: 'a5', attrs })).toEqual([Infinity]);
  });

  test('with a tmp, the requested mode is passed on (the 5-argument TCVT_IMPL): inf stays inf', () => {
    const line = 'pto.tcvt ins(%src, %tmp {satmode = #pto<saturation_mode OFF>} : T(src), T(tmp)) outs(%dst : T(dst))';
    const tiles = {
      src: { dtype: 'f32' as ElemType, rows: ROWS, cols: COLS, bytes: bytesOf('f32', [Infinity, 1]) },
      tmp: { dtype: 'f32' as ElemType, rows: ROWS, cols: COLS, bytes: bytesOf('f32', []) },
      dst: { dtype: 'f16' as ElemType, rows: ROWS, cols: COLS, bytes: bytesOf('f16', []) },
    };
    const out = runWithValid(line, tiles, { numerics: 'npu', target: 'a2a3', valid: [1, 2] }).dst;
    expect(elementValues('f16', out, 2)).toEqual([Infinity, 1]);
  });
});

describe('valid region', () => {
  test.each(['npu', 'cpu-sim'] as const)('%s: only the valid region is written; padding keeps its bytes', (numerics) => {
    const out = tcvtBytes('f32', 'f16', [1.5, -2, 3], { numerics });
    const fill = codec('f16').round(7);
    const all = elementValues('f16', out, ROWS * COLS);
    expect(all.slice(0, 3)).toEqual([1.5, -2, 3]);
    expect(all.slice(3).every((v) => v === fill)).toBe(true);
  });
});

test('u8 -> u16 over the whole tile reads each source byte alone, up to the last (a 4-byte read ran off the tile)', () => {
  const values = Array.from({ length: ROWS * COLS }, (_, i) => (i * 7) % 256);
  for (const numerics of ['npu', 'cpu-sim'] as const) {
    const tiles = {
      src: { dtype: 'u8' as ElemType, rows: ROWS, cols: COLS, bytes: Uint8Array.from(values) },
      dst: { dtype: 'u16' as ElemType, rows: ROWS, cols: COLS, bytes: bytesOf('u16', [], 7) },
    };
    const out = runWithValid('pto.tcvt ins(%src : T(src)) outs(%dst : T(dst))', tiles, { numerics, target: 'a5', valid: [ROWS, COLS] }).dst;
    expect(elementValues('u16', out, ROWS * COLS)).toEqual(values);
  }
});

describe('A5 low-precision formats (npu)', () => {
  // Codes by hand from the formats (test/numerics/low-precision.test.ts); a packed fp4 byte holds element 2j in its
  // low nibble and 2j + 1 in its high one (pto-isa's cpu tcvt test data and PTOAS's tilelang tcvt goldens pack so).
  const fill = (n: number, byte: number) => new Uint8Array(n).fill(byte);
  const tcvtLine = (attrs = '') => `pto.tcvt ins(%src${attrs ? ` {${attrs}}` : ''} : T(src)) outs(%dst : T(dst))`;
  type Backend = 'emitc' | 'vpto';

  /** bf16 2x32 -> fp4 2x16 (bytes), valid 1 x values.length; dst starts as 0x55 everywhere. */
  function toFp4(to: ElemType, values: number[], backend: Backend, attrs = ''): Uint8Array {
    const tiles = {
      src: { dtype: 'bf16' as ElemType, rows: 2, cols: 32, data: values, valid: [1, values.length] as [number, number] },
      dst: { dtype: to, rows: 2, cols: 16, bytes: fill(32, 0x55), valid: [1, values.length / 2] as [number, number] },
    };
    return runKernel(tcvtLine(attrs), tiles, { backend }).bytes.dst;
  }

  test('bf16 -> f4E2M1x2 packs two codes per byte, the first in the low nibble; RINT ties to the even code', () => {
    // 1 -> 0x2, 0.5 -> 0x1 | 6 -> 0x7, -0 -> 0x8 | 0.75 -> 0x2 (tie 0x1/0x2), 1.25 -> 0x2 (tie 0x2/0x3) | 5 -> 0x6, -1.25 -> 0xa
    const out = toFp4('!pto.f4E2M1x2', [1, 0.5, 6, -0, 0.75, 1.25, 5, -1.25], 'vpto');
    expect([...out.slice(0, 4)]).toEqual([0x12, 0x87, 0x22, 0xa6]);
    const round = toFp4('!pto.f4E2M1x2', [1, 0.5, 6, -0, 0.75, 1.25, 5, -1.25], 'vpto', mode('ROUND'));
    expect([...round.slice(0, 4)]).toEqual([0x12, 0x87, 0x32, 0xb7]);
  });

  test("vpto's template writes the valid bytes only; emitc (pto-isa castBf16toFp4) first zeroes the valid rows whole", () => {
    const values = [1, 0.25, 1.75, -0.5];
    const vpto = toFp4('!pto.f4E1M2x2', values, 'vpto');
    expect([...vpto.slice(0, 2)]).toEqual([0x14, 0xa7]);
    expect(vpto.slice(2).every((b) => b === 0x55)).toBe(true);
    const emitc = toFp4('!pto.f4E1M2x2', values, 'emitc');
    expect([...emitc.slice(0, 16)]).toEqual([0x14, 0xa7, ...new Array(14).fill(0)]);
    expect(emitc.slice(16).every((b) => b === 0x55)).toBe(true); // row 1 is outside the valid rows
  });

  test('bf16 -> fp4: an overflow, a NaN and ODD under vpto trap; ODD under emitc is nearest even', () => {
    expect(() => toFp4('!pto.f4E2M1x2', [7, 1], 'vpto')).toThrow("converting bf16 to !pto.f4E2M1x2: the NPU's result for 7 (beyond +-6) is not documented");
    expect(() => toFp4('!pto.f4E2M1x2', [NaN, 1], 'emitc')).toThrow("the NPU's result for NaN (a NaN) is not documented");
    expect(() => toFp4('!pto.f4E2M1x2', [1, 1], 'vpto', mode('ODD'))).toThrow(
      "rmode ODD to !pto.f4E2M1x2 under vpto: PTOAS's A5 vcvt takes the round modes R, A, F, Z and C for it",
    );
    expect([...toFp4('!pto.f4E2M1x2', [1.25, 5], 'emitc', mode('ODD')).slice(0, 1)]).toEqual([0x62]);
  });

  test('f4E1M2x2 / f4E2M1x2 -> bf16 unpacks low nibble first, exactly', () => {
    const run = (from: ElemType, bytes: number[]) => {
      const src = fill(32, 0);
      src.set(bytes);
      const tiles = {
        src: { dtype: from, rows: 2, cols: 16, bytes: src, valid: [1, bytes.length] as [number, number] },
        dst: { dtype: 'bf16' as ElemType, rows: 2, cols: 32, valid: [1, 2 * bytes.length] as [number, number] },
      };
      return runKernel(tcvtLine(), tiles).values.dst.slice(0, 2 * bytes.length);
    };
    expect(run('!pto.f4E1M2x2', [0x74, 0x9a])).toEqual([1, 1.75, -0.5, -0.25]);
    expect(run('!pto.f4E2M1x2', [0xf0, 0x35])).toEqual([0, -6, 3, 1.5]);
  });

  /** f32 (or f16) 1x32 -> an 8-bit format 1x32; the dst codes of the first values.length elements. */
  function to8(from: ElemType, to: ElemType, values: number[], backend: Backend, attrs = ''): number[] {
    const tiles = {
      src: { dtype: from, rows: 1, cols: 32, data: values, valid: [1, values.length] as [number, number] },
      dst: { dtype: to, rows: 1, cols: 32, valid: [1, values.length] as [number, number] },
    };
    return [...runKernel(tcvtLine(attrs), tiles, { backend }).bytes.dst.slice(0, values.length)];
  }

  test('f32 -> fp8 under vpto: rmode, saturation (overflow and infinity to +-max, NaN to 0)', () => {
    const xs = [1, 1.0625, 500, -Infinity, NaN, 2 ** -9];
    expect(to8('f32', 'f8E4M3FN', xs, 'vpto')).toEqual([0x38, 0x38, 0x7e, 0xfe, 0x00, 0x01]);
    expect(to8('f32', 'f8E4M3FN', [1.0625, 1.99], 'vpto', mode('ROUND'))).toEqual([0x39, 0x40]);
    expect(to8('f32', 'f8E4M3FN', [1.0625, 1.99], 'vpto', mode('TRUNC'))).toEqual([0x38, 0x3f]);
    expect(to8('f32', 'f8E5M2', [1, 1.375, 1e10], 'vpto')).toEqual([0x3c, 0x3e, 0x7b]);
    expect(() => to8('f32', 'f8E4M3FN', [1], 'vpto', mode('FLOOR'))).toThrow(
      "rmode FLOOR to f8E4M3FN under vpto: PTOAS's A5 vcvt takes the round modes R, A, H and Z for it",
    );
  });

  test('f32 -> fp8 under emitc: nearest even whatever rmode (pto-isa cast32to8), unsaturated', () => {
    expect(to8('f32', 'f8E4M3FN', [1.0625, 1.1875], 'emitc', mode('ROUND'))).toEqual([0x38, 0x3a]);
    expect(to8('f32', 'f8E5M2', [Infinity], 'emitc')).toEqual([0x7c]);
    expect(() => to8('f32', 'f8E4M3FN', [500], 'emitc')).toThrow("converting f32 to f8E4M3FN: the NPU's result for 500 (beyond +-448) is not documented");
  });

  test('f16 / f32 -> hif8 rounds half away from zero whatever rmode, unsaturated', () => {
    for (const backend of ['emitc', 'vpto'] as const) {
      expect(to8('f16', '!pto.hif8', [1.0625, 320, -1, Infinity, NaN], backend, mode('TRUNC'))).toEqual([0x09, 0x61, 0x88, 0x6f, 0x80]);
      expect(to8('f32', '!pto.hif8', [3, 0.5, 2 ** -22], backend)).toEqual([0x14, 0x18, 0x01]);
    }
  });

  test('fp8 / hif8 -> f32 decode exactly', () => {
    const run = (from: ElemType, codes: number[]) => {
      const tiles = {
        src: {
          dtype: from,
          rows: 1,
          cols: 32,
          bytes: Uint8Array.from([...codes, ...new Array(32 - codes.length).fill(0)]),
          valid: [1, codes.length] as [number, number],
        },
        dst: { dtype: 'f32' as ElemType, rows: 1, cols: 32, valid: [1, codes.length] as [number, number] },
      };
      return runKernel(tcvtLine(), tiles).values.dst.slice(0, codes.length);
    };
    expect(run('f8E5M2', [0x3c, 0x7c, 0x01])).toEqual([1, Infinity, 2 ** -16]);
    expect(run('f8E4M3FN', [0xb8, 0x7e])).toEqual([-1, 448]);
    expect(run('!pto.hif8', [0x14, 0xef, 0x7e])).toEqual([3, -Infinity, 2 ** -15]);
  });

  test('cpu-sim does not model these conversions: a trap', () => {
    const tiles = {
      src: { dtype: 'f32' as ElemType, rows: 1, cols: 32 },
      dst: { dtype: 'f8E4M3FN' as ElemType, rows: 1, cols: 32 },
    };
    expect(() => runKernel(tcvtLine(), tiles, { numerics: 'cpu-sim' })).toThrow('converting f32 to f8E4M3FN under cpu-sim is not implemented yet');
  });
});

test('dynamic valid cols: a packed fp4 tile counts two elements per byte at run time too', () => {
  const type = (dtype: string, cols: number) =>
    `!pto.tile_buf<loc=vec, dtype=${dtype}, rows=1, cols=${cols}, v_row=?, v_col=?, blayout=row_major, slayout=none_box, fractal=512, pad=0>`;
  const text = [
    'module {',
    '  func.func @k(%n: index) {',
    '    %c1 = arith.constant 1 : index',
    '    %c8 = arith.constant 8 : index',
    `    %s = pto.alloc_tile valid_row = %c1 valid_col = %n : ${type('bf16', 32)}`,
    `    %d = pto.alloc_tile valid_row = %c1 valid_col = %c8 : ${type('!pto.f4E2M1x2', 16)}`,
    `    pto.tcvt ins(%s : ${type('bf16', 32)}) outs(%d : ${type('!pto.f4E2M1x2', 16)})`,
    '    return',
    '  }',
    '}',
  ].join('\n');
  const asm = assemble('dyn.pto', text, { target: 'a5' });
  expect(formatAll(asm.diags)).toBe('');
  const fn = [...asm.program.functions.values()][0];
  const run = (n: bigint) => runFunction(asm.program, asm.types, fn, new Map<string, Value>([['%n', n]]), { numerics: 'npu', maxSteps: 1000 });
  expect(() => run(16n)).not.toThrow();
  expect(() => run(12n)).toThrow('src valid cols (12) must equal dst valid cols (8 bytes = 16 fp4 elements)');
});

test('an a5 pair nothing implements runs with a note saying so; a pair pto-isa implements runs without one', () => {
  const tile = (dtype: string) =>
    `!pto.tile_buf<loc=vec, dtype=${dtype}, rows=1, cols=16, v_row=1, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>`;
  const notes = (from: string, to: string) => {
    const text = [
      'module {',
      '  func.func @k() {',
      `    %s = pto.alloc_tile : ${tile(from)}`,
      `    %d = pto.alloc_tile : ${tile(to)}`,
      `    pto.tcvt ins(%s : ${tile(from)}) outs(%d : ${tile(to)})`,
      '    return',
      '  }',
      '}',
    ].join('\n');
    const asm = assemble('note.pto', text, { target: 'a5' });
    expect(formatAll(asm.diags)).toBe('');
    const fn = [...asm.program.functions.values()][0];
    return runFunction(asm.program, asm.types, fn, new Map<string, Value>(), { numerics: 'npu', maxSteps: 1000 }).notes;
  };
  expect(notes('i16', 'i64')).toEqual([
    "pto.tcvt i16 -> i64: neither pto-isa's A5 TCvt nor PTOAS's A5 templates implement this pair; the VM keeps exact values and rounds others per rmode as IEEE 754 does",
  ]);
  expect(notes('i16', 'i32')).toEqual([]);
});
