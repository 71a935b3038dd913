import { OpDefinition } from '../ir/definition';
import { printType } from '../types/type';

/** What a kernel asks of the machine it runs on: which core it is, code sections per core kind, printing, stopping. */

/** `pto.get_block_idx` and friends: no operands, one i64 result (PTOAS writes no type). */
function coreQuery(name: string): OpDefinition {
  return {
    name,
    verify(v) {
      if (v.op.operands.length > 0) v.error(v.op.operands[0].span, `'${name}' takes no operands`);
      v.expectResults(1);
      v.define([{ kind: 'scalar', elem: 'i64' }]);
    },
  };
}

/** `pto.section.vector { ... }`: code for one kind of core, run in place. */
function section(name: string): OpDefinition {
  return {
    name,
    hasRegions: true,
    verify(v) {
      v.expectResults(0);
      for (const r of v.op.regions) v.region(r);
    },
  };
}

const printOp: OpDefinition = {
  name: 'pto.print',
  verify(v) {
    const t = v.operands[0];
    if (t && t.kind !== 'scalar') v.error(v.op.operands[0].span, `pto.print prints a scalar, not ${printType(t)}`);
    v.expectResults(0);
  },
};

const trapOp: OpDefinition = {
  name: 'pto.trap',
  verify(v) {
    if (v.op.operands.length > 0 || v.op.resultTypes.length > 0) v.error(v.op.span, "pto.trap takes no operands and gives no results: 'pto.trap'");
    v.expectResults(0);
  },
};

export const RUNTIME_DEFINITIONS: OpDefinition[] = [
  ...['pto.get_block_idx', 'pto.get_block_num', 'pto.get_subblock_idx', 'pto.get_subblock_num'].map(coreQuery),
  ...['pto.section.vector', 'pto.section.cube'].map(section),
  printOp,
  trapOp,
];
