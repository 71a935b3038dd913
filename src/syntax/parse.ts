import * as ohm from 'ohm-js';
import { DIAGNOSTICS as D } from '../diag/catalog';
import { DiagnosticBag } from '../diag/diagnostic';
import { SourceFile, Span } from '../diag/source';
import { AliasDef, Attr, AttrEntry, BlockArg, Block, Module, OpNode, Operand, Region, ResultDef, TypeRef, ValueRef } from './ast';
import { ptoGrammar, statementRule } from './grammar';
import { LIMITS } from '../diag/limits';
import { OpSyntax, OpSyntaxTable, movedInsKeywords } from './op-syntax';
import { GenericStatement, genericOp } from './generic-form';
import { RawLabel, RawRegion, RawStatement, ScanSink, Scanner } from './scan';
import { Actions, RecordedShape, ShapeCache, Unreplayable, keepVisited, recordShape, replayShape, shapeCacheFor } from './shape-cache';
import { StatementShape, statementShape } from './statement-shape';
import { microActions } from './micro-parse';
import { frozenSegments, indexRange, sameSegments, sharedIfEmpty } from './shared-parts';

export interface ParseOptions {
  /**
   * The two fast paths: statements of one shape (the same text but for value names, symbols and numbers) are
   * matched by the grammar once, and each dialect type string is cut out of the statement (the type table matches it
   * once). On by default; off, every statement is matched in full, which is their definition (tests compare the two,
   * and the benchmark measures what they save).
   */
  fastPaths?: boolean;
  /**
   * The first fast path alone (default: `fastPaths`): off, every statement is matched, dialect types still cut out. On,
   * the shapes are shared by every file parsed with the op table, unless a cache of one's own is given.
   */
  shapeCache?: boolean | ShapeCache;
}

/**
 * Text -> AST. The scanner splits the file into statements; each statement's header (its text with the bodies
 * of nested regions cut out) is matched against `Stmt<Body>`, where the op's definition names the body rule.
 * Syntax errors become diagnostics and parsing continues with the next statement.
 */
export function parseModule(source: SourceFile, diags: DiagnosticBag, opTable: OpSyntaxTable, options: ParseOptions = {}): Module {
  const fastPaths = options.fastPaths ?? true;
  const shapeCache = options.shapeCache ?? fastPaths;
  const shapes = shapeCache === true ? shapeCacheFor(opTable) : shapeCache === false ? undefined : shapeCache;
  // The parser's diagnostics follow the scanner's, as when the scan was done before the parse began.
  const parsing = new DiagnosticBag(source);
  const parser = new StatementParser(source, parsing, opTable, fastPaths, shapes);
  new Scanner(source.text, diags, (name) => opTable.syntaxOf(name)?.hasRegions, parser).scanFile();
  diags.absorb(parsing);
  return { ops: parser.ops, aliases: parser.aliases, span: { start: 0, end: source.text.length } };
}

