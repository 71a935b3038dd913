import { OpDefinition, OpVerifier } from '../../ir/definition';
import { BoundOp, decided } from '../../ir/bound';
import { isScalarOf, printType } from '../../types/type';

/** Unstructured control flow (MLIR's cf dialect): branches between the blocks of one region. */

/** Checks each successor of a branch against its block; decides the blocks' indices. */
function verifySuccessors(v: OpVerifier): void {
  const { op } = v;
  const targets = (op.successors ?? []).map((s) => {
    const block = v.successor(s.label);
    if (!block) {
      v.error(s.span, `${op.name}: no block ${s.label} in this region`);
      return -1;
    }
    const types = s.operands.map((i) => v.operands[i]);
    if (types.length !== block.argTypes.length) {
      v.error(s.span, `${op.name}: ${s.label} takes ${block.argTypes.length} argument(s), but the branch hands it ${types.length}`);
      return block.index;
    }
    types.forEach((t, k) => {
      const want = block.argTypes[k];
      if (t && want && printType(t) !== printType(want))
        v.error(op.operands[s.operands[k]].span, `${op.name}: argument ${k} of ${s.label} is ${printType(want)}, but the branch hands it ${printType(t)}`);
    });
    return block.index;
  });
  v.expectResults(0);
  v.define([]);
  v.decide(targets);
}

/** Where a branch goes through its successor `k`: the block and the values of that successor's operands. */
function take(x: Parameters<NonNullable<OpDefinition['branch']>>[0], op: BoundOp, k: number) {
  return { block: decided<number[]>(op)[k], args: op.node.successors![k].operands.map((i) => x.operand(op, i)) };
}

const brOp: OpDefinition = {
  name: 'cf.br',
  syntax: 'CfBrBody',
  terminator: 'branch',
  verify: verifySuccessors,
  branch: (x, op) => take(x, op, 0),
};

const condBrOp: OpDefinition = {
  name: 'cf.cond_br',
  syntax: 'CfCondBrBody',
  terminator: 'branch',
  verify(v) {
    if (!isScalarOf(v.operands[0], ['i1'])) v.error(v.op.operands[0].span, 'cf.cond_br condition must be i1');
    verifySuccessors(v);
  },
  branch: (x, op) => take(x, op, x.int(op, 0) !== 0n ? 0 : 1),
};

export const CF_DEFINITIONS: OpDefinition[] = [brOp, condBrOp];
