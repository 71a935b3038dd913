import { elemTypeName } from '../../../types/type';
import { Tile } from '../../../machine/memory';
import { InstructionContext, SemanticsModule } from './context';

/** Width of each printed value: the device's default PrintFormat (Width8_Precision4: %8.4f, %8d). */
const WIDTH = 8;
const PRECISION = 4;

/**
 * TPRINT. One header line (operand, location, dtype, shape, valid region), then one line per tile
 * row. Every element is printed; a ' |' separates the padding columns from the valid ones and a
 * line of dashes the padding rows, as the device's TPRINT marks a partial valid region.
 */
export function print(ctx: InstructionContext): void {
  const src = ctx.tile('src');
  const name = ctx.bound.operands.get('src')?.use?.value?.name ?? 'src';
  ctx.print(formatTile(name, src));
}

export function formatTile(name: string, tile: Tile): string {
  const t = tile.type;
  const lines = [`tprint ${name}: loc=${t.loc} dtype=${elemTypeName(t.dtype)} rows=${t.rows} cols=${t.cols} valid=${tile.vRow}x${tile.vCol}`];
  for (let r = 0; r < t.rows; r++) {
    const cells: string[] = [];
    for (let c = 0; c < t.cols; c++) cells.push((c === tile.vCol && c > 0 ? '| ' : '') + formatValue(tile.get(r, c), tile.codec.isFloat));
    if (r === tile.vRow && r > 0) lines.push('-'.repeat(cells.join(' ').length));
    lines.push(cells.join(' '));
  }
  return lines.join('\n') + '\n';
}

/** printf's %8.4f / %8d, in JavaScript: NaN and infinities as C prints them, -0 keeps its sign. */
export function formatValue(v: number | bigint, isFloat: boolean): string {
  if (!isFloat) return String(v).padStart(WIDTH);
  const x = Number(v);
  if (Number.isNaN(x)) return 'nan'.padStart(WIDTH);
  const sign = x < 0 || Object.is(x, -0) ? '-' : '';
  if (!Number.isFinite(x)) return (sign + 'inf').padStart(WIDTH);
  return (sign + fixedDigits(Math.abs(x))).padStart(WIDTH);
}

/**
 * |x| with PRECISION decimals, rounded half to even on the exact value as glibc's printf does
 * (toFixed rounds ties up). Tile elements are at most f32, whose ties at 4 decimals are exact
 * within 20 decimals, so toFixed(20) decides them.
 */
function fixedDigits(x: number): string {
  if (x >= 1e21) return BigInt(x).toString() + '.' + '0'.repeat(PRECISION); // an integer; toFixed would switch to exponents
  const [int, frac] = x.toFixed(20).split('.');
  const kept = BigInt(int + frac.slice(0, PRECISION));
  const rest = frac.slice(PRECISION);
  const half = '5'.padEnd(rest.length, '0');
  const up = rest > half || (rest === half && kept % 2n === 1n);
  const digits = (up ? kept + 1n : kept).toString().padStart(PRECISION + 1, '0');
  return digits.slice(0, -PRECISION) + '.' + digits.slice(-PRECISION);
}

export const module: SemanticsModule = { semantics: { print } };