/** A region being parsed while it is scanned: its blocks so far, and the regions of the statement being scanned. */
interface OpenRegion {
  open: number;
  blocks: Block[];
  current: Block;
  /** The regions closed since the last item of this region: the next statement's. */
  pending: Region[];
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

/** The map of the header with [from, to) cut out (from 0: of the part of it that starts at `to`). */
function cutOffsetMap(m: OffsetMap, from: number, to: number): OffsetMap {
  const headerStarts: number[] = [];
  const fileStarts: number[] = [];
  for (let k = 0; k < m.headerStarts.length && m.headerStarts[k] < from; k++) {
    headerStarts.push(m.headerStarts[k]);
    fileStarts.push(m.fileStarts[k]);
  }
  headerStarts.push(from);
  fileStarts.push(mapOffset(m, to));
  for (let k = 0; k < m.headerStarts.length; k++) {
    if (m.headerStarts[k] <= to) continue;
    headerStarts.push(m.headerStarts[k] - (to - from));
    fileStarts.push(m.fileStarts[k]);
  }
  return { headerStarts, fileStarts };
}

/** The dialect types of the header's [start, end), placed in that part. */
function typesWithin(types: InternedType[], start: number, end: number): InternedType[] {
  return types.filter((t) => t.headerStart >= start && t.headerStart < end).map((t) => ({ ...t, headerStart: t.headerStart - start }));
}

/** The dialect types of the header with [from, to) cut out, placed in it. */
function typesOutside(types: InternedType[], from: number, to: number): InternedType[] {
  return types
    .filter((t) => t.headerStart < from || t.headerStart >= to)
    .map((t) => (t.headerStart < from ? t : { ...t, headerStart: t.headerStart - (to - from) }));
}

/**
 * Keys of the shapes of a statement's parts (a function's parameter) begin with this and the part's rule; the key of
 * a statement whose op name the shape abstracts ends with it and the rules the op is matched with. A control
 * character, which no header holds (statement-shape.ts).
 */
const ITEM_SHAPE = '\u0002';

/**
 * The shape of a statement's header and the key its record is kept under (src/syntax/shape-cache.ts), given the
 * statement's op (undefined: a name the toolchain does not define); undefined when the header has no shape.
 */
export function headerShape(
  header: string,
  stmt: Pick<RawStatement, 'name' | 'generic'>,
  op: OpSyntax | undefined,
): { shape: StatementShape; key: string } | undefined {
  const named = stmt.name !== undefined && !stmt.generic;
  const shape = statementShape(header, { opName: named ? stmt.name : undefined });
  return shape && { shape, key: named ? shape.key + ITEM_SHAPE + rulesOf(op) : shape.key };
}

/**
 * The rules a statement of the op is matched with, which its shape's key names in place of the op: its own body
 * rule, then its former op's (ops matched alike share their shapes: `pto.tadd` and `pto.tsub` are one).
 */
function rulesOf(op: OpSyntax | undefined): string {
  const rule = op?.syntax ?? 'GenericBody';
  return op?.formerly ? rule + ',' + (op.formerly.syntax ?? 'GenericBody') : rule;
}

const enum ListChar {
  Quote = 34,
  LParen = 40,
  RParen = 41,
  Comma = 44,
  Slash = 47,
  Lt = 60,
  Gt = 62,
  LBracket = 91,
  Backslash = 92,
  RBracket = 93,
  LBrace = 123,
  RBrace = 125,
}

/** What may come before a function's parameter list: the op's name, a visibility, the symbol. */
const FUNCTION_HEAD = /^[A-Za-z_][\w$.]*\s+(?:(?:private|public|nested)\s+)?@[A-Za-z0-9_$.-]+\s*$/;

/**
 * The parameter list of a function's header (an op whose body is `FuncBody`): where its parentheses are, and [start,
 * end) of each parameter (flattened, blanks around it left out). Undefined for an empty list, and when it does not
 * read plainly: a comment or quoted symbol, brackets that do not pair (a `->` inside a type), a parameter left empty.
 * The grammar then reads the header whole. A list split here at a comma that lies inside a parameter leaves a part that does not
 * match alone, which sends the header to the grammar too.
 */
function parameterList(header: string): { open: number; close: number; items: number[] } | undefined {
  const open = header.indexOf('(');
  if (open < 0 || !FUNCTION_HEAD.test(header.slice(0, open))) return undefined;
  const items: number[] = [];
  let depth = 0;
  let start = open + 1;
  const push = (end: number): boolean => {
    let [a, b] = [start, end];
    while (a < b && header.charCodeAt(a) <= 32) a++;
    while (b > a && header.charCodeAt(b - 1) <= 32) b--;
    if (a === b) return false;
    items.push(a, b);
    return true;
  };
  for (let i = open + 1; i < header.length; i++) {
    const c = header.charCodeAt(i);
    if (c === ListChar.Quote) {
      i++;
      while (i < header.length && header.charCodeAt(i) !== ListChar.Quote) i += header.charCodeAt(i) === ListChar.Backslash ? 2 : 1;
    } else if (c === ListChar.Slash && header.charCodeAt(i + 1) === ListChar.Slash) return undefined;
    else if (c === ListChar.LParen || c === ListChar.LBracket || c === ListChar.LBrace || c === ListChar.Lt) depth++;
    else if (c === ListChar.RParen || c === ListChar.RBracket || c === ListChar.RBrace || c === ListChar.Gt) {
      if (depth > 0) depth--;
      else if (c !== ListChar.RParen || !push(i)) return undefined;
      else return { open, close: i, items };
    } else if (c === ListChar.Comma && depth === 0) {
      if (!push(i)) return undefined;
      start = i + 1;
    }
  }
  return undefined;
}

/** What the semantic actions of one statement share; passed to them as the argument of the `ast` operation. */
interface ActionContext {
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

const NO_TYPE_TOKENS: number[] = [];

/** A statement's result list, `%a, %b:2 =` (the scanner's `resultListEnd`, without comments inside). */
const RESULT_LIST = /^\s*%[\w$.-]+(?::\d+)?(?:\s*,\s*%[\w$.-]+(?::\d+)?)*\s*=(?!=)/;

const placeholders: string[] = [];
/** The placeholder of the `n`th dialect type of a header: `!T3<>`. */
function placeholder(n: number): string {
  return (placeholders[n] ??= '!T' + n + '<>');
}

/** A dialect type cut out of a statement header; `placeholder` (`!T3<>`) stands in its place at `headerStart`. */
interface InternedType {
  text: string;
  start: number;
  end: number;
  placeholder: string;
  headerStart: number;
}

class StatementParser implements ScanSink {
  private readonly grammar = ptoGrammar();
  private readonly semantics = sharedSemantics(this.grammar);
  readonly aliases: AliasDef[] = [];
  private readonly texts = new Map<string, string>();
  /** One string per distinct dialect type text of the file (the type table and the verifier look each up by text). */
  private readonly typeTexts = new Map<string, string>();

