/** Helpers over the AST (src/syntax/ast.ts) against their definitions. */
import * as fs from 'fs';
import * as path from 'path';
import fc from 'fast-check';
import { DiagnosticBag } from '../../src/diag/diagnostic';
import { SourceFile } from '../../src/diag/source';
import { OpNode, hasUnclosedRegion } from '../../src/syntax/ast';
import { parseModule } from '../../src/syntax/parse';
import { opRegistry } from '../../src/ops/registry';

const ROOT = path.join(__dirname, '..', '..');

/** The definition: some region of some op, at any depth, was never closed. */
function anyUnclosedRegion(ops: OpNode[]): boolean {
  return ops.some((op) => op.regions.some((r) => r.unclosed === true || r.blocks.some((b) => anyUnclosedRegion(b.ops))));
}

function parsed(text: string): OpNode[] {
  const source = new SourceFile('t.pto', text);
  return parseModule(source, new DiagnosticBag(source), opRegistry()).ops;
}

const programs = fs
  .readdirSync(path.join(ROOT, 'programs'))
  .filter((f) => f.endsWith('.pto'))
  .map((f) => fs.readFileSync(path.join(ROOT, 'programs', f), 'utf8'));

describe('hasUnclosedRegion: down the last op of each level only', () => {
  it('a whole program has none; cut inside a nested region, it has one', () => {
    const text = 'module {\n  func.func @f(%n: index) {\n    scf.for %i = %n to %n step %n {\n    }\n    return\n  }\n}\n';
    expect(hasUnclosedRegion(parsed(text))).toBe(false);
    const cut = text.slice(0, text.indexOf('    }'));
    expect(anyUnclosedRegion(parsed(cut))).toBe(true);
    expect(hasUnclosedRegion(parsed(cut))).toBe(true);
  });

  it('says what the walk through every op says, for every program of programs/ cut anywhere', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: programs.length - 1 }), fc.double({ min: 0, max: 1, noNaN: true }), (k, at) => {
        const text = programs[k].slice(0, Math.floor(at * programs[k].length));
        const ops = parsed(text);
        expect(hasUnclosedRegion(ops)).toBe(anyUnclosedRegion(ops));
      }),
      { numRuns: 300 },
    );
  });
});
