/**
 * `pto-as --verify-diagnostics [--split-input-file]`, mlir-opt's way of testing diagnostics: a file's
 * `// expected-error@+1 {{substring}}` comments (and warning, note; @-N, @+N, @above, @below, same line) must name
 * exactly the diagnostics it gets. Through the real CLI (dist/ must be built). The files of PTOAS's own lit tests that
 * use these comments run when PTO_UPSTREAM_DIR is set.
 */
import * as fs from 'fs';
import * as path from 'path';
import { runTool, scratchFolder } from '../fixtures/cli';

const scratch = scratchFolder('pto-verify-diagnostics-');

const ptoAs = (...args: string[]) => runTool('pto-as', ...args);

const write = scratch.write;

const TILE_UB = '!pto.tile_buf<loc=ub, dtype=f32, rows=16, cols=16, v_row=16, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>';

describe('--verify-diagnostics', () => {
  it('passes (exit 0, silent) when every diagnostic is expected and every expectation met', () => {
    const file = write(
      'all.pto',
      [
        '// expected-note@+1 {{previously defined here}}',
        'func.func @k(%a: index) -> index {',
        '  // expected-error@+1 {{redefinition of SSA value %a}}',
        '  %a = arith.constant 0 : index',
        '  %b = arith.addi %a, %u : index // expected-error {{undefined value %u}}',
        '  %c = arith.addi %a, %v : index',
        '  // expected-error@-1 {{use of undefined value %v}}',
        '  // expected-error@above {{%v}}',
        '  %d = arith.addi %a, %w : index',
        '  // expected-error@below {{undefined value %x}}',
        '  // expected-error@below {{undefined value %z}}',
        '  %e = arith.addi %x, %z : index',
        // A designator on the line it expects, written as mlir's own tests do, after the code.
        `  %t = pto.alloc_tile : ${TILE_UB} // expected-warning {{'loc=ub' is the old name of 'loc=vec'}}`,
        '  return %a : index',
        '}',
        '',
      ].join('\n'),
    );
    // @above names line 9 (%w), not the designator line before it.
    const missed = ptoAs(file, '--verify-diagnostics');
    expect(missed.stderr).toContain(`${file}:8:6: error[E0107]: expected error "%v" was not produced`);
    expect(missed.stderr).toContain(`${file}:9:23: error[E0107]: unexpected error: use of undefined value %w`);
    expect(missed.status).toBe(1);
    const fixed = write('all-fixed.pto', fs.readFileSync(file, 'utf8').replace('@above {{%v}}', '@below {{%w}}'));
    expect(ptoAs(fixed, '--verify-diagnostics')).toEqual({ status: 0, stdout: '', stderr: '' });
  });

  it('reports what was expected and not produced, and what was produced and not expected, as mlir-opt does', () => {
    const file = write(
      'mismatch.pto',
      [
        'func.func @k() -> index {',
        '  // expected-error@+1 {{use of undefined value %y}}',
        '  return %x : index',
        '  // expected-warning@-1 {{undefined value %x}}',
        '}',
        '',
      ].join('\n'),
    );
    const r = ptoAs(file, '--verify-diagnostics');
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    const reported = r.stderr.split('\n').filter((l) => l.startsWith(file));
    expect(reported).toEqual([
      `${file}:2:6: error[E0107]: expected error "use of undefined value %y" was not produced`,
      `${file}:3:10: error[E0107]: unexpected error: use of undefined value %x`,
      // The severity is part of the expectation.
      `${file}:4:6: error[E0107]: expected warning "undefined value %x" was not produced`,
    ]);
  });

  it('refuses what it cannot check (regular expressions) instead of passing over them', () => {
    const file = write('re.pto', 'func.func @k() -> index {\n  return %x : index // expected-error-re {{undefined value %[a-z]}}\n}\n');
    const r = ptoAs(file, '--verify-diagnostics');
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`${file}:2:24: error[E0107]: expected-error-re (a regular expression) is not supported`);
  });

  it('gives its reports in the chosen --diagnostics-format', () => {
    const file = write('json.pto', 'func.func @k() -> index {\n  return %x : index\n}\n');
    const r = ptoAs(file, '--verify-diagnostics', '--diagnostics-format', 'json');
    expect(r.status).toBe(1);
    expect(JSON.parse(r.stdout).diagnostics).toEqual([
      expect.objectContaining({ line: 2, column: 10, code: 'E0107', message: 'unexpected error: use of undefined value %x' }),
    ]);
  });
});

