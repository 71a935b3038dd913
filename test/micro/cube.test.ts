/**
 * The cube's data movement at the micro level, as PTOAS's A5 tile-lang kernels use it: A and B loaded GM -> L1 by
 * pto.mte_gm_l1_frac (NZ), moved to L0A/L0B by pto.mte_l1_l0a / pto.mte_l1_l0b {transpose = true}, multiplied by the
 * tile-level pto.tmatmul over tiles placed at the same addresses (pto.tile_buf_addr), and stored by pto.mte_l0c_gm
 * nz2nd. Inputs are small integers, so every f32 sum is exact and the expected C is a plain integer product.
 */
import { GlobalBuffer } from '../../src/machine/memory';
import { microErrors, runMicroKernel } from '../fixtures/micro';
import { numberToF16Bits as f16Bits } from '../../src/numerics/float16';

const TILES = {
  matA: '!pto.tile_buf<mat, 16x16xf16, blayout=col_major, slayout=row_major>',
  matB: '!pto.tile_buf<mat, 16x16xf16, blayout=col_major, slayout=row_major>',
  left: '!pto.tile_buf<left, 16x16xf16, blayout=col_major, slayout=row_major>',
  right: '!pto.tile_buf<right, 16x16xf16, blayout=row_major, slayout=col_major>',
  acc: '!pto.tile_buf<acc, 16x16xf32, blayout=col_major, slayout=row_major, fractal=1024>',
};

const KERNEL = `module attributes {pto.target_arch = "a5", pto.kernel_kind = #pto.kernel_kind<cube>} {
  func.func @mm(%a_gm: !pto.ptr<f16, gm>, %b_gm: !pto.ptr<f16, gm>, %c_gm: !pto.ptr<f32, gm>) attributes {pto.kernel} {
    %c0 = arith.constant 0 : i64
    %c1 = arith.constant 1 : i64
    %c16 = arith.constant 16 : i64
    %c32 = arith.constant 32 : i64
    %c512 = arith.constant 512 : i64
    %false = arith.constant false
    %ta = pto.alloc_tile addr = %c0 : ${TILES.matA}
    %tb = pto.alloc_tile addr = %c512 : ${TILES.matB}
    %tl = pto.alloc_tile addr = %c0 : ${TILES.left}
    %tr = pto.alloc_tile addr = %c0 : ${TILES.right}
    %tc = pto.alloc_tile addr = %c0 : ${TILES.acc}
    %l1a = pto.tile_buf_addr %ta : ${TILES.matA} -> !pto.ptr<f16, l1>
    %l1b = pto.tile_buf_addr %tb : ${TILES.matB} -> !pto.ptr<f16, l1>
    %l0a = pto.tile_buf_addr %tl : ${TILES.left} -> !pto.ptr<f16, l0a>
    %l0b = pto.tile_buf_addr %tr : ${TILES.right} -> !pto.ptr<f16, l0b>
    %l0c = pto.tile_buf_addr %tc : ${TILES.acc} -> !pto.ptr<f32, l0c>
    pto.mte_gm_l1_frac %a_gm, %l1a, nd2nz, shape(%c16, %c16), src_layout(%c32), dst_group(%c1, %c1, %c16, %c0), ctrl(%c0, %false)
      : !pto.ptr<f16, gm>, !pto.ptr<f16, l1>, nd2nz, shape i64, i64, src_layout(i64), dst_group i64, i64, i64, i64, ctrl i64, i1
    pto.mte_gm_l1_frac %b_gm, %l1b, nd2nz, shape(%c16, %c16), src_layout(%c32), dst_group(%c1, %c1, %c16, %c0), ctrl(%c0, %false)
      : !pto.ptr<f16, gm>, !pto.ptr<f16, l1>, nd2nz, shape i64, i64, src_layout(i64), dst_group i64, i64, i64, i64, ctrl i64, i1
    pto.mte_l1_l0a %l1a, %l0a, %c16, %c16, %c0, %c0 : !pto.ptr<f16, l1>, !pto.ptr<f16, l0a>, i64, i64, i64, i64
    pto.mte_l1_l0b %l1b, %l0b, %c16, %c16, %c0, %c0 {transpose = true} : !pto.ptr<f16, l1>, !pto.ptr<f16, l0b>, i64, i64, i64, i64
    pto.tmatmul ins(%tl, %tr : ${TILES.left}, ${TILES.right}) outs(%tc : ${TILES.acc})
    pto.mte_l0c_gm %l0c, %c_gm, %c16, %c16, %c16, %c16, %c0, %c0, nz2nd
      : !pto.ptr<f32, l0c>, !pto.ptr<f32, gm>, i64, i64, i64, i64, i64, i64
    return
  }
}
`;

