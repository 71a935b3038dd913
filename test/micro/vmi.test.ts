/**
 * The VMI level (spec/micro/vmi.json): its logical types, the rules of lib/PTO/IR/VMI.cpp's verifiers, and a run of
 * create_mask, create_group_mask, vload, vbrc, vmul, vsel, vcadd with groups, vcvt and vstore (masked and grouped)
 * with values derived by hand.
 */
import { GlobalBuffer } from '../../src/machine/memory';
import { microErrors as errors, runMicroKernel } from '../fixtures/micro';

const V = '!pto.vmi.vreg<64xf32>';
const M = '!pto.vmi.mask<64xpred>';
const U = '!pto.vmi.vreg<64xi32>';

describe('types', () => {
  test('a VMI vreg has 8-, 16- or 32-bit elements and a positive lane count; a pred mask has no layout', () => {
    expect(
      errors('', `%a: !pto.vmi.vreg<256xf32>, %b: !pto.vmi.vreg<8xsi8>, %c: ${M}, %d: !pto.vmi.mask<128xb16, #pto.vmi.layout<deinterleaved = 2>>`),
    ).toEqual([]);
    expect(errors('', '%a: !pto.vmi.vreg<64xi64>')[0]).toMatch(/expected an 8-bit, 16-bit, or 32-bit logical element type/);
    expect(errors('', '%a: !pto.vmi.vreg<0xf32>')[0]).toMatch(/expected a positive element count/);
    expect(errors('', '%a: !pto.vmi.mask<64xb64>')[0]).toMatch(/expected granularity to be one of pred, b8, b16, b32/);
    expect(errors('', '%a: !pto.vmi.mask<64xpred, #pto.vmi.layout<contiguous>>')[0]).toMatch(/pred mask must not carry layout/);
    expect(errors('', '%a: !pto.vmi.vreg<64xf32, #pto.vmi.layout<deinterleaved = 3>>')[0]).toMatch(/expected factor to be 2 or 4/);
    expect(errors('', '%a: !pto.vmi.vreg<64xf32, #pto.vmi.layout<num_groups = 8>>')[0]).toMatch(/one logical result lane per group/);
  });
});

