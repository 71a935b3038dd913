/**
 * TCMP, TCMPS, TSEL, TSELS on the VM. Expected masks are packed here by hand from the manual's rule
 * (row r, column c -> bit c % W of mask element (r, c / W)) and the simulator's rules where cpu-sim differs.
 */
import fc from 'fast-check';
import { Elem, TileArg, runTiles } from './tile-kernel';

const MODES = ['eq', 'ne', 'lt', 'le', 'gt', 'ge'] as const;
type Mode = (typeof MODES)[number];
const reference: Record<Mode, (a: number, b: number) => boolean> = {
  eq: (a, b) => a === b,
  ne: (a, b) => !(a === b),
  lt: (a, b) => a < b,
  le: (a, b) => a <= b,
  gt: (a, b) => a > b,
  ge: (a, b) => a >= b,
};

/** Packs one row of predicates into W-bit mask elements, LSB first. */
function pack(bits: boolean[], w: number): number[] {
  const out: number[] = [];
  bits.forEach((b, c) => {
    const e = Math.floor(c / w);
    out[e] = (out[e] ?? 0) + (b ? 2 ** (c % w) : 0);
  });
  return out;
}

const tcmp = (mode: Mode) => `pto.tcmp ins(%a, %b {cmpMode = #pto<cmp ${mode}>} : T(a), T(b)) outs(%m : T(m))`;

describe('tcmp', () => {
  const a = [1, 2, 3, NaN, -0, Infinity, -Infinity, 5, 0.5, 7, 8, 9, NaN, 11, 12, 13];
  const b = [1, 3, 2, 1, 0, Infinity, 1, NaN, 0.5, 6, 9, 9, NaN, 0, 0, 14];
  const f32 = (data: number[]): TileArg => ({ dtype: 'f32', rows: 2, cols: 8, data });
  describe.each(MODES)('%s on f32, a5 (ui8 mask: PTOAS takes 8-bit masks only), both profiles', (mode) => {
    test.each(['npu', 'cpu-sim'] as const)('%s', (numerics) => {
      const out = runTiles(
        tcmp(mode),
        { a: f32(a), b: f32(b), m: { dtype: 'u8', rows: 2, cols: 32, data: Array(64).fill(0xaa), valid: [2, 1] } },
        { numerics },
      );
      const rows = [0, 1].map(
        (r) =>
          pack(
            a.slice(r * 8, r * 8 + 8).map((x, c) => reference[mode](x, b[r * 8 + c])),
            8,
          )[0],
      );
      // npu: A5 stores 128 f32 compares per 16-byte block (pto-isa TCmp_32B's psts), so bytes 1..15 of each row
      // are the 0 bits of lanes 8..127 and bytes 16..31 keep their 0xaa. cpu-sim zeroes the whole mask tile first.
      const row = (bits: number): number[] => (numerics === 'npu' ? [bits, ...Array(15).fill(0), ...Array(16).fill(0xaa)] : [bits, ...Array(31).fill(0)]);
      expect(out.m).toEqual([...row(rows[0]), ...row(rows[1])]);
    });
  });

  test('an i8 mask holds the same bits, read signed: 8 true columns are 0xff = -1 (a5 and a2a3)', () => {
    for (const target of ['a5', 'a2a3'] as const) {
      const out = runTiles(
        tcmp('lt'),
        {
          a: { dtype: 'f32', rows: 1, cols: 8, data: [1, 2, 3, 4, 5, 6, 7, 8] },
          b: { dtype: 'f32', rows: 1, cols: 8, data: Array(8).fill(9) },
          m: { dtype: 'i8', rows: 1, cols: 32, valid: [1, 1] },
        },
        { target },
      );
      expect([target, out.m[0]]).toEqual([target, -1]);
    }
  });

  test('a2a3 u8 mask: 20 columns take 3 bytes per row; bits past column 20 are 0; other bytes untouched', () => {
    const x = Array.from({ length: 32 }, (_, i) => i % 3);
    const y = Array(32).fill(1);
    const out = runTiles(
      tcmp('gt'),
      {
        a: { dtype: 'f16', rows: 1, cols: 32, data: x, valid: [1, 20] },
        b: { dtype: 'f16', rows: 1, cols: 32, data: y, valid: [1, 20] },
        m: { dtype: 'u8', rows: 1, cols: 32, data: Array(32).fill(0xaa), valid: [1, 3] },
      },
      { target: 'a2a3' },
    );
    const bits = x.slice(0, 20).map((v) => v > 1);
    expect(out.m).toEqual([...pack(bits, 8), ...Array(29).fill(0xaa)]);
    // By hand: columns 2, 5, 8, 11, 14, 17 (i % 3 == 2) are set: bits 2, 5 | 0, 3, 6 | 1 of the three bytes.
    expect(out.m.slice(0, 3)).toEqual([0x24, 0x49, 0x02]);
  });

  test('i64 compares exactly (a5)', () => {
    const big = 2n ** 62n;
    const out = runTiles(tcmp('lt'), {
      a: { dtype: 'i64', rows: 1, cols: 4, data: [big, -big, big + 1n, 0n] },
      b: { dtype: 'i64', rows: 1, cols: 4, data: [big + 1n, -big, big, -1n] },
      m: { dtype: 'u8', rows: 1, cols: 32 },
    });
    expect(out.m[0]).toBe(0b0001);
  });

  test('property: every bit of an f32 mask is the IEEE comparison (npu)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.float(), { minLength: 32, maxLength: 32 }),
        fc.array(fc.float(), { minLength: 32, maxLength: 32 }),
        fc.constantFrom(...MODES),
        (x, y, mode) => {
          const out = runTiles(tcmp(mode), {
            a: { dtype: 'f32', rows: 1, cols: 32, data: x },
            b: { dtype: 'f32', rows: 1, cols: 32, data: y },
            m: { dtype: 'u8', rows: 1, cols: 32 },
          });
          const want = x.map((v, i) => reference[mode](Math.fround(v), Math.fround(y[i])));
          expect(out.m.slice(0, 4)).toEqual(pack(want, 8));
        },
      ),
      { numRuns: 25 },
    );
  });
});