test('A x B through mte_gm_l1_frac, mte_l1_l0a, mte_l1_l0b {transpose}, tmatmul and mte_l0c_gm nz2nd', () => {
  // A[i][k] = (i + 2k) % 7 - 3, B[k][j] = (3k + j) % 5 - 2: integers, so C = A x B is exact in f32.
  const A = (i: number, k: number) => ((i + 2 * k) % 7) - 3;
  const B = (k: number, j: number) => ((3 * k + j) % 5) - 2;
  const half = (f: (r: number, c: number) => number) => new Uint8Array(Uint16Array.from({ length: 256 }, (_, q) => f16Bits(f(q >> 4, q & 15))).buffer);
  const buffers = {
    a_gm: new GlobalBuffer('a_gm', 'f16', half(A)),
    b_gm: new GlobalBuffer('b_gm', 'f16', half(B)),
    c_gm: new GlobalBuffer('c_gm', 'f32', new Uint8Array(1024)),
  };
  runMicroKernel(KERNEL, 'mm', buffers);
  const c = new Float32Array(buffers.c_gm.bytes.buffer.slice(0));
  const expected = Array.from({ length: 256 }, (_, q) => {
    let s = 0;
    for (let k = 0; k < 16; k++) s += A(q >> 4, k) * B(k, q & 15);
    return s;
  });
  expect(Array.from(c)).toEqual(expected);
});

test('mte_l0c_gm/ub/l1: the operands and clauses PTOAS reads, and what is not supported yet', () => {
  const params = '%c: !pto.ptr<f32, l0c>, %g: !pto.ptr<f32, gm>, %h: !pto.ptr<f16, gm>, %u: !pto.ptr<f32, ub>, %i: i64';
  const gm = (tail: string, dst = '%g', t = 'f32') =>
    `  pto.mte_l0c_gm %c, ${dst}, %i, %i, %i, %i, %i, %i${tail} : !pto.ptr<f32, l0c>, !pto.ptr<${t}, gm>, i64, i64, i64, i64, i64, i64`;
  expect(microErrors([gm(', nz2nd'), gm(', unit_flag(check_only), nz2nd, sat'), gm('')].join('\n'), params)).toEqual([]);
  expect(microErrors(gm(', sat, nz2nd'), params)).toEqual(['E0450: pto.mte_l0c_gm clauses must follow canonical order']);
  expect(microErrors(gm(', nz2nd, nz2nd'), params)).toEqual(['E0450: pto.mte_l0c_gm has a duplicate nz2nd clause']);
  expect(microErrors(gm(', pre_relu(mode = pwl), nz2nd'), params)).toContain('E0451: pto.mte_l0c_gm: the pre_relu mode pwl is not supported yet');
  expect(microErrors(gm(', nz2nz', '%h', 'f16'), params)).toContain('E0451: pto.mte_l0c_gm: nz2nz requires destination element type to be f32');
  expect(microErrors(gm(', nz2nz, sat(preserve_nan)'), params)).toEqual([]);
  expect(microErrors(gm(', nz2nd', '%h', 'f16'), params)).toEqual([
    'E0451: pto.mte_l0c_gm: storing !pto.ptr<f32, l0c> elements as !pto.ptr<f16, gm> needs a pre_quant conversion',
  ]);
  const ub = (mode: string) => `  pto.mte_l0c_ub %c, %u, %i, %i, %i, %i, ${mode} : !pto.ptr<f32, l0c>, !pto.ptr<f32, ub>, i64, i64, i64, i64`;
  expect(microErrors(ub('dst_mode(split_m), nz2nd'), params)).toEqual([]);
  expect(microErrors(ub('dst_mode(split_x)'), params)).toEqual([
    'E0450: pto.mte_l0c_ub expects dst_mode(%sub_blockid), dst_mode(split_m), or dst_mode(split_n)',
  ]);
});

