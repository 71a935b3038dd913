/**
 * The parser's fast paths (a repeated statement reuses the first one's AST; each long type string is matched
 * once, cut out of the statement) must mean exactly what matching every statement in full means. Programs are
 * composed from statement templates with random SSA names, random nesting in scf.for / scf.if / scf.while /
 * sections, and random whitespace, newlines and comments between tokens; both must build the same AST (spans
 * included: a reused statement's spans are moved to where it is) and report the same diagnostics.
 */
import fc from 'fast-check';
import { DiagnosticBag, formatAll } from '../../src/diag/diagnostic';
import { SourceFile, Span } from '../../src/diag/source';
import { childEntries, isTypeRef } from '../fixtures/ast-walk';
import { assemble } from '../../src/verify/assemble';
import * as parse from '../../src/syntax/parse';
import { Module } from '../../src/syntax/ast';
import { TypeTable } from '../../src/syntax/type-table';
import { opRegistry } from '../../src/ops/registry';

type Parser = (source: SourceFile, diags: DiagnosticBag) => Module;
const parseModule: Parser = (source, diags) => parse.parseModule(source, diags, opRegistry());
const parseInFull: Parser = (source, diags) => parse.parseModule(source, diags, opRegistry(), { fastPaths: false });

/** PTO_PROPERTY_RUNS=5000 for a deep run; the default keeps the suite fast. */
const RUNS = Number(process.env.PTO_PROPERTY_RUNS ?? 100);

// ---- program generator --------------------------------------------------------------------------

/** A rendered program is a flat token list; separators are chosen when it is printed. */
type Tokens = string[];

const SEPARATORS = [
  ' ',
  ' ',
  ' ',
  '',
  '',
  '\n',
  '\n    ',
  '  ',
  '\t',
  '\r\n',
  ' // a comment\n',
  '\n// comment with { braces ( and %x = pto.fake : stuff\n  ',
  '\n\n',
];

const NAMES = ['%a', '%b', '%c0', '%c16', '%arg0', '%x_1', '%v.2', '%t$', '%1', '%42', '%to', '%ins'];

const name = fc.constantFrom(...NAMES);
const symbol = fc.constantFrom('@k', '@kernel_1', '@"quoted name"');

/** Whitespace allowed inside a `<...>` type body after a comma. */
const innerSpace = fc.constantFrom(' ', '', '\n        ', '  ');

function joinItems(items: string[], spaces: string[]): string {
  return items.map((it, i) => (i === 0 ? it : ',' + spaces[(i - 1) % spaces.length] + it)).join('');
}

const tileBufType = fc
  .record({
    loc: fc.constantFrom('vec', 'ub', 'mat'),
    dtype: fc.constantFrom('f32', 'f16', 'i32'),
    rows: fc.constantFrom('16', '32', '1'),
    vrow: fc.constantFrom('16', '?'),
    spaces: fc.array(innerSpace, { minLength: 1, maxLength: 4 }),
  })
  .map(
    ({ loc, dtype, rows, vrow, spaces }) =>
      '!pto.tile_buf<' +
      joinItems(
        [
          `loc=${loc}`,
          `dtype=${dtype}`,
          `rows=${rows}`,
          'cols=16',
          `v_row=${vrow}`,
          'v_col=16',
          'blayout=row_major',
          'slayout=none_box',
          'fractal=512',
          'pad=0',
        ],
        spaces,
      ) +
      '>',
  );

const tileValueType = fc.oneof(
  fc.constant('!pto.tile<loc=vec, f32, 16, 16, RowMajor, NoneBox, None, Zero>'),
  fc.constant('!pto.tile<f32, 16, 16>'),
  fc.constant('!pto.tile<16x16xf32>'),
  fc.constant('!pto.tile<loc=vec, dtype=f16, rows=1, cols=32, v_row=1, v_col=32, blayout=row_major, slayout=none_box, fractal=512, pad=0>'),
);
const tensorView = fc.constantFrom('!pto.tensor_view<?x?xf32>', '!pto.tensor_view<16x16xf16>');
const partView = fc.constantFrom('!pto.partition_tensor_view<16x16xf32>', '!pto.partition_tensor_view<1x16xf32>');
const scalarType = fc.constantFrom('index', 'i32', 'f32', 'i1');
const anyType = fc.oneof(scalarType, tileBufType, tileValueType, partView);

