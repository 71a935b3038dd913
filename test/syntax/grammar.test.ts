/**
 * The PTO-AS grammar through `parseModule` (scanner + per-statement Ohm): what it accepts, the AST
 * it builds, and the located errors for what it rejects.
 */
import { DiagnosticBag, formatAll } from '../../src/diag/diagnostic';
import { assemble } from '../../src/verify/assemble';
import { SourceFile } from '../../src/diag/source';
import { parseModule } from '../../src/syntax/parse';
import { opRegistry } from '../../src/ops/registry';
import { Attr, Module, OpNode, Region, segment } from '../../src/syntax/ast';

interface Parsed {
  module: Module;
  diags: DiagnosticBag;
  source: SourceFile;
}

function parse(text: string): Parsed {
  const source = new SourceFile('t.pto', text);
  const diags = new DiagnosticBag(source);
  let module: Module | undefined;
  expect(() => {
    module = parseModule(source, diags, opRegistry());
  }).not.toThrow();
  return { module: module!, diags, source };
}

/** `LINE:COL severity: message` for every diagnostic, in source order. */
function located(p: Parsed): string[] {
  return p.diags.sorted().map((d) => {
    const { line, col } = p.source.position(d.span.start);
    return `${line}:${col} ${d.severity}: ${d.message}`;
  });
}

/** Parses text that must produce no diagnostics at all. */
function ok(text: string): Module {
  const p = parse(text);
  expect(located(p)).toEqual([]);
  return p.module;
}

function allOps(ops: OpNode[]): OpNode[] {
  const out: OpNode[] = [];
  const visit = (op: OpNode) => {
    out.push(op);
    for (const r of op.regions) for (const b of r.blocks) b.ops.forEach(visit);
  };
  ops.forEach(visit);
  return out;
}

/** The one op called `name` anywhere in the module. */
function only(m: Module, name: string): OpNode {
  const found = allOps(m.ops).filter((o) => o.name === name);
  expect(found).toHaveLength(1);
  return found[0];
}

/** Operand names of a segment, `%x#1` for result uses, numbers for literals. */
function uses(op: OpNode, seg: string): (string | number)[] {
  return segment(op, seg).map((o) =>
    o.literal !== undefined ? o.literal : o.value!.index !== undefined ? `${o.value!.name}#${o.value!.index}` : o.value!.name,
  );
}

function typesOf(op: OpNode, seg: string): (string | undefined)[] {
  return segment(op, seg).map((o) => o.type?.text);
}

function opNames(region: Region, block = 0): string[] {
  return region.blocks[block].ops.map((o) => o.name);
}

function resultNames(op: OpNode): string[] {
  return op.results.map((r) => (r.count > 1 ? `${r.name}:${r.count}` : r.name));
}

/** A function body around `body`; the function takes `%a, %b : index` and `%p : !pto.ptr<f32>`. */
function inFunc(body: string): string {
  return `func.func @f(%a: index, %b: index, %p: !pto.ptr<f32>) {\n${body}\n  return\n}\n`;
}

/** The ops of the body written by inFunc, without the final return. */
function bodyOps(text: string): OpNode[] {
  const m = ok(inFunc(text));
  const ops = m.ops[0].regions[0].blocks[0].ops;
  expect(ops.at(-1)!.name).toBe('func.return');
  return ops.slice(0, -1);
}

function attrValue(op: OpNode, key: string): Attr | undefined {
  return op.attrs.find((a) => a.key === key)?.value;
}

const TB16 = '!pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=16, v_row=16, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>';
const TB1 = '!pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=16, v_row=1, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>';
const TV16 = '!pto.tile<loc=vec, f32, 16, 16, RowMajor, NoneBox, None, Zero>';
const TV1 = '!pto.tile<loc=vec, f32, 1, 16, RowMajor, NoneBox, None, Zero>';

// ---- MLIR structure -------------------------------------------------------------------------------

