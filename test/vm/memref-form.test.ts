/**
 * The memref form runs: global memrefs bound as buffers, memref.subview boxes, buffers placed by
 * pto.pointer_cast (flat buffers take a view's elements in row-major order), affine.apply offsets.
 */
import * as fs from 'fs';
import * as path from 'path';
import { assemble } from '../../src/verify/assemble';
import { formatAll } from '../../src/diag/diagnostic';
import { runFunction } from '../../src/vm/interpreter';
import { bindArguments, randomBytes } from '../../src/vm/io/arguments';
import { LocatedError } from '../../src/diag/located-error';

const fixture = (name: string) => fs.readFileSync(path.join(__dirname, '..', 'fixtures', 'syntax', name), 'utf8');

function runFile(text: string, scalars: Record<string, string>) {
  const asm = assemble('memref.pto', text);
  if (asm.diags.hasErrors()) throw new Error(formatAll(asm.diags));
  const fn = [...asm.program.functions.values()][0];
  const bound = bindArguments(asm.types, fn, new Map(Object.entries(scalars)));
  runFunction(asm.program, asm.types, fn, bound.values, { numerics: 'npu', maxSteps: 1e6 });
  const f32 = (name: string) => {
    const b = bound.buffers.find((x) => x.name === name)!;
    return new Float32Array(b.bytes.buffer.slice(b.bytes.byteOffset, b.bytes.byteOffset + b.bytes.byteLength));
  };
  return { f32, bound };
}

test.each([
  [0, 0],
  [2, 1],
  [3, 1],
])('memref-form.pto with block (%i, %i): out = (x + x) + y on the 16x32 box at (16*bi, 32*bj), nothing else written', (bi, bj) => {
  const { f32, bound } = runFile(fixture('memref-form.pto'), { bi: String(bi), bj: String(bj) });
  const [x, y, out] = [f32('x'), f32('y'), f32('out')];
  expect(bound.origins.get('x')).toMatch(/^random:4096/);
  expect(bound.origins.get('out')).toBe('zeros:4096');
  for (let r = 0; r < 64; r++) {
    for (let c = 0; c < 64; c++) {
      const k = r * 64 + c;
      const inside = r >= 16 * bi && r < 16 * bi + 16 && c >= 32 * bj && c < 32 * bj + 32;
      expect(out[k]).toBe(inside ? Math.fround(Math.fround(x[k] + x[k]) + y[k]) : 0);
    }
  }
});

test('a box outside the memref traps at the first access past the buffer, naming the subview that left the memref', () => {
  let error: LocatedError | undefined;
  try {
    runFile(fixture('memref-form.pto'), { bi: '4', bj: '0' });
  } catch (e) {
    error = e as LocatedError;
  }
  // Rows 64..79 of a 64 x 64 f32 memref start at element 64 * 64 = 4096, one past its last.
  expect(error?.message).toBe('pto.tload: x: element 4096 is out of bounds (the buffer has 4096 elements of f32)');
  expect(error?.notes?.[0].message).toMatch(/^before this: warning\[W0804\]: subview \[64, 80\) of dim 0 is outside the memref's extent 64/);
});

test('a tile argument starts with generated elements and can be cut into pto.subset windows', () => {
  const T = '!pto.tile_buf<loc=vec, dtype=f32, rows=8, cols=16, v_row=8, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>';
  const W = '!pto.tile_buf<loc=vec, dtype=f32, rows=8, cols=8, v_row=8, v_col=8, blayout=row_major, slayout=none_box, fractal=512, pad=0>';
  const text = `module {
  func.func @halves(%out: memref<8x8xf32, #pto.address_space<gm>>, %t: ${T}) {
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %left = pto.subset %t[%c0, %c0] sizes [8, 8] : ${T}
    %right = pto.subset %t[%c0, %c8] sizes [8, 8] : ${T}
    pto.tsub ins(%right, %left : ${W}, ${W}) outs(%left : ${W})
    pto.tstore ins(%left : ${W}) outs(%out : memref<8x8xf32, #pto.address_space<gm>>)
    return
  }
}`;
  const { f32, bound } = runFile(text, {});
  expect(bound.origins.get('t')).toBe('random:128:2');
  const initial = new Float32Array(randomBytes('f32', 128, 2).buffer);
  const out = f32('out');
  for (let r = 0; r < 8; r++) for (let c = 0; c < 8; c++) expect(out[r * 8 + c]).toBe(Math.fround(initial[r * 16 + c + 8] - initial[r * 16 + c]));
});
