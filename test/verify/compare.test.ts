/**
 * Verifier rules of compare/select, gather/scatter and the generators beyond the dtype tables
 * (src/verify/checks/compare.ts, gather.ts, generate.ts), and the source dtype lists of tcmp/tcmps with each
 * target's mask dtype (an 8-bit mask, as PTOAS requires of tcmp), which the table-driven cases cannot pair.
 */
import { TARGETS } from '../../src/spec/schema';
import { referenceFacts } from '../fixtures/verify/facts';
import { ELEM_TYPES, Elem, atOnLine, diagLines, kernel, mlirName, run, tileBuf } from '../fixtures/verify/helpers';

const tb = (dtype: string, rows = 8, cols = 32, vCol?: number) => tileBuf({ dtype, rows, cols, vCol });
const MASK = { a2a3: 'u8', a5: 'u8' } as const;

function check(lines: string[], tiles: Record<string, string>, args = '', target: 'a2a3' | 'a5' = 'a5'): { diags: string[]; text: string } {
  const allocs = Object.entries(tiles).map(([name, type]) => `%${name} = pto.alloc_tile : ${type}`);
  const text = kernel([...allocs, ...lines, 'return'], args);
  return { diags: diagLines(run(text, target)), text };
}

describe('tcmp / tcmps sources with the target mask', () => {
  const facts = referenceFacts();
  const rows = TARGETS.flatMap((t) => ELEM_TYPES.map((e) => [t, e] as const));
  test.each(rows)('tcmp on %s, %s sources', (target, e: Elem) => {
    const [s, m] = [tb(e), tb(MASK[target])];
    const { diags } = check([`pto.tcmp ins(%a, %b {cmpMode = #pto<cmp eq>} : ${s}, ${s}) outs(%m : ${m})`], { a: s, b: s, m }, '', target);
    expect(diags.length === 0).toBe(facts.tcmp[target].src0.includes(e));
  });
  test.each(rows)('tcmps on %s, %s source', (target, e: Elem) => {
    const [s, m] = [tb(e), tb(MASK[target])];
    const { diags } = check(
      [`pto.tcmps ins(%a, %s {cmpMode = #pto<cmp ne>} : ${s}, ${mlirName(e)}) outs(%m : ${m})`],
      { a: s, m },
      `%s: ${mlirName(e)}`,
      target,
    );
    expect(diags.length === 0).toBe(facts.tcmps[target].src0.includes(e));
  });
});

describe('cmpMode', () => {
  const [s, m] = [tb('f32'), tb('u8')];
  const line = (mode: string) => `pto.tcmp ins(%a, %b {cmpMode = ${mode}} : ${s}, ${s}) outs(%m : ${m})`;
  const expected = 'expected one of #pto<cmp eq>, #pto<cmp ne>, #pto<cmp lt>, #pto<cmp le>, #pto<cmp gt>, #pto<cmp ge>';
  test.each(['eq', 'ne', 'lt', 'le', 'gt', 'ge'])('#pto<cmp %s> is accepted', (mode) => {
    expect(check([line(`#pto<cmp ${mode}>`)], { a: s, b: s, m }).diags).toEqual([]);
  });
  test("the IR manual's #pto<cmp less_than> is an error suggesting PTOAS's spelling", () => {
    const { diags, text } = check([line('#pto<cmp less_than>')], { a: s, b: s, m });
    expect(diags).toEqual([
      `${atOnLine(text, 'pto.tcmp', '#pto<cmp less')}: error[E0507]: pto.tcmp: unknown cmpMode 'less_than' (did you mean 'lt'?); ${expected}`,
    ]);
  });
  test("upper case suggests the lower-case value; the ISA page's #pto.cmp<EQ> names the right shape", () => {
    const upper = check([line('#pto<cmp LT>')], { a: s, b: s, m });
    expect(upper.diags).toEqual([
      `${atOnLine(upper.text, 'pto.tcmp', '#pto<cmp LT')}: error[E0507]: pto.tcmp: unknown cmpMode 'LT' (did you mean 'lt'?); ${expected}`,
    ]);
    const dotted = check([line('#pto.cmp<EQ>')], { a: s, b: s, m });
    expect(dotted.diags).toEqual([
      `${atOnLine(dotted.text, 'pto.tcmp', '#pto.cmp')}: error[E0507]: pto.tcmp: 'cmpMode' must be written #pto<cmp VALUE>; ${expected}`,
    ]);
  });
  test('a2a3 compares i32 only with eq or ne', () => {
    const [i, u8] = [tb('i32'), tb('u8')];
    const ok = check([`pto.tcmp ins(%a, %b {cmpMode = #pto<cmp ne>} : ${i}, ${i}) outs(%m : ${u8})`], { a: i, b: i, m: u8 }, '', 'a2a3');
    expect(ok.diags).toEqual([]);
    const bad = check([`pto.tcmps ins(%a, %s {cmpMode = #pto<cmp gt>} : ${i}, i32) outs(%m : ${u8})`], { a: i, m: u8 }, '%s: i32', 'a2a3');
    expect(bad.diags).toEqual([
      `${atOnLine(bad.text, 'pto.tcmps', '#pto<cmp gt>')}: error[E0508]: pto.tcmps: a2a3 compares i32 only with eq or ne (its vector compare of i32 is equality whatever the mode), not gt`,
    ]);
  });
});

