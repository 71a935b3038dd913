/**
 * A small lexer for PTO-AS text, for mutation only: it splits a file into tokens that join back to the same text,
 * whatever the input (an unknown character is a token of its own). It knows MLIR's lexical shapes (%ssa, @symbol,
 * !dialect.type, #attr, ^block, numbers, strings, comments) and splits shapes like 16x16xf32 into 16 x 16 x f32 so
 * that a mutation can change one dimension or the element type. It does not depend on the project's parser.
 */
export type TokenKind = 'ws' | 'newline' | 'comment' | 'string' | 'ssa' | 'symbol' | 'bang' | 'hash' | 'caret' | 'number' | 'ident' | 'punct';

export interface Token {
  kind: TokenKind;
  text: string;
}

const RULES: [TokenKind, RegExp][] = [
  ['newline', /\r?\n/y],
  ['ws', /[ \t\f\v]+/y],
  ['comment', /\/\/[^\n]*/y],
  ['string', /"(?:[^"\\\n]|\\.)*"?/y],
  ['ssa', /%[A-Za-z0-9_$.-]+/y],
  ['symbol', /@(?:[A-Za-z0-9_$.-]+|"(?:[^"\\\n]|\\.)*")/y],
  ['bang', /![A-Za-z_][A-Za-z0-9_.$]*/y],
  ['hash', /#[A-Za-z_][A-Za-z0-9_.$]*/y],
  ['caret', /\^[A-Za-z0-9_$.-]+/y],
  // A number, not a dimension list: 16 in 16x16xf32 stops before the x (the x is an ident then split below).
  ['number', /0x[0-9A-Fa-f]+|[0-9]+(?:\.[0-9]*)?(?:[eE][+-]?[0-9]+)?/y],
  ['ident', /[A-Za-z_][A-Za-z0-9_$.]*/y],
  ['punct', /->|::|[^\sA-Za-z0-9_]/y],
];

/** The tokens of `text`; `tokens.map(t => t.text).join('')` is `text`. */
export function tokenize(text: string): Token[] {
  const out: Token[] = [];
  let pos = 0;
  let prev: Token | undefined;
  while (pos < text.length) {
    let matched = false;
    for (const [kind, re] of RULES) {
      re.lastIndex = pos;
      const m = re.exec(text);
      if (!m || m[0].length === 0) continue;
      // After a number or ?, "x16xf32" is the rest of a shape: x, 16, x, f32.
      if (kind === 'ident' && (prev?.kind === 'number' || prev?.text === '?') && m[0].startsWith('x')) {
        out.push((prev = { kind: 'punct', text: 'x' }));
        pos += 1;
        matched = true;
        break;
      }
      out.push((prev = { kind, text: m[0] }));
      pos += m[0].length;
      matched = true;
      break;
    }
    if (!matched) {
      // Cannot happen with the catch-all punct rule, but never loop forever.
      out.push((prev = { kind: 'punct', text: text[pos] }));
      pos += 1;
    }
  }
  return out;
}

/** Whether a token carries meaning (not layout or a comment). */
export function isSignificant(t: Token): boolean {
  return t.kind !== 'ws' && t.kind !== 'newline' && t.kind !== 'comment';
}

export function untokenize(tokens: readonly Token[]): string {
  let s = '';
  for (const t of tokens) s += t.text;
  return s;
}
