/**
 * The instructions' typed-array fast paths against their general definitions: every program is run twice on the
 * same inputs, with RunOptions.fastPaths on and off, and the bytes it leaves in global memory must agree bit for
 * bit (NaN payloads included). The random cases draw raw bit patterns, so NaNs (signalling ones too), infinities,
 * signed zeros and subnormals all occur.
 */
import * as fs from 'fs';
import * as path from 'path';
import fc from 'fast-check';
import { assemble } from '../../src/verify/assemble';
import { formatAll } from '../../src/diag/diagnostic';
import { bindArguments } from '../../src/vm/io/arguments';
import { runLaunch } from '../../src/vm/interpreter';
import { GlobalBuffer } from '../../src/machine/memory';
import { NumericsProfile } from '../../src/ir/definition';
import { TargetName } from '../../src/spec/schema';

/**
 * Each program assembled once: a property's runs differ in their inputs, mostly not in their program, and each run
 * already runs one assembled program three ways.
 */
const assemblies = new Map<string, ReturnType<typeof assemble>>();
function assembled(text: string, target: TargetName): ReturnType<typeof assemble> {
  const key = `${target}\n${text}`;
  let asm = assemblies.get(key);
  if (!asm) {
    asm = assemble('fast.pto', text, { target });
    if (asm.diags.hasErrors()) throw new Error(formatAll(asm.diags) + '\n' + text);
    assemblies.set(key, asm);
  }
  return asm;
}

/**
 * Runs `text`'s first function with generated inputs (or `inputs` by argument name) with every fast path, with the
 * typed-array loops only, and with none; each run's buffers' bytes.
 */
function runAllWays(text: string, target: TargetName, numerics: NumericsProfile, inputs: Record<string, Uint8Array> = {}): [Buffer[], Buffer[], Buffer[]] {
  const asm = assembled(text, target);
  const fn = [...asm.program.functions.values()][0];
  const once = (fastPaths: boolean | 'javascript'): Buffer[] => {
    const bound = bindArguments(asm.types, fn, new Map(), (symbol) => asm.program.functions.get(symbol));
    const buffers = [...bound.values.entries()].filter(([, v]) => v instanceof GlobalBuffer) as [string, GlobalBuffer][];
    for (const [name, b] of buffers) {
      const input = inputs[name.replace(/^%/, '')];
      if (input) b.bytes.set(input.subarray(0, b.bytes.length));
    }
    // One block; a mixed kernel gets its cube core and two vector cores.
    try {
      runLaunch(asm.program, asm.types, fn, bound.values, { numerics, maxSteps: 1e7, fastPaths }, 1);
    } catch (e) {
      // A trap must be the same trap every way.
      return [Buffer.from(`trap: ${(e as Error).message}`)];
    }
    return buffers.map(([, b]) => Buffer.from(b.bytes));
  };
  return [once(true), once('javascript'), once(false)];
}

const programsDir = path.join(__dirname, '..', '..', 'programs');

describe('programs/ run alike with and without fast paths', () => {
  // matmul-gate-proj's 33.5 M multiply-adds (and its -blocks variant's 268 M) take minutes through the general path
  // under jest: they run below at a smaller K. programs/matmul.pto runs the same instructions at a small size too.
  const FULL_SIZE_ONLY = ['matmul-gate-proj.pto', 'matmul-gate-proj-blocks.pto'];
  // A program for two devices needs --ranks 2 and each rank's peer buffer: test/programs/exchange-handoff.test.ts runs it.
  const RANKS_ONLY = ['two-rank-exchange.pto'];
  const files = fs.readdirSync(programsDir).filter((f) => f.endsWith('.pto') && !FULL_SIZE_ONLY.includes(f) && !RANKS_ONLY.includes(f));
  test.each(files.flatMap((f) => (['cpu-sim', 'npu'] as const).map((n) => [f, n] as const)))('%s (%s)', (file, numerics) => {
    const text = fs.readFileSync(path.join(programsDir, file), 'utf8');
    const target = /pto\.target_arch = "a2a3"/.test(text) ? 'a2a3' : 'a5';
    const [all, javascript, none] = runAllWays(text, target, numerics);
    expect(all).toEqual(none);
    expect(javascript).toEqual(none);
  });
});