describe('verification', () => {
  const params = `%x: ${V}, %u: ${U}, %h: !pto.vmi.vreg<128xf16>, %m: ${M}, %m16: !pto.vmi.mask<64xb16>, %p: !pto.ptr<f32, ub>, %i: index`;
  test('elementwise ops: one lane count and element type, a mask of the data lanes and width', () => {
    expect(errors(`  %a = pto.vmi.vadd %x, %x, %m : ${V}, ${V}, ${M} -> ${V}`, params)).toEqual([]);
    expect(errors(`  %a = pto.vmi.vadd %x, %h : ${V}, !pto.vmi.vreg<128xf16> -> ${V}`, params)).toEqual([
      'E0451: pto.vmi.vadd: requires all VMI data values to have the same logical lane count',
    ]);
    expect(errors(`  %a = pto.vmi.vadd %x, %x, %m16 : ${V}, ${V}, !pto.vmi.mask<64xb16> -> ${V}`, params)).toEqual([
      'E0451: pto.vmi.vadd: requires mask granularity to match data element width',
    ]);
    expect(errors(`  %a = pto.vmi.vand %x, %x : ${V}, ${V} -> ${V}`, params)).toEqual(['E0451: pto.vmi.vand: requires integer-like VMI element type']);
    expect(errors(`  %a = pto.vmi.vdiv %u, %u : ${U}, ${U} -> ${U}`, params)).toEqual(['E0451: pto.vmi.vdiv: requires f16 or f32 VMI element type']);
    expect(errors(`  %a = pto.vmi.vabs %u : ${U} -> ${U}`, params)).toEqual([
      'E0451: pto.vmi.vabs: requires si8, si16, si32, f16, bf16, or f32 VMI element type',
    ]);
    // The legacy elementwise ops check the element's kind first.
    expect(errors(`  %a = pto.vmi.addf %u, %u : ${U}, ${U} -> ${U}`, params)).toEqual(['E0451: pto.vmi.addf: requires floating-point-like VMI element type']);
    expect(errors(`  %a = pto.vmi.vselr %x, %h : ${V}, !pto.vmi.vreg<128xf16> -> ${V}`, params)).toEqual([
      'E0451: pto.vmi.vselr: requires index lane count to match result lane count',
    ]);
    expect(
      errors(
        `  %a = pto.vmi.vmuls %b, %s, %m : !pto.vmi.vreg<64xbf16>, bf16, ${M} -> !pto.vmi.vreg<64xbf16>`,
        `%b: !pto.vmi.vreg<64xbf16>, %s: bf16, %m: ${M}`,
      ),
    ).toEqual(['E0451: pto.vmi.vmuls: requires i16, i32, f16, or f32 VMI element type']);
    // Masks take the mask logic path of vand/vor/vxor/vnot: no governing mask.
    expect(errors(`  %k = pto.vmi.vxor %m, %m : ${M}, ${M} -> ${M}`, params)).toEqual([]);
    expect(errors(`  %k = pto.vmi.vand %m, %m, %m : ${M}, ${M}, ${M} -> ${M}`, params)).toEqual([
      'E0451: pto.vmi.vand: mask logic op does not support predication mask',
    ]);
  });

  test('vstore and vload modes, reductions and group masks', () => {
    expect(errors(`  pto.vmi.vstore %x, %p[%i], %i {group = 8} : ${V}, !pto.ptr<f32, ub>`, params)).toEqual([]);
    expect(errors(`  pto.vmi.vstore %x, %p[%i], %i, %m {group = 8} : ${V}, !pto.ptr<f32, ub>, ${M}`, params)).toEqual([
      'E0451: pto.vmi.vstore: group mode does not support mask operand',
    ]);
    expect(errors(`  pto.vmi.vstore %x, %p[%i] {group = 8} : ${V}, !pto.ptr<f32, ub>`, params)).toEqual([
      'E0451: pto.vmi.vstore: group requires a stride operand',
    ]);
    expect(errors(`  pto.vmi.masked_store %x, %p[%i], %m16 : ${V}, !pto.ptr<f32, ub>, !pto.vmi.mask<64xb16>`, params)).toEqual([
      'E0451: pto.vmi.masked_store: requires mask granularity to match data element width',
    ]);
    expect(errors(`  %a = pto.vmi.vload %p[%i], %i {group = 6} : !pto.ptr<f32, ub> -> ${V}`, params)).toEqual([
      'E0451: pto.vmi.vload: requires num_groups to evenly divide VMI logical lane count 64',
    ]);
    expect(errors(`  %a = pto.vmi.vload %p[%i] : !pto.ptr<f32, ub> -> !pto.vmi.vreg<128xf16>`, params)).toEqual([
      'E0451: pto.vmi.vload: requires memory source element type to match VMI data element type',
    ]);
    expect(errors(`  %s = pto.vmi.vcadd %x, %m {group = 8} : ${V}, ${M} -> !pto.vmi.vreg<8xf32>`, params)).toEqual([
      'E0451: pto.vmi.vcadd: floating add-reduction requires reassoc attr',
    ]);
    expect(errors(`  %s = pto.vmi.vcadd %x, %m {group = 8, reassoc} : ${V}, ${M} -> !pto.vmi.vreg<4xf32>`, params)).toEqual([
      'E0451: pto.vmi.vcadd: result lane count must equal group count 8, got 4',
    ]);
    expect(errors(`  %s = pto.vmi.vcmax %x, %m {group = 8} : ${V}, ${M} -> !pto.vmi.vreg<8xf32, #pto.vmi.layout<contiguous>>`, params)).toEqual([
      'E0451: pto.vmi.vcmax: layout-assigned result must use #pto.vmi.layout<num_groups = 8>',
    ]);
    expect(errors(`  %g = pto.vmi.create_group_mask %i {num_groups = 8, group_size = 4} : index -> ${M}`, params)).toEqual([
      'E0451: pto.vmi.create_group_mask: requires result lane count to equal num_groups * group_size',
    ]);
  });

  test("vcvt's direction and its rounding and saturate contract", () => {
    const p = `%x: ${V}, %u: !pto.vmi.vreg<64xi32>, %s: !pto.vmi.vreg<64xsi32>`;
    expect(errors(`  %a = pto.vmi.vcvt %x {saturate = "SAT"} : ${V} -> !pto.vmi.vreg<64xsi32>`, p)).toEqual([]);
    expect(errors(`  %a = pto.vmi.vcvt %x : ${V} -> !pto.vmi.vreg<64xsi32>`, p)).toEqual([
      "E0451: pto.vmi.vcvt: 'saturate' attribute is required for this fp-to-si conversion; write 'SAT' or 'NOSAT'",
    ]);
    expect(errors(`  %a = pto.vmi.vcvt %u : !pto.vmi.vreg<64xi32> -> ${V}`, p)).toEqual([
      'E0451: pto.vmi.vcvt: int-to-fp conversion requires explicitly signed integer source element type',
    ]);
    // The legacy conversions keep their own verifiers and messages.
    expect(errors(`  %a = pto.vmi.fptosi %x {saturate = "FOO"} : ${V} -> !pto.vmi.vreg<64xsi32>`, p)).toEqual([
      "E0451: pto.vmi.fptosi: saturate attr must be 'SAT' or 'NOSAT'",
    ]);
    expect(errors(`  %a = pto.vmi.extui %s : !pto.vmi.vreg<64xsi32> -> !pto.vmi.vreg<64xi32>`, p)).toEqual([
      'E0451: pto.vmi.extui: requires unsigned or signless integer source and result element types',
    ]);
    expect(errors(`  %a = pto.vmi.vcvt %s {rounding = "R"} : !pto.vmi.vreg<64xsi32> -> ${V}`, p)).toEqual([
      "E0451: pto.vmi.vcvt: 'rounding' attribute is only valid for floating-point narrowing or floating-point-to-integer conversions",
    ]);
  });
});

