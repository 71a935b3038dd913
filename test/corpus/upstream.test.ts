/**
 * Today's PTOAS corpus (tonibohnlein/PTOAS at e32488c9: test/samples, test/lit/pto and test/lit/tile_fusion), read in place
 * from PTO_UPSTREAM_DIR, an export of that repository; nothing of it is committed.
 *
 *   PTO_UPSTREAM_DIR=/path/to/PTOAS npx jest test/corpus/upstream
 *   node dist/corpus/survey.js /path/to/PTOAS samples|lit-valid|lit-invalid [--list]   (what still fails, grouped)
 *
 * Each sample is assembled as PTOAS's sample runner assembles it, each lit case as its RUN line runs ptoas, and each
 * function of each sample is run with generated inputs. Where the toolchain's outcome differs from PTOAS's, the case
 * is listed in upstream-exceptions.json with the reason; a case that starts to agree, or a new disagreement, fails.
 */
import { Outcome, surveyLit, surveyRuns, surveySamples, tileLevel } from '../../src/corpus/survey';
import { litCases, litFiles, runLines, splitParts } from '../../src/corpus/lit-cases';
import { namesA5Target, sampleCases } from '../../src/corpus/samples';
import { corpusFiles } from '../../src/corpus/files';
import { assemble } from '../../src/verify/assemble';
import { printCanonical } from '../../src/emit/canonical';
import { formatAll } from '../../src/diag/diagnostic';
import { TargetName } from '../../src/spec/schema';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import exceptions from './upstream-exceptions.json';

const root = process.env.PTO_UPSTREAM_DIR;

/** The cases that do not go as PTOAS goes are exactly the listed ones: none unlisted, none listed that now agrees. */
function expectExactlyListed(outcomes: Outcome[], listed: Record<string, string>): void {
  const failing = outcomes.filter((o) => !o.accepted);
  const unlisted = failing.filter((o) => !(o.name in listed)).map((o) => `${o.name}  ${o.error ?? ''}`);
  const names = new Set(failing.map((o) => o.name));
  const stale = Object.keys(listed).filter((name) => !names.has(name));
  expect({ unlisted, stale }).toEqual({ unlisted: [], stale: [] });
}

const share = (outcomes: Outcome[]) => outcomes.filter((o) => o.accepted).length / outcomes.length;

describe('reading lit tests', () => {
  test('RUN lines join their continuations; split-file parts keep their line numbers', () => {
    const text = '// RUN: split-file %s %t\n// RUN: not ptoas --pto-arch=a5 \\\n// RUN:   %t/bad.pto 2>&1 | FileCheck %s\n//--- bad.pto\nmodule {}\n';
    expect(runLines(text)).toEqual(['split-file %s %t', 'not ptoas --pto-arch=a5 %t/bad.pto 2>&1 | FileCheck %s']);
    const part = splitParts(text).get('bad.pto')!;
    expect(part.split('\n')[4]).toBe('module {}');
  });

  test('a case per ptoas command: its input, target, build level and whether ptoas must fail', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lit-'));
    fs.mkdirSync(path.join(dir, 'test/lit/pto'), { recursive: true });
    const file = 'test/lit/pto/t.pto';
    fs.writeFileSync(
      path.join(dir, file),
      '// RUN: ptoas --pto-arch a3 --pto-level=level3 %s | FileCheck %s\n// RUN: not ptoas %s -o /dev/null 2>&1 | FileCheck %s\n// RUN: sed s/a/b/ %s > %t.x && ptoas %t.x\nmodule {}\n',
    );
    const { cases, skipped } = litCases(dir, file);
    expect(cases.map((c) => [c.arch, c.level, c.expectReject])).toEqual([
      ['a3', 'level3', false],
      [undefined, 'level2', true],
    ]);
    expect(skipped).toHaveLength(1);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

if (!root) {
  test.skip('PTO_UPSTREAM_DIR is not set: export tonibohnlein/PTOAS (e32488c9) and point PTO_UPSTREAM_DIR at it to run the corpus', () => undefined);
} else {
  // As PTOAS's sample runner builds them (src/corpus/samples.ts): an `_invalid` sample counts when it is rejected.
  test('samples: at least 99% assemble on their target as the runner expects; the others are listed', () => {
    const outcomes = surveySamples(root);
    expect(outcomes.length).toBe(722);
    expect(share(outcomes)).toBeGreaterThanOrEqual(0.99);
    expectExactlyListed(outcomes, exceptions.samples);
  });

  test('every kernel of every sample that assembles runs with generated inputs (a cube/vector pair as one launch), or is listed', () => {
    const outcomes = surveyRuns(root);
    expect(outcomes.length).toBeGreaterThan(700);
    expectExactlyListed(outcomes, exceptions.runs);
  });

  // The VPTO micro-op cases are counted apart (tileLevel): they come with a later issue.
  test('lit cases PTOAS accepts: at least 97% are accepted; the others are listed', () => {
    const outcomes = tileLevel(surveyLit(root, false));
    expect(share(outcomes)).toBeGreaterThanOrEqual(0.97);
    expectExactlyListed(outcomes, exceptions.litValid);
  });

  test('lit cases PTOAS rejects: at least 95% are rejected; the others are listed', () => {
    const outcomes = tileLevel(surveyLit(root, true)).map((o) => ({ ...o, accepted: !o.accepted, error: o.accepted ? 'accepted' : o.error }));
    expect(share(outcomes)).toBeGreaterThanOrEqual(0.95);
    expectExactlyListed(outcomes, exceptions.litInvalid);
  });

  test('every sample and valid lit case that assembles prints a canonical form that assembles again, a fixed point', () => {
    const inputs = [
      ...sampleCases(root).map((c) => ({ name: c.file, text: fs.readFileSync(path.join(root, c.file), 'utf8'), target: c.target as TargetName })),
      ...litFiles(root).flatMap((file) =>
        litCases(root, file)
          .cases.filter((c) => !c.expectReject)
          .map((c) => ({
            name: `${file}:${c.part ?? ''}`,
            text: c.text,
            target: (c.arch === 'a5' ? 'a5' : c.arch === 'a3' ? 'a2a3' : undefined) as TargetName | undefined,
          })),
      ),
    ];
    const broken: string[] = [];
    let checked = 0;
    for (const { name, text, target } of inputs) {
      const options = { target: namesA5Target(text) ? undefined : target };
      const first = assemble(name, text, options);
      if (first.diags.hasErrors()) continue;
      const canonical = printCanonical(first.module, first.types);
      const again = assemble(name, canonical, options);
      if (again.diags.hasErrors()) broken.push(`${name}: ${formatAll(again.diags).split('\n')[0]}`);
      else if (printCanonical(again.module, again.types) !== canonical) broken.push(`${name}: not a fixed point`);
      checked++;
    }
    expect(checked).toBeGreaterThan(1100);
    expect(broken).toEqual([]);
  });

  test("no file of the fork's test/ tree crashes the assembler, VPTO files included (their micro-ops are reported, located)", () => {
    const files = corpusFiles(root, 'test', (f) => /\.(pto|mlir)$/.test(f));
    const crashes: string[] = [];
    for (const file of files) {
      const text = fs.readFileSync(path.join(root, file), 'utf8');
      for (const target of ['a2a3', 'a5'] as TargetName[]) {
        try {
          assemble(file, text, { target });
        } catch (e) {
          crashes.push(`${file} (${target}): ${String(e)}`);
        }
      }
    }
    expect(files.length).toBeGreaterThan(2900);
    expect(crashes).toEqual([]);
  });
}
