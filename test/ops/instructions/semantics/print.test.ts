/**
 * tprint: the printed text (spec/instructions/data-movement.json, format in docs/numerics.md), written out here
 * by hand, and printf's %8.4f reproduced for ties, signs and specials.
 */

/** Runs `line` with index scalars bound to the given values (see tile-kernel.ts); every tile's contents after. */
function run(line: string, tiles: Record<string, TileArg>, opts: { numerics?: Numerics; target?: 'a2a3' | 'a5'; scalars?: Record<string, bigint> } = {}) {
  const scalars = Object.fromEntries(Object.entries(opts.scalars ?? {}).map(([name, v]): [string, [string, Elem]] => [name, ['index', v]]));
  const { values, bytes, printed } = runKernel(line, tiles, { ...opts, scalars });
  return { out: values, printed, buffers: Object.fromEntries(Object.entries(bytes).map(([name, b]) => [name, { bytes: b }])) };
}

import { formatValue } from '../../../../src/ops/instructions/semantics/print';
import { Elem, Numerics, TileArg, runKernel } from './tile-kernel';

describe('tprint', () => {
  test('prints a header and every row, marking padding columns with | and padding rows with dashes', () => {
    const t: TileArg = { dtype: 'i32', rows: 3, cols: 8, data: Array.from({ length: 24 }, (_, k) => k - 3), valid: [2, 3] };
    const { printed, out } = run('pto.tprint ins(%t : T(t))', { t });
    const row = (from: number) =>
      [0, 1, 2].map((c) => String(from + c).padStart(8)).join(' ') + ' | ' + [3, 4, 5, 6, 7].map((c) => String(from + c).padStart(8)).join(' ');
    const lines = [row(-3), row(5)];
    expect(printed).toEqual([['tprint %t: loc=vec dtype=i32 rows=3 cols=8 valid=2x3', ...lines, '-'.repeat(lines[0].length), row(13)].join('\n') + '\n']);
    expect(out.t).toEqual(t.data); // printing changes nothing
  });

  test('floats as %8.4f: ties to even on the exact value, -0, nan, inf, huge values', () => {
    expect(formatValue(1.03125, true)).toBe('  1.0312');
    expect(formatValue(1.09375, true)).toBe('  1.0938');
    expect(formatValue(-1.03125, true)).toBe(' -1.0312');
    expect(formatValue(0.1, true)).toBe('  0.1000');
    expect(formatValue(-0, true)).toBe(' -0.0000');
    expect(formatValue(NaN, true)).toBe('     nan');
    expect(formatValue(-Infinity, true)).toBe('    -inf');
    expect(formatValue(3.4028234663852886e38, true)).toBe('340282346638528859811704183484516925440.0000');
    expect(formatValue(-7, false)).toBe('      -7');
  });

  test('printFormat width8_precision2 and width10_precision6: %8.2f / %10.6f, integers %8d / %10d', () => {
    const t: TileArg = { dtype: 'f32', rows: 1, cols: 8, data: [1.125, -0.375, 2, 0, 0, 0, 0, 0] };
    const two = run('pto.tprint ins(%t : T(t)) {printFormat = #pto<print_format width8_precision2>}', { t }).printed[0].split('\n')[1];
    // 1.125 is a tie at 2 decimals: to even, 1.12; -0.375 likewise -0.38 (7 is odd, so up).
    expect(two).toBe(['    1.12', '   -0.38', '    2.00', ...Array(5).fill('    0.00')].join(' '));
    const six = run('pto.tprint ins(%t : T(t)) {printFormat = #pto<print_format width10_precision6>}', { t }).printed[0].split('\n')[1];
    expect(six).toBe(['  1.125000', ' -0.375000', '  2.000000', ...Array(5).fill('  0.000000')].join(' '));
    expect(formatValue(-7, false, { width: 10, precision: 6 })).toBe('        -7');
  });
});
