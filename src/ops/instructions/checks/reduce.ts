import { attrOf } from '../../../syntax/ast';
import { elemSize } from '../../../types/type';
import { InstructionCheck } from './context';
import { scratchHolds } from './scratch';

/**
 * TCOLSUM (TColSumOp::verify): a tmp comes with a written isBinary; isBinary = true without one is accepted (PTOAS
 * plans the scratch itself), and with one it holds the first halving step, ceil(src valid rows / 2) rows.
 */
const tcolsum: InstructionCheck = (ctx) => {
  const src = ctx.tiles.get('src');
  if (!ctx.tiles.has('tmp')) return;
  if (!attrOf(ctx.op, 'isBinary')) {
    ctx.error(ctx.spanOf('tmp'), 'a tmp tile needs the isBinary attribute (isBinary = true: pairwise sums in tmp; false: tmp unused)');
    return;
  }
  if (ctx.attributes.get('isBinary') !== true || !src || src.vRow === null || src.vCol === null) return;
  const rows = Math.ceil(src.vRow / 2);
  scratchHolds(ctx, 'tmp', rows * src.vCol * elemSize(src.dtype), `the first pairwise step (${rows} rows of ${src.vCol} elements)`);
};

/** Rules beyond the tables, by op name (`pto.NAME`). */
export const checks: Record<string, InstructionCheck> = { 'pto.tcolsum': tcolsum };
