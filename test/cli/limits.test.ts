/**
 * The VM's limits (src/diag/limits.ts): each is checked before the work it bounds and reported as a located error
 * (or, for a flag's value, a usage error), in well under a second; docs/cli.md lists every one.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { LIMITS } from '../../src/diag/limits';
import { ROOT, runTool } from '../fixtures/cli';

let tmp: string;
beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'pto-limits-'));
});
afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

function write(name: string, text: string): string {
  const file = path.join(tmp, name);
  fs.writeFileSync(file, text);
  return file;
}

/** A kernel that views %x as rows x cols f32 and loads a 32 x 32 corner of it. */
const viewOf = (rows: number, cols: number) => `module {
  func.func @k(%x: !pto.ptr<f32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %rows = arith.constant ${rows} : index
    %cols = arith.constant ${cols} : index
    %v = pto.make_tensor_view %x, shape = [%rows, %cols], strides = [%cols, %c1] : !pto.tensor_view<?x?xf32>
    %p = pto.partition_view %v, offsets = [%c0, %c0], sizes = [%c32, %c32] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<32x32xf32>
    %t = pto.alloc_tile : !pto.tile_buf<loc=vec, dtype=f32, rows=32, cols=32, v_row=32, v_col=32, blayout=row_major, slayout=none_box, fractal=512, pad=0>
    pto.tload ins(%p : !pto.partition_tensor_view<32x32xf32>) outs(%t : !pto.tile_buf<loc=vec, dtype=f32, rows=32, cols=32, v_row=32, v_col=32, blayout=row_major, slayout=none_box, fractal=512, pad=0>)
    return
  }
}
`;

describe('global memory (--max-memory)', () => {
  test('a buffer its views size past the limit is an error at the argument, before anything is allocated', () => {
    const file = write('huge-view.pto', viewOf(100000, 1000000));
    const r = runTool('pto-vm', 'run', file);
    expect(r.status).toBe(1);
    expect(r.stderr).toBe(
      `${file}:2:16: error[E0804]: %x needs 400000000000 bytes (373 GiB), more than the run's global memory limit of 1073741824 bytes (1.0 GiB) (--max-memory): sized by the views made of it\n` +
        '  func.func @k(%x: !pto.ptr<f32>) {\n' +
        '               ^~~~~~~~~~~~~~~~~\n',
    );
  });

  test('--max-memory raises or lowers it: 64 x 32 f32 is 8192 bytes', () => {
    const file = write('small-view.pto', viewOf(64, 32));
    expect(runTool('pto-vm', 'run', file, '--max-memory', '8192').status).toBe(0);
    const r = runTool('pto-vm', 'run', file, '--max-memory', '8191');
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("error[E0804]: %x needs 8192 bytes (8.0 KiB), more than the run's global memory limit of 8191 bytes (8.0 KiB) (--max-memory)");
  });

  test('an --arg asking for more is a usage error', () => {
    const file = write('small-view-arg.pto', viewOf(64, 32));
    const r = runTool('pto-vm', 'run', file, '--arg', 'x=zeros:1000000000000');
    expect(r.status).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe(
      "error: --arg x=zeros:1000000000000: %x needs 4000000000000 bytes (3.6 TiB), more than the run's global memory limit of 1073741824 bytes (1.0 GiB) (--max-memory)",
    );
  });
});

test('a launch of more cores than the VM runs is refused before any core is made', () => {
  const file = path.join(ROOT, 'programs', 'tcolmin.pto');
  const r = runTool('pto-vm', 'run', file, '--blocks', '5000');
  expect(r.status).toBe(2);
  expect(r.stderr.split('\n')[0]).toBe(`error: --ranks x --blocks x --subblocks make 5000 cores, more than the VM runs (${LIMITS.cores.value})`);
});

test('every iteration of a loop is a step: an empty loop of 10^18 iterations stops at --max-steps', () => {
  const file = write(
    'empty-loop.pto',
    `module {
  func.func @k() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = arith.constant 1000000000000000000 : index
    scf.for %i = %c0 to %n step %c1 {
    }
    return
  }
}
`,
  );
  const r = runTool('pto-vm', 'run', file, '--max-steps', '1000');
  expect(r.status).toBe(1);
  expect(r.stderr.split('\n')[0]).toBe(`${file}:6:5: error[E0801]: stopped after 1000 steps (--max-steps)`);
});

