import { elemTypeName } from '../../../types/type';
import { Tile } from '../../../machine/memory';
import { InstructionContext, SemanticsModule } from './context';

/** The device's PrintFormat: the printf width and float precision (default Width8_Precision4: %8.4f, %8d). */
export interface PrintFormat {
  width: number;
  precision: number;
}
const FORMATS: Record<string, PrintFormat> = {
  width8_precision4: { width: 8, precision: 4 },
  width8_precision2: { width: 8, precision: 2 },
  width10_precision6: { width: 10, precision: 6 },
};
const DEFAULT_FORMAT = FORMATS.width8_precision4;

/**
 * TPRINT. One header line (operand, location, dtype, shape, valid region), then one line per tile
 * row. Every element is printed; a ' |' separates the padding columns from the valid ones and a
 * line of dashes the padding rows, as the device's TPRINT marks a partial valid region.
 */
export function print(ctx: InstructionContext): void {
  const src = ctx.tile('src');
  const name = ctx.bound.operands.get('src')?.use?.value?.name ?? 'src';
  ctx.print(() => formatTile(name, src, FORMATS[String(ctx.attribute('printFormat'))] ?? DEFAULT_FORMAT));
}

export function formatTile(name: string, tile: Tile, format: PrintFormat = DEFAULT_FORMAT): string {
  const t = tile.type;
  const lines = [`tprint ${name}: loc=${t.loc} dtype=${elemTypeName(t.dtype)} rows=${t.rows} cols=${t.cols} valid=${tile.vRow}x${tile.vCol}`];
  for (let r = 0; r < t.rows; r++) {
    const cells: string[] = [];
    for (let c = 0; c < t.cols; c++) cells.push((c === tile.vCol && c > 0 ? '| ' : '') + formatValue(tile.get(r, c), tile.codec.isFloat, format));
    if (r === tile.vRow && r > 0) lines.push('-'.repeat(cells.join(' ').length));
    lines.push(cells.join(' '));
  }
  return lines.join('\n') + '\n';
}

/** printf's %W.Pf / %Wd, in JavaScript: NaN and infinities as C prints them, -0 keeps its sign. */
export function formatValue(v: number | bigint, isFloat: boolean, format: PrintFormat = DEFAULT_FORMAT): string {
  const { width, precision } = format;
  if (!isFloat) return String(v).padStart(width);
  const x = Number(v);
  if (Number.isNaN(x)) return 'nan'.padStart(width);
  const sign = x < 0 || Object.is(x, -0) ? '-' : '';
  if (!Number.isFinite(x)) return (sign + 'inf').padStart(width);
  return (sign + fixedDigits(Math.abs(x), precision)).padStart(width);
}

/**
 * |x| with `precision` decimals, rounded half to even on the exact value as glibc's printf does
 * (toFixed rounds ties up). Tile elements are at most f32, whose ties at 4 decimals are exact
 * within 20 decimals, so toFixed(20) decides them.
 */
function fixedDigits(x: number, precision: number): string {
  if (x >= 1e21) return BigInt(x).toString() + '.' + '0'.repeat(precision); // an integer; toFixed would switch to exponents
  const [int, frac] = x.toFixed(20).split('.');
  const kept = BigInt(int + frac.slice(0, precision));
  const rest = frac.slice(precision);
  const half = '5'.padEnd(rest.length, '0');
  const up = rest > half || (rest === half && kept % 2n === 1n);
  const digits = (up ? kept + 1n : kept).toString().padStart(precision + 1, '0');
  return digits.slice(0, -precision) + '.' + digits.slice(-precision);
}

export const module: SemanticsModule = { semantics: { print } };
