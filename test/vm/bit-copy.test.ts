/**
 * tload, tstore and tmov copy bits (docs/numerics.md), which the simulator's cases cannot show: their
 * inputs hold no NaN payloads and one dtype per case. Runs the golden harness's programs on inputs
 * made of NaNs with payloads, signalling ones among them, and a u16 -> f16 transfer.
 */
import { assemble } from '../../src/verify/assemble';
import { ElemType } from '../../src/types/type';
import { Value, runFunction } from '../../src/vm/interpreter';
import { GlobalBuffer } from '../../src/machine/memory';
import { GoldenCase, buildProgram, runProgram } from './golden-harness';

/** 16 x 64 elements, every one a NaN with its own payload and alternating sign. */
function nanPayloads(dtype: 'f16' | 'f32'): Uint8Array {
  const n = 16 * 64;
  if (dtype === 'f16') {
    const bits = new Uint16Array(n);
    for (let i = 0; i < n; i++) bits[i] = (i % 2 ? 0x8000 : 0) | 0x7c00 | ((i % 0x3ff) + 1);
    return new Uint8Array(bits.buffer);
  }
  const bits = new Uint32Array(n);
  for (let i = 0; i < n; i++) bits[i] = ((i % 2 ? 0x80000000 : 0) | 0x7f800000 | (Math.imul(i, 2654435761) >>> 9 || 1)) >>> 0;
  return new Uint8Array(bits.buffer);
}

function transferCase(op: string, dtype: ElemType): GoldenCase {
  return {
    name: `${op}_${dtype}_nan_payloads`,
    op,
    dtype,
    odt: dtype,
    tile: [16, 64],
    valid: [16, 64],
    input_kind: 'nan',
    extra: op === 'tload' ? ['--pad', 'null'] : [],
    inputs: [],
    output: { file: '', shape: [], sha256: '', out_kind: op === 'tstore' ? 'global' : 'tile', out_dtype: dtype, out_shape: [16, 64], out_bytes: 0 },
  };
}

describe('transfers keep NaN payloads', () => {
  test.each([
    ['tload', 'f16'],
    ['tload', 'f32'],
    ['tstore', 'f16'],
    ['tstore', 'f32'],
    ['tmov', 'f16'],
    ['tmov', 'f32'],
  ] as const)('%s %s', (op, dtype) => {
    const input = nanPayloads(dtype);
    const out = runProgram(buildProgram(transferCase(op, dtype), [input]), `${op}.pto`, 'a2a3');
    expect(Buffer.from(out).equals(Buffer.from(input))).toBe(true);
  });
});

test('a u16 view loads into an f16 tile bit for bit', () => {
  const tile = '!pto.tile_buf<loc=vec, dtype=f16, rows=1, cols=16, v_row=1, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>';
  const text = `module {
  func.func @f(%arg0: !pto.ptr<u16>, %arg1: !pto.ptr<f16>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %v0 = pto.make_tensor_view %arg0, shape = [%c1, %c16], strides = [%c16, %c1] : !pto.tensor_view<?x?xui16>
    %v1 = pto.make_tensor_view %arg1, shape = [%c1, %c16], strides = [%c16, %c1] : !pto.tensor_view<?x?xf16>
    %p0 = pto.partition_view %v0, offsets = [%c0, %c0], sizes = [%c1, %c16] : !pto.tensor_view<?x?xui16> -> !pto.partition_tensor_view<1x16xui16>
    %p1 = pto.partition_view %v1, offsets = [%c0, %c0], sizes = [%c1, %c16] : !pto.tensor_view<?x?xf16> -> !pto.partition_tensor_view<1x16xf16>
    %t = pto.alloc_tile : ${tile}
    pto.tload ins(%p0 : !pto.partition_tensor_view<1x16xui16>) outs(%t : ${tile})
    pto.tstore ins(%t : ${tile}) outs(%p1 : !pto.partition_tensor_view<1x16xf16>)
    return
  }
}
`;
  const { program, types, diags } = assemble('u16-f16.pto', text);
  expect(diags.hasErrors()).toBe(false);
  // 1.0, 15360, signalling and quiet NaNs with payloads, -0, the largest half, a subnormal, -1.
  const bits = Uint16Array.from([0x3c00, 15360, 0x7c01, 0x7e55, 0xfd00, 0x8000, 0x7bff, 0x0001, 0xbc00, 1, 2, 3, 0x7c00, 0xfc00, 0xffff, 0x1234]);
  const input = new GlobalBuffer('arg0', 'u16', new Uint8Array(bits.buffer.slice(0)));
  const output = new GlobalBuffer('arg1', 'f16', new Uint8Array(32));
  const args = new Map<string, Value>([
    ['%arg0', input],
    ['%arg1', output],
  ]);
  runFunction(program, types, program.functions.get('f')!, args, { numerics: 'npu', maxSteps: 1000 });
  expect(Array.from(new Uint16Array(output.bytes.buffer.slice(0)))).toEqual(Array.from(bits));
});
