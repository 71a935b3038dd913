import { OpNode } from '../../syntax/ast';
import { Span } from '../../diag/source';
import { BoundInstruction, Program } from '../../verify/program';
import { VerifiedSyncOp } from '../../verify/sync';

/** A synchronization problem found while running, located at an op. */
export interface SyncFinding {
  message: string;
  span: Span;
}

/** Tracks pipes, flags and events while the VM runs (STUB, filled in by the sync work). */
export class SyncTracker {
  readonly findings: SyncFinding[] = [];

  constructor(readonly program: Program) {}

  /** A sync op executed. */
  syncOp(op: OpNode, sync: VerifiedSyncOp): void {
    void op;
    void sync;
  }

  /** An instruction is about to execute with these operand objects (tiles, views, scalars) by spec name. */
  instruction(op: OpNode, bound: BoundInstruction, objects: Map<string, unknown>): void {
    void op;
    void bound;
    void objects;
  }
}