  constructor(
    private readonly source: SourceFile,
    private readonly diags: DiagnosticBag,
    private readonly opTable: OpSyntaxTable,
    private readonly fastPaths: boolean,
    private readonly shapes: ShapeCache | undefined,
  ) {}

  /** The ops of the file's top level. */
  readonly ops: OpNode[] = [];
  /** The regions being scanned, innermost last; the file's top level below them all. */
  private readonly regions: OpenRegion[] = [];
  private readonly topLevelRegions: Region[] = [];

  openRegion(open: number): void {
    const current: Block = { args: [], ops: [], span: { start: open, end: -1 } };
    this.regions.push({ open, blocks: [current], current, pending: [] });
  }

  item(item: RawStatement | RawLabel): void {
    const region = this.regions.at(-1);
    // A statement's regions were scanned before it: they are its own, whether it is parsed or dropped.
    const regions = item.kind === 'op' ? (region ? region.pending : this.topLevelRegions).splice(0) : [];
    if (this.tooLong(item)) return;
    if (item.tooDeep) {
      const { at, what } = item.tooDeep;
      this.diags.report(D.sourceLimit, { start: at, end: at + 1 }, `${what} nested deeper than ${LIMITS.nesting.value} levels: more than the assembler takes`);
      return;
    }
    if (item.kind === 'label') {
      if (!region) {
        this.diags.report(D.labelOutsideRegion, { start: item.start, end: item.end }, 'block label outside a region body');
        return;
      }
      const label = this.parseLabel(item);
      region.current = { label: label?.label, args: label?.args ?? [], ops: [], span: { start: item.start, end: -1 } };
      region.blocks.push(region.current);
      return;
    }
    const op = this.parseStatement(item, regions);
    if (op) (region ? region.current.ops : this.ops).push(op);
  }

  /**
   * A statement (or label) longer than LIMITS.statementLength, its regions left out, is reported and dropped before
   * the grammar sees it (the matcher's memory grows with the length).
   */
  private tooLong(item: RawStatement | RawLabel): boolean {
    let length = item.end - item.start;
    if (item.kind === 'op') for (const r of item.regions) length -= Math.min(r.close + 1, item.end) - r.open;
    if (length <= LIMITS.statementLength.value) return false;
    const what = item.kind === 'op' ? 'statement' : 'block label';
    this.diags.report(
      D.sourceLimit,
      { start: item.start, end: item.start + 1 },
      `a ${what} of ${length} characters: longer than the ${LIMITS.statementLength.value} the assembler takes`,
    );
    return true;
  }

  closeRegion(raw: RawRegion): void {
    const { blocks } = this.regions.pop()!;
    // The entry block runs past the `}`; a labeled block ends at it.
    blocks.forEach((block, i) => (block.span.end = i === 0 ? raw.close + 1 : raw.close));
    // An empty entry block followed by labeled blocks is just the labeled blocks.
    if (blocks.length > 1 && blocks[0].ops.length === 0) blocks.shift();
    // The blocks keep lists of their exact size.
    for (const block of blocks) block.ops = block.ops.slice();
    const span = { start: raw.open, end: raw.close + 1 };
    const region = raw.close >= this.source.text.length ? { blocks, span, unclosed: true } : { blocks, span };
    (this.regions.at(-1)?.pending ?? this.topLevelRegions).push(region);
  }

  private parseLabel(item: RawLabel): { label: string; args: BlockArg[] } | undefined {
    const text = this.source.text.slice(item.start, item.end);
    const map = { headerStarts: [0], fileStarts: [item.start] };
    const match = this.grammar.match(text, 'BlockLabel');
    if (match.failed()) {
      this.reportSyntax(match, map);
      return undefined;
    }
    return this.semantics(match).ast(this.context(map, [], [], undefined));
  }

