import { Span } from '../diag/source';
import { AttrEntry, OpNode, Operand, TypeRef } from './ast';

/**
 * An op in MLIR's generic form, `%r = "pto.x"(%a, %b) <{props}> {attrs} : (A, B) -> R`, as written: its operands in
 * the order the op declares them, each with its type from the signature.
 */
export interface GenericOp {
  name: string;
  nameSpan: Span;
  span: Span;
  operands: Operand[];
  /** `operandSegmentSizes = array<i32: ...>`: how many operands each declared operand takes, in order. */
  segmentSizes?: { sizes: number[]; span: Span };
  /** The properties and the attribute dictionary together (without operandSegmentSizes). */
  attrs: AttrEntry[];
  resultTypes: TypeRef[];
}

/** What a generic op means in the op's own form: the AST fields its custom syntax would give, or why it cannot. */
export type GenericRewrite =
  { fields: Pick<OpNode, 'form' | 'operands' | 'segments' | 'attrs' | 'resultTypes'> & Partial<OpNode> } | { error: string; span: Span };

/**
 * What the parser needs to know about the ops, given to it by the op registry (src/ops/registry.ts): the parser
 * does not list op names itself, and the syntax package does not depend on the ops.
 */
export interface OpSyntax {
  /** The canonical name, which the AST records whatever the spelling. */
  name: string;
  /** The grammar rule (pto.ohm) of what follows the op name; undefined: the generic syntax (`GenericBody`). */
  syntax?: string;
  /** The spelling is an old one: parsed, and reported with a warning naming the canonical one. */
  deprecated: boolean;
  /** Its `{` opens regions. */
  hasRegions: boolean;
  /**
   * Another op that an old spelling of the same name meant (`pto.subview %v, offsets = ...` once named a view
   * partition): a statement that does not match this op's syntax is tried as that one's.
   */
  formerly?: OpSyntax;
  /** Reads the op's generic form into its own (the definition's `fromGeneric`); absent: the generic syntax's SSA form. */
  fromGeneric?: (op: GenericOp) => GenericRewrite;
}

export interface OpSyntaxTable {
  /** The op a name spells, or undefined for a name the toolchain does not define (parsed generically). */
  syntaxOf(name: string): OpSyntax | undefined;
  /**
   * Why an op the toolchain knows but does not support is not read (VPTO micro-ops): a statement of it that the
   * generic syntax does not match is reported with this, at the op's name, rather than as a syntax error.
   */
  unsupported?(name: string): string | undefined;
}

/** How a diagnostic says a construct belongs to PTOAS's vector micro-op level (VPTO), which is not supported yet. */
export const VECTOR_LEVEL_UNSUPPORTED = "(PTOAS's vector level), which this toolchain does not support yet";
