/**
 * The parameters of a type (`<loc=vec, dtype=f16, rows=16, ...>`) read from the recorded match of their shape must be
 * what matching them gives: on the types of the shipped programs and fixtures, on the PTOAS corpus when
 * PTO_UPSTREAM_DIR is set, and on those types with their numbers changed (also into what does not match).
 */
import fc from 'fast-check';
import * as fs from 'fs';
import * as path from 'path';
import { DiagnosticBag } from '../../src/diag/diagnostic';
import { SourceFile } from '../../src/diag/source';
import { parseModule } from '../../src/syntax/parse';
import { readParameters } from '../../src/syntax/type-table';
import { RecordedShape } from '../../src/syntax/shape-cache';
import { opRegistry } from '../../src/ops/registry';
import { corpusFiles } from '../../src/corpus/files';
import { SHIPPED_PTO_FILES } from '../fixtures/shipped';
import { childEntries, isTypeRef } from '../fixtures/ast-walk';

const RUNS = Number(process.env.PTO_PROPERTY_RUNS ?? 100);

/** The `<...>` of every parameterized type written in the files, each once, in the order met. */
function typeBodies(files: string[]): string[] {
  const bodies = new Set<string>();
  const walk = (x: unknown): void => {
    if (Array.isArray(x)) x.forEach(walk);
    else if (x && typeof x === 'object') {
      const o = x as Record<string, unknown>;
      if (isTypeRef(o) && (o.text as string).startsWith('!') && (o.text as string).includes('<'))
        bodies.add((o.text as string).slice((o.text as string).indexOf('<')));
      childEntries(o).forEach(([, v]) => walk(v));
    }
  };
  for (const file of files) {
    const source = new SourceFile(file, fs.readFileSync(file, 'utf8'));
    walk(parseModule(source, new DiagnosticBag(source), opRegistry()));
  }
  return [...bodies];
}

const SHIPPED = typeBodies(SHIPPED_PTO_FILES);

const matched = (body: string) => JSON.stringify(readParameters(body, undefined) ?? null);

/** Reads every body with one set of shapes (each shape recorded when first met); returns how many shapes it recorded. */
function expectSameItems(bodies: string[]): number {
  const shapes = new Map<string, RecordedShape | 'unreplayable'>();
  for (const body of bodies) expect([body, JSON.stringify(readParameters(body, shapes) ?? null)]).toEqual([body, matched(body)]);
  return [...shapes.values()].filter((s) => s !== 'unreplayable').length;
}

describe('type parameters read from a recorded shape == matched', () => {
  test('the types of the shipped programs and fixtures', () => {
    expect(SHIPPED.length).toBeGreaterThan(40);
    const shapes = expectSameItems(SHIPPED);
    // Types that differ only in their numbers share a shape.
    expect(shapes).toBeGreaterThan(5);
    expect(shapes).toBeLessThan(SHIPPED.length);
  });

  test('a recorded shape gives each body its own numbers', () => {
    const shapes = new Map<string, RecordedShape | 'unreplayable'>();
    readParameters('<loc=vec, dtype=f16, rows=16, cols=64, fractal=512>', shapes);
    expect(readParameters('<loc=vec, dtype=f16, rows=1, cols=128, fractal=1024>', shapes)).toEqual([
      { kind: 'ident', text: 'vec', key: 'loc' },
      { kind: 'type', text: 'f16', key: 'dtype' },
      { kind: 'dims', text: '1', key: 'rows' },
      { kind: 'dims', text: '128', key: 'cols' },
      { kind: 'dims', text: '1024', key: 'fractal' },
    ]);
    expect(shapes.size).toBe(1);
  });

  test('the sizes of a shape share one record; a hex number does not pass for a size', () => {
    const shapes = new Map<string, RecordedShape | 'unreplayable'>();
    readParameters('<16x256xbf16>', shapes);
    expect(readParameters('<1x8192xbf16>', shapes)).toEqual([{ kind: 'shaped', text: '1x8192xbf16' }]);
    expect(shapes.size).toBe(1);
    // `0x1F` is a number; `5x1F` is nothing the grammar reads, however it was recorded.
    expect(readParameters('<0x1F>', shapes)).toEqual([{ kind: 'number', text: '0x1F' }]);
    expect(readParameters('<5x1F>', shapes)).toBeUndefined();
    expect(readParameters('<0x10>', shapes)).toEqual(readParameters('<0x10>', undefined));
    expect(readParameters('<7x10>', shapes)).toEqual([{ kind: 'dims', text: '7x10' }]);
  });

  const newNumber = fc.constantFrom('0', '7', '16', '4096', '-1', '1.5', '0x10', '0x1F', '?', '', '2x', '1e3', '12345678901234567890');
  const mutatedBodies = fc
    .array(fc.tuple(fc.nat(SHIPPED.length - 1), fc.array(fc.tuple(fc.nat(), newNumber), { minLength: 1, maxLength: 3 })), { minLength: 1, maxLength: 12 })
    .map((picks) =>
      picks.map(([i, changes]) =>
        changes.reduce((body, [k, to]) => {
          const numbers = [...body.matchAll(/\d+/g)];
          if (numbers.length === 0) return body;
          const m = numbers[k % numbers.length];
          return body.slice(0, m.index!) + to + body.slice(m.index! + m[0].length);
        }, SHIPPED[i]),
      ),
    );

  test('bodies with their numbers changed, one set of shapes for each list', () => {
    fc.assert(
      fc.property(mutatedBodies, (bodies) => {
        expectSameItems(bodies);
      }),
      { numRuns: RUNS },
    );
  });
});

const upstream = process.env.PTO_UPSTREAM_DIR;
if (!upstream) {
  test.skip('PTO_UPSTREAM_DIR is not set: export tonibohnlein/PTOAS (e32488c9) and point PTO_UPSTREAM_DIR at it to compare on the types of its corpus', () =>
    undefined);
} else {
  test('the types of every .pto of the PTOAS corpus', () => {
    const files = [...corpusFiles(upstream, 'test/samples', (f) => f.endsWith('.pto')), ...corpusFiles(upstream, 'test/lit/pto', (f) => f.endsWith('.pto'))];
    const bodies = typeBodies(files.map((f) => path.join(upstream, f)));
    expect(bodies.length).toBeGreaterThan(500);
    // Half of them share a shape with another.
    expect(expectSameItems(bodies)).toBeLessThan(bodies.length * 0.6);
  }, 600_000);
}
