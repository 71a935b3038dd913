import { BoundOp, BoundRegion } from '../../ir/bound';
import { OpDefinition } from '../../ir/definition';
import { Program } from '../../ir/program';
import { OpNode } from '../../syntax/ast';
import type { MicroOpRowData } from '../../spec/micro-schema';
import { microRowOf } from '../definitions';

/**
 * What a pass check knows of an op it asks the op's definition, as verification bound it (terminator, control flow,
 * properties, fold), never the op's name: the checks run on verified programs, where every op of a function body is
 * bound and every function (a declaration too) is a bound function.
 */

const bound = new WeakMap<Program, Map<OpNode, BoundOp>>();

/** Each op of the program's function bodies by its AST node, as verification bound it (its definition, its types). */
export function boundOps(program: Program): ReadonlyMap<OpNode, BoundOp> {
  let ops = bound.get(program);
  if (ops) return ops;
  ops = new Map();
  const walk = (region: BoundRegion | undefined): void => {
    for (const op of region?.blocks.flatMap((b) => b.ops) ?? []) {
      ops!.set(op.node, op);
      op.regions.forEach(walk);
    }
  };
  for (const fn of program.bound.functions.values()) walk(fn.body);
  bound.set(program, ops);
  return ops;
}

/** The definition of an op of the program's function bodies. */
export const definitionOf = (program: Program, op: OpNode): OpDefinition | undefined => boundOps(program).get(op)?.def;

/** The spec/micro row of a micro op of the program's function bodies, which its definition was made from. */
export const microRow = (program: Program, op: OpNode): MicroOpRowData | undefined => microRowOf(definitionOf(program, op));

/** Whether `op` is a function (`func.func`): the verifier binds each. */
export const isFunction = (program: Program, op: OpNode): boolean => program.bound.functions.has(op);

/**
 * The integer value of an op without operands that folds (an integer `arith.constant`), as its definition's fold
 * gives it; undefined for anything else.
 */
export function foldedConstant(program: Program, op: OpNode | undefined): bigint | undefined {
  const b = op && op.operands.length === 0 ? boundOps(program).get(op) : undefined;
  return b?.def.fold?.([], b.resultTypes[0], op!);
}