const arithBinary = fc.constantFrom('arith.addi', 'arith.subi', 'arith.muli', 'arith.divsi', 'arith.remsi');

/** Statements without regions. */
const simpleStatement: fc.Arbitrary<Tokens> = fc.oneof(
  fc.tuple(name, fc.constantFrom('0', '16', '-3', '0x10'), fc.constantFrom('index', 'i32')).map(([n, v, t]) => [n, '=', 'arith.constant', v, ':', t]),
  fc.tuple(name).map(([n]) => [n, '=', 'arith.constant', '1.5', ':', 'f32']),
  fc.tuple(name).map(([n]) => [n, '=', 'arith.constant', 'true']),
  fc.tuple(name, arithBinary, name, name).map(([n, op, a, b]) => [n, '=', op, a, ',', b, ':', 'index']),
  fc.tuple(name, fc.constantFrom('slt', 'eq', 'sge'), name, name).map(([n, p, a, b]) => [n, '=', 'arith.cmpi', p, ',', a, ',', b, ':', 'index']),
  fc.tuple(name, name).map(([n, a]) => [n, '=', 'arith.index_cast', a, ':', 'i32', 'to', 'index']),
  fc.tuple(name, name, name, name).map(([n, c, a, b]) => [n, '=', 'arith.select', c, ',', a, ',', b, ':', 'index']),
  fc
    .tuple(name, name, name, name, fc.boolean(), tensorView)
    .map(([n, p, a, b, comma, tv]) => [
      n,
      '=',
      'pto.make_tensor_view',
      p,
      ',',
      'shape',
      '=',
      '[',
      a,
      ',',
      b,
      ']',
      ...(comma ? [','] : []),
      'strides',
      '=',
      '[',
      b,
      ',',
      '%c1',
      ']',
      ':',
      tv,
    ]),
  fc
    .tuple(name, name, name, tensorView, partView, fc.boolean())
    .map(([n, v, a, tv, pv, legacy]) => [
      n,
      '=',
      legacy ? 'pto.subview' : 'pto.partition_view',
      v,
      ',',
      'offsets',
      '=',
      '[',
      a,
      ',',
      '0',
      ']',
      ',',
      'sizes',
      '=',
      '[',
      '16',
      ',',
      a,
      ']',
      ':',
      tv,
      '->',
      pv,
    ]),
  fc
    .tuple(name, fc.option(name, { nil: undefined }), fc.option(fc.tuple(name, name), { nil: undefined }), tileBufType)
    .map(([n, addr, valid, t]) => [
      n,
      '=',
      'pto.alloc_tile',
      ...(addr ? ['addr', '=', addr] : []),
      ...(valid ? ['valid_row', '=', valid[0], 'valid_col', '=', valid[1]] : []),
      ':',
      t,
    ]),
  // Level 2, grouped and per-operand lists, glued and trailing attribute dictionaries.
  fc.tuple(name, name, name, tileBufType).map(([a, b, c, t]) => ['pto.tadd', 'ins', '(', a, ',', b, ':', t, ',', t, ')', 'outs', '(', c, ':', t, ')']),
  fc.tuple(name, name, name, tileBufType).map(([a, b, c, t]) => ['pto.tadd', 'ins', '(', a, ':', t, ',', b, ':', t, ')', 'outs', '(', c, ':', t, ')']),
  fc
    .tuple(name, name, tileBufType)
    .map(([a, c, t]) => ['pto.tcvt', 'ins', '(', a, '{', 'rmode', '=', '#pto<round_mode ROUND>', '}', ':', t, ')', 'outs', '(', c, ':', t, ')']),
  fc
    .tuple(name, name, tileBufType)
    .map(([a, c, t]) => ['pto.tmov', 'ins', '(', a, ':', t, ')', 'outs', '(', c, ':', t, ')', '{', 'flag', '=', 'true', ',', 'n', '=', '3', ':', 'i32', '}']),
  fc.tuple(name, partView, tileBufType).map(([a, pv, t]) => ['pto.tload', 'ins', '(', a, ':', pv, ')', 'outs', '(', '%dst', ':', t, ')']),
  // Level 1.
  fc.tuple(name, name, tileValueType, tileValueType).map(([d, s, t1, t2]) => [d, '=', 'pto.tcolmin', s, ':', t1, '->', t2]),
  fc.tuple(name, name, name, tileValueType).map(([d, a, b, t]) => [d, '=', 'pto.tadd', a, ',', b, ':', '(', t, ',', t, ')', '->', t]),
  fc.tuple(name, name, tileValueType, partView).map(([a, v, t, pv]) => ['pto.tstore', a, ',', v, ':', '(', t, ',', pv, ')', '->', '(', ')']),
  fc.tuple(name, name, tileValueType).map(([d, s, t]) => [`${d}:2`, '=', 'pto.tsplit', s, ':', t, '->', '(', t, ',', t, ')']),
  fc.tuple(name, name, fc.constantFrom('#0', '#1')).map(([d, s, i]) => [d, '=', 'arith.addi', s + i, ',', s + i, ':', 'index']),
  fc.tuple(name, name, anyType).map(([d, s, t]) => [d, '=', 'pto.tgeneric', s, '{', 'k', '=', '"s \\" \\\\ t"', '}', ':', t]),
  // Less common spellings: several results, unit and dotted attribute keys, locations, scalar outs,
  // trailers, result types after a DPS op, operand-less generic ops, builtin shaped types.
  fc.tuple(name, name, name).map(([a, b, s]) => [a, ',', b, '=', 'pto.tpair', s, ':', 'index', '->', '(', 'index', ',', 'index', ')']),
  fc.tuple(name).map(([n]) => [n, '=', 'arith.constant', '{', 'pto.unit_flag', ',', 'note', '=', '[', '1', ',', '"x"', ']', '}', '0', ':', 'index']),
  fc.tuple(name).map(([n]) => [n, '=', 'arith.constant', '7', ':', 'index', 'loc', '("k.py":3:4)']),
  fc.tuple(name, tileBufType).map(([a, t]) => [n0(a), '=', 'pto.tgetval', 'ins', '(', a, ':', t, ')', 'outs', ':', 'f32']),
  fc
    .tuple(name, name, tileBufType)
    .map(([a, s, t]) => ['pto.tsel', 'ins', '(', a, ':', t, ')', 'outs', '(', a, ':', t, ')', 'mask', '=', s, ':', 'i32', 'mode', '=', '#pto<mode X>']),
  fc.tuple(name, name, tileBufType).map(([r, a, t]) => [r, '=', 'pto.tfoo', 'ins', '(', a, ':', t, ')', 'outs', '(', a, ':', t, ')', '->', t]),
  fc.tuple(name).map(([n]) => [n, '=', 'pto.get_block_idx', ':', 'index']),
  fc.constant<Tokens>(['pto.barrier']),
  fc.tuple(name).map(([n]) => [n, '=', 'pto.get_block_num']),
  fc.tuple(name).map(([n]) => [n, '=', 'pto.tview', '%m', ':', 'memref<16x16xf16, #pto.address_space<vec>>', '->', 'vector<4xf32>']),
);

