/**
 * An instruction run again on the same operands repeats its last run's prepared fast path (ctx.repeatWith); these
 * programs change what a repeat depends on between runs of one op: the valid region (pto.set_validshape), the tiles
 * themselves (loop-carried tiles that swap), a region whose element count is not a multiple of the kernels' vector.
 * Expected values are worked out by hand: x[i] = i, ones; every way of running (fast paths on, off) must give them.
 */
import { assemble } from '../../../src/verify/assemble';
import { formatAll } from '../../../src/diag/diagnostic';
import { runFunction, Value } from '../../../src/vm/interpreter';
import { GlobalBuffer } from '../../../src/machine/memory';

const TILE = '!pto.tile_buf<vec, 4x8xf32, valid=?x?>';
const VIEW = '!pto.partition_tensor_view<4x8xf32>';

/** %t holds x, %u ones (both 4x8 f32, valid 4x8); the body runs; %t goes to out0 and %u to out1. */
function kernel(body: string[]): string {
  return [
    'module {',
    '  func.func @k(%x: !pto.ptr<f32>, %ones: !pto.ptr<f32>, %out0: !pto.ptr<f32>, %out1: !pto.ptr<f32>) {',
    ...[0, 1, 2, 4, 5, 6, 8].map((n) => `    %c${n} = arith.constant ${n} : index`),
    ...['x', 'ones', 'out0', 'out1'].flatMap((name) => [
      `    %${name}v = pto.make_tensor_view %${name}, shape = [%c4, %c8], strides = [%c8, %c1] : !pto.tensor_view<?x?xf32>`,
      `    %${name}p = pto.partition_view %${name}v, offsets = [%c0, %c0], sizes = [%c4, %c8] : !pto.tensor_view<?x?xf32> -> ${VIEW}`,
    ]),
    `    %t = pto.alloc_tile valid_row = %c4 valid_col = %c8 : ${TILE}`,
    `    %u = pto.alloc_tile valid_row = %c4 valid_col = %c8 : ${TILE}`,
    `    pto.tload ins(%xp : ${VIEW}) outs(%t : ${TILE})`,
    `    pto.tload ins(%onesp : ${VIEW}) outs(%u : ${TILE})`,
    ...body.map((l) => '    ' + l),
    `    pto.set_validshape %t, %c4, %c8 : ${TILE}`,
    `    pto.set_validshape %u, %c4, %c8 : ${TILE}`,
    `    pto.tstore ins(%t : ${TILE}) outs(%out0p : ${VIEW})`,
    `    pto.tstore ins(%u : ${TILE}) outs(%out1p : ${VIEW})`,
    '    return',
    '  }',
    '}',
  ].join('\n');
}

function run(text: string, fastPaths: boolean): number[][] {
  const asm = assemble('repeat.pto', text);
  if (asm.diags.hasErrors()) throw new Error(formatAll(asm.diags));
  const f32 = (values: number[]) => new Uint8Array(Float32Array.from(values).buffer);
  const outs = [0, 1].map((k) => new GlobalBuffer(`out${k}`, 'f32', new Uint8Array(128)));
  const values = new Map<string, Value>([
    ['%x', new GlobalBuffer('x', 'f32', f32(Array.from({ length: 32 }, (_, i) => i)))],
    ['%ones', new GlobalBuffer('ones', 'f32', f32(new Array(32).fill(1)))],
    ['%out0', outs[0]],
    ['%out1', outs[1]],
  ]);
  runFunction(asm.program, asm.types, asm.program.functions.get('k')!, values, { numerics: 'cpu-sim', maxSteps: 1e6, fastPaths });
  return outs.map((b) => Array.from(new Float32Array(b.bytes.buffer, b.bytes.byteOffset, 32)));
}

const both = (text: string) => [run(text, true), run(text, false)];

describe('an instruction repeated on the same operands', () => {
  test('the valid region changes between repeats: rows 1, 1, 2, 2, 3, 3 of t += ones', () => {
    const text = kernel([
      'scf.for %i = %c0 to %c6 step %c1 {',
      '  %h = arith.divui %i, %c2 : index',
      '  %rows = arith.addi %h, %c1 : index',
      `  pto.set_validshape %t, %rows, %c8 : ${TILE}`,
      `  pto.set_validshape %u, %rows, %c8 : ${TILE}`,
      `  pto.tadd ins(%t, %u : ${TILE}, ${TILE}) outs(%t : ${TILE})`,
      '}',
    ]);
    // Row 0 is in all six regions, row 1 in four, row 2 in two, row 3 in none.
    const added = [6, 4, 2, 0];
    const t = Array.from({ length: 32 }, (_, i) => i + added[Math.floor(i / 8)]);
    for (const [out0, out1] of both(text)) {
      expect(out0).toEqual(t);
      expect(out1).toEqual(new Array(32).fill(1));
    }
  });

  test('a region of 5 elements (a kernel vector and one more), three times', () => {
    const text = kernel([
      `pto.set_validshape %t, %c1, %c5 : ${TILE}`,
      `pto.set_validshape %u, %c1, %c5 : ${TILE}`,
      'scf.for %i = %c0 to %c4 step %c1 {',
      `  pto.tadd ins(%t, %u : ${TILE}, ${TILE}) outs(%t : ${TILE})`,
      '}',
    ]);
    const t = Array.from({ length: 32 }, (_, i) => (i < 5 ? i + 4 : i));
    for (const [out0] of both(text)) expect(out0).toEqual(t);
  });

  test('the tiles swap between runs: p += q with (p, q) = (t, u), (u, t), ... four times', () => {
    const text = kernel([
      `%r:2 = scf.for %i = %c0 to %c4 step %c1 iter_args(%p = %t, %q = %u) -> (${TILE}, ${TILE}) {`,
      `  pto.tadd ins(%p, %q : ${TILE}, ${TILE}) outs(%p : ${TILE})`,
      `  scf.yield %q, %p : ${TILE}, ${TILE}`,
      '}',
    ]);
    // t, u = a, b; then t = a + b, u = a + 2b, t = 2a + 3b, u = 3a + 5b (a = x[i] = i, b = 1).
    for (const [out0, out1] of both(text)) {
      expect(out0).toEqual(Array.from({ length: 32 }, (_, i) => 2 * i + 3));
      expect(out1).toEqual(Array.from({ length: 32 }, (_, i) => 3 * i + 5));
    }
  });
});
