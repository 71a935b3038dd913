/**
 * Tile views and scalar access (pto.treshape, pto.subview, pto.texpands, pto.tgetval, pto.tsetval) and
 * the npu row-sum order with fp16 saturation. Expected values are worked out by hand in each test.
 */
import { assemble } from '../../src/verify/assemble';
import { formatAll } from '../../src/diag/diagnostic';
import { ElemType } from '../../src/types/type';
import { runFunction, Value } from '../../src/vm/interpreter';
import { NumericsProfile } from '../../src/ops/instructions/semantics/context';
import { GlobalBuffer } from '../../src/machine/memory';

const T = (dtype: string, rows: number, cols: number, v = `v_row=${rows}, v_col=${cols}`, layout = 'row_major') =>
  `!pto.tile_buf<loc=vec, dtype=${dtype}, rows=${rows}, cols=${cols}, ${v}, blayout=${layout}, slayout=none_box, fractal=512, pad=0>`;

/** A kernel that loads %x (rows x cols of dtype) into %a, runs `body`, and stores %a to %out. */
function kernel(dtype: string, rows: number, cols: number, body: string[]): string {
  return [
    'module {',
    `  func.func @k(%x: !pto.ptr<${dtype}>, %out: !pto.ptr<${dtype}>) {`,
    '    %c0 = arith.constant 0 : index',
    '    %c1 = arith.constant 1 : index',
    `    %cr = arith.constant ${rows} : index`,
    `    %cc = arith.constant ${cols} : index`,
    `    %xv = pto.make_tensor_view %x, shape = [%cr, %cc], strides = [%cc, %c1] : !pto.tensor_view<?x?x${dtype}>`,
    `    %ov = pto.make_tensor_view %out, shape = [%cr, %cc], strides = [%cc, %c1] : !pto.tensor_view<?x?x${dtype}>`,
    `    %xp = pto.partition_view %xv, offsets = [%c0, %c0], sizes = [%cr, %cc] : !pto.tensor_view<?x?x${dtype}> -> !pto.partition_tensor_view<${rows}x${cols}x${dtype}>`,
    `    %op = pto.partition_view %ov, offsets = [%c0, %c0], sizes = [%cr, %cc] : !pto.tensor_view<?x?x${dtype}> -> !pto.partition_tensor_view<${rows}x${cols}x${dtype}>`,
    `    %a = pto.alloc_tile : ${T(dtype, rows, cols)}`,
    `    pto.tload ins(%xp : !pto.partition_tensor_view<${rows}x${cols}x${dtype}>) outs(%a : ${T(dtype, rows, cols)})`,
    ...body.map((l) => '    ' + l),
    `    pto.tstore ins(%a : ${T(dtype, rows, cols)}) outs(%op : !pto.partition_tensor_view<${rows}x${cols}x${dtype}>)`,
    '    return',
    '  }',
    '}',
  ].join('\n');
}

function run(text: string, dtype: ElemType, x: Uint8Array, numerics: NumericsProfile = 'npu'): Uint8Array {
  const asm = assemble('views.pto', text);
  if (asm.diags.hasErrors()) throw new Error(formatAll(asm.diags));
  const fn = asm.program.functions.get('k')!;
  const out = new GlobalBuffer('out', dtype, new Uint8Array(x.length));
  const values = new Map<string, Value>([
    ['%x', new GlobalBuffer('x', dtype, x.slice())],
    ['%out', out],
  ]);
  runFunction(asm.program, asm.types, fn, values, { numerics, maxSteps: 1e6 });
  return out.bytes;
}

const i32 = (values: number[]) => new Uint8Array(Int32Array.from(values).buffer);
const asI32 = (bytes: Uint8Array) => Array.from(new Int32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4));
const f16 = (bits: number[]) => new Uint8Array(Uint16Array.from(bits).buffer);
const asU16 = (bytes: Uint8Array) => Array.from(new Uint16Array(bytes.buffer, bytes.byteOffset, bytes.length / 2));

