/** Verifier rules of TCVT beyond the dtype tables (src/verify/checks/convert.ts) and its attributes. */
import { atOnLine, diagLines, kernel, run, tileBuf, tileVal } from '../fixtures/verify/helpers';

const tb = (dtype: string) => tileBuf({ dtype, rows: 8, cols: 32 });

function program(src: string, dst: string, attrs = ''): string {
  return kernel([
    `%s = pto.alloc_tile : ${tb(src)}`,
    `%d = pto.alloc_tile : ${tb(dst)}`,
    `pto.tcvt ins(%s${attrs} : ${tb(src)}) outs(%d : ${tb(dst)})`,
    'return',
  ]);
}
const dstAt = (text: string, dst: string) =>
  atOnLine(text, 'pto.tcvt', `outs(%d : ${tb(dst)}`).replace(/:(\d+)$/, (_, c) => `:${Number(c) + 'outs(%d : '.length}`);

// The manual's Supported Conversions table (docs/isa/TCVT.md), restricted to PTO-AS element types, written out
// pair by pair here independently of the table in the checker.
const A2A3 =
  'f32>f16 f32>f32 f32>bf16 f32>i16 f32>i32 f32>i64 f16>f32 f16>i32 f16>i16 f16>i8 f16>u8 bf16>f32 bf16>i32 i16>f16 i16>f32 i32>f32 i32>i16 i32>i64 i32>f16 i64>f32 i64>i32 u8>f16 i8>f16';
const A5 =
  'f32>f32 f32>f16 f32>bf16 f32>i16 f32>i32 f32>i64 f16>f32 f16>i32 f16>i16 f16>i8 f16>u8 bf16>f32 bf16>i32 bf16>f16 i16>u8 i16>f16 i16>f32 i16>u32 i16>i32 i32>f32 i32>i16 i32>u16 i32>i64 i32>u8 i64>f32 i64>i32 u8>f16 u8>u16 i8>f16 i8>i16 i8>i32 u32>u8 u32>u16 u32>i16';
const pairs = (s: string) => s.split(' ').map((p) => p.split('>') as [string, string]);

describe('tcvt type pairs', () => {
  test.each([...pairs(A2A3).map((p) => ['a2a3', ...p]), ...pairs(A5).map((p) => ['a5', ...p])])('%s accepts %s -> %s', (target, src, dst) => {
    expect(diagLines(run(program(src, dst), target as 'a2a3' | 'a5'))).toEqual([]);
  });

  // PTOAS e32488c9 TCvtOp::verify checks only low-precision pairs: any two of the 11 ordinary types pass on both.
  const ORDINARY = ['i8', 'u8', 'i16', 'u16', 'i32', 'u32', 'i64', 'u64', 'f16', 'bf16', 'f32'];
  test.each(ORDINARY.flatMap((src) => ORDINARY.map((dst) => [src, dst])))('%s -> %s is accepted on a2a3 and a5', (src, dst) => {
    expect(diagLines(run(program(src, dst), 'a2a3'))).toEqual([]);
    expect(diagLines(run(program(src, dst), 'a5'))).toEqual([]);
  });

  test('a low-precision format outside its pairs is rejected on a5, at dst, naming the pairs of either type', () => {
    const text = program('f16', 'f8E4M3FN');
    expect(diagLines(run(text, 'a5'))).toEqual([
      `${dstAt(text, 'f8E4M3FN')}: error[E0508]: pto.tcvt: converting f16 to f8E4M3FN is not supported on a5: a low-precision format converts in PTO-ISA's pairs only (f32 -> f8E4M3FN, f16 -> !pto.hif8)`,
    ]);
    const back = program('!pto.hif8', 'f16');
    expect(diagLines(run(back, 'a5'))).toEqual([
      `${dstAt(back, 'f16')}: error[E0508]: pto.tcvt: converting !pto.hif8 to f16 is not supported on a5: a low-precision format converts in PTO-ISA's pairs only (!pto.hif8 -> f32)`,
    ]);
  });

  test('a2a3 takes no low-precision format: the table error only', () => {
    const text = program('f32', 'f8E4M3FN');
    expect(diagLines(run(text, 'a2a3'))).toEqual([
      `${dstAt(text, 'f8E4M3FN')}: error[E0505]: pto.tcvt: dst dtype f8E4M3FN is not supported on a2a3 (allowed: i8, ui8, i16, ui16, i32, ui32, i64, ui64, f16, bf16, f32)`,
    ]);
  });
});

