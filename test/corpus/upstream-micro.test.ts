/**
 * PTOAS's micro-level lit tests (test/lit/vpto and test/lit/vmi_new at e32488c9), read in place from PTO_UPSTREAM_DIR,
 * an export of that repository; nothing of it is committed. Measured apart from the tile level's lit tests
 * (upstream.test.ts), which these numbers do not change:
 *
 *   PTO_UPSTREAM_DIR=/path/to/PTOAS npx jest test/corpus/upstream-micro
 *   node dist/corpus/survey.js /path/to/PTOAS lit-micro-valid|lit-micro-invalid [--list]   (what still fails, grouped)
 *   node dist/corpus/survey.js /path/to/PTOAS lit-micro --write-exceptions                 (rewrites the list below)
 *
 * A case is one ptoas or pto-test-opt command of a RUN line (src/corpus/lit-cases.ts). Each case that does not go as
 * PTOAS goes (a valid one rejected, an invalid one accepted) is listed in upstream-micro-exceptions.json; a listed
 * case that starts to agree, or a new disagreement, fails.
 */
import { Outcome, microExceptions, surveyMicroLit } from '../../src/corpus/survey';
import { failingChunks, litCases, splitInputChunks } from '../../src/corpus/lit-cases';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import exceptions from './upstream-micro-exceptions.json';

const root = process.env.PTO_UPSTREAM_DIR;

function expectExactlyListed(outcomes: Outcome[], listed: Record<string, string>): void {
  const failing = outcomes.filter((o) => !o.accepted);
  const unlisted = failing.filter((o) => !(o.name in listed)).map((o) => `${o.name}  ${o.error ?? ''}`);
  const names = new Set(failing.map((o) => o.name));
  const stale = Object.keys(listed).filter((name) => !names.has(name));
  expect({ unlisted, stale }).toEqual({ unlisted: [], stale: [] });
}

