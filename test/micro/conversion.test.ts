/**
 * The conversion rows of spec/micro/vector.json (vtrc): verification by VPTO.cpp's VtrcOp parser and verifier, and a
 * run through the lane semantics, every value derived by hand.
 */
import { GlobalBuffer } from '../../src/machine/memory';
import { microErrors as errors, runMicroKernel } from '../fixtures/micro';

const V = '!pto.vreg<64xf32>';
const M = '!pto.mask<b32>';

test('vtrc: f16/bf16/f32 lanes kept, a mask of their width, round modes R/A/F/C/Z or ROUND_R..ROUND_Z', () => {
  const params = `%v: ${V}, %i: !pto.vreg<64xi32>, %m: ${M}, %m16: !pto.mask<b16>`;
  expect(errors(`  %a = pto.vtrc %v, %m, "ROUND_F" : ${V}, ${M} -> ${V}`, params)).toEqual([]);
  expect(
    errors(`  %a = pto.vtrc %v, %m16, "O" : ${V}, !pto.mask<b16> -> ${V}\n  %b = pto.vtrc %i, %m, "R" : !pto.vreg<64xi32>, ${M} -> !pto.vreg<64xi32>`, params),
  ).toEqual([
    'E0451: pto.vtrc: mask type !pto.mask<b16> does not match input type !pto.vreg<64xf32>; expected !pto.mask<b32>',
    'E0451: pto.vtrc: \'round_mode\' must be one of R, A, F, C, Z, ROUND_R, ROUND_A, ROUND_F, ROUND_C, ROUND_Z, got "O"',
    "E0451: pto.vtrc: 'input' has element type i32; pto.vtrc takes f16, bf16, f32",
    "E0451: pto.vtrc: result 'result' has element type i32; pto.vtrc takes f16, bf16, f32",
  ]);
});

/** x[i] = (i - 32) / 4 (fractions 0, .25, .5, .75 of both signs) rounded by each mode, lanes 48..63 inactive. */
const MODES = ['R', 'A', 'F', 'C', 'ROUND_Z'];
const KERNEL = `module attributes {pto.target_arch = "a5", pto.kernel_kind = #pto.kernel_kind<vector>} {
  func.func @k(%in: !pto.ptr<f32, gm>, %out: !pto.ptr<f32, gm>) attributes {pto.kernel} {
    %c0 = arith.constant 0 : index
${MODES.map((_, s) => `    %s${s} = arith.constant ${s * 64} : index`).join('\n')}
    %c0_i64 = arith.constant 0 : i64
    %c256_i64 = arith.constant 256 : i64
    %c1_i64 = arith.constant 1 : i64
    %cout_i64 = arith.constant ${MODES.length * 256} : i64
    %c48 = arith.constant 48 : i32
    %ub_in = pto.castptr %c0_i64 : i64 -> !pto.ptr<f32, ub>
    %ub_out = pto.castptr %c256_i64 : i64 -> !pto.ptr<f32, ub>
    pto.mte_gm_ub %in, %ub_in, %c0_i64, %c256_i64 nburst(%c1_i64, %c256_i64, %c256_i64)
      : !pto.ptr<f32, gm>, !pto.ptr<f32, ub>, i64, i64, i64, i64, i64
    pto.set_flag["PIPE_MTE2", "PIPE_V", "EVENT_ID0"]
    pto.wait_flag["PIPE_MTE2", "PIPE_V", "EVENT_ID0"]
    pto.vecscope {
      %all = pto.pset_b32 "PAT_ALL" : ${M}
      %half, %rest = pto.plt_b32 %c48 : i32 -> ${M}, i32
      %x = pto.vlds %ub_in[%c0] : !pto.ptr<f32, ub> -> ${V}
${MODES.map((m, s) => `      %r${s} = pto.vtrc %x, %half, "${m}" : ${V}, ${M} -> ${V}\n      pto.vsts %r${s}, %ub_out[%s${s}], %all : ${V}, !pto.ptr<f32, ub>, ${M}`).join('\n')}
    }
    pto.set_flag["PIPE_V", "PIPE_MTE3", "EVENT_ID0"]
    pto.wait_flag["PIPE_V", "PIPE_MTE3", "EVENT_ID0"]
    pto.mte_ub_gm %ub_out, %out, %cout_i64 nburst(%c1_i64, %cout_i64, %cout_i64)
      : !pto.ptr<f32, ub>, !pto.ptr<f32, gm>, i64, i64, i64, i64
    return
  }
}
`;

