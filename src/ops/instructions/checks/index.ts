import { InstructionCheck } from './context';
import * as compare from './compare';
import * as convert from './convert';
import * as cube from './cube';
import * as elementwise from './elementwise';
import * as expand from './expand';
import * as gather from './gather';
import * as generate from './generate';
import * as globalGather from './global-gather';
import * as misc from './misc';
import * as extractInsert from './extract-insert';
import * as movement from './movement';
import * as quant from './quant';
import * as reduce from './reduce';
import * as sort from './sort';
import * as tmpContracts from './tmp-contracts';

/** Instruction checks beyond the tables, one module per family; an op name appears in one module only. */
export const INSTRUCTION_CHECKS: Record<string, InstructionCheck> = merge(
  [compare, convert, cube, elementwise, expand, extractInsert, gather, generate, globalGather, misc, movement, quant, reduce, sort, tmpContracts].map(
    (m) => m.checks,
  ),
);

function merge(tables: Record<string, InstructionCheck>[]): Record<string, InstructionCheck> {
  const all: Record<string, InstructionCheck> = {};
  for (const t of tables) {
    for (const [name, check] of Object.entries(t)) {
      if (all[name]) throw new Error(`ops/instructions/checks: ${name} has two checks`);
      all[name] = check;
    }
  }
  return all;
}