describe('mask sizes', () => {
  test('a mask too narrow for the source valid columns', () => {
    const [s, m] = [tb('f32', 8, 64), tb('u8', 8, 32, 4)];
    const { diags, text } = check([`pto.tcmp ins(%a, %b : ${s}, ${s}) outs(%m : ${m})`], { a: s, b: s, m });
    expect(diags).toEqual([
      `${atOnLine(text, 'pto.tcmp', m)}: error[E0508]: pto.tcmp: dst's 4 valid ui8 columns hold 32 bits per row, but src0 has 64 valid columns (needs v_col >= 8)`,
    ]);
  });
  test('a tsel mask too narrow or too short for dst', () => {
    const [d, k] = [tb('f16', 8, 32), tileBuf({ dtype: 'u8', rows: 4, cols: 32, vCol: 2 })];
    const { diags, text } = check([`pto.tsel ins(%k, %a, %b : ${k}, ${d}, ${d}) outs(%d : ${d})`], { k, a: d, b: d, d });
    const where = atOnLine(text, 'pto.tsel', k);
    expect(diags).toEqual([
      `${where}: error[E0508]: pto.tsel: selMask's 2 valid ui8 columns hold 16 bits per row, but dst has 32 valid columns (needs v_col >= 4)`,
      `${where}: error[E0508]: pto.tsel: selMask has 4 valid rows, fewer than dst's 8`,
    ]);
  });
});

describe('select scratch tiles', () => {
  const [k, d16] = [tb('u8', 8, 32), tb('f16', 8, 32)];
  const tsel = (d: string, t: string) => `pto.tsel ins(%k, %a, %b, %t : ${k}, ${d}, ${d}, ${t}) outs(%d : ${d})`;
  test('a2a3 tsel takes any 4-byte tmp (PTOAS: 4 bytes wide; every tile holds the 16 bytes it needs)', () => {
    for (const dtype of ['i32', 'u32', 'f32']) {
      const t = tb(dtype, 1, 8);
      expect(check([tsel(d16, t)], { k, a: d16, b: d16, d: d16, t }, '', 'a2a3').diags).toEqual([]);
    }
  });
  test('a2a3 tsel: a tmp of 8 bytes (a 1x2 i32 argument) is too small for 16-bit data', () => {
    const t = tb('i32', 1, 2);
    const bad = check([`pto.tsel ins(%k, %a, %b, %t : ${k}, ${d16}, ${d16}, ${t}) outs(%d : ${d16})`], { k, a: d16, b: d16, d: d16 }, `%t: ${t}`, 'a2a3');
    expect(bad.diags).toEqual([
      `${atOnLine(bad.text, 'pto.tsel', t)}: error[E0508]: pto.tsel: tmp (1x2 i32) holds 8 bytes; tsel of f16 data needs at least 16`,
    ]);
  });
  test('a2a3 tsel rejects a 2-byte tmp', () => {
    const t = tb('i16', 1, 16);
    const { diags } = check([tsel(d16, t)], { k, a: d16, b: d16, d: d16, t }, '', 'a2a3');
    expect(diags).toHaveLength(1);
    expect(diags[0]).toContain('pto.tsel: tmp dtype i16 is not supported on a2a3 (allowed: i32, ui32, f32)');
  });
  const s16 = tb('i16', 2, 128);
  const tsels = (t: string) => `pto.tsels ins(%k, %a, %t, %s : ${k}, ${s16}, ${t}, i16) outs(%d : ${s16})`;
  test('tsels writes its tmp before the scalar; a2a3 needs one row of src in its dtype (128 x 2 bytes)', () => {
    const ok = tb('i16', 1, 128);
    expect(check([tsels(ok)], { k, a: s16, t: ok, d: s16 }, '%s: i16', 'a2a3').diags).toEqual([]);
    const small = tb('i16', 1, 64);
    const bad = check([tsels(small)], { k, a: s16, t: small, d: s16 }, '%s: i16', 'a2a3');
    expect(bad.diags).toEqual([
      `${atOnLine(bad.text, 'pto.tsels', small)}: error[E0508]: pto.tsels: tmp (1x64 i16) holds 128 bytes; one row of src (128 elements) needs at least 256`,
    ]);
  });
  test('tsels tmp of another dtype: an error on a2a3, accepted on a5', () => {
    const t = tb('i32', 2, 128);
    const bad = check([tsels(t)], { k, a: s16, t, d: s16 }, '%s: i16', 'a2a3');
    expect(bad.diags).toEqual([`${atOnLine(bad.text, 'pto.tsels', t)}: error[E0508]: pto.tsels: on a2a3, tmp (i32) must have src's element type (i16)`]);
    expect(check([tsels(t)], { k, a: s16, t, d: s16 }, '%s: i16', 'a5').diags).toEqual([]);
  });
  test('tsels without tmp binds its third operand as the scalar', () => {
    expect(check([`pto.tsels ins(%k, %a, %s : ${k}, ${s16}, i16) outs(%d : ${s16})`], { k, a: s16, d: s16 }, '%s: i16', 'a5').diags).toEqual([]);
  });
});

