/**
 * TSTORE with atomicType = atomic_add: each stored element is added to the one in global memory. Values are chosen
 * so that the sums are worked out by hand, including an f16 sum that rounds and an i8 sum that wraps.
 */
import { assemble } from '../../../../src/verify/assemble';
import { formatAll } from '../../../../src/diag/diagnostic';
import { runFunction, Value } from '../../../../src/vm/interpreter';
import { GlobalBuffer } from '../../../../src/machine/memory';
import { ElemType } from '../../../../src/types/type';

function storeKernel(dtype: string, attrs: string): string {
  const view = `!pto.partition_tensor_view<1x32x${dtype}>`;
  const tile = `!pto.tile_buf<vec, 1x32x${dtype}>`;
  return `module {
  func.func @k(%x: !pto.ptr<${dtype}>, %out: !pto.ptr<${dtype}>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %xv = pto.make_tensor_view %x, shape = [%c1, %c32], strides = [%c32, %c1] : !pto.tensor_view<?x?x${dtype}>
    %ov = pto.make_tensor_view %out, shape = [%c1, %c32], strides = [%c32, %c1] : !pto.tensor_view<?x?x${dtype}>
    %xp = pto.partition_view %xv, offsets = [%c0, %c0], sizes = [%c1, %c32] : !pto.tensor_view<?x?x${dtype}> -> ${view}
    %op = pto.partition_view %ov, offsets = [%c0, %c0], sizes = [%c1, %c32] : !pto.tensor_view<?x?x${dtype}> -> ${view}
    %t = pto.alloc_tile : ${tile}
    pto.tload ins(%xp : ${view}) outs(%t : ${tile})
    pto.tstore ins(%t : ${tile}) outs(%op : ${view}) ${attrs}
    return
  }
}
`;
}

function run(dtype: ElemType, attrs: string, x: Uint8Array, out: Uint8Array): Uint8Array {
  const asm = assemble('s.pto', storeKernel(dtype, attrs));
  if (asm.diags.hasErrors()) throw new Error(formatAll(asm.diags));
  const result = new GlobalBuffer('out', dtype, out.slice());
  const values = new Map<string, Value>([
    ['%x', new GlobalBuffer('x', dtype, x)],
    ['%out', result],
  ]);
  runFunction(asm.program, asm.types, asm.program.functions.get('k')!, values, { numerics: 'npu', maxSteps: 1e5 });
  return result.bytes;
}

const ADD = '{atomicType = #pto<atomic_type atomic_add>}';

test('f32: out[i] = 10 i + x[i], with x[i] = i + 0.5', () => {
  const x = Float32Array.from({ length: 32 }, (_, i) => i + 0.5);
  const out = Float32Array.from({ length: 32 }, (_, i) => 10 * i);
  const got = new Float32Array(run('f32', ADD, new Uint8Array(x.buffer), new Uint8Array(out.buffer)).buffer);
  expect(Array.from(got)).toEqual(Array.from({ length: 32 }, (_, i) => 11 * i + 0.5));
});

test('atomic_none (the default, and written out) overwrites', () => {
  const x = Float32Array.from({ length: 32 }, (_, i) => i);
  const out = new Float32Array(32).fill(100);
  for (const attrs of ['', '{atomicType = #pto<atomic_type atomic_none>}']) {
    const got = new Float32Array(run('f32', attrs, new Uint8Array(x.buffer), new Uint8Array(out.buffer)).buffer);
    expect(Array.from(got)).toEqual(Array.from(x));
  }
});

test('f16: 2048 + 1 rounds to even (2048); 2048 + 3 = 2051 rounds to 2052 (spacing 2)', () => {
  // f16 bits: 2048 = 0x6800, 1 = 0x3c00, 3 = 0x4200, 2052 = 0x6802.
  const x = new Uint16Array(32).fill(0x3c00);
  x[1] = 0x4200;
  const out = new Uint16Array(32).fill(0x6800);
  const got = new Uint16Array(run('f16', ADD, new Uint8Array(x.buffer), new Uint8Array(out.buffer)).buffer);
  expect(got[0]).toBe(0x6800);
  expect(got[1]).toBe(0x6802);
});

