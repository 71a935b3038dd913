/**
 * The predicate loads and stores of spec/micro/vector.json (plds, pldi, psts, psti) and pto.mem_bar: verification
 * (VPTO.cpp's PldsOp, PldiOp, PstsOp and PstiOp verifiers) and a run, the expected images computed bit by bit from 04-predicate-load-store.md.
 */
import { GlobalBuffer } from '../../src/machine/memory';
import { microErrors as errors, runMicroKernel } from '../fixtures/micro';

test('verification: dist tokens, a constant offset for pldi/psti, the updated base of the base type, mem_bar kinds', () => {
  const params = '%p: !pto.ptr<ui8, ub>, %i: index, %m: !pto.mask<b8>';
  const c1 = '  %c1 = arith.constant 1 : index\n';
  expect(
    errors(`${c1}  %a, %n = pto.pldi %p[%c1], "US" : !pto.ptr<ui8, ub>, index -> !pto.mask<b8>, !pto.ptr<ui8, ub>\n  pto.mem_bar "VST_VLD"`, params),
  ).toEqual([]);
  expect(errors(`  %a = pto.pldi %p[%i], "NORM" : !pto.ptr<ui8, ub>, index -> !pto.mask<b8>`, params)).toEqual([
    'E0451: pto.pldi: requires offset to be a constant index immediate',
  ]);
  expect(errors(`  %n = pto.psts %m, %p[%i], "US" : !pto.mask<b8>, !pto.ptr<ui8, ub>, index -> !pto.ptr<f32, ub>`, params)).toEqual([
    'E0451: pto.psts: \'dist\' must be one of NORM, PK, got "US"',
    'E0451: pto.psts: requires updated base result to match base type (!pto.ptr<ui8, ub>, got !pto.ptr<f32, ub>)',
  ]);
  expect(errors('  pto.mem_bar "VST_SOMETHING"', params)[0]).toMatch(/^E0451: pto.mem_bar: 'kind' must be one of VV_ALL, VST_VLD/);
});

/** Bit i of a packed image (bit i & 7 of byte i >> 3). */
const bit = (image: Uint8Array, i: number) => (image[i >> 3] >> (i & 7)) & 1;
const pack = (bits: number[]) => {
  const out = new Uint8Array(bits.length / 8);
  bits.forEach((b, i) => (out[i >> 3] |= b << (i & 7)));
  return out;
};

test('pldi/plds NORM, US, DS and psti/psts NORM, PK, with and without post-update', () => {
  const input = Uint8Array.from({ length: 128 }, (_, k) => (k * 37 + 11) & 0xff);
  const kernel = `module attributes {pto.target_arch = "a5", pto.kernel_kind = #pto.kernel_kind<vector>} {
  func.func @k(%in: !pto.ptr<ui8, gm>, %out: !pto.ptr<ui8, gm>) attributes {pto.kernel} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c96 = arith.constant 96 : index
    %c128 = arith.constant 128 : index
    %in0 = arith.constant 0 : i64
    %out0 = arith.constant 4096 : i64
    %c1_i64 = arith.constant 1 : i64
    %n = arith.constant 128 : i64
    %nout = arith.constant 160 : i64
    %p = pto.castptr %in0 : i64 -> !pto.ptr<ui8, ub>
    %o = pto.castptr %out0 : i64 -> !pto.ptr<ui8, ub>
    pto.mte_gm_ub %in, %p, %in0, %n nburst(%c1_i64, %n, %n) : !pto.ptr<ui8, gm>, !pto.ptr<ui8, ub>, i64, i64, i64, i64, i64
    pto.set_flag["PIPE_MTE2", "PIPE_V", "EVENT_ID0"]
    pto.wait_flag["PIPE_MTE2", "PIPE_V", "EVENT_ID0"]
    pto.vecscope {
      %m0, %next = pto.pldi %p[%c1], "NORM" : !pto.ptr<ui8, ub>, index -> !pto.mask<b8>, !pto.ptr<ui8, ub>
      %m1 = pto.pldi %p[%c1], "NORM" : !pto.ptr<ui8, ub>, index -> !pto.mask<b8>
      %m1b = pto.plds %next[%c0], "NORM" : !pto.ptr<ui8, ub>, index -> !pto.mask<b8>
      %us = pto.plds %p[%c0], "US" : !pto.ptr<ui8, ub>, index -> !pto.mask<b8>
      %ds = pto.plds %p[%c0], "DS" : !pto.ptr<ui8, ub>, index -> !pto.mask<b8>
      %o1 = pto.psts %m0, %o[%c1], "NORM" : !pto.mask<b8>, !pto.ptr<ui8, ub>, index -> !pto.ptr<ui8, ub>
      pto.psti %m1, %o1[%c0], "NORM" : !pto.mask<b8>, !pto.ptr<ui8, ub>, index
      pto.psti %m1b, %o[%c4], "PK" : !pto.mask<b8>, !pto.ptr<ui8, ub>, index
      pto.mem_bar "VST_VLD"
      pto.psts %us, %o[%c96], "NORM" : !pto.mask<b8>, !pto.ptr<ui8, ub>, index
      pto.psts %ds, %o[%c128], "NORM" : !pto.mask<b8>, !pto.ptr<ui8, ub>, index
    }
    pto.set_flag["PIPE_V", "PIPE_MTE3", "EVENT_ID0"]
    pto.wait_flag["PIPE_V", "PIPE_MTE3", "EVENT_ID0"]
    pto.mte_ub_gm %o, %out, %nout nburst(%c1_i64, %nout, %nout) : !pto.ptr<ui8, ub>, !pto.ptr<ui8, gm>, i64, i64, i64, i64
    return
  }
}
`;
  const buffers = { in: new GlobalBuffer('in', 'u8', input.slice()), out: new GlobalBuffer('out', 'u8', new Uint8Array(160)) };
  runMicroKernel(kernel, 'k', buffers);
  const out = buffers.out.bytes;
  // m0: post-update, read at p (bytes 0..31), next = p + 32 (one NORM unit); psts with a post-update writes it at
  // o itself. m1: no post-update, read at p + 1 * 32; psti writes it at o1 = o + 1 byte.
  const m0 = input.slice(0, 32);
  const m1 = input.slice(32, 64);
  expect(Array.from(out.slice(0, 1))).toEqual([m0[0]]);
  expect(Array.from(out.slice(1, 33))).toEqual(Array.from(m1));
  // PK at o + 4 * 16: every other bit of m1b (= bytes 32..63, read at next + 0).
  expect(Array.from(out.slice(64, 80))).toEqual(Array.from(pack(Array.from({ length: 128 }, (_, i) => bit(m1, 2 * i)))));
  // US: bits 2i and 2i + 1 from bit i of bytes 0..15; DS: bit i from bit 2i of bytes 0..63.
  expect(Array.from(out.slice(96, 128))).toEqual(Array.from(pack(Array.from({ length: 256 }, (_, i) => bit(input, i >> 1)))));
  expect(Array.from(out.slice(128, 160))).toEqual(Array.from(pack(Array.from({ length: 256 }, (_, i) => bit(input, 2 * i)))));
});
