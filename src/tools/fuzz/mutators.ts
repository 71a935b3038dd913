/**
 * Grammar-aware mutations of PTO-AS text. Each mutator takes a program, a seeded generator and the corpus (for
 * splicing and vocabulary), and returns the mutated text, or undefined when it does not apply (no number to change).
 */
import { Rng } from './rng';
import { Token, isSignificant, tokenize, untokenize } from './lexer';

export type MutationKind =
  | 'delete-token'
  | 'duplicate-token'
  | 'swap-tokens'
  | 'boundary-number'
  | 'replace-name'
  | 'rename-value'
  | 'truncate'
  | 'splice'
  | 'deep-nesting'
  | 'delete-line'
  | 'duplicate-line'
  | 'swap-lines'
  | 'repeat-lines'
  | 'insert-char';

export interface MutationContext {
  /** Other programs to splice statements from. */
  donors: readonly string[];
}

/** Numbers at the edges of the integer and float types, and sizes that do not fit in memory. */
export const BOUNDARY_NUMBERS = [
  '0',
  '1',
  '-1',
  '2',
  '3',
  '7',
  '8',
  '15',
  '16',
  '17',
  '31',
  '32',
  '33',
  '64',
  '127',
  '128',
  '255',
  '256',
  '511',
  '512',
  '1024',
  '4096',
  '32767',
  '32768',
  '65535',
  '65536',
  '2147483647',
  '2147483648',
  '-2147483648',
  '4294967295',
  '4294967296',
  '9007199254740993',
  '9223372036854775807',
  '9223372036854775808',
  '-9223372036854775808',
  '18446744073709551615',
  '18446744073709551616',
  '1000000000000000000',
  '10000000000',
  '100000000000',
  '340282366920938463463374607431768211456',
  '0x7fffffff',
  '0xffffffff',
  '0xffffffffffffffff',
  '0x100000000',
  '-0',
  '0.0',
  '-0.0',
  '0.5',
  '1.0e308',
  '1.0e309',
  '1.0e-45',
  '3.4028235e38',
  '65504.0',
  '1e400',
] as const;

/** Groups of names that can stand for each other: a mutation swaps a name for another of its group. */
// Space-separated (an op name quoted alone would count as a client of that op: test/architecture.test.ts).
export const NAME_GROUPS: readonly (readonly string[])[] = [
  // element types
  'f16 f32 bf16 f64 i1 i8 i16 i32 i64 ui8 ui16 ui32 ui64 si8 si32 index f8E4M3FN f8E5M2 i4 f4E2M1FN',
  // tile locations
  'vec mat left right acc bias scaling gm',
  // block and inner layouts
  'row_major col_major none_box nz zn nd dn',
  // pipes and cores
  'PIPE_V PIPE_MTE1 PIPE_MTE2 PIPE_MTE3 PIPE_M PIPE_S PIPE_FIX PIPE_ALL',
  // integer arithmetic
  'arith.addi arith.subi arith.muli arith.divsi arith.divui arith.remsi arith.remui arith.shli arith.shrsi arith.shrui arith.maxsi arith.minsi arith.andi arith.ori arith.xori arith.ceildivsi arith.floordivsi',
  // float arithmetic
  'arith.addf arith.subf arith.mulf arith.divf arith.maximumf arith.minimumf',
  // casts
  'arith.index_cast arith.index_castui arith.extsi arith.extui arith.trunci arith.sitofp arith.fptosi arith.bitcast',
  // comparison predicates
  'eq ne slt sle sgt sge ult ule ugt uge oeq olt ogt une',
  // targets
  'a2a3 a5 a3 a2',
  // tile element-wise ops
  'pto.tadd pto.tsub pto.tmul pto.tdiv pto.tmax pto.tmin pto.tand pto.tor',
  // tile reductions
  'pto.tcolmin pto.tcolmax pto.tcolsum pto.trowsum pto.trowmax pto.trowmin',
  // tile unary ops
  'pto.texp pto.tlog pto.tsqrt pto.trsqrt pto.trecip pto.tabs pto.tneg pto.trelu',
  // tile data movement
  'pto.tload pto.tstore pto.tmov pto.textract pto.tinsert pto.ttrans pto.treshape',
  // structure
  'scf.for scf.if scf.while scf.yield func.call return func.return scf.condition',
  // tile_buf parameter names
  'loc dtype rows cols v_row v_col blayout slayout fractal pad compact',
  // view types
  '!pto.tensor_view !pto.partition_tensor_view !pto.tile_buf !pto.tile !pto.ptr memref',
].map((g) => g.split(' '));

