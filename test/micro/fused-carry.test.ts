/**
 * The rows of vshl/vshr, vaddc/vsubc/vaddcs/vsubcs, vbitcast, vmula, vmull, vaxpy and vexpdif in
 * spec/micro/vector.json: their verification (VPTO.cpp's verifyShiftVecOp, verifyCarryVecOp, VexpdifOp/VaxpyOp
 * verifiers) and runs whose every value is derived by hand.
 */
import { GlobalBuffer } from '../../src/machine/memory';
import { microErrors as errors, runMicroKernel } from '../fixtures/micro';

/**
 * Runs `body` inside a vecscope with UB byte 0 holding `input` (as many bytes as given, a multiple of 32) and returns
 * `outBytes` bytes from UB byte 4096. The body names its pointers with pto.castptr of %in0 (0) and %out0 (4096).
 */
function run(body: string, input: Uint8Array, outBytes: number): Uint8Array {
  const kernel = `module attributes {pto.target_arch = "a5", pto.kernel_kind = #pto.kernel_kind<vector>} {
  func.func @k(%in: !pto.ptr<ui8, gm>, %out: !pto.ptr<ui8, gm>) attributes {pto.kernel} {
    %c0 = arith.constant 0 : index
    %in0 = arith.constant 0 : i64
    %out0 = arith.constant 4096 : i64
    %c1_i64 = arith.constant 1 : i64
    %nin = arith.constant ${input.length} : i64
    %nout = arith.constant ${outBytes} : i64
    %ub_in = pto.castptr %in0 : i64 -> !pto.ptr<ui8, ub>
    %ub_out = pto.castptr %out0 : i64 -> !pto.ptr<ui8, ub>
    pto.mte_gm_ub %in, %ub_in, %in0, %nin nburst(%c1_i64, %nin, %nin) : !pto.ptr<ui8, gm>, !pto.ptr<ui8, ub>, i64, i64, i64, i64, i64
    pto.set_flag["PIPE_MTE2", "PIPE_V", "EVENT_ID0"]
    pto.wait_flag["PIPE_MTE2", "PIPE_V", "EVENT_ID0"]
    pto.vecscope {
${body}
    }
    pto.set_flag["PIPE_V", "PIPE_MTE3", "EVENT_ID0"]
    pto.wait_flag["PIPE_V", "PIPE_MTE3", "EVENT_ID0"]
    pto.mte_ub_gm %ub_out, %out, %nout nburst(%c1_i64, %nout, %nout) : !pto.ptr<ui8, ub>, !pto.ptr<ui8, gm>, i64, i64, i64, i64
    return
  }
}
`;
  const buffers = { in: new GlobalBuffer('in', 'u8', input.slice()), out: new GlobalBuffer('out', 'u8', new Uint8Array(outBytes)) };
  runMicroKernel(kernel, 'k', buffers);
  return buffers.out.bytes;
}

const bytesOf = (a: ArrayBufferView) => new Uint8Array(a.buffer.slice(0));

test('verification: shift counts are signed lanes of the width, carries 32-bit integer lanes, vexpdif f32 out', () => {
  const params =
    '%u: !pto.vreg<128xui16>, %s: !pto.vreg<128xi16>, %n: !pto.vreg<128xsi16>, %w: !pto.vreg<64xi32>, %f: !pto.vreg<64xf32>, %m16: !pto.mask<b16>, %m: !pto.mask<b32>';
  // A signed (siN) count only: a signless one is refused too (PTOAS's vshift_mixed_signedness_verify, signless_rhs).
  expect(errors('  %a = pto.vshl %u, %n, %m16 : !pto.vreg<128xui16>, !pto.vreg<128xsi16>, !pto.mask<b16> -> !pto.vreg<128xui16>', params)).toEqual([]);
  expect(errors('  %a = pto.vshl %u, %s, %m16 : !pto.vreg<128xui16>, !pto.vreg<128xi16>, !pto.mask<b16> -> !pto.vreg<128xui16>', params)).toEqual([
    'E0451: pto.vshl: requires shift count to use a signed integer element type',
  ]);
  expect(errors('  %a = pto.vshr %s, %u, %m16 : !pto.vreg<128xi16>, !pto.vreg<128xui16>, !pto.mask<b16> -> !pto.vreg<128xi16>', params)).toEqual([
    'E0451: pto.vshr: requires shift count to use a signed integer element type',
  ]);
  expect(errors('  %a = pto.vshl %u, %w, %m16 : !pto.vreg<128xui16>, !pto.vreg<64xi32>, !pto.mask<b16> -> !pto.vreg<128xui16>', params)).toEqual([
    'E0451: pto.vshl: requires shift count with matching element bitwidth',
  ]);
  expect(
    errors('  %a, %c = pto.vaddc %s, %s, %m16 : !pto.vreg<128xi16>, !pto.vreg<128xi16>, !pto.mask<b16> -> !pto.vreg<128xi16>, !pto.mask<b16>', params)[0],
  ).toBe("E0451: pto.vaddc: 'lhs' has element type i16; pto.vaddc takes i32, ui32");
  expect(errors('  %a = pto.vexpdif %f, %f, %m, "ODD" : !pto.vreg<64xf32>, !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xi32>', params)).toEqual([
    "E0451: pto.vexpdif: result 'result' has element type i32; pto.vexpdif takes f16, f32",
    'E0451: pto.vexpdif: requires f32 result vector element type',
  ]);
});

