/**
 * python/ptoas_shim: PTOAS's sample scripts build a module with PTOAS's MLIR Python bindings and print it; the shim
 * stands in for those bindings. (a) Small scripts, one per API family, print modules that assemble with the expected
 * ops, and a script using what the shim lacks fails naming it. (b) With PTO_UPSTREAM_DIR set, every golden case whose
 * kernel is a script prints a module that assembles, except the cases listed in python-samples-exceptions.json.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { formatAll } from '../../src/diag/diagnostic';
import { kernelFromPython, PythonTarget } from '../../src/board/python-kernel';
import { pythonCommand } from '../../src/board/python-runner';
import { assemble } from '../../src/verify/assemble';
import { isa } from '../../src/spec/isa';
import { opRegistry } from '../../src/ops/registry';
import { shimDirectory } from '../../src/board/python-kernel';

const hasPython = spawnSync(pythonCommand(), ['--version']).status === 0;

const HEADER = `
from ptoas.mlir.ir import Context, Location, Module, InsertionPoint, UnitAttr, Attribute
from ptoas.mlir.ir import F32Type, F16Type, IndexType, IntegerType, IntegerAttr, BoolAttr
from ptoas.mlir.dialects import func, arith, pto, scf

def tile_types(ctx, dtype, rows=16, cols=16, valid=None):
    vec = pto.AddressSpaceAttr.get(pto.AddressSpace.VEC, ctx)
    cfg = pto.TileBufConfigAttr.get(pto.BLayoutAttr.get(pto.BLayout.RowMajor, ctx), pto.SLayoutAttr.get(pto.SLayout.NoneBox, ctx),
                                    pto.TileConfig.fractalABSize, pto.PadValueAttr.get(pto.PadValue.Null, ctx), ctx)
    return (pto.TensorViewType.get(2, dtype, ctx), pto.PartitionTensorViewType.get([rows, cols], dtype, ctx),
            pto.TileBufType.get([rows, cols], dtype, vec, valid or [rows, cols], cfg, ctx))
`;

/** A script: HEADER, then `body` inside `with Context() as ctx, Location.unknown(ctx): m = Module.create()`. */
function script(body: string): string {
  const indented = body
    .trim()
    .split('\n')
    .map((l) => '        ' + l)
    .join('\n');
  return `${HEADER}\ndef build():\n    with Context() as ctx, Location.unknown(ctx):\n        m = Module.create()\n${indented}\n        return m\n\nprint(build())\n`;
}

let dir = '';
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ptoas-shim-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function printed(name: string, body: string, target: PythonTarget = 'a5'): string {
  const file = path.join(dir, `${name}.py`);
  fs.writeFileSync(file, script(body));
  const kernel = kernelFromPython(file, target);
  if ('error' in kernel) throw new Error(kernel.error);
  return kernel.text;
}

function expectAssembles(text: string, target: PythonTarget = 'a5'): void {
  const asm = assemble('printed.pto', text, { target });
  expect(formatAll(asm.diags)).toBe('');
}

const describeWithPython = hasPython ? describe : describe.skip;
if (!hasPython) test.skip(`${pythonCommand()} is not installed: the Python shim tests are skipped`, () => undefined);

