/**
 * The reduction and rearrangement rows of spec/micro/vector.json: their verification (VPTO.cpp's verifiers of vcadd,
 * vpack, vsunpack/vzunpack, vdup, vusqz) and a run through the lane semantics, every value derived by hand.
 */
import { GlobalBuffer } from '../../src/machine/memory';
import { microErrors as errors, runMicroKernel } from '../fixtures/micro';

const V = '!pto.vreg<64xf32>';
const I = '!pto.vreg<64xi32>';
const M = '!pto.mask<b32>';

describe('verification', () => {
  test('vcadd widens 8- and 16-bit integers (same signedness), keeps i32/f16/f32, takes no i64 or bf16', () => {
    const params = `%a: !pto.vreg<256xui8>, %b: ${V}, %c: !pto.vreg<32xi64>, %m8: !pto.mask<b8>, %m: ${M}, %m16: !pto.mask<b16>`;
    expect(
      errors(`  %x = pto.vcadd %a, %m8 : !pto.vreg<256xui8>, !pto.mask<b8> -> !pto.vreg<128xui16>\n  %y = pto.vcadd %b, %m : ${V}, ${M} -> ${V}`, params),
    ).toEqual([]);
    expect(errors(`  %x = pto.vcadd %a, %m8 : !pto.vreg<256xui8>, !pto.mask<b8> -> !pto.vreg<256xui8>`, params)).toEqual([
      'E0451: pto.vcadd: expects result type !pto.vreg<128xui16> for input element type ui8, got !pto.vreg<256xui8>',
    ]);
    expect(errors(`  %x = pto.vcadd %b, %m16 : ${V}, !pto.mask<b16> -> ${V}`, params)).toEqual([
      'E0451: pto.vcadd: mask type !pto.mask<b16> does not match input type !pto.vreg<64xf32>; expected !pto.mask<b32>',
    ]);
    expect(errors(`  %x = pto.vcadd %c, %m : !pto.vreg<32xi64>, ${M} -> !pto.vreg<32xi64>`, params)[0]).toBe(
      "E0451: pto.vcadd: 'input' has element type i64; pto.vcadd takes i8, ui8, i16, ui16, i32, ui32, f16, f32",
    );
  });

  test('vpack halves into an unsigned type; an unpack doubles the width, either signedness', () => {
    const params = `%w: ${I}, %h: !pto.vreg<128xi16>, %p: index`;
    expect(
      errors(
        `  %a = pto.vpack %w, "LOWER" : ${I} -> !pto.vreg<128xui16>\n  %b = pto.vzunpack %h, %p : !pto.vreg<128xi16> -> !pto.vreg<64xui32>\n  %c = pto.vsunpack %h, %p : !pto.vreg<128xi16> -> ${I}`,
        params,
      ),
    ).toEqual([]);
    expect(
      errors(`  %a = pto.vpack %w, "MIDDLE" : ${I} -> !pto.vreg<128xi16>\n  %b = pto.vsunpack %h, %p : !pto.vreg<128xi16> -> !pto.vreg<128xi16>`, params),
    ).toEqual([
      'E0451: pto.vpack: \'part\' must be one of LOWER, HIGHER, got "MIDDLE"',
      'E0451: pto.vpack: expects result type !pto.vreg<128xui16> for src element type i32, got !pto.vreg<128xi16>',
      'E0451: pto.vsunpack: expects result type !pto.vreg<64xi32> for src element type i16, got !pto.vreg<128xi16>',
    ]);
  });

  test("vdup: a scalar of the lanes' type, or a register of the result's type; position only for a register", () => {
    const params = `%v: ${V}, %m: ${M}, %f: f32, %i: i32`;
    expect(errors(`  %a = pto.vdup %v, %m {position = "HIGHEST"} : ${V}, ${M} -> ${V}\n  %b = pto.vdup %f, %m : f32, ${M} -> ${V}`, params)).toEqual([]);
    expect(errors(`  %a = pto.vdup %f, %m {position = "HIGHEST"} : f32, ${M} -> ${V}\n  %b = pto.vdup %i, %m : i32, ${M} -> ${V}`, params)).toEqual([
      'E0451: pto.vdup: position is only supported for vector input',
      'E0451: pto.vdup: scalar type i32 must match vector element type f32',
    ]);
  });

  test('vusqz takes signed 8/16/32-bit lanes; vintlv keeps one vector type', () => {
    const params = `%u: !pto.vreg<64xui32>, %v: ${V}, %w: ${I}, %m: ${M}`;
    expect(errors(`  %a = pto.vusqz %u, %m : !pto.vreg<64xui32>, ${M} -> !pto.vreg<64xui32>`, params)[0]).toBe(
      "E0451: pto.vusqz: 'src' has element type ui32; pto.vusqz takes i8, i16, i32",
    );
    expect(errors(`  %a, %b = pto.vintlv %v, %w : ${V}, ${I} -> ${V}, ${V}`, params)).toEqual([
      'E0451: pto.vintlv: requires matching register vector shapes: !pto.vreg<64xf32> and !pto.vreg<64xi32>',
    ]);
  });
});