test('vmula f32 rounds once: (1 + 2^-12)^2 - 1 = 2^-11 + 2^-24, which a vmul then vadd rounds to 2^-11', () => {
  const x = 1 + 2 ** -12;
  const input = bytesOf(Float32Array.from([...Array(64).fill(-1), ...Array(64).fill(x)]));
  const out = run(
    `      %all = pto.pset_b32 "PAT_ALL" : !pto.mask<b32>
      %p = pto.castptr %in0 : i64 -> !pto.ptr<f32, ub>
      %o = pto.castptr %out0 : i64 -> !pto.ptr<f32, ub>
      %c64 = arith.constant 64 : index
      %acc = pto.vlds %p[%c0] : !pto.ptr<f32, ub> -> !pto.vreg<64xf32>
      %x = pto.vlds %p[%c64] : !pto.ptr<f32, ub> -> !pto.vreg<64xf32>
      %r = pto.vmula %acc, %x, %x, %all : !pto.vreg<64xf32>, !pto.vreg<64xf32>, !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>
      pto.vsts %r, %o[%c0], %all : !pto.vreg<64xf32>, !pto.ptr<f32, ub>, !pto.mask<b32>`,
    input,
    256,
  );
  expect(Array.from(new Float32Array(out.buffer.slice(0)))).toEqual(Array(64).fill(2 ** -11 + 2 ** -24));
});

test('vmull: -3 * 2^30 as i32 gives low 2^30, high -1; as ui32 0xffffffff * 2 gives low 0xfffffffe, high 1', () => {
  const input = bytesOf(Uint32Array.from([...Array(64).fill(0xfffffffd), ...Array(64).fill(0x40000000), ...Array(64).fill(0xffffffff), ...Array(64).fill(2)]));
  const out = run(
    `      %all = pto.pset_b32 "PAT_ALL" : !pto.mask<b32>
      %p = pto.castptr %in0 : i64 -> !pto.ptr<i32, ub>
      %q = pto.castptr %in0 : i64 -> !pto.ptr<ui32, ub>
      %o = pto.castptr %out0 : i64 -> !pto.ptr<i32, ub>
      %ou = pto.castptr %out0 : i64 -> !pto.ptr<ui32, ub>
      %c64 = arith.constant 64 : index
      %c128 = arith.constant 128 : index
      %c192 = arith.constant 192 : index
      %a = pto.vlds %p[%c0] : !pto.ptr<i32, ub> -> !pto.vreg<64xi32>
      %b = pto.vlds %p[%c64] : !pto.ptr<i32, ub> -> !pto.vreg<64xi32>
      %lo, %hi = pto.vmull %a, %b, %all : !pto.vreg<64xi32>, !pto.vreg<64xi32>, !pto.mask<b32> -> !pto.vreg<64xi32>, !pto.vreg<64xi32>
      pto.vsts %lo, %o[%c0], %all : !pto.vreg<64xi32>, !pto.ptr<i32, ub>, !pto.mask<b32>
      pto.vsts %hi, %o[%c64], %all : !pto.vreg<64xi32>, !pto.ptr<i32, ub>, !pto.mask<b32>
      %c = pto.vlds %q[%c128] : !pto.ptr<ui32, ub> -> !pto.vreg<64xui32>
      %d = pto.vlds %q[%c192] : !pto.ptr<ui32, ub> -> !pto.vreg<64xui32>
      %ulo, %uhi = pto.vmull %c, %d, %all : !pto.vreg<64xui32>, !pto.vreg<64xui32>, !pto.mask<b32> -> !pto.vreg<64xui32>, !pto.vreg<64xui32>
      pto.vsts %ulo, %ou[%c128], %all : !pto.vreg<64xui32>, !pto.ptr<ui32, ub>, !pto.mask<b32>
      pto.vsts %uhi, %ou[%c192], %all : !pto.vreg<64xui32>, !pto.ptr<ui32, ub>, !pto.mask<b32>`,
    input,
    1024,
  );
  const words = Array.from(new Uint32Array(out.buffer.slice(0)));
  expect(words.slice(0, 64)).toEqual(Array(64).fill(0x40000000));
  expect(words.slice(64, 128)).toEqual(Array(64).fill(0xffffffff));
  expect(words.slice(128, 192)).toEqual(Array(64).fill(0xfffffffe));
  expect(words.slice(192)).toEqual(Array(64).fill(1));
});

