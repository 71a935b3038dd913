/** Function declarations (no body): their parameter types are checked as a definition's are. */
import { assemble } from '../../src/verify/assemble';
import { formatAll } from '../../src/diag/diagnostic';

test('a declaration with a malformed parameter type is an error at the type', () => {
  const text = 'func.func private @k(%a: !pto.tile_buf<vec, 16x16xf32, count=2>) -> index\n';
  expect(formatAll(assemble('d.pto', text).diags)).toBe(
    "d.pto:1:56: error[E0201]: unknown key 'count' in !pto.tile_buf (expected one of valid, blayout, slayout, fractal, pad, compact)\n" +
      'func.func private @k(%a: !pto.tile_buf<vec, 16x16xf32, count=2>) -> index\n' +
      // The key at fault is underlined, not the whole type (issue 35).
      ' '.repeat(55) +
      '^~~~~',
  );
  expect(assemble('d.pto', 'func.func private @k(%a: !pto.tile_buf<vec, 16x16xf32>) -> index\n').diags.hasErrors()).toBe(false);
});

describe('pto.partition_view without a written result type', () => {
  // PTOAS infers it from the sizes: a constant size is a static dim, any other a dynamic one.
  const text = (sizes: string) =>
    [
      'func.func @k(%p: !pto.ptr<f32>, %n: index) {',
      '  %c0 = arith.constant 0 : index',
      '  %c1 = arith.constant 1 : index',
      '  %c16 = arith.constant 16 : index',
      '  %v = pto.make_tensor_view %p, shape = [%c16, %c16], strides = [%c16, %c1] : !pto.tensor_view<?x?xf32>',
      `  %part = pto.partition_view %v, offsets = [%c0, %c0], sizes = [${sizes}] : !pto.tensor_view<?x?xf32>`,
      '  %t = pto.alloc_tile : !pto.tile_buf<vec, 16x16xf32>',
      '  pto.tload ins(%part : !pto.partition_tensor_view<16x16xf32>) outs(%t : !pto.tile_buf<vec, 16x16xf32>)',
      '  return',
      '}',
    ].join('\n');
  test('constant sizes give a static type, which the use may name', () => {
    expect(formatAll(assemble('p.pto', text('%c16, %c16')).diags)).toBe('');
  });
  test('a size that is not a constant gives a dynamic dim, which a static use does not match', () => {
    expect(formatAll(assemble('p.pto', text('%c16, %n')).diags)).toContain('!pto.partition_tensor_view<16x?xf32>');
  });
});
