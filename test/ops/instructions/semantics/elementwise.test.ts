/**
 * The elementwise arithmetic instructions on the VM (spec/instructions/elementwise.json): values are checked
 * against computations done here independently (Math.fround, @petamoriken/float16's f16round, exact BigInt
 * arithmetic, or by hand), under both numerics profiles where they differ.
 */
import fc from 'fast-check';
import { f16round } from '@petamoriken/float16';
import { assemble } from '../../../../src/verify/assemble';
import { formatAll } from '../../../../src/diag/diagnostic';
import { runFunction, Value } from '../../../../src/vm/interpreter';
import { GlobalBuffer } from '../../../../src/machine/memory';
import { codec } from '../../../../src/numerics/elements';
import { fusedMultiplyAdd } from '../../../../src/numerics/arithmetic';
import { ElemType } from '../../../../src/types/type';

type Numerics = 'npu' | 'cpu-sim';
type Elem = number | bigint;

interface TileArg {
  dtype: ElemType;
  /** Row-major contents of the whole tile (rows x cols). */
  data: Elem[];
  rows?: number;
}

const mlir = (e: ElemType) => (e.startsWith('u') ? 'ui' + e.slice(1) : e);
const tileType = (t: { dtype: ElemType; rows: number; cols: number }, v?: [number, number]) =>
  `!pto.tile_buf<loc=vec, dtype=${mlir(t.dtype)}, rows=${t.rows}, cols=${t.cols}, v_row=${v ? v[0] : t.rows}, v_col=${v ? v[1] : t.cols}, blayout=row_major, slayout=none_box, fractal=512, pad=0>`;

/**
 * Runs `line` (which names tiles %NAME and scalars %NAME) with every tile loaded whole from global memory, and
 * returns every tile's whole contents afterwards. A tile with a smaller valid region is a second alloc_tile at the
 * same address, so its padding is observable.
 */
interface RunOptions {
  numerics?: Numerics;
  target?: 'a2a3' | 'a5';
  scalars?: Record<string, [string, Elem]>;
  /** The valid region every tile has for the op; the rest of each tile is padding the op must leave alone. */
  valid?: [number, number];
}

function run(line: string, tiles: Record<string, TileArg>, opts: RunOptions = {}) {
  const body: string[] = ['%c0 = arith.constant 0 : index', '%c1 = arith.constant 1 : index'];
  const args: string[] = [];
  const values = new Map<string, Value>();
  const buffers: Record<string, GlobalBuffer> = {};
  const shapes: Record<string, { dtype: ElemType; rows: number; cols: number }> = {};
  Object.entries(tiles).forEach(([name, t], i) => {
    const c = codec(t.dtype);
    // Rows must be whole 32-byte blocks: short data is padded with zeros.
    const block = 32 / c.size;
    const rows = t.rows ?? 1;
    const shape = { dtype: t.dtype, rows, cols: Math.ceil(t.data.length / rows / block) * block };
    shapes[name] = shape;
    const bytes = new Uint8Array(rows * shape.cols * c.size);
    const view = new DataView(bytes.buffer);
    t.data.forEach((v, k) => c.write(view, k * c.size, v));
    buffers[name] = new GlobalBuffer(name, t.dtype, bytes);
    values.set(`%g_${name}`, buffers[name]);
    args.push(`%g_${name}: !pto.ptr<${mlir(t.dtype)}>`);
    const m = mlir(t.dtype);
    const full = tileType(shape);
    body.push(
      `%r_${name} = arith.constant ${shape.rows} : index`,
      `%k_${name} = arith.constant ${shape.cols} : index`,
      `%a_${name} = arith.constant ${i * 8192} : index`,
      `%tv_${name} = pto.make_tensor_view %g_${name}, shape = [%r_${name}, %k_${name}], strides = [%k_${name}, %c1] : !pto.tensor_view<?x?x${m}>`,
      `%pv_${name} = pto.partition_view %tv_${name}, offsets = [%c0, %c0], sizes = [%r_${name}, %k_${name}] : !pto.tensor_view<?x?x${m}> -> !pto.partition_tensor_view<${shape.rows}x${shape.cols}x${m}>`,
      `%full_${name} = pto.alloc_tile addr = %a_${name} : ${full}`,
      `pto.tload ins(%pv_${name} : !pto.partition_tensor_view<${shape.rows}x${shape.cols}x${m}>) outs(%full_${name} : ${full})`,
      `%${name} = pto.alloc_tile addr = %a_${name} : ${tileType(shape, opts.valid)}`,
    );
  });
  for (const [name, [type, v]] of Object.entries(opts.scalars ?? {})) {
    args.push(`%${name}: ${type}`);
    values.set(`%${name}`, v);
  }
  const expand = (s: string) => s.replace(/\bT\(([a-z0-9_]+)\)/g, (_, n) => tileType(shapes[n], opts.valid));
  body.push(expand(line));
  for (const [name, shape] of Object.entries(shapes)) {
    const m = mlir(shape.dtype);
    body.push(`pto.tstore ins(%full_${name} : ${tileType(shape)}) outs(%pv_${name} : !pto.partition_tensor_view<${shape.rows}x${shape.cols}x${m}>)`);
  }
  body.push('return');
  const text = ['module {', `  func.func @k(${args.join(', ')}) {`, ...body.map((l) => '    ' + l), '  }', '}', ''].join('\n');
  const asm = assemble('test.pto', text, { target: opts.target ?? 'a5' });
  if (asm.diags.hasErrors()) throw new Error(formatAll(asm.diags) + '\n' + text);
  const fn = [...asm.program.functions.values()][0];
  runFunction(asm.program, asm.types, fn, values, { numerics: opts.numerics ?? 'npu', maxSteps: 1e6 });
  const out: Record<string, Elem[]> & { bits?: Record<string, DataView> } = {};
  out.bits = {};
  for (const [name, b] of Object.entries(buffers)) {
    out.bits[name] = new DataView(b.bytes.buffer, b.bytes.byteOffset, b.bytes.byteLength);
    const c = codec(tiles[name].dtype);
    const view = new DataView(b.bytes.buffer, b.bytes.byteOffset, b.bytes.byteLength);
    out[name] = Array.from({ length: b.bytes.length / c.size }, (_, k) => c.read(view, k * c.size));
  }
  return out;
}

