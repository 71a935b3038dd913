import * as ohm from 'ohm-js';
import { DiagnosticBag } from '../diag/diagnostic';
import { SourceFile, Span } from '../diag/source';
import { AliasDef, Attr, AttrEntry, Block, BlockArg, Module, OpNode, Operand, Region, ResultDef, TypeRef, ValueRef } from './ast';
import { ptoGrammar } from './grammar';
import { RawLabel, RawRegion, RawStatement, Scanner } from './scan';

/**
 * Text -> AST. The scanner splits the file into statements; each statement's header (its text with
 * the bodies of nested regions cut out) is matched against the grammar's `Op` rule. Syntax errors
 * become diagnostics and parsing continues with the next statement.
 */
export function parseModule(source: SourceFile, diags: DiagnosticBag): Module {
  const scanned = new Scanner(source.text, diags).scanFile();
  const parser = new StatementParser(source, diags);
  const ops = parser.parseItems(scanned.items);
  return { ops, aliases: parser.aliases, span: { start: 0, end: source.text.length } };
}

/**
 * The grammar's definition applied directly: the `File` rule over the whole text, converted by the
 * same semantic actions (no scanner, no statement splitting, no type interning). Quadratic in
 * memory on large files; tests use it as the reference for `parseModule`.
 */
export function parseModuleByGrammar(source: SourceFile, diags: DiagnosticBag): Module {
  const parser = new StatementParser(source, diags);
  const ops = parser.parseWhole();
  return { ops, aliases: parser.aliases, span: { start: 0, end: source.text.length } };
}

const STATEMENT_CACHE_LIMIT = 100_000;

/** A deep copy of an AST node with every span moved by `delta` characters. */
function moveSpans<T>(node: T, delta: number): T {
  if (Array.isArray(node)) return node.map((n) => moveSpans(n, delta)) as T;
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node as Record<string, unknown>)) {
    if (k === 'span' || k === 'nameSpan') {
      const span = v as Span;
      out[k] = { start: span.start + delta, end: span.end + delta };
    } else out[k] = moveSpans(v, delta);
  }
  return out as T;
}

/** Maps offsets in a statement header (regions cut out) back to offsets in the file. */
interface OffsetMap {
  headerStarts: number[];
  fileStarts: number[];
}

function mapOffset(m: OffsetMap, offset: number): number {
  let k = m.headerStarts.length - 1;
  while (k > 0 && m.headerStarts[k] > offset) k--;
  return m.fileStarts[k] + (offset - m.headerStarts[k]);
}

/** State shared with the semantic actions while one statement is converted. */
interface ActionContext {
  map: OffsetMap;
  regions: Region[];
  diags: DiagnosticBag;
  types: InternedType[];
  /** Deprecated spellings met inside the op being converted (stripped types), reported by the verifier. */
  legacy: { message: string; span: Span }[];
}

/** A long type cut out of a statement header; `placeholder` (`!T3<>`) stands in its place at `headerStart`. */
interface InternedType {
  text: string;
  start: number;
  end: number;
  placeholder: string;
  headerStart: number;
}

let ctx: ActionContext | undefined;

class StatementParser {
  private readonly grammar = ptoGrammar();
  private readonly semantics = sharedSemantics(this.grammar);
  readonly aliases: AliasDef[] = [];
  /** Region-free statements already converted, by their exact text. */
  private readonly statementCache = new Map<string, { op: OpNode; start: number }>();

  constructor(
    private readonly source: SourceFile,
    private readonly diags: DiagnosticBag,
  ) {}

  parseItems(items: (RawStatement | RawLabel)[]): OpNode[] {
    const ops: OpNode[] = [];
    for (const item of items) {
      if (item.kind === 'label') {
        this.diags.error({ start: item.start, end: item.end }, 'block label outside a region body');
        continue;
      }
      const op = this.parseStatement(item);
      if (op) ops.push(op);
    }
    return ops;
  }

  /** Top-level items: ops, and alias definitions, which are collected instead. */
  private collect(items: (OpNode | AliasDef | null)[]): OpNode[] {
    const ops: OpNode[] = [];
    for (const item of items) {
      if (item && 'alias' in item) this.aliases.push(item);
      else if (item) ops.push(item);
    }
    return ops;
  }

  parseWhole(): OpNode[] {
    const map: OffsetMap = { headerStarts: [0], fileStarts: [0] };
    const match = this.grammar.match(this.source.text, 'File');
    if (match.failed()) {
      this.reportSyntax(match, map);
      return [];
    }
    return this.collect(this.withContext(map, [], () => this.semantics(match).ast() as (OpNode | AliasDef)[]));
  }

  parseRegion(raw: RawRegion): Region {
    const blocks: Block[] = [];
    let current: Block = { args: [], ops: [], span: { start: raw.open, end: raw.close + 1 } };
    blocks.push(current);
    for (const item of raw.items) {
      if (item.kind === 'label') {
        const label = this.parseLabel(item);
        current = { label: label?.label, args: label?.args ?? [], ops: [], span: { start: item.start, end: raw.close } };
        blocks.push(current);
        continue;
      }
      const op = this.parseStatement(item);
      if (op) current.ops.push(op);
    }
    // An empty entry block followed by labeled blocks is just the labeled blocks.
    if (blocks.length > 1 && blocks[0].ops.length === 0) blocks.shift();
    const unclosed = raw.close >= this.source.text.length;
    return { blocks, span: { start: raw.open, end: raw.close + 1 }, ...(unclosed ? { unclosed } : {}) };
  }

  private parseLabel(item: RawLabel): { label: string; args: BlockArg[] } | undefined {
    const text = this.source.text.slice(item.start, item.end);
    const match = this.grammar.match(text, 'BlockLabel');
    if (match.failed()) {
      this.reportSyntax(match, { headerStarts: [0], fileStarts: [item.start] });
      return undefined;
    }
    return this.withContext({ headerStarts: [0], fileStarts: [item.start] }, [], () => this.semantics(match).ast());
  }

