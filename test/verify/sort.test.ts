/** Verifier rules of the sort family beyond the dtype tables (src/verify/checks/sort.ts). */
import { assemble } from '../../src/verify/assemble';
import { printCanonical } from '../../src/emit/canonical';
import { at, diagLines, kernel, run, tileBuf, tileVal, TileSpec } from '../fixtures/verify/helpers';

const tb = (dtype: string, rows: number, cols: number, more: Partial<TileSpec> = {}) => tileBuf({ dtype, rows, cols, ...more });

/** Diagnostics of a kernel that allocates `tiles` (name -> type) and runs `line`. */
function check(line: string, tiles: Record<string, string>, args = ''): { text: string; lines: string[] } {
  const allocs = Object.entries(tiles).map(([name, type]) => `%${name} = pto.alloc_tile : ${type}`);
  const text = kernel([...allocs, line, 'return'], args);
  return { text, lines: diagLines(run(text, 'a5')) };
}

describe('tsort32', () => {
  const src = tb('f32', 4, 32);
  const idx = tb('u32', 4, 32);
  const dst = tb('f32', 4, 64);

  test("accepts today's PTOAS spelling, a one-row idx (shared by every row) and the optional tmp", () => {
    const one = tb('u32', 1, 32);
    expect(check(`pto.tsort32 ins(%s, %i : ${src}, ${idx}) outs(%d : ${dst})`, { s: src, d: dst, i: idx }).lines).toEqual([]);
    expect(check(`pto.tsort32 ins(%s, %i, %t : ${src}, ${one}, ${src}) outs(%d : ${dst})`, { s: src, t: src, d: dst, i: one }).lines).toEqual([]);
  });

  test('idx with another number of rows than src (and not 1)', () => {
    const idx2 = tb('u32', 2, 32);
    const { text, lines } = check(`pto.tsort32 ins(%s, %i : ${src}, ${idx2}) outs(%d : ${dst})`, { s: src, d: dst, i: idx2 });
    expect(lines).toEqual([`${at(text, idx2, 1)}: error[E0508]: pto.tsort32: idx must have as many valid rows as src (4) or one row for all, not 2`]);
  });

  test('dst narrower than one record per element is accepted (as PTOAS does); the VM checks it when it runs', () => {
    const narrow = tb('f16', 4, 96);
    const half = tb('f16', 4, 32);
    const idx4 = tb('u32', 4, 32);
    expect(check(`pto.tsort32 ins(%s, %i : ${half}, ${idx4}) outs(%d : ${narrow})`, { s: half, d: narrow, i: idx4 }).lines).toEqual([]);
  });

  test('a2a3 tmp holds at least src (4x32 f32 = 512 bytes)', () => {
    const small = tb('f32', 1, 64);
    const text = kernel([
      ...Object.entries({ s: src, t: small, d: dst, i: idx }).map(([n, t]) => `%${n} = pto.alloc_tile : ${t}`),
      `pto.tsort32 ins(%s, %i, %t : ${src}, ${idx}, ${small}) outs(%d : ${dst})`,
      'return',
    ]);
    expect(diagLines(run(text, 'a2a3'))).toEqual([
      `${at(text, small, 1)}: error[E0508]: pto.tsort32: tmp (1x64 f32) holds 256 bytes; src (4x32 f32) needs at least 512`,
    ]);
  });

  test("the form older PTOAS printed (idx after dst in outs) is accepted with a warning naming today's", () => {
    const { text, lines } = check(`pto.tsort32 ins(%s : ${src}) outs(%d, %i : ${dst}, ${idx})`, { s: src, d: dst, i: idx });
    expect(lines).toEqual([
      `${at(text, 'pto.tsort32')}: warning[W0105]: pto.tsort32 with %idx in outs is the old form; PTOAS now writes 'pto.tsort32 ins(%src, %idx, %tmp? : ...) outs(%dst : ...)'`,
    ]);
    // The canonical form is today's.
    const asm = assemble('s.pto', text);
    expect(printCanonical(asm.module, asm.types)).toMatch(/pto\.tsort32 ins\(%s, %i : [^)]*\) outs\(%d : [^)]*\)\n/);
  });
});