  /** A statement, given its regions (parsed as they were scanned, even under a malformed header). */
  private parseStatement(stmt: RawStatement, regions: Region[]): OpNode | undefined {
    const { header, map, types } = this.headerOf(stmt);
    if (this.shapes && stmt.name !== undefined && !stmt.generic && this.opTable.syntaxOf(stmt.name)?.syntax === 'FuncBody') {
      const op = this.parseFunctionByParameter(stmt, header, map, types, regions);
      if (op) return op;
    }
    return this.parseHeader(stmt, header, map, types, regions);
  }

  /**
   * A function's header with its parameters read one by one, each through the shapes of a parameter, and the rest
   * through the shapes of a header with `()`: each function of compiler output has a parameter list of its own, which
   * made its whole header a shape the grammar had not met. Undefined, having reported nothing, when the list does
   * not read plainly or a part does not match: the header is then matched whole, which reports its errors.
   */
  private parseFunctionByParameter(stmt: RawStatement, header: string, map: OffsetMap, types: InternedType[], regions: Region[]): OpNode | undefined {
    const list = parameterList(header);
    if (!list) return undefined;
    const before = this.diags.mark();
    const legacy: { message: string; span: Span }[] = [];
    const params: BlockArg[] = [];
    for (let k = 0; k < list.items.length; k += 2) {
      const [start, end] = [list.items[k], list.items[k + 1]];
      const c = this.context(cutOffsetMap(map, 0, start), [], typesWithin(types, start, end), undefined);
      const param = this.parseItem('FuncArg', header.slice(start, end), c) as BlockArg | undefined;
      if (!param) {
        this.diags.rollback(before);
        return undefined;
      }
      params.push(param);
      legacy.push(...c.legacy);
    }
    const [from, to] = [list.open + 1, list.close];
    const op = this.parseHeader(stmt, header.slice(0, from) + header.slice(to), cutOffsetMap(map, from, to), typesOutside(types, from, to), regions, {
      params,
      legacy,
    });
    if (!op) this.diags.rollback(before);
    return op;
  }

  /**
   * The value of `text` matched by `rule` (a part of a statement), through the shapes of the rule's parts; undefined
   * when it does not match (nothing is reported).
   */
  private parseItem(rule: string, text: string, c: ActionContext): unknown {
    const shape = statementShape(text);
    const key = shape && ITEM_SHAPE + rule + ITEM_SHAPE + shape.key;
    const known = key === undefined ? undefined : this.shapes!.lookup(key);
    if (known === 'unmatched') return undefined;
    if (known && known !== 'unreplayable') {
      const built = this.replay(known, text, shape!, c);
      if (built !== undefined) return built;
      this.shapes!.markUnreplayable(key!);
    }
    const match = this.grammar.match(text, rule);
    if (match.failed()) {
      if (key !== undefined) this.shapes!.markUnmatched(key);
      return undefined;
    }
    const tree = this.semantics(match);
    if (key !== undefined && known === undefined) {
      const fromRecord = this.recordNewShape(key, tree, text, shape!, c);
      if (fromRecord) return fromRecord.built;
    }
    return tree.ast(c);
  }

  /**
   * A new shape's match recorded under `key`, and the text built from the record as later texts of the shape will
   * be; undefined (the shape marked unreplayable) when the record does not fix what the actions ask for.
   */
  private recordNewShape(
    key: string,
    tree: ohm.Dict,
    text: string,
    shape: StatementShape,
    c: ActionContext,
    former = false,
  ): { built: NonNullable<ReturnType<StatementParser['replay']>>; recorded: RecordedShape } | undefined {
    const recorded = recordShape(tree as unknown as ohm.Node, shape, sharedActions(this.grammar), former);
    const built = this.replay(recorded, text, shape, c);
    if (built === undefined) {
      this.shapes!.markUnreplayable(key);
      return undefined;
    }
    keepVisited(recorded);
    this.shapes!.store(key, recorded);
    return { built, recorded };
  }