test('vaddc/vaddcs carries, vsubc borrows; vbitcast reads the bits again; the carry mask stored as its bits', () => {
  // lhs = 0xffffffff in lanes 0..31 and 5 in 32..63; rhs = 1 everywhere.
  const input = bytesOf(Uint32Array.from([...Array(32).fill(0xffffffff), ...Array(32).fill(5), ...Array(64).fill(1)]));
  const out = run(
    `      %all = pto.pset_b32 "PAT_ALL" : !pto.mask<b32>
      %p = pto.castptr %in0 : i64 -> !pto.ptr<ui32, ub>
      %o = pto.castptr %out0 : i64 -> !pto.ptr<ui32, ub>
      %c64 = arith.constant 64 : index
      %c128 = arith.constant 128 : index
      %c192 = arith.constant 192 : index
      %a = pto.vlds %p[%c0] : !pto.ptr<ui32, ub> -> !pto.vreg<64xui32>
      %b = pto.vlds %p[%c64] : !pto.ptr<ui32, ub> -> !pto.vreg<64xui32>
      %s, %carry = pto.vaddc %a, %b, %all : !pto.vreg<64xui32>, !pto.vreg<64xui32>, !pto.mask<b32> -> !pto.vreg<64xui32>, !pto.mask<b32>
      %t, %carry2 = pto.vaddcs %a, %b, %carry, %all : !pto.vreg<64xui32>, !pto.vreg<64xui32>, !pto.mask<b32>, !pto.mask<b32> -> !pto.vreg<64xui32>, !pto.mask<b32>
      %d, %noborrow = pto.vsubc %b, %a, %all : !pto.vreg<64xui32>, !pto.vreg<64xui32>, !pto.mask<b32> -> !pto.vreg<64xui32>, !pto.mask<b32>
      %f = pto.vbitcast %s : !pto.vreg<64xui32> -> !pto.vreg<64xf32>
      %g = pto.vbitcast %f : !pto.vreg<64xf32> -> !pto.vreg<64xui32>
      pto.vsts %g, %o[%c0], %all : !pto.vreg<64xui32>, !pto.ptr<ui32, ub>, !pto.mask<b32>
      pto.vsts %t, %o[%c64], %all : !pto.vreg<64xui32>, !pto.ptr<ui32, ub>, !pto.mask<b32>
      pto.vsts %d, %o[%c128], %all : !pto.vreg<64xui32>, !pto.ptr<ui32, ub>, !pto.mask<b32>
      %ones = pto.vdup %c1, %carry2 : i32, !pto.mask<b32> -> !pto.vreg<64xui32>
      pto.vsts %ones, %o[%c192], %all : !pto.vreg<64xui32>, !pto.ptr<ui32, ub>, !pto.mask<b32>`
      .replace('%c1,', '%one,')
      .replace('      %all', '      %one = arith.constant 1 : i32\n      %all'),
    input,
    1024,
  );
  const words = Array.from(new Uint32Array(out.buffer.slice(0)));
  // s: 0 with a carry in lanes 0..31, 6 without in 32..63; t = a + b + carry: 1 and 6, carry2 again in 0..31 only.
  expect(words.slice(0, 64)).toEqual([...Array(32).fill(0), ...Array(32).fill(6)]);
  expect(words.slice(64, 128)).toEqual([...Array(32).fill(1), ...Array(32).fill(6)]);
  // 1 - 0xffffffff wraps to 2; 1 - 5 wraps to 0xfffffffc.
  expect(words.slice(128, 192)).toEqual([...Array(32).fill(2), ...Array(32).fill(0xfffffffc)]);
  expect(words.slice(192)).toEqual([...Array(32).fill(1), ...Array(32).fill(0)]);
});

