/** mgather/mscatter attributes in the verifier (verify/checks/gather.ts): the spellings and the A5-only atomics. */
import { at, diagLines, kernel, run } from '../fixtures/verify/helpers';

const tile = (dtype: string) =>
  `!pto.tile_buf<loc=vec, dtype=${dtype}, rows=16, cols=16, v_row=16, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>`;
const setup = [
  '%c0 = arith.constant 0 : index',
  '%c1 = arith.constant 1 : index',
  '%c16 = arith.constant 16 : index',
  '%v = pto.make_tensor_view %p, shape = [%c16, %c16], strides = [%c16, %c1] : !pto.tensor_view<?x?xf32>',
  '%mem = pto.partition_view %v, offsets = [%c0, %c0], sizes = [%c16, %c16] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<16x16xf32>',
  `%i = pto.alloc_tile : ${tile('i32')}`,
  `%s = pto.alloc_tile : ${tile('f32')}`,
];
const scatter = (attrs: string) => `pto.mscatter ins(%s, %i : ${tile('f32')}, ${tile('i32')}) outs(%mem : !pto.partition_tensor_view<16x16xf32>) {${attrs}}`;
const check = (line: string, target: 'a2a3' | 'a5') => {
  const text = kernel([...setup, line, 'return'], '%p: !pto.ptr<f32>');
  return { text, lines: diagLines(run(text, target)) };
};

test('atomic max and min are A5 only; add is on both targets', () => {
  expect(check(scatter('coalesce = elem, atomic = max'), 'a5').lines).toEqual([]);
  expect(check(scatter('coalesce = elem, atomic = add'), 'a2a3').lines).toEqual([]);
  const { text, lines } = check(scatter('coalesce = elem, atomic = min'), 'a2a3');
  expect(lines).toEqual([`${at(text, 'min}')}: error[E0508]: pto.mscatter: atomic = min is A5 only (A2/A3 has none and add)`]);
});

test('an unknown out-of-range policy lists the spellings', () => {
  const { text, lines } = check(scatter('oob = zero'), 'a5');
  expect(lines).toEqual([`${at(text, 'zero}')}: error[E0507]: pto.mscatter: unknown oob 'zero'; expected one of undefined, skip, clamp, wrap`]);
});
