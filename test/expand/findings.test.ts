/**
 * The differences the sweep found between PTOAS's A5 templates and the tile-level semantics (issue 38's findings;
 * docs/lowering.md, "Findings", explains each), every one on a minimal input: one tile op, the smallest shape that
 * shows it. The values of both sides are worked out by hand here, from the template's code (lib/TileOps/a5) and from
 * pto-isa's A5 code (include/pto/npu/a5), not read back from either run. Where the tile level was the VM's error
 * (tfmods' zero, trsqrt, trowsum), the VM now follows pto-isa and the case asserts that both sides agree.
 */
import { spawnSync } from 'child_process';
import { checkLowering, BufferInput, CheckResult } from '../../src/expand/check';
import { upstreamTree } from '../../src/expand/tilelib';
import { binaryKernel, genericKernel, opKernel, scalarKernel, unaryKernel } from '../../src/expand/kernels';

const tree = upstreamTree(process.env.PTO_UPSTREAM_DIR);
const python = spawnSync(process.env.PYTHON ?? 'python3', ['--version']);
const skipReason = 'error' in tree ? tree.error : python.status !== 0 ? `${process.env.PYTHON ?? 'python3'} cannot run` : undefined;
if (skipReason) console.warn(`test/expand/findings.test.ts skipped: ${skipReason}`);
const suite = skipReason ? describe.skip : describe;
const upstreamDir = 'dir' in tree ? tree.dir : '';

const f32 = (values: number[]): BufferInput => ({ elem: 'f32', bytes: new Uint8Array(Float32Array.from(values).buffer) });
/** f16 elements given by their bit patterns. */
const f16 = (bits: number[]): BufferInput => ({ elem: 'f16', bytes: new Uint8Array(Uint16Array.from(bits).buffer) });
const asF32 = (bytes: Uint8Array): number[] => Array.from(new Float32Array(bytes.slice().buffer));
const asWords = (bytes: Uint8Array): number[] => Array.from(new Uint32Array(bytes.slice().buffer));
const i32 = (values: number[]): BufferInput => ({ elem: 'i32', bytes: new Uint8Array(Int32Array.from(values).buffer) });
/** Little-endian hex of an f32 value or of an f16 bit pattern, as CheckResult's difference spells elements. */
const hex = (x: number): string => Buffer.from(Float32Array.of(x).buffer).toString('hex');
const hex16 = (bits: number): string => Buffer.from(Uint16Array.of(bits).buffer).toString('hex');

/** Expands `op` in the one-op kernel `text` and runs both forms on `inputs`. */
function check(text: string, op: string, inputs: Record<string, BufferInput>): Exclude<CheckResult, { error: string }> {
  const r = checkLowering(text, 'kernel', inputs, { upstreamDir, only: (o) => o === op });
  if ('error' in r) throw new Error(r.error);
  return r;
}

const k = (op: string, dtype: string, cols: number) => ({ op, dtype, rows: 1, cols, vRow: 1, vCol: cols });