  private parseStatement(stmt: RawStatement): OpNode | undefined {
    // Compiler output repeats statements word for word; a repeat reuses the first one's AST, moved.
    const cacheable = stmt.regions.length === 0 && !stmt.alias;
    const key = cacheable ? this.source.text.slice(stmt.start, stmt.end) : '';
    const cached = cacheable ? this.statementCache.get(key) : undefined;
    if (cached) return moveSpans(cached.op, stmt.start - cached.start);
    const { header, map, types } = this.headerOf(stmt);
    const match = this.grammar.match(header, stmt.alias ? 'AliasDef' : 'Op');
    // Regions are parsed even under a malformed header, so the errors inside them are reported too.
    const regions = stmt.regions.map((r) => this.parseRegion(r));
    if (match.failed()) {
      this.reportSyntax(match, map);
      return undefined;
    }
    const before = this.diags.items.length;
    const result = this.withContext(map, regions, () => this.semantics(match).ast() as OpNode | AliasDef, types);
    if ('alias' in result) {
      this.aliases.push(result);
      return undefined;
    }
    // Only statements that converted without diagnostics are reused (a repeat must report its own).
    if (cacheable && this.diags.items.length === before && this.statementCache.size < STATEMENT_CACHE_LIMIT) {
      this.statementCache.set(key, { op: moveSpans(result, 0), start: stmt.start });
    }
    return result;
  }

  private withContext<T>(map: OffsetMap, regions: Region[], f: () => T, types: InternedType[] = []): T {
    const saved = ctx;
    ctx = { map, regions, diags: this.diags, types, legacy: [] };
    try {
      return f();
    } finally {
      ctx = saved;
    }
  }

  /**
   * The statement's text with each nested region's body removed (`{ ... }` becomes `{}`) and each
   * long dialect type replaced by a short placeholder `!T<n>`, which the `typeToken` action maps back.
   */
  private headerOf(stmt: RawStatement): { header: string; map: OffsetMap; types: InternedType[] } {
    const text = this.source.text;
    const types: InternedType[] = [];
    if (stmt.regions.length === 0 && stmt.typeTokens.length === 0) {
      return { header: text.slice(stmt.start, stmt.end), map: { headerStarts: [0], fileStarts: [stmt.start] }, types };
    }
    // Cuts in file order: [from, to) replaced by `replacement`.
    const cuts: { from: number; to: number; replacement: string }[] = [];
    // An unclosed region (the scanner reported it) still reads as `{}`.
    // A newline stands in for a multi-line body, so that what cannot cross a line (a string) still stops there.
    for (const r of stmt.regions) {
      const to = Math.min(r.close, stmt.end);
      const newline = text.lastIndexOf('\n', to - 1) > r.open ? '\n' : '';
      cuts.push({ from: r.open + 1, to, replacement: newline + (r.close >= stmt.end ? '}' : '') });
    }
    for (let k = 0; k < stmt.typeTokens.length; k += 2) {
      const from = stmt.typeTokens[k];
      const to = stmt.typeTokens[k + 1];
      // Ends in `<>` so that it is one complete type token, whatever follows it.
      const placeholder = '!T' + types.length + '<>';
      types.push({ text: text.slice(from, to), start: from, end: to, placeholder, headerStart: -1 });
      cuts.push({ from, to, replacement: placeholder });
    }
    cuts.sort((a, b) => a.from - b.from);
    const parts: string[] = [];
    const headerStarts = [0];
    const fileStarts = [stmt.start];
    let from = stmt.start;
    let length = 0;
    for (const cut of cuts) {
      const before = text.slice(from, cut.from);
      const interned = types.find((t) => t.start === cut.from && t.placeholder === cut.replacement);
      if (interned) interned.headerStart = length + before.length;
      const piece = before + cut.replacement;
      parts.push(piece);
      length += piece.length;
      from = cut.to;
      headerStarts.push(length);
      fileStarts.push(from);
    }
    parts.push(text.slice(from, stmt.end));
    return { header: parts.join(''), map: { headerStarts, fileStarts }, types };
  }

  private reportSyntax(match: ohm.MatchResult, map: OffsetMap): void {
    const failure = match as ohm.MatchResult & { getRightmostFailurePosition(): number; getExpectedText(): string };
    const pos = mapOffset(map, failure.getRightmostFailurePosition());
    const found = this.source.text.slice(pos, pos + 1);
    const what = found === '' || found === '\n' ? 'end of statement' : `'${found}'`;
    this.diags.error({ start: pos, end: pos + 1 }, `syntax error: unexpected ${what}; expected ${summarizeExpected(failure.getExpectedText())}`);
  }
}

/** Ohm's "expected" text can list dozens of alternatives; keep it readable. */
function summarizeExpected(text: string): string {
  const items = text.split(/, or |, | or /).map((s) => s.trim()).filter((s) => s.length > 0);
  const unique = [...new Set(items)];
  if (unique.length <= 6) return unique.join(', ');
  return unique.slice(0, 6).join(', ') + ', ...';
}

// ---- Semantic actions ------------------------------------------------------------------------

type Node = ohm.Node;

function spanOfNode(node: Node): Span {
  const c = ctx!;
  const src = node.source;
  return { start: mapOffset(c.map, src.startIdx), end: mapOffset(c.map, src.endIdx) };
}

function optional<T>(node: Node): T | undefined {
  return node.children.length > 0 ? (node.children[0].ast() as T) : undefined;
}

function typeRef(node: Node): TypeRef {
  const at = node.source.startIdx;
  const interned = ctx!.types.find((t) => t.headerStart === at && t.placeholder === node.sourceString);
  if (interned) return { text: interned.text, span: { start: interned.start, end: interned.end } };
  return { text: node.sourceString, span: spanOfNode(node) };
}