describe('MLIR structure', () => {
  test('module without attributes', () => {
    const m = ok('module {\n}\n');
    expect(m.ops).toHaveLength(1);
    const mod = m.ops[0];
    expect(mod.name).toBe('module');
    expect(mod.form).toBe('custom');
    expect(mod.attrs).toEqual([]);
    expect(mod.symbol).toBeUndefined();
    expect(mod.regions).toHaveLength(1);
    expect(mod.regions[0].blocks).toHaveLength(1);
    expect(mod.regions[0].blocks[0].ops).toEqual([]);
  });

  test('module with a symbol and attributes', () => {
    const m = ok('module @m attributes {pto.target_arch = "a5", pto.flag, n = 3 : i32} {\n  func.func @f() {\n    return\n  }\n}\n');
    const mod = m.ops[0];
    expect(mod.symbol).toBe('m');
    expect(mod.attrs.map((a) => a.key)).toEqual(['pto.target_arch', 'pto.flag', 'n']);
    expect(attrValue(mod, 'pto.target_arch')).toMatchObject({ kind: 'string', value: 'a5' });
    expect(attrValue(mod, 'pto.flag')).toMatchObject({ kind: 'unit' });
    expect(attrValue(mod, 'n')).toMatchObject({ kind: 'int', value: 3n, type: { text: 'i32' } });
    expect(opNames(mod.regions[0])).toEqual(['func.func']);
  });

  test('a file of functions without a module', () => {
    const m = ok('func.func @a() {\n  return\n}\nfunc.func @b() {\n  return\n}\n');
    expect(m.ops.map((o) => [o.name, o.symbol])).toEqual([
      ['func.func', 'a'],
      ['func.func', 'b'],
    ]);
  });

  test('func.func with arguments over several lines and comments between them', () => {
    const m = ok(
      [
        'module {',
        '  func.func @kernel(',
        '      // the input matrix',
        '      %arg0: !pto.ptr<f32>,',
        '      // the output row',
        '      %arg1: !pto.ptr<f32>, // trailing comment',
        '      %n: i32',
        '      // last comment before the parenthesis',
        '  ) {',
        '    return',
        '  }',
        '}',
        '',
      ].join('\n'),
    );
    const fn = m.ops[0].regions[0].blocks[0].ops[0];
    expect(fn.name).toBe('func.func');
    expect(fn.symbol).toBe('kernel');
    const args = fn.regions[0].blocks[0].args;
    expect(args.map((a) => [a.name, a.type?.text])).toEqual([
      ['%arg0', '!pto.ptr<f32>'],
      ['%arg1', '!pto.ptr<f32>'],
      ['%n', 'i32'],
    ]);
    expect(opNames(fn.regions[0])).toEqual(['func.return']);
  });

  test('func.func with results; return with values', () => {
    const m = ok('func.func @f(%a: index) -> (index, i32) {\n  %c = arith.constant 1 : i32\n  return %a, %c : index, i32\n}\n');
    const fn = m.ops[0];
    expect(fn.resultTypes.map((t) => t.text)).toEqual(['index', 'i32']);
    const ret = only(m, 'func.return');
    expect(uses(ret, 'values')).toEqual(['%a', '%c']);
    expect(typesOf(ret, 'values')).toEqual(['index', 'i32']);
    expect(ret.results).toEqual([]);
  });

  test('`func.return` is the same op as `return`', () => {
    const m = ok('func.func @f() {\n  func.return\n}\n');
    expect(only(m, 'func.return').operands).toEqual([]);
  });

  test('a function declaration has no body', () => {
    const m = ok('func.func private @ext(%a: index) -> index\nfunc.func @f() {\n  return\n}\n');
    expect(m.ops.map((o) => o.name)).toEqual(['func.func', 'func.func']);
    expect(m.ops[0].symbol).toBe('ext');
    expect(m.ops[0].regions).toEqual([]);
    expect(m.ops[0].resultTypes.map((t) => t.text)).toEqual(['index']);
  });

  test('trailing loc(...) is accepted and ignored', () => {
    const [c] = bodyOps('  %c = arith.constant 0 : index loc("kernel.py":12:3)');
    expect(c.name).toBe('arith.constant');
    expect(resultNames(c)).toEqual(['%c']);
  });

  test('CRLF line endings', () => {
    const m = ok(inFunc('  %x = arith.addi %a, %b : index // sum\n  %y = arith.muli %x, %b : index').replace(/\n/g, '\r\n'));
    expect(m.ops[0].regions[0].blocks[0].ops.map((o) => o.name)).toEqual(['arith.addi', 'arith.muli', 'func.return']);
  });

  test('a UTF-8 byte order mark at the start of the file is ignored', () => {
    // Editors on Windows write one; Node's readFileSync(..., 'utf8') keeps it as U+FEFF.
    const m = ok('\uFEFF// kernel\nfunc.func @f() {\n  return\n}\n');
    expect(m.ops.map((o) => o.name)).toEqual(['func.func']);
  });

  test('several statements on one line', () => {
    const ops = bodyOps('  %x = arith.constant 0 : index %y = arith.constant 1 : index');
    expect(ops.map(resultNames)).toEqual([['%x'], ['%y']]);
  });
});

// ---- arith ------------------------------------------------------------------------------------------

