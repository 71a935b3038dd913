import { Module, OpNode, Operand, ResultDef } from '../syntax/ast';
import { Instruction } from '../spec/isa';
import { TargetName } from '../spec/schema';
import { Type } from '../syntax/types';
import { VerifiedSyncOp } from './sync';

/** An instruction operand bound to its spec name: an SSA use (L1/L2 inputs, L2 outs) or an L1 result. */
export interface BoundOperand {
  spec: Instruction['operands'][number];
  type: Type;
  /** Set for operands read from an SSA value (all of L2; L1 inputs). */
  use?: Operand;
  /** Set for an L1 destination, which is the op's result. */
  result?: ResultDef;
}

/** A verified PTO instruction: every operand found, typed and checked against the spec. */
export interface BoundInstruction {
  spec: Instruction;
  operands: Map<string, BoundOperand>;
}

/** The verified IR: the AST plus what verification resolved, ready for the VM and the printers. */
export interface Program {
  module: Module;
  target: TargetName;
  functions: Map<string, OpNode>;
  /** Resolved instruction bindings, keyed by op node. */
  instructions: Map<OpNode, BoundInstruction>;
  /** Verified synchronization ops (flags, events, barriers), keyed by op node. */
  syncOps: Map<OpNode, VerifiedSyncOp>;
  /** The type of every SSA value definition and use, keyed by its name within its function. */
  valueTypes: Map<OpNode, Map<string, Type>>;
}
