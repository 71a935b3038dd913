import { Module, OpNode, Operand, ResultDef } from '../syntax/ast';
import { Instruction } from '../spec/isa';
import { AscendcParams } from '../ascendc/model/params';
import { AttributeValue, TargetName } from '../spec/schema';
import { Type } from '../types/type';
import { SyncOpSpec } from '../spec/sync';
import { BoundProgram } from './bound';
import type { CodeBackend } from './definition';

/** An instruction operand bound to its spec name: an SSA use (L1/L2 inputs, L2 outs) or an L1 result. */
export interface BoundOperand {
  spec: Instruction['operands'][number];
  type: Type;
  /** Set for operands read from an SSA value (all of L2; L1 inputs). */
  use?: Operand;
  /** Set for an L1 destination, which is the op's result. */
  result?: ResultDef;
  /** The frame slot of the value (the use's, or the L1 result's). */
  slot?: number;
}

/** A verified PTO instruction: every operand found, typed and checked against the spec. */
export interface BoundInstruction {
  spec: Instruction;
  operands: Map<string, BoundOperand>;
  /** The spec's attributes decoded, defaults applied (set once they verified). */
  attributes?: ReadonlyMap<string, AttributeValue | undefined>;
  /** An AscendC/TIK op's attributes as the model's parameters (decoded once, by the verifier). */
  ascendc?: AscendcParams;
  /** The attributes the program wrote (a default is not a choice: `saturation` unwritten differs from `= true`). */
  written?: ReadonlySet<string>;
}

/** The verified IR: the AST plus what verification resolved, ready for the VM and the printers. */
export interface Program {
  module: Module;
  target: TargetName;
  /** The module's `pto.backend`, when it names one. */
  backend?: CodeBackend;
  functions: Map<string, OpNode>;
  /** Resolved instruction bindings, keyed by op node. */
  instructions: Map<OpNode, BoundInstruction>;
  /** Verified synchronization ops (flags, events, barriers), keyed by op node. */
  syncOps: Map<OpNode, VerifiedSyncOp>;
  /** The type of every SSA value definition and use, keyed by its name within its function. */
  valueTypes: Map<OpNode, Map<string, Type>>;
  /** The bound IR the VM runs (complete only when the file has no errors). */
  bound: BoundProgram;
}

/** A verified sync op: its table entry, its attribute values by name, and the pipes they resolve to. */
export interface VerifiedSyncOp {
  spec: SyncOpSpec;
  /** Pipe, op type and event names as strings (`PIPE_V`, `TLOAD`, `EVENT_ID0`), ints as numbers. */
  values: Map<string, string | number>;
  /** [src, dst] for set/wait ops, [pipe] for the others; op types are mapped to their pipes. */
  pipes: string[];
  /** The event number, buffer id or cross-core id. */
  id: number;
  /** The operand (an index into the op's operands) that gives the event id at run time, replacing `id`. */
  dynamicId?: number;
  /** How messages name the op: `pto.set_flag[PIPE_MTE2, PIPE_V, EVENT_ID0]`. */
  text: string;
}