describe('arith', () => {
  test('arith.constant: integer, negative, hex, float, bool', () => {
    const ops = bodyOps(
      [
        '  %c0 = arith.constant 0 : index',
        '  %m = arith.constant -7 : i32',
        '  %h = arith.constant 0x10 : i64',
        '  %f = arith.constant 2.500000e+00 : f32',
        '  %t = arith.constant true',
      ].join('\n'),
    );
    expect(ops.map((o) => o.name)).toEqual(Array(5).fill('arith.constant'));
    expect(ops.map(resultNames)).toEqual([['%c0'], ['%m'], ['%h'], ['%f'], ['%t']]);
    expect(ops.map((o) => o.resultTypes.map((t) => t.text))).toEqual([['index'], ['i32'], ['i64'], ['f32'], ['i1']]);
    expect(attrValue(ops[0], 'value')).toMatchObject({ kind: 'int', value: 0n });
    expect(attrValue(ops[1], 'value')).toMatchObject({ kind: 'int', value: -7n });
    expect(attrValue(ops[2], 'value')).toMatchObject({ kind: 'int', value: 16n });
    expect(attrValue(ops[3], 'value')).toMatchObject({ kind: 'float', value: 2.5, text: '2.500000e+00' });
    expect(attrValue(ops[4], 'value')).toMatchObject({ kind: 'bool', value: true });
  });

  test('arith.constant dense<...>: a list of elements or one for all, with the vector type as the result type', () => {
    const [list, splat] = bodyOps(
      ['  %v = arith.constant dense<[128, 64, 0, 0]> : vector<4xi16>', '  %z = arith.constant dense<0> : vector<4xi16>'].join('\n'),
    );
    expect([list, splat].map((o) => o.resultTypes.map((t) => t.text))).toEqual([['vector<4xi16>'], ['vector<4xi16>']]);
    const items = (attr: Attr | undefined) =>
      attr?.kind === 'dense' && attr.elements.kind === 'array' ? attr.elements.items.map((i) => (i.kind === 'int' ? i.value : i.kind)) : attr?.kind;
    expect(items(attrValue(list, 'value'))).toEqual([128n, 64n, 0n, 0n]);
    expect(attrValue(splat, 'value')).toMatchObject({ kind: 'dense', elements: { kind: 'int', value: 0n } });
  });

  test('arith.index_cast', () => {
    const [cast] = bodyOps('  %n = arith.constant 4 : i32\n  %i = arith.index_cast %n : i32 to index').slice(1);
    expect(cast.name).toBe('arith.index_cast');
    expect(uses(cast, 'operands')).toEqual(['%n']);
    expect(typesOf(cast, 'operands')).toEqual(['i32']);
    expect(cast.resultTypes.map((t) => t.text)).toEqual(['index']);
  });

  test.each(['arith.addi', 'arith.subi', 'arith.muli', 'arith.divsi', 'arith.remsi'])('%s', (name) => {
    const [op] = bodyOps(`  %r = ${name} %a, %b : index`);
    expect(op.name).toBe(name);
    expect(op.form).toBe('custom');
    expect(resultNames(op)).toEqual(['%r']);
    expect(uses(op, 'operands')).toEqual(['%a', '%b']);
    expect(typesOf(op, 'operands')).toEqual(['index', 'index']);
    expect(op.resultTypes.map((t) => t.text)).toEqual(['index']);
  });

  test('arith.cmpi keeps its predicate as an attribute and produces i1', () => {
    const [cmp] = bodyOps('  %lt = arith.cmpi slt, %a, %b : index');
    expect(cmp.name).toBe('arith.cmpi');
    expect(uses(cmp, 'operands')).toEqual(['%a', '%b']);
    expect(attrValue(cmp, 'predicate')).toMatchObject({ kind: 'ident', name: 'slt' });
    expect(cmp.resultTypes.map((t) => t.text)).toEqual(['i1']);
  });

  test('arith.select: condition, true value, false value', () => {
    const [, sel] = bodyOps('  %lt = arith.cmpi slt, %a, %b : index\n  %m = arith.select %lt, %a, %b : index');
    expect(sel.name).toBe('arith.select');
    expect(uses(sel, 'operands')).toEqual(['%lt', '%a', '%b']);
    expect(typesOf(sel, 'operands')).toEqual(['i1', 'index', 'index']);
    expect(sel.resultTypes.map((t) => t.text)).toEqual(['index']);
  });
});

// ---- scf ---------------------------------------------------------------------------------------------

