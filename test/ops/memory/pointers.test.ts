/** Pointers made from raw addresses (pto.inttoptr) only read or write one scalar, as PTOAS's PTOValidateIntToPtrUses says. */
import { assemble } from '../../../src/verify/assemble';
import { formatAll } from '../../../src/diag/diagnostic';

const errorsOf = (body: string[]) =>
  formatAll(
    assemble(
      'p.pto',
      [
        'func.func @k(%a: i64, %i: index) {',
        '  %c0 = arith.constant 0 : index',
        '  %p = pto.inttoptr %a : i64 -> !pto.ptr<i32>',
        ...body.map((l) => '  ' + l),
        '  return',
        '}',
        '',
      ].join('\n'),
    ).diags,
  );

test('loading and storing through the pointer is allowed', () => {
  expect(errorsOf(['%x = pto.load_scalar %p[%c0] : !pto.ptr<i32> -> i32', 'pto.store_scalar %x, %p[%i] : !pto.ptr<i32>, i32'])).toBe('');
});

test('pointer arithmetic on it is reported at pto.inttoptr, the use as a note', () => {
  const errors = errorsOf(['%q = pto.addptr %p, %i : !pto.ptr<i32> -> !pto.ptr<i32>']);
  expect(errors).toContain(
    "p.pto:3:8: error[E0429]: pto.inttoptr: the result may only be used as the pointer operand of pto.load_scalar or pto.store_scalar; found a use by 'pto.addptr'",
  );
  expect(errors).toContain('p.pto:4:19: note: the use is here');
});

test('a view over it is refused too', () => {
  const errors = errorsOf(['%v = pto.make_tensor_view %p, shape = [%i], strides = [%i] : !pto.tensor_view<?xi32>']);
  expect(errors).toContain("found a use by 'pto.make_tensor_view'");
});
