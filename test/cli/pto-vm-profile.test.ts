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
    // 327 (TLOAD) + 57 (TADDS) + 74 (TSTORE) in order: test/timing/observer.test.ts derives each.
    expect(profiled.stderr).toContain(
      `${file}: profile: 458 cycles (0.248 us at 1.85 GHz), MTE2 busy 71%: loads from GM bound the run; MTE3 busy 16%, V busy 12%\n`,
    );
    expect(plain.stderr).not.toContain('profile:');
  });

  it('prints the critical path: each op with its line and pipe, and the flag it waited for', () => {
    const r = runTool('pto-vm', 'run', file, '--profile');
    expect(r.stderr).toContain(
      [
        'critical path: 3 ops, 0..458 cycles',
        '  0..327 pto.tload (line 14) on MTE2: starts at 0',
        '  327..384 pto.tadds (line 17) on V: waits for wait_flag PIPE_MTE2 -> PIPE_V #0, line 16',
        '  384..458 pto.tstore (line 20) on MTE3: waits for wait_flag PIPE_V -> PIPE_MTE3 #0, line 19',
      ]
        .map((l) => `${file}: profile: ${l}\n`)
        .join(''),
    );
  });

  // test/timing/cross-core.test.ts derives the cube's times (TLOADs 0..6..12, TMOVs 12..14..18, TMATMUL 18..25, the
  // push at 25) and the vector core's TSTORE (4 cycles after its TADDS).
  it('programs/cube-vector-handoff.pto: the path crosses from the cube to a vector core at the tpop', () => {
    const handoff = path.join(__dirname, '../../programs/cube-vector-handoff.pto');
    const r = runTool('pto-vm', 'run', handoff, '--profile', '--jobs', '1');
    expect(r.status).toBe(0);
    const lines = r.stderr
      .split('\n')
      .filter((l) => l.includes('profile:   '))
      .map((l) => l.replace(/^.*profile: {3}/, ''));
    const adds = /^25\.\.(\d+) /.exec(lines[5])!;
    const end = Number(adds[1]);
    expect(lines).toEqual([
      '0..6 pto.tload (line 29) on core 0 MTE2: starts at 0',
      '6..12 pto.tload (line 30) on core 0 MTE2: after the op before it on its pipe',
      '12..14 pto.tmov (line 33) on core 0 MTE1: waits for wait_flag PIPE_MTE2 -> PIPE_MTE1 #0, line 32',
      '14..18 pto.tmov (line 34) on core 0 MTE1: after the op before it on its pipe',
      '18..25 pto.tmatmul (line 37) on core 0 M: waits for wait_flag PIPE_MTE1 -> PIPE_M #0, line 36',
      `25..${end} pto.tadds (line 60) on core 1 V: waits for core 0 (pto.tpop_from_aic, line 59)`,
      `${end}..${end + 4} pto.tstore (line 64) on core 1 MTE3: waits for wait_flag PIPE_V -> PIPE_MTE3 #0, line 63`,
    ]);
    expect(r.stderr).toContain(`profile: critical path: 7 ops, 0..${end + 4} cycles\n`);
  });

  it('keeps standard output JSON under --json', () => {
    const r = runTool('pto-vm', 'run', file, '--profile', '--json');
    expect(JSON.parse(r.stdout).ok).toBe(true);
    expect(r.stderr).toContain('profile: 458 cycles');
  });
});