describe('scf', () => {
  test('scf.for without iter_args', () => {
    const [loop] = bodyOps('  scf.for %i = %a to %b step %a {\n    %x = arith.addi %i, %i : index\n  }');
    expect(loop.name).toBe('scf.for');
    expect(loop.results).toEqual([]);
    expect(uses(loop, 'lb')).toEqual(['%a']);
    expect(uses(loop, 'ub')).toEqual(['%b']);
    expect(uses(loop, 'step')).toEqual(['%a']);
    expect(uses(loop, 'init')).toEqual([]);
    expect(loop.resultTypes).toEqual([]);
    expect(loop.regions).toHaveLength(1);
    expect(loop.regions[0].blocks[0].args.map((a) => a.name)).toEqual(['%i']);
    expect(opNames(loop.regions[0])).toEqual(['arith.addi']);
  });

  test('scf.for with iter_args and results', () => {
    const [loop] = bodyOps(
      [
        '  %sum:2 = scf.for %i = %a to %b step %a iter_args(%acc = %a, %n = %b) -> (index, index) {',
        '    %acc2 = arith.addi %acc, %i : index',
        '    scf.yield %acc2, %n : index, index',
        '  }',
      ].join('\n'),
    );
    expect(resultNames(loop)).toEqual(['%sum:2']);
    expect(uses(loop, 'init')).toEqual(['%a', '%b']);
    expect(typesOf(loop, 'init')).toEqual(['index', 'index']);
    expect(loop.resultTypes.map((t) => t.text)).toEqual(['index', 'index']);
    expect(loop.regions[0].blocks[0].args.map((a) => [a.name, a.type?.text])).toEqual([
      ['%i', undefined],
      ['%acc', 'index'],
      ['%n', 'index'],
    ]);
    const y = loop.regions[0].blocks[0].ops[1];
    expect(y.name).toBe('scf.yield');
    expect(uses(y, 'values')).toEqual(['%acc2', '%n']);
  });

  test('scf.for with an integer induction type and a trailing attribute dictionary', () => {
    const [, , loop] = bodyOps(
      '  %lo = arith.constant 0 : i32\n  %hi = arith.constant 8 : i32\n  scf.for %i = %lo to %hi step %lo : i32 {\n  } {pto.unroll = 2 : i32}',
    );
    expect(typesOf(loop, 'lb')).toEqual(['i32']);
    expect(loop.regions[0].blocks[0].args[0].type?.text).toBe('i32');
    expect(attrValue(loop, 'pto.unroll')).toMatchObject({ kind: 'int', value: 2n });
  });

  test('scf.if with results and else', () => {
    const [, iff] = bodyOps(
      [
        '  %c = arith.cmpi eq, %a, %b : index',
        '  %r = scf.if %c -> (index) {',
        '    scf.yield %a : index',
        '  } else {',
        '    %s = arith.addi %a, %b : index',
        '    scf.yield %s : index',
        '  }',
      ].join('\n'),
    );
    expect(iff.name).toBe('scf.if');
    expect(resultNames(iff)).toEqual(['%r']);
    expect(uses(iff, 'condition')).toEqual(['%c']);
    expect(iff.resultTypes.map((t) => t.text)).toEqual(['index']);
    expect(iff.regions).toHaveLength(2);
    expect(opNames(iff.regions[0])).toEqual(['scf.yield']);
    expect(opNames(iff.regions[1])).toEqual(['arith.addi', 'scf.yield']);
  });

  test('scf.if without else; `else` on its own line', () => {
    const [, if1, if2] = bodyOps('  %c = arith.cmpi eq, %a, %b : index\n  scf.if %c {\n  }\n  scf.if %c {\n  }\n  else {\n  }');
    expect(if1.regions).toHaveLength(1);
    expect(if2.regions).toHaveLength(2);
  });

  test('scf.while with scf.condition and a ^bb0 label', () => {
    const [, loop] = bodyOps(
      [
        '  %t = arith.constant true',
        '  %r:2 = scf.while (%i = %a, %go = %t)',
        '      : (index, i1) -> (index, i1) {',
        '    %lt = arith.cmpi slt, %i, %b : index',
        '    scf.condition(%lt) %i, %go : index, i1',
        '  } do {',
        '  ^bb0(%i2: index, %go2: i1):',
        '    %next = arith.addi %i2, %a : index',
        '    scf.yield %next, %go2 : index, i1',
        '  }',
      ].join('\n'),
    );
    expect(loop.name).toBe('scf.while');
    expect(resultNames(loop)).toEqual(['%r:2']);
    expect(uses(loop, 'init')).toEqual(['%a', '%t']);
    expect(typesOf(loop, 'init')).toEqual(['index', 'i1']);
    expect(loop.resultTypes.map((t) => t.text)).toEqual(['index', 'i1']);
    const [before, after] = loop.regions;
    expect(before.blocks).toHaveLength(1);
    expect(before.blocks[0].args.map((a) => [a.name, a.type?.text])).toEqual([
      ['%i', 'index'],
      ['%go', 'i1'],
    ]);
    expect(opNames(before)).toEqual(['arith.cmpi', 'scf.condition']);
    const cond = before.blocks[0].ops[1];
    expect(uses(cond, 'condition')).toEqual(['%lt']);
    expect(uses(cond, 'values')).toEqual(['%i', '%go']);
    expect(after.blocks).toHaveLength(1);
    expect(after.blocks[0].label).toBe('^bb0');
    expect(after.blocks[0].args.map((a) => [a.name, a.type?.text])).toEqual([
      ['%i2', 'index'],
      ['%go2', 'i1'],
    ]);
    expect(opNames(after)).toEqual(['arith.addi', 'scf.yield']);
  });

  test('nested regions keep their ops in the right blocks', () => {
    const [loop] = bodyOps(
      '  scf.for %i = %a to %b step %a {\n    scf.for %j = %a to %b step %a {\n      %x = arith.addi %i, %j : index\n    }\n    %y = arith.addi %i, %i : index\n  }',
    );
    expect(opNames(loop.regions[0])).toEqual(['scf.for', 'arith.addi']);
    expect(opNames(loop.regions[0].blocks[0].ops[0].regions[0])).toEqual(['arith.addi']);
  });
});

// ---- pto views, allocation, sections ---------------------------------------------------------------

