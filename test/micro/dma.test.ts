/**
 * The DMA and configuration micro-ops (spec/micro/dma.json, src/micro/run/dma.ts and config.ts): loop groups of the
 * grouped copies, the raw copies under the loop registers that pto.set_loop* write, the atomic mode of GM stores,
 * and UB -> UB block copies. Each expected value is worked out by hand from docs/isa/micro-isa/02-dma-copy.md's
 * loop model (address = base + sum of count index * stride) over an input whose element i is i.
 */
import { GlobalBuffer } from '../../src/machine/memory';
import { microErrors, runMicroKernel } from '../fixtures/micro';

const ints = (n: number, f: (i: number) => number) => new Uint8Array(Int32Array.from({ length: n }, (_, i) => f(i)).buffer);
const read = (b: GlobalBuffer) => Array.from(new Int32Array(b.bytes.buffer.slice(b.bytes.byteOffset, b.bytes.byteOffset + b.bytes.byteLength)));

/** A kernel @k(%src, %out) over i32 buffers: `body`, then UB bytes 0..256 stored to %out. */
function kernel(body: string): string {
  return `module attributes {pto.target_arch = "a5", pto.kernel_kind = #pto.kernel_kind<vector>} {
  func.func @k(%src: !pto.ptr<i32, gm>, %out: !pto.ptr<i32, gm>) attributes {pto.kernel} {
    %c0 = arith.constant 0 : i64
    %c1 = arith.constant 1 : i64
    %c2 = arith.constant 2 : i64
    %c3 = arith.constant 3 : i64
    %c4 = arith.constant 4 : i64
    %c8 = arith.constant 8 : i64
    %c16 = arith.constant 16 : i64
    %c32 = arith.constant 32 : i64
    %c48 = arith.constant 48 : i64
    %c64 = arith.constant 64 : i64
    %c128 = arith.constant 128 : i64
    %c256 = arith.constant 256 : i64
    %false = arith.constant false
    %ub = pto.castptr %c0 : i64 -> !pto.ptr<i32, ub>
${body}
    pto.mte_ub_gm %ub, %out, %c256 nburst(%c1, %c256, %c256) : !pto.ptr<i32, ub>, !pto.ptr<i32, gm>, i64, i64, i64, i64
    return
  }
}
`;
}

/** Runs the kernel over %src[i] = i (64 elements) and %out of 64 elements holding `init`; %out afterwards. */
function run(body: string, init = 0): number[] {
  const buffers = {
    src: new GlobalBuffer(
      'src',
      'i32',
      ints(64, (i) => i),
    ),
    out: new GlobalBuffer(
      'out',
      'i32',
      ints(64, () => init),
    ),
  };
  runMicroKernel(kernel(body), 'k', buffers);
  return read(buffers.out);
}

/** 64 zeros with the given elements set. */
const expected = (set: Record<number, number>) => Array.from({ length: 64 }, (_, i) => set[i] ?? 0);

test('mte_gm_ub with one loop group: 3 repetitions of 2 bursts of 2 elements, each side moved by its strides', () => {
  // Burst r of repetition l reads GM byte l*48 + r*16 (element 12l + 4r) and writes UB byte l*64 + r*32 (int 16l + 8r).
  const out = run(`    pto.mte_gm_ub %src, %ub, %c0, %c8 nburst(%c2, %c16, %c32) loop(%c3, %c48, %c64)
      : !pto.ptr<i32, gm>, !pto.ptr<i32, ub>, i64, i64, i64, i64, i64, loop i64, i64, i64`);
  expect(out).toEqual(expected({ 0: 0, 1: 1, 8: 4, 9: 5, 16: 12, 17: 13, 24: 16, 25: 17, 32: 24, 33: 25, 40: 28, 41: 29 }));
});

test('mte_gm_ub with two loop groups, then one with none: the loop sizes are back to 1 after the first', () => {
  // Groups (2, 4 B, 8 B) and (2, 8 B, 16 B) over one 4-byte burst: GM element a + 2b to UB int 2a + 4b.
  // The second copy's bursts (GM elements 0 and 40 to UB ints 0 and 40) run once: the first reset the loop sizes.
  const out = run(`    pto.mte_gm_ub %src, %ub, %c0, %c4 nburst(%c1, %c0, %c0) loop(%c2, %c4, %c8) loop(%c2, %c8, %c16)
      : !pto.ptr<i32, gm>, !pto.ptr<i32, ub>, i64, i64, i64, i64, i64, loop i64, i64, i64, loop i64, i64, i64
    %c160 = arith.constant 160 : i64
    pto.mte_gm_ub %src, %ub, %c0, %c4 nburst(%c2, %c160, %c160) : !pto.ptr<i32, gm>, !pto.ptr<i32, ub>, i64, i64, i64, i64, i64`);
  expect(out).toEqual(expected({ 0: 0, 2: 1, 4: 2, 6: 3, 40: 40 }));
});

