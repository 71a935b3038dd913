/**
 * The fixpipe in the VM (vm/numerics/fixpipe.ts through tmov, tmov.fp, tstore, tstore_fp): an accumulator made by a
 * tmatmul with B = identity (so C = A exactly for finite values), then the move or store under test. Expected
 * values are worked out by hand from the rules in the comments (cpu/common.hpp quantize_element for cpu-sim; the
 * NPU tests' goldens, tests/npu/.../tstore_acc2gm/gen_data.py, for npu), never from the implementation.
 */
import { getFloat16 } from '@petamoriken/float16';
import { assemble } from '../../../../src/verify/assemble';
import { formatAll } from '../../../../src/diag/diagnostic';
import { ElemType } from '../../../../src/types/type';
import { runFunction, Value } from '../../../../src/vm/interpreter';
import { GlobalBuffer } from '../../../../src/machine/memory';
import { m1Scale } from '../../../../src/numerics/fixpipe';

type Numerics = 'npu' | 'cpu-sim';
type Target = 'a2a3' | 'a5';

const mlir = (e: string) => (e.startsWith('u') ? 'ui' + e.slice(1) : e);
const SIZE: Record<string, number> = { i8: 1, u8: 1, i16: 2, f16: 2, bf16: 2, f32: 4, i32: 4, u64: 8 };
const NZ = 'blayout=col_major, slayout=row_major';
const ND = 'blayout=row_major, slayout=none_box';
const tile = (loc: string, dtype: string, rows: number, cols: number, vRow: number, vCol: number, layout = loc === 'vec' || loc === 'scaling' ? ND : NZ) =>
  `!pto.tile_buf<loc=${loc}, dtype=${mlir(dtype)}, rows=${rows}, cols=${cols}, v_row=${vRow}, v_col=${vCol}, ${layout}, fractal=${loc === 'acc' ? 1024 : 512}, pad=0>`;

/** f32 bits of a float (the quant word's scale). */
const f32Bits = (v: number) => new Uint32Array(new Float32Array([v]).buffer)[0];
const SIGNED = 1n << 46n;
/** A quant word: scale (as its f32 bits), offset (bits 37..45), signed 8-bit result (bit 46). */
const word = (scale: number, o: { offset?: number; signed?: boolean } = {}) =>
  BigInt(f32Bits(scale)) | (BigInt(o.offset ?? 0) << 37n) | (o.signed === false ? 0n : SIGNED);
const hex = (w: bigint) => '0x' + w.toString(16);

function buffer(name: string, dtype: string, values: (number | bigint)[]): GlobalBuffer {
  const bytes = new Uint8Array(values.length * SIZE[dtype]);
  const v = new DataView(bytes.buffer);
  values.forEach((x, k) => {
    if (dtype === 'f32') v.setFloat32(k * 4, Number(x), true);
    else if (dtype === 'i8') v.setInt8(k, Number(x));
    else if (dtype === 'u64') v.setBigUint64(k * 8, BigInt(x), true);
    else if (dtype === 'i32') v.setInt32(k * 4, Number(x), true);
  });
  return new GlobalBuffer(name, dtype as ElemType, bytes);
}

function read(b: GlobalBuffer): number[] {
  return Array.from({ length: b.length }, (_, k) => {
    const v = b.view;
    switch (b.elem) {
      case 'i8':
        return v.getInt8(k);
      case 'u8':
        return v.getUint8(k);
      case 'i16':
        return v.getInt16(k * 2, true);
      case 'f16':
        return getFloat16(v, k * 2, true);
      case 'bf16':
        return new Float32Array(new Uint32Array([v.getUint16(k * 2, true) << 16]).buffer)[0];
      case 'i32':
        return v.getInt32(k * 4, true);
      default:
        return v.getFloat32(k * 4, true);
    }
  });
}

interface Case {
  /** The accumulator's values, rows x cols (f32, or i8-range integers for an i32 accumulator). */
  acc: number[][];
  accType: 'f32' | 'i32';
  out: string;
  /** How the accumulator leaves: the line(s) after the matmul; %acc is the accumulator, %out the global output. */
  via: 'tstore' | 'tstore_fp' | 'tmov' | 'tmov.fp' | 'tmov+fp';
  attrs?: string;
  words?: bigint[];
  numerics: Numerics;
  target?: Target;
}