describe('reading micro-level lit tests', () => {
  function casesOf(text: string) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lit-'));
    fs.mkdirSync(path.join(dir, 'test/lit/vpto'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'test/lit/vpto/t.pto'), text);
    const read = litCases(dir, 'test/lit/vpto/t.pto');
    fs.rmSync(dir, { recursive: true, force: true });
    return read;
  }

  test('`! ptoas`, `not env -u NAME ptoas`, `( ptoas ... || true )` and pto-test-opt are cases, with their --pto-backend; `ptoas --help` is not', () => {
    const { cases, skipped } = casesOf(
      [
        '// RUN: ! ptoas --pto-arch=a5 --pto-backend=vpto %s 2>&1 | FileCheck %s',
        '// RUN: not env -u ASCEND_HOME_PATH ptoas --pto-arch=a5 %s -o %t.o 2>&1 | FileCheck %s',
        '// RUN: ( ptoas --pto-arch=a3 --emit-vpto-llvm-ir %s -o %t 2>&1 || true ) | FileCheck %s',
        '// RUN: pto-test-opt %s -vmi-to-vpto | FileCheck %s',
        '// RUN: ptoas --help | FileCheck %s',
        'module {}',
      ].join('\n'),
    );
    expect(cases.map((c) => [c.tool, c.arch, c.backend, c.expectReject])).toEqual([
      ['ptoas', 'a5', 'vpto', true],
      ['ptoas', 'a5', undefined, true],
      ['ptoas', 'a3', undefined, false],
      ['pto-test-opt', undefined, undefined, false],
    ]);
    expect(skipped).toEqual(['ptoas --help | FileCheck %s']);
  });

  test("pto-test-opt's passes are the case's, in order, without its other flags; ptoas has none", () => {
    const { cases } = casesOf(
      [
        '// RUN: not pto-test-opt %s -split-input-file -vmi-lower-unified-to-legacy --vmi-layout-assignment -vmi-to-vpto -o - 2>&1 | FileCheck %s',
        '// RUN: ptoas --pto-arch=a5 --pto-backend=vpto %s',
        'module {}',
      ].join('\n'),
    );
    expect(cases.map((c) => c.passes)).toEqual([['vmi-lower-unified-to-legacy', 'vmi-layout-assignment', 'vmi-to-vpto'], []]);
  });

  test('lines that end with CR alone are lines', () => {
    const { cases } = casesOf('// RUN: not ptoas %s 2>&1 | FileCheck %s\rmodule {}\r');
    expect(cases.map((c) => c.expectReject)).toEqual([true]);
    expect(cases[0].text).toBe('// RUN: not ptoas %s 2>&1 | FileCheck %s\nmodule {}\n');
  });

  test('-split-input-file makes a case per chunk, at its lines; with -verify-diagnostics a chunk must fail when it expects an error', () => {
    const text = '// RUN: pto-test-opt %s -split-input-file -verify-diagnostics\nmodule {}\n// -----\n// expected-error @+1 {{bad}}\nmodule {}\n';
    expect(splitInputChunks(text).map((c) => [c.text.split('\n').indexOf('module {}'), c.expectsError])).toEqual([
      [1, false],
      [4, true],
    ]);
    const { cases } = casesOf(text);
    expect(cases.map((c) => [c.part, c.expectReject])).toEqual([
      ['chunk 1', false],
      ['chunk 2', true],
    ]);
    // `not` without -verify-diagnostics: the chunks that hold a check line of the RUN line's prefixes fail, with as many
    // before them as they hold checks beyond one (all, when none holds one).
    expect(failingChunks([0, 1])).toEqual([false, true]);
    expect(failingChunks([0, 2])).toEqual([true, true]);
    expect(failingChunks([1, 0, 1])).toEqual([true, false, true]);
    expect(failingChunks([0, 0])).toEqual([true, true]);
    const rejected = casesOf('// RUN: not pto-test-opt %s -split-input-file 2>&1\nmodule {}\n// -----\nmodule {}\n').cases;
    expect(rejected.map((c) => [c.part, c.expectReject])).toEqual([
      ['chunk 1', true],
      ['chunk 2', true],
    ]);
    const checked = casesOf(
      '// RUN: not pto-test-opt %s -split-input-file 2>&1 | FileCheck %s --check-prefix=BAD\nmodule {}\n// CHECK-NOT: x\n// -----\nmodule {}\n// BAD: expected exactly 256 bytes\n',
    ).cases;
    expect(checked.map((c) => [c.part, c.expectReject])).toEqual([
      ['chunk 1', false],
      ['chunk 2', true],
    ]);
  });

  test('--write-exceptions keeps a reason someone wrote, and lists the others by their first error', () => {
    const valid: Outcome[] = [
      { name: 'a.pto', accepted: false, error: '3:1: bad' },
      { name: 'b.pto', accepted: false, error: '4:2: worse' },
      { name: 'c.pto', accepted: true },
    ];
    const invalid: Outcome[] = [{ name: 'd.pto', accepted: false, error: '0:0: accepted' }];
    const before = { litValid: { 'a.pto': 'checks only LLVM emission', 'b.pto': 'first error 1:1: old', 'c.pto': 'x' }, litInvalid: {} };
    expect(microExceptions(valid, invalid, before)).toEqual({
      litValid: { 'a.pto': 'checks only LLVM emission', 'b.pto': 'first error 4:2: worse' },
      litInvalid: { 'd.pto': 'accepted, but PTOAS rejects it' },
    });
  });
});

if (!root) {
  test.skip('PTO_UPSTREAM_DIR is not set: export tonibohnlein/PTOAS (e32488c9) and point PTO_UPSTREAM_DIR at it to run the micro-level lit tests', () =>
    undefined);
} else {
  test('micro-level lit cases PTOAS accepts: each is accepted or listed', () => {
    const outcomes = surveyMicroLit(root, false);
    expect(outcomes.length).toBeGreaterThan(700);
    expectExactlyListed(outcomes, exceptions.litValid);
  });

  test('micro-level lit cases PTOAS rejects: each is rejected or listed', () => {
    const outcomes = surveyMicroLit(root, true);
    expect(outcomes.length).toBeGreaterThan(450);
    expectExactlyListed(outcomes, exceptions.litInvalid);
  });
}
