/**
 * End-to-end tests of bin/pto-as: exit codes (0 valid, 1 errors, 2 usage), diagnostics on stderr,
 * emitted text on stdout or in -o. They spawn the real CLI, so dist/ must be built (`npm test` does).
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { runTool } from '../fixtures/cli';

const ROOT = path.join(__dirname, '..', '..');

let tmp: string;
beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'pto-as-test-'));
});
afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

const ptoAs = (...args: string[]) => runTool('pto-as', ...args);

/** Tile types as PTOAS prints them (the compact form), and in the keyed form older PTOAS printed. */
const TILE = (dtype: string) => `!pto.tile_buf<vec, 16x32x${dtype}>`;
const ROW = (dtype: string) => `!pto.tile_buf<vec, 1x32x${dtype}>`;
const keyed = (text: string, loc = 'vec') =>
  text.replace(
    /!pto\.tile_buf<vec, (\d+)x(\d+)x(\w+)>/g,
    `!pto.tile_buf<loc=${loc}, dtype=$3, rows=$1, cols=$2, v_row=$1, v_col=$2, blayout=row_major, slayout=none_box, fractal=512, pad=0>`,
  );
const program = (dtype: string, attrs = '') => `module${attrs} {
  func.func @k() {
    %s = pto.alloc_tile : ${TILE(dtype)}
    %d = pto.alloc_tile : ${ROW(dtype)}
    pto.tcolmin ins(%s : ${TILE(dtype)}) outs(%d : ${ROW(dtype)})
    return
  }
}
`;

function write(name: string, text: string): string {
  const file = path.join(tmp, name);
  fs.writeFileSync(file, text);
  return file;
}

describe('pto-as', () => {
  it('accepts every shipped program with exit 0, saying only how many files it checked', () => {
    const files = fs.readdirSync(path.join(ROOT, 'programs')).map((f) => path.join('programs', f));
    const r = ptoAs(...files);
    expect(r.stderr).toBe(`${files.length} files: no errors\n`);
    expect(r.stdout).toBe('');
    expect(r.status).toBe(0);
  });

  it('exits 1 with a located error for an int8 tcolmin on a2a3, and accepts it on a5', () => {
    const file = write('i8.pto', program('i8'));
    const bad = ptoAs(file);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain(`${file}:5:26: error[E0505]: pto.tcolmin: src dtype i8 is not supported on a2a3 (allowed: i16, i32, f16, f32)`);
    expect(bad.stderr).toContain(`${file}:5:66: error[E0505]: pto.tcolmin: dst dtype i8 is not supported on a2a3`);
    expect(ptoAs(file, '--target', 'a5').status).toBe(0);
  });

  it('takes the target from the module attribute pto.target_arch', () => {
    expect(ptoAs(write('a5.pto', program('i8', ' attributes {pto.target_arch = "a5"}'))).status).toBe(0);
  });

  it('checks every file and exits 1 if any has errors', () => {
    const good = write('good.pto', program('f32'));
    const bad = write('bad.pto', program('i8'));
    const r = ptoAs(good, bad);
    expect(r.status).toBe(1);
    expect(r.stderr).not.toContain(good);
    expect(r.stderr).toContain(bad);
  });

  it('--emit canonical prints the program in PTOAS spelling, and -o writes it to a file', () => {
    const legacy = write('legacy.pto', keyed(program('f32'), 'ub'));
    const r = ptoAs(legacy, '--emit', 'canonical');
    expect(r.status).toBe(0);
    expect(r.stderr).toContain("warning[W0105]: 'loc=ub' is the old name of 'loc=vec'");
    expect(r.stdout).toBe(program('f32'));
    const out = path.join(tmp, 'out.pto');
    expect(ptoAs(legacy, '--emit', 'canonical', '-o', out).stdout).toBe('');
    expect(fs.readFileSync(out, 'utf8')).toBe(program('f32'));
  });

  it('--emit json prints the AST with line:col spans', () => {
    const r = ptoAs(write('j.pto', program('f32')), '--emit', 'json');
    expect(r.status).toBe(0);
    const json = JSON.parse(r.stdout);
    const fn = json.ops[0].regions[0].blocks[0].ops[0];
    expect(fn.name).toBe('func.func');
    expect(fn.regions[0].blocks[0].ops[2]).toMatchObject({ name: 'pto.tcolmin', form: 'dps', nameSpan: '5:5-5:16' });
  });

  it('--emit l2 of a Level 2 program is its canonical form; of a Level 1 program, its conversion', () => {
    expect(ptoAs(write('l2.pto', program('f32')), '--emit', 'l2').stdout).toBe(program('f32'));
    const l1 = ptoAs(path.join('programs', 'tcolmin-l1.pto'), '--emit', 'l2');
    expect(l1.status).toBe(0);
    expect(l1.stdout).toContain('pto.tcolmin ins(%src : !pto.tile_buf<');
  });

  it('--emit l1 refuses what Level 1 cannot express, with a located error', () => {
    const r = ptoAs(path.join('test', 'fixtures', 'level', 'subset.pto'), '--emit', 'l1');
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^test\/fixtures\/level\/subset\.pto:\d+:\d+: error\[E0901\]: L2 -> L1: pto\.subview .*cannot be expressed/m);
  });

  it('usage errors exit 2 without a stack trace', () => {
    for (const args of [[], ['--emit', 'bogus', 'programs/tcolmin.pto'], ['--bogus', 'programs/tcolmin.pto'], [path.join(tmp, 'missing.pto')]]) {
      const r = ptoAs(...args);
      expect(r.status).toBe(2);
      expect(r.stderr).not.toMatch(/\n\s+at /);
      expect(r.stderr.split('\n')[0]).toMatch(/error: /);
    }
  });
});
