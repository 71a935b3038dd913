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
