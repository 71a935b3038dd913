/**
 * The block-strided vsldb and vsstb of spec/micro/vector.json: block k of the register at base + (repeat_stride +
 * k * block_stride) * 32 bytes, or with a post-update at base + k * block_stride * 32 and the result
 * base + repeat_stride * 32; every value derived by hand.
 */
import { GlobalBuffer } from '../../src/machine/memory';
import { microErrors as errors, runMicroKernel } from '../fixtures/micro';

test('verification: the strides are i16, the updated base has the base type', () => {
  const params = '%p: !pto.ptr<f32, ub>, %s: i16, %t: i32, %m: !pto.mask<b32>, %v: !pto.vreg<64xf32>';
  expect(errors('  %a, %n = pto.vsldb %p, %s, %s, %m : !pto.ptr<f32, ub>, i16, i16, !pto.mask<b32> -> !pto.vreg<64xf32>, !pto.ptr<f32, ub>', params)).toEqual(
    [],
  );
  expect(errors('  pto.vsstb %v, %p, %t, %s, %m : !pto.vreg<64xf32>, !pto.ptr<f32, ub>, i32, i16, !pto.mask<b32>', params)).toEqual([
    "E0451: pto.vsstb: 'block_stride' must be i16, got i32",
  ]);
});

function kernelWith(lastMask: string): string {
  // UB 0..: f32 x[i] = i for i < 1024; UB 8192..: the output, 512 f32 of -1.
  return `module attributes {pto.target_arch = "a5", pto.kernel_kind = #pto.kernel_kind<vector>} {
  func.func @k(%in: !pto.ptr<f32, gm>, %out: !pto.ptr<f32, gm>) attributes {pto.kernel} {
    %c0 = arith.constant 0 : index
    %c1_i16 = arith.constant 1 : i16
    %c2_i16 = arith.constant 2 : i16
    %c3_i16 = arith.constant 3 : i16
    %c0_i64 = arith.constant 0 : i64
    %c1_i64 = arith.constant 1 : i64
    %c4096_i64 = arith.constant 4096 : i64
    %c2048_i64 = arith.constant 2048 : i64
    %c8192_i64 = arith.constant 8192 : i64
    %c8448_i64 = arith.constant 8448 : i64
    %c40 = arith.constant 40 : i32
    %p = pto.castptr %c0_i64 : i64 -> !pto.ptr<f32, ub>
    %o = pto.castptr %c8192_i64 : i64 -> !pto.ptr<f32, ub>
    pto.mte_gm_ub %in, %p, %c0_i64, %c4096_i64 nburst(%c1_i64, %c4096_i64, %c4096_i64) : !pto.ptr<f32, gm>, !pto.ptr<f32, ub>, i64, i64, i64, i64, i64
    pto.mte_gm_ub %out, %o, %c0_i64, %c2048_i64 nburst(%c1_i64, %c2048_i64, %c2048_i64) : !pto.ptr<f32, gm>, !pto.ptr<f32, ub>, i64, i64, i64, i64, i64
    pto.set_flag["PIPE_MTE2", "PIPE_V", "EVENT_ID0"]
    pto.wait_flag["PIPE_MTE2", "PIPE_V", "EVENT_ID0"]
    pto.vecscope {
      %all = pto.pset_b32 "PAT_ALL" : !pto.mask<b32>
      %five, %rest = pto.plt_b32 %c40 : i32 -> !pto.mask<b32>, i32
      %a = pto.vsldb %p, %c2_i16, %c3_i16, %all : !pto.ptr<f32, ub>, i16, i16, !pto.mask<b32> -> !pto.vreg<64xf32>
      pto.vsts %a, %o[%c0], %all : !pto.vreg<64xf32>, !pto.ptr<f32, ub>, !pto.mask<b32>
      %b, %next = pto.vsldb %p, %c1_i16, %c3_i16, %all : !pto.ptr<f32, ub>, i16, i16, !pto.mask<b32> -> !pto.vreg<64xf32>, !pto.ptr<f32, ub>
      %c = pto.vlds %next[%c0] : !pto.ptr<f32, ub> -> !pto.vreg<64xf32>
      %o2 = pto.castptr %c8448_i64 : i64 -> !pto.ptr<f32, ub>
      %o3 = pto.vsstb %c, %o2, %c2_i16, %c1_i16, %all : !pto.vreg<64xf32>, !pto.ptr<f32, ub>, i16, i16, !pto.mask<b32> -> !pto.ptr<f32, ub>
      pto.vsstb %b, %o3, %c1_i16, %c3_i16, ${lastMask} : !pto.vreg<64xf32>, !pto.ptr<f32, ub>, i16, i16, !pto.mask<b32>
    }
    pto.set_flag["PIPE_V", "PIPE_MTE3", "EVENT_ID0"]
    pto.wait_flag["PIPE_V", "PIPE_MTE3", "EVENT_ID0"]
    pto.mte_ub_gm %o, %out, %c2048_i64 nburst(%c1_i64, %c2048_i64, %c2048_i64) : !pto.ptr<f32, ub>, !pto.ptr<f32, gm>, i64, i64, i64, i64
    return
  }
}
`;
}

test('vsldb and vsstb move 32-byte blocks by their strides', () => {
  const kernel = kernelWith('%all');
  const x = Float32Array.from({ length: 1024 }, (_, i) => i);
  const buffers = {
    in: new GlobalBuffer('in', 'f32', new Uint8Array(x.buffer)),
    out: new GlobalBuffer('out', 'f32', new Uint8Array(Float32Array.from(Array(512).fill(-1)).buffer)),
  };
  runMicroKernel(kernel, 'k', buffers);
  const out = Array.from(new Float32Array(buffers.out.bytes.buffer.slice(0)));
  const block = (first: number) => Array.from({ length: 8 }, (_, j) => first + j);
  // a: block k from byte (3 + 2k) * 32, i.e. f32 elements 8 * (3 + 2k) ...
  expect(out.slice(0, 64)).toEqual([0, 1, 2, 3, 4, 5, 6, 7].flatMap((k) => block(8 * (3 + 2 * k))));
  // c = the 64 f32 at next = p + 3 * 32 bytes (elements 24..87); vsstb with a post-update writes block k at o2 + 2k
  // blocks (o2 = element 64 of the output) and returns o3 = o2 + 1 block. Then b (blocks at p + k: elements 0..63)
  // goes to o3 + (3 + k) blocks = o2 + (4 + k): blocks 4..11 of o2 are b's, c keeps 0, 2, 12 and 14.
  const expected = Array(448).fill(-1);
  for (let k = 0; k < 8; k++) expected.splice(16 * k, 8, ...block(24 + 8 * k));
  for (let k = 0; k < 8; k++) expected.splice(8 * (4 + k), 8, ...block(8 * k));
  expect(out.slice(64)).toEqual(expected);
});

test('a block mask whose lane and block-byte readings differ traps (no source says which bit governs a block)', () => {
  const buffers = { in: new GlobalBuffer('in', 'f32', new Uint8Array(4096)), out: new GlobalBuffer('out', 'f32', new Uint8Array(2048)) };
  expect(() => runMicroKernel(kernelWith('%five'), 'k', buffers)).toThrow(
    'pto.vsstb: a block mask whose lane 5 and byte 160 bits differ is not implemented yet',
  );
});