test('programs/matmul-gate-proj.pto with K = 512 (L1 slices, textract to L0, tmatmul.acc) runs alike every way', () => {
  const text = fs.readFileSync(path.join(programsDir, 'matmul-gate-proj.pto'), 'utf8').replace('%c8192 = arith.constant 8192', '%c8192 = arith.constant 512');
  const [all, javascript, none] = runAllWays(text, 'a5', 'npu');
  expect(all).toEqual(none);
  expect(javascript).toEqual(none);
});

test('programs/matmul-gate-proj-blocks.pto with K = 256 and 512 columns (two slices of 256 in one block) runs alike every way', () => {
  const text = fs
    .readFileSync(path.join(programsDir, 'matmul-gate-proj-blocks.pto'), 'utf8')
    .replace('%c8192 = arith.constant 8192', '%c8192 = arith.constant 256')
    .replace('%c2048 = arith.constant 2048', '%c2048 = arith.constant 512');
  const [all, javascript, none] = runAllWays(text, 'a5', 'npu');
  expect(all).toEqual(none);
  expect(javascript).toEqual(none);
});

const tile = (rows: number, cols: number, vRow: number, vCol: number) =>
  `!pto.tile_buf<loc=vec, dtype=f32, rows=${rows}, cols=${cols}, v_row=${vRow}, v_col=${vCol}, blayout=row_major, slayout=none_box, fractal=512, pad=0>`;

/** dst = a op b over a rows x cols tile (dst may be a itself). */
function binaryProgram(op: string, rows: number, cols: number, inPlace: boolean): string {
  const full = tile(rows, cols, rows, cols);
  const view = `!pto.partition_tensor_view<${rows}x${cols}xf32>`;
  return `module {
  func.func @k(%a: !pto.ptr<f32>, %b: !pto.ptr<f32>, %d: !pto.ptr<f32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %r = arith.constant ${rows} : index
    %c = arith.constant ${cols} : index
    %at = pto.make_tensor_view %a, shape = [%r, %c], strides = [%c, %c1] : !pto.tensor_view<?x?xf32>
    %bt = pto.make_tensor_view %b, shape = [%r, %c], strides = [%c, %c1] : !pto.tensor_view<?x?xf32>
    %dt = pto.make_tensor_view %d, shape = [%r, %c], strides = [%c, %c1] : !pto.tensor_view<?x?xf32>
    %ap = pto.partition_view %at, offsets = [%c0, %c0], sizes = [%r, %c] : !pto.tensor_view<?x?xf32> -> ${view}
    %bp = pto.partition_view %bt, offsets = [%c0, %c0], sizes = [%r, %c] : !pto.tensor_view<?x?xf32> -> ${view}
    %dp = pto.partition_view %dt, offsets = [%c0, %c0], sizes = [%r, %c] : !pto.tensor_view<?x?xf32> -> ${view}
    %x = pto.alloc_tile : ${full}
    %y = pto.alloc_tile : ${full}
    %z = pto.alloc_tile : ${full}
    pto.tload ins(%ap : ${view}) outs(%x : ${full})
    pto.tload ins(%bp : ${view}) outs(%y : ${full})
    pto.tload ins(%dp : ${view}) outs(%z : ${full})
    pto.${op} ins(%x, %y : ${full}, ${full}) outs(${inPlace ? '%x' : '%z'} : ${full})
    pto.tstore ins(${inPlace ? '%x' : '%z'} : ${full}) outs(%dp : ${view})
    return
  }
}`;
}

/** The special f32 bit patterns: infinities, NaNs (quiet and signalling, both signs, payloads), zeros, subnormals, the largest. */
const SPECIAL_F32 = [0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000, 0x7f800001, 0xffa00005, 0x80000000, 0, 0x00000001, 0x807fffff, 0x7f7fffff, 0x3f800000];

/** f32 bit patterns weighted towards the special ones. */
const f32Bits = fc.oneof(fc.integer({ min: 0, max: 0xffffffff }), fc.constantFrom(...SPECIAL_F32));

