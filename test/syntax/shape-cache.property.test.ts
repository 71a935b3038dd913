/**
 * The statement-shape cache (src/syntax/shape-cache.ts) must build exactly what matching every statement builds: the
 * same AST (spans and key order included) and the same diagnostics, in the same order. Checked on the shipped
 * programs and test fixtures, on the PTOAS corpus when PTO_UPSTREAM_DIR is set, and on programs mutated to rename
 * values and symbols, change numbers, swap, repeat and drop statements and delete tokens (so that the error paths
 * are taken too).
 *
 * Each text is parsed twice with a fresh cache: the first parse records the shapes it meets and builds its statements
 * from the records, the second builds all of them from the records the first made. The corpus shares one cache, as one run of
 * pto-as over many files does.
 */
import fc from 'fast-check';
import * as fs from 'fs';
import * as path from 'path';
import { Diagnostic, DiagnosticBag } from '../../src/diag/diagnostic';
import { SourceFile, Span } from '../../src/diag/source';
import { headerShape, parseModule } from '../../src/syntax/parse';
import { Module } from '../../src/syntax/ast';
import { ShapeCache } from '../../src/syntax/shape-cache';
import { ptoGrammar } from '../../src/syntax/grammar';
import { opRegistry } from '../../src/ops/registry';
import { corpusFiles } from '../../src/corpus/files';
import { SHIPPED_PTO_FILES } from '../fixtures/shipped';

/** PTO_PROPERTY_RUNS=5000 for a deep run; the default keeps the suite fast. */
const RUNS = Number(process.env.PTO_PROPERTY_RUNS ?? 100);

const SHIPPED = SHIPPED_PTO_FILES;
const shippedTexts = SHIPPED.map((f) => fs.readFileSync(f, 'utf8'));

/**
 * Where two trees differ (undefined: nowhere): every key in order, spans included, a key set to `undefined` apart
 * from a missing one, bigints apart from numbers.
 */
function difference(a: unknown, b: unknown, at = ''): string | undefined {
  if (a === b) return undefined;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) {
    return `${at}: ${String(a)} != ${String(b)}`;
  }
  const keysA = Object.keys(a);
  const keysB = Object.keys(b);
  if (keysA.join() !== keysB.join()) return `${at}: keys ${keysA.join()} != ${keysB.join()}`;
  for (const key of keysA) {
    if (key === 'span' || key === 'nameSpan') {
      // A position, not a child: some nodes are their own span (`node.span === node`).
      const [sa, sb] = [(a as Record<string, Span>)[key], (b as Record<string, Span>)[key]];
      if (sa.start !== sb.start || sa.end !== sb.end) return `${at}.${key}: ${sa.start}-${sa.end} != ${sb.start}-${sb.end}`;
      continue;
    }
    const found = difference((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key], `${at}.${key}`);
    if (found) return found;
  }
  return undefined;
}

interface Parsed {
  module: Module;
  diags: Diagnostic[];
}

function parseWith(text: string, shapeCache: boolean | ShapeCache): Parsed {
  const source = new SourceFile('t.pto', text);
  const diags = new DiagnosticBag(source);
  const module = parseModule(source, diags, opRegistry(), { shapeCache });
  return { module, diags: diags.items };
}

function expectSame(parsed: Parsed, matched: Parsed): void {
  expect(difference(parsed.diags, matched.diags, 'diagnostics')).toBeUndefined();
  expect(difference(parsed.module, matched.module, 'module')).toBeUndefined();
}

/**
 * Parses the text matching every statement, then with the cache (twice with a fresh one when none is given);
 * returns how many statements the cache built in its last parse.
 */
function expectSameParse(text: string, shared?: ShapeCache): number {
  const matched = parseWith(text, false);
  const cache = shared ?? new ShapeCache();
  if (!shared) expectSame(parseWith(text, cache), matched);
  const before = cache.built;
  expectSame(parseWith(text, cache), matched);
  return cache.built - before;
}