describe('tmrgsort', () => {
  const row = tb('f32', 1, 256);
  const f16row = tb('f16', 1, 256);
  const tmp = tb('f32', 1, 1024);

  test('format 1 and format 2 (4 and 2 lists) are accepted', () => {
    expect(check(`pto.tmrgsort ins(%s, %n : ${row}, i32) outs(%d : ${row})`, { s: row, d: row }, '%n: i32').lines).toEqual([]);
    const four = `pto.tmrgsort ins(%a, %b, %c, %e {exhausted = true} : ${row}, ${row}, ${row}, ${row}) outs(%d, %t, %x : ${row}, ${tmp}, vector<4xi16>)`;
    expect(check(four, { a: row, b: row, c: row, e: row, d: row, t: tmp }, '%x: vector<4xi16>').lines).toEqual([]);
    const two = `pto.tmrgsort ins(%a, %b : ${row}, ${row}) outs(%d, %t, %x : ${row}, ${tmp}, vector<4xi16>)`;
    expect(check(two, { a: row, b: row, d: row, t: tmp }, '%x: vector<4xi16>').lines).toEqual([]);
  });

  test('format 1: no tmp or exhausted; blockLen an integer; one row; dst as wide as src', () => {
    const wide = tb('f32', 1, 512);
    const r1 = check(`pto.tmrgsort ins(%s, %n : ${row}, i32) outs(%d, %t : ${row}, ${tmp}) {exhausted = true}`, { s: row, d: row, t: tmp }, '%n: i32');
    expect(r1.lines).toEqual([
      `${at(r1.text, 'pto.tmrgsort')}: error[E0508]: pto.tmrgsort: exhausted = true applies to format 2 (several lists) only`,
      `${at(r1.text, tmp, 1)}: error[E0508]: pto.tmrgsort: format 1 (src, blockLen) takes no tmp`,
    ]);
    const r2 = check(`pto.tmrgsort ins(%s, %n : ${row}, f32) outs(%d : ${wide})`, { s: row, d: wide }, '%n: f32');
    expect(r2.lines).toEqual([
      `${at(r2.text, 'f32) outs')}: error[E0502]: pto.tmrgsort: the second ins operand must be the integer blockLen (format 1) or the tile src1 (format 2), not f32`,
    ]);
    const two = tb('f32', 2, 256);
    const r3 = check(`pto.tmrgsort ins(%s, %n : ${two}, i32) outs(%d : ${wide})`, { s: two, d: wide }, '%n: i32');
    expect(r3.lines).toEqual([
      `${at(r3.text, two, 1)}: error[E0508]: pto.tmrgsort: src0 must have 1 row, not 2`,
      `${at(r3.text, wide, 1)}: error[E0508]: pto.tmrgsort: dst must have as many columns as src (256), not 512`,
    ]);
  });

  test('format 2: src1 gets the tile rules; tmp and executed are required, executed a vector<4xi16>', () => {
    const mixed = `pto.tmrgsort ins(%a, %b : ${row}, ${f16row}) outs(%d, %t, %x : ${row}, ${tmp}, vector<4xi16>)`;
    const r1 = check(mixed, { a: row, b: f16row, d: row, t: tmp }, '%x: vector<4xi16>');
    expect(r1.lines).toEqual([`${at(r1.text, f16row, 1)}: error[E0505]: pto.tmrgsort: src0 (f32) and src1 (f16) must have the same element type`]);
    const i32row = tb('i32', 1, 256);
    const r2 = check(`pto.tmrgsort ins(%a, %b : ${row}, ${i32row}) outs(%d, %t, %x : ${row}, ${tmp}, i32)`, { a: row, b: i32row, d: row, t: tmp }, '%x: i32');
    expect(r2.lines).toEqual([
      `${at(r2.text, i32row, 1)}: error[E0505]: pto.tmrgsort: src1 dtype i32 is not supported on a5 (allowed: f16, f32)`,
      `${at(r2.text, 'i32)\n')}: error[E0508]: pto.tmrgsort: executed must be a vector<4xi16> (the counts taken from each list), not i32`,
    ]);
    const r3 = check(`pto.tmrgsort ins(%a, %b : ${row}, ${row}) outs(%d : ${row})`, { a: row, b: row, d: row });
    expect(r3.lines).toEqual([
      `${at(r3.text, 'pto.tmrgsort')}: error[E0508]: pto.tmrgsort: format 2 (several lists) needs outs(%dst, %tmp, %executed : T, T, vector<4xi16>); tmp is missing`,
      `${at(r3.text, 'pto.tmrgsort')}: error[E0508]: pto.tmrgsort: format 2 (several lists) needs outs(%dst, %tmp, %executed : T, T, vector<4xi16>); executed is missing`,
    ]);
  });
});

describe('Level 1', () => {
  test('tsort32 has no Level 1 form (PTOAS has none)', () => {
    const s = tileVal({ dtype: 'f32', rows: 1, cols: 32 });
    const d = tileVal({ dtype: 'f32', rows: 1, cols: 64 });
    const i = tileVal({ dtype: 'u32', rows: 1, cols: 32 });
    const text = kernel([`%d = pto.tsort32 %s, %i : (${s}, ${i}) -> ${d}`, 'return'], `%s: ${s}, %i: ${i}`);
    expect(diagLines(run(text, 'a5'))).toEqual([
      `${at(text, 'pto.tsort32')}: error[E0508]: pto.tsort32: has no Level 1 form; write 'pto.tsort32 ins(%src, %idx : T, ui32) outs(%dst : T)'`,
    ]);
  });
});
