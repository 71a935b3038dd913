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
  const hist = (byte: string, src: string, idx: string) => `pto.thistogram ins(%s, %i {byte = ${byte}} : ${src}, ${idx}) outs(%d : ${dst})`;

  test('ui16: BYTE_0 or BYTE_1 only, idx DN with one column', () => {
    const r1 = check(hist('BYTE_2', u16, dn), { s: u16, i: dn, d: dst });
    expect(r1.lines).toEqual([
      `${at(r1.text, 'pto.thistogram')}: error[E0508]: pto.thistogram: a ui16 src has two bytes: byte must be BYTE_0 or BYTE_1, not BYTE_2`,
    ]);
    const nd = tb('u8', 32, 32);
    const r2 = check(hist('BYTE_0', u16, nd), { s: u16, i: nd, d: dst });
    expect(r2.lines).toEqual([
      `${at(r2.text, nd, 1)}: error[E0508]: pto.thistogram: with a ui16 src, idx must be DN (blayout=col_major, slayout=none_box) with one column: one match byte per row`,
    ]);
  });

  test('ui32: idx has 3 - byte rows and src columns', () => {
    expect(check(hist('BYTE_3', u32, tb('u8', 1, 32)), { s: u32, i: tb('u8', 1, 32), d: dst }).lines).toEqual([]);
    expect(check(hist('BYTE_1', u32, tb('u8', 2, 32)), { s: u32, i: tb('u8', 2, 32), d: dst }).lines).toEqual([]);
    const wrong = tb('u8', 2, 64);
    const r = check(hist('BYTE_0', u32, wrong), { s: u32, i: wrong, d: dst });
    expect(r.lines).toEqual([
      `${at(r.text, wrong, 1)}: error[E0508]: pto.thistogram: byte BYTE_0 of a ui32 src filters by the 3 byte(s) above it: idx must have 3 row(s), not 2`,
      `${at(r.text, wrong, 1)}: error[E0508]: pto.thistogram: idx must have as many columns as src (32), not 64`,
    ]);
  });

  test('byte is required', () => {
    const r = check(`pto.thistogram ins(%s, %i : ${u16}, ${dn}) outs(%d : ${dst})`, { s: u16, i: dn, d: dst });
    expect(r.lines).toEqual([`${at(r.text, 'pto.thistogram')}: error[E0507]: pto.thistogram needs the attribute 'byte'`]);
  });
});

describe('trandom', () => {
  const dst = tb('u32', 4, 64);
  const key = tb('u32', 1, 8, { vCol: 2 });
  const counter = tb('u32', 1, 8, { vCol: 4 });

  test('rounds is 7 or 10', () => {
    const r = check(`pto.trandom ins(%k, %c {rounds = 8} : ${key}, ${counter}) outs(%d : ${dst})`, { k: key, c: counter, d: dst });
    expect(r.lines).toEqual([`${at(r.text, 'pto.trandom')}: error[E0508]: pto.trandom: rounds must be 7 or 10, not 8`]);
  });

  test('key and counter: 32-bit integer tiles with 2 and 4 valid elements', () => {
    const short = tb('u32', 1, 8, { vCol: 3 });
    const floats = tb('f32', 1, 8);
    const r = check(`pto.trandom ins(%k, %c : ${floats}, ${short}) outs(%d : ${dst})`, { k: floats, c: short, d: dst });
    expect(r.lines).toEqual([
      `${at(r.text, floats, 1)}: error[E0508]: pto.trandom: key must be a ui32 or i32 tile (its first 2 elements are the key words)`,
      `${at(r.text, short, 1)}: error[E0508]: pto.trandom: counter needs 4 valid elements in row 0, but has 3`,
    ]);
  });
});
