/**
 * The build's recipe of the grammar (dist/syntax/pto.ohm.recipe.json, scripts/copy-assets.js), which the tools load
 * instead of compiling pto.ohm: it leaves out the grammar's text and source positions, and is the same grammar as the
 * text compiles to, with the same match failures (dist/ must be built: `npm test` builds it first).
 */
import * as fs from 'fs';
import * as path from 'path';
import { createHash } from 'crypto';
import * as ohm from 'ohm-js';
import { grammarSource } from '../../src/syntax/grammar';

const ROOT = path.join(__dirname, '..', '..');
const source = grammarSource(fs.readFileSync(path.join(ROOT, 'src', 'syntax', 'pto.ohm'), 'utf8'));
const saved = JSON.parse(fs.readFileSync(path.join(ROOT, 'dist', 'syntax', 'pto.ohm.recipe.json'), 'utf8'));
const fromText = ohm.grammar(source);
const fromRecipe = (ohm as unknown as { makeRecipe(r: unknown): ohm.Grammar }).makeRecipe(saved.recipe);

type Rules = Record<string, { body: { toString(): string }; formals: string[]; description?: string }>;
const rulesOf = (g: ohm.Grammar): Rules => (g as unknown as { rules: Rules }).rules;

test('the recipe is of this grammar text, without its text', () => {
  expect(saved.hash).toBe(createHash('sha256').update(source).digest('hex'));
  expect(JSON.stringify(saved.recipe)).not.toContain('sourceInterval');
  expect(JSON.stringify(saved.recipe)).not.toContain('ScfForBody = ');
});

test('every rule has the same body, parameters and description', () => {
  const described = (g: ohm.Grammar) =>
    Object.fromEntries(
      Object.entries(rulesOf(g)).map(([name, r]) => [name, { body: r.body.toString(), formals: r.formals, description: r.description ?? undefined }]),
    );
  expect(Object.keys(rulesOf(fromRecipe)).length).toBeGreaterThan(100);
  expect(described(fromRecipe)).toEqual(described(fromText));
});

test.each([
  ['TypeParameters', '<16x16xf32>'],
  ['TypeParameters', '<16x16xf32'],
  ['TypeParameters', '<16x?xbogus, 3>'],
  ['BlockLabel', '^bb0(%a: index):'],
  ['BlockLabel', '^bb0(%a index):'],
  ['ScfForBodyStmt', 'scf.for %i = %c0 to %c16 step %c1 {}'],
  ['ScfForBodyStmt', 'scf.for %i = %c0 to %c16 {}'],
  ['ScfForBodyStmt', 'scf.for %i = to'],
  ['AliasDef', '!t = !pto.tile<16x16xf32>'],
  ['AliasDef', '!t = '],
])('%s on %j: the same result, and the same failure', (rule, input) => {
  const outcome = (g: ohm.Grammar) => {
    const m = g.match(input, rule);
    // The failure's details: methods Ohm's typings do not declare.
    const failure = m as unknown as { getRightmostFailurePosition(): number; getExpectedText(): string; shortMessage: string };
    return m.succeeded() ? 'matched' : { at: failure.getRightmostFailurePosition(), expected: failure.getExpectedText(), message: failure.shortMessage };
  };
  expect(outcome(fromRecipe)).toEqual(outcome(fromText));
});