test('vtrc by R, A, F, C and ROUND_Z, run', () => {
  const x = Array.from({ length: 64 }, (_, i) => (i - 32) / 4);
  const buffers = {
    in: new GlobalBuffer('in', 'f32', new Uint8Array(Float32Array.from(x).buffer)),
    out: new GlobalBuffer('out', 'f32', new Uint8Array(MODES.length * 256)),
  };
  runMicroKernel(KERNEL, 'k', buffers);
  const bytes = buffers.out.bytes.buffer.slice(0);
  const slot = (s: number) => Array.from(new Float32Array(bytes, s * 256, 64));
  // Ties (x.5) to the even neighbour for R, away from zero for A; a zero result keeps the input's sign (-0.25 -> -0).
  const even = (v: number) => (v - Math.floor(v) === 0.5 ? (Math.floor(v) % 2 === 0 ? Math.floor(v) : Math.ceil(v)) : Math.round(v));
  const away = (v: number) => Math.sign(v) * Math.floor(Math.abs(v) + 0.5);
  const expected = [even, away, Math.floor, Math.ceil, Math.trunc].map((f) => x.map((v, i) => (i < 48 ? f(v) : 0)));
  expected.forEach((e, s) => expect(slot(s)).toEqual(e));
});

test("vcvt: VPTO.cpp's contract of each (source, result) pair: rnd, sat and part exactly as the pair asks, a mask of the source's width", () => {
  const F16 = '!pto.vreg<128xf16>';
  const I32 = '!pto.vreg<64xi32>';
  const params = `%v: ${V}, %h: ${F16}, %i: ${I32}, %m: ${M}, %m16: !pto.mask<b16>`;
  const ok = [
    `  %a = pto.vcvt %v, %m {rnd = "R", sat = "SAT", part = "EVEN"} : ${V}, ${M} -> ${F16}`,
    `  %b = pto.vcvt %h, %m16 {part = "PART_ODD"} : ${F16}, !pto.mask<b16> -> ${V}`,
    `  %c = pto.vcvt %v, %m {round_mode = "ROUND_F", sat = "RS_ENABLE"} : ${V}, ${M} -> ${I32}`,
    `  %d = pto.vcvt %i, %m {rnd = "Z"} : ${I32}, ${M} -> ${V}`,
    `  %e = pto.vcvt %v, %m {rnd = "A", sat = "SAT", part = "P2"} : ${V}, ${M} -> !pto.vreg<256x!pto.hif8>`,
  ];
  expect(errors(ok.join('\n'), params)).toEqual([]);
  const bad = (line: string) => errors(line, params);
  expect(bad(`  %a = pto.vcvt %v, %m {rnd = "R", sat = "SAT"} : ${V}, ${M} -> !pto.vreg<64xui32>`)).toEqual([
    'E0451: pto.vcvt: unsupported vcvt source/result element type pair (f32 -> ui32)',
  ]);
  expect(bad(`  %a = pto.vcvt %v, %m {rnd = "R", sat = "SAT"} : ${V}, ${M} -> ${F16}`)).toEqual([
    'E0451: pto.vcvt: requires part attr for this vcvt type pair',
  ]);
  expect(bad(`  %a = pto.vcvt %h, %m16 {rnd = "R", part = "EVEN"} : ${F16}, !pto.mask<b16> -> ${V}`)).toEqual([
    'E0451: pto.vcvt: rnd attr is not valid for this vcvt type pair',
  ]);
  expect(bad(`  %a = pto.vcvt %h, %m {part = "EVEN"} : ${F16}, ${M} -> ${V}`)).toEqual([
    'E0451: pto.vcvt: mask type must be !pto.mask<b16> for f16 input, got !pto.mask<b32>',
  ]);
  expect(bad(`  %a = pto.vcvt %h, %m16 {part = "P1"} : ${F16}, !pto.mask<b16> -> ${V}`)).toEqual([
    'E0451: pto.vcvt: part must be EVEN or ODD for 8/16 and 16/32 vcvt forms',
  ]);
  expect(bad(`  %a = pto.vcvt %v, %m {rnd = "F", sat = "SAT", part = "P0"} : ${V}, ${M} -> !pto.vreg<256x!pto.hif8>`)).toEqual([
    'E0451: pto.vcvt: rnd attr is not valid for this vcvt type pair (A/H)',
  ]);
  expect(bad(`  %a = pto.vcvt %i, %m {rnd = "Q"} : ${I32}, ${M} -> ${V}`)).toEqual(["E0451: pto.vcvt: rnd has unsupported value 'Q'"]);
  expect(bad(`  %a = pto.vcvt %i, %m {rnd = "R", round_mode = "R"} : ${I32}, ${M} -> ${V}`)).toEqual([
    'E0451: pto.vcvt: rnd and round_mode cannot be specified together',
  ]);
});

