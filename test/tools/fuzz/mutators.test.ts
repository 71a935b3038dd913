import * as fs from 'fs';
import * as path from 'path';
import { isSignificant, tokenize, untokenize } from '../../../src/tools/fuzz/lexer';
import { BOUNDARY_NUMBERS, MUTATION_KINDS, MUTATORS, MutationKind, NAME_GROUPS, mutate } from '../../../src/tools/fuzz/mutators';
import { Rng } from '../../../src/tools/fuzz/rng';
import { ADVERSARIES } from '../../../src/tools/fuzz/adversarial';
import { commandLines, generateCase } from '../../../src/tools/fuzz/campaign';

const PROGRAM = fs.readFileSync(path.join(__dirname, '..', '..', '..', 'programs', 'colsum-loop.pto'), 'utf8');
const DONOR = fs.readFileSync(path.join(__dirname, '..', '..', '..', 'programs', 'tcolmin.pto'), 'utf8');
const ctx = { donors: [DONOR] };
/** The program with a space between any two tokens: deleting or moving one cannot join its neighbours into one. */
const SPACED = tokenize(PROGRAM)
  .filter(isSignificant)
  .map((t) => t.text)
  .join(' ');

const significant = (text: string) => tokenize(text).filter(isSignificant);
const texts = (text: string) => significant(text).map((t) => t.text);
const sorted = (xs: string[]) => [...xs].sort();

/** Runs a mutator with seeds 1..n, keeping the results that apply. */
function outcomes(kind: MutationKind, n = 20, text = PROGRAM): string[] {
  const out: string[] = [];
  for (let s = 1; s <= n; s++) {
    const r = MUTATORS[kind](text, new Rng(s), ctx);
    if (r !== undefined) out.push(r);
  }
  expect(out.length).toBeGreaterThan(0);
  return out;
}

describe('the fuzzer lexer', () => {
  it('gives back the text it split, whatever the text', () => {
    for (const text of [PROGRAM, DONOR, 'a"unterminated\n%x = @"q\\"" !t<16x?xf32> #map ^bb0 0x1F 1.5e-3 -> :: \u0000\u2028é']) {
      expect(untokenize(tokenize(text))).toBe(text);
    }
  });

  it('knows MLIR shapes: SSA names, symbols, types, and the dimensions of a shape', () => {
    const kinds = tokenize('%a_1 = @f !pto.ptr<16x?xf32> 0x10 // c').map((t) => `${t.kind}:${t.text}`);
    expect(kinds.filter((k) => !k.startsWith('ws'))).toEqual([
      'ssa:%a_1',
      'punct:=',
      'symbol:@f',
      'bang:!pto.ptr',
      'punct:<',
      'number:16',
      'punct:x',
      'punct:?',
      'punct:x',
      'ident:f32',
      'punct:>',
      'number:0x10',
      'comment:// c',
    ]);
  });
});