const bin = (name: string) => `pto.${name} ins(%a, %b : T(a), T(b)) outs(%d : T(d))`;
const withScalar = (name: string, type: string) => `pto.${name} ins(%a, %s : T(a), ${type}) outs(%d : T(d))`;

/** dst = a op b elementwise for one dtype; returns dst's first `a.length` elements. */
function binary(name: string, dtype: ElemType, a: Elem[], b: Elem[], opts: RunOptions = {}): Elem[] {
  const out = run(
    bin(name),
    { a: { dtype, data: a }, b: { dtype, data: b }, d: { dtype, data: a.map(() => (typeof a[0] === 'bigint' ? 0n : 0)) } },
    { valid: [1, a.length], ...opts },
  );
  return out.d.slice(0, a.length);
}

function scalarOp(name: string, dtype: ElemType, a: Elem[], s: [string, Elem], opts: RunOptions = {}): Elem[] {
  const out = run(
    withScalar(name, s[0]),
    { a: { dtype, data: a }, d: { dtype, data: a.map(() => (typeof a[0] === 'bigint' ? 0n : 0)) } },
    { valid: [1, a.length], ...opts, scalars: { s } },
  );
  return out.d.slice(0, a.length);
}

const f16Values = fc
  .integer({ min: 0, max: 0xffff })
  .map((bits) => f16FromBits(bits))
  .filter((v) => Number.isFinite(v));
function f16FromBits(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const e = (bits >> 10) & 0x1f;
  const m = bits & 0x3ff;
  if (e === 0x1f) return m ? NaN : sign * Infinity;
  return sign * (e === 0 ? m * 2 ** -24 : (1024 + m) * 2 ** (e - 25));
}
const f32Values = fc.float({ noNaN: true, noDefaultInfinity: true }).map(Math.fround);

describe('float arithmetic rounds once to the element type', () => {
  const ops: [string, (x: number, y: number) => number][] = [
    ['tadd', (x, y) => x + y],
    ['tsub', (x, y) => x - y],
    ['tmul', (x, y) => x * y],
    ['tdiv', (x, y) => x / y],
  ];
  test.each(ops)('%s f32 (cpu-sim): Math.fround of the exact result', (name, f) => {
    fc.assert(
      fc.property(fc.array(fc.tuple(f32Values, f32Values), { minLength: 1, maxLength: 8 }), (pairs) => {
        const got = binary(
          name,
          'f32',
          pairs.map((p) => p[0]),
          pairs.map((p) => p[1]),
          { numerics: 'cpu-sim' },
        );
        pairs.forEach(([x, y], i) => {
          const want = Math.fround(f(x, y));
          if (Number.isNaN(want)) expect(Number.isNaN(got[i] as number)).toBe(true);
          else expect(Object.is(got[i], want)).toBe(true);
        });
      }),
      { numRuns: 12 },
    );
  });
  test.each(ops)('%s f16 (cpu-sim): f16round of the exact result', (name, f) => {
    fc.assert(
      fc.property(fc.array(fc.tuple(f16Values, f16Values), { minLength: 1, maxLength: 16 }), (pairs) => {
        const got = binary(
          name,
          'f16',
          pairs.map((p) => p[0]),
          pairs.map((p) => p[1]),
          { numerics: 'cpu-sim' },
        );
        pairs.forEach(([x, y], i) => {
          const want = f16round(f(x, y));
          if (Number.isNaN(want)) expect(Number.isNaN(got[i] as number)).toBe(true);
          else expect(Object.is(got[i], want)).toBe(true);
        });
      }),
      { numRuns: 12 },
    );
  });

  test('tdiv f16 ties: 1/3 and 2049/2048 round to nearest even', () => {
    // 2049/1 needs 12 bits: a tie between 2048 and 2050, so 2048 (even); 3/2048 is exact.
    expect(binary('tdiv', 'f16', [1, 2049 / 2, 3], [3, 0.5, 2048], { numerics: 'cpu-sim' })).toEqual([f16round(1 / 3), 2048, 3 / 2048]);
  });

  test('tsub bf16 (a5): computed in f32, rounded to bf16', () => {
    // 1 - 2^-9 is halfway between 1 - 2^-8 and 1: ties to even gives 1.
    expect(binary('tsub', 'bf16', [1, 3], [2 ** -9, 0.5])).toEqual([1, 2.5]);
  });
});