  /** A statement's header (its regions and dialect types cut out) matched and built. */
  private parseHeader(
    stmt: RawStatement,
    header: string,
    map: OffsetMap,
    types: InternedType[],
    regions: Region[],
    params?: ActionContext['params'],
  ): OpNode | undefined {
    const spelled = stmt.name !== undefined ? this.opTable.syntaxOf(stmt.name) : undefined;
    let op = spelled;
    const { shape, key } = (this.shapes && !stmt.alias && headerShape(header, stmt, spelled)) || {};
    const known = key === undefined ? undefined : this.shapes!.lookup(key);
    if (known && typeof known !== 'string') {
      const built = this.replay(known, header, shape!, this.context(map, [...regions], types, known.former ? op?.formerly : op, params));
      if (built !== undefined) return this.converted(built, known);
      this.shapes!.markUnreplayable(key!);
    }
    // An op no definition names is reported as such at its name when its statement does not match the generic syntax
    // (not as a syntax error at a later token, which would hide the cause).
    const unknown = (): string | undefined => (op === undefined && stmt.name !== undefined && !stmt.generic ? this.opTable.unknownOp?.(stmt.name) : undefined);
    // A statement of a shape the grammar did not match does not match either: an unknown op says so at once (compiler
    // output repeats a statement of an op the toolchain does not support thousands of times). A syntax error is matched
    // again for its position.
    const unmatchedBecause = known === 'unmatched' ? unknown() : undefined;
    if (unmatchedBecause) return this.reportUnknown(stmt, header, map, regions, unmatchedBecause);
    let match = this.grammar.match(header, stmt.alias ? 'AliasDef' : stmt.generic ? 'GenericOpStmt' : statementRule(op?.syntax ?? 'GenericBody'));
    if (match.failed() && op?.formerly && !stmt.generic) {
      // The name's old meaning: reported with the error of its current one when neither matches.
      const former = this.grammar.match(header, statementRule(op.formerly.syntax ?? 'GenericBody'));
      if (former.succeeded()) [op, match] = [op.formerly, former];
    }
    if (match.failed()) {
      if (key !== undefined) this.shapes!.markUnmatched(key);
      const because = unknown();
      if (because) return this.reportUnknown(stmt, header, map, regions, because);
      this.reportSyntax(match, map);
      return this.unparsed(stmt, header, map, regions, spelled);
    }
    const tree = this.semantics(match);
    if (key !== undefined && known === undefined) {
      const fromRecord = this.recordNewShape(key, tree, header, shape!, this.context(map, [...regions], types, op, params), op !== spelled);
      if (fromRecord) return this.converted(fromRecord.built, fromRecord.recorded);
    }
    return this.converted(tree.ast(this.context(map, regions, types, op, params)) as OpNode | AliasDef | undefined);
  }

  /**
   * A statement (or part) built from a recorded shape with the actions' context `c`; undefined when the shape does
   * not fix a node the actions asked for (what it reported is withdrawn, and the text is matched instead).
   */
  private replay(recorded: RecordedShape, header: string, shape: StatementShape, c: ActionContext): OpNode | AliasDef | { unconverted: true } | undefined {
    const before = this.diags.mark();
    const legacy = c.legacy.length;
    try {
      const built = replayShape(recorded, header, shape, c) as OpNode | AliasDef | undefined;
      this.shapes!.built++;
      return built ?? { unconverted: true };
    } catch (e) {
      if (!(e instanceof Unreplayable)) throw e;
      this.diags.rollback(before);
      c.legacy.length = legacy;
      return undefined;
    }
  }

  /**
   * What a converted statement adds: an op, an alias (kept aside), or nothing (a generic-form op that did not fit).
   * The ops of one shape share their segments (the names and operand indices follow from the shape).
   */
  private converted(result: OpNode | AliasDef | { unconverted: true } | undefined, shape?: RecordedShape): OpNode | undefined {
    if (result === undefined || 'unconverted' in result) return undefined;
    if ('alias' in result) {
      this.aliases.push(result);
      return undefined;
    }
    if (shape) {
      if (!shape.segments) shape.segments = frozenSegments(result.segments);
      else if (result.segments !== shape.segments && sameSegments(result.segments, shape.segments)) result.segments = shape.segments;
    }
    return result;
  }

  private context(map: OffsetMap, regions: Region[], types: InternedType[], op: OpSyntax | undefined, params?: ActionContext['params']): ActionContext {
    return { map, regions, diags: this.diags, types, op, legacy: [], texts: this.texts, params };
  }

