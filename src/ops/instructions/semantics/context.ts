import { OpNode } from '../../../syntax/ast';
import { BoundInstruction } from '../../../ir/program';
import { PartitionView, Tile } from '../../../machine/memory';
import { AttributeValue } from '../../define/attributes';
import { TargetName } from '../../../spec/schema';
import { CodeBackend, NumericsProfile } from '../../../ir/definition';

export type { CodeBackend, NumericsProfile } from '../../../ir/definition';

/** What an instruction's semantics function sees: its bound operands, resolved to run-time objects. */
export interface InstructionContext {
  op: OpNode;
  bound: BoundInstruction;
  numerics: NumericsProfile;
  /** PTOAS's back end whose expansion the run follows where the two differ. */
  backend: CodeBackend;
  /** The target the program was verified for: some NPU orders differ between A2/A3 and A5. */
  target: TargetName;
  /** Whether the WebAssembly kernels may run (RunOptions.fastPaths); the typed-array loops follow the tiles' own flag. */
  vectorKernels: boolean;
  tile(name: string): Tile;
  optionalTile(name: string): Tile | undefined;
  view(name: string): PartitionView;
  /** A scalar operand: integers (and index) as bigint, floats as number. */
  scalar(name: string): bigint | number;
  /** Sets a scalar result (the `outs : T` of pto.tgetval). */
  setResult(name: string, value: bigint | number): void;
  /** Throws a trap (a LocatedError) located at the instruction, as `<op name>: <message>`: the message does not name the op. */
  trap(message: string): never;
  /** A bool attribute's value, or undefined when absent. */
  flag(name: string): boolean | undefined;
  /** An attribute's value as the spec defines it (enum: its spelling; int: a number), default applied. */
  attribute(name: string): AttributeValue | undefined;
  /** Appends the text (made only when the core's print buffer has room) to the program's printed output (pto.tprint). */
  print(text: () => string): void;
  /** Reports a one-time note (e.g. a numerics approximation) without stopping. */
  note(message: string): void;
  /**
   * Binds tile operand `name` to the scale tile of `of` (pto.tget_scale_addr): from this op on, the operand's value
   * is a tile of its type in the scale space of `of`'s buffer (OnChipMemory.placeMxScale). The new tile.
   */
  bindMxScale(name: string, of: Tile): Tile;
  /**
   * Declares, at the end of a run that neither trapped nor noted anything, that running the instruction again on the
   * same operand values (the same tiles with the same valid regions, the same scalars) on this core does exactly
   * what `again` does: the executor may call `again` instead of the semantics function (a fast path's prepared
   * loop, its checks and lookups made once).
   */
  repeatWith(again: () => void): void;
}

export type Semantics = (ctx: InstructionContext) => void;

/**
 * A module of ops/instructions/semantics: its semantics functions by the spec's `semantics` name and, for a
 * function that runs several operations, the spec `op` values it implements.
 */
export interface SemanticsModule {
  semantics: Record<string, Semantics>;
  operations?: Record<string, readonly string[]>;
}
