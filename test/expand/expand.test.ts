/**
 * Expansion without PTOAS (src/expand): PTOAS's A5 templates (PTO_UPSTREAM_DIR's lib/TileOps, run by its ptodsl over
 * our Python shim) replace the tile ops, and the expanded module runs on the VM. The expected values are computed
 * here (Math.fround for one f32 rounding, `| 0` for i32 wrapping), not taken from either run.
 */
import { spawnSync } from 'child_process';
import { checkLowering, compareRuns, BufferInput } from '../../src/expand/check';
import { expandModule } from '../../src/expand/expand';
import { upstreamTree } from '../../src/expand/tilelib';
import { binaryKernel, compareKernel, convertKernel, genericKernel, scalarKernel, unaryKernel } from '../../src/expand/kernels';

const tree = upstreamTree(process.env.PTO_UPSTREAM_DIR);
const python = spawnSync(process.env.PYTHON ?? 'python3', ['--version']);
const skipReason = 'error' in tree ? tree.error : python.status !== 0 ? `${process.env.PYTHON ?? 'python3'} cannot run` : undefined;
if (skipReason) console.warn(`test/expand/expand.test.ts skipped: ${skipReason}`);
const suite = skipReason ? describe.skip : describe;
const upstreamDir = 'dir' in tree ? tree.dir : '';

/** The tile ops only: tload/tstore (view operands) stay tile-level, so the check isolates the op under test. */
const onlyCompute = (op: string): boolean => op !== 'pto.tload' && op !== 'pto.tstore';

const f32 = (values: number[]): BufferInput => ({ elem: 'f32', bytes: new Uint8Array(Float32Array.from(values).buffer) });
const i32 = (values: number[]): BufferInput => ({ elem: 'i32', bytes: new Uint8Array(Int32Array.from(values).buffer) });
const asF32 = (bytes: Uint8Array): number[] => Array.from(new Float32Array(bytes.slice().buffer));
const asI32 = (bytes: Uint8Array): number[] => Array.from(new Int32Array(bytes.slice().buffer));

const n = 8 * 64;
const A = Array.from({ length: n }, (_, i) => Math.fround(i * 0.37 - 50));
const B = Array.from({ length: n }, (_, i) => Math.fround(3 / (i + 7) + (i % 5)));