/** A fresh result name derived from an operand name (`%1` -> `%s1`). */
function n0(name: string): string {
  return '%s' + name.slice(1);
}

function region(body: Tokens[]): Tokens {
  return ['{', ...body.flat(), '}'];
}

/** Statements, some of them with regions nesting further statements. */
const statementTree = fc.letrec<{ stmt: Tokens; body: Tokens[] }>((tie) => ({
  body: fc.array(tie('stmt'), { maxLength: 3 }),
  stmt: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    simpleStatement,
    fc.tuple(name, name, name, name, tie('body')).map(([i, lb, ub, st, body]) => ['scf.for', i, '=', lb, 'to', ub, 'step', st, ...region(body)]),
    fc
      .tuple(name, tie('body'))
      .map(([i, body]) => [
        'scf.for',
        'unsigned',
        i,
        '=',
        '%lo',
        'to',
        '%hi',
        'step',
        '%st',
        ':',
        'i32',
        ...region(body),
        '{',
        'pto.loop',
        '=',
        '1',
        ':',
        'i32',
        '}',
      ]),
    fc
      .tuple(name, name, name, tie('body'))
      .map(([r, i, acc, body]) => [
        r,
        '=',
        'scf.for',
        i,
        '=',
        '%c0',
        'to',
        '%c16',
        'step',
        '%c1',
        'iter_args',
        '(',
        acc,
        '=',
        '%c0',
        ')',
        '->',
        '(',
        'index',
        ')',
        ...region([...body, ['scf.yield', acc, ':', 'index']]),
      ]),
    fc.tuple(name, tie('body')).map(([c, body]) => ['scf.if', c, ...region(body)]),
    fc
      .tuple(name, name, tie('body'), tie('body'))
      .map(([r, c, a, b]) => [
        r,
        '=',
        'scf.if',
        c,
        '->',
        '(',
        'index',
        ')',
        ...region([...a, ['scf.yield', '%c0', ':', 'index']]),
        'else',
        ...region([...b, ['scf.yield', '%c1', ':', 'index']]),
      ]),
    fc
      .tuple(name, name, tie('body'))
      .map(([r, x, body]) => [
        `${r}:2`,
        '=',
        'scf.while',
        '(',
        x,
        '=',
        '%c0',
        ',',
        '%y',
        '=',
        '%c1',
        ')',
        ':',
        '(',
        'index',
        ',',
        'index',
        ')',
        '->',
        '(',
        'index',
        ',',
        'index',
        ')',
        '{',
        '%go',
        '=',
        'arith.cmpi',
        'slt',
        ',',
        x,
        ',',
        '%c16',
        ':',
        'index',
        'scf.condition',
        '(',
        '%go',
        ')',
        x,
        ',',
        '%y',
        ':',
        'index',
        ',',
        'index',
        '}',
        'do',
        '{',
        '^bb0',
        '(',
        '%x2',
        ':',
        'index',
        ',',
        '%y2',
        ':',
        'index',
        ')',
        ':',
        ...body.flat(),
        'scf.yield',
        '%x2',
        ',',
        '%y2',
        ':',
        'index',
        ',',
        'index',
        '}',
      ]),
    fc.tuple(fc.constantFrom('pto.section.vector', 'pto.section.cube'), tie('body')).map(([s, body]) => [s, ...region(body)]),
  ),
}));

