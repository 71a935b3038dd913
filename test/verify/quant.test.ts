/**
 * PTOAS's rules for the quantization and low-precision instructions (lib/PTO/IR/PTO.cpp TQuantOp, TQuantMxOp,
 * TCvtOp's packed shapes, the A5 cube's fp8 inputs): what is accepted, and where a rejection is reported.
 */
import { TileSpec, diagLines, kernel, run, tileBuf } from '../fixtures/verify/helpers';

/** `pto.NAME ins(...) outs(...) ATTRS` over allocated tiles. */
function program(name: string, ins: [string, TileSpec][], outs: [string, TileSpec][], attrs = ''): string {
  const all = [...ins, ...outs];
  const list = (xs: [string, TileSpec][]) => `${xs.map(([n]) => '%' + n).join(', ')} : ${xs.map(([, t]) => tileBuf(t)).join(', ')}`;
  return kernel([...all.map(([n, t]) => `%${n} = pto.alloc_tile : ${tileBuf(t)}`), `pto.${name} ins(${list(ins)}) outs(${list(outs)}) ${attrs}`, 'return']);
}

const errors = (text: string, target: 'a2a3' | 'a5') => diagLines(run(text, target)).filter((l) => l.includes('error'));

const F32 = (rows: number, cols: number, extra: Partial<TileSpec> = {}): TileSpec => ({ dtype: 'f32', rows, cols, ...extra });
const SYM = '{quant_type = #pto<quant_type INT8_SYM>}';
const ASYM = '{quant_type = #pto<quant_type INT8_ASYM>}';

describe('tquant', () => {
  const src: [string, TileSpec] = ['src', F32(32, 32)];
  const fp: [string, TileSpec] = ['fp', F32(32, 1, { blayout: 'col_major' })];
  const dst: [string, TileSpec] = ['dst', { dtype: 'i8', rows: 32, cols: 32 }];

  test.each(['a2a3', 'a5'] as const)('INT8_SYM and INT8_ASYM (i8 or ui8 codes) verify on %s', (target) => {
    expect(errors(program('tquant', [src, fp], [dst], SYM), target)).toEqual([]);
    expect(errors(program('tquant', [src, fp, ['offset', fp[1]]], [['dst', { dtype: 'u8', rows: 32, cols: 32 }]], ASYM), target)).toEqual([]);
  });

  test('INT8_ASYM needs the offset tile, INT8_SYM takes none, an MX type is tquant.mx', () => {
    expect(errors(program('tquant', [src, fp], [dst], ASYM), 'a5')).toEqual([expect.stringContaining('INT8_ASYM quantization needs an offset tile')]);
    expect(errors(program('tquant', [src, fp, ['offset', fp[1]]], [dst], SYM), 'a5')).toEqual([
      expect.stringContaining('INT8_SYM quantization takes no offset'),
    ]);
    expect(errors(program('tquant', [src, fp], [dst], '{quant_type = #pto<quant_type MXFP8>}'), 'a5')).toEqual([
      expect.stringContaining("quant_type MXFP8 is tquant.mx's"),
    ]);
  });

  test('A2/A3 wants one parameter per row in a col_major tile; A5 has no layout rule', () => {
    const rowMajorFp: [string, TileSpec] = ['fp', F32(32, 8)];
    expect(errors(program('tquant', [src, rowMajorFp], [dst], SYM), 'a2a3')).toEqual([
      expect.stringMatching(/error\[E0504\]: pto.tquant: fp must not be row-major on a2a3/),
    ]);
    expect(errors(program('tquant', [src, rowMajorFp], [dst], SYM), 'a5')).toEqual([]);
  });
});

