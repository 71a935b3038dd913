/**
 * bin/pto-as as CI and people use it: runs on many files (unreadable ones reported, a summary line, -o all or
 * nothing, stdin), machine-readable diagnostics (--diagnostics-format json|sarif), --werror, --quiet, --color,
 * --explain, --version, did-you-mean for mistyped flags, the progress line on a terminal. They spawn the real CLI
 * (dist/ must be built).
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { ROOT, runTool, scratchFolder } from '../fixtures/cli';

const scratch = scratchFolder('pto-as-reports-');

const ptoAs = (...args: string[]) => runTool('pto-as', ...args);

const write = scratch.write;

/** Valid, no diagnostics. */
const GOOD = 'func.func @k(%a: index) -> index {\n  return %a : index\n}\n';
/** Two errors: E0302 at 2:10 (`%x`) and at 3:10 (`%y`). */
const TWO_ERRORS = 'func.func @k() -> index {\n  return %x : index\n  return %y : index\n}\n';
/** One warning: W0105 for the old location name `loc=ub`, at line 2. */
const TILE_UB = '!pto.tile_buf<loc=ub, dtype=f32, rows=16, cols=16, v_row=16, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>';
/** E0303 at 2:3, with a note at the parameter `%a: index` (1:14 to 1:23). */
const REDEFINED = 'func.func @k(%a: index) {\n  %a = arith.constant 0 : index\n  return\n}\n';
const WARNING = `func.func @k() {\n  %t = pto.alloc_tile : ${TILE_UB}\n  return\n}\n`;

describe('many files', () => {
  it('reports every file, an unreadable one as one line, and ends with a summary; exit 2 for the unreadable file', () => {
    const bad = write('bad.pto', TWO_ERRORS);
    const warn = write('warn.pto', WARNING);
    const missing = scratch.at('missing.pto');
    const r = ptoAs(missing, bad, warn, write('good.pto', GOOD));
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    const lines = r.stderr.split('\n');
    expect(lines[0]).toBe(`pto-as: error: cannot read ${missing}: ENOENT`);
    // The files after the unreadable one are still checked, in order.
    expect(lines.filter((l) => /^\S+:\d+:\d+: /.test(l))).toEqual([
      `${bad}:2:10: error[E0302]: use of undefined value %x`,
      `${bad}:3:10: error[E0302]: use of undefined value %y`,
      expect.stringMatching(new RegExp(`^${warn}:2:\\d+: warning\\[W0105\\]: 'loc=ub' is the old name of 'loc=vec'`)),
    ]);
    expect(r.stderr.endsWith('4 files: 1 with errors, 1 unreadable (2 errors, 1 warning)\n')).toBe(true);
  });

  it('exits 1 when files have errors and all could be read; a summary only for more than one file', () => {
    const bad = write('bad1.pto', TWO_ERRORS);
    const good = write('good1.pto', GOOD);
    const both = ptoAs(good, bad, good);
    expect(both.status).toBe(1);
    expect(both.stderr.split('\n').at(-2)).toBe('3 files: 1 with errors (2 errors)');
    const ok = ptoAs(good, good);
    expect([ok.status, ok.stderr]).toEqual([0, '2 files: no errors\n']);
    const one = ptoAs(bad);
    expect(one.status).toBe(1);
    expect(one.stderr).not.toMatch(/files?:/);
  });

  it('-o writes nothing (not even the good files) when any file fails', () => {
    const out = scratch.at('partial.pto');
    const r = ptoAs(write('g2.pto', GOOD), write('b2.pto', TWO_ERRORS), '--emit', 'canonical', '-o', out);
    expect(r.status).toBe(1);
    expect(fs.existsSync(out)).toBe(false);
    expect(ptoAs(write('g3.pto', GOOD), '--emit', 'canonical', '-o', out).status).toBe(0);
    expect(fs.readFileSync(out, 'utf8')).toBe(GOOD);
  });

  it('-o into a missing directory is a usage error before any file is read', () => {
    const out = path.join(scratch.at('no-such-dir'), 'x.pto');
    // The missing input would be exit 2 too: the message shows that -o was checked first.
    const r = ptoAs(scratch.at('missing.pto'), '--emit', 'canonical', '-o', out);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(`error: -o ${out}: no directory ${path.dirname(out)}\nRun with --help for usage.\n`);
  });

  it('--passes names only passes whose checks are modelled: another is a usage error before any file is read', () => {
    const r = ptoAs(scratch.at('missing.pto'), '--passes=-vmi-layout-fold');
    expect(r.status).toBe(2);
    expect(r.stderr.split('\n')[0]).toMatch(/^error: --passes: no checks of a pass 'vmi-layout-fold' are modelled/);
  });

  it('- reads standard input, named <stdin> in diagnostics', () => {
    const run = (input: string, ...args: string[]) =>
      spawnSync(process.execPath, [path.join(ROOT, 'bin', 'pto-as'), '-', ...args], { cwd: ROOT, input, encoding: 'utf8' });
    const bad = run(TWO_ERRORS);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain('<stdin>:2:10: error[E0302]: use of undefined value %x');
    const good = run(GOOD, '--emit', 'canonical');
    expect([good.status, good.stdout, good.stderr]).toEqual([0, GOOD, '']);
  });
});

