/**
 * The second group of VMI ops (spec/micro/vmi-more.json): lib/PTO/IR/VMI.cpp's verifier rules, MLIR's generic form
 * of the ops PTOAS writes only so, and a run whose values are derived by hand below.
 */
import { GlobalBuffer } from '../../src/machine/memory';
import { printCanonical } from '../../src/emit/canonical';
import { assemble } from '../../src/verify/assemble';
import { microErrors as errors, runMicroKernel } from '../fixtures/micro';

const C = '#pto.vmi.layout<contiguous>';
const D2 = '#pto.vmi.layout<deinterleaved = 2>';

describe('verification', () => {
  const params = `%a: !pto.vmi.vreg<128xf32, ${D2}>, %c: !pto.vmi.vreg<128xf32, ${C}>, %v: !pto.vmi.vreg<128xf32>, %m: !pto.vmi.mask<128xpred>, %mb: !pto.vmi.mask<128xb16>`;
  test('unpack and pack: as many physical parts as the layout places lanes in, of its element', () => {
    expect(errors(`  %p0, %p1 = "pto.vmi.unpack"(%a) : (!pto.vmi.vreg<128xf32, ${D2}>) -> (!pto.vreg<64xf32>, !pto.vreg<64xf32>)`, params)).toEqual([]);
    expect(errors(`  %p0 = "pto.vmi.unpack"(%a) : (!pto.vmi.vreg<128xf32, ${D2}>) -> !pto.vreg<64xf32>`, params)).toEqual([
      'E0451: pto.vmi.unpack: requires 2 physical parts, got 1',
    ]);
    // 100 f32 lanes contiguous: 64 + 36, two registers; 8 groups in slots of 8: one.
    expect(
      errors(
        `  %p0, %p1 = "pto.vmi.unpack"(%x) : (!pto.vmi.vreg<100xf32, ${C}>) -> (!pto.vreg<64xf32>, !pto.vreg<64xf32>)
  %q = "pto.vmi.unpack"(%g) : (!pto.vmi.vreg<8xf32, #pto.vmi.layout<num_groups = 8, slots = 8>>) -> !pto.vreg<64xf32>`,
        `%x: !pto.vmi.vreg<100xf32, ${C}>, %g: !pto.vmi.vreg<8xf32, #pto.vmi.layout<num_groups = 8, slots = 8>>`,
      ),
    ).toEqual([]);
    expect(errors(`  %p0 = "pto.vmi.unpack"(%v) : (!pto.vmi.vreg<128xf32>) -> !pto.vreg<64xf32>`, params)).toEqual([
      'E0451: pto.vmi.unpack: requires a layout-assigned VMI type with computable physical arity',
    ]);
    expect(errors(`  %p0, %p1 = "pto.vmi.unpack"(%c) : (!pto.vmi.vreg<128xf32, ${C}>) -> (!pto.vreg<64xf32>, !pto.vreg<128xf16>)`, params)).toEqual([
      'E0451: pto.vmi.unpack: requires physical data part type to match VMI lane-map helper',
    ]);
    expect(errors(`  %v2 = "pto.vmi.pack"(%p) : (!pto.vreg<64xf32>) -> !pto.vmi.vreg<128xf32, ${D2}>`, '%p: !pto.vreg<64xf32>')).toEqual([
      'E0451: pto.vmi.pack: requires 2 physical parts, got 1',
    ]);
  });

  test("MLIR's generic form reads as the assembly format, base[offset] pairs included", () => {
    const p = '%s: !pto.ptr<f32, ub>, %i: index, %x: !pto.vmi.vreg<8xi32>, %k: !pto.vmi.mask<8xpred>, %t: !pto.vmi.vreg<8xf32>';
    const T = '!pto.ptr<f32, ub>, !pto.vmi.vreg<8xi32>, !pto.vmi.mask<8xpred>, !pto.vmi.vreg<8xf32>';
    expect(errors(`  %r = "pto.vmi.gather"(%s, %x, %k, %t) : (${T}) -> !pto.vmi.vreg<8xf32>`, p)).toEqual([]);
    expect(errors(`  %r = "pto.vmi.gather"(%s, %x, %k, %t) : (${T}) -> !pto.vmi.vreg<8xi32>`, p)).toEqual([
      'E0451: pto.vmi.gather: requires memory source element type to match VMI data element type',
    ]);
    expect(errors(`  "pto.vmi.group_store"(%t, %s, %i, %i) {num_groups = 2} : (!pto.vmi.vreg<8xf32>, !pto.ptr<f32, ub>, index, index) -> ()`, p)).toEqual([]);
  });

  test('ops without an assembly format print in the generic form, a dense array as array<...>', () => {
    const text = `func.func @k(%a: !pto.vmi.vreg<128xf32, ${D2}>) {
  %p0, %p1 = "pto.vmi.unpack"(%a) : (!pto.vmi.vreg<128xf32, ${D2}>) -> (!pto.vreg<64xf32>, !pto.vreg<64xf32>)
  %k = "pto.vmi.constant"() {value = dense<2.0> : tensor<4xf32>} : () -> !pto.vmi.vreg<4xf32>
  %s = "pto.vmi.shuffle"(%k) {indices = array<i64: 3, 0>} : (!pto.vmi.vreg<4xf32>) -> !pto.vmi.vreg<2xf32>
  return
}
`;
    const { module, types, diags } = assemble('m.pto', text);
    expect(diags.sorted().filter((d) => d.severity === 'error')).toEqual([]);
    const printed = printCanonical(module, types);
    expect(printed).toContain(`%p0, %p1 = "pto.vmi.unpack"(%a) : (!pto.vmi.vreg<128xf32, ${D2}>) -> (!pto.vreg<64xf32>, !pto.vreg<64xf32>)`);
    expect(printed).toContain('%k = "pto.vmi.constant"() {value = dense<2.0> : tensor<4xf32>} : () -> !pto.vmi.vreg<4xf32>');
    expect(printed).toContain('%s = "pto.vmi.shuffle"(%k) {indices = array<i64: 3, 0>} : (!pto.vmi.vreg<4xf32>) -> !pto.vmi.vreg<2xf32>');
  });

  test('the layout helpers keep the value and need assigned layouts', () => {
    expect(errors(`  %r = pto.vmi.ensure_layout %c : !pto.vmi.vreg<128xf32, ${C}> -> !pto.vmi.vreg<128xf32, ${D2}>`, params)).toEqual([]);
    // The generic form reads as the assembly format does.
    expect(errors(`  %r = "pto.vmi.ensure_layout"(%c) : (!pto.vmi.vreg<128xf32, ${C}>) -> !pto.vmi.vreg<128xf32, ${D2}>`, params)).toEqual([]);
    expect(errors(`  %r = pto.vmi.ensure_layout %v : !pto.vmi.vreg<128xf32> -> !pto.vmi.vreg<128xf32, ${C}>`, params)).toEqual([
      'E0451: pto.vmi.ensure_layout: requires source and result to be layout-assigned',
    ]);
    expect(errors(`  %r = pto.vmi.ensure_mask_granularity %m : !pto.vmi.mask<128xpred> -> !pto.vmi.mask<128xb32, ${C}>`, params)).toEqual([
      'E0451: pto.vmi.ensure_mask_granularity: requires concrete source and result mask granularities',
    ]);
    expect(errors(`  %r = pto.vmi.ensure_mask_granularity %mb : !pto.vmi.mask<128xb16> -> !pto.vmi.mask<128xb32, ${D2}>`, params)).toEqual([
      'E0451: pto.vmi.ensure_mask_granularity: requires either both source and result to carry layout or neither to carry layout',
    ]);
  });

  test('constants, histograms, the fused ops', () => {
    expect(errors(`  %k = "pto.vmi.constant"() {value = 1.0 : f32} : () -> !pto.vmi.vreg<128xf32>`, '')).toEqual([
      'E0451: pto.vmi.constant: requires dense elements constant attribute',
    ]);
    expect(errors(`  %k = "pto.vmi.constant"() {value = dense<1.0> : tensor<64xf32>} : () -> !pto.vmi.vreg<128xf32>`, '')).toEqual([
      'E0451: pto.vmi.constant: requires dense constant element count to match result logical lane count',
    ]);
    expect(errors(`  %k = "pto.vmi.constant_mask"() {value = dense<[true, false]> : tensor<2xi1>} : () -> !pto.vmi.mask<2xb32, ${C}>`, '')).toEqual([]);
    const hist = '%acc: !pto.vmi.vreg<256xsi16>, %s: !pto.vmi.vreg<256xui8>, %k: !pto.vmi.mask<256xb8>';
    expect(
      errors(`  %h = pto.vmi.vdhist %acc, %s, %k : !pto.vmi.vreg<256xsi16>, !pto.vmi.vreg<256xui8>, !pto.vmi.mask<256xb8> -> !pto.vmi.vreg<256xsi16>`, hist),
    ).toEqual(['E0451: pto.vmi.vdhist: requires acc type to be !pto.vmi.vreg<128x{ui16|i16}> (Bin_N0-only) or !pto.vmi.vreg<256x{ui16|i16}>']);
    const i32 = '!pto.vmi.vreg<64xi32>';
    expect(
      errors(`  %l, %h = pto.vmi.vmull %x, %x, %p : ${i32}, ${i32}, !pto.vmi.mask<64xpred> -> ${i32}, ${i32}`, `%x: ${i32}, %p: !pto.vmi.mask<64xpred>`),
    ).toEqual([]);
    expect(
      errors(
        `  %l, %h = pto.vmi.vmull %x, %x, %p : !pto.vmi.vreg<32xi32>, !pto.vmi.vreg<32xi32>, !pto.vmi.mask<32xpred> -> !pto.vmi.vreg<32xi32>, !pto.vmi.vreg<32xi32>`,
        `%x: !pto.vmi.vreg<32xi32>, %p: !pto.vmi.mask<32xpred>`,
      ),
    ).toEqual(['E0451: pto.vmi.vmull: requires logical lane count to be 64, 128, or 256']);
    expect(
      errors(`  %r = pto.vmi.vexpdif %x, %x, %p : ${i32}, ${i32}, !pto.vmi.mask<64xpred> -> !pto.vmi.vreg<64xf32>`, `%x: ${i32}, %p: !pto.vmi.mask<64xpred>`),
    ).toEqual(['E0451: pto.vmi.vexpdif: requires x element type to be f16 or f32']);
  });
});

