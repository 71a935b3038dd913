/**
 * pto.mad / mad_acc / mad_bias at the micro level (src/micro/run/cube.ts): A and B go GM -> L1 (mte_gm_l1_frac,
 * NZ) -> L0A/L0B (mte_l1_l0a, mte_l1_l0b {transpose}), the mad writes L0C and mte_l0c_gm nz2nd stores an m x n
 * corner. The expected values are worked out by hand in each test.
 */
import { GlobalBuffer } from '../../src/machine/memory';
import { CUBE_B, CUBE_LOAD_A_B, f16Matrix, runMicroKernel } from '../fixtures/micro';

const kernel = (mads: string) => `module attributes {pto.target_arch = "a5", pto.kernel_kind = #pto.kernel_kind<cube>} {
  func.func @mm(%a_gm: !pto.ptr<f16, gm>, %b_gm: !pto.ptr<f16, gm>, %c_gm: !pto.ptr<f32, gm>) attributes {pto.kernel} {
${CUBE_LOAD_A_B}${mads}
    pto.mte_l0c_gm %l0c, %c_gm, %c2, %c3, %c16, %c3, %c0, %c0, nz2nd
      : !pto.ptr<f32, l0c>, !pto.ptr<f32, gm>, i64, i64, i64, i64, i64, i64
    return
  }
}
`;
const mad = (op: string, tail = '') =>
  `    pto.${op} %l0a, %l0b, %l0c, %c2, %c3, %c2${tail} : !pto.ptr<f16, l0a>, !pto.ptr<f16, l0b>, !pto.ptr<f32, l0c>, i64, i64, i64`;

/** A 16 x 16 f16 matrix, zero but for `cells` ([row, col, value]). */
function run(mads: string, a: [number, number, number][]): number[] {
  const buffers = { a_gm: f16Matrix('a_gm', a), b_gm: f16Matrix('b_gm', CUBE_B), c_gm: new GlobalBuffer('c_gm', 'f32', new Uint8Array(24)) };
  runMicroKernel(kernel(mads), 'mm', buffers);
  return Array.from(new Float32Array(buffers.c_gm.bytes.buffer.slice(0)));
}

const A: [number, number, number][] = [
  [0, 0, 1],
  [0, 1, 2],
  [1, 0, 3],
  [1, 1, 4],
];

test('pto.mad m = 2, n = 3, k = 2: [[1, 2], [3, 4]] x [[5, 6, 7], [8, 9, 10]]', () => {
  // Row 0: 1*5 + 2*8 = 21, 1*6 + 2*9 = 24, 1*7 + 2*10 = 27; row 1: 3*5 + 4*8 = 47, 54, 61.
  expect(run(mad('mad'), A)).toEqual([21, 24, 27, 47, 54, 61]);
});

test('pto.mad_acc adds the product to L0C', () => {
  // The same product twice: every value doubles.
  expect(run([mad('mad'), mad('mad_acc')].join('\n'), A)).toEqual([42, 48, 54, 94, 108, 122]);
});

test('pto.mad sat counts an infinite input as f16 max; nosat keeps it; neither: nosat from reset, a trap after set_ctrl', () => {
  const inf: [number, number, number][] = [[0, 0, Infinity], ...A.slice(1)];
  // sat: 65504 * 5 + 2 * 8 = 327536; 65504 * 6 + 18 = 393042; 65504 * 7 + 20 = 458548 (integers below 2^24: exact in f32).
  expect(run(mad('mad', ' sat'), inf)).toEqual([327536, 393042, 458548, 47, 54, 61]);
  expect(run(mad('mad', ' nosat'), inf)).toEqual([Infinity, Infinity, Infinity, 47, 54, 61]);
  expect(run(mad('mad'), inf)).toEqual([Infinity, Infinity, Infinity, 47, 54, 61]);
  const setCtrl = '    %ctrl = arith.constant 0 : i64\n    pto.set_ctrl %ctrl : i64\n';
  expect(() => run(setCtrl + mad('mad'), inf)).toThrow(/neither sat nor nosat\) is not implemented yet/);
});

/** The f16 kernel around `body` with f8E4M3FN elements (a row of 16 one-byte elements is 16 bytes in GM). */
const fp8Kernel = (body: string): string =>
  kernel(body)
    .replaceAll('f16', 'f8E4M3FN')
    .replace(/src_layout\(%c32\)/g, 'src_layout(%c16)');

/**
 * A = [[1, 2], [-3, -4]] and B = [[5, 6, 7], [8, 9, 10]] as E4M3 codes in GM, worked out by hand: 1 = 0x38, 2 = 0x40,
 * 3 = 0x44, 4 = 0x48, 5 = 0x4a, 6 = 0x4c, 7 = 0x4e, 8 = 0x50, 9 = 0x51, 10 = 0x52 (sign bit 0x80); C of 2 x 3 f32.
 */