describe('--diagnostics-format', () => {
  it('json: one document on stdout with every diagnostic, nothing on stderr but the summary', () => {
    const bad = write('j-bad.pto', TWO_ERRORS);
    const warn = write('j-warn.pto', WARNING);
    const r = ptoAs(bad, warn, '--diagnostics-format', 'json');
    expect(r.status).toBe(1);
    expect(r.stderr).toBe('2 files: 1 with errors (2 errors, 1 warning)\n');
    const doc = JSON.parse(r.stdout);
    expect(doc.version).toBe(1);
    expect(doc.diagnostics).toHaveLength(3);
    expect(doc.diagnostics[0]).toEqual({
      file: bad,
      line: 2,
      column: 10,
      // `%x` is two characters: the end is the column after them.
      end: { line: 2, column: 12 },
      severity: 'error',
      code: 'E0302',
      message: 'use of undefined value %x',
      notes: [],
    });
    expect(doc.diagnostics[2]).toMatchObject({ file: warn, line: 2, severity: 'warning', code: 'W0105' });
  });

  it('json: notes with their locations', () => {
    const r = ptoAs(write('j-note.pto', REDEFINED), '--diagnostics-format', 'json');
    const [d] = JSON.parse(r.stdout).diagnostics;
    expect(d).toMatchObject({ line: 2, column: 3, code: 'E0303' });
    expect(d.notes).toEqual([{ file: scratch.at('j-note.pto'), line: 1, column: 14, end: { line: 1, column: 23 }, message: 'previously defined here' }]);
  });

  it('sarif: a SARIF 2.1.0 log with the catalog as rules and each diagnostic a result', () => {
    const bad = write('s-bad.pto', TWO_ERRORS);
    const r = ptoAs(bad, write('s-note.pto', REDEFINED), '--diagnostics-format', 'sarif');
    expect(r.status).toBe(1);
    const log = JSON.parse(r.stdout);
    expectSarifShape(log);
    const { driver } = log.runs[0].tool;
    expect(driver.name).toBe('pto-as');
    expect(driver.version).toBe(JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version);
    const rule = driver.rules.find((x: { id: string }) => x.id === 'E0302');
    expect(rule).toEqual({
      id: 'E0302',
      name: 'undefinedValue',
      shortDescription: { text: 'A use of an SSA value that is not defined, or not visible where it is used.' },
      helpUri: expect.stringMatching(/^file:\/\/.*\/docs\/diagnostics\.md#e0302-undefinedvalue-error$/),
      defaultConfiguration: { level: 'error' },
    });
    // The anchor is the one docs/diagnostics.md's heading gets.
    expect(fs.readFileSync(path.join(ROOT, 'docs', 'diagnostics.md'), 'utf8')).toContain('### E0302 `undefinedValue` (error)');
    const [first, , redefined] = log.runs[0].results;
    expect(first).toEqual({
      ruleId: 'E0302',
      ruleIndex: driver.rules.indexOf(rule),
      level: 'error',
      message: { text: 'use of undefined value %x' },
      locations: [{ physicalLocation: { artifactLocation: { uri: `file://${bad}` }, region: { startLine: 2, startColumn: 10, endLine: 2, endColumn: 12 } } }],
    });
    expect(redefined.ruleId).toBe('E0303');
    expect(redefined.relatedLocations).toEqual([
      {
        id: 0,
        message: { text: 'previously defined here' },
        physicalLocation: {
          artifactLocation: { uri: expect.stringMatching(/s-note\.pto$/) },
          region: { startLine: 1, startColumn: 14, endLine: 1, endColumn: 23 },
        },
      },
    ]);
  });

  it('refuses --emit on stdout, which holds the diagnostics; with -o the emitted text goes there', () => {
    const good = write('s-good.pto', GOOD);
    const refused = ptoAs(good, '--diagnostics-format', 'json', '--emit', 'canonical');
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain('error: --emit canonical needs -o with --diagnostics-format json: stdout holds the diagnostics');
    const out = scratch.at('s-out.pto');
    const r = ptoAs(good, '--diagnostics-format', 'sarif', '--emit', 'canonical', '-o', out);
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout).runs[0].results).toEqual([]);
    expect(fs.readFileSync(out, 'utf8')).toBe(GOOD);
  });
});

