/** Verifier rules of the misc family beyond the dtype tables (src/verify/checks/misc.ts). */
import { at, diagLines, kernel, run, tileBuf, TileSpec } from '../fixtures/verify/helpers';

const tb = (dtype: string, rows: number, cols: number, more: Partial<TileSpec> = {}) => tileBuf({ dtype, rows, cols, ...more });

function check(line: string, tiles: Record<string, string>): { text: string; lines: string[] } {
  const allocs = Object.entries(tiles).map(([name, type]) => `%${name} = pto.alloc_tile : ${type}`);
  const text = kernel([...allocs, line, 'return']);
  return { text, lines: diagLines(run(text, 'a5')) };
}

describe('thistogram', () => {
  const dst = tb('u32', 32, 256);
  const u16 = tb('u16', 32, 16);
  const dn = tb('u8', 32, 1, { blayout: 'col_major' });
  const u32 = tb('u32', 32, 32);
  const hist = (attrs: string, src: string, idx: string, d = dst) => `pto.thistogram ins(%s, %i${attrs ? ` {${attrs}}` : ''} : ${src}, ${idx}) outs(%d : ${d})`;

  test('ui16: byte 0 or 1 only, idx DN with one column', () => {
    const r1 = check(hist('byte = 2 : i32', u16, dn), { s: u16, i: dn, d: dst });
    expect(r1.lines).toEqual([`${at(r1.text, 'pto.thistogram')}: error[E0508]: pto.thistogram: a ui16 src has two bytes: byte must be 0 or 1, not 2`]);
    const nd = tb('u8', 32, 32);
    const r2 = check(hist('byte = 0 : i32', u16, nd), { s: u16, i: nd, d: dst });
    expect(r2.lines).toEqual([
      `${at(r2.text, nd, 1)}: error[E0508]: pto.thistogram: with a ui16 src, idx must be DN (blayout=col_major, slayout=none_box) with one column: one match byte per row`,
    ]);
  });

  test('ui32: idx has 3 - byte rows and src columns; byte 3 leaves idx unused', () => {
    expect(check(hist('byte = 3 : i32', u32, tb('u8', 1, 32)), { s: u32, i: tb('u8', 1, 32), d: dst }).lines).toEqual([]);
    expect(check(hist('byte = 1 : i32', u32, tb('u8', 2, 32)), { s: u32, i: tb('u8', 2, 32), d: dst }).lines).toEqual([]);
    const wrong = tb('u8', 2, 64);
    const r = check(hist('byte = 0 : i32', u32, wrong), { s: u32, i: wrong, d: dst });
    expect(r.lines).toEqual([
      `${at(r.text, wrong, 1)}: error[E0508]: pto.thistogram: byte 0 of a ui32 src filters by the 3 byte(s) above it: idx must have 3 row(s), not 2`,
      `${at(r.text, wrong, 1)}: error[E0508]: pto.thistogram: idx must have as many columns (and valid columns) as src (32), not 64`,
    ]);
  });

  test('byte defaults to 1 (ui32: 2 filter rows); the legacy isMSB = false is byte 0 (3 filter rows)', () => {
    const two = tb('u8', 2, 32);
    expect(check(hist('', u32, two), { s: u32, i: two, d: dst }).lines).toEqual([]);
    const r = check(hist('isMSB = false', u32, two), { s: u32, i: two, d: dst });
    expect(r.lines).toHaveLength(1);
    expect(r.lines[0]).toContain('byte 0 of a ui32 src filters by the 3 byte(s) above it');
  });

  test('byte and isMSB must agree; byte is 0..3', () => {
    const r = check(hist('byte = 1 : i32, isMSB = false', u16, dn), { s: u16, i: dn, d: dst });
    expect(r.lines).toEqual([`${at(r.text, 'pto.thistogram')}: error[E0508]: pto.thistogram: byte = 1 and the legacy isMSB = false (byte 0) conflict`]);
    expect(check(hist('byte = 0 : i32, isMSB = false', u16, dn), { s: u16, i: dn, d: dst }).lines).toEqual([]);
    const range = check(hist('byte = 4 : i32', u32, tb('u8', 1, 32)), { s: u32, i: tb('u8', 1, 32), d: dst });
    expect(range.lines).toEqual([`${at(range.text, '4 : i32')}: error[E0507]: pto.thistogram: 'byte' must be in 0..3, got 4`]);
  });

  test('dst: at least 256 columns, and 0 or at least 256 valid columns', () => {
    for (const [d, ok] of [
      [tb('u32', 32, 256, { vCol: 0 }), true],
      [tb('u32', 32, 264), true],
      [tb('u32', 32, 256, { vCol: 128 }), false],
      [tb('u32', 32, 128), false],
    ] as const) {
      expect(check(hist('', u16, dn, d), { s: u16, i: dn, d }).lines.length === 0).toBe(ok);
    }
  });
});

describe('trandom', () => {
  const dst = tb('u32', 4, 64);
  const words = (types: string[]) => {
    const text = kernel([
      ...types.map((t, i) => `%w${i} = arith.constant ${i} : ${t}`),
      `%d = pto.alloc_tile : ${dst}`,
      `pto.trandom ins(%w0, %w1, %w2, %w3, %w4, %w5 : ${types.join(', ')}) outs(%d : ${dst})`,
      'return',
    ]);
    return { text, lines: diagLines(run(text, 'a5')) };
  };

  test('six 32-bit integer words: key0, key1, counter0..3', () => {
    expect(words(['i32', 'i32', 'i32', 'i32', 'i32', 'i32']).lines).toEqual([]);
    const r = words(['i32', 'i32', 'i32', 'i32', 'i32', 'i16']);
    expect(r.lines).toEqual([`${at(r.text, 'i16)')}: error[E0508]: pto.trandom: counter3 must be an i32 or ui32 word, not i16`]);
  });

  test('rounds is 7 or 10', () => {
    const text = kernel([
      '%w = arith.constant 1 : i32',
      `%d = pto.alloc_tile : ${dst}`,
      `pto.trandom ins(%w, %w, %w, %w, %w, %w {rounds = 8 : i32} : i32, i32, i32, i32, i32, i32) outs(%d : ${dst})`,
      'return',
    ]);
    expect(diagLines(run(text, 'a5'))).toEqual([`${at(text, 'pto.trandom')}: error[E0508]: pto.trandom: rounds must be 7 or 10, not 8`]);
  });
});
