import type { Node } from 'ohm-js';
import { Span } from '../diag/source';
import { AttrEntry, MicroLayout, Operand, TypeRef, ValueRef } from './ast';
import { ParseHelpers } from './micro-parse';

/** A keyword group as written: `shape(%n, %d)` before the `:`, `shape i64, i64` or `src_layout(i64)` after it. */
interface GroupAst {
  keyword: string;
  values: ValueRef[];
  types: TypeRef[];
  paren: boolean;
  span: Span;
}

/**
 * The actions of `CubeFracBody` (pto.mte_gm_l1_frac, src/syntax/pto.ohm): every operand in written order, typed by
 * the type at its position (segment `operands`); the mode keyword written before and after the `:` as the attributes
 * `mode` and `mode_type`; the layout as written in `op.micro`: items source, destination, each group a clause, and
 * the types with each group's keyword on its first type (`src_layout()` when its types were in parentheses), which
 * the op's definition (src/micro/run/cube-frac.ts) checks against PTOAS's order, counts and forms.
 */
export function cubeActions<C>(h: ParseHelpers<C>): Record<string, (this: Node, ...children: Node[]) => unknown> {
  return {
    // prettier-ignore
    CubeFracBody(this: Node, src: Node, _c1: Node, dst: Node, _c2: Node, mode: Node, _c3: Node, groups: Node, attrs: Node, _colon: Node, srcType: Node, _c4: Node, dstType: Node, _c5: Node, modeType: Node, _c6: Node, typeGroups: Node) {
      const c = h.contextOf(this);
      const op = h.fields();
      const values = groups.asIteration().children.map((g) => g.ast(c) as GroupAst);
      const types = typeGroups.asIteration().children.map((g) => g.ast(c) as GroupAst);
      const flatTypes = types.flatMap((g) => g.types);
      const heads: TypeRef[] = [srcType.ast(c) as TypeRef, dstType.ast(c) as TypeRef];
      const operands: Operand[] = [src, dst].map((n, i) => h.valueOperand(n.ast(c) as ValueRef, heads[i]));
      const clauses: MicroLayout['clauses'] = values.map((g) => ({
        keyword: g.keyword,
        operands: g.values.map((v) => operands.push(h.valueOperand(v, flatTypes[operands.length - 2])) - 1),
        span: g.span,
      }));
      const word = (n: Node, key: string): AttrEntry => ({ key, value: { kind: 'string', value: n.sourceString, span: h.spanOf(c, n) }, span: h.spanOf(c, n) });
      op.operands = operands;
      op.segments = { operands: operands.map((_, i) => i) };
      op.attrs = [word(mode, 'mode'), word(modeType, 'mode_type'), ...(h.optional<AttrEntry[]>(attrs, c) ?? [])];
      op.resultTypes = [];
      op.micro = {
        items: [
          { operand: 0, span: h.spanOf(c, src) },
          { operand: 1, span: h.spanOf(c, dst) },
        ],
        clauses,
        types: [
          ...heads.map((type) => ({ type })),
          ...types.flatMap((g) => g.types.map((type, k) => (k === 0 ? { keyword: g.paren ? `${g.keyword}()` : g.keyword, type } : { type }))),
        ],
        arrow: false,
      };
      return op;
    },
    CubeGroup(this: Node, keyword: Node, _o: Node, values: Node, _c: Node) {
      const c = h.contextOf(this);
      return { keyword: keyword.sourceString, values: values.asIteration().children.map((v) => v.ast(c)), types: [], paren: false, span: h.spanOf(c, this) };
    },
    CubeGroupTypes_paren(this: Node, keyword: Node, _o: Node, types: Node, _c: Node) {
      const c = h.contextOf(this);
      return { keyword: keyword.sourceString, values: [], types: types.asIteration().children.map((t) => t.ast(c)), paren: true, span: h.spanOf(c, this) };
    },
    CubeGroupTypes_plain(this: Node, keyword: Node, types: Node) {
      const c = h.contextOf(this);
      return { keyword: keyword.sourceString, values: [], types: types.asIteration().children.map((t) => t.ast(c)), paren: false, span: h.spanOf(c, this) };
    },
  };
}