/** Every pair of special patterns once: a[i] x b[i] over 12 x 12 = 144 elements (a 6 x 24 tile). */
function specialPairs(): Record<string, Uint8Array> {
  const n = SPECIAL_F32.length;
  const a = Uint32Array.from({ length: n * n }, (_, i) => SPECIAL_F32[Math.floor(i / n)]);
  const b = Uint32Array.from({ length: n * n }, (_, i) => SPECIAL_F32[i % n]);
  const d = Uint32Array.from({ length: n * n }, (_, i) => SPECIAL_F32[(i * 7) % n]);
  return { a: new Uint8Array(a.buffer), b: new Uint8Array(b.buffer), d: new Uint8Array(d.buffer) };
}

describe('f32 binary fast paths match the definitions bit for bit', () => {
  const ops = ['tadd', 'tsub', 'tmul', 'tdiv', 'tmax', 'tmin'];
  test.each(ops.flatMap((op) => (['cpu-sim', 'npu'] as const).map((n) => [op, n] as const)))('%s (%s): every pair of special values', (op, numerics) => {
    const [all, javascript, none] = runAllWays(binaryProgram(op, 6, 24, false), 'a5', numerics, specialPairs());
    expect(all).toEqual(none);
    expect(javascript).toEqual(none);
  });
  test.each(ops.flatMap((op) => (['cpu-sim', 'npu'] as const).map((n) => [op, n] as const)))('%s (%s): random tiles', (op, numerics) => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 1, max: 3 }),
        fc.boolean(),
        fc.array(f32Bits, { minLength: 3 * 4 * 24, maxLength: 3 * 4 * 24 }),
        (rows, colBlocks, inPlace, bits) => {
          const cols = colBlocks * 8;
          const words = Uint32Array.from(bits);
          const bytes = new Uint8Array(words.buffer);
          const n = rows * cols * 4;
          const [all, javascript, none] = runAllWays(binaryProgram(op, rows, cols, inPlace), 'a5', numerics, {
            a: bytes.subarray(0, n),
            b: bytes.subarray(n, 2 * n),
            d: bytes.subarray(2 * n, 3 * n),
          });
          expect(all).toEqual(none);
          expect(javascript).toEqual(none);
        },
      ),
      { numRuns: 25 },
    );
  });
});

/** The special f16 bit patterns: infinities, NaNs (both signs, payloads), zeros, subnormals, the largest, one. */
const SPECIAL_F16 = [0x7c00, 0xfc00, 0x7e00, 0xfe00, 0x7c01, 0xfd05, 0x8000, 0, 0x0001, 0x83ff, 0x7bff, 0x3c00];

const tileOf = (dtype: string, rows: number, cols: number, blayout = 'row_major') =>
  `!pto.tile_buf<loc=vec, dtype=${dtype}, rows=${rows}, cols=${cols}, v_row=${rows}, v_col=${cols}, blayout=${blayout}, slayout=none_box, fractal=512, pad=0>`;

/** A row (trow*: rows x 1 column-major result, with a tmp tile) or column (tcol*: 1 x cols) reduction of src. */
function reductionProgram(op: string, dtype: 'f32' | 'f16', rows: number, cols: number): string {
  const byRow = op.startsWith('trow');
  const [dr, dc] = byRow ? [rows, 1] : [1, cols];
  const src = tileOf(dtype, rows, cols);
  const dst = tileOf(dtype, dr, dc, byRow ? 'col_major' : 'row_major');
  const view = (r: number, c: number) => `!pto.partition_tensor_view<${r}x${c}x${dtype}>`;
  const ins = byRow ? `ins(%s, %t : ${src}, ${src})` : `ins(%s : ${src})`;
  return `module {
  func.func @k(%a: !pto.ptr<${dtype}>, %d: !pto.ptr<${dtype}>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %r = arith.constant ${rows} : index
    %c = arith.constant ${cols} : index
    %dr = arith.constant ${dr} : index
    %dc = arith.constant ${dc} : index
    %at = pto.make_tensor_view %a, shape = [%r, %c], strides = [%c, %c1] : !pto.tensor_view<?x?x${dtype}>
    %dt = pto.make_tensor_view %d, shape = [%dr, %dc], strides = [%dc, %c1] : !pto.tensor_view<?x?x${dtype}>
    %ap = pto.partition_view %at, offsets = [%c0, %c0], sizes = [%r, %c] : !pto.tensor_view<?x?x${dtype}> -> ${view(rows, cols)}
    %dp = pto.partition_view %dt, offsets = [%c0, %c0], sizes = [%dr, %dc] : !pto.tensor_view<?x?x${dtype}> -> ${view(dr, dc)}
    %s = pto.alloc_tile : ${src}
    %t = pto.alloc_tile : ${src}
    %o = pto.alloc_tile : ${dst}
    pto.tload ins(%ap : ${view(rows, cols)}) outs(%s : ${src})
    pto.${op} ${ins} outs(%o : ${dst})
    pto.tstore ins(%o : ${dst}) outs(%dp : ${view(dr, dc)})
    return
  }
}`;
}