/**
 * x[i] = i - 16 (64 f32). m = the first 48 lanes; y = x * 2.5; z = m ? y : x. g = lanes i % 8 < 3 of 8 groups of 8:
 * sum[j] = x[8j] + x[8j + 1] + x[8j + 2] = 24j - 45. c = vcvt(y) to si32, rounding R: y[1] = -37.5 -> -38,
 * y[3] = -32.5 -> -32 (ties to even). The masked store of x keeps the 7s past lane 47.
 */
const KERNEL = `module attributes {pto.target_arch = "a5", pto.kernel_kind = #pto.kernel_kind<vector>} {
  func.func @k(%in: !pto.ptr<f32, gm>, %out: !pto.ptr<f32, gm>, %sums: !pto.ptr<f32, gm>, %ints: !pto.ptr<i32, gm>, %kept: !pto.ptr<f32, gm>) attributes {pto.kernel} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c48 = arith.constant 48 : index
    %scale = arith.constant 2.5 : f32
    %c0_i64 = arith.constant 0 : i64
    %c1_i64 = arith.constant 1 : i64
    %c32_i64 = arith.constant 32 : i64
    %c256_i64 = arith.constant 256 : i64
    %c1024_i64 = arith.constant 1024 : i64
    %c2048_i64 = arith.constant 2048 : i64
    %c3072_i64 = arith.constant 3072 : i64
    %c4096_i64 = arith.constant 4096 : i64
    %ub_in = pto.castptr %c0_i64 : i64 -> !pto.ptr<f32, ub>
    %ub_out = pto.castptr %c1024_i64 : i64 -> !pto.ptr<f32, ub>
    %ub_sums = pto.castptr %c2048_i64 : i64 -> !pto.ptr<f32, ub>
    %ub_ints = pto.castptr %c3072_i64 : i64 -> !pto.ptr<si32, ub>
    %ub_kept = pto.castptr %c4096_i64 : i64 -> !pto.ptr<f32, ub>
    pto.mte_gm_ub %in, %ub_in, %c0_i64, %c256_i64 nburst(%c1_i64, %c256_i64, %c256_i64)
      : !pto.ptr<f32, gm>, !pto.ptr<f32, ub>, i64, i64, i64, i64, i64
    pto.mte_gm_ub %kept, %ub_kept, %c0_i64, %c256_i64 nburst(%c1_i64, %c256_i64, %c256_i64)
      : !pto.ptr<f32, gm>, !pto.ptr<f32, ub>, i64, i64, i64, i64, i64
    pto.set_flag["PIPE_MTE2", "PIPE_V", "EVENT_ID0"]
    pto.wait_flag["PIPE_MTE2", "PIPE_V", "EVENT_ID0"]
    pto.vecscope {
      %x = pto.vmi.vload %ub_in[%c0] : !pto.ptr<f32, ub> -> ${V}
      %m = pto.vmi.create_mask %c48 : index -> ${M}
      %s = pto.vmi.vbrc %scale : f32 -> ${V}
      %y = pto.vmi.vmul %x, %s : ${V}, ${V} -> ${V}
      %z = pto.vmi.vsel %m, %y, %x : ${M}, ${V}, ${V} -> ${V}
      pto.vmi.vstore %z, %ub_out[%c0] : ${V}, !pto.ptr<f32, ub>
      %g = pto.vmi.create_group_mask %c3 {num_groups = 8, group_size = 8} : index -> ${M}
      %sum = pto.vmi.vcadd %x, %g {group = 8, reassoc} : ${V}, ${M} -> !pto.vmi.vreg<8xf32>
      pto.vmi.vstore %sum, %ub_sums[%c0], %c1 {group = 8} : !pto.vmi.vreg<8xf32>, !pto.ptr<f32, ub>
      %c = pto.vmi.vcvt %y {saturate = "SAT"} : ${V} -> !pto.vmi.vreg<64xsi32>
      pto.vmi.vstore %c, %ub_ints[%c0] : !pto.vmi.vreg<64xsi32>, !pto.ptr<si32, ub>
      pto.vmi.vstore %x, %ub_kept[%c0], %m : ${V}, !pto.ptr<f32, ub>, ${M}
    }
    pto.set_flag["PIPE_V", "PIPE_MTE3", "EVENT_ID0"]
    pto.wait_flag["PIPE_V", "PIPE_MTE3", "EVENT_ID0"]
    pto.mte_ub_gm %ub_out, %out, %c256_i64 nburst(%c1_i64, %c256_i64, %c256_i64) : !pto.ptr<f32, ub>, !pto.ptr<f32, gm>, i64, i64, i64, i64
    pto.mte_ub_gm %ub_sums, %sums, %c32_i64 nburst(%c1_i64, %c32_i64, %c32_i64) : !pto.ptr<f32, ub>, !pto.ptr<f32, gm>, i64, i64, i64, i64
    pto.mte_ub_gm %ub_ints, %ints, %c256_i64 nburst(%c1_i64, %c256_i64, %c256_i64) : !pto.ptr<si32, ub>, !pto.ptr<i32, gm>, i64, i64, i64, i64
    pto.mte_ub_gm %ub_kept, %kept, %c256_i64 nburst(%c1_i64, %c256_i64, %c256_i64) : !pto.ptr<f32, ub>, !pto.ptr<f32, gm>, i64, i64, i64, i64
    return
  }
}
`;