test('mte_l1_bt widens an f16 bias from L1 into the bias table (32-byte units), which tmatmul.bias adds', () => {
  const A = (i: number, k: number) => ((i * 3 + k) % 5) - 2;
  const B = (k: number, j: number) => ((k + 2 * j) % 3) - 1;
  const bias = (j: number) => j - 7.5;
  const bt = '!pto.tile_buf<bias, 1x16xf32, blayout=row_major>';
  const kernel = KERNEL.replace('%c_gm: !pto.ptr<f32, gm>)', '%c_gm: !pto.ptr<f32, gm>, %bias_gm: !pto.ptr<f16, gm>)')
    .replace(
      '    pto.tmatmul ins(%tl, %tr : ',
      `    %c1024 = arith.constant 1024 : i64
    %l1bias = pto.castptr %c1024 : i64 -> !pto.ptr<f16, l1>
    %tbias = pto.alloc_tile addr = %c0 : ${bt}
    %btp = pto.tile_buf_addr %tbias : ${bt} -> !pto.ptr<f32, bt>
    pto.mte_gm_l1 %bias_gm, %l1bias, %c32 nburst(%c1, %c0, %c0) : !pto.ptr<f16, gm>, !pto.ptr<f16, l1>, i64, i64, i64, i64
    pto.mte_l1_bt %l1bias, %btp, %c1 nburst(%c1, %c0, %c0) : !pto.ptr<f16, l1>, !pto.ptr<f32, bt>, i64, i64, i64, i64
    pto.tmatmul.bias ins(%tl, %tr, %tbias : `,
    )
    .replace(`${TILES.right}) outs(%tc`, `${TILES.right}, ${bt}) outs(%tc`);
  const half = (n: number, f: (q: number) => number) => new Uint8Array(Uint16Array.from({ length: n }, (_, q) => f16Bits(f(q))).buffer);
  const buffers = {
    a_gm: new GlobalBuffer(
      'a_gm',
      'f16',
      half(256, (q) => A(q >> 4, q & 15)),
    ),
    b_gm: new GlobalBuffer(
      'b_gm',
      'f16',
      half(256, (q) => B(q >> 4, q & 15)),
    ),
    c_gm: new GlobalBuffer('c_gm', 'f32', new Uint8Array(1024)),
    bias_gm: new GlobalBuffer('bias_gm', 'f16', half(16, bias)),
  };
  runMicroKernel(kernel, 'mm', buffers);
  const expected = Array.from({ length: 256 }, (_, q) => {
    let s = 0;
    for (let k = 0; k < 16; k++) s += A(q >> 4, k) * B(k, q & 15);
    return s + bias(q & 15);
  });
  expect(Array.from(new Float32Array(buffers.c_gm.bytes.buffer.slice(0)))).toEqual(expected);
});

