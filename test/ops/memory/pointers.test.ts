/** Pointers made from raw addresses (pto.inttoptr) only read or write one scalar, as PTOAS's PTOValidateIntToPtrUses says. */
import { assemble } from '../../../src/verify/assemble';
import { formatAll } from '../../../src/diag/diagnostic';
import { GlobalBuffer } from '../../../src/machine/memory';
import { runMicroKernel } from '../../fixtures/micro';

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

test('load_scalar and store_scalar through a UB pointer (pto.castptr) read and write the UB element by element', () => {
  // i16 at UB byte 64: 1000 stored at [3], read back, plus 7 stored at [4]; both copied to GM by mte_ub_gm.
  const text = `module attributes {pto.target_arch = "a5"} {
  func.func @k(%out: !pto.ptr<i16, gm>) {
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c0_i64 = arith.constant 0 : i64
    %c1_i64 = arith.constant 1 : i64
    %c32_i64 = arith.constant 32 : i64
    %c64_i64 = arith.constant 64 : i64
    %v = arith.constant 1000 : i16
    %c7 = arith.constant 7 : i16
    %ub = pto.castptr %c64_i64 : i64 -> !pto.ptr<i16, ub>
    pto.store_scalar %v, %ub[%c3] : !pto.ptr<i16, ub>, i16
    %x = pto.load_scalar %ub[%c3] : !pto.ptr<i16, ub> -> i16
    %y = arith.addi %x, %c7 : i16
    pto.store_scalar %y, %ub[%c4] : !pto.ptr<i16, ub>, i16
    pto.mte_ub_gm %ub, %out, %c32_i64 nburst(%c1_i64, %c32_i64, %c32_i64) : !pto.ptr<i16, ub>, !pto.ptr<i16, gm>, i64, i64, i64, i64
    return
  }
}
`;
  const out = new GlobalBuffer('out', 'i16', new Uint8Array(32));
  runMicroKernel(text, 'k', { out });
  expect(Array.from(new Int16Array(out.bytes.slice().buffer))).toEqual([0, 0, 0, 1000, 1007, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
});