test('create_mask, vbrc, vmul, vsel, grouped vcadd and vstore, vcvt and a masked vstore, run', () => {
  const f32 = (values: number[]) => new Uint8Array(Float32Array.from(values).buffer);
  const buffers = {
    in: new GlobalBuffer('in', 'f32', f32(Array.from({ length: 64 }, (_, i) => i - 16))),
    out: new GlobalBuffer('out', 'f32', new Uint8Array(256)),
    sums: new GlobalBuffer('sums', 'f32', new Uint8Array(32)),
    ints: new GlobalBuffer('ints', 'i32', new Uint8Array(256)),
    kept: new GlobalBuffer('kept', 'f32', f32(new Array(64).fill(7))),
  };
  runMicroKernel(KERNEL, 'k', buffers);
  const read = (b: GlobalBuffer) => Array.from(new Float32Array(b.bytes.buffer.slice(0)));
  const out = read(buffers.out);
  expect([out[0], out[47], out[48], out[63]]).toEqual([-40, 77.5, 32, 47]);
  expect(read(buffers.sums)).toEqual([-45, -21, 3, 27, 51, 75, 99, 123]);
  const ints = Array.from(new Int32Array(buffers.ints.bytes.buffer.slice(0)));
  expect([ints[0], ints[1], ints[3], ints[63]]).toEqual([-40, -38, -32, 118]);
  const kept = read(buffers.kept);
  expect([kept[0], kept[47], kept[48], kept[63]]).toEqual([-16, 31, 7, 7]);
});

/**
 * idx = vci 0 (0..63, i32); lt = lanes where idx < 10 (signless: unsigned compare) under pset PAT_ALL;
 * r = vadds(idx, 100) under lt, merge by default: i + 100 below 10, else i. rev = vci 63 DESC = 63 - i;
 * g = vgather(table, rev, lt): table[63 - i] = (63 - i) / 2 below 10, else 0. w = vci 250 over 8 lanes, stored as a
 * group of 8 slots into ui8 memory: the low bytes 250..255, 0, 1. ge = vnot lt (mask logic); vadds under ge with pmode
 * zero: 0 below 10, i + 100 from 10.
 */
