/**
 * memref forms PTOAS compiles that pto-as refused: `memref.dealloc` (MLIR's memref dialect, which PTOAS loads), and a
 * memref with no address space, which PTOAS lowers as global memory (PTOToEmitC's getAddressSpaceOrGM, InsertSync's
 * getPointerLikeAddressSpace). Before, the first was "unknown op 'memref.dealloc'" and the second "'memref<4xf32>'
 * needs an address space".
 */
import { assemble } from '../../../src/verify/assemble';
import { formatAll } from '../../../src/diag/diagnostic';
import { printCanonical } from '../../../src/emit/canonical';
import { runFunction } from '../../../src/vm/interpreter';
import { bindArguments } from '../../../src/vm/io/arguments';

const T = '!pto.tile_buf<vec, 16x32xf32>';

/** x -> vec tile -> + 1 -> out, through global memrefs written without an address space; `synced` puts the flags in. */
function addOne(synced: boolean): string {
  return [
    'module {',
    // A vector kernel: without its kind, PTOAS could not tell which core runs a flag set on PIPE_MTE2.
    '  func.func @k(%x: memref<16x32xf32>, %out: memref<16x32xf32>) attributes {pto.kernel_kind = #pto.kernel_kind<vector>} {',
    '    %one = arith.constant 1.0 : f32',
    `    %t = pto.alloc_tile : ${T}`,
    `    pto.tload ins(%x : memref<16x32xf32>) outs(%t : ${T})`,
    ...(synced ? ['    pto.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]', '    pto.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]'] : []),
    `    pto.tadds ins(%t, %one : ${T}, f32) outs(%t : ${T})`,
    '    pto.set_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]',
    '    pto.wait_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]',
    `    pto.tstore ins(%t : ${T}) outs(%out : memref<16x32xf32>)`,
    '    return',
    '  }',
    '}',
    '',
  ].join('\n');
}

function runAddOne(synced: boolean) {
  const asm = assemble('m.pto', addOne(synced), { target: 'a5' });
  if (asm.diags.hasErrors()) throw new Error(formatAll(asm.diags));
  const fn = [...asm.program.functions.values()][0];
  const bound = bindArguments(asm.types, fn, new Map());
  const result = runFunction(asm.program, asm.types, fn, bound.values, { numerics: 'npu', maxSteps: 1000 });
  const f32 = (name: string) => {
    const b = bound.buffers.find((x) => x.name === name)!;
    return new Float32Array(b.bytes.buffer.slice(b.bytes.byteOffset, b.bytes.byteOffset + b.bytes.byteLength));
  };
  return { result, x: f32('x'), out: f32('out'), asm };
}

describe('a memref without an address space is global memory', () => {
  test('it binds as a buffer of its shape, transfers, and prints as written', () => {
    const { x, out, result, asm } = runAddOne(true);
    expect(x).toHaveLength(16 * 32);
    expect([...out]).toEqual([...x].map((v) => Math.fround(v + 1)));
    expect(result.sync).toEqual([]);
    expect(printCanonical(asm.module, asm.types)).toContain('pto.tstore ins(%t : !pto.tile_buf<vec, 16x32xf32>) outs(%out : memref<16x32xf32>)');
  });

  test('the sync checker sees its transfers: without the MTE2 -> V flag, tadds reads what tload wrote', () => {
    const { result } = runAddOne(false);
    expect(result.sync.map((f) => f.message)).toEqual([
      'pto.tadds (PIPE_V) overwrites %t, written by pto.tload (PIPE_MTE2), with no set_flag/wait_flag from PIPE_MTE2 to PIPE_V between them',
    ]);
  });
});

describe('memref.dealloc', () => {
  const V = 'memref<16x16xf32, #pto.address_space<vec>>';
  test('frees a memref: it verifies, prints and runs', () => {
    const text = ['module {', '  func.func @k() {', `    %m = memref.alloc() : ${V}`, `    memref.dealloc %m : ${V}`, '    return', '  }', '}', ''].join('\n');
    const asm = assemble('d.pto', text);
    expect(formatAll(asm.diags)).toBe('');
    expect(printCanonical(asm.module, asm.types)).toContain(`    memref.dealloc %m : ${V}\n`);
    const result = runFunction(asm.program, asm.types, [...asm.program.functions.values()][0], new Map(), { numerics: 'npu', maxSteps: 100 });
    expect(result.steps).toBe(3);
  });

  test('of something that is not a memref is an error at the operand', () => {
    const text = ['module {', '  func.func @k(%a: index) {', '    memref.dealloc %a : index', '    return', '  }', '}', ''].join('\n');
    const asm = assemble('d.pto', text);
    expect(asm.diags.items.map((d) => [asm.source.position(d.span.start), d.code, d.message])).toEqual([
      [{ line: 3, col: 20 }, 'E0407', 'memref.dealloc frees a memref, not index'],
    ]);
  });
});
