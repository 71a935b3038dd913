/**
 * The unaligned loads and stores of spec/micro/vector.json and their alignment state (src/micro/run/align.ts):
 * vldas/vldus, init_align/vstus/vstas/vstar/vstur/pstu and SPR AR (sprclr, sprsti, sprsts), values derived by hand.
 */
import { GlobalBuffer } from '../../src/machine/memory';
import { microErrors as errors, runMicroKernel } from '../fixtures/micro';

test('verification: pstu pairs b16 with ui16 and b32 with ui32; vldus increment and updated base together', () => {
  const params = '%a: !pto.align, %m: !pto.mask<b16>, %p: !pto.ptr<ui32, ub>, %q: !pto.ptr<ui16, ub>, %f: !pto.ptr<f32, ub>, %i: index';
  expect(errors('  %o, %b = pto.pstu %a, %m, %q : !pto.align, !pto.mask<b16>, !pto.ptr<ui16, ub> -> !pto.align, !pto.ptr<ui16, ub>', params)).toEqual([]);
  expect(errors('  %o, %b = pto.pstu %a, %m, %p : !pto.align, !pto.mask<b16>, !pto.ptr<ui32, ub> -> !pto.align, !pto.ptr<ui32, ub>', params)).toEqual([
    'E0451: pto.pstu: requires !pto.mask<b16> to pair with !pto.ptr<ui16, ub>',
  ]);
  expect(
    errors('  %v, %o, %n = pto.vldus %f, %a, %i : !pto.ptr<f32, ub>, !pto.align, index -> !pto.vreg<64xf32>, !pto.align, !pto.ptr<f32, ub>', params),
  ).toEqual([]);
  expect(errors('  %v, %o, %n = pto.vldus %f, %a : !pto.ptr<f32, ub>, !pto.align -> !pto.vreg<64xf32>, !pto.align, !pto.ptr<f32, ub>', params)[0]).toMatch(
    /^E0450: pto.vldus /,
  );
});

/** UB 0..: f32 x[i] = i (1024 of them); the output region at UB 8192 starts as -1. */
function run(body: string, outFloats = 256): number[] {
  const kernel = `module attributes {pto.target_arch = "a5", pto.kernel_kind = #pto.kernel_kind<vector>} {
  func.func @k(%in: !pto.ptr<f32, gm>, %out: !pto.ptr<f32, gm>) attributes {pto.kernel} {
    %c0 = arith.constant 0 : index
    %c0_i64 = arith.constant 0 : i64
    %c1_i64 = arith.constant 1 : i64
    %c4096_i64 = arith.constant 4096 : i64
    %c8192_i64 = arith.constant 8192 : i64
    %nout = arith.constant ${outFloats * 4} : i64
    %p = pto.castptr %c0_i64 : i64 -> !pto.ptr<f32, ub>
    %o = pto.castptr %c8192_i64 : i64 -> !pto.ptr<f32, ub>
    pto.mte_gm_ub %in, %p, %c0_i64, %c4096_i64 nburst(%c1_i64, %c4096_i64, %c4096_i64) : !pto.ptr<f32, gm>, !pto.ptr<f32, ub>, i64, i64, i64, i64, i64
    pto.mte_gm_ub %out, %o, %c0_i64, %nout nburst(%c1_i64, %nout, %nout) : !pto.ptr<f32, gm>, !pto.ptr<f32, ub>, i64, i64, i64, i64, i64
    pto.set_flag["PIPE_MTE2", "PIPE_V", "EVENT_ID0"]
    pto.wait_flag["PIPE_MTE2", "PIPE_V", "EVENT_ID0"]
    pto.vecscope {
      %all = pto.pset_b32 "PAT_ALL" : !pto.mask<b32>
${body}
    }
    pto.set_flag["PIPE_V", "PIPE_MTE3", "EVENT_ID0"]
    pto.wait_flag["PIPE_V", "PIPE_MTE3", "EVENT_ID0"]
    pto.mte_ub_gm %o, %out, %nout nburst(%c1_i64, %nout, %nout) : !pto.ptr<f32, ub>, !pto.ptr<f32, gm>, i64, i64, i64, i64
    return
  }
}
`;
  const x = Float32Array.from({ length: 1024 }, (_, i) => i);
  const buffers = {
    in: new GlobalBuffer('in', 'f32', new Uint8Array(x.buffer)),
    out: new GlobalBuffer('out', 'f32', new Uint8Array(Float32Array.from(Array(outFloats).fill(-1)).buffer)),
  };
  runMicroKernel(kernel, 'k', buffers);
  return Array.from(new Float32Array(buffers.out.bytes.buffer.slice(0)));
}
const range = (from: number, n: number) => Array.from({ length: n }, (_, i) => from + i);

