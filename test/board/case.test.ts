import { assemble } from '../../src/verify/assemble';
import { formatAll } from '../../src/diag/diagnostic';
import { deriveCase, kernelFunctions, renderMainCpp, renderOutputs } from '../../src/board/case';

const T = (dtype: string, rows: number, cols: number) =>
  `!pto.tile_buf<loc=vec, dtype=${dtype}, rows=${rows}, cols=${cols}, v_row=${rows}, v_col=${cols}, blayout=row_major, slayout=none_box, fractal=512, pad=0>`;

/**
 * %a: a 4x8 f32 view with row stride 16 (1 + 3*16 + 7 = 56 elements), loaded; %b: an f16 view of %n x 8 (the
 * scalar's value rows), never stored; %out: a 4x8 view (32 elements) the kernel stores to.
 */
const KERNEL = [
  'module {',
  '  func.func @k(%a: !pto.ptr<f32>, %b: !pto.ptr<f16>, %n: index, %out: !pto.ptr<f32>, %flag: i32) {',
  '    %c0 = arith.constant 0 : index',
  '    %c1 = arith.constant 1 : index',
  '    %c4 = arith.constant 4 : index',
  '    %c8 = arith.constant 8 : index',
  '    %c16 = arith.constant 16 : index',
  '    %av = pto.make_tensor_view %a, shape = [%c4, %c8], strides = [%c16, %c1] : !pto.tensor_view<?x?xf32>',
  '    %bv = pto.make_tensor_view %b, shape = [%n, %c8], strides = [%c8, %c1] : !pto.tensor_view<?x?xf16>',
  '    %ov = pto.make_tensor_view %out, shape = [%c4, %c8], strides = [%c8, %c1] : !pto.tensor_view<?x?xf32>',
  '    %ap = pto.partition_view %av, offsets = [%c0, %c0], sizes = [%c4, %c8] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<4x8xf32>',
  '    %op = pto.partition_view %ov, offsets = [%c0, %c0], sizes = [%c4, %c8] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<4x8xf32>',
  `    %t = pto.alloc_tile : ${T('f32', 4, 8)}`,
  `    pto.tload ins(%ap : !pto.partition_tensor_view<4x8xf32>) outs(%t : ${T('f32', 4, 8)})`,
  `    pto.tstore ins(%t : ${T('f32', 4, 8)}) outs(%op : !pto.partition_tensor_view<4x8xf32>)`,
  '    return',
  '  }',
  '}',
].join('\n');

function derive(text: string, testcase = 'k', sample = 'Sample') {
  const asm = assemble('k.pto', text, { target: 'a5' });
  expect(formatAll(asm.diags)).toBe('');
  return deriveCase(asm.program, asm.types, kernelFunctions(asm.program), { testcase, sample });
}

describe('deriveCase', () => {
  test('names buffers by argument position, sizes them from their views, marks stored ones as outputs', () => {
    const meta = derive(KERNEL);
    expect(meta.buffers.map((b) => [b.name, b.hostType, b.count, b.output])).toEqual([
      ['v1', 'float', 56, false],
      ['v2', 'aclFloat16', 8, false],
      ['v4', 'float', 32, true],
    ]);
    expect(meta.scalars.map((s) => [s.name, s.hostType, s.value])).toEqual([
      ['v3', 'int64_t', 1],
      ['v5', 'int32_t', 1],
    ]);
    expect(meta.blocks).toBe(1);
  });

  test("a case's scalar default from the harness sizes the views that read it", () => {
    // The harness gives the Qwen3 decode `silu` case's v4 the value 0 (and v5, v6): %b's view then has no rows.
    const text = KERNEL.replace('%out: !pto.ptr<f32>, %flag: i32', '%n2: i32, %out: !pto.ptr<f32>');
    const meta = derive(
      text.replace('@k(%a: !pto.ptr<f32>, %b: !pto.ptr<f16>, %n: index', '@k(%a: !pto.ptr<f32>, %b: !pto.ptr<f16>, %z: f32, %n: index'),
      'silu',
      'Qwen3DecodeA5',
    );
    expect(meta.scalars.map((s) => [s.name, s.hostType, s.value])).toEqual([
      ['v3', 'float', 1],
      ['v4', 'int64_t', 0],
      ['v5', 'int32_t', 0],
    ]);
    // A zero-row view has no elements: the harness's 32x32 default.
    expect(meta.buffers.find((b) => b.name === 'v2')!.count).toBe(1024);
  });

  test('without a store the last pointer is the output, as the harness guesses', () => {
    const meta = derive(KERNEL.replace(/ *pto\.tstore.*\n/, ''));
    expect(meta.buffers.filter((b) => b.output).map((b) => b.name)).toEqual(['v4']);
  });

  test('main.cpp has the lines validation_runtime.py parses, outputs.txt the outputs', () => {
    const meta = derive(KERNEL);
    const cpp = renderMainCpp(meta);
    expect(cpp).toContain('size_t elemCount_v1 = 56;\nsize_t fileSize_v1 = elemCount_v1 * sizeof(float);');
    expect(cpp).toContain('size_t fileSize_v2 = elemCount_v2 * sizeof(aclFloat16);');
    expect(cpp).toContain('int64_t v3 = 1;\nint32_t v5 = 1;');
    expect(cpp.match(/ReadFile\("\.\/(\w+)\.bin"/g)).toEqual(['ReadFile("./v1.bin"', 'ReadFile("./v2.bin"', 'ReadFile("./v4.bin"']);
    expect(renderOutputs(meta)).toBe('v4\n');
  });

  test("a prefetch context's workspace is the runtime's: no file, no output; a private function is no kernel", () => {
    const text = [
      'module {',
      '  func.func private @helper(%p: !pto.ptr<f32>) {',
      '    return',
      '  }',
      '  func.func @k(%src: !pto.ptr<f32>, %ws: !pto.ptr<i8>) {',
      '    %c1 = arith.constant 1 : index',
      '    %c128 = arith.constant 128 : index',
      '    %v = pto.make_tensor_view %src, shape = [%c128], strides = [%c1] : !pto.tensor_view<128xf32>',
      '    %ctx = pto.make_prefetch_async_context(%ws : !pto.ptr<i8>) -> !pto.prefetch_async_context',
      '    return',
      '  }',
      '}',
    ].join('\n');
    const meta = derive(text);
    expect(meta.functions.map((f) => f.symbol)).toEqual(['k']);
    expect(meta.buffers.map((b) => [b.name, b.count, b.output, b.runtime])).toEqual([
      ['v1', 128, true, false],
      ['v2', 1024, false, true],
    ]);
    const cpp = renderMainCpp(meta);
    expect(cpp).toContain('elemCount_v1 = 128;');
    expect(cpp).not.toContain('v2');
  });
});
