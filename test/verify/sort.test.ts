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

  test('no valid shapes are verified (PTOAS TSort32Op::verify): idx of 2 rows for 4, dst 2 x 26 for 2 x 13, idx 2 x 13 for 4 rows', () => {
    const idx2 = tb('u32', 2, 32);
    expect(check(`pto.tsort32 ins(%s, %i : ${src}, ${idx2}) outs(%d : ${dst})`, { s: src, d: dst, i: idx2 }).lines).toEqual([]);
    const short = tb('f32', 2, 16, { vRow: 2, vCol: 13 });
    const shortIdx = tb('u32', 2, 16, { vRow: 2, vCol: 13 });
    const narrow = tb('f32', 2, 64, { vRow: 2, vCol: 26 });
    const tmp = tb('f32', 1, 32);
    const line = `pto.tsort32 ins(%s, %i, %t : ${short}, ${shortIdx}, ${tmp}) outs(%d : ${narrow})`;
    expect(check(line, { s: short, i: shortIdx, t: tmp, d: narrow }).lines).toEqual([]);
    expect(check(`pto.tsort32 ins(%s, %i : ${src}, ${shortIdx}) outs(%d : ${dst})`, { s: src, d: dst, i: shortIdx }).lines).toEqual([]);
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
  const vec = 'vector<4xi16>';

  test("format 1 and format 2 (4 and 2 lists, tmp last in ins or no_tmp) as today's PTOAS writes them are accepted", () => {
    expect(check(`pto.tmrgsort ins(%s, %n : ${row}, i32) outs(%d : ${row})`, { s: row, d: row }, '%n: i32').lines).toEqual([]);
    const four = `pto.tmrgsort ins(%a, %b, %c, %e, %t {exhausted = true} : ${row}, ${row}, ${row}, ${row}, ${tmp}) outs(%d, %x : ${row}, ${vec})`;
    expect(check(four, { a: row, b: row, c: row, e: row, d: row, t: tmp }, `%x: ${vec}`).lines).toEqual([]);
    const two = `pto.tmrgsort ins(%a, %b, %t : ${row}, ${row}, ${tmp}) outs(%d, %x : ${row}, ${vec})`;
    expect(check(two, { a: row, b: row, d: row, t: tmp }, `%x: ${vec}`).lines).toEqual([]);
    const three = `pto.tmrgsort ins(%a, %b, %c no_tmp {exhausted = false} : ${row}, ${row}, ${row}) outs(%d, %x : ${row}, ${vec})`;
    expect(check(three, { a: row, b: row, c: row, d: row }, `%x: ${vec}`).lines).toEqual([]);
  });

  test('executed may be an arith.constant dense<...> : vector<4xi16> (one element for all, or one per lane)', () => {
    const line = `pto.tmrgsort ins(%a, %b, %t : ${row}, ${row}, ${tmp}) outs(%d, %x : ${row}, ${vec})`;
    const text = kernel([
      `%x = arith.constant dense<[50000, 40000, 32768, -1]> : ${vec}`,
      `%z = arith.constant dense<0> : ${vec}`,
      ...Object.entries({ a: row, b: row, d: row, t: tmp }).map(([n, t]) => `%${n} = pto.alloc_tile : ${t}`),
      line,
      line.replace('%d, %x', '%d, %z'),
      'return',
    ]);
    expect(diagLines(run(text, 'a2a3'))).toEqual([]);
    const asm = assemble('s.pto', text);
    expect(printCanonical(asm.module, asm.types)).toContain(`%x = arith.constant dense<[50000, 40000, 32768, -1]> : ${vec}\n`);
    const bad = kernel([`%x = arith.constant dense<[1, 2, 3]> : ${vec}`, `%y = arith.constant dense<[65536]> : ${vec}`, 'return']);
    expect(diagLines(run(bad, 'a2a3'))).toEqual([
      `${at(bad, 'dense<[1')}: error[E0403]: dense<...> has 3 elements, but ${vec} has 4 (or give one for all)`,
      `${at(bad, '65536')}: error[E0403]: 65536 does not fit in i16`,
    ]);
  });

  test("the older spelling outs(%dst, %tmp, %executed) is accepted with a warning and printed in today's form", () => {
    const old = `pto.tmrgsort ins(%a, %b : ${row}, ${row}) outs(%d, %t, %x : ${row}, ${tmp}, ${vec})`;
    const { text, lines } = check(old, { a: row, b: row, d: row, t: tmp }, `%x: ${vec}`);
    expect(lines).toEqual([
      `${at(text, 'pto.tmrgsort')}: warning[W0105]: pto.tmrgsort with %tmp in outs is the old form; PTOAS now writes 'pto.tmrgsort ins(%src0, %src1, %src2?, %src3?, %tmp? : ...) outs(%dst, %executed : ...)'`,
    ]);
    const asm = assemble('s.pto', text);
    expect(printCanonical(asm.module, asm.types)).toMatch(/pto\.tmrgsort ins\(%a, %b, %t : [^)]*\) outs\(%d, %x : [^)]*\)\n/);
  });

  test('format 1: no tmp or exhausted; blockLen an integer; one row; dst as wide as src', () => {
    const wide = tb('f32', 1, 512);
    const r1 = check(`pto.tmrgsort ins(%s, %n, %t {exhausted = true} : ${row}, i32, ${tmp}) outs(%d : ${row})`, { s: row, d: row, t: tmp }, '%n: i32');
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

  test('format 2: src1 gets the tile rules; executed is required, a vector<4xi16>; tmp is written or no_tmp', () => {
    const mixed = `pto.tmrgsort ins(%a, %b, %t : ${row}, ${f16row}, ${tmp}) outs(%d, %x : ${row}, ${vec})`;
    const r1 = check(mixed, { a: row, b: f16row, d: row, t: tmp }, `%x: ${vec}`);
    expect(r1.lines).toEqual([`${at(r1.text, f16row, 1)}: error[E0505]: pto.tmrgsort: src0 (f32) and src1 (f16) must have the same element type`]);
    const i32row = tb('i32', 1, 256);
    const r2 = check(`pto.tmrgsort ins(%a, %b, %t : ${row}, ${i32row}, ${tmp}) outs(%d, %x : ${row}, i32)`, { a: row, b: i32row, d: row, t: tmp }, '%x: i32');
    expect(r2.lines).toEqual([
      `${at(r2.text, i32row, 1)}: error[E0505]: pto.tmrgsort: src0 (f32) and src1 (i32) must have the same element type`,
      `${at(r2.text, 'i32)\n')}: error[E0508]: pto.tmrgsort: executed must be a vector<4xi16> (the counts taken from each list), not i32`,
    ]);
    const r3 = check(`pto.tmrgsort ins(%a, %b, %t : ${row}, ${row}, ${tmp}) outs(%d : ${row})`, { a: row, b: row, d: row, t: tmp });
    expect(r3.lines).toEqual([
      `${at(r3.text, 'pto.tmrgsort')}: error[E0501]: pto.tmrgsort: format 2 (several lists) needs outs(%dst, %executed : T, vector<4xi16>); executed is missing`,
    ]);
    const r4 = check(`pto.tmrgsort ins(%a, %b : ${row}, ${row}) outs(%d, %x : ${row}, ${vec})`, { a: row, b: row, d: row }, `%x: ${vec}`);
    expect(r4.lines).toEqual([
      `${at(r4.text, 'pto.tmrgsort')}: error[E0501]: pto.tmrgsort: format 2 (several lists) writes tmp as the last ins operand, or no_tmp after the lists for PTOAS to allocate it`,
    ]);
  });

  test('format 2: tmp is as wide as dst and as the lists together (PTOAS reports the first)', () => {
    const half = tb('f32', 1, 128);
    const r1 = check(`pto.tmrgsort ins(%a, %b, %t : ${row}, ${row}, ${half}) outs(%d, %x : ${row}, ${vec})`, { a: row, b: row, d: row, t: half }, `%x: ${vec}`);
    expect(r1.lines).toEqual([`${at(r1.text, half, 1)}: error[E0508]: pto.tmrgsort: tmp must have at least as many columns as dst (256), not 128`]);
    const r2 = check(`pto.tmrgsort ins(%a, %b, %t : ${row}, ${row}, ${row}) outs(%d, %x : ${row}, ${vec})`, { a: row, b: row, d: row, t: row }, `%x: ${vec}`);
    expect(r2.lines).toEqual([
      `${at(r2.text, row, 6)}: error[E0508]: pto.tmrgsort: tmp must have at least as many columns as the lists together (512), not 256`,
    ]);
  });

  test('no_tmp leaves tmp to PTOAS, which level3 (no PlanMemory) cannot do; only an op with a writtenLast tmp takes it', () => {
    const line = `pto.tmrgsort ins(%a, %b no_tmp : ${row}, ${row}) outs(%d, %x : ${row}, ${vec})`;
    const text = kernel([...Object.entries({ a: row, b: row, d: row }).map(([n, t]) => `%${n} = pto.alloc_tile : ${t}`), line, 'return'], `%x: ${vec}`);
    const diags = assemble('t.pto', text, { target: 'a5', level: 'level3' });
    expect(diagLines(diags).filter((l) => l.includes('tmrgsort'))).toEqual([
      `${at(text, 'pto.tmrgsort')}: error[E0431]: pto.tmrgsort: requires explicit tmp for tmrgsort format2 when PlanMemory is skipped (--level level3)`,
    ]);
    const src = tb('f32', 1, 32);
    const sort = check(`pto.tsort32 ins(%s, %i no_tmp : ${src}, ${tb('u32', 1, 32)}) outs(%d : ${tb('f32', 1, 64)})`, {
      s: src,
      i: tb('u32', 1, 32),
      d: tb('f32', 1, 64),
    });
    expect(sort.lines).toEqual([
      `${at(sort.text, 'pto.tsort32')}: error[E0501]: pto.tsort32 takes no 'no_tmp' marker; expected 'pto.tsort32 ins(%src, %idx, %tmp? : ...) outs(%dst : ...)'`,
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