/**
 * in[i] = i (128 f32), bytes[i] = i & 3 (256 ui8).
 * - x (contiguous) -> ensure_layout deinterleaved = 2 -> unpack: part 0 the even lanes, part 1 the odd ones, stored
 *   by vsts to out[0..63] and out[64..127].
 * - channel_split x into 2 (evens, odds), channel_merge(odds, evens): lane pairs swapped, out[128 + i] = i ^ 1.
 * - vmula(x, x, constant 2.0): x + 2x = 3i at out[256 + i].
 * - expand_load in[5...] under [T F T T F F T F] over passthru -1: [5, -1, 6, 7, -1, -1, 8, -1] at out[384].
 * - group_slot_load in[1 + 16g], 8 groups: 1, 17, ..., 113 at out[392].
 * - vexpdif(x, 10.0) on the first 12 of 64 lanes: lane 10 is exp(0) = 1, lanes from 12 are 0, at out[400].
 * - vmull(-3, 2147483647) signed: -6442450941 = -2 * 2^32 + 2147483651: low -2147483645, high -2.
 * - histograms of bytes[0..9] = 0,1,2,3,0,1,2,3,0,1 over acc 5: counts 3, 3, 2, 2; vdhist 8, 8, 7, 7, 5...;
 *   vchist 8, 11, 13, 15, 15...
 */
