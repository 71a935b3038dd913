/**
 * One focused test per verifier rule: each asserts the exact diagnostics (message and LINE:COL,
 * computed with SourceFile.position) of a small program. Facts: shared/reference/isa.md and
 * isa.json (tile static_asserts, layouts, valid-region rules, buffer sizes), seed 004 (TCOLMIN).
 */
import { opRegistry } from '../../src/ops/registry';
import * as fs from 'fs';
import * as path from 'path';
import { formatAll } from '../../src/diag/diagnostic';
import { isa } from '../../src/spec/isa';
import { TileSpec, at, atOnLine, diagLines, kernel, run, tileBuf, tileVal } from '../fixtures/verify/helpers';

const F32_16x16 = tileBuf({ dtype: 'f32', rows: 16, cols: 16 });
const F32_1x16 = tileBuf({ dtype: 'f32', rows: 1, cols: 16 });

/** alloc + `pto.NAME ins(...) outs(...)` with per-operand types; returns the lines. */
function dps(name: string, ins: [string, string][], outs: [string, string][]): string {
  const list = (xs: [string, string][]): string => `${xs.map((x) => x[0]).join(', ')} : ${xs.map((x) => x[1]).join(', ')}`;
  return `pto.${name} ins(${list(ins)}) outs(${list(outs)})`;
}

function allocs(...xs: [string, string][]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const [v, t] of xs) {
    if (seen.has(v)) continue;
    seen.add(v);
    out.push(`${v} = pto.alloc_tile : ${t}`);
  }
  return out;
}

/** A program around one DPS instruction whose operands are all fresh alloc_tile buffers. */
function single(name: string, ins: [string, string][], outs: [string, string][]): string {
  return kernel([...allocs(...ins, ...outs), dps(name, ins, outs), 'return']);
}

// ---- tile location, layout, dtype relation, valid region ------------------------------------------

describe('tile location', () => {
  test('tcolmin with a mat src tile is rejected at the src type', () => {
    const mat = tileBuf({ loc: 'mat', dtype: 'f32', rows: 16, cols: 16 });
    const text = single('tcolmin', [['%src', mat]], [['%dst', F32_1x16]]);
    expect(diagLines(run(text))).toEqual([`${atOnLine(text, 'pto.tcolmin', mat)}: error[E0503]: pto.tcolmin: src must be a vec tile, not loc=mat`]);
  });
});

describe('layout', () => {
  test('tcolmin with a col_major (DN) src is rejected: all tiles must be ND', () => {
    const dn = tileBuf({ dtype: 'f32', rows: 16, cols: 16, blayout: 'col_major' });
    const text = single('tcolmin', [['%src', dn]], [['%dst', F32_1x16]]);
    expect(diagLines(run(text))).toEqual([
      `${atOnLine(text, 'pto.tcolmin', dn)}: error[E0504]: pto.tcolmin: src must be ND (blayout=row_major, slayout=none_box), not DN`,
    ]);
  });

  const src = tileBuf({ dtype: 'f32', rows: 8, cols: 8 });
  const tmp = tileBuf({ dtype: 'f32', rows: 8, cols: 8, pad: 1 });

  test('row reduction: dst DN with one column is accepted', () => {
    const dn1 = tileBuf({ dtype: 'f32', rows: 8, cols: 1, blayout: 'col_major' });
    expect(
      diagLines(
        run(
          single(
            'trowsum',
            [
              ['%src', src],
              ['%tmp', tmp],
            ],
            [['%dst', dn1]],
          ),
        ),
      ),
    ).toEqual([]);
  });

  test('row reduction: dst ND is accepted', () => {
    const nd = tileBuf({ dtype: 'f32', rows: 8, cols: 8, vCol: 1 });
    expect(
      diagLines(
        run(
          single(
            'trowmax',
            [
              ['%src', src],
              ['%tmp', tmp],
            ],
            [['%dst', nd]],
          ),
        ),
      ),
    ).toEqual([]);
  });

  test('row reduction: dst DN with two columns is rejected', () => {
    const dn2 = tileBuf({ dtype: 'f32', rows: 8, cols: 2, blayout: 'col_major' });
    const text = single(
      'trowsum',
      [
        ['%src', src],
        ['%tmp', tmp],
      ],
      [['%dst', dn2]],
    );
    expect(diagLines(run(text))).toEqual([
      `${at(text, 'pto.trowsum')}: error[E0506]: pto.trowsum: dst valid cols (2) must equal 1`,
      `${atOnLine(text, 'pto.trowsum', dn2)}: error[E0504]: pto.trowsum: dst must be ND, or DN with one column, not DN with 2 columns`,
    ]);
  });

  test('row reduction: src must be ND', () => {
    const dnSrc = tileBuf({ dtype: 'f32', rows: 8, cols: 8, blayout: 'col_major' });
    const dn1 = tileBuf({ dtype: 'f32', rows: 8, cols: 1, blayout: 'col_major' });
    const text = single(
      'trowmin',
      [
        ['%src', dnSrc],
        ['%tmp', tmp],
      ],
      [['%dst', dn1]],
    );
    expect(diagLines(run(text))).toEqual([
      `${atOnLine(text, 'pto.trowmin', dnSrc)}: error[E0504]: pto.trowmin: src must be ND (blayout=row_major, slayout=none_box), not DN`,
    ]);
  });

  test('elementwise: every tile must be row-major', () => {
    const dn = tileBuf({ dtype: 'f32', rows: 8, cols: 8, blayout: 'col_major' });
    const nd = tileBuf({ dtype: 'f32', rows: 8, cols: 8 });
    const text = single(
      'tadd',
      [
        ['%a', nd],
        ['%b', dn],
      ],
      [['%d', nd]],
    );
    expect(diagLines(run(text))).toEqual([`${atOnLine(text, 'pto.tadd', dn)}: error[E0504]: pto.tadd: src1 must be row-major (blayout=row_major)`]);
  });
});

