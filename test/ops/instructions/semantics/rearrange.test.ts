/**
 * ttrans, tconcat, tinterleave, tdeinterleave (spec/instructions/data-movement.json): bit permutations,
 * checked against permutations computed here from the manuals' formulas.
 */
import fc from 'fast-check';
import { ElemType } from '../../../../src/types/type';
import { Elem, Numerics, TileArg, runKernel } from './tile-kernel';

/** Runs `line` with index scalars bound to the given values (see tile-kernel.ts); every tile's contents after. */
function run(line: string, tiles: Record<string, TileArg>, opts: { numerics?: Numerics; target?: 'a2a3' | 'a5'; scalars?: Record<string, bigint> } = {}) {
  const scalars = Object.fromEntries(Object.entries(opts.scalars ?? {}).map(([name, v]): [string, [string, Elem]] => [name, ['index', v]]));
  const { values, bytes, printed } = runKernel(line, tiles, { ...opts, scalars });
  return { out: values, printed, buffers: Object.fromEntries(Object.entries(bytes).map(([name, b]) => [name, { bytes: b }])) };
}

/** A rows x cols tile of dtype whose element k is f(k). */
const iota = (dtype: ElemType, rows: number, cols: number, f: (k: number) => Elem = (k) => k + 1): TileArg => ({
  dtype,
  rows,
  cols,
  data: Array.from({ length: rows * cols }, (_, k) => f(k)),
});

describe('ttrans', () => {
  test('dst[j][i] = src[i][j] over src valid region; dst padding untouched; tmp optional', () => {
    const s = { ...iota('i32', 4, 8), valid: [3, 5] as [number, number] };
    const d: TileArg = { dtype: 'i32', rows: 8, cols: 8, data: Array(64).fill(-1), valid: [5, 3] };
    const tmp = iota('i32', 4, 8, () => 0);
    for (const line of ['pto.ttrans ins(%s : T(s)) outs(%d : T(d))', 'pto.ttrans ins(%s, %tmp : T(s), T(tmp)) outs(%d : T(d))']) {
      const { out } = run(line, { s, d, tmp });
      for (let i = 0; i < 8; i++) for (let j = 0; j < 8; j++) expect(out.d[i * 8 + j]).toBe(i < 5 && j < 3 ? j * 8 + i + 1 : -1);
    }
  });

  test('moves bits between same-size types on npu; cpu-sim (a value conversion in the simulator) traps', () => {
    const s: TileArg = { dtype: 'f32', rows: 1, cols: 8, data: [], words: [0x7fc00001, 0xff800000, 0, 0, 0, 0, 0, 0], valid: [1, 2] };
    const d: TileArg = { dtype: 'u32', rows: 8, cols: 8, data: Array(64).fill(0), valid: [2, 1] };
    const line = 'pto.ttrans ins(%s : T(s)) outs(%d : T(d))';
    expect([run(line, { s, d }).out.d[0], run(line, { s, d }).out.d[8]]).toEqual([0x7fc00001, 0xff800000]);
    expect(() => run(line, { s, d }, { numerics: 'cpu-sim' })).toThrow('under cpu-sim (a value conversion in the simulator) is not implemented yet');
  });

  test("dst's valid shape does not bound the write; a transpose larger than dst's rows x cols traps", () => {
    const s = { ...iota('i32', 2, 8), valid: [2, 3] as [number, number] };
    const d: TileArg = { dtype: 'i32', rows: 8, cols: 8, data: Array(64).fill(-1), valid: [1, 1] };
    const { out } = run('pto.ttrans ins(%s : T(s)) outs(%d : T(d))', { s, d });
    expect([out.d[0], out.d[1], out.d[8], out.d[9], out.d[16], out.d[17], out.d[2]]).toEqual([1, 9, 2, 10, 3, 11, -1]);
    const wide = { ...iota('i32', 2, 16), valid: [2, 16] as [number, number] };
    const small: TileArg = { dtype: 'i32', rows: 8, cols: 8, data: Array(64).fill(0) };
    expect(() => run('pto.ttrans ins(%s : T(s)) outs(%d : T(d))', { s: wide, d: small })).toThrow(
      "the transpose of src's valid region 2x16 is 16x2, which does not fit in dst (8x8)",
    );
  });
});