const F = '!pto.vmi.vreg<128xf32>';
const KERNEL = `module attributes {pto.target_arch = "a5", pto.kernel_kind = #pto.kernel_kind<vector>} {
  func.func @k(%in: !pto.ptr<f32, gm>, %bytes: !pto.ptr<ui8, gm>, %out: !pto.ptr<f32, gm>, %ints: !pto.ptr<i32, gm>, %hist: !pto.ptr<i16, gm>) attributes {pto.kernel} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c5 = arith.constant 5 : index
    %c10 = arith.constant 10 : index
    %c12 = arith.constant 12 : index
    %c16 = arith.constant 16 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %c384 = arith.constant 384 : index
    %c392 = arith.constant 392 : index
    %c400 = arith.constant 400 : index
    %c0_i64 = arith.constant 0 : i64
    %c1_i64 = arith.constant 1 : i64
    %c256_i64 = arith.constant 256 : i64
    %c512_i64 = arith.constant 512 : i64
    %c1024_i64 = arith.constant 1024 : i64
    %c1856_i64 = arith.constant 1856 : i64
    %c2048_i64 = arith.constant 2048 : i64
    %c4096_i64 = arith.constant 4096 : i64
    %c4608_i64 = arith.constant 4608 : i64
    %ub_in = pto.castptr %c0_i64 : i64 -> !pto.ptr<f32, ub>
    %ub_bytes = pto.castptr %c1024_i64 : i64 -> !pto.ptr<ui8, ub>
    %ub_out = pto.castptr %c2048_i64 : i64 -> !pto.ptr<f32, ub>
    %ub_ints = pto.castptr %c4096_i64 : i64 -> !pto.ptr<i32, ub>
    %ub_hist = pto.castptr %c4608_i64 : i64 -> !pto.ptr<i16, ub>
    pto.mte_gm_ub %in, %ub_in, %c0_i64, %c512_i64 nburst(%c1_i64, %c512_i64, %c512_i64)
      : !pto.ptr<f32, gm>, !pto.ptr<f32, ub>, i64, i64, i64, i64, i64
    pto.mte_gm_ub %bytes, %ub_bytes, %c0_i64, %c256_i64 nburst(%c1_i64, %c256_i64, %c256_i64)
      : !pto.ptr<ui8, gm>, !pto.ptr<ui8, ub>, i64, i64, i64, i64, i64
    pto.set_flag["PIPE_MTE2", "PIPE_V", "EVENT_ID0"]
    pto.wait_flag["PIPE_MTE2", "PIPE_V", "EVENT_ID0"]
    pto.vecscope {
      %all = pto.pset_b32 "PAT_ALL" : !pto.mask<b32>
      %x = pto.vmi.vload %ub_in[%c0] : !pto.ptr<f32, ub> -> ${F}
      %xc = pto.vmi.vload %ub_in[%c0] : !pto.ptr<f32, ub> -> !pto.vmi.vreg<128xf32, ${C}>
      %xd = pto.vmi.ensure_layout %xc : !pto.vmi.vreg<128xf32, ${C}> -> !pto.vmi.vreg<128xf32, ${D2}>
      %p0, %p1 = "pto.vmi.unpack"(%xd) : (!pto.vmi.vreg<128xf32, ${D2}>) -> (!pto.vreg<64xf32>, !pto.vreg<64xf32>)
      pto.vsts %p0, %ub_out[%c0], %all : !pto.vreg<64xf32>, !pto.ptr<f32, ub>, !pto.mask<b32>
      pto.vsts %p1, %ub_out[%c64], %all : !pto.vreg<64xf32>, !pto.ptr<f32, ub>, !pto.mask<b32>
      %ev, %od = "pto.vmi.channel_split"(%x) : (${F}) -> (!pto.vmi.vreg<64xf32>, !pto.vmi.vreg<64xf32>)
      %sw = "pto.vmi.channel_merge"(%od, %ev) : (!pto.vmi.vreg<64xf32>, !pto.vmi.vreg<64xf32>) -> ${F}
      pto.vmi.vstore %sw, %ub_out[%c128] : ${F}, !pto.ptr<f32, ub>
      %two = "pto.vmi.constant"() {value = dense<2.0> : tensor<128xf32>} : () -> ${F}
      %tri = pto.vmi.vmula %x, %x, %two : ${F}, ${F}, ${F} -> ${F}
      pto.vmi.vstore %tri, %ub_out[%c256] : ${F}, !pto.ptr<f32, ub>
      %sel = "pto.vmi.constant_mask"() {value = dense<[true, false, true, true, false, false, true, false]> : tensor<8xi1>} : () -> !pto.vmi.mask<8xpred>
      %neg = "pto.vmi.constant"() {value = dense<-1.0> : tensor<8xf32>} : () -> !pto.vmi.vreg<8xf32>
      %ex = pto.vmi.expand_load %ub_in[%c5], %sel, %neg : !pto.ptr<f32, ub>, !pto.vmi.mask<8xpred>, !pto.vmi.vreg<8xf32> -> !pto.vmi.vreg<8xf32>
      pto.vmi.vstore %ex, %ub_out[%c384] : !pto.vmi.vreg<8xf32>, !pto.ptr<f32, ub>
      %slots = pto.vmi.group_slot_load %ub_in[%c1], %c16 {num_groups = 8} : !pto.ptr<f32, ub> -> !pto.vmi.vreg<8xf32>
      pto.vmi.vstore %slots, %ub_out[%c392] : !pto.vmi.vreg<8xf32>, !pto.ptr<f32, ub>
      %x64 = pto.vmi.vload %ub_in[%c0] : !pto.ptr<f32, ub> -> !pto.vmi.vreg<64xf32>
      %ten = "pto.vmi.constant"() {value = dense<10.0> : tensor<64xf32>} : () -> !pto.vmi.vreg<64xf32>
      %first = pto.vmi.create_mask %c12 : index -> !pto.vmi.mask<64xpred>
      %e = pto.vmi.vexpdif %x64, %ten, %first : !pto.vmi.vreg<64xf32>, !pto.vmi.vreg<64xf32>, !pto.vmi.mask<64xpred> -> !pto.vmi.vreg<64xf32>
      pto.vmi.vstore %e, %ub_out[%c400] : !pto.vmi.vreg<64xf32>, !pto.ptr<f32, ub>
      %a = "pto.vmi.constant"() {value = dense<-3> : tensor<64xi32>} : () -> !pto.vmi.vreg<64xi32>
      %b = "pto.vmi.constant"() {value = dense<2147483647> : tensor<64xi32>} : () -> !pto.vmi.vreg<64xi32>
      %on = "pto.vmi.constant_mask"() {value = dense<true> : tensor<64xi1>} : () -> !pto.vmi.mask<64xpred>
      %lo, %hi = pto.vmi.vmull %a, %b, %on : !pto.vmi.vreg<64xi32>, !pto.vmi.vreg<64xi32>, !pto.vmi.mask<64xpred> -> !pto.vmi.vreg<64xi32>, !pto.vmi.vreg<64xi32>
      pto.vmi.vstore %lo, %ub_ints[%c0] : !pto.vmi.vreg<64xi32>, !pto.ptr<i32, ub>
      pto.vmi.vstore %hi, %ub_ints[%c64] : !pto.vmi.vreg<64xi32>, !pto.ptr<i32, ub>
      %src = pto.vmi.vload %ub_bytes[%c0] : !pto.ptr<ui8, ub> -> !pto.vmi.vreg<256xui8>
      %acc = "pto.vmi.constant"() {value = dense<5> : tensor<256xi16>} : () -> !pto.vmi.vreg<256xi16>
      %ten_on = pto.vmi.create_mask %c10 : index -> !pto.vmi.mask<256xpred>
      %dh = pto.vmi.vdhist %acc, %src, %ten_on : !pto.vmi.vreg<256xi16>, !pto.vmi.vreg<256xui8>, !pto.vmi.mask<256xpred> -> !pto.vmi.vreg<256xi16>
      %ch = pto.vmi.vchist %acc, %src, %ten_on : !pto.vmi.vreg<256xi16>, !pto.vmi.vreg<256xui8>, !pto.vmi.mask<256xpred> -> !pto.vmi.vreg<256xi16>
      pto.vmi.vstore %dh, %ub_hist[%c0] : !pto.vmi.vreg<256xi16>, !pto.ptr<i16, ub>
      pto.vmi.vstore %ch, %ub_hist[%c256] : !pto.vmi.vreg<256xi16>, !pto.ptr<i16, ub>
    }
    pto.set_flag["PIPE_V", "PIPE_MTE3", "EVENT_ID0"]
    pto.wait_flag["PIPE_V", "PIPE_MTE3", "EVENT_ID0"]
    pto.mte_ub_gm %ub_out, %out, %c1856_i64 nburst(%c1_i64, %c1856_i64, %c1856_i64) : !pto.ptr<f32, ub>, !pto.ptr<f32, gm>, i64, i64, i64, i64
    pto.mte_ub_gm %ub_ints, %ints, %c512_i64 nburst(%c1_i64, %c512_i64, %c512_i64) : !pto.ptr<i32, ub>, !pto.ptr<i32, gm>, i64, i64, i64, i64
    pto.mte_ub_gm %ub_hist, %hist, %c1024_i64 nburst(%c1_i64, %c1024_i64, %c1024_i64) : !pto.ptr<i16, ub>, !pto.ptr<i16, gm>, i64, i64, i64, i64
    return
  }
}
`;

test('unpack of a deinterleaved layout, channel split/merge, constants, vmula, expand_load, group_slot_load, vexpdif, vmull, histograms: run', () => {
  const buffers = {
    in: new GlobalBuffer('in', 'f32', new Uint8Array(Float32Array.from({ length: 128 }, (_, i) => i).buffer)),
    bytes: new GlobalBuffer(
      'bytes',
      'u8',
      Uint8Array.from({ length: 256 }, (_, i) => i & 3),
    ),
    out: new GlobalBuffer('out', 'f32', new Uint8Array(1856)),
    ints: new GlobalBuffer('ints', 'i32', new Uint8Array(512)),
    hist: new GlobalBuffer('hist', 'i16', new Uint8Array(1024)),
  };
  runMicroKernel(KERNEL, 'k', buffers);
  const out = Array.from(new Float32Array(buffers.out.bytes.buffer.slice(0)));
  expect(out.slice(0, 4)).toEqual([0, 2, 4, 6]);
  expect([out[63], out[64], out[65], out[127]]).toEqual([126, 1, 3, 127]);
  expect(out.slice(128, 132)).toEqual([1, 0, 3, 2]);
  expect(out[255]).toBe(126);
  expect([out[256], out[257], out[383]]).toEqual([0, 3, 381]);
  expect(out.slice(384, 392)).toEqual([5, -1, 6, 7, -1, -1, 8, -1]);
  expect(out.slice(392, 400)).toEqual([1, 17, 33, 49, 65, 81, 97, 113]);
  expect([out[410], out[412], out[463]]).toEqual([1, 0, 0]);
  const ints = Array.from(new Int32Array(buffers.ints.bytes.buffer.slice(0)));
  expect([ints[0], ints[63], ints[64], ints[127]]).toEqual([-2147483645, -2147483645, -2, -2]);
  const hist = Array.from(new Uint16Array(buffers.hist.bytes.buffer.slice(0)));
  expect(hist.slice(0, 6)).toEqual([8, 8, 7, 7, 5, 5]);
  expect(hist.slice(256, 262)).toEqual([8, 11, 13, 15, 15, 15]);
  expect(hist[511]).toBe(15);
});