describe('pto structure ops', () => {
  test('pto.section.vector and pto.section.cube hold regions', () => {
    const [vec, cube] = bodyOps('  pto.section.vector {\n    %x = arith.addi %a, %b : index\n  }\n  pto.section.cube {\n  }');
    expect(vec.name).toBe('pto.section.vector');
    expect(opNames(vec.regions[0])).toEqual(['arith.addi']);
    expect(cube.name).toBe('pto.section.cube');
    expect(cube.regions[0].blocks[0].ops).toEqual([]);
  });

  test('pto.make_tensor_view with the comma before strides', () => {
    const [v] = bodyOps('  %v = pto.make_tensor_view %p, shape = [%a, %b], strides = [%b, %a] : !pto.tensor_view<?x?xf32>');
    expect(v.name).toBe('pto.make_tensor_view');
    expect(uses(v, 'source')).toEqual(['%p']);
    expect(uses(v, 'shape')).toEqual(['%a', '%b']);
    expect(uses(v, 'strides')).toEqual(['%b', '%a']);
    expect(v.resultTypes.map((t) => t.text)).toEqual(['!pto.tensor_view<?x?xf32>']);
    expect(v.legacy).toBeUndefined();
  });

  test('pto.make_tensor_view without the comma is accepted with a legacy note on `strides`', () => {
    const text = inFunc('  %v = pto.make_tensor_view %p, shape = [%a, %b] strides = [%b, %a] : !pto.tensor_view<?x?xf32>');
    const p = parse(text);
    expect(located(p)).toEqual([]); // the parser records it; the verifier reports it as a warning
    const v = only(p.module, 'pto.make_tensor_view');
    expect(uses(v, 'strides')).toEqual(['%b', '%a']);
    expect(v.legacy).toHaveLength(1);
    expect(v.legacy![0].message).toMatch(/missing ',' before 'strides'/);
    expect(text.slice(v.legacy![0].span.start, v.legacy![0].span.end)).toBe('strides');
  });

  test('pto.partition_view with value and literal offsets and sizes', () => {
    const [pv] = bodyOps(
      '  %pv = pto.partition_view %v, offsets = [%a, 0], sizes = [16, %b] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<16x16xf32>',
    );
    expect(pv.name).toBe('pto.partition_view');
    expect(uses(pv, 'source')).toEqual(['%v']);
    expect(typesOf(pv, 'source')).toEqual(['!pto.tensor_view<?x?xf32>']);
    expect(uses(pv, 'offsets')).toEqual(['%a', 0]);
    expect(uses(pv, 'sizes')).toEqual([16, '%b']);
    expect(pv.resultTypes.map((t) => t.text)).toEqual(['!pto.partition_tensor_view<16x16xf32>']);
    expect(pv.legacy).toBeUndefined();
  });

  test('pto.subview is the old name of pto.partition_view', () => {
    const [pv] = bodyOps('  %pv = pto.subview %v, offsets = [0, 0], sizes = [16, 16] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<16x16xf32>');
    expect(pv.name).toBe('pto.partition_view');
    expect(pv.legacy?.[0].message).toMatch(/'pto.subview' is the old name of 'pto.partition_view'/);
  });

  test('pto.alloc_tile with and without valid_row/valid_col/addr', () => {
    const dyn = TB16.replace('v_row=16, v_col=16', 'v_row=?, v_col=?');
    const [plain, valid, addr] = bodyOps(
      [`  %t0 = pto.alloc_tile : ${TB16}`, `  %t1 = pto.alloc_tile valid_row = %a valid_col = %b : ${dyn}`, `  %t2 = pto.alloc_tile addr = %a : ${TB16}`].join(
        '\n',
      ),
    );
    expect(plain.name).toBe('pto.alloc_tile');
    expect(plain.operands).toEqual([]);
    expect(plain.resultTypes.map((t) => t.text)).toEqual([TB16]);
    expect(uses(valid, 'valid_row')).toEqual(['%a']);
    expect(uses(valid, 'valid_col')).toEqual(['%b']);
    expect(valid.resultTypes.map((t) => t.text)).toEqual([dyn]);
    expect(uses(addr, 'addr')).toEqual(['%a']);
    expect(Object.keys(addr.segments)).toEqual(['addr']);
  });
});

// ---- Level 2: destination-passing style ---------------------------------------------------------------

describe('Level 2 (ins/outs)', () => {
  test('grouped and per-operand lists build the same operands', () => {
    const [grouped, perOperand] = bodyOps(
      [`  pto.tadd ins(%x, %y : ${TB16}, ${TB16}) outs(%z : ${TB16})`, `  pto.tadd ins(%x : ${TB16}, %y : ${TB16}) outs(%z : ${TB16})`].join('\n'),
    );
    for (const op of [grouped, perOperand]) {
      expect(op.name).toBe('pto.tadd');
      expect(op.form).toBe('dps');
      expect(op.results).toEqual([]);
      expect(uses(op, 'ins')).toEqual(['%x', '%y']);
      expect(typesOf(op, 'ins')).toEqual([TB16, TB16]);
      expect(uses(op, 'outs')).toEqual(['%z']);
      expect(typesOf(op, 'outs')).toEqual([TB16]);
      expect(op.attrs).toEqual([]);
    }
  });

  test('a grouped list with a scalar operand', () => {
    const [op] = bodyOps(`  %s = arith.constant 1.0 : f32\n  pto.tadds ins(%x, %s : ${TB16}, f32) outs(%z : ${TB16})`).slice(1);
    expect(uses(op, 'ins')).toEqual(['%x', '%s']);
    expect(typesOf(op, 'ins')).toEqual([TB16, 'f32']);
  });

  test('an attribute dictionary glued to an operand', () => {
    const [op] = bodyOps(`  pto.tcvt ins(%1{rmode = #pto<round_mode ROUND>} : ${TB16}) outs(%2 : ${TB16})`);
    expect(uses(op, 'ins')).toEqual(['%1']);
    expect(typesOf(op, 'ins')).toEqual([TB16]);
    expect(uses(op, 'outs')).toEqual(['%2']);
    expect(op.attrs.map((a) => a.key)).toEqual(['rmode']);
    expect(attrValue(op, 'rmode')).toMatchObject({ kind: 'dialect', text: '#pto<round_mode ROUND>' });
  });

  test('an attribute dictionary after outs(...)', () => {
    const [op] = bodyOps(`  pto.tmov ins(%x : ${TB16}) outs(%z : ${TB16}) {flag = true, mode = #pto.mode<fast>, n = 2 : i32, names = ["a", "b"]}`);
    expect(op.attrs.map((a) => a.key)).toEqual(['flag', 'mode', 'n', 'names']);
    expect(attrValue(op, 'flag')).toMatchObject({ kind: 'bool', value: true });
    expect(attrValue(op, 'mode')).toMatchObject({ kind: 'dialect', text: '#pto.mode<fast>' });
    expect(attrValue(op, 'n')).toMatchObject({ kind: 'int', value: 2n, type: { text: 'i32' } });
    const names = attrValue(op, 'names');
    expect(names?.kind).toBe('array');
    expect(names?.kind === 'array' && names.items.map((i) => (i.kind === 'string' ? i.value : '?'))).toEqual(['a', 'b']);
  });

  test('ins(...) and outs(...) split over several lines with comments', () => {
    const [op] = bodyOps(`  pto.tcolmin ins(%x // the source\n      : ${TB16})\n      // the destination\n      outs(%z\n      : ${TB1})`);
    expect(uses(op, 'ins')).toEqual(['%x']);
    expect(typesOf(op, 'outs')).toEqual([TB1]);
  });

  test('a tile type split over several lines keeps its text', () => {
    const multi = TB16.replace(', blayout', ',\n          blayout');
    const [op] = bodyOps(`  pto.tcolmin ins(%x : ${multi}) outs(%z : ${TB1})`);
    expect(typesOf(op, 'ins')).toEqual([multi]);
  });
});

