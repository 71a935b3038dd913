import { OpNode } from '../../syntax/ast';
import { BoundInstruction } from '../../verify/program';
import { PartitionView, Tile } from '../memory';

export type NumericsProfile = 'npu' | 'cpu-sim';

/** What an instruction's semantics function sees: its bound operands, resolved to run-time objects. */
export interface InstructionContext {
  op: OpNode;
  bound: BoundInstruction;
  numerics: NumericsProfile;
  tile(name: string): Tile;
  optionalTile(name: string): Tile | undefined;
  view(name: string): PartitionView;
  /** Throws a VmTrap located at the instruction. */
  trap(message: string): never;
  /** Reports a one-time note (e.g. a numerics approximation) without stopping. */
  note(message: string): void;
}

export type Semantics = (ctx: InstructionContext) => void;
