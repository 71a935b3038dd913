import { decided } from '../ir/bound';
import { CoreIndex, OpDefinition } from '../ir/definition';
import { vmTrap } from '../machine/trap';
import { formatScalar } from './print-format';
import { attrOf } from '../syntax/ast';
import { printType } from '../types/type';

/** What a kernel asks of the machine it runs on: which core it is, code sections per core kind, printing, stopping. */

/** `pto.get_block_idx` and friends: no operands, one i64 result (PTOAS writes no type). */
function coreQuery(name: string, read: (core: CoreIndex) => number): OpDefinition {
  return {
    name,
    execute: (x, op) => x.setResults(op, [BigInt(read(x.core))]),
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
    syntax: 'SectionBody',
    hasRegions: true,
    verify(v) {
      v.expectResults(0);
      for (const r of v.op.regions) v.region(r);
    },
    execute(x, op) {
      x.runRegion(op.regions[0], []);
    },
  };
}

const printOp: OpDefinition = {
  name: 'pto.print',
  syntax: 'PrintBody',
  verify(v) {
    const t = v.operands[0];
    if (t && t.kind !== 'scalar') v.error(v.op.operands[0].span, `pto.print prints a scalar, not ${printType(t)}`);
    v.expectResults(0);
    const format = attrOf(v.op, 'format');
    v.decide(format?.kind === 'string' ? format.value : '');
  },
  execute(x, op) {
    x.print(formatScalar(decided<string>(op), x.operand(op, 0) as number | bigint, op.node));
  },
};

const trapOp: OpDefinition = {
  name: 'pto.trap',
  verify(v) {
    if (v.op.operands.length > 0 || v.op.resultTypes.length > 0) v.error(v.op.span, "pto.trap takes no operands and gives no results: 'pto.trap'");
    v.expectResults(0);
  },
  execute(_x, op) {
    throw vmTrap('pto.trap: the program stopped itself', op.node.nameSpan);
  },
};

export const RUNTIME_DEFINITIONS: OpDefinition[] = [
  coreQuery('pto.get_block_idx', (core) => core.block),
  coreQuery('pto.get_block_num', (core) => core.blocks),
  coreQuery('pto.get_subblock_idx', (core) => core.subblock),
  coreQuery('pto.get_subblock_num', (core) => core.subblocks),
  ...['pto.section.vector', 'pto.section.cube'].map(section),
  printOp,
  trapOp,
];
