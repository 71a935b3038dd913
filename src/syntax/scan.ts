import { DIAGNOSTICS as D } from '../diag/catalog';
import { LIMITS } from '../diag/limits';
import { DiagnosticBag } from '../diag/diagnostic';

/**
 * The fast first pass over a file: it splits the text into statements and nested regions in one
 * linear scan, so that the Ohm grammar is applied to one statement at a time (whole-file Ohm
 * matching is quadratic in memory). It knows only the lexical shape of MLIR: comments, strings,
 * balanced brackets, `<...>` dialect bodies, and where an op starts. Each statement goes to the
 * parser as soon as its scan is complete (`ScanSink`): a large file's scan is never held whole.
 */

/** Where a statement or label first nests past LIMITS.nesting, and what (brackets or regions). */
export interface TooDeep {
  at: number;
  what: string;
}

/** A statement: the text range of one op. Its nested regions are scanned separately. */
export interface RawStatement {
  kind: 'op';
  start: number;
  end: number;
  regions: RawRegion[];
  /** [start, end) of each `!dialect.type<...>` in the header, so the parser can intern it. */
  typeTokens: number[];
  /** A top-level alias definition: `!name = type` or `#name = attr`. */
  alias?: boolean;
  /** The op name as spelled (after any `%results =`), when the statement starts with one. */
  name?: string;
  /** The name is quoted: MLIR's generic operation form, `"pto.tadd"(%a, %b, %c) : (...) -> ()`. */
  generic?: boolean;
  /**
   * Where the statement nests brackets or regions deeper than LIMITS.nesting allows (reported; the parser drops it):
   * the grammar and the passes after it recurse per level.
   */
  tooDeep?: TooDeep;
}

