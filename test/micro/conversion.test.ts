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