describe('tconcat', () => {
  const BASIC = 'pto.tconcat ins(%a, %b : T(a), T(b)) outs(%d : T(d))';
  test('basic: each dst row is src0 valid cols then src1 valid cols', () => {
    const a = { ...iota('f16', 2, 16, (k) => 100 + k), valid: [2, 3] as [number, number] };
    const b = { ...iota('f16', 2, 16, (k) => 200 + k), valid: [2, 5] as [number, number] };
    const d: TileArg = { dtype: 'f16', rows: 2, cols: 16, data: Array(32).fill(-1), valid: [2, 8] };
    for (const numerics of ['npu', 'cpu-sim'] as const) {
      const { out } = run(BASIC, { a, b, d }, { numerics });
      expect(out.d.slice(0, 9)).toEqual([100, 101, 102, 200, 201, 202, 203, 204, -1]);
      expect(out.d.slice(16, 24)).toEqual([116, 117, 118, 216, 217, 218, 219, 220]);
    }
  });

  const INDEXED = 'pto.tconcat ins(%a, %b, %i, %j : T(a), T(b), T(i), T(j)) outs(%d, %o : T(d), T(o))';
  const idx = (values: number[]): TileArg => ({ dtype: 'i16', rows: 2, cols: 16, data: values.flatMap((v) => [v, ...Array(15).fill(0)]), valid: [2, 1] });
  test('indexed: per-row counts are index / index size; npu clamps to dst valid cols, cpu-sim does not', () => {
    const a = iota('i32', 2, 8, (k) => 10 + k);
    const b = iota('i32', 2, 8, (k) => 50 + k);
    const d: TileArg = { dtype: 'i32', rows: 2, cols: 16, data: Array(32).fill(0), valid: [2, 6] };
    const o = idx([0, 0]);
    // Row 0: 2 + 3 columns; row 1: 5 + 4 columns, clamped by the npu to 5 + 1.
    const tiles = { a, b, d, i: idx([4, 10]), j: idx([6, 8]), o };
    const npu = run(INDEXED, tiles).out;
    expect(npu.d.slice(0, 6)).toEqual([10, 11, 50, 51, 52, 0]);
    expect(npu.d.slice(16, 23)).toEqual([18, 19, 20, 21, 22, 58, 0]);
    expect([npu.o[0], npu.o[16]]).toEqual([10, 12]); // min(count, 6) * 2 bytes
    // cpu-sim also asserts dst valid cols = src0 + src1 valid cols.
    const sim = run(INDEXED, { ...tiles, a: { ...a, valid: [2, 3] }, b: { ...b, valid: [2, 3] } }, { numerics: 'cpu-sim' }).out;
    expect(sim.d.slice(16, 26)).toEqual([18, 19, 20, 21, 22, 58, 59, 60, 61, 0]);
    expect([sim.o[0], sim.o[16]]).toEqual([10, 18]); // the raw index values summed
  });

  test('a count past a source row traps', () => {
    const a = iota('i32', 2, 8);
    const d: TileArg = { dtype: 'i32', rows: 2, cols: 16, data: Array(32).fill(0) };
    expect(() => run('pto.tconcat ins(%a, %b, %i, %j : T(a), T(b), T(i), T(j)) outs(%d : T(d))', { a, b: a, d, i: idx([40, 0]), j: idx([0, 0]) })).toThrow(
      'pto.tconcat: row 0 concatenates 16 + 0 columns: more than src0 (8), src1 (8) or dst (16) has',
    );
  });
});

describe('tinterleave and tdeinterleave', () => {
  const INTERLEAVE = 'pto.tinterleave ins(%a, %b : T(a), T(b)) outs(%x, %y : T(x), T(y))';
  test('tinterleave: dst0 then dst1 hold the stream a0 b0 a1 b1 ...', () => {
    const a = iota('u16', 2, 16, (k) => 100 + k);
    const b = iota('u16', 2, 16, (k) => 200 + k);
    const zero = iota('u16', 2, 16, () => 0);
    const v: [number, number] = [2, 4];
    const r = run(INTERLEAVE, { a: { ...a, valid: v }, b: { ...b, valid: v }, x: { ...zero, valid: v }, y: { ...zero, valid: v } }).out;
    expect(r.x.slice(0, 5)).toEqual([100, 200, 101, 201, 0]);
    expect(r.y.slice(0, 5)).toEqual([102, 202, 103, 203, 0]);
    expect(r.x.slice(16, 20)).toEqual([116, 216, 117, 217]);
  });

  test('tdeinterleave undoes tinterleave (two sources), and splits one source into even and odd positions', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -128, max: 127 }), { minLength: 64, maxLength: 64 }), fc.integer({ min: 1, max: 16 }), (values, half) => {
        const v: [number, number] = [2, 2 * half];
        const a: TileArg = { dtype: 'i8', rows: 2, cols: 32, data: values, valid: v };
        const b: TileArg = { dtype: 'i8', rows: 2, cols: 32, data: values.map((x) => -x - 1), valid: v };
        const zero: TileArg = { dtype: 'i8', rows: 2, cols: 32, data: Array(64).fill(0), valid: v };
        const mixed = run(INTERLEAVE, { a, b, x: zero, y: zero }).out;
        const back = run('pto.tdeinterleave ins(%x, %y : T(x), T(y)) outs(%p, %q : T(p), T(q))', {
          x: { ...zero, data: mixed.x as number[] },
          y: { ...zero, data: mixed.y as number[] },
          p: zero,
          q: zero,
        }).out;
        for (let r = 0; r < 2; r++) {
          for (let c = 0; c < 2 * half; c++) {
            expect(back.p[r * 32 + c]).toBe(a.data![r * 32 + c]);
            expect(back.q[r * 32 + c]).toBe(b.data![r * 32 + c]);
          }
        }
        const one = run('pto.tdeinterleave ins(%s : T(s)) outs(%p, %q : T(p), T(q))', {
          s: { ...a, valid: [2, 2 * half] },
          p: { ...zero, valid: [2, half] },
          q: { ...zero, valid: [2, half] },
        }).out;
        for (let k = 0; k < half; k++) {
          expect(one.p[k]).toBe(values[2 * k]);
          expect(one.q[k]).toBe(values[2 * k + 1]);
        }
      }),
      { numRuns: 15 },
    );
  });
});