const KERNEL2 = `module attributes {pto.target_arch = "a5", pto.kernel_kind = #pto.kernel_kind<vector>} {
  func.func @k(%table: !pto.ptr<f32, gm>, %ints: !pto.ptr<i32, gm>, %gathered: !pto.ptr<f32, gm>, %bytes: !pto.ptr<ui8, gm>) attributes {pto.kernel} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c0_i32 = arith.constant 0 : i32
    %c10_i32 = arith.constant 10 : i32
    %c63_i32 = arith.constant 63 : i32
    %c100_i32 = arith.constant 100 : i32
    %c250_i32 = arith.constant 250 : i32
    %c0_i64 = arith.constant 0 : i64
    %c1_i64 = arith.constant 1 : i64
    %c8_i64 = arith.constant 8 : i64
    %c256_i64 = arith.constant 256 : i64
    %c512_i64 = arith.constant 512 : i64
    %c1024_i64 = arith.constant 1024 : i64
    %c2048_i64 = arith.constant 2048 : i64
    %c3072_i64 = arith.constant 3072 : i64
    %ub_table = pto.castptr %c0_i64 : i64 -> !pto.ptr<f32, ub>
    %ub_ints = pto.castptr %c1024_i64 : i64 -> !pto.ptr<i32, ub>
    %ub_gathered = pto.castptr %c2048_i64 : i64 -> !pto.ptr<f32, ub>
    %ub_bytes = pto.castptr %c3072_i64 : i64 -> !pto.ptr<ui8, ub>
    pto.mte_gm_ub %table, %ub_table, %c0_i64, %c256_i64 nburst(%c1_i64, %c256_i64, %c256_i64)
      : !pto.ptr<f32, gm>, !pto.ptr<f32, ub>, i64, i64, i64, i64, i64
    pto.set_flag["PIPE_MTE2", "PIPE_V", "EVENT_ID0"]
    pto.wait_flag["PIPE_MTE2", "PIPE_V", "EVENT_ID0"]
    pto.vecscope {
      %idx = pto.vmi.vci %c0_i32 : i32 -> !pto.vmi.vreg<64xi32>
      %all = pto.vmi.pset "PAT_ALL" : ${M}
      %ten = pto.vmi.vbrc %c10_i32 : i32 -> !pto.vmi.vreg<64xi32>
      %lt = pto.vmi.vcmp %idx, %ten, %all {cmp = "lt"} : !pto.vmi.vreg<64xi32>, !pto.vmi.vreg<64xi32>, ${M} -> ${M}
      %r = pto.vmi.vadds %idx, %c100_i32, %lt : !pto.vmi.vreg<64xi32>, i32, ${M} -> !pto.vmi.vreg<64xi32>
      pto.vmi.vstore %r, %ub_ints[%c0] : !pto.vmi.vreg<64xi32>, !pto.ptr<i32, ub>
      %ge = pto.vmi.vnot %lt : ${M} -> ${M}
      %r2 = pto.vmi.vadds %idx, %c100_i32, %ge {pmode = "zero"} : !pto.vmi.vreg<64xi32>, i32, ${M} -> !pto.vmi.vreg<64xi32>
      pto.vmi.vstore %r2, %ub_ints[%c64] : !pto.vmi.vreg<64xi32>, !pto.ptr<i32, ub>
      %rev = pto.vmi.vci %c63_i32 {order = "DESC"} : i32 -> !pto.vmi.vreg<64xi32>
      %g = pto.vmi.vgather %ub_table, %rev, %lt : !pto.ptr<f32, ub>, !pto.vmi.vreg<64xi32>, ${M} -> ${V}
      pto.vmi.vstore %g, %ub_gathered[%c0] : ${V}, !pto.ptr<f32, ub>
      %w = pto.vmi.vci %c250_i32 : i32 -> !pto.vmi.vreg<8xi32>
      pto.vmi.vstore %w, %ub_bytes[%c0], %c1 {group = 8} : !pto.vmi.vreg<8xi32>, !pto.ptr<ui8, ub>
    }
    pto.set_flag["PIPE_V", "PIPE_MTE3", "EVENT_ID0"]
    pto.wait_flag["PIPE_V", "PIPE_MTE3", "EVENT_ID0"]
    pto.mte_ub_gm %ub_ints, %ints, %c512_i64 nburst(%c1_i64, %c512_i64, %c512_i64) : !pto.ptr<i32, ub>, !pto.ptr<i32, gm>, i64, i64, i64, i64
    pto.mte_ub_gm %ub_gathered, %gathered, %c256_i64 nburst(%c1_i64, %c256_i64, %c256_i64) : !pto.ptr<f32, ub>, !pto.ptr<f32, gm>, i64, i64, i64, i64
    pto.mte_ub_gm %ub_bytes, %bytes, %c8_i64 nburst(%c1_i64, %c8_i64, %c8_i64) : !pto.ptr<ui8, ub>, !pto.ptr<ui8, gm>, i64, i64, i64, i64
    return
  }
}
`;

