/** Sizing unbound pointer arguments from the views made of them (src/vm/io/arguments.ts, StaticSizing). */
import { assemble } from '../../../src/verify/assemble';
import { formatAll } from '../../../src/diag/diagnostic';
import { bindArguments, randomBytes } from '../../../src/vm/io/arguments';
import { mulberry32 } from '../../../src/vm/mulberry32';
import { codec } from '../../../src/numerics/elements';
import { isFloat } from '../../../src/types/type';
import { GENERATED_CHUNK } from '../../../src/machine/memory';

const TILE = '!pto.tile_buf<loc=vec, dtype=f32, rows=8, cols=16, v_row=8, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>';

/** A kernel over an 8 x 16 f32 view of %p that loads the 8 x 16 partition at row offset `offset` (an index expression). */
function kernel(offsetLines: string[], args = ''): string {
  return [
    'module {',
    `  func.func @k(%p: !pto.ptr<f32>${args}) {`,
    '    %c0 = arith.constant 0 : index',
    '    %c1 = arith.constant 1 : index',
    '    %c8 = arith.constant 8 : index',
    '    %c16 = arith.constant 16 : index',
    ...offsetLines.map((l) => '    ' + l),
    '    return',
    '  }',
    '}',
    '',
  ].join('\n');
}

const load = (indent: string) => [
  `${indent}%v = pto.make_tensor_view %p, shape = [%c8, %c16], strides = [%c16, %c1] : !pto.tensor_view<?x?xf32>`,
  `${indent}%s = pto.partition_view %v, offsets = [%row, %c0], sizes = [%c8, %c16] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<8x16xf32>`,
  `${indent}%t = pto.alloc_tile : ${TILE}`,
  `${indent}pto.tload ins(%s : !pto.partition_tensor_view<8x16xf32>) outs(%t : ${TILE})`,
];

function sizeOfP(text: string, specs: Record<string, string> = {}): number {
  const asm = assemble('sizing.pto', text);
  if (asm.diags.hasErrors()) throw new Error(formatAll(asm.diags));
  const fn = [...asm.program.functions.values()][0];
  return bindArguments(asm.types, fn, new Map(Object.entries(specs))).buffers.find((b) => b.name === 'p')!.length;
}

test('a view alone sizes its pointer: 8 x 16 with row stride 16 is 128 elements', () => {
  expect(sizeOfP(kernel(['%row = arith.constant 0 : index', ...load('')]))).toBe(128);
});

test('a partition past its view counts: rows [8, 16) of the 8 x 16 view reach element 16 * 16 = 256', () => {
  // Offset row 8 of stride 16 starts at element 128; an 8 x 16 box over it ends at 128 + 7 * 16 + 15 = 255.
  expect(sizeOfP(kernel(['%row = arith.muli %b, %c8 : index', ...load('')], ', %b: index'), { b: '1' })).toBe(256);
});

test("a loop's induction variable counts at its last value: rows 0, 3, 6 (lb 0, ub 7, step 3) reach row 6 + 8", () => {
  const body = ['%c3 = arith.constant 3 : index', '%c7 = arith.constant 7 : index', 'scf.for %row = %c0 to %c7 step %c3 {', ...load('  '), '}'];
  expect(sizeOfP(kernel(body))).toBe((6 + 8) * 16);
});

test('scalar loads count where their offset can be evaluated: %p[b * 8 + i] for i < 8 and b = 1 reaches element 15', () => {
  const body = [
    '%row = arith.constant 0 : index',
    ...load(''),
    '%base = arith.muli %b, %c8 : index',
    'scf.for %i = %c0 to %c8 step %c1 {',
    '  %at = arith.addi %base, %i : index',
    '  %x = pto.load_scalar %p[%at] : !pto.ptr<f32> -> f32',
    '}',
  ];
  // The view alone is 128 elements; the loads reach element 15 only, so the view decides.
  expect(sizeOfP(kernel(body, ', %b: index'), { b: '1' })).toBe(128);
  // With b = 20 the loads reach element 20 * 8 + 7 = 167: 168 elements.
  expect(sizeOfP(kernel(body, ', %b: index'), { b: '20' })).toBe(168);
});