describe('special values and fp16 saturation', () => {
  test('cpu-sim: inf - inf and 0 * inf give the negative x86 default NaN; a NaN operand propagates', () => {
    // The element bits are read from memory: a JS NaN read back may lose its sign.
    const f32 = run(
      bin('tsub'),
      { a: { dtype: 'f32', data: [Infinity, NaN] }, b: { dtype: 'f32', data: [Infinity, 1] }, d: { dtype: 'f32', data: [0, 0] } },
      { numerics: 'cpu-sim', valid: [1, 2] },
    );
    expect([f32.bits!.d.getUint32(0, true), f32.bits!.d.getUint32(4, true)]).toEqual([0xffc00000, 0x7fc00000]);
    const f16 = run(
      bin('tmul'),
      { a: { dtype: 'f16', data: [0, 1] }, b: { dtype: 'f16', data: [Infinity, NaN] }, d: { dtype: 'f16', data: [0, 0] } },
      { numerics: 'cpu-sim', valid: [1, 2] },
    );
    expect([f16.bits!.d.getUint16(0, true), f16.bits!.d.getUint16(2, true)]).toEqual([0xfe00, 0x7e00]);
  });

  test('npu f16 on A2/A3: overflow saturates to +-65504 and NaN to 0 by default; saturation = false keeps IEEE results', () => {
    const a2a3: RunOptions = { target: 'a2a3' };
    expect(binary('tmul', 'f16', [300, -300, 0], [300, 300, Infinity], a2a3)).toEqual([65504, -65504, 0]);
    expect(binary('tdiv', 'f16', [1, -1], [0, 0], a2a3)).toEqual([65504, -65504]);
    const ieee = run(
      'pto.tsub ins(%a, %b : T(a), T(b)) outs(%d : T(d)) {saturation = false}',
      {
        a: { dtype: 'f16', data: [60000, 1] },
        b: { dtype: 'f16', data: [-60000, 1] },
        d: { dtype: 'f16', data: [0, 0] },
      },
      a2a3,
    );
    expect(ieee.d.slice(0, 2)).toEqual([Infinity, 0]);
    // A5 keeps IEEE results unless the op asks for saturation.
    expect(binary('tmul', 'f16', [300, -300], [300, 300])).toEqual([Infinity, -Infinity]);
    const saturated = run('pto.tmul ins(%a, %b : T(a), T(b)) outs(%d : T(d)) {saturation = true}', {
      a: { dtype: 'f16', data: [300] },
      b: { dtype: 'f16', data: [300] },
      d: { dtype: 'f16', data: [0] },
    });
    expect(saturated.d[0]).toBe(65504);
    expect(binary('tsub', 'f16', [60000], [-60000], { numerics: 'cpu-sim' })).toEqual([Infinity]);
    // f32 never saturates.
    expect(binary('tmul', 'f32', [1e30], [1e30])).toEqual([Infinity]);
  });

  test('tmax/tmin: NaN per profile, +0/-0 keep src0', () => {
    const a = [NaN, 1, 0, -0];
    const b = [1, NaN, -0, 0];
    const cpuMax = binary('tmax', 'f32', a, b, { numerics: 'cpu-sim' });
    // std::max(a, b) = a < b ? b : a
    expect(Number.isNaN(cpuMax[0] as number)).toBe(true);
    expect(cpuMax.slice(1).map((v) => (Object.is(v, 0) ? '+0' : Object.is(v, -0) ? '-0' : v))).toEqual([1, '+0', '-0']);
    const cpuMin = binary('tmin', 'f32', a, b, { numerics: 'cpu-sim' });
    expect(Number.isNaN(cpuMin[0] as number)).toBe(true);
    expect(cpuMin.slice(1).map((v) => (Object.is(v, 0) ? '+0' : Object.is(v, -0) ? '-0' : v))).toEqual([1, '+0', '-0']);
    const npuMax = binary('tmax', 'f16', a, b);
    expect(npuMax.slice(0, 2).every((v) => Number.isNaN(v as number))).toBe(true);
    const npuMin = binary('tmin', 'f16', a, b);
    expect(npuMin.slice(0, 2).every((v) => Number.isNaN(v as number))).toBe(true);
    expect(binary('tmax', 'i32', [-5, 7], [3, -9])).toEqual([3, 7]);
    expect(binary('tmin', 'u64', [5n, 2n ** 64n - 1n], [3n, 0n])).toEqual([3n, 0n]);
  });

  test('only the valid region is written; padding keeps its contents', () => {
    const out = run(
      bin('tadd'),
      {
        a: { dtype: 'f32', rows: 2, data: Array(16).fill(1) },
        b: { dtype: 'f32', rows: 2, data: Array(16).fill(2) },
        d: { dtype: 'f32', rows: 2, data: Array(16).fill(-7) },
      },
      { valid: [1, 3] },
    );
    expect(out.d).toEqual([3, 3, 3, -7, -7, -7, -7, -7, ...Array(8).fill(-7)]);
  });
});

