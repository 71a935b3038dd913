import { DIAGNOSTICS as D } from '../diag/catalog';
import { LIMITS } from '../diag/limits';
import { Attr, AttrEntry, ResultDef, TypeRef, ValueRef } from './ast';
import { Actions } from './shape-cache';
import { Node, SPAN_TO_COME, contextOf, internedText, mapOffset, optional, ownSpan, parseIntLiteral, spanOf, typeRef, unquote } from './parse-context';

/** The actions of types, attributes, value uses and result definitions. */
export const attrActions = {
  DenseArrayAttr(this: Node, _kw: Node, _o: Node, type: Node, items: Node, _c: Node) {
    const c = contextOf(this);
    const values = optional<Attr[]>(items, c);
    return { kind: 'array', items: values ?? [], dense: type.sourceString, span: spanOf(c, this) } satisfies Attr;
  },
  DenseElementsAttr(this: Node, _kw: Node, _o: Node, elements: Node, _c: Node, type: Node): Attr {
    const c = contextOf(this);
    return { kind: 'dense', elements: elements.ast(c), type: optional<TypeRef>(type, c), span: spanOf(c, this) };
  },
  DenseArrayItems(this: Node, _colon: Node, list: Node) {
    const c = contextOf(this);
    return list.asIteration().children.map((i) => ({ kind: 'int', value: parseIntLiteral(i.sourceString), span: spanOf(c, i) }) satisfies Attr);
  },
  Loc(this: Node, _kw: Node, _body: Node) {
    return null;
  },
  FunctionType(this: Node, _o: Node, inputs: Node, _c: Node, _arrow: Node, results: Node) {
    const c = contextOf(this);
    return { ...typeRef(c, this), fn: { inputs: inputs.asIteration().children.map((t) => t.ast(c)), results: results.ast(c) } };
  },
  TypeListOrOne_list(this: Node, _o: Node, list: Node, _c: Node) {
    const c = contextOf(this);
    return list.asIteration().children.map((t) => t.ast(c));
  },
  TypeListOrOne_one(this: Node, t: Node) {
    const c = contextOf(this);
    return [t.ast(c)];
  },
  typeToken(this: Node, t: Node) {
    const c = contextOf(this);
    if (t.ctorName !== 'strippedTileType') return typeRef(c, this);
    const span = spanOf(c, this);
    c.legacy.push({ message: `a tile type without its name is the old spelling of '!pto.tile_buf${this.sourceString}'`, span });
    return { text: '!pto.tile_buf' + this.sourceString, span } satisfies TypeRef;
  },
  AttrDict(this: Node, _o: Node, entries: Node, _c: Node) {
    const c = contextOf(this);
    return entries.asIteration().children.map((e) => e.ast(c));
  },
  AttrEntry_value(this: Node, key: Node, _eq: Node, value: Node) {
    const c = contextOf(this);
    return { key: key.ast(c), value: value.ast(c), span: spanOf(c, this) } satisfies AttrEntry;
  },
  AttrEntry_unit(this: Node, key: Node) {
    const c = contextOf(this);
    return { key: key.ast(c), value: { kind: 'unit', span: spanOf(c, this) }, span: spanOf(c, this) } satisfies AttrEntry;
  },
  AttrKey(this: Node, k: Node) {
    return k.ctorName === 'string' ? unquote(k.sourceString) : k.sourceString;
  },
  Attr(this: Node, x: Node): Attr {
    const c = contextOf(this);
    const span = spanOf(c, this);
    switch (x.ctorName) {
      case 'ArrayAttr':
      case 'DenseElementsAttr':
      case 'DenseArrayAttr':
      case 'TypedLiteral':
        return x.ast(c);
      case 'AttrDict':
        return { kind: 'dict', entries: x.ast(c), span };
      case 'boolLit':
        return { kind: 'bool', value: x.sourceString === 'true', span };
      case 'dialectAttr':
      case 'elidedDialectAttr':
        return { kind: 'dialect', text: x.sourceString, span };
      case 'symbolRef':
        return { kind: 'symbol', name: x.ast(c), span };
      case 'Type':
        return { kind: 'type', type: x.ast(c), span };
      default:
        return { kind: 'ident', name: x.sourceString, span };
    }
  },
  ArrayAttr(this: Node, _o: Node, items: Node, _c: Node) {
    const c = contextOf(this);
    return { kind: 'array', items: items.asIteration().children.map((i) => i.ast(c)), span: spanOf(c, this) } satisfies Attr;
  },
  TypedLiteral(this: Node, lit: Node, type: Node): Attr {
    const c = contextOf(this);
    const span = spanOf(c, this);
    const t = optional<TypeRef>(type, c);
    const text = lit.sourceString;
    const inner = lit.children[0];
    if (inner.ctorName === 'string') return { kind: 'string', value: unquote(text), type: t, span };
    if (inner.ctorName === 'number' && inner.children[0].ctorName === 'floatLit') {
      return { kind: 'float', value: Number(text), text, type: t, span };
    }
    return { kind: 'int', value: parseIntLiteral(text), type: t, span };
  },
  LiteralType(this: Node, _c: Node, t: Node) {
    const c = contextOf(this);
    return t.ast(c);
  },
  valueUse(this: Node, id: Node, index: Node) {
    const c = contextOf(this);
    const idx = index.children.length > 0 ? Number(index.sourceString.slice(1)) : undefined;
    const src = this.source;
    const start = mapOffset(c.map, src.startIdx);
    const end = mapOffset(c.map, src.endIdx);
    return ownSpan({ name: internedText(c, id.sourceString), index: idx, start, end, span: SPAN_TO_COME }) satisfies ValueRef;
  },
  resultDef(this: Node, id: Node, count: Node) {
    const c = contextOf(this);
    let n = count.children.length > 0 ? Number(count.sourceString.slice(1)) : 1;
    if (n > LIMITS.resultGroup.value) {
      // Checked before anything is made per value; the group then counts as one value.
      const size = count.sourceString.slice(1);
      c.diags.report(D.sourceLimit, spanOf(c, this), `a result group of ${size} values: more than the ${LIMITS.resultGroup.value} the assembler takes`);
      n = 1;
    }
    return { name: internedText(c, id.sourceString), count: n, span: spanOf(c, this) } satisfies ResultDef;
  },
  symbolRef(this: Node, _at: Node, name: Node) {
    return name.ctorName === 'string' ? unquote(name.sourceString) : name.sourceString;
  },
} as Actions;