test('a view over a moved pointer counts the move: pto.addptr %p, 32 under an 8 x 16 view reaches element 32 + 127', () => {
  const body = [
    '%c32 = arith.constant 32 : index',
    '%q = pto.addptr %p, %c32 : !pto.ptr<f32> -> !pto.ptr<f32>',
    '%v = pto.make_tensor_view %q, shape = [%c8, %c16], strides = [%c16, %c1] : !pto.tensor_view<?x?xf32>',
    '%s = pto.partition_view %v, offsets = [%c0, %c0], sizes = [%c8, %c16] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<8x16xf32>',
    `%t = pto.alloc_tile : ${TILE}`,
    `pto.tload ins(%s : !pto.partition_tensor_view<8x16xf32>) outs(%t : ${TILE})`,
  ];
  expect(sizeOfP(kernel(body))).toBe(32 + 128);
});

test("a tload of MX_B_NN scales sizes its pointer by the tile's whole shape: a 4 x 63 view into a 4 x 64 tile reads 256 bytes", () => {
  // The view's own footprint is 1 + 3 * 63 + 62 = 252; the load reads rows x cols = 4 x 64 = 256 from its first element.
  const scale = '!pto.tile_buf<mat, 4x64x!pto.f8E8M0, valid=4x63, blayout=col_major, slayout=col_major, fractal=32>';
  const text = [
    'module attributes {pto.target_arch = "a5"} {',
    '  func.func @k(%p: !pto.ptr<!pto.f8E8M0, gm>) {',
    '    %c0 = arith.constant 0 : index',
    '    %c1 = arith.constant 1 : index',
    '    %c4 = arith.constant 4 : index',
    '    %c63 = arith.constant 63 : index',
    '    %v = pto.make_tensor_view %p, shape = [%c4, %c63], strides = [%c63, %c1] : !pto.tensor_view<?x?x!pto.f8E8M0>',
    '    %s = pto.partition_view %v, offsets = [%c0, %c0], sizes = [%c4, %c63] : !pto.tensor_view<?x?x!pto.f8E8M0>',
    `    %t = pto.alloc_tile : ${scale}`,
    `    pto.tload ins(%s : !pto.partition_tensor_view<4x63x!pto.f8E8M0>) outs(%t : ${scale})`,
    '    return',
    '  }',
    '}',
    '',
  ].join('\n');
  expect(sizeOfP(text)).toBe(256);
  // The same view loaded into an ND vec tile of its shape reads only the view.
  expect(sizeOfP(text.split(scale).join('!pto.tile_buf<vec, 4x64x!pto.f8E8M0, valid=4x63>'))).toBe(252);
});

describe('generated float data', () => {
  // The typed-array fill against the codec's writes of the same draws (uniform in [-4, 4), rounded to the type).
  test.each(['f32', 'f16', 'bf16'] as const)('%s: the bytes the codec writes for the same draws', (elem) => {
    for (const seed of [1, 2, 77]) {
      const c = codec(elem);
      const next = mulberry32(seed);
      const expected = new Uint8Array(1000 * c.size);
      const view = new DataView(expected.buffer);
      for (let i = 0; i < 1000; i++) c.write(view, i * c.size, next() * 8 - 4);
      expect(randomBytes(elem, 1000, seed)).toEqual(expected);
    }
  });
});