describe('--split-input-file', () => {
  const CHUNKS = [
    'func.func @k() {', // 1
    '  return', // 2
    '}', // 3
    '', // 4
    '// -----', // 5
    '', // 6
    '// The same name again: a chunk is a file of its own.', // 7
    'func.func @k() -> index {', // 8
    '  // expected-error@+1 {{use of undefined value %x}}', // 9
    '  return %x : index', // 10
    '}', // 11
    '// -----', // 12
    'func.func @k() -> index {', // 13
    '  return %y : index', // 14
    '}', // 15
    '',
  ].join('\n');

  it('assembles each part on its own, with the line numbers of the whole file', () => {
    const file = write('split.pto', CHUNKS);
    const r = ptoAs(file, '--split-input-file');
    expect(r.status).toBe(1);
    expect(r.stderr.split('\n').filter((l) => l.startsWith(file))).toEqual([
      `${file}:10:10: error[E0302]: use of undefined value %x`,
      `${file}:14:10: error[E0302]: use of undefined value %y`,
    ]);
    // Without the split, the second @k is a redefinition.
    expect(ptoAs(file).stderr).toContain(`${file}:8:1: error[E0303]: redefinition of function @k`);
  });

  it('checks each part against its own expectations', () => {
    const file = write('split-verify.pto', CHUNKS);
    const r = ptoAs(file, '--split-input-file', '--verify-diagnostics');
    expect(r.status).toBe(1);
    expect(r.stderr.split('\n').filter((l) => l.startsWith(file))).toEqual([`${file}:14:10: error[E0107]: unexpected error: use of undefined value %y`]);
    const fixed = write('split-fixed.pto', CHUNKS.replace('  return %y', '  // expected-error@+1 {{%y}}\n  return %y'));
    expect(ptoAs(fixed, '--split-input-file', '--verify-diagnostics')).toEqual({ status: 0, stdout: '', stderr: '' });
  });

  it('emits each part, // ----- between them', () => {
    const file = write('split-emit.pto', 'func.func @a() {\n  return\n}\n// -----\nfunc.func @b() {\n  return\n}\n');
    const r = ptoAs(file, '--split-input-file', '--emit', 'canonical');
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('func.func @a() {\n  return\n}\n// -----\nfunc.func @b() {\n  return\n}\n');
  });
});

/**
 * PTOAS's lit tests with `expected-error` comments are of its vector level (VPTO, VMI), which pto-as does not support:
 * each of their chunks gets "not supported yet" errors. What they show is that their comments are read as mlir-opt
 * reads them: every designator (`@+1`, `@ +1`) is reported as not produced at its own line and column with its
 * substring, `expected-no-error` is no designator, and every diagnostic is at the line of the whole file it shows.
 */
const upstream = process.env.PTO_UPSTREAM_DIR;
(upstream ? describe : describe.skip)("PTOAS's lit tests with expected-error", () => {
  const files = ['vmi_new/vmi_fptoui_verifier.pto', 'vpto/vlogic_bf16x2_verify_invalid.pto', 'vmi_new/vmi_bf16x2_compute_invalid.pto'];

  it.each(files)('%s', (name) => {
    const file = path.join(upstream!, 'test', 'lit', name);
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    const run = lines.find((l) => l.includes('RUN:'));
    expect(run).toContain('-split-input-file');
    expect(run).toContain('-verify-diagnostics');
    const r = ptoAs(file, '--split-input-file', '--verify-diagnostics');
    expect(r.status).toBe(1);
    const expected = lines.flatMap((text, i) => {
      const m = /expected-(error|warning|note) ?@ ?[+-]\d+ \{\{(.*)\}\}$/.exec(text);
      return m ? [`${file}:${i + 1}:${m.index + 1}: error[E0107]: expected ${m[1]} "${m[2]}" was not produced`] : [];
    });
    expect(expected.length).toBeGreaterThan(2);
    const reported = r.stderr.split('\n');
    expect(reported.filter((l) => l.includes('was not produced'))).toEqual(expected);
    // Each report's source line (the line after it) is that line of the whole file.
    reported.forEach((l, i) => {
      const m = /^.*?:(\d+):\d+: error\[E0107\]/.exec(l);
      if (m) expect(reported[i + 1]).toBe(lines[Number(m[1]) - 1]);
    });
  });
});
