/**
 * Rules of PTOAS's cube micro-op verifiers (lib/PTO/IR/VPTO.cpp) beyond the rows' fields: the MX loads' statically
 * known addresses (verifyMxLoadAlignment). Expected values from VPTO.cpp and PTOAS's
 * test/lit/vpto/cube/load_cbuf_to_mx_verify_invalid.pto.
 */
import { errorsAt } from '../fixtures/micro';

/** Each error as `code line:col message`. */
const errors = (text: string): string[] => errorsAt(text, { target: 'a5' }, true);

/** An MX scale load from L1 address `src` into L0A (or L0B) address `dst`, each made by a castptr of a constant. */
function mxLoad(src: number, dst: number, into: 'l0a' | 'l0b' = 'l0a'): string {
  return `module attributes {pto.target_arch = "a5", pto.kernel_kind = #pto.kernel_kind<cube>} {
  func.func @k() attributes {pto.kernel} {
    %c0 = arith.constant 0 : i64
    %s = arith.constant ${src} : i64
    %d = arith.constant ${dst} : i64
    %src = pto.castptr %s : i64 -> !pto.ptr<!pto.f8E8M0, l1>
    %dst = pto.castptr %d : i64 -> !pto.ptr<f8E4M3FN, ${into}>
    pto.mte_l1_${into}_mx %src, %dst, %c0, %c0, %c0, %c0
      : !pto.ptr<!pto.f8E8M0, l1>, !pto.ptr<f8E4M3FN, ${into}>, i64, i64, i64, i64
    return
  }
}
`;
}

describe('mte_l1_l0a_mx / mte_l1_l0b_mx: statically known addresses', () => {
  test('a source address off a 32-byte boundary is reported at the source operand', () => {
    expect(errors(mxLoad(1, 0))).toEqual(['E0451 8:23 pto.mte_l1_l0a_mx: a statically known source address must be aligned to 32 bytes, got 1']);
    expect(errors(mxLoad(48, 0, 'l0b'))).toEqual(['E0451 8:23 pto.mte_l1_l0b_mx: a statically known source address must be aligned to 32 bytes, got 48']);
  });

  test('a destination address off a 16-byte boundary is reported at the destination operand', () => {
    expect(errors(mxLoad(0, 1))).toEqual(['E0451 8:29 pto.mte_l1_l0a_mx: a statically known destination address must be aligned to 16 bytes, got 1']);
    expect(errors(mxLoad(64, 8, 'l0b'))).toEqual(['E0451 8:29 pto.mte_l1_l0b_mx: a statically known destination address must be aligned to 16 bytes, got 8']);
  });

  test('aligned addresses, and addresses not known statically, are accepted', () => {
    expect(errors(mxLoad(32, 16))).toEqual([]);
    expect(errors(mxLoad(4160, 48, 'l0b'))).toEqual([]);
    // A pointer that is a function argument has no static address.
    const fromArgument = mxLoad(1, 1)
      .replace('func.func @k()', 'func.func @k(%p: !pto.ptr<!pto.f8E8M0, l1>)')
      .replace('pto.mte_l1_l0a_mx %src, %dst', 'pto.mte_l1_l0a_mx %p, %dst')
      .replace('%d = arith.constant 1', '%d = arith.constant 16');
    expect(errors(fromArgument)).toEqual([]);
  });
});