describe('row and column reduction fast paths match the definitions bit for bit', () => {
  const cases = [
    ...['trowsum', 'trowmax', 'trowmin', 'tcolmax', 'tcolmin'].map((op) => [op, 'f32'] as const),
    ...['trowmax', 'trowmin', 'tcolmax', 'tcolmin'].map((op) => [op, 'f16'] as const),
  ];
  test.each(cases.flatMap(([op, dtype]) => (['cpu-sim', 'npu'] as const).map((n) => [op, dtype, n] as const)))(
    '%s %s (%s): special values',
    (op, dtype, numerics) => {
      // Every ordered pair (x, y) of specials as a line x, y, x, y, ... (a row of 16, or a column of 16 for tcol*):
      // ties of +0 and -0, a NaN first or second, infinities; 16 pairs per 16 x 16 tile.
      const specials = dtype === 'f32' ? SPECIAL_F32 : SPECIAL_F16;
      const pairs = specials.flatMap((x) => specials.map((y) => [x, y]));
      for (let first = 0; first < pairs.length; first += 16) {
        const bits = new Array<number>(256);
        for (let line = 0; line < 16; line++)
          for (let k = 0; k < 16; k++) {
            const [x, y] = pairs[(first + line) % pairs.length];
            bits[op.startsWith('trow') ? line * 16 + k : k * 16 + line] = k % 2 === 0 ? x : y;
          }
        const words = dtype === 'f32' ? Uint32Array.from(bits) : Uint16Array.from(bits);
        const [all, javascript, none] = runAllWays(reductionProgram(op, dtype, 16, 16), 'a5', numerics, { a: new Uint8Array(words.buffer) });
        expect(all).toEqual(none);
        expect(javascript).toEqual(none);
      }
    },
  );
  test.each(cases.flatMap(([op, dtype]) => (['cpu-sim', 'npu'] as const).map((n) => [op, dtype, n] as const)))(
    '%s %s (%s): random tiles',
    (op, dtype, numerics) => {
      const specials = dtype === 'f32' ? SPECIAL_F32 : SPECIAL_F16;
      const words = dtype === 'f32' ? Uint32Array : Uint16Array;
      fc.assert(
        fc.property(
          // A column-major rows x 1 result needs 32-byte columns.
          fc.constantFrom(...(dtype === 'f32' ? [8, 16, 24] : [16, 32])),
          fc.constantFrom(16, 32, 48),
          fc.array(fc.oneof(fc.integer({ min: 0, max: dtype === 'f32' ? 0xffffffff : 0xffff }), fc.constantFrom(...specials)), {
            minLength: 32 * 48,
            maxLength: 32 * 48,
          }),
          (rows, cols, bits) => {
            const [all, javascript, none] = runAllWays(reductionProgram(op, dtype, rows, cols), 'a5', numerics, { a: new Uint8Array(words.from(bits).buffer) });
            expect(all).toEqual(none);
            expect(javascript).toEqual(none);
          },
        ),
        { numRuns: 15 },
      );
    },
  );
  test.each([
    ['cpu-sim', 'a5'],
    ['npu', 'a5'],
    ['npu', 'a2a3'],
  ] as const)('trowsum f32 (%s, %s): rows longer than a repeat (a2a3: lanes folded, then the tree; a5: a tree per repeat)', (numerics, target) => {
    fc.assert(
      fc.property(
        fc.constantFrom(8, 16),
        fc.constantFrom(8, 72, 136, 200, 1024),
        fc.array(fc.oneof(fc.integer({ min: 0, max: 0xffffffff }), fc.constantFrom(...SPECIAL_F32)), { minLength: 16 * 1024, maxLength: 16 * 1024 }),
        (rows, cols, bits) => {
          const [all, javascript, none] = runAllWays(reductionProgram('trowsum', 'f32', rows, cols), target, numerics, {
            a: new Uint8Array(Uint32Array.from(bits).buffer),
          });
          expect(all).toEqual(none);
          expect(javascript).toEqual(none);
        },
      ),
      { numRuns: 10 },
    );
  });
});