describe('pto.subview: a window with the parent row stride', () => {
  const x = Array.from({ length: 4 * 8 }, (_, i) => i); // a 4x8 i32 tile: x[r][c] = 8r + c

  test('tsetval through a 2x8 window at row 1 writes rows 1..2 of the parent', () => {
    const text = kernel('i32', 4, 8, [
      '%c99 = arith.constant 99 : i32',
      '%c9 = arith.constant 9 : index',
      `%w = pto.subview %a[%c1, %c0] sizes [2, 8] : ${T('i32', 4, 8)}`,
      // Element 9 of the 2x8 window is (1, 1): parent (2, 1), element 17 of the parent.
      `pto.tsetval ins(%c9, %c99 : index, i32) outs(%w : ${T('i32', 2, 8)})`,
    ]);
    const want = [...x];
    want[17] = 99;
    expect(asI32(run(text, 'i32', i32(x)))).toEqual(want);
  });

  test('a window outside its parent is a run-time trap naming the window', () => {
    const text = kernel('i32', 4, 8, [`%w = pto.subview %a[%cr, %c0] sizes [1, 8] : ${T('i32', 4, 8)}`]);
    expect(() => run(text, 'i32', i32(x))).toThrow('pto.subview: the window [4, 0] + [1, 8] is outside the 4x8 source');
  });

  test('sizes larger than the parent are a verifier error', () => {
    const text = kernel('i32', 4, 8, [`%w = pto.subview %a[%c0, %c0] sizes [5, 8] : ${T('i32', 4, 8)}`]);
    expect(formatAll(assemble('v.pto', text).diags)).toContain('pto.subview: sizes [5, 8] exceed the 4x8 source');
  });

  test('valid [1, 4]: texpands through the window fills only its 1x4 valid region, parent (1, 0..3)', () => {
    const text = kernel('i32', 4, 8, [
      '%c4 = arith.constant 4 : index',
      '%c7 = arith.constant 7 : i32',
      `%w = pto.subview %a[%c1, %c0] sizes [2, 8] valid [%c1, %c4] : ${T('i32', 4, 8)} -> !pto.tile_buf<vec, 2x8xi32, valid=1x4>`,
      'pto.texpands ins(%c7 : i32) outs(%w : !pto.tile_buf<vec, 2x8xi32, valid=1x4>)',
    ]);
    const want = x.map((v, i) => (i >= 8 && i < 12 ? 7 : v));
    expect(asI32(run(text, 'i32', i32(x)))).toEqual(want);
  });

  test('a valid operand known only at run time gives a dynamic valid region, read when the window is made', () => {
    const text = kernel('i32', 4, 8, [
      '%n = arith.addi %c1, %c1 : index',
      '%c7 = arith.constant 7 : i32',
      `%w = pto.subview %a[%c1, %c0] sizes [2, 8] valid [%n, %n] : ${T('i32', 4, 8)}`,
      'pto.texpands ins(%c7 : i32) outs(%w : !pto.tile_buf<vec, 2x8xi32, valid=?x?>)',
    ]);
    // Rows 1..2 of the parent, columns 0..1: elements 8, 9, 16, 17.
    const want = x.map((v, i) => ([8, 9, 16, 17].includes(i) ? 7 : v));
    expect(asI32(run(text, 'i32', i32(x)))).toEqual(want);
  });

  test('a declared result must be the window: same shape and configuration, a valid region the operands allow', () => {
    const bad = kernel('i32', 4, 8, [`%w = pto.subview %a[%c1, %c0] sizes [2, 8] : ${T('i32', 4, 8)} -> !pto.tile_buf<vec, 2x4xi32>`]);
    expect(formatAll(assemble('v.pto', bad).diags)).toContain('pto.subview gives !pto.tile_buf<vec, 2x8xi32>, not !pto.tile_buf<vec, 2x4xi32>');
    // Without valid operands any static valid region within the sizes may be declared (PTOAS's no-op replay marker is 0x0).
    const empty = kernel('i32', 4, 8, [`%w = pto.subview %a[%c1, %c0] sizes [2, 8] : ${T('i32', 4, 8)} -> !pto.tile_buf<vec, 2x8xi32, valid=0x0>`]);
    expect(assemble('v.pto', empty).diags.hasErrors()).toBe(false);
    const tooBig = kernel('i32', 4, 8, ['%c9 = arith.constant 9 : index', `%w = pto.subview %a[%c1, %c0] sizes [2, 8] valid [%c1, %c9] : ${T('i32', 4, 8)}`]);
    expect(formatAll(assemble('v.pto', tooBig).diags)).toContain('pto.subview: valid_col = 9 must be in 0..8');
  });

  test("'pto.subset' is the old name, and 'pto.subview %v, offsets = ...' the old spelling of a view partition", () => {
    const subset = kernel('i32', 4, 8, [`%w = pto.subset %a[%c1, %c0] sizes [2, 8] : ${T('i32', 4, 8)}`]);
    expect(formatAll(assemble('v.pto', subset).diags)).toContain("warning[W0105]: 'pto.subset' is the old name of 'pto.subview'");
    const view = kernel('i32', 4, 8, [
      `%p = pto.subview %xv, offsets = [%c0, %c0], sizes = [%cr, %cc] : !pto.tensor_view<?x?xi32> -> !pto.partition_tensor_view<4x8xi32>`,
    ]);
    const { diags, module } = assemble('v.pto', view);
    expect(formatAll(diags)).toContain("warning[W0105]: 'pto.subview' is the old name of 'pto.partition_view'");
    expect(diags.hasErrors()).toBe(false);
    const names = module.ops[0].regions[0].blocks[0].ops[0].regions[0].blocks[0].ops.map((o) => o.name);
    expect(names.filter((n) => n === 'pto.partition_view')).toHaveLength(3);
  });
});