function fp8Operands(): Record<'a_gm' | 'b_gm' | 'c_gm', GlobalBuffer> {
  const bytes = (cells: [number, number, number][]) => {
    const b = new Uint8Array(256);
    for (const [r, c, code] of cells) b[r * 16 + c] = code;
    return b;
  };
  return {
    a_gm: new GlobalBuffer(
      'a_gm',
      'f8E4M3FN',
      bytes([
        [0, 0, 0x38],
        [0, 1, 0x40],
        [1, 0, 0xc4],
        [1, 1, 0xc8],
      ]),
    ),
    b_gm: new GlobalBuffer(
      'b_gm',
      'f8E4M3FN',
      bytes([
        [0, 0, 0x4a],
        [0, 1, 0x4c],
        [0, 2, 0x4e],
        [1, 0, 0x50],
        [1, 1, 0x51],
        [1, 2, 0x52],
      ]),
    ),
    c_gm: new GlobalBuffer('c_gm', 'f32', new Uint8Array(24)),
  };
}

test('pto.mad of f8E4M3FN codes: [[1, 2], [-3, -4]] x [[5, 6, 7], [8, 9, 10]]', () => {
  const buffers = fp8Operands();
  runMicroKernel(fp8Kernel(mad('mad')), 'mm', buffers);
  // Row 1: -3*5 - 4*8 = -47, -3*6 - 4*9 = -54, -3*7 - 4*10 = -61.
  expect(Array.from(new Float32Array(buffers.c_gm.bytes.buffer.slice(0)))).toEqual([21, 24, 27, -47, -54, -61]);
});

test('pto.mad_mx: each row of A and column of B times its E8M0 scale 2^(code - 127)', () => {
  // A = [[1, 2], [-3, -4]] with row scales 2 (128) and 0.5 (126); B = [[5, 6, 7], [8, 9, 10]] with column scales
  // 1 (127), 4 (129), 1 (127). C = A x B = [[21, 24, 27], [-47, -54, -61]] scaled: row 0 x 2, row 1 x 0.5, column 1 x 4.
  const scales = `    %c4096 = arith.constant 4096 : i64
    %c4160 = arith.constant 4160 : i64
    %l1as = pto.castptr %c4096 : i64 -> !pto.ptr<f8E4M3FN, l1>
    %l1bs = pto.castptr %c4160 : i64 -> !pto.ptr<f8E4M3FN, l1>
    pto.mte_gm_l1 %as_gm, %l1as, %c32 nburst(%c1, %c0, %c0) : !pto.ptr<f8E4M3FN, gm>, !pto.ptr<f8E4M3FN, l1>, i64, i64, i64, i64
    pto.mte_gm_l1 %bs_gm, %l1bs, %c32 nburst(%c1, %c0, %c0) : !pto.ptr<f8E4M3FN, gm>, !pto.ptr<f8E4M3FN, l1>, i64, i64, i64, i64
    pto.mte_l1_l0a_mx %l1as, %l0a, %c2, %c2, %c0, %c0 : !pto.ptr<f8E4M3FN, l1>, !pto.ptr<f8E4M3FN, l0a>, i64, i64, i64, i64
    pto.mte_l1_l0b_mx %l1bs, %l0b, %c2, %c3, %c0, %c0 : !pto.ptr<f8E4M3FN, l1>, !pto.ptr<f8E4M3FN, l0b>, i64, i64, i64, i64
`;
  const text = fp8Kernel(scales + mad('mad_mx')).replace(
    '%c_gm: !pto.ptr<f32, gm>)',
    '%c_gm: !pto.ptr<f32, gm>, %as_gm: !pto.ptr<f8E4M3FN, gm>, %bs_gm: !pto.ptr<f8E4M3FN, gm>)',
  );
  const buffers = {
    ...fp8Operands(),
    // One group per row (k = 2): A's scales by row, B's by column ([n][group]).
    as_gm: new GlobalBuffer(
      'as_gm',
      'f8E4M3FN',
      Uint8Array.from({ length: 32 }, (_, q) => [128, 126][q] ?? 0),
    ),
    bs_gm: new GlobalBuffer(
      'bs_gm',
      'f8E4M3FN',
      Uint8Array.from({ length: 32 }, (_, q) => [127, 129, 127][q] ?? 0),
    ),
  };
  runMicroKernel(text, 'mm', buffers);
  expect(Array.from(new Float32Array(buffers.c_gm.bytes.buffer.slice(0)))).toEqual([42, 192, 54, -23.5, -108, -30.5]);
});
