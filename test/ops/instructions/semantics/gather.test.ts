/** TGATHER (both forms), TGATHERB, TSCATTER on the VM; expected values are written out by hand. */
import { TileArg, runTiles } from './tile-kernel';

const iota = (n: number, from = 0) => Array.from({ length: n }, (_, i) => from + i);

describe('tgather, index form', () => {
  // A2/A3 needs tmp (the indices' dtype and shape), which the VM does not use.
  const line = 'pto.tgather ins(%s, %i, %t : T(s), T(i), T(t)) outs(%d : T(d))';
  test.each(['npu', 'cpu-sim'] as const)('dst[i, j] = src0 at flat index src1[i, j] (%s)', (numerics) => {
    const s: TileArg = { dtype: 'f16', rows: 2, cols: 16, data: iota(32, 100) };
    const idx = [31, 0, 16, 15, 1, 1, 30, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    const out = runTiles(
      line,
      {
        s,
        i: { dtype: 'i32', rows: 1, cols: 16, data: idx },
        t: { dtype: 'i32', rows: 1, cols: 16 },
        d: { dtype: 'f16', rows: 1, cols: 16, data: Array(16).fill(-1), valid: [1, 16] },
      },
      { numerics, target: 'a2a3' },
    );
    expect(out.d).toEqual([131, 100, 116, 115, 101, 101, 130, 102, 103, 104, 105, 106, 107, 108, 109, 110]);
  });

  test('an index outside src0 is a trap naming the index, its position and the extent', () => {
    const tiles = {
      s: { dtype: 'f32' as const, rows: 1, cols: 8 },
      i: { dtype: 'i32' as const, rows: 1, cols: 8, data: [0, 3, 8] },
      t: { dtype: 'i32' as const, rows: 1, cols: 8 },
      d: { dtype: 'f32' as const, rows: 1, cols: 8 },
    };
    expect(() => runTiles(line, tiles)).toThrow("index 8 at src1[0, 2] is outside src0's 1x8 elements (0..7)");
    expect(() => runTiles(line, { ...tiles, i: { ...tiles.i, data: [0, -1] } })).toThrow('index -1 at src1[0, 1]');
  });
});

describe('tgather, mask form', () => {
  const line = (p: string) => `pto.tgather ins(%s, {maskPattern = #pto.mask_pattern<${p}>} : T(s), "row") outs(%d : T(d))`;
  const s: TileArg = { dtype: 'i32', rows: 3, cols: 32, data: iota(96), valid: [2, 32] };
  const rowsOf = (first: number, step: number, n: number) => [...iota(n).map((k) => first + step * k), ...iota(n).map((k) => 32 + first + step * k)];
  test.each([
    ['P0101', 16, rowsOf(0, 2, 16)],
    ['P1010', 16, rowsOf(1, 2, 16)],
    ['P0001', 8, rowsOf(0, 4, 8)],
    ['P1111', 32, iota(64)],
  ] as const)('axis "row": %s keeps its columns of each of the 2 valid rows, packed row-major', (p, cols, want) => {
    const out = runTiles(line(p), { s, d: { dtype: 'i32', rows: 2, cols, data: Array(2 * cols).fill(-1) } });
    expect(out.d).toEqual(want);
  });

  test('a count that does not fill a dst of dynamic valid rows is a trap', () => {
    // The verifier checks static valid shapes; a dst whose valid rows are known only at run time is checked here.
    const dyn = '!pto.tile_buf<loc=vec, dtype=i32, rows=2, cols=16, v_row=?, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>';
    const op = line('P0101').replace('T(d)', dyn).replace('%d :', '%dd :');
    const text = [`%dd = pto.alloc_tile addr = %a_d valid_row = %c1 : ${dyn}`, op].join('\n');
    expect(() => runTiles(text, { s, d: { dtype: 'i32', rows: 2, cols: 16 } })).toThrow(
      "maskPattern P0101 keeps 32 elements of src0's 2x32 valid region, but dst's valid region holds 1x16 = 16",
    );
  });

  const along = (p: string, axis: string) => `pto.tgather ins(%s, {maskPattern = #pto.mask_pattern<${p}>} : T(s), "${axis}") outs(%d : T(d))`;
  test.each([
    ['P0010', 1],
    ['P0100', 2],
    ['P1000', 3],
  ] as const)('axis "row": %s keeps column %d of each group of 4, row by row', (p, first) => {
    const wide: TileArg = { dtype: 'i32', rows: 2, cols: 32, data: iota(64) };
    const out = runTiles(along(p, 'row'), { s: wide, d: { dtype: 'i32', rows: 2, cols: 8 } });
    expect(out.d).toEqual([...iota(8).map((k) => first + 4 * k), ...iota(8).map((k) => 32 + first + 4 * k)]);
  });
  test('axis "col" is not run yet', () => {
    const col = { dtype: 'i32' as const, rows: 4, cols: 8 };
    expect(() => runTiles(along('P0101', 'col'), { s: col, d: { dtype: 'i32', rows: 2, cols: 8 } })).toThrow('axis "col" is not implemented yet');
  });
});

describe('tgather, compare form', () => {
  test('is verified, not run yet', () => {
    const line = 'pto.tgather ins(%s, %k, %t : T(s), f16, T(t)) outs(%d, %c : T(d), T(c)) {cmpMode = #pto<cmp gt>}';
    const tiles = {
      s: { dtype: 'f16' as const, rows: 1, cols: 32 },
      t: { dtype: 'u8' as const, rows: 1, cols: 32 },
      d: { dtype: 'i32' as const, rows: 1, cols: 32 },
      c: { dtype: 'i32' as const, rows: 1, cols: 32 },
    };
    expect(() => runTiles(line, tiles, { scalars: { k: ['f16', 1] } })).toThrow('compare form (kValue, cdst) is not implemented yet');
  });
});

describe('tgatherb', () => {
  const line = 'pto.tgatherb ins(%s, %o : T(s), T(o)) outs(%d : T(d))';
  test('each 32-byte block of a dst row comes from src at its byte offset', () => {
    const s: TileArg = { dtype: 'i32', rows: 4, cols: 8, data: iota(32) };
    const out = runTiles(line, { s, o: { dtype: 'u32', rows: 1, cols: 8, data: [96, 4] }, d: { dtype: 'i32', rows: 1, cols: 16 } });
    expect(out.d).toEqual([...iota(8, 24), ...iota(8, 1)]);
  });
  test('a block ending past src is a trap', () => {
    const tiles = {
      s: { dtype: 'i32' as const, rows: 1, cols: 8 },
      o: { dtype: 'u32' as const, rows: 1, cols: 8, data: [4] },
      d: { dtype: 'i32' as const, rows: 1, cols: 8 },
    };
    expect(() => runTiles(line, tiles)).toThrow("offset 4 at offset[0, 0]: its 32-byte block ends past src's 32 bytes");
  });
});

describe('tscatter', () => {
  const line = 'pto.tscatter ins(%s, %i : T(s), T(i)) outs(%d : T(d))';
  test.each(['npu', 'cpu-sim'] as const)('dst at flat index indexes[i, j] = src[i, j], a later duplicate wins (%s)', (numerics) => {
    const out = runTiles(
      line,
      {
        s: { dtype: 'i16', rows: 1, cols: 16, data: iota(16, 1), valid: [1, 4] },
        i: { dtype: 'i16', rows: 1, cols: 16, data: [17, 0, 5, 5], valid: [1, 4] },
        d: { dtype: 'i16', rows: 2, cols: 16, data: Array(32).fill(-1) },
      },
      { numerics },
    );
    const want = Array(32).fill(-1);
    [want[17], want[0], want[5]] = [1, 2, 4];
    expect(out.d).toEqual(want);
  });
  test('an index outside dst is a trap', () => {
    const tiles = {
      s: { dtype: 'i16' as const, rows: 1, cols: 16, valid: [1, 1] as [number, number] },
      i: { dtype: 'i16' as const, rows: 1, cols: 16, data: [32], valid: [1, 1] as [number, number] },
      d: { dtype: 'i16' as const, rows: 2, cols: 16 },
    };
    expect(() => runTiles(line, tiles)).toThrow("index 32 at indexes[0, 0] is outside dst's 2x16 elements (0..31)");
  });
  test('the mask-pattern form is verified, not run yet', () => {
    const mask = 'pto.tscatter ins(%s, {maskPattern = #pto.mask_pattern<P0101>} : T(s), "row") outs(%d : T(d))';
    const tiles = { s: { dtype: 'f16' as const, rows: 1, cols: 32 }, d: { dtype: 'f16' as const, rows: 1, cols: 64 } };
    expect(() => runTiles(mask, tiles)).toThrow('pto.tscatter with a maskPattern is not implemented yet');
  });
});