function newOp(name: string, nameNode: Node, whole: Node, form: OpNode['form']): OpNode {
  return {
    name,
    nameSpan: spanOfNode(nameNode),
    span: spanOfNode(whole),
    form,
    results: [],
    operands: [],
    segments: {},
    attrs: [],
    resultTypes: [],
    regions: [],
  };
}

/** Appends operands as a named segment. */
function addSegment(op: OpNode, name: string, operands: Operand[]): void {
  const start = op.operands.length;
  op.operands.push(...operands);
  op.segments[name] = operands.map((_, i) => start + i);
}

function valueOperand(v: ValueRef, type?: TypeRef): Operand {
  return { value: v, type, span: type ? { start: v.span.start, end: type.span.end } : v.span };
}

function typedValues(tv: { values: ValueRef[]; types: TypeRef[] } | undefined, where: Node): Operand[] {
  if (!tv) return [];
  if (tv.values.length !== tv.types.length) {
    ctx!.diags.error(spanOfNode(where), `${tv.values.length} value(s) but ${tv.types.length} type(s)`);
  }
  return tv.values.map((v, i) => valueOperand(v, tv.types[i]));
}

/** Decimal or 0x-hex integer literal with an optional sign. */
function parseIntLiteral(text: string): bigint {
  const negative = text.startsWith('-');
  const magnitude = BigInt(text.replace(/^[+-]/, ''));
  return negative ? -magnitude : magnitude;
}

/** MLIR string escapes: \\ \" \n \t and \XX (two hex digits). */
function unquote(s: string): string {
  return s.slice(1, -1).replace(/\\([0-9a-fA-F]{2}|.)/g, (_, c: string) =>
    c.length === 2 ? String.fromCharCode(parseInt(c, 16)) : c === 'n' ? '\n' : c === 't' ? '\t' : c,
  );
}

function regionFromContext(node: Node, opsNode: Node, blocksNode: Node): Region {
  const c = ctx!;
  if (opsNode.children.length === 0 && blocksNode.children.length === 0 && c.regions.length > 0) {
    return c.regions.shift()!;
  }
  // Whole-file matching (File rule): the region's ops are in the tree.
  const entry: Block = { args: [], ops: opsNode.children.map((o) => o.ast() as OpNode), span: spanOfNode(node) };
  const labeled = blocksNode.children.map((b) => b.ast() as Block);
  const blocks = entry.ops.length === 0 && labeled.length > 0 ? labeled : [entry, ...labeled];
  return { blocks, span: spanOfNode(node) };
}

/** The semantic actions are built once per grammar: every file of a run shares them. */
let cachedSemantics: { grammar: ohm.Grammar; semantics: ohm.Semantics } | undefined;
function sharedSemantics(grammar: ohm.Grammar): ohm.Semantics {
  if (cachedSemantics?.grammar !== grammar) cachedSemantics = { grammar, semantics: astSemantics(grammar) };
  return cachedSemantics.semantics;
}

