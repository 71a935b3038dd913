/**
 * tfillpad, tfillpad_expand, tfillpad_inplace (spec/instructions/data-movement.json): the expected tiles are
 * built here from the manual's formula and the two implementations' fill regions (a5 TFillPad.hpp, cpu
 * TFillPad.hpp), with the pad values written out by hand.
 */
import { ElemType } from '../../../../src/types/type';
import { Elem, Numerics, TileArg, runKernel } from './tile-kernel';
import { codec } from '../../../../src/numerics/elements';

/** Runs `line` with index scalars bound to the given values (see tile-kernel.ts); every tile's contents after. */
function run(
  line: string,
  tiles: Record<string, TileArg>,
  opts: { numerics?: Numerics; target?: 'a2a3' | 'a5'; backend?: 'emitc' | 'vpto'; scalars?: Record<string, bigint> } = {},
) {
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

const FILL = 'pto.tfillpad ins(%s : T(s)) outs(%d : T(d))';

/** The expected dst: src inside src's valid region, `pad` at padding positions, `old` elsewhere. */
function expected(
  rows: number,
  cols: number,
  src: (r: number, c: number) => Elem,
  valid: [number, number],
  isPad: (r: number, c: number) => boolean,
  pad: Elem,
  old: Elem,
): Elem[] {
  const out: Elem[] = [];
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) out.push(r < valid[0] && c < valid[1] ? src(r, c) : isPad(r, c) ? pad : old);
  return out;
}

describe('tfillpad', () => {
  const s = { ...iota('f32', 4, 8), valid: [2, 3] as [number, number] };
  const srcValue = (r: number, c: number) => r * 8 + c + 1;

  test('npu: pads right of src valid cols in src rows, then whole rows down to dst valid rows; rows below stay', () => {
    const d: TileArg = { dtype: 'f32', rows: 4, cols: 8, data: Array(32).fill(7), valid: [3, 8], pad: 'min' };
    const { out } = run(FILL, { s, d });
    expect(out.d).toEqual(expected(4, 8, srcValue, [2, 3], (r) => r < 3, -Infinity, 7));
  });

  test('npu: a dst with more rows and cols than src (PTOAS infers the expanding form) pads out to its cols', () => {
    // src 2x8 = 1..16 (valid 2x8), dst 3x16 of 9s (valid 3x16, pad zero): rows 0 and 1 are src's row then eight
    // zeros, row 2 is all zeros.
    const src: TileArg = { dtype: 'f32', rows: 2, cols: 8, data: Array.from({ length: 16 }, (_, k) => k + 1) };
    const d: TileArg = { dtype: 'f32', rows: 3, cols: 16, data: Array(48).fill(9), pad: 'zero' };
    const { out } = run(FILL, { s: src, d });
    const zeros = (n: number) => Array(n).fill(0);
    expect(out.d).toEqual([1, 2, 3, 4, 5, 6, 7, 8, ...zeros(8), 9, 10, 11, 12, 13, 14, 15, 16, ...zeros(8), ...zeros(16)]);
  });

  test('cpu-sim: pads every other element of the dst tile', () => {
    const d: TileArg = { dtype: 'f32', rows: 4, cols: 8, data: Array(32).fill(7), valid: [3, 8], pad: 'max' };
    const { out } = run(FILL, { s, d }, { numerics: 'cpu-sim' });
    expect(out.d).toEqual(expected(4, 8, srcValue, [2, 3], () => true, Infinity, 7));
  });

  test('pad values per dtype and profile: integer limits, f16 infinities (0 under cpu-sim), zero', () => {
    const cases: [ElemType, string, Elem, Elem][] = [
      ['i8', 'min', -128, -128],
      ['u16', 'max', 65535, 65535],
      ['i32', 'max', 2147483647, 2147483647],
      ['u32', 'min', 0, 0],
      ['f16', 'max', Infinity, 0],
      ['f16', 'min', -Infinity, 0],
      ['bf16', 'zero', 0, 0],
    ];
    for (const [dtype, pad, npu, sim] of cases) {
      const cols = 32 / codec(dtype).size;
      const src = { ...iota(dtype, 1, cols), valid: [1, 1] as [number, number] };
      const dst: TileArg = { dtype, rows: 1, cols, data: Array(cols).fill(5), pad };
      expect([dtype, pad, run(FILL, { s: src, d: dst }).out.d[1]]).toEqual([dtype, pad, npu]);
      expect([dtype, pad, run(FILL, { s: src, d: dst }, { numerics: 'cpu-sim' }).out.d[1]]).toEqual([dtype, pad, sim]);
    }
  });

  test("PTOAS's vpto back end pads floats with their finite extremes (its TileLang template), not infinities", () => {
    // FLT_MAX = (2 - 2^-23) * 2^127; f16's largest finite is 65504; bf16's is 0x7f7f = (2 - 2^-7) * 2^127.
    const FLT_MAX = (2 - 2 ** -23) * 2 ** 127;
    const BF16_MAX = (2 - 2 ** -7) * 2 ** 127;
    const cases: [ElemType, string, Elem][] = [
      ['f32', 'max', FLT_MAX],
      ['f32', 'min', -FLT_MAX],
      ['f16', 'max', 65504],
      ['f16', 'min', -65504],
      ['bf16', 'max', BF16_MAX],
      ['i16', 'min', -32768],
      ['u8', 'max', 255],
    ];
    for (const [dtype, pad, want] of cases) {
      const cols = 32 / codec(dtype).size;
      const src = { ...iota(dtype, 1, cols), valid: [1, 1] as [number, number] };
      const dst: TileArg = { dtype, rows: 1, cols, data: Array(cols).fill(5), pad };
      expect([dtype, pad, run(FILL, { s: src, d: dst }, { backend: 'vpto' }).out.d[1]]).toEqual([dtype, pad, want]);
    }
    // The emitc back end (pto-isa's PadValueMap) pads f32 Max with +inf.
    const src = { ...iota('f32', 1, 8), valid: [1, 1] as [number, number] };
    expect(run(FILL, { s: src, d: { dtype: 'f32', rows: 1, cols: 8, data: Array(8).fill(5), pad: 'max' } }).out.d[1]).toBe(Infinity);
  });

  test('a custom pad writes its bit pattern', () => {
    const src = { ...iota('f32', 1, 8), valid: [1, 2] as [number, number] };
    const dst: TileArg = { dtype: 'f32', rows: 1, cols: 8, data: Array(8).fill(0), pad: '0x1bf800000' };
    expect(run(FILL, { s: src, d: dst }).out.d.slice(0, 4)).toEqual([1, 2, -1, -1]);
  });
});