/** How many statements the scanner finds in a text (a rough count: lines that start with an op or a result). */
function statementCount(text: string): number {
  return text.split('\n').filter((line) => /^\s*(%[\w.$-]+(:\d+)?(\s*,\s*%[\w.$-]+(:\d+)?)*\s*=\s*)?"?[a-z_]+\.[\w.]+/.test(line)).length;
}

describe('built from a recorded shape == matched by the grammar', () => {
  test('the shipped programs and test fixtures', () => {
    expect(SHIPPED.length).toBeGreaterThan(40);
    let built = 0;
    let statements = 0;
    for (const text of shippedTexts) {
      built += expectSameParse(text);
      statements += statementCount(text);
    }
    // The second parse of each file builds all its statements from the records (but labels and aliases, always
    // matched); the count of lines that start an op leaves out `module` and `return`.
    expect(built).toBeGreaterThanOrEqual(statements);
  });

  test('a statement repeated with other names and numbers is built from the record, with its own text and spans', () => {
    const cache = new ShapeCache();
    const text = [
      'func.func @k(%a: index, %b: index) {',
      '  %x = arith.addi %a, %b : index',
      '  %c16 = arith.constant -16 : index',
      '  %yy_long = arith.addi %x, %a : index',
      '  %c7 = arith.constant -123456 : index',
      '  %zz = arith.addi %a, %yy_long : index',
      '  %c8 = arith.constant -3 : index',
      '  return',
      '}',
    ].join('\n');
    const source = new SourceFile('t.pto', text);
    const module = parseModule(source, new DiagnosticBag(source), opRegistry(), { shapeCache: cache });
    const ops = module.ops[0].regions[0].blocks[0].ops;
    // The first statement of each shape records it; every statement, the function and its return too, is built from a
    // record, and so is each of the function's two parameters (read one by one).
    expect(cache.built).toBe(10);
    const third = ops[4];
    expect(third.results).toEqual([{ name: '%zz', count: 1, span: { start: text.indexOf('%zz'), end: text.indexOf('%zz') + 3 } }]);
    // An operand's span runs from its name to its type (`%a, %yy_long : index` for the first).
    expect(third.operands.map((o) => [o.value?.name, text.slice(o.span.start, o.span.end)])).toEqual([
      ['%a', '%a, %yy_long : index'],
      ['%yy_long', '%yy_long : index'],
    ]);
    const typeAt = text.lastIndexOf(': index') + 2;
    const constant = ops[5].attrs[0].value;
    expect(constant).toMatchObject({ kind: 'int', value: -3n, type: { text: 'index' }, span: { start: text.indexOf('-3'), end: typeAt + 5 } });
    expect(constant.kind === 'int' && [constant.type?.span.start, constant.type?.span.end]).toEqual([typeAt, typeAt + 5]);
    expect(expectSameParse(text)).toBeGreaterThan(0);
  });

  test("a function's header is built from the shapes of its parameters and of a header with `()`", () => {
    const cache = new ShapeCache();
    const TILE = '!pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=16, v_row=16, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>';
    const fn = (name: string, params: string[]) =>
      `func.func @${name}(${params.join(', ')}) attributes {pto.kernel_kind = #pto.kernel_kind<vector>} {\n  return\n}\n`;
    const first = fn('a', ['%x: !pto.ptr<f32>', '%n: index', `%t: ${TILE}`, '%i: i32']);
    // Its four parameters, the header with `()` and the return, each built from a record (made when first met).
    expect(expectSameParse(first, cache)).toBe(4 + 1 + 1);
    // Another list of the same kinds of parameter, in another order and number: nothing new for the grammar.
    const shapes = cache.size;
    const second = fn('b_other', ['%i2: i32', '%longer_name: !pto.ptr<f32>', `%t: ${TILE}`, '%m: index', '%k: index']);
    expect(expectSameParse(second, cache)).toBe(5 + 1 + 1);
    expect(cache.size).toBe(shapes);
    const parsed = parseWith(second, new ShapeCache()).module.ops[0];
    expect(parsed.params!.map((p) => [p.name, p.type?.text, second.slice(p.span.start, p.span.end)])).toEqual([
      ['%i2', 'i32', '%i2: i32'],
      ['%longer_name', '!pto.ptr<f32>', '%longer_name: !pto.ptr<f32>'],
      ['%t', TILE, `%t: ${TILE}`],
      ['%m', 'index', '%m: index'],
      ['%k', 'index', '%k: index'],
    ]);
  });

  test.each([
    ['a declaration: types alone', 'module {\n  func.func private @d(index, !pto.ptr<f32>)\n}\n'],
    ['a parameter with attributes and a location', 'func.func @f(%a: index {pto.x = 1 : i32} loc("f.py":3:4), %b: index) {\n  return\n}\n'],
    ['a parameter list over several lines, with a comment', 'func.func @f(%a: index, // first\n    %b: i32) {\n  return\n}\n'],
    ['a function type among the parameters', 'func.func @f(%g: (index) -> index, %b: index) {\n  return\n}\n'],
    [
      'a stripped tile type (the old spelling) in a parameter',
      'func.func @f(%t: <loc=vec, dtype=f32, rows=16, cols=16, v_row=16, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>) {\n  return\n}\n',
    ],
    ['a parameter left empty', 'func.func @f(%a: index, , %b: index) {\n  return\n}\n'],
    ['a parameter without a type', 'func.func @f(%a: index, %b) {\n  return\n}\n'],
    ['a body with unnamed parameters', 'func.func @f(index, %b: index) {\n  return\n}\n'],
    ['a name MLIR does not take', 'func.func @f(%é: index) {\n  return\n}\n'],
    ['an error after the list', 'func.func @f(%a: index) attributes {\n  return\n}\n'],
  ])('%s: the same AST and diagnostics as matching the header whole', (_what, text) => {
    expectSameParse(text);
  });

  test('a shape the grammar does not match is not matched again for an op the toolchain does not support', () => {
    // An op in a form the generic body does not take: reported as unsupported, each time at its name.
    const line = '  %m = pto.tnotify "PAT_ALL" : !pto.mask<b32>';
    const text = `func.func @f() {\n${[line, line.replace('%m', '%other'), line].join('\n')}\n  %x = arith.addi %a, : index\n  %y = arith.addi %b, : index\n  return\n}\n`;
    const cache = new ShapeCache();
    const grammar = ptoGrammar();
    const match = jest.spyOn(grammar, 'match');
    try {
      const parsed = parseWith(text, cache);
      expect(parsed.diags.map((d) => [d.code, text.slice(d.span.start, d.span.end)])).toEqual([
        ['E0301', 'pto.tnotify'],
        ['E0301', 'pto.tnotify'],
        ['E0301', 'pto.tnotify'],
        ['E0101', ':'],
        ['E0101', ':'],
      ]);
      // Once for the three unsupported statements; each syntax error is matched again for its position.
      expect(match.mock.calls.filter(([, rule]) => rule === 'GenericBodyStmt')).toHaveLength(1);
      expect(match.mock.calls.filter(([, rule]) => rule === 'ArithBodyStmt')).toHaveLength(2);
      // The header as the parser matches it: its dialect type cut out for a placeholder.
      const header = line.trim().replace('!pto.mask<b32>', '!T0<>');
      expect(cache.lookup(headerShape(header, { name: 'pto.tnotify' }, opRegistry().syntaxOf('pto.tnotify'))!.key)).toBe('unmatched');
    } finally {
      match.mockRestore();
    }
    expectSameParse(text);
  });

  test('past its budget the cache keeps recording the shapes a run meets now, in bounded room', () => {
    // Each function's two arith statements have shapes of their own (an attribute name of their own).
    const fn = (i: number) =>
      [`func.func @f${i}(%a: index) {`, `  %x = arith.constant {tag_${i}} 0 : index`, `  %y = arith.addi %a, %x {tag_${i}} : index`, '  return', '}'].join(
        '\n',
      );
    const cache = new ShapeCache(200);
    for (let i = 0; i < 100; i++) parseWith(fn(i), cache);
    expect(cache.size).toBeLessThan(2 * 200);
    // A shape first met now, past the budget, is recorded: its later statements are built from the record.
    const header = '%x = arith.constant {tag_500} 0 : index';
    parseWith(`module {\n${fn(500)}\n}`, cache);
    const recorded = cache.lookup(headerShape(header, { name: 'arith.constant' }, opRegistry().syntaxOf('arith.constant'))!.key);
    expect(recorded === undefined || recorded === 'unreplayable' ? recorded : 'recorded').toBe('recorded');
  });
});

// ---- mutated programs ------------------------------------------------------------------------------

const VALUE = /%[A-Za-z0-9_$.-]+/g;
const SYMBOL = /@[A-Za-z0-9_$.-]+/g;
const NUMBER = /(?<![\w$.])\d+(?![\w$.])/g;
const TOKEN = /%[\w.$-]+|![\w.]+<[^>]*>|[\w.]+|\S/g;

/** The `k`th match of a pattern (k taken modulo the number of matches), or undefined when there is none. */
function nthMatch(text: string, pattern: RegExp, k: number): RegExpMatchArray | undefined {
  const all = [...text.matchAll(pattern)];
  return all.length === 0 ? undefined : all[k % all.length];
}

type Mutation = (text: string) => string;

const newNames = fc.constantFrom('%7', '%0', '%v', '%a_long_name_12', '%x-1', '%.d', '%$', '%5x', '%', '%arg0', '%c16');
const newNumbers = fc.constantFrom('0', '7', '16', '4096', '-1', '1.5', '0x10', '123456789012345678901234567890', '', '2x');

/** Every use of one value name renamed (also to names the grammar rejects, like `%5x`). */
const renameValue = fc.tuple(fc.nat(), newNames).map(([k, to]): Mutation => (text) => {
  const m = nthMatch(text, VALUE, k);
  return m ? text.replace(new RegExp(`${m[0].replace(/[$.]/g, '\\$&')}(?![\\w$.-])`, 'g'), to) : text;
});

const renameSymbol = fc.tuple(fc.nat(), fc.constantFrom('@f', '@kernel_2', '@9', '@"quoted"', '@')).map(([k, to]): Mutation => (text) => {
  const m = nthMatch(text, SYMBOL, k);
  return m ? text.split(m[0]).join(to) : text;
});

/** One number changed (also into a float, a hex literal, nothing, or a word). */
const renumber = fc.tuple(fc.nat(), newNumbers).map(([k, to]): Mutation => (text) => {
  const m = nthMatch(text, NUMBER, k);
  return m ? text.slice(0, m.index!) + to + text.slice(m.index! + m[0].length) : text;
});

/**
 * The op name a statement starts with, after its results: with the cache, ops matched by one rule share their
 * shapes, so an op renamed to another of its rule is built from the other's record.
 */
const OP_NAME = /^(\s*(?:%[^=\n]*=\s*)?)([A-Za-z_][\w.$]*)/gm;
const newOpNames = fc.constantFrom(
  'pto.tadd',
  'pto.tsub',
  'pto.tadd_dps', // an old spelling: a warning
  'pto.subview', // `formerly` a partition view
  'pto.partition_view',
  'pto.trowsum',
  'pto.tload',
  'pto.nosuch',
  'pto.pset_b32', // a VPTO micro-op the toolchain has
  'pto.tnotify', // one it does not have yet
  'arith.addi',
  'arith.index_cast',
  'scf.yield',
  'return',
  'Pto.x',
  '_pto.x',
);

/** One statement's op renamed (to another op of its rule or of another, an old or unknown name, no name). */
const renameOp = fc.tuple(fc.nat(), newOpNames).map(([k, to]): Mutation => (text) => {
  const m = nthMatch(text, OP_NAME, k);
  return m ? text.slice(0, m.index! + m[1].length) + to + text.slice(m.index! + m[0].length) : text;
});

const swapLines = fc.tuple(fc.nat(), fc.nat()).map(([a, b]): Mutation => (text) => {
  const lines = text.split('\n');
  const [i, j] = [a % lines.length, b % lines.length];
  [lines[i], lines[j]] = [lines[j], lines[i]];
  return lines.join('\n');
});

const repeatLine = fc.nat().map((a): Mutation => (text) => {
  const lines = text.split('\n');
  const i = a % lines.length;
  lines.splice(i, 0, lines[i]);
  return lines.join('\n');
});

const dropLine = fc.nat().map((a): Mutation => (text) => {
  const lines = text.split('\n');
  lines.splice(a % lines.length, 1);
  return lines.join('\n');
});

const deleteToken = fc.nat().map((k): Mutation => (text) => {
  const m = nthMatch(text, TOKEN, k);
  return m ? text.slice(0, m.index!) + text.slice(m.index! + m[0].length) : text;
});

const mutation = fc.oneof(
  renameValue,
  renameValue,
  renameSymbol,
  renumber,
  renumber,
  renameOp,
  renameOp,
  swapLines,
  repeatLine,
  dropLine,
  deleteToken,
  deleteToken,
);

const mutatedProgram = fc
  .tuple(fc.nat(shippedTexts.length - 1), fc.array(mutation, { minLength: 1, maxLength: 6 }))
  .map(([file, mutations]) => mutations.reduce((text, mutate) => mutate(text), shippedTexts[file]));

describe('mutated programs: the same AST and diagnostics, built from the record or matched', () => {
  test('renamed values, symbols and ops, changed numbers, swapped, repeated and dropped lines, deleted tokens', () => {
    fc.assert(
      fc.property(mutatedProgram, (text) => {
        expectSameParse(text);
      }),
      { numRuns: RUNS },
    );
  });

  test('the mutations reach the error paths: many mutated programs have diagnostics', () => {
    const samples = fc.sample(mutatedProgram, { numRuns: 60, seed: 7 });
    const withErrors = samples.filter((text) => parseWith(text, false).diags.length > 0);
    expect(withErrors.length).toBeGreaterThan(10);
    expect(withErrors.length).toBeLessThan(samples.length);
  });
});

// ---- the PTOAS corpus ------------------------------------------------------------------------------

const upstream = process.env.PTO_UPSTREAM_DIR;

if (!upstream) {
  test.skip('PTO_UPSTREAM_DIR is not set: export tonibohnlein/PTOAS (e32488c9) and point PTO_UPSTREAM_DIR at it to compare on its corpus', () => undefined);
} else {
  describe('the PTOAS corpus', () => {
    const files = [...corpusFiles(upstream, 'test/samples', (f) => f.endsWith('.pto')), ...corpusFiles(upstream, 'test/lit/pto', (f) => f.endsWith('.pto'))];

    test('every .pto of test/samples and test/lit/pto, with one cache for all (as one run of pto-as over them)', () => {
      expect(files.length).toBeGreaterThan(1400);
      const cache = new ShapeCache();
      let built = 0;
      for (const file of files) built += expectSameParse(fs.readFileSync(path.join(upstream, file), 'utf8'), cache);
      expect(built).toBeGreaterThan(80_000);
    }, 600_000);
  });
}