describe('shuffle and vscatter', () => {
  test('verification', () => {
    const p = '%s: !pto.vmi.vreg<8xui8>';
    expect(errors(`  %o = "pto.vmi.shuffle"(%s) {indices = array<i64: 7, 0, 7, 1>} : (!pto.vmi.vreg<8xui8>) -> !pto.vmi.vreg<4xui8>`, p)).toEqual([]);
    expect(errors(`  %o = "pto.vmi.shuffle"(%s) {indices = array<i64: 0, 1, 2>} : (!pto.vmi.vreg<8xui8>) -> !pto.vmi.vreg<4xui8>`, p)).toEqual([
      'E0451: pto.vmi.shuffle: requires shuffle index count to match result logical lane count',
    ]);
    expect(errors(`  %o = "pto.vmi.shuffle"(%s) {indices = array<i64: 0, 1, 2, 8>} : (!pto.vmi.vreg<8xui8>) -> !pto.vmi.vreg<4xui8>`, p)).toEqual([
      'E0451: pto.vmi.shuffle: requires every shuffle index to select an existing source logical lane',
    ]);
    const q = '%v: !pto.vmi.vreg<64xf32>, %d: !pto.ptr<f32, ub>, %i: !pto.vmi.vreg<64xi8>, %m: !pto.vmi.mask<64xpred>';
    expect(errors(`  pto.vmi.vscatter %v, %d, %i, %m : !pto.vmi.vreg<64xf32>, !pto.ptr<f32, ub>, !pto.vmi.vreg<64xi8>, !pto.vmi.mask<64xpred>`, q)).toEqual([
      'E0451: pto.vmi.vscatter: requires signless or unsigned 16-bit or 32-bit integer offsets',
    ]);
  });

  /** src = 10, 11, ..., 17; shuffle [7, 0, 7, 1] -> 17, 10, 17, 11; vscatter of src to 2 * (7 - i) under lanes 0..5: out[14 - 2i] = 10 + i. */
  test('run', () => {
    const kernel = `module attributes {pto.target_arch = "a5", pto.kernel_kind = #pto.kernel_kind<vector>} {
  func.func @k(%in: !pto.ptr<f32, gm>, %out: !pto.ptr<f32, gm>) attributes {pto.kernel} {
    %c0 = arith.constant 0 : index
    %c6 = arith.constant 6 : index
    %c16 = arith.constant 16 : index
    %c7_i32 = arith.constant 7 : i32
    %c0_i64 = arith.constant 0 : i64
    %c1_i64 = arith.constant 1 : i64
    %c32_i64 = arith.constant 32 : i64
    %c80_i64 = arith.constant 80 : i64
    %c256_i64 = arith.constant 256 : i64
    %ub_in = pto.castptr %c0_i64 : i64 -> !pto.ptr<f32, ub>
    %ub_out = pto.castptr %c256_i64 : i64 -> !pto.ptr<f32, ub>
    pto.mte_gm_ub %in, %ub_in, %c0_i64, %c32_i64 nburst(%c1_i64, %c32_i64, %c32_i64) : !pto.ptr<f32, gm>, !pto.ptr<f32, ub>, i64, i64, i64, i64, i64
    pto.mte_gm_ub %out, %ub_out, %c0_i64, %c80_i64 nburst(%c1_i64, %c80_i64, %c80_i64) : !pto.ptr<f32, gm>, !pto.ptr<f32, ub>, i64, i64, i64, i64, i64
    pto.set_flag["PIPE_MTE2", "PIPE_V", "EVENT_ID0"]
    pto.wait_flag["PIPE_MTE2", "PIPE_V", "EVENT_ID0"]
    pto.vecscope {
      %s = pto.vmi.vload %ub_in[%c0] : !pto.ptr<f32, ub> -> !pto.vmi.vreg<8xf32>
      %o = "pto.vmi.shuffle"(%s) {indices = array<i64: 7, 0, 7, 1>} : (!pto.vmi.vreg<8xf32>) -> !pto.vmi.vreg<4xf32>
      pto.vmi.vstore %o, %ub_out[%c16] : !pto.vmi.vreg<4xf32>, !pto.ptr<f32, ub>
      %rev = pto.vmi.vci %c7_i32 {order = "DESC"} : i32 -> !pto.vmi.vreg<8xi32>
      %two = pto.vmi.vadd %rev, %rev : !pto.vmi.vreg<8xi32>, !pto.vmi.vreg<8xi32> -> !pto.vmi.vreg<8xi32>
      %m = pto.vmi.create_mask %c6 : index -> !pto.vmi.mask<8xpred>
      pto.vmi.vscatter %s, %ub_out, %two, %m : !pto.vmi.vreg<8xf32>, !pto.ptr<f32, ub>, !pto.vmi.vreg<8xi32>, !pto.vmi.mask<8xpred>
    }
    pto.set_flag["PIPE_V", "PIPE_MTE3", "EVENT_ID0"]
    pto.wait_flag["PIPE_V", "PIPE_MTE3", "EVENT_ID0"]
    pto.mte_ub_gm %ub_out, %out, %c80_i64 nburst(%c1_i64, %c80_i64, %c80_i64) : !pto.ptr<f32, ub>, !pto.ptr<f32, gm>, i64, i64, i64, i64
    return
  }
}
`;
    const buffers = {
      in: new GlobalBuffer('in', 'f32', new Uint8Array(Float32Array.from({ length: 8 }, (_, i) => 10 + i).buffer)),
      out: new GlobalBuffer('out', 'f32', new Uint8Array(Float32Array.from({ length: 20 }, () => -1).buffer)),
    };
    runMicroKernel(kernel, 'k', buffers);
    const out = Array.from(new Float32Array(buffers.out.bytes.buffer.slice(0)));
    expect(out.slice(16, 20)).toEqual([17, 10, 17, 11]);
    expect(out.slice(0, 16)).toEqual([-1, -1, -1, -1, 15, -1, 14, -1, 13, -1, 12, -1, 11, -1, 10, -1]);
  });
});

