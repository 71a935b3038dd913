/**
 * The shape of a statement header: its text with each value name (`%x`, `%arg3`), symbol (`@f`) and free-standing
 * decimal number (`16`, the `1` of `%5#1`) replaced by a marker of its class. Compiler output writes a few hundred
 * shapes tens of thousands of times; statements of one shape are matched by the grammar alike, so the parser
 * matches each shape once (src/syntax/shape-cache.ts). The type table takes the shapes of its types' `<...>` alike.
 *
 * Why two headers of one shape match alike: each abstracted token is a maximal run that the grammar reads as a
 * whole, whatever its characters (`valueId`, `symbolRef`, `digit+`), and everything around it is the same text. A
 * number is abstracted only where no identifier character touches it, so `0x10`, `1.5`, `16x16` and `i32` stay
 * literal; the options (`ShapeOptions`) abstract the op name a parser names, and the sizes of a type body's
 * dimension lists. Inside a token the match does depend on its characters (how many digits a `digit+` has, which
 * alternative of `suffixId` a name takes): the shape cache never shows the actions what lies inside one (see
 * `ShapeNode.children` in src/syntax/shape-cache.ts).
 */

/**
 * Markers of the abstracted token classes: control characters, which a header holding one is never cached with. A
 * name is the part after `%` or `@` (the grammar's `suffixId`, either alternative: `%0` and `%x` are one class, since
 * the actions are never shown what lies inside a name).
 */
const NAME = '\u0001';
const NUMBER = '\u0003';
const OP_NAME = '\u0004';

/** What a shape abstracts besides names and free-standing numbers. */
export interface ShapeOptions {
  /**
   * The op name the header spells (after its results): abstracted too, when its first word is that name and starts
   * with a letter (the grammar's `opName` reads the whole word whatever its letters). The parser keys such a shape
   * by the rules it matches the op with, since the op name no longer tells them apart.
   */
  opName?: string;
  /**
   * The body of a type's `<...>`: the sizes of a dimension list (`16x256xf32`) are abstracted, since the grammar
   * reads each as a whole `digit+` whatever the digits. A lone `0` before an `x` stays written: `0x10` may be a hex
   * number.
   */
  dims?: boolean;
}

export interface StatementShape {
  /** The header with its abstracted tokens replaced by their class markers. */
  key: string;
  /** [start, end) of each abstracted token in the header, in order, flattened. */
  tokens: number[];
  /**
   * Each abstracted token, in order: the grammar reads it through rules of one structure whatever its characters (a
   * number, an op name), so that the nodes inside it may show their children. A name is not: `suffixId` has two
   * alternatives.
   */
  structured: boolean[];
}

const enum Ch {
  Tab = 9,
  LF = 10,
  CR = 13,
  Quote = 34,
  Dollar = 36,
  Percent = 37,
  Minus = 45,
  Dot = 46,
  Slash = 47,
  Zero = 48,
  Nine = 57,
  Question = 63,
  At = 64,
  Backslash = 92,
  Underscore = 95,
  LowerX = 120,
}

function isDigit(c: number): boolean {
  return c >= Ch.Zero && c <= Ch.Nine;
}

