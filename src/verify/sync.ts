import { DiagnosticBag } from '../diag/diagnostic';
import { OpNode } from '../syntax/ast';
import { TargetName } from '../spec/schema';
import { SyncOpSpec } from '../spec/sync';

/** A verified sync op: its table entry and its attribute values by name (STUB, filled in by the sync work). */
export interface VerifiedSyncOp {
  spec: SyncOpSpec;
  values: Map<string, string | number>;
}

export function verifySyncOp(op: OpNode, spec: SyncOpSpec, target: TargetName, diags: DiagnosticBag): VerifiedSyncOp | undefined {
  void op;
  void target;
  void diags;
  return { spec, values: new Map() };
}
