import { a2a3FormulaCost, a2a3MatmulCost } from './a2a3-formula';
import { a2a3InstructionCost } from './a2a3-instructions';
import { a5FormulaCost } from './a5-formula';
import { a5VfBodyCost } from './a5-vf-bodies';
import { noData, OpCost, TileOpInput } from './cost';

/**
 * The cost of one tile op on its pipe, from pto-isa's tables for the op's target. An op the tables do not cover
 * gets no number: its cost says "no data" and why, and a caller must not read it as zero.
 */
export function tileOpCost(input: TileOpInput): OpCost {
  if (input.op === 'TMATMUL') {
    return input.arch === 'a2a3' ? a2a3MatmulCost(input) : { kind: 'no-data', pipe: 'cube', reason: 'pto-isa has no A5 cube formula' };
  }
  return input.arch === 'a5' ? a5Cost(input) : a2a3Cost(input);
}

/**
 * A5: pto-isa's fitted curve where it has one (the datapoints it was fitted on are hardware's); else the vector
 * function pto-isa's implementation issues, priced by VfSim's tables (a5-vf-bodies.ts), as pto-isa's own A5 cost
 * model prices an op from its recorded body; else no data, with both reasons.
 */
function a5Cost(input: TileOpInput): OpCost {
  const curve = a5FormulaCost(input);
  if (curve.kind === 'cycles') return curve;
  const body = a5VfBodyCost(input);
  if (body.kind === 'cycles') return body;
  return noData(`${curve.reason}; ${body.reason}`, 'vector');
}

/**
 * A2/A3: the formula table's curve fitted for the op's own dtype and width where it has one (it is the closer of
 * pto-isa's two models there); else pto-isa's instruction-level model (a2a3-instructions.ts); else the table's
 * dtype-blind rows (TEXP, TSQRT: fitted on f32, up to 1.6x too slow for f16).
 */
function a2a3Cost(input: TileOpInput): OpCost {
  const fitted = a2a3FormulaCost(input, { dtypeBlindRows: false });
  if (fitted.kind === 'cycles') return fitted;
  const instructions = a2a3InstructionCost(input);
  return instructions.kind === 'cycles' ? instructions : a2a3FormulaCost(input);
}
