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
  /** An old spelling whose `ins(...)` held operands today's op takes by keyword: where they were. */
  insKeywords?: InsKeywordMoves;
}

/**
 * Keyword operands an old op wrote among its `ins(...)`: for each keyword, the index it had there; the other ins keep
 * their order (`pto.textract_fp ins(%src, %fp, %r, %c ...)` is today's `pto.textract ins(%src, %r, %c fp %fp : F)`:
 * `{ fp: 1 }`).
 */
export type InsKeywordMoves = Record<string, number>;

export interface OpSyntaxTable {
  /** The op a name spells, or undefined for a name the toolchain does not define (parsed generically). */
  syntaxOf(name: string): OpSyntax | undefined;
  /**
   * What to say of a name that no op defines, when it reads as an op's name (dotted, or close to a known one): a
   * statement of it that the generic syntax does not match is reported with this at its name, rather than as a
   * syntax error at a later token (an op the toolchain does not support, a misspelt one with a "did you mean").
   * Undefined: the statement is a syntax error.
   */
  unknownOp?(name: string): string | undefined;
}

/** How a diagnostic says a construct belongs to PTOAS's vector micro-op level (VPTO), which is not supported yet. */
export const VECTOR_LEVEL_UNSUPPORTED = "(PTOAS's vector level), which this toolchain does not support yet";

/**
 * The segments and keywords of a Level 2 op written in an old spelling with keyword operands among its `ins`, as
 * today's spelling writes it; undefined when the op is not written so (another form, too few ins, or the keyword
 * written as well), and its operands then bind as written.
 */
export function movedInsKeywords(op: OpNode, moves: InsKeywordMoves): Pick<OpNode, 'segments' | 'insKeywords'> | undefined {
  const ins = op.segments.ins;
  const keys = Object.keys(moves);
  if (op.form !== 'dps' || !ins || keys.some((k) => op.segments[k] !== undefined || moves[k] >= ins.length)) return undefined;
  const taken = new Set(keys.map((k) => moves[k]));
  // New objects: the ops of one statement shape share their segments.
  const segments: Record<string, number[]> = { ...op.segments, ins: ins.filter((_, i) => !taken.has(i)) };
  for (const k of keys) segments[k] = [ins[moves[k]]];
  return { segments, insKeywords: [...(op.insKeywords ?? []), ...keys] };
}