suite('expanding A5 tile ops with PTOAS templates', () => {
  test('tadd f32 8x64: PTOAS prefers the 1-D traversal; the instance is a private function and the op a call of it', () => {
    const r = checkLowering(
      binaryKernel({ op: 'pto.tadd', dtype: 'f32', rows: 8, cols: 64, vRow: 8, vCol: 64 }),
      'kernel',
      { a: f32(A), b: f32(B), out: f32(new Array(n).fill(0)) },
      { upstreamDir, only: onlyCompute },
    );
    if ('error' in r) throw new Error(r.error);
    expect(r.expanded.map((e) => [e.op, e.template, e.candidates])).toEqual([['pto.tadd', 'template_tadd_1d', ['template_tadd_1d', 'template_tadd']]]);
    const tile = 'tile_f32_8_64_v8_v64_bl0_sl0_fr512_pd0_cm0';
    expect(r.expanded[0].instance).toBe(`__pto_tilelang_a5_tadd_${tile}_${tile}_${tile}__template_tadd_1d`);
    expect(r.expandedText).toContain(`func.call @${r.expanded[0].instance}(%ta, %tb, %td)`);
    expect(r.expandedText).toContain(`func.func private @${r.expanded[0].instance}(`);
    expect(r.expandedText).not.toMatch(/pto\.tadd ins/);
    expect(r.expandedText).toMatch(/pto\.vadd %\d+, %\d+, %\d+ : !pto\.vreg<64xf32>/);
    expect(r.agree).toBe(true);
    expect(asF32(r.outputs.get('out')!)).toEqual(A.map((a, i) => Math.fround(a + B[i])));
  });

  test('tadd f32, valid 4x63 of a 4x64 tile: only the 2-D traversal is legal (the rows are not contiguous)', () => {
    const m = 4 * 63;
    const r = checkLowering(
      binaryKernel({ op: 'pto.tadd', dtype: 'f32', rows: 4, cols: 64, vRow: 4, vCol: 63 }),
      'kernel',
      { a: f32(A.slice(0, m)), b: f32(B.slice(0, m)), out: f32(new Array(m).fill(0)) },
      { upstreamDir, only: onlyCompute },
    );
    if ('error' in r) throw new Error(r.error);
    expect(r.expanded.map((e) => [e.template, e.candidates])).toEqual([['template_tadd', ['template_tadd']]]);
    expect(r.agree).toBe(true);
    expect(asF32(r.outputs.get('out')!)).toEqual(A.slice(0, m).map((a, i) => Math.fround(a + B[i])));
  });

  test('a chosen candidate: the 2-D traversal of the full 8x64 tile gives the same bytes', () => {
    const r = checkLowering(
      binaryKernel({ op: 'pto.tadd', dtype: 'f32', rows: 8, cols: 64, vRow: 8, vCol: 64 }),
      'kernel',
      { a: f32(A), b: f32(B), out: f32(new Array(n).fill(0)) },
      {
        upstreamDir,
        only: onlyCompute,
        candidate: (_op, candidates) => candidates.find((c) => !c.endsWith('_1d')),
      },
    );
    if ('error' in r) throw new Error(r.error);
    expect(r.expanded.map((e) => e.template)).toEqual(['template_tadd']);
    expect(r.agree).toBe(true);
    expect(asF32(r.outputs.get('out')!)).toEqual(A.map((a, i) => Math.fround(a + B[i])));
  });

  const binary: [string, (a: number, b: number) => number][] = [
    ['pto.tsub', (a, b) => Math.fround(a - b)],
    ['pto.tmul', (a, b) => Math.fround(a * b)],
    ['pto.tdiv', (a, b) => Math.fround(a / b)],
    ['pto.tmax', (a, b) => Math.max(a, b)],
    ['pto.tmin', (a, b) => Math.min(a, b)],
  ];
  test.each(binary)('%s f32 8x64: the expansion agrees with the tile op, both computing each element once', (op, f) => {
    const r = checkLowering(
      binaryKernel({ op, dtype: 'f32', rows: 8, cols: 64, vRow: 8, vCol: 64 }),
      'kernel',
      { a: f32(A), b: f32(B), out: f32(new Array(n).fill(0)) },
      { upstreamDir, only: onlyCompute },
    );
    if ('error' in r) throw new Error(r.error);
    expect(r.expanded.map((e) => e.op)).toEqual([op]);
    expect(r.agree).toBe(true);
    expect(asF32(r.outputs.get('out')!)).toEqual(A.map((a, i) => f(a, B[i])));
  });

  test('tadd i32 with a tail (valid 5x40 of 8x64): wraps like the tile op', () => {
    const m = 5 * 40;
    const a = Array.from({ length: m }, (_, i) => (i % 2 ? 2147483000 + i : -i * 1000));
    const b = Array.from({ length: m }, (_, i) => i * 7919);
    const r = checkLowering(
      binaryKernel({ op: 'pto.tadd', dtype: 'i32', rows: 8, cols: 64, vRow: 5, vCol: 40 }),
      'kernel',
      { a: i32(a), b: i32(b), out: i32(new Array(m).fill(0)) },
      { upstreamDir, only: onlyCompute },
    );
    if ('error' in r) throw new Error(r.error);
    expect(r.agree).toBe(true);
    expect(asI32(r.outputs.get('out')!)).toEqual(a.map((x, i) => (x + b[i]) | 0));
  });

  const unary: [string, (a: number) => number][] = [
    ['pto.tabs', (a) => Math.abs(a)],
    ['pto.tneg', (a) => -a],
    ['pto.trelu', (a) => (a > 0 ? a : 0)],
  ];
  test.each(unary)('%s f32 8x64 (unary)', (op, f) => {
    const r = checkLowering(
      unaryKernel({ op, dtype: 'f32', rows: 8, cols: 64, vRow: 8, vCol: 64 }),
      'kernel',
      { a: f32(A), out: f32(new Array(n).fill(0)) },
      { upstreamDir, only: onlyCompute },
    );
    if ('error' in r) throw new Error(r.error);
    expect(r.expanded.map((e) => e.op)).toEqual([op]);
    expect(r.agree).toBe(true);
    expect(asF32(r.outputs.get('out')!)).toEqual(A.map(f));
  });

  test('tadds f32 and tmuls i32 with a constant scalar: the value of an integer constant is part of the specialization', () => {
    const adds = checkLowering(
      scalarKernel({ op: 'pto.tadds', dtype: 'f32', rows: 8, cols: 64, vRow: 8, vCol: 64 }, '2.5'),
      'kernel',
      { a: f32(A), out: f32(new Array(n).fill(0)) },
      { upstreamDir, only: onlyCompute },
    );
    if ('error' in adds) throw new Error(adds.error);
    expect(adds.agree).toBe(true);
    expect(asF32(adds.outputs.get('out')!)).toEqual(A.map((a) => Math.fround(a + 2.5)));
    const a = Array.from({ length: n }, (_, i) => i * 1000003 - 700000000);
    const muls = checkLowering(
      scalarKernel({ op: 'pto.tmuls', dtype: 'i32', rows: 8, cols: 64, vRow: 8, vCol: 64 }, '3'),
      'kernel',
      { a: i32(a), out: i32(new Array(n).fill(0)) },
      { upstreamDir, only: onlyCompute },
    );
    if ('error' in muls) throw new Error(muls.error);
    expect(muls.expanded[0].instance).toMatch(/_scalar_i32_sv3_tile_i32_/);
    expect(muls.agree).toBe(true);
    expect(asI32(muls.outputs.get('out')!)).toEqual(a.map((x) => Math.imul(x, 3)));
  });

  test('tcmp f32 with cmpMode lt: the mode goes to the template as context (cmp_mode), one bit per element', () => {
    const a = Array.from({ length: n }, (_, i) => (i * 37) % 11);
    const b = Array.from({ length: n }, (_, i) => (i * 13) % 7);
    const r = checkLowering(
      compareKernel('lt', 8, 64),
      'kernel',
      { a: f32(a), b: f32(b), out: { elem: 'i8', bytes: new Uint8Array(n) } },
      { upstreamDir, only: onlyCompute },
    );
    if ('error' in r) throw new Error(r.error);
    expect(r.expanded.map((e) => [e.template, e.instance.endsWith('_ctx_cmp_mode_lt__template_tcmp')])).toEqual([['template_tcmp', true]]);
    expect(r.agree).toBe(true);
    // Row r's 64 results packed into its first 8 bytes, element 8j + k in bit k of byte j; the rest of the row 0.
    const expected = new Array(n).fill(0);
    for (let row = 0; row < 8; row++) for (let e = 0; e < 64; e++) if (a[row * 64 + e] < b[row * 64 + e]) expected[row * 64 + (e >> 3)] |= 1 << (e & 7);
    expect(Array.from(r.outputs.get('out')!)).toEqual(expected);
  });

  test.each([
    ['FLOOR', 'FLOOR', Math.floor],
    ['CEIL', 'CEIL', Math.ceil],
    [undefined, 'RINT', (x: number) => (Math.abs(x % 1) === 0.5 ? 2 * Math.round(x / 2) : Math.round(x))],
  ])('tcvt f32 -> i32 with rmode %s: the template gets round_mode %s', (rmode, token, f) => {
    const m = 8 * 8;
    const a = Array.from({ length: m }, (_, i) => (i - 32) * 0.75 + (i % 3 === 0 ? 0.5 : 0));
    const r = checkLowering(
      convertKernel('f32', 'i32', 8, 8, rmode),
      'kernel',
      { a: f32(a), out: i32(new Array(m).fill(0)) },
      { upstreamDir, only: onlyCompute },
    );
    if ('error' in r) throw new Error(r.error);
    expect(r.expanded.map((e) => e.op)).toEqual(['pto.tcvt']);
    expect(r.expanded[0].instance.endsWith(rmode ? `_ctx_round_mode_${token}__${r.expanded[0].template}` : `__${r.expanded[0].template}`)).toBe(true);
    expect(r.agree).toBe(true);
    expect(asI32(r.outputs.get('out')!)).toEqual(a.map((x) => f(x) | 0));
  });

  // PTOAS passes a template the op's operands in MLIR's order (the spec's mlirOperands), which for tgather and
  // tscatter puts the destination between the sources: src, dst, indices.
  test('tgather f32 by i32 indices: the template takes (src, dst, indices), the destination between the sources', () => {
    const t = (dtype: string) => ({ dtype, rows: 2, cols: 64, vRow: 2, vCol: 64 });
    const idx = Array.from({ length: 128 }, (_, k) => 127 - k);
    const r = checkLowering(
      genericKernel('pto.tgather', [t('f32'), t('i32')], [t('f32')]),
      'kernel',
      { a: f32(A.slice(0, 128)), b: i32(idx), out: f32(new Array(128).fill(0)) },
      { upstreamDir, only: (op) => op === 'pto.tgather' },
    );
    if ('error' in r) throw new Error(r.error);
    expect(r.notExpanded).toEqual([]);
    const [f, i] = ['tile_f32_2_64_v2_v64_bl0_sl0_fr512_pd0_cm0', 'tile_i32_2_64_v2_v64_bl0_sl0_fr512_pd0_cm0'];
    expect(r.expanded[0].instance).toBe(`__pto_tilelang_a5_tgather_${f}_${f}_${i}__template_tgather`);
    expect(r.expandedText).toContain(`func.call @${r.expanded[0].instance}(%ta, %tout, %tb)`);
    expect(r.agree).toBe(true);
    // dst[k] = src[127 - k]: the source reversed.
    expect(asF32(r.outputs.get('out')!)).toEqual(A.slice(0, 128).reverse());
  });

  test('tscatter i32 by i32 indices: (src, dst, indexes) too; dst[7k mod 128] = src[k]', () => {
    const t = (dtype: string) => ({ dtype, rows: 2, cols: 64, vRow: 2, vCol: 64 });
    const idx = Array.from({ length: 128 }, (_, k) => (7 * k) % 128);
    const src = Array.from({ length: 128 }, (_, k) => 1000 + k);
    const r = checkLowering(
      genericKernel('pto.tscatter', [t('i32'), t('i32')], [t('i32')]),
      'kernel',
      { a: i32(src), b: i32(idx), out: i32(new Array(128).fill(0)) },
      { upstreamDir, only: (op) => op === 'pto.tscatter' },
    );
    if ('error' in r) throw new Error(r.error);
    expect(r.expanded.map((e) => e.template)).toEqual(['template_tscatter_index']);
    expect(r.expandedText).toContain(`func.call @${r.expanded[0].instance}(%ta, %tout, %tb)`);
    expect(r.agree).toBe(true);
    const want = new Array(128).fill(0);
    idx.forEach((d, k) => (want[d] = src[k]));
    expect(asI32(r.outputs.get('out')!)).toEqual(want);
  });

  test('tfillpad: lowering_kind derived as PTOAS derives it (distinct tiles of one shape: normal), and the fill agrees', () => {
    // A 4 x 63 valid source padded into a whole 4 x 64 destination with pad = zero: column 63 of each row becomes 0.
    const src = { dtype: 'f32', rows: 4, cols: 64, vRow: 4, vCol: 63 };
    const text = genericKernel('pto.tfillpad', [src], [{ ...src, vCol: 64, pad: 1 }]);
    const r = checkLowering(
      text,
      'kernel',
      { a: f32(A.slice(0, 4 * 63)), out: f32(new Array(4 * 64).fill(7)) },
      { upstreamDir, only: (op) => op === 'pto.tfillpad' },
    );
    if ('error' in r) throw new Error(r.error);
    expect(r.expanded.map((e) => e.instance.includes('_ctx_lowering_kind_normal__'))).toEqual([true]);
    expect(r.agree).toBe(true);
    const want = Array.from({ length: 4 * 64 }, (_, k) => (k % 64 === 63 ? 0 : Math.fround(A[Math.floor(k / 64) * 63 + (k % 64)])));
    expect(asF32(r.outputs.get('out')!)).toEqual(want);
  });

  test('inlined and folded (inline: true): no call, the valid shape constants in place of tile_valid_rows/cols', () => {
    const m = 4 * 63;
    const inputs = { a: f32(A.slice(0, m)), b: f32(B.slice(0, m)), out: f32(new Array(m).fill(0)) };
    const r = checkLowering(binaryKernel({ op: 'pto.tadd', dtype: 'f32', rows: 4, cols: 64, vRow: 4, vCol: 63 }), 'kernel', inputs, {
      upstreamDir,
      only: onlyCompute,
      inline: true,
    });
    if ('error' in r) throw new Error(r.error);
    expect(r.notExpanded).toEqual([]);
    expect(r.expandedText).not.toMatch(/func\.call|tile_valid_(rows|cols)|func\.func private/);
    expect(r.expandedText).toMatch(/%x0_0 = arith\.constant 4 : index\n\s+%x0_1 = arith\.constant 63 : index/);
    expect(r.expandedText).toMatch(/pto\.tile_buf_addr %ta : /);
    expect(r.agree).toBe(true);
    expect(asF32(r.outputs.get('out')!)).toEqual(A.slice(0, m).map((a, i) => Math.fround(a + B[i])));
  });

  test('tload and tstore expand and run (pto.tensor_view_addr): the whole kernel, loads and stores too, agrees byte for byte', () => {
    const m = 4 * 63;
    const inputs = { a: f32(A.slice(0, m)), b: f32(B.slice(0, m)), out: f32(new Array(m).fill(0)) };
    const r = checkLowering(binaryKernel({ op: 'pto.tadd', dtype: 'f32', rows: 4, cols: 64, vRow: 4, vCol: 63 }), 'kernel', inputs, { upstreamDir });
    if ('error' in r) throw new Error(r.error);
    expect(r.notExpanded).toEqual([]);
    expect(r.expanded.map((e) => e.op)).toEqual(['pto.tload', 'pto.tload', 'pto.tadd', 'pto.tstore']);
    // The instance takes the caller's partition, which pto.tensor_view_addr reads.
    expect(r.expandedText).toMatch(/pto\.tensor_view_addr %arg0 : !pto\.partition_tensor_view<4x63xf32> -> !pto\.ptr<f32, gm>/);
    expect(r.agree).toBe(true);
    expect(asF32(r.outputs.get('out')!)).toEqual(A.slice(0, m).map((a, i) => Math.fround(a + B[i])));
  });

  test('tload and tstore: the view spec carries the constant strides', () => {
    const r = expandModule('k.pto', binaryKernel({ op: 'pto.tadd', dtype: 'f32', rows: 8, cols: 64, vRow: 8, vCol: 64 }), { upstreamDir });
    if ('error' in r) throw new Error(r.error);
    expect(r.notExpanded).toEqual([]);
    expect(r.expanded.map((e) => [e.op, e.template])).toEqual([
      ['pto.tload', 'template_tload_nd2nd'],
      ['pto.tload', 'template_tload_nd2nd'],
      ['pto.tadd', 'template_tadd_1d'],
      ['pto.tstore', 'template_tstore_nd'],
    ]);
    expect(r.expanded[0].instance).toMatch(/^__pto_tilelang_a5_tload_view_f32_ms_gm_shape_8_64_strides_64_1_tile_f32_/);
    expect(r.text).toMatch(/pto\.mte_gm_ub %\d+, %\d+, %\d+, %\d+ nburst\(%\d+, %\d+, %\d+\) : !pto\.ptr<f32, gm>, !pto\.ptr<f32, vec>, i64/);
    expect(r.text).toMatch(/pto\.mte_ub_gm %\d+, %\d+, %\d+ nburst\(/);
  });

  test('a wrong expansion is caught: vsub for vadd differs at element 0, both values given', () => {
    const text = binaryKernel({ op: 'pto.tadd', dtype: 'f32', rows: 8, cols: 64, vRow: 8, vCol: 64 });
    const r = expandModule('k.pto', text, { upstreamDir, only: onlyCompute });
    if ('error' in r) throw new Error(r.error);
    const wrong = r.text.replace(/pto\.vadd /, 'pto.vsub ');
    const c = compareRuns(text, wrong, 'kernel', { a: f32(A), b: f32(B), out: f32(new Array(n).fill(0)) });
    if ('error' in c) throw new Error(c.error);
    const hex = (x: number): string => Buffer.from(Float32Array.of(x).buffer).toString('hex');
    // A[0] = -50, B[0] = 3/7: the sum and the difference.
    expect(c.difference).toEqual({ buffer: 'out', element: 0, tileLevel: hex(Math.fround(A[0] + B[0])), expanded: hex(Math.fround(A[0] - B[0])) });
  });
});