const declaration = fc
  .tuple(symbol, fc.array(fc.tuple(name, anyType), { maxLength: 2 }))
  .map(([sym, args]) => ['func.func', 'private', sym, '(', ...args.flatMap(([n, t], i) => [...(i > 0 ? [','] : []), n, ':', t]), ')', '->', 'index']);

const definition = fc
  .record({
    sym: symbol,
    args: fc.array(fc.tuple(name, anyType), { maxLength: 3 }),
    result: fc.boolean(),
    body: fc.array(statementTree.stmt, { maxLength: 5 }),
  })
  .map(({ sym, args, result, body }) => [
    'func.func',
    sym,
    '(',
    ...args.flatMap(([n, t], i) => [...(i > 0 ? [','] : []), n, ':', t]),
    ')',
    ...(result ? ['->', 'index'] : []),
    ...region([...body, result ? ['return', '%c0', ':', 'index'] : ['return']]),
  ]);

const func = fc.oneof({ weight: 5, arbitrary: definition }, { weight: 1, arbitrary: declaration });

const programTokens: fc.Arbitrary<Tokens> = fc
  .record({
    wrap: fc.constantFrom('module', 'module-attrs', 'module-sym', 'none'),
    funcs: fc.array(func, { minLength: 1, maxLength: 2 }),
  })
  .map(({ wrap, funcs }) => {
    const inner = funcs.flat();
    switch (wrap) {
      case 'none':
        return inner;
      case 'module':
        return ['module', '{', ...inner, '}'];
      case 'module-sym':
        return ['module', '@m', '{', ...inner, '}'];
      default:
        return ['module', 'attributes', '{', 'pto.target_arch', '=', '"a5"', ',', 'pto.unit_attr', '}', '{', ...inner, '}'];
    }
  });

