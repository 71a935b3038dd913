import { Attr, MicroLayout, OpNode, TypeRef } from '../syntax/ast';
import { Span } from '../diag/source';

/**
 * The assembly format of a micro-level op, as its row in spec/micro/ writes it: a small language for what PTOAS's
 * ODS `assemblyFormat` strings and custom parsers (lib/PTO/IR/VPTO.cpp) read, over the one grammar rule `MicroBody`:
 *
 *   lhs, rhs, mask : lhs, rhs, mask -> result               (vadd)
 *   source[offset] : source -> result, updated_base?        (vlds: `%p[%i]`, an optional result)
 *   pattern : result                                        (pset_b16: an attribute, the type of the result)
 *   source, destination, len_burst nburst(n, s, d) loop(c, s2, d2)* : source, destination, len_burst, n, s, d, loop(c, s2, d2)*
 *
 * Items before `:` are operands, attributes (names the row lists as attributes) and `base[offset]` pairs; `kw(...)`
 * is a keyword group of operands (`*`: any number of them, `?`: at most one), whose types are written as
 * `kw T, T, T` after the `:`. Names after `->`, or after `:` when the format has no operand types, are results.
 * A keyword that sets a string attribute: `round(@rounding)` (the word in its parentheses, `round(r)`) or
 * `@signedness?` (a bare word, `signed`), each `?` when it may be left out.
 */
export interface MicroFormat {
  items: FormatItem[];
  clauses: FormatClause[];
  /** Operand type positions after `:` (names, or a keyword group). */
  types: (string | FormatClause)[];
  /** Result names, each optional when written `name?`. */
  results: { name: string; optional: boolean }[];
  /** The results' types follow `->` (else they follow `:` directly). */
  arrow: boolean;
}

export type FormatItem = { name: string; joined?: true } | { base: string; offset: string };
export interface FormatClause {
  keyword: string;
  names: string[];
  repeat: 'once' | 'optional' | 'any';
  /** The string attribute the clause writes: the word in its parentheses, or (`bare`) the keyword itself. */
  attr?: string;
  bare?: boolean;
  /** The words a bare keyword may be (`@sat_mode{sat|nosat}?`); absent: any, so an optional one takes the next bare word. */
  words?: string[];
}

const cache = new Map<string, MicroFormat>();

/** Reads a row's format; `resultNames` tell a format without `->` whose types after `:` are its results (`pset_b16`). */
export function parseFormat(text: string, resultNames: string[]): MicroFormat {
  const key = `${text}\n${resultNames.join(',')}`;
  const known = cache.get(key);
  if (known) return known;
  const [before, after = ''] = splitOnce(text, ':');
  const clauseRe = /([A-Za-z_]\w*)\(([^)]*)\)([*?]?)|@(\w+)(?:\{([\w|]+)\})?(\??)/g;
  const clauses: FormatClause[] = [];
  // prettier-ignore
  const head = before.replace(clauseRe, (_m, keyword: string | undefined, names: string, repeat: string, bare: string | undefined, words: string | undefined, optional: string) => {
    if (bare !== undefined)
      clauses.push({ keyword: '', names: [], repeat: optional ? 'optional' : 'once', attr: bare, bare: true, ...(words ? { words: words.split('|') } : {}) });
    else clauses.push(clause(keyword!, names, repeat));
    return '';
  });
  // `ptr cache`: the second written right after the first, no comma between (pto.dcci).
  const items: FormatItem[] = names(head).flatMap((chunk) =>
    chunk.split(/\s+/).map((item, j): FormatItem => {
      const m = /^(\w+)\[(\w+)\]$/.exec(item);
      return m ? { base: m[1], offset: m[2] } : j > 0 ? { name: item, joined: true } : { name: item };
    }),
  );
  const [operandTypes, resultTypes] = after.includes('->') ? splitOnce(after, '->') : [after, undefined];
  const typeItems = splitTop(operandTypes).map((t) => {
    const m = /^([A-Za-z_]\w*)\(([^)]*)\)([*?]?)$/.exec(t);
    return m ? clause(m[1], m[2], m[3]) : t;
  });
  const results = (resultTypes === undefined ? [] : names(resultTypes)).map((r) => ({ name: r.replace(/\?$/, ''), optional: r.endsWith('?') }));
  const onlyResults =
    resultTypes === undefined && typeItems.length > 0 && typeItems.every((t) => typeof t === 'string' && resultNames.includes(t.replace(/\?$/, '')));
  const format: MicroFormat = onlyResults
    ? { items, clauses, types: [], results: (typeItems as string[]).map((r) => ({ name: r.replace(/\?$/, ''), optional: r.endsWith('?') })), arrow: false }
    : { items, clauses, types: typeItems, results, arrow: resultTypes !== undefined };
  cache.set(key, format);
  return format;
}