describe('integers wrap', () => {
  test('add/sub/mul wrap to the element width', () => {
    expect(binary('tadd', 'i16', [32767, -32768], [1, -1])).toEqual([-32768, 32767]);
    expect(binary('tsub', 'i8', [-128, 0], [1, 1])).toEqual([127, -1]);
    expect(binary('tsub', 'u8', [0], [1])).toEqual([255]);
    expect(binary('tmul', 'u32', [0xffffffff, 65536], [0xffffffff, 65536])).toEqual([1, 0]);
    expect(binary('tmul', 'i64', [2n ** 62n], [4n])).toEqual([0n]);
    expect(binary('tsub', 'u64', [0n], [1n])).toEqual([2n ** 64n - 1n]);
  });

  test('tdiv truncates toward zero; division by zero traps', () => {
    expect(binary('tdiv', 'i32', [7, -7, 7, -7], [2, 2, -2, -2])).toEqual([3, -3, -3, 3]);
    expect(binary('tdiv', 'u16', [65535], [2])).toEqual([32767]);
    expect(binary('tdiv', 'i64', [-(2n ** 63n)], [-1n])).toEqual([-(2n ** 63n)]);
    expect(() => binary('tdiv', 'i32', [1], [0])).toThrow('pto.tdiv: integer division by zero (i32)');
    expect(() => binary('tdiv', 'i32', [-(2 ** 31)], [-1], { numerics: 'cpu-sim' })).toThrow('overflows');
  });

  test('bitwise and/or/xor on random values equal JS bit operations', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: -32768, max: 32767 }), fc.integer({ min: -32768, max: 32767 })), { minLength: 1, maxLength: 16 }),
        (pairs) => {
          const a = pairs.map((p) => p[0]);
          const b = pairs.map((p) => p[1]);
          expect(binary('tand', 'i16', a, b, { target: 'a2a3' })).toEqual(pairs.map(([x, y]) => x & y));
          expect(binary('tor', 'i16', a, b)).toEqual(pairs.map(([x, y]) => x | y));
          expect(binary('txor', 'i16', a, b)).toEqual(pairs.map(([x, y]) => x ^ y));
        },
      ),
      { numRuns: 8 },
    );
  });

  test('shifts: arithmetic for signed, logical for unsigned; large counts per profile', () => {
    expect(binary('tshr', 'i8', [-128, -128, 64], [1, 7, 6])).toEqual([-64, -1, 1]);
    expect(binary('tshr', 'u8', [128], [7])).toEqual([1]);
    expect(binary('tshl', 'i16', [1, 3], [15, 14])).toEqual([-32768, -16384]);
    // npu: counts >= the width shift everything out.
    expect(binary('tshl', 'i8', [1, 1], [8, 9])).toEqual([0, 0]);
    expect(binary('tshr', 'i32', [-8, 8], [40, 40])).toEqual([-1, 0]);
    // cpu-sim: x86 takes the count modulo 32 after promotion to int: 1 << 33 = 2; 8-bit 1 << 8 = 256 -> 0.
    expect(binary('tshl', 'i8', [1, 1], [8, 33], { numerics: 'cpu-sim' })).toEqual([0, 2]);
    expect(binary('tshr', 'u32', [0x80000000], [33], { numerics: 'cpu-sim' })).toEqual([0x40000000]);
    expect(binary('tshl', 'u64', [1n], [65n], { numerics: 'cpu-sim' })).toEqual([2n]);
    expect(() => binary('tshl', 'i32', [1], [-1])).toThrow('negative shift count -1');
  });
});

describe('remainders', () => {
  test("trem takes the divisor's sign, tfmod the dividend's", () => {
    expect(binary('trem', 'i32', [7, -7, 7, -7, 6], [3, 3, -3, -3, -3])).toEqual([1, 2, -2, -1, 0]);
    expect(binary('tfmod', 'i32', [7, -7, 7, -7], [3, 3, -3, -3])).toEqual([1, -1, 1, -1]);
    expect(binary('trem', 'f32', [7.5, -7.5, -0], [2, 2, 2], { target: 'a2a3' })).toEqual([1.5, 0.5, -0]);
    expect(binary('tfmod', 'f32', [7.5, -7.5], [2, 2])).toEqual([1.5, -1.5]);
    expect(binary('trem', 'u16', [7], [3])).toEqual([1]);
    // f16: the adjustment r + b rounds: fmod(-1, 4096) = -1, -1 + 4096 = 4095 needs 12 bits -> 4096 (tie to even).
    expect(binary('trem', 'f16', [-1], [4096], { numerics: 'cpu-sim' })).toEqual([4096]);
    expect(() => binary('trem', 'i32', [1], [0])).toThrow('integer division by zero');
    expect(Number.isNaN(binary('tfmod', 'f32', [1], [0])[0] as number)).toBe(true);
  });
});