/** An item of `AccStoreBody`: a value, a bare word, or a keyword group with its value operands and its words. */
type AccItemAst = { value: ValueRef; span: Span } | { keyword: string; values?: ValueRef[]; words?: string; keyed?: number; group: boolean; span: Span };

/**
 * The actions of `AccStoreBody` (pto.mte_l0c_gm/ub/l1): the operands in written order, each typed by the type at its
 * position after the `:` (PTOAS lists them in that order); the layout in `op.micro`: the leading values as items,
 * then each group or word as a clause (a group's value arguments its operands, its other arguments' text its
 * `word`; a word `bare`), which the op's definition (src/micro/run/acc-store.ts) checks.
 */
export function accStoreActions<C>(h: ParseHelpers<C>): Record<string, (this: Node, ...children: Node[]) => unknown> {
  return {
    AccStoreBody(this: Node, items: Node, attrs: Node, _colon: Node, types: Node) {
      const c = h.contextOf(this);
      const op = h.fields();
      const typeRefs = types.asIteration().children.map((t) => t.ast(c) as TypeRef);
      const operands: Operand[] = [];
      const place = (v: ValueRef) => operands.push(h.valueOperand(v, typeRefs[operands.length])) - 1;
      const layout: MicroLayout = { items: [], clauses: [], types: typeRefs.map((type) => ({ type })), arrow: false };
      for (const item of items.asIteration().children.map((i) => i.ast(c) as AccItemAst)) {
        if ('value' in item && layout.clauses.length === 0) layout.items.push({ operand: place(item.value), span: item.span });
        else if ('value' in item) layout.clauses.push({ keyword: '', operands: [place(item.value)], span: item.span });
        else if (!item.group) layout.clauses.push({ keyword: item.keyword, operands: [], span: item.span, bare: true });
        else
          layout.clauses.push({
            keyword: item.keyword,
            operands: (item.values ?? []).map(place),
            span: item.span,
            ...(item.words ? { word: item.words } : {}),
            ...(item.keyed ? { keyed: item.keyed } : {}),
          });
      }
      op.operands = operands;
      op.segments = { operands: operands.map((_, i) => i) };
      op.attrs = h.optional<AttrEntry[]>(attrs, c) ?? [];
      op.resultTypes = [];
      op.micro = layout;
      return op;
    },
    AccStoreItem_group(this: Node, keyword: Node, _o: Node, args: Node, _c: Node) {
      const c = h.contextOf(this);
      const parsed = args.asIteration().children.map((a) => a.ast(c) as { text: string; value?: ValueRef });
      const words = parsed.filter((a) => !a.value || a.text.includes('=')).map((a) => a.text);
      // Positional values first, then the keyed ones (`clip = %c`), which the words spell too.
      const positional = parsed.filter((a) => a.value && !a.text.includes('='));
      const keyed = parsed.filter((a) => a.value && a.text.includes('='));
      return {
        keyword: keyword.sourceString,
        values: [...positional, ...keyed].map((a) => a.value!),
        ...(words.length ? { words: words.join(', ') } : {}),
        ...(keyed.length ? { keyed: keyed.length } : {}),
        group: true,
        span: h.spanOf(c, this),
      };
    },
    AccStoreItem_value(this: Node, v: Node) {
      const c = h.contextOf(this);
      return { value: v.ast(c), span: h.spanOf(c, this) };
    },
    AccStoreItem_word(this: Node, w: Node) {
      return { keyword: w.sourceString, group: false, span: h.spanOf(h.contextOf(this), this) };
    },
    AccStoreArg_keyed(this: Node, key: Node, _eq: Node, value: Node) {
      const inner = value.ast(h.contextOf(this)) as { text: string; value?: ValueRef };
      return { text: `${key.sourceString} = ${inner.text}`, value: inner.value };
    },
    AccStoreArg_plain(this: Node, value: Node) {
      return value.ast(h.contextOf(this));
    },
    AccStoreValue(this: Node, v: Node) {
      const c = h.contextOf(this);
      return v.ctorName === 'valueUse' ? { text: v.sourceString, value: v.ast(c) } : { text: v.sourceString };
    },
  };
}
