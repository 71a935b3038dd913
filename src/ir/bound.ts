import { Block, Module, OpNode, Region } from '../syntax/ast';
import { TargetName } from '../spec/schema';
import { Type } from '../types/type';
import { BoundInstruction, VerifiedSyncOp } from './program';
import { CoreKind, OpDefinition } from './definition';
import { PlannedFrame } from '../machine/memory';

export type { PlannedFrame };

/**
 * The bound IR: what the verifier hands to the VM, the printers and the transforms. Every op carries its
 * definition, its operands and results as slots of its function's frame (integer indices, not names), their
 * types, and what verification decided about it; nothing downstream looks a name up or parses text again.
 */

/** Where one SSA value lives while its function runs: an index into the function's frame. */
export type Slot = number;

export interface BoundFunction {
  name: string;
  node: OpNode;
  /** The entry block's arguments. */
  params: Slot[];
  paramTypes: (Type | undefined)[];
  body?: BoundRegion;
  /** How many slots a frame of this function has. */
  frameSize: number;
  /** Integer literals written where operands go (`offsets = [0, 16]`): slots set when a frame is made. */
  literals: { slot: Slot; value: bigint }[];
  /** The kind of core its code is for (`pto.kernel_kind`); undefined: either. */
  kind?: CoreKind;
}

export interface BoundRegion {
  node: Region;
  blocks: BoundBlock[];
}

export interface BoundBlock {
  node: Block;
  args: Slot[];
  ops: BoundOp[];
}

export interface BoundOp {
  def: OpDefinition;
  node: OpNode;
  /** One slot per operand of `node.operands`. */
  operands: Slot[];
  operandTypes: (Type | undefined)[];
  /** One slot per result (`%x:2` has two). */
  results: Slot[];
  resultTypes: (Type | undefined)[];
  regions: BoundRegion[];
  /** A table instruction's operands bound to its spec names. */
  instruction?: BoundInstruction;
  /** A synchronization op's resolved attributes. */
  sync?: VerifiedSyncOp;
  /** What the definition's verify decoded from the attributes (OpVerifier.decide); read with `decided`. */
  decoded?: unknown;
  /** Where memory planning put the tiles it allocates (alloc_tile, alloc_multi_tile without address, a Level 1 tile result). */
  placement?: TilePlacement;
}

export interface TilePlacement {
  frame: PlannedFrame;
  /**
   * The byte offsets in the frame of the tile each result slot holds (of each of its tiles, for a multi-tile buffer).
   * A slot without them has no planned storage (PTOAS gives it none: nothing uses it, or only as a scratch operand
   * its target never touches).
   */
  offsets: ReadonlyMap<Slot, readonly number[]>;
}

/** What an op's definition decoded at verification: the definition that wrote it names the type. */
export function decided<T>(op: BoundOp): T {
  return op.decoded as T;
}

export interface BoundProgram {
  target: TargetName;
  module: Module;
  /** By function op: functions of different modules may share a name. */
  functions: Map<OpNode, BoundFunction>;
}