  /**
   * The statement's text with each nested region's body removed (`{ ... }` becomes `{}`) and each
   * dialect type replaced by a short placeholder `!T<n>`, which the `typeToken` action maps back.
   */
  private headerOf(stmt: RawStatement): { header: string; map: OffsetMap; types: InternedType[] } {
    const text = this.source.text;
    const types: InternedType[] = [];
    const typeTokens = this.fastPaths ? stmt.typeTokens : NO_TYPE_TOKENS;
    const regions = stmt.regions;
    if (regions.length === 0 && typeTokens.length === 0) {
      return { header: text.slice(stmt.start, stmt.end), map: { headerStarts: [0], fileStarts: [stmt.start] }, types };
    }
    // The cuts in file order: each region's body and each dialect type, [from, to) replaced. Neither list overlaps the
    // other, and each is in file order: they are merged.
    const headerStarts = [0];
    const fileStarts = [stmt.start];
    let header = '';
    let from = stmt.start;
    let r = 0;
    let k = 0;
    while (r < regions.length || k < typeTokens.length) {
      const regionFirst = k >= typeTokens.length || (r < regions.length && regions[r].open + 1 < typeTokens[k]);
      let cutFrom: number;
      let cutTo: number;
      let replacement: string;
      if (regionFirst) {
        const region = regions[r++];
        // An unclosed region (the scanner reported it) still reads as `{}`. A newline stands in for a multi-line
        // body, so that what cannot cross a line (a string) still stops there.
        cutFrom = region.open + 1;
        cutTo = Math.min(region.close, stmt.end);
        const newline = text.lastIndexOf('\n', cutTo - 1) > region.open ? '\n' : '';
        replacement = newline + (region.close >= stmt.end ? '}' : '');
      } else {
        cutFrom = typeTokens[k];
        cutTo = typeTokens[k + 1];
        k += 2;
        // Ends in `<>` so that it is one complete type token, whatever follows it.
        replacement = placeholder(types.length);
        const headerStart = header.length + (cutFrom - from);
        types.push({ text: this.internedType(text.slice(cutFrom, cutTo)), start: cutFrom, end: cutTo, placeholder: replacement, headerStart });
      }
      header += text.slice(from, cutFrom) + replacement;
      from = cutTo;
      headerStarts.push(header.length);
      fileStarts.push(from);
    }
    header += text.slice(from, stmt.end);
    return { header, map: { headerStarts, fileStarts }, types };
  }

  private internedType(text: string): string {
    const known = this.typeTexts.get(text);
    if (known !== undefined) return known;
    this.typeTexts.set(text, text);
    return text;
  }

  /** The op the statement names is one no definition names: said at its name; its results stay defined. */
  private reportUnknown(stmt: RawStatement, header: string, map: OffsetMap, regions: Region[], message: string): OpNode | undefined {
    const op = this.unparsed(stmt, header, map, regions, undefined);
    const at = op?.nameSpan ?? { start: stmt.start, end: stmt.start + stmt.name!.length };
    this.diags.report(D.unknownOp, at, message);
    return op;
  }

  /**
   * What is known of a statement that did not parse: its op's name and its results (`%a, %b:2 =`, read alone), so
   * that the uses of the results cause no further errors. Its regions are kept (as written; the verifier does not
   * enter them). Undefined for a statement without a name, and for an op the toolchain defines with regions (a
   * module, a function, a loop): what it binds in them is not known, so it is dropped whole as before.
   */
  private unparsed(stmt: RawStatement, header: string, map: OffsetMap, regions: Region[], op: OpSyntax | undefined): OpNode | undefined {
    if (stmt.alias || stmt.name === undefined || op?.hasRegions) return undefined;
    const name = stmt.name;
    // The name stands after the result list, if any (as the scanner found it), quoted in the generic form.
    const list = RESULT_LIST.exec(header)?.[0] ?? '';
    let nameAt = list.length;
    while (nameAt < header.length && header.charCodeAt(nameAt) <= 32) nameAt++;
    if (stmt.generic) nameAt++;
    if (!header.startsWith(name, nameAt)) return undefined;
    let results: ResultDef[] = [];
    if (list !== '') {
      const match = this.grammar.match(list, 'OpResults');
      if (match.failed()) return undefined;
      results = this.semantics(match).ast(this.context(map, [], [], undefined)) as ResultDef[];
    }
    const nameSpan = { start: mapOffset(map, nameAt), end: mapOffset(map, nameAt + name.length) };
    return {
      name: op?.name ?? name,
      nameSpan,
      span: { start: stmt.start, end: stmt.end },
      form: 'ssa',
      results,
      operands: [],
      segments: {},
      attrs: [],
      resultTypes: [],
      regions,
      unparsed: true,
    };
  }