describe('tgather forms', () => {
  const [s, d, i] = [tb('f32', 8, 64), tb('f32'), tb('i32')];
  test('neither indices nor maskPattern', () => {
    const { diags, text } = check([`pto.tgather ins(%s : ${s}) outs(%d : ${d})`], { s, d });
    expect(diags).toEqual([
      `${atOnLine(text, 'pto.tgather', 'pto.tgather')}: error[E0508]: pto.tgather: needs an index tile (ins(%src0, %src1, %tmp : S, I, T)), a maskPattern or a kValue (ins(%src0, %kValue, %tmp ...) outs(%dst, %cdst ...))`,
    ]);
  });
  test('both', () => {
    const { diags, text } = check([`pto.tgather ins(%s, %i {maskPattern = #pto.mask_pattern<P0101>} : ${s}, ${i}) outs(%d : ${d})`], { s, i, d });
    expect(diags).toEqual([`${atOnLine(text, 'pto.tgather', i)}: error[E0508]: pto.tgather: the mask-pattern form takes only src0 and dst, not src1`]);
  });
  test('an unknown pattern lists the accepted ones', () => {
    const { diags } = check([`pto.tgather ins(%s, {maskPattern = #pto.mask_pattern<P0011>} : ${s}, "row") outs(%d : ${d})`], { s, d });
    expect(diags).toHaveLength(1);
    expect(diags[0]).toContain("unknown maskPattern 'P0011'; expected one of #pto.mask_pattern<P0101>, #pto.mask_pattern<P1010>");
  });
  test.each(['a2a3', 'a5'] as const)('on %s the mask-pattern form needs its axis (PTOAS TGatherOp); with "row" it is accepted', (target) => {
    const d32 = tb('f32', 8, 32);
    const line = (axis: string) => `pto.tgather ins(%s, {maskPattern = #pto.mask_pattern<P0101>} : ${s}${axis}) outs(%d : ${d32})`;
    const bad = check([line('')], { s, d: d32 }, '', target);
    expect(bad.diags).toEqual([
      `${atOnLine(bad.text, 'pto.tgather', '#pto.mask_pattern')}: error[E0508]: pto.tgather: the mask-pattern form needs its axis: ins(%src0, {maskPattern = ...} : S, "row")`,
    ]);
    expect(check([line(', "row"')], { s, d: d32 }, '', target).diags).toEqual([]);
  });
  test('axis "row": dst keeps the rows, src0 has the group size times its columns', () => {
    const mask = (p: string, dst: string) => `pto.tgather ins(%s, {maskPattern = #pto.mask_pattern<${p}>} : ${s}, "row") outs(%d : ${dst})`;
    expect(check([mask('P0101', tb('f32', 8, 32))], { s, d: tb('f32', 8, 32) }).diags).toEqual([]);
    const bad = check([mask('P0001', tb('f32', 8, 32))], { s, d: tb('f32', 8, 32) });
    expect(bad.diags).toEqual([
      `${atOnLine(bad.text, 'pto.tgather', 'pto.tgather')}: error[E0506]: pto.tgather: src0 valid cols (64) must be dst valid cols (32) x 4, the P0001 group size, for axis "row"`,
    ]);
  });
  test('axis without a maskPattern', () => {
    const { diags, text } = check([`pto.tgather ins(%s, %i, %t : ${s}, ${i}, ${i}) outs(%d : ${d}) {axis = "row"}`], { s, i, t: i, d });
    expect(diags).toEqual([`${atOnLine(text, 'pto.tgather', '"row"')}: error[E0508]: pto.tgather: axis is given only with a maskPattern`]);
  });
  test('compare form: kValue of src0 dtype, i32 dst and cdst, cmpMode eq or gt', () => {
    const [h, u8, i32] = [tb('f16', 1, 32), tb('u8', 1, 32), tb('i32', 1, 32)];
    const cmp = (mode: string) => `pto.tgather ins(%h, %k, %u : ${h}, f16, ${u8}) outs(%o, %c : ${i32}, ${i32}) {cmpMode = #pto<cmp ${mode}>}`;
    expect(check([cmp('gt')], { h, u: u8, o: i32, c: i32 }, '%k: f16').diags).toEqual([]);
    const bad = check([cmp('lt')], { h, u: u8, o: i32, c: i32 }, '%k: f16');
    expect(bad.diags).toEqual([`${atOnLine(bad.text, 'pto.tgather', '#pto<cmp')}: error[E0508]: pto.tgather: the compare form takes cmpMode eq or gt, not lt`]);
    const noTmp = check([`pto.tgather ins(%h, %k : ${h}, f16) outs(%o, %c : ${i32}, ${i32})`], { h, o: i32, c: i32 }, '%k: f16');
    expect(noTmp.diags).toEqual([
      `${atOnLine(noTmp.text, 'pto.tgather', 'pto.tgather')}: error[E0508]: pto.tgather: the compare form needs ins(%src0, %kValue, %tmp : S, s, T) outs(%dst, %cdst : D, C)`,
    ]);
  });
});