describe('tfmod, tfmods on A5 (npu): vdiv, vtrc toward zero, vmul, vsub, each rounded in f32', () => {
  // pto-isa npu/a5/TFMod.hpp, TFModS.hpp (default precision) compute a - trunc(a / b) * b in f32 steps.
  const a2a3: RunOptions = { target: 'a2a3' };
  const sim: RunOptions = { numerics: 'cpu-sim' };
  test('an exact multiple of a negative dividend: -5 - (-2 * 2.5) = +0 on A5; C fmod keeps -0 (A2/A3, cpu-sim)', () => {
    const isPlusZero = (v: Elem) => Object.is(v, 0);
    const isMinusZero = (v: Elem) => Object.is(v, -0);
    expect(binary('tfmod', 'f32', [-5, -0, -7], [2.5, 3, 3], { target: 'a5' })).toEqual([0, 0, -1]);
    expect(binary('tfmod', 'f32', [-5, -0], [2.5, 3], { target: 'a5' }).every(isPlusZero)).toBe(true);
    expect(scalarOp('tfmods', 'f32', [-5], ['f32', 2.5], { target: 'a5' }).every(isPlusZero)).toBe(true);
    expect(scalarOp('tfmods', 'f16', [-5], ['f16', 2.5], { target: 'a5' }).every(isPlusZero)).toBe(true);
    expect(binary('tfmod', 'f32', [-5], [2.5], a2a3).every(isMinusZero)).toBe(true);
    expect(scalarOp('tfmods', 'f32', [-5], ['f32', 2.5], sim).every(isMinusZero)).toBe(true);
  });
  test('a quotient past 2^24: fmod(1e10, 3) is 1 exactly, 0 on A5', () => {
    // 1e10 / 3 rounds to 3333333248 (f32 steps of 256 there); * 3 = 9999999744 rounds to 1e10 (steps of 1024); 1e10 - 1e10 = 0.
    expect(binary('tfmod', 'f32', [1e10], [3], { target: 'a5' })).toEqual([0]);
    expect(binary('tfmod', 'f32', [1e10], [3], a2a3)).toEqual([1]);
  });
});

describe('trem, trems on A5 (npu): vdiv, vtrc floor, vmul, vsub, each rounded in f32', () => {
  // pto-isa npu/a5/TRem.hpp (then b added where b * r < 0) and TRemS.hpp (no correction), default precision.
  const isPlusZero = (v: Elem) => Object.is(v, 0);
  test('an exact multiple of a negative dividend gives +0 on A5 (-5 - (-2 * 2.5)); the exact remainder keeps -0', () => {
    expect(binary('trem', 'f32', [-5, -0, 7.5, -7.5], [2.5, 2, 2, 2])).toEqual([0, 0, 1.5, 0.5]);
    expect(binary('trem', 'f32', [-5, -0], [2.5, 2]).every(isPlusZero)).toBe(true);
    expect(scalarOp('trems', 'f32', [-5], ['f32', 2.5]).every(isPlusZero)).toBe(true);
    expect(scalarOp('trems', 'f16', [-5], ['f16', 2.5]).every(isPlusZero)).toBe(true);
    expect(Object.is(binary('trem', 'f32', [-5], [2.5], { target: 'a2a3' })[0], -0)).toBe(true);
  });
  test('a quotient past 2^24: 1e9 rem 3 is 1 exactly, 0 on A5', () => {
    // 1e9 / 3 rounds to 333333344 (f32 steps of 32), floored the same; * 3 = 1000000032 is a tie between 1e9 and
    // 1e9 + 64 (steps of 64) and rounds to even, 1e9; 1e9 - 1e9 = +0, and 3 * 0 is not below 0.
    expect(binary('trem', 'f32', [1e9], [3])).toEqual([0]);
    expect(scalarOp('trems', 'f32', [1e9], ['f32', 3])).toEqual([0]);
    expect(binary('trem', 'f32', [1e9], [3], { target: 'a2a3' })).toEqual([1]);
  });
});