/** The properties of a SARIF 2.1.0 log its schema requires (sarif-schema-2.1.0.json), for what pto-as writes. */
function expectSarifShape(log: Record<string, unknown>): void {
  expect(log.version).toBe('2.1.0');
  expect(log.$schema).toMatch(/^https:\/\/.*sarif.*2\.1\.0.*\.json$/);
  const runs = log.runs as Record<string, unknown>[];
  expect(Array.isArray(runs)).toBe(true);
  for (const run of runs) {
    const driver = (run.tool as { driver: Record<string, unknown> }).driver;
    expect(typeof driver.name).toBe('string');
    const rules = driver.rules as { id: string; shortDescription: { text: string }; helpUri: string }[];
    expect(new Set(rules.map((r) => r.id)).size).toBe(rules.length);
    for (const rule of rules) {
      expect(typeof rule.id).toBe('string');
      expect(typeof rule.shortDescription.text).toBe('string');
      expect(() => new URL(rule.helpUri)).not.toThrow();
    }
    for (const result of run.results as Record<string, unknown>[]) {
      expect(typeof (result.message as { text: string }).text).toBe('string');
      expect(['none', 'note', 'warning', 'error']).toContain(result.level);
      if (result.ruleIndex !== undefined) expect(rules[result.ruleIndex as number].id).toBe(result.ruleId);
      const locations = [...(result.locations as unknown[]), ...((result.relatedLocations as unknown[]) ?? [])] as {
        physicalLocation: { artifactLocation: { uri: string }; region: Record<string, number> };
      }[];
      for (const { physicalLocation } of locations) {
        expect(typeof physicalLocation.artifactLocation.uri).toBe('string');
        const { startLine, startColumn, endLine, endColumn } = physicalLocation.region;
        for (const n of [startLine, startColumn, endLine, endColumn]) expect(Number.isInteger(n) && n >= 1).toBe(true);
        expect(endLine > startLine || (endLine === startLine && endColumn >= startColumn)).toBe(true);
      }
    }
  }
}

describe('--werror, --quiet, --color', () => {
  it('--werror reports warnings as errors and exits 1', () => {
    const warn = write('w.pto', WARNING);
    expect(ptoAs(warn).status).toBe(0);
    const r = ptoAs(warn, '--werror');
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/:2:\d+: error\[W0105\]: 'loc=ub' is the old name of 'loc=vec'/);
  });

  it('--quiet leaves warnings out, not errors', () => {
    const warn = write('q.pto', WARNING);
    expect(ptoAs(warn, '--quiet')).toEqual({ status: 0, stdout: '', stderr: '' });
    const r = ptoAs(warn, write('q-bad.pto', TWO_ERRORS), '-q');
    expect(r.status).toBe(1);
    expect(r.stderr).not.toContain('W0105');
    expect(r.stderr).toContain('E0302');
    expect(r.stderr.endsWith('2 files: 1 with errors (2 errors)\n')).toBe(true);
  });

  it('--color always colours the severity, bolds location and message, and greens the caret', () => {
    const bad = write('c.pto', 'func.func @k() -> index {\n  return %x : index\n}\n');
    const r = ptoAs(bad, '--color', 'always');
    expect(r.stderr).toBe(
      `\x1b[1m${bad}:2:10: \x1b[0m\x1b[1;31merror[E0302]:\x1b[0m \x1b[1muse of undefined value %x\x1b[0m\n` +
        `  return %x : index\n         \x1b[1;32m^~\x1b[0m\n`,
    );
    expect(ptoAs(write('cw.pto', WARNING), '--color=always').stderr).toContain('\x1b[1;35mwarning[W0105]:\x1b[0m');
    // Not a terminal: auto is plain; never is plain.
    expect(ptoAs(bad).stderr).not.toContain('\x1b[');
    expect(ptoAs(bad, '--color', 'never').stderr).not.toContain('\x1b[');
  });
});

