/**
 * vgather2, vgatherb, vgather2_bc and vscatter of spec/micro/vector.json: verification (VPTO.cpp's Vgather2Op,
 * VgatherbOp, Vgather2BcOp and VscatterOp verifiers) and runs whose values are derived by hand.
 */
import { GlobalBuffer } from '../../src/machine/memory';
import { microErrors as errors, runMicroKernel } from '../fixtures/micro';

test('verification: the gather forms by source width, offsets and masks of the lanes, scatter destinations', () => {
  const params =
    '%p8: !pto.ptr<ui8, ub>, %pf: !pto.ptr<f32, ub>, %o16: !pto.vreg<128xui16>, %o32: !pto.vreg<64xi32>, %m16: !pto.mask<b16>, %m32: !pto.mask<b32>, %v: !pto.vreg<64xf32>';
  expect(errors('  %a = pto.vgather2 %p8, %o16, %m16 : !pto.ptr<ui8, ub>, !pto.vreg<128xui16>, !pto.mask<b16> -> !pto.vreg<128xui16>', params)).toEqual([]);
  expect(errors('  %a = pto.vgather2 %p8, %o16, %m16 : !pto.ptr<ui8, ub>, !pto.vreg<128xui16>, !pto.mask<b16> -> !pto.vreg<128xi16>', params)).toEqual([
    'E0451: pto.vgather2: a gather from ui8 elements requires a matching result, got !pto.vreg<128xi16>',
  ]);
  expect(errors('  %a = pto.vgather2 %pf, %o32, %m16 : !pto.ptr<f32, ub>, !pto.vreg<64xi32>, !pto.mask<b16> -> !pto.vreg<64xf32>', params)).toEqual([
    'E0451: pto.vgather2: mask type must be !pto.mask<b32>, got !pto.mask<b16>',
  ]);
  expect(errors('  %a = pto.vgatherb %pf, %o16, %m32 : !pto.ptr<f32, ub>, !pto.vreg<128xui16>, !pto.mask<b32> -> !pto.vreg<64xf32>', params)).toEqual([
    'E0451: pto.vgatherb: currently requires 32-bit offset vector elements',
  ]);
  expect(errors('  pto.vscatter %v, %p8, %o32, %m32 : !pto.vreg<64xf32>, !pto.ptr<ui8, ub>, !pto.vreg<64xi32>, !pto.mask<b32>', params)).toEqual([
    'E0451: pto.vscatter: requires destination element type to match value element type',
  ]);
});

/** UB 0..: bytes b[k] = k & 0xff (512 of them); offsets at 512 (ui16 lane i = 3i + 1) and 768 (ui32 lane k = 64k). */
function kernel(body: string): string {
  return `module attributes {pto.target_arch = "a5", pto.kernel_kind = #pto.kernel_kind<vector>} {
  func.func @k(%in: !pto.ptr<ui8, gm>, %out: !pto.ptr<ui8, gm>) attributes {pto.kernel} {
    %c0 = arith.constant 0 : index
    %c0_i64 = arith.constant 0 : i64
    %c1_i64 = arith.constant 1 : i64
    %n = arith.constant 1536 : i64
    %c4096_i64 = arith.constant 4096 : i64
    %c512 = arith.constant 512 : i64
    %c768 = arith.constant 768 : i64
    %p8 = pto.castptr %c0_i64 : i64 -> !pto.ptr<ui8, ub>
    %pf = pto.castptr %c0_i64 : i64 -> !pto.ptr<f32, ub>
    %q16 = pto.castptr %c512 : i64 -> !pto.ptr<ui16, ub>
    %q32 = pto.castptr %c768 : i64 -> !pto.ptr<ui32, ub>
    %o8 = pto.castptr %c4096_i64 : i64 -> !pto.ptr<ui8, ub>
    %o16 = pto.castptr %c4096_i64 : i64 -> !pto.ptr<ui16, ub>
    %of = pto.castptr %c4096_i64 : i64 -> !pto.ptr<f32, ub>
    pto.mte_gm_ub %in, %p8, %c0_i64, %n nburst(%c1_i64, %n, %n) : !pto.ptr<ui8, gm>, !pto.ptr<ui8, ub>, i64, i64, i64, i64, i64
    pto.set_flag["PIPE_MTE2", "PIPE_V", "EVENT_ID0"]
    pto.wait_flag["PIPE_MTE2", "PIPE_V", "EVENT_ID0"]
    pto.vecscope {
      %m16 = pto.pset_b16 "PAT_VL100" : !pto.mask<b16>
      %m32 = pto.pset_b32 "PAT_ALL" : !pto.mask<b32>
      %blocks = pto.pset_b32 "PAT_VL4" : !pto.mask<b32>
      %i16 = pto.vlds %q16[%c0] : !pto.ptr<ui16, ub> -> !pto.vreg<128xui16>
      %i32 = pto.vlds %q32[%c0] : !pto.ptr<ui32, ub> -> !pto.vreg<64xui32>
${body}
    }
    pto.set_flag["PIPE_V", "PIPE_MTE3", "EVENT_ID0"]
    pto.wait_flag["PIPE_V", "PIPE_MTE3", "EVENT_ID0"]
    pto.mte_ub_gm %o8, %out, %n nburst(%c1_i64, %n, %n) : !pto.ptr<ui8, ub>, !pto.ptr<ui8, gm>, i64, i64, i64, i64
    return
  }
}
`;
}