test('vldas/vldus read 256 bytes from an unaligned address; the post-update stream continues 256 bytes on', () => {
  const out = run(`      %c3_i64 = arith.constant 12 : i64
      %s = pto.castptr %c3_i64 : i64 -> !pto.ptr<f32, ub>
      %c64 = arith.constant 64 : index
      %a0 = pto.vldas %s : !pto.ptr<f32, ub> -> !pto.align
      %v0, %a1, %s1 = pto.vldus %s, %a0, %c64 : !pto.ptr<f32, ub>, !pto.align, index -> !pto.vreg<64xf32>, !pto.align, !pto.ptr<f32, ub>
      %v1, %a2 = pto.vldus %s1, %a1 : !pto.ptr<f32, ub>, !pto.align -> !pto.vreg<64xf32>, !pto.align
      pto.vsts %v0, %o[%c0], %all : !pto.vreg<64xf32>, !pto.ptr<f32, ub>, !pto.mask<b32>
      pto.vsts %v1, %o[%c64], %all : !pto.vreg<64xf32>, !pto.ptr<f32, ub>, !pto.mask<b32>`);
  // Byte 12 is element 3: x[3..66], then x[67..130].
  expect(out.slice(0, 128)).toEqual(range(3, 128));
});

test('vstus streams: bytes before the last 32-byte boundary are written at once, the rest by the flush', () => {
  // Three steps of 5, 8 and 6 f32 (20 + 32 + 24 bytes) from o + 4 bytes: the stream covers bytes 4..80 of o. The
  // first vlds (before any flush) sees bytes 4..64 written (the boundaries at 32 and 64), 64..80 still pending;
  // vstas at the stream's end (o + 20 elements) writes them.
  const out = run(`      %b_addr = arith.constant 8196 : i64
      %b = pto.castptr %b_addr : i64 -> !pto.ptr<f32, ub>
      %c5 = arith.constant 5 : i32
      %c8 = arith.constant 8 : i32
      %c6 = arith.constant 6 : i32
      %c20 = arith.constant 20 : i32
      %c64 = arith.constant 64 : index
      %c128 = arith.constant 128 : index
      %v = pto.vlds %p[%c0] : !pto.ptr<f32, ub> -> !pto.vreg<64xf32>
      %a0 = pto.init_align : !pto.align
      %a1, %b1 = pto.vstus %a0, %c5, %v, %b : !pto.align, i32, !pto.vreg<64xf32>, !pto.ptr<f32, ub> -> !pto.align, !pto.ptr<f32, ub>
      %a2, %b2 = pto.vstus %a1, %c8, %v, %b1 : !pto.align, i32, !pto.vreg<64xf32>, !pto.ptr<f32, ub> -> !pto.align, !pto.ptr<f32, ub>
      %a3 = pto.vstus %a2, %c6, %v, %b2 : !pto.align, i32, !pto.vreg<64xf32>, !pto.ptr<f32, ub> -> !pto.align
      pto.mem_bar "VST_VLD"
      %seen = pto.vlds %o[%c0] : !pto.ptr<f32, ub> -> !pto.vreg<64xf32>
      pto.vsts %seen, %o[%c128], %all : !pto.vreg<64xf32>, !pto.ptr<f32, ub>, !pto.mask<b32>
      pto.vstas %a3, %o, %c20 : !pto.align, !pto.ptr<f32, ub>, i32`);
  const stream = [...range(0, 5), ...range(0, 8), ...range(0, 6)];
  expect(out.slice(0, 24)).toEqual([-1, ...stream, -1, -1, -1, -1]);
  expect(out.slice(128, 152)).toEqual([-1, ...stream.slice(0, 15), -1, -1, -1, -1, -1, -1, -1, -1]);
});