function clause(keyword: string, list: string, repeat: string): FormatClause {
  const listed = names(list);
  const word = listed.length === 1 && listed[0].startsWith('@') ? { names: [], attr: listed[0].slice(1) } : { names: listed };
  return { keyword, ...word, repeat: repeat === '*' ? 'any' : repeat === '?' ? 'optional' : 'once' };
}

function splitOnce(text: string, sep: string): [string, string | undefined] {
  const at = text.indexOf(sep);
  return at < 0 ? [text, undefined] : [text.slice(0, at), text.slice(at + sep.length)];
}

function names(list: string): string[] {
  return list
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/** Splits on the commas outside parentheses. */
function splitTop(list: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of list) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === ',' && depth === 0) {
      out.push(cur.trim());
      cur = '';
    } else cur += ch;
  }
  if (cur.trim() !== '') out.push(cur.trim());
  return out;
}

/** What an op's written layout binds to by its format: operand indices and attributes by name, the written types. */
export interface MicroBinding {
  operands: Record<string, number[]>;
  attrs: Record<string, Attr>;
  /** Each operand's written type, by operand index. */
  operandTypes: Map<number, TypeRef>;
  /** The result types as written, in order (only the results written). */
  resultTypes: TypeRef[];
}

/** A problem binding the layout: where, and what. */
export interface FormatProblem {
  span: Span;
  message: string;
}

/**
 * Binds the op as written (`op.micro`) to its format: which operand index each name is, which attribute literal,
 * which written type belongs to which operand and result. A layout that is not the format's is a problem at the
 * first place they part.
 */
