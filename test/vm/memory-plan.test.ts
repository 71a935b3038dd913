/**
 * The VM places tiles where memory planning put them (src/verify/memory-plan.ts): programs whose tiles add up to
 * more than the buffer, but are never all live at once, run, and compute what they say. Expected outputs are the
 * inputs' sums and products worked out here in f32 (Math.fround).
 */
import { assemble } from '../../src/verify/assemble';
import { formatAll } from '../../src/diag/diagnostic';
import { GlobalBuffer } from '../../src/machine/memory';
import { TargetName } from '../../src/spec/schema';
import { Value, runFunction } from '../../src/vm/interpreter';
import { shapes } from '../fixtures/memory-plan';

function run(text: string, target: TargetName, inputs: Record<string, Float32Array>, entry = 'k'): Record<string, Float32Array> {
  const asm = assemble('plan.pto', text, { target });
  if (asm.diags.hasErrors()) throw new Error(formatAll(asm.diags));
  const buffers = new Map<string, GlobalBuffer>();
  const values = new Map<string, Value>();
  for (const [name, data] of Object.entries(inputs)) {
    const b = new GlobalBuffer(name, 'f32', new Uint8Array(data.buffer.slice(0)));
    buffers.set(name, b);
    values.set('%' + name, b);
  }
  runFunction(asm.program, asm.types, asm.program.functions.get(entry)!, values, { numerics: 'npu', maxSteps: 1e7 });
  return Object.fromEntries([...buffers].map(([n, b]) => [n, new Float32Array(b.bytes.buffer.slice(0))]));
}

/** n values from a small integer-valued pattern (exact in f32 sums and products) with a fraction. */
const pattern = (n: number, seed: number) => Float32Array.from({ length: n }, (_, i) => ((i * seed) % 97) - 48 + 0.25);

describe('A5: six 64 KB tiles (384 KB) in a 256 KB UB, at most three live at once', () => {
  const { alloc, load, store, op, kernel } = shapes(128, 128);
  const text = kernel(
    [
      ...['a', 'b', 's'].map(alloc),
      load('a', 'x'),
      load('b', 'y'),
      op('tadd', ['a', 'b'], 's'),
      store('s', 'o1'),
      ...['c', 'd', 'p'].map(alloc),
      load('c', 'x'),
      load('d', 'y'),
      op('tmul', ['c', 'd'], 'p'),
      store('p', 'o2'),
    ],
    'a5',
  );

  it("runs: the second phase in the first one's space gives x + y and x * y", () => {
    const n = 128 * 128;
    const [x, y] = [pattern(n, 7), pattern(n, 13)];
    const out = run(text, 'a5', { x, y, o1: new Float32Array(n), o2: new Float32Array(n) });
    expect(Array.from(out.o1)).toEqual(Array.from(x, (v, i) => Math.fround(v + y[i])));
    expect(Array.from(out.o2)).toEqual(Array.from(x, (v, i) => Math.fround(v * y[i])));
  });
});

describe('loops (A2/A3: 192 KB of UB, 128 KB tiles)', () => {
  const { alloc, load, store, kernel } = shapes(128, 256);
  const n = 128 * 256;

  it('two tiles of a loop body, one dead before the other is written, share their bytes and keep their values', () => {
    const text = kernel(
      [
        'scf.for %i = %c0 to %c2 step %c1 {',
        ...[alloc('a'), load('a', 'x'), store('a', 'o1'), alloc('b'), load('b', 'y'), store('b', 'o2')].map((l) => '  ' + l),
        '}',
      ],
      'a2a3',
    );
    const [x, y] = [pattern(n, 3), pattern(n, 5)];
    const out = run(text, 'a2a3', { x, y, o1: new Float32Array(n), o2: new Float32Array(n) });
    expect(Array.from(out.o1)).toEqual(Array.from(x));
    expect(Array.from(out.o2)).toEqual(Array.from(y));
  });

  it('Level 1: a loop doubling a carried 64 KB tile twice gives 4x (the carried tile and each result have their own bytes)', () => {
    const V = '!pto.tile<loc=vec, f32, 128, 128, RowMajor, NoneBox, None, Zero>';
    const s = shapes(128, 128);
    const text = s.kernel(
      [
        `%t0 = pto.tload %xp : !pto.partition_tensor_view<128x128xf32> -> ${V}`,
        `%r = scf.for %i = %c0 to %c2 step %c1 iter_args(%t = %t0) -> (${V}) {`,
        `  %n = pto.tadd %t, %t : (${V}, ${V}) -> ${V}`,
        `  scf.yield %n : ${V}`,
        '}',
        `pto.tstore %r, %o1p : (${V}, !pto.partition_tensor_view<128x128xf32>) -> ()`,
      ],
      'a2a3',
    );
    const x = pattern(128 * 128, 11);
    const out = run(text, 'a2a3', { x, y: new Float32Array(1), o1: new Float32Array(128 * 128), o2: new Float32Array(1) });
    expect(Array.from(out.o1)).toEqual(Array.from(x, (v) => 4 * v));
  });
});

