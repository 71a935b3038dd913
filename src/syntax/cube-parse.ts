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
