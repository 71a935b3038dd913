/**
 * What `npm pack` ships installs and runs without a build: the tarball of this checkout, installed
 * globally into a temporary prefix (no network: its dependencies come from this checkout's npm cache), runs both
 * tools on a shipped program and carries the docs and the LICENSE. Slow (the pack builds): the deep suite, npm run
 * test:deep.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ROOT } from '../fixtures/cli';

const run = (command: string, args: string[], cwd: string) => {
  const r = spawnSync(command, args, {
    cwd,
    encoding: 'utf8',
    maxBuffer: 64 << 20,
    env: { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false' },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
};

describe('npm pack', () => {
  let tmp: string;
  let tarball: string;
  let prefix: string;
  beforeAll(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'pto-pack-'));
    const packed = run('npm', ['pack', '--pack-destination', tmp, '--silent'], ROOT);
    expect(packed.status).toBe(0);
    tarball = path.join(tmp, packed.stdout.trim().split('\n').pop()!);
    prefix = path.join(tmp, 'prefix');
  }, 300_000);
  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

  test('the tarball has the built tools, the docs and the LICENSE, and no script that builds on install', () => {
    const listing = run('tar', ['tzf', tarball], tmp).stdout.split('\n');
    for (const file of ['package/LICENSE', 'package/README.md', 'package/docs/quickstart.md', 'package/dist/cli/entry.js', 'package/bin/pto-as']) {
      expect(listing).toContain(file);
    }
    const manifest = JSON.parse(run('tar', ['xzf', tarball, '-O', 'package/package.json'], tmp).stdout);
    expect(Object.keys(manifest.scripts ?? {}).filter((s) => /^(pre|post)?(install|prepare)$/.test(s))).toEqual([]);
    // The checkout's package.json is back as it was (postpack).
    expect(JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts.prepare).toBe('npm run build');
  });

  test('a global install runs pto-as and pto-vm', () => {
    const installed = run('npm', ['install', '-g', '--prefix', prefix, '--offline', tarball], tmp);
    expect(installed.stderr).not.toMatch(/install-scripts|prepare/);
    expect(installed.status).toBe(0);
    const program = path.join(prefix, 'lib', 'node_modules', 'pto-as', 'programs', 'tcolmin.pto');
    const as = run(path.join(prefix, 'bin', 'pto-as'), [program, '--target', 'a5'], tmp);
    expect({ status: as.status, stderr: as.stderr }).toEqual({ status: 0, stderr: '' });
    const vm = run(path.join(prefix, 'bin', 'pto-vm'), ['run', program, '--target', 'a5', '--json'], tmp);
    expect(vm.status).toBe(0);
    expect(JSON.parse(vm.stdout).outputs.arg1.written).toBe(16);
  }, 300_000);
});
