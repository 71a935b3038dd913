import * as ohm from 'ohm-js';
import { statementRule } from './grammar';
import { accStoreActions, cubeActions } from './cube-parse';
import { microActions } from './micro-parse';
import { structureActions } from './parse-structure';
import { bodyActions } from './parse-bodies';
import { operandListActions } from './parse-operand-lists';
import { attrActions } from './parse-attrs';
import { Actions } from './shape-cache';
import { Node, contextOf, fields, optional, parseIntLiteral, spanOf, unquote, valueOperand } from './parse-context';

/** The semantic actions are built once per grammar: every file of a run shares them. */
let cachedSemantics: { grammar: ohm.Grammar; semantics: ohm.Semantics; actions: Actions } | undefined;
export function shared(grammar: ohm.Grammar): { semantics: ohm.Semantics; actions: Actions } {
  if (cachedSemantics?.grammar !== grammar) {
    const actions = astActions(grammar);
    cachedSemantics = { grammar, semantics: grammar.createSemantics().addOperation<unknown>('ast(c)', actions), actions };
  }
  return cachedSemantics;
}

export function sharedSemantics(grammar: ohm.Grammar): ohm.Semantics {
  return shared(grammar).semantics;
}

/** The same actions, for statements built from a recorded shape (src/syntax/shape-cache.ts). */
export function sharedActions(grammar: ohm.Grammar): Actions {
  return shared(grammar).actions;
}

/** The `ast(c)` operation: CST -> AST, one action per rule. */
function astActions(grammar: ohm.Grammar): Actions {
  // The derived statement rules (one per body rule, src/syntax/grammar.ts) are each just their `Stmt<...>`.
  const statements: Record<string, (this: Node, stmt: Node) => unknown> = {};
  for (const body of Object.keys(grammar.rules).filter((r) => grammar.rules[statementRule(r)] !== undefined)) {
    statements[statementRule(body)] = function (this: Node, stmt: Node) {
      return stmt.ast(contextOf(this));
    };
  }
  return {
    ...statements,
    ...microActions({ contextOf, spanOf, optional, fields, valueOperand, unquote, parseIntLiteral }),
    ...cubeActions({ contextOf, spanOf, optional, fields, valueOperand, unquote, parseIntLiteral }),
    ...accStoreActions({ contextOf, spanOf, optional, fields, valueOperand, unquote, parseIntLiteral }),
    ...structureActions,
    ...bodyActions,
    ...operandListActions,
    ...attrActions,
  } as Actions;
}
