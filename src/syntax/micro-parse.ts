import * as ohm from 'ohm-js';
import { Span } from '../diag/source';
import { Attr, AttrEntry, MicroItem, MicroLayout, OpNode, Operand, TypeRef, ValueRef } from './ast';

type Node = ohm.Node;
type Fields = Pick<OpNode, 'operands' | 'segments' | 'attrs' | 'resultTypes' | 'regions'> & Partial<OpNode>;

/** What the micro-level actions borrow from the parser's helpers (src/syntax/parse-context.ts). */
export interface ParseHelpers<C> {
  contextOf(node: Node): C;
  spanOf(c: C, node: Node): Span;
  optional<T>(node: Node, c: C): T | undefined;
  fields(): Fields;
  valueOperand(v: ValueRef, type?: TypeRef): Operand;
  unquote(s: string): string;
  parseIntLiteral(text: string): bigint;
}

/** One item before the keyword groups, as its action gives it: operands not yet placed in the op. */
type ItemAst = { values: ValueRef[]; span: Span } | { attr: Attr; span: Span; joined?: true };

/**
 * The actions of `MicroBody` (src/syntax/pto.ohm): every operand of the op in written order (the segment `operands`),
 * and the layout (`OpNode.micro`) its row binds to names (src/micro/format.ts) and the printer writes back.
 */
export function microActions<C>(h: ParseHelpers<C>): Record<string, (this: Node, ...children: Node[]) => unknown> {
  return {
    MicroBody(this: Node, items: Node, clauses: Node, attrs: Node, types: Node) {
      const c = h.contextOf(this);
      const op = h.fields();
      const operands: Operand[] = [];
      const place = (values: ValueRef[]) => values.map((v) => operands.push(h.valueOperand(v)) - 1);
      const layoutItems: MicroItem[] = (items.asIteration().children.flatMap((i) => i.ast(c)) as ItemAst[]).map((item) => {
        if ('attr' in item) return item;
        const [operand, offset] = place(item.values);
        return offset === undefined ? { operand, span: item.span } : { operand, offset, span: item.span };
      });
      type ClauseAst = { keyword: string; values: ValueRef[]; span: Span; word?: string; bare?: true };
      const layoutClauses = (clauses.children.map((k) => k.ast(c)) as ClauseAst[]).map((k) => ({
        keyword: k.keyword,
        operands: place(k.values),
        span: k.span,
        ...(k.word !== undefined ? { word: k.word } : {}),
        ...(k.bare ? { bare: k.bare } : {}),
      }));
      const signature = h.optional<{ types: MicroLayout['types']; results?: TypeRef[] }>(types, c);
      op.operands = operands;
      op.segments = { operands: operands.map((_, i) => i) };
      op.attrs = h.optional<AttrEntry[]>(attrs, c) ?? [];
      op.resultTypes = signature?.results ?? [];
      op.micro = { items: layoutItems, clauses: layoutClauses, types: signature?.types ?? [], arrow: signature?.results !== undefined };
      return op;
    },
    MicroItem_addressed(this: Node, base: Node, _o: Node, offset: Node, _c: Node) {
      const c = h.contextOf(this);
      return { values: [base.ast(c), offset.ast(c)], span: h.spanOf(c, this) } satisfies ItemAst;
    },
    MicroItem_valueAttr(this: Node, v: Node, a: Node) {
      const c = h.contextOf(this);
      const attr = a.ast(c) as { attr: Attr; span: Span };
      return [
        { values: [v.ast(c)], span: h.spanOf(c, v) },
        { ...attr, joined: true },
      ] satisfies ItemAst[];
    },
    MicroItem_value(this: Node, v: Node) {
      const c = h.contextOf(this);
      return { values: [v.ast(c)], span: h.spanOf(c, this) } satisfies ItemAst;
    },
    MicroItem_attr(this: Node, a: Node) {
      return a.ast(h.contextOf(this));
    },
    microAttr(this: Node, a: Node) {
      const c = h.contextOf(this);
      const span = h.spanOf(c, this);
      const inner = a;
      const text = this.sourceString;
      let attr: Attr;
      if (inner.ctorName === 'string') attr = { kind: 'string', value: h.unquote(text), span };
      else if (inner.ctorName === 'dialectAttr') attr = { kind: 'dialect', text, span };
      else if (inner.ctorName === 'boolLit') attr = { kind: 'bool', value: text === 'true', span };
      else if (inner.children[0]?.ctorName === 'floatLit') attr = { kind: 'float', value: Number(text), text, span };
      else attr = { kind: 'int', value: h.parseIntLiteral(text), span };
      return { attr, span } satisfies ItemAst;
    },
    MicroClause_operands(this: Node, keyword: Node, _o: Node, values: Node, _c: Node) {
      const c = h.contextOf(this);
      return { keyword: keyword.sourceString, values: values.asIteration().children.map((v) => v.ast(c)), span: h.spanOf(c, this) };
    },
    MicroClause_word(this: Node, keyword: Node, _o: Node, word: Node, _c: Node) {
      return { keyword: keyword.sourceString, values: [], word: word.sourceString, span: h.spanOf(h.contextOf(this), this) };
    },
    MicroClause_bare(this: Node, keyword: Node) {
      return { keyword: keyword.sourceString, values: [], bare: true as const, span: h.spanOf(h.contextOf(this), this) };
    },
    MicroTypes(this: Node, _colon: Node, items: Node, results: Node) {
      const c = h.contextOf(this);
      return { types: items.asIteration().children.map((t) => t.ast(c)), results: h.optional<TypeRef[]>(results, c) };
    },
    MicroTypeItem_keyed(this: Node, keyword: Node, t: Node) {
      const c = h.contextOf(this);
      return { keyword: keyword.sourceString, type: t.ast(c) };
    },
    MicroTypeItem_plain(this: Node, t: Node) {
      return { type: t.ast(h.contextOf(this)) };
    },
    MicroResults(this: Node, _arrow: Node, types: Node) {
      const c = h.contextOf(this);
      return types.asIteration().children.map((t) => t.ast(c));
    },
  };
}