describe('tiles without planned storage', () => {
  it("A5 trowmax with a 128 KB tmp it never touches beside a 128 KB source (PTOAS's issue 558 shape) runs", () => {
    const src = '!pto.tile_buf<loc=vec, dtype=f32, rows=2, cols=16384, v_row=2, v_col=16384, blayout=row_major, slayout=none_box, fractal=512, pad=0>';
    const dst = '!pto.tile_buf<loc=vec, dtype=f32, rows=2, cols=8, v_row=2, v_col=1, blayout=row_major, slayout=none_box, fractal=512, pad=0>';
    const text = [
      'module {',
      '  func.func @k(%x: !pto.ptr<f32>, %o: !pto.ptr<f32>) {',
      '    %c0 = arith.constant 0 : index',
      '    %c1 = arith.constant 1 : index',
      '    %c2 = arith.constant 2 : index',
      '    %c8 = arith.constant 8 : index',
      '    %cc = arith.constant 16384 : index',
      '    %xv = pto.make_tensor_view %x, shape = [%c2, %cc], strides = [%cc, %c1] : !pto.tensor_view<?x?xf32>',
      '    %ov = pto.make_tensor_view %o, shape = [%c2, %c1], strides = [%c8, %c1] : !pto.tensor_view<?x?xf32>',
      '    %xp = pto.partition_view %xv, offsets = [%c0, %c0], sizes = [%c2, %cc] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<2x16384xf32>',
      '    %op = pto.partition_view %ov, offsets = [%c0, %c0], sizes = [%c2, %c1] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<2x1xf32>',
      `    %src = pto.alloc_tile : ${src}`,
      `    %tmp = pto.alloc_tile : ${src}`,
      `    %dst = pto.alloc_tile : ${dst}`,
      `    pto.tload ins(%xp : !pto.partition_tensor_view<2x16384xf32>) outs(%src : ${src})`,
      `    pto.trowmax ins(%src, %tmp : ${src}, ${src}) outs(%dst : ${dst})`,
      `    pto.tstore ins(%dst : ${dst}) outs(%op : !pto.partition_tensor_view<2x1xf32>)`,
      '    return',
      '  }',
      '}',
    ].join('\n');
    // Row 0 peaks at column 5000 (value 9), row 1 at column 16383 (value 7); everything else is 1.
    const x = new Float32Array(2 * 16384).fill(1);
    x[5000] = 9;
    x[16384 + 16383] = 7;
    const out = run(text, 'a5', { x, o: new Float32Array(16) });
    expect([out.o[0], out.o[8]]).toEqual([9, 7]);
  });
});

describe('tiles nothing uses', () => {
  it('take no room: three 128 KB allocations in a 192 KB UB, one of them used, run', () => {
    const { alloc, load, store, kernel } = shapes(128, 256);
    const n = 128 * 256;
    const x = pattern(n, 23);
    const out = run(kernel([alloc('a'), alloc('b'), alloc('c'), load('c', 'x'), store('c', 'o1')], 'a2a3'), 'a2a3', {
      x,
      y: new Float32Array(1),
      o1: new Float32Array(n),
      o2: new Float32Array(1),
    });
    expect(Array.from(out.o1)).toEqual(Array.from(x));
  });
});

