/**
 * Rules of PTOAS's vector micro-op verifiers (lib/PTO/IR/VPTO.cpp) that tell a signed integer element (`siN`) from a
 * signless one (`iN`), which the vreg type reads alike: verifyShiftVecOp's signed shift counts and Vgather2Op's
 * unsigned-or-signless offsets. Expected values from VPTO.cpp and PTOAS's test/lit/vpto/vshift_mixed_signedness_verify.pto
 * and vgather2_verify_invalid_offset.pto.
 */
import { errorsAt } from '../fixtures/micro';

/** Each error as `code line:col message`. */
const errors = (text: string): string[] => errorsAt(text, { target: 'a5' }, true);

/** `op` shifting `lhs` lanes by `count` lanes (both 64 x 32-bit). */
function shift(op: string, lhs: string, count: string): string {
  return `module {
  func.func @k(%lhs: !pto.vreg<64x${lhs}>, %rhs: !pto.vreg<64x${count}>, %mask: !pto.mask<b32>) -> !pto.vreg<64x${lhs}> {
    %r = pto.${op} %lhs, %rhs, %mask : !pto.vreg<64x${lhs}>, !pto.vreg<64x${count}>, !pto.mask<b32> -> !pto.vreg<64x${lhs}>
    return %r : !pto.vreg<64x${lhs}>
  }
}
`;
}

describe('vshl / vshr: the shift count is a signed integer vector', () => {
  test('a signless count is rejected at the count operand, as an unsigned one is', () => {
    expect(errors(shift('vshr', 'ui32', 'i32'))).toEqual(['E0451 3:25 pto.vshr: requires shift count to use a signed integer element type']);
    expect(errors(shift('vshl', 'si32', 'ui32'))).toEqual(['E0451 3:25 pto.vshl: requires shift count to use a signed integer element type']);
  });

  test('a signed count is accepted for unsigned, signed and signless data', () => {
    expect(errors(shift('vshr', 'ui32', 'si32'))).toEqual([]);
    expect(errors(shift('vshl', 'si32', 'si32'))).toEqual([]);
    expect(errors(shift('vshl', 'i32', 'si32'))).toEqual([]);
  });
});

/** A 16-bit gather from f16 elements with `offsets` as the offset vector's element. */
function gather(offsets: string): string {
  return `module attributes {pto.target_arch = "a5", pto.kernel_kind = #pto.kernel_kind<vector>} {
  func.func @k(%source: !pto.ptr<f16, ub>, %offsets: !pto.vreg<128x${offsets}>) attributes {pto.kernel} {
    pto.vecscope {
      %mask = pto.pset_b16 "PAT_ALL" : !pto.mask<b16>
      %result = pto.vgather2 %source, %offsets, %mask : !pto.ptr<f16, ub>, !pto.vreg<128x${offsets}>, !pto.mask<b16> -> !pto.vreg<128xf16>
    }
    return
  }
}
`;
}

describe('vgather2: offsets are unsigned or signless', () => {
  test('signed si16 offsets are rejected at the offsets operand', () => {
    expect(errors(gather('si16'))).toEqual(['E0451 5:39 pto.vgather2: requires ui16/i16 offset vector elements']);
  });

  test('ui16 and signless i16 offsets are accepted', () => {
    expect(errors(gather('ui16'))).toEqual([]);
    expect(errors(gather('i16'))).toEqual([]);
  });
});
