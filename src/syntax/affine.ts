import * as ohm from 'ohm-js';
import { ptoGrammar } from './grammar';

/** An affine expression over a map's dimensions (`d0`) and symbols (`s0`). */
export type AffineExpr =
  | { kind: 'const'; value: bigint }
  | { kind: 'dim'; index: number }
  | { kind: 'symbol'; index: number }
  | { kind: 'neg'; operand: AffineExpr }
  | { kind: 'add' | 'sub' | 'mul' | 'floordiv' | 'ceildiv' | 'mod'; lhs: AffineExpr; rhs: AffineExpr };

/** `affine_map<(d0, d1)[s0] -> (d0 * 32 + s0)>`: how many dims and symbols it takes, and its results. */
export interface AffineMap {
  dims: number;
  symbols: number;
  results: AffineExpr[];
}

const cache = new Map<string, AffineMap | string>();

/** Parses an `affine_map<...>`; a string is the reason it is not one. */
export function parseAffineMap(text: string): AffineMap | string {
  let result = cache.get(text);
  if (result === undefined) {
    result = parseUncached(text);
    cache.set(text, result);
  }
  return result;
}

function parseUncached(text: string): AffineMap | string {
  const grammar = ptoGrammar();
  const match = grammar.match(text, 'AffineMap');
  if (match.failed()) return `malformed affine map '${text}'`;
  const names = new Map<string, AffineExpr>();
  let problem: string | undefined;
  const semantics = grammar.createSemantics().addOperation<any>('expr', {
    AffineMap(_kw, _o, dims, symbols, _arrow, _po, results, _pc, _c) {
      const dimNames = dims.expr() as string[];
      const symbolNames = (symbols.children[0]?.expr() ?? []) as string[];
      for (const [list, kind] of [
        [dimNames, 'dim'],
        [symbolNames, 'symbol'],
      ] as const) {
        list.forEach((name, index) => {
          if (names.has(name)) problem = `'${name}' is declared twice in '${text}'`;
          names.set(name, { kind, index });
        });
      }
      return { dims: dimNames.length, symbols: symbolNames.length, results: results.asIteration().children.map((r) => r.expr()) };
    },
    AffineIds(_o, list, _c) {
      return list.asIteration().children.map((n) => n.sourceString);
    },
    AffineSymbolIds(_o, list, _c) {
      return list.asIteration().children.map((n) => n.sourceString);
    },
    AffineExpr_add: (a, _op, b) => ({ kind: 'add', lhs: a.expr(), rhs: b.expr() }),
    AffineExpr_sub: (a, _op, b) => ({ kind: 'sub', lhs: a.expr(), rhs: b.expr() }),
    AffineTerm_mul: (a, _op, b) => ({ kind: 'mul', lhs: a.expr(), rhs: b.expr() }),
    AffineTerm_floordiv: (a, _op, b) => ({ kind: 'floordiv', lhs: a.expr(), rhs: b.expr() }),
    AffineTerm_ceildiv: (a, _op, b) => ({ kind: 'ceildiv', lhs: a.expr(), rhs: b.expr() }),
    AffineTerm_mod: (a, _op, b) => ({ kind: 'mod', lhs: a.expr(), rhs: b.expr() }),
    AffineFactor_paren: (_o, e, _c) => e.expr(),
    AffineFactor_neg: (_m, e) => ({ kind: 'neg', operand: e.expr() }),
    AffineFactor_int: (digits) => ({ kind: 'const', value: BigInt(digits.sourceString) }),
    AffineFactor_id(id: ohm.Node) {
      const known = names.get(id.sourceString);
      if (!known) problem ??= `'${id.sourceString}' is not a dimension or symbol of '${text}'`;
      return known ?? { kind: 'const', value: 0n };
    },
  });
  const map = semantics(match).expr() as AffineMap;
  return problem ?? map;
}
