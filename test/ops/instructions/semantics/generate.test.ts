/** TCI and TTRI on the VM; expected values from the manual's formulas, computed here. */
import { runTiles } from './tile-kernel';

describe('tci', () => {
  const line = (descending: boolean) => `pto.tci ins(%s {descending = ${descending}} : i32) outs(%d : T(d))`;
  test.each(['npu', 'cpu-sim'] as const)('ascending and descending over the valid columns; padding untouched (%s)', (numerics) => {
    const d = { dtype: 'i32' as const, rows: 1, cols: 16, data: Array(16).fill(99), valid: [1, 5] as [number, number] };
    expect(runTiles(line(false), { d }, { numerics, scalars: { s: ['i32', 7n] } }).d).toEqual([7, 8, 9, 10, 11, ...Array(11).fill(99)]);
    expect(runTiles(line(true), { d }, { numerics, scalars: { s: ['i32', 1n] } }).d).toEqual([1, 0, -1, -2, -3, ...Array(11).fill(99)]);
  });
  test('values wrap in the dst type', () => {
    const d = { dtype: 'u16' as const, rows: 1, cols: 16, valid: [1, 3] as [number, number] };
    expect(runTiles(line(false), { d }, { scalars: { s: ['i32', 65534n] } }).d.slice(0, 3)).toEqual([65534, 65535, 0]);
    expect(runTiles(line(true), { d }, { scalars: { s: ['i32', 1n] } }).d.slice(0, 3)).toEqual([1, 0, 65535]);
  });
});

describe('ttri', () => {
  // PTOAS e32488c9 spells the side {upperOrLower = 1 : i32} (its lit ttri cases); the VM used to ignore it and
  // compute the lower triangle. Diagonal 1, 1 x 8: upper (pto-isa A5 TTriu: the first i + 1 of row i are 0) gives
  // 0 1 1 1 1 1 1 1, lower 1 1 0 0 0 0 0 0.
  test.each([
    [1, [0, 1, 1, 1, 1, 1, 1, 1]],
    [0, [1, 1, 0, 0, 0, 0, 0, 0]],
  ])("PTOAS's upperOrLower = %d", (side, expected) => {
    const out = runTiles(
      `pto.ttri ins(%k {upperOrLower = ${side} : i32} : i32) outs(%d : T(d))`,
      { d: { dtype: 'i32', rows: 1, cols: 8 } },
      {
        scalars: { k: ['i32', 1n] },
      },
    );
    expect(out.d).toEqual(expected);
  });

  const line = (upper: boolean) => `pto.ttri ins(%k : i32) outs(%d : T(d)) {upper = ${upper}}`;
  const reference = (upper: boolean, k: number, rows: number, cols: number, valid: [number, number], pad: number) =>
    Array.from({ length: rows * cols }, (_, n) => {
      const [i, j] = [Math.floor(n / cols), n % cols];
      if (i >= valid[0] || j >= valid[1]) return pad;
      return upper ? (j < i + k ? 0 : 1) : j <= i + k ? 1 : 0;
    });
  test.each([
    [false, 0],
    [false, -1],
    [false, 3],
    [true, 0],
    [true, -1],
    [true, 2],
  ])('upper = %s, diagonal %d, f32 4 x 8 tile with a 3 x 6 valid region', (upper, k) => {
    const out = runTiles(
      line(upper),
      { d: { dtype: 'f32', rows: 4, cols: 8, data: Array(32).fill(5), valid: [3, 6] } },
      { scalars: { k: ['i32', BigInt(k)] } },
    );
    expect(out.d).toEqual(reference(upper, k, 4, 8, [3, 6], 5));
  });
  test('lower, diagonal 0, by hand on i16', () => {
    const out = runTiles(line(false), { d: { dtype: 'i16', rows: 3, cols: 16, valid: [3, 3] } }, { scalars: { k: ['i32', 0n] } });
    expect([0, 1, 2].map((r) => out.d.slice(r * 16, r * 16 + 3))).toEqual([
      [1, 0, 0],
      [1, 1, 0],
      [1, 1, 1],
    ]);
  });
});