/** A 16 x 16 f32 program of one instruction over loaded tiles: `body` names %x (and %e, a 16 x 1 column) and %o. */
function f32Program(body: string): string {
  const t = tileOf('f32', 16, 16);
  const col = tileOf('f32', 16, 1, 'col_major');
  const view = '!pto.partition_tensor_view<16x16xf32>';
  const colView = '!pto.partition_tensor_view<16x1xf32>';
  return `module {
  func.func @k(%a: !pto.ptr<f32>, %e: !pto.ptr<f32>, %d: !pto.ptr<f32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %at = pto.make_tensor_view %a, shape = [%c16, %c16], strides = [%c16, %c1] : !pto.tensor_view<?x?xf32>
    %et = pto.make_tensor_view %e, shape = [%c16, %c1], strides = [%c1, %c1] : !pto.tensor_view<?x?xf32>
    %dt = pto.make_tensor_view %d, shape = [%c16, %c16], strides = [%c16, %c1] : !pto.tensor_view<?x?xf32>
    %ap = pto.partition_view %at, offsets = [%c0, %c0], sizes = [%c16, %c16] : !pto.tensor_view<?x?xf32> -> ${view}
    %ep = pto.partition_view %et, offsets = [%c0, %c0], sizes = [%c16, %c1] : !pto.tensor_view<?x?xf32> -> ${colView}
    %dp = pto.partition_view %dt, offsets = [%c0, %c0], sizes = [%c16, %c16] : !pto.tensor_view<?x?xf32> -> ${view}
    %x = pto.alloc_tile : ${t}
    %ec = pto.alloc_tile : ${col}
    %o = pto.alloc_tile : ${t}
    pto.tload ins(%ap : ${view}) outs(%x : ${t})
    pto.tload ins(%ep : ${colView}) outs(%ec : ${col})
    ${body.replace(/\bT\b/g, t).replace(/\bC\b/g, col)}
    pto.tstore ins(%o : ${t}) outs(%dp : ${view})
    return
  }
}`;
}

describe('unary and row-expand f32 fast paths match the definitions bit for bit', () => {
  const bodies: [string, string][] = [
    ...['texp', 'tsqrt', 'tlog', 'trecip', 'trsqrt'].map((op): [string, string] => [op, `pto.${op} ins(%x : T) outs(%o : T)`]),
    ...['add', 'sub', 'mul', 'div', 'max', 'min'].map((op): [string, string] => [`trowexpand${op}`, `pto.trowexpand${op} ins(%x, %ec : T, C) outs(%o : T)`]),
    ['trowexpandsub (per-row operand first)', 'pto.trowexpandsub ins(%ec, %x : C, T) outs(%o : T)'],
  ];
  test.each(bodies.flatMap(([name, body]) => (['cpu-sim', 'npu'] as const).map((n) => [name, body, n] as const)))('%s (%s)', (_name, body, numerics) => {
    fc.assert(
      fc.property(fc.array(f32Bits, { minLength: 256 + 16, maxLength: 256 + 16 }), (bits) => {
        const words = Uint32Array.from(bits);
        const bytes = new Uint8Array(words.buffer);
        const [all, javascript, none] = runAllWays(f32Program(body), 'a5', numerics, { a: bytes.subarray(0, 1024), e: bytes.subarray(1024) });
        expect(all).toEqual(none);
        expect(javascript).toEqual(none);
      }),
      { numRuns: 20 },
    );
  });
});