describe('tcvt attributes', () => {
  test.each(['NONE', 'RINT', 'ROUND', 'FLOOR', 'CEIL', 'TRUNC', 'ODD', 'CAST_RINT'])('rmode %s, written inside ins(...)', (mode) => {
    expect(diagLines(run(program('f32', 'i32', ` {rmode = #pto<round_mode ${mode}>}`), 'a5'))).toEqual([]);
  });

  test('an unknown round mode is an error naming the spellings', () => {
    const r = diagLines(run(program('f32', 'i32', ' {rmode = #pto<round_mode NEAREST>}'), 'a5'));
    expect(r).toHaveLength(1);
    expect(r[0]).toContain("unknown rmode 'NEAREST'; expected one of #pto<round_mode NONE>, #pto<round_mode RINT>");
  });

  test('saturation is a bool', () => {
    expect(diagLines(run(program('f32', 'i16', ' {rmode = #pto<round_mode TRUNC>, saturation = true}'), 'a2a3'))).toEqual([]);
    expect(diagLines(run(program('f32', 'i16', ' {saturation = false}'), 'a2a3'))).toEqual([]);
    const r = diagLines(run(program('f32', 'i16', ' {saturation = 1}'), 'a5'));
    expect(r).toHaveLength(1);
    expect(r[0]).toContain("'saturation' must be true or false");
  });

  test('saturation off is accepted for every pair on both targets (PTOAS checks no saturation; a2a3 runs it as pto-isa does)', () => {
    for (const attrs of [' {saturation = false}', ' {satmode = #pto<saturation_mode OFF>}']) {
      const text = program('f32', 'f16', attrs);
      expect(diagLines(run(text, 'a2a3'))).toEqual([]);
      expect(diagLines(run(text, 'a5'))).toEqual([]);
    }
  });
});

describe('tcvt at Level 1', () => {
  test('`%d = pto.tcvt %s {rmode = ...} : S -> D` verifies, and the pair rule applies', () => {
    const t = (dtype: string) => tileVal({ dtype, rows: 8, cols: 32 });
    const ok = kernel([`%d = pto.tcvt %s {rmode = #pto<round_mode FLOOR>} : ${t('f32')} -> ${t('i32')}`, 'return'], `%s: ${t('f32')}`);
    expect(diagLines(run(ok, 'a5'))).toEqual([]);
    const other = kernel([`%d = pto.tcvt %s : ${t('f16')} -> ${t('bf16')}`, 'return'], `%s: ${t('f16')}`);
    expect(diagLines(run(other, 'a5'))).toEqual([]);
    const bad = kernel([`%d = pto.tcvt %s : ${t('bf16')} -> ${t('f8E5M2')}`, 'return'], `%s: ${t('bf16')}`);
    const r = diagLines(run(bad, 'a5'));
    expect(r).toHaveLength(1);
    expect(r[0]).toContain('error[E0508]: pto.tcvt: converting bf16 to f8E5M2 is not supported on a5');
  });
});

