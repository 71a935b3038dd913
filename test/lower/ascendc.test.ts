/**
 * The lowering of the AscendC/TIK ops (src/lower): its text re-assembles, it leaves no AscendC op
 * behind, it uses the PTO tile ops the reference lowering names, and `pto-vm run --check-lowering`
 * both confirms agreement and catches a real difference. (Bit-exactness on every conformance case is
 * checked in test/ascendc/text-form.test.ts, which runs each case direct and lowered.)
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { runTool } from '../fixtures/cli';

const ROOT = path.join(__dirname, '..', '..');
const PROGRAMS = ['whole-reduce-min', 'block-reduce-sum', 'vec-reduce-add', 'copy'];

const cli = runTool;

let tmp: string;
beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'pto-lower-'));
});
afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** The PTO ops each lowering must use (reference/ascendc.md section 8). */
const EXPECTED_OPS: Record<string, string[]> = {
  'whole-reduce-min': ['pto.treshape', 'pto.subview', 'pto.trowmin', 'pto.trowargmin', 'pto.tsetval'],
  'block-reduce-sum': ['pto.treshape', 'pto.subview', 'pto.trowsum', 'pto.tsetval'],
  'vec-reduce-add': ['pto.treshape', 'pto.subview', 'pto.trowsum', 'pto.tadd'],
  copy: ['pto.treshape', 'pto.tgetval', 'pto.tsetval'],
};

describe.each(PROGRAMS)('programs/%s.pto', (name) => {
  const program = path.join('programs', `${name}.pto`);

  test('pto-as --emit lowered prints PTO-AS that pto-as accepts again, on both targets, with no AscendC op left', () => {
    for (const target of ['a2a3', 'a5']) {
      const lowered = cli('pto-as', program, '--emit', 'lowered', '--target', target);
      expect([lowered.status, lowered.stderr]).toEqual([0, '']);
      expect(lowered.stdout).not.toMatch(/\b(ascendc|tik)\./);
      for (const op of EXPECTED_OPS[name]) expect(lowered.stdout).toContain(op);
      const file = path.join(tmp, `${name}-${target}.pto`);
      fs.writeFileSync(file, lowered.stdout);
      expect(cli('pto-as', file, '--target', target)).toEqual({ status: 0, stdout: '', stderr: '' });
      // Lowering has nothing left to rewrite: lowering the lowered text changes nothing but the header.
      expect(cli('pto-as', file, '--emit', 'lowered', '--target', target).stdout).toBe(lowered.stdout);
    }
  });

  test('pto-vm run --check-lowering: the lowered program and the direct model agree on every byte', () => {
    const r = cli('pto-vm', 'run', program, '--check-lowering', '--arg', 'x=random:2048:11');
    expect(r.status).toBe(0);
    expect(r.stderr).toMatch(
      new RegExp(
        `^${program.replace(/[.]/g, '\\.')}: note: --check-lowering: the lowered program and the direct model agree on all \\d+ bytes of %x, %out\\n$`,
      ),
    );
  });

  test('the default run (lowered) and --direct print the same results', () => {
    const lowered = cli('pto-vm', 'run', program, '--json', '--arg', 'x=random:2048:5');
    const direct = cli('pto-vm', 'run', program, '--json', '--direct', '--arg', 'x=random:2048:5');
    expect([lowered.status, direct.status]).toEqual([0, 0]);
    const outputs = (text: string) => JSON.parse(text).outputs;
    expect(outputs(lowered.stdout)).toEqual(outputs(direct.stdout));
    // The lowered program executes more ops: the repeat loop, the views, the element moves.
    expect(JSON.parse(lowered.stdout).steps).toBeGreaterThan(JSON.parse(direct.stdout).steps);
  });
});

describe('--check-lowering finds a real difference', () => {
  // 1024 halves of 1.0 with a NaN at lane 5 and -2 at lane 9 of repeat 0. The direct model (and the
  // lowering under the npu profile) take the first NaN as the minimum; under --numerics cpu-sim the
  // lowered TROWMIN is the reference simulator's strict '<' scan, which skips the NaN and finds -2.
  const x = Buffer.alloc(2048);
  for (let i = 0; i < 1024; i++) x.writeUInt16LE(0x3c00, 2 * i);
  x.writeUInt16LE(0x7e00, 2 * 5);
  x.writeUInt16LE(0xc000, 2 * 9);

  test('under npu the two agree; under cpu-sim the report names the first differing byte, located at the op', () => {
    const input = path.join(tmp, 'nan-x.bin');
    fs.writeFileSync(input, x);
    const program = path.join('programs', 'whole-reduce-min.pto');
    expect(cli('pto-vm', 'run', program, '--check-lowering', '--arg', `x=${input}`).status).toBe(0);
    const r = cli('pto-vm', 'run', program, '--check-lowering', '--numerics', 'cpu-sim', '--arg', `x=${input}`);
    expect(r.status).toBe(1);
    const text = fs.readFileSync(path.join(ROOT, program), 'utf8');
    const line = text.slice(0, text.indexOf('ascendc.whole_reduce_min')).split('\n').length;
    const col = text.split('\n')[line - 1].indexOf('ascendc.whole_reduce_min') + 1;
    expect(r.stderr).toContain(
      `${program}:${line}:${col}: error[E0903]: --check-lowering: %out differs first at byte 1 (element 0): lowered 0xc000, direct model 0x7e00`,
    );
  });

  test('--direct and --check-lowering together are a usage error', () => {
    const r = cli('pto-vm', 'run', 'programs/copy.pto', '--direct', '--check-lowering');
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('--direct and --check-lowering exclude each other');
  });
});