/** A 16 x 16 tcvt from one float type to another. */
function convertProgram(from: 'f32' | 'f16' | 'bf16', to: 'f32' | 'f16' | 'bf16', rmode: string): string {
  const [s, d] = [tileOf(from, 16, 16), tileOf(to, 16, 16)];
  const view = (t: string) => `!pto.partition_tensor_view<16x16x${t}>`;
  return `module {
  func.func @k(%a: !pto.ptr<${from}>, %d: !pto.ptr<${to}>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %at = pto.make_tensor_view %a, shape = [%c16, %c16], strides = [%c16, %c1] : !pto.tensor_view<?x?x${from}>
    %dt = pto.make_tensor_view %d, shape = [%c16, %c16], strides = [%c16, %c1] : !pto.tensor_view<?x?x${to}>
    %ap = pto.partition_view %at, offsets = [%c0, %c0], sizes = [%c16, %c16] : !pto.tensor_view<?x?x${from}> -> ${view(from)}
    %dp = pto.partition_view %dt, offsets = [%c0, %c0], sizes = [%c16, %c16] : !pto.tensor_view<?x?x${to}> -> ${view(to)}
    %x = pto.alloc_tile : ${s}
    %o = pto.alloc_tile : ${d}
    pto.tload ins(%ap : ${view(from)}) outs(%x : ${s})
    pto.tcvt ins(%x {rmode = #pto<round_mode ${rmode}>} : ${s}) outs(%o : ${d})
    pto.tstore ins(%o : ${d}) outs(%dp : ${view(to)})
    return
  }
}`;
}

describe('tcvt between float types and column-expand fast paths match the definitions bit for bit', () => {
  const pairs = [
    ['f32', 'bf16'],
    ['bf16', 'f32'],
    ['f32', 'f16'],
    ['f16', 'f32'],
  ] as const;
  const cases = pairs.flatMap(([from, to]) =>
    (['RINT', 'TRUNC', 'ODD'] as const).flatMap((rmode) => (['cpu-sim', 'npu'] as const).map((n) => [from, to, rmode, n] as const)),
  );
  test.each(cases)('tcvt %s -> %s %s (%s)', (from, to, rmode, numerics) => {
    const wide = from === 'f32';
    fc.assert(
      fc.property(
        fc.array(wide ? f32Bits : fc.oneof(fc.integer({ min: 0, max: 0xffff }), fc.constantFrom(...SPECIAL_F16)), { minLength: 256, maxLength: 256 }),
        (bits) => {
          const words = wide ? Uint32Array.from(bits) : Uint16Array.from(bits);
          const [all, javascript, none] = runAllWays(convertProgram(from, to, rmode), 'a5', numerics, { a: new Uint8Array(words.buffer) });
          expect(all).toEqual(none);
          expect(javascript).toEqual(none);
        },
      ),
      { numRuns: 15 },
    );
  });
  const colBodies = ['add', 'sub', 'mul', 'div', 'max', 'min'].map((op) => `pto.tcolexpand${op} ins(%x, %x : T, T) outs(%o : T)`);
  test.each(colBodies.flatMap((body) => (['cpu-sim', 'npu'] as const).map((n) => [body, n] as const)))('%s (%s)', (body, numerics) => {
    fc.assert(
      fc.property(fc.array(f32Bits, { minLength: 256 + 16, maxLength: 256 + 16 }), (bits) => {
        const bytes = new Uint8Array(Uint32Array.from(bits).buffer);
        const [all, javascript, none] = runAllWays(f32Program(body), 'a5', numerics, { a: bytes.subarray(0, 1024), e: bytes.subarray(1024) });
        expect(all).toEqual(none);
        expect(javascript).toEqual(none);
      }),
      { numRuns: 15 },
    );
  });
});