  private reportSyntax(match: ohm.MatchResult, map: OffsetMap): void {
    const failure = match as ohm.MatchResult & { getRightmostFailurePosition(): number; getExpectedText(): string };
    const pos = mapOffset(map, failure.getRightmostFailurePosition());
    const found = String.fromCodePoint(this.source.text.codePointAt(pos) ?? 0);
    const what = pos >= this.source.text.length || found === '\n' ? 'end of statement' : describeCharacter(found);
    this.diags.report(
      D.syntaxError,
      { start: pos, end: pos + 1 },
      `syntax error: unexpected ${what}; expected ${summarizeExpected(failure.getExpectedText())}`,
    );
  }
}

/** Ohm's "expected" text can list dozens of alternatives; keep it readable. */
function summarizeExpected(text: string): string {
  const items = text
    .split(/, or |, | or /)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  const unique = [...new Set(items)];
  if (unique.length <= 6) return unique.join(', ');
  return unique.slice(0, 6).join(', ') + ', ...';
}

// ---- Semantic actions ------------------------------------------------------------------------

type Node = ohm.Node;

/** The context an action was called with (the argument of the `ast` operation). */
function contextOf(node: Node): ActionContext {
  return (node as Node & { args: { c: ActionContext } }).args.c;
}

function spanOf(c: ActionContext, node: Node): Span {
  const src = node.source;
  return { start: mapOffset(c.map, src.startIdx), end: mapOffset(c.map, src.endIdx) };
}

/** Stands in for a node's span until the node is made its own span (`ownSpan`). */
const SPAN_TO_COME: Span = Object.freeze({ start: 0, end: 0 });

/**
 * The node made its own span: `node.span === node`. The nodes a module has most of (value uses, types, typed
 * operands) carry `start` and `end` among their fields rather than a span object of their own: a third of a large
 * module's objects were spans. The node is written with `span: SPAN_TO_COME`, so that setting it keeps its layout.
 */
function ownSpan<T extends Span & { span: Span }>(node: T): T {
  node.span = node;
  return node;
}

/** Names and short type texts remembered at most: a name repeats close to where it is defined. */
const RECENT_TEXTS = 4096;

/** One string per value name or short type text among those met recently (mostly within one function). */
function internedText(c: ActionContext, text: string): string {
  const known = c.texts.get(text);
  if (known !== undefined) return known;
  if (c.texts.size >= RECENT_TEXTS) c.texts.clear();
  c.texts.set(text, text);
  return text;
}

function optional<T>(node: Node, c: ActionContext): T | undefined {
  return node.children.length > 0 ? (node.children[0].ast(c) as T) : undefined;
}

function typeRef(c: ActionContext, node: Node): TypeRef {
  const at = node.source.startIdx;
  const written = node.sourceString;
  const interned = c.types.find((t) => t.headerStart === at && t.placeholder === written);
  if (interned) return ownSpan({ text: interned.text, start: interned.start, end: interned.end, span: SPAN_TO_COME });
  const end = mapOffset(c.map, node.source.endIdx);
  return ownSpan({ text: internedText(c, written), start: mapOffset(c.map, at), end, span: SPAN_TO_COME });
}

/** The fields of an op that its body fills; the statement adds the name, the results and the spans. */
type OpFields = Pick<OpNode, 'operands' | 'segments' | 'attrs' | 'resultTypes' | 'regions'> & Partial<OpNode>;

function fields(): OpFields {
  return { operands: [], segments: {}, attrs: [], resultTypes: [], regions: [] };
}

/** One item inside the parentheses of the parenthesized form: `%v`, `%v : T`, `key = %v : T`, `name(%a, %b)`. */
interface ParenItemAst {
  segment?: string;
  keyed?: boolean;
  values: ValueRef[];
  types?: TypeRef[];
}

/** What declares an op's results: `: (T) -> R` / `: T` (a signature), or `-> R`. */
type ResultSpec = { inputs: TypeRef[]; results: TypeRef[]; arrow: boolean } | { arrow: true; types: TypeRef[] };

/**
 * Appends operands to the op's; returns the index of the first. The op gets a new array of the exact size, not a
 * grown one: a large module keeps one per op.
 */
function addOperands(op: OpFields, operands: Operand[]): number {
  const first = op.operands.length;
  op.operands = op.operands.concat(operands);
  return first;
}

/** Adds operands to a named segment, after any it already has. */
function appendSegment(op: OpFields, name: string, operands: Operand[]): void {
  const start = addOperands(op, operands);
  op.segments[name] = [...(op.segments[name] ?? []), ...operands.map((_, i) => start + i)];
}

/** A branch's successor: its block label, and its operands appended to the op's. */
function addSuccessor(op: OpFields, successor: { label: string; operands: Operand[]; span: Span }): void {
  const first = addOperands(op, successor.operands);
  (op.successors ??= []).push({ label: successor.label, span: successor.span, operands: successor.operands.map((_, i) => first + i) });
}

/** Appends operands as a named segment. */
function addSegment(op: OpFields, name: string, operands: Operand[]): void {
  const start = addOperands(op, operands);
  op.segments[name] = indexRange(start, operands.length);
}

/**
 * `%a, %b {attrs} : From -> To` and its kin (`%a[%b]`): an operand typed `From`, an index operand after it, each a
 * segment of its own, and one result of type `To` (pto.addptr, pto.load_scalar, pto.get_tensor_view_dim and _stride).
 */
function typedOperandAndIndex(
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

function valueOperand(v: ValueRef, type?: TypeRef): Operand {
  if (!type) return { value: v, type, span: v.span };
  return ownSpan({ value: v, type, start: v.span.start, end: type.span.end, span: SPAN_TO_COME });
}

function typedValues(c: ActionContext, tv: { values: ValueRef[]; types: TypeRef[] } | undefined, where: Node): Operand[] {
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
function surplus(values: { span: Span }[], types: { span: Span }[]): Span | undefined {
  const [longer, from] = values.length > types.length ? [values, types.length] : [types, values.length];
  if (from === 0 || from >= longer.length) return undefined;
  return { start: longer[from].span.start, end: longer[longer.length - 1].span.end };
}

/**
 * A character as a message shows it: quoted, and by its code point when it is not printable ASCII (a control
 * character shows nothing; a letter like `é` looks like one MLIR takes).
 */
function describeCharacter(ch: string): string {
  const code = ch.codePointAt(0)!;
  const point = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  if (code < 0x20 || code === 0x7f) return `character ${point}`;
  return code > 0x7f ? `'${ch}' (${point})` : `'${ch}'`;
}

/** Decimal or 0x-hex integer literal with an optional sign. */
function parseIntLiteral(text: string): bigint {
  const negative = text.startsWith('-');
  const magnitude = BigInt(text.replace(/^[+-]/, ''));
  return negative ? -magnitude : magnitude;
}

/** MLIR string escapes: \\ \" \n \t and \XX (two hex digits). */
function unquote(s: string): string {
  return s
    .slice(1, -1)
    .replace(/\\([0-9a-fA-F]{2}|.)/g, (_, c: string) => (c.length === 2 ? String.fromCharCode(parseInt(c, 16)) : c === 'n' ? '\n' : c === 't' ? '\t' : c));
}

/** The semantic actions are built once per grammar: every file of a run shares them. */
let cachedSemantics: { grammar: ohm.Grammar; semantics: ohm.Semantics; actions: Actions } | undefined;
function shared(grammar: ohm.Grammar): { semantics: ohm.Semantics; actions: Actions } {
  if (cachedSemantics?.grammar !== grammar) {
    const actions = astActions(grammar);
    cachedSemantics = { grammar, semantics: grammar.createSemantics().addOperation<unknown>('ast(c)', actions), actions };
  }
  return cachedSemantics;
}

function sharedSemantics(grammar: ohm.Grammar): ohm.Semantics {
  return shared(grammar).semantics;
}

/** The same actions, for statements built from a recorded shape (src/syntax/shape-cache.ts). */
function sharedActions(grammar: ohm.Grammar): Actions {
  return shared(grammar).actions;
}

/** The `ast(c)` operation: CST -> AST, one action per rule. */
function astActions(grammar: ohm.Grammar): Actions {
  // The derived statement rules (one per body rule, src/syntax/grammar.ts) are each just their `Stmt<...>`.
  const statements: Record<string, (this: Node, stmt: Node) => unknown> = {};
  for (const body of Object.keys(grammar.rules).filter((r) => grammar.rules[statementRule(r)] !== undefined)) {
    statements[statementRule(body)] = function (this: Node, stmt: Node) {
      return stmt.ast(contextOf(this));
    };
  }
  return {
    ...statements,
    ...microActions({ contextOf, spanOf, optional, fields, valueOperand, unquote, parseIntLiteral }),
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
    DenseArrayAttr(this: Node, _kw: Node, _o: Node, _type: Node, items: Node, _c: Node) {
      const c = contextOf(this);
      const values = optional<Attr[]>(items, c);
      return { kind: 'array', items: values ?? [], span: spanOf(c, this) } satisfies Attr;
    },
    DenseElementsAttr(this: Node, _kw: Node, _o: Node, elements: Node, _c: Node, type: Node): Attr {
      const c = contextOf(this);
      return { kind: 'dense', elements: elements.ast(c), type: optional<TypeRef>(type, c), span: spanOf(c, this) };
    },
    DenseArrayItems(this: Node, _colon: Node, list: Node) {
      const c = contextOf(this);
      return list.asIteration().children.map((i) => ({ kind: 'int', value: parseIntLiteral(i.sourceString), span: spanOf(c, i) }) satisfies Attr);
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
}

interface DpsList {
  operands: Operand[];
  attrs: AttrEntry[];
  /** `no_tmp` and the like, written after an operand. */
  markers?: string[];
  /** The axis string written after the types. */
  axis?: AttrEntry;
}
