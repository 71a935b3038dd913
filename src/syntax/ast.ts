import { Span } from '../diag/source';

/** A use of an SSA value: `%x`, or `%x#1` for one result of a multi-result op. */
export interface ValueRef {
  name: string;
  index?: number;
  span: Span;
}

/** A result definition: `%x`, or `%x:2` for two results named `%x#0` and `%x#1`. */
export interface ResultDef {
  name: string;
  count: number;
  span: Span;
}

/** A type as written. Its meaning comes from `TypeTable`, which parses each distinct text once. */
export interface TypeRef {
  text: string;
  span: Span;
}

/** An operand: an SSA value, or an integer literal where the syntax allows one (view offsets and sizes). */
export interface Operand {
  value?: ValueRef;
  literal?: number;
  type?: TypeRef;
  span: Span;
}

export type Attr =
  | { kind: 'int'; value: bigint; type?: TypeRef; span: Span }
  | { kind: 'float'; value: number; text: string; type?: TypeRef; span: Span }
  | { kind: 'string'; value: string; type?: TypeRef; span: Span }
  | { kind: 'bool'; value: boolean; span: Span }
  | { kind: 'unit'; span: Span }
  | { kind: 'array'; items: Attr[]; span: Span }
  | { kind: 'dict'; entries: AttrEntry[]; span: Span }
  | { kind: 'dialect'; text: string; span: Span }
  | { kind: 'symbol'; name: string; span: Span }
  | { kind: 'type'; type: TypeRef; span: Span }
  | { kind: 'ident'; name: string; span: Span };

export interface AttrEntry {
  key: string;
  value: Attr;
  span: Span;
}

export interface BlockArg {
  name: string;
  type?: TypeRef;
  span: Span;
}

export interface Block {
  label?: string;
  args: BlockArg[];
  ops: OpNode[];
  span: Span;
}

export interface Region {
  blocks: Block[];
  span: Span;
  /** The scanner found no closing `}` (already reported). */
  unclosed?: boolean;
}

/**
 * How an op was spelled. `dps` = Level 2 `ins(...) outs(...)`; `ssa` = Level 1 / generic
 * `op %a, %b : sig`; `custom` = an op with its own syntax (views, alloc, arith, scf, func).
 */
export type OpForm = 'dps' | 'ssa' | 'custom';

/**
 * One operation, in a uniform shape (like MLIR's Operation): operands, results, attributes, regions.
 * `segments` names groups of operands (DPS `ins`/`outs`, view `shape`/`strides`, scf `init`...).
 */
export interface OpNode {
  name: string;
  nameSpan: Span;
  span: Span;
  form: OpForm;
  results: ResultDef[];
  operands: Operand[];
  segments: Record<string, number[]>;
  attrs: AttrEntry[];
  /** Result types as declared (SSA signatures, scf results, view result types). */
  resultTypes: TypeRef[];
  regions: Region[];
  /** `@name` of a module or function. */
  symbol?: string;
  /** A function's parameters (also the entry block's arguments when it has a body). */
  params?: BlockArg[];
  /**
   * Attributes written in a fixed order without keys, `[a, b, c]` or bare (`pto.barrier <PIPE_V>`); their
   * names come from the op's table entry.
   */
  positional?: { bracketed: boolean; items: Attr[] };
  /** Spellings that are accepted but deprecated, reported as warnings. */
  legacy?: { message: string; span: Span }[];
}

/** `!name = type` or `#name = attribute` at the top level of a file. */
export interface AliasDef {
  alias: string;
  text: string;
  span: Span;
}

export interface Module {
  /** Top-level ops; a file without `module { }` holds its functions directly. */
  ops: OpNode[];
  aliases: AliasDef[];
  span: Span;
}

export function attrOf(op: OpNode, key: string): Attr | undefined {
  for (const a of op.attrs) if (a.key === key) return a.value;
  return undefined;
}

export function segment(op: OpNode, name: string): Operand[] {
  return (op.segments[name] ?? []).map((i) => op.operands[i]);
}
