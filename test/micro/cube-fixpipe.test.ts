/**
 * The FIXPIPE clauses of pto.mte_l0c_gm (src/micro/run/acc-store.ts) on a product worked out by hand: A = [[1, 2],
 * [-3, -4]] times B = [[5, 6, 7], [8, 9, 10]] is C = [[21, 24, 27], [-47, -54, -61]] (pto.mad, m = 2, n = 3, k = 2).
 */
import { GlobalBuffer } from '../../src/machine/memory';
import { CUBE_B, CUBE_LOAD_A_B, f16Matrix, microErrors, runMicroKernel } from '../fixtures/micro';
import { f16BitsToNumber } from '../../src/numerics/float16';

const kernel = (store: string) => `module attributes {pto.target_arch = "a5", pto.kernel_kind = #pto.kernel_kind<cube>} {
  func.func @mm(%a_gm: !pto.ptr<f16, gm>, %b_gm: !pto.ptr<f16, gm>, %c_gm: !pto.ptr<f32, gm>, %h_gm: !pto.ptr<f16, gm>, %al_gm: !pto.ptr<f32, gm>) attributes {pto.kernel} {
${CUBE_LOAD_A_B}    pto.mad %l0a, %l0b, %l0c, %c2, %c3, %c2 : !pto.ptr<f16, l0a>, !pto.ptr<f16, l0b>, !pto.ptr<f32, l0c>, i64, i64, i64
    %half = arith.constant 5.000000e-01 : f32
    %quarter = arith.constant 2.500000e-01 : f32
    %c8h = arith.constant 8.000000e+00 : f16
${store}
    return
  }
}
`;
/** A 16 x 16 f16 matrix, zero but for `cells` ([row, col, value]). */
const I64 = 'i64, i64, i64, i64, i64, i64';

function run(store: string, initial = 0, alphas: number[] = []): { c: number[]; h: number[] } {
  const a: [number, number, number][] = [
    [0, 0, 1],
    [0, 1, 2],
    [1, 0, -3],
    [1, 1, -4],
  ];
  const buffers = {
    a_gm: f16Matrix('a_gm', a),
    b_gm: f16Matrix('b_gm', CUBE_B),
    c_gm: new GlobalBuffer('c_gm', 'f32', new Uint8Array(new Float32Array(6).fill(initial).buffer)),
    h_gm: new GlobalBuffer('h_gm', 'f16', new Uint8Array(12)),
    al_gm: new GlobalBuffer('al_gm', 'f32', new Uint8Array(Float32Array.from({ length: 16 }, (_, q) => alphas[q] ?? 0).buffer)),
  };
  runMicroKernel(kernel(store), 'mm', buffers);
  return {
    c: Array.from(new Float32Array(buffers.c_gm.bytes.buffer.slice(0))),
    h: Array.from(new Uint16Array(buffers.h_gm.bytes.buffer.slice(0)), f16BitsToNumber),
  };
}

test('pre_quant scalar 0.5 to f16, then scalar_relu 0.25, then clip 8', () => {
  const store = (relu: string) =>
    `    pto.mte_l0c_gm %l0c, %h_gm, %c2, %c3, %c16, %c3, %c0, %c0, pre_quant(%half, mode = qf322f16_pre_scalar), ${relu}, nz2nd
      : !pto.ptr<f32, l0c>, !pto.ptr<f16, gm>, ${I64}, f32, ${relu.includes('clip') ? 'f32, f16' : 'f32'}`;
  // C * 0.5 = [[10.5, 12, 13.5], [-23.5, -27, -30.5]]; negatives times 0.25: -5.875, -6.75, -7.625.
  expect(run(store('pre_relu(%quarter, mode = scalar_relu)')).h).toEqual([10.5, 12, 13.5, -5.875, -6.75, -7.625]);
  // clip 8 bounds the values from above only.
  expect(run(store('pre_relu(%quarter, mode = scalar_relu, clip = %c8h)')).h).toEqual([8, 8, 8, -5.875, -6.75, -7.625]);
});