test('vci, pset, vcmp, vadds (merge), vgather and a packed group vstore, run', () => {
  const buffers = {
    table: new GlobalBuffer('table', 'f32', new Uint8Array(Float32Array.from({ length: 64 }, (_, j) => j / 2).buffer)),
    ints: new GlobalBuffer('ints', 'i32', new Uint8Array(512)),
    gathered: new GlobalBuffer('gathered', 'f32', new Uint8Array(256)),
    bytes: new GlobalBuffer('bytes', 'u8', new Uint8Array(8)),
  };
  runMicroKernel(KERNEL2, 'k', buffers);
  const ints = Array.from(new Int32Array(buffers.ints.bytes.buffer.slice(0)));
  expect([ints[0], ints[9], ints[10], ints[63]]).toEqual([100, 109, 10, 63]);
  // vnot of lt: lanes 10..63; vadds under it with pmode zero: 0 below 10, i + 100 from 10.
  expect([ints[64], ints[73], ints[74], ints[127]]).toEqual([0, 0, 110, 163]);
  const gathered = Array.from(new Float32Array(buffers.gathered.bytes.buffer.slice(0)));
  expect([gathered[0], gathered[9], gathered[10], gathered[63]]).toEqual([31.5, 27, 0, 0]);
  expect(Array.from(buffers.bytes.bytes)).toEqual([250, 251, 252, 253, 254, 255, 0, 1]);
});

/**
 * x = 20000 in lanes 0..7 and i in lanes 8..15 (si16). group_reduce_addi over 2 groups of 8: 160000 wraps to
 * 160000 - 131072 = 28928, and 8 + ... + 15 = 92; group_broadcast spreads them back over the 16 lanes.
 * a = vci 0, b = vci 100: vintlv gives low = 0, 100, 1, 101, ..., 7, 107; vdintlv(low, high) gives b back as high.
 * vselr(a, 15 - i) reverses a; the legacy addi gives 2i + 100.
 */