suite('template findings (the templates differ from pto-isa)', () => {
  test('tfmod f32: the template returns the floored remainder (sign of the divisor), pto-isa the truncated one', () => {
    // fmod keeps the dividend's sign: fmod(-7, 3) = -1, fmod(7, -3) = 1. lib/TileOps/a5/_remainder.py adds the
    // divisor back for f32 where divisor * remainder < 0 (-1 + 3 = 2, 1 - 3 = -2), which is Python's -7 % 3;
    // pto-isa's A5 TFMod (a - trunc(a / b) * b) and the tile-level VM do not.
    const a = [-7, 7, -7, 7, 5.5, -5.5, 1, -1];
    const b = [3, 3, -3, -3, 2, 2, 4, 4];
    const r = check(binaryKernel(k('pto.tfmod', 'f32', 8)), 'pto.tfmod', { a: f32(a), b: f32(b), out: f32(new Array(8).fill(0)) });
    expect(r.expanded.map((e) => e.template)).toEqual(['template_tfmod_1d']);
    expect(r.agree).toBe(false);
    if (r.agree) return;
    expect(r.difference).toEqual({ buffer: 'out', element: 0, tileLevel: hex(-1), expanded: hex(2) });
    expect(asF32(r.outputs.get('out')!)).toEqual([2, 1, -1, -2, 1.5, 0.5, 1, 3]);
  });

  test('tfmod and tfmods f16: the template computes in f16, pto-isa in f32', () => {
    // a = -15.625 (0xcbd0), b = 2.67578125 (0x415a). a / b = -5.839..., truncated -5; -5 * b = -13.37890625.
    // Template (_remainder.py / _scalar_remainder: vdiv, vtrc, vmul, vsub on f16 registers): the product rounds to
    // f16, whose step between 8 and 16 is 2^-7: 1712.5 steps, a tie, to even 1712 = 13.375; -15.625 + 13.375 = -2.25
    // (0xc080). pto-isa's A5 TFMod/TFModS widen f16 to f32 (vcvt PART_EVEN/ODD), where the product and the
    // difference -2.24609375 are exact, and the conversion back (vcvt ROUND_Z) keeps it: 0xc07e.
    const binary = check(binaryKernel(k('pto.tfmod', 'f16', 16)), 'pto.tfmod', {
      a: f16([0xcbd0, ...new Array(15).fill(0x3c00)]),
      b: f16([0x415a, ...new Array(15).fill(0x3c00)]),
      out: f16(new Array(16).fill(0)),
    });
    expect(binary.agree).toBe(false);
    if (binary.agree) return;
    expect(binary.difference).toEqual({ buffer: 'out', element: 0, tileLevel: hex16(0xc07e), expanded: hex16(0xc080) });
    const scalar = check(scalarKernel(k('pto.tfmods', 'f16', 16), '2.67578125'), 'pto.tfmods', {
      a: f16([0xcbd0, ...new Array(15).fill(0x3c00)]),
      out: f16(new Array(16).fill(0)),
    });
    expect(scalar.agree).toBe(false);
    if (scalar.agree) return;
    expect(scalar.difference).toEqual({ buffer: 'out', element: 0, tileLevel: hex16(0xc07e), expanded: hex16(0xc080) });
  });

  test("trowexpandadd with a row-major per-row operand: the template broadcasts each row block's first element", () => {
    // src1 is one 32-byte block per row (1 x 8 f32, pto-isa's mode 2). pto-isa's A5 TRowExpandBinOps_*32B load it
    // with vlds BLK (the block repeated across the register): dst[0][j] = src0[0][j] + src1[0][j mod 8], as its
    // manual and its CPU model (c % src1's valid columns) say. _expand_binary.py's _emit_row_expand_body loads the
    // row and vdups its lowest lane: dst[0][j] = src0[0][j] + src1[0][0].
    const src0 = Array.from({ length: 16 }, (_, j) => j + 1);
    const src1 = [10, 20, 30, 40, 50, 60, 70, 80];
    const text = opKernel(
      'pto.trowexpandadd',
      [
        { dtype: 'f32', rows: 1, cols: 16, vRow: 1, vCol: 16 },
        { dtype: 'f32', rows: 1, cols: 8, vRow: 1, vCol: 8 },
      ],
      { dtype: 'f32', rows: 1, cols: 16, vRow: 1, vCol: 16 },
    );
    const r = check(text, 'pto.trowexpandadd', { a: f32(src0), b: f32(src1), out: f32(new Array(16).fill(0)) });
    expect(r.expanded.map((e) => e.template)).toEqual(['template_trowexpandadd']);
    expect(r.agree).toBe(false);
    if (r.agree) return;
    // Element 0 agrees (1 + 10); element 1: pto-isa 2 + 20 = 22, the template 2 + 10 = 12.
    expect(r.difference).toEqual({ buffer: 'out', element: 1, tileLevel: hex(22), expanded: hex(12) });
    expect(asF32(r.outputs.get('out')!)).toEqual(src0.map((x) => x + 10));
  });
});