describe('carry, block store, the scaled activations, pge and plt', () => {
  test('verification', () => {
    const f = '!pto.vmi.vreg<64xf16>';
    expect(
      errors(
        `  %s, %c = pto.vmi.vaddc %a, %a, %m : ${f}, ${f}, !pto.vmi.mask<64xpred> -> ${f}, !pto.vmi.mask<64xpred>`,
        `%a: ${f}, %m: !pto.vmi.mask<64xpred>`,
      ),
    ).toEqual(['E0451: pto.vmi.vaddc: requires 32-bit integer vector element types']);
    expect(errors(`  %m = pto.vmi.pge "PAT_VL40" : !pto.vmi.mask<32xpred>`, '')).toEqual([
      'E0451: pto.vmi.pge: PAT_VL active lanes 40 exceeds mask element count 32',
    ]);
    expect(errors(`  %m = pto.vmi.pge "PAT_ALL" : !pto.vmi.mask<32xpred>`, '')).toEqual(['E0451: pto.vmi.pge: requires pattern to start with "PAT_VL"']);
    const v = '!pto.vmi.vreg<64xf32>';
    const m = '!pto.vmi.mask<64xpred>';
    expect(errors(`  %y = "pto.vmi.vlrelu"(%x, %s, %k) : (${v}, f16, ${m}) -> ${v}`, `%x: ${v}, %s: f16, %k: ${m}`)).toEqual([
      'E0451: pto.vmi.vlrelu: requires slope scalar type to match vector element type',
    ]);
    expect(errors(`  %y = "pto.vmi.vaxpy"(%x, %x, %s, %k) : (${v}, ${v}, f32, ${m}) -> ${v}`, `%x: ${v}, %s: f32, %k: ${m}`)).toEqual([]);
    expect(
      errors(
        `  pto.vmi.vsstb %x, %p[%i], %b, %k {pmode = "merge"} : ${v}, !pto.ptr<f32, ub>, ${m}`,
        `%x: ${v}, %p: !pto.ptr<f32, ub>, %i: index, %b: i16, %k: ${m}`,
      )[0],
    ).toMatch(/pto.vmi.vsstb: pmode "merge" is not supported for stores/);
  });

  /**
   * vaddc(-1, 2) under the first 3 lanes: 1 with a carry there, 0 and no carry elsewhere; vaddcs(-1, 0, that carry):
   * 0 with a carry in lanes 0..2, -1 (no carry) from lane 3 (all active). The carries as vsel(carry, 7, 0).
   * vsstb of x = 0..63, block stride 2: block k (x[8k..8k+7]) at float 16k. vaxpy(x, 1, alpha 2) under pge PAT_VL4:
   * 1, 3, 5, 7, then 0. plt(70) over 64 lanes: all on, 6 left; plt(6): 6 lanes. vlrelu(x - 10, 0.5): -5 at 0,
   * -0.5 at 9, 0 at 10, 1 at 11. vprelu(x - 10, 0.25) under the 6 lanes: -2.5, -2.25, ..., -1.25, then 0.
   */
  test('run', () => {
    const V = '!pto.vmi.vreg<64xf32>';
    const I = '!pto.vmi.vreg<64xi32>';
    const P = '!pto.vmi.mask<64xpred>';
    const kernel = `module attributes {pto.target_arch = "a5", pto.kernel_kind = #pto.kernel_kind<vector>} {
  func.func @k(%in: !pto.ptr<f32, gm>, %out: !pto.ptr<f32, gm>, %ints: !pto.ptr<i32, gm>) attributes {pto.kernel} {
    %c0 = arith.constant 0 : index
    %c3 = arith.constant 3 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c192 = arith.constant 192 : index
    %c256 = arith.constant 256 : index
    %c2_i16 = arith.constant 2 : i16
    %c70_i32 = arith.constant 70 : i32
    %two = arith.constant 2.0 : f32
    %half = arith.constant 0.5 : f32
    %c0_i64 = arith.constant 0 : i64
    %c1_i64 = arith.constant 1 : i64
    %c256_i64 = arith.constant 256 : i64
    %c512_i64 = arith.constant 512 : i64
    %c1280_i64 = arith.constant 1280 : i64
    %c4096_i64 = arith.constant 4096 : i64
    %ub_in = pto.castptr %c0_i64 : i64 -> !pto.ptr<f32, ub>
    %ub_out = pto.castptr %c512_i64 : i64 -> !pto.ptr<f32, ub>
    %ub_ints = pto.castptr %c4096_i64 : i64 -> !pto.ptr<i32, ub>
    pto.mte_gm_ub %in, %ub_in, %c0_i64, %c256_i64 nburst(%c1_i64, %c256_i64, %c256_i64) : !pto.ptr<f32, gm>, !pto.ptr<f32, ub>, i64, i64, i64, i64, i64
    pto.mte_gm_ub %out, %ub_out, %c0_i64, %c1280_i64 nburst(%c1_i64, %c1280_i64, %c1280_i64) : !pto.ptr<f32, gm>, !pto.ptr<f32, ub>, i64, i64, i64, i64, i64
    pto.set_flag["PIPE_MTE2", "PIPE_V", "EVENT_ID0"]
    pto.wait_flag["PIPE_MTE2", "PIPE_V", "EVENT_ID0"]
    pto.vecscope {
      %neg1 = "pto.vmi.constant"() {value = dense<-1> : tensor<64xi32>} : () -> ${I}
      %i2 = "pto.vmi.constant"() {value = dense<2> : tensor<64xi32>} : () -> ${I}
      %i0 = "pto.vmi.constant"() {value = dense<0> : tensor<64xi32>} : () -> ${I}
      %i7 = "pto.vmi.constant"() {value = dense<7> : tensor<64xi32>} : () -> ${I}
      %first3 = pto.vmi.create_mask %c3 : index -> ${P}
      %all = pto.vmi.pset "PAT_ALL" : ${P}
      %s, %c = pto.vmi.vaddc %neg1, %i2, %first3 : ${I}, ${I}, ${P} -> ${I}, ${P}
      %s2, %c2 = pto.vmi.vaddcs %neg1, %i0, %c, %all : ${I}, ${I}, ${P}, ${P} -> ${I}, ${P}
      %cv = pto.vmi.vsel %c2, %i7, %i0 : ${P}, ${I}, ${I} -> ${I}
      pto.vmi.vstore %s, %ub_ints[%c0] : ${I}, !pto.ptr<i32, ub>
      pto.vmi.vstore %s2, %ub_ints[%c64] : ${I}, !pto.ptr<i32, ub>
      pto.vmi.vstore %cv, %ub_ints[%c128] : ${I}, !pto.ptr<i32, ub>
      %x = pto.vmi.vload %ub_in[%c0] : !pto.ptr<f32, ub> -> ${V}
      pto.vmi.vsstb %x, %ub_out[%c0], %c2_i16, %all : ${V}, !pto.ptr<f32, ub>, ${P}
      %one = "pto.vmi.constant"() {value = dense<1.0> : tensor<64xf32>} : () -> ${V}
      %vl4 = pto.vmi.pge "PAT_VL4" : ${P}
      %ax = "pto.vmi.vaxpy"(%x, %one, %two, %vl4) : (${V}, ${V}, f32, ${P}) -> ${V}
      pto.vmi.vstore %ax, %ub_out[%c128] : ${V}, !pto.ptr<f32, ub>
      %ten = "pto.vmi.constant"() {value = dense<10.0> : tensor<64xf32>} : () -> ${V}
      %d = pto.vmi.vsub %x, %ten : ${V}, ${V} -> ${V}
      %m70, %rest = pto.vmi.plt %c70_i32 : i32 -> ${P}, i32
      %m6, %none = pto.vmi.plt %rest : i32 -> ${P}, i32
      %lr = "pto.vmi.vlrelu"(%d, %half, %m70) : (${V}, f32, ${P}) -> ${V}
      pto.vmi.vstore %lr, %ub_out[%c192] : ${V}, !pto.ptr<f32, ub>
      %q = "pto.vmi.constant"() {value = dense<0.25> : tensor<64xf32>} : () -> ${V}
      %pr = pto.vmi.vprelu %d, %q, %m6 : ${V}, ${V}, ${P} -> ${V}
      pto.vmi.vstore %pr, %ub_out[%c256] : ${V}, !pto.ptr<f32, ub>
    }
    pto.set_flag["PIPE_V", "PIPE_MTE3", "EVENT_ID0"]
    pto.wait_flag["PIPE_V", "PIPE_MTE3", "EVENT_ID0"]
    pto.mte_ub_gm %ub_out, %out, %c1280_i64 nburst(%c1_i64, %c1280_i64, %c1280_i64) : !pto.ptr<f32, ub>, !pto.ptr<f32, gm>, i64, i64, i64, i64
    %c768_i64 = arith.constant 768 : i64
    pto.mte_ub_gm %ub_ints, %ints, %c768_i64 nburst(%c1_i64, %c768_i64, %c768_i64) : !pto.ptr<i32, ub>, !pto.ptr<i32, gm>, i64, i64, i64, i64
    return
  }
}
`;
    const buffers = {
      in: new GlobalBuffer('in', 'f32', new Uint8Array(Float32Array.from({ length: 64 }, (_, i) => i).buffer)),
      out: new GlobalBuffer('out', 'f32', new Uint8Array(Float32Array.from({ length: 320 }, () => -1).buffer)),
      ints: new GlobalBuffer('ints', 'i32', new Uint8Array(768)),
    };
    runMicroKernel(kernel, 'k', buffers);
    const ints = Array.from(new Int32Array(buffers.ints.bytes.buffer.slice(0)));
    expect([ints[0], ints[2], ints[3], ints[63]]).toEqual([1, 1, 0, 0]);
    expect([ints[64], ints[66], ints[67], ints[127]]).toEqual([0, 0, -1, -1]);
    expect([ints[128], ints[130], ints[131], ints[191]]).toEqual([7, 7, 0, 0]);
    const out = Array.from(new Float32Array(buffers.out.bytes.buffer.slice(0)));
    expect(out.slice(0, 10)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, -1, -1]);
    expect([out[16], out[23], out[24], out[112], out[119], out[120]]).toEqual([8, 15, -1, 56, 63, -1]);
    expect(out.slice(128, 134)).toEqual([1, 3, 5, 7, 0, 0]);
    expect([out[192], out[201], out[202], out[203], out[255]]).toEqual([-5, -0.5, 0, 1, 53]);
    expect(out.slice(256, 263)).toEqual([-2.5, -2.25, -2, -1.75, -1.5, -1.25, 0]);
  });
});