/**
 * x[i] = i - 32 over 64 f32 lanes; 21 results stored at UB slots of 64 f32 (256 bytes) each, then copied out whole.
 * `%half` is plt_b32(48) (lanes 0..47), `%pos` is x >= 0 (lanes 32..63), `%b` is vbr 2.5.
 */
const SLOTS = 21;
const KERNEL = `module attributes {pto.target_arch = "a5", pto.kernel_kind = #pto.kernel_kind<vector>} {
  func.func @k(%in: !pto.ptr<f32, gm>, %out: !pto.ptr<f32, gm>) attributes {pto.kernel} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
${Array.from({ length: SLOTS }, (_, s) => `    %s${s} = arith.constant ${s * 64} : index`).join('\n')}
    %c0_i64 = arith.constant 0 : i64
    %c256_i64 = arith.constant 256 : i64
    %c1_i64 = arith.constant 1 : i64
    %cout_i64 = arith.constant ${SLOTS * 256} : i64
    %c48 = arith.constant 48 : i32
    %c100 = arith.constant 100 : i32
    %zero = arith.constant 0.0 : f32
    %f2_5 = arith.constant 2.5 : f32
    %f10 = arith.constant 10.0 : f32
    %i7 = arith.constant 7 : i32
    %im40 = arith.constant -40 : i32
    %hm64 = arith.constant -64 : i16
    %b1 = arith.constant 1 : i8
    %ub_in = pto.castptr %c0_i64 : i64 -> !pto.ptr<f32, ub>
    %ub_out = pto.castptr %c256_i64 : i64 -> !pto.ptr<f32, ub>
    pto.mte_gm_ub %in, %ub_in, %c0_i64, %c256_i64 nburst(%c1_i64, %c256_i64, %c256_i64)
      : !pto.ptr<f32, gm>, !pto.ptr<f32, ub>, i64, i64, i64, i64, i64
    pto.set_flag["PIPE_MTE2", "PIPE_V", "EVENT_ID0"]
    pto.wait_flag["PIPE_MTE2", "PIPE_V", "EVENT_ID0"]
    pto.vecscope {
      %all = pto.pset_b32 "PAT_ALL" : ${M}
      %all16 = pto.pset_b16 "PAT_ALL" : !pto.mask<b16>
      %half, %rest = pto.plt_b32 %c48 : i32 -> ${M}, i32
      %first100, %rest8 = pto.plt_b8 %c100 : i32 -> !pto.mask<b8>, i32
      %x = pto.vlds %ub_in[%c0] : !pto.ptr<f32, ub> -> ${V}
      %pos = pto.vcmps %x, %zero, %all, "ge" : ${V}, f32, ${M} -> ${M}
      %r0 = pto.vcadd %x, %all : ${V}, ${M} -> ${V}
      %r1 = pto.vcmax %x, %half : ${V}, ${M} -> ${V}
      %r2 = pto.vcmin %x, %all : ${V}, ${M} -> ${V}
      %r3 = pto.vcgadd %x, %all : ${V}, ${M} -> ${V}
      %r4 = pto.vcgmax %x, %all : ${V}, ${M} -> ${V}
      %r5 = pto.vcgmin %x, %all : ${V}, ${M} -> ${V}
      %r6 = pto.vcpadd %x, %all : ${V}, ${M} -> ${V}
      %b = pto.vbr %f2_5 : f32 -> ${V}
      %r7 = pto.vdup %f2_5, %half : f32, ${M} -> ${V}
      %r8 = pto.vdup %x, %all {position = "HIGHEST"} : ${V}, ${M} -> ${V}
      %r9 = pto.vci %f10 {order = "DESC"} : f32 -> ${V}
      %r10, %r11 = pto.vintlv %x, %b : ${V}, ${V} -> ${V}, ${V}
      %r12, %r13 = pto.vdintlv %r10, %r11 : ${V}, ${V} -> ${V}, ${V}
      %r14 = pto.vsqz %x, %pos : ${V}, ${M} -> ${V}
      %sevens = pto.vbr %i7 : i32 -> ${I}
      %r15 = pto.vusqz %sevens, %pos : ${I}, ${M} -> ${I}
      %r16 = pto.vci %hm64 : i16 -> !pto.vreg<128xi16>
      %r17 = pto.vsunpack %r16, %c0 : !pto.vreg<128xi16> -> ${I}
      %r18 = pto.vzunpack %r16, %c0 : !pto.vreg<128xi16> -> !pto.vreg<64xui32>
      %w = pto.vci %im40 {order = "ASC"} : i32 -> ${I}
      %r19 = pto.vpack %w, "HIGHER" : ${I} -> !pto.vreg<128xui16>
      %bytes = pto.vci %b1 : i8 -> !pto.vreg<256xi8>
      %r20 = pto.vcadd %bytes, %first100 : !pto.vreg<256xi8>, !pto.mask<b8> -> !pto.vreg<128xi16>
${Array.from({ length: 15 }, (_, s) => `      pto.vsts %r${s}, %ub_out[%s${s}], %all : ${V}, !pto.ptr<f32, ub>, ${M}`).join('\n')}
      pto.vsts %r15, %ub_out[%s15], %all : ${I}, !pto.ptr<f32, ub>, ${M}
      pto.vsts %r16, %ub_out[%s16], %all16 : !pto.vreg<128xi16>, !pto.ptr<f32, ub>, !pto.mask<b16>
      pto.vsts %r17, %ub_out[%s17], %all : ${I}, !pto.ptr<f32, ub>, ${M}
      pto.vsts %r18, %ub_out[%s18], %all : !pto.vreg<64xui32>, !pto.ptr<f32, ub>, ${M}
      pto.vsts %r19, %ub_out[%s19], %all16 : !pto.vreg<128xui16>, !pto.ptr<f32, ub>, !pto.mask<b16>
      pto.vsts %r20, %ub_out[%s20], %all16 : !pto.vreg<128xi16>, !pto.ptr<f32, ub>, !pto.mask<b16>
    }
    pto.set_flag["PIPE_V", "PIPE_MTE3", "EVENT_ID0"]
    pto.wait_flag["PIPE_V", "PIPE_MTE3", "EVENT_ID0"]
    pto.mte_ub_gm %ub_out, %out, %cout_i64 nburst(%c1_i64, %cout_i64, %cout_i64)
      : !pto.ptr<f32, ub>, !pto.ptr<f32, gm>, i64, i64, i64, i64
    return
  }
}
`;