function run(body: string): Uint8Array {
  const input = new Uint8Array(1536);
  for (let k = 0; k < 512; k++) input[k] = k & 0xff;
  const dv = new DataView(input.buffer);
  for (let i = 0; i < 128; i++) dv.setUint16(512 + 2 * i, 3 * i + 1, true);
  for (let k = 0; k < 64; k++) dv.setUint32(768 + 4 * k, 64 * k, true);
  const buffers = { in: new GlobalBuffer('in', 'u8', input), out: new GlobalBuffer('out', 'u8', new Uint8Array(1536)) };
  runMicroKernel(kernel(body), 'k', buffers);
  return buffers.out.bytes;
}

test('vgather2 of ui8 zero-extends into ui16 lanes; vgatherb moves blocks; vscatter writes elements', () => {
  const out = run(
    `      %g = pto.vgather2 %p8, %i16, %m16 : !pto.ptr<ui8, ub>, !pto.vreg<128xui16>, !pto.mask<b16> -> !pto.vreg<128xui16>
      pto.vsts %g, %o16[%c0], %m16 : !pto.vreg<128xui16>, !pto.ptr<ui16, ub>, !pto.mask<b16>
      %b = pto.vgatherb %pf, %i32, %blocks : !pto.ptr<f32, ub>, !pto.vreg<64xui32>, !pto.mask<b32> -> !pto.vreg<64xf32>
      %c64 = arith.constant 64 : index
      pto.vsts %b, %of[%c64], %m32 : !pto.vreg<64xf32>, !pto.ptr<f32, ub>, !pto.mask<b32>
      %c128_i64 = arith.constant 4608 : i64
      %sbase = pto.castptr %c128_i64 : i64 -> !pto.ptr<ui32, ub>
      %v = pto.vlds %q32[%c0] : !pto.ptr<ui32, ub> -> !pto.vreg<64xui32>
      %rev = pto.vci %c63 {order = "DESC"} : i32 -> !pto.vreg<64xui32>
      pto.vscatter %v, %sbase, %rev, %m32 : !pto.vreg<64xui32>, !pto.ptr<ui32, ub>, !pto.vreg<64xui32>, !pto.mask<b32>`.replace(
      '      %c64 = arith.constant 64 : index',
      '      %c64 = arith.constant 64 : index\n      %c63 = arith.constant 63 : i32',
    ),
  );
  const dv = new DataView(out.buffer, out.byteOffset);
  // Lane i (i < 100) = byte 3i + 1 = (3i + 1) & 0xff, high byte zero; lanes 100.. are not stored (0 in the output).
  expect(Array.from({ length: 128 }, (_, i) => dv.getUint16(2 * i, true))).toEqual(Array.from({ length: 128 }, (_, i) => (i < 100 ? (3 * i + 1) & 0xff : 0)));
  // Blocks 0..3 from bytes 64k.., blocks 4..7 zero.
  const blocks = Array.from(out.slice(256, 512));
  expect(blocks).toEqual(Array.from({ length: 256 }, (_, j) => (j < 128 ? (64 * (j >> 5) + (j & 31)) & 0xff : 0)));
  // The offsets 64k scattered to elements 63 - k: element e holds 64 * (63 - e).
  expect(Array.from({ length: 64 }, (_, e) => dv.getUint32(512 + 4 * e, true))).toEqual(Array.from({ length: 64 }, (_, e) => 64 * (63 - e)));
});

test('vscatter traps where two active requests store one element (the docs leave the winner open)', () => {
  expect(() =>
    run(
      `      %z = pto.vbr %c0_i32 : i32 -> !pto.vreg<64xui32>
      pto.vscatter %i32, %q32, %z, %m32 : !pto.vreg<64xui32>, !pto.ptr<ui32, ub>, !pto.vreg<64xui32>, !pto.mask<b32>`.replace(
        '      %z',
        '      %c0_i32 = arith.constant 0 : i32\n      %z',
      ),
    ),
  ).toThrow('pto.vscatter: two active requests store to element 0; which one UB keeps is not implemented yet');
});