test('vstur stores SQZN bytes at base + AR and advances AR; vstar flushes at base + AR; sprsti/sprsts store AR', () => {
  const out = run(`      %c0_i32 = arith.constant 0 : i32
      %c1_i32 = arith.constant 1 : i32
      %c9 = arith.constant 9 : i32
      %c96 = arith.constant 96 : index
      %nine, %r = pto.plt_b32 %c9 : i32 -> !pto.mask<b32>, i32
      %v = pto.vlds %p[%c96] : !pto.ptr<f32, ub> -> !pto.vreg<64xf32>
      %q = pto.vsqz %v, %nine : !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>
      pto.sprclr "AR"
      %a0 = pto.init_align : !pto.align
      %a1 = pto.vstur %a0, %q, %o, "POST_UPDATE" : !pto.align, !pto.vreg<64xf32>, !pto.ptr<f32, ub> -> !pto.align
      %a2 = pto.vstur %a1, %q, %o, "POST_UPDATE" : !pto.align, !pto.vreg<64xf32>, !pto.ptr<f32, ub> -> !pto.align
      pto.vstar %a2, %o : !pto.align, !pto.ptr<f32, ub>
      %c256_i64 = arith.constant 8448 : i64
      %w = pto.castptr %c256_i64 : i64 -> !pto.ptr<ui32, ub>
      pto.sprsti "AR", %w[%c1_i32] : !pto.ptr<ui32, ub>, i32
      %n = pto.sprsts "AR", %w[%c9] : !pto.ptr<ui32, ub>, i32 -> !pto.ptr<ui32, ub>`);
  // vsqz of 9 active lanes: SQZN = 36 bytes. Two vstur: x[96..104] twice from o (AR 0, then 36); AR ends at 72.
  expect(out.slice(0, 20)).toEqual([...range(96, 9), ...range(96, 9), -1, -1]);
  // sprsti at w + 4 * 1 bytes and sprsts (post-update) at w itself: AR = 72 as u32 bits.
  const words = new Uint32Array(Float32Array.from(out.slice(64, 66)).buffer);
  expect(Array.from(words)).toEqual([72, 72]);
});

test('pstu appends a b32 mask as 64 lane bits (8 bytes); vstas at the stream end flushes them', () => {
  const out = run(`      %c13 = arith.constant 13 : i32
      %c0_i32 = arith.constant 0 : i32
      %m, %r = pto.plt_b32 %c13 : i32 -> !pto.mask<b32>, i32
      %u = pto.castptr %c8192_i64 : i64 -> !pto.ptr<ui32, ub>
      %a0 = pto.init_align : !pto.align
      %a1, %u1 = pto.pstu %a0, %m, %u : !pto.align, !pto.mask<b32>, !pto.ptr<ui32, ub> -> !pto.align, !pto.ptr<ui32, ub>
      pto.vstas %a1, %u1, %c0_i32 : !pto.align, !pto.ptr<ui32, ub>, i32`);
  // 13 lanes: bits 0..12 = 0x1fff, then zeros: words 0x00001fff, 0; the next word untouched (-1).
  const words = Array.from(new Uint32Array(Float32Array.from(out.slice(0, 3)).buffer));
  expect(words).toEqual([0x1fff, 0, 0xbf800000]);
});