/** tload A and identity B, tmov to Left/Right, tmatmul, then the fixpipe step under test; returns the output rows. */
function run(c: Case): number[][] {
  const m = c.acc.length;
  const n = c.acc[0].length;
  const input = c.accType === 'f32' ? 'f32' : 'i8';
  const k = n;
  const tk = input === 'i8' ? 32 : 16;
  const tn = input === 'i8' ? 32 : 16;
  const T = {
    aMat: tile('mat', input, 16, tk, m, k),
    bMat: tile('mat', input, tk, tn, k, n),
    left: tile('left', input, 16, tk, m, k),
    right: tile('right', input, tk, tn, k, n, 'blayout=row_major, slayout=col_major'),
    acc: tile('acc', c.accType, 16, tn, m, n),
    fpMat: tile('mat', 'u64', 1, 16, 1, n, ND),
    fp: tile('scaling', 'u64', 1, 16, 1, n),
    vec: tile('vec', c.out, 16, 32, m, n),
  };
  const pv = (name: string, dtype: string, rows: number, cols: number) =>
    `%${name}_pv = pto.partition_view %${name}_tv, offsets = [%c0, %c0], sizes = [%c${rows}, %c${cols}] : !pto.tensor_view<?x?x${mlir(dtype)}> -> !pto.partition_tensor_view<${rows}x${cols}x${mlir(dtype)}>`;
  const tv = (name: string, dtype: string, cols: number) =>
    `%${name}_tv = pto.make_tensor_view %${name}, shape = [%c16, %c${cols}], strides = [%c${cols}, %c1] : !pto.tensor_view<?x?x${mlir(dtype)}>`;
  const PV = (dtype: string, rows: number, cols: number) => `!pto.partition_tensor_view<${rows}x${cols}x${mlir(dtype)}>`;
  const consts = [...new Set([0, 1, 16, m, n, k])].map((v) => `%c${v} = arith.constant ${v} : index`);
  const body = [
    ...consts,
    tv('a', input, k),
    tv('b', input, n),
    tv('out', c.out, n),
    tv('w', 'u64', n),
    pv('a', input, m, k),
    pv('b', input, k, n),
    pv('out', c.out, m, n),
    pv('w', 'u64', 1, n),
    ...Object.entries(T).map(([name, t]) => `%${name} = pto.alloc_tile : ${t}`),
    `pto.tload ins(%a_pv : ${PV(input, m, k)}) outs(%aMat : ${T.aMat})`,
    `pto.tload ins(%b_pv : ${PV(input, k, n)}) outs(%bMat : ${T.bMat})`,
    `pto.tmov ins(%aMat : ${T.aMat}) outs(%left : ${T.left})`,
    `pto.tmov ins(%bMat : ${T.bMat}) outs(%right : ${T.right})`,
    `pto.tmatmul ins(%left, %right : ${T.left}, ${T.right}) outs(%acc : ${T.acc})`,
  ];
  const attrs = c.attrs ? ` {${c.attrs}}` : '';
  if (c.words) body.push(`pto.tload ins(%w_pv : ${PV('u64', 1, n)}) outs(%fpMat : ${T.fpMat})`, `pto.tmov ins(%fpMat : ${T.fpMat}) outs(%fp : ${T.fp})`);
  const outView = `%out_pv : ${PV(c.out, m, n)}`;
  if (c.via === 'tstore') body.push(`pto.tstore ins(%acc${attrs} : ${T.acc}) outs(${outView})`);
  if (c.via === 'tstore_fp') body.push(`pto.tstore_fp ins(%acc, %fp${attrs} : ${T.acc}, ${T.fp}) outs(${outView})`);
  if (c.via === 'tmov' || c.via === 'tmov.fp' || c.via === 'tmov+fp') {
    if (c.via === 'tmov') body.push(`pto.tmov ins(%acc${attrs} : ${T.acc}) outs(%vec : ${T.vec})`);
    else if (c.via === 'tmov+fp') body.push(`pto.tmov ins(%acc, %fp${attrs} : ${T.acc}, ${T.fp}) outs(%vec : ${T.vec})`);
    else body.push(`pto.tmov.fp ins(%acc, %fp${attrs} : ${T.acc}, ${T.fp}) outs(%vec : ${T.vec})`);
    body.push(`pto.tstore ins(%vec : ${T.vec}) outs(${outView})`);
  }
  const args = [`%a: !pto.ptr<${mlir(input)}>`, `%b: !pto.ptr<${mlir(input)}>`, `%out: !pto.ptr<${mlir(c.out)}>`, `%w: !pto.ptr<ui64>`];
  const text = ['module {', `  func.func @kernel(${args.join(', ')}) {`, ...body.map((l) => '    ' + l), '    return', '  }', '}', ''].join('\n');
  const asm = assemble('fixpipe.pto', text, { target: c.target ?? 'a5' });
  if (asm.diags.hasErrors()) throw new Error(formatAll(asm.diags) + '\n' + text);
  const identity = Array.from({ length: k * n }, (_, i) => (Math.floor(i / n) === i % n ? 1 : 0));
  const out = new GlobalBuffer('out', c.out as ElemType, new Uint8Array(m * n * SIZE[c.out]));
  const buffers = [buffer('a', input, c.acc.flat()), buffer('b', input, identity), out, buffer('w', 'u64', c.words ?? [0n])];
  const fn = [...asm.program.functions.values()][0];
  runFunction(asm.program, asm.types, fn, new Map<string, Value>(buffers.map((b) => [`%${b.name}`, b])), { numerics: c.numerics, maxSteps: 1e6 });
  const flat = read(out);
  return Array.from({ length: m }, (_, r) => flat.slice(r * n, (r + 1) * n));
}

