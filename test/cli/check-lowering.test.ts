/**
 * pto-vm check-lowering (src/cli/check-lowering.ts) through the built tool. The runs that expand need python3 and
 * PTOAS's tree (PTO_UPSTREAM_DIR); without them they are skipped, saying why, and the usage error is checked instead.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { binaryKernel } from '../../src/expand/kernels';
import { upstreamTree } from '../../src/expand/tilelib';
import { ROOT, runTool, scratchFolder } from '../fixtures/cli';

const tree = upstreamTree(process.env.PTO_UPSTREAM_DIR);
const python = spawnSync(process.env.PYTHON ?? 'python3', ['--version']);
const skipReason = 'error' in tree ? tree.error : python.status !== 0 ? `${process.env.PYTHON ?? 'python3'} cannot run` : undefined;
if (skipReason) console.warn(`test/cli/check-lowering.test.ts: the expanding runs are skipped: ${skipReason}`);
const expanding = skipReason ? describe.skip : describe;

const scratch = scratchFolder('check-lowering-');
const f32 = (values: number[]): Buffer => Buffer.from(Float32Array.from(values).buffer);

test('without PTO_UPSTREAM_DIR: a usage error (exit 2) naming what is missing', () => {
  const file = scratch.write('tadd.pto', binaryKernel({ op: 'pto.tadd', dtype: 'f32', rows: 8, cols: 64, vRow: 8, vCol: 64 }));
  const env: NodeJS.ProcessEnv = { ...process.env, PTO_DEBUG: '' };
  delete env.PTO_UPSTREAM_DIR;
  const r = spawnSync(process.execPath, [path.join(ROOT, 'bin', 'pto-vm'), 'check-lowering', file], { cwd: ROOT, env, encoding: 'utf8' });
  expect(r.status).toBe(2);
  expect(r.stderr).toContain('PTO_UPSTREAM_DIR is not set');
  expect(r.stderr).toContain('--vpto');
});

test('no file: exit 2', () => {
  const r = runTool('pto-vm', 'check-lowering', scratch.at('none.pto'), '--vpto', scratch.at('none.pto'));
  expect(r.status).toBe(2);
  expect(r.stderr).toContain('no such file');
});

expanding('check-lowering', () => {
  test('tadd f32 8x64: agree, exit 0; its saved expansion given back with --vpto agrees too', () => {
    const file = scratch.write('tadd.pto', binaryKernel({ op: 'pto.tadd', dtype: 'f32', rows: 8, cols: 64, vRow: 8, vCol: 64 }));
    const saved = scratch.at('tadd.vpto.pto');
    const r = runTool('pto-vm', 'check-lowering', file, '--save-expanded', saved);
    expect(r.stdout).toBe(`${file}: 4 tile ops expanded, 0 not\n@kernel: agree (6144 bytes of global memory)\n`);
    expect(r.status).toBe(0);
    expect(fs.readFileSync(saved, 'utf8')).toContain('func.call @__pto_tilelang_a5_tadd_');
    const again = runTool('pto-vm', 'check-lowering', file, '--vpto', saved, '--json');
    expect(again.status).toBe(0);
    const doc = JSON.parse(again.stdout) as { ok: boolean; functions: { fn: string; agree: boolean; bytes: number }[] };
    expect(doc.ok).toBe(true);
    expect(doc.functions).toEqual([{ fn: 'kernel', agree: true, bytes: 6144 }]);
  });

  test('--profile: each expanded op at both levels; tadd f32 1x512 is 65 cycles tile level, 62 expanded (VfSim`s own)', () => {
    const file = scratch.write('tadd512.pto', binaryKernel({ op: 'pto.tadd', dtype: 'f32', rows: 1, cols: 512, vRow: 1, vCol: 512 }));
    const r = runTool('pto-vm', 'check-lowering', file, '--profile');
    expect(r.status).toBe(0);
    const lines = r.stderr.split('\n').filter((l) => l.includes('profile:'));
    // Tile level: pto-isa's A5 curve TADD fp32 1D, 1.2469671 x 8 repeats + 55.073657 = 65. Expanded: the template's
    // vector function, 8 x (vlds, vlds, vadd, vsts), which VfSim itself puts at 62 (vfsim-tileops.json,
    // TAdd.float_1x512). Each load of 2048 bytes: 262.35 + 2048 / 127.66 = 278 at both levels; the store 2048 bytes
    // at 188.46 GiB/s: 18.
    expect(lines).toEqual([
      `${file}: @kernel: profile: the expanded ops' cycles summed: tile level 639 cycles, expanded 636 cycles`,
      `${file}:14: @kernel: profile: pto.tload: tile level MTE2 278, expanded MTE2 278`,
      `${file}:16: @kernel: profile: pto.tload: tile level MTE2 278, expanded MTE2 278`,
      `${file}:18: @kernel: profile: pto.tadd: tile level V 65, expanded V 62`,
      `${file}:19: @kernel: profile: pto.tstore: tile level MTE3 18, expanded MTE3 18`,
    ]);
    const doc = JSON.parse(runTool('pto-vm', 'check-lowering', file, '--profile', '--json').stdout) as {
      functions: { profile: { op: string; tileLevel: { pipes: Record<string, number> }; expanded: { pipes: Record<string, number> } }[] }[];
    };
    expect(doc.functions[0].profile.map((o) => [o.op, o.tileLevel.pipes, o.expanded.pipes])[2]).toEqual(['pto.tadd', { PIPE_V: 65 }, { PIPE_V: 62 }]);
  });

  test('tfmod f32 (-7 fmod 3): differ at the first element, both values, the tstore’s mte_ub_gm and the tfmod template’s vsts named; exit 1', () => {
    const file = scratch.write('tfmod.pto', binaryKernel({ op: 'pto.tfmod', dtype: 'f32', rows: 4, cols: 64, vRow: 4, vCol: 63 }));
    const a = scratch.at('a.bin');
    const b = scratch.at('b.bin');
    fs.writeFileSync(a, f32(new Array(4 * 63).fill(-7)));
    fs.writeFileSync(b, f32(new Array(4 * 63).fill(3)));
    const r = runTool('pto-vm', 'check-lowering', file, '--arg', `a=${a}`, '--arg', `b=${b}`);
    expect(r.status).toBe(1);
    // fmod(-7, 3) = -1 (0xbf800000, the tile level, pto-isa's TFMod); the template's floored remainder 2 (0x40000000).
    const line = r.stdout.split('\n')[1];
    expect(line).toMatch(
      /^@kernel: differ at %out\[0\] \[0, 0\]: tile level 0xbf800000 \(-1\), expanded 0x40000000 \(2\); stored by pto\.mte_ub_gm \(.*\) in the expansion of pto\.tstore /,
    );
    // The tfmod op is line 18 of the kernel (kernels.ts: module, func, 4 constants, 2 x 3 views... then the op).
    const opLine =
      fs
        .readFileSync(file, 'utf8')
        .split('\n')
        .findIndex((l) => l.includes('pto.tfmod ins')) + 1;
    expect(line).toMatch(new RegExp(`computed by pto\\.vsts \\(.*\\) in the expansion of pto\\.tfmod \\(${file.replace(/[.]/g, '\\.')}:${opLine}\\)$`));
  });
});
