/**
 * The shim's micro-op builders and printer (python/ptoas_shim/ptoas/mlir/dialects/_micro.py) without PTOAS: a module
 * built as ptodsl builds one (result types first, optional results as None, optional attributes as keywords) prints
 * each op in its assembly format (or PTOAS's hand-written form for vtrc and mem_bar), and pto-as accepts it.
 */
import { spawnSync } from 'child_process';
import * as path from 'path';
import { assemble } from '../../src/verify/assemble';

const python = process.env.PYTHON ?? 'python3';
const ok = spawnSync(python, ['--version']).status === 0;
if (!ok) console.warn(`test/expand/shim-micro.test.ts skipped: ${python} cannot run`);

(ok ? test : test.skip)('micro-ops built through the shim print in their own forms and assemble', () => {
  const root = path.join(__dirname, '..', '..');
  const run = spawnSync(python, [path.join(__dirname, 'fixtures', 'micro_ops.py')], {
    encoding: 'utf8',
    env: { ...process.env, PYTHONPATH: path.join(root, 'python', 'ptoas_shim'), PYTHONDONTWRITEBYTECODE: '1' },
  });
  expect(run.stderr).toBe('');
  const lines = run.stdout.split('\n').map((l) => l.trim());
  expect(lines).toEqual(
    expect.arrayContaining([
      'pto.vecscope {',
      '%2, %3 = pto.plt_b32 %1 : i32 -> !pto.mask<b32>, i32',
      '%4 = pto.vlds %arg0 [%0] : !pto.ptr<f32, vec> -> !pto.vreg<64xf32>',
      '%5 = pto.vadd %4, %4, %2 : !pto.vreg<64xf32>, !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>',
      '%6 = pto.vtrc %5, %2, "Z" : !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>',
      'pto.mem_bar "VST_VLD"',
      'pto.vsts %6, %arg1 [%0], %2 {dist = "NORM_B32"} : !pto.vreg<64xf32>, !pto.ptr<f32, vec>, !pto.mask<b32>',
    ]),
  );
  const { diags } = assemble('micro.pto', run.stdout);
  expect(diags.sorted().map((d) => `${d.code}: ${d.message}`)).toEqual([]);
});