const WORD = /[A-Za-z0-9_$.\-%#!@^]/;

/** Joins tokens with the chosen separators; an empty separator is used only where tokens may touch. */
function render(tokens: Tokens, seps: number[]): string {
  let out = '';
  tokens.forEach((tok, i) => {
    if (i > 0) {
      let sep = SEPARATORS[seps[i % seps.length]];
      const prev = tokens[i - 1];
      if (sep === '' && WORD.test(prev[prev.length - 1]) && (WORD.test(tok[0]) || tok[0] === '-')) sep = ' ';
      if (sep === '' && tok.startsWith('//')) sep = ' ';
      out += sep;
    }
    out += tok;
  });
  return out + '\n';
}

const program = fc.tuple(programTokens, fc.array(fc.nat(SEPARATORS.length - 1), { minLength: 1, maxLength: 40 })).map(([tokens, seps]) => render(tokens, seps));

// ---- comparison -----------------------------------------------------------------------------------

/** The AST without source positions. */
function strip(x: unknown): unknown {
  if (Array.isArray(x)) return x.map(strip);
  if (typeof x === 'bigint') return `${x}n`;
  if (x && typeof x === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(x)) {
      if (k === 'span' || k === 'nameSpan' || v === undefined) continue;
      out[k] = strip(v);
    }
    return out;
  }
  return x;
}

/** Every span of the AST, in the order a walk meets them. */
function spansOf(x: unknown, out: unknown[] = []): unknown[] {
  if (Array.isArray(x)) x.forEach((v) => spansOf(v, out));
  else if (x && typeof x === 'object') {
    for (const [k, v] of Object.entries(x)) {
      // A span is a position, not a child: some nodes are their own span (`node.span === node`).
      if (k === 'span' || k === 'nameSpan') out.push({ start: (v as Span).start, end: (v as Span).end });
      else spansOf(v, out);
    }
  }
  return out;
}

function runParser(parser: Parser, text: string): { ast: unknown; spans: unknown[]; diags: string[] } {
  const source = new SourceFile('gen.pto', text);
  const diags = new DiagnosticBag(source);
  const module = parser(source, diags);
  return { ast: strip(module), spans: spansOf(module), diags: diags.sorted().map((d) => `${d.severity}: ${d.message}`) };
}

