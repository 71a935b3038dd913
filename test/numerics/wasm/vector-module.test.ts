/** The shipped WebAssembly binary is the compiled kernels' text (regenerate with scripts/build-wasm.js). */
import { vectorWat } from '../../../src/numerics/wasm/vector-source';
import { VECTOR_MODULE } from '../../../src/numerics/wasm/vector-module';
import { vectorKernels } from '../../../src/numerics/wasm/vector';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { compileWat } = require('../../../scripts/wat');

test('vector-module.ts holds the binary of vector-source.ts', async () => {
  const bytes: Uint8Array = await compileWat(vectorWat());
  expect(Buffer.from(bytes).toString('base64')).toBe(VECTOR_MODULE);
});

test('the kernels run here: an add and a cpu-sim row sum, by hand', () => {
  const k = vectorKernels();
  expect(k).toBeDefined();
  const { f32 } = k!;
  f32.set([1.5, -2, 3, Infinity], 0);
  f32.set([0.25, 2, Number.NaN, -Infinity], 4);
  k!.tiles('add', 'cpu-sim')(8, 0, 4, 4);
  expect(Array.from(f32.subarray(8, 11))).toEqual([1.75, 0, Number.NaN]);
  // inf + -inf: x86's default NaN, negative.
  expect(new Uint32Array(f32.buffer, 44, 1)[0]).toBe(0xffc00000);
  // Rows of 2^24 + 1 + 1 + ... in f32: every add rounds back to 2^24 (ties to even), so the sum stays 2^24.
  for (let r = 0; r < 4; r++) f32.set([2 ** 24, 1, 1, 1], 16 + 4 * r);
  k!.rowSums(32, 16, 4, 4, 4);
  expect(Array.from(f32.subarray(32, 36))).toEqual([2 ** 24, 2 ** 24, 2 ** 24, 2 ** 24]);
});
