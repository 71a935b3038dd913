import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { runTool } from '../fixtures/cli';
import { loadAddStore } from '../fixtures/timing';

describe('pto-vm run --profile', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pto-profile-'));
  const file = path.join(dir, 'k.pto');
  fs.writeFileSync(file, loadAddStore(true));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('prints the total, the pipes` busy shares and the bottleneck on standard error; the results are unchanged', () => {
    const plain = runTool('pto-vm', 'run', file, '--arg', 'x=random:2048:7');
    const profiled = runTool('pto-vm', 'run', file, '--arg', 'x=random:2048:7', '--profile');
    expect(profiled.status).toBe(0);
    expect(profiled.stdout).toBe(plain.stdout);
    // 270 (TLOAD) + 57 (TADDS) + 74 (TSTORE) in order: test/timing/observer.test.ts derives each.
    expect(profiled.stderr).toContain(
      `${file}: profile: 401 cycles (0.217 us at 1.85 GHz), MTE2 busy 67%: loads from GM bound the run; MTE3 busy 18%, V busy 14%\n`,
    );
    expect(plain.stderr).not.toContain('profile:');
  });

  it('keeps standard output JSON under --json', () => {
    const r = runTool('pto-vm', 'run', file, '--profile', '--json');
    expect(JSON.parse(r.stdout).ok).toBe(true);
    expect(r.stderr).toContain('profile: 401 cycles');
  });
});
