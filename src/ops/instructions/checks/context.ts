import { DiagnosticKind } from '../../../diag/catalog';
import { Span } from '../../../diag/source';
import { OpNode } from '../../../syntax/ast';
import { TileType } from '../../../types/type';
import { Instruction } from '../../../spec/isa';
import { TargetName } from '../../../spec/schema';
import { AttributeValue } from '../../define/attributes';
import { BoundInstruction } from '../../../ir/program';

/**
 * What a check of ops/instructions/checks sees: an instruction whose operands bound and whose attributes parsed.
 * The table rules (locations, layouts, dtypes, valid regions) have run and may have reported errors,
 * so a check should not repeat them.
 */
export interface CheckContext {
  op: OpNode;
  spec: Instruction;
  bound: BoundInstruction;
  /** The tile operands by spec name. */
  tiles: Map<string, TileType>;
  target: TargetName;
  /** Attribute values by name, defaults applied. */
  attributes: ReadonlyMap<string, AttributeValue | undefined>;
  /** Reports an error (of the family-rule kind unless `kind` names another); the instruction's name is prefixed. */
  error(span: Span, message: string, kind?: DiagnosticKind): void;
  /** Reports a warning of the kind given; the instruction's name is prefixed. */
  warning(span: Span, message: string, kind: DiagnosticKind): void;
  /** The value of a scalar operand defined by an integer `arith.constant`; undefined when not static. */
  constant(operand: string): bigint | undefined;
  /** The byte address of a tile operand placed by `alloc_tile addr = %c` with a constant; undefined otherwise. */
  placement(operand: string): bigint | undefined;
  /** Where an operand is written (its type, else the operand), for locating errors. */
  spanOf(operand: string): Span;
}

/** A rule of one instruction that the tables of spec/ cannot express. */
export type InstructionCheck = (ctx: CheckContext) => void;