function astSemantics(grammar: ohm.Grammar): ohm.Semantics {
  const semantics = grammar.createSemantics();
  semantics.addOperation<any>('ast', {
    _iter(...children: Node[]) {
      return children.map((c) => c.ast());
    },
    _terminal(this: Node) {
      return this.sourceString;
    },
    File(items: Node) {
      return items.children.map((i) => i.ast());
    },
    AliasDef(this: Node, name: Node, _eq: Node, value: Node) {
      const v = value.ast() as Attr;
      const text = v.kind === 'type' ? v.type.text : value.sourceString; // an interned type's own text
      return { alias: name.sourceString, text, span: spanOfNode(this) } satisfies AliasDef;
    },
    Region(this: Node, _open: Node, ops: Node, blocks: Node, _close: Node) {
      return regionFromContext(this, ops, blocks);
    },
    LabeledBlock(this: Node, label: Node, ops: Node) {
      const l = label.ast() as { label: string; args: BlockArg[] };
      return { label: l.label, args: l.args, ops: ops.children.map((o) => o.ast()), span: spanOfNode(this) } satisfies Block;
    },
    BlockLabel(id: Node, args: Node, _colon: Node) {
      return { label: id.sourceString, args: optional<BlockArg[]>(args) ?? [] };
    },
    BlockArgs(_o: Node, list: Node, _c: Node) {
      return list.asIteration().children.map((a) => a.ast());
    },
    BlockArg(this: Node, v: Node, _c: Node, t: Node, _loc: Node) {
      return { name: v.sourceString, type: t.ast(), span: spanOfNode(this) } satisfies BlockArg;
    },
    Op(this: Node, results: Node, core: Node, _loc: Node) {
      const op = core.ast() as OpNode;
      if (ctx!.legacy.length > 0) op.legacy = [...(op.legacy ?? []), ...ctx!.legacy.splice(0)];
      op.results = optional<ResultDef[]>(results) ?? [];
      op.span = spanOfNode(this);
      return op;
    },
    OpCore(_start: Node, alternative: Node) {
      return alternative.ast();
    },
    OpResults(list: Node, _eq: Node) {
      return list.asIteration().children.map((r) => r.ast());
    },
    ModuleOp(this: Node, kw: Node, sym: Node, attrs: Node, region: Node) {
      const op = newOp('module', kw, this, 'custom');
      op.symbol = optional<string>(sym);
      op.attrs = optional<AttrEntry[]>(attrs) ?? [];
      op.regions = [region.ast()];
      return op;
    },
    Attributes(_kw: Node, dict: Node) {
      return dict.ast();
    },
    FuncOp(this: Node, kw: Node, _vis: Node, sym: Node, _o: Node, args: Node, _c: Node, results: Node, attrs: Node, region: Node) {
      const op = newOp('func.func', kw, this, 'custom');
      op.symbol = sym.ast();
      op.attrs = optional<AttrEntry[]>(attrs) ?? [];
      op.resultTypes = optional<TypeRef[]>(results) ?? [];
      const params = args.asIteration().children.map((a) => a.ast() as BlockArg);
      op.params = params;
      const body = optional<Region>(region);
      if (body) {
        body.blocks[0].args = params;
        op.regions = [body];
      }
      return op;
    },
    FuncArg(this: Node, v: Node, _c: Node, t: Node, _attrs: Node, _loc: Node) {
      return { name: v.sourceString, type: t.ast(), span: spanOfNode(this) } satisfies BlockArg;
    },
    FuncResults(_arrow: Node, types: Node) {
      return types.ast();
    },
    ReturnOp(this: Node, kw: Node, tv: Node) {
      const op = newOp('func.return', kw, this, 'custom');
      addSegment(op, 'values', typedValues(optional(tv), this));
      return op;
    },
    FuncCall(this: Node, kw: Node, callee: Node, _o: Node, args: Node, _c: Node, attrs: Node, _colon: Node, fnType: Node) {
      const op = newOp('func.call', kw, this, 'custom');
      const fn = fnType.ast() as TypeRef & { fn: { inputs: TypeRef[]; results: TypeRef[] } };
      addSegment(op, 'args', typedValues({ values: args.asIteration().children.map((v) => v.ast()), types: fn.fn.inputs }, this));
      op.attrs = [{ key: 'callee', value: { kind: 'symbol', name: callee.ast(), span: spanOfNode(callee) }, span: spanOfNode(callee) }, ...(optional<AttrEntry[]>(attrs) ?? [])];
      op.resultTypes = fn.fn.results;
      return op;
    },
    TypedValues(values: Node, _c: Node, types: Node) {
      return {
        values: values.asIteration().children.map((v) => v.ast()),
        types: types.asIteration().children.map((t) => t.ast()),
      };
    },
    ScfFor(this: Node, kw: Node, _u: Node, iv: Node, _eq: Node, lb: Node, _to: Node, ub: Node, _step: Node, step: Node, iter: Node, forType: Node, region: Node, attrs: Node) {
      const op = newOp('scf.for', kw, this, 'custom');
      const ivType = optional<TypeRef>(forType);
      addSegment(op, 'lb', [valueOperand(lb.ast(), ivType)]);
      addSegment(op, 'ub', [valueOperand(ub.ast(), ivType)]);
      addSegment(op, 'step', [valueOperand(step.ast(), ivType)]);
      const iterArgs = optional<{ bindings: { name: string; span: Span; use: ValueRef }[]; types: TypeRef[] }>(iter);
      const bindings = iterArgs?.bindings ?? [];
      const types = iterArgs?.types ?? [];
      if (iterArgs && bindings.length !== types.length) {
        ctx!.diags.error(spanOfNode(iter), `${bindings.length} iter_args but ${types.length} result type(s)`);
      }
      addSegment(op, 'init', bindings.map((b, i) => valueOperand(b.use, types[i])));
      op.resultTypes = types;
      const body = region.ast() as Region;
      const ivArg: BlockArg = { name: iv.sourceString, type: ivType, span: spanOfNode(iv) };
      body.blocks[0].args = [ivArg, ...bindings.map((b, i) => ({ name: b.name, type: types[i], span: b.span }))];
      op.regions = [body];
      op.attrs = optional<AttrEntry[]>(attrs) ?? [];
      return op;
    },
    IterArgs(_kw: Node, _o: Node, bindings: Node, _c: Node, _arrow: Node, types: Node) {
      return { bindings: bindings.asIteration().children.map((b) => b.ast()), types: types.ast() };
    },
    ScfForType(_c: Node, t: Node) {
      return t.ast();
    },
    Binding(v: Node, _eq: Node, use: Node) {
      return { name: v.sourceString, span: spanOfNode(v), use: use.ast() };
    },
    ScfIf(this: Node, kw: Node, cond: Node, resultTypes: Node, thenRegion: Node, elseRegion: Node, attrs: Node) {
      const op = newOp('scf.if', kw, this, 'custom');
      addSegment(op, 'condition', [valueOperand(cond.ast())]);
      op.resultTypes = optional<TypeRef[]>(resultTypes) ?? [];
      op.regions = [thenRegion.ast()];
      const otherwise = optional<Region>(elseRegion);
      if (otherwise) op.regions.push(otherwise);
      op.attrs = optional<AttrEntry[]>(attrs) ?? [];
      return op;
    },
    ResultTypes(_arrow: Node, types: Node) {
      return types.ast();
    },
    ElseRegion(_kw: Node, region: Node) {
      return region.ast();
    },
    ScfWhile(this: Node, kw: Node, _o: Node, bindings: Node, _c: Node, _colon: Node, fnType: Node, before: Node, _do: Node, after: Node, attrs: Node) {
      const op = newOp('scf.while', kw, this, 'custom');
      const fn = fnType.ast() as TypeRef & { fn: { inputs: TypeRef[]; results: TypeRef[] } };
      const bs = bindings.asIteration().children.map((b) => b.ast() as { name: string; span: Span; use: ValueRef });
      addSegment(op, 'init', bs.map((b, i) => valueOperand(b.use, fn.fn.inputs[i])));
      op.resultTypes = fn.fn.results;
      const beforeRegion = before.ast() as Region;
      beforeRegion.blocks[0].args = bs.map((b, i) => ({ name: b.name, type: fn.fn.inputs[i], span: b.span }));
      op.regions = [beforeRegion, after.ast()];
      op.attrs = optional<AttrEntry[]>(attrs) ?? [];
      return op;
    },
    ScfCondition(this: Node, kw: Node, _o: Node, cond: Node, _c: Node, tv: Node) {
      const op = newOp('scf.condition', kw, this, 'custom');
      addSegment(op, 'condition', [valueOperand(cond.ast())]);
      addSegment(op, 'values', typedValues(optional(tv), this));
      return op;
    },
    ScfYield(this: Node, kw: Node, tv: Node) {
      const op = newOp('scf.yield', kw, this, 'custom');
      addSegment(op, 'values', typedValues(optional(tv), this));
      return op;
    },
    ArithConstant(this: Node, kw: Node, attrs: Node, value: Node) {
      const op = newOp('arith.constant', kw, this, 'custom');
      const v = value.ast() as Attr;
      op.attrs = [...(optional<AttrEntry[]>(attrs) ?? []), { key: 'value', value: v, span: v.span }];
      const t = 'type' in v && v.type && typeof v.type === 'object' && 'text' in v.type ? v.type : undefined;
      if (t) op.resultTypes = [t];
      else if (v.kind === 'bool') op.resultTypes = [{ text: 'i1', span: v.span }];
      return op;
    },
    ArithCmp(this: Node, name: Node, pred: Node, _c1: Node, lhs: Node, _c2: Node, rhs: Node, attrs: Node, _colon: Node, t: Node) {
      const op = newOp(name.sourceString, name, this, 'custom');
      const type = t.ast() as TypeRef;
      addSegment(op, 'operands', [valueOperand(lhs.ast(), type), valueOperand(rhs.ast(), type)]);
      op.attrs = [{ key: 'predicate', value: { kind: 'ident', name: pred.sourceString, span: spanOfNode(pred) }, span: spanOfNode(pred) }, ...(optional<AttrEntry[]>(attrs) ?? [])];
      op.resultTypes = [{ text: 'i1', span: type.span }];
      return op;
    },
    ArithCast(this: Node, name: Node, v: Node, attrs: Node, _c: Node, from: Node, _to: Node, to: Node) {
      const op = newOp(name.sourceString, name, this, 'custom');
      addSegment(op, 'operands', [valueOperand(v.ast(), from.ast())]);
      op.resultTypes = [to.ast()];
      op.attrs = optional<AttrEntry[]>(attrs) ?? [];
      return op;
    },
    ArithSelect(this: Node, kw: Node, c: Node, _1: Node, a: Node, _2: Node, b: Node, attrs: Node, _colon: Node, types: Node) {
      const op = newOp('arith.select', kw, this, 'custom');
      const ts = types.asIteration().children.map((t) => t.ast() as TypeRef);
      const valueType = ts[ts.length - 1];
      const condType = ts.length > 1 ? ts[0] : { text: 'i1', span: valueType.span };
      addSegment(op, 'operands', [valueOperand(c.ast(), condType), valueOperand(a.ast(), valueType), valueOperand(b.ast(), valueType)]);
      op.resultTypes = [valueType];
      op.attrs = optional<AttrEntry[]>(attrs) ?? [];
      return op;
    },
    ArithGeneric(this: Node, name: Node, values: Node, _overflow: Node, attrs: Node, _colon: Node, t: Node) {
      const op = newOp(name.sourceString, name, this, 'custom');
      const type = t.ast() as TypeRef;
      addSegment(op, 'operands', values.asIteration().children.map((v) => valueOperand(v.ast(), type)));
      op.resultTypes = [type];
      op.attrs = optional<AttrEntry[]>(attrs) ?? [];
      return op;
    },
    MakeTensorView(this: Node, kw: Node, src: Node, _c: Node, _shapeKw: Node, _eq: Node, shape: Node, comma: Node, _stridesKw: Node, _eq2: Node, strides: Node, attrs: Node, _colon: Node, t: Node) {
      const op = newOp('pto.make_tensor_view', kw, this, 'custom');
      addSegment(op, 'source', [valueOperand(src.ast())]);
      addSegment(op, 'shape', shape.ast());
      addSegment(op, 'strides', strides.ast());
      op.attrs = optional<AttrEntry[]>(attrs) ?? [];
      op.resultTypes = [t.ast()];
      if (comma.sourceString === '') {
        op.legacy = [{ message: "missing ',' before 'strides' (accepted for older PTOAS output; write 'shape = [...], strides = [...]')", span: spanOfNode(_stridesKw) }];
      }
      return op;
    },
    PartitionView(this: Node, name: Node, src: Node, _c: Node, _offKw: Node, _eq: Node, offsets: Node, _c2: Node, _sizesKw: Node, _eq2: Node, sizes: Node, attrs: Node, _colon: Node, t: Node, result: Node) {
      const op = newOp('pto.partition_view', name, this, 'custom');
      const sourceType = t.ast() as TypeRef;
      addSegment(op, 'source', [valueOperand(src.ast(), sourceType)]);
      addSegment(op, 'offsets', offsets.ast());
      addSegment(op, 'sizes', sizes.ast());
      op.attrs = optional<AttrEntry[]>(attrs) ?? [];
      op.resultTypes = optional<TypeRef[]>(result) ?? [];
      if (name.sourceString === 'pto.subview') {
        op.legacy = [{ message: "'pto.subview' is the old name of 'pto.partition_view'", span: spanOfNode(name) }];
      }
      return op;
    },
    IndexList(_o: Node, items: Node, _c: Node) {
      return items.asIteration().children.map((i) => i.ast());
    },
    IndexItem(this: Node, item: Node) {
      if (item.ctorName === 'intLit') return { literal: Number(item.sourceString), span: spanOfNode(item) } satisfies Operand;
      return valueOperand(item.ast());
    },
    AllocTile(this: Node, kw: Node, operands: Node, attrs: Node, _c: Node, t: Node) {
      const op = newOp('pto.alloc_tile', kw, this, 'custom');
      for (const o of operands.children) {
        const { key, operand } = o.ast() as { key: string; operand: Operand };
        if (op.segments[key]) ctx!.diags.error(operand.span, `'${key}' is given twice`);
        else addSegment(op, key, [operand]);
      }
      op.attrs = optional<AttrEntry[]>(attrs) ?? [];
      op.resultTypes = [t.ast()];
      return op;
    },
    Subset(this: Node, kw: Node, src: Node, _o: Node, offsets: Node, _c: Node, _sizesKw: Node, _o2: Node, sizes: Node, _c2: Node, attrs: Node, _colon: Node, t: Node) {
      const op = newOp('pto.subset', kw, this, 'custom');
      const sourceType = t.ast() as TypeRef;
      addSegment(op, 'source', [valueOperand(src.ast(), sourceType)]);
      addSegment(op, 'offsets', offsets.asIteration().children.map((i: Node) => i.ast()));
      const sizeItems: Attr[] = sizes.asIteration().children.map((n: Node) => ({ kind: 'int', value: BigInt(n.sourceString), span: spanOfNode(n) }));
      op.attrs = [{ key: 'sizes', value: { kind: 'array', items: sizeItems, span: spanOfNode(sizes) }, span: spanOfNode(sizes) }, ...(optional<AttrEntry[]>(attrs) ?? [])];
      return op;
    },
    AllocOperand(key: Node, _eq: Node, v: Node) {
      return { key: key.sourceString, operand: valueOperand(v.ast()) };
    },
    Section(this: Node, name: Node, region: Node, attrs: Node) {
      const op = newOp(name.sourceString, name, this, 'custom');
      op.regions = [region.ast()];
      op.attrs = optional<AttrEntry[]>(attrs) ?? [];
      return op;
    },
    MemrefAlloc(this: Node, kw: Node, _o: Node, dynamicSizes: Node, _c: Node, attrs: Node, _colon: Node, t: Node) {
      const op = newOp('memref.alloc', kw, this, 'custom');
      addSegment(op, 'sizes', dynamicSizes.asIteration().children.map((v) => valueOperand(v.ast())));
      op.attrs = optional<AttrEntry[]>(attrs) ?? [];
      op.resultTypes = [t.ast()];
      return op;
    },
    MemrefSubview(this: Node, kw: Node, src: Node, offsets: Node, sizes: Node, strides: Node, attrs: Node, _colon: Node, from: Node, _to: Node, to: Node) {
      const op = newOp('memref.subview', kw, this, 'custom');
      addSegment(op, 'source', [valueOperand(src.ast(), from.ast())]);
      addSegment(op, 'offsets', offsets.ast());
      addSegment(op, 'sizes', sizes.ast());
      addSegment(op, 'strides', strides.ast());
      op.attrs = optional<AttrEntry[]>(attrs) ?? [];
      op.resultTypes = [to.ast()];
      return op;
    },
    PointerCast(this: Node, kw: Node, _o: Node, addresses: Node, _c: Node, attrs: Node, _colon: Node, t: Node) {
      const op = newOp('pto.pointer_cast', kw, this, 'custom');
      addSegment(op, 'addr', addresses.asIteration().children.map((v) => valueOperand(v.ast())));
      op.attrs = optional<AttrEntry[]>(attrs) ?? [];
      op.resultTypes = [t.ast()];
      return op;
    },
    BindTile(this: Node, kw: Node, src: Node, _c1: Node, rows: Node, _c2: Node, cols: Node, attrs: Node, _colon: Node, from: Node, _arrow: Node, to: Node) {
      const op = newOp('pto.bind_tile', kw, this, 'custom');
      addSegment(op, 'source', [valueOperand(src.ast(), from.ast())]);
      addSegment(op, 'valid_row', [valueOperand(rows.ast())]);
      addSegment(op, 'valid_col', [valueOperand(cols.ast())]);
      op.attrs = optional<AttrEntry[]>(attrs) ?? [];
      op.resultTypes = [to.ast()];
      return op;
    },
    AddPtr(this: Node, kw: Node, ptr: Node, _c: Node, offset: Node, attrs: Node, _colon: Node, from: Node, _arrow: Node, to: Node) {
      const op = newOp('pto.addptr', kw, this, 'custom');
      addSegment(op, 'ptr', [valueOperand(ptr.ast(), from.ast())]);
      addSegment(op, 'offset', [valueOperand(offset.ast())]);
      op.attrs = optional<AttrEntry[]>(attrs) ?? [];
      op.resultTypes = [to.ast()];
      return op;
    },
    LoadScalar(this: Node, kw: Node, ptr: Node, _o: Node, offset: Node, _c: Node, attrs: Node, _colon: Node, from: Node, _arrow: Node, to: Node) {
      const op = newOp('pto.load_scalar', kw, this, 'custom');
      addSegment(op, 'ptr', [valueOperand(ptr.ast(), from.ast())]);
      addSegment(op, 'offset', [valueOperand(offset.ast())]);
      op.attrs = optional<AttrEntry[]>(attrs) ?? [];
      op.resultTypes = [to.ast()];
      return op;
    },
    StoreScalar(this: Node, kw: Node, value: Node, _c1: Node, ptr: Node, _o: Node, offset: Node, _c: Node, attrs: Node, _colon: Node, ptrType: Node, _c2: Node, valueType: Node) {
      const op = newOp('pto.store_scalar', kw, this, 'custom');
      addSegment(op, 'value', [valueOperand(value.ast(), valueType.ast())]);
      addSegment(op, 'ptr', [valueOperand(ptr.ast(), ptrType.ast())]);
      addSegment(op, 'offset', [valueOperand(offset.ast())]);
      op.attrs = optional<AttrEntry[]>(attrs) ?? [];
      return op;
    },
    TensorViewDim(this: Node, kw: Node, view: Node, _c: Node, dim: Node, attrs: Node, _colon: Node, from: Node, _arrow: Node, to: Node) {
      const op = newOp('pto.get_tensor_view_dim', kw, this, 'custom');
      addSegment(op, 'view', [valueOperand(view.ast(), from.ast())]);
      addSegment(op, 'dim', [valueOperand(dim.ast())]);
      op.attrs = optional<AttrEntry[]>(attrs) ?? [];
      op.resultTypes = [to.ast()];
      return op;
    },
    PrintScalar(this: Node, kw: Node, _ins: Node, _o: Node, format: Node, _c1: Node, value: Node, _colon: Node, t: Node, _c: Node, attrs: Node) {
      const op = newOp('pto.print', kw, this, 'custom');
      addSegment(op, 'value', [valueOperand(value.ast(), t.ast())]);
      op.attrs = [{ key: 'format', value: { kind: 'string', value: unquote(format.sourceString), span: spanOfNode(format) }, span: spanOfNode(format) }, ...(optional<AttrEntry[]>(attrs) ?? [])];
      return op;
    },
    AffineApply(this: Node, kw: Node, map: Node, _o: Node, dims: Node, _c: Node, symbols: Node, attrs: Node) {
      const op = newOp('affine.apply', kw, this, 'custom');
      addSegment(op, 'dims', dims.asIteration().children.map((v) => valueOperand(v.ast())));
      addSegment(op, 'symbols', optional<Operand[]>(symbols) ?? []);
      op.attrs = [{ key: 'map', value: { kind: 'dialect', text: map.sourceString, span: spanOfNode(map) }, span: spanOfNode(map) }, ...(optional<AttrEntry[]>(attrs) ?? [])];
      op.resultTypes = [{ text: 'index', span: spanOfNode(kw) }];
      return op;
    },
    AffineSymbols(_o: Node, list: Node, _c: Node) {
      return list.asIteration().children.map((v) => valueOperand(v.ast()));
    },
    PositionalOp(this: Node, name: Node, args: Node, attrs: Node) {
      const op = newOp(name.sourceString, name, this, 'custom');
      const { bracketed, items } = args.ast() as { bracketed: boolean; items: (Attr | ValueRef)[] };
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
      op.attrs = optional<AttrEntry[]>(attrs) ?? [];
      return op;
    },
    PositionalArgs_bracketed(_o: Node, list: Node, _c: Node) {
      return { bracketed: true, items: list.asIteration().children.map((i) => i.ast()) };
    },
    PositionalArgs_bare(first: Node, _commas: Node, rest: Node) {
      const head: Attr = { kind: 'dialect', text: first.sourceString, span: spanOfNode(first) };
      return { bracketed: false, items: [head, ...rest.children.map((i) => i.ast())] };
    },
    PositionalItem(this: Node, item: Node): Attr | ValueRef {
      const span = spanOfNode(this);
      if (item.ctorName === 'intLit') return { kind: 'int', value: parseIntLiteral(item.sourceString), span };
      if (item.ctorName === 'valueUse') return item.ast() as ValueRef;
      return { kind: 'dialect', text: item.sourceString, span };
    },
    DpsOp(this: Node, name: Node, _ins: Node, _o: Node, ins: Node, _c: Node, outs: Node, attrs: Node, trailers: Node, resultTypes: Node) {
      const op = newOp(name.sourceString, name, this, 'dps');
      const current = currentDpsName(op.name);
      if (current) {
        op.legacy = [{ message: `'${op.name}' is the old name of '${current}'`, span: op.nameSpan }];
        op.name = current;
      }
      const insList = ins.ast() as DpsList;
      addSegment(op, 'ins', insList.operands);
      op.attrs.push(...insList.attrs);
      const outsList = optional<DpsList | { scalar: TypeRef }>(outs);
      if (outsList && 'scalar' in outsList) {
        addSegment(op, 'outs', []);
        op.resultTypes = [outsList.scalar];
      } else {
        const list = outsList as DpsList | undefined;
        addSegment(op, 'outs', list?.operands ?? []);
        op.attrs.push(...(list?.attrs ?? []));
      }
      op.attrs.push(...(optional<AttrEntry[]>(attrs) ?? []));
      for (const t of trailers.children) {
        const trailer = t.ast() as { key: string; value: ValueRef | Attr; type?: TypeRef; span: Span };
        if ('kind' in trailer.value) op.attrs.push({ key: trailer.key, value: trailer.value, span: trailer.span });
        else addSegment(op, trailer.key, [valueOperand(trailer.value, trailer.type)]);
      }
      const declared = optional<TypeRef[]>(resultTypes);
      if (declared) op.resultTypes = declared;
      return op;
    },
    DpsOuts_list(_kw: Node, _o: Node, list: Node, _c: Node) {
      return list.ast();
    },
    DpsOuts_scalar(_kw: Node, _c: Node, t: Node) {
      return { scalar: t.ast() };
    },
    PerOperandList(list: Node, _lookahead: Node) {
      return { operands: list.asIteration().children.map((o) => o.ast()), attrs: [] } satisfies DpsList;
    },
    TypedOperand(v: Node, _c: Node, t: Node) {
      return valueOperand(v.ast(), t.ast());
    },
    GroupedList(this: Node, items: Node, _c: Node, types: Node) {
      const values: ValueRef[] = [];
      const attrs: AttrEntry[] = [];
      for (const item of items.asIteration().children) {
        const it = item.ast() as { value?: ValueRef; attrs: AttrEntry[] };
        if (it.value) values.push(it.value);
        attrs.push(...it.attrs);
      }
      const ts = types.asIteration().children.map((t) => t.ast() as TypeRef);
      return { operands: typedValues({ values, types: ts }, this), attrs } satisfies DpsList;
    },
    EmptyList(_lookahead: Node) {
      return { operands: [], attrs: [] } satisfies DpsList;
    },
    DpsItem_value(v: Node, attrs: Node) {
      return { value: v.ast(), attrs: optional<AttrEntry[]>(attrs) ?? [] };
    },
    DpsItem_attrs(dict: Node) {
      return { attrs: dict.ast() };
    },
    DpsTrailer(this: Node, key: Node, _eq: Node, value: Node, type: Node) {
      return { key: key.sourceString, value: value.ast(), type: optional<TypeRef>(type), span: spanOfNode(this) };
    },
    DpsTrailerType(_c: Node, t: Node) {
      return t.ast();
    },
    SsaOp(this: Node, name: Node, values: Node, attrs: Node, signature: Node) {
      const op = newOp(name.sourceString, name, this, 'ssa');
      const sig = optional<{ inputs: TypeRef[]; results: TypeRef[]; arrow: boolean }>(signature);
      const vs = optional<ValueRef[]>(values) ?? [];
      let inputTypes: (TypeRef | undefined)[] = [];
      if (sig?.arrow) {
        inputTypes = sig.inputs;
        op.resultTypes = sig.results;
      } else if (sig) {
        // `op %a, %b : T` (one type for all operands and the result) or one type per operand.
        inputTypes = sig.inputs.length === 1 ? vs.map(() => sig.inputs[0]) : sig.inputs;
        op.resultTypes = sig.inputs.length === 1 ? [sig.inputs[0]] : [];
      }
      if (sig?.arrow && inputTypes.length !== vs.length && !(vs.length === 0 && inputTypes.length === 0)) {
        ctx!.diags.error(spanOfNode(signature), `${vs.length} operand(s) but ${inputTypes.length} type(s) in the signature`);
      }
      addSegment(op, 'operands', vs.map((v, i) => valueOperand(v, inputTypes[i])));
      op.attrs = optional<AttrEntry[]>(attrs) ?? [];
      (op as OpNode & { signatureSingle?: boolean }).signatureSingle = !!sig && !sig.arrow && sig.inputs.length === 1;
      return op;
    },
    SsaOperands(list: Node) {
      return list.asIteration().children.map((v) => v.ast());
    },
    Signature(_c: Node, body: Node) {
      return body.ast();
    },
    SignatureBody_arrow(inputs: Node, _arrow: Node, results: Node) {
      return { inputs: inputs.ast(), results: results.ast(), arrow: true };
    },
    SignatureBody_plain(list: Node) {
      return { inputs: list.asIteration().children.map((t) => t.ast()), results: [], arrow: false };
    },
    Loc(_kw: Node, _body: Node) {
      return null;
    },
    FunctionType(this: Node, _o: Node, inputs: Node, _c: Node, _arrow: Node, results: Node) {
      return { ...typeRef(this), fn: { inputs: inputs.asIteration().children.map((t) => t.ast()), results: results.ast() } };
    },
    TypeListOrOne_list(_o: Node, list: Node, _c: Node) {
      return list.asIteration().children.map((t) => t.ast());
    },
    TypeListOrOne_one(t: Node) {
      return [t.ast()];
    },
    typeToken(this: Node, t: Node) {
      if (t.ctorName !== 'strippedTileType') return typeRef(this);
      const span = spanOfNode(this);
      ctx!.legacy.push({ message: `a tile type without its name is the old spelling of '!pto.tile_buf${this.sourceString}'`, span });
      return { text: '!pto.tile_buf' + this.sourceString, span } satisfies TypeRef;
    },
    AttrDict(_o: Node, entries: Node, _c: Node) {
      return entries.asIteration().children.map((e) => e.ast());
    },
    AttrEntry_value(this: Node, key: Node, _eq: Node, value: Node) {
      return { key: key.ast(), value: value.ast(), span: spanOfNode(this) } satisfies AttrEntry;
    },
    AttrEntry_unit(this: Node, key: Node) {
      return { key: key.ast(), value: { kind: 'unit', span: spanOfNode(this) }, span: spanOfNode(this) } satisfies AttrEntry;
    },
    AttrKey(this: Node, k: Node) {
      return k.ctorName === 'string' ? unquote(k.sourceString) : k.sourceString;
    },
    Attr(this: Node, x: Node): Attr {
      const span = spanOfNode(this);
      switch (x.ctorName) {
        case 'ArrayAttr':
        case 'TypedLiteral':
          return x.ast();
        case 'AttrDict':
          return { kind: 'dict', entries: x.ast(), span };
        case 'boolLit':
          return { kind: 'bool', value: x.sourceString === 'true', span };
        case 'dialectAttr':
          return { kind: 'dialect', text: x.sourceString, span };
        case 'symbolRef':
          return { kind: 'symbol', name: x.ast(), span };
        case 'Type':
          return { kind: 'type', type: x.ast(), span };
        default:
          return { kind: 'ident', name: x.sourceString, span };
      }
    },
    ArrayAttr(this: Node, _o: Node, items: Node, _c: Node) {
      return { kind: 'array', items: items.asIteration().children.map((i) => i.ast()), span: spanOfNode(this) } satisfies Attr;
    },
    TypedLiteral(this: Node, lit: Node, type: Node): Attr {
      const span = spanOfNode(this);
      const t = optional<TypeRef>(type);
      const text = lit.sourceString;
      const inner = lit.children[0];
      if (inner.ctorName === 'string') return { kind: 'string', value: unquote(text), type: t, span };
      if (inner.ctorName === 'number' && inner.children[0].ctorName === 'floatLit') {
        return { kind: 'float', value: Number(text), text, type: t, span };
      }
      return { kind: 'int', value: parseIntLiteral(text), type: t, span };
    },
    LiteralType(_c: Node, t: Node) {
      return t.ast();
    },
    valueUse(this: Node, id: Node, index: Node) {
      const idx = index.children.length > 0 ? Number(index.sourceString.slice(1)) : undefined;
      return { name: id.sourceString, index: idx, span: spanOfNode(this) } satisfies ValueRef;
    },
    resultDef(this: Node, id: Node, count: Node) {
      const n = count.children.length > 0 ? Number(count.sourceString.slice(1)) : 1;
      return { name: id.sourceString, count: n, span: spanOfNode(this) } satisfies ResultDef;
    },
    symbolRef(_at: Node, name: Node) {
      return name.ctorName === 'string' ? unquote(name.sourceString) : name.sourceString;
    },
  });
  return semantics;
}

/** Early PTOAS spelled Level 2 ops with a `_dps` suffix, and the transfers without their `t`. */
const OLD_DPS_NAMES: Record<string, string> = { 'pto.load_dps': 'pto.tload', 'pto.store_dps': 'pto.tstore' };

function currentDpsName(name: string): string | undefined {
  if (OLD_DPS_NAMES[name]) return OLD_DPS_NAMES[name];
  return name.startsWith('pto.t') && name.endsWith('_dps') ? name.slice(0, -'_dps'.length) : undefined;
}

interface DpsList {
  operands: Operand[];
  attrs: AttrEntry[];
}