describeWithPython('the Python shim prints modules that assemble', () => {
  const loadComputeStore = `
f32 = F32Type.get(ctx)
i8 = IntegerType.get_signless(8, ctx)
ptr = pto.PtrType.get(f32, ctx)
tv, pv, tb = tile_types(ctx, f32)
_, _, mask = tile_types(ctx, i8, 16, 32)
with InsertionPoint(m.body):
    fn = func.FuncOp("kernel", func.FunctionType.get([ptr, ptr, f32], []))
    fn.operation.attributes["pto.entry"] = UnitAttr.get(ctx)
    fn.operation.attributes["pto.kernel_kind"] = Attribute.parse("#pto.kernel_kind<vector>", ctx)
    entry = fn.add_entry_block()
with InsertionPoint(entry):
    src, dst, scale = entry.arguments
    c0 = arith.ConstantOp(IndexType.get(ctx), 0).result
    c1 = arith.ConstantOp(IndexType.get(ctx), 1).result
    c16 = arith.ConstantOp(IndexType.get(ctx), 16).result
    layout = pto.LayoutAttr.get(pto.Layout.ND, ctx)
    src_view = pto.MakeTensorViewOp(tv, src, [c16, c16], [c16, c1], layout=layout).result
    dst_view = pto.MakeTensorViewOp(tv, pto.AddPtrOp(dst, c0).result, [c16, c16], [c16, c1]).result
    part = pto.PartitionViewOp(pv, src_view, offsets=[c0, c0], sizes=[c16, c16]).result
    a, b, c = (pto.AllocTileOp(tb).result for _ in range(3))
    m8 = pto.AllocTileOp(mask).result
    pto.TLoadOp(None, part, a)
    pto.TAddSOp(a, scale, b)
    pto.TMulOp(a, b, c)
    pto.TCmpOp(a, b, m8, cmpMode=pto.CmpModeAttr.get(ctx, pto.CmpMode.LT))
    pto.TStoreOp(None, c, pto.PartitionViewOp(pv, dst_view, offsets=[c0, c0], sizes=[c16, c16]).result)
    func.ReturnOp([])
`;

  it('pto: views, tiles, tload/tstore and DPS tile ops in their own forms, attributes in ins(...)', () => {
    const text = printed('pto_family', loadComputeStore);
    expectAssembles(text);
    expect(text).toContain(
      'func.func @kernel(%arg0: !pto.ptr<f32>, %arg1: !pto.ptr<f32>, %arg2: f32) attributes {pto.entry, pto.kernel_kind = #pto.kernel_kind<vector>} {',
    );
    expect(text).toContain('%3 = pto.make_tensor_view %arg0, shape = [%2, %2], strides = [%2, %1] {layout = #pto.layout<nd>} : !pto.tensor_view<?x?xf32>');
    expect(text).toContain('%4 = pto.addptr %arg1, %0 : !pto.ptr<f32> -> !pto.ptr<f32>');
    expect(text).toContain(
      '%6 = pto.partition_view %3, offsets = [%0, %0], sizes = [%2, %2] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<16x16xf32>',
    );
    const tile = '!pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=16, v_row=16, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>';
    expect(text).toContain(`%7 = pto.alloc_tile : ${tile}`);
    expect(text).toContain(`pto.tload ins(%6 : !pto.partition_tensor_view<16x16xf32>) outs(%7 : ${tile})`);
    expect(text).toContain(`pto.tadds ins(%7, %arg2 : ${tile}, f32) outs(%8 : ${tile})`);
    expect(text).toMatch(/pto\.tcmp ins\(%7, %8 \{cmpMode = #pto<cmp lt>\} : .*\) outs\(%10 : !pto\.tile_buf<loc=vec, dtype=i8, rows=16, cols=32,/);
    expect(text).toMatch(/pto\.tstore ins\(%9 : .*\) outs\(%11 : !pto\.partition_tensor_view<16x16xf32>\)/);
    expect(text.trim().split('\n').slice(-3)).toEqual(['    return', '  }', '}']);
  });

  it('pto: the same module assembles for A2/A3, with PTOAS_SAMPLE_ARCH=a3 given to the script', () => {
    const text = printed('arch', `import os\nassert os.environ["PTOAS_SAMPLE_ARCH"] == "a3"\n${loadComputeStore}`, 'a2a3');
    expectAssembles(text, 'a2a3');
  });

  it('pto: optional operands and attributes are keywords; an op given an optional operand prints in the generic form', () => {
    const text = printed(
      'pto_optional',
      `
f32 = F32Type.get(ctx)
i16 = IntegerType.get_signless(16, ctx)
_, _, tf = tile_types(ctx, f32)
_, _, ti = tile_types(ctx, i16)
_, _, dyn = tile_types(ctx, f32, valid=[None, 16])
with InsertionPoint(m.body):
    fn = func.FuncOp("convert", func.FunctionType.get([], []))
    entry = fn.add_entry_block()
with InsertionPoint(entry):
    c8 = arith.ConstantOp(IndexType.get(ctx), 8).result
    a = pto.AllocTileOp(tf).result
    b = pto.AllocTileOp(ti).result
    d = pto.AllocTileOp(dyn, valid_row=c8).result
    pto.TCvtOp(a, b, rmode=pto.RoundModeAttr.get(pto.RoundMode.TRUNC, ctx), sat_mode=pto.SaturationModeAttr.get(pto.SaturationMode.ON, ctx))
    pto.TColSumOp(a, d, tmp=a, isBinary=BoolAttr.get(True, ctx))
    func.ReturnOp([])
`,
    );
    expectAssembles(text);
    expect(text).toMatch(/pto\.tcvt ins\(%1 \{rmode = #pto<round_mode TRUNC>, sat_mode = #pto<saturation_mode ON>\} : /);
    expect(text).toMatch(/%3 = pto\.alloc_tile valid_row = %0 : !pto\.tile_buf<loc=vec, dtype=f32, rows=16, cols=16, v_row=\?, v_col=16,/);
    // PTOAS's own forms place an optional operand variously (tcolsum's tmp in ins, tquant's in outs): generic form.
    expect(text).toMatch(/"pto\.tcolsum"\(%1, %1, %3\) <\{isBinary = true\}> : \(!pto\.tile_buf<.*>, !pto\.tile_buf<.*>, !pto\.tile_buf<.*>\) -> \(\)/);
  });

  it('arith and scf: constants of each kind, integer arithmetic, comparisons, casts, scf.for with iter_args, scf.if', () => {
    const text = printed(
      'arith_scf',
      `
i32 = IntegerType.get_signless(32, ctx)
idx = IndexType.get(ctx)
f32 = F32Type.get(ctx)
with InsertionPoint(m.body):
    fn = func.FuncOp("loops", func.FunctionType.get([i32], [idx]))
    entry = fn.add_entry_block()
with InsertionPoint(entry):
    (n,) = entry.arguments
    c0 = arith.ConstantOp(idx, 0).result
    c1 = arith.ConstantOp(idx, 1).result
    half = arith.ConstantOp(f32, 0.5).result
    seven = arith.ConstantOp(i32, IntegerAttr.get(i32, 7)).result
    ub = arith.IndexCastOp(idx, n).result
    loop = scf.ForOp(c0, ub, c1, [c0])
    with InsertionPoint(loop.body):
        iv = loop.induction_variable
        (acc,) = loop.inner_iter_args
        big = arith.CmpIOp(arith.CmpIPredicate.sgt, iv, c1).result
        branch = scf.IfOp(big, [idx], hasElse=True)
        with InsertionPoint(branch.then_block):
            scf.YieldOp([arith.AddIOp(acc, iv).result])
        with InsertionPoint(branch.else_block):
            scf.YieldOp([arith.MulIOp(acc, c1).result])
        scf.YieldOp([branch.result])
    func.ReturnOp([loop.result])
`,
    );
    expectAssembles(text);
    for (const line of [
      'func.func @loops(%arg0: i32) -> index {',
      '%2 = arith.constant 0.5 : f32',
      '%3 = arith.constant 7 : i32',
      '%4 = arith.index_cast %arg0 : i32 to index',
      '%5 = scf.for %arg1 = %0 to %4 step %1 iter_args(%arg2 = %0) -> (index) {',
      '%6 = arith.cmpi sgt, %arg1, %1 : index',
      '%7 = scf.if %6 -> (index) {',
      '%8 = arith.addi %arg2, %arg1 : index',
      'scf.yield %8 : index',
      '} else {',
      '%9 = arith.muli %arg2, %1 : index',
      'return %5 : index',
    ]) {
      expect(text).toContain(line);
    }
  });

  it('func: from_py_func builds a function from a Python function, and func.call calls it', () => {
    const text = printed(
      'func_family',
      `
idx = IndexType.get(ctx)
with InsertionPoint(m.body):
    @func.FuncOp.from_py_func(idx, idx)
    def add(a, b):
        return arith.AddIOp(a, b).result

    @func.FuncOp.from_py_func(idx)
    def twice(x):
        return func.CallOp(add.func_op, [x, x]).result
`,
    );
    expectAssembles(text);
    expect(text).toContain('func.func @add(%arg0: index, %arg1: index) -> index {');
    expect(text).toContain('%0 = call @add(%arg0, %arg0) : (index, index) -> index');
  });

  it("pto sync helpers and section ops: enum cases, names and ints become the ops' attributes", () => {
    const text = printed(
      'sync_family',
      `
with InsertionPoint(m.body):
    entry = func.FuncOp("sync", func.FunctionType.get([], [])).add_entry_block()
with InsertionPoint(entry):
    section = pto.SectionVectorOp()
    with InsertionPoint(section.body.blocks.append()):
        pto.set_flag(pto.PIPE.PIPE_MTE2, "pipe_v", 0)
        pto.wait_flag(pto.PipeAttr.get(pto.PIPE.PIPE_MTE2, ctx), pto.PIPE.PIPE_V, pto.EVENT_ID0)
        pto.barrier(pto.PipeAttr.get(pto.PIPE.PIPE_ALL, ctx))
        pto.sync_set(pto.PIPE.PIPE_MTE3, 3)
    func.ReturnOp([])
`,
    );
    expectAssembles(text);
    expect(text).toContain('pto.section.vector {');
    expect(text).toContain('pto.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]');
    expect(text).toContain('pto.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]');
    expect(text).toContain('pto.barrier #pto.pipe<PIPE_ALL>');
    expect(text).toContain('pto.sync.set <PIPE_MTE3>, 3');
  });

  it('Module.parse keeps the text it is given and prints it as written', () => {
    const source = 'module {\n  func.func @empty() {\n    return\n  }\n}';
    const text = printed('parse', `m = Module.parse(${JSON.stringify(source)}, ctx)\nm.operation.verify()`);
    expect(text.trim()).toBe(source);
  });

  it('the DPS form it prints binds each operand as our Level 2 form reads it (ins in declaration order, dst in outs)', () => {
    const run = spawnSync(pythonCommand(), ['-c', 'import json; from ptoas.mlir.dialects import pto; print(json.dumps(pto.dps_form_operands()))'], {
      env: { ...process.env, PYTHONPATH: shimDirectory() },
      encoding: 'utf8',
    });
    const printedInDps = JSON.parse(run.stdout) as Record<string, string[]>;
    const defined = new Set(opRegistry().definitions.map((d) => d.name));
    expect(Object.keys(printedInDps).length).toBeGreaterThan(100);
    const misbound = Object.entries(printedInDps).flatMap(([opName, required]) => {
      const spec = isa().instructions.get(opName);
      // An op the toolchain does not define is rejected by name in any form.
      if (!spec) return defined.has(opName) ? [`${opName}: defined outside the instruction table, check its form`] : [];
      // The declared order, as our names: mlirOperands lists our operands in PTOAS's declaration order.
      const declared = spec.mlirOperands.filter((n) => !spec.operands.find((o) => o.name === n)!.optional);
      const ins = spec.ins.filter((o) => !o.optional && !o.keyword).map((o) => o.name);
      const outs = spec.outs.filter((o) => !o.optional).map((o) => o.name);
      const fits = declared.length === required.length && declared.slice(0, -1).join() === ins.join() && outs.join() === declared[declared.length - 1];
      return fits ? [] : [`${opName}: prints ins(${required.slice(0, -1).join(', ')}) outs(dst), reads ins(${ins.join(', ')}) outs(${outs.join(', ')})`];
    });
    expect(misbound).toEqual([]);
  });

  it('fails naming what the shim lacks rather than printing something else', () => {
    const run = (name: string, body: string) => {
      const file = path.join(dir, `${name}.py`);
      fs.writeFileSync(file, script(body));
      return kernelFromPython(file, 'a5');
    };
    expect(run('parse', 'Module.parse("module {}").body')).toEqual({ error: expect.stringContaining('Module.parse(...).body') });
    const tooMany = `
_, _, tb = tile_types(ctx, F32Type.get(ctx))
with InsertionPoint(m.body):
    entry = func.FuncOp("f", func.FunctionType.get([], [])).add_entry_block()
with InsertionPoint(entry):
    t = pto.AllocTileOp(tb).result
    pto.TAbsOp(t, t, t)
`;
    expect(run('too_many', tooMany)).toEqual({ error: expect.stringContaining('TAbsOp: takes 2 positional argument(s) (src, dst), got 3') });
    expect(kernelFromPython(path.join(dir, 'absent.py'), 'a5')).toEqual({ error: expect.stringContaining('no such file') });
  });
});

// ---- (b) the golden cases whose kernel a script prints ----------------------------------------------------------

const root = process.env.PTO_UPSTREAM_DIR;
const EXCEPTIONS = path.join(__dirname, '..', 'corpus', 'python-samples-exceptions.json');

/** `<dir>/<case>.py` with a `<case>_golden.py` beside it and no `<case>.pto` or `<case>-pto.pto` under `<dir>`. */
function goldenScripts(samples: string): string[] {
  const found: string[] = [];
  const walk = (d: string): void => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('_golden.py')) {
        const base = e.name.slice(0, -'_golden.py'.length);
        const script = path.join(d, `${base}.py`);
        if (fs.existsSync(script) && !hasFileNamed(d, [`${base}.pto`, `${base}-pto.pto`])) found.push(path.relative(samples, script));
      }
    }
  };
  walk(samples);
  return found.sort();
}

function hasFileNamed(d: string, names: string[]): boolean {
  return fs.readdirSync(d, { withFileTypes: true }).some((e) => (e.isDirectory() ? hasFileNamed(path.join(d, e.name), names) : names.includes(e.name)));
}

/** PTOAS's runner builds the `_a5` samples for A5 only; the others for its default, A2/A3. */
const targetOf = (script: string): PythonTarget => (/_a5\.py$/.test(script) ? 'a5' : 'a2a3');

if (!root) {
  test.skip('PTO_UPSTREAM_DIR is not set: the golden Python samples are not run', () => undefined);
} else if (!hasPython) {
  test.skip(`${pythonCommand()} is not installed: the golden Python samples are not run`, () => undefined);
} else {
  test('every golden Python sample prints a module that assembles, except the listed ones', () => {
    const samples = path.join(root, 'test', 'samples');
    const scripts = goldenScripts(samples);
    expect(scripts.length).toBe(74);
    const failing: Record<string, string> = {};
    for (const script of scripts) {
      const kernel = kernelFromPython(path.join(samples, script), targetOf(script));
      if ('error' in kernel) failing[script] = kernel.error.split('\n').pop()!;
      else {
        const asm = assemble(script, kernel.text, { target: targetOf(script) });
        if (asm.diags.hasErrors()) failing[script] = formatAll(asm.diags).split('\n')[0];
      }
    }
    const listed = JSON.parse(fs.readFileSync(EXCEPTIONS, 'utf8')) as Record<string, string>;
    const unlisted = Object.keys(failing)
      .filter((s) => !(s in listed))
      .map((s) => `${s}: ${failing[s]}`);
    const stale = Object.keys(listed).filter((s) => !(s in failing));
    expect({ unlisted, stale }).toEqual({ unlisted: [], stale: [] });
  }, 600_000);
}