describe('active_prefix_index, compress, compress_store, group_store', () => {
  test('verification', () => {
    const p = '%m: !pto.vmi.mask<8xpred>, %v: !pto.vmi.vreg<8xf32>, %d: !pto.ptr<f16, ub>, %i: index';
    expect(errors(`  %x = pto.vmi.active_prefix_index %m : !pto.vmi.mask<8xpred> -> !pto.vmi.vreg<8xsi32>`, p)).toEqual([
      'E0451: pto.vmi.active_prefix_index: requires signless integer result element type',
    ]);
    expect(errors(`  pto.vmi.group_store %v, %d[%i], %i {num_groups = 2} : !pto.vmi.vreg<8xf32>, !pto.ptr<f16, ub>`, p)).toEqual([
      'E0451: pto.vmi.group_store: requires memory destination element type to match VMI data element type',
    ]);
    expect(errors(`  pto.vmi.group_store %v, %e[%i], %i {num_groups = 3} : !pto.vmi.vreg<8xf32>, !pto.ptr<f32, ub>`, `${p}, %e: !pto.ptr<f32, ub>`)).toEqual([
      'E0451: pto.vmi.group_store: requires num_groups to evenly divide VMI logical lane count 8',
    ]);
  });

  /**
   * x = 10..17 under [T F T T F F T F]: active_prefix_index 0, 1, 1, 2, 3, 3, 3, 4; compress 10, 12, 13, 16, 0, 0, 0, 0;
   * compress_store 10, 12, 13, 16 at out[16..19] (out[20] kept); group_store of x as 2 rows of 4, row stride 6, at
   * out[24]: 10..13 at 24..27, 14..17 at 30..33.
   */
  test('run', () => {
    const V = '!pto.vmi.vreg<8xf32>';
    const P = '!pto.vmi.mask<8xpred>';
    const kernel = `module attributes {pto.target_arch = "a5", pto.kernel_kind = #pto.kernel_kind<vector>} {
  func.func @k(%in: !pto.ptr<f32, gm>, %out: !pto.ptr<f32, gm>, %ints: !pto.ptr<i32, gm>) attributes {pto.kernel} {
    %c0 = arith.constant 0 : index
    %c6 = arith.constant 6 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %c24 = arith.constant 24 : index
    %c0_i64 = arith.constant 0 : i64
    %c1_i64 = arith.constant 1 : i64
    %c32_i64 = arith.constant 32 : i64
    %c160_i64 = arith.constant 160 : i64
    %c256_i64 = arith.constant 256 : i64
    %c1024_i64 = arith.constant 1024 : i64
    %ub_in = pto.castptr %c0_i64 : i64 -> !pto.ptr<f32, ub>
    %ub_out = pto.castptr %c256_i64 : i64 -> !pto.ptr<f32, ub>
    %ub_ints = pto.castptr %c1024_i64 : i64 -> !pto.ptr<i32, ub>
    pto.mte_gm_ub %in, %ub_in, %c0_i64, %c32_i64 nburst(%c1_i64, %c32_i64, %c32_i64) : !pto.ptr<f32, gm>, !pto.ptr<f32, ub>, i64, i64, i64, i64, i64
    pto.mte_gm_ub %out, %ub_out, %c0_i64, %c160_i64 nburst(%c1_i64, %c160_i64, %c160_i64) : !pto.ptr<f32, gm>, !pto.ptr<f32, ub>, i64, i64, i64, i64, i64
    pto.set_flag["PIPE_MTE2", "PIPE_V", "EVENT_ID0"]
    pto.wait_flag["PIPE_MTE2", "PIPE_V", "EVENT_ID0"]
    pto.vecscope {
      %x = pto.vmi.vload %ub_in[%c0] : !pto.ptr<f32, ub> -> ${V}
      %m = "pto.vmi.constant_mask"() {value = dense<[true, false, true, true, false, false, true, false]> : tensor<8xi1>} : () -> ${P}
      %idx = pto.vmi.active_prefix_index %m : ${P} -> !pto.vmi.vreg<8xi32>
      pto.vmi.vstore %idx, %ub_ints[%c0] : !pto.vmi.vreg<8xi32>, !pto.ptr<i32, ub>
      %packed = pto.vmi.compress %x, %m : ${V}, ${P} -> ${V}
      pto.vmi.vstore %packed, %ub_out[%c0] : ${V}, !pto.ptr<f32, ub>
      pto.vmi.compress_store %x, %ub_out[%c16], %m : ${V}, !pto.ptr<f32, ub>, ${P}
      pto.vmi.group_store %x, %ub_out[%c24], %c6 {num_groups = 2} : ${V}, !pto.ptr<f32, ub>
    }
    pto.set_flag["PIPE_V", "PIPE_MTE3", "EVENT_ID0"]
    pto.wait_flag["PIPE_V", "PIPE_MTE3", "EVENT_ID0"]
    pto.mte_ub_gm %ub_out, %out, %c160_i64 nburst(%c1_i64, %c160_i64, %c160_i64) : !pto.ptr<f32, ub>, !pto.ptr<f32, gm>, i64, i64, i64, i64
    pto.mte_ub_gm %ub_ints, %ints, %c32_i64 nburst(%c1_i64, %c32_i64, %c32_i64) : !pto.ptr<i32, ub>, !pto.ptr<i32, gm>, i64, i64, i64, i64
    return
  }
}
`;
    const buffers = {
      in: new GlobalBuffer('in', 'f32', new Uint8Array(Float32Array.from({ length: 8 }, (_, i) => 10 + i).buffer)),
      out: new GlobalBuffer('out', 'f32', new Uint8Array(Float32Array.from({ length: 40 }, () => -1).buffer)),
      ints: new GlobalBuffer('ints', 'i32', new Uint8Array(32)),
    };
    runMicroKernel(kernel, 'k', buffers);
    expect(Array.from(new Int32Array(buffers.ints.bytes.buffer.slice(0)))).toEqual([0, 1, 1, 2, 3, 3, 3, 4]);
    const out = Array.from(new Float32Array(buffers.out.bytes.buffer.slice(0)));
    expect(out.slice(0, 8)).toEqual([10, 12, 13, 16, 0, 0, 0, 0]);
    expect(out.slice(16, 21)).toEqual([10, 12, 13, 16, -1]);
    expect(out.slice(24, 34)).toEqual([10, 11, 12, 13, -1, -1, 14, 15, 16, 17]);
  });
});