suite('contrast: where the same template agrees', () => {
  test("trowexpandadd with a column-major R x 1 per-row operand (mode 1): the lowest lane is the row's scalar", () => {
    // kernels.ts makes row-major tiles; the per-row operand's type is rewritten to pto-isa's mode 1 (col_major, one
    // column). dst[i][j] = src0[i][j] + src1[i]: src0[i][j] = (64 i + j) / 2 - 3, src1[i] = 10 (i + 1).
    const text = opKernel(
      'pto.trowexpandadd',
      [
        { dtype: 'f32', rows: 8, cols: 64, vRow: 8, vCol: 64 },
        { dtype: 'f32', rows: 8, cols: 8, vRow: 8, vCol: 1 },
      ],
      { dtype: 'f32', rows: 8, cols: 64, vRow: 8, vCol: 64 },
    )
      .split('rows=8, cols=8, v_row=8, v_col=1, blayout=row_major')
      .join('rows=8, cols=1, v_row=8, v_col=1, blayout=col_major');
    const src0 = Array.from({ length: 512 }, (_, k) => k / 2 - 3);
    const r = check(text, 'pto.trowexpandadd', { a: f32(src0), b: f32([10, 20, 30, 40, 50, 60, 70, 80]), out: f32(new Array(512).fill(0)) });
    expect(r.agree).toBe(true);
    expect(asF32(r.outputs.get('out')!)).toEqual(src0.map((x, k) => x + 10 * (Math.floor(k / 64) + 1)));
  });
});

suite('VM findings (the tile level now follows pto-isa A5; both sides agree)', () => {
  test('tfmods f32 of an exact multiple of a negative dividend: +0 on both sides', () => {
    // -5 fmod 2.5: pto-isa's A5 TFModS and the template compute -5 - trunc(-5 / 2.5) * 2.5 = -5 - (-5) = +0
    // (x - x is +0 in round to nearest); C's fmod (the VM's earlier npu rule) gives -0. 7 fmod 2.5 = 7 - 5 = 2.
    const r = check(scalarKernel(k('pto.tfmods', 'f32', 8), '2.5'), 'pto.tfmods', { a: f32([-5, 7, -7.5, 0, 0, 0, 0, 0]), out: f32(new Array(8).fill(1)) });
    expect(r.agree).toBe(true);
    expect(asWords(r.outputs.get('out')!).slice(0, 3)).toEqual([0, 0x40000000, 0]);
  });

  test('trsqrt f32: vsqrt then vdiv, two roundings on both sides', () => {
    // rsqrt(6): sqrt(6) rounds to 0x401cc471 (2.4494898319...), 1 / that = 0.408248275... rounds to 0x3ed105eb;
    // 1 / sqrt(6) rounded once would be 0x3ed105ec. rsqrt(7): 0x3ec18490 (once: 0x3ec1848f). rsqrt(4) = 0.5.
    const r = check(unaryKernel(k('pto.trsqrt', 'f32', 8)), 'pto.trsqrt', { a: f32([6, 7, 4, 1, 1, 1, 1, 1]), out: f32(new Array(8).fill(0)) });
    expect(r.agree).toBe(true);
    expect(asWords(r.outputs.get('out')!).slice(0, 3)).toEqual([0x3ed105eb, 0x3ec18490, 0x3f000000]);
  });

  test('trowsum f32 over two repeats: each repeat reduced by vcadd, the results added from +0, on both sides', () => {
    // One row of 72 valid columns: x0 = 1, x1 = 2^-24, x64 = -1, the rest 0. pto-isa's A5 TRowReduceProc and
    // template_trowsum: +0 + vcadd(x0..x63) = 1 + 2^-24, a tie that rounds to 1; then 1 + vcadd(x64..x71) = +0.
    // The VM's earlier order (A2/A3's: repeat 2 folded into the lanes of repeat 1, x0 + x64 = 0, then the tree)
    // gave 2^-24.
    const row = new Array<number>(72).fill(0);
    row[0] = 1;
    row[1] = 2 ** -24;
    row[64] = -1;
    const full = { dtype: 'f32', rows: 1, cols: 128, vRow: 1, vCol: 72 };
    const text = opKernel('pto.trowsum', [full, { ...full, scratch: true }], { dtype: 'f32', rows: 1, cols: 8, vRow: 1, vCol: 1 });
    const r = check(text, 'pto.trowsum', { a: f32(row), out: f32([7]) });
    expect(r.agree).toBe(true);
    expect(asWords(r.outputs.get('out')!)).toEqual([0]);
  });
});

