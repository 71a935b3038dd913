import { createHash } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import * as ohm from 'ohm-js';

/** The PTO-AS grammar (pto.ohm beside this file), compiled once per process. */
let compiled: ohm.Grammar | undefined;

export function ptoGrammar(): ohm.Grammar {
  if (!compiled) {
    const source = fs.readFileSync(path.join(__dirname, 'pto.ohm'), 'utf8');
    compiled = fromRecipe(source) ?? ohm.grammar(source);
  }
  return compiled;
}

/** The build's precompiled recipe of exactly this grammar text, if there is one (see scripts/copy-assets.js). */
function fromRecipe(source: string): ohm.Grammar | undefined {
  let saved: { hash: string; recipe: unknown };
  try {
    saved = JSON.parse(fs.readFileSync(path.join(__dirname, 'pto.ohm.recipe.json'), 'utf8'));
  } catch {
    return undefined;
  }
  const hash = createHash('sha256').update(source).digest('hex');
  return saved.hash === hash ? (ohm as unknown as { makeRecipe(r: unknown): ohm.Grammar }).makeRecipe(saved.recipe) : undefined;
}