test('pre_relu normal_relu without pre_quant keeps f32 and zeroes the negatives', () => {
  const store = `    pto.mte_l0c_gm %l0c, %c_gm, %c2, %c3, %c16, %c3, %c0, %c0, pre_relu(mode = normal_relu), nz2nd
      : !pto.ptr<f32, l0c>, !pto.ptr<f32, gm>, ${I64}`;
  expect(run(store).c).toEqual([21, 24, 27, 0, 0, 0]);
});

test('atomic(type = f32, op = add) adds into GM; op = max keeps the larger', () => {
  const store = (op: string) => `    pto.mte_l0c_gm %l0c, %c_gm, %c2, %c3, %c16, %c3, %c0, %c0, nz2nd, atomic(type = f32, op = ${op})
      : !pto.ptr<f32, l0c>, !pto.ptr<f32, gm>, ${I64}`;
  // GM starts at 1.5 everywhere: 1.5 + C, and max(1.5, C).
  expect(run(store('add'), 1.5).c).toEqual([22.5, 25.5, 28.5, -45.5, -52.5, -59.5]);
  expect(run(store('max'), 1.5).c).toEqual([21, 24, 27, 1.5, 1.5, 1.5]);
});

test('nz2dn(1) writes the transpose: element (i, j) to j * dst_stride + i', () => {
  const store = `    pto.mte_l0c_gm %l0c, %c_gm, %c2, %c3, %c16, %c2, %c0, %c0, nz2dn(%c1)
      : !pto.ptr<f32, l0c>, !pto.ptr<f32, gm>, ${I64}, i64`;
  expect(run(store).c).toEqual([21, -47, 24, -54, 27, -61]);
});

test("the clause rules VPTO.cpp checks on constants: dual destinations, nz2dn's unit flag", () => {
  const params = '%c: !pto.ptr<f32, l0c>, %u: !pto.ptr<f32, ub>, %g: !pto.ptr<f32, gm>';
  const consts = [1, 2, 16, 40].map((k) => `  %c${k} = arith.constant ${k} : i64`).join('\n');
  const ub = (m: string, n: string, tail: string) =>
    `${consts}\n  pto.mte_l0c_ub %c, %u, ${m}, ${n}, %c16, %c16, ${tail} : !pto.ptr<f32, l0c>, !pto.ptr<f32, ub>, i64, i64, i64, i64`;
  expect(microErrors(ub('%c40', '%c16', 'dst_mode(split_m), nz2nd'), params)).toEqual([]);
  expect(microErrors(ub('%c1', '%c16', 'dst_mode(split_m), nz2nd'), params)).toEqual(['E0451: pto.mte_l0c_ub: split-M dual destination requires m to be even']);
  expect(microErrors(ub('%c16', '%c40', 'dst_mode(split_n), nz2nd'), params)).toEqual([
    'E0451: pto.mte_l0c_ub: split-N dual destination requires n to be a multiple of 32',
  ]);
  expect(
    microErrors(
      ub('%c16', '%c16', 'dst_mode(split_m), nz2nd, loop3(%c1, %c1, %c1)').replace('i64, i64, i64, i64', 'i64, i64, i64, i64, i64, i64, i64'),
      params,
    ),
  ).toEqual(['E0451: pto.mte_l0c_ub: dual destination mode cannot be combined with pre_quant, pre_relu, clip, nz2dn, nz2nz, or loop3']);
  const gm = (stride: string) =>
    `${consts}\n  pto.mte_l0c_gm %c, %g, %c16, %c16, %c16, %c16, %c1, %c1, unit_flag(check_only), nz2dn(${stride}) : !pto.ptr<f32, l0c>, !pto.ptr<f32, gm>, i64, i64, i64, i64, i64, i64, i64`;
  expect(microErrors(gm('%c1'), params)).toEqual([]);
  expect(microErrors(gm('%c2'), params)).toEqual(['E0451: pto.mte_l0c_gm: unit_flag must be off when nz2dn loop0_src_stride is not 1']);
});

test('pre_quant mode f32_f16 converts without scaling (its scalar payload selects nothing)', () => {
  const store = `    pto.mte_l0c_gm %l0c, %h_gm, %c2, %c3, %c16, %c3, %c0, %c0, pre_quant(%half, mode = f32_f16), nz2nd
      : !pto.ptr<f32, l0c>, !pto.ptr<f16, gm>, ${I64}, f32`;
  // The payload 0.5 is not a scale here: C as it is, every value exact in f16.
  expect(run(store).h).toEqual([21, 24, 27, -47, -54, -61]);
});

