import { Span } from '../diag/source';

// Every node has a `span`: where it is written. A span is a position, not a child: the nodes a module has most of
// (value uses, types, typed operands) are their own span as the parser makes them (`node.span === node`, with
// `start` and `end` among their fields: one object instead of two), so a walk over the tree skips `span` and
// `nameSpan` (emit/json.ts writes them as `line:col` ranges).

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
  /** `[a, b]`, or MLIR's dense array `array<i64: 1, 2>` (`dense`: its element type). */
  | { kind: 'array'; items: Attr[]; dense?: string; span: Span }
  /** `dense<[1, 2]> : vector<2xi16>`: the elements (an array, or one literal for a splat) of a shaped type. */
  | { kind: 'dense'; elements: Attr; type?: TypeRef; span: Span }
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
export type OpForm = 'dps' | 'ssa' | 'paren' | 'custom';

/**
 * Where the parts of an op in the parenthesized form stood (`pto.tpush_to_aic(%t : T) {split = 0}
 * aiv_subblockid(%sb)`), so that the printer writes them back in the same places.
 */
export interface ParenLayout {
  /** Keys of the attributes written before the parentheses (`pto.aiv_initialize_pipe {...} (...)`). */
  leadingAttrs: string[];
  /** Keys written bare after the parentheses (`mode = #m, core_type = #c`). */
  keywordAttrs: string[];
  /** Each operand's type is written beside it (`(%a : T, key = %b : U)`) rather than after the list. */
  typedItems: boolean;
  /** Segments written as `key = %v` inside the parentheses. */
  keyedSegments: string[];
  /** Segments written as `name(%a, %b)` inside the parentheses. */
  clauseSegments: string[];
  /** Segments written as `name(%v)` after the attributes. */
  trailingClauses: string[];
  /** The results are declared as a function type `: (T) -> ()` rather than `-> T`. */
  signature: boolean;
}

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
  /** The blocks a branch may go to (`^bb1(%x : i32)`): each block's label and its operands (indices into `operands`). */
  successors?: Successor[];
  /** A function's symbol visibility as written (`private`, `public`, `nested`); MLIR's default is public. */
  visibility?: 'private' | 'public' | 'nested';
  /** A function's parameters (also the entry block's arguments when it has a body). */
  params?: BlockArg[];
  /**
   * Attributes written in a fixed order without keys, `[a, b, c]` or bare (`pto.barrier <PIPE_V>`); their
   * names come from the op's table entry.
   */
  positional?: { bracketed: boolean; items: Attr[] };
  /** The layout of the parenthesized form (form 'paren'). */
  paren?: ParenLayout;
  /** An SSA-form op whose results are declared `-> T` with no `:` signature (`pto.reserve_buffer {...} -> i32`). */
  arrowResults?: boolean;
  /** Attributes after an SSA op's operands written as `name(%v)` (segments). */
  clauses?: string[];
  /** Segments of a DPS op written inside `ins(...)` after the list, each as `KEYWORD %v : T` (`fp`, `pre_quant`). */
  insKeywords?: string[];
  /** The attribute written as a string after the `ins` types (PTOAS's tgather/tscatter `: T, "row")`): its key. */
  insTypesAttr?: string;
  /** Keywords written after the last `ins` operand saying an optional operand is left out (`no_tmp`). */
  insMarkers?: string[];
  /** How a micro-level op (`MicroBody`) was written: its items, keyword groups and signature, for its row to bind. */
  micro?: MicroLayout;
  /** Spellings that are accepted but deprecated, reported as warnings. */
  legacy?: { message: string; span: Span }[];
  /**
   * The statement did not parse (its error is reported): only its name, its results and its regions are known. Its
   * results stay defined, of an unknown type, so that their uses cause no further errors (clang's invalid decls).
   */
  unparsed?: true;
}

/**
 * A micro-level op as written (src/syntax/micro-parse.ts): the items before any keyword group (each an operand, a
 * `%base[%offset]` pair of operands, or an attribute literal), the groups `nburst(%a, %b, %c)`, and the types after
 * the `:` (each with the keyword of its group, `loop i64, i64, i64`). Its result types are `resultTypes` when written
 * after `->`; without an arrow the op's row says whether the types after `:` are its operands' or its results'.
 */
export interface MicroLayout {
  items: MicroItem[];
  /**
   * A keyword group of operands; `word`: the word written in its parentheses (`round(r)`), or its keyed arguments
   * (`mode = no_relu, clip = %c`), whose values are the last `keyed` of its operands; `bare`: no parentheses.
   */
  clauses: { keyword: string; operands: number[]; span: Span; word?: string; keyed?: number; bare?: true }[];
  types: { keyword?: string; type: TypeRef }[];
  /** A `->` was written. */
  arrow: boolean;
}

/** `joined`: an attribute written right after the operand before it, without a comma (`%ptr "SINGLE_CACHE_LINE"`). */
export type MicroItem = { operand: number; span: Span } | { operand: number; offset: number; span: Span } | { attr: Attr; span: Span; joined?: true };

export interface Successor {
  label: string;
  operands: number[];
  span: Span;
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

/**
 * Whether a region of these ops (or of the ops inside them) was never closed. The scanner closes such a region at
 * the end of the file, so it holds every statement after its `{`: only the last region of the last op can be one, at
 * each level, and the walk goes down that path alone rather than through every op.
 */
export function hasUnclosedRegion(ops: OpNode[]): boolean {
  const region = ops.at(-1)?.regions.at(-1);
  if (!region) return false;
  return region.unclosed === true || hasUnclosedRegion(region.blocks.at(-1)?.ops ?? []);
}

export function attrOf(op: OpNode, key: string): Attr | undefined {
  for (const a of op.attrs) if (a.key === key) return a.value;
  return undefined;
}

export function segment(op: OpNode, name: string): Operand[] {
  return (op.segments[name] ?? []).map((i) => op.operands[i]);
}