const KERNEL3 = `module attributes {pto.target_arch = "a5", pto.kernel_kind = #pto.kernel_kind<vector>} {
  func.func @k(%in: !pto.ptr<i16, gm>, %out: !pto.ptr<i16, gm>) attributes {pto.kernel} {
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %c48 = arith.constant 48 : index
    %c64 = arith.constant 64 : index
    %c80 = arith.constant 80 : index
    %c15_i16 = arith.constant 15 : i16
    %c0_i16 = arith.constant 0 : i16
    %c100_i16 = arith.constant 100 : i16
    %c0_i64 = arith.constant 0 : i64
    %c1_i64 = arith.constant 1 : i64
    %c32_i64 = arith.constant 32 : i64
    %c192_i64 = arith.constant 192 : i64
    %c256_i64 = arith.constant 256 : i64
    %ub_in = pto.castptr %c0_i64 : i64 -> !pto.ptr<si16, ub>
    %ub_out = pto.castptr %c256_i64 : i64 -> !pto.ptr<si16, ub>
    pto.mte_gm_ub %in, %ub_in, %c0_i64, %c32_i64 nburst(%c1_i64, %c32_i64, %c32_i64)
      : !pto.ptr<i16, gm>, !pto.ptr<si16, ub>, i64, i64, i64, i64, i64
    pto.set_flag["PIPE_MTE2", "PIPE_V", "EVENT_ID0"]
    pto.wait_flag["PIPE_MTE2", "PIPE_V", "EVENT_ID0"]
    pto.vecscope {
      %x = pto.vmi.vload %ub_in[%c0] : !pto.ptr<si16, ub> -> !pto.vmi.vreg<16xsi16>
      %m = pto.vmi.create_mask %c16 : index -> !pto.vmi.mask<16xpred>
      %s = pto.vmi.group_reduce_addi %x, %m {num_groups = 2 : i64} : !pto.vmi.vreg<16xsi16>, !pto.vmi.mask<16xpred> -> !pto.vmi.vreg<2xsi16>
      %b = pto.vmi.group_broadcast %s {num_groups = 2 : i64} : !pto.vmi.vreg<2xsi16> -> !pto.vmi.vreg<16xsi16>
      pto.vmi.store %b, %ub_out[%c0] : !pto.vmi.vreg<16xsi16>, !pto.ptr<si16, ub>
      %lhs = pto.vmi.vci %c0_i16 : i16 -> !pto.vmi.vreg<16xsi16>
      %rhs = pto.vmi.vci %c100_i16 : i16 -> !pto.vmi.vreg<16xsi16>
      %low, %high = pto.vmi.vintlv %lhs, %rhs, %m : !pto.vmi.vreg<16xsi16>, !pto.vmi.vreg<16xsi16>, !pto.vmi.mask<16xpred> -> !pto.vmi.vreg<16xsi16>, !pto.vmi.vreg<16xsi16>
      pto.vmi.vstore %low, %ub_out[%c16] : !pto.vmi.vreg<16xsi16>, !pto.ptr<si16, ub>
      %even, %odd = pto.vmi.vdintlv %low, %high, %m : !pto.vmi.vreg<16xsi16>, !pto.vmi.vreg<16xsi16>, !pto.vmi.mask<16xpred> -> !pto.vmi.vreg<16xsi16>, !pto.vmi.vreg<16xsi16>
      pto.vmi.vstore %odd, %ub_out[%c32] : !pto.vmi.vreg<16xsi16>, !pto.ptr<si16, ub>
      pto.vmi.vstore %even, %ub_out[%c48] : !pto.vmi.vreg<16xsi16>, !pto.ptr<si16, ub>
      %rev = pto.vmi.vci %c15_i16 {order = "DESC"} : i16 -> !pto.vmi.vreg<16xsi16>
      %sel = pto.vmi.vselr %lhs, %rev : !pto.vmi.vreg<16xsi16>, !pto.vmi.vreg<16xsi16> -> !pto.vmi.vreg<16xsi16>
      pto.vmi.vstore %sel, %ub_out[%c64] : !pto.vmi.vreg<16xsi16>, !pto.ptr<si16, ub>
      %sum = pto.vmi.addi %lhs, %rhs : !pto.vmi.vreg<16xsi16>, !pto.vmi.vreg<16xsi16> -> !pto.vmi.vreg<16xsi16>
      pto.vmi.vstore %sum, %ub_out[%c80] : !pto.vmi.vreg<16xsi16>, !pto.ptr<si16, ub>
    }
    pto.set_flag["PIPE_V", "PIPE_MTE3", "EVENT_ID0"]
    pto.wait_flag["PIPE_V", "PIPE_MTE3", "EVENT_ID0"]
    pto.mte_ub_gm %ub_out, %out, %c192_i64 nburst(%c1_i64, %c192_i64, %c192_i64) : !pto.ptr<si16, ub>, !pto.ptr<i16, gm>, i64, i64, i64, i64
    return
  }
}
`;

test('group_reduce_addi wraps, group_broadcast, vintlv and vdintlv, vselr and addi, run', () => {
  const x = Int16Array.from({ length: 16 }, (_, i) => (i < 8 ? 20000 : i));
  const buffers = { in: new GlobalBuffer('in', 'i16', new Uint8Array(x.buffer)), out: new GlobalBuffer('out', 'i16', new Uint8Array(192)) };
  runMicroKernel(KERNEL3, 'k', buffers);
  const out = Array.from(new Int16Array(buffers.out.bytes.buffer.slice(0)));
  expect(out.slice(0, 16)).toEqual([...new Array(8).fill(28928), ...new Array(8).fill(92)]);
  expect(out.slice(16, 32)).toEqual(Array.from({ length: 16 }, (_, i) => (i % 2 === 0 ? i / 2 : 100 + (i - 1) / 2)));
  expect(out.slice(32, 48)).toEqual(Array.from({ length: 16 }, (_, i) => 100 + i));
  expect(out.slice(48, 64)).toEqual(Array.from({ length: 16 }, (_, i) => i));
  // vselr by 15 - i reverses a; the legacy addi adds a and b lane by lane: 2i + 100.
  expect(out.slice(64, 80)).toEqual(Array.from({ length: 16 }, (_, i) => 15 - i));
  expect(out.slice(80, 96)).toEqual(Array.from({ length: 16 }, (_, i) => 2 * i + 100));
});