describe('pto.subview of a boxed tile: whole boxes, addressed through the parent', () => {
  // A 32x16 i32 Nz tile (blayout col_major, slayout row_major, fractal 512): 16x8 boxes, a 2x2 grid of them.
  const NZ = (rows: number, cols: number) =>
    `!pto.tile_buf<loc=vec, dtype=i32, rows=${rows}, cols=${cols}, v_row=${rows}, v_col=${cols}, blayout=col_major, slayout=row_major, fractal=512, pad=0>`;

  test("window (r, c) of the boxes at [16, 0] is parent (16 + r, c): its second box is the parent's (1, 1), not the next one in memory", () => {
    const text = kernel('i32', 4, 8, [
      `%b = pto.alloc_tile : ${NZ(32, 16)}`,
      '%c8 = arith.constant 8 : index',
      '%c16 = arith.constant 16 : index',
      '%c77 = arith.constant 77 : i32',
      '%c88 = arith.constant 88 : i32',
      `%w = pto.subview %b[%c16, %c0] sizes [16, 16] : ${NZ(32, 16)} -> ${NZ(16, 16)}`,
      // Window offsets count row by row over its 16x16: 8 is (0, 8), 27 is (1, 11), both in its second box.
      '%c27 = arith.constant 27 : index',
      `pto.tsetval ins(%c8, %c77 : index, i32) outs(%w : ${NZ(16, 16)})`,
      `pto.tsetval ins(%c27, %c88 : index, i32) outs(%w : ${NZ(16, 16)})`,
      // Parent offsets count over its 32x16: (16, 8) is 264, (17, 11) is 283.
      '%p0 = arith.constant 264 : index',
      '%p1 = arith.constant 283 : index',
      `%v0 = pto.tgetval ins(%b, %p0 : ${NZ(32, 16)}, index) outs : i32`,
      `%v1 = pto.tgetval ins(%b, %p1 : ${NZ(32, 16)}, index) outs : i32`,
      `pto.tsetval ins(%c0, %v0 : index, i32) outs(%a : ${T('i32', 4, 8)})`,
      `pto.tsetval ins(%c1, %v1 : index, i32) outs(%a : ${T('i32', 4, 8)})`,
    ]);
    const out = asI32(run(text, 'i32', i32(new Array(32).fill(0))));
    expect(out.slice(0, 2)).toEqual([77, 88]);
  });

  test('sizes and constant offsets must be whole boxes (PTOAS)', () => {
    const sizes = kernel('i32', 4, 8, [`%b = pto.alloc_tile : ${NZ(32, 16)}`, `%w = pto.subview %b[%c0, %c0] sizes [8, 8] : ${NZ(32, 16)}`]);
    expect(formatAll(assemble('v.pto', sizes).diags)).toContain('sizes [8, 8] of a window of a boxed tile must be whole 16x8 boxes');
    const offset = kernel('i32', 4, 8, [`%b = pto.alloc_tile : ${NZ(32, 16)}`, `%w = pto.subview %b[%c0, %c1] sizes [16, 8] : ${NZ(32, 16)}`]);
    expect(formatAll(assemble('v.pto', offset).diags)).toContain('the col offset 1 of a window of a boxed tile must be a multiple of 8 (its box)');
  });

  test('a dynamic offset that does not start a box is a run-time trap', () => {
    const text = kernel('i32', 4, 8, [
      `%b = pto.alloc_tile : ${NZ(32, 16)}`,
      '%r = arith.addi %c1, %c1 : index',
      `%w = pto.subview %b[%r, %c0] sizes [16, 8] : ${NZ(32, 16)} -> ${NZ(16, 8)}`,
    ]);
    expect(() => run(text, 'i32', i32(new Array(32).fill(0)))).toThrow('the row offset 2 of a window of a boxed tile must be a multiple of 16');
  });
});