describe('the mutators', () => {
  it('are deterministic from a seed', () => {
    for (const kind of MUTATION_KINDS) expect(MUTATORS[kind](PROGRAM, new Rng(7), ctx)).toBe(MUTATORS[kind](PROGRAM, new Rng(7), ctx));
    expect(mutate(PROGRAM, new Rng(99), ctx)).toEqual(mutate(PROGRAM, new Rng(99), ctx));
    const many = new Set(Array.from({ length: 20 }, (_, s) => mutate(PROGRAM, new Rng(s + 1), ctx).text));
    expect(many.size).toBeGreaterThan(15);
  });

  it('delete-token removes one significant token', () => {
    const before = significant(SPACED).length;
    for (const r of outcomes('delete-token', 20, SPACED)) expect(significant(r).length).toBe(before - 1);
  });

  it('duplicate-token adds a copy of one token', () => {
    const before = texts(SPACED);
    for (const r of outcomes('duplicate-token', 20, SPACED)) {
      const after = texts(r);
      expect(after.length).toBe(before.length + 1);
      const i = after.findIndex((t, k) => t !== before[k]);
      // The copy sits right after its original (or at the end).
      expect(i === -1 || after[i] === after[i - 1]).toBe(true);
    }
  });

  it('swap-tokens exchanges two tokens, keeping all of them', () => {
    const before = texts(SPACED);
    for (const r of outcomes('swap-tokens', 20, SPACED)) {
      const after = texts(r);
      expect(sorted(after)).toEqual(sorted(before));
      expect(after.filter((t, i) => t !== before[i]).length).toBeLessThanOrEqual(2);
    }
  });

  it('boundary-number puts a boundary value in place of one number', () => {
    const before = texts(PROGRAM);
    for (const r of outcomes('boundary-number')) {
      const after = texts(r);
      const changed = before.map((t, i) => [t, after[i]]).filter(([a, b]) => a !== b);
      // A boundary value may lex as more than one token (-1): compare from the first difference.
      const i = before.findIndex((t, k) => t !== after[k]);
      if (i === -1) continue; // the same value drawn
      expect(changed.length).toBeGreaterThan(0);
      expect(/^[0-9]/.test(before[i])).toBe(true);
      const rest = r.slice(r.indexOf(after[i], 0));
      expect(BOUNDARY_NUMBERS.some((b) => r.includes(b) && rest.length > 0)).toBe(true);
    }
  });

  it('replace-name swaps a name for another of its group', () => {
    const before = texts(PROGRAM);
    for (const r of outcomes('replace-name')) {
      const after = texts(r);
      expect(after.length).toBe(before.length);
      const diffs = before.map((t, i) => [t, after[i]]).filter(([a, b]) => a !== b);
      expect(diffs.length).toBe(1);
      const [a, b] = diffs[0];
      expect(NAME_GROUPS.some((g) => g.includes(a) && g.includes(b))).toBe(true);
    }
  });

  it('rename-value uses another existing SSA name or symbol', () => {
    const before = texts(PROGRAM);
    const names = new Set(before.filter((t) => t.startsWith('%') || t.startsWith('@')));
    for (const r of outcomes('rename-value')) {
      const after = texts(r);
      const diffs = before.map((t, i) => [t, after[i]]).filter(([a, b]) => a !== b);
      expect(diffs.length).toBe(1);
      expect(names.has(diffs[0][1])).toBe(true);
    }
  });

  it('truncate keeps a prefix', () => {
    for (const r of outcomes('truncate')) {
      expect(r.length).toBeLessThan(PROGRAM.length);
      expect(PROGRAM.startsWith(r)).toBe(true);
    }
  });

  it('splice inserts statements of a donor program', () => {
    const donorLines = new Set(DONOR.split('\n'));
    for (const r of outcomes('splice')) {
      // The lines added (the result's lines less the program's, as multisets) are all the donor's.
      const added = r.split('\n');
      for (const l of PROGRAM.split('\n')) added.splice(added.indexOf(l), 1);
      expect(added.length).toBeGreaterThan(0);
      for (const l of added) expect(donorLines.has(l)).toBe(true);
    }
  });

  it('deep-nesting wraps a token in at least 64 brackets of one kind', () => {
    for (const r of outcomes('deep-nesting')) expect(/([[{(<])\1{63,}/.test(r)).toBe(true);
  });

  it('line mutations delete, duplicate, swap and repeat lines', () => {
    const n = PROGRAM.split('\n').length;
    for (const r of outcomes('delete-line')) expect(r.split('\n').length).toBeLessThan(n);
    for (const r of outcomes('duplicate-line')) {
      const lines = r.split('\n');
      expect(lines.length).toBe(n + 1);
      expect(lines.some((l, i) => i > 0 && l === lines[i - 1])).toBe(true);
    }
    for (const r of outcomes('swap-lines')) expect(sorted(r.split('\n'))).toEqual(sorted(PROGRAM.split('\n')));
    for (const r of outcomes('repeat-lines', 5)) expect(r.split('\n').length).toBeGreaterThanOrEqual(n + 10);
  });

  it('insert-char adds one character', () => {
    for (const r of outcomes('insert-char')) expect(r.length).toBe(PROGRAM.length + 1);
  });
});

describe('cases of a campaign', () => {
  const corpus = [
    { name: 'a', text: PROGRAM },
    { name: 'b', text: DONOR },
  ];
  it('are the same for the same seed and index, and differ between indices', () => {
    expect(generateCase(5, 17, corpus, 0.1)).toEqual(generateCase(5, 17, corpus, 0.1));
    expect(commandLines(5, 17, 1000)).toEqual(commandLines(5, 17, 1000));
    const all = new Set(Array.from({ length: 30 }, (_, i) => generateCase(5, i, corpus, 0.1).text));
    expect(all.size).toBeGreaterThan(20);
  });

  it('include every adversary, each deterministic from its seed', () => {
    for (const a of ADVERSARIES) {
      expect(a.make(new Rng(3))).toBe(a.make(new Rng(3)));
      expect(a.make(new Rng(3)).length).toBeGreaterThan(20);
    }
    const origins = new Set(Array.from({ length: 2000 }, (_, i) => generateCase(1, i, corpus, 1).origin));
    expect(origins.size).toBe(ADVERSARIES.length);
  });
});