test('i8: 100 + 100 wraps to -56', () => {
  const x = new Int8Array(32).fill(100);
  const out = new Int8Array(32).fill(100);
  const got = new Int8Array(run('i8', ADD, new Uint8Array(x.buffer), new Uint8Array(out.buffer)).buffer);
  expect(Array.from(got)).toEqual(new Array(32).fill(-56));
});

test('an unknown atomic type is an error naming the allowed ones', () => {
  const asm = assemble('s.pto', storeKernel('f32', '{atomicType = #pto<atomic_type atomic_max>}'));
  expect(formatAll(asm.diags)).toContain("unknown atomicType 'atomic_max'; expected one of #pto<atomic_type atomic_none>, #pto<atomic_type atomic_add>");
});

test('a tile with an empty valid region stores nothing into a larger view (issue 708: a zero-row tail)', () => {
  const tile = '!pto.tile_buf<loc=vec, dtype=f32, rows=4, cols=8, v_row=0, v_col=8, blayout=row_major, slayout=none_box, fractal=512, pad=0>';
  const view = '!pto.partition_tensor_view<4x8xf32>';
  const text = `module {
  func.func @k(%out: !pto.ptr<f32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %ov = pto.make_tensor_view %out, shape = [%c4, %c8], strides = [%c8, %c1] : !pto.tensor_view<?x?xf32>
    %op = pto.partition_view %ov, offsets = [%c0, %c0], sizes = [%c4, %c8] : !pto.tensor_view<?x?xf32> -> ${view}
    %t = pto.alloc_tile : ${tile}
    pto.tstore ins(%t : ${tile}) outs(%op : ${view})
    return
  }
}
`;
  const asm = assemble('s.pto', text);
  expect(formatAll(asm.diags)).toBe('');
  const out = new GlobalBuffer('out', 'f32', new Uint8Array(new Float32Array(32).fill(7).buffer));
  runFunction(asm.program, asm.types, asm.program.functions.get('k')!, new Map<string, Value>([['%out', out]]), { numerics: 'npu', maxSteps: 1e5 });
  expect(Array.from(new Float32Array(out.bytes.buffer, out.bytes.byteOffset, 32))).toEqual(Array(32).fill(7));
});

test('A5 quantises an f32 accumulator store to hif8: verified, and the VM reports the 8-bit float as not implemented yet', () => {
  const acc = '!pto.tile_buf<loc=acc, dtype=f32, rows=16, cols=16, v_row=16, v_col=16, blayout=col_major, slayout=row_major, fractal=1024, pad=0>';
  const view = '!pto.partition_tensor_view<16x16x!pto.hif8>';
  const text = `module {
  func.func @k(%out: !pto.ptr<!pto.hif8>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %ov = pto.make_tensor_view %out, shape = [%c16, %c16], strides = [%c16, %c1] : !pto.tensor_view<?x?x!pto.hif8>
    %op = pto.partition_view %ov, offsets = [%c0, %c0], sizes = [%c16, %c16] : !pto.tensor_view<?x?x!pto.hif8> -> ${view}
    %t = pto.alloc_tile : ${acc}
    pto.tstore ins(%t : ${acc}) outs(%op : ${view}) {pre_quant = 1065353216}
    return
  }
}
`;
  const asm = assemble('s.pto', text, { target: 'a5' });
  expect(formatAll(asm.diags)).toBe('');
  const out = new GlobalBuffer('out', '!pto.hif8', new Uint8Array(256));
  expect(() =>
    runFunction(asm.program, asm.types, asm.program.functions.get('k')!, new Map<string, Value>([['%out', out]]), { numerics: 'npu', maxSteps: 1e5 }),
  ).toThrow('quantising to !pto.hif8 (an 8-bit float the fixpipe writes) is not implemented yet');
  expect(formatAll(assemble('s.pto', text, { target: 'a2a3' }).diags)).toContain('pto.tstore');
});
