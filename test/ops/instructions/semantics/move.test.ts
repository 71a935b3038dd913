/**
 * textract, tinsert and tsubview on Vec tiles (spec/instructions/data-movement.json): window copies of bits,
 * checked against windows computed here from the manual's formulas.
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

const EXTRACT = 'pto.textract ins(%s, %r, %c : T(s), index, index) outs(%d : T(d))';
const INSERT = 'pto.tinsert ins(%s, %r, %c : T(s), index, index) outs(%d : T(d))';
const SUBVIEW = 'pto.tsubview ins(%s, %r, %c : T(s), index, index) outs(%d : T(d))';

describe('textract', () => {
  test('copies the window at (indexRow, indexCol) into dst valid region, leaving dst padding alone', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 4 }),
        fc.integer({ min: 0, max: 8 }),
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 1, max: 8 }),
        (r0, c0, vr, vc) => {
          const s = iota('f32', 8, 16);
          const d: TileArg = { dtype: 'f32', rows: 4, cols: 8, data: Array(32).fill(-1), valid: [vr, vc] };
          const { out } = run(EXTRACT, { s, d }, { scalars: { r: BigInt(r0), c: BigInt(c0) } });
          for (let i = 0; i < 4; i++) {
            for (let j = 0; j < 8; j++) expect(out.d[i * 8 + j]).toBe(i < vr && j < vc ? (r0 + i) * 16 + (c0 + j) + 1 : -1);
          }
        },
      ),
      { numRuns: 25 },
    );
  });

  test('copies bits: a signalling NaN and -0 survive', () => {
    const s: TileArg = { dtype: 'f32', rows: 1, cols: 8, data: [], words: [0, 0, 0x7f800001, 0x80000000, 0, 0, 0, 0] };
    const d: TileArg = { dtype: 'f32', rows: 1, cols: 8, data: Array(8).fill(0), valid: [1, 2] };
    const { buffers } = run(EXTRACT, { s, d }, { scalars: { r: 0n, c: 2n } });
    const view = new DataView(buffers.d.bytes.buffer, buffers.d.bytes.byteOffset);
    expect([view.getUint32(0, true), view.getUint32(4, true), view.getUint32(8, true)]).toEqual([0x7f800001, 0x80000000, 0]);
  });

  test('npu: the window may reach src padding but not past its cols; cpu-sim: only its valid region', () => {
    const s = { ...iota('f32', 4, 8), valid: [4, 4] as [number, number] };
    const d: TileArg = { dtype: 'f32', rows: 1, cols: 8, data: Array(8).fill(0), valid: [1, 4] };
    expect(run(EXTRACT, { s, d }, { scalars: { r: 1n, c: 4n } }).out.d.slice(0, 4)).toEqual([13, 14, 15, 16]);
    expect(() => run(EXTRACT, { s, d }, { scalars: { r: 1n, c: 5n } })).toThrow("pto.textract: the 1x4 window at (1, 5) leaves src's rows x cols 4x8");
    expect(() => run(EXTRACT, { s, d }, { numerics: 'cpu-sim', scalars: { r: 1n, c: 4n } })).toThrow("the 1x4 window at (1, 4) leaves src's valid region 4x4");
  });
});

describe('tinsert', () => {
  test('writes src valid region at (indexRow, indexCol), nothing else', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 6 }),
        fc.integer({ min: 0, max: 8 }),
        fc.integer({ min: 1, max: 2 }),
        fc.integer({ min: 1, max: 8 }),
        (r0, c0, vr, vc) => {
          const s = { ...iota('f16', 2, 16, (k) => 1000 + k), valid: [vr, vc] as [number, number] };
          const d: TileArg = { dtype: 'f16', rows: 8, cols: 16, data: Array(128).fill(-7) };
          const { out } = run(INSERT, { s, d }, { scalars: { r: BigInt(r0), c: BigInt(c0) } });
          for (let i = 0; i < 8; i++) {
            for (let j = 0; j < 16; j++) {
              const inside = i >= r0 && i < r0 + vr && j >= c0 && j < c0 + vc;
              expect(out.d[i * 16 + j]).toBe(inside ? 1000 + (i - r0) * 16 + (j - c0) : -7);
            }
          }
        },
      ),
      { numRuns: 25 },
    );
  });

  test('a window past dst traps (npu: its rows x cols; cpu-sim: its valid region)', () => {
    const s = iota('u8', 2, 32);
    const d: TileArg = { dtype: 'u8', rows: 4, cols: 32, data: Array(128).fill(0), valid: [3, 32] };
    expect(() => run(INSERT, { s, d }, { scalars: { r: 3n, c: 0n } })).toThrow("pto.tinsert: the 2x32 window at (3, 0) leaves dst's rows x cols 4x32");
    expect(() => run(INSERT, { s, d }, { numerics: 'cpu-sim', scalars: { r: 2n, c: 0n } })).toThrow("leaves dst's valid region 3x32");
    expect(run(INSERT, { s, d }, { scalars: { r: 2n, c: 0n } }).out.d.slice(64, 68)).toEqual([1, 2, 3, 4]);
  });
});

describe('tsubview', () => {
  test('copies the window inside src valid region; outside it traps', () => {
    const s = { ...iota('f16', 4, 16), valid: [4, 12] as [number, number] };
    const d: TileArg = { dtype: 'f16', rows: 2, cols: 16, data: Array(32).fill(0), valid: [2, 4] };
    const { out } = run(SUBVIEW, { s, d }, { scalars: { r: 2n, c: 8n } });
    expect(out.d.slice(0, 4)).toEqual([41, 42, 43, 44]);
    expect(out.d.slice(16, 20)).toEqual([57, 58, 59, 60]);
    expect(out.d[4]).toBe(0);
    expect(() => run(SUBVIEW, { s, d }, { scalars: { r: 2n, c: 9n } })).toThrow("pto.tsubview: the 2x4 window at (2, 9) leaves src's valid region 4x12");
  });
});
