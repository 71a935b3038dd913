/**
 * The board flow end to end on a hand-written sample tree (test/fixtures/board/samples): its golden scripts and
 * their helper are written for these tests. Needs python3 with numpy, as PTOAS's golden scripts do.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { spawnSync } from 'child_process';
import { findCases } from '../../src/board/cases';
import { validateCase } from '../../src/board/validate';
import { reportLine, validate } from '../../src/cli/validate';
import { runTool } from '../fixtures/cli';

const SAMPLES = path.join(__dirname, '..', 'fixtures', 'board', 'samples');
const hasNumpy = spawnSync('python3', ['-c', 'import numpy'], { encoding: 'utf8' }).status === 0;
// The golden scripts run in python3: on a busy 2-CPU machine a case can take seconds.
jest.setTimeout(120_000);

describe('finding cases', () => {
  test('a folder gives every golden case below it; a kernel beside or below kernels/ is found', () => {
    const cases = findCases(SAMPLES).map((c) => [
      c.testcase,
      path.basename(c.sampleDir),
      c.kernel && path.relative(SAMPLES, c.kernel),
      c.builder && path.basename(c.builder),
    ]);
    expect(cases).toEqual([
      ['double', 'Double', path.join('Double', 'kernels', 'double.pto'), undefined],
      ['built', 'Twice', undefined, 'built.py'],
      ['none', 'Twice', path.join('Twice', 'none.pto'), undefined],
      ['wrong', 'Twice', path.join('Twice', 'wrong.pto'), undefined],
    ]);
  });

  test('a kernel path finds its golden script in the sample folder above kernels/', () => {
    const [c] = findCases(path.join(SAMPLES, 'Double', 'kernels', 'double.pto'));
    expect([c.testcase, path.basename(c.golden), c.compare && path.basename(c.compare)]).toEqual(['double', 'double_golden.py', 'double_compare.py']);
  });
});

test('pto-vm validate: a path that does not exist, or holds no golden case, is a usage error (exit 2)', () => {
  const missing = runTool('pto-vm', 'validate', path.join(SAMPLES, 'Nowhere'));
  expect([missing.status, missing.stderr.trim()]).toEqual([2, expect.stringContaining('Nowhere: no such file or folder')]);
  const empty = runTool('pto-vm', 'validate', path.join(SAMPLES, 'Double', 'kernels'));
  expect([empty.status, empty.stderr]).toEqual([2, expect.stringContaining('no golden cases')]);
});

test('pto-vm validate without numpy: one usage error up front, not one per case', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'no-numpy-'));
  // python3 without its site packages, where numpy lives.
  const python = path.join(dir, 'python-without-site');
  fs.writeFileSync(python, '#!/bin/sh\nexec python3 -S "$@"\n', { mode: 0o755 });
  const r = spawnSync(process.execPath, [path.join(__dirname, '..', '..', 'bin', 'pto-vm'), 'validate', SAMPLES], {
    encoding: 'utf8',
    env: { ...process.env, PYTHON: python },
  });
  fs.rmSync(dir, { recursive: true, force: true });
  expect([r.status, r.stdout, r.stderr.trim().split('\n')]).toEqual([
    2,
    '',
    [expect.stringMatching(/cannot import numpy, which the golden and compare scripts need/), 'Run with --help for usage.'],
  ]);
});

if (!hasNumpy) {
  test.skip('python3 with numpy is not available: the golden scripts cannot run', () => undefined);
} else {
  describe('validating', () => {
    test('a kernel that computes what its golden expects passes; the case files are kept with --keep', async () => {
      const keep = fs.mkdtempSync(path.join(os.tmpdir(), 'board-'));
      const [c] = findCases(path.join(SAMPLES, 'Double'));
      const r = await validateCase(c, { keep });
      expect(reportLine(r)).toBe('PASS double (Double)');
      expect(r.target).toBe('a2a3');
      const dir = path.join(keep, 'Double', 'double');
      expect(fs.readFileSync(path.join(dir, 'outputs.txt'), 'utf8')).toBe('v3\n');
      // The VM's output equals the golden bit for bit: 2 * 0.5 * k over the 4x8 window.
      expect(fs.readFileSync(path.join(dir, 'v3.bin'))).toEqual(fs.readFileSync(path.join(dir, 'golden_v3.bin')));
      fs.rmSync(keep, { recursive: true, force: true });
    });

    test('a wrong golden fails with the first difference and the error figures', async () => {
      const c = findCases(path.join(SAMPLES, 'Twice')).find((x) => x.testcase === 'wrong')!;
      // x[k] = 0.5k. Element 0 (zero) agrees; element 1: the kernel gives 1, the golden 1.5. The largest error is at
      // the window's last element x[3*16+7] = 27.5: got 55, want 82.5 (27.5 apart, a third of 82.5).
      expect(reportLine(await validateCase(c))).toBe(
        'FAIL wrong (Twice): first difference at v3[1]: got 1, want 1.5; max abs err 27.5, max rel err 0.333, 31 of 32 mismatch',
      );
    });

    test("with a stand-in for PTOAS's Python bindings, a case without a .pto is built by its <case>.py", async () => {
      const c = findCases(path.join(SAMPLES, 'Twice')).find((x) => x.testcase === 'built')!;
      expect(reportLine(await validateCase(c, { pythonShim: path.join(SAMPLES, '..', 'shim') }))).toBe('PASS built (Twice)');
      // Without it the builder cannot import the bindings: the case is counted apart.
      expect(reportLine(await validateCase(c))).toBe('SKIP built (Twice): no .pto (built from built.py)');
    });

    test('the command counts determinism-only cases apart, builds a case from its <case>.py, and exits 1 on a failure', async () => {
      let out = '';
      // The command uses $PTOAS_PY_SHIM (else the package's python/ptoas_shim): here the fixture's stand-in.
      const saved = process.env.PTOAS_PY_SHIM;
      process.env.PTOAS_PY_SHIM = path.join(SAMPLES, '..', 'shim');
      let status: number;
      try {
        status = await validate({ paths: [SAMPLES], json: false }, (t) => (out += t));
        // Two cases at a time: the same lines, in the same order.
        let twoAtATime = '';
        expect(await validate({ paths: [SAMPLES], json: false, jobs: 2 }, (t) => (twoAtATime += t))).toBe(1);
        const verdicts = (text: string) =>
          text
            .split('\n')
            .slice(0, 5)
            .map((l) => l.replace(/[\d.]+s$/, ''));
        expect(verdicts(twoAtATime)).toEqual(verdicts(out));
      } finally {
        if (saved === undefined) delete process.env.PTOAS_PY_SHIM;
        else process.env.PTOAS_PY_SHIM = saved;
      }
      expect(status).toBe(1);
      const lines = out.trim().split('\n');
      expect(lines.slice(0, 4)).toEqual([
        'PASS double (Double)',
        'PASS built (Twice)',
        'DET  none (Twice): ran; the golden script writes no expected outputs; one core: the VM runs it the same way every time',
        expect.stringMatching(/^FAIL wrong \(Twice\): first difference at v3\[1\]/),
      ]);
      expect(lines[4]).toMatch(
        /^4 cases: 3 checked against goldens: 2 passed \(66\.7%\), 1 failed, 0 errors; 1 determinism-only: 1 ran, 0 differed between runs, 0 errors; 0 without a \.pto; [\d.]+s$/,
      );
      let json = '';
      expect(await validate({ paths: [path.join(SAMPLES, 'Double')], json: true }, (t) => (json += t))).toBe(0);
      expect(JSON.parse(json).counts).toEqual({ pass: 1, fail: 0, error: 0, determinismOnly: 0, determinismFail: 0, determinismError: 0, noPto: 0 });
    });

    test('a determinism-only case of several cores runs twice, the second time under another interleaving', async () => {
      const keep = fs.mkdtempSync(path.join(os.tmpdir(), 'board-'));
      const [c] = findCases(path.join(SAMPLES, '..', 'mixed', 'Pair'));
      const r = await validateCase(c, { keep });
      // One cube core and two vector cores (a mixed kernel's launch of one block).
      expect(reportLine(r)).toBe('DET  pair (Pair): ran; the golden script writes no expected outputs; 3 cores: a second interleaving gave the same outputs');
      // Vector core s doubled rows 4s..4s+3 of x[k] = 0.5k: out[k] = k for all 64.
      const out = new Float32Array(new Uint8Array(fs.readFileSync(path.join(keep, 'Pair', 'pair', 'v2.bin'))).buffer);
      expect(Array.from(out)).toEqual(Array.from({ length: 64 }, (_, k) => k));
      fs.rmSync(keep, { recursive: true, force: true });
    });

    test('the command line runs a kernel given by its path and exits 0 when it passes', () => {
      const r = runTool('pto-vm', 'validate', path.join(SAMPLES, 'Double', 'kernels', 'double.pto'), '--target', 'a5');
      expect([r.status, r.stdout.split('\n')[0]]).toEqual([0, 'PASS double (Double)']);
    });
  });
}