describe('values --json lists (--json-values)', () => {
  /** A kernel that stores 1, 2, ..., 8 (as i32) into %p. */
  const counting = `func.func @k(%p: !pto.ptr<i32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c8 step %c1 {
    %j = arith.addi %i, %c1 : index
    %v = arith.index_cast %j : index to i32
    pto.store_scalar %v, %p[%i] : !pto.ptr<i32>, i32
  }
  return
}
`;

  test('a buffer longer than the limit lists its first values, and a warning at its argument says so', () => {
    const file = write('json-values.pto', counting);
    const r = runTool('pto-vm', 'run', file, '--arg', 'p=zeros:8', '--json', '--json-values', '3');
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.outputs.p).toEqual({ dtype: 'i32', elements: 8, bytes: 32, input: 'zeros:8', written: 8, values: [1, 2, 3] });
    expect(r.stderr).toBe(
      `${file}:1:14: warning[W0805]: --json lists the first 3 of %p's 8 values (--json-values); --out p=FILE.npy writes them all\n` +
        'func.func @k(%p: !pto.ptr<i32>) {\n' +
        '             ^~~~~~~~~~~~~~~~~\n',
    );
  });

  test('at the limit every value is listed, without a warning; with several ranks, each rank lists its own', () => {
    const file = write('json-values-all.pto', counting);
    const r = runTool('pto-vm', 'run', file, '--arg', 'p=zeros:8', '--json', '--json-values', '8', '--ranks', '2');
    expect(r.stderr).toBe('');
    const out = JSON.parse(r.stdout);
    expect(out.ranks.map((k: { outputs: { p: { values: number[] } } }) => k.outputs.p.values)).toEqual([
      [1, 2, 3, 4, 5, 6, 7, 8],
      [1, 2, 3, 4, 5, 6, 7, 8],
    ]);
  });

  test('a negative count is a usage error', () => {
    const r = runTool('pto-vm', 'run', write('json-values-bad.pto', counting), '--json', '--json-values', '-1');
    expect(r.status).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe('error: --json-values must be an integer of 0 or more, got -1');
  });
});

test("a core's print buffer: past it the core's prints are left out with one warning, and the run goes on", () => {
  const tile = '!pto.tile_buf<loc=vec, dtype=i32, rows=64, cols=64, v_row=64, v_col=64, blayout=row_major, slayout=none_box, fractal=512, pad=0>';
  const file = write(
    'print-buffer.pto',
    `module {
  func.func @k(%p: !pto.ptr<i32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = arith.constant 600 : index
    %t = pto.alloc_tile : ${tile}
    scf.for %i = %c0 to %n step %c1 {
      pto.tprint ins(%t : ${tile})
    }
    %v = arith.constant 7 : i32
    pto.store_scalar %v, %p[%c0] : !pto.ptr<i32>, i32
    return
  }
}
`,
  );
  const r = runTool('pto-vm', 'run', file, '--arg', 'p=zeros:1', '--json');
  expect(r.status).toBe(0);
  const out = JSON.parse(r.stdout);
  // Each print: a header line and 64 rows of 64 '%8d' fields (zeros) joined by spaces.
  const one = out.printed[0] as string;
  expect(one.split('\n').slice(1, 65)).toEqual(Array(64).fill(Array(64).fill('       0').join(' ')));
  const kept = Math.ceil(LIMITS.printBuffer.value / one.length);
  expect(out.printed.length).toBe(kept);
  expect(out.printed.every((p: string) => p === one)).toBe(true);
  expect(out.outputs.p.values).toEqual([7]);
  expect(r.stderr.split('\n')[0]).toBe(
    `${file}:8:7: warning[W0806]: this core's print buffer of ${LIMITS.printBuffer.value} characters is full: this print and the core's later ones are left out`,
  );
});

test('docs/cli.md lists every limit with its default and flag', () => {
  const doc = fs.readFileSync(path.join(ROOT, 'docs', 'cli.md'), 'utf8');
  const section = doc.slice(doc.indexOf('## Limits'));
  expect(section.length).toBeGreaterThan(0);
  for (const limit of Object.values(LIMITS)) {
    const row = section.split('\n').find((l) => l.includes(limit.what));
    expect(row).toBeDefined();
    expect(row).toContain(String(limit.value));
    if ('flag' in limit) expect(row).toContain(`\`${limit.flag}\``);
  }
});

test('--timeout stops a long run within about its time, at the op it reached', () => {
  const file = write(
    'long-loop.pto',
    `module {
  func.func @k() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = arith.constant 1000000000000 : index
    scf.for %i = %c0 to %n step %c1 {
      %j = arith.addi %i, %c1 : index
    }
    return
  }
}
`,
  );
  const t0 = Date.now();
  const r = runTool('pto-vm', 'run', file, '--timeout', '0.5');
  expect(Date.now() - t0).toBeLessThan(5000);
  expect(r.status).toBe(1);
  expect(r.stderr.split('\n')[0]).toMatch(
    new RegExp(`^${file.replace(/[.]/g, '\\.')}:(6:5|7:12): error\\[E0801\\]: stopped after the run's time limit, at step \\d+ of this core \\(--timeout\\)$`),
  );
});
