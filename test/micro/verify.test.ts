/** Verification of micro-level ops: formats (E0450), operand kinds and mask granularity (E0451), register types. */
import { microErrors as errors } from '../fixtures/micro';

test('a b16 mask on f32 lanes is rejected as PTOValidateVPTOIR rejects it', () => {
  const body =
    '  pto.vecscope {\n    %m = pto.pset_b16 "PAT_ALL" : !pto.mask<b16>\n    %v = pto.vadd %a, %a, %m : !pto.vreg<64xf32>, !pto.vreg<64xf32>, !pto.mask<b16> -> !pto.vreg<64xf32>\n  }';
  expect(errors(body, '%a: !pto.vreg<64xf32>')).toEqual([
    'E0451: pto.vadd: mask type !pto.mask<b16> does not match lhs type !pto.vreg<64xf32>; expected !pto.mask<b32>',
  ]);
});

test('an operand where the format has an attribute is a format error at that item', () => {
  expect(errors('  %m = pto.pset_b32 %a : !pto.mask<b32>', '%a: i32')).toEqual([
    "E0450: pto.pset_b32 expects the attribute 'pattern' at item 1; its format is 'pattern : result'",
  ]);
});

test('vadd of registers of different shapes, and a pointer where a register goes', () => {
  const body =
    '  %m = pto.pset_b32 "PAT_ALL" : !pto.mask<b32>\n  %v = pto.vadd %a, %p, %m : !pto.vreg<64xf32>, !pto.ptr<f32, ub>, !pto.mask<b32> -> !pto.vreg<64xi32>';
  expect(errors(body, '%a: !pto.vreg<64xf32>, %p: !pto.ptr<f32, ub>')).toEqual([
    "E0451: pto.vadd: 'rhs' must be a !pto.vreg, got !pto.ptr<f32, ub>",
    'E0451: pto.vadd: requires matching register vector shapes: !pto.vreg<64xf32> and !pto.vreg<64xi32>',
  ]);
});

test('register types: 256 bytes, granularity b8/b16/b32', () => {
  expect(errors('', '%a: !pto.vreg<32xf32>')).toEqual(["E0201: '!pto.vreg<32xf32>' expected exactly 256 bytes"]);
  expect(errors('', '%a: !pto.mask<b64>')).toEqual(["E0201: '!pto.mask<b64>' expected granularity to be one of b8, b16, b32"]);
  expect(errors('', '%a: !pto.vreg<128xf16>, %b: !pto.mask<b8>, %c: !pto.align')).toEqual([]);
});
