import { a2a3FormulaCost, a2a3MatmulCost } from './a2a3-formula';
import { a5FormulaCost } from './a5-formula';
import { OpCost, TileOpInput } from './cost';

/**
 * The cost of one tile op on its pipe, from pto-isa's tables for the op's target. An op the tables do not cover
 * gets no number: its cost says "no data" and why, and a caller must not read it as zero.
 */
export function tileOpCost(input: TileOpInput): OpCost {
  if (input.op === 'TMATMUL') {
    return input.arch === 'a2a3' ? a2a3MatmulCost(input) : { kind: 'no-data', pipe: 'cube', reason: 'pto-isa has no A5 cube formula' };
  }
  return input.arch === 'a5' ? a5FormulaCost(input) : a2a3FormulaCost(input);
}