describe('tscatter index size', () => {
  test('i16 data needs 2-byte indexes', () => {
    const [x, idx] = [tb('i16'), tb('i32')];
    const { diags, text } = check([`pto.tscatter ins(%s, %i : ${x}, ${idx}) outs(%d : ${x})`], { s: x, i: idx, d: x });
    expect(diags).toEqual([`${atOnLine(text, 'pto.tscatter', idx)}: error[E0508]: pto.tscatter: indexes of i16 data must be i16 or ui16, not i32`]);
  });
});

describe('generators', () => {
  test('tci needs an integer start', () => {
    const d = tb('i32', 1, 32);
    const { diags, text } = check([`pto.tci ins(%s : f32) outs(%d : ${d})`], { d }, '%s: f32');
    expect(diags).toEqual([`${atOnLine(text, 'pto.tci', 'f32)')}: error[E0508]: pto.tci: start must be an integer (i16, i32, ...), got f32`]);
  });
  test('tci takes an optional tmp after the start; a2a3 needs 1792 bytes of it for 16-bit data (4-byte elements)', () => {
    const d = tb('i16', 1, 32);
    const big = tb('f32', 1, 448);
    expect(check([`pto.tci ins(%s, %t : i16, ${big}) outs(%d : ${d})`], { d, t: big }, '%s: i16', 'a2a3').diags).toEqual([]);
    const small = tb('i32', 1, 192);
    const bad = check([`pto.tci ins(%s, %t : i16, ${small}) outs(%d : ${d})`], { d, t: small }, '%s: i16', 'a2a3');
    expect(bad.diags).toEqual([
      `${atOnLine(bad.text, 'pto.tci', small)}: error[E0508]: pto.tci: tmp (1x192 i32) holds 768 bytes; a 16-bit sequence on a2a3 needs at least 1792`,
    ]);
    expect(check([`pto.tci ins(%s, %t : i16, ${small}) outs(%d : ${d})`], { d, t: small }, '%s: i16', 'a5').diags).toEqual([]);
  });
  test('tci needs one row', () => {
    const d = tb('i32', 2, 32);
    const { diags } = check([`pto.tci ins(%s : i32) outs(%d : ${d})`], { d }, '%s: i32');
    expect(diags).toHaveLength(1);
    expect(diags[0]).toContain('pto.tci: dst rows');
  });
});
