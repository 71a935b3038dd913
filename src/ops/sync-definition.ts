import { Executor, OpDefinition } from '../ir/definition';
import { BoundOp } from '../ir/bound';
import { vmTrap } from '../machine/trap';
import { SyncOpSpec, syncTables } from '../spec/sync';
import { verifySyncOp } from './sync';

/** The definition of a synchronization op of spec/sync.json (flags, events, barriers, buffer tokens). */
export function syncDefinition(spec: SyncOpSpec): OpDefinition {
  return {
    name: spec.opName,
    // PTOAS materializes a tile-op helper's body into sections of its callers, which own the synchronization.
    properties: { notInTileOpHelper: 'pipe synchronization' },
    verify(v) {
      v.expectResults(0);
      const verified = verifySyncOp(v.op, spec, v.target, v.diags, (i) => v.operands[i]);
      if (verified) v.recordSync(verified);
    },
    execute(x, op) {
      const dynamic = op.sync!.dynamicId;
      x.observeSync(op, dynamic === undefined ? undefined : dynamicEventId(x, op, dynamic));
    },
  };
}

/**
 * An event id given at run time: a set_flag_dyn names one of the core's events (EVENT_ID0..7), an intra-block or
 * cross-block signal one of its flags (the static form's range); anything else traps rather than signal a flag the
 * NPU does not have.
 */
function dynamicEventId(x: Executor, op: BoundOp, operand: number): number {
  const spec = op.sync!.spec;
  const tables = syncTables();
  const id = x.int(op, operand);
  const idAttr = spec.attributes.find((a) => a.kind === 'index' || a.kind === 'int')!;
  const [low, high] = idAttr.kind === 'index' ? [0, tables.eventCount - 1] : (idAttr.rangeOn?.[x.target] ?? idAttr.range ?? [0, Number.MAX_SAFE_INTEGER]);
  if (id < BigInt(low) || id > BigInt(high)) {
    throw vmTrap(`${op.node.name}: event id ${id} is out of range ${low}..${high}`, op.node.operands[operand].span);
  }
  return Number(id);
}