describe('tcvt shapes: PTOAS compares src and dst in elements (a packed fp4 byte holds two)', () => {
  type Spec = { dtype: string; rows: number; cols: number; vRow?: number; vCol?: number };
  function pair(s: Spec, d: Spec): string {
    return kernel([
      `%s = pto.alloc_tile : ${tileBuf(s)}`,
      `%d = pto.alloc_tile : ${tileBuf(d)}`,
      `pto.tcvt ins(%s : ${tileBuf(s)}) outs(%d : ${tileBuf(d)})`,
      'return',
    ]);
  }
  const at = (text: string) => atOnLine(text, 'pto.tcvt', 'pto.tcvt');

  test('bf16 16x64 <-> fp4 16x32 bytes (the tilelang tcvt kernels and PTOAS tcvt_low_precision_a5_valid)', () => {
    for (const fp4 of ['!pto.f4E1M2x2', '!pto.f4E2M1x2']) {
      expect(diagLines(run(pair({ dtype: 'bf16', rows: 16, cols: 64 }, { dtype: fp4, rows: 16, cols: 32 }), 'a5'))).toEqual([]);
      expect(diagLines(run(pair({ dtype: fp4, rows: 16, cols: 32 }, { dtype: 'bf16', rows: 16, cols: 64 }), 'a5'))).toEqual([]);
    }
    const partial = pair({ dtype: 'bf16', rows: 16, cols: 64, vRow: 3, vCol: 40 }, { dtype: '!pto.f4E2M1x2', rows: 16, cols: 32, vRow: 3, vCol: 20 });
    expect(diagLines(run(partial, 'a5'))).toEqual([]);
  });

  test('equal byte counts are not equal element counts: rejected like PTOAS tcvt_low_precision_packed_shape_invalid_a5', () => {
    const text = pair({ dtype: 'bf16', rows: 16, cols: 16 }, { dtype: '!pto.f4E1M2x2', rows: 16, cols: 16 });
    expect(diagLines(run(text, 'a5'))).toEqual([
      `${at(text)}: error[E0508]: pto.tcvt: src and dst must have compatible shapes: src is 16x16 elements, dst 16x32`,
      `${at(text)}: error[E0506]: pto.tcvt: src valid cols (16) must equal dst valid cols (16 bytes = 32 fp4 elements)`,
    ]);
  });

  test('the physical shapes must agree too, for every pair (PTOAS tcvt_verify_invalid_shape)', () => {
    const text = pair({ dtype: 'f32', rows: 16, cols: 32, vCol: 16 }, { dtype: 'f16', rows: 16, cols: 16 });
    expect(diagLines(run(text, 'a5'))).toEqual([
      `${at(text)}: error[E0508]: pto.tcvt: src and dst must have compatible shapes: src is 16x32 elements, dst 16x16`,
    ]);
    const rows = pair({ dtype: 'f32', rows: 8, cols: 16 }, { dtype: 'f16', rows: 16, cols: 16, vRow: 8 });
    expect(diagLines(run(rows, 'a2a3'))).toEqual([
      `${at(rows)}: error[E0508]: pto.tcvt: src and dst must have compatible shapes: src is 8x16 elements, dst 16x16`,
    ]);
  });
});

describe('tcvt tmp on a2a3: the non-saturating narrowing paths need its bytes (PTOAS TCvtOp::verify, verifyTmp)', () => {
  function withTmp(src: string, dst: string, tmp: string, attrs = ''): string {
    return kernel([
      `%s = pto.alloc_tile : ${tb(src)}`,
      `%t = pto.alloc_tile : ${tmp}`,
      `%d = pto.alloc_tile : ${tb(dst)}`,
      `pto.tcvt ins(%s, %t${attrs} : ${tb(src)}, ${tmp}) outs(%d : ${tb(dst)})`,
      'return',
    ]);
  }
  // dst valid 8x32: f32 -> i16 has no 64-column head, a tail of 32 * ((8 - 1) * (32 / 8) + 32 / 8) = 1024 bytes;
  // f16 -> i8 needs max(32 * 4, 128 + 32 * 2) = 192, f16 -> ui16 32 * 4 = 128.
  test.each([
    ['f32', 'i16', 1024, 'f32', 64, 256],
    ['f32', 'u16', 1024, 'f32', 64, 256],
    ['f16', 'i8', 192, 'f16', 64, 128],
    ['f16', 'u16', 128, 'f16', 32, 64],
  ] as const)('%s -> %s needs %d bytes', (src, dst, bytes, dtype, cols, held) => {
    const tmp = tileBuf({ dtype, rows: 1, cols });
    const text = withTmp(src, dst, tmp);
    const dstName = dst.startsWith('u') ? `ui${dst.slice(1)}` : dst;
    expect(diagLines(run(text, 'a2a3'))).toEqual([
      `${atOnLine(text, 'pto.tcvt', tmp)}: error[E0508]: pto.tcvt: tmp (1x${cols} ${dtype}) holds ${held} bytes; converting ${src} to ${dstName} without saturation on a2a3 (dst valid 8x32) needs at least ${bytes}`,
    ]);
    expect(diagLines(run(withTmp(src, dst, tmp, ' {satmode = #pto<saturation_mode ON>}'), 'a2a3'))).toEqual([]);
    expect(diagLines(run(text, 'a5'))).toEqual([]);
    const enough = tileBuf({ dtype: 'i8', rows: 1, cols: bytes });
    expect(diagLines(run(withTmp(src, dst, enough), 'a2a3'))).toEqual([]);
  });
});
