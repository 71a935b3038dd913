/**
 * pto-vm's command line through the real CLI (issue 35): usage errors before any work, "did you mean", help and
 * version, --json for a failed run, trap messages naming the op once, --quiet, pypto's launch scalars.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { writeNpy } from '../../src/vm/io/npy';
import { runTool } from '../fixtures/cli';

const ptoVm = (...args: string[]) => runTool('pto-vm', ...args);
const TCOLMIN = 'programs/tcolmin.pto'; // %arg0: 16x16 f32 in (1024 bytes), %arg1 out

let tmp: string;
beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'pto-vm-usage-'));
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function write(name: string, text: string): string {
  const file = path.join(tmp, name);
  fs.writeFileSync(file, text);
  return file;
}

/** Exit 2, nothing on stdout, one `error:` line and the --help hint. */
function expectUsage(r: ReturnType<typeof ptoVm>, message: string): void {
  expect({ status: r.status, stdout: r.stdout, stderr: r.stderr }).toEqual({
    status: 2,
    stdout: '',
    stderr: `error: ${message}\nRun with --help for usage.\n`,
  });
}

describe('values are checked before the run, each a usage error naming it', () => {
  test.each([
    [['--arg', 'arg0=zeros:abc'], "--arg arg0=zeros:abc: expected zeros:N with N a number of elements, got 'abc'"],
    [['--arg', 'arg0=random:256:xyz'], "--arg arg0=random:256:xyz: expected random:N[:SEED] with SEED a non-negative integer, got 'xyz'"],
    [['--arg', 'arg0=in.txt'], '--arg arg0=in.txt: expected FILE.npy, FILE.bin, zeros:N, random:N[:SEED], a number or @RANK[:NAME]'],
    [['--arg', 'arg0=/no/such.npy'], '--arg arg0=/no/such.npy: no such file'],
    [['--arg', 'arg0=5'], '--arg arg0=5: %arg0 is a pointer (!pto.ptr<f32>): expected FILE.npy, FILE.bin, zeros:N or random:N[:SEED], not a number'],
    [['--out', 'arg1=/no/such/dir/y.npy'], '--out arg1=/no/such/dir/y.npy: the folder /no/such/dir does not exist'],
    [['--out', 'arg1=y.txt'], '--out arg1=y.txt: expected PATH.npy or PATH.bin'],
    [['--blocks', 'abc'], "--blocks expects a number, got 'abc'"],
    [['-o', 'y.npy'], 'unknown option -o; did you mean --out?'],
    [['--traget', 'a5'], 'unknown option --traget; did you mean --target?'],
  ])('%j', (flags, message) => {
    expectUsage(ptoVm('run', TCOLMIN, ...flags), message);
  });

  test('two --out to one file are refused before the run, the file left unwritten', () => {
    const out = path.join(tmp, 'same.npy');
    expectUsage(
      ptoVm('run', TCOLMIN, '--out', `arg1=${out}`, '--out', `arg0=${out}`),
      `--out arg0=${out}: --out arg1=${out} already writes ${out}; give each output its own file`,
    );
    expect(fs.existsSync(out)).toBe(false);
  });

  test('a .npy smaller than the views of its pointer: the file, its size and the bytes they reach (16x16 f32 = 1024)', () => {
    const small = path.join(tmp, 'small.npy');
    fs.writeFileSync(small, writeNpy('f32', [100], new Uint8Array(400)));
    expectUsage(
      ptoVm('run', TCOLMIN, '--arg', `arg0=${small}`),
      `--arg arg0=${small}: ${small} holds 400 bytes of data (100 f32), but the views of %arg0 reach 1024 bytes (256 f32)`,
    );
  });

  test('every scalar without a value, in one message', () => {
    const file = write('scalars.pto', 'module {\n  func.func @k(%a: i32, %n: index, %f: f32) {\n    return\n  }\n}\n');
    expectUsage(ptoVm('run', file, '--arg', 'n=3'), 'scalar arguments %a (i32), %f (f32) need a value: --arg a=NUMBER --arg f=NUMBER');
  });

  test('a missing file, a missing file argument, an unknown command', () => {
    expectUsage(ptoVm('run', 'no-such.pto'), 'no-such.pto: no such file');
    expectUsage(ptoVm('run'), 'pto-vm run: give the .pto file to run (pto-vm run FILE)');
    expectUsage(ptoVm('rnu', TCOLMIN), "unknown command 'rnu' (expected 'run', 'validate', 'check-lowering', 'help'); did you mean 'run'?");
  });

  test('validate refuses the options of run', () => {
    expectUsage(ptoVm('validate', 'programs', '--arg', 'x=zeros:4'), "--arg is an option of 'pto-vm run'; validate takes --target, --json, --jobs, --keep");
    expectUsage(ptoVm('validate', 'programs', '--out', 'x=y.npy'), "--out is an option of 'pto-vm run'; validate takes --target, --json, --jobs, --keep");
  });
});