describe('tpow', () => {
  const pow = (dtype: ElemType, base: Elem[], exp: Elem[], opts: RunOptions = {}) =>
    run(
      'pto.tpow ins(%a, %b : T(a), T(b)) outs(%d : T(d))',
      { a: { dtype, data: base }, b: { dtype, data: exp }, d: { dtype, data: base.map(() => 0) } },
      { valid: [1, base.length], ...opts },
    ).d.slice(0, base.length);
  test('integers: exact powers wrapped; negative exponents give 0 except for base +-1', () => {
    expect(pow('i32', [3, 2, -1, 5, 0, -2], [4, -1, -3, 0, 0, 31])).toEqual([81, 0, -1, 1, 1, -(2 ** 31)]);
    expect(pow('i8', [3], [5])).toEqual([243 - 256]);
    expect(pow('u32', [3], [21], { numerics: 'cpu-sim' })).toEqual([Number(3n ** 21n % 2n ** 32n)]);
  });
  test("floats: pow in double rounded to the element type; C's pow(1, NaN) = 1", () => {
    expect(pow('f32', [2, 1, -8, 4], [0.5, NaN, 1 / 3, -0.5])).toEqual([Math.fround(Math.SQRT2), 1, NaN, 0.5]);
  });
});

describe('tile-scalar instructions', () => {
  test('the scalar is converted to the tile dtype first (f32 scalar on an f16 tile rounds to f16)', () => {
    // 1 + 2^-12 rounds to 1 in f16, so the product is exact 3, not f16(3 * (1 + 2^-12)).
    expect(scalarOp('tmuls', 'f16', [3, -2], ['f32', 1 + 2 ** -12])).toEqual([3, -2]);
    expect(scalarOp('tadds', 'f32', [1, 2], ['f32', 0.5], { target: 'a2a3' })).toEqual([1.5, 2.5]);
    expect(scalarOp('tsubs', 'i16', [-32768], ['i16', 1n])).toEqual([32767]);
    expect(scalarOp('tdivs', 'f32', [1, -3], ['f32', 0], { numerics: 'cpu-sim' })).toEqual([Infinity, -Infinity]);
    expect(scalarOp('tdivs', 'i32', [7, -7], ['f32', 2.9])).toEqual([3, -3]); // 2.9 truncates to 2
    // Scalar first (PTOAS `ins(%s, %a ...)`): the scalar divided by each element.
    const first = run(
      `pto.tdivs ins(%s, %a : f32, T(a)) outs(%d : T(d))`,
      { a: { dtype: 'f32', data: [4, -8, 0.5] }, d: { dtype: 'f32', data: [0, 0, 0] } },
      { valid: [1, 3], scalars: { s: ['f32', 2] } },
    );
    expect(first.d.slice(0, 3)).toEqual([0.5, -0.25, 4]);
    expect(scalarOp('tmaxs', 'f32', [-1, 2], ['f32', 0])).toEqual([0, 2]);
    expect(scalarOp('tmins', 'i8', [-1, 2], ['i8', 0n])).toEqual([-1, 0]);
    expect(scalarOp('tands', 'u8', [0xff, 0x0f], ['i8', 0x3cn])).toEqual([0x3c, 0x0c]);
    expect(scalarOp('tshls', 'u16', [1, 1], ['i32', 16n])).toEqual([0, 0]);
    expect(scalarOp('trems', 'i32', [-7, 7], ['i32', 3n])).toEqual([2, 1]);
    expect(scalarOp('tfmods', 'f32', [-7.5], ['f32', 2])).toEqual([-1.5]);
  });

  test('tlrelu: x > 0 ? x : x * slope; -0 and NaN take the product', () => {
    const got = run(
      'pto.tlrelu ins(%a, %s : T(a), f32) outs(%d : T(d))',
      { a: { dtype: 'f32', data: [2, -2, -0, NaN] }, d: { dtype: 'f32', data: [0, 0, 0, 0] } },
      { scalars: { s: ['f32', 0.25] }, valid: [1, 4] },
    ).d;
    expect(got.slice(0, 3)).toEqual([2, -0.5, -0]);
    expect(Number.isNaN(got[3] as number)).toBe(true);
  });

  test('tpows: integer exponent as a scalar', () => {
    const got = run(
      'pto.tpows ins(%a, %s : T(a), i32) outs(%d : T(d))',
      { a: { dtype: 'i32', data: [2, -3] }, d: { dtype: 'i32', data: [0, 0] } },
      { scalars: { s: ['i32', 3n] }, valid: [1, 2] },
    ).d;
    expect(got.slice(0, 2)).toEqual([8, -27]);
  });
});

/** Exact value of a finite double (>= 2^-400 in magnitude, or 0) as a BigInt numerator over 2^400. */
const SCALE = 400n;
function exact(x: number): bigint {
  if (x === 0) return 0n;
  const buf = new DataView(new ArrayBuffer(8));
  buf.setFloat64(0, x);
  const bits = buf.getBigUint64(0);
  const e = Number((bits >> 52n) & 0x7ffn);
  const m = (bits & ((1n << 52n) - 1n)) | (e === 0 ? 0n : 1n << 52n);
  const v = m << (SCALE + BigInt(Math.max(e, 1) - 1075));
  return bits >> 63n ? -v : v;
}

