import { DIAGNOSTICS as D } from '../diag/catalog';
import { Span } from '../diag/source';
import { AliasDef, Attr, AttrEntry, BlockArg, OpNode, Region, ResultDef, TypeRef, ValueRef } from './ast';
import { Actions } from './shape-cache';
import { GenericStatement, genericOp } from './generic-form';
import { movedInsKeywords } from './op-syntax';
import { sharedIfEmpty } from './shared-parts';
import { Node, OpFields, addSegment, addSuccessor, contextOf, fields, internedText, optional, spanOf, typedValues, valueOperand } from './parse-context';

/** The actions of statements, blocks and the structural ops: modules, functions, calls, scf and cf. */
export const structureActions = {
  _iter(this: Node, ...children: Node[]) {
    const c = contextOf(this);
    return children.map((child) => child.ast(c));
  },
  _terminal(this: Node) {
    return this.sourceString;
  },
  AliasDef(this: Node, name: Node, _eq: Node, value: Node) {
    const c = contextOf(this);
    const v = value.ast(c) as Attr;
    const text = v.kind === 'type' ? v.type.text : value.sourceString; // an interned type's own text
    return { alias: name.sourceString, text, span: spanOf(c, this) } satisfies AliasDef;
  },
  Region(this: Node, _open: Node, _close: Node) {
    // Each `{}` of the header stands for the next region the parser has already read.
    return contextOf(this).regions.shift()!;
  },
  BlockLabel(this: Node, id: Node, args: Node, _colon: Node) {
    const c = contextOf(this);
    return { label: id.sourceString, args: optional<BlockArg[]>(args, c) ?? [] };
  },
  BlockArgs(this: Node, _o: Node, list: Node, _c: Node) {
    const c = contextOf(this);
    return list.asIteration().children.map((a) => a.ast(c));
  },
  BlockArg(this: Node, v: Node, _c: Node, t: Node, _loc: Node) {
    const c = contextOf(this);
    return { name: internedText(c, v.sourceString), type: t.ast(c), span: spanOf(c, this) } satisfies BlockArg;
  },
  Stmt(this: Node, results: Node, name: Node, body: Node, _loc: Node) {
    const c = contextOf(this);
    const spelled = name.sourceString;
    const nameSpan = (c.nameSpan = spanOf(c, name));
    const span = spanOf(c, this);
    const resultDefs = optional<ResultDef[]>(results, c) ?? [];
    const fields = body.ast(c) as OpFields;
    // Written out rather than spread, so that the op's fields are all in the object (a spread puts them aside).
    const op: OpNode = {
      name: c.op?.name ?? spelled,
      nameSpan,
      span,
      form: fields.form ?? 'custom',
      results: sharedIfEmpty(resultDefs),
      operands: fields.operands,
      segments: fields.segments,
      attrs: sharedIfEmpty(fields.attrs),
      resultTypes: sharedIfEmpty(fields.resultTypes),
      regions: sharedIfEmpty(fields.regions),
    };
    // The body's other fields follow, in its order.
    for (const key in fields) if (!(key in op)) (op as unknown as Record<string, unknown>)[key] = (fields as Record<string, unknown>)[key];
    if (c.op?.insKeywords) {
      const moved = movedInsKeywords(op, c.op.insKeywords);
      const written = Object.keys(c.op.insKeywords).map((k) => `${k} %${k} : T`);
      op.legacy = [{ message: `'${spelled}' is the old name of '${c.op.name}', which takes ${written.join(', ')} after its ins`, span: op.nameSpan }];
      if (moved) Object.assign(op, moved);
    } else if (c.op?.deprecated) op.legacy = [{ message: `'${spelled}' is the old name of '${c.op.name}'`, span: op.nameSpan }];
    if (c.legacy.length > 0) op.legacy = [...(op.legacy ?? []), ...c.legacy.splice(0)];
    return op;
  },
  GenericOpStmt(
    this: Node,
    results: Node,
    name: Node,
    _o: Node,
    operands: Node,
    _c: Node,
    properties: Node,
    attrs: Node,
    _colon: Node,
    signature: Node,
    _loc: Node,
  ) {
    const c = contextOf(this);
    return genericOp(
      {
        results: optional<ResultDef[]>(results, c) ?? [],
        name: name.sourceString.slice(1, -1),
        nameSpan: spanOf(c, name),
        span: spanOf(c, this),
        values: operands.asIteration().children.map((v) => v.ast(c) as ValueRef),
        attrs: [...(optional<AttrEntry[]>(properties, c) ?? []), ...(optional<AttrEntry[]>(attrs, c) ?? [])],
        signature: signature.ast(c) as GenericStatement['signature'],
      },
      c.op,
      c.diags,
    );
  },
  GenericProperties(this: Node, _o: Node, dict: Node, _c: Node) {
    return dict.ast(contextOf(this));
  },
  OpResults(this: Node, list: Node, _eq: Node) {
    const c = contextOf(this);
    return list.asIteration().children.map((r) => r.ast(c));
  },
  ModuleBody(this: Node, sym: Node, attrs: Node, region: Node) {
    const c = contextOf(this);
    const op = fields();
    op.symbol = optional<string>(sym, c);
    op.attrs = optional<AttrEntry[]>(attrs, c) ?? [];
    op.regions = [region.ast(c)];
    return op;
  },
  Attributes(this: Node, _kw: Node, dict: Node) {
    const c = contextOf(this);
    return dict.ast(c);
  },
  FuncBody(this: Node, vis: Node, sym: Node, _o: Node, args: Node, _c: Node, results: Node, attrs: Node, region: Node) {
    const c = contextOf(this);
    const op = fields();
    op.symbol = sym.ast(c);
    if (vis.numChildren > 0) op.visibility = vis.sourceString as OpNode['visibility'];
    op.attrs = optional<AttrEntry[]>(attrs, c) ?? [];
    op.resultTypes = optional<TypeRef[]>(results, c) ?? [];
    // Written `()` when the parser read the parameters one by one (the list is visited either way: a header of
    // this shape may have none).
    const written = args.asIteration().children.map((a) => a.ast(c) as BlockArg);
    if (c.params) c.legacy.push(...c.params.legacy);
    const params = c.params?.params ?? written;
    op.params = params;
    const body = optional<Region>(region, c);
    if (body) {
      for (const p of params.filter((p) => p.name === ''))
        c.diags.report(D.syntaxError, p.span, 'syntax error: a function with a body names its parameters (`%arg0: T`)');
      body.blocks[0].args = params;
      op.regions = [body];
    }
    return op;
  },
  FuncArg_named(this: Node, v: Node, _c: Node, t: Node, _attrs: Node, _loc: Node) {
    const c = contextOf(this);
    return { name: internedText(c, v.sourceString), type: t.ast(c), span: spanOf(c, this) } satisfies BlockArg;
  },
  FuncArg_unnamed(this: Node, t: Node, _attrs: Node) {
    const c = contextOf(this);
    return { name: '', type: t.ast(c), span: spanOf(c, this) } satisfies BlockArg;
  },
  FuncResults(this: Node, _arrow: Node, types: Node) {
    const c = contextOf(this);
    return types.ast(c);
  },
  ReturnBody(this: Node, tv: Node) {
    const c = contextOf(this);
    const op = fields();
    addSegment(op, 'values', typedValues(c, optional(tv, c), this));
    return op;
  },
  CallBody(this: Node, callee: Node, _o: Node, args: Node, _c: Node, attrs: Node, _colon: Node, fnType: Node) {
    const c = contextOf(this);
    const op = fields();
    const fn = fnType.ast(c) as TypeRef & { fn: { inputs: TypeRef[]; results: TypeRef[] } };
    addSegment(op, 'args', typedValues(c, { values: args.asIteration().children.map((v) => v.ast(c)), types: fn.fn.inputs }, this));
    op.attrs = [
      { key: 'callee', value: { kind: 'symbol', name: callee.ast(c), span: spanOf(c, callee) }, span: spanOf(c, callee) },
      ...(optional<AttrEntry[]>(attrs, c) ?? []),
    ];
    op.resultTypes = fn.fn.results;
    return op;
  },
  // prettier-ignore
  SimtLaunchBody(this: Node, callee: Node, _l1: Node, _l2: Node, _l3: Node, x: Node, _k1: Node, y: Node, _k2: Node, z: Node, _r1: Node, _r2: Node, _r3: Node, _o: Node, args: Node, _c: Node, attrs: Node, _colon: Node, fnType: Node) {
    const c = contextOf(this);
    const op = fields();
    const fn = fnType.ast(c) as TypeRef & { fn: { inputs: TypeRef[]; results: TypeRef[] } };
    // The dimensions' type (i32) is not written: the verifier reads it from their definitions.
    addSegment(
      op,
      'dims',
      [x, y, z].map((d) => valueOperand(d.ast(c))),
    );
    addSegment(op, 'args', typedValues(c, { values: args.asIteration().children.map((v) => v.ast(c)), types: fn.fn.inputs }, this));
    op.attrs = [
      { key: 'callee', value: { kind: 'symbol', name: callee.ast(c), span: spanOf(c, callee) }, span: spanOf(c, callee) },
      ...(optional<AttrEntry[]>(attrs, c) ?? []),
    ];
    op.resultTypes = fn.fn.results;
    return op;
  },
  TypedValues(this: Node, values: Node, _c: Node, types: Node) {
    const c = contextOf(this);
    return {
      values: values.asIteration().children.map((v) => v.ast(c)),
      types: types.asIteration().children.map((t) => t.ast(c)),
    };
  },
  ScfForBody(
    this: Node,
    _u: Node,
    iv: Node,
    _eq: Node,
    lb: Node,
    _to: Node,
    ub: Node,
    _step: Node,
    step: Node,
    iter: Node,
    forType: Node,
    region: Node,
    attrs: Node,
  ) {
    const c = contextOf(this);
    const op = fields();
    const ivType = optional<TypeRef>(forType, c);
    addSegment(op, 'lb', [valueOperand(lb.ast(c), ivType)]);
    addSegment(op, 'ub', [valueOperand(ub.ast(c), ivType)]);
    addSegment(op, 'step', [valueOperand(step.ast(c), ivType)]);
    const iterArgs = optional<{ bindings: { name: string; span: Span; use: ValueRef }[]; types: TypeRef[] }>(iter, c);
    const bindings = iterArgs?.bindings ?? [];
    const types = iterArgs?.types ?? [];
    if (iterArgs && bindings.length !== types.length) {
      c.diags.report(D.listMismatch, spanOf(c, iter), `${bindings.length} iter_args but ${types.length} result type(s)`);
    }
    addSegment(
      op,
      'init',
      bindings.map((b, i) => valueOperand(b.use, types[i])),
    );
    op.resultTypes = types;
    const body = region.ast(c) as Region;
    const ivArg: BlockArg = { name: iv.sourceString, type: ivType, span: spanOf(c, iv) };
    body.blocks[0].args = [ivArg, ...bindings.map((b, i) => ({ name: b.name, type: types[i], span: b.span }))];
    op.regions = [body];
    op.attrs = optional<AttrEntry[]>(attrs, c) ?? [];
    return op;
  },
  IterArgs(this: Node, _kw: Node, _o: Node, bindings: Node, _c: Node, _arrow: Node, types: Node) {
    const c = contextOf(this);
    return { bindings: bindings.asIteration().children.map((b) => b.ast(c)), types: types.ast(c) };
  },
  ScfForType(this: Node, _c: Node, t: Node) {
    const c = contextOf(this);
    return t.ast(c);
  },
  Binding(this: Node, v: Node, _eq: Node, use: Node) {
    const c = contextOf(this);
    return { name: internedText(c, v.sourceString), span: spanOf(c, v), use: use.ast(c) };
  },
  ScfIfBody(this: Node, cond: Node, resultTypes: Node, thenRegion: Node, elseRegion: Node, attrs: Node) {
    const c = contextOf(this);
    const op = fields();
    addSegment(op, 'condition', [valueOperand(cond.ast(c))]);
    op.resultTypes = optional<TypeRef[]>(resultTypes, c) ?? [];
    op.regions = [thenRegion.ast(c)];
    const otherwise = optional<Region>(elseRegion, c);
    if (otherwise) op.regions.push(otherwise);
    op.attrs = optional<AttrEntry[]>(attrs, c) ?? [];
    return op;
  },
  ScfExecuteRegionBody(this: Node, resultTypes: Node, region: Node, attrs: Node) {
    const c = contextOf(this);
    const op = fields();
    op.resultTypes = optional<TypeRef[]>(resultTypes, c) ?? [];
    op.regions = [region.ast(c)];
    op.attrs = optional<AttrEntry[]>(attrs, c) ?? [];
    return op;
  },
  CfBrBody(this: Node, successor: Node, attrs: Node) {
    const c = contextOf(this);
    const op = fields();
    addSuccessor(op, successor.ast(c));
    op.attrs = optional<AttrEntry[]>(attrs, c) ?? [];
    return op;
  },
  CfCondBrBody(this: Node, cond: Node, _c1: Node, onTrue: Node, _c2: Node, onFalse: Node, attrs: Node) {
    const c = contextOf(this);
    const op = fields();
    addSegment(op, 'condition', [valueOperand(cond.ast(c))]);
    addSuccessor(op, onTrue.ast(c));
    addSuccessor(op, onFalse.ast(c));
    op.attrs = optional<AttrEntry[]>(attrs, c) ?? [];
    return op;
  },
  Successor(this: Node, id: Node, args: Node) {
    const c = contextOf(this);
    return { label: id.sourceString, operands: typedValues(c, optional(args, c), args), span: spanOf(c, this) };
  },
  SuccessorArgs(this: Node, _o: Node, tv: Node, _c: Node) {
    return tv.ast(contextOf(this));
  },
  ResultTypes(this: Node, _arrow: Node, types: Node) {
    const c = contextOf(this);
    return types.ast(c);
  },
  ElseRegion(this: Node, _kw: Node, region: Node) {
    const c = contextOf(this);
    return region.ast(c);
  },
  ScfWhileBody(this: Node, _o: Node, bindings: Node, _c: Node, _colon: Node, fnType: Node, before: Node, _do: Node, after: Node, attrs: Node) {
    const c = contextOf(this);
    const op = fields();
    const fn = fnType.ast(c) as TypeRef & { fn: { inputs: TypeRef[]; results: TypeRef[] } };
    const bs = bindings.asIteration().children.map((b) => b.ast(c) as { name: string; span: Span; use: ValueRef });
    addSegment(
      op,
      'init',
      bs.map((b, i) => valueOperand(b.use, fn.fn.inputs[i])),
    );
    op.resultTypes = fn.fn.results;
    const beforeRegion = before.ast(c) as Region;
    beforeRegion.blocks[0].args = bs.map((b, i) => ({ name: b.name, type: fn.fn.inputs[i], span: b.span }));
    op.regions = [beforeRegion, after.ast(c)];
    op.attrs = optional<AttrEntry[]>(attrs, c) ?? [];
    return op;
  },
  ScfConditionBody(this: Node, _o: Node, cond: Node, _c: Node, tv: Node) {
    const c = contextOf(this);
    const op = fields();
    addSegment(op, 'condition', [valueOperand(cond.ast(c))]);
    addSegment(op, 'values', typedValues(c, optional(tv, c), this));
    return op;
  },
  ScfYieldBody(this: Node, tv: Node) {
    const c = contextOf(this);
    const op = fields();
    addSegment(op, 'values', typedValues(c, optional(tv, c), this));
    return op;
  },
} as Actions;