test('vaxpy f32: 0.125 * x + y; vexpdif f16 EVEN/ODD: exp(x - max) of lanes 2i and 2i + 1 in f32 lane i', () => {
  const f16 = (v: number) => (v === 0 ? 0 : v === 1 ? 0x3c00 : v === 2 ? 0x4000 : NaN);
  // f16 input: lane 2i = 1, lane 2i + 1 = 2; max: all 1. EVEN: exp(0) = 1; ODD: exp(1) = e rounded to f32.
  const halves = Uint16Array.from(Array.from({ length: 128 }, (_, i) => f16(i % 2 === 0 ? 1 : 2)));
  const maxes = Uint16Array.from(Array(128).fill(f16(1)));
  const xs = Float32Array.from(Array.from({ length: 64 }, (_, i) => i));
  const ys = Float32Array.from(Array(64).fill(0.5));
  const input = new Uint8Array(1024);
  input.set(bytesOf(halves), 0);
  input.set(bytesOf(maxes), 256);
  input.set(bytesOf(xs), 512);
  input.set(bytesOf(ys), 768);
  const out = run(
    `      %all = pto.pset_b32 "PAT_ALL" : !pto.mask<b32>
      %all16 = pto.pset_b16 "PAT_ALL" : !pto.mask<b16>
      %h = pto.castptr %in0 : i64 -> !pto.ptr<f16, ub>
      %p = pto.castptr %in0 : i64 -> !pto.ptr<f32, ub>
      %o = pto.castptr %out0 : i64 -> !pto.ptr<f32, ub>
      %c64 = arith.constant 64 : index
      %c128 = arith.constant 128 : index
      %c192 = arith.constant 192 : index
      %alpha = arith.constant 0.125 : f32
      %src = pto.vlds %h[%c0] : !pto.ptr<f16, ub> -> !pto.vreg<128xf16>
      %mx = pto.vlds %h[%c128] : !pto.ptr<f16, ub> -> !pto.vreg<128xf16>
      %ev = pto.vexpdif %src, %mx, %all16, "EVEN" : !pto.vreg<128xf16>, !pto.vreg<128xf16>, !pto.mask<b16> -> !pto.vreg<64xf32>
      %od = pto.vexpdif %src, %mx, %all16, "ODD" : !pto.vreg<128xf16>, !pto.vreg<128xf16>, !pto.mask<b16> -> !pto.vreg<64xf32>
      %x = pto.vlds %p[%c128] : !pto.ptr<f32, ub> -> !pto.vreg<64xf32>
      %y = pto.vlds %p[%c192] : !pto.ptr<f32, ub> -> !pto.vreg<64xf32>
      %z = pto.vaxpy %x, %y, %alpha, %all : !pto.vreg<64xf32>, !pto.vreg<64xf32>, f32, !pto.mask<b32> -> !pto.vreg<64xf32>
      pto.vsts %ev, %o[%c0], %all : !pto.vreg<64xf32>, !pto.ptr<f32, ub>, !pto.mask<b32>
      pto.vsts %od, %o[%c64], %all : !pto.vreg<64xf32>, !pto.ptr<f32, ub>, !pto.mask<b32>
      pto.vsts %z, %o[%c128], %all : !pto.vreg<64xf32>, !pto.ptr<f32, ub>, !pto.mask<b32>`,
    input,
    768,
  );
  const words = Array.from(new Uint32Array(out.buffer.slice(0)));
  const floats = Array.from(new Float32Array(out.buffer.slice(0)));
  expect(floats.slice(0, 64)).toEqual(Array(64).fill(1));
  // e = 2.718281828...: f32 0x402df854 (1.35914087 * 2); the next up 0x402df855 is farther.
  expect(words.slice(64, 128)).toEqual(Array(64).fill(0x402df854));
  // 0.125 * i + 0.5 is exact in f32.
  expect(floats.slice(128, 192)).toEqual(Array.from({ length: 64 }, (_, i) => 0.125 * i + 0.5));
});