describe('tquant.mx', () => {
  const src: [string, TileSpec] = ['src', F32(32, 64)];
  const flat = (dtype: string): TileSpec => ({ dtype, rows: 1, cols: 64 });
  const outs = (exp: TileSpec): [string, TileSpec][] => [
    ['dst', { dtype: 'i8', rows: 32, cols: 64 }],
    ['exp', exp],
    // The flat form's f32 scaling covers align64(groups) words: 128 f32 for 64 groups.
    ['max', { ...flat('f32'), cols: 128, vCol: 64 }],
    ['scaling', { ...flat('f32'), cols: 128, vCol: 64 }],
  ];
  const MXFP8 = '{quant_type = #pto<quant_type MXFP8>}';

  test('MXFP8 with the flat exponent form (one per group of 32 columns) verifies on a5 only', () => {
    expect(errors(program('tquant.mx', [src], outs(flat('u8')), MXFP8), 'a5')).toEqual([]);
    expect(errors(program('tquant.mx', [src], outs(flat('u8')), MXFP8), 'a2a3')).toEqual([expect.stringContaining('pto.tquant.mx is not available on a2a3')]);
  });

  test('exp holds one exponent per group: a wrong count is reported at exp', () => {
    const text = program('tquant.mx', [src], outs({ dtype: 'u8', rows: 1, cols: 32 }), MXFP8);
    expect(errors(text, 'a5')).toEqual([expect.stringContaining("pto.tquant.mx: exp's valid shape must be 32x2 or 1x64")]);
  });

  test('interleave needs grpAxis = axis0', () => {
    const text = program('tquant.mx', [src], outs(flat('u8')), '{quant_type = #pto<quant_type MXFP8>, interleave = true}');
    expect(errors(text, 'a5')).toEqual([expect.stringContaining('interleave needs grpAxis = axis0')]);
  });
});

describe('A5 low-precision element types', () => {
  test('tcvt bf16 -> packed fp4 halves the cols; equal cols are rejected at the op', () => {
    const src: [string, TileSpec] = ['src', { dtype: 'bf16', rows: 16, cols: 32 }];
    const packed = (cols: number): [string, TileSpec] => ['dst', { dtype: '!pto.f4E1M2x2', rows: 16, cols }];
    expect(errors(program('tcvt', [src], [packed(16)]), 'a5')).toEqual([]);
    expect(errors(program('tcvt', [src], [packed(32)]), 'a5')).toEqual([
      expect.stringContaining('pto.tcvt: src and dst must have compatible shapes: src is 16x32 elements, dst 16x64'),
      expect.stringContaining('pto.tcvt: src valid cols (32) must equal dst valid cols (32 bytes = 64 fp4 elements)'),
    ]);
  });

  test('the cube takes fp8 inputs (E4M3 x E5M2 mixes) into f32 on a5, not on a2a3; hif8 pairs only with hif8', () => {
    const a = (dtype: string): [string, TileSpec] => ['a', { loc: 'left', dtype, rows: 16, cols: 32, blayout: 'col_major', slayout: 'row_major' }];
    const b = (dtype: string): [string, TileSpec] => ['b', { loc: 'right', dtype, rows: 32, cols: 16, blayout: 'row_major', slayout: 'col_major' }];
    const c: [string, TileSpec] = ['c', { loc: 'acc', dtype: 'f32', rows: 16, cols: 16, blayout: 'col_major', slayout: 'row_major', fractal: 1024 }];
    expect(errors(program('tmatmul', [a('f8E4M3FN'), b('f8E5M2')], [c]), 'a5')).toEqual([]);
    expect(errors(program('tmatmul', [a('!pto.hif8'), b('!pto.hif8')], [c]), 'a5')).toEqual([]);
    expect(errors(program('tmatmul', [a('!pto.hif8'), b('f8E5M2')], [c]), 'a5')).toEqual([
      expect.stringContaining('aMatrix (!pto.hif8) and bMatrix (f8E5M2) must have the same element type'),
    ]);
    expect(errors(program('tmatmul', [a('f8E4M3FN'), b('f8E4M3FN')], [c]), 'a2a3')).toHaveLength(2);
  });
});
