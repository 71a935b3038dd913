/**
 * The unary, vector-scalar, compare/select and predicate-logic rows of spec/micro/vector.json: their verification
 * (VPTO.cpp's verifiers and PTOValidateVPTOIR's granularity rules) and a run through the lane semantics.
 */
import { GlobalBuffer } from '../../src/machine/memory';
import { microErrors as errors, runMicroKernel } from '../fixtures/micro';

const V = '!pto.vreg<64xf32>';
const I = '!pto.vreg<64xi32>';
const M = '!pto.mask<b32>';

describe('verification', () => {
  test("a vector-scalar op's scalar is the element type, or a signless integer of its width", () => {
    const params = `%v: ${V}, %w: ${I}, %m: ${M}, %f: f32, %i: i32, %u: ui32, %h: i16`;
    expect(errors(`  %a = pto.vadds %v, %f, %m : ${V}, f32, ${M} -> ${V}\n  %b = pto.vmuls %w, %i, %m : ${I}, i32, ${M} -> ${I}`, params)).toEqual([]);
    expect(errors(`  %a = pto.vadds %v, %i, %m : ${V}, i32, ${M} -> ${V}\n  %b = pto.vmaxs %w, %u, %m : ${I}, ui32, ${M} -> ${I}`, params)).toEqual([
      'E0451: pto.vadds: scalar type i32 must match vector element type f32',
      'E0451: pto.vmaxs: scalar type ui32 must match vector element type i32',
    ]);
    // vshls/vshrs: integer lanes, an i16 shift count.
    expect(errors(`  %a = pto.vshls %w, %i, %m : ${I}, i32, ${M} -> ${I}\n  %b = pto.vshrs %v, %h, %m : ${V}, i16, ${M} -> ${V}`, params)).toEqual([
      "E0451: pto.vshls: 'scalar' must be i16, got i32",
      "E0451: pto.vshrs: 'input' has element type f32; pto.vshrs takes i8, ui8, i16, ui16, i32, ui32, i64, ui64",
      "E0451: pto.vshrs: result 'result' has element type f32; pto.vshrs takes i8, ui8, i16, ui16, i32, ui32, i64, ui64",
    ]);
  });

  test('vrelu takes si32/i32/f16/f32 lanes; a unary op keeps its shape and its mask matches the lanes', () => {
    const params = `%u: !pto.vreg<64xui32>, %v: ${V}, %m: ${M}, %m16: !pto.mask<b16>`;
    expect(errors(`  %a = pto.vrelu %u, %m : !pto.vreg<64xui32>, ${M} -> !pto.vreg<64xui32>`, params)[0]).toBe(
      "E0451: pto.vrelu: 'input' has element type ui32; pto.vrelu takes i32, f16, f32",
    );
    expect(errors(`  %a = pto.vexp %v, %m16 : ${V}, !pto.mask<b16> -> ${I}`, params)).toEqual([
      'E0451: pto.vexp: mask type !pto.mask<b16> does not match input type !pto.vreg<64xf32>; expected !pto.mask<b32>',
      'E0451: pto.vexp: requires matching register vector shapes: !pto.vreg<64xf32> and !pto.vreg<64xi32>',
    ]);
  });

  test("compares: cmp_mode is one of eq/ne/lt/le/gt/ge, the seed's and result's granularity agree", () => {
    const params = `%v: ${V}, %m: ${M}, %f: f32`;
    expect(errors(`  %a = pto.vcmp %v, %v, %m, "lt" : ${V}, ${V}, ${M} -> ${M}`, params)).toEqual([]);
    expect(errors(`  %a = pto.vcmps %v, %f, %m, "less" : ${V}, f32, ${M} -> !pto.mask<b16>`, params)).toEqual([
      'E0451: pto.vcmps: \'cmp_mode\' must be one of eq, ne, lt, le, gt, ge, got "less"',
      'E0451: pto.vcmps: result type !pto.mask<b16> does not match mask type !pto.mask<b32>',
    ]);
  });

  test('pnot and psel keep one granularity (pand does not ask it); a distribution is one PTOAS names', () => {
    const params = `%m: ${M}, %h: !pto.mask<b16>, %p: !pto.ptr<f32, ub>, %i: index`;
    expect(errors(`  %a = pto.pand %m, %h, %m : ${M}, !pto.mask<b16>, ${M} -> ${M}`, params)).toEqual([]);
    expect(errors(`  %a = pto.pnot %m, %h : ${M}, !pto.mask<b16> -> ${M}`, params)).toEqual([
      'E0451: pto.pnot: mask type !pto.mask<b16> does not match input type !pto.mask<b32>',
    ]);
    expect(errors(`  pto.vecscope {\n    %v = pto.vlds %p[%i] {dist = "BRC"} : !pto.ptr<f32, ub> -> ${V}\n  }`, params)[0]).toMatch(
      /^E0451: pto.vlds: 'dist' must be one of NORM, BRC_B8, .*, got "BRC"$/,
    );
  });
});

/**
 * x[i] = i - 32 over 64 f32 lanes. |x| by a compare and a select: vcmps lt 0 marks lanes 0..31, vneg negates, vsel
 * takes -x there. pnot of that mask is lanes 32..63, pand with plt_b32(48)'s lanes 0..47 leaves 32..47, where vadds
 * adds 100 and a vsel keeps the sum. A BRC_B32 load broadcasts x[0] = -32; vcmp eq against x marks lane 0 alone,
 * where a vsel puts -32 back. The store's mask is por(lanes 0..31, lanes 32..47): lanes 48..63 keep UB's zero.
 */
