import { DiagnosticKind } from '../diag/catalog';
import { DiagnosticBag } from '../diag/diagnostic';
import { Span } from '../diag/source';
import { Isa } from '../spec/isa';
import { TargetName } from '../spec/schema';
import { OpNode, Region, TypeRef } from '../syntax/ast';
import { Type } from '../types/type';
import { BuildLevel, CodeBackend, CoreKind, OpDefinition, OpVerifier } from '../ir/definition';
import { BoundInstruction, VerifiedSyncOp } from '../ir/program';
import { BoundOp, BoundRegion, Slot } from '../ir/bound';

/** What the verifier keeps for the ops it verifies: scopes, the function's constants, the program being built. */
export interface VerifierState {
  readonly target: TargetName;
  readonly level: BuildLevel | undefined;
  readonly spec: Isa;
  readonly diags: DiagnosticBag;
  readonly enclosing: OpNode[];
  readonly backend: CodeBackend | undefined;
  readonly placementUncertain: boolean;
  resolveType(ref: TypeRef): Type | undefined;
  expectResults(op: OpNode, n: number): boolean;
  defineResults(op: OpNode, types: (Type | undefined)[]): { slots: Slot[]; types: (Type | undefined)[] };
  checkIndexOperands(op: OpNode, segments: string[], operandTypes: (Type | undefined)[]): void;
  integerConstant(name: string): bigint | undefined;
  recordIntegerConstant(name: string, value: bigint): void;
  definitionOf(op: OpNode): OpDefinition | undefined;
  tilePlacement(name: string): bigint | undefined;
  recordTilePlacement(name: string, byte: bigint): void;
  resolveCallee(caller: OpNode, name: string): { symbol?: OpNode; definition?: OpNode } | undefined;
  successor(label: string): { index: number; argTypes: (Type | undefined)[] } | undefined;
  functionOps(): OpNode[];
  peerFunction(name: string): OpNode | undefined;
  coreKind(): CoreKind | 'any' | undefined;
  verifyRegion(region: Region, owner: OpNode, untyped?: Type[]): BoundRegion;
  recordInstruction(op: OpNode, instruction: BoundInstruction): void;
  recordSync(op: OpNode, verified: VerifiedSyncOp): void;
  respellResult(op: OpNode, index: number, canonical: string): Type | undefined;
}

/**
 * What one op's definition sees while it verifies the op (`OpVerifier`): one object per op whose services are
 * methods, not a closure each (a large module verifies a few hundred thousand ops).
 */
export class OpContext implements OpVerifier {
  readonly target: TargetName;
  readonly level?: BuildLevel;
  readonly isa: Isa;
  readonly diags: DiagnosticBag;
  readonly enclosing: readonly OpNode[];
  readonly backend?: CodeBackend;
  readonly placementUncertain: boolean;
  readonly function: OpNode;

  constructor(
    private readonly state: VerifierState,
    private readonly def: OpDefinition,
    private readonly bound: BoundOp,
    readonly op: OpNode,
    readonly parent: OpNode,
    fn: OpNode,
    readonly operands: (Type | undefined)[],
    readonly declared: (Type | undefined)[],
  ) {
    this.function = fn;
    this.target = state.target;
    this.level = state.level;
    this.isa = state.spec;
    this.diags = state.diags;
    this.enclosing = state.enclosing;
    this.backend = state.backend;
    this.placementUncertain = state.placementUncertain;
  }

  error(span: Span, message: string, notes?: { message: string; span: Span }[], kind?: DiagnosticKind): void {
    this.diags.report(kind ?? this.def.diagnostic!, span, message, notes);
  }

  warning(span: Span, message: string, kind: DiagnosticKind): void {
    this.diags.report(kind, span, message);
  }

  type(ref: TypeRef): Type | undefined {
    return this.state.resolveType(ref);
  }

  expectResults(n: number): boolean {
    return this.state.expectResults(this.op, n);
  }

  define(types: (Type | undefined)[]): void {
    const defined = this.state.defineResults(this.op, types);
    this.bound.results = defined.slots;
    this.bound.resultTypes = defined.types;
  }

  expectIndexOperands(segments: string[]): void {
    this.state.checkIndexOperands(this.op, segments, this.operands);
  }

  constant(operandIndex: number): bigint | undefined {
    const name = this.op.operands[operandIndex]?.value?.name;
    return name === undefined ? undefined : this.state.integerConstant(name);
  }

  recordConstant(value: bigint): void {
    const results = this.op.results;
    if (results.length === 1 && results[0].count === 1) this.state.recordIntegerConstant(results[0].name, value);
  }

  definitionOf(op: OpNode): OpDefinition | undefined {
    return this.state.definitionOf(op);
  }

  placement(operandIndex: number): bigint | undefined {
    const name = this.op.operands[operandIndex]?.value?.name;
    return name === undefined ? undefined : this.state.tilePlacement(name);
  }

  recordPlacement(byte: bigint): void {
    const results = this.op.results;
    if (results.length === 1 && results[0].count === 1) this.state.recordTilePlacement(results[0].name, byte);
  }

  callee(name: string): { symbol?: OpNode; definition?: OpNode } | undefined {
    return this.state.resolveCallee(this.function, name);
  }

  successor(label: string): { index: number; argTypes: (Type | undefined)[] } | undefined {
    return this.state.successor(label);
  }

  functions(): OpNode[] {
    return this.state.functionOps();
  }

  peerFunction(name: string): OpNode | undefined {
    return this.state.peerFunction(name);
  }

  coreKind(): CoreKind | 'any' | undefined {
    return this.state.coreKind();
  }

  region(region: Region, untyped?: Type[]): void {
    this.state.enclosing.push(this.op);
    const verified = this.state.verifyRegion(region, this.op, untyped);
    // Its first region gives the op a list of its own (it shared the empty one).
    this.bound.regions = this.bound.regions.length === 0 ? [verified] : [...this.bound.regions, verified];
    this.state.enclosing.pop();
  }

  recordInstruction(instruction: BoundInstruction): void {
    this.state.recordInstruction(this.op, instruction);
    this.bound.instruction = instruction;
  }

  recordSync(verified: VerifiedSyncOp): void {
    this.state.recordSync(this.op, verified);
    this.bound.sync = verified;
  }

  decide(decoded: unknown): void {
    this.bound.decoded = decoded;
  }

  respellResult(index: number, canonical: string): Type | undefined {
    return this.state.respellResult(this.op, index, canonical);
  }
}