/** The f32 nearest to the exact value n / 2^SCALE, ties to even, by comparing against the neighbours of a guess. */
function nearestF32(n: bigint): number {
  const guess = Math.fround(Number(n) * 2 ** -Number(SCALE));
  const neighbours = [-1, 0, 1].map((d) => {
    const f = new Float32Array([guess]);
    const u = new Int32Array(f.buffer);
    u[0] += guess >= 0 ? d : -d;
    return f[0];
  });
  const dist = (f: number) => (exact(f) > n ? exact(f) - n : n - exact(f));
  return neighbours.reduce((best, f) => {
    const d = dist(f) - dist(best);
    if (d < 0n) return f;
    if (d === 0n && (new Int32Array(new Float32Array([f]).buffer)[0] & 1) === 0) return f;
    return best;
  });
}

describe('multiply-adds', () => {
  test('fusedMultiplyAdd (the npu model) equals the correctly rounded exact a * b + c for f32', () => {
    const finite = fc.float({ noNaN: true, noDefaultInfinity: true, min: Math.fround(-1e15), max: Math.fround(1e15) });
    fc.assert(
      fc.property(finite, finite, finite, (a, b, c) => {
        const want = nearestF32((exact(a) * exact(b)) / (1n << SCALE) + exact(c));
        const got = fusedMultiplyAdd(a, b, c, codec('f32'));
        // An exact zero's sign is not what this oracle decides.
        if (want === 0) expect(got === 0).toBe(true);
        else expect(got).toBe(want);
      }),
      { numRuns: 300 },
    );
    // (1 + 2^-23)(1 - 2^-23) + 2^24 + 2 = 2^24 + 3 - 2^-46: just below the f32 midpoint 2^24 + 3, so 2^24 + 2.
    // The double sum alone rounds to the midpoint and then to even, 2^24 + 4.
    expect(fusedMultiplyAdd(1 + 2 ** -23, 1 - 2 ** -23, 2 ** 24 + 2, codec('f32'))).toBe(2 ** 24 + 2);
  });

  const fma = (name: string, a: number[], b: number[], d: number[], numerics: Numerics, dtype: ElemType = 'f32') =>
    run(
      `pto.${name} ins(%a, %b : T(a), T(b)) outs(%d : T(d))`,
      { a: { dtype, data: a }, b: { dtype, data: b }, d: { dtype, data: d } },
      { numerics, valid: [1, a.length] },
    ).d.slice(0, a.length);

  test('tfusedmuladd: dst = src0 * dst + src1; cpu-sim rounds the product, npu rounds once', () => {
    // (1 + 2^-12)^2 = 1 + 2^-11 + 2^-24: the product rounds to 1 + 2^-11 in f32, so - 1 leaves 2^-11.
    const x = 1 + 2 ** -12;
    expect(fma('tfusedmuladd', [x], [-1], [x], 'cpu-sim')).toEqual([2 ** -11]);
    expect(fma('tfusedmuladd', [x], [-1], [x], 'npu')).toEqual([2 ** -11 + 2 ** -24]);
    expect(fma('tfusedmuladdrelu', [x, 2], [-1, -5], [x, 2], 'npu')).toEqual([2 ** -11 + 2 ** -24, 0]);
  });

  test('tmuladddst: dst = src0 * src1 + dst', () => {
    const x = 1 + 2 ** -12;
    expect(fma('tmuladddst', [x, 3], [x, 4], [-1, 1], 'cpu-sim')).toEqual([2 ** -11, 13]);
    expect(fma('tmuladddst', [x], [x], [-1], 'npu')).toEqual([2 ** -11 + 2 ** -24]);
  });

  test('tsubrelu: NaN differences give 0 under cpu-sim, NaN under npu f32; -0 gives +0', () => {
    const cpu = binary('tsubrelu', 'f32', [Infinity, 1, 1], [Infinity, 2, 1], { numerics: 'cpu-sim' });
    expect(cpu.map((v) => (Object.is(v, -0) ? '-0' : v))).toEqual([0, 0, 0]);
    const npu = binary('tsubrelu', 'f32', [Infinity, 3], [Infinity, 1]);
    expect(Number.isNaN(npu[0] as number)).toBe(true);
    expect(npu[1]).toBe(2);
  });

  test('tprelu: per-element slope', () => {
    expect(binary('tprelu', 'f16', [2, -2], [0.5, 0.5])).toEqual([2, -1]);
  });

  test('taddc/tsubc round after each op (f16: 2048 + 1 rounds to 2048 before + 1)', () => {
    const addc = (name: string, numerics: Numerics) =>
      run(
        `pto.${name} ins(%a, %b, %c : T(a), T(b), T(c)) outs(%d : T(d))`,
        { a: { dtype: 'f16', data: [2048] }, b: { dtype: 'f16', data: [1] }, c: { dtype: 'f16', data: [1] }, d: { dtype: 'f16', data: [0] } },
        { numerics, valid: [1, 1] },
      ).d[0];
    expect(addc('taddc', 'cpu-sim')).toBe(2048);
    expect(addc('tsubc', 'npu')).toBe(2048); // 2048 - 1 = 2047 exact, + 1 = 2048
    const sc = run(
      'pto.taddsc ins(%a, %s, %b : T(a), i32, T(b)) outs(%d : T(d))',
      { a: { dtype: 'i16', data: [32767] }, b: { dtype: 'i16', data: [2] }, d: { dtype: 'i16', data: [0] } },
      { scalars: { s: ['i32', 1n] }, valid: [1, 1], target: 'a2a3' },
    ).d[0];
    expect(sc).toBe(-32766);
  });

  test('taxpy: f16 src0 accumulates into f32 dst; cpu-sim rounds the product to f16 first', () => {
    const axpy = (numerics: Numerics) =>
      run(
        'pto.taxpy ins(%a, %s : T(a), f16) outs(%d : T(d))',
        { a: { dtype: 'f16', data: [1 + 2 ** -10] }, d: { dtype: 'f32', data: [-1] } },
        { numerics, scalars: { s: ['f16', 1 + 2 ** -10] }, valid: [1, 1] },
      ).d[0];
    // (1 + 2^-10)^2 = 1 + 2^-9 + 2^-20: f16 keeps 1 + 2^-9, f32 keeps it all.
    expect(axpy('cpu-sim')).toBe(2 ** -9);
    expect(axpy('npu')).toBe(2 ** -9 + 2 ** -20);
  });
});

