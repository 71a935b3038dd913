/**
 * `arith.constant dense<...> : vector<NxF>`: float vectors of float literals, as PTOAS's SIMT tests write them for
 * their packed loads and stores (`dense<1.000000e+00> : vector<2xf16>`), one element for all lanes or one per lane.
 */
import { assemble } from '../../../src/verify/assemble';
import { formatAll } from '../../../src/diag/diagnostic';
import { printCanonical } from '../../../src/emit/canonical';

const fn = (lines: string[]) => `func.func @k() {\n${lines.map((l) => '  ' + l + '\n').join('')}  return\n}\n`;
const errors = (text: string) =>
  formatAll(assemble('d.pto', text, { target: 'a5' }).diags)
    .split('\n')
    .filter((l) => /error/.test(l));

test('a splat and a per-lane float vector constant assemble and print back as written', () => {
  const lines = ['%s = arith.constant dense<1.000000e+00> : vector<2xf16>', '%v = arith.constant dense<[1.000000e+00, 2.000000e+00]> : vector<2xbf16>'];
  const a = assemble('d.pto', fn(lines), { target: 'a5' });
  expect(formatAll(a.diags)).toBe('');
  const canonical = printCanonical(a.module, a.types);
  for (const l of lines) expect(canonical).toContain(l);
});

test('as many elements as lanes (or one), each a float literal', () => {
  expect(errors(fn(['%v = arith.constant dense<[1.0, 2.0, 3.0]> : vector<2xf32>']))).toEqual([
    'd.pto:2:23: error[E0403]: dense<...> has 3 elements, but vector<2xf32> has 2 (or give one for all)',
  ]);
  expect(errors(fn(['%v = arith.constant dense<[1.0, 2]> : vector<2xf32>']))).toEqual([
    'd.pto:2:35: error[E0403]: a vector<2xf32> element must be a float literal',
  ]);
});