test('reductions and rearrangements, run', () => {
  const x = Float32Array.from({ length: 64 }, (_, i) => i - 32);
  const buffers = {
    in: new GlobalBuffer('in', 'f32', new Uint8Array(x.buffer.slice(0))),
    out: new GlobalBuffer('out', 'f32', new Uint8Array(SLOTS * 256)),
  };
  runMicroKernel(KERNEL, 'k', buffers);
  const bytes = buffers.out.bytes.buffer.slice(0);
  const f32 = (s: number) => Array.from(new Float32Array(bytes, s * 256, 64));
  const u32 = (s: number) => Array.from(new Uint32Array(bytes, s * 256, 64));
  const i32 = (s: number) => Array.from(new Int32Array(bytes, s * 256, 64));
  const i16 = (s: number) => Array.from(new Int16Array(bytes, s * 256, 128));
  const u16 = (s: number) => Array.from(new Uint16Array(bytes, s * 256, 128));
  const lanes = <T>(n: number, f: (i: number) => T) => Array.from({ length: n }, (_, i) => f(i));
  const front = (values: number[], n = 64) => lanes(n, (i) => values[i] ?? 0);

  // sum(i - 32, i < 64) = 2016 - 2048.
  expect(f32(0)).toEqual(front([-32]));
  // Lanes 0..47 hold -32..15: the max is 15 at lane 47; over all lanes the min is -32 at lane 0. Lane 1 is the index's bits.
  expect(f32(1)[0]).toBe(15);
  expect(u32(1).slice(1)).toEqual(front([47], 63));
  expect(f32(2)[0]).toBe(-32);
  expect(u32(2).slice(1)).toEqual(front([], 63));
  // VLane g holds lanes 8g..8g+7: sum 64g + 28 - 256, max 8g - 25, min 8g - 32.
  expect(f32(3)).toEqual(front(lanes(8, (g) => 64 * g - 228)));
  expect(f32(4)).toEqual(front(lanes(8, (g) => 8 * g - 25)));
  expect(f32(5)).toEqual(front(lanes(8, (g) => 8 * g - 32)));
  // Prefix sums: (i + 1) * i / 2 - 32 * (i + 1).
  expect(f32(6)).toEqual(lanes(64, (i) => ((i + 1) * i) / 2 - 32 * (i + 1)));
  expect(f32(7)).toEqual(lanes(64, (i) => (i < 48 ? 2.5 : 0)));
  expect(f32(8)).toEqual(lanes(64, () => 31));
  expect(f32(9)).toEqual(lanes(64, (i) => 10 - i));
  // vintlv of x and 2.5s: low x[0], 2.5, x[1], 2.5, ... (x[0..31]); high the same over x[32..63]. vdintlv undoes it.
  expect(f32(10)).toEqual(lanes(64, (i) => (i % 2 ? 2.5 : (i >> 1) - 32)));
  expect(f32(11)).toEqual(lanes(64, (i) => (i % 2 ? 2.5 : i >> 1)));
  expect(f32(12)).toEqual(Array.from(x));
  expect(f32(13)).toEqual(lanes(64, () => 2.5));
  // vsqz: x's lanes 32..63 (0..31) to the front. vusqz: the active lanes before lane i, max(0, i - 32).
  expect(f32(14)).toEqual(front(lanes(32, (i) => i)));
  expect(i32(15)).toEqual(lanes(64, (i) => Math.max(0, i - 32)));
  // vci of -64 over 128 i16 lanes; its first half (-64..-1) sign- and zero-extended; vpack HIGHER of i - 40.
  expect(i16(16)).toEqual(lanes(128, (i) => i - 64));
  expect(i32(17)).toEqual(lanes(64, (i) => i - 64));
  expect(u32(18)).toEqual(lanes(64, (i) => 65536 + i - 64));
  expect(u16(19)).toEqual(lanes(128, (i) => (i < 64 ? 0 : (i - 64 - 40 + 65536) % 65536)));
  // i8 lanes 1, 2, ..., the first 100 active: 5050 does not fit in i8, vcadd sums into an i16.
  expect(i16(20)).toEqual(front([5050], 128));
});