describe('the fast paths == every statement matched in full', () => {
  test('generated programs: same AST (spans included) and diagnostics', () => {
    fc.assert(
      fc.property(program, (text) => {
        const fast = runParser(parseModule, text);
        const full = runParser(parseInFull, text);
        expect(full.diags).toEqual([]);
        expect(fast.diags).toEqual(full.diags);
        expect(fast.ast).toEqual(full.ast);
        expect(fast.spans).toEqual(full.spans);
      }),
      { numRuns: RUNS },
    );
  });

  // Each of these was found by a property test; they stay as named cases.
  const TB = '!pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=16, v_row=16, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>';
  const fn = (body: string) => `func.func @k(%a: index, %b: index) {\n${body}\n  return\n}\n`;
  const whileWith = (label: string) =>
    fn(
      `  %r = scf.while (%x = %a) : (index) -> (index) {\n    %go = arith.cmpi slt, %x, %b : index\n    scf.condition(%go) %x : index\n  } do {\n  ${label}\n    scf.yield %y : index\n  }`,
    );
  test.each([
    ['a newline between a block label and its arguments', whileWith('^bb0\n    (%y: index):')],
    ['a newline between the arguments of a block label and its colon', whileWith('^bb0(%y: index)\n    :')],
    ['a comment inside the arguments of a block label', whileWith('^bb0(%y: index // the counter (of rows\n    ):')],
    ['a comment between a result and its =', fn('  %x // the sum\n    = arith.addi %a, %b : index')],
    ['a comment after the comma of a result list', fn('  %x, // first\n  %y = pto.tpair %a : index -> (index, index)')],
    ['a dotted unit attribute at the start of a line', fn('  %x = arith.constant {note = 1,\n    pto.flag} 0 : index')],
    ['a dotted attribute key at the start of a line followed by a comment', fn('  %x = arith.constant {\n    pto.note // why\n    = 1} 0 : index')],
    ['a dotted attribute value at the end of a DPS trailer', fn(`  pto.tsel ins(%a : ${TB}) outs(%b : ${TB}) mode = pto.fast`)],
    ['a type alias and an attribute alias before the module', `!tt = ${TB}\n#vec = #pto.address_space<vec>\nmodule {\n${fn('')}}\n`],
    ['an operand-less generic op followed by a statement with results', fn('  pto.barrier\n  %x = arith.constant 0 : index')],
    ['an operand-less generic op with a result followed by another', fn('  %i = pto.get_block_idx\n  %n = pto.get_block_num')],
    ['a user type spelled like an interned-type placeholder (!T0)', fn(`  pto.tadd ins(%a, %b : !T0, ${TB}) outs(%a : !T1)`)],
    ['a long type glued to the next word (the placeholder must not absorb it)', fn('  %x = pto.tfoo %a : !pto.partition_tensor_view<16x16xf32>index')],
    ['an unbalanced bracket inside a long type body', fn(`  pto.tadd ins(%a : !pto.tile_buf<(loc=vec, dtype=f32, rows=16, cols=16>) outs(%a : ${TB})`)],
    ["a '>' inside parentheses in a long type body", fn('  %v = pto.tview %a : !pto.some_long_type_name<(a > b)> -> index')],
    [
      'a statement repeated word for word, the second time elsewhere',
      fn(`  %x = arith.addi %a, %b : index\n  scf.for %i = %a to %b step %b {\n    %x = arith.addi %a, %b : index\n  }`),
    ],
  ])('%s', (_what, text) => {
    const fast = runParser(parseModule, text);
    const full = runParser(parseInFull, text);
    expect(fast.diags).toEqual(full.diags);
    expect(fast.ast).toEqual(full.ast);
    expect(fast.spans).toEqual(full.spans);
  });

  test('the generator is not trivial: its programs parse without a diagnostic, many have regions', () => {
    const samples = fc.sample(program, { numRuns: 80, seed: 42 });
    const rejected = samples.filter((text) => runParser(parseInFull, text).diags.length > 0);
    expect(rejected).toEqual([]);
    expect(samples.filter((t) => /scf\.(for|if|while)/.test(t)).length).toBeGreaterThan(10);
  });
});

// ---- robustness ------------------------------------------------------------------------------------

/** The text of every type written in a module. */
function typeTexts(x: unknown, out: string[] = []): string[] {
  if (Array.isArray(x)) x.forEach((v) => typeTexts(v, out));
  else if (x && typeof x === 'object') {
    const o = x as Record<string, unknown>;
    if (isTypeRef(o)) out.push(o.text as string);
    else for (const [, v] of childEntries(o)) typeTexts(v, out);
  }
  return out;
}