const BOTH: Numerics[] = ['npu', 'cpu-sim'];

describe('the quant word', () => {
  test('M1 keeps the sign, exponent and top 10 mantissa bits of the f32 scale', () => {
    expect(m1Scale(f32Bits(0.1))).toBe((1 + 614 / 1024) / 16); // 0.1 = 1.6 x 2^-4; 0x4CCCCD >> 13 = 614
    expect(m1Scale(f32Bits(-2.5))).toBe(-2.5);
    expect(m1Scale(f32Bits(1 + 2 ** -11))).toBe(1); // below the 10 kept bits
    expect(m1Scale(0)).toBe(0);
    expect(m1Scale(f32Bits(Infinity))).toBe(Infinity);
    expect(m1Scale(f32Bits(2 ** -127))).toBe(2 ** -127 * 1.5); // exponent 0 read as a normal number with mantissa 0x200 on top
  });
});

describe('tstore {pre_quant}: f32 -> i8 / u8', () => {
  test.each(BOTH)('%s: ties to even, saturation at -128/127, the sign bit choosing the range', (numerics) => {
    const acc = [[2.5, 3.5, -2.5, 0.4999, 100, -100, 1e9, -1e9]];
    expect(run({ acc, accType: 'f32', out: 'i8', via: 'tstore', attrs: `pre_quant = ${hex(word(1))}`, numerics })).toEqual([
      [2, 4, -2, 0, 100, -100, 127, -128],
    ]);
    // Unsigned (bit 46 clear) into u8: 0..255.
    const u8 = run({
      acc: [[-3, 254.5, 255.5, 300]],
      accType: 'f32',
      out: 'u8',
      via: 'tstore',
      attrs: `pre_quant = ${hex(word(1, { signed: false }))}`,
      numerics,
    });
    expect(u8).toEqual([[0, 254, 255, 255]]);
    // Scale 2: 63.75 x 2 = 127.5 rounds to 128 and saturates; -64.25 x 2 = -128.5 rounds to -128.
    expect(run({ acc: [[63.75, -64.25, 1.25]], accType: 'f32', out: 'i8', via: 'tstore', attrs: `pre_quant = ${hex(word(2))}`, numerics })).toEqual([
      [127, -128, 2],
    ]);
  });

  test.each(BOTH)('%s: an i8 destination with the unsigned range wraps (200 -> -56)', (numerics) => {
    expect(run({ acc: [[200, -5]], accType: 'f32', out: 'i8', via: 'tstore', attrs: `pre_quant = ${hex(word(1, { signed: false }))}`, numerics })).toEqual([
      [-56, 0],
    ]);
  });

  test('the offset: cpu-sim rounds value + offset once; npu rounds, saturates to -256..255, then adds it', () => {
    const attrs = `pre_quant = ${hex(word(1, { offset: 1 }))}`;
    // 0.5 + 1 = 1.5 -> 2 (cpu-sim); round(0.5) = 0, + 1 = 1 (npu). 2.5 + 1 = 3.5 -> 4; round(2.5) = 2, + 1 = 3.
    expect(run({ acc: [[0.5, 2.5]], accType: 'f32', out: 'i8', via: 'tstore', attrs, numerics: 'cpu-sim' })).toEqual([[2, 4]]);
    expect(run({ acc: [[0.5, 2.5]], accType: 'f32', out: 'i8', via: 'tstore', attrs, numerics: 'npu' })).toEqual([[1, 3]]);
    const big = `pre_quant = ${hex(word(1, { offset: 300 }))}`;
    // -260 + 300 = 40 (cpu-sim); max(-260, -256) + 300 = 44 (npu).
    expect(run({ acc: [[-260]], accType: 'f32', out: 'i8', via: 'tstore', attrs: big, numerics: 'cpu-sim' })).toEqual([[40]]);
    expect(run({ acc: [[-260]], accType: 'f32', out: 'i8', via: 'tstore', attrs: big, numerics: 'npu' })).toEqual([[44]]);
  });

  test('the scalar scale: cpu-sim uses all 32 bits, npu the M1 field (top 10 mantissa bits)', () => {
    const attrs = `pre_quant = ${hex(word(1 + 2 ** -11))}`;
    // 64.5 x (1 + 2^-11) = 64.53... -> 65; M1 = 1: 64.5 is a tie -> 64.
    expect(run({ acc: [[64.5]], accType: 'f32', out: 'i8', via: 'tstore', attrs, numerics: 'cpu-sim' })).toEqual([[65]]);
    expect(run({ acc: [[64.5]], accType: 'f32', out: 'i8', via: 'tstore', attrs, numerics: 'npu' })).toEqual([[64]]);
  });

  test.each(BOTH)('%s: +-infinity saturates, NaN gives 0', (numerics) => {
    // One column: C = a x 1 + 0 keeps infinities and NaN (B = identity would spread NaN over the row).
    const out = [Infinity, -Infinity, NaN].map(
      (v) => run({ acc: [[v]], accType: 'f32', out: 'i8', via: 'tstore', attrs: `pre_quant = ${hex(word(1))}`, numerics })[0][0],
    );
    expect(out).toEqual([127, -128, 0]);
  });
});