export function bindLayout(op: OpNode, format: MicroFormat, attributes: Set<string>, resultCount: number): MicroBinding | FormatProblem {
  const layout = op.micro as MicroLayout;
  const binding: MicroBinding = { operands: {}, attrs: {}, operandTypes: new Map(), resultTypes: [] };
  const expectText = () => formatText(format);
  const wrong = (span: Span, what: string): FormatProblem => ({ span, message: `${op.name} ${what}; its format is '${expectText()}'` });
  // Items: positional, one for one.
  for (let i = 0; i < Math.max(format.items.length, layout.items.length); i++) {
    const want = format.items[i];
    const got = layout.items[i];
    if (!want) return wrong(got.span, `takes ${format.items.length} item(s) before its keyword groups, got ${layout.items.length}`);
    if (!got)
      return wrong(layout.items.at(-1)?.span ?? op.nameSpan, `takes ${format.items.length} item(s) before its keyword groups, got ${layout.items.length}`);
    if ('base' in want) {
      if (!('offset' in got)) return wrong(got.span, `expects '%${want.base}[%${want.offset}]' at item ${i + 1}`);
      binding.operands[want.base] = [got.operand];
      binding.operands[want.offset] = [got.offset];
    } else if (attributes.has(want.name)) {
      if (!('attr' in got)) return wrong(got.span, `expects the attribute '${want.name}' at item ${i + 1}`);
      if (!want.joined !== !got.joined)
        return wrong(got.span, want.joined ? `writes '${want.name}' after the operand before it, without a comma` : `writes a comma before '${want.name}'`);
      binding.attrs[want.name] = got.attr;
    } else {
      if (!('operand' in got) || 'offset' in got) return wrong(got.span, `expects an operand '${want.name}' at item ${i + 1}`);
      binding.operands[want.name] = [got.operand];
    }
  }
  // Keyword groups, in the format's order.
  let k = 0;
  for (const c of format.clauses) {
    if (c.attr) {
      // A keyword that sets an attribute: a bare word, or the word in the keyword's parentheses.
      const got = layout.clauses[k];
      if (got && (c.bare ? got.bare && (!c.words || c.words.includes(got.keyword)) : got.keyword === c.keyword && got.word !== undefined)) {
        binding.attrs[c.attr] = { kind: 'string', value: c.bare ? got.keyword : got.word!, span: got.span };
        k++;
      } else if (c.repeat === 'once') return wrong(got?.span ?? op.nameSpan, c.bare ? `needs its '${c.attr}' keyword` : `needs '${c.keyword}(<${c.attr}>)'`);
      continue;
    }
    let seen = 0;
    while (k < layout.clauses.length && layout.clauses[k].keyword === c.keyword && (c.repeat === 'any' || seen === 0)) {
      const got = layout.clauses[k];
      if (got.operands.length !== c.names.length) return wrong(got.span, `'${c.keyword}(...)' takes ${c.names.length} operands, got ${got.operands.length}`);
      c.names.forEach((n, j) => (binding.operands[n] = [...(binding.operands[n] ?? []), got.operands[j]]));
      seen++;
      k++;
    }
    if (c.repeat === 'once' && seen === 0) return wrong(layout.clauses[k]?.span ?? op.nameSpan, `needs '${c.keyword}(${c.names.join(', ')})'`);
    if (c.repeat !== 'once') for (const n of c.names) binding.operands[n] ??= [];
  }
  if (k < layout.clauses.length) return wrong(layout.clauses[k].span, `takes no '${layout.clauses[k].keyword}(...)' here`);
  // Types after `:`: the operands' (expanded by their groups), then the results'.
  const expected: { name: string; index: number; keyword?: string }[] = [];
  for (const t of format.types) {
    if (typeof t === 'string') {
      expected.push({ name: t, index: 0 });
      continue;
    }
    const count = binding.operands[t.names[0]]?.length ?? 0;
    for (let g = 0; g < count; g++) t.names.forEach((n, j) => expected.push({ name: n, index: g, keyword: j === 0 ? t.keyword : undefined }));
  }
  const resultsAfterColon = !format.arrow && format.types.length === 0 ? layout.types : [];
  const operandTypes = resultsAfterColon.length > 0 ? [] : layout.types;
  const typeSpan = (i: number) => operandTypes[i]?.type.span ?? op.span;
  if (operandTypes.length !== expected.length) {
    return wrong(typeSpan(Math.min(operandTypes.length, expected.length)), `writes ${expected.length} operand type(s) after ':', got ${operandTypes.length}`);
  }
  for (const [i, e] of expected.entries()) {
    if (operandTypes[i].keyword !== e.keyword) return wrong(typeSpan(i), `expects ${e.keyword ? `'${e.keyword}' before` : 'no keyword before'} type ${i + 1}`);
    const operand = binding.operands[e.name]?.[e.index];
    if (operand !== undefined) binding.operandTypes.set(operand, operandTypes[i].type);
  }
  if (layout.arrow !== format.arrow && !(format.arrow && format.results.every((r) => r.optional) && !layout.arrow)) {
    return wrong(op.resultTypes[0]?.span ?? op.span, layout.arrow ? `writes no '->' in its signature` : `writes its results after '->'`);
  }
  binding.resultTypes = format.arrow ? op.resultTypes : resultsAfterColon.map((t) => t.type);
  const required = format.results.filter((r) => !r.optional).length;
  if (binding.resultTypes.length < required || binding.resultTypes.length > format.results.length || binding.resultTypes.length !== resultCount) {
    const span = binding.resultTypes[0]?.span ?? op.span;
    return wrong(span, `has ${resultCount} result(s) named and ${binding.resultTypes.length} result type(s) written`);
  }
  return binding;
}

/** The binding of the first of a row's alternative formats the layout fits; else the first one's problem. */
export function bindFirst(op: OpNode, formats: MicroFormat[], attributes: Set<string>, resultCount: number): MicroBinding | FormatProblem {
  let first: FormatProblem | undefined;
  for (const f of formats) {
    const bound = bindLayout(op, f, attributes, resultCount);
    if (!('message' in bound)) return bound;
    first ??= bound;
  }
  return first!;
}

/** The format as the row writes it, for messages. */
function formatText(f: MicroFormat): string {
  const items = f.items.map((i, k) => (k === 0 ? '' : 'joined' in i && i.joined ? ' ' : ', ') + ('base' in i ? `${i.base}[${i.offset}]` : i.name)).join('');
  const repeat = (c: FormatClause) => (c.repeat === 'any' ? '*' : c.repeat === 'optional' ? '?' : '');
  const clauses = f.clauses
    .map((c) => (c.bare ? ` @${c.attr}${repeat(c)}` : ` ${c.keyword}(${c.attr ? '@' + c.attr : c.names.join(', ')})${repeat(c)}`))
    .join('');
  const types = f.types.map((t) => (typeof t === 'string' ? t : `${t.keyword}(${t.names.join(', ')})`)).join(', ');
  const results = f.results.map((r) => r.name + (r.optional ? '?' : '')).join(', ');
  const sig = f.arrow ? `${types} -> ${results}` : types || results;
  return `${items}${clauses}${sig ? ' : ' + sig : ''}`;
}
