/**
 * The memref form runs: global memrefs bound as buffers, memref.subview boxes, buffers placed by
 * pto.pointer_cast (flat buffers take a view's elements in row-major order), affine.apply offsets.
 */
import * as fs from 'fs';
import * as path from 'path';
import { assemble } from '../../src/assemble';
import { formatAll } from '../../src/diag/diagnostic';
import { runFunction } from '../../src/vm/interpreter';
import { bindArguments } from '../../src/vm/io/arguments';

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

test('a box outside the memref is a located trap', () => {
  expect(() => runFile(fixture('memref-form.pto'), { bi: '4', bj: '0' })).toThrow(/subview \[64, 80\) of dim 0 is outside the memref's extent 64/);
});