function checkSpans(text: string, diags: DiagnosticBag): void {
  for (const d of diags.items) {
    for (const span of [d.span, ...(d.notes ?? []).map((n) => n.span)]) {
      expect(Number.isInteger(span.start) && Number.isInteger(span.end)).toBe(true);
      expect(span.start).toBeGreaterThanOrEqual(0);
      expect(span.end).toBeGreaterThanOrEqual(span.start);
      expect(span.end).toBeLessThanOrEqual(text.length);
    }
  }
}

/** Valid programs, then cut, spliced, duplicated and overwritten. */
const mutated = fc
  .tuple(
    program,
    fc.array(
      fc.tuple(
        fc.nat(),
        fc.nat(40),
        fc.oneof(
          fc.constantFrom('', '{', '}', '(', ')', '<', '>', '"', '%', '^', ':', '=', ',', '//', '\n', 'pto.', '#', '!', '->'),
          fc.string({ maxLength: 4 }),
        ),
      ),
      { minLength: 1, maxLength: 4 },
    ),
  )
  .map(([text, edits]) => {
    let t = text;
    for (const [at, len, insert] of edits) {
      const i = t.length === 0 ? 0 : at % t.length;
      t = t.slice(0, i) + insert + t.slice(i + len);
    }
    return t;
  });

const truncated = fc.tuple(program, fc.nat()).map(([text, n]) => text.slice(0, n % (text.length + 1)));

const arbitraryText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.string({
    unit: fc.constantFrom('{', '}', '(', ')', '<', '>', '[', ']', '"', '%', '^', ':', '=', ',', '/', '\n', ' ', 'a', '.', '#', '!', '-', '0', '\\'),
    maxLength: 80,
  }),
  truncated,
  mutated,
);

describe('robustness', () => {
  test('parseModule never throws, and every diagnostic span lies within the file', () => {
    fc.assert(
      fc.property(arbitraryText, (text) => {
        const source = new SourceFile('fuzz.pto', text);
        const diags = new DiagnosticBag(source);
        expect(() => parseModule(source, diags)).not.toThrow();
        checkSpans(text, diags);
        expect(() => formatAll(diags)).not.toThrow();
      }),
      { numRuns: RUNS * 3 },
    );
  });

  test('assemble (parse + verify) never throws, and every diagnostic span lies within the file', () => {
    fc.assert(
      fc.property(arbitraryText, (text) => {
        let result: ReturnType<typeof assemble> | undefined;
        expect(() => {
          result = assemble('fuzz.pto', text);
        }).not.toThrow();
        checkSpans(text, result!.diags);
        expect(() => formatAll(result!.diags)).not.toThrow();
      }),
      { numRuns: RUNS * 2 },
    );
  });

  test('a text rejected when matched in full is rejected with the fast paths too (a syntax error, or a type that does not parse)', () => {
    const types = new TypeTable();
    fc.assert(
      fc.property(mutated, (text) => {
        const source = new SourceFile('fuzz.pto', text);
        const full = new DiagnosticBag(source);
        parseInFull(source, full);
        if (!full.hasErrors()) return;
        const fast = new DiagnosticBag(source);
        const module = parseModule(source, fast);
        // Long types are interned by the scanner and parsed by TypeTable, not by the statement's match.
        const badType = typeTexts(module).some((t) => types.parse(t).error !== undefined);
        expect(fast.hasErrors() || badType).toBe(true);
      }),
      { numRuns: RUNS * 2 },
    );
  });

  test.each([
    ['a syntax error at the very end of the file', 'module { func.func @'],
    ['an unclosed function body', 'module { func.func @k ( ) {'],
    ['an unclosed region in a region', 'func.func @k() {\n  scf.for %i = %a to %b step %c {\n'],
    ['an unterminated string at the end', 'module attributes {pto.target_arch = "a5'],
    ['a lone percent sign', '%'],
  ])('%s: every span lies within the file', (_what, text) => {
    const a = assemble('edge.pto', text);
    expect(a.diags.hasErrors()).toBe(true);
    checkSpans(text, a.diags);
  });
});