test('vbitsort: 32 scores by descending score, ties in input order, as (score bits, index) records', () => {
  // Scores ascending in pairs (0, 0, 1, 1, ..., 15, 15); indices 1000 + i.
  const scores = Float32Array.from({ length: 32 }, (_, i) => i >> 1);
  const indices = Uint32Array.from({ length: 32 }, (_, i) => 1000 + i);
  const input = new Uint8Array(256);
  input.set(new Uint8Array(scores.buffer), 0);
  input.set(new Uint8Array(indices.buffer), 128);
  const kernel = `module attributes {pto.target_arch = "a5", pto.kernel_kind = #pto.kernel_kind<vector>} {
  func.func @k(%in: !pto.ptr<ui8, gm>, %out: !pto.ptr<ui32, gm>) attributes {pto.kernel} {
    %c1 = arith.constant 1 : index
    %c0_i64 = arith.constant 0 : i64
    %c1_i64 = arith.constant 1 : i64
    %c128_i64 = arith.constant 128 : i64
    %c256_i64 = arith.constant 256 : i64
    %c512_i64 = arith.constant 512 : i64
    %p = pto.castptr %c0_i64 : i64 -> !pto.ptr<ui8, ub>
    %s = pto.castptr %c0_i64 : i64 -> !pto.ptr<f32, ub>
    %i = pto.castptr %c128_i64 : i64 -> !pto.ptr<ui32, ub>
    %o = pto.castptr %c512_i64 : i64 -> !pto.ptr<ui32, ub>
    pto.mte_gm_ub %in, %p, %c0_i64, %c256_i64 nburst(%c1_i64, %c256_i64, %c256_i64) : !pto.ptr<ui8, gm>, !pto.ptr<ui8, ub>, i64, i64, i64, i64, i64
    pto.set_flag["PIPE_MTE2", "PIPE_V", "EVENT_ID0"]
    pto.wait_flag["PIPE_MTE2", "PIPE_V", "EVENT_ID0"]
    pto.vbitsort %o, %s, %i, %c1 : !pto.ptr<ui32, ub>, !pto.ptr<f32, ub>, !pto.ptr<ui32, ub>, index
    pto.set_flag["PIPE_V", "PIPE_MTE3", "EVENT_ID0"]
    pto.wait_flag["PIPE_V", "PIPE_MTE3", "EVENT_ID0"]
    pto.mte_ub_gm %o, %out, %c256_i64 nburst(%c1_i64, %c256_i64, %c256_i64) : !pto.ptr<ui32, ub>, !pto.ptr<ui32, gm>, i64, i64, i64, i64
    return
  }
}
`;
  const buffers = { in: new GlobalBuffer('in', 'u8', input), out: new GlobalBuffer('out', 'u32', new Uint8Array(256)) };
  runMicroKernel(kernel, 'k', buffers);
  const words = new DataView(buffers.out.bytes.buffer, buffers.out.bytes.byteOffset);
  // Descending: 15 (inputs 30 then 31: a tie keeps the earlier first), 14 (28, 29), ...; record j holds score
  // 15 - (j >> 1) from input 30 - 2 * (j >> 1) + (j & 1).
  const records = Array.from({ length: 32 }, (_, j) => [words.getFloat32(8 * j, true), words.getUint32(8 * j + 4, true)]);
  expect(records).toEqual(Array.from({ length: 32 }, (_, j) => [15 - (j >> 1), 1000 + 30 - 2 * (j >> 1) + (j & 1)]));
});

