/** Function declarations (no body): their parameter types are checked as a definition's are. */
import { assemble } from '../../src/verify/assemble';
import { formatAll } from '../../src/diag/diagnostic';

test('a declaration with a malformed parameter type is an error at the type', () => {
  const text = 'func.func private @k(%a: !pto.tile_buf<vec, 16x16xf32, count=2>) -> index\n';
  expect(formatAll(assemble('d.pto', text).diags)).toBe(
    "d.pto:1:26: error[E0201]: unknown key 'count' in !pto.tile_buf (expected one of valid, blayout, slayout, fractal, pad, compact)\n" +
      'func.func private @k(%a: !pto.tile_buf<vec, 16x16xf32, count=2>) -> index\n' +
      ' '.repeat(25) +
      '^' +
      '~'.repeat('!pto.tile_buf<vec, 16x16xf32, count=2>'.length - 1),
  );
  expect(assemble('d.pto', 'func.func private @k(%a: !pto.tile_buf<vec, 16x16xf32>) -> index\n').diags.hasErrors()).toBe(false);
});