const tcmps = (mode: Mode, type: string) => `pto.tcmps ins(%a, %s {cmpMode = #pto<cmp ${mode}>} : T(a), ${type}) outs(%m : T(m))`;

describe('tcmps', () => {
  test.each(MODES)('%s on f32 against 2 (npu, a5)', (mode) => {
    const x = [1, 2, 3, NaN, 2, -Infinity, 2.0000002, 1e-10];
    const out = runTiles(
      tcmps(mode, 'f32'),
      { a: { dtype: 'f32', rows: 1, cols: 8, data: x }, m: { dtype: 'u32', rows: 1, cols: 8, valid: [1, 1] } },
      { scalars: { s: ['f32', 2] } },
    );
    expect(out.m[0]).toBe(
      pack(
        x.map((v) => reference[mode](Math.fround(v), 2)),
        32,
      )[0],
    );
  });

  test('cpu-sim: eq is |a - b| < 1e-9 in double, so 1e-10 eq 2e-10 and inf eq inf is false; ne is its negation or a NaN', () => {
    const x = [1e-10, Infinity, NaN, 3, 0, 0, 0, 0];
    const tiles = (): Record<string, TileArg> => ({ a: { dtype: 'f32', rows: 1, cols: 8, data: x }, m: { dtype: 'u8', rows: 1, cols: 32, valid: [1, 1] } });
    const eqTiny = runTiles(tcmps('eq', 'f32'), tiles(), { numerics: 'cpu-sim', target: 'a2a3', scalars: { s: ['f32', 2e-10] } });
    // bit 0: |1e-10 - 2e-10| < 1e-9; bit 1: inf - 2e-10 = inf; bit 2: NaN; 4..7: 0 vs 2e-10 -> equal too.
    expect(eqTiny.m[0]).toBe(0b11110001);
    const eqInf = runTiles(tcmps('eq', 'f32'), tiles(), { numerics: 'cpu-sim', target: 'a2a3', scalars: { s: ['f32', Infinity] } });
    expect(eqInf.m[0]).toBe(0);
    const neInf = runTiles(tcmps('ne', 'f32'), tiles(), { numerics: 'cpu-sim', target: 'a2a3', scalars: { s: ['f32', Infinity] } });
    // inf ne inf: |inf - inf| = NaN > 1e-9 is false; the NaN element is ne.
    expect(neInf.m[0]).toBe(0b11111101);
    const npu = runTiles(tcmps('eq', 'f32'), tiles(), { target: 'a2a3', scalars: { s: ['f32', Infinity] } });
    expect(npu.m[0]).toBe(0b10);
  });

  test('cpu-sim lays the bytes of whole source rows (Cols / 8 each) one after another into dst valid columns', () => {
    // src 2 x 16 f32: 2 bytes per source row. dst u8 with 3 valid columns: the simulator fills (0,0), (0,1), (0,2),
    // (1,0) from the byte stream; npu puts each source row's bytes in its own mask row.
    const x = [...Array(16).fill(5), ...Array(8).fill(0), ...Array(8).fill(5)];
    const tiles = (): Record<string, TileArg> => ({
      a: { dtype: 'f32', rows: 2, cols: 16, data: x },
      m: { dtype: 'u8', rows: 2, cols: 32, data: Array(64).fill(9), valid: [2, 3] },
    });
    const opts = { target: 'a2a3' as const, scalars: { s: ['f32', 1] as [string, Elem] } };
    const sim = runTiles(tcmps('gt', 'f32'), tiles(), { ...opts, numerics: 'cpu-sim' });
    expect(sim.m).toEqual([0xff, 0xff, 0x00, ...Array(29).fill(0), 0xff, ...Array(31).fill(0)]);
    const npu = runTiles(tcmps('gt', 'f32'), tiles(), opts);
    expect(npu.m).toEqual([0xff, 0xff, ...Array(30).fill(9), 0x00, 0xff, ...Array(30).fill(9)]);
  });

  test('npu on a2a3 compares i16 as the fp16 numbers their bits encode', () => {
    // 0x3c00 = 1.0, 0x4000 = 2.0, 0xbc00 = -1.0 (i16 -17408), 0x7e00 = NaN; scalar 0x3e00 = 1.5.
    const x = [0x3c00, 0x4000, -17408, 0x7e00, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
    const a: TileArg = { dtype: 'i16', rows: 1, cols: 16, data: x, valid: [1, 4] };
    const out = runTiles(tcmps('lt', 'i16'), { a, m: { dtype: 'u8', rows: 1, cols: 32, valid: [1, 1] } }, { target: 'a2a3', scalars: { s: ['i16', 0x3e00n] } });
    // As fp16: 1 < 1.5, 2 > 1.5, -1 < 1.5, NaN compares false.
    expect(out.m[0]).toBe(0b0101);
    const gt = runTiles(tcmps('gt', 'i16'), { a, m: { dtype: 'u8', rows: 1, cols: 32, valid: [1, 1] } }, { target: 'a2a3', scalars: { s: ['i16', 0x3e00n] } });
    // fp16: only 2.0 > 1.5 (NaN is false). A5 compares the integers: 0x4000 and 0x7e00 exceed 0x3e00.
    expect(gt.m[0]).toBe(0b0010);
    const a5 = runTiles(tcmps('gt', 'i16'), { a, m: { dtype: 'u32', rows: 1, cols: 8, valid: [1, 1] } }, { target: 'a5', scalars: { s: ['i16', 0x3e00n] } });
    expect(a5.m[0]).toBe(0b1010);
  });
});

describe('A5 mask layouts: pto-isa (emitc) per dst row, PTOAS tcmps template (vpto) packed from dst byte 0', () => {
  const vpto = { backend: 'vpto' as const, scalars: { s: ['f32', 5] as [string, Elem] } };
  const emitc = { backend: 'emitc' as const, scalars: { s: ['f32', 5] as [string, Elem] } };

  test('f32 4x64 < 5 (tilelang tcmps f32_4x64): vpto streams the 256 compares into bytes 0..31; emitc writes 16 bytes per 64-byte row', () => {
    // Element k (row-major) is 0 when k % 3 == 0, else 9: bits 0,3,6 | 1,4,7 | 2,5 of every three bytes.
    const x = Array.from({ length: 256 }, (_, k) => (k % 3 === 0 ? 0 : 9));
    const tiles = (): Record<string, TileArg> => ({
      a: { dtype: 'f32', rows: 4, cols: 64, data: x },
      m: { dtype: 'u8', rows: 4, cols: 64, data: Array(256).fill(0xaa) },
    });
    const stream = Array.from({ length: 32 }, (_, n) => [0x49, 0x92, 0x24][n % 3]);
    const packed = runTiles(tcmps('lt', 'f32'), tiles(), vpto);
    expect(packed.m).toEqual([...stream, ...Array(224).fill(0xaa)]);
    // Row r starts at k = 64r, and 64r % 3 == r % 3: rows 0..3 begin with the pattern at phase 0, 2, 1, 0.
    const phase = [
      [0x49, 0x92, 0x24],
      [0x24, 0x49, 0x92],
      [0x92, 0x24, 0x49],
    ];
    const row = (r: number): number[] => [...Array.from({ length: 8 }, (_, n) => phase[r % 3][n % 3]), ...Array(8).fill(0), ...Array(48).fill(0xaa)];
    const rows = runTiles(tcmps('lt', 'f32'), tiles(), emitc);
    expect(rows.m).toEqual([...row(0), ...row(1), ...row(2), ...row(3)]);
  });

  test('vpto 2-D form: rows of 48 valid of 64 columns are not one run, so each row takes one 16-byte block, back to back', () => {
    const tiles = (): Record<string, TileArg> => ({
      a: { dtype: 'f32', rows: 2, cols: 64, data: Array(128).fill(1), valid: [2, 48] },
      m: { dtype: 'u8', rows: 2, cols: 64, data: Array(128).fill(0xaa) },
    });
    const ones = [...Array(6).fill(0xff), ...Array(10).fill(0)];
    expect(runTiles(tcmps('lt', 'f32'), tiles(), vpto).m).toEqual([...ones, ...ones, ...Array(96).fill(0xaa)]);
    expect(runTiles(tcmps('lt', 'f32'), tiles(), emitc).m).toEqual([...ones, ...Array(48).fill(0xaa), ...ones, ...Array(48).fill(0xaa)]);
  });

  test('f16 2x64, true in row 1 only: vpto packs both rows into one 16-byte block; emitc puts row 1 at byte 64', () => {
    const tiles = (): Record<string, TileArg> => ({
      a: { dtype: 'f16', rows: 2, cols: 64, data: [...Array(64).fill(9), ...Array(64).fill(1)] },
      m: { dtype: 'u8', rows: 2, cols: 64, data: Array(128).fill(0xaa) },
    });
    const f16 = (backend: 'emitc' | 'vpto') => runTiles(tcmps('lt', 'f16'), tiles(), { backend, scalars: { s: ['f16', 5] } }).m;
    expect(f16('vpto')).toEqual([...Array(8).fill(0), ...Array(8).fill(0xff), ...Array(112).fill(0xaa)]);
    expect(f16('emitc')).toEqual([...Array(16).fill(0), ...Array(48).fill(0xaa), ...Array(8).fill(0xff), ...Array(8).fill(0), ...Array(48).fill(0xaa)]);
  });

  test('vpto: no template for an i8 tcmps mask or a tcmp whose dst valid region differs from the sources', () => {
    const a: TileArg = { dtype: 'f32', rows: 1, cols: 64 };
    expect(() => runTiles(tcmps('lt', 'f32'), { a, m: { dtype: 'i8', rows: 1, cols: 64 } }, vpto)).toThrow(
      /pto\.tcmps: f32 into i8 under the vpto back end is not implemented yet/,
    );
    const b: TileArg = { dtype: 'f32', rows: 1, cols: 64 };
    const m: TileArg = { dtype: 'i8', rows: 1, cols: 64, valid: [1, 8] };
    expect(() => runTiles(tcmp('lt'), { a, b, m }, { backend: 'vpto' })).toThrow(/valid region 1x8 other than the sources' 1x64 .* not implemented yet/);
    expect(runTiles(tcmp('lt'), { a, b, m }, { backend: 'emitc' }).m).toEqual(Array(64).fill(0));
  });

  test("emitc: pto-isa's 64-bit compare stores one block of 64 per row; more columns trap", () => {
    const tiles = {
      a: { dtype: 'i64', rows: 1, cols: 72 } as TileArg,
      b: { dtype: 'i64', rows: 1, cols: 72 } as TileArg,
      m: { dtype: 'u8', rows: 1, cols: 32 } as TileArg,
    };
    expect(() => runTiles(tcmp('eq'), tiles)).toThrow(/64-bit compare of 72 columns is not implemented yet/);
  });
});

describe('tsel', () => {
  const line = 'pto.tsel ins(%k, %a, %b : T(k), T(a), T(b)) outs(%d : T(d))';
  test('npu: bit c % 8 of byte c / 8 of mask row r picks src0; padding untouched', () => {
    const a = Array.from({ length: 32 }, (_, i) => i + 100);
    const b = Array.from({ length: 32 }, (_, i) => -i);
    const mask = [0b10100101, 0b00000011, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0x01];
    const tiles: Record<string, TileArg> = {
      k: { dtype: 'u8', rows: 2, cols: 32, data: mask, valid: [2, 2] },
      a: { dtype: 'f32', rows: 2, cols: 16, data: a, valid: [2, 10] },
      b: { dtype: 'f32', rows: 2, cols: 16, data: b, valid: [2, 10] },
      d: { dtype: 'f32', rows: 2, cols: 16, data: Array(32).fill(7), valid: [2, 10] },
    };
    const out = runTiles(line, tiles);
    const row0 = [100, -1, 102, -3, -4, 105, -6, 107, 108, 109];
    const row1 = [116, 117, 118, 119, 120, 121, 122, 123, 124, -25];
    expect(out.d).toEqual([...row0, ...Array(6).fill(7), ...row1, ...Array(6).fill(7)]);
  });

  test('cpu-sim: one bit stream over the valid region, moving to the next mask row after mask v_col bytes', () => {
    // dst 2 x 4 valid: 8 bits; the stream takes them all from mask byte (0, 0).
    const tiles: Record<string, TileArg> = {
      k: { dtype: 'u8', rows: 2, cols: 32, data: [0b11000011], valid: [2, 1] },
      a: { dtype: 'i32', rows: 2, cols: 8, data: Array(16).fill(1), valid: [2, 4] },
      b: { dtype: 'i32', rows: 2, cols: 8, data: Array(16).fill(2), valid: [2, 4] },
      d: { dtype: 'i32', rows: 2, cols: 8, valid: [2, 4] },
    };
    const sim = runTiles(line, tiles, { numerics: 'cpu-sim' });
    expect(sim.d).toEqual([1, 1, 2, 2, 0, 0, 0, 0, 2, 2, 1, 1, 0, 0, 0, 0]);
    const npu = runTiles(line, tiles);
    // npu reads row 1's bits from mask row 1, which is 0.
    expect(npu.d).toEqual([1, 1, 2, 2, 0, 0, 0, 0, 2, 2, 2, 2, 0, 0, 0, 0]);
  });

  test('selection copies bits: NaN payloads survive', () => {
    const nan = 0x7fc01234;
    const a: TileArg = { dtype: 'u32', rows: 1, cols: 8, data: [nan, nan] };
    const out = runTiles('pto.tsel ins(%k, %a, %b : T(k), T(a), T(b)) outs(%d : T(d))', {
      k: { dtype: 'u8', rows: 1, cols: 32, data: [1] },
      a,
      b: { dtype: 'u32', rows: 1, cols: 8 },
      d: { dtype: 'u32', rows: 1, cols: 8 },
    });
    expect(out.d.slice(0, 2)).toEqual([nan, 0]);
  });
});

describe('tsels', () => {
  const line = (type: string) => `pto.tsels ins(%k, %a, %s : T(k), T(a), ${type}) outs(%d : T(d))`;
  test.each(['npu', 'cpu-sim'] as const)('u32 mask: bit c % 32 of element c / 32 (%s)', (numerics) => {
    const a = Array.from({ length: 40 }, (_, i) => i);
    const out = runTiles(
      line('i16'),
      {
        k: { dtype: 'u32', rows: 1, cols: 8, data: [0x80000001, 0b10] },
        a: { dtype: 'i16', rows: 1, cols: 48, data: a, valid: [1, 40] },
        d: { dtype: 'i16', rows: 1, cols: 48, valid: [1, 40] },
      },
      { numerics, scalars: { s: ['i16', -5n] } },
    );
    const want: Elem[] = a.map((v, c) => (c === 0 || c === 31 || c === 33 ? v : -5));
    expect(out.d).toEqual([...want, ...Array(8).fill(0)]);
  });
});