const GROUP_OF = new Map<string, readonly string[]>();
for (const g of NAME_GROUPS) for (const n of g) GROUP_OF.set(n, g);

export const NESTING_DEPTHS = [64, 200, 400, 1000, 5000];
const OPENERS = ['[', '{', '(', '<'];
const CLOSER: Record<string, string> = { '[': ']', '{': '}', '(': ')', '<': '>' };
const ODD_CHARS = ['\0', '\u00a0', '\u2028', '\ufeff', 'é', '"', '\\', '#', '^', '%', '@', '!', '?', '}', '{', ':', '\t', '\r'];

/** Indices of the significant tokens. */
function significant(tokens: Token[]): number[] {
  const out: number[] = [];
  tokens.forEach((t, i) => isSignificant(t) && out.push(i));
  return out;
}

function lines(text: string): string[] {
  return text.split('\n');
}

type Mutator = (text: string, rng: Rng, ctx: MutationContext) => string | undefined;

export const MUTATORS: Record<MutationKind, Mutator> = {
  'delete-token': (text, rng) => {
    const tokens = tokenize(text);
    const sig = significant(tokens);
    if (sig.length === 0) return undefined;
    tokens.splice(rng.pick(sig), 1);
    return untokenize(tokens);
  },
  'duplicate-token': (text, rng) => {
    const tokens = tokenize(text);
    const sig = significant(tokens);
    if (sig.length === 0) return undefined;
    const i = rng.pick(sig);
    tokens.splice(i + 1, 0, { kind: 'ws', text: ' ' }, { ...tokens[i] });
    return untokenize(tokens);
  },
  'swap-tokens': (text, rng) => {
    const tokens = tokenize(text);
    const sig = significant(tokens);
    if (sig.length < 2) return undefined;
    const a = rng.int(sig.length);
    // Half the time a neighbour (a local reordering), else anywhere.
    let b = rng.chance(0.5) ? Math.min(sig.length - 1, a + rng.range(1, 3)) : rng.int(sig.length);
    if (b === a) b = a === 0 ? 1 : a - 1;
    const [i, j] = [sig[a], sig[b]];
    [tokens[i], tokens[j]] = [tokens[j], tokens[i]];
    return untokenize(tokens);
  },
  'boundary-number': (text, rng) => {
    const tokens = tokenize(text);
    const numbers = tokens.map((t, i) => (t.kind === 'number' ? i : -1)).filter((i) => i >= 0);
    if (numbers.length === 0) return undefined;
    const i = rng.pick(numbers);
    let value: string = rng.pick(BOUNDARY_NUMBERS);
    // A negative number after a '-' or in a shape would just be a different syntax error: mostly keep signs sane.
    if (value.startsWith('-') && tokens[i - 1]?.text === '-') value = value.slice(1);
    tokens[i] = { kind: 'number', text: value };
    return untokenize(tokens);
  },
  'replace-name': (text, rng) => {
    const tokens = tokenize(text);
    const named = tokens.map((t, i) => (GROUP_OF.has(t.text) ? i : -1)).filter((i) => i >= 0);
    if (named.length === 0) return undefined;
    const i = rng.pick(named);
    const group = GROUP_OF.get(tokens[i].text)!;
    const others = group.filter((n) => n !== tokens[i].text);
    tokens[i] = { kind: tokens[i].kind, text: rng.pick(others) };
    return untokenize(tokens);
  },
  'rename-value': (text, rng) => {
    // A use of one SSA value (or symbol) becomes another: types and dominance no longer match.
    const tokens = tokenize(text);
    const kind = rng.chance(0.85) ? 'ssa' : 'symbol';
    const at = tokens.map((t, i) => (t.kind === kind ? i : -1)).filter((i) => i >= 0);
    const names = [...new Set(at.map((i) => tokens[i].text))];
    if (names.length < 2) return undefined;
    const i = rng.pick(at);
    const others = names.filter((n) => n !== tokens[i].text);
    tokens[i] = { kind, text: rng.pick(others) };
    return untokenize(tokens);
  },
  truncate: (text, rng) => {
    if (text.length < 2) return undefined;
    if (rng.chance(0.5)) return text.slice(0, rng.int(text.length));
    const tokens = tokenize(text);
    return untokenize(tokens.slice(0, rng.int(tokens.length)));
  },
  splice: (text, rng, ctx) => {
    // A statement (an indented line, or a run of lines) of another program, inserted at a statement position.
    if (ctx.donors.length === 0) return undefined;
    const donor = lines(rng.pick(ctx.donors));
    const statements = donor.map((l, i) => (/^\s+\S/.test(l) && !/^\s*\/\//.test(l) ? i : -1)).filter((i) => i >= 0);
    if (statements.length === 0) return undefined;
    const from = rng.pick(statements);
    const taken = donor.slice(from, from + (rng.chance(0.7) ? 1 : rng.range(2, 8)));
    const target = lines(text);
    const spots = target.map((l, i) => (/^\s+\S/.test(l) ? i : -1)).filter((i) => i >= 0);
    const at = spots.length > 0 ? rng.pick(spots) : rng.int(target.length + 1);
    target.splice(at, 0, ...taken);
    return target.join('\n');
  },
  'deep-nesting': (text, rng) => {
    // Wraps a token, or a bracket's contents, in hundreds of brackets of one kind.
    const tokens = tokenize(text);
    const sig = significant(tokens);
    if (sig.length === 0) return undefined;
    const depth = rng.pick(NESTING_DEPTHS);
    const open = rng.pick(OPENERS);
    const i = rng.pick(sig);
    const balanced = rng.chance(0.8);
    const inner = tokens[i].text;
    tokens[i] = { kind: 'punct', text: open.repeat(depth) + inner + (balanced ? CLOSER[open].repeat(depth) : '') };
    return untokenize(tokens);
  },
  'delete-line': (text, rng) => {
    const ls = lines(text);
    if (ls.length < 2) return undefined;
    ls.splice(rng.int(ls.length), rng.chance(0.8) ? 1 : rng.range(2, 6));
    return ls.join('\n');
  },
  'duplicate-line': (text, rng) => {
    const ls = lines(text);
    const i = rng.int(ls.length);
    ls.splice(i, 0, ls[i]);
    return ls.join('\n');
  },
  'swap-lines': (text, rng) => {
    const ls = lines(text);
    if (ls.length < 2) return undefined;
    const a = rng.int(ls.length);
    const b = rng.chance(0.5) ? Math.min(ls.length - 1, a + 1) : rng.int(ls.length);
    [ls[a], ls[b]] = [ls[b], ls[a]];
    return ls.join('\n');
  },
  'repeat-lines': (text, rng) => {
    // A statement repeated many times: size stress without changing the grammar.
    const ls = lines(text);
    const statements = ls.map((l, i) => (/^\s+\S/.test(l) ? i : -1)).filter((i) => i >= 0);
    if (statements.length === 0) return undefined;
    const i = rng.pick(statements);
    const times = rng.pick([10, 100, 1000, 5000]);
    ls.splice(i, 0, ...new Array<string>(times).fill(ls[i]));
    return ls.join('\n');
  },
  'insert-char': (text, rng) => {
    const at = rng.int(text.length + 1);
    return text.slice(0, at) + rng.pick(ODD_CHARS) + text.slice(at);
  },
};

export const MUTATION_KINDS = Object.keys(MUTATORS) as MutationKind[];

/** How often each kind is chosen (relative). */
const WEIGHTS: Record<MutationKind, number> = {
  'delete-token': 10,
  'duplicate-token': 6,
  'swap-tokens': 6,
  'boundary-number': 14,
  'replace-name': 14,
  'rename-value': 8,
  truncate: 3,
  splice: 8,
  'deep-nesting': 2,
  'delete-line': 8,
  'duplicate-line': 5,
  'swap-lines': 5,
  'repeat-lines': 1,
  'insert-char': 2,
};
const TOTAL_WEIGHT = MUTATION_KINDS.reduce((n, k) => n + WEIGHTS[k], 0);

export function pickKind(rng: Rng): MutationKind {
  let r = rng.int(TOTAL_WEIGHT);
  for (const k of MUTATION_KINDS) {
    r -= WEIGHTS[k];
    if (r < 0) return k;
  }
  return MUTATION_KINDS[0];
}

/** One to three stacked mutations of `text`; the kinds applied are returned too (for the report). */
export function mutate(text: string, rng: Rng, ctx: MutationContext): { text: string; kinds: MutationKind[] } {
  const count = rng.chance(0.6) ? 1 : rng.range(2, 3);
  const kinds: MutationKind[] = [];
  let out = text;
  for (let n = 0, tries = 0; n < count && tries < 10; tries++) {
    const kind = pickKind(rng);
    const next = MUTATORS[kind](out, rng, ctx);
    if (next === undefined || next === out) continue;
    out = next;
    kinds.push(kind);
    n++;
  }
  return { text: out, kinds };
}