// ---- Level 1: SSA ---------------------------------------------------------------------------------------

describe('Level 1 (SSA)', () => {
  test('%d = pto.tcolmin %s : T -> T', () => {
    const [op] = bodyOps(`  %d = pto.tcolmin %s : ${TV16} -> ${TV1}`);
    expect(op.name).toBe('pto.tcolmin');
    expect(op.form).toBe('ssa');
    expect(resultNames(op)).toEqual(['%d']);
    expect(uses(op, 'operands')).toEqual(['%s']);
    expect(typesOf(op, 'operands')).toEqual([TV16]);
    expect(op.resultTypes.map((t) => t.text)).toEqual([TV1]);
  });

  test('(T, T) -> T', () => {
    const [op] = bodyOps(`  %d = pto.tadd %x, %y : (${TV16}, ${TV16}) -> ${TV16}`);
    expect(uses(op, 'operands')).toEqual(['%x', '%y']);
    expect(typesOf(op, 'operands')).toEqual([TV16, TV16]);
    expect(op.resultTypes.map((t) => t.text)).toEqual([TV16]);
  });

  test('(T, V) -> () has no results', () => {
    const [op] = bodyOps(`  pto.tstore %t, %v : (${TV1}, !pto.partition_tensor_view<1x16xf32>) -> ()`);
    expect(op.results).toEqual([]);
    expect(typesOf(op, 'operands')).toEqual([TV1, '!pto.partition_tensor_view<1x16xf32>']);
    expect(op.resultTypes).toEqual([]);
  });

  test('%x:2 = ... defines two results, used as %x#0 and %x#1', () => {
    const [pair, sum] = bodyOps(`  %x:2 = pto.tpair %a : index -> (index, index)\n  %s = arith.addi %x#0, %x#1 : index`);
    expect(pair.results).toMatchObject([{ name: '%x', count: 2 }]);
    expect(pair.resultTypes.map((t) => t.text)).toEqual(['index', 'index']);
    expect(sum.operands.map((o) => [o.value!.name, o.value!.index])).toEqual([
      ['%x', 0],
      ['%x', 1],
    ]);
  });

  test('a result list `%a, %b = ...`', () => {
    const [op] = bodyOps('  %lo, %hi = pto.tpair %a : index -> (index, index)');
    expect(resultNames(op)).toEqual(['%lo', '%hi']);
  });

  test('a generic op with a single type for operands and result', () => {
    const [op] = bodyOps('  %m = pto.tmax %a, %b : index');
    expect(op.form).toBe('ssa');
    expect(typesOf(op, 'operands')).toEqual(['index', 'index']);
    expect(op.resultTypes.map((t) => t.text)).toEqual(['index']);
  });

  test('value names: numbers, words with $ . - and _', () => {
    const [op] = bodyOps('  %0 = pto.tfoo %a_1, %b.c, %d$e, %f-g, %42 : (index, index, index, index, index) -> index');
    expect(resultNames(op)).toEqual(['%0']);
    expect(uses(op, 'operands')).toEqual(['%a_1', '%b.c', '%d$e', '%f-g', '%42']);
  });
});

// ---- tile types in every accepted spelling ----------------------------------------------------------------

describe('tile type spellings are captured as written', () => {
  test.each([
    ['keyword tile_buf', TB16],
    ['keyword tile_buf with dynamic valid', TB16.replace('v_row=16, v_col=16', 'v_row=?, v_col=?')],
    ['positional tile', TV16],
    ['short positional tile', '!pto.tile<f32, 16, 16>'],
    ['shaped tile', '!pto.tile<16x16xf32>'],
    ['legacy loc=ub', TB16.replace('loc=vec', 'loc=ub')],
    ['legacy valid=RxC', '!pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=16, valid=16x16, blayout=row_major, slayout=none_box, fractal=512, pad=0>'],
  ])('%s', (_what, type) => {
    const [op] = bodyOps(`  %d = pto.tfoo %s : ${type} -> ${type}`);
    expect(typesOf(op, 'operands')).toEqual([type]);
    expect(op.resultTypes.map((t) => t.text)).toEqual([type]);
  });

  test('the span of an interned type covers exactly its text', () => {
    const text = inFunc(`  pto.tcolmin ins(%x : ${TB16}) outs(%z : ${TB1})`);
    const op = only(ok(text), 'pto.tcolmin');
    for (const o of op.operands) expect(text.slice(o.type!.span.start, o.type!.span.end)).toBe(o.type!.text);
    expect(text.slice(op.nameSpan.start, op.nameSpan.end)).toBe('pto.tcolmin');
    expect(text.slice(op.span.start, op.span.end)).toBe(`pto.tcolmin ins(%x : ${TB16}) outs(%z : ${TB1})`);
  });
});

// ---- rejections ----------------------------------------------------------------------------------------------