test('vmrgsort4 merges four descending lists (ties to the lower list); exhausted suspension stops at the first used-up list', () => {
  // Lists of two (score, index) proposals each: L0 (9, 0) (5, 1); L1 (9, 10) (4, 11); L2 (7, 20) (7, 21); L3 (8, 30) (1, 31).
  const lists = [
    [9, 0, 5, 1],
    [9, 10, 4, 11],
    [7, 20, 7, 21],
    [8, 30, 1, 31],
  ];
  const input = new Uint8Array(64);
  const dv = new DataView(input.buffer);
  lists.forEach((l, k) => {
    dv.setFloat32(16 * k, l[0], true);
    dv.setUint32(16 * k + 4, l[1], true);
    dv.setFloat32(16 * k + 8, l[2], true);
    dv.setUint32(16 * k + 12, l[3], true);
  });
  const count = 2n | (2n << 16n) | (2n << 32n) | (2n << 48n);
  const kernel = `module attributes {pto.target_arch = "a5", pto.kernel_kind = #pto.kernel_kind<vector>} {
  func.func @k(%in: !pto.ptr<ui8, gm>, %out: !pto.ptr<ui8, gm>, %sr: !pto.ptr<i16, gm>) attributes {pto.kernel} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c0_i64 = arith.constant 0 : i64
    %c1_i64 = arith.constant 1 : i64
    %c16_i64 = arith.constant 16 : i64
    %c32_i64 = arith.constant 32 : i64
    %c48_i64 = arith.constant 48 : i64
    %c64_i64 = arith.constant 64 : i64
    %c128_i64 = arith.constant 128 : i64
    %c1024_i64 = arith.constant 1024 : i64
    %c1088_i64 = arith.constant 1088 : i64
    %count = arith.constant ${count} : i64
    %plain = arith.constant 3841 : i64
    %exhausted = arith.constant 7937 : i64
    %p = pto.castptr %c0_i64 : i64 -> !pto.ptr<ui8, ub>
    %s0 = pto.castptr %c0_i64 : i64 -> !pto.ptr<f32, ub>
    %s1 = pto.castptr %c16_i64 : i64 -> !pto.ptr<f32, ub>
    %s2 = pto.castptr %c32_i64 : i64 -> !pto.ptr<f32, ub>
    %s3 = pto.castptr %c48_i64 : i64 -> !pto.ptr<f32, ub>
    %d0 = pto.castptr %c1024_i64 : i64 -> !pto.ptr<f32, ub>
    %d1 = pto.castptr %c1088_i64 : i64 -> !pto.ptr<f32, ub>
    %o = pto.castptr %c1024_i64 : i64 -> !pto.ptr<ui8, ub>
    pto.mte_gm_ub %in, %p, %c0_i64, %c64_i64 nburst(%c1_i64, %c64_i64, %c64_i64) : !pto.ptr<ui8, gm>, !pto.ptr<ui8, ub>, i64, i64, i64, i64, i64
    pto.set_flag["PIPE_MTE2", "PIPE_V", "EVENT_ID0"]
    pto.wait_flag["PIPE_MTE2", "PIPE_V", "EVENT_ID0"]
    pto.vmrgsort4 %d0, %s0, %s1, %s2, %s3, %count, %plain : !pto.ptr<f32, ub>, !pto.ptr<f32, ub>, !pto.ptr<f32, ub>, !pto.ptr<f32, ub>, !pto.ptr<f32, ub>, i64, i64
    pto.vmrgsort4 %d1, %s0, %s1, %s2, %s3, %count, %exhausted : !pto.ptr<f32, ub>, !pto.ptr<f32, ub>, !pto.ptr<f32, ub>, !pto.ptr<f32, ub>, !pto.ptr<f32, ub>, i64, i64
    pto.set_flag["PIPE_V", "PIPE_S", "EVENT_ID0"]
    pto.wait_flag["PIPE_V", "PIPE_S", "EVENT_ID0"]
    %l0, %l1, %l2, %l3 = pto.get_vms4_sr : i16, i16, i16, i16
    pto.store_scalar %l0, %sr[%c0] : !pto.ptr<i16, gm>, i16
    pto.store_scalar %l1, %sr[%c1] : !pto.ptr<i16, gm>, i16
    pto.store_scalar %l2, %sr[%c2] : !pto.ptr<i16, gm>, i16
    pto.store_scalar %l3, %sr[%c3] : !pto.ptr<i16, gm>, i16
    pto.set_flag["PIPE_V", "PIPE_MTE3", "EVENT_ID0"]
    pto.wait_flag["PIPE_V", "PIPE_MTE3", "EVENT_ID0"]
    pto.mte_ub_gm %o, %out, %c128_i64 nburst(%c1_i64, %c128_i64, %c128_i64) : !pto.ptr<ui8, ub>, !pto.ptr<ui8, gm>, i64, i64, i64, i64
    return
  }
}
`;
  const buffers = {
    in: new GlobalBuffer('in', 'u8', input),
    out: new GlobalBuffer('out', 'u8', new Uint8Array(128)),
    sr: new GlobalBuffer('sr', 'i16', new Uint8Array(8)),
  };
  runMicroKernel(kernel, 'k', buffers);
  const o = new DataView(buffers.out.bytes.buffer, buffers.out.bytes.byteOffset);
  const records = (from: number, n: number) => Array.from({ length: n }, (_, j) => [o.getFloat32(from + 8 * j, true), o.getUint32(from + 8 * j + 4, true)]);
  // All eight by descending score: 9 (L0 before L1), 8, 7, 7 (L2 in order), 5, 4, 1.
  const merged = [
    [9, 0],
    [9, 10],
    [8, 30],
    [7, 20],
    [7, 21],
    [5, 1],
    [4, 11],
    [1, 31],
  ];
  expect(records(0, 8)).toEqual(merged);
  // Exhausted: L2 is used up after its two 7s, so the merge stops there; the rest of the destination is untouched (0).
  expect(records(64, 8)).toEqual([...merged.slice(0, 5), [0, 0], [0, 0], [0, 0]]);
  // VMS4_SR after the second merge: L0, L1 and L3 gave one proposal each, L2 two.
  expect(Array.from(new Int16Array(buffers.sr.bytes.buffer.slice(0)))).toEqual([1, 1, 2, 1]);
});
