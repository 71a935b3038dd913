/**
 * The structural cross-check against PTOAS's lit tests (src/expand/lit.ts): the micro-ops a VPTO lit file CHECKs
 * appear in our expansion. Two files run here; every file of test/lit with PTO_EXPAND_LIT=<file> (a report).
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { checkedMicroOps, litCheck } from '../../src/expand/lit';
import { upstreamTree } from '../../src/expand/tilelib';

const tree = upstreamTree(process.env.PTO_UPSTREAM_DIR);
const python = spawnSync(process.env.PYTHON ?? 'python3', ['--version']);
const skipReason = 'error' in tree ? tree.error : python.status !== 0 ? `${process.env.PYTHON ?? 'python3'} cannot run` : undefined;
if (skipReason) console.warn(`test/expand/lit.test.ts skipped: ${skipReason}`);
const suite = skipReason ? describe.skip : describe;
const upstreamDir = 'dir' in tree ? tree.dir : '';

test('the micro-ops of positive CHECK lines, without CHECK-NOT ones and without what later passes add', () => {
  const text = [
    '// CHECK-NOT: pto.tabs ins',
    '// CHECK: pto.vecscope',
    '// CHECK: pto.vlds',
    '// EXPAND-NOT: pto.vsub',
    '// ADDR: pto.vabs %1, %2',
    '// X-SAME: pto.plt_b32',
  ].join('\n');
  expect(checkedMicroOps(text)).toEqual(['pto.plt_b32', 'pto.vabs', 'pto.vlds']);
});

suite('lit cross-check', () => {
  const lit = (name: string): string => fs.readFileSync(path.join(upstreamDir, 'test', 'lit', 'vpto', name), 'utf8');

  test.each([
    ['expand_tile_op_tilelang_tabs.pto', ['pto.vabs', 'pto.vlds', 'pto.vsts']],
    ['expand_tile_op_ptodsl_tadd.pto', ['pto.vadd', 'pto.vsts']],
    ['expand_tile_op_ptodsl_conversion_1d_2d.pto', ['pto.vcvt', 'pto.vsts']],
  ])('%s: every micro-op it CHECKs is in our expansion', (name, ops) => {
    const r = litCheck(name, lit(name), upstreamDir);
    if (!('checked' in r)) throw new Error(JSON.stringify(r));
    expect(r.checked).toEqual(ops);
    expect(r.missing).toEqual([]);
  });

  const report = process.env.PTO_EXPAND_LIT;
  (report ? test : test.skip)('every lit file, a report written to PTO_EXPAND_LIT', () => {
    const root = path.join(upstreamDir, 'test', 'lit');
    const files = (dir: string): string[] =>
      fs
        .readdirSync(dir, { withFileTypes: true })
        .flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name)) : e.name.endsWith('.pto') ? [path.join(dir, e.name)] : []));
    const lines: string[] = [];
    for (const f of files(root).sort()) {
      const r = litCheck(path.relative(root, f), fs.readFileSync(f, 'utf8'), upstreamDir);
      if ('skip' in r) continue;
      const name = path.relative(root, f);
      if ('error' in r) lines.push(`${name}: error: ${r.error.split('\n')[0].slice(0, 200)}`);
      else lines.push(`${name}: ${r.missing.length === 0 ? 'all found' : `missing ${r.missing.join(' ')}`} (${r.found.length}/${r.checked.length})`);
    }
    fs.writeFileSync(report!, `${lines.join('\n')}\n`);
  });
});
