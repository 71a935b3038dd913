import * as ohm from 'ohm-js';
import { DIAGNOSTICS as D } from '../diag/catalog';
import { DiagnosticBag } from '../diag/diagnostic';
import { Span } from '../diag/source';
import { AttrEntry, BlockArg, OpNode, Operand, Region, TypeRef, ValueRef } from './ast';
import { OpSyntax } from './op-syntax';
import { indexRange } from './shared-parts';

/**
 * What the semantic actions (src/syntax/parse-*.ts) share with the statement parser (parse.ts): the context of one
 * statement, and the helpers that build its nodes.
 */

/** Maps offsets in a statement header (regions cut out) back to offsets in the file. */
export interface OffsetMap {
  headerStarts: number[];
  fileStarts: number[];
}

export function mapOffset(m: OffsetMap, offset: number): number {
  let k = m.headerStarts.length - 1;
  while (k > 0 && m.headerStarts[k] > offset) k--;
  return m.fileStarts[k] + (offset - m.headerStarts[k]);
}

/** What the semantic actions of one statement share; passed to them as the argument of the `ast` operation. */
export interface ActionContext {
  map: OffsetMap;
  /** The statement's regions, parsed already, in order: each `{}` of the header takes the next one. */
  regions: Region[];
  diags: DiagnosticBag;
  types: InternedType[];
  /** The op the statement spells (from the registry), if it is one the toolchain defines. */
  op: OpSyntax | undefined;
  /** Deprecated spellings met inside the op being converted (stripped types), reported by the verifier. */
  legacy: { message: string; span: Span }[];
  /** Where the op's name is (set before its body is converted). */
  nameSpan?: Span;
  /** One string per value name and short type text (a name is written where it is defined and at each use). */
  texts: Map<string, string>;
  /**
   * A function's parameters, when the parser read them item by item (its header is then written with `()`), with the
   * deprecated spellings met in them.
   */
  params?: { params: BlockArg[]; legacy: { message: string; span: Span }[] };
}

/** A dialect type cut out of a statement header; `placeholder` (`!T3<>`) stands in its place at `headerStart`. */
export interface InternedType {
  text: string;
  start: number;
  end: number;
  placeholder: string;
  headerStart: number;
}

export type Node = ohm.Node;

/** The context an action was called with (the argument of the `ast` operation). */
export function contextOf(node: Node): ActionContext {
  return (node as Node & { args: { c: ActionContext } }).args.c;
}

export function spanOf(c: ActionContext, node: Node): Span {
  const src = node.source;
  return { start: mapOffset(c.map, src.startIdx), end: mapOffset(c.map, src.endIdx) };
}

/** Stands in for a node's span until the node is made its own span (`ownSpan`). */
export const SPAN_TO_COME: Span = Object.freeze({ start: 0, end: 0 });

/**
 * The node made its own span: `node.span === node`. The nodes a module has most of (value uses, types, typed
 * operands) carry `start` and `end` among their fields rather than a span object of their own: a third of a large
 * module's objects were spans. The node is written with `span: SPAN_TO_COME`, so that setting it keeps its layout.
 */
export function ownSpan<T extends Span & { span: Span }>(node: T): T {
  node.span = node;
  return node;
}

/** Names and short type texts remembered at most: a name repeats close to where it is defined. */
export const RECENT_TEXTS = 4096;

/** One string per value name or short type text among those met recently (mostly within one function). */
export function internedText(c: ActionContext, text: string): string {
  const known = c.texts.get(text);
  if (known !== undefined) return known;
  if (c.texts.size >= RECENT_TEXTS) c.texts.clear();
  c.texts.set(text, text);
  return text;
}

export function optional<T>(node: Node, c: ActionContext): T | undefined {
  return node.children.length > 0 ? (node.children[0].ast(c) as T) : undefined;
}

export function typeRef(c: ActionContext, node: Node): TypeRef {
  const at = node.source.startIdx;
  const written = node.sourceString;
  const interned = c.types.find((t) => t.headerStart === at && t.placeholder === written);
  if (interned) return ownSpan({ text: interned.text, start: interned.start, end: interned.end, span: SPAN_TO_COME });
  const end = mapOffset(c.map, node.source.endIdx);
  return ownSpan({ text: internedText(c, written), start: mapOffset(c.map, at), end, span: SPAN_TO_COME });
}

