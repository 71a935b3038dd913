/**
 * The unary instructions on the VM (src/vm/instructions/unary.ts) under both numerics profiles. Expected values
 * are computed by hand or with @petamoriken/float16's f16round / Math.fround on known constants; bit patterns
 * check NaN payloads and signed zeros. (The float math agrees with glibc for every f16 input and for 116M f32
 * inputs; that was checked once against a C build, see docs/numerics.md.)
 */
import { f16round } from '@petamoriken/float16';
import { ElemType } from '../../../../src/types/type';
import { Numerics, bits16, bits32, elementBytes, elementValues, runWithValid } from './tile-kernel';

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

function unaryBytes(name: string, dtype: ElemType, values: Elem[], opts: Options = {}): Uint8Array {
  const line = `pto.${name} ins(%src : T(src)) outs(%dst : T(dst))${opts.attrs ? ` {${opts.attrs}}` : ''}`;
  const fill = dtype.endsWith('64') ? 7n : 7;
  const tiles = {
    src: { dtype, rows: ROWS, cols: COLS, bytes: opts.srcBytes ?? bytesOf(dtype, values, dtype.endsWith('64') ? 0n : 0) },
    dst: { dtype, rows: ROWS, cols: COLS, bytes: bytesOf(dtype, [], fill) },
  };
  return runWithValid(line, tiles, { numerics: opts.numerics ?? 'npu', target: opts.target, valid: [1, values.length] }).dst;
}

function unary(name: string, dtype: ElemType, values: Elem[], opts: Options = {}): Elem[] {
  const bytes = unaryBytes(name, dtype, values, opts);
  return elementValues(dtype, bytes, values.length);
}

function f32Bytes(bits: number[]): Uint8Array {
  const b = bytesOf('f32', []);
  bits.forEach((v, k) => new DataView(b.buffer).setUint32(k * 4, v, true));
  return b;
}
const cpu: Options = { numerics: 'cpu-sim' };

describe('texp', () => {
  test('f32: exp rounded once to f32 (both profiles)', () => {
    const want = [1, Math.fround(Math.E), 0, Infinity, Infinity, Math.fround(1 / Math.E)];
    for (const numerics of ['npu', 'cpu-sim'] as const) expect(unary('texp', 'f32', [0, 1, -Infinity, Infinity, 89, -1], { numerics })).toEqual(want);
  });

  test('f16: e rounds to 2.71875; overflow is inf under cpu-sim and on A5, 65504 under npu on A2/A3 unless saturation = false', () => {
    expect(unary('texp', 'f16', [1, 12, 0], cpu)).toEqual([f16round(Math.E), Infinity, 1]);
    expect(f16round(Math.E)).toBe(2.71875);
    expect(unary('texp', 'f16', [1, 12], { target: 'a2a3' })).toEqual([2.71875, 65504]);
    expect(unary('texp', 'f16', [12], { target: 'a2a3', attrs: 'saturation = false' })).toEqual([Infinity]);
    expect(unary('texp', 'f16', [12], { target: 'a5' })).toEqual([Infinity]);
  });

  test('cpu-sim: a NaN comes out as itself, quieted, sign and payload kept', () => {
    const out = unaryBytes('texp', 'f32', [0, 0], { numerics: 'cpu-sim', srcBytes: f32Bytes([0xff812345, 0x7fc00000]) });
    expect([bits32(out, 0), bits32(out, 1)]).toEqual([0xffc12345, 0x7fc00000]);
  });
});

describe('tlog, tsqrt, trsqrt', () => {
  test('exact and special values', () => {
    expect(unary('tlog', 'f32', [1, Math.fround(Math.E), 0, Infinity], cpu)).toEqual([0, Math.fround(Math.log(Math.fround(Math.E))), -Infinity, Infinity]);
    expect(unary('tsqrt', 'f32', [4, 2, Infinity], cpu)).toEqual([2, 1.4142135381698608, Infinity]);
    expect(Object.is(unary('tsqrt', 'f32', [-0], cpu)[0], -0)).toBe(true);
    expect(unary('trsqrt', 'f32', [4, 0.25, 0, Infinity], cpu)).toEqual([0.5, 2, Infinity, 0]);
    expect(unary('trsqrt', 'f32', [-0], cpu)).toEqual([-Infinity]);
  });

  test('cpu-sim: an invalid operation gives x86 default NaN (negative), npu f16 saturates it to 0', () => {
    const log = unaryBytes('tlog', 'f32', [-1], cpu);
    const sqrt = unaryBytes('tsqrt', 'f32', [-4], cpu);
    expect([bits32(log, 0), bits32(sqrt, 0)]).toEqual([0xffc00000, 0xffc00000]);
    expect(bits16(unaryBytes('tlog', 'f16', [-1], cpu), 0)).toBe(0xfe00);
    expect(unary('tlog', 'f16', [-1, 0], { target: 'a2a3' })).toEqual([0, -65504]);
    expect(unary('tlog', 'f16', [0], { target: 'a5' })).toEqual([-Infinity]);
  });
});