describe('tfillpad_expand and tfillpad_inplace', () => {
  test('expand: a larger dst gets src top-left and the pad elsewhere (npu, dst fully valid)', () => {
    const s = { ...iota('i16', 2, 16), valid: [2, 5] as [number, number] };
    const d: TileArg = { dtype: 'i16', rows: 4, cols: 32, data: Array(128).fill(9), pad: 'zero' };
    const { out } = run('pto.tfillpad_expand ins(%s : T(s)) outs(%d : T(d))', { s, d });
    expect(out.d).toEqual(
      expected(
        4,
        32,
        (r, c) => r * 16 + c + 1,
        [2, 5],
        () => true,
        0,
        9,
      ),
    );
  });

  test('inplace: only the padding of the one tile is written; separate tiles trap', () => {
    const t: TileArg = { ...iota('u8', 2, 32), valid: [1, 4], pad: 'max' };
    const { out } = run('pto.tfillpad_inplace ins(%t : T(t)) outs(%t : T(t))', { t });
    // npu: row 0 right of the 4 valid cols is padded; row 1 lies below dst's valid rows and keeps its data.
    expect(out.t).toEqual([1, 2, 3, 4, ...Array(28).fill(255), ...t.data!.slice(32)]);
    const sim = run('pto.tfillpad_inplace ins(%t : T(t)) outs(%t : T(t))', { t }, { numerics: 'cpu-sim' }).out;
    expect(sim.t).toEqual([1, 2, 3, 4, ...Array(60).fill(255)]);
    const other: TileArg = { ...t, data: Array(64).fill(0) };
    expect(() => run('pto.tfillpad_inplace ins(%t : T(t)) outs(%o : T(o))', { t, o: other })).toThrow(
      'pto.tfillpad_inplace: dst and src must be the same tile storage',
    );
  });
});
