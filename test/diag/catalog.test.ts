/**
 * The diagnostics catalog: codes are well formed and unique, docs/diagnostics.md is what the catalog generates,
 * every kind is reported somewhere in src/, and every example, run through the real tool, reports its code.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { DIAGNOSTICS, DiagnosticKind } from '../../src/diag/catalog';
import { EXAMPLES, diagnosticsDoc, exampleArgs, shownOutput } from '../../src/tools/diagnostics-doc';
import { ROOT, runToolAsync } from '../fixtures/cli';

const entries = Object.entries(DIAGNOSTICS) as [string, DiagnosticKind][];

describe('the diagnostics catalog', () => {
  it('has well-formed, unique codes whose letter is their severity', () => {
    const codes = entries.map(([, k]) => k.code);
    expect(new Set(codes).size).toBe(codes.length);
    for (const [, k] of entries) {
      expect(k.code).toMatch(/^[EW]0[1-9]\d\d$/);
      expect(k.code[0]).toBe(k.severity === 'error' ? 'E' : 'W');
    }
  });

  it('has no kind that src/ never reports', () => {
    const sources: string[] = [];
    const walk = (dir: string): void => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) walk(p);
        else if (p.endsWith('.ts') && !p.endsWith(path.join('diag', 'catalog.ts'))) sources.push(fs.readFileSync(p, 'utf8'));
      }
    };
    walk(path.join(ROOT, 'src'));
    const text = sources.join('\n');
    expect(entries.map(([name]) => name).filter((name) => !new RegExp(`\\b(D|DIAGNOSTICS)\\.${name}\\b`).test(text))).toEqual([]);
  });

  it('shows an example for all but a few kinds, each saying why not', () => {
    const without = entries.filter(([, k]) => 'noExample' in k.example);
    expect(without.length).toBeLessThanOrEqual(3);
    for (const [, k] of without) expect((k.example as { noExample: string }).noExample.length).toBeGreaterThan(20);
  });
});

describe('every example reports its code', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pto-diagnostics-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  /** What each example printed, for the page's check below. */
  const outputs = new Map<string, string>();

  it.each(EXAMPLES)(
    '%s',
    async (name, kind) => {
      const example = kind.example;
      const file = path.join(dir, `${name}.pto`);
      fs.writeFileSync(file, example.program);
      const r = await runToolAsync(example.tool, ...exampleArgs(example, file));
      outputs.set(name, shownOutput(r.stderr, file));
      const reported = [...r.stderr.matchAll(/^\S+:\d+:\d+: (error|warning)\[([EW]\d{4})\]/gm)].map((m) => m[2]);
      // The example shows its kind and nothing else.
      expect({ codes: [...new Set(reported)], stderr: r.stderr }).toEqual({ codes: [kind.code], stderr: r.stderr });
      // An error fails the run; a warning alone does not.
      expect(r.status).toBe(kind.severity === 'error' ? 1 : 0);
    },
    60_000,
  ); // one process each: seconds apiece on a loaded machine

  it('are shown, with what they print, by the generated docs/diagnostics.md (npm run docs:diagnostics)', () => {
    expect(outputs.size).toBe(EXAMPLES.length);
    expect(fs.readFileSync(path.join(ROOT, 'docs', 'diagnostics.md'), 'utf8')).toBe(diagnosticsDoc((name) => outputs.get(name)));
  });
});