test("the cube rows' own verifier rules: fill geometry and word width, mad's type rules (VPTO.cpp)", () => {
  const params = '%d: !pto.ptr<ui16, l1>, %e: !pto.ptr<i16, l1>, %w: i32';
  const fill = (off: number, rep: number, bits: number, dst = '%d', t = 'ui16') =>
    `  %o = arith.constant ${off} : i64\n  %r = arith.constant ${rep} : i64\n  pto.raw_fill_l1 ${dst}, %o, %w, %r, %r, %r {fill_word_bits = ${bits} : i64} : !pto.ptr<${t}, l1>, i64, i32, i64, i64, i64`;
  expect(microErrors(fill(32, 4, 16), params)).toEqual([]);
  expect(microErrors(fill(2, 4, 16), params)).toEqual(['E0451: pto.raw_fill_l1: byte_offset must be a multiple of 32 bytes']);
  expect(microErrors(fill(0, 32768, 32), params)).toEqual([
    'E0451: pto.raw_fill_l1: repeat_times must be <= 32767',
    'E0451: pto.raw_fill_l1: block_num_32b must be <= 32767',
    'E0451: pto.raw_fill_l1: dst_gap_32b must be <= 32767',
  ]);
  expect(microErrors(fill(0, 1, 8), params)).toEqual(['E0451: pto.raw_fill_l1: fill_word_bits must be 16 or 32, got 8']);
  const cbuf = (bits: number, dst = '%d', t = 'ui16') =>
    `  %r = arith.constant 1 : i64\n  pto.create_cbuf_matrix ${dst}, %w, %r, %r, %r {fill_word_bits = ${bits} : i64} : !pto.ptr<${t}, l1>, i32, i64, i64, i64`;
  expect(microErrors(cbuf(32), params)).toEqual(['E0451: pto.create_cbuf_matrix: fill_word_bits 32 does not match the 16-bit destination view']);
  expect(microErrors(cbuf(16, '%e', 'i16'), params)).toEqual([
    "E0451: pto.create_cbuf_matrix: requires a ui16 or ui32 destination view, got element type 'i16'",
  ]);
  const madParams =
    '%a: !pto.ptr<i8, l0a>, %b: !pto.ptr<i8, l0b>, %c: !pto.ptr<i32, l0c>, %h: !pto.ptr<f16, l0a>, %g: !pto.ptr<f16, l0b>, %f: !pto.ptr<f32, l0c>, %i: i64';
  expect(microErrors('  pto.mad %a, %b, %c, %i, %i, %i sat : !pto.ptr<i8, l0a>, !pto.ptr<i8, l0b>, !pto.ptr<i32, l0c>, i64, i64, i64', madParams)).toEqual([
    'E0451: pto.mad: requires sat/nosat only for floating lhs/rhs/dst element types',
  ]);
  expect(
    microErrors(
      '  pto.mad %h, %g, %f, %i, %i, %i tf32_mode(round_even) : !pto.ptr<f16, l0a>, !pto.ptr<f16, l0b>, !pto.ptr<f32, l0c>, i64, i64, i64',
      madParams,
    ),
  ).toEqual(['E0451: pto.mad: requires tf32_mode only for f32 lhs/rhs/dst element types']);
});

test('load_cbuf_to_ca/cb: constant controls within their hardware fields (verifyExplicitCubeBridgeLoadControls)', () => {
  const params = '%s: !pto.ptr<f16, l1>, %a: !pto.ptr<f16, l0a>, %b: !pto.ptr<f16, l0b>';
  const load = (op: string, dst: string, space: string, values: number[]) =>
    values.map((v, i) => `  %v${i} = arith.constant ${v} : i64`).join('\n') +
    `\n  pto.${op} %s, ${dst}, ${values.map((_, i) => `%v${i}`).join(', ')} : !pto.ptr<f16, l1>, !pto.ptr<f16, ${space}>, i64, i64, i64, i64, i64, i64`;
  expect(microErrors(load('load_cbuf_to_ca', '%a', 'l0a', [0, 0, 1, 1, 1, 1]), params)).toEqual([]);
  expect(microErrors(load('load_cbuf_to_cb', '%b', 'l0b', [-1, 0, 1, 1, 1, 1]), params)).toEqual(['E0451: pto.load_cbuf_to_cb: m_start must be non-negative']);
  expect(microErrors(load('load_cbuf_to_cb', '%b', 'l0b', [0, 0, 0, 1, 1, 1]), params)).toEqual([
    'E0451: pto.load_cbuf_to_cb: m_step must be greater than zero',
  ]);
  expect(microErrors(load('load_cbuf_to_ca', '%a', 'l0a', [0, 0, 256, 1, 1, 1]), params)).toEqual([
    'E0451: pto.load_cbuf_to_ca: m_step must be <= 255 to fit the hardware control field',
  ]);
  expect(microErrors(load('load_cbuf_to_ca', '%a', 'l0a', [65536, 0, 1, 1, 1, 1]), params)).toEqual([
    'E0451: pto.load_cbuf_to_ca: m_start must be <= 65535 to fit the hardware control field',
  ]);
});