function isLetter(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

/** The grammar's `idChar`: what continues an identifier or a dotted name. */
function isIdChar(c: number): boolean {
  return isLetter(c) || isDigit(c) || c === Ch.Underscore || c === Ch.Dollar || c === Ch.Dot;
}

/** The grammar's `suffixChar`: what continues a value name or a symbol. */
function isSuffixChar(c: number): boolean {
  return isIdChar(c) || c === Ch.Minus;
}

/** The grammar's `suffixStart`. */
function isSuffixStart(c: number): boolean {
  return isLetter(c) || c === Ch.Underscore || c === Ch.Dollar || c === Ch.Dot || c === Ch.Minus;
}

/**
 * Where the grammar's `suffixId` starting at `pos` ends (`digit+ ~suffixChar` or `suffixStart suffixChar*`), or -1
 * when it does not match there.
 */
function suffixIdEnd(text: string, pos: number): number {
  const n = text.length;
  const first = text.charCodeAt(pos);
  let j = pos + 1;
  if (isDigit(first)) {
    while (j < n && isDigit(text.charCodeAt(j))) j++;
    return j < n && isSuffixChar(text.charCodeAt(j)) ? -1 : j;
  }
  if (!isSuffixStart(first)) return -1;
  while (j < n && isSuffixChar(text.charCodeAt(j))) j++;
  return j;
}

/**
 * Scans the dimension list starting at `i` (`16x?x256`, up to its element type or its end) and abstracts its sizes;
 * returns where it ends. A size an identifier character other than `x` touches stays written (`16x1.5`), as does a
 * lone `0` before an `x`.
 */
function dimensionList(text: string, i: number, abstract: (start: number, end: number, marker: string) => void): number {
  const n = text.length;
  for (;;) {
    const c = text.charCodeAt(i);
    let end = i + 1;
    if (isDigit(c)) {
      while (end < n && isDigit(text.charCodeAt(end))) end++;
      const next = end < n ? text.charCodeAt(end) : -1;
      const crossed = next === Ch.LowerX;
      if (crossed ? !(end - i === 1 && c === Ch.Zero) : !isIdChar(next)) abstract(i, end, NUMBER);
      else if (!crossed) return end;
    } else if (c !== Ch.Question) return i;
    if (text.charCodeAt(end) !== Ch.LowerX) return end;
    const after = end + 1 < n ? text.charCodeAt(end + 1) : -1;
    if (!isDigit(after) && after !== Ch.Question) return end;
    i = end + 1;
  }
}

/** The shape of a statement header, or undefined when it holds a character the markers use. */
export function statementShape(header: string, options: ShapeOptions = {}): StatementShape | undefined {
  const n = header.length;
  const tokens: number[] = [];
  const structured: boolean[] = [];
  const parts: string[] = [];
  let copied = 0;
  const abstract = (start: number, end: number, marker: string) => {
    parts.push(header.slice(copied, start), marker);
    tokens.push(start, end);
    structured.push(marker !== NAME);
    copied = end;
  };
  let opName = options.opName;
  let i = 0;
  while (i < n) {
    const c = header.charCodeAt(i);
    if (c < 32 && c !== Ch.Tab && c !== Ch.LF && c !== Ch.CR) return undefined;
    if (c === Ch.Quote) {
      // A string stays as written (the grammar's `string`: escapes, and it stops at a newline).
      i++;
      while (i < n) {
        const s = header.charCodeAt(i);
        if (s === Ch.Backslash) i += 2;
        else if (s === Ch.LF) break;
        else if (s === Ch.Quote) {
          i++;
          break;
        } else {
          if (s < 32 && s !== Ch.Tab && s !== Ch.CR) return undefined;
          i++;
        }
      }
      continue;
    }
    if (c === Ch.Slash && header.charCodeAt(i + 1) === Ch.Slash) {
      // A comment stays as written.
      while (i < n && header.charCodeAt(i) !== Ch.LF) {
        const s = header.charCodeAt(i);
        if (s < 32 && s !== Ch.Tab && s !== Ch.CR) return undefined;
        i++;
      }
      continue;
    }
    if (c === Ch.Percent || c === Ch.At) {
      const end = i + 1 < n ? suffixIdEnd(header, i + 1) : -1;
      if (end > 0) abstract(i + 1, end, NAME);
      i = end > 0 ? end : i + 1;
      continue;
    }
    if (isIdChar(c) && !isDigit(c)) {
      // A word (digits inside it stay literal: `i32`, `f16`, `pto.t2d`).
      const start = i;
      i++;
      while (i < n && isIdChar(header.charCodeAt(i))) i++;
      if (opName !== undefined) {
        if (isLetter(c) && i - start === opName.length && header.startsWith(opName, start)) abstract(start, i, OP_NAME);
        opName = undefined;
      }
      continue;
    }
    if (options.dims && (isDigit(c) || c === Ch.Question) && !(i > 0 && isIdChar(header.charCodeAt(i - 1)))) {
      i = dimensionList(header, i, abstract);
      continue;
    }
    if (isDigit(c)) {
      let end = i + 1;
      while (end < n && isDigit(header.charCodeAt(end))) end++;
      const touched = (i > 0 && isIdChar(header.charCodeAt(i - 1))) || (end < n && isIdChar(header.charCodeAt(end)));
      if (!touched) abstract(i, end, NUMBER);
      i = end;
      continue;
    }
    i++;
  }
  parts.push(header.slice(copied));
  return { key: parts.join(''), tokens, structured };
}