/**
 * bf16 lanes 100, -100, 1.0, 0.25 as two bf16x2 lanes, converted to f4E1M2x2 with rounding R: E1M2 codes are
 * sign << 3 | (|v| / 0.25), a value past 1.75 becomes 1.75 (code 7, the quant-bf16x2-to-f4x2-overflow golden), and each
 * byte holds the odd lane's code high: (15 << 4) | 7 = 247, (1 << 4) | 4 = 20.
 */
const KERNEL4 = `module attributes {pto.target_arch = "a5", pto.kernel_kind = #pto.kernel_kind<vector>} {
  func.func @k(%in: !pto.ptr<bf16, gm>, %out: !pto.ptr<ui8, gm>) attributes {pto.kernel} {
    %c0 = arith.constant 0 : index
    %c0_i64 = arith.constant 0 : i64
    %c1_i64 = arith.constant 1 : i64
    %c2_i64 = arith.constant 2 : i64
    %c8_i64 = arith.constant 8 : i64
    %c256_i64 = arith.constant 256 : i64
    %ub_in = pto.castptr %c0_i64 : i64 -> !pto.ptr<bf16, ub>
    %ub_out = pto.castptr %c256_i64 : i64 -> !pto.ptr<!pto.f4E1M2x2, ub>
    pto.mte_gm_ub %in, %ub_in, %c0_i64, %c8_i64 nburst(%c1_i64, %c8_i64, %c8_i64)
      : !pto.ptr<bf16, gm>, !pto.ptr<bf16, ub>, i64, i64, i64, i64, i64
    pto.set_flag["PIPE_MTE2", "PIPE_V", "EVENT_ID0"]
    pto.wait_flag["PIPE_MTE2", "PIPE_V", "EVENT_ID0"]
    pto.vecscope {
      %x = pto.vmi.vload %ub_in[%c0] : !pto.ptr<bf16, ub> -> !pto.vmi.vreg<4xbf16>
      %pair = pto.vmi.vinterpret_cast %x : !pto.vmi.vreg<4xbf16> -> !pto.vmi.vreg<2x!pto.bf16x2>
      %q = pto.vmi.vcvt %pair {rounding = "R"} : !pto.vmi.vreg<2x!pto.bf16x2> -> !pto.vmi.vreg<2x!pto.f4E1M2x2>
      pto.vmi.vstore %q, %ub_out[%c0] : !pto.vmi.vreg<2x!pto.f4E1M2x2>, !pto.ptr<!pto.f4E1M2x2, ub>
    }
    pto.set_flag["PIPE_V", "PIPE_MTE3", "EVENT_ID0"]
    pto.wait_flag["PIPE_V", "PIPE_MTE3", "EVENT_ID0"]
    %ub_bytes = pto.castptr %c256_i64 : i64 -> !pto.ptr<ui8, ub>
    pto.mte_ub_gm %ub_bytes, %out, %c2_i64 nburst(%c1_i64, %c2_i64, %c2_i64) : !pto.ptr<ui8, ub>, !pto.ptr<ui8, gm>, i64, i64, i64, i64
    return
  }
}
`;

test('vinterpret_cast and vcvt bf16x2 -> f4E1M2x2 saturating past the range, run', () => {
  const bits = Uint16Array.from([0x42c8, 0xc2c8, 0x3f80, 0x3e80]);
  const buffers = { in: new GlobalBuffer('in', 'bf16', new Uint8Array(bits.buffer)), out: new GlobalBuffer('out', 'u8', new Uint8Array(2)) };
  runMicroKernel(KERNEL4, 'k', buffers);
  expect(Array.from(buffers.out.bytes)).toEqual([247, 20]);
});