test('copy_gm_to_ubuf repeats its bursts under the loop registers set_loop*_outtoub wrote (loop2 around loop1)', () => {
  // loop1: 3 x (4 B, 32 B), loop2: 2 x (16 B, 128 B): GM element 4*l2 + l1 to UB int 32*l2 + 8*l1.
  const out = run(`    pto.set_loop1_stride_outtoub %c4, %c32 : i64, i64
    pto.set_loop2_stride_outtoub %c16, %c128 : i64, i64
    pto.set_loop_size_outtoub %c2, %c3 : i64, i64
    pto.copy_gm_to_ubuf %src, %ub, %c0, %c1, %c4, %c0, %c0, %false, %c0, %c0, %c0
      : !pto.ptr<i32, gm>, !pto.ptr<i32, ub>, i64, i64, i64, i64, i64, i1, i64, i64, i64
    pto.set_loop_size_outtoub %c1, %c1 : i64, i64`);
  expect(out).toEqual(expected({ 0: 0, 8: 1, 16: 2, 32: 4, 40: 5, 48: 6 }));
});

test('mte_ub_gm under set_atomic_s32 + set_atomic_add adds to GM (wrapping), set_atomic_none stores again', () => {
  const body = `    pto.mte_gm_ub %src, %ub, %c0, %c256 nburst(%c1, %c256, %c256) : !pto.ptr<i32, gm>, !pto.ptr<i32, ub>, i64, i64, i64, i64, i64
    pto.set_atomic_s32
    pto.set_atomic_add
    pto.mte_ub_gm %ub, %out, %c256 nburst(%c1, %c256, %c256) : !pto.ptr<i32, ub>, !pto.ptr<i32, gm>, i64, i64, i64, i64
    pto.set_atomic_none`;
  // The atomic store adds i to 10; the kernel's closing plain store then writes UB (i) over it.
  expect(run(body, 10)).toEqual(Array.from({ length: 64 }, (_, i) => i));
  const buffers = {
    src: new GlobalBuffer(
      'src',
      'i32',
      ints(64, (i) => i),
    ),
    out: new GlobalBuffer(
      'out',
      'i32',
      ints(64, () => 2147483647),
    ),
  };
  runMicroKernel(kernel(body.replace('pto.set_atomic_none', 'pto.set_atomic_add')), 'k', buffers);
  // Two atomic adds: 2147483647 + i + i, wrapped to 32 bits.
  expect(read(buffers.out)).toEqual(Array.from({ length: 64 }, (_, i) => (2147483647 + 2 * i) | 0));
});

test('mte_ub_ub copies len_burst 32-byte blocks with gaps of blocks between bursts', () => {
  // Two bursts of one block (8 ints), source gap 1 block, destination gap 0: UB ints 0..7 and 16..23 to 64..79.
  const out = run(`    pto.mte_gm_ub %src, %ub, %c0, %c256 nburst(%c1, %c256, %c256) : !pto.ptr<i32, gm>, !pto.ptr<i32, ub>, i64, i64, i64, i64, i64
    %dst = pto.castptr %c256 : i64 -> !pto.ptr<i32, ub>
    pto.mte_ub_ub %ub, %dst, %c1 nburst(%c2, %c1, %c0) : !pto.ptr<i32, ub>, !pto.ptr<i32, ub>, i64, i64, i64, i64
    pto.mte_ub_ub %dst, %ub, %c8 nburst(%c1, %c0, %c0) : !pto.ptr<i32, ub>, !pto.ptr<i32, ub>, i64, i64, i64, i64`);
  // The second copy brings UB ints 64..127 (8 blocks) back to 0..63: 0..7, 16..23, then what UB held (zero).
  expect(out).toEqual(Array.from({ length: 64 }, (_, i) => (i < 8 ? i : i < 16 ? i + 8 : 0)));
});