/** The fields of an op that its body fills; the statement adds the name, the results and the spans. */
export type OpFields = Pick<OpNode, 'operands' | 'segments' | 'attrs' | 'resultTypes' | 'regions'> & Partial<OpNode>;

export function fields(): OpFields {
  return { operands: [], segments: {}, attrs: [], resultTypes: [], regions: [] };
}

/**
 * Appends operands to the op's; returns the index of the first. The op gets a new array of the exact size, not a
 * grown one: a large module keeps one per op.
 */
export function addOperands(op: OpFields, operands: Operand[]): number {
  const first = op.operands.length;
  op.operands = op.operands.concat(operands);
  return first;
}

/** Adds operands to a named segment, after any it already has. */
export function appendSegment(op: OpFields, name: string, operands: Operand[]): void {
  const start = addOperands(op, operands);
  op.segments[name] = [...(op.segments[name] ?? []), ...operands.map((_, i) => start + i)];
}

/** A branch's successor: its block label, and its operands appended to the op's. */
export function addSuccessor(op: OpFields, successor: { label: string; operands: Operand[]; span: Span }): void {
  const first = addOperands(op, successor.operands);
  (op.successors ??= []).push({ label: successor.label, span: successor.span, operands: successor.operands.map((_, i) => first + i) });
}

/** Appends operands as a named segment. */
export function addSegment(op: OpFields, name: string, operands: Operand[]): void {
  const start = addOperands(op, operands);
  op.segments[name] = indexRange(start, operands.length);
}

/**
 * `%a, %b {attrs} : From -> To` and its kin (`%a[%b]`): an operand typed `From`, an index operand after it, each a
 * segment of its own, and one result of type `To` (pto.addptr, pto.load_scalar, pto.get_tensor_view_dim and _stride).
 */
export function typedOperandAndIndex(
  c: ActionContext,
  [name, value, from]: [string, Node, Node],
  [indexName, index]: [string, Node],
  attrs: Node,
  to: Node,
): OpFields {
  const op = fields();
  addSegment(op, name, [valueOperand(value.ast(c) as ValueRef, from.ast(c) as TypeRef)]);
  addSegment(op, indexName, [valueOperand(index.ast(c) as ValueRef)]);
  op.attrs = optional<AttrEntry[]>(attrs, c) ?? [];
  op.resultTypes = [to.ast(c) as TypeRef];
  return op;
}

export function valueOperand(v: ValueRef, type?: TypeRef): Operand {
  if (!type) return { value: v, type, span: v.span };
  return ownSpan({ value: v, type, start: v.span.start, end: type.span.end, span: SPAN_TO_COME });
}

export function typedValues(c: ActionContext, tv: { values: ValueRef[]; types: TypeRef[] } | undefined, where: Node): Operand[] {
  if (!tv) return [];
  if (tv.values.length !== tv.types.length) {
    c.diags.report(D.listMismatch, surplus(tv.values, tv.types) ?? spanOf(c, where), `${tv.values.length} value(s) but ${tv.types.length} type(s)`);
  }
  return tv.values.map((v, i) => valueOperand(v, tv.types[i]));
}

/**
 * Where a list of values and the list of their types disagree: the values that have no type, or the types that have
 * no value (not the whole list, which holds types of a hundred characters). Undefined when either list is empty.
 */
export function surplus(values: { span: Span }[], types: { span: Span }[]): Span | undefined {
  const [longer, from] = values.length > types.length ? [values, types.length] : [types, values.length];
  if (from === 0 || from >= longer.length) return undefined;
  return { start: longer[from].span.start, end: longer[longer.length - 1].span.end };
}

/** Decimal or 0x-hex integer literal with an optional sign. */
export function parseIntLiteral(text: string): bigint {
  const negative = text.startsWith('-');
  const magnitude = BigInt(text.replace(/^[+-]/, ''));
  return negative ? -magnitude : magnitude;
}

/** MLIR string escapes: \\ \" \n \t and \XX (two hex digits). */
export function unquote(s: string): string {
  return s
    .slice(1, -1)
    .replace(/\\([0-9a-fA-F]{2}|.)/g, (_, c: string) => (c.length === 2 ? String.fromCharCode(parseInt(c, 16)) : c === 'n' ? '\n' : c === 't' ? '\t' : c));
}
