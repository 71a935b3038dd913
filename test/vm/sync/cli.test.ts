/**
 * Synchronization findings through bin/pto-vm: located warnings by default, errors and exit 1 with --strict-sync,
 * and a `sync` list in --json. They spawn the real CLI, so dist/ must be built (`npm run build`).
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { runTool } from '../../fixtures/cli';
import { DIAGNOSTICS } from '../../../src/diag/catalog';

const ADD = fs.readFileSync(path.join(__dirname, '..', '..', 'fixtures', 'sync', 'add.pto'), 'utf8');
const WAIT = 'pto.wait_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]';

let tmp: string;
let broken: string;
let correct: string;
beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'pto-vm-sync-'));
  correct = path.join(tmp, 'add.pto');
  fs.writeFileSync(correct, ADD);
  broken = path.join(tmp, 'add-no-wait.pto');
  fs.writeFileSync(
    broken,
    ADD.split('\n')
      .filter((l) => !l.includes(WAIT))
      .join('\n'),
  );
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const lineOf = (text: string, needle: string) => text.split('\n').findIndex((l) => l.includes(needle)) + 1;

describe('pto-vm run and synchronization findings', () => {
  test('a correctly synchronized kernel: exit 0, nothing on stderr, even with --strict-sync', () => {
    const r = runTool('pto-vm', 'run', correct, '--strict-sync');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  test('a missing wait_flag: located warnings with the source line and a caret, exit 0', () => {
    const text = fs.readFileSync(broken, 'utf8');
    const r = runTool('pto-vm', 'run', broken);
    expect(r.status).toBe(0);
    const store = lineOf(text, 'pto.tstore');
    const add = lineOf(text, 'pto.tadd');
    const set = lineOf(text, 'pto.set_flag[<PIPE_V>, <PIPE_MTE3>');
    expect(r.stderr.split('\n')).toEqual([
      `${broken}:${store}:5: warning[W0702]: pto.tstore (PIPE_MTE3) reads %tc, written by pto.tadd (PIPE_V), with no set_flag/wait_flag from PIPE_V to PIPE_MTE3 between them`,
      text.split('\n')[store - 1],
      '    ^~~~~~~~~~',
      `${broken}:${add}:5: note: pto.tadd (PIPE_V) writes %tc here`,
      text.split('\n')[add - 1],
      '    ^~~~~~~~',
      `${broken}:${set}:5: warning[W0702]: pto.set_flag[PIPE_V, PIPE_MTE3, EVENT_ID0] is never waited (its flag is still set when the kernel ends)`,
      text.split('\n')[set - 1],
      '    ^' + '~'.repeat('pto.set_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]'.length - 1),
      '',
    ]);
  });

  test('--strict-sync: the same findings as errors, exit 1', () => {
    const r = runTool('pto-vm', 'run', broken, '--strict-sync');
    expect(r.status).toBe(1);
    expect(r.stderr.match(/: error\[W0702\]: /g)?.length).toBe(2);
    expect(r.stderr).not.toMatch(/: warning\[/);
  });

  test('--json lists the findings with their positions', () => {
    const text = fs.readFileSync(broken, 'utf8');
    const r = runTool('pto-vm', 'run', broken, '--json');
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.sync.map((f: { line: number; col: number; severity: string }) => [f.severity, f.line, f.col])).toEqual([
      ['warning', lineOf(text, 'pto.tstore'), 5],
      ['warning', lineOf(text, 'pto.set_flag[<PIPE_V>, <PIPE_MTE3>'), 5],
    ]);
    expect(out.sync[0].notes).toEqual([{ message: 'pto.tadd (PIPE_V) writes %tc here', file: broken, line: lineOf(text, 'pto.tadd'), col: 5 }]);
    expect(runTool('pto-vm', 'run', broken, '--json', '--strict-sync').status).toBe(1);
  });

  test('a race between cores is W0703: a warning, an error with --strict-sync (exit 1), its code in --json', () => {
    const file = path.join(tmp, 'race.pto');
    fs.writeFileSync(file, (DIAGNOSTICS.crossCoreRace.example as { program: string }).program);
    const args = ['run', file, '--arg', 'p=zeros:4'];
    const warned = runTool('pto-vm', ...args);
    expect(warned.status).toBe(0);
    // The cube stores element 0 of %p; both vector cores load it, unordered.
    expect(
      warned.stderr.match(
        /: warning\[W0703\]: block 0, vector [01]: pto.load_scalar reads element 0 of %p \(bytes 0..3\), which block 0, cube's pto.store_scalar wrote/g,
      ),
    ).toHaveLength(1);
    const strict = runTool('pto-vm', ...args, '--strict-sync');
    expect(strict.status).toBe(1);
    expect(strict.stderr).toMatch(/: error\[W0703\]: /);
    const json = JSON.parse(runTool('pto-vm', ...args, '--json').stdout);
    expect(json.sync.map((f: { code: string }) => f.code)).toEqual(['W0703']);
  });
});