describe('the legacy memory ops', () => {
  test('verification', () => {
    const p = '%s: !pto.ptr<f32, ub>, %i: index, %k: !pto.vmi.mask<8xpred>, %t: !pto.vmi.vreg<8xf32>, %x: !pto.vmi.vreg<8xsi32>';
    expect(
      errors(
        `  %r = pto.vmi.gather %s[%x], %k, %t : !pto.ptr<f32, ub>, !pto.vmi.vreg<8xsi32>, !pto.vmi.mask<8xpred>, !pto.vmi.vreg<8xf32> -> !pto.vmi.vreg<8xf32>`,
        p,
      ),
    ).toEqual(['E0451: pto.vmi.gather: requires signless or unsigned 16-bit or 32-bit integer indices']);
    expect(errors(`  %l, %h = pto.vmi.deinterleave_load %s[%i] : !pto.ptr<f32, ub> -> !pto.vmi.vreg<8xf32, ${D2}>, !pto.vmi.vreg<8xf32, ${D2}>`, p)).toEqual([
      'E0451: pto.vmi.deinterleave_load: requires layout-assigned low result to use #pto.vmi.layout<contiguous>',
    ]);
    expect(errors(`  %r = pto.vmi.group_broadcast_load %s[%i], %i {num_groups = 3} : !pto.ptr<f32, ub> -> !pto.vmi.vreg<8xf32>`, p)).toEqual([
      'E0451: pto.vmi.group_broadcast_load: requires num_groups to evenly divide result logical lane count',
    ]);
  });

  /**
   * in[i] = i. deinterleave_load of 16 from 0: low 0, 2, ..., 14, high 1, 3, ..., 15; interleave_store(high, low) at
   * out[0]: 1, 0, 3, 2, ... group_load 2 rows of 4, row stride 10, from 1: 1..4, 11..14; group_broadcast_load 2
   * groups, stride 10, from 1: 1 x4, 11 x4. masked_load from 20 under [T F T T F F T F] over passthru -1: 20, -1, 22,
   * 23, -1, -1, 26, -1. gather of in[7 - i] under the same mask: 7, -1, 5, 4, -1, -1, 1, -1; scatter of in[0..7] to
   * out[40 + 7 - i] under it: 0 at 47, 2 at 45, 3 at 44, 6 at 41. stride_load of 64 f32 as blocks k at 8 * 2k
   * (block stride 2, repeat 0, all lanes): 0..7, 16..23, ...; stride_store of it with block stride 1 at out[64]: the
   * same lanes back in order.
   */
  test('run', () => {
    const V = '!pto.vmi.vreg<8xf32>';
    const P = '!pto.vmi.mask<8xpred>';
    const kernel = `module attributes {pto.target_arch = "a5", pto.kernel_kind = #pto.kernel_kind<vector>} {
  func.func @k(%in: !pto.ptr<f32, gm>, %out: !pto.ptr<f32, gm>) attributes {pto.kernel} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c10 = arith.constant 10 : index
    %c16 = arith.constant 16 : index
    %c20 = arith.constant 20 : index
    %c24 = arith.constant 24 : index
    %c32 = arith.constant 32 : index
    %c40 = arith.constant 40 : index
    %c64 = arith.constant 64 : index
    %c0_i16 = arith.constant 0 : i16
    %c1_i16 = arith.constant 1 : i16
    %c2_i16 = arith.constant 2 : i16
    %c7_i32 = arith.constant 7 : i32
    %c0_i64 = arith.constant 0 : i64
    %c1_i64 = arith.constant 1 : i64
    %c512_i64 = arith.constant 512 : i64
    %c1024_i64 = arith.constant 1024 : i64
    %ub_in = pto.castptr %c0_i64 : i64 -> !pto.ptr<f32, ub>
    %ub_out = pto.castptr %c1024_i64 : i64 -> !pto.ptr<f32, ub>
    pto.mte_gm_ub %in, %ub_in, %c0_i64, %c1024_i64 nburst(%c1_i64, %c1024_i64, %c1024_i64) : !pto.ptr<f32, gm>, !pto.ptr<f32, ub>, i64, i64, i64, i64, i64
    pto.mte_gm_ub %out, %ub_out, %c0_i64, %c512_i64 nburst(%c1_i64, %c512_i64, %c512_i64) : !pto.ptr<f32, gm>, !pto.ptr<f32, ub>, i64, i64, i64, i64, i64
    pto.set_flag["PIPE_MTE2", "PIPE_V", "EVENT_ID0"]
    pto.wait_flag["PIPE_MTE2", "PIPE_V", "EVENT_ID0"]
    pto.vecscope {
      %lo, %hi = pto.vmi.deinterleave_load %ub_in[%c0] : !pto.ptr<f32, ub> -> ${V}, ${V}
      pto.vmi.interleave_store %hi, %lo, %ub_out[%c0] : ${V}, ${V}, !pto.ptr<f32, ub>
      %rows = pto.vmi.group_load %ub_in[%c1], %c10 {num_groups = 2} : !pto.ptr<f32, ub> -> ${V}
      pto.vmi.vstore %rows, %ub_out[%c16] : ${V}, !pto.ptr<f32, ub>
      %bc = pto.vmi.group_broadcast_load %ub_in[%c1], %c10 {num_groups = 2} : !pto.ptr<f32, ub> -> ${V}
      pto.vmi.vstore %bc, %ub_out[%c24] : ${V}, !pto.ptr<f32, ub>
      %m = "pto.vmi.constant_mask"() {value = dense<[true, false, true, true, false, false, true, false]> : tensor<8xi1>} : () -> ${P}
      %neg = "pto.vmi.constant"() {value = dense<-1.0> : tensor<8xf32>} : () -> ${V}
      %ml = pto.vmi.masked_load %ub_in[%c20], %m, %neg : !pto.ptr<f32, ub>, ${P}, ${V} -> ${V}
      pto.vmi.vstore %ml, %ub_out[%c32] : ${V}, !pto.ptr<f32, ub>
      %rev = pto.vmi.vci %c7_i32 {order = "DESC"} : i32 -> !pto.vmi.vreg<8xi32>
      %g = pto.vmi.gather %ub_in[%rev], %m, %neg : !pto.ptr<f32, ub>, !pto.vmi.vreg<8xi32>, ${P}, ${V} -> ${V}
      pto.vmi.vstore %g, %ub_out[%c40] : ${V}, !pto.ptr<f32, ub>
      %x = pto.vmi.vload %ub_in[%c0] : !pto.ptr<f32, ub> -> ${V}
      %out48 = pto.addptr %ub_out, %c40 : !pto.ptr<f32, ub> -> !pto.ptr<f32, ub>
      %out8 = pto.addptr %out48, %c16 : !pto.ptr<f32, ub> -> !pto.ptr<f32, ub>
      pto.vmi.scatter %x, %out8[%rev], %m : ${V}, !pto.ptr<f32, ub>, !pto.vmi.vreg<8xi32>, ${P}
      %all = pto.vmi.pset "PAT_ALL" : !pto.vmi.mask<64xpred>
      %blk = pto.vmi.stride_load %ub_in[%c0], %c2_i16, %c0_i16, %all : !pto.ptr<f32, ub>, i16, i16, !pto.vmi.mask<64xpred> -> !pto.vmi.vreg<64xf32>
      pto.vmi.stride_store %blk, %ub_out[%c64], %c1_i16, %c0_i16, %all : !pto.vmi.vreg<64xf32>, !pto.ptr<f32, ub>, i16, i16, !pto.vmi.mask<64xpred>
    }
    pto.set_flag["PIPE_V", "PIPE_MTE3", "EVENT_ID0"]
    pto.wait_flag["PIPE_V", "PIPE_MTE3", "EVENT_ID0"]
    pto.mte_ub_gm %ub_out, %out, %c512_i64 nburst(%c1_i64, %c512_i64, %c512_i64) : !pto.ptr<f32, ub>, !pto.ptr<f32, gm>, i64, i64, i64, i64
    return
  }
}
`;
    const buffers = {
      in: new GlobalBuffer('in', 'f32', new Uint8Array(Float32Array.from({ length: 256 }, (_, i) => i).buffer)),
      out: new GlobalBuffer('out', 'f32', new Uint8Array(Float32Array.from({ length: 128 }, () => -1).buffer)),
    };
    runMicroKernel(kernel, 'k', buffers);
    const out = Array.from(new Float32Array(buffers.out.bytes.buffer.slice(0)));
    expect(out.slice(0, 16)).toEqual([1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14]);
    expect(out.slice(16, 24)).toEqual([1, 2, 3, 4, 11, 12, 13, 14]);
    expect(out.slice(24, 32)).toEqual([1, 1, 1, 1, 11, 11, 11, 11]);
    expect(out.slice(32, 40)).toEqual([20, -1, 22, 23, -1, -1, 26, -1]);
    expect(out.slice(40, 48)).toEqual([7, -1, 5, 4, -1, -1, 1, -1]);
    expect(out.slice(56, 64)).toEqual([-1, 6, -1, -1, 3, 2, -1, 0]);
    expect(out.slice(64, 72)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(out.slice(72, 80)).toEqual([16, 17, 18, 19, 20, 21, 22, 23]);
    expect(out[127]).toBe(119);
  });
});

describe('the legacy compute ops', () => {
  test('verification', () => {
    const p = '%s: !pto.vmi.vreg<64xi16>, %m: !pto.vmi.mask<64xpred>, %f: !pto.vmi.vreg<64xf32>, %b: i32';
    expect(errors(`  %r = pto.vmi.reduce_addi %s, %m : !pto.vmi.vreg<64xi16>, !pto.vmi.mask<64xpred> -> !pto.vmi.vreg<1xi16>`, p)).toEqual([
      'E0451: pto.vmi.reduce_addi: requires 32-bit integer source element type',
    ]);
    expect(errors(`  %r = pto.vmi.reduce_addf %f, %m : !pto.vmi.vreg<64xf32>, !pto.vmi.mask<64xpred> -> !pto.vmi.vreg<1xf32>`, p)).toEqual([
      'E0451: pto.vmi.reduce_addf: requires reassoc attr because VPTO vcadd performs pair-wise floating-point reduction',
    ]);
    expect(errors(`  %r = pto.vmi.group_iota %b {group = 1} : i32 -> !pto.vmi.vreg<64xi32>`, p)).toEqual([
      'E0451: pto.vmi.group_iota: requires group greater than one',
    ]);
    expect(
      errors(`  %r = pto.vmi.mask_and %m, %k : !pto.vmi.mask<64xpred>, !pto.vmi.mask<32xpred> -> !pto.vmi.mask<64xpred>`, `${p}, %k: !pto.vmi.mask<32xpred>`),
    ).toEqual(['E0451: pto.vmi.mask_and: requires all VMI mask values to have the same logical lane count']);
    expect(errors(`  %r = pto.vmi.fma %s, %s, %s : !pto.vmi.vreg<64xi16>, !pto.vmi.vreg<64xi16>, !pto.vmi.vreg<64xi16> -> !pto.vmi.vreg<64xi16>`, p)).toEqual([
      'E0451: pto.vmi.fma: requires f16, bf16, or f32 VMI element type',
    ]);
  });

  /**
   * x = 0..63 (f32). iota 5 DESC: 5, 4, ..., 5 - 63; group_iota 0, group 2 (size 32): 0..31, 0..31. m = mask_and(lanes
   * < 10, mask_not(lanes < 4)) = lanes 4..9; mask_xor / mask_or of those. reduce_addf(x, m) = 4 + ... + 9 = 39;
   * reduce_maxf = 9; reduce_mini of the iota (signed si32: 5 - i) = -4 at lane 9; reduce_addi of the group_iota under
   * lanes 4..9 = 39. fma(x, x, broadcast 1.0) = i^2 + 1. bitcast of 1.0 to i32: 0x3f800000.
   */
  test('run', () => {
    const V = '!pto.vmi.vreg<64xf32>';
    const S = '!pto.vmi.vreg<64xsi32>';
    const P = '!pto.vmi.mask<64xpred>';
    const kernel = `module attributes {pto.target_arch = "a5", pto.kernel_kind = #pto.kernel_kind<vector>} {
  func.func @k(%in: !pto.ptr<f32, gm>, %out: !pto.ptr<f32, gm>, %ints: !pto.ptr<i32, gm>) attributes {pto.kernel} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c5 = arith.constant 5 : index
    %c6 = arith.constant 6 : index
    %c10 = arith.constant 10 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c5_i32 = arith.constant 5 : i32
    %c0_i32 = arith.constant 0 : i32
    %one = arith.constant 1.0 : f32
    %c0_i64 = arith.constant 0 : i64
    %c1_i64 = arith.constant 1 : i64
    %c256_i64 = arith.constant 256 : i64
    %c768_i64 = arith.constant 768 : i64
    %c1024_i64 = arith.constant 1024 : i64
    %c2048_i64 = arith.constant 2048 : i64
    %ub_in = pto.castptr %c0_i64 : i64 -> !pto.ptr<f32, ub>
    %ub_out = pto.castptr %c1024_i64 : i64 -> !pto.ptr<f32, ub>
    %ub_ints = pto.castptr %c2048_i64 : i64 -> !pto.ptr<i32, ub>
    %ub_sints = pto.castptr %c2048_i64 : i64 -> !pto.ptr<si32, ub>
    pto.mte_gm_ub %in, %ub_in, %c0_i64, %c256_i64 nburst(%c1_i64, %c256_i64, %c256_i64) : !pto.ptr<f32, gm>, !pto.ptr<f32, ub>, i64, i64, i64, i64, i64
    pto.set_flag["PIPE_MTE2", "PIPE_V", "EVENT_ID0"]
    pto.wait_flag["PIPE_MTE2", "PIPE_V", "EVENT_ID0"]
    pto.vecscope {
      %x = pto.vmi.vload %ub_in[%c0] : !pto.ptr<f32, ub> -> ${V}
      %down = pto.vmi.iota %c5_i32 {order = "DESC"} : i32 -> ${S}
      %saw = pto.vmi.group_iota %c0_i32 {group = 2} : i32 -> !pto.vmi.vreg<64xi32>
      %lt10 = pto.vmi.create_mask %c10 : index -> ${P}
      %lt4 = pto.vmi.create_mask %c4 : index -> ${P}
      %ge4 = pto.vmi.mask_not %lt4 : ${P} -> ${P}
      %m = pto.vmi.mask_and %lt10, %ge4 : ${P}, ${P} -> ${P}
      %sum = pto.vmi.reduce_addf %x, %m {reassoc} : ${V}, ${P} -> !pto.vmi.vreg<1xf32>
      %max = pto.vmi.reduce_maxf %x, %m : ${V}, ${P} -> !pto.vmi.vreg<1xf32>
      pto.vmi.vstore %sum, %ub_out[%c0] : !pto.vmi.vreg<1xf32>, !pto.ptr<f32, ub>
      pto.vmi.vstore %max, %ub_out[%c1] : !pto.vmi.vreg<1xf32>, !pto.ptr<f32, ub>
      %lo = pto.vmi.reduce_mini %down, %m : ${S}, ${P} -> !pto.vmi.vreg<1xsi32>
      pto.vmi.vstore %lo, %ub_sints[%c0] : !pto.vmi.vreg<1xsi32>, !pto.ptr<si32, ub>
      %isum = pto.vmi.reduce_addi %saw, %m : !pto.vmi.vreg<64xi32>, ${P} -> !pto.vmi.vreg<1xi32>
      pto.vmi.vstore %isum, %ub_ints[%c1] : !pto.vmi.vreg<1xi32>, !pto.ptr<i32, ub>
      pto.vmi.vstore %saw, %ub_ints[%c64] : !pto.vmi.vreg<64xi32>, !pto.ptr<i32, ub>
      %ones = pto.vmi.broadcast %one : f32 -> ${V}
      %sq = pto.vmi.fma %x, %x, %ones : ${V}, ${V}, ${V} -> ${V}
      pto.vmi.vstore %sq, %ub_out[%c64] : ${V}, !pto.ptr<f32, ub>
      %bits = pto.vmi.bitcast %ones : ${V} -> !pto.vmi.vreg<64xi32>
      pto.vmi.vstore %bits, %ub_ints[%c128] : !pto.vmi.vreg<64xi32>, !pto.ptr<i32, ub>
      %either = pto.vmi.mask_xor %lt10, %lt4 : ${P}, ${P} -> ${P}
      %both = pto.vmi.mask_or %either, %lt4 : ${P}, ${P} -> ${P}
      %n = pto.vmi.reduce_maxf %x, %both : ${V}, ${P} -> !pto.vmi.vreg<1xf32>
      pto.vmi.vstore %n, %ub_out[%c2] : !pto.vmi.vreg<1xf32>, !pto.ptr<f32, ub>
      %nx = pto.vmi.reduce_minf %x, %either : ${V}, ${P} -> !pto.vmi.vreg<1xf32>
      pto.vmi.vstore %nx, %ub_out[%c3] : !pto.vmi.vreg<1xf32>, !pto.ptr<f32, ub>
    }
    pto.set_flag["PIPE_V", "PIPE_MTE3", "EVENT_ID0"]
    pto.wait_flag["PIPE_V", "PIPE_MTE3", "EVENT_ID0"]
    %c512_i64 = arith.constant 512 : i64
    pto.mte_ub_gm %ub_out, %out, %c512_i64 nburst(%c1_i64, %c512_i64, %c512_i64) : !pto.ptr<f32, ub>, !pto.ptr<f32, gm>, i64, i64, i64, i64
    pto.mte_ub_gm %ub_ints, %ints, %c768_i64 nburst(%c1_i64, %c768_i64, %c768_i64) : !pto.ptr<i32, ub>, !pto.ptr<i32, gm>, i64, i64, i64, i64
    return
  }
}
`;
    const buffers = {
      in: new GlobalBuffer('in', 'f32', new Uint8Array(Float32Array.from({ length: 64 }, (_, i) => i).buffer)),
      out: new GlobalBuffer('out', 'f32', new Uint8Array(512)),
      ints: new GlobalBuffer('ints', 'i32', new Uint8Array(768)),
    };
    runMicroKernel(kernel, 'k', buffers);
    const out = Array.from(new Float32Array(buffers.out.bytes.buffer.slice(0)));
    expect(out.slice(0, 4)).toEqual([39, 9, 9, 4]);
    expect([out[64], out[65], out[67], out[127]]).toEqual([1, 2, 10, 3970]);
    const ints = Array.from(new Int32Array(buffers.ints.bytes.buffer.slice(0)));
    expect(ints.slice(0, 2)).toEqual([-4, 39]);
    expect([ints[64], ints[95], ints[96], ints[127]]).toEqual([0, 31, 0, 31]);
    expect([ints[128], ints[191]]).toEqual([0x3f800000, 0x3f800000]);
  });
});