test('configuration and DMA rows verify their operand kinds and address spaces', () => {
  const params = '%g: !pto.ptr<i32, gm>, %u: !pto.ptr<i32, ub>, %a: i64, %b: i32, %f: i1';
  expect(microErrors('  pto.set_loop1_stride_outtoub %a, %b : i64, i32', params)).toEqual([
    "E0451: pto.set_loop1_stride_outtoub: 'second' must be i64, got i32",
  ]);
  expect(microErrors('  pto.set_atomic_s32\n  pto.set_mov_pad_val %b : i32', params)).toEqual([]);
  expect(
    microErrors(
      '  pto.copy_gm_to_ubuf %u, %u, %a, %a, %a, %a, %a, %f, %a, %a, %a : !pto.ptr<i32, ub>, !pto.ptr<i32, ub>, i64, i64, i64, i64, i64, i1, i64, i64, i64',
      params,
    ),
  ).toEqual(["E0451: pto.copy_gm_to_ubuf: 'source' must point to gm, got !pto.ptr<i32, ub>"]);
  expect(microErrors('  pto.mte_gm_l1 %g, %u, %a nburst(%a, %a, %a) : !pto.ptr<i32, gm>, !pto.ptr<i32, ub>, i64, i64, i64, i64', params)).toEqual([
    "E0451: pto.mte_gm_l1: 'destination' must point to l1, got !pto.ptr<i32, ub>",
  ]);
});

test('raw_fill_l1 fills runs of 32-byte blocks of L1 with a 16- or 32-bit word; copy_cbuf_to_ubuf brings them to UB', () => {
  // Two runs of one block, a gap of one block between them, from byte 32: L1 bytes 32..63 and 96..127 (ints 8..15,
  // 24..31). The 16-bit word 0x1234 repeated is the int 0x12341234; then a 32-bit fill of 0x01020304 at byte 192.
  const out = run(`    %l1 = pto.castptr %c0 : i64 -> !pto.ptr<ui16, l1>
    %l1i = pto.castptr %c0 : i64 -> !pto.ptr<i32, l1>
    %w16 = arith.constant 4660 : i32
    %w32 = arith.constant 16909060 : i32
    %c192 = arith.constant 192 : i64
    pto.raw_fill_l1 %l1, %c32, %w16, %c2, %c1, %c1 {fill_word_bits = 16 : i64} : !pto.ptr<ui16, l1>, i64, i32, i64, i64, i64
    pto.raw_fill_l1 %l1, %c192, %w32, %c1, %c1, %c0 {fill_word_bits = 32 : i64} : !pto.ptr<ui16, l1>, i64, i32, i64, i64, i64
    pto.copy_cbuf_to_ubuf %l1i, %ub, %c0, %c1, %c8, %c0, %c0 : !pto.ptr<i32, l1>, !pto.ptr<i32, ub>, i64, i64, i64, i64, i64`);
  expect(out).toEqual(Array.from({ length: 64 }, (_, i) => ((i >= 8 && i < 16) || (i >= 24 && i < 32) ? 0x12341234 : i >= 48 && i < 56 ? 0x01020304 : 0)));
});