/**
 * f32 -> i32 by floor with saturation, lanes 60..63 inactive; f32 -> f16 EVEN (source lane i to f16 lane 2i, the
 * odd lanes zero).
 */
const VCVT_KERNEL = `module attributes {pto.target_arch = "a5", pto.kernel_kind = #pto.kernel_kind<vector>} {
  func.func @k(%in: !pto.ptr<f32, gm>, %ints: !pto.ptr<i32, gm>, %halves: !pto.ptr<f16, gm>) attributes {pto.kernel} {
    %c0 = arith.constant 0 : index
    %c0_i64 = arith.constant 0 : i64
    %c256_i64 = arith.constant 256 : i64
    %c512_i64 = arith.constant 512 : i64
    %c1_i64 = arith.constant 1 : i64
    %c60 = arith.constant 60 : i32
    %ub_in = pto.castptr %c0_i64 : i64 -> !pto.ptr<f32, ub>
    %ub_int = pto.castptr %c256_i64 : i64 -> !pto.ptr<i32, ub>
    %ub_half = pto.castptr %c512_i64 : i64 -> !pto.ptr<f16, ub>
    pto.mte_gm_ub %in, %ub_in, %c0_i64, %c256_i64 nburst(%c1_i64, %c256_i64, %c256_i64)
      : !pto.ptr<f32, gm>, !pto.ptr<f32, ub>, i64, i64, i64, i64, i64
    pto.set_flag["PIPE_MTE2", "PIPE_V", "EVENT_ID0"]
    pto.wait_flag["PIPE_MTE2", "PIPE_V", "EVENT_ID0"]
    pto.vecscope {
      %all = pto.pset_b32 "PAT_ALL" : ${M}
      %all16 = pto.pset_b16 "PAT_ALL" : !pto.mask<b16>
      %some, %rest = pto.plt_b32 %c60 : i32 -> ${M}, i32
      %x = pto.vlds %ub_in[%c0] : !pto.ptr<f32, ub> -> ${V}
      %i = pto.vcvt %x, %some {rnd = "F", sat = "SAT"} : ${V}, ${M} -> !pto.vreg<64xi32>
      pto.vsts %i, %ub_int[%c0], %all : !pto.vreg<64xi32>, !pto.ptr<i32, ub>, ${M}
      %h = pto.vcvt %x, %all {rnd = "R", sat = "SAT", part = "EVEN"} : ${V}, ${M} -> !pto.vreg<128xf16>
      pto.vsts %h, %ub_half[%c0], %all16 : !pto.vreg<128xf16>, !pto.ptr<f16, ub>, !pto.mask<b16>
    }
    pto.set_flag["PIPE_V", "PIPE_MTE3", "EVENT_ID0"]
    pto.wait_flag["PIPE_V", "PIPE_MTE3", "EVENT_ID0"]
    pto.mte_ub_gm %ub_int, %ints, %c256_i64 nburst(%c1_i64, %c256_i64, %c256_i64)
      : !pto.ptr<i32, ub>, !pto.ptr<i32, gm>, i64, i64, i64, i64
    pto.mte_ub_gm %ub_half, %halves, %c256_i64 nburst(%c1_i64, %c256_i64, %c256_i64)
      : !pto.ptr<f16, ub>, !pto.ptr<f16, gm>, i64, i64, i64, i64
    return
  }
}
`;

