import * as ohm from 'ohm-js';
import { DIAGNOSTICS as D } from '../diag/catalog';
import { DiagnosticBag } from '../diag/diagnostic';
import { SourceFile, Span } from '../diag/source';
import { AliasDef, BlockArg, Block, Module, OpNode, Region, ResultDef } from './ast';
import { ptoGrammar, statementRule } from './grammar';
import { LIMITS } from '../diag/limits';
import { OpSyntax, OpSyntaxTable } from './op-syntax';
import { RawLabel, RawRegion, RawStatement, ScanSink, Scanner } from './scan';
import { RecordedShape, ShapeCache, Unreplayable, keepVisited, recordShape, replayShape, shapeCacheFor } from './shape-cache';
import { StatementShape, statementShape } from './statement-shape';
import { ActionContext, InternedType, OffsetMap, mapOffset } from './parse-context';
import { sharedActions, sharedSemantics } from './parse-actions';
import { frozenSegments, sameSegments } from './shared-parts';

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

const NO_TYPE_TOKENS: number[] = [];

/** A statement's result list, `%a, %b:2 =` (the scanner's `resultListEnd`, without comments inside). */
const RESULT_LIST = /^\s*%[\w$.-]+(?::\d+)?(?:\s*,\s*%[\w$.-]+(?::\d+)?)*\s*=(?!=)/;

const placeholders: string[] = [];
/** The placeholder of the `n`th dialect type of a header: `!T3<>`. */
function placeholder(n: number): string {
  return (placeholders[n] ??= '!T' + n + '<>');
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