describe('help and version', () => {
  test('pto-vm help and -h print the help (exit 0); pto-vm alone prints it on stderr (exit 2)', () => {
    for (const argv of [['help'], ['-h'], ['--help']]) {
      const r = ptoVm(...argv);
      expect([r.status, r.stderr]).toEqual([0, '']);
      expect(r.stdout).toMatch(/^pto-vm run FILE \[options\]\n/);
      expect(r.stdout).toContain('--quiet');
    }
    const none = ptoVm();
    expect([none.status, none.stdout]).toEqual([2, '']);
    expect(none.stderr).toMatch(/^pto-vm run FILE \[options\]\n/);
    expect(none.stderr).not.toContain('undefined');
  });

  test('--version prints the package version', () => {
    const { version } = JSON.parse(fs.readFileSync('package.json', 'utf8')) as { version: string };
    expect(ptoVm('--version')).toEqual({ status: 0, stdout: `${version}\n`, stderr: '' });
  });
});

/** trowexpanddiv whose src0 has a dynamic valid column count: given 32, neither source has dst's 16x64 valid shape. */
function expandDiv(): string {
  const tile = (vCol: string, cols = 64, layout = 'row_major') =>
    `!pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=${cols}, v_row=16, v_col=${vCol}, blayout=${layout}, slayout=none_box, fractal=512, pad=0>`;
  const [a, s, d] = [tile('?'), tile('1', 1, 'col_major'), tile('64')];
  return write(
    'expanddiv.pto',
    `module {\n  func.func @k(%n: index) {\n    %a = pto.alloc_tile valid_col = %n : ${a}\n    %s = pto.alloc_tile : ${s}\n    %d = pto.alloc_tile : ${d}\n` +
      `    pto.trowexpanddiv ins(%a, %s : ${a}, ${s}) outs(%d : ${d})\n    return\n  }\n}\n`,
  );
}

describe('a failed run', () => {
  test('a trap names the op once', () => {
    const r = ptoVm('run', expandDiv(), '--arg', 'n=32', '--target', 'a5');
    expect(r.status).toBe(1);
    expect(r.stderr.split('\n')[0]).toBe(
      `${path.join(tmp, 'expanddiv.pto')}:6:5: error[E0801]: pto.trowexpanddiv: neither source is a row-major tile with dst's valid shape 16x64`,
    );
  });

  test('--json prints {ok: false, error} on stdout, exit code unchanged', () => {
    const file = expandDiv();
    const r = ptoVm('run', file, '--arg', 'n=32', '--target', 'a5', '--json');
    expect(r.status).toBe(1);
    const error = { code: 'E0801', message: "pto.trowexpanddiv: neither source is a row-major tile with dst's valid shape 16x64", file, line: 6, column: 5 };
    expect(JSON.parse(r.stdout)).toEqual({ ok: false, error, errors: [error] });
  });

  test('--json for a program that does not assemble: its first error', () => {
    const file = write('bad.pto', 'module {\n  func.func @k() {\n    pto.nosuchop\n    return\n  }\n}\n');
    const r = ptoVm('run', file, '--json');
    expect(r.status).toBe(1);
    const doc = JSON.parse(r.stdout);
    expect(doc.ok).toBe(false);
    expect([doc.error.file, doc.error.line, doc.error.column]).toEqual([file, 3, 5]);
    expect(doc.error.code).toMatch(/^E\d{4}$/);
  });
});

test('--quiet leaves out the notes (the cube summation note of a matmul), --json still lists them', () => {
  const loud = ptoVm('run', 'programs/matmul.pto');
  expect(loud.stderr).toContain("note: npu: the cube's summation order");
  const quiet = ptoVm('run', 'programs/matmul.pto', '--quiet');
  expect([quiet.status, quiet.stderr, quiet.stdout]).toEqual([0, '', loud.stdout]);
  expect(JSON.parse(ptoVm('run', 'programs/matmul.pto', '--quiet', '--json').stdout).notes).toHaveLength(1);
});

describe("pypto's launch scalars", () => {
  // Each block stores its __pypto_spmd_block_idx and __pypto_spmd_block_num at out[2 * idx] and out[2 * idx + 1].
  const program = () =>
    write(
      'spmd.pto',
      `module {
  func.func @k(%out: !pto.ptr<i32>, %__pypto_spmd_block_idx: i32, %__pypto_spmd_block_num: i32) {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %b = arith.index_cast %__pypto_spmd_block_idx : i32 to index
    %i = arith.muli %b, %c2 : index
    %j = arith.addi %i, %c1 : index
    pto.store_scalar %__pypto_spmd_block_idx, %out[%i] : !pto.ptr<i32>, i32
    pto.store_scalar %__pypto_spmd_block_num, %out[%j] : !pto.ptr<i32>, i32
    return
  }
}
`,
    );
  const values = (...flags: string[]) => {
    const r = ptoVm('run', program(), '--arg', 'out=zeros:8', '--json', ...flags);
    expect(r.status).toBe(0);
    return JSON.parse(r.stdout).outputs.out.values;
  };

  test('bound per block from --blocks: the block index, and the block count', () => {
    expect(values('--blocks', '3')).toEqual([0, 3, 1, 3, 2, 3, 0, 0]);
  });

  test('--arg wins', () => {
    expect(values('--blocks', '3', '--arg', '__pypto_spmd_block_num=7')).toEqual([0, 7, 1, 7, 2, 7, 0, 0]);
  });
});