test("vector_relu: negatives times their column's alpha, loaded GM -> L1 -> FB (mte_l1_fb: 64-byte units, FB segment 1)", () => {
  const store = `    %c64 = arith.constant 64 : i64
    %c4096 = arith.constant 4096 : i64
    %c65600 = arith.constant 65600 : i64
    %l1al = pto.castptr %c4096 : i64 -> !pto.ptr<f32, l1>
    %fbal = pto.castptr %c65600 : i64 -> !pto.ptr<f32, fb>
    pto.mte_gm_l1 %al_gm, %l1al, %c64 nburst(%c1, %c0, %c0) : !pto.ptr<f32, gm>, !pto.ptr<f32, l1>, i64, i64, i64, i64
    pto.mte_l1_fb %l1al, %fbal, %c1 nburst(%c1, %c0, %c0) : !pto.ptr<f32, l1>, !pto.ptr<f32, fb>, i64, i64, i64, i64
    pto.mte_l0c_gm %l0c, %c_gm, %c2, %c3, %c16, %c3, %c0, %c0, pre_relu(%fbal, mode = vector_relu), nz2nd
      : !pto.ptr<f32, l0c>, !pto.ptr<f32, gm>, ${I64}, !pto.ptr<f32, fb>`;
  // Row 1 is negative: -47 * 0.5 = -23.5, -54 * 0.25 = -13.5, -61 * 0.125 = -7.625; row 0 stays.
  expect(run(store, 0, [0.5, 0.25, 0.125]).c).toEqual([21, 24, 27, -23.5, -13.5, -7.625]);
});

test('qf322b8_pre_* verify for 8-bit integer destinations (a ui8 clip takes a 16-bit payload) and trap at run time', () => {
  const params = '%c: !pto.ptr<f32, l0c>, %u8: !pto.ptr<ui8, ub>, %uh: !pto.ptr<f16, ub>, %i: i64, %s: f32, %k: i16';
  const ub = (dst: string, t: string) =>
    `  pto.mte_l0c_ub %c, ${dst}, %i, %i, %i, %i, dst_mode(%i), pre_quant(%s, mode = qf322b8_pre_scalar), pre_relu(mode = no_relu, clip = %k), nz2nd : !pto.ptr<f32, l0c>, !pto.ptr<${t}, ub>, i64, i64, i64, i64, i64, f32, i16`;
  expect(microErrors(ub('%u8', 'ui8'), params)).toEqual([]);
  expect(microErrors(ub('%uh', 'f16'), params)).toEqual([
    'E0451: pto.mte_l0c_ub: pre_quant mode qf322b8_pre_scalar is incompatible with !pto.ptr<f32, l0c> and !pto.ptr<f16, ub>',
    'E0451: pto.mte_l0c_ub: the clip value must be f16, got i16',
  ]);
  const store = `    %k = arith.constant 255 : i16
    pto.mte_l0c_gm %l0c, %u_gm, %c2, %c3, %c16, %c3, %c0, %c0, pre_quant(%half, mode = qf322b8_pre_scalar), nz2nd
      : !pto.ptr<f32, l0c>, !pto.ptr<ui8, gm>, ${I64}, f32`;
  expect(() =>
    runMicroKernel(kernel(store).replace('%al_gm: !pto.ptr<f32, gm>)', '%al_gm: !pto.ptr<f32, gm>, %u_gm: !pto.ptr<ui8, gm>)'), 'mm', {
      a_gm: f16Matrix('a_gm', []),
      b_gm: f16Matrix('b_gm', []),
      c_gm: new GlobalBuffer('c_gm', 'f32', new Uint8Array(24)),
      h_gm: new GlobalBuffer('h_gm', 'f16', new Uint8Array(12)),
      al_gm: new GlobalBuffer('al_gm', 'f32', new Uint8Array(64)),
      u_gm: new GlobalBuffer('u_gm', 'u8', new Uint8Array(6)),
    }),
  ).toThrow(/pre_quant mode qf322b8_pre_scalar is not implemented yet/);
});
