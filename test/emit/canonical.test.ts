/**
 * The canonical printer: for every example program and syntax fixture, the canonical text parses
 * without errors, means the same as the original, uses no legacy spelling, and is a fixed point.
 */
import * as fs from 'fs';
import * as path from 'path';
import { assemble } from '../../src/verify/assemble';
import { DiagnosticBag, formatAll } from '../../src/diag/diagnostic';
import { SourceFile } from '../../src/diag/source';
import { printCanonical } from '../../src/emit/canonical';
import { Module, TypeRef } from '../../src/syntax/ast';
import { parseModule } from '../../src/syntax/parse';
import { opRegistry } from '../../src/ops/registry';
import { TypeTable } from '../../src/syntax/type-table';
import { printType } from '../../src/types/type';
import { childEntries, isTypeRef } from '../fixtures/ast-walk';

const root = path.join(__dirname, '..', '..');

function listPto(dir: string): string[] {
  return fs
    .readdirSync(path.join(root, dir))
    .filter((f) => f.endsWith('.pto'))
    .sort()
    .map((f) => path.posix.join(dir, f));
}

const FILES = [...listPto('programs'), ...listPto('test/fixtures/syntax')];

function canonical(file: string, text: string): { text: string; errors: boolean } {
  const a = assemble(file, text);
  return { text: printCanonical(a.module, a.types), errors: a.diags.hasErrors() };
}

function parseOnly(file: string, text: string): { module: Module; diags: DiagnosticBag } {
  const source = new SourceFile(file, text);
  const diags = new DiagnosticBag(source);
  return { module: parseModule(source, diags, opRegistry()), diags };
}

/**
 * The meaning of a module: the AST without positions, with every type in its canonical spelling,
 * and without the record of how it was spelled (legacy notes, one-type signatures).
 */
function meaning({ module, types }: { module: Module; types: TypeTable }): unknown {
  const walk = (x: unknown, key?: string): unknown => {
    if (Array.isArray(x)) return x.map((v) => walk(v));
    if (typeof x === 'bigint') return `${x}n`;
    if (x && typeof x === 'object') {
      const o = x as Record<string, unknown>;
      if (isTypeRef(o) && key !== 'value') {
        const parsed = types.resolve(o as unknown as TypeRef).type;
        return parsed ? printType(parsed) : o.text;
      }
      const out: Record<string, unknown> = {};
      for (const [k, v] of childEntries(o)) {
        if (k === 'legacy' || k === 'signatureSingle' || v === undefined) continue;
        out[k] = walk(v, k);
      }
      return out;
    }
    return x;
  };
  return walk(module);
}