describe('pto.treshape: the same bytes as another tile type', () => {
  test('a 4x8 i32 tile as one row of 64 i16: element 2k is the low half of word k', () => {
    const x = Array.from({ length: 32 }, (_, i) => 0x10000 * (i + 1) + i);
    const text = kernel('i32', 4, 8, [
      `%h = pto.treshape %a : ${T('i32', 4, 8)} -> ${T('i16', 1, 64)}`,
      '%c6 = arith.constant 6 : index',
      `%lo = pto.tgetval ins(%h, %c6 : ${T('i16', 1, 64)}, index) outs : i16`,
      '%c7 = arith.constant 7 : index',
      // Word 3 = 0x40003: its high half (element 7) becomes the low half of word 3 (element 6) = 3.
      `pto.tsetval ins(%c7, %lo : index, i16) outs(%h : ${T('i16', 1, 64)})`,
    ]);
    const want = [...x];
    want[3] = 0x30003;
    expect(asI32(run(text, 'i32', i32(x)))).toEqual(want);
  });

  test('a different byte size is a verifier error at the result type', () => {
    const text = kernel('i32', 4, 8, [`%h = pto.treshape %a : ${T('i32', 4, 8)} -> ${T('i32', 1, 16)}`]);
    expect(formatAll(assemble('v.pto', text).diags)).toContain('pto.treshape: the result has 64 bytes but the source has 128: a reshape keeps the size');
  });

  test('a dynamic valid shape of the result keeps the source run-time valid shape', () => {
    const dyn = T('i32', 4, 8, 'v_row=?, v_col=?');
    const text = [
      'module {',
      '  func.func @k(%x: !pto.ptr<i32>, %out: !pto.ptr<i32>) {',
      '    %c0 = arith.constant 0 : index',
      '    %c1 = arith.constant 1 : index',
      '    %c2 = arith.constant 2 : index',
      '    %c8 = arith.constant 8 : index',
      '    %xv = pto.make_tensor_view %x, shape = [%c2, %c8], strides = [%c8, %c1] : !pto.tensor_view<?x?xi32>',
      '    %ov = pto.make_tensor_view %out, shape = [%c2, %c8], strides = [%c8, %c1] : !pto.tensor_view<?x?xi32>',
      '    %xp = pto.partition_view %xv, offsets = [%c0, %c0], sizes = [%c2, %c8] : !pto.tensor_view<?x?xi32> -> !pto.partition_tensor_view<2x8xi32>',
      '    %op = pto.partition_view %ov, offsets = [%c0, %c0], sizes = [%c2, %c8] : !pto.tensor_view<?x?xi32> -> !pto.partition_tensor_view<2x8xi32>',
      `    %a = pto.alloc_tile valid_row = %c2 valid_col = %c8 : ${dyn}`,
      `    pto.tload ins(%xp : !pto.partition_tensor_view<2x8xi32>) outs(%a : ${dyn})`,
      `    %h = pto.treshape %a : ${dyn} -> ${dyn}`,
      `    pto.tstore ins(%h : ${dyn}) outs(%op : !pto.partition_tensor_view<2x8xi32>)`,
      '    return',
      '  }',
      '}',
    ].join('\n');
    const x = Array.from({ length: 16 }, (_, i) => i + 1);
    expect(asI32(run(text, 'i32', i32(x)))).toEqual(x);
  });

  test('tgetval outside the tile is a trap', () => {
    const text = kernel('i32', 4, 8, ['%c32 = arith.constant 32 : index', `%v = pto.tgetval ins(%a, %c32 : ${T('i32', 4, 8)}, index) outs : i32`]);
    expect(() => run(text, 'i32', i32(new Array(32).fill(0)))).toThrow('offset 32 is outside the 4x8 tile (0..31)');
  });
});