test('vintlvv2/vdintlvv2 (LOWER or HIGHER of one vector type), vaddreluconv/vmulconv (lhs and rhs one type) verify; their runs trap', () => {
  const params = '%a: !pto.vreg<64xi32>, %b: !pto.vreg<64xf32>, %h: !pto.vreg<128xf16>';
  expect(errors('  %r = pto.vintlvv2 %a, %a, "LOWER" : !pto.vreg<64xi32>, !pto.vreg<64xi32> -> !pto.vreg<64xi32>', params)).toEqual([]);
  expect(errors('  %r = pto.vdintlvv2 %a, %a, "EVEN" : !pto.vreg<64xi32>, !pto.vreg<64xi32> -> !pto.vreg<64xi32>', params)).toEqual([
    'E0451: pto.vdintlvv2: \'part\' must be one of LOWER, HIGHER, got "EVEN"',
  ]);
  expect(errors('  %r = pto.vmulconv %b, %b : !pto.vreg<64xf32>, !pto.vreg<64xf32> -> !pto.vreg<128xf16>', params)).toEqual([]);
  expect(errors('  %r = pto.vaddreluconv %b, %h : !pto.vreg<64xf32>, !pto.vreg<128xf16> -> !pto.vreg<128xf16>', params)).toEqual([
    'E0451: pto.vaddreluconv: requires matching register vector shapes: !pto.vreg<64xf32> and !pto.vreg<128xf16>',
  ]);
});