describe.each(FILES)('%s', (file) => {
  const text = fs.readFileSync(path.join(root, file), 'utf8');
  const first = canonical(file, text);

  test('the original parses without errors', () => {
    const { diags } = parseOnly(file, text);
    expect(formatAll(diags)).toBe('');
  });

  test('the canonical text parses without errors or warnings', () => {
    const { diags } = parseOnly(file, first.text);
    expect(formatAll(diags)).toBe('');
    const again = assemble(file, first.text);
    // Verification finds nothing new; and the canonical spelling is never a legacy one. (Attributes an op does not
    // define are the program's own, kept by the printer as MLIR keeps them, and warned about each time.)
    const spellingWarnings = (diags: typeof again.diags) => diags.items.filter((d) => d.severity === 'warning' && d.code !== 'W0411');
    if (!first.errors)
      expect(
        formatAll(again.diags)
          .split('\n')
          .filter((l) => /error\[/.test(l)),
      ).toEqual([]);
    expect(spellingWarnings(again.diags).map((d) => d.message)).toEqual([]);
  });

  test('canonical(canonical(x)) === canonical(x)', () => {
    expect(canonical(file, first.text).text).toBe(first.text);
  });

  test('the canonical text means the same as the original', () => {
    // As verified: the verifier resolves what a spelling means in context (a rank-only view type).
    expect(meaning(assemble(file, first.text))).toEqual(meaning(assemble(file, text)));
  });

  test("the canonical text has no comments, no legacy names and tile types in PTOAS's compact form", () => {
    expect(first.text).not.toMatch(/\/\//);
    expect(first.text).not.toMatch(/pto\.subview|loc=|\]\s+strides/);
    for (const m of first.text.matchAll(/!pto\.tile(?:_buf)?<([^>]*)>/g)) {
      expect(m[1]).toMatch(
        /^\w+, \d+x\d+x[\w!.]+(, valid=(\d+|\?)x(\d+|\?))?(, blayout=col_major)?(, slayout=\w+)?(, fractal=\d+)?(, pad=\d+)?(, compact=\d)?$/,
      );
    }
  });
});

describe('printer details', () => {
  const roundTrip = (body: string) => {
    const text = `func.func @f(%a: index, %b: index, %lo: i32, %hi: i32, %f: f32) {\n${body}\n  return\n}\n`;
    const first = canonical('t.pto', text);
    const { diags, module } = parseOnly('t.pto', first.text);
    expect(formatAll(diags)).toBe('');
    expect(meaning({ module, types: new TypeTable() })).toEqual(meaning({ module: parseOnly('t.pto', text).module, types: new TypeTable() }));
    expect(canonical('t.pto', first.text).text).toBe(first.text);
    return first.text;
  };

  test('scf.for over i32 keeps its induction type', () => {
    expect(roundTrip('  scf.for %i = %lo to %hi step %lo : i32 {\n  }')).toMatch(/step %lo : i32 \{/);
  });

  test('arith.constant keeps its attribute dictionary', () => {
    roundTrip('  %c = arith.constant {pto.keep} 0 : index');
  });

  test('arith.cmpi keeps extra attributes', () => {
    roundTrip('  %c = arith.cmpi slt, %a, %b {pto.hint = 1 : i32} : index');
  });

  test('a DPS trailer operand survives', () => {
    roundTrip('  pto.tsel ins(%a : index) outs(%b : index) mask = %a : index');
  });

  test('a DPS op with a scalar result (outs : T) keeps its result type', () => {
    roundTrip('  %v = pto.tgetval ins(%a : index) outs : f32');
  });

  test('a DPS op with declared result types keeps them', () => {
    roundTrip('  %r = pto.tfoo ins(%a : index) outs(%b : index) -> index');
  });

  test('strings with escapes', () => {
    roundTrip('  pto.tnote ins(%a : index) outs(%b : index) {msg = "tab\\there \\"quoted\\" back\\\\slash"}');
  });

  test('a string with a raw control character is printed so that it reads back the same', () => {
    roundTrip('  pto.tnote ins(%a : index) outs(%b : index) {msg = "bell\u0007 and cr\r"}');
  });

  test('scf.while, scf.if and sections with attribute dictionaries', () => {
    roundTrip(
      [
        '  %t = arith.constant true',
        '  %r = scf.while (%x = %a) : (index) -> (index) {',
        '    scf.condition(%t) %x : index',
        '  } do {',
        '  ^bb0(%y: index):',
        '    scf.yield %y : index',
        '  } {pto.w = 1 : i32}',
        '  scf.if %t {',
        '  } else {',
        '    pto.section.cube {',
        '    } {pto.s}',
        '  } {pto.i = "x"}',
      ].join('\n'),
    );
  });

  test('arith.select with an explicit condition type', () => {
    roundTrip('  %t = arith.constant true\n  %m = arith.select %t, %a, %b : i1, index');
  });

  test('a generic SSA op with attributes, no operands and no types', () => {
    roundTrip(
      '  pto.barrier {pipe = #pto.pipe<PIPE_ALL>}\n  %i = pto.get_block_idx : index\n  %n = pto.tfoo %i {k = [1, 2.5, "s", true, @sym, i32, #pto<x>]} : index',
    );
  });

  test('arith casts and generic arith ops with attributes', () => {
    roundTrip('  %x = arith.index_cast %lo {pto.tag} : i32 to index\n  %y = arith.addi %a, %b {pto.tag} : index\n  %z = arith.negf %f : f32');
  });

  test('a module with a symbol, a declaration and function results', () => {
    const text =
      'module @m {\n  func.func private @ext(%x: index) -> index\n  func.func @g(%x: index) -> (index, index) {\n    return %x, %x : index, index\n  }\n}\n';
    const first = canonical('t.pto', text);
    expect(first.text).toContain('module @m {');
    expect(first.text).toContain('func.func private @ext(%x: index) -> index');
    expect(meaning({ module: parseOnly('t.pto', first.text).module, types: new TypeTable() })).toEqual(
      meaning({ module: parseOnly('t.pto', text).module, types: new TypeTable() }),
    );
    expect(canonical('t.pto', first.text).text).toBe(first.text);
  });
});

test('a written signed integer element type (si8) stays signed in the canonical form, which PTOAS tells from i8', () => {
  const text = [
    'func.func @k() {',
    '  %a = pto.alloc_tile : !pto.tile_buf<loc=vec, dtype=si8, rows=16, cols=32, v_row=16, v_col=32, blayout=row_major, slayout=none_box, fractal=512, pad=0>',
    '  %b = pto.alloc_tile : !pto.tile_buf<vec, 16x32xi8>',
    '  return',
    '}',
  ].join('\n');
  const asm = assemble('t.pto', text, { target: 'a5' });
  expect(formatAll(asm.diags)).toBe('');
  const canonical = printCanonical(asm.module, asm.types);
  expect(canonical).toContain('%a = pto.alloc_tile : !pto.tile_buf<vec, 16x32xsi8>');
  expect(canonical).toContain('%b = pto.alloc_tile : !pto.tile_buf<vec, 16x32xi8>');
});