suite('findings 7-10 (docs/lowering.md): explained against pto-isa A5', () => {
  test('7. tcmps into a ui8 tile: pto-isa puts row i at byte i x the row stride, the 1-D template packs the rows', () => {
    // 2 x 64 f32, x >= 0.5 with x[0][1] = x[1][0] = 1. pto-isa's TCmps_32B stores row i at dst + i * DstStride (the
    // ui8 tile's 64 bytes): out[0] = 0b10, out[64] = 1. template_tcmps_1d stores element k's bit at byte k / 8:
    // out[0] = 0b10, out[8] = 1 (element 64), out[64] = 0.
    const a = new Array<number>(128).fill(0);
    a[1] = 1;
    a[64] = 1;
    const text = genericKernel(
      'pto.tcmps',
      [
        { dtype: 'f32', rows: 2, cols: 64, vRow: 2, vCol: 64 },
        { scalar: '0.5', type: 'f32' },
      ],
      [{ dtype: 'ui8', rows: 2, cols: 64, vRow: 2, vCol: 64 }],
      '{cmpMode = #pto<cmp ge>}',
    );
    const r = check(text, 'pto.tcmps', { a: f32(a), out: { elem: 'u8', bytes: new Uint8Array(128) } });
    expect(r.expanded.map((e) => e.template)).toEqual(['template_tcmps_1d']);
    expect(r.agree).toBe(false);
    if (r.agree) return;
    expect(r.difference).toEqual({ buffer: 'out', element: 8, tileLevel: '00', expanded: '01' });
    const out = r.outputs.get('out')!;
    expect([out[0], out[8], out[64]]).toEqual([2, 1, 0]);
  });

  const tremKernel = (dtype: string) => {
    const t = { dtype, rows: 1, cols: 8, vRow: 1, vCol: 8 };
    return opKernel('pto.trem', [t, t, { ...t, rows: 2, scratch: true }], t);
  };

  test('8. trem i32: the template returns the truncated remainder (no sign correction for integers)', () => {
    // Divisor's sign (pto-isa's TREM, the VM): 7 rem 3 = 1, -7 rem 3 = 2, 7 rem -3 = -2, -7 rem -3 = -1.
    // _remainder.py: integer vdiv truncates, a - (a / b) * b keeps the dividend's sign: 1, -1, 1, -1.
    const r = check(tremKernel('i32'), 'pto.trem', { a: i32([7, -7, 7, -7, 6, 0, 0, 0]), b: i32([3, 3, -3, -3, 3, 1, 1, 1]), out: i32(new Array(8).fill(0)) });
    expect(r.agree).toBe(false);
    if (r.agree) return;
    expect(r.difference).toEqual({ buffer: 'out', element: 1, tileLevel: '02000000', expanded: 'ffffffff' });
    expect(Array.from(new Int32Array(r.outputs.get('out')!.slice().buffer)).slice(0, 5)).toEqual([1, -1, 1, -1, 0]);
  });

  test('8. trem f32: A5 floors an f32 quotient on both sides (1e9 rem 3 = 0, -5 rem 2.5 = +0)', () => {
    // 1e9 / 3 rounds to 333333344, floored the same; * 3 = 1000000032 ties to 1e9 (f32 steps of 64); 1e9 - 1e9 = +0.
    // -5 / 2.5 = -2; -5 - (-5) = +0. 7.5 rem -2: floor(-3.75) = -4, 7.5 - 8 = -0.5.
    const r = check(tremKernel('f32'), 'pto.trem', {
      a: f32([1e9, -5, 7.5, 1, 1, 1, 1, 1]),
      b: f32([3, 2.5, -2, 1, 1, 1, 1, 1]),
      out: f32(new Array(8).fill(1)),
    });
    expect(r.agree).toBe(true);
    expect(asWords(r.outputs.get('out')!).slice(0, 3)).toEqual([0, 0, 0xbf000000]);
  });

  test('9. tcolexpandexpdif f32: one fused vexpdif on both sides', () => {
    // e^(80 - 2^-20), the difference unrounded (in f32 it would round to 80, e^80 = 0x792abbce): 0x792abbc3.
    const text = opKernel(
      'pto.tcolexpandexpdif',
      [
        { dtype: 'f32', rows: 1, cols: 8, vRow: 1, vCol: 8 },
        { dtype: 'f32', rows: 1, cols: 8, vRow: 1, vCol: 8 },
      ],
      { dtype: 'f32', rows: 1, cols: 8, vRow: 1, vCol: 8 },
    );
    const r = check(text, 'pto.tcolexpandexpdif', {
      a: f32([80, 1, 0, 0, 0, 0, 0, 0]),
      b: f32([2 ** -20, 1, 0, 0, 0, 0, 0, 0]),
      out: f32(new Array(8).fill(0)),
    });
    expect(r.agree).toBe(true);
    expect(asWords(r.outputs.get('out')!).slice(0, 2)).toEqual([0x792abbc3, 0x3f800000]);
  });

  const fillpad = (cols: number, vCol: number) =>
    genericKernel('pto.tfillpad', [{ dtype: 'f32', rows: 1, cols, vRow: 1, vCol }], [{ dtype: 'f32', rows: 1, cols, vRow: 1, vCol: cols, pad: 3 }]);

  test('10. tfillpad pad = min: pto-isa pads with -inf, the template with the most negative finite f32', () => {
    // 1 x 16, 8 valid columns: pto-isa's PadValueMap<float, Min> is 0xff800000; _fillpad.py's _min is -3.4028e38.
    const r = check(fillpad(16, 8), 'pto.tfillpad', { a: f32([1, 2, 3, 4, 5, 6, 7, 8]), out: f32(new Array(16).fill(0)) });
    expect(r.agree).toBe(false);
    if (r.agree) return;
    expect(r.difference).toEqual({ buffer: 'out', element: 8, tileLevel: hex(-Infinity), expanded: 'ffff7fff' });
  });

  test("10. tfillpad past one vector: _fillpad.py's loops read the initial count, not the loop-carried one", () => {
    // 1 x 128, 100 valid columns (64 f32 lanes a vector). Both vectors of the copy mask plt(100) (all 64 lanes), so
    // columns 100..127 are copied from the source tile's unloaded columns (0); the fill masks plt(128) xor plt(100)
    // = none in both. pto-isa pads columns 100..127 (TileDataDst::Cols - srcValidCol) with -inf.
    const r = check(fillpad(128, 100), 'pto.tfillpad', { a: f32(new Array(100).fill(1)), out: f32(new Array(128).fill(7)) });
    expect(r.agree).toBe(false);
    if (r.agree) return;
    expect(r.difference).toEqual({ buffer: 'out', element: 100, tileLevel: hex(-Infinity), expanded: hex(0) });
    expect(asF32(r.outputs.get('out')!).slice(99, 102)).toEqual([1, 0, 0]);
  });
});
