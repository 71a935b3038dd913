/**
 * Verifier rules of the lane ops in spec/micro/vector.json that PTOAS applies beyond kinds and shapes: no
 * low-precision lanes outside loads, stores and conversions (VPTO.cpp's verifyNonLowPrecisionVRegElementTypeLike),
 * bf16x2 not in vand/vor/vxor, and integer vdiv only where the A5 software library has it.
 */
import { microErrors as errors } from '../fixtures/micro';

const F8 = '!pto.vreg<256xf8E4M3FN>';
const H8 = '!pto.vreg<256x!pto.hif8>';
const B2 = '!pto.vreg<64x!pto.bf16x2>';
const params = `%f8: ${F8}, %h8: ${H8}, %b2: ${B2}, %m8: !pto.mask<b8>, %m32: !pto.mask<b32>, %m16: !pto.mask<b16>, %s: !pto.hif8, %u16: !pto.vreg<128xui16>, %i16: !pto.vreg<128xi16>, %i32: !pto.vreg<64xi32>, %i8: !pto.vreg<256xi8>`;
const LOW =
  'must not use low-precision vector element type; low-precision vreg elements are only supported on explicit memory/conversion ops such as vlds/vsts/vcvt/vpack';

test('vadd, vexp, vmuls and vsel reject low-precision lanes; vand takes an 8-bit payload but not bf16x2', () => {
  expect(errors(`  %a = pto.vadd %f8, %f8, %m8 : ${F8}, ${F8}, !pto.mask<b8> -> ${F8}`, params)).toEqual([`E0451: pto.vadd: lhs type ${LOW}`]);
  expect(errors(`  %a = pto.vexp %h8, %m8 : ${H8}, !pto.mask<b8> -> ${H8}`, params)).toEqual([`E0451: pto.vexp: input type ${LOW}`]);
  expect(errors(`  %a = pto.vmuls %h8, %s, %m8 : ${H8}, !pto.hif8, !pto.mask<b8> -> ${H8}`, params)).toEqual([`E0451: pto.vmuls: input type ${LOW}`]);
  expect(errors(`  %a = pto.vsel %f8, %f8, %m8 : ${F8}, ${F8}, !pto.mask<b8> -> ${F8}`, params)).toEqual([`E0451: pto.vsel: src0 type ${LOW}`]);
  expect(errors(`  %a = pto.vand %f8, %f8, %m8 : ${F8}, ${F8}, !pto.mask<b8> -> ${F8}`, params)).toEqual([]);
  expect(errors(`  %a = pto.vor %b2, %b2, %m32 : ${B2}, ${B2}, !pto.mask<b32> -> ${B2}`, params)).toEqual([
    'E0451: pto.vor: does not support bf16x2 vector elements; low-precision bitwise operations require an 8-bit payload type',
  ]);
});

test('integer vdiv only i16 with b16 and i32 with b32 (issue 1241)', () => {
  expect(errors('  %a = pto.vdiv %i16, %i16, %m16 : !pto.vreg<128xi16>, !pto.vreg<128xi16>, !pto.mask<b16> -> !pto.vreg<128xi16>', params)).toEqual([]);
  expect(errors('  %a = pto.vdiv %u16, %u16, %m16 : !pto.vreg<128xui16>, !pto.vreg<128xui16>, !pto.mask<b16> -> !pto.vreg<128xui16>', params)).toEqual([
    'E0451: pto.vdiv: A5 integer pto.vdiv is not supported for !pto.vreg<128xui16> with mask !pto.mask<b16>; only signed or signless i16 vectors with a b16 mask and i32 vectors with a b32 mask are materialized through the A5 Software Library',
  ]);
  expect(errors('  %a = pto.vdiv %i8, %i8, %m8 : !pto.vreg<256xi8>, !pto.vreg<256xi8>, !pto.mask<b8> -> !pto.vreg<256xi8>', params)[0]).toMatch(
    /^E0451: pto.vdiv: A5 integer pto.vdiv is not supported for !pto.vreg<256xi8>/,
  );
});