describe('trsqrt on A5 (npu): vsqrt, then vdiv of 1, each rounded to the element type', () => {
  // pto-isa npu/a5/TRsqrt.hpp (default precision) and PTOAS's A5 template compute vsqrt then vdiv. f32 rsqrt(6):
  // sqrt(6) = 2.44948974... rounds to 0x401cc471 (2.4494898319...); 1 / that = 0.408248275... rounds to 0x3ed105eb,
  // where 1 / sqrt(6) rounded once (0.408248290...) is 0x3ed105ec. rsqrt(7): 0x3ec18490 (two), 0x3ec1848f (one).
  // f16 rsqrt(17): sqrt rounds to 4.125 (0x4420), 1 / 4.125 = 0.242424... rounds to 0x33c2; once: 0x33c3.
  test('f32 and f16 on A5: two roundings; A2/A3 (vrsqrt) and cpu-sim: 1 / sqrt rounded once', () => {
    const a5 = unaryBytes('trsqrt', 'f32', [6, 7, 4, 0], { target: 'a5' });
    expect([0, 1, 2, 3].map((k) => bits32(a5, k))).toEqual([0x3ed105eb, 0x3ec18490, 0x3f000000, 0x7f800000]);
    const a2a3 = unaryBytes('trsqrt', 'f32', [6, 7], { target: 'a2a3' });
    expect([bits32(a2a3, 0), bits32(a2a3, 1)]).toEqual([0x3ed105ec, 0x3ec1848f]);
    const sim = unaryBytes('trsqrt', 'f32', [6], { ...cpu, target: 'a5' });
    expect(bits32(sim, 0)).toBe(0x3ed105ec);
    expect(bits16(unaryBytes('trsqrt', 'f16', [17], { target: 'a5' }), 0)).toBe(0x33c2);
    expect(bits16(unaryBytes('trsqrt', 'f16', [17], { target: 'a2a3' }), 0)).toBe(0x33c3);
  });
});

describe('trecip', () => {
  test('floats: 1/x rounded once; npu 1/0 is inf, cpu-sim traps (the simulator asserts)', () => {
    expect(unary('trecip', 'f32', [3, -0.5, 0])).toEqual([Math.fround(1 / 3), -2, Infinity]);
    expect(unary('trecip', 'f16', [3], cpu)).toEqual([f16round(1 / 3)]);
    expect(() => unary('trecip', 'f32', [0], cpu)).toThrow('pto.trecip of 0: the reference simulator asserts a non-zero divisor');
  });

  test('integers: 1 / x truncated, 0 traps', () => {
    expect(unary('trecip', 'i32', [1, -1, 2, -7, 1000])).toEqual([1, -1, 0, 0, 0]);
    expect(unary('trecip', 'i64', [1n, -1n, 5n])).toEqual([1n, -1n, 0n]);
    expect(() => unary('trecip', 'i16', [0])).toThrow('pto.trecip: division by zero (an integer 0 of i16)');
  });
});

describe('tabs, tneg, trelu, tnot', () => {
  test('tabs: cpu-sim keeps -0 and a NaN as they are, npu clears the sign bit; integer MIN wraps', () => {
    const src = f32Bytes([0x80000000, 0xbfc00000, 0xffc00001]); // -0, -1.5, -NaN
    const sim = unaryBytes('tabs', 'f32', [0, 0, 0], { numerics: 'cpu-sim', srcBytes: src });
    const npu = unaryBytes('tabs', 'f32', [0, 0, 0], { srcBytes: src });
    expect([0, 1, 2].map((k) => bits32(sim, k))).toEqual([0x80000000, 0x3fc00000, 0xffc00001]);
    expect([0, 1, 2].map((k) => bits32(npu, k))).toEqual([0x00000000, 0x3fc00000, 0x7fc00001]);
    expect(unary('tabs', 'i16', [-32768, -5, 7])).toEqual([-32768, 5, 7]);
    expect(unary('tabs', 'i8', [-128, -1], cpu)).toEqual([-128, 1]);
  });

  test('tneg flips the sign bit of floats (0 -> -0, NaN payload kept) and wraps integers', () => {
    const out = unaryBytes('tneg', 'f32', [0, 0], { numerics: 'cpu-sim', srcBytes: f32Bytes([0x00000000, 0x7fc00123]) });
    expect([bits32(out, 0), bits32(out, 1)]).toEqual([0x80000000, 0xffc00123]);
    expect(unary('tneg', 'i32', [-(2 ** 31), 5])).toEqual([-(2 ** 31), -5]);
    expect(unary('tneg', 'u16', [1, 0])).toEqual([65535, 0]);
    expect(unary('tneg', 'i64', [-(2n ** 63n), 3n])).toEqual([-(2n ** 63n), -3n]);
    expect(unary('tneg', 'bf16', [1.5])).toEqual([-1.5]);
  });

  test('trelu: cpu-sim std::max(x, 0) keeps -0 and NaN; npu gives +0 for -0 and keeps NaN', () => {
    const src = f32Bytes([0x80000000, 0xc0000000, 0x7fc00000, 0x40400000]); // -0, -2, NaN, 3
    const sim = unaryBytes('trelu', 'f32', [0, 0, 0, 0], { numerics: 'cpu-sim', srcBytes: src });
    const npu = unaryBytes('trelu', 'f32', [0, 0, 0, 0], { srcBytes: src });
    expect([0, 1, 2, 3].map((k) => bits32(sim, k))).toEqual([0x80000000, 0, 0x7fc00000, 0x40400000]);
    expect([0, 1, 2, 3].map((k) => bits32(npu, k))).toEqual([0, 0, 0x7fc00000, 0x40400000]);
    expect(unary('trelu', 'i32', [-3, 0, 9])).toEqual([0, 0, 9]);
  });

  test('tnot', () => {
    expect(unary('tnot', 'u8', [0x0f, 0])).toEqual([0xf0, 0xff]);
    expect(unary('tnot', 'i32', [0, -1, 5])).toEqual([-1, 0, -6]);
    expect(unary('tnot', 'u32', [0])).toEqual([0xffffffff]);
  });
});

describe('valid region', () => {
  test.each(['texp', 'tneg', 'tabs'])('%s writes only the valid region', (name) => {
    const out = unaryBytes(name, 'f16', [1, 2, 3]);
    const all = elementValues('f16', out, ROWS * COLS);
    expect(all.slice(3).every((v) => v === 7)).toBe(true);
  });
});
