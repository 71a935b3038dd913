/**
 * A tile's valid region at run time: pto.set_validshape, pto.get_validshape, pto.tile_valid_rows/cols. Expected
 * values are worked out by hand: a 4x8 i32 tile loaded with x[i] = i, part of it overwritten through a smaller
 * valid region.
 */
import { assemble } from '../../../src/verify/assemble';
import { formatAll } from '../../../src/diag/diagnostic';
import { printCanonical } from '../../../src/emit/canonical';
import { runFunction, Value } from '../../../src/vm/interpreter';
import { GlobalBuffer } from '../../../src/machine/memory';

const TILE = '!pto.tile_buf<vec, 4x8xi32, valid=?x?>';

function kernel(body: string[]): string {
  return [
    'module {',
    '  func.func @k(%x: !pto.ptr<i32>, %out: !pto.ptr<i32>, %dims: !pto.ptr<i32>) {',
    ...[0, 1, 2, 3, 4, 8].map((n) => `    %c${n} = arith.constant ${n} : index`),
    '    %xv = pto.make_tensor_view %x, shape = [%c4, %c8], strides = [%c8, %c1] : !pto.tensor_view<?x?xi32>',
    '    %ov = pto.make_tensor_view %out, shape = [%c4, %c8], strides = [%c8, %c1] : !pto.tensor_view<?x?xi32>',
    '    %xp = pto.partition_view %xv, offsets = [%c0, %c0], sizes = [%c4, %c8] : !pto.tensor_view<?x?xi32> -> !pto.partition_tensor_view<4x8xi32>',
    '    %op = pto.partition_view %ov, offsets = [%c0, %c0], sizes = [%c4, %c8] : !pto.tensor_view<?x?xi32> -> !pto.partition_tensor_view<4x8xi32>',
    `    %t = pto.alloc_tile valid_row = %c4 valid_col = %c8 : ${TILE}`,
    `    pto.tload ins(%xp : !pto.partition_tensor_view<4x8xi32>) outs(%t : ${TILE})`,
    ...body.map((l) => '    ' + l),
    `    pto.tstore ins(%t : ${TILE}) outs(%op : !pto.partition_tensor_view<4x8xi32>)`,
    '    return',
    '  }',
    '}',
  ].join('\n');
}

function run(text: string): { out: number[]; dims: number[] } {
  const asm = assemble('v.pto', text);
  if (asm.diags.hasErrors()) throw new Error(formatAll(asm.diags));
  const x = new Uint8Array(Int32Array.from({ length: 32 }, (_, i) => i).buffer);
  const out = new GlobalBuffer('out', 'i32', new Uint8Array(128));
  const dims = new GlobalBuffer('dims', 'i32', new Uint8Array(16));
  const values = new Map<string, Value>([
    ['%x', new GlobalBuffer('x', 'i32', x)],
    ['%out', out],
    ['%dims', dims],
  ]);
  runFunction(asm.program, asm.types, asm.program.functions.get('k')!, values, { numerics: 'npu', maxSteps: 1e6 });
  const ints = (b: GlobalBuffer) => Array.from(new Int32Array(b.bytes.buffer, b.bytes.byteOffset, b.bytes.length / 4));
  return { out: ints(out), dims: ints(dims) };
}

const store = (value: string, at: number) => [
  `%${value}_i = arith.index_cast %${value} : index to i32`,
  `pto.store_scalar %${value}_i, %dims[%c${at}] : !pto.ptr<i32>, i32`,
];

describe('the valid region at run time', () => {
  test('set_validshape 2x3, then texpands 7: only rows 0..1, cols 0..2 change; the region read back is 2x3', () => {
    const { out, dims } = run(
      kernel([
        '%c7 = arith.constant 7 : i32',
        `pto.set_validshape %t, %c2, %c3 : ${TILE}`,
        `pto.texpands ins(%c7 : i32) outs(%t : ${TILE})`,
        `%r, %c = pto.get_validshape %t : ${TILE}`,
        `%n = pto.tile_valid_cols %t : ${TILE} -> index`,
        ...store('r', 0),
        ...store('c', 1),
        ...store('n', 2),
        `pto.set_validshape %t, %c4, %c8 : ${TILE}`,
        `%m = pto.tile_valid_rows %t : ${TILE} -> index`,
        ...store('m', 3),
      ]),
    );
    const want = Array.from({ length: 32 }, (_, i) => (Math.floor(i / 8) < 2 && i % 8 < 3 ? 7 : i));
    expect(out).toEqual(want);
    expect(dims).toEqual([2, 3, 3, 4]);
  });

  test('a region past the tile is a verifier error for constants and a trap at run time otherwise', () => {
    const text = kernel(['%c9 = arith.constant 9 : index', `pto.set_validshape %t, %c2, %c9 : ${TILE}`]);
    expect(formatAll(assemble('v.pto', text).diags)).toContain('error[E0405]: pto.set_validshape: cols = 9 is outside 0..8');
    const dynamic = kernel(['%c9 = arith.addi %c8, %c1 : index', `pto.set_validshape %t, %c2, %c9 : ${TILE}`]);
    expect(() => run(dynamic)).toThrow('pto.set_validshape: cols = 9 is outside 0..8');
  });

  test('only a tile whose valid region is dynamic, allocated in the function, can be given one', () => {
    const fixed = kernel(['%u = pto.alloc_tile : !pto.tile_buf<vec, 4x8xi32>', 'pto.set_validshape %u, %c2, %c3 : !pto.tile_buf<vec, 4x8xi32>']);
    expect(formatAll(assemble('v.pto', fixed).diags)).toContain(
      'pto.set_validshape needs a tile whose valid region is dynamic (valid=?x?), got !pto.tile_buf<vec, 4x8xi32>',
    );
    const argument = `func.func @f(%t: ${TILE}) {\n  %c1 = arith.constant 1 : index\n  pto.set_validshape %t, %c1, %c1 : ${TILE}\n  return\n}\n`;
    expect(formatAll(assemble('a.pto', argument).diags)).toContain('pto.set_validshape needs a tile allocated in this function, not a function argument');
  });

  test('the canonical form prints them as PTOAS does and is a fixed point', () => {
    const text = kernel([
      `pto.set_validshape %t, %c2, %c3 : ${TILE}`,
      `%r, %c = pto.get_validshape %t : ${TILE}`,
      `%n = pto.tile_valid_rows %t : ${TILE} -> index`,
    ]);
    const asm = assemble('v.pto', text);
    const printed = printCanonical(asm.module, asm.types);
    expect(printed).toContain(`pto.set_validshape %t, %c2, %c3 : ${TILE}\n`);
    expect(printed).toContain(`%r, %c = pto.get_validshape %t : ${TILE}\n`);
    expect(printed).toContain(`%n = pto.tile_valid_rows %t : ${TILE} -> index\n`);
    const again = assemble('v.pto', printed);
    expect(printCanonical(again.module, again.types)).toBe(printed);
  });
});