describe('generated inputs made where first touched (issue 36)', () => {
  // Element n is the n-th draw of mulberry32(seed) whatever order the parts are made in: the codec's writes of the
  // draws, one after another, are the reference.
  const drawn = (elem: 'f32' | 'bf16' | 'i8' | 'u16' | 'i64' | 'f8E4M3FN', count: number, seed: number): Uint8Array => {
    const c = codec(elem);
    const next = mulberry32(seed);
    const bytes = new Uint8Array(count * c.size);
    const view = new DataView(bytes.buffer);
    const float = isFloat(elem);
    for (let i = 0; i < count; i++) {
      const r = next();
      const v = float ? r * 8 - 4 : elem.startsWith('u') ? Math.floor(r * 201) : Math.floor(r * 201) - 100;
      c.write(view, i * c.size, elem === 'i64' ? BigInt(v) : v);
    }
    return bytes;
  };

  test.each(['f32', 'bf16', 'i8', 'u16', 'i64', 'f8E4M3FN'] as const)('%s: parts made backwards give the bytes of one fill', (elem) => {
    const size = codec(elem).size;
    const bytes = new Uint8Array(1000 * size);
    for (const [from, to] of [
      [700, 1000],
      [333, 700],
      [1, 333],
      [0, 1],
    ])
      randomBytes(elem, to, 9, bytes, from);
    expect(bytes).toEqual(drawn(elem, 1000, 9));
  });

  const wide = kernel([
    '%c1024 = arith.constant 1024 : index',
    '%c4096 = arith.constant 4096 : index',
    '%v = pto.make_tensor_view %p, shape = [%c1024, %c4096], strides = [%c4096, %c1] : !pto.tensor_view<?x?xf32>',
    '%s = pto.partition_view %v, offsets = [%c8, %c16], sizes = [%c8, %c16] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<8x16xf32>',
    `%t = pto.alloc_tile : ${TILE}`,
    'pto.tload ins(%s : !pto.partition_tensor_view<8x16xf32>) outs(%t : ' + TILE + ')',
  ]);

  test.each(['own', 'shared'] as const)('in %s memory: an element read makes its 1 KiB chunk only; the whole buffer is the one fill', (memory) => {
    const asm = assemble('wide.pto', wide);
    expect(formatAll(asm.diags)).toBe('');
    const fn = [...asm.program.functions.values()][0];
    const [p] = bindArguments(asm.types, fn, new Map(), undefined, undefined, undefined, memory).buffers;
    expect(p.length).toBe(1024 * 4096);
    expect(p.isMade(0)).toBe(false);
    // %p is argument 0: seed 1. Element 4096 * 8 + 16 (row 8, column 16), in the chunk of elements [first, end).
    const at = 4096 * 8 + 16;
    const per = GENERATED_CHUNK / 4;
    const [first, end] = [Math.floor(at / per) * per, Math.floor(at / per) * per + per];
    const reference = drawn('f32', at + 1, 1);
    expect(p.readElement(at)).toBe(new DataView(reference.buffer).getFloat32(at * 4, true));
    expect([p.isMade(first * 4), p.isMade(end * 4 - 1), p.isMade(first * 4 - 1), p.isMade(end * 4)]).toEqual([true, true, false, false]);
    expect(p.storedRanges()).toEqual([]);
    expect(p.storage.subarray(0, first * 4).every((x) => x === 0)).toBe(true);
    // The host's whole view makes the rest: the bytes of one fill.
    expect(Buffer.from(p.bytes).equals(Buffer.from(randomBytes('f32', p.length, 1)))).toBe(true);
  });

  test('random:N:SEED given with --arg is made where touched too', () => {
    const asm = assemble('wide.pto', wide);
    const fn = [...asm.program.functions.values()][0];
    const [p] = bindArguments(asm.types, fn, new Map([['p', 'random:4194304:5']])).buffers;
    expect(p.isMade(0)).toBe(false);
    expect(p.readElement(1)).toBe(new DataView(drawn('f32', 2, 5).buffer).getFloat32(4, true));
    expect(p.isMade(0)).toBe(true);
  });
});

test('a scalar argument without a value is reported before any buffer is made (a large one took seconds)', () => {
  // %p comes first and its views would size it past the memory limit: the scalar's usage error still comes first.
  const text = kernel(
    ['%big = arith.constant 100000000000 : index', '%v = pto.make_tensor_view %p, shape = [%big, %c16], strides = [%c16, %c1] : !pto.tensor_view<?x?xf32>'],
    ', %n: index',
  );
  const asm = assemble('k.pto', text);
  expect(formatAll(asm.diags)).toBe('');
  const fn = [...asm.program.functions.values()][0];
  expect(() => bindArguments(asm.types, fn, new Map())).toThrow('scalar argument %n (index) needs a value: --arg n=NUMBER');
});

describe('beforeGenerating: told of each input before it is generated, with its elements', () => {
  const heard = (text: string, specs: Record<string, string>, memory: 'own' | 'shared' = 'own') => {
    const asm = assemble('k.pto', text);
    if (asm.diags.hasErrors()) throw new Error(formatAll(asm.diags));
    const fn = [...asm.program.functions.values()][0];
    const told: number[] = [];
    bindArguments(asm.types, fn, new Map(Object.entries(specs)), undefined, undefined, 0, memory, (n) => told.push(n));
    return told;
  };
  const reads = kernel(['%row = arith.constant 0 : index', ...load('')]);
  const writes = reads.replace(
    `pto.tload ins(%s : !pto.partition_tensor_view<8x16xf32>) outs(%t : ${TILE})`,
    `pto.tstore ins(%t : ${TILE}) outs(%s : !pto.partition_tensor_view<8x16xf32>)`,
  );

  test('a read pointer sized by its views: its 128 elements, in own and in shared memory', () => {
    expect(heard(reads, {})).toEqual([128]);
    expect(heard(reads, {}, 'shared')).toEqual([128]);
  });

  test('random:N: N elements; zeros, and a pointer only written, are not generated', () => {
    expect(heard(reads, { p: 'random:300' })).toEqual([300]);
    expect(heard(reads, { p: 'zeros:300' })).toEqual([]);
    expect(writes).not.toBe(reads);
    expect(heard(writes, {})).toEqual([]);
  });
});
