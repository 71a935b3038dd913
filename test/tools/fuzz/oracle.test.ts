import { abstractMessage, check, isLocatedError, matchesKnown, opsOf, poolFailure } from '../../../src/tools/fuzz/oracle';
import { CaseRequest, CaseResult } from '../../../src/tools/fuzz/protocol';

const PATH = '/tmp/w0/case1.pto';
const req: CaseRequest = {
  id: 1,
  tool: 'pto-as',
  text: 'module {\n  func.func @f() {\n    return\n  }\n}\n',
  fileName: 'case1.pto',
  argv: ['FILE'],
  allowedOutputs: [],
};
/** A run's result; its error count is that of its stderr, as if all of it was kept (unless given). */
const result = (over: Partial<CaseResult>): CaseResult => ({
  id: 1,
  code: 0,
  stdout: '',
  stderr: '',
  stdoutLength: 0,
  stderrLength: 0,
  stderrErrors: (over.stderr ?? '').split('\n').filter((line) => /^\/tmp\/w0\/case1\.pto:\d+:\d+: error/.test(line)).length,
  ms: 1,
  strays: [],
  path: PATH,
  ...over,
});
const located = (line: number, col: number, what = 'error[E0102]') => `${PATH}:${line}:${col}: ${what}: bad thing\n  func.func @f() {\n  ^\n`;

describe('the fuzz oracle', () => {
  it('accepts a clean run, a located rejection, and a usage error', () => {
    expect(check(req, result({}))).toBeUndefined();
    expect(check(req, result({ code: 1, stderr: located(2, 3) }))).toBeUndefined();
    expect(check(req, result({ code: 0, stderr: located(2, 3, 'warning[W0001]') + `${PATH}: note: a run's note\n` }))).toBeUndefined();
    expect(check(req, result({ code: 2, stderr: 'error: the file defines no function to run\nRun with --help for usage.\n' }))).toBeUndefined();
  });

  it('classifies each kind of failure', () => {
    const cls = (over: Partial<CaseResult>) => check(req, result(over))?.class;
    expect(cls({ code: undefined, exception: { message: 'Maximum call stack size exceeded', name: 'RangeError' } })).toBe('internal-error');
    expect(cls({ code: 1, stderr: 'pto-as: internal error: boom\n' })).toBe('internal-error');
    expect(cls({ code: 1, stderr: 'TypeError: x\n    at foo (/work/dist/a.js:1:2)\n' })).toBe('stack-trace');
    expect(cls({ code: 3 })).toBe('bad-exit-code');
    expect(cls({ code: 1, stderr: 'error: something without a place\n' })).toBe('unlocated-error');
    expect(cls({ code: 1, stderr: `${PATH}: error: no position\n` })).toBe('unlocated-error');
    expect(cls({ code: 1, stderr: located(2, 3, 'error') })).toBe('unlocated-error');
    expect(cls({ code: 1, stderr: located(99, 1) })).toBe('bad-location');
    expect(cls({ code: 1, stderr: located(2, 80) })).toBe('bad-location');
    expect(cls({ code: 0, stderr: located(2, 3) })).toBe('exit-mismatch');
    expect(cls({ code: 1, stderr: '' })).toBe('exit-mismatch');
    expect(cls({ strays: ['out.txt'] })).toBe('stray-output');
    expect(poolFailure('timeout', 'pto-vm', 'no answer', 'scf.for %i = %a to %b step %c {\n}\n%x = arith.addi %a, %b').signature).toBe(
      'timeout: pto-vm [arith.addi scf.for]',
    );
  });

  it('judges the exit code by the errors of the whole stream, not of the text kept (an error cut out of it)', () => {
    // The kept head ended inside the error's first line; the worker counted the error over the whole stream.
    const cut = located(2, 3, 'warning[W0411]') + `${PATH}:2:5: error[E0101]:\n[... 44 characters left out ...]\n  func.func @f() {\n  ^\n`;
    expect(check(req, result({ code: 1, stderr: cut, stderrErrors: 1 }))).toBeUndefined();
    expect(check(req, result({ code: 1, stderr: cut, stderrErrors: 0 }))?.class).toBe('exit-mismatch');
    expect(check(req, result({ code: 0, stderr: located(2, 3, 'warning[W0411]'), stderrErrors: 1 }))?.class).toBe('exit-mismatch');
    expect(isLocatedError(`${PATH}:2:5: error[E0101]: x`, PATH)).toBe(true);
    expect(isLocatedError(`${PATH}:2:5: warning[W0411]: x`, PATH)).toBe(false);
    expect(isLocatedError(`/other.pto:2:5: error[E0101]: x`, PATH)).toBe(false);
  });

  it('abstracts numbers, names, quoted text and the path out of signatures', () => {
    expect(abstractMessage('Invalid typed array length: 40000000000')).toBe('Invalid typed array length: N');
    expect(abstractMessage(`${PATH}:3:4: %x and @f in 'foo' at 0x1F`, PATH)).toBe("FILE:N:N: %V and @F in 'S' at N");
    expect(abstractMessage("Cannot read properties of undefined (reading 'kind')\nat x")).toBe("Cannot read properties of undefined (reading 'kind')");
    expect(opsOf('%a = pto.tadd ins(...)\n  arith.constant 1')).toEqual(['arith.constant', 'pto.tadd']);
  });

  it('matches known signatures exactly or with *', () => {
    expect(matchesKnown('internal-error: RangeError: Maximum call stack size exceeded', 'internal-error: RangeError: Maximum call stack size exceeded')).toBe(
      true,
    );
    expect(matchesKnown('timeout: pto-vm [scf.for]', 'timeout: pto-vm [*]')).toBe(true);
    expect(matchesKnown('timeout: pto-as [scf.for]', 'timeout: pto-vm [*]')).toBe(false);
    expect(matchesKnown('internal-error: a.b', 'internal-error: a*b')).toBe(true);
    expect(matchesKnown('internal-error: axb', 'internal-error: a.b')).toBe(false);
  });
});
