import { OpDefinition } from '../ir/definition';
import { SyncOpSpec } from '../spec/sync';
import { verifySyncOp } from './sync';

/** The definition of a synchronization op of spec/sync.json (flags, events, barriers, buffer tokens). */
export function syncDefinition(spec: SyncOpSpec): OpDefinition {
  return {
    name: spec.opName,
    properties: { notInTileOpHelper: 'pipe synchronization' },
    verify(v) {
      v.expectResults(0);
      const verified = verifySyncOp(v.op, spec, v.target, v.diags);
      if (verified) v.recordSync(verified);
    },
    execute: (x, op) => x.observeSync(op),
  };
}
