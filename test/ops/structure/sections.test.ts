/** SIMT sections (pto.section.simt), which PTOAS outlines into functions of their own: never nested, never in a SIMT entry. */
import { assemble } from '../../../src/verify/assemble';
import { formatAll } from '../../../src/diag/diagnostic';

const errorsOf = (attrs: string, body: string[]) =>
  formatAll(
    assemble(
      's.pto',
      ['module attributes {pto.target_arch = "a5"} {', `  func.func @k()${attrs} {`, ...body.map((l) => '    ' + l), '    return', '  }', '}', ''].join('\n'),
    ).diags,
  );

test('a section in a kernel is fine', () => {
  expect(errorsOf(' attributes {pto.kernel}', ['pto.section.simt <<<32, 2, 1>>> {', '}'])).toBe('');
});

test('a section inside another is reported at the inner one', () => {
  const errors = errorsOf('', ['pto.section.simt <<<32, 2, 1>>> {', '  pto.section.simt <<<32, 1, 1>>> {', '  }', '}']);
  expect(errors).toContain('s.pto:4:7: error[E0408]: nested pto.section.simt is not allowed');
  expect(errors.match(/error/g)).toHaveLength(1);
});

test('a section in a function marked pto.simt_entry is refused, the marker noted', () => {
  const errors = errorsOf(' attributes {pto.simt_entry}', ['pto.section.simt <<<32, 2, 1>>> {', '}']);
  expect(errors).toContain("s.pto:3:5: error[E0408]: pto.section.simt must not appear inside a function marked with 'pto.simt_entry'");
  expect(errors).toContain('s.pto:2:30: note: @k is marked here');
});
