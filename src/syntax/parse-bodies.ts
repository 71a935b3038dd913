import { DIAGNOSTICS as D } from '../diag/catalog';
import { Attr, AttrEntry, Operand, TypeRef, ValueRef } from './ast';
import { Actions } from './shape-cache';
import { Node, addSegment, contextOf, fields, optional, parseIntLiteral, spanOf, typedOperandAndIndex, unquote, valueOperand } from './parse-context';

/** The actions of the custom syntaxes of the arith, pto, memref and affine ops (views, tiles, pointers, sections, print, positional bodies). */
export const bodyActions = {
  ArithConstantBody(this: Node, attrs: Node, value: Node) {
    const c = contextOf(this);
    const op = fields();
    const v = value.ast(c) as Attr;
    const written = optional<AttrEntry[]>(attrs, c);
    const entry: AttrEntry = { key: 'value', value: v, span: v.span };
    // Not `[...written, entry]`: a list that starts with a spread keeps room for more (most constants write none).
    op.attrs = written ? written.concat([entry]) : [entry];
    const t = 'type' in v && v.type && typeof v.type === 'object' && 'text' in v.type ? v.type : undefined;
    if (t) op.resultTypes = [t];
    else if (v.kind === 'bool') op.resultTypes = [{ text: 'i1', span: v.span }];
    return op;
  },
  ArithCmpBody(this: Node, pred: Node, _c1: Node, lhs: Node, _c2: Node, rhs: Node, attrs: Node, _colon: Node, t: Node) {
    const c = contextOf(this);
    const op = fields();
    const type = t.ast(c) as TypeRef;
    addSegment(op, 'operands', [valueOperand(lhs.ast(c), type), valueOperand(rhs.ast(c), type)]);
    op.attrs = [
      { key: 'predicate', value: { kind: 'ident', name: pred.sourceString, span: spanOf(c, pred) }, span: spanOf(c, pred) },
      ...(optional<AttrEntry[]>(attrs, c) ?? []),
    ];
    op.resultTypes = [{ text: 'i1', span: type.span }];
    return op;
  },
  ArithCastBody(this: Node, v: Node, attrs: Node, _c: Node, from: Node, _to: Node, to: Node) {
    const c = contextOf(this);
    const op = fields();
    addSegment(op, 'operands', [valueOperand(v.ast(c), from.ast(c))]);
    op.resultTypes = [to.ast(c)];
    op.attrs = optional<AttrEntry[]>(attrs, c) ?? [];
    return op;
  },
  ArithSelectBody(this: Node, cond: Node, _1: Node, a: Node, _2: Node, b: Node, attrs: Node, _colon: Node, types: Node) {
    const c = contextOf(this);
    const op = fields();
    const ts = types.asIteration().children.map((t) => t.ast(c) as TypeRef);
    const valueType = ts[ts.length - 1];
    const condType = ts.length > 1 ? ts[0] : { text: 'i1', span: valueType.span };
    addSegment(op, 'operands', [valueOperand(cond.ast(c), condType), valueOperand(a.ast(c), valueType), valueOperand(b.ast(c), valueType)]);
    op.resultTypes = [valueType];
    op.attrs = optional<AttrEntry[]>(attrs, c) ?? [];
    return op;
  },
  ArithBody(this: Node, values: Node, _overflow: Node, attrs: Node, _colon: Node, t: Node) {
    const c = contextOf(this);
    const op = fields();
    const type = t.ast(c) as TypeRef;
    addSegment(
      op,
      'operands',
      values.asIteration().children.map((v) => valueOperand(v.ast(c), type)),
    );
    op.resultTypes = [type];
    op.attrs = optional<AttrEntry[]>(attrs, c) ?? [];
    return op;
  },
  MakeTensorViewBody(
    this: Node,
    src: Node,
    _c: Node,
    _shapeKw: Node,
    _eq: Node,
    shape: Node,
    comma: Node,
    _stridesKw: Node,
    _eq2: Node,
    strides: Node,
    attrs: Node,
    _colon: Node,
    t: Node,
  ) {
    const c = contextOf(this);
    const op = fields();
    addSegment(op, 'source', [valueOperand(src.ast(c))]);
    addSegment(op, 'shape', shape.ast(c));
    addSegment(op, 'strides', strides.ast(c));
    op.attrs = optional<AttrEntry[]>(attrs, c) ?? [];
    op.resultTypes = [t.ast(c)];
    if (comma.sourceString === '') {
      op.legacy = [
        { message: "missing ',' before 'strides' (accepted for older PTOAS output; write 'shape = [...], strides = [...]')", span: spanOf(c, _stridesKw) },
      ];
    }
    return op;
  },
  PartitionViewBody(
    this: Node,
    src: Node,
    _c: Node,
    _offKw: Node,
    _eq: Node,
    offsets: Node,
    _c2: Node,
    _sizesKw: Node,
    _eq2: Node,
    sizes: Node,
    attrs: Node,
    _colon: Node,
    t: Node,
    result: Node,
  ) {
    const c = contextOf(this);
    const op = fields();
    const sourceType = t.ast(c) as TypeRef;
    addSegment(op, 'source', [valueOperand(src.ast(c), sourceType)]);
    addSegment(op, 'offsets', offsets.ast(c));
    addSegment(op, 'sizes', sizes.ast(c));
    op.attrs = optional<AttrEntry[]>(attrs, c) ?? [];
    op.resultTypes = optional<TypeRef[]>(result, c) ?? [];
    return op;
  },
  IndexList(this: Node, _o: Node, items: Node, _c: Node) {
    const c = contextOf(this);
    return items.asIteration().children.map((i) => i.ast(c));
  },
  IndexItem(this: Node, item: Node) {
    const c = contextOf(this);
    if (item.ctorName === 'intLit') return { literal: Number(item.sourceString), span: spanOf(c, item) } satisfies Operand;
    return valueOperand(item.ast(c));
  },
  AllocTileBody(this: Node, operands: Node, attrs: Node, _c: Node, t: Node) {
    const c = contextOf(this);
    const op = fields();
    for (const o of operands.children) {
      const { key, operand } = o.ast(c) as { key: string; operand: Operand };
      if (op.segments[key]) c.diags.report(D.listMismatch, operand.span, `'${key}' is given twice`);
      else addSegment(op, key, [operand]);
    }
    op.attrs = optional<AttrEntry[]>(attrs, c) ?? [];
    op.resultTypes = [t.ast(c)];
    return op;
  },
  SubviewBody(
    this: Node,
    src: Node,
    _o: Node,
    offsets: Node,
    _c: Node,
    _sizesKw: Node,
    _o2: Node,
    sizes: Node,
    _c2: Node,
    valid: Node,
    attrs: Node,
    _colon: Node,
    t: Node,
    result: Node,
  ) {
    const c = contextOf(this);
    const op = fields();
    const sourceType = t.ast(c) as TypeRef;
    addSegment(op, 'source', [valueOperand(src.ast(c), sourceType)]);
    addSegment(
      op,
      'offsets',
      offsets.asIteration().children.map((i: Node) => i.ast(c)),
    );
    const validRowCol = optional<[ValueRef, ValueRef]>(valid, c);
    if (validRowCol) {
      addSegment(op, 'valid_row', [valueOperand(validRowCol[0])]);
      addSegment(op, 'valid_col', [valueOperand(validRowCol[1])]);
    }
    const sizeItems: Attr[] = sizes.asIteration().children.map((n: Node) => ({ kind: 'int', value: BigInt(n.sourceString), span: spanOf(c, n) }));
    op.attrs = [
      { key: 'sizes', value: { kind: 'array', items: sizeItems, span: spanOf(c, sizes) }, span: spanOf(c, sizes) },
      ...(optional<AttrEntry[]>(attrs, c) ?? []),
    ];
    op.resultTypes = optional<TypeRef[]>(result, c) ?? [];
    return op;
  },
  FirstOperandTypedBody(this: Node, values: Node, attrs: Node, _colon: Node, t: Node, result: Node) {
    const c = contextOf(this);
    const op = fields();
    const [first, ...rest] = values.asIteration().children.map((v) => v.ast(c) as ValueRef);
    addSegment(op, 'operands', [valueOperand(first, t.ast(c)), ...rest.map((v) => valueOperand(v))]);
    op.attrs = optional<AttrEntry[]>(attrs, c) ?? [];
    op.resultTypes = optional<TypeRef[]>(result, c) ?? [];
    return op;
  },
  SubviewValid(this: Node, _kw: Node, _o: Node, row: Node, _comma: Node, col: Node, _c: Node) {
    const c = contextOf(this);
    return [row.ast(c), col.ast(c)];
  },
  AllocOperand(this: Node, key: Node, _eq: Node, v: Node) {
    const c = contextOf(this);
    return { key: key.sourceString, operand: valueOperand(v.ast(c)) };
  },
  StrictVecScopeBody(this: Node, _o: Node, captures: Node, _c: Node, region: Node, attrs: Node, _colon: Node, fnType: Node) {
    const c = contextOf(this);
    const op = fields();
    const fn = fnType.ast(c) as TypeRef & { fn: { inputs: TypeRef[]; results: TypeRef[] } };
    addSegment(
      op,
      'captures',
      captures.asIteration().children.map((v, i) => valueOperand(v.ast(c), fn.fn.inputs[i])),
    );
    op.regions = [region.ast(c)];
    op.attrs = optional<AttrEntry[]>(attrs, c) ?? [];
    op.resultTypes = fn.fn.results;
    return op;
  },
  SectionBody(this: Node, region: Node, attrs: Node) {
    const c = contextOf(this);
    const op = fields();
    op.regions = [region.ast(c)];
    op.attrs = optional<AttrEntry[]>(attrs, c) ?? [];
    return op;
  },
  IndexedAccessBody(
    this: Node,
    storage: Node,
    _o: Node,
    items: Node,
    _c: Node,
    value: Node,
    attrs: Node,
    _colon: Node,
    t: Node,
    valueType: Node,
    result: Node,
  ) {
    const c = contextOf(this);
    const op = fields();
    addSegment(op, 'operands', [valueOperand(storage.ast(c), t.ast(c))]);
    const indices: Operand[] = [];
    const path: Attr[] = [];
    for (const item of items.asIteration().children) {
      const it = item.ast(c) as Operand;
      if (it.value) indices.push(it);
      else path.push({ kind: 'int', value: BigInt(it.literal!), span: it.span });
    }
    if (indices.length > 0) addSegment(op, 'indices', indices);
    const stored = optional<ValueRef>(value, c);
    if (stored) addSegment(op, 'value', [valueOperand(stored, optional<TypeRef>(valueType, c))]);
    op.attrs = optional<AttrEntry[]>(attrs, c) ?? [];
    if (path.length > 0) op.attrs.unshift({ key: 'path', value: { kind: 'array', items: path, span: spanOf(c, items) }, span: spanOf(c, items) });
    op.resultTypes = optional<TypeRef[]>(result, c) ?? [];
    return op;
  },
  IndexedValue(this: Node, _comma: Node, v: Node) {
    const c = contextOf(this);
    return v.ast(c);
  },
  IndexedValueType(this: Node, _comma: Node, t: Node) {
    const c = contextOf(this);
    return t.ast(c);
  },
  SimtSectionBody(
    this: Node,
    _a: Node,
    _b: Node,
    _c0: Node,
    x: Node,
    _k1: Node,
    y: Node,
    _k2: Node,
    z: Node,
    _d: Node,
    _e: Node,
    _f: Node,
    region: Node,
    attrs: Node,
  ) {
    const c = contextOf(this);
    const op = fields();
    op.regions = [region.ast(c)];
    const dim = (key: string, n: Node): AttrEntry => ({
      key,
      value: { kind: 'int', value: parseIntLiteral(n.sourceString), span: spanOf(c, n) },
      span: spanOf(c, n),
    });
    op.attrs = [dim('dimX', x), dim('dimY', y), dim('dimZ', z), ...(optional<AttrEntry[]>(attrs, c) ?? [])];
    return op;
  },
  FusionRegionBody(this: Node, region: Node, attrs: Node, _colon: Node, types: Node) {
    const c = contextOf(this);
    const op = fields();
    op.regions = [region.ast(c)];
    op.attrs = optional<AttrEntry[]>(attrs, c) ?? [];
    op.resultTypes = types.children.length > 0 ? types.children[0].asIteration().children.map((t) => t.ast(c)) : [];
    return op;
  },
  FenceBody(this: Node, scope: Node, attrs: Node) {
    const c = contextOf(this);
    const op = fields();
    const span = spanOf(c, scope);
    op.attrs = [{ key: 'scope', value: { kind: 'dialect', text: scope.sourceString, span }, span }, ...(optional<AttrEntry[]>(attrs, c) ?? [])];
    return op;
  },
  CacheInvalidBody_all(this: Node, _kw: Node, space: Node, attrs: Node) {
    const c = contextOf(this);
    const op = fields();
    const span = spanOf(c, space);
    op.attrs = [{ key: 'space', value: { kind: 'dialect', text: space.sourceString, span }, span }, ...(optional<AttrEntry[]>(attrs, c) ?? [])];
    return op;
  },
  CacheInvalidBody_line(this: Node, v: Node, _kw: Node, _colon: Node, t: Node, attrs: Node) {
    const c = contextOf(this);
    const op = fields();
    addSegment(op, 'addr', [valueOperand(v.ast(c), t.ast(c))]);
    op.attrs = optional<AttrEntry[]>(attrs, c) ?? [];
    return op;
  },
  MemrefAllocBody(this: Node, _o: Node, dynamicSizes: Node, _c: Node, attrs: Node, _colon: Node, t: Node) {
    const c = contextOf(this);
    const op = fields();
    addSegment(
      op,
      'sizes',
      dynamicSizes.asIteration().children.map((v) => valueOperand(v.ast(c))),
    );
    op.attrs = optional<AttrEntry[]>(attrs, c) ?? [];
    op.resultTypes = [t.ast(c)];
    return op;
  },
  MemrefSubviewBody(this: Node, src: Node, offsets: Node, sizes: Node, strides: Node, attrs: Node, _colon: Node, from: Node, _to: Node, to: Node) {
    const c = contextOf(this);
    const op = fields();
    addSegment(op, 'source', [valueOperand(src.ast(c), from.ast(c))]);
    addSegment(op, 'offsets', offsets.ast(c));
    addSegment(op, 'sizes', sizes.ast(c));
    addSegment(op, 'strides', strides.ast(c));
    op.attrs = optional<AttrEntry[]>(attrs, c) ?? [];
    op.resultTypes = [to.ast(c)];
    return op;
  },
  PointerCastBody(this: Node, _o: Node, addresses: Node, _c: Node, attrs: Node, _colon: Node, t: Node) {
    const c = contextOf(this);
    const op = fields();
    addSegment(
      op,
      'addr',
      addresses.asIteration().children.map((v) => valueOperand(v.ast(c))),
    );
    op.attrs = optional<AttrEntry[]>(attrs, c) ?? [];
    op.resultTypes = [t.ast(c)];
    return op;
  },
  BindTileBody(this: Node, src: Node, _c1: Node, rows: Node, _c2: Node, cols: Node, attrs: Node, _colon: Node, from: Node, _arrow: Node, to: Node) {
    const c = contextOf(this);
    const op = fields();
    addSegment(op, 'source', [valueOperand(src.ast(c), from.ast(c))]);
    addSegment(op, 'valid_row', [valueOperand(rows.ast(c))]);
    addSegment(op, 'valid_col', [valueOperand(cols.ast(c))]);
    op.attrs = optional<AttrEntry[]>(attrs, c) ?? [];
    op.resultTypes = [to.ast(c)];
    return op;
  },
  PtrType(this: Node, t: Node) {
    const c = contextOf(this);
    return t.ast(c);
  },
  elidedPtrType(this: Node, _body: Node) {
    const c = contextOf(this);
    return { text: '!pto.ptr' + this.sourceString, span: spanOf(c, this) } satisfies TypeRef;
  },
  AddPtrBody(this: Node, ptr: Node, _c: Node, offset: Node, attrs: Node, _colon: Node, from: Node, _arrow: Node, to: Node) {
    return typedOperandAndIndex(contextOf(this), ['ptr', ptr, from], ['offset', offset], attrs, to);
  },
  LlvmExtractElementBody(this: Node, vector: Node, _o: Node, index: Node, _ic: Node, indexType: Node, _c: Node, attrs: Node, _colon: Node, vectorType: Node) {
    const c = contextOf(this);
    const op = fields();
    addSegment(op, 'vector', [valueOperand(vector.ast(c) as ValueRef, vectorType.ast(c) as TypeRef)]);
    addSegment(op, 'position', [valueOperand(index.ast(c) as ValueRef, indexType.ast(c) as TypeRef)]);
    op.attrs = optional<AttrEntry[]>(attrs, c) ?? [];
    return op;
  },
  LoadScalarBody(this: Node, ptr: Node, _o: Node, offset: Node, _c: Node, attrs: Node, _colon: Node, from: Node, _arrow: Node, to: Node) {
    return typedOperandAndIndex(contextOf(this), ['ptr', ptr, from], ['offset', offset], attrs, to);
  },
  StoreScalarBody(
    this: Node,
    value: Node,
    _c1: Node,
    ptr: Node,
    _o: Node,
    offset: Node,
    _c: Node,
    attrs: Node,
    _colon: Node,
    ptrType: Node,
    _c2: Node,
    valueType: Node,
  ) {
    const c = contextOf(this);
    const op = fields();
    addSegment(op, 'value', [valueOperand(value.ast(c), valueType.ast(c))]);
    addSegment(op, 'ptr', [valueOperand(ptr.ast(c), ptrType.ast(c))]);
    addSegment(op, 'offset', [valueOperand(offset.ast(c))]);
    op.attrs = optional<AttrEntry[]>(attrs, c) ?? [];
    return op;
  },
  TensorViewDimBody(this: Node, view: Node, _c: Node, dim: Node, attrs: Node, _colon: Node, from: Node, _arrow: Node, to: Node) {
    return typedOperandAndIndex(contextOf(this), ['view', view, from], ['dim', dim], attrs, to);
  },
  PrintBody(this: Node, _ins: Node, _o: Node, format: Node, _c1: Node, value: Node, _colon: Node, t: Node, _c: Node, attrs: Node) {
    const c = contextOf(this);
    const op = fields();
    addSegment(op, 'value', [valueOperand(value.ast(c), t.ast(c))]);
    op.attrs = [
      { key: 'format', value: { kind: 'string', value: unquote(format.sourceString), span: spanOf(c, format) }, span: spanOf(c, format) },
      ...(optional<AttrEntry[]>(attrs, c) ?? []),
    ];
    return op;
  },
  AffineApplyBody(this: Node, map: Node, _o: Node, dims: Node, _c: Node, symbols: Node, attrs: Node) {
    const c = contextOf(this);
    const op = fields();
    addSegment(
      op,
      'dims',
      dims.asIteration().children.map((v) => valueOperand(v.ast(c))),
    );
    addSegment(op, 'symbols', optional<Operand[]>(symbols, c) ?? []);
    op.attrs = [
      { key: 'map', value: { kind: 'dialect', text: map.sourceString, span: spanOf(c, map) }, span: spanOf(c, map) },
      ...(optional<AttrEntry[]>(attrs, c) ?? []),
    ];
    op.resultTypes = [{ text: 'index', span: c.nameSpan! }];
    return op;
  },
  AffineSymbols(this: Node, _o: Node, list: Node, _c: Node) {
    const c = contextOf(this);
    return list.asIteration().children.map((v) => valueOperand(v.ast(c)));
  },
  PositionalBody(this: Node, args: Node, attrs: Node) {
    const c = contextOf(this);
    const op = fields();
    const { bracketed, items } = args.ast(c) as { bracketed: boolean; items: (Attr | ValueRef)[] };
    const attrItems: Attr[] = [];
    for (const item of items) {
      if ('kind' in item) attrItems.push(item);
      else {
        // An SSA value in the list (a dynamic event id) is an operand in its position.
        addSegment(op, String(attrItems.length), [valueOperand(item)]);
        attrItems.push({ kind: 'unit', span: item.span });
      }
    }
    op.positional = { bracketed, items: attrItems };
    op.attrs = optional<AttrEntry[]>(attrs, c) ?? [];
    return op;
  },
  PositionalArgs_bracketed(this: Node, _o: Node, list: Node, _c: Node) {
    const c = contextOf(this);
    return { bracketed: true, items: list.asIteration().children.map((i) => i.ast(c)) };
  },
  PositionalArgs_bare(this: Node, first: Node, _commas: Node, rest: Node) {
    const c = contextOf(this);
    const span = spanOf(c, first);
    const head: Attr =
      first.ctorName === 'string' ? { kind: 'string', value: unquote(first.sourceString), span } : { kind: 'dialect', text: first.sourceString, span };
    return { bracketed: false, items: [head, ...rest.children.map((i) => i.ast(c))] };
  },
  PositionalItem(this: Node, item: Node): Attr | ValueRef {
    const c = contextOf(this);
    const span = spanOf(c, this);
    if (item.ctorName === 'intLit') return { kind: 'int', value: parseIntLiteral(item.sourceString), span };
    if (item.ctorName === 'valueUse') return item.ast(c) as ValueRef;
    if (item.ctorName === 'string') return { kind: 'string', value: unquote(item.sourceString), span };
    return { kind: 'dialect', text: item.sourceString, span };
  },
} as Actions;
