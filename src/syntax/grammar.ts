import { createHash } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import * as ohm from 'ohm-js';

/** The PTO-AS grammar (pto.ohm beside this file, with its statement rules), compiled once per process. */
let compiled: ohm.Grammar | undefined;

export function ptoGrammar(): ohm.Grammar {
  if (!compiled) {
    const source = grammarSource(fs.readFileSync(path.join(__dirname, 'pto.ohm'), 'utf8'));
    compiled = fromRecipe(source) ?? ohm.grammar(source);
  }
  return compiled;
}

/** The body rules of pto.ohm: what follows an op's name, each named by the op definitions that use it. */
export function bodyRules(ohmText: string): string[] {
  return [...ohmText.matchAll(/^ {2}([A-Z]\w*Body) =/gm)].map((m) => m[1]);
}

/** The start rule of a statement whose op has this body rule. */
export function statementRule(body: string): string {
  return `${body}Stmt`;
}

/**
 * The grammar's text with one statement rule per body rule (`ScfForBodyStmt = Stmt<ScfForBody>`), derived rather
 * than written out: a statement is matched from a plain rule name, since Ohm parses a parameterized start rule
 * (`Stmt<ScfForBody>`) anew on every match, which costs more than matching the statement.
 */
export function grammarSource(ohmText: string): string {
  const rules = bodyRules(ohmText).map((body) => `  ${statementRule(body)} = Stmt<${body}>`);
  const end = ohmText.lastIndexOf('}');
  return `${ohmText.slice(0, end)}\n  // ---- Derived by src/syntax/grammar.ts: one statement rule per body rule\n${rules.join('\n')}\n}\n`;
}

/**
 * The build's precompiled recipe of exactly this grammar text, if there is one (see scripts/copy-assets.js): beside
 * this module in dist/syntax/, or, for this module run from src/ (the tests, through ts-jest), the build's in
 * dist/syntax/, which spares each test file the quarter second of compiling the grammar. A stale build's recipe is of
 * another text: it is not used.
 */
function fromRecipe(source: string): ohm.Grammar | undefined {
  let saved: { hash: string; recipe: unknown } | undefined;
  for (const dir of [__dirname, path.join(__dirname, '..', '..', 'dist', 'syntax')]) {
    try {
      saved = JSON.parse(fs.readFileSync(path.join(dir, 'pto.ohm.recipe.json'), 'utf8'));
      break;
    } catch {
      // Not built there.
    }
  }
  if (!saved) return undefined;
  const hash = createHash('sha256').update(source).digest('hex');
  return saved.hash === hash ? (ohm as unknown as { makeRecipe(r: unknown): ohm.Grammar }).makeRecipe(saved.recipe) : undefined;
}
