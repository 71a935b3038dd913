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
}