test('vcvt f32 -> i32 (floor, saturating) and f32 -> f16 (part EVEN), run', () => {
  // x[i] = (i - 32) * 0.75, except x[0] = 3e9 and x[1] = -3e9 (beyond i32), x[2] = NaN, x[3] = 1/3.
  const x = Array.from({ length: 64 }, (_, i) => (i - 32) * 0.75);
  [x[0], x[1], x[2], x[3]] = [3e9, -3e9, NaN, 1 / 3];
  const buffers = {
    in: new GlobalBuffer('in', 'f32', new Uint8Array(Float32Array.from(x).buffer)),
    ints: new GlobalBuffer('ints', 'i32', new Uint8Array(256)),
    halves: new GlobalBuffer('halves', 'f16', new Uint8Array(256)),
  };
  runMicroKernel(VCVT_KERNEL, 'k', buffers);
  const ints = Array.from(new Int32Array(buffers.ints.bytes.buffer.slice(0)));
  // Saturation: beyond the range to its ends, NaN to 0; floor(1/3) = 0, floor(-0.75 * k) rounds down.
  expect(ints.slice(0, 4)).toEqual([2147483647, -2147483648, 0, 0]);
  expect(ints.slice(4, 60)).toEqual(x.slice(4, 60).map(Math.floor));
  expect(ints.slice(60)).toEqual([0, 0, 0, 0]);
  const halves = Array.from(new Uint16Array(buffers.halves.bytes.buffer.slice(0)));
  // f16 bits by hand: 3e9 saturates to 65504 (0x7bff), -3e9 to -65504 (0xfbff), NaN to 0 under SAT, 1/3 to 0x3555
  // (nearest: 0x3555 = 0.33325, the next 0x3556 = 0.33350); 0.75 = 0x3a00 (lane 33).
  expect(halves.slice(0, 8)).toEqual([0x7bff, 0, 0xfbff, 0, 0, 0, 0x3555, 0]);
  expect(halves[8]).toBe(0xcd40); // x[4] = -21 = -1.3125 * 2^4: sign 1, exponent 19 (10011), mantissa 0x140: 1 10011 0101000000
  expect(halves[66]).toBe(0x3a00); // x[33] = 0.75
  expect(halves.filter((_, k) => k % 2 === 1).every((h) => h === 0)).toBe(true);
});

test('vsts: a packed distribution reads its own mask width (PK_B64: b32), others the value element width', () => {
  const params = `%v: ${V}, %p: !pto.ptr<f32, ub>, %u: !pto.vreg<256xui8>, %q: !pto.ptr<ui8, ub>, %m16: !pto.mask<b16>, %m8: !pto.mask<b8>, %m: ${M}, %c0: index`;
  expect(errors(`  pto.vsts %u, %q[%c0], %m {dist = "PK4_B32"} : !pto.vreg<256xui8>, !pto.ptr<ui8, ub>, ${M}`, params)).toEqual([]);
  expect(errors(`  pto.vsts %u, %q[%c0], %m8 {dist = "PK4_B32"} : !pto.vreg<256xui8>, !pto.ptr<ui8, ub>, !pto.mask<b8>`, params)).toEqual([
    'E0451: pto.vsts: mask type !pto.mask<b8> does not match value type !pto.vreg<256xui8>; expected !pto.mask<b32>',
  ]);
  expect(errors(`  pto.vsts %v, %p[%c0], %m16 {dist = "PK_B64"} : ${V}, !pto.ptr<f32, ub>, !pto.mask<b16>`, params)).toEqual([
    'E0451: pto.vsts: mask type !pto.mask<b16> does not match value type !pto.vreg<64xf32>; expected !pto.mask<b32>',
  ]);
  expect(errors(`  %n = pto.vsts %v, %p[%c0], %m : ${V}, !pto.ptr<f32, ub>, ${M} -> !pto.ptr<i32, ub>`, params)).toEqual([
    'E0451: pto.vsts: requires updated base result to match base type (!pto.ptr<f32, ub>, got !pto.ptr<i32, ub>)',
  ]);
  expect(errors(`  %r, %n = pto.vlds %p[%c0] : !pto.ptr<f32, ub> -> ${V}, !pto.ptr<i32, ub>`, params)).toEqual([
    'E0451: pto.vlds: requires updated base result to match base type (!pto.ptr<f32, ub>, got !pto.ptr<i32, ub>)',
  ]);
});
