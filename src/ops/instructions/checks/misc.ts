import { AttributeValue } from '../../define/attributes';
import { TileType, elemTypeName } from '../../../types/type';
import { CheckContext, InstructionCheck } from './context';

/**
 * The byte THISTOGRAM counts, 0 (bits 7..0) to 3 (bits 31..24): `byte` (default 1), or the legacy `isMSB`
 * (true = 1, false = 0), which PTOAS still reads and which wins when both agree.
 */
export function histogramByte(attribute: (name: string) => AttributeValue | undefined): number {
  const isMSB = attribute('isMSB');
  if (typeof isMSB === 'boolean') return isMSB ? 1 : 0;
  return Number(attribute('byte') ?? 1);
}

/**
 * THISTOGRAM's idx tile depends on the source (THistogramOp::verify): for u16 one match byte per row (DN, one
 * column, src's rows); for u32 one filter byte per upper byte already sorted, in the 3 - byte rows of a row-major
 * tile with src's columns. dst holds 256 bins per row.
 */
function thistogram(ctx: CheckContext): void {
  const isMSB = ctx.attributes.get('isMSB');
  const written = ctx.bound.written?.has('byte') ? Number(ctx.attributes.get('byte')) : undefined;
  if (typeof isMSB === 'boolean' && written !== undefined && written !== (isMSB ? 1 : 0)) {
    ctx.error(ctx.op.nameSpan, `byte = ${written} and the legacy isMSB = ${isMSB} (byte ${isMSB ? 1 : 0}) conflict`);
    return;
  }
  const byte = histogramByte((name) => ctx.attributes.get(name));
  const [src, idx, dst] = ['src', 'idx', 'dst'].map((n) => ctx.tiles.get(n));
  if (dst && dst.cols < 256) ctx.error(ctx.spanOf('dst'), `dst needs at least 256 columns (one per bin), not ${dst.cols}`);
  else if (dst && dst.vCol !== null && dst.vCol !== 0 && dst.vCol < 256)
    ctx.error(ctx.spanOf('dst'), `dst needs 0 or at least 256 valid columns (one per bin), not ${dst.vCol}`);
  if (!src || !idx || idx.dtype !== 'u8') return;
  if (src.dtype === 'u16') {
    if (byte > 1) ctx.error(ctx.op.nameSpan, `a ui16 src has two bytes: byte must be 0 or 1, not ${byte}`);
    if (idx.blayout !== 'col_major' || idx.cols !== 1 || (idx.vCol !== null && idx.vCol > 1)) {
      ctx.error(ctx.spanOf('idx'), 'with a ui16 src, idx must be DN (blayout=col_major, slayout=none_box) with one column: one match byte per row');
    } else if (idx.rows !== src.rows || (idx.vRow !== null && src.vRow !== null && idx.vRow !== src.vRow)) {
      ctx.error(
        ctx.spanOf('idx'),
        `idx needs a match byte for each row of src: ${src.rows} rows (${src.vRow ?? '?'} valid), not ${idx.rows} (${idx.vRow ?? '?'} valid)`,
      );
    }
  } else if (src.dtype === 'u32' && byte < 3) {
    if (idx.blayout !== 'row_major') ctx.error(ctx.spanOf('idx'), 'with a ui32 src, idx must be row-major: one row per filter byte');
    else filterRows(ctx, src, idx, 3 - byte);
  }
}

function filterRows(ctx: CheckContext, src: TileType, idx: TileType, rows: number): void {
  if (idx.rows !== rows || (idx.vRow !== null && idx.vRow !== 0 && idx.vRow !== rows))
    ctx.error(ctx.spanOf('idx'), `byte ${3 - rows} of a ui32 src filters by the ${rows} byte(s) above it: idx must have ${rows} row(s), not ${idx.rows}`);
  if (idx.cols !== src.cols || (idx.vCol !== null && src.vCol !== null && idx.vCol !== src.vCol))
    ctx.error(ctx.spanOf('idx'), `idx must have as many columns (and valid columns) as src (${src.cols}), not ${idx.cols}`);
}

/** TRANDOM's six words: the key (2) and the counter (4), each a 32-bit integer. */
const WORDS = ['key0', 'key1', 'counter0', 'counter1', 'counter2', 'counter3'];

function trandom(ctx: CheckContext): void {
  const rounds = ctx.attributes.get('rounds');
  if (rounds !== 7 && rounds !== 10) ctx.error(ctx.op.nameSpan, `rounds must be 7 or 10, not ${rounds}`);
  for (const name of WORDS) {
    const type = ctx.bound.operands.get(name)?.type;
    if (type?.kind === 'scalar' && type.elem !== 'i32' && type.elem !== 'u32')
      ctx.error(ctx.spanOf(name), `${name} must be an i32 or ui32 word, not ${elemTypeName(type.elem)}`);
  }
}

export const checks: Record<string, InstructionCheck> = { 'pto.thistogram': thistogram, 'pto.trandom': trandom };