describe('copy_gm_to_cbuf_multi_nd2nz/dn2nz write NZ fractals of 32-byte C0 rows under set_mte2_nz_para', () => {
  // i32: C0 = 8 elements. MTE2 NZ register: 1 group, loop2 = 1 block per row n, loop3 = 4 blocks per C0 column,
  // loop4 = 0: element [n, d] lands at int (floor(d / 8) * 4 + n) * 8 + d % 8. L1 is first filled with 0x01010101,
  // which stays where nothing is written; lanes of the last C0 group past d_value are written as zero.
  const para = 1 + (1 << 16) + 4 * 2 ** 32;
  const body = (op: string, n: number, d: number, inner: number) => `    %l1 = pto.castptr %c0 : i64 -> !pto.ptr<i32, l1>
    %ones = arith.constant 16843009 : i32
    %para = arith.constant ${para} : i64
    %n = arith.constant ${n} : i64
    %d = arith.constant ${d} : i64
    %inner = arith.constant ${inner} : i64
    pto.raw_fill_l1 %l1, %c0, %ones, %c1, %c8, %c0 {fill_word_bits = 32 : i64} : !pto.ptr<i32, l1>, i64, i32, i64, i64, i64
    pto.set_mte2_nz_para %para : i64
    pto.${op} %src, %l1, %c0, %inner, %c0, %n, %d, %c0, %false
      : !pto.ptr<i32, gm>, !pto.ptr<i32, l1>, i64, i64, i64, i64, i64, i64, i1
    pto.copy_cbuf_to_ubuf %l1, %ub, %c0, %c1, %c8, %c0, %c0 : !pto.ptr<i32, l1>, !pto.ptr<i32, ub>, i64, i64, i64, i64, i64`;
  const nz = (n: number, d: number, value: (n: number, d: number) => number) => {
    const out = Array.from({ length: 64 }, () => 0x01010101);
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < Math.ceil(d / 8) * 8; j++) out[(Math.floor(j / 8) * 4 + i) * 8 + (j % 8)] = j < d ? value(i, j) : 0;
    }
    return out;
  };
  test('nd2nz: 3 x 10 from rows of 12 elements (48 bytes)', () => {
    expect(run(body('copy_gm_to_cbuf_multi_nd2nz', 3, 10, 48))).toEqual(nz(3, 10, (n, d) => 12 * n + d));
  });
  test('dn2nz: 2 x 3 from a source whose d-th row of 4 elements (16 bytes) holds n', () => {
    expect(run(body('copy_gm_to_cbuf_multi_dn2nz', 2, 3, 16))).toEqual(nz(2, 3, (n, d) => 4 * d + n));
  });
});

describe('pto.mte_gm_l1_frac: its own syntax, PTOAS verifier rules, and its run as set_mte2_nz_para + the raw load', () => {
  const frac = (mode: string, layout: string, types: string, group = '%c1, %c1, %c4, %c0') => `    %l1 = pto.castptr %c0 : i64 -> !pto.ptr<i32, l1>
    %ones = arith.constant 16843009 : i32
    %n = arith.constant 3 : i64
    %d = arith.constant 10 : i64
    %inner = arith.constant 48 : i64
    pto.raw_fill_l1 %l1, %c0, %ones, %c1, %c8, %c0 {fill_word_bits = 32 : i64} : !pto.ptr<i32, l1>, i64, i32, i64, i64, i64
    pto.mte_gm_l1_frac %src, %l1, ${mode}, shape(%n, %d), src_layout(${layout}), dst_group(${group}), ctrl(%c0, %false)
      : !pto.ptr<i32, gm>, !pto.ptr<i32, l1>, ${mode}, shape i64, i64, src_layout(${types}), dst_group i64, i64, i64, i64, ctrl i64, i1
    pto.copy_cbuf_to_ubuf %l1, %ub, %c0, %c1, %c8, %c0, %c0 : !pto.ptr<i32, l1>, !pto.ptr<i32, ub>, i64, i64, i64, i64, i64`;
  test('nd2nz 3 x 10 with dst_group(1, 1, 4, 0): the layout of the raw load under the same register', () => {
    const out = Array.from({ length: 64 }, () => 0x01010101);
    for (let n = 0; n < 3; n++) for (let d = 0; d < 16; d++) out[(Math.floor(d / 8) * 4 + n) * 8 + (d % 8)] = d < 10 ? 12 * n + d : 0;
    expect(run(frac('nd2nz', '%inner', 'i64'))).toEqual(out);
  });
  test('the verifier: mode words, group forms, constants', () => {
    const params = '%g: !pto.ptr<f16, gm>, %l: !pto.ptr<f16, l1>, %a: i64, %f: i1';
    const op = (mode: string, layout: string, group: string, types: string) =>
      `  pto.mte_gm_l1_frac %g, %l, ${mode}, shape(%a, %a), src_layout(${layout}), dst_group(${group}), ctrl(%a, %f) : !pto.ptr<f16, gm>, !pto.ptr<f16, l1>, ${types}`;
    const good = 'nd2nz, shape i64, i64, src_layout(i64), dst_group i64, i64, i64, i64, ctrl i64, i1';
    expect(microErrors(op('nd2nz', '%a', '%a, %a, %a, %a', good), params)).toEqual([]);
    expect(microErrors(op('nd2nz', '%a, %a', '%a, %a, %a, %a', good.replace('src_layout(i64)', 'src_layout(i64, i64)')), params)).toEqual([]);
    expect(microErrors(op('nz2nd', '%a', '%a, %a, %a, %a', good.replace('nd2nz', 'nz2nd')), params)).toEqual([
      "E0450: pto.mte_gm_l1_frac expects one of 'nd2nz' or 'dn2nz', got 'nz2nd'",
    ]);
    expect(microErrors(op('nd2nz', '%a', '%a, %a, %a, %a', good.replace('src_layout(i64)', 'src_layout i64')), params)).toEqual([
      "E0450: pto.mte_gm_l1_frac expects the types of its group 2 written 'src_layout(T, ...)'",
    ]);
    const zero = `  %z = arith.constant 0 : i64\n`;
    expect(microErrors(zero + op('nd2nz', '%a', '%z, %a, %a, %a', good), params)).toEqual(['E0451: pto.mte_gm_l1_frac: group_count must be greater than zero']);
  });
});