describe('taddreluconv: add in the source type, ReLU, then a saturating round-to-nearest-even narrowing', () => {
  const convert = (from: ElemType, to: ElemType, a: Elem[], b: Elem[]) =>
    run(
      'pto.taddreluconv ins(%a, %b : T(a), T(b)) outs(%d : T(d))',
      { a: { dtype: from, data: a }, b: { dtype: from, data: b }, d: { dtype: to, data: a.map(() => 0) } },
      { valid: [1, a.length], target: 'a2a3' },
    ).d.slice(0, a.length);
  test('f32 -> f16: negative sums give 0, overflow saturates to 65504, NaN gives 0, tiny sums round to 0', () => {
    expect(convert('f32', 'f16', [1, -3, 70000, NaN, 1e-8, 0.1], [2, 1, 0, 0, 0, 0.2])).toEqual([3, 0, 65504, 0, 0, 0.300048828125]);
  });
  test('f16 -> i8: the f16 sum rounds half to even, then clamps to 0..127', () => {
    expect(convert('f16', 'i8', [1.5, 2.5, 200, -7, 126.5], [0, 0, 0, 0, 0])).toEqual([2, 2, 127, 0, 126]);
  });
  test('i16 -> i8: the i16 sum wraps before ReLU', () => {
    expect(convert('i16', 'i8', [30000, 100, -5], [30000, 27, 0])).toEqual([0, 127, 0]);
  });
});

describe('tadddeqrelu (A2/A3): the i32 sum, scaled by 2^-17, deqScale and 2^17 in f32, ReLU, then f16', () => {
  test('values, wrapping, saturation, and the scratch left in src0, src1 and tmp', () => {
    const out = run(
      'pto.tadddeqrelu ins(%a, %b, %s, %t : T(a), T(b), f32, T(t)) outs(%d : T(d))',
      {
        a: { dtype: 'i32', data: [1000000, 2147483647, -5, 3, 3] },
        b: { dtype: 'i32', data: [1, 1, 0, 4, 0] },
        t: { dtype: 'i32', data: [0, 0, 0, 0, 0] },
        d: { dtype: 'f16', data: [0, 0, 0, 0, 0] },
      },
      { valid: [1, 5], target: 'a2a3', scalars: { s: ['f32', 0.5] } },
    );
    // 1000001 * 0.5 = 500000.5 saturates; 2^31 - 1 + 1 wraps negative; -5 and the wrap give 0; 7 * 0.5 = 3.5; 3 * 0.5 = 1.5.
    expect(out.d.slice(0, 5)).toEqual([65504, 0, 0, 3.5, 1.5]);
    expect(out.t.slice(0, 5)).toEqual([1000001, -2147483648, -5, 7, 3]);
    const f32Bits = (v: number) => new Int32Array(new Float32Array([v]).buffer)[0];
    expect(out.a.slice(0, 5)).toEqual([500000.5, -1073741824, -2.5, 3.5, 1.5].map(f32Bits));
    expect(out.b.slice(0, 5)).toEqual([500000.5, 0, 0, 3.5, 1.5].map(f32Bits));
  });
  test('the deqScale product rounds to f32 before the f16 conversion', () => {
    const out = run(
      'pto.tadddeqrelu ins(%a, %b, %s, %t : T(a), T(b), f32, T(t)) outs(%d : T(d))',
      { a: { dtype: 'i32', data: [3] }, b: { dtype: 'i32', data: [0] }, t: { dtype: 'i32', data: [0] }, d: { dtype: 'f16', data: [0] } },
      { valid: [1, 1], target: 'a2a3', scalars: { s: ['f32', 0.1] } },
    );
    // fround(fround(3 / 2^17) * fround(0.1)) * 2^17 = 0.30000001192..., nearest f16 0.300048828125.
    expect(out.d[0]).toBe(0.300048828125);
  });
});