const KERNEL = `module attributes {pto.target_arch = "a5", pto.kernel_kind = #pto.kernel_kind<vector>} {
  func.func @k(%in: !pto.ptr<f32, gm>, %out: !pto.ptr<f32, gm>) attributes {pto.kernel} {
    %c0 = arith.constant 0 : index
    %c0_i64 = arith.constant 0 : i64
    %c256_i64 = arith.constant 256 : i64
    %c1_i64 = arith.constant 1 : i64
    %c48 = arith.constant 48 : i32
    %zero = arith.constant 0.0 : f32
    %hundred = arith.constant 100.0 : f32
    %ub_in = pto.castptr %c0_i64 : i64 -> !pto.ptr<f32, ub>
    %ub_out = pto.castptr %c256_i64 : i64 -> !pto.ptr<f32, ub>
    pto.mte_gm_ub %in, %ub_in, %c0_i64, %c256_i64 nburst(%c1_i64, %c256_i64, %c256_i64)
      : !pto.ptr<f32, gm>, !pto.ptr<f32, ub>, i64, i64, i64, i64, i64
    pto.set_flag["PIPE_MTE2", "PIPE_V", "EVENT_ID0"]
    pto.wait_flag["PIPE_MTE2", "PIPE_V", "EVENT_ID0"]
    pto.vecscope {
      %all = pto.pset_b32 "PAT_ALL" : ${M}
      %x = pto.vlds %ub_in[%c0] : !pto.ptr<f32, ub> -> ${V}
      %neg = pto.vcmps %x, %zero, %all, "lt" : ${V}, f32, ${M} -> ${M}
      %n = pto.vneg %x, %all : ${V}, ${M} -> ${V}
      %a = pto.vsel %n, %x, %neg : ${V}, ${V}, ${M} -> ${V}
      %pos = pto.pnot %neg, %all : ${M}, ${M} -> ${M}
      %half, %rest = pto.plt_b32 %c48 : i32 -> ${M}, i32
      %both = pto.pand %pos, %half, %all : ${M}, ${M}, ${M} -> ${M}
      %b = pto.vadds %a, %hundred, %both : ${V}, f32, ${M} -> ${V}
      %c = pto.vsel %b, %a, %both : ${V}, ${V}, ${M} -> ${V}
      %s = pto.vlds %ub_in[%c0] {dist = "BRC_B32"} : !pto.ptr<f32, ub> -> ${V}
      %eq = pto.vcmp %x, %s, %all, "eq" : ${V}, ${V}, ${M} -> ${M}
      %d = pto.vsel %s, %c, %eq : ${V}, ${V}, ${M} -> ${V}
      %store = pto.por %neg, %both, %all : ${M}, ${M}, ${M} -> ${M}
      pto.vsts %d, %ub_out[%c0], %store : ${V}, !pto.ptr<f32, ub>, ${M}
    }
    pto.set_flag["PIPE_V", "PIPE_MTE3", "EVENT_ID0"]
    pto.wait_flag["PIPE_V", "PIPE_MTE3", "EVENT_ID0"]
    pto.mte_ub_gm %ub_out, %out, %c256_i64 nburst(%c1_i64, %c256_i64, %c256_i64)
      : !pto.ptr<f32, ub>, !pto.ptr<f32, gm>, i64, i64, i64, i64
    return
  }
}
`;

test('compare, select, predicate logic, vneg, vadds and a broadcast load, run', () => {
  const x = Float32Array.from({ length: 64 }, (_, i) => i - 32);
  const buffers = { in: new GlobalBuffer('in', 'f32', new Uint8Array(x.buffer.slice(0))), out: new GlobalBuffer('out', 'f32', new Uint8Array(256)) };
  runMicroKernel(KERNEL, 'k', buffers);
  const out = Array.from(new Float32Array(buffers.out.bytes.buffer.slice(0)));
  const expected = Array.from({ length: 64 }, (_, i) => (i === 0 ? -32 : i < 32 ? 32 - i : i < 48 ? i - 32 + 100 : 0));
  expect(out).toEqual(expected);
});

test('vshls shifts i32 lanes by an i16 count: (i - 32) << 3 is (i - 32) * 8', () => {
  const text = KERNEL.replace(/f32/g, 'i32')
    .replace('%zero = arith.constant 0.0 : i32', '%zero = arith.constant 0 : i32')
    .replace('%hundred = arith.constant 100.0 : i32', '%three = arith.constant 3 : i16')
    .replace(
      / {6}%neg = [\s\S]*?(?= {6}pto\.vsts)/,
      `      %d = pto.vshls %x, %three, %all : ${I}, i16, ${M} -> ${I}\n      %store = pto.pset_b32 "PAT_ALL" : ${M}\n`,
    );
  const x = Int32Array.from({ length: 64 }, (_, i) => i - 32);
  const buffers = { in: new GlobalBuffer('in', 'i32', new Uint8Array(x.buffer.slice(0))), out: new GlobalBuffer('out', 'i32', new Uint8Array(256)) };
  runMicroKernel(text, 'k', buffers);
  expect(Array.from(new Int32Array(buffers.out.bytes.buffer.slice(0)))).toEqual(Array.from({ length: 64 }, (_, i) => (i - 32) * 8));
});