describe('dtype relation', () => {
  // isa.json TROWSUM/TROWMAX/TROWMIN: dtypeRelation "same: all operands share one element type";
  // A2A3 uses tmp as scratch of the element type (dtypes.a2a3.tmp is the src list).
  test.each(['trowsum', 'trowmax', 'trowmin'])('%s on a2a3: tmp must have the element type of src and dst', (name) => {
    const src = tileBuf({ dtype: 'f32', rows: 8, cols: 8 });
    const tmp = tileBuf({ dtype: 'f16', rows: 8, cols: 16 });
    const dst = tileBuf({ dtype: 'f32', rows: 8, cols: 1, blayout: 'col_major' });
    const text = single(
      name,
      [
        ['%src', src],
        ['%tmp', tmp],
      ],
      [['%dst', dst]],
    );
    expect(diagLines(run(text, 'a2a3'))).toEqual([
      `${atOnLine(text, `pto.${name}`, tmp)}: error[E0505]: pto.${name}: dst (f32) and tmp (f16) must have the same element type`,
    ]);
  });

  test('tcolmin: dst and src must have the same element type (reported at src)', () => {
    const f16 = tileBuf({ dtype: 'f16', rows: 16, cols: 16 });
    const text = single('tcolmin', [['%src', f16]], [['%dst', F32_1x16]]);
    expect(diagLines(run(text))).toEqual([
      `${atOnLine(text, 'pto.tcolmin', f16)}: error[E0505]: pto.tcolmin: dst (f32) and src (f16) must have the same element type`,
    ]);
  });
});

describe('tcolsum isBinary', () => {
  test('isBinary = true with a tmp is accepted', () => {
    const text = kernel([
      ...allocs(['%src', F32_16x16], ['%tmp', F32_16x16], ['%dst', F32_1x16]),
      `${dps(
        'tcolsum',
        [
          ['%src', F32_16x16],
          ['%tmp', F32_16x16],
        ],
        [['%dst', F32_1x16]],
      )} {isBinary = true}`,
      'return',
    ]);
    expect(diagLines(run(text))).toEqual([]);
  });

  test('isBinary must be true or false', () => {
    const text = kernel([
      ...allocs(['%src', F32_16x16], ['%dst', F32_1x16]),
      `${dps('tcolsum', [['%src', F32_16x16]], [['%dst', F32_1x16]])} {isBinary = 3}`,
      'return',
    ]);
    expect(diagLines(run(text))).toEqual([`${at(text, '3}')}: error[E0507]: pto.tcolsum: 'isBinary' must be true or false`]);
  });

  // PTOAS (TColSumOp::verify) plans the scratch of isBinary = true itself when no tmp is written.
  test('isBinary = true without a tmp is accepted', () => {
    const text = kernel([
      ...allocs(['%src', F32_16x16], ['%dst', F32_1x16]),
      `${dps('tcolsum', [['%src', F32_16x16]], [['%dst', F32_1x16]])} {isBinary = true}`,
      'return',
    ]);
    expect(diagLines(run(text))).toEqual([]);
  });

  test('a tmp needs a written isBinary; with isBinary = true it holds ceil(16 / 2) x 16 f32 = 512 bytes', () => {
    const small = tileBuf({ dtype: 'f32', rows: 4, cols: 16 });
    const line = (attrs: string) =>
      `${dps(
        'tcolsum',
        [
          ['%src', F32_16x16],
          ['%tmp', small],
        ],
        [['%dst', F32_1x16]],
      )}${attrs}`;
    const bare = kernel([...allocs(['%src', F32_16x16], ['%tmp', small], ['%dst', F32_1x16]), line(''), 'return']);
    expect(diagLines(run(bare))).toEqual([
      `${atOnLine(bare, 'pto.tcolsum', small)}: error[E0508]: pto.tcolsum: a tmp tile needs the isBinary attribute (isBinary = true: pairwise sums in tmp; false: tmp unused)`,
    ]);
    const binary = kernel([...allocs(['%src', F32_16x16], ['%tmp', small], ['%dst', F32_1x16]), line(' {isBinary = true}'), 'return']);
    expect(diagLines(run(binary))).toEqual([
      `${atOnLine(binary, 'pto.tcolsum', small)}: error[E0508]: pto.tcolsum: tmp (4x16 f32) holds 256 bytes; the first pairwise step (8 rows of 16 elements) needs at least 512`,
    ]);
  });
});

