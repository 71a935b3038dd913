/**
 * The tokens of a host harness's C++ (PTOAS's tilelang_st main.cpp and launch.cpp), after the preprocessor: the
 * subset those files use. Comments go; `#define` (object- and function-like, with `##` and line continuations) and
 * `#undef` are applied; `#ifdef`/`#ifndef` follow the macros defined so far, and so does `#if` (integers,
 * `defined(X)`, macros, `! && || == != < > <= >=` and parentheses; an unknown name is 0, as in C);
 * `#include` and `#pragma` are dropped (the harness's own headers are modelled by the interpreter's built-ins).
 */

export type TokenKind = 'id' | 'num' | 'str' | 'chr' | 'punct';

export interface Token {
  kind: TokenKind;
  text: string;
  /** 1-based line in the file the token came from. */
  line: number;
}

/** A problem with the harness text itself: where and what. */
export class HostSyntaxError extends Error {}

// Longest first: `<<<` and `>>>` are the kernel launch brackets.
const PUNCTUATORS = [
  '<<<',
  '>>>',
  '<<=',
  '>>=',
  '...',
  '->',
  '++',
  '--',
  '<<',
  '>>',
  '<=',
  '>=',
  '==',
  '!=',
  '&&',
  '||',
  '+=',
  '-=',
  '*=',
  '/=',
  '%=',
  '&=',
  '|=',
  '^=',
  '::',
  '##',
];