describe('relu', () => {
  test.each(BOTH)('%s: after the quantisation: a negative scale turns -5 into 5 and 5 into 0', (numerics) => {
    expect(run({ acc: [[5, -5, 0.75]], accType: 'f32', out: 'i8', via: 'tstore', attrs: `relu = true, pre_quant = ${hex(word(-1))}`, numerics })).toEqual([
      [0, 5, 0],
    ]);
  });

  test.each(BOTH)('%s: tstore {relu} f32 -> f32 and -> f16 clears negatives', (numerics) => {
    expect(run({ acc: [[-1.5, 2.25, -1e30]], accType: 'f32', out: 'f32', via: 'tstore', attrs: 'relu = true', numerics })).toEqual([[0, 2.25, 0]]);
    expect(run({ acc: [[-1.5, 1 + 2 ** -11, 3]], accType: 'f32', out: 'f16', via: 'tstore', attrs: 'relu = true', numerics })).toEqual([[0, 1, 3]]);
  });

  test("NaN: the simulator's TSTORE ReLU gives 0, its TMOV relu keeps NaN; npu keeps NaN", () => {
    const nan = (via: 'tstore' | 'tmov', numerics: Numerics) => run({ acc: [[NaN]], accType: 'f32', out: 'f32', via, attrs: 'relu = true', numerics })[0][0];
    expect(nan('tstore', 'cpu-sim')).toBe(0);
    expect(nan('tmov', 'cpu-sim')).toBeNaN();
    expect(nan('tstore', 'npu')).toBeNaN();
    expect(nan('tmov', 'npu')).toBeNaN();
  });
});

