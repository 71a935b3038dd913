import { TileType } from '../../../types/type';
import { CheckContext, InstructionCheck } from './context';

/** The byte THISTOGRAM counts: BYTE_0 (bits 7..0) to BYTE_3 (bits 31..24). */
export function histogramByte(value: unknown): number {
  return Number(String(value).slice('BYTE_'.length));
}

/**
 * THISTOGRAM's idx tile depends on the source: for u16 one match byte per row (DN, one column); for u32 one
 * filter byte per upper byte already sorted, in rows 0.. of a row-major tile with src's columns (the A5
 * static_asserts: exactly 3 - byte rows).
 */
function thistogram(ctx: CheckContext): void {
  const src = ctx.tiles.get('src');
  const idx = ctx.tiles.get('idx');
  if (!src || !idx || idx.dtype !== 'u8') return;
  const byte = histogramByte(ctx.attributes.get('byte'));
  if (src.dtype === 'u16') {
    if (byte > 1) ctx.error(ctx.op.nameSpan, `a ui16 src has two bytes: byte must be BYTE_0 or BYTE_1, not BYTE_${byte}`);
    if (idx.blayout !== 'col_major' || idx.cols !== 1) {
      ctx.error(ctx.spanOf('idx'), 'with a ui16 src, idx must be DN (blayout=col_major, slayout=none_box) with one column: one match byte per row');
    } else if (idx.vRow !== null && src.vRow !== null && idx.vRow < src.vRow) {
      ctx.error(ctx.spanOf('idx'), `idx needs a match byte for each of src's ${src.vRow} valid rows, but has ${idx.vRow}`);
    }
  } else if (src.dtype === 'u32') {
    if (idx.blayout !== 'row_major') ctx.error(ctx.spanOf('idx'), 'with a ui32 src, idx must be row-major: one row per filter byte');
    else if (byte < 3) filterRows(ctx, src, idx, 3 - byte);
  }
}

function filterRows(ctx: CheckContext, src: TileType, idx: TileType, rows: number): void {
  if (idx.rows !== rows)
    ctx.error(ctx.spanOf('idx'), `byte BYTE_${3 - rows} of a ui32 src filters by the ${rows} byte(s) above it: idx must have ${rows} row(s), not ${idx.rows}`);
  if (idx.cols !== src.cols) ctx.error(ctx.spanOf('idx'), `idx must have as many columns as src (${src.cols}), not ${idx.cols}`);
}

/** The 32-bit words TRANDOM reads from a tile operand: the key's first 2, the counter's first 4 (row 0). */
const WORDS: Record<string, number> = { key: 2, counter: 4 };

function trandom(ctx: CheckContext): void {
  const rounds = ctx.attributes.get('rounds');
  if (rounds !== 7 && rounds !== 10) ctx.error(ctx.op.nameSpan, `rounds must be 7 or 10, not ${rounds}`);
  for (const [name, words] of Object.entries(WORDS)) {
    const tile = ctx.tiles.get(name);
    if (!tile) continue;
    if (tile.dtype !== 'u32' && tile.dtype !== 'i32')
      ctx.error(ctx.spanOf(name), `${name} must be a ui32 or i32 tile (its first ${words} elements are the ${name} words)`);
    else if (tile.vCol !== null && tile.vCol < words) ctx.error(ctx.spanOf(name), `${name} needs ${words} valid elements in row 0, but has ${tile.vCol}`);
  }
}

export const checks: Record<string, InstructionCheck> = { 'pto.thistogram': thistogram, 'pto.trandom': trandom };