describe('pto.texpands', () => {
  test('fills the valid region only', () => {
    const text = kernel('i32', 4, 8, [
      '%c5 = arith.constant 5 : i32',
      `%w = pto.subview %a[%c1, %c0] sizes [1, 8] : ${T('i32', 4, 8)}`,
      `pto.texpands ins(%c5 : i32) outs(%w : ${T('i32', 1, 8)})`,
    ]);
    const x = Array.from({ length: 32 }, (_, i) => 100 - i);
    expect(asI32(run(text, 'i32', i32(x)))).toEqual(x.map((v, i) => (i >= 8 && i < 16 ? 5 : v)));
  });
});

describe('trowsum f16 under npu: the pairwise tree, fp16 saturation', () => {
  // One row of 16 halves: 2048, then fifteen 1.0. Sequential f16 adds stay at 2048 (2048 + 1 rounds to
  // 2048, ties to even); the tree adds the ones first: ((2048+1)+(1+1))+... = 2048 + 15 rounded = 2062
  // (2048 + 2 + 4 + 8: each level's partial sums are exact except the first pair, 2049 -> 2048).
  const ones = [0x6800, ...new Array(15).fill(0x3c00)];
  const body = (attr: string) => [
    `%s = pto.alloc_tile : ${T('f16', 16, 1, 'v_row=1, v_col=1', 'col_major')}`,
    `%t = pto.alloc_tile : ${T('f16', 1, 16)}`,
    `pto.trowsum ins(%a, %t : ${T('f16', 1, 16)}, ${T('f16', 1, 16)}) outs(%s : ${T('f16', 16, 1, 'v_row=1, v_col=1', 'col_major')})${attr}`,
    `%sb = pto.treshape %s : ${T('f16', 16, 1, 'v_row=1, v_col=1', 'col_major')} -> ${T('i16', 1, 16)}`,
    `%ab = pto.treshape %a : ${T('f16', 1, 16)} -> ${T('i16', 1, 16)}`,
    `%v = pto.tgetval ins(%sb, %c0 : ${T('i16', 1, 16)}, index) outs : i16`,
    `pto.tsetval ins(%c0, %v : index, i16) outs(%ab : ${T('i16', 1, 16)})`,
  ];

  test('npu adds as a tree: 2048 + fifteen ones = 2062 (0x6807)', () => {
    // Tree: pairs (2048+1)=2048 (tie to even), (1+1)=2 x7; then 2048+2=2050, 2+2=4 x3; 2050+4=2054, 4+4=8;
    // 2054+8=2062. In f16 near 2048 the spacing is 2, and every partial sum here is even.
    expect(asU16(run(kernel('f16', 1, 16, body('')), 'f16', f16(ones)))[0]).toBe(0x6807);
  });

  test('cpu-sim accumulates in f32 in order: 2063 rounds to 2064 (0x6808)', () => {
    expect(asU16(run(kernel('f16', 1, 16, body('')), 'f16', f16(ones), 'cpu-sim'))[0]).toBe(0x6808);
  });

  const big = [0x7bff, 0x7bff, ...new Array(14).fill(0)]; // 65504 + 65504 overflows f16

  test('an overflow saturates to 65504 (0x7bff) by default under npu', () => {
    expect(asU16(run(kernel('f16', 1, 16, body('')), 'f16', f16(big)))[0]).toBe(0x7bff);
  });

  test('saturation = false keeps the IEEE result, +inf (0x7c00)', () => {
    expect(asU16(run(kernel('f16', 1, 16, body(' {saturation = false}')), 'f16', f16(big)))[0]).toBe(0x7c00);
  });
});