describe('valid region', () => {
  test('static valid-col mismatch (src.validCol == dst.validCol) is reported at the op name', () => {
    const dst = tileBuf({ dtype: 'f32', rows: 1, cols: 16, vCol: 8 });
    const text = single('tcolmin', [['%src', F32_16x16]], [['%dst', dst]]);
    expect(diagLines(run(text))).toEqual([`${at(text, 'pto.tcolmin')}: error[E0506]: pto.tcolmin: src valid cols (16) must equal dst valid cols (8)`]);
  });

  test('dynamic valid cols (v_col=?) are accepted statically', () => {
    const dst = tileBuf({ dtype: 'f32', rows: 1, cols: 16, vCol: '?' });
    const text = kernel([
      '%c8 = arith.constant 8 : index',
      `%src = pto.alloc_tile : ${F32_16x16}`,
      `%dst = pto.alloc_tile valid_col = %c8 : ${dst}`,
      dps('tcolmin', [['%src', F32_16x16]], [['%dst', dst]]),
      'return',
    ]);
    expect(diagLines(run(text))).toEqual([]);
  });

  // isa.json TCOLSUM: validRegion.runtime.common "src.validCol <= tmp row stride (4-arg form)";
  // shapeRelations "tmp needs ... >= C cols". The row stride of an ND tmp is its cols.
  test('tcolsum: src valid cols must fit in a row of tmp', () => {
    const tmp = tileBuf({ dtype: 'f32', rows: 8, cols: 8 });
    const text = single(
      'tcolsum',
      [
        ['%src', F32_16x16],
        ['%tmp', tmp],
      ],
      [['%dst', F32_1x16]],
    ).replace(/(pto\.tcolsum .*)$/m, '$1 {isBinary = false}');
    const lines = diagLines(run(text));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^${at(text, 'pto.tcolsum')}: error\\[E0506\\]: pto\\.tcolsum: .*tmp`));
  });

  test('tcolsum: a tmp as wide as the src valid cols is accepted', () => {
    const tmp = tileBuf({ dtype: 'f32', rows: 8, cols: 16 });
    const text = single(
      'tcolsum',
      [
        ['%src', F32_16x16],
        ['%tmp', tmp],
      ],
      [['%dst', F32_1x16]],
    ).replace(/(pto\.tcolsum .*)$/m, '$1 {isBinary = true}');
    expect(diagLines(run(text))).toEqual([]);
  });

  test('row reduction: src valid rows must be positive', () => {
    const src = tileBuf({ dtype: 'f32', rows: 8, cols: 8, vRow: 0 });
    const tmp = tileBuf({ dtype: 'f32', rows: 8, cols: 8 });
    const dst = tileBuf({ dtype: 'f32', rows: 8, cols: 1, vRow: 0, blayout: 'col_major' });
    const text = single(
      'trowsum',
      [
        ['%src', src],
        ['%tmp', tmp],
      ],
      [['%dst', dst]],
    );
    expect(diagLines(run(text))).toEqual([`${at(text, 'pto.trowsum')}: error[E0506]: pto.trowsum: src valid rows must be positive, got 0`]);
  });

  test("row reduction: a 0x0 dst is PTOAS's no-op marker (no rule applies); a dst with 0 valid columns only is an error", () => {
    const empty = tileBuf({ dtype: 'f32', rows: 8, cols: 8, vRow: 0, vCol: 0 });
    const emptyDst = tileBuf({ dtype: 'f32', rows: 8, cols: 1, vRow: 0, vCol: 0, blayout: 'col_major' });
    const ok = single(
      'trowmax',
      [
        ['%src', empty],
        ['%tmp', empty],
      ],
      [['%dst', emptyDst]],
    );
    expect(diagLines(run(ok))).toEqual([]);
    const full = tileBuf({ dtype: 'f32', rows: 8, cols: 8 });
    const noCols = tileBuf({ dtype: 'f32', rows: 8, cols: 1, vCol: 0, blayout: 'col_major' });
    const bad = single(
      'trowmax',
      [
        ['%src', full],
        ['%tmp', full],
      ],
      [['%dst', noCols]],
    );
    expect(diagLines(run(bad))).toEqual([`${at(bad, 'pto.trowmax')}: error[E0506]: pto.trowmax: dst valid cols (0) must equal 1`]);
  });
});

// ---- tile type well-formedness (pto_tile.hpp static_asserts, buffer_limits.hpp) -----------------

describe('tile type well-formedness', () => {
  /** One alloc_tile of the type; the error is at the type. */
  function allocOnly(t: TileSpec, target?: 'a2a3' | 'a5'): { text: string; lines: string[] } {
    const text = kernel([`%t = pto.alloc_tile : ${tileBuf(t)}`, 'return']);
    return { text, lines: diagLines(run(text, target)) };
  }
  const typeAt = (text: string): string => at(text, '!pto.tile_buf');
  /** Where the value of a `key=value` parameter is: an error of one parameter is underlined there (issue 35). */
  const valueAt = (text: string, keyed: string): string => {
    const [line, col] = at(text, keyed).split(':').map(Number);
    return `${line}:${col + keyed.indexOf('=') + 1}`;
  };

  test('allocating a row-major f16 tile with cols=8 is rejected (rows of 16 bytes); the type itself is not, as in PTOAS', () => {
    const { text, lines } = allocOnly({ dtype: 'f16', rows: 16, cols: 8 });
    expect(lines).toEqual([
      `${typeAt(text)}: error[E0202]: pto.alloc_tile: a row-major none_box tile needs its row byte size to be a multiple of 32, got 8 x 2 = 16 bytes`,
    ]);
    const argument = `func.func @k(%t: ${tileBuf({ dtype: 'f16', rows: 16, cols: 8 })}) {\n  return\n}\n`;
    expect(diagLines(run(argument))).toEqual([]);
  });

  test('row-major f16 with cols=16 is accepted', () => {
    expect(allocOnly({ dtype: 'f16', rows: 1, cols: 16 }).lines).toEqual([]);
  });

  test('col_major none_box: rows x size must be a multiple of 32 bytes', () => {
    const { text, lines } = allocOnly({ dtype: 'f32', rows: 4, cols: 1, blayout: 'col_major' });
    expect(lines).toEqual([
      `${typeAt(text)}: error[E0202]: pto.alloc_tile: a column-major none_box tile needs its column byte size to be a multiple of 32, got 4 x 4 = 16 bytes`,
    ]);
    expect(allocOnly({ dtype: 'f32', rows: 8, cols: 1, blayout: 'col_major' }).lines).toEqual([]);
  });

  test('v_row > rows is rejected', () => {
    const { text, lines } = allocOnly({ dtype: 'f32', rows: 16, cols: 16, vRow: 20 });
    expect(lines).toEqual([`${valueAt(text, 'v_row=20')}: error[E0201]: !pto.tile_buf valid rows (20) exceed its rows (16)`]);
  });

  test('v_col > cols is rejected', () => {
    const { text, lines } = allocOnly({ dtype: 'f32', rows: 16, cols: 16, vCol: 17 });
    expect(lines).toEqual([`${valueAt(text, 'v_col=17')}: error[E0201]: !pto.tile_buf valid cols (17) exceed its cols (16)`]);
  });

  test('fractal 256 is rejected (SFractalSize in {512, 1024, 32})', () => {
    const { text, lines } = allocOnly({ dtype: 'f32', rows: 16, cols: 16, fractal: 256 });
    expect(lines).toEqual([`${valueAt(text, 'fractal=256')}: error[E0201]: unsupported fractal 256 (one of 32, 512, 1024)`]);
  });

  // 200 x 256 x 4 = 204800 bytes = 200 KB: more than the 192 KB UB of A2A3, less than the 256 KB of A5.
  const big: TileSpec = { dtype: 'f32', rows: 200, cols: 256 };

  test('capacity: a 200 KB vec tile is rejected on a2a3 (192 KB UB)', () => {
    const { text, lines } = allocOnly(big, 'a2a3');
    expect(lines).toEqual([`${typeAt(text)}: error[E0202]: invalid tile type: a 200x256 f32 tile needs 204800 bytes, more than the 196608-byte UB of a2a3`]);
  });

  test('capacity: the same 200 KB vec tile is accepted on a5 (256 KB UB)', () => {
    expect(allocOnly(big, 'a5').lines).toEqual([]);
  });

  test('capacity: a vec tile of exactly 192 KB fits on a2a3', () => {
    expect(allocOnly({ dtype: 'f32', rows: 192, cols: 256 }, 'a2a3').lines).toEqual([]);
  });

  test('a malformed tile type is reported once however often it is used', () => {
    const bad = tileBuf(big);
    const text = kernel([`%a = pto.alloc_tile : ${bad}`, `%b = pto.alloc_tile : ${bad}`, 'return']);
    expect(diagLines(run(text, 'a2a3'))).toEqual([
      `${at(text, bad)}: error[E0202]: invalid tile type: a 200x256 f32 tile needs 204800 bytes, more than the 196608-byte UB of a2a3`,
    ]);
  });
});

// ---- operand counts ----------------------------------------------------------------------------

describe('operand counts, with the usage hint', () => {
  test('Level 2: too many ins operands', () => {
    const text = kernel([
      ...allocs(['%src', F32_16x16], ['%dst', F32_1x16]),
      `pto.tcolmin ins(%src, %dst : ${F32_16x16}, ${F32_1x16}) outs(%dst : ${F32_1x16})`,
      'return',
    ]);
    expect(diagLines(run(text))).toEqual([
      `${atOnLine(text, 'pto.tcolmin', '%dst')}: error[E0501]: pto.tcolmin takes 1 ins operand(s), got 2; expected 'pto.tcolmin ins(%src : ...) outs(%dst : ...)'`,
    ]);
  });

  test('Level 2: outs missing', () => {
    const text = kernel([...allocs(['%src', F32_16x16]), `pto.tcolmin ins(%src : ${F32_16x16})`, 'return']);
    expect(diagLines(run(text))).toEqual([
      `${at(text, 'pto.tcolmin')}: error[E0501]: pto.tcolmin takes 1 outs operand(s), got 0; expected 'pto.tcolmin ins(%src : ...) outs(%dst : ...)'`,
    ]);
  });

  test("Level 2: a row reduction's tmp is optional (today's PTOAS supplies the scratch itself)", () => {
    const src = tileBuf({ dtype: 'f32', rows: 8, cols: 8 });
    const dst = tileBuf({ dtype: 'f32', rows: 8, cols: 1, blayout: 'col_major' });
    expect(diagLines(run(single('trowsum', [['%src', src]], [['%dst', dst]])))).toEqual([]);
    const index = tileBuf({ dtype: 'i32', rows: 8, cols: 1, blayout: 'col_major' });
    expect(diagLines(run(single('trowargmax', [['%src', src]], [['%dst', index]])))).toEqual([]);
  });

  test('Level 2: a row reduction with too many ins is still an error', () => {
    const src = tileBuf({ dtype: 'f32', rows: 8, cols: 8 });
    const dst = tileBuf({ dtype: 'f32', rows: 8, cols: 1, blayout: 'col_major' });
    const text = single(
      'trowsum',
      [
        ['%src', src],
        ['%t1', src],
        ['%t2', src],
      ],
      [['%dst', dst]],
    );
    expect(diagLines(run(text))).toEqual([
      `${atOnLine(text, 'pto.trowsum', '%t2')}: error[E0501]: pto.trowsum takes 1 to 2 ins operand(s), got 3; expected 'pto.trowsum ins(%src, %tmp? : ...) outs(%dst : ...)'`,
    ]);
  });

  test('Level 2: tcolsum takes an optional tmp', () => {
    const text = single(
      'tcolsum',
      [
        ['%src', F32_16x16],
        ['%t1', F32_16x16],
        ['%t2', F32_16x16],
      ],
      [['%dst', F32_1x16]],
    );
    expect(diagLines(run(text))).toEqual([
      `${atOnLine(text, 'pto.tcolsum', '%t2')}: error[E0501]: pto.tcolsum takes 1 to 2 ins operand(s), got 3; expected 'pto.tcolsum ins(%src, %tmp? : ...) outs(%dst : ...)'`,
    ]);
  });

  test('Level 2: an operand left over once the optional ones are passed over is an error at it', () => {
    // tmov's optional %fp is a tile and %preQuantScalar a scalar: a second scalar has no place (it verified, and the
    // VM then found no binding: a fuzzer finding).
    const text = kernel([
      ...allocs(['%src', F32_16x16], ['%dst', F32_16x16]),
      '%c0 = arith.constant 0 : i64',
      '%c1 = arith.constant 1 : i64',
      `pto.tmov ins(%src, %c0, %c1 : ${F32_16x16}, i64, i64) outs(%dst : ${F32_16x16})`,
      'return',
    ]);
    expect(diagLines(run(text))).toEqual([
      `${atOnLine(text, 'pto.tmov', '%c1')}: error[E0501]: pto.tmov: this ins operand has no place; expected 'pto.tmov ins(%src, %fp?, %preQuantScalar? : ...) outs(%dst : ...)'`,
    ]);
  });

  const S = tileVal({ dtype: 'f32', rows: 16, cols: 16 });
  const D = tileVal({ dtype: 'f32', rows: 1, cols: 16 });

  test('Level 1: too many inputs', () => {
    const text = kernel([`%d = pto.tcolmin %s, %s : (${S}, ${S}) -> ${D}`, 'return'], `%s: ${S}`);
    expect(diagLines(run(text))).toEqual([
      `${atOnLine(text, 'pto.tcolmin', '%s', 1)}: error[E0501]: pto.tcolmin takes 1 input operand(s), got 2; expected '%dst = pto.tcolmin %src : ...'`,
    ]);
  });

  test('Level 1: no result named', () => {
    const text = kernel([`pto.tcolmin %s : ${S} -> ${D}`, 'return'], `%s: ${S}`);
    expect(diagLines(run(text))).toEqual([
      `${at(text, 'pto.tcolmin')}: error[E0501]: pto.tcolmin produces 1 result(s), got 0; expected '%dst = pto.tcolmin %src : ...'`,
    ]);
  });

  // shared/reference/syntax-ops.json, pto.trowsum ssa_l1 (the manual's AS Level 1 spelling):
  // `%dst = pto.trowsum %src, %tmp : (!pto.tile<...>, !pto.tile<...>) -> !pto.tile<...>`.
  // The PTO-AS asm form omits tmp, so Level 1 should take it as optional, not reject it.
  test.each(['trowsum', 'trowmax', 'trowmin'])('Level 1 %s: the manual spelling with %%tmp is accepted', (name) => {
    const src = tileVal({ dtype: 'f32', rows: 8, cols: 8 });
    const dst = tileVal({ dtype: 'f32', rows: 8, cols: 1, blayout: 'col_major' });
    const text = kernel([`%d = pto.${name} %s, %t : (${src}, ${src}) -> ${dst}`, 'return'], `%s: ${src}, %t: ${src}`);
    expect(diagLines(run(text))).toEqual([]);
  });

  test('Level 2 form with a result', () => {
    const text = kernel([...allocs(['%src', F32_16x16], ['%dst', F32_1x16]), `%r = ${dps('tcolmin', [['%src', F32_16x16]], [['%dst', F32_1x16]])}`, 'return']);
    expect(diagLines(run(text))).toEqual([`${at(text, '%r')}: error[E0501]: pto.tcolmin in destination-passing form (ins/outs) has no results`]);
  });
});

// ---- SSA ---------------------------------------------------------------------------------------

describe('SSA values', () => {
  test('use before definition', () => {
    const text = kernel(['%c1 = arith.constant 1 : index', '%a = arith.addi %b, %c1 : index', '%b = arith.constant 2 : index', 'return']);
    expect(diagLines(run(text))).toEqual([`${at(text, '%b')}: error[E0302]: use of undefined value %b`]);
  });

  test('redefinition, with a note at the first definition', () => {
    const text = kernel(['%c1 = arith.constant 1 : index', '%c1 = arith.constant 2 : index', 'return']);
    const r = run(text);
    expect(diagLines(r)).toEqual([
      `${at(text, '%c1', 1)}: error[E0303]: redefinition of SSA value %c1`,
      `  note ${at(text, '%c1', 0)}: previously defined here`,
    ]);
    expect(formatAll(r.diags)).toContain(`test.pto:${at(text, '%c1', 0)}: note: previously defined here`);
  });

  test('use outside the defining region', () => {
    const text = kernel([
      '%c0 = arith.constant 0 : index',
      '%c1 = arith.constant 1 : index',
      '%c4 = arith.constant 4 : index',
      'scf.for %i = %c0 to %c4 step %c1 {',
      '  %t = arith.addi %i, %c1 : index',
      '}',
      '%u = arith.addi %t, %c1 : index',
      'return',
    ]);
    expect(diagLines(run(text))).toEqual([`${at(text, '%t', 1)}: error[E0302]: %t is not visible here (defined in a region that does not enclose this use)`]);
  });

  test('a use whose type differs from the definition, with a note at the definition', () => {
    const f16 = tileBuf({ dtype: 'f16', rows: 16, cols: 16 });
    const text = kernel([...allocs(['%src', F32_16x16], ['%dst', F32_1x16]), dps('tcolmin', [['%src', f16]], [['%dst', F32_1x16]]), 'return']);
    expect(diagLines(run(text))).toEqual([
      `${atOnLine(text, 'pto.tcolmin', f16)}: error[E0203]: type of %src is !pto.tile_buf<vec, 16x16xf32>, but this use says !pto.tile_buf<vec, 16x16xf16>`,
      `  note ${at(text, '%src')}: %src defined here`,
    ]);
  });

  test('a scalar use whose type differs from the definition', () => {
    const text = kernel(['%c0 = arith.constant 0 : index', '%x = arith.addi %c0, %c0 : i32', 'return']);
    const where = atOnLine(text, '%x =', 'i32');
    expect(diagLines(run(text))).toEqual([
      `${where}: error[E0203]: type of %c0 is index, but this use says i32`,
      `  note ${at(text, '%c0')}: %c0 defined here`,
      `${where}: error[E0203]: type of %c0 is index, but this use says i32`,
      `  note ${at(text, '%c0')}: %c0 defined here`,
    ]);
  });
});

// ---- alloc_tile, views -------------------------------------------------------------------------

describe('pto.alloc_tile', () => {
  const dyn = tileBuf({ dtype: 'f32', rows: 16, cols: 16, vRow: '?' });

  test("v_row=? needs 'valid_row = %value'", () => {
    const text = kernel([`%t = pto.alloc_tile : ${dyn}`, 'return']);
    expect(diagLines(run(text))).toEqual([`${at(text, 'pto.alloc_tile')}: error[E0405]: the type has v_row=? so pto.alloc_tile needs 'valid_row = %value'`]);
  });

  test('v_row=? with valid_row is accepted', () => {
    const text = kernel(['%c3 = arith.constant 3 : index', `%t = pto.alloc_tile valid_row = %c3 : ${dyn}`, 'return']);
    expect(diagLines(run(text))).toEqual([]);
  });

  test('valid_row with a static v_row is rejected', () => {
    const text = kernel(['%c3 = arith.constant 3 : index', `%t = pto.alloc_tile valid_row = %c3 : ${F32_16x16}`, 'return']);
    expect(diagLines(run(text))).toEqual([`${at(text, '%c3', 1)}: error[E0405]: 'valid_row' is only allowed when the type has v_row=?`]);
  });
});

describe('views', () => {
  const consts = ['%c0 = arith.constant 0 : index', '%c1 = arith.constant 1 : index', '%c16 = arith.constant 16 : index'];

  test('make_tensor_view: shape has fewer entries than the rank', () => {
    const text = kernel(
      [...consts, '%tv = pto.make_tensor_view %p, shape = [%c16], strides = [%c16, %c1] : !pto.tensor_view<?x?xf32>', 'return'],
      '%p: !pto.ptr<f32>',
    );
    expect(diagLines(run(text))).toEqual([`${at(text, '%tv')}: error[E0404]: shape has 1 entries, but the view has rank 2`]);
  });

  test('make_tensor_view: strides has more entries than the rank', () => {
    const text = kernel(
      [...consts, '%tv = pto.make_tensor_view %p, shape = [%c16, %c16], strides = [%c16, %c1, %c1] : !pto.tensor_view<?x?xf32>', 'return'],
      '%p: !pto.ptr<f32>',
    );
    expect(diagLines(run(text))).toEqual([`${at(text, '%tv')}: error[E0404]: strides has 3 entries, but the view has rank 2`]);
  });

  test('partition_view: offsets and sizes must match the source rank', () => {
    const text = kernel(
      [
        ...consts,
        '%tv = pto.make_tensor_view %p, shape = [%c16, %c16], strides = [%c16, %c1] : !pto.tensor_view<?x?xf32>',
        '%pv = pto.partition_view %tv, offsets = [%c0], sizes = [%c16, %c16, %c1] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<16x16xf32>',
        'return',
      ],
      '%p: !pto.ptr<f32>',
    );
    expect(diagLines(run(text))).toEqual([
      `${at(text, '%pv')}: error[E0404]: offsets has 1 entries, but the source view has rank 2`,
      `${at(text, '%pv')}: error[E0404]: sizes has 3 entries, but the source view has rank 2`,
    ]);
  });
});

// ---- scf ---------------------------------------------------------------------------------------

describe('scf', () => {
  const consts = ['%c0 = arith.constant 0 : index', '%c1 = arith.constant 1 : index', '%c4 = arith.constant 4 : index', '%true = arith.constant true'];

  test("scf.if with results needs an 'else' region", () => {
    const text = kernel([...consts, '%r = scf.if %true -> (index) {', '  scf.yield %c0 : index', '}', 'return']);
    expect(diagLines(run(text))).toEqual([`${at(text, 'scf.if')}: error[E0402]: an scf.if with results needs an 'else' region`]);
  });

  test('scf.if with results and a matching else is accepted', () => {
    const text = kernel([...consts, '%r = scf.if %true -> (index) {', '  scf.yield %c0 : index', '} else {', '  scf.yield %c1 : index', '}', 'return']);
    expect(diagLines(run(text))).toEqual([]);
  });

  test('scf.if: a yield of the wrong type', () => {
    const text = kernel([...consts, '%r = scf.if %true -> (index) {', '  scf.yield %c0 : index', '} else {', '  scf.yield %true : i1', '}', 'return']);
    expect(diagLines(run(text))).toEqual([`${at(text, '%true', 2)}: error[E0402]: yielded value 0 has type i1, but 'scf.if' expects index`]);
  });

  test('scf.if: a yield of the wrong count', () => {
    const text = kernel([
      ...consts,
      '%r = scf.if %true -> (index) {',
      '  scf.yield %c0, %c1 : index, index',
      '} else {',
      '  scf.yield %c1 : index',
      '}',
      'return',
    ]);
    expect(diagLines(run(text))).toEqual([`${at(text, 'scf.yield')}: error[E0402]: 'scf.yield' gives 2 value(s), but 'scf.if' expects 1`]);
  });

  test('scf.for: iter_args with a yield of no value', () => {
    const text = kernel([...consts, '%r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %c0) -> (index) {', '  scf.yield', '}', 'return']);
    expect(diagLines(run(text))).toEqual([`${at(text, 'scf.yield')}: error[E0402]: 'scf.yield' gives 0 value(s), but 'scf.for' expects 1`]);
  });

  test('scf.for: iter_args with a yield of the wrong type', () => {
    const text = kernel([...consts, '%r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %c0) -> (index) {', '  scf.yield %true : i1', '}', 'return']);
    expect(diagLines(run(text))).toEqual([`${at(text, '%true', 1)}: error[E0402]: yielded value 0 has type i1, but 'scf.for' expects index`]);
  });

  test('scf.for: an iter_args initial value of the wrong type', () => {
    const text = kernel([...consts, '%r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %true) -> (index) {', '  scf.yield %acc : index', '}', 'return']);
    expect(diagLines(run(text))).toEqual([
      `${atOnLine(text, 'scf.for', 'index')}: error[E0203]: type of %true is i1, but this use says index`,
      `  note ${at(text, '%true')}: %true defined here`,
    ]);
  });

  test('scf.for: iter_args and a matching yield are accepted', () => {
    const text = kernel([
      ...consts,
      '%r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %c0) -> (index) {',
      '  %n = arith.addi %acc, %i : index',
      '  scf.yield %n : index',
      '}',
      'return',
    ]);
    expect(diagLines(run(text))).toEqual([]);
  });
});

// ---- functions ---------------------------------------------------------------------------------

describe('functions', () => {
  test("a function must end with 'return' (reported at its closing brace)", () => {
    const text = kernel(['%c0 = arith.constant 0 : index']);
    const closing = text.indexOf('  }\n}') + 2;
    const p = run(text).source.position(closing);
    expect(diagLines(run(text))).toEqual([`${p.line}:${p.col}: error[E0305]: function @k must end with 'return'`]);
  });

  test('return value count vs the signature', () => {
    const text = ['module {', '  func.func @k() -> (index, index) {', '    %c0 = arith.constant 0 : index', '    return %c0 : index', '  }', '}', ''].join(
      '\n',
    );
    expect(diagLines(run(text))).toEqual([`${at(text, 'return %c0')}: error[E0401]: function @k returns 2 value(s), but 'return' has 1`]);
  });

  test('a bare return in a function with a result', () => {
    const text = ['module {', '  func.func @k() -> index {', '    return', '  }', '}', ''].join('\n');
    expect(diagLines(run(text))).toEqual([`${at(text, 'return')}: error[E0401]: function @k returns 1 value(s), but 'return' has 0`]);
  });

  test('return value type vs the signature', () => {
    const text = ['module {', '  func.func @k() -> i32 {', '    %c0 = arith.constant 0 : index', '    return %c0 : index', '  }', '}', ''].join('\n');
    expect(diagLines(run(text))).toEqual([`${at(text, '%c0', 1)}: error[E0401]: return value 0 has type index, expected i32`]);
  });
});

// ---- target selection --------------------------------------------------------------------------

describe('target selection', () => {
  const S = tileBuf({ dtype: 'i8', rows: 32, cols: 32 });
  const D = tileBuf({ dtype: 'i8', rows: 1, cols: 32 });
  const body = [...allocs(['%src', S], ['%dst', D]), dps('tcolmin', [['%src', S]], [['%dst', D]]), 'return'];
  const i8Errors = (text: string, target: string): string[] => [
    `${atOnLine(text, 'pto.tcolmin', S)}: error[E0505]: pto.tcolmin: src dtype i8 is not supported on ${target} (allowed: i16, i32, f16, f32)`,
    `${atOnLine(text, 'pto.tcolmin', D)}: error[E0505]: pto.tcolmin: dst dtype i8 is not supported on ${target} (allowed: i16, i32, f16, f32)`,
  ];

  test('the default target is a2a3: an i8 tcolmin is rejected', () => {
    const text = kernel(body);
    expect(run(text).program.target).toBe('a2a3');
    expect(diagLines(run(text))).toEqual(i8Errors(text, 'a2a3'));
  });

  test('module attributes {pto.target_arch = "a5"} makes an i8 tcolmin valid', () => {
    const text = kernel(body, '', '{pto.target_arch = "a5"}');
    const r = run(text);
    expect(r.program.target).toBe('a5');
    expect(diagLines(r)).toEqual([]);
  });

  test('the --target option overrides the module attribute (a5 -> a2a3)', () => {
    const text = kernel(body, '', '{pto.target_arch = "a5"}');
    const r = run(text, 'a2a3');
    expect(r.program.target).toBe('a2a3');
    expect(diagLines(r)).toEqual(i8Errors(text, 'a2a3'));
  });

  test('the --target option overrides the module attribute (a2a3 -> a5)', () => {
    const text = kernel(body, '', '{pto.target_arch = "a2a3"}');
    const r = run(text, 'a5');
    expect(r.program.target).toBe('a5');
    expect(diagLines(r)).toEqual([]);
  });

  const f32Body = [...allocs(['%src', F32_16x16], ['%dst', F32_1x16]), dps('tcolmin', [['%src', F32_16x16]], [['%dst', F32_1x16]]), 'return'];

  const ignored = (text: string) => `${at(text, '"a7"')}: warning[W0307]: unknown pto.target_arch "a7" is ignored (PTOAS knows "a2", "a3" and "a5")`;

  test('an unknown pto.target_arch string is ignored, as PTOAS ignores it, with a warning at the string', () => {
    const text = kernel(f32Body, '', '{pto.target_arch = "a7"}');
    const r = run(text);
    expect(diagLines(r)).toEqual([ignored(text)]);
    expect(r.program.target).toBe('a2a3');
    expect(run(text, 'a5').program.target).toBe('a5');
  });

  test("PTOAS's names: a2 and a3 (in any case) and pypto's a2a3 are A2/A3; an Ascend950 device spec is A5", () => {
    for (const name of ['a3', 'A3', 'a2', 'a2a3']) expect(run(kernel(f32Body, '', `{pto.target_arch = "${name}"}`)).program.target).toBe('a2a3');
    expect(run(kernel(f32Body, '', '{pto.target_arch = "A5"}')).program.target).toBe('a5');
    expect(run(kernel(f32Body, '', '{"pto.device-spec" = "Ascend950PR_9599"}')).program.target).toBe('a5');
  });
});

// ---- unknown vs not implemented ----------------------------------------------------------------

describe('unknown op vs not-implemented op', () => {
  const known: string[] = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'spec', 'known-ops.json'), 'utf8')).ops;
  const notImplemented = 'pto.timg2col';

  test(`${notImplemented} is a known PTO op that spec/instructions/*.json lacks`, () => {
    expect(known).toContain(notImplemented);
    expect(isa().instructions.has(notImplemented.slice(4))).toBe(false);
  });

  test('a known op without a spec entry is "not implemented yet"', () => {
    const text = kernel([...allocs(['%src', F32_16x16], ['%dst', F32_16x16]), dps('timg2col', [['%src', F32_16x16]], [['%dst', F32_16x16]]), 'return']);
    expect(diagLines(run(text))).toEqual([`${at(text, 'pto.timg2col')}: error[E0301]: pto.timg2col is not implemented yet`]);
  });

  test('every known pto op without a definition is "not implemented yet", never unknown', () => {
    for (const op of known.filter((o) => !opRegistry().lookup(o))) {
      const text = kernel([`${op} ins() outs()`, 'return']);
      expect({ op, lines: diagLines(run(text)) }).toEqual({ op, lines: [`${at(text, op)}: error[E0301]: ${op} is not implemented yet`] });
    }
  });

  test('a pto op that is not in known-ops.json is unknown', () => {
    const text = kernel(['pto.tfrobnicate ins() outs()', 'return']);
    expect(known).not.toContain('pto.tfrobnicate');
    expect(diagLines(run(text))).toEqual([`${at(text, 'pto.tfrobnicate')}: error[E0301]: unknown op 'pto.tfrobnicate'`]);
  });

  test('an op of another dialect is unknown', () => {
    const text = kernel(['foo.bar', 'return']);
    expect(diagLines(run(text))).toEqual([`${at(text, 'foo.bar')}: error[E0301]: unknown op 'foo.bar'`]);
  });

  // verifier.ts keeps the results of an unknown op defined "so that later uses do not cascade into more errors".
  test('the results of an unknown op stay defined: a scalar use does not cascade', () => {
    const text = kernel(['%c1 = arith.constant 1 : index', '%x = pto.tfrobnicate', '%y = arith.addi %x, %c1 : index', 'return']);
    expect(diagLines(run(text))).toEqual([`${at(text, 'pto.tfrobnicate')}: error[E0301]: unknown op 'pto.tfrobnicate'`]);
  });

  test('the results of a not-implemented op stay defined: a typed tile use does not cascade', () => {
    const text = kernel([`%x = pto.timg2col`, `%dst = pto.alloc_tile : ${F32_1x16}`, dps('tcolmin', [['%x', F32_16x16]], [['%dst', F32_1x16]]), 'return']);
    expect(diagLines(run(text))).toEqual([`${at(text, 'pto.timg2col')}: error[E0301]: pto.timg2col is not implemented yet`]);
  });
});

// ---- all errors of a file ----------------------------------------------------------------------

describe('every error of a file is reported', () => {
  test('five independent errors give five diagnostics, in source order', () => {
    const bad = tileBuf({ dtype: 'f16', rows: 16, cols: 8 });
    const dst8 = tileBuf({ dtype: 'f32', rows: 1, cols: 16, vCol: 8 });
    const text = kernel([
      '%c1 = arith.constant 1 : index',
      `%bad = pto.alloc_tile : ${bad}`, // 1. invalid tile type
      '%a = arith.addi %nope, %c1 : index', // 2. undefined value
      '%c1 = arith.constant 2 : index', // 3. redefinition
      `%src = pto.alloc_tile : ${F32_16x16}`,
      `%dst = pto.alloc_tile : ${dst8}`,
      dps('tcolmin', [['%src', F32_16x16]], [['%dst', dst8]]), // 4. valid cols 16 != 8
      'pto.tfrobnicate ins() outs()', // 5. unknown op
      'return',
    ]);
    const r = run(text);
    expect(r.diags.items).toHaveLength(5);
    expect(r.diags.errorCount).toBe(5);
    expect(diagLines(r)).toEqual([
      `${at(text, bad)}: error[E0202]: pto.alloc_tile: a row-major none_box tile needs its row byte size to be a multiple of 32, got 8 x 2 = 16 bytes`,
      `${at(text, '%nope')}: error[E0302]: use of undefined value %nope`,
      `${at(text, '%c1', 2)}: error[E0303]: redefinition of SSA value %c1`,
      `  note ${at(text, '%c1')}: previously defined here`,
      `${at(text, 'pto.tcolmin')}: error[E0506]: pto.tcolmin: src valid cols (16) must equal dst valid cols (8)`,
      `${at(text, 'pto.tfrobnicate')}: error[E0301]: unknown op 'pto.tfrobnicate'`,
    ]);
    // formatAll prints them in the same (source) order.
    const headers = formatAll(r.diags)
      .split('\n')
      .filter((l) => / (error|warning)\[[EW]\d{4}\]: /.test(l))
      .map((l) => Number(/^test\.pto:(\d+):/.exec(l)![1]));
    expect(headers).toHaveLength(5);
    expect([...headers].sort((x, y) => x - y)).toEqual(headers);
    expect(new Set(headers).size).toBe(5);
  });
});

describe('placement by address (PTOAS level 3)', () => {
  test('a program that places some tiles by address must place them all', () => {
    const text = kernel([
      '%c0 = arith.constant 0 : i64',
      `%a = pto.alloc_tile addr = %c0 : ${F32_16x16}`,
      `%b = pto.alloc_tile : ${F32_16x16}`,
      `pto.tadd ins(%a, %a : ${F32_16x16}, ${F32_16x16}) outs(%b : ${F32_16x16})`,
      'return',
    ]);
    expect(diagLines(run(text))).toEqual([
      `${at(text, 'pto.alloc_tile :')}: error[E0405]: pto.alloc_tile needs 'addr = %a' here: other tiles of this program are placed by address (PTOAS's level 3), and a program places all its tiles or none`,
      `  note ${at(text, '%a = pto.alloc_tile')}: placed by address here`,
    ]);
  });

  test('all placed, or none placed, is fine', () => {
    const placed = kernel([
      '%c0 = arith.constant 0 : i64',
      `%a = pto.alloc_tile addr = %c0 : ${F32_16x16}`,
      `%b = pto.alloc_tile addr = %c0 : ${F32_16x16}`,
      'return',
    ]);
    const automatic = kernel([`%a = pto.alloc_tile : ${F32_16x16}`, `%b = pto.alloc_tile : ${F32_16x16}`, 'return']);
    expect(diagLines(run(placed))).toEqual([]);
    expect(diagLines(run(automatic))).toEqual([]);
  });
});