describe('vector quantisation: tmov.fp and tstore_fp', () => {
  const words = [word(1), word(2), word(0.5), word(-1)];
  const acc = [
    [10, 10, 10, 10],
    [3, 3, 3, 3],
  ];

  test.each(BOTH)('%s: tmov.fp quantises column c with word c', (numerics) => {
    expect(run({ acc, accType: 'f32', out: 'i8', via: 'tmov.fp', words, numerics })).toEqual([
      [10, 20, 5, -10],
      [3, 6, 2, -3], // 1.5 -> 2 (tie to even)
    ]);
  });

  test('tstore_fp: npu takes word c for column c; the simulator takes word r for row r of the (column-major) Acc tile', () => {
    expect(run({ acc, accType: 'f32', out: 'i8', via: 'tstore_fp', words, numerics: 'npu' })).toEqual([
      [10, 20, 5, -10],
      [3, 6, 2, -3],
    ]);
    expect(run({ acc, accType: 'f32', out: 'i8', via: 'tstore_fp', words, numerics: 'cpu-sim' })).toEqual([
      [10, 10, 10, 10],
      [6, 6, 6, 6],
    ]);
  });

  test.each(BOTH)('%s: the vector scale is the M1 field in both profiles', (numerics) => {
    // 64.5 x (1 + 2^-11) with all bits would give 65; M1 = 1 keeps the tie: 64.
    expect(run({ acc: [[64.5]], accType: 'f32', out: 'i8', via: 'tmov.fp', words: [word(1 + 2 ** -11)], numerics })).toEqual([[64]]);
  });

  test.each(BOTH)('%s: tmov.fp i32 -> i8 (VREQ8) and i32 -> f16 (VDEQF16, saturating at 65504)', (numerics) => {
    const ints = [[100, -100, 7]];
    expect(run({ acc: ints, accType: 'i32', out: 'i8', via: 'tmov.fp', words: [word(1.5), word(1.5), word(0.5)], numerics })).toEqual([[127, -128, 4]]);
    // Today's PTOAS passes fp to pto.tmov itself: the same quantisation.
    expect(run({ acc: ints, accType: 'i32', out: 'i8', via: 'tmov+fp', words: [word(1.5), word(1.5), word(0.5)], numerics })).toEqual([[127, -128, 4]]);
    // 100 x 1024 = 102400 saturates to 65504, -100 x 1024 to -65504.
    const got = run({ acc: ints, accType: 'i32', out: 'f16', via: 'tmov.fp', words: [word(1024), word(1024), word(0.1)], numerics });
    expect(got[0].slice(0, 2)).toEqual([65504, -65504]);
    // 0.1's M1 is 1638/16384; 7 x that = 0.6998291015625 (exact in f32) = 1433.25 f16 steps of 2^-11 -> 1433 x 2^-11.
    expect(got[0][2]).toBe(1433 / 2048);
  });
});

describe('f32 -> f16 scalar quantisation (a5)', () => {
  test('finite values saturate at 65504 in both profiles; infinity stays under cpu-sim and saturates under npu', () => {
    const attrs = `pre_quant = ${hex(word(1, { signed: false }))}`;
    expect(run({ acc: [[1e5, -1e5, 65519]], accType: 'f32', out: 'f16', via: 'tstore', attrs, numerics: 'cpu-sim' })).toEqual([[65504, -65504, 65504]]);
    expect(run({ acc: [[Infinity]], accType: 'f32', out: 'f16', via: 'tstore', attrs, numerics: 'cpu-sim' })).toEqual([[Infinity]]);
    expect(run({ acc: [[Infinity]], accType: 'f32', out: 'f16', via: 'tstore', attrs, numerics: 'npu' })).toEqual([[65504]]);
    expect(run({ acc: [[NaN]], accType: 'f32', out: 'f16', via: 'tstore', attrs, numerics: 'npu' })[0][0]).toBeNaN();
  });
});

describe('not modelled: clear errors', () => {
  test('cpu-sim: tmov {pre_quant} (the simulator ignores the word)', () => {
    expect(() => run({ acc: [[1]], accType: 'f32', out: 'i8', via: 'tmov', attrs: `pre_quant = ${hex(word(1))}`, numerics: 'cpu-sim' })).toThrow(
      'pto.tmov: tmov {pre_quant} under cpu-sim: the simulator ignores the quant word (cpu/TMov.hpp); not implemented',
    );
  });

  test("cpu-sim: tstore_fp reading a word past fp's valid cols for a row", () => {
    const acc = [[1], [2]];
    expect(() => run({ acc, accType: 'f32', out: 'i8', via: 'tstore_fp', words: [word(1)], numerics: 'cpu-sim' })).toThrow(
      'pto.tstore_fp: fp has 1 valid cols, but row 1 (the simulator picks the word by row) needs a word',
    );
  });

  test('npu: tstore_fp i32 -> f16 on a2a3 by column', () => {
    expect(run({ acc: [[100, 7]], accType: 'i32', out: 'f16', via: 'tstore_fp', words: [word(1024), word(0.5)], numerics: 'npu', target: 'a2a3' })).toEqual([
      [65504, 3.5],
    ]);
  });

  test('cpu-sim: a vector-quant pair the simulator has no mode for (f32 -> f16 on a5)', () => {
    expect(() => run({ acc: [[1]], accType: 'f32', out: 'f16', via: 'tmov.fp', words: [word(1)], numerics: 'cpu-sim' })).toThrow(
      'pto.tmov.fp: from f32 to f16 under cpu-sim: the simulator has no vector quant mode for f32 -> f16 and ignores the quant word (cpu/common.hpp); not implemented',
    );
  });
});