test('packed FP4 moves through the _s4 loads only; MX load controls are non-negative', () => {
  const params = '%s: !pto.ptr<f16, l1>, %a: !pto.ptr<f16, l0a>, %q: !pto.ptr<!pto.f4E2M1x2, l1>, %p: !pto.ptr<!pto.f4E2M1x2, l0a>, %i: i64';
  const s4 = (src: string, st: string, dst: string, dt: string) =>
    `  pto.load_cbuf_to_ca_s4 ${src}, ${dst}, %i, %i, %i, %i, %i, %i, %i : !pto.ptr<${st}, l1>, !pto.ptr<${dt}, l0a>, i64, i64, i64, i64, i64, i64, i64`;
  expect(microErrors(s4('%q', '!pto.f4E2M1x2', '%p', '!pto.f4E2M1x2'), params)).toEqual([]);
  expect(microErrors(s4('%s', 'f16', '%a', 'f16'), params)).toEqual([
    'E0451: pto.load_cbuf_to_ca_s4: requires packed FP4 source element type f4e1m2x2 or f4e2m1x2',
  ]);
  expect(
    microErrors(
      '  pto.load_cbuf_to_ca %q, %p, %i, %i, %i, %i, %i, %i : !pto.ptr<!pto.f4E2M1x2, l1>, !pto.ptr<!pto.f4E2M1x2, l0a>, i64, i64, i64, i64, i64, i64',
      params,
    ),
  ).toEqual(['E0451: pto.load_cbuf_to_ca: packed FP4 source requires the S4 load operation']);
  const mx = `  %m = arith.constant -1 : i64\n  pto.mte_l1_l0a_mx %s, %a, %i, %i, %m, %i, %i, %i : !pto.ptr<f16, l1>, !pto.ptr<f16, l0a>, i64, i64, i64, i64, i64, i64`;
  expect(microErrors(mx, params)).toEqual(['E0451: pto.mte_l1_l0a_mx: x_step must be non-negative']);
});

test('mte_l1_l0a/l0b: constant starts of the shape form non-negative, full-form controls in range', () => {
  const params = '%s: !pto.ptr<f16, l1>, %a: !pto.ptr<f16, l0a>, %i: i64';
  const l0a = (values: number[]) =>
    values.map((v, k) => `  %v${k} = arith.constant ${v} : i64`).join('\n') +
    `\n  pto.mte_l1_l0a %s, %a, ${values.map((_, k) => `%v${k}`).join(', ')} : !pto.ptr<f16, l1>, !pto.ptr<f16, l0a>, ${values.map(() => 'i64').join(', ')}`;
  expect(microErrors(l0a([16, 16, 0, 0]), params)).toEqual([]);
  expect(microErrors(l0a([16, 16, -1, 0]), params)).toEqual(['E0451: pto.mte_l1_l0a: start_row must be non-negative']);
  expect(microErrors(l0a([0, 0, 0, 1, 1, 1]), params)).toEqual(['E0451: pto.mte_l1_l0a: m_step must be greater than zero']);
});