test('the cube matmul and L1 -> L0 rows read PTOAS custom forms: mad clauses in order, mte_l1_l0a/b shape or full-control', () => {
  const params = '%a: !pto.ptr<f16, l0a>, %b: !pto.ptr<f16, l0b>, %c: !pto.ptr<f32, l0c>, %l: !pto.ptr<f16, l1>, %i: i64';
  const mad = (op: string, clauses: string) =>
    `  pto.${op} %a, %b, %c, %i, %i, %i${clauses} : !pto.ptr<f16, l0a>, !pto.ptr<f16, l0b>, !pto.ptr<f32, l0c>, i64, i64, i64`;
  expect(microErrors(mad('mad', ' disable_gemv nosat') + '\n' + mad('mad', ' sat') + '\n' + mad('mad_acc', ' unit_flag(check_only) n_dir'), params)).toEqual(
    [],
  );
  expect(microErrors(mad('mad', ' tf32_mode(round_up)'), params)).toEqual([
    'E0451: pto.mad: \'tf32_mode\' must be one of round_even, round_away, got "round_up"',
  ]);
  // mad_mx has no tf32_mode clause; sat before disable_gemv is out of PTOAS's order.
  expect(microErrors(mad('mad_mx', ' tf32_mode(round_even)'), params).map((e) => e.slice(0, 5))).toEqual(['E0450']);
  expect(microErrors(mad('mad', ' sat disable_gemv'), params).map((e) => e.slice(0, 5))).toEqual(['E0450']);
  const l0a = (operands: string, types: string) => `  pto.mte_l1_l0a %l, %a, ${operands} : !pto.ptr<f16, l1>, !pto.ptr<f16, l0a>, ${types}`;
  expect(microErrors(l0a('%i, %i, %i, %i', 'i64, i64, i64, i64'), params)).toEqual([]);
  expect(microErrors(l0a('%i, %i, %i, %i, %i, %i', 'i64, i64, i64, i64, i64, i64'), params)).toEqual([]);
  expect(microErrors(l0a('%i, %i, %i', 'i64, i64, i64'), params).map((e) => e.slice(0, 5))).toEqual(['E0450']);
});

test('mte_gm_ub pad(value[, left, right]) pads each UB row to 32 bytes; mte_ub_gm takes an l2_cache_ctl(...) group', () => {
  // Two bursts of 2 elements, 32 bytes apart in UB: [s0, s1, pad x 6], [s2, s3, pad x 6]; with one element of left
  // and right pad: [pad, s0, s1, pad, pad x 4]. The pad value is 7; its row is stored with the l2_cache_ctl form.
  const body = (pad: string, types: string) => `    %pv = arith.constant 7 : i32
    pto.mte_gm_ub %src, %ub, %c0, %c8 nburst(%c2, %c8, %c32) ${pad}
      : !pto.ptr<i32, gm>, !pto.ptr<i32, ub>, i64, i64, i64, i64, i64, ${types}
    pto.mte_ub_gm %ub, %out, %c64 nburst(%c1, %c64, %c64) l2_cache_ctl(%c0)
      : !pto.ptr<i32, ub>, !pto.ptr<i32, gm>, i64, i64, i64, i64, i64`;
  const row = (values: number[]) => expected(Object.fromEntries(values.map((v, i) => [i, v])));
  expect(run(body('pad(%pv)', 'pad i32'))).toEqual(row([0, 1, 7, 7, 7, 7, 7, 7, 2, 3, 7, 7, 7, 7, 7, 7]));
  expect(run(body('pad(%pv, %c1, %c1)', 'pad i32, i64, i64'))).toEqual(row([7, 0, 1, 7, 7, 7, 7, 7, 7, 2, 3, 7, 7, 7, 7, 7]));
});