test('vmadd f32 rounds once: acc * lhs + rhs with acc = lhs = 1 + 2^-12, rhs = -1 gives 2^-11 + 2^-24', () => {
  const x = 1 + 2 ** -12;
  const input = bytesOf(Float32Array.from([...Array(64).fill(x), ...Array(64).fill(-1)]));
  const out = run(
    `      %all = pto.pset_b32 "PAT_ALL" : !pto.mask<b32>
      %p = pto.castptr %in0 : i64 -> !pto.ptr<f32, ub>
      %o = pto.castptr %out0 : i64 -> !pto.ptr<f32, ub>
      %c64 = arith.constant 64 : index
      %x = pto.vlds %p[%c0] : !pto.ptr<f32, ub> -> !pto.vreg<64xf32>
      %m1 = pto.vlds %p[%c64] : !pto.ptr<f32, ub> -> !pto.vreg<64xf32>
      %r = pto.vmadd %x, %x, %m1, %all : !pto.vreg<64xf32>, !pto.vreg<64xf32>, !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>
      pto.vsts %r, %o[%c0], %all : !pto.vreg<64xf32>, !pto.ptr<f32, ub>, !pto.mask<b32>`,
    input,
    256,
  );
  expect(Array.from(new Float32Array(out.buffer.slice(0)))).toEqual(Array(64).fill(2 ** -11 + 2 ** -24));
});

test('verification: vmulscvt takes rnd A and part EVEN/ODD, f32 in and f16 out; the histogram ops take 16-bit bins', () => {
  const params = '%v: !pto.vreg<64xf32>, %s: f32, %m: !pto.mask<b32>, %acc: !pto.vreg<128xui16>, %src: !pto.vreg<256xui8>, %m8: !pto.mask<b8>, %bin: i32';
  expect(errors('  %a = pto.vmulscvt %v, %s, %m, "A", "EVEN" : !pto.vreg<64xf32>, f32, !pto.mask<b32> -> !pto.vreg<128xf16>', params)).toEqual([]);
  expect(errors('  %a = pto.vmulscvt %v, %s, %m, "R", "P0" : !pto.vreg<64xf32>, f32, !pto.mask<b32> -> !pto.vreg<128xf16>', params)).toEqual([
    'E0451: pto.vmulscvt: \'rnd\' must be one of A, ROUND_A, got "R"',
    'E0451: pto.vmulscvt: \'part\' must be one of EVEN, ODD, PART_EVEN, PART_ODD, got "P0"',
  ]);
  expect(
    errors('  %a = pto.chistv2 %acc, %src, %m8, %bin : !pto.vreg<128xui16>, !pto.vreg<256xui8>, !pto.mask<b8>, i32 -> !pto.vreg<128xui16>', params),
  ).toEqual([]);
  expect(
    errors('  %a = pto.dhistv2 %src, %src, %m8, %bin : !pto.vreg<256xui8>, !pto.vreg<256xui8>, !pto.mask<b8>, i32 -> !pto.vreg<128xui16>', params),
  ).toEqual(['E0451: pto.dhistv2: requires acc type to be !pto.vreg<128xi16>']);
});

test('vmulscvt: x * 0.5 rounded once to f16 with ties away (1 + 2^-11 -> 0x3c01, not RNE 0x3c00), into the EVEN lanes', () => {
  const x = 2 + 2 ** -10;
  const input = bytesOf(Float32Array.from([x, -x, 3, ...Array(61).fill(7)]));
  const out = run(
    `      %three = arith.constant 3 : i32
      %m, %rest = pto.plt_b32 %three : i32 -> !pto.mask<b32>, i32
      %all16 = pto.pset_b16 "PAT_ALL" : !pto.mask<b16>
      %half = arith.constant 0.5 : f32
      %p = pto.castptr %in0 : i64 -> !pto.ptr<f32, ub>
      %o = pto.castptr %out0 : i64 -> !pto.ptr<f16, ub>
      %v = pto.vlds %p[%c0] : !pto.ptr<f32, ub> -> !pto.vreg<64xf32>
      %h = pto.vmulscvt %v, %half, %m, "A", "PART_EVEN" : !pto.vreg<64xf32>, f32, !pto.mask<b32> -> !pto.vreg<128xf16>
      pto.vsts %h, %o[%c0], %all16 : !pto.vreg<128xf16>, !pto.ptr<f16, ub>, !pto.mask<b16>`,
    input,
    256,
  );
  const halves = Array.from(new Uint16Array(out.buffer.slice(0)));
  // Lanes 0..2 to f16 lanes 0, 2, 4: 0x3c01, its negative 0xbc01, 1.5 = 0x3e00; inactive lanes and odd lanes zero.
  expect(halves).toEqual([0x3c01, 0, 0xbc01, 0, 0x3e00, ...Array(123).fill(0)]);
});
