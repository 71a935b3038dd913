import { Program } from '../../../ir/program';
import { OpNode } from '../../../syntax/ast';
import { ascendc } from './ascendc';
import { Semantics, SemanticsModule } from './context';
import { load, store } from './memory';
import { expandScalar, getValue, setValue } from './scalar';
import * as compare from './compare';
import * as convert from './convert';
import * as cube from './cube';
import * as elementwise from './elementwise';
import * as expand from './expand';
import * as fillpad from './fillpad';
import * as gather from './gather';
import * as generate from './generate';
import * as misc from './misc';
import * as move from './move';
import * as partial from './partial';
import * as print from './print';
import * as quant from './quant';
import * as reduce from './reduce';
import * as rearrange from './rearrange';
import * as sort from './sort';
import * as unary from './unary';

const CORE: SemanticsModule = {
  semantics: {
    load,
    store,
    ascendc,
    'expand-scalar': expandScalar,
    'get-value': getValue,
    'set-value': setValue,
  },
};

const MODULES: SemanticsModule[] = [
  CORE,
  ...[compare, convert, cube, elementwise, expand, fillpad, gather, generate, misc, move, partial, print, quant, rearrange, reduce, sort, unary].map(
    (m) => m.module,
  ),
];

/** VM dispatch: the `semantics` name of each instruction in spec/instructions -> its implementation. */
export const SEMANTICS: Record<string, Semantics> = {};
/** For the semantics that run several operations: the spec `op` values each implements. */
export const OPERATIONS: Record<string, readonly string[]> = {};
for (const m of MODULES) {
  for (const [name, fn] of Object.entries(m.semantics)) {
    if (SEMANTICS[name]) throw new Error(`ops/instructions/semantics: semantics '${name}' is defined twice`);
    SEMANTICS[name] = fn;
  }
  Object.assign(OPERATIONS, m.operations ?? {});
}

/** The instructions of a verified program that the VM cannot run, in program order. */
export function unimplementedInstructions(program: Program): OpNode[] {
  return [...program.instructions].filter(([, b]) => !b.spec.implemented || !SEMANTICS[b.spec.semantics]).map(([op]) => op);
}