describe('--explain, --version, -h, unknown flags', () => {
  it('--explain prints the catalog entry', () => {
    const r = ptoAs('--explain', 'E0302');
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(
      'E0302 undefinedValue (error)\n\nA use of an SSA value that is not defined, or not visible where it is used.\n\n' +
        '`pto-as example.pto` reports it for:\n\n    func.func @k() -> index {\n      return %x : index\n    }\n',
    );
    expect(ptoAs('--explain', 'undefinedValue').stdout).toBe(r.stdout);
  });

  it('--explain of an unknown code is a usage error with the closest code', () => {
    const r = ptoAs('--explain', 'E302');
    expect(r.status).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe("error: --explain: no diagnostic code 'E302'; did you mean 'E0302'?");
  });

  it('--version prints package.json version, -h the usage', () => {
    const version = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version;
    expect(ptoAs('--version')).toEqual({ status: 0, stdout: `${version}\n`, stderr: '' });
    const help = ptoAs('-h');
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('--diagnostics-format');
  });

  it('an unknown flag is a usage error naming the closest flag', () => {
    const r = ptoAs('programs/tcolmin.pto', '--traget', 'a5');
    expect(r.status).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe("error: unknown option '--traget'; did you mean '--target'?");
    expect(ptoAs('programs/tcolmin.pto', '--werrr').stderr.split('\n')[0]).toBe("error: unknown option '--werrr'; did you mean '--werror'?");
    expect(ptoAs('programs/tcolmin.pto', '--zzz').stderr.split('\n')[0]).toBe("error: unknown option '--zzz'");
  });
});

describe('progress', () => {
  // `script` gives the tool a terminal (stdout and stderr both), and prints what it wrote.
  const hasScript = spawnSync('script', ['--version']).status === 0;
  (hasScript ? it : it.skip)('shows [i/n] FILE on a terminal, rewritten with \\r and cleared at the end', () => {
    const a = write('p-a.pto', GOOD);
    const b = write('p-b.pto', TWO_ERRORS);
    const command = [process.execPath, path.join(ROOT, 'bin', 'pto-as'), a, b, '--color', 'never'].map((s) => `'${s}'`).join(' ');
    const r = spawnSync('script', ['-qec', command, '/dev/null'], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, PTO_DEBUG: '' } });
    const screen = r.stdout.replace(/\r\n/g, '\n');
    expect(screen).toContain(`\r\x1b[K[1/2] ${a}`);
    // Cleared before the diagnostics of the second file, and before the summary.
    expect(screen).toContain(`\r\x1b[K[2/2] ${b}\r\x1b[K${b}:2:10: error[E0302]`);
    expect(screen).toContain('\n2 files: 1 with errors (2 errors)\n');
  });

  (hasScript ? it : it.skip)('--color auto colours on a terminal, unless NO_COLOR is set', () => {
    const bad = write('p-c.pto', TWO_ERRORS);
    const command = [process.execPath, path.join(ROOT, 'bin', 'pto-as'), bad].map((s) => `'${s}'`).join(' ');
    const onTerminal = (env: Record<string, string | undefined>) =>
      spawnSync('script', ['-qec', command, '/dev/null'], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, PTO_DEBUG: '', ...env } }).stdout;
    expect(onTerminal({ NO_COLOR: undefined })).toContain('\x1b[1;31merror[E0302]:\x1b[0m');
    expect(onTerminal({ NO_COLOR: '1' })).toContain(`${bad}:2:10: error[E0302]: use of undefined value %x`);
  });

  it('prints none when stderr is not a terminal', () => {
    const r = ptoAs(write('n-a.pto', GOOD), write('n-b.pto', GOOD));
    expect(r.stderr).toBe('2 files: no errors\n');
  });
});
