import { DIAGNOSTICS as D } from '../diag/catalog';
import { Span } from '../diag/source';
import { Attr, AttrEntry, OpNode, Operand, TypeRef, ValueRef } from './ast';
import { Actions } from './shape-cache';
import { Node, OpFields, addSegment, appendSegment, contextOf, fields, optional, spanOf, surplus, typedValues, unquote, valueOperand } from './parse-context';

/** One item inside the parentheses of the parenthesized form: `%v`, `%v : T`, `key = %v : T`, `name(%a, %b)`. */
interface ParenItemAst {
  segment?: string;
  keyed?: boolean;
  values: ValueRef[];
  types?: TypeRef[];
}

/** What declares an op's results: `: (T) -> R` / `: T` (a signature), or `-> R`. */
type ResultSpec = { inputs: TypeRef[]; results: TypeRef[]; arrow: boolean } | { arrow: true; types: TypeRef[] };

interface DpsList {
  operands: Operand[];
  attrs: AttrEntry[];
  /** `no_tmp` and the like, written after an operand. */
  markers?: string[];
  /** The axis string written after the types. */
  axis?: AttrEntry;
}

/** The actions of the generic op forms: `ins(...) outs(...)`, SSA operands, the parenthesized form, signatures. */
export const operandListActions = {
  DpsBody(this: Node, _ins: Node, _o: Node, ins: Node, keywordOperands: Node, _c: Node, outs: Node, attrs: Node, trailers: Node, resultTypes: Node) {
    const c = contextOf(this);
    const op: OpFields = { form: 'dps', ...fields() };
    const insList = ins.ast(c) as DpsList;
    addSegment(op, 'ins', insList.operands);
    op.attrs.push(...insList.attrs);
    if (insList.axis) {
      op.attrs.push(insList.axis);
      op.insTypesAttr = insList.axis.key;
    }
    if (insList.markers?.length) op.insMarkers = insList.markers;
    for (const k of keywordOperands.children) {
      const { keyword, operand } = k.ast(c) as { keyword: string; operand: Operand };
      if (op.segments[keyword]) c.diags.report(D.listMismatch, operand.span, `'${keyword}' is given twice`);
      addSegment(op, keyword, [operand]);
      op.insKeywords = [...(op.insKeywords ?? []), keyword];
    }
    const outsList = optional<DpsList | { scalar: TypeRef }>(outs, c);
    if (outsList && 'scalar' in outsList) {
      addSegment(op, 'outs', []);
      op.resultTypes = [outsList.scalar];
    } else {
      const list = outsList as DpsList | undefined;
      addSegment(op, 'outs', list?.operands ?? []);
      op.attrs.push(...(list?.attrs ?? []));
    }
    op.attrs.push(...(optional<AttrEntry[]>(attrs, c) ?? []));
    for (const t of trailers.children) {
      const trailer = t.ast(c) as { key: string; value: ValueRef | Attr; type?: TypeRef; span: Span };
      if ('kind' in trailer.value) op.attrs.push({ key: trailer.key, value: trailer.value, span: trailer.span });
      else addSegment(op, trailer.key, [valueOperand(trailer.value, trailer.type)]);
    }
    const declared = optional<TypeRef[]>(resultTypes, c);
    if (declared) op.resultTypes = declared;
    return op;
  },
  DpsOuts_list(this: Node, _kw: Node, _o: Node, list: Node, _c: Node) {
    const c = contextOf(this);
    return list.ast(c);
  },
  DpsOuts_scalar(this: Node, _kw: Node, _c: Node, t: Node) {
    const c = contextOf(this);
    return { scalar: t.ast(c) };
  },
  PerOperandList(this: Node, list: Node, _lookahead: Node) {
    const c = contextOf(this);
    return { operands: list.asIteration().children.map((o) => o.ast(c)), attrs: [] } satisfies DpsList;
  },
  TypedOperand(this: Node, v: Node, _c: Node, t: Node) {
    const c = contextOf(this);
    return valueOperand(v.ast(c), t.ast(c));
  },
  GroupedList(this: Node, items: Node, _c: Node, types: Node, axis: Node) {
    const c = contextOf(this);
    const values: ValueRef[] = [];
    const attrs: AttrEntry[] = [];
    const markers: string[] = [];
    for (const item of items.asIteration().children) {
      const it = item.ast(c) as { value?: ValueRef; marker?: string; attrs: AttrEntry[] };
      if (it.value) values.push(it.value);
      if (it.marker) markers.push(it.marker);
      attrs.push(...it.attrs);
    }
    const ts = types.asIteration().children.map((t) => t.ast(c) as TypeRef);
    return { operands: typedValues(c, { values, types: ts }, this), attrs, markers, axis: optional<AttrEntry>(axis, c) } satisfies DpsList;
  },
  DpsAxis(this: Node, _comma: Node, text: Node) {
    const c = contextOf(this);
    const span = spanOf(c, text);
    return { key: 'axis', value: { kind: 'string', value: unquote(text.sourceString), span }, span } satisfies AttrEntry;
  },
  EmptyList(this: Node, _lookahead: Node) {
    return { operands: [], attrs: [] } satisfies DpsList;
  },
  DpsItem_value(this: Node, v: Node, marker: Node, attrs: Node) {
    const c = contextOf(this);
    return { value: v.ast(c), marker: marker.children[0]?.sourceString, attrs: optional<AttrEntry[]>(attrs, c) ?? [] };
  },
  DpsItem_attrs(this: Node, dict: Node) {
    const c = contextOf(this);
    return { attrs: dict.ast(c) };
  },
  DpsKeywordOperand(this: Node, keyword: Node, v: Node, _c: Node, t: Node) {
    const c = contextOf(this);
    return { keyword: keyword.sourceString, operand: valueOperand(v.ast(c), t.ast(c)) };
  },
  DpsTrailer(this: Node, key: Node, _eq: Node, value: Node, type: Node) {
    const c = contextOf(this);
    return { key: key.sourceString, value: value.ast(c), type: optional<TypeRef>(type, c), span: spanOf(c, this) };
  },
  DpsTrailerType(this: Node, _c: Node, t: Node) {
    const c = contextOf(this);
    return t.ast(c);
  },
  SsaBody(this: Node, values: Node, attrs: Node, clauses: Node, resultSpec: Node) {
    const c = contextOf(this);
    const op: OpFields = { form: 'ssa', ...fields() };
    const spec = optional<ResultSpec>(resultSpec, c);
    const sig = spec && 'inputs' in spec ? spec : undefined;
    const vs = optional<ValueRef[]>(values, c) ?? [];
    let inputTypes: (TypeRef | undefined)[] = [];
    if (spec && 'types' in spec) {
      op.resultTypes = spec.types;
      op.arrowResults = true;
    } else if (sig?.arrow) {
      inputTypes = sig.inputs;
      op.resultTypes = sig.results;
    } else if (sig) {
      // `op %a, %b : T` (one type for all operands and the result) or one type per operand.
      inputTypes = sig.inputs.length === 1 ? vs.map(() => sig.inputs[0]) : sig.inputs;
      op.resultTypes = sig.inputs.length === 1 ? [sig.inputs[0]] : [];
    }
    if (sig?.arrow && inputTypes.length !== vs.length && !(vs.length === 0 && inputTypes.length === 0)) {
      const at = surplus(vs, inputTypes as TypeRef[]) ?? spanOf(c, resultSpec);
      c.diags.report(D.listMismatch, at, `${vs.length} operand(s) but ${inputTypes.length} type(s) in the signature`);
    }
    addSegment(
      op,
      'operands',
      vs.map((v, i) => valueOperand(v, inputTypes[i])),
    );
    op.attrs = optional<AttrEntry[]>(attrs, c) ?? [];
    const trailing = clauses.children.map((k) => k.ast(c) as { key: string; value: ValueRef });
    for (const t of trailing) addSegment(op, t.key, [valueOperand(t.value)]);
    if (trailing.length > 0) op.clauses = trailing.map((t) => t.key);
    (op as OpNode & { signatureSingle?: boolean }).signatureSingle = !!sig && !sig.arrow && sig.inputs.length === 1;
    return op;
  },
  ParenBody(this: Node, leading: Node, _o: Node, args: Node, _c: Node, keywords: Node, attrs: Node, clauses: Node, resultSpec: Node) {
    const c = contextOf(this);
    const op: OpFields = { form: 'paren', ...fields() };
    const leadingAttrs = optional<AttrEntry[]>(leading, c) ?? [];
    const keywordAttrs = optional<AttrEntry[]>(keywords, c) ?? [];
    op.attrs = [...leadingAttrs, ...keywordAttrs, ...(optional<AttrEntry[]>(attrs, c) ?? [])];
    const parsed = args.ast(c) as { items: ParenItemAst[]; types?: TypeRef[]; typed: boolean };
    const values = parsed.items.flatMap((item) => item.values);
    if (parsed.types && parsed.types.length !== values.length) {
      c.diags.report(D.listMismatch, surplus(values, parsed.types) ?? spanOf(c, args), `${values.length} operand(s) but ${parsed.types.length} type(s)`);
    }
    let k = 0;
    const keyed: string[] = [];
    const clauseSegments: string[] = [];
    for (const item of parsed.items) {
      const operands = item.values.map((v, i) => valueOperand(v, item.types?.[i] ?? parsed.types?.[k + i]));
      k += item.values.length;
      const name = item.segment ?? 'operands';
      if (item.segment && item.keyed) keyed.push(name);
      else if (item.segment) clauseSegments.push(name);
      appendSegment(op, name, operands);
    }
    const trailing = clauses.children.map((t) => t.ast(c) as { key: string; value: ValueRef });
    for (const t of trailing) appendSegment(op, t.key, [valueOperand(t.value)]);
    const spec = optional<ResultSpec>(resultSpec, c);
    if (spec) op.resultTypes = 'types' in spec ? spec.types : spec.results;
    op.paren = {
      leadingAttrs: leadingAttrs.map((a) => a.key),
      keywordAttrs: keywordAttrs.map((a) => a.key),
      typedItems: parsed.typed,
      keyedSegments: keyed,
      clauseSegments,
      trailingClauses: trailing.map((t) => t.key),
      signature: !!spec && 'inputs' in spec,
    };
    if (spec && 'inputs' in spec && spec.inputs.length !== values.length) {
      const at = surplus(values, spec.inputs) ?? spanOf(c, resultSpec);
      c.diags.report(D.listMismatch, at, `${values.length} operand(s) but ${spec.inputs.length} type(s) in the signature`);
    }
    if (spec && 'inputs' in spec) op.operands.forEach((o, i) => (o.type ??= spec.inputs[i]));
    return op;
  },
  ParenArgs_typed(this: Node, list: Node, _lookahead: Node) {
    const c = contextOf(this);
    return { items: list.asIteration().children.map((i) => i.ast(c)), typed: true };
  },
  ParenArgs_grouped(this: Node, list: Node, types: Node) {
    const c = contextOf(this);
    return { items: list.asIteration().children.map((i) => i.ast(c)), types: optional<TypeRef[]>(types, c), typed: false };
  },
  ParenTypedItem_keyed(this: Node, key: Node, _eq: Node, v: Node, _c: Node, t: Node): ParenItemAst {
    const c = contextOf(this);
    return { segment: key.sourceString, keyed: true, values: [v.ast(c)], types: [t.ast(c)] };
  },
  ParenTypedItem_plain(this: Node, v: Node, _c: Node, t: Node): ParenItemAst {
    const c = contextOf(this);
    return { values: [v.ast(c)], types: [t.ast(c)] };
  },
  ParenItem_clause(this: Node, key: Node, _o: Node, list: Node, _c: Node): ParenItemAst {
    const c = contextOf(this);
    return { segment: key.sourceString, values: list.asIteration().children.map((v) => v.ast(c)) };
  },
  ParenItem_plain(this: Node, v: Node): ParenItemAst {
    const c = contextOf(this);
    return { values: [v.ast(c)] };
  },
  ParenTypes(this: Node, _c: Node, list: Node) {
    const c = contextOf(this);
    return list.asIteration().children.map((t) => t.ast(c));
  },
  KeywordAttrs(this: Node, list: Node) {
    const c = contextOf(this);
    return list.asIteration().children.map((e) => e.ast(c));
  },
  KeywordAttr(this: Node, key: Node, _eq: Node, value: Node): AttrEntry {
    const c = contextOf(this);
    return { key: key.sourceString, value: value.ast(c), span: spanOf(c, this) };
  },
  OperandClause(this: Node, key: Node, _o: Node, v: Node, _c: Node) {
    const c = contextOf(this);
    return { key: key.sourceString, value: v.ast(c) };
  },
  ResultSpec(this: Node, spec: Node): ResultSpec {
    const c = contextOf(this);
    const value = spec.ast(c);
    return Array.isArray(value) ? { arrow: true, types: value } : value;
  },
  SsaOperands(this: Node, list: Node) {
    const c = contextOf(this);
    return list.asIteration().children.map((v) => v.ast(c));
  },
  Signature(this: Node, _c: Node, body: Node) {
    const c = contextOf(this);
    return body.ast(c);
  },
  SignatureTypes_arrow(this: Node, inputs: Node, _arrow: Node, results: Node) {
    const c = contextOf(this);
    return { inputs: inputs.ast(c), results: results.ast(c), arrow: true };
  },
  SignatureTypes_plain(this: Node, list: Node) {
    const c = contextOf(this);
    return { inputs: list.asIteration().children.map((t) => t.ast(c)), results: [], arrow: false };
  },
} as Actions;