describe('rejected input: located errors, no exceptions', () => {
  test.each<[string, string, string[]]>([
    ['missing operand after a comma', inFunc('  %x = arith.addi %a, : index'), [`2:23 error: syntax error: unexpected ':'; expected an SSA value like %x`]],
    ['missing comma between operands', inFunc('  %x = arith.addi %a %b : index'), ["2:22 error: syntax error: unexpected '%'"]],
    ['scf.for without `to`', inFunc('  scf.for %i = %a %b step %a {\n  }'), [`2:19 error: syntax error: unexpected '%'; expected "to"`]],
    [
      'an unclosed region at the end of the file',
      'module {\n  func.func @f() {\n    return\n  }\n',
      ["1:8 error: unclosed '{': no matching '}' before the end of the file"],
    ],
    ['a stray closing brace', 'func.func @f() {\n  return\n}\n}\n', ["4:1 error: unexpected '}' with no open region"]],
    ['a block label at the top level', '^bb0:\nfunc.func @f() {\n  return\n}\n', ['1:1 error: block label outside a region body']],
    ['a statement that is not an op', inFunc('  @@@'), ["2:3 error: syntax error: unexpected '@'"]],
    [
      'errors in two statements are both reported',
      inFunc('  %x = arith.addi %a, : index\n  %y = arith.muli %a %b : index\n  %z = arith.subi %a, %b : index'),
      ['2:23 error: syntax error:', '3:22 error: syntax error:'],
    ],
    [
      'an unbalanced parenthesis stops at the next line that starts an op',
      inFunc('  %x = arith.addi (%a, %b : index\n  %y = arith.addi %a, %b : index'),
      ["2:19 error: syntax error: unexpected '('"],
    ],
    ['more values than types in a grouped ins list', inFunc(`  pto.tadd ins(%x, %y : ${TB16}) outs(%z : ${TB16})`), ['2:20 error: 2 value(s) but 1 type(s)']],
    [
      'more iter_args than result types',
      inFunc('  %r = scf.for %i = %a to %b step %a iter_args(%s = %a, %t = %b) -> (index) {\n    scf.yield %s : index\n  }'),
      ['2:38 error: 2 iter_args but 1 result type(s)'],
    ],
    ['valid_row given twice', inFunc(`  %t = pto.alloc_tile valid_row = %a valid_row = %b : ${TB16}`), ["2:50 error: 'valid_row' is given twice"]],
    [
      'an SSA signature with fewer types than operands',
      inFunc(`  %d = pto.tadd %x, %y : (${TV16}) -> ${TV16}`),
      ['2:21 error: 2 operand(s) but 1 type(s) in the signature'],
    ],
    [
      'make_tensor_view without shape =',
      inFunc('  %v = pto.make_tensor_view %p, [%a, %b], strides = [%b, %a] : !pto.tensor_view<?x?xf32>'),
      ['2:33 error: syntax error: unexpected \'[\'; expected "shape"'],
    ],
    ['a result list without an op', inFunc('  %x =\n  %y = arith.addi %a, %b : index'), ['2:7 error: syntax error: unexpected end of statement']],
    [
      // One mistake, one error: the `} {` after the quote must not be lost (today a cascade
      // "unexpected '}' with no open region" follows at 5:1).
      'an unterminated string',
      'module attributes {pto.target_arch = "a5} {\n  func.func @f() {\n    return\n  }\n}\n',
      ['1:'],
    ],
    ['a type with an unclosed <', inFunc('  %t = pto.alloc_tile : !pto.tile_buf<loc=vec, dtype=f32\n  %u = arith.addi %a, %b : index'), ['2:']],
  ])('%s', (_what, text, expected) => {
    const p = parse(text);
    const got = located(p);
    expect(got).toHaveLength(expected.length);
    got.forEach((line, i) => expect(line.startsWith(expected[i])).toBe(true));
    // A diagnostic is a located error, never an exception, and its span lies in the file.
    for (const d of p.diags.items) {
      expect(d.severity).toBe('error');
      expect(d.span.start).toBeGreaterThanOrEqual(0);
      expect(d.span.end).toBeLessThanOrEqual(text.length);
    }
  });

  test('the expected-list of a syntax error names what is missing, not the letters it may start with', () => {
    const noOp = located(parse(inFunc('  %x =\n  %y = arith.addi %a, %b : index')))[0];
    expect(noOp).toMatch(/expected .*op name/);
    expect(noOp).not.toMatch(/"pto\.section\.cube"/);
    const noSymbol = located(parse('func.func @ () {\n  return\n}\n'))[0];
    expect(noSymbol).toMatch(/^1:1[12] error: syntax error: .*expected .*symbol/);
  });

  test("identifiers and whitespace are MLIR's: ASCII letters; space, tab, newline and carriage return", () => {
    // MLIR's lexer takes a name's letters by isalpha (ASCII) and no other control character as whitespace.
    expect(located(parse(inFunc('  %é = arith.addi %a, %b : index')))).toEqual([`2:3 error: syntax error: unexpected '%'; expected an op name`]);
    expect(located(parse(inFunc('  %x = arith.addi %a, %bé : index')))[0]).toMatch(/^2:25 error: syntax error: unexpected 'é' \(U\+00E9\)/);
    expect(located(parse(inFunc('  %x = arith.addi\v%a, %b : index')))).toEqual([
      '2:18 error: syntax error: unexpected character U+000B; expected an SSA value like %x',
    ]);
    expect(located(parse(inFunc('  %x = arith.addi\f%a, %b : index')))[0]).toMatch(/^2:18 error: syntax error: unexpected character U\+000C/);
    expect(located(parse(inFunc('  %x = arith.addi\t%a,\r\n    %b : index')))).toEqual([]);
  });

  test('a syntax error does not hide the next function', () => {
    const p = parse('func.func @f() {\n  %x = arith.addi : index\n  return\n}\nfunc.func @g() {\n  return\n}\n');
    expect(located(p)).toHaveLength(1);
    expect(p.module.ops.map((o) => o.symbol)).toEqual(['f', 'g']);
    // The broken statement stays, as an op that did not parse, so that its result %x stays defined.
    expect(opNames(p.module.ops[0].regions[0])).toEqual(['arith.addi', 'func.return']);
    const broken = p.module.ops[0].regions[0].blocks[0].ops[0];
    expect([broken.unparsed, broken.results.map((r) => r.name), broken.operands]).toEqual([true, ['%x'], []]);
  });

  test('an error in an op header still reports the errors inside its region', () => {
    // The for header is broken (`%b %a`); the broken statement inside its body is also reported.
    const p = parse(inFunc('  scf.for %i = %a to %b %a {\n    %x = arith.addi %a, : index\n  }'));
    expect(located(p).map((l) => l.split(' ')[0])).toEqual(['2:25', '3:25']);
  });
});