describe("a callee's planned tiles go after its caller's", () => {
  // @k keeps a 64 KB tile live across the call; @h's own two are placed after it, so @k's survives.
  const { alloc, load, store, kernel, T } = shapes(128, 128);
  const P = '!pto.partition_tensor_view<128x128xf32>';
  const callee = [
    `  func.func @h(%xp: ${P}, %o2p: ${P}) {`,
    `    %u = pto.alloc_tile : ${T}`,
    `    %w = pto.alloc_tile : ${T}`,
    `    pto.tload ins(%xp : ${P}) outs(%u : ${T})`,
    `    pto.tadd ins(%u, %u : ${T}, ${T}) outs(%w : ${T})`,
    `    pto.tstore ins(%w : ${T}) outs(%o2p : ${P})`,
    '    return',
    '  }',
  ];
  const text = kernel([alloc('a'), load('a', 'y'), `func.call @h(%xp, %o2p) : (${P}, ${P}) -> ()`, store('a', 'o1')], 'a2a3').replace(
    /\n}\n$/,
    '\n' + callee.join('\n') + '\n}\n',
  );

  it("runs with both functions' tiles intact", () => {
    const m = 128 * 128;
    const [x, y] = [pattern(m, 17), pattern(m, 19)];
    const out = run(text, 'a2a3', { x, y, o1: new Float32Array(m), o2: new Float32Array(m) });
    expect(Array.from(out.o1)).toEqual(Array.from(y));
    expect(Array.from(out.o2)).toEqual(Array.from(x, (v) => 2 * v));
  });

  it('traps, naming the callee, when both do not fit together (PTOAS plans each function alone)', () => {
    // Three 64 KB tiles of @k live across the call fill a2a3's 192 KB; @h's need 128 KB more.
    const full = text
      .replace(`${alloc('a')}\n`, ['a', 'b', 'c'].map(alloc).join('\n    ') + '\n')
      .replace(`    ${load('a', 'y')}\n`, ['a', 'b', 'c'].map((t) => `    ${load(t, 'y')}\n`).join(''))
      .replace(`    ${store('a', 'o1')}\n`, ['a', 'b', 'c'].map((t) => `    ${store(t, 'o1')}\n`).join(''));
    const m = 128 * 128;
    expect(() => run(full, 'a2a3', { x: new Float32Array(m), y: new Float32Array(m), o1: new Float32Array(m), o2: new Float32Array(m) })).toThrow(
      "pto.alloc_tile: out of UB memory: the tiles of @h need 131072 bytes at once (as planned, reusing dead tiles' space) at offset 196608, but the UB of a2a3 has 196608 bytes (196608 already allocated)",
    );
  });
});

describe('multi-tile buffers', () => {
  it("a buffer's two tiles keep their own bytes beside a tile placed after them: 2x + y", () => {
    const { alloc, load, store, op, kernel, T } = shapes(128, 128);
    const MT = '!pto.multi_tile_buf<vec, 128x128xf32, count=2>';
    const text = kernel(
      [
        alloc('a'),
        `%mb = pto.alloc_multi_tile : ${MT}`,
        `%m0 = pto.multi_tile_get %mb[%c0] : ${MT} -> ${T}`,
        `%m1 = pto.multi_tile_get %mb[%c1] : ${MT} -> ${T}`,
        load('m0', 'x'),
        load('m1', 'y'),
        load('a', 'x'),
        op('tadd', ['a', 'm1'], 'm1'),
        op('tadd', ['m0', 'm1'], 'm0'),
        store('m0', 'o1'),
      ],
      'a5',
    );
    const m = 128 * 128;
    const [x, y] = [pattern(m, 29), pattern(m, 31)];
    const out = run(text, 'a5', { x, y, o1: new Float32Array(m), o2: new Float32Array(1) });
    expect(Array.from(out.o1)).toEqual(Array.from(x, (v, i) => Math.fround(Math.fround(v + Math.fround(v + y[i])))));
  });
});