/** Splits text (one logical line or a whole file without directives) into tokens. */
function lex(text: string, firstLine: number, file: string): Token[] {
  const tokens: Token[] = [];
  let line = firstLine;
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '\n') {
      line++;
      i++;
    } else if (/\s/.test(c)) i++;
    else if (text.startsWith('//', i)) {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (text.startsWith('/*', i)) {
      const end = text.indexOf('*/', i + 2);
      const stop = end < 0 ? text.length : end + 2;
      for (let j = i; j < stop; j++) if (text[j] === '\n') line++;
      i = stop;
    } else if (/[A-Za-z_]/.test(c)) {
      const m = /^[A-Za-z_]\w*/.exec(text.slice(i))!;
      tokens.push({ kind: 'id', text: m[0], line });
      i += m[0].length;
    } else if (/\d/.test(c) || (c === '.' && /\d/.test(text[i + 1] ?? ''))) {
      const m = /^(0[xX][0-9a-fA-F']+|(\d[\d']*\.?[\d']*|\.\d+)([eE][+-]?\d+)?)[uUlLfF]*/.exec(text.slice(i))!;
      tokens.push({ kind: 'num', text: m[0].replace(/'/g, ''), line });
      i += m[0].length;
    } else if (c === '"' || c === "'") {
      let j = i + 1;
      while (j < text.length && text[j] !== c) j += text[j] === '\\' ? 2 : 1;
      if (j >= text.length) throw new HostSyntaxError(`${file}:${line}: unterminated ${c === '"' ? 'string' : 'character'} literal`);
      tokens.push({ kind: c === '"' ? 'str' : 'chr', text: unescape(text.slice(i + 1, j)), line });
      i = j + 1;
    } else {
      const p = PUNCTUATORS.find((q) => text.startsWith(q, i)) ?? c;
      tokens.push({ kind: 'punct', text: p, line });
      i += p.length;
    }
  }
  return tokens;
}

function unescape(body: string): string {
  const simple: Record<string, string> = { n: '\n', t: '\t', r: '\r', '0': '\0', '\\': '\\', '"': '"', "'": "'" };
  return body.replace(/\\(x[0-9a-fA-F]+|.)/g, (_, e: string) => (e[0] === 'x' ? String.fromCharCode(parseInt(e.slice(1), 16)) : (simple[e] ?? e)));
}

interface Macro {
  params?: string[];
  body: Token[];
}

/** The tokens of a C++ file after preprocessing. `predefined` macros are as if defined first. */
export function preprocess(text: string, file: string, predefined: Record<string, string> = {}): Token[] {
  const macros = new Map<string, Macro>();
  for (const [name, body] of Object.entries(predefined)) macros.set(name, { body: lex(body, 0, file) });
  // Logical lines: a backslash before the newline continues the line (the line number stays the first one's).
  // Block comments first (a line inside one is no directive); their newlines stay, for the line numbers.
  const physical = text.replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' ')).split('\n');
  const out: Token[] = [];
  const unexpanded: Token[] = [];
  const active: boolean[] = [];
  const on = () => active.every((a) => a);
  let pending = '';
  let pendingLine = 0;
  for (let n = 0; n < physical.length; n++) {
    const raw = physical[n];
    if (pending === '') pendingLine = n + 1;
    if (raw.endsWith('\\')) {
      pending += raw.slice(0, -1) + ' ';
      continue;
    }
    const logical = pending + raw;
    pending = '';
    const directive = /^\s*#\s*(\w+)\s*(.*)$/.exec(logical);
    if (!directive) {
      if (on()) unexpanded.push(...lex(logical + '\n', pendingLine, file));
      continue;
    }
    const [, name, rest] = directive;
    // The text so far is expanded with the macros as they are here (a later #undef does not reach back).
    if (name === 'define' || name === 'undef') out.push(...expand(unexpanded.splice(0), macros, new Set(), file));
    if (name === 'ifdef' || name === 'ifndef') active.push(macros.has(rest.trim().split(/\s/)[0]) === (name === 'ifdef'));
    else if (name === 'if') active.push(on() && condition(rest, macros, file, pendingLine));
    else if (name === 'else') active[active.length - 1] = !active[active.length - 1];
    else if (name === 'endif') active.pop();
    else if (!on()) continue;
    else if (name === 'define') {
      const m = /^(\w+)(\(([^)]*)\))?\s*(.*)$/.exec(rest);
      if (!m) throw new HostSyntaxError(`${file}:${pendingLine}: cannot read #define ${rest}`);
      const params =
        m[2] !== undefined
          ? m[3]
              .split(',')
              .map((p) => p.trim())
              .filter((p) => p !== '')
          : undefined;
      macros.set(m[1], { params, body: lex(m[4], pendingLine, file) });
    } else if (name === 'undef') macros.delete(rest.trim());
  }
  out.push(...expand(unexpanded, macros, new Set(), file));
  return out;
}

/**
 * The value of an `#if` condition (C's rules for the forms harnesses use): `defined X` first, then the macros are
 * expanded and a name left over is 0. The vpto harnesses' launch.cpp guards device-only declarations with
 * `#if defined(__CCE_AICORE__) && ...`; the host's pass leaves them out.
 */
function condition(text: string, macros: Map<string, Macro>, file: string, line: number): boolean {
  const raw = lex(text, line, file);
  const resolved: Token[] = [];
  for (let i = 0; i < raw.length; i++) {
    if (raw[i].text !== 'defined') {
      resolved.push(raw[i]);
      continue;
    }
    const paren = raw[i + 1]?.text === '(';
    const name = raw[i + (paren ? 2 : 1)];
    if (name?.kind !== 'id' || (paren && raw[i + 3]?.text !== ')')) throw new HostSyntaxError(`${file}:${line}: cannot read #if ${text}`);
    resolved.push({ kind: 'num', text: macros.has(name.text) ? '1' : '0', line });
    i += paren ? 3 : 1;
  }
  const tokens = expand(resolved, macros, new Set(), file);
  let at = 0;
  const fail = (): never => {
    throw new HostSyntaxError(`${file}:${line}: cannot read #if ${text}`);
  };
  // Precedence climbing over the binary operators, loosest first.
  const LEVELS = [['||'], ['&&'], ['==', '!='], ['<', '>', '<=', '>=']];
  const primary = (): bigint => {
    const t = tokens[at++] ?? fail();
    if (t.text === '!') return primary() === 0n ? 1n : 0n;
    if (t.text === '-') return -primary();
    if (t.text === '(') {
      const v = binary(0);
      if (tokens[at++]?.text !== ')') fail();
      return v;
    }
    if (t.kind === 'id') return 0n;
    if (t.kind === 'num') return BigInt(t.text.replace(/[uUlL]+$/, ''));
    return fail();
  };
  const binary = (level: number): bigint => {
    if (level === LEVELS.length) return primary();
    let left = binary(level + 1);
    while (LEVELS[level].includes(tokens[at]?.text ?? '')) {
      const op = tokens[at++].text;
      const right = binary(level + 1);
      const results: Record<string, boolean> = {
        '||': left !== 0n || right !== 0n,
        '&&': left !== 0n && right !== 0n,
        '==': left === right,
        '!=': left !== right,
        '<': left < right,
        '>': left > right,
        '<=': left <= right,
        '>=': left >= right,
      };
      left = results[op] ? 1n : 0n;
    }
    return left;
  };
  const value = binary(0);
  if (at !== tokens.length) fail();
  return value !== 0n;
}

/** Macro expansion of a token list (a macro is not expanded inside its own expansion). */
function expand(tokens: Token[], macros: Map<string, Macro>, hiding: Set<string>, file: string): Token[] {
  const out: Token[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    const macro = t.kind === 'id' && !hiding.has(t.text) ? macros.get(t.text) : undefined;
    if (!macro) {
      out.push(t);
      continue;
    }
    const at = (body: Token[]) => body.map((b) => ({ ...b, line: t.line }));
    if (!macro.params) {
      out.push(...expand(at(macro.body), macros, new Set([...hiding, t.text]), file));
      continue;
    }
    if (tokens[i + 1]?.text !== '(') {
      out.push(t);
      continue;
    }
    // The arguments: split at top-level commas.
    const args: Token[][] = [[]];
    let depth = 0;
    let j = i + 2;
    for (; j < tokens.length; j++) {
      const a = tokens[j];
      if (a.text === '(') depth++;
      else if (a.text === ')') {
        if (depth === 0) break;
        depth--;
      } else if (a.text === ',' && depth === 0) {
        args.push([]);
        continue;
      }
      args[args.length - 1].push(a);
    }
    if (j >= tokens.length) throw new HostSyntaxError(`${file}:${t.line}: unterminated call of macro ${t.text}`);
    const substituted: Token[] = [];
    const body = at(macro.body);
    for (let k = 0; k < body.length; k++) {
      const b = body[k];
      const stringified = b.text === '#' && body[k + 1]?.kind === 'id' ? macro.params.indexOf(body[k + 1].text) : -1;
      if (stringified >= 0) {
        // #param: the argument's spelling as a string literal.
        substituted.push({ kind: 'str', text: (args[stringified] ?? []).map((a) => a.text).join(' '), line: t.line });
        k++;
        continue;
      }
      const p = b.kind === 'id' ? macro.params.indexOf(b.text) : -1;
      substituted.push(...(p >= 0 ? (args[p] ?? []) : [b]));
    }
    // Token pasting: a ## b makes one token.
    const pasted: Token[] = [];
    for (let k = 0; k < substituted.length; k++) {
      if (substituted[k].text === '##' && pasted.length > 0 && k + 1 < substituted.length) {
        const left = pasted.pop()!;
        pasted.push({ ...left, kind: 'id', text: left.text + substituted[k + 1].text });
        k++;
      } else pasted.push(substituted[k]);
    }
    out.push(...expand(pasted, macros, new Set([...hiding, t.text]), file));
    i = j;
  }
  return out;
}
