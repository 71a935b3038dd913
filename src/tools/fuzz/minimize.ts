/**
 * Delta debugging (Zeller's ddmin, complement-first) of a failing input: first over its lines, then over its tokens,
 * then halving long repetitions, keeping each smaller candidate on which `fails` still holds. `fails` is asynchronous (a candidate is run in a
 * worker); a budget of tests bounds the time spent.
 */
import { isSignificant, tokenize } from './lexer';

export interface MinimizeOptions {
  /** The most candidates to test (default 400). */
  maxTests?: number;
  /** Stop after this many milliseconds (default: no limit). */
  maxMs?: number;
}

export interface Minimized {
  text: string;
  tests: number;
}

type Test = (candidate: string) => Promise<boolean>;

class Budget {
  tests = 0;
  private readonly deadline: number;
  constructor(private readonly opts: MinimizeOptions) {
    this.deadline = opts.maxMs === undefined ? Infinity : Date.now() + opts.maxMs;
  }
  get spent(): boolean {
    return this.tests >= (this.opts.maxTests ?? 400) || Date.now() > this.deadline;
  }
}

/** ddmin over `units` (joined by concatenation): a 1-minimal subsequence on which `fails` holds, within the budget. */
export async function ddmin(units: string[], fails: Test, budget: Budget): Promise<string[]> {
  let current = units;
  let n = 2;
  const cache = new Map<string, boolean>();
  const test = async (candidate: string[]) => {
    const text = candidate.join('');
    const known = cache.get(text);
    if (known !== undefined) return known;
    budget.tests++;
    const r = await fails(text);
    cache.set(text, r);
    return r;
  };
  while (current.length >= 2 && !budget.spent) {
    const size = Math.ceil(current.length / n);
    let reduced = false;
    // Complements first (remove one chunk), then the chunks alone (for n = 2 both are the same candidates).
    for (let i = 0; i < n && !budget.spent; i++) {
      const complement = [...current.slice(0, i * size), ...current.slice((i + 1) * size)];
      if (complement.length === current.length || complement.length === 0) continue;
      if (await test(complement)) {
        current = complement;
        n = Math.max(n - 1, 2);
        reduced = true;
        break;
      }
    }
    if (reduced) continue;
    if (n >= current.length) break;
    n = Math.min(n * 2, current.length);
  }
  return current;
}

/** Lines (each with its newline) of a text. */
export function lineUnits(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

/** Tokens of a text, each significant token with the layout after it (removing a unit removes both). */
export function tokenUnits(text: string): string[] {
  const units: string[] = [];
  let lead = '';
  for (const t of tokenize(text)) {
    if (isSignificant(t)) units.push(t.text);
    else if (units.length === 0) lead += t.text;
    else units[units.length - 1] += t.text;
  }
  if (lead) units.unshift(lead);
  return units;
}

/** Every run of 32 or more repetitions of a short pattern (1 to 8 characters) cut to half as many. */
export function halveRepetitions(text: string): string {
  return text.replace(/(.{1,8}?)\1{31,}/gs, (run: string, unit: string) => unit.repeat(Math.ceil(run.length / unit.length / 2)));
}

/** The input reduced over lines, then over tokens, as long as `fails` holds (it must hold on the input). */
export async function minimize(input: string, fails: Test, opts: MinimizeOptions = {}): Promise<Minimized> {
  const budget = new Budget(opts);
  let text = (await ddmin(lineUnits(input), fails, budget)).join('');
  if (!budget.spent) text = (await ddmin(tokenUnits(text), fails, budget)).join('');
  // Long repetitions (deep nesting, huge lists, long names) are halved as long as the failure stays.
  while (!budget.spent) {
    const shorter = halveRepetitions(text);
    if (shorter === text) break;
    budget.tests++;
    if (!(await fails(shorter))) break;
    text = shorter;
  }
  // Layout left by removed tokens: trailing spaces and blank lines, if the failure does not need them.
  const tidy = text.replace(/[ \t]+\n/g, '\n').replace(/\n{3,}/g, '\n\n');
  if (tidy !== text && !budget.spent) {
    budget.tests++;
    if (await fails(tidy)) text = tidy;
  }
  return { text, tests: budget.tests };
}