/** A run of characters that mean nothing to the bracket structure of a `<...>` body (sticky: matched where asked). */
const PLAIN_RUN = /[^"\-<>()[\]{}\n]*/y;

/** The words that decide whether a `{` after them opens a region (`attributes {...}` does not; `else {`, `do {` do). */
const REGION_KEYWORDS = ['attributes', 'else', 'do'];

/** `^bb0(%a: index):` starts a new block inside a region. */
export interface RawLabel {
  kind: 'label';
  start: number;
  end: number;
  /** Where its argument types nest brackets deeper than LIMITS.nesting allows (reported; the parser drops it). */
  tooDeep?: TooDeep;
}

export interface RawRegion {
  /** Offset of `{`. */
  open: number;
  /** Offset of the matching `}` (or the end of the file when unclosed). */
  close: number;
}

/**
 * What the scan hands on as it goes (the parser): each item of a region when its scan is complete, between the
 * region's opening and its closing. A statement with regions comes after them (its regions are scanned with it).
 * The file's top level is a region without either.
 */
export interface ScanSink {
  openRegion(open: number): void;
  item(item: RawStatement | RawLabel): void;
  closeRegion(region: RawRegion): void;
}

const enum Ch {
  Tab = 9,
  LF = 10,
  CR = 13,
  Space = 32,
  Bang = 33,
  Quote = 34,
  Hash = 35,
  Percent = 37,
  LParen = 40,
  RParen = 41,
  Comma = 44,
  Minus = 45,
  Dot = 46,
  Slash = 47,
  Colon = 58,
  Lt = 60,
  Eq = 61,
  Gt = 62,
  LBracket = 91,
  Backslash = 92,
  RBracket = 93,
  Caret = 94,
  LBrace = 123,
  RBrace = 125,
  ByteOrderMark = 0xfeff,
}

function isIdentStart(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}

function isIdentChar(c: number): boolean {
  return isIdentStart(c) || (c >= 48 && c <= 57) || c === 36 || c === Ch.Dot;
}

/** Characters of a value name after `%`. */
function isSuffixChar(c: number): boolean {
  return isIdentChar(c) || c === Ch.Minus;
}

export class Scanner {
  private readonly text: string;
  private readonly n: number;
  private readonly openBrackets: number[] = [];
  /** The first place the statement being scanned nests past LIMITS.nesting (a nested statement keeps its own). */
  private tooDeep?: TooDeep;
  /** How many regions the scan is inside. */
  private regionDepth = 0;
  /** The type tokens of the statements being scanned, outermost first. */
  private readonly typeTokenStack: number[] = [];
  /** Set while checking for a statement start inside brackets (attribute dictionaries). */
  private insideBraces = false;

  /**
   * @param opensRegion whether an op's `{` opens a region (for any other op, `{` opens an attribute dictionary):
   *   the op registry knows, and the scanner must know before anything is parsed. Undefined for a name no op has
   *   (a misspelt `scf.fro`): its `{` opens a region when a statement follows it (`looksLikeRegion`).
   */
  constructor(
    text: string,
    private readonly diags: DiagnosticBag,
    private readonly opensRegion: (opName: string) => boolean | undefined,
    private readonly sink: ScanSink,
  ) {
    this.text = text;
    this.n = text.length;
  }

  /** Scans the whole file as the body of an implicit top-level region, handing its items to the sink. */
  scanFile(): void {
    let pos = 0;
    for (;;) {
      pos = this.scanItems(pos);
      if (pos >= this.n) break;
      // A `}` at top level closes nothing.
      this.diags.report(D.unbalancedRegion, { start: pos, end: pos + 1 }, "unexpected '}' with no open region");
      pos++;
    }
  }

  /** Scans statements until a `}` at this level or the end of the file; returns that position. */
  private scanItems(pos: number): number {
    for (;;) {
      pos = this.skipTrivia(pos);
      if (pos >= this.n) return pos;
      const c = this.text.charCodeAt(pos);
      if (c === Ch.RBrace) return pos;
      if (c === Ch.Caret) {
        const { end, tooDeep } = this.scanLabel(pos);
        this.sink.item(tooDeep ? { kind: 'label', start: pos, end, tooDeep } : { kind: 'label', start: pos, end });
        pos = end;
        continue;
      }
      const stmt = this.scanStatement(pos);
      if (c === Ch.Bang || c === Ch.Hash) stmt.alias = true;
      this.sink.item(stmt);
      // Guarantee progress even on garbage.
      pos = stmt.end > pos ? stmt.end : pos + 1;
    }
  }

  /**
   * Whether the `{` at `open` of an op no definition names opens a region: a statement or a block label follows it,
   * which no attribute dictionary holds (its keys are followed by `=`, `,` or `}`). Reading such a body as a
   * dictionary would end the op at its first line and close the enclosing region at its `}`.
   */
  private looksLikeRegion(open: number): boolean {
    this.insideBraces = true;
    const starts = this.startsStatement(this.skipTrivia(open + 1));
    this.insideBraces = false;
    return starts;
  }

  /** `^bb1(...):` is a block label; `^bb1` or `^bb1(%x : i32)` followed by anything else is a branch's successor. */
  private isBlockLabel(pos: number): boolean {
    let i = pos + 1;
    while (i < this.n && isSuffixChar(this.text.charCodeAt(i))) i++;
    i = this.skipTrivia(i);
    if (this.text.charCodeAt(i) === Ch.LParen) {
      for (let depth = 0; i < this.n; i++) {
        const c = this.text.charCodeAt(i);
        if (c === Ch.LParen) depth++;
        else if (c === Ch.RParen && --depth === 0) break;
      }
      i = this.skipTrivia(i + 1);
    }
    return this.text.charCodeAt(i) === Ch.Colon;
  }

  /** `^bb0(%a: index, ...):` — ends at the `:` after the arguments; comments and newlines may appear inside. */
  private scanLabel(pos: number): { end: number; tooDeep?: TooDeep } {
    let depth = 0;
    // Brackets of every kind in the argument types, for the nesting limit (`->` closes nothing).
    let nesting = 0;
    let tooDeep: TooDeep | undefined;
    let i = pos;
    while (i < this.n) {
      const c = this.text.charCodeAt(i);
      if (c === Ch.Slash && this.text.charCodeAt(i + 1) === Ch.Slash) {
        i = this.skipLineComment(i);
        continue;
      }
      if (c === Ch.Minus && this.text.charCodeAt(i + 1) === Ch.Gt) {
        i += 2;
        continue;
      }
      if (c === Ch.LParen || c === Ch.LBracket || c === Ch.LBrace || c === Ch.Lt) {
        if (++nesting > LIMITS.nesting.value) tooDeep ??= { at: i, what: 'brackets' };
      } else if (c === Ch.RParen || c === Ch.RBracket || c === Ch.RBrace || c === Ch.Gt) nesting = Math.max(0, nesting - 1);
      if (c === Ch.LParen) depth++;
      else if (c === Ch.RParen) depth = Math.max(0, depth - 1);
      else if (c === Ch.Colon && depth === 0) return { end: i + 1, tooDeep };
      else if (c === Ch.LF && this.startsStatement(this.skipTrivia(i + 1))) return { end: i, tooDeep }; // recovery: no ':'
      i++;
    }
    return { end: i, tooDeep };
  }

  /** One op starting at `start`: scans to the start of the next statement at nesting depth 0. */
  private scanStatement(start: number): RawStatement {
    const outer = this.tooDeep;
    this.tooDeep = undefined;
    const stmt = this.scanStatementBody(start);
    stmt.tooDeep = this.tooDeep;
    this.tooDeep = outer;
    return stmt;
  }

  private deeper(at: number, levels: number, what: string): void {
    if (levels > LIMITS.nesting.value && this.tooDeep === undefined) this.tooDeep = { at, what };
  }

  private scanStatementBody(start: number): RawStatement {
    const regions: RawRegion[] = [];
    // This statement's type tokens go on the shared stack from here (a nested region's come and go above them).
    const typeTokensFrom = this.typeTokenStack.length;
    const head = this.opNameAt(start);
    // The generic form writes regions inside its parentheses; a `{` after them is the attribute dictionary.
    const opens = head !== undefined && !head.quoted ? this.opensRegion(head.name) : false;
    const takesRegions = opens !== false;
    let depth = 0; // ( [ and attribute-dictionary {
    let lastWord = '';
    let afterRegion = false;
    // Resume after the op name, so the name itself does not read as the next statement.
    let i = head ? head.end : start;
    let first = head === undefined;
    // Where the whitespace and comments after the last token began (-1 inside a token): the statement ends there.
    let trailing = -1;
    while (i < this.n) {
      const c = this.text.charCodeAt(i);
      if (c === Ch.Space || c === Ch.Tab || c === Ch.CR) {
        if (trailing < 0) trailing = i;
        i++;
        continue;
      }
      if (c === Ch.LF) {
        if (trailing < 0) trailing = i;
        i++;
        // Recovery from an unbalanced bracket: a line that starts an op ends this statement.
        if (depth > 0) {
          const next = this.skipTrivia(i);
          this.insideBraces = true;
          const starts = this.startsStatement(next);
          this.insideBraces = false;
          if (starts) return this.statement(start, trailing, regions, typeTokensFrom, head);
        }
        continue;
      }
      if (c === Ch.Slash && this.text.charCodeAt(i + 1) === Ch.Slash) {
        if (trailing < 0) trailing = i;
        i = this.skipLineComment(i);
        continue;
      }
      // `key = pto.name` is an attribute value, not an op; `%x =` followed by `%y = op` starts one.
      if (!first && depth === 0 && (lastWord !== '=' || c === Ch.Percent) && this.startsStatement(i)) break;
      if (c === Ch.RBrace && depth === 0) break; // closes the enclosing region
      first = false;
      trailing = -1;
      if (c === Ch.Quote) {
        i = this.skipString(i);
        lastWord = '';
        continue;
      }
      if (c === Ch.Lt) {
        i = this.skipAngleBody(i);
        continue;
      }
      if (c === Ch.Minus && this.text.charCodeAt(i + 1) === Ch.Gt) {
        i += 2;
        lastWord = '->';
        continue;
      }
      if (c === Ch.LParen || c === Ch.LBracket) {
        depth++;
        this.deeper(i, depth, 'brackets');
        i++;
        lastWord = '';
        continue;
      }
      if (c === Ch.RParen || c === Ch.RBracket) {
        if (depth > 0) depth--;
        i++;
        lastWord = '';
        continue;
      }
      if (c === Ch.LBrace) {
        const isRegion =
          depth === 0 &&
          takesRegions &&
          lastWord !== 'attributes' &&
          (!afterRegion || lastWord === 'else' || lastWord === 'do') &&
          (opens === true || this.looksLikeRegion(i));
        if (isRegion) {
          const region = this.scanRegion(i);
          regions.push(region);
          i = region.close < this.n ? region.close + 1 : this.n;
          afterRegion = true;
          lastWord = '';
          continue;
        }
        depth++;
        this.deeper(i, depth, 'brackets');
        i++;
        lastWord = '';
        continue;
      }
      if (c === Ch.RBrace) {
        depth--;
        i++;
        lastWord = '';
        continue;
      }
      if (isIdentStart(c)) {
        let j = i + 1;
        while (j < this.n && isIdentChar(this.text.charCodeAt(j))) j++;
        lastWord = this.keywordBetween(i, j);
        i = j;
        continue;
      }
      if (c === Ch.Percent || c === Ch.Hash || c === Ch.Bang || c === 64 /* @ */ || c === Ch.Caret) {
        let j = i + 1;
        while (j < this.n && isSuffixChar(this.text.charCodeAt(j))) j++;
        if (c === Ch.Bang && this.text.charCodeAt(j) === Ch.Lt) {
          const end = this.skipAngleBody(j);
          // Every one, however short: a shape then holds a placeholder for it, and the headers that differ only in
          // their dialect types are one shape (the upstream test files: 5461 matches by Ohm in a first pass, 3686).
          if (this.text.charCodeAt(end - 1) === Ch.Gt) this.typeTokenStack.push(i, end);
          j = end;
        }
        i = j;
        lastWord = '';
        continue;
      }
      lastWord = c === Ch.Eq ? '=' : '';
      i++;
    }
    return this.statement(start, trailing < 0 ? i : trailing, regions, typeTokensFrom, head);
  }

  /** A statement, every one of the same fields (a large file has hundreds of thousands). */
  private statement(
    start: number,
    end: number,
    regions: RawRegion[],
    typeTokensFrom: number,
    head: { name: string; quoted: boolean } | undefined,
  ): RawStatement {
    // A list of the exact size (a list grown by pushes keeps room for more).
    const typeTokens = this.typeTokenStack.slice(typeTokensFrom);
    this.typeTokenStack.length = typeTokensFrom;
    return { kind: 'op', start, end, regions, typeTokens, alias: false, name: head?.name, generic: head?.quoted === true };
  }

  private scanRegion(open: number): RawRegion {
    if (this.regionDepth >= LIMITS.nesting.value) {
      // Not handed to the sink: the statement that owns it is dropped.
      this.deeper(open, this.regionDepth + 1, 'regions');
      return { open, close: Math.min(this.skipBraces(open), this.n) };
    }
    this.regionDepth++;
    try {
      return this.scanRegionBody(open);
    } finally {
      this.regionDepth--;
    }
  }

  /** The `}` that closes the `{` at `open` (braces counted, strings and comments skipped), or the end. */
  private skipBraces(open: number): number {
    let depth = 0;
    for (let i = open; i < this.n; i++) {
      const c = this.text.charCodeAt(i);
      if (c === Ch.Quote) i = this.skipString(i) - 1;
      else if (c === Ch.Slash && this.text.charCodeAt(i + 1) === Ch.Slash) i = this.skipLineComment(i) - 1;
      else if (c === Ch.LBrace) depth++;
      else if (c === Ch.RBrace && --depth === 0) return i;
    }
    return this.n;
  }

  private scanRegionBody(open: number): RawRegion {
    this.sink.openRegion(open);
    const pos = this.scanItems(open + 1);
    if (pos >= this.n) {
      this.diags.report(D.unbalancedRegion, { start: open, end: open + 1 }, "unclosed '{': no matching '}' before the end of the file");
    }
    const region = { open, close: Math.min(pos, this.n) };
    this.sink.closeRegion(region);
    return region;
  }

  /** The op name of a statement that starts at `pos` (after any `%results =`). */
  private opNameAt(pos: number): { name: string; end: number; quoted: boolean } | undefined {
    let i = pos;
    if (this.text.charCodeAt(i) === Ch.Percent) {
      const after = this.resultListEnd(i);
      if (after < 0) return undefined;
      i = this.skipTrivia(after);
    }
    const quotedEnd = this.quotedOpNameEnd(i);
    if (quotedEnd >= 0) return { name: this.text.slice(i + 1, quotedEnd - 1), end: quotedEnd, quoted: true };
    if (!isIdentStart(this.text.charCodeAt(i))) return undefined;
    let j = i + 1;
    while (j < this.n && isIdentChar(this.text.charCodeAt(j))) j++;
    return { name: this.text.slice(i, j), end: j, quoted: false };
  }

  /** If a quoted dotted op name followed by `(` starts at pos (`"pto.tadd"(`), the offset after its closing quote; else -1. */
  private quotedOpNameEnd(pos: number): number {
    if (this.text.charCodeAt(pos) !== Ch.Quote || !isIdentStart(this.text.charCodeAt(pos + 1))) return -1;
    let j = pos + 1;
    let dotted = false;
    while (j < this.n && isIdentChar(this.text.charCodeAt(j))) {
      if (this.text.charCodeAt(j) === Ch.Dot) dotted = true;
      j++;
    }
    if (!dotted || this.text.charCodeAt(j) !== Ch.Quote) return -1;
    return this.text.charCodeAt(this.skipTrivia(j + 1)) === Ch.LParen ? j + 1 : -1;
  }

  /**
   * True when an op starts at `pos`: a dotted op name (`pto.tadd`, `arith.constant`), `return`,
   * `module`, a block label, or a result list `%a, %b:2 =` followed by an op name.
   */
  private startsStatement(pos: number): boolean {
    if (pos >= this.n) return false;
    const c = this.text.charCodeAt(pos);
    if (c === Ch.Caret) return this.isBlockLabel(pos);
    if (c === Ch.Bang || c === Ch.Hash) return this.isAliasDefinition(pos);
    if (c === Ch.Percent) {
      const after = this.resultListEnd(pos);
      if (after < 0) return false;
      const k = this.skipTrivia(after);
      return k < this.n && ((isIdentStart(this.text.charCodeAt(k)) && this.isOpNameWord(k)) || this.quotedOpNameEnd(k) >= 0);
    }
    if (c === Ch.Quote) return this.quotedOpNameEnd(pos) >= 0;
    if (!isIdentStart(c)) return false;
    if (pos > 0 && isIdentChar(this.text.charCodeAt(pos - 1))) return false;
    return this.isOpNameWord(pos);
  }

  /** `!name =` or `#name =` (not `==`): a top-level alias definition. */
  private isAliasDefinition(pos: number): boolean {
    let j = pos + 1;
    if (!isIdentStart(this.text.charCodeAt(j))) return false;
    while (j < this.n && isIdentChar(this.text.charCodeAt(j))) j++;
    const k = this.skipSpaces(j);
    return this.text.charCodeAt(k) === Ch.Eq && this.text.charCodeAt(k + 1) !== Ch.Eq;
  }

  private isOpNameWord(pos: number): boolean {
    let j = pos;
    let dotted = false;
    while (j < this.n) {
      const c = this.text.charCodeAt(j);
      if (!isIdentChar(c)) break;
      if (c === Ch.Dot) dotted = true;
      j++;
    }
    // Inside func.func, func's ops may drop their dialect (MLIR's default dialect): `return`, `call @f(...)`.
    if (!dotted) return this.isWord(pos, j, 'return') || this.isWord(pos, j, 'call') || this.isWord(pos, j, 'module');
    // `key.name =`, `key.name,` and `key.name}` are attribute keys, not ops.
    const k = this.skipTrivia(j);
    const next = this.text.charCodeAt(k);
    return !(next === Ch.Eq || next === Ch.Comma || (next === Ch.RBrace && this.insideBraces));
  }

  /** The text in [start, end) is `word`. */
  private isWord(start: number, end: number, word: string): boolean {
    return end - start === word.length && this.text.startsWith(word, start);
  }

  /** The word in [start, end) if it is one a statement's scan looks back at (a word of its own: `word`), without copying it. */
  private keywordBetween(start: number, end: number): string {
    for (const keyword of REGION_KEYWORDS) if (this.isWord(start, end, keyword)) return keyword;
    return 'word';
  }

  /** If `%a, %b:2 =` starts at pos, the offset just after `=`; else -1. */
  private resultListEnd(pos: number): number {
    let i = pos;
    for (;;) {
      if (this.text.charCodeAt(i) !== Ch.Percent) return -1;
      i++;
      const nameStart = i;
      while (i < this.n && isSuffixChar(this.text.charCodeAt(i))) i++;
      if (i === nameStart) return -1;
      if (this.text.charCodeAt(i) === Ch.Colon) {
        const d = i + 1;
        i = d;
        while (i < this.n && this.text.charCodeAt(i) >= 48 && this.text.charCodeAt(i) <= 57) i++;
        if (i === d) return -1;
      }
      i = this.skipTrivia(i);
      const c = this.text.charCodeAt(i);
      if (c === Ch.Eq) return this.text.charCodeAt(i + 1) === Ch.Eq ? -1 : i + 1;
      if (c !== Ch.Comma) return -1;
      i = this.skipTrivia(i + 1);
    }
  }

  /**
   * Skips a balanced `<...>` body as the grammar's `prettyBody` reads it: `()`, `[]` and `{}` nest
   * inside, a `>` closes only an innermost `<`, and `->` is one token. Stops early at a line that
   * starts an op (an unclosed body must not swallow the rest of the file).
   */
  private skipAngleBody(pos: number): number {
    // The brackets open inside the body, innermost last (a stack kept for every call: types are everywhere).
    const open = this.openBrackets;
    open.length = 0;
    let i = pos;
    const plain = PLAIN_RUN;
    while (i < this.n) {
      // Most of a body is names, numbers and separators: skipped in one step.
      plain.lastIndex = i;
      plain.test(this.text);
      i = plain.lastIndex;
      if (i >= this.n) break;
      const c = this.text.charCodeAt(i);
      if (c === Ch.Quote) {
        i = this.skipString(i);
        continue;
      }
      if (c === Ch.Minus && this.text.charCodeAt(i + 1) === Ch.Gt) {
        i += 2;
        continue;
      }
      if (c === Ch.Lt || c === Ch.LParen || c === Ch.LBracket || c === Ch.LBrace) {
        open.push(c);
        this.deeper(i, open.length, 'brackets');
      } else if (c === Ch.Gt) {
        if (open[open.length - 1] === Ch.Lt) {
          open.pop();
          if (open.length === 0) return i + 1;
        }
      } else if (c === Ch.RParen || c === Ch.RBracket || c === Ch.RBrace) {
        const expected = c === Ch.RParen ? Ch.LParen : c === Ch.RBracket ? Ch.LBracket : Ch.LBrace;
        if (open[open.length - 1] !== expected) return i; // unbalanced: let the grammar report it
        open.pop();
      } else if (c === Ch.LF) {
        const next = this.skipTrivia(i + 1);
        if (this.startsStatement(next)) return i;
      }
      i++;
    }
    return i;
  }

  private skipString(pos: number): number {
    let i = pos + 1;
    while (i < this.n) {
      const c = this.text.charCodeAt(i);
      if (c === Ch.Backslash) i += 2;
      else if (c === Ch.Quote) return i + 1;
      else if (c === Ch.LF)
        return pos + 1; // unterminated: the grammar reports it; brackets after it still count
      else i++;
    }
    return i;
  }

  private skipLineComment(pos: number): number {
    const nl = this.text.indexOf('\n', pos);
    return nl < 0 ? this.n : nl;
  }

  private skipSpaces(pos: number): number {
    let i = pos;
    while (i < this.n) {
      const c = this.text.charCodeAt(i);
      if (c !== Ch.Space && c !== Ch.Tab && c !== Ch.CR && c !== Ch.LF && c !== Ch.ByteOrderMark) break;
      i++;
    }
    return i;
  }

  private skipTrivia(pos: number): number {
    let i = pos;
    for (;;) {
      i = this.skipSpaces(i);
      if (this.text.charCodeAt(i) === Ch.Slash && this.text.charCodeAt(i + 1) === Ch.Slash) i = this.skipLineComment(i);
      else return i;
    }
  }
}