describe('type aliases', () => {
  const TB = '!pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=16, v_row=16, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>';
  const ROW = '!pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=16, v_row=1, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>';

  test('`!name = type` at the top level stands for the type wherever it is used', () => {
    const text = `!tb = ${TB}\n!row = !r2\n!r2 = ${ROW}\nmodule {\n  func.func @k() {\n    %s = pto.alloc_tile : !tb\n    %d = pto.alloc_tile : !row\n    pto.tcolmin ins(%s : !tb) outs(%d : !row)\n    return\n  }\n}\n`;
    const r = assemble('alias.pto', text);
    expect(formatAll(r.diags)).toBe('');
    expect(r.module.aliases.map((a) => [a.alias, a.text])).toEqual([
      ['!tb', TB],
      ['!row', '!r2'],
      ['!r2', ROW],
    ]);
    expect(r.program.instructions.size).toBe(1);
  });

  test('a cycle of aliases is an error at the definitions (each alias is read where it is defined), not again at a use', () => {
    const text = `!a = !b\n!b = !a\nmodule {\n  func.func @k() {\n    %x = pto.alloc_tile : !a\n    return\n  }\n}\n`;
    const r = assemble('cycle.pto', text);
    expect(r.diags.items.map((d) => `${r.source.position(d.span.start).line}:${r.source.position(d.span.start).col} ${d.message}`)).toEqual([
      '1:6 type alias !a refers to itself',
      '2:6 type alias !b refers to itself',
    ]);
  });
});

describe("forms of MLIR's printer that PTOAS output carries", () => {
  const inFunction = (body: string, extra = '') => `module {\n${extra}  func.func @f(%p: !pto.ptr<f32>, %o: index) {\n    ${body}\n    return\n  }\n}\n`;

  test('a declaration gives its parameter types alone; a definition must name them', () => {
    const decl = ok('module {\n  func.func private @consume(index, f32)\n}\n');
    const params = decl.ops[0].regions[0].blocks[0].ops[0].params!;
    expect(params.map((p) => [p.name, p.type?.text])).toEqual([
      ['', 'index'],
      ['', 'f32'],
    ]);
    expect(located(parse('module {\n  func.func @g(index) {\n    return\n  }\n}\n'))).toEqual([
      '2:16 error: syntax error: a function with a body names its parameters (`%arg0: T`)',
    ]);
  });

  test('`call @f(...)` inside a function is func.call (its default dialect)', () => {
    const m = ok(inFunction('call @g(%o) : (index) -> ()', '  func.func private @g(index)\n'));
    const body = m.ops[0].regions[0].blocks[0].ops[1].regions[0].blocks[0].ops;
    expect(body[0].name).toBe('func.call');
  });

  test("a pointer operand's type may drop its `!pto.ptr` as PTOAS prints it: `: <f32> -> <f32>`", () => {
    const m = ok(inFunction('%q = pto.addptr %p, %o : <f32> -> <f32, gm>'));
    const addptr = m.ops[0].regions[0].blocks[0].ops[0].regions[0].blocks[0].ops[0];
    expect(addptr.operands[0].type?.text).toBe('!pto.ptr<f32>');
    expect(addptr.resultTypes.map((t) => t.text)).toEqual(['!pto.ptr<f32, gm>']);
  });

  test('a dimension list may be spaced: `8 x 128 x f32` is `8x128xf32`', () => {
    const spaced = assemble('t.pto', inFunction('%v = pto.make_tensor_view %p, shape = [%o, %o], strides = [%o, %o] : !pto.tensor_view<? x ? x f32>'));
    expect(formatAll(spaced.diags)).toBe('');
  });

  test('an enum attribute may drop its name where the op fixes its kind: `location = <vec>`', () => {
    const attr = (
      parse(inFunction('%b = pto.reserve_buffer {name = "f", size = 256, location = <vec>, auto = true} -> i32')).module.ops[0].regions[0].blocks[0].ops[0]
        .regions[0].blocks[0].ops[0].attrs ?? []
    ).find((a) => a.key === 'location')!.value as Attr;
    expect(attr).toMatchObject({ kind: 'dialect', text: '<vec>' });
  });
});
