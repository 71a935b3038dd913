import { DIAGNOSTICS as D } from '../../diag/catalog';
import { OpDefinition, OpVerifier } from '../../ir/definition';
import { decided } from '../../ir/bound';
import { OpNode, attrOf } from '../../syntax/ast';
import { Type, isInteger, printType } from '../../types/type';
import { vmTrap } from '../../machine/trap';
import { bitWidth, wrapInteger } from './arith';
import { runSimtEntryCall } from '../../micro/run/simt';

/** The MLIR structure around PTO code: modules, functions, returns and calls. */

export const moduleOp: OpDefinition = {
  name: 'module',
  syntax: 'ModuleBody',
  hasRegions: true,
  structure: 'module',
  verify(v) {
    v.error(v.op.nameSpan, "'module' must be at the top level or directly in a module");
  },
};

export const funcOp: OpDefinition = {
  name: 'func.func',
  syntax: 'FuncBody',
  hasRegions: true,
  structure: 'function',
  verify(v) {
    v.error(v.op.nameSpan, "'func.func' must be at the top level or directly in a module");
  },
};

const returnOp: OpDefinition = {
  name: 'func.return',
  syntax: 'ReturnBody',
  spellings: [{ name: 'return' }],
  terminator: 'return',
  verify(v) {
    const { op, function: fn } = v;
    if (v.parent !== fn && !v.placementUncertain) v.error(op.nameSpan, "'func.return' is only allowed directly in func.func");
    const expected = fn.resultTypes.map((t) => v.type(t));
    if (expected.length !== v.operands.length) {
      v.error(op.span, `function @${fn.symbol} returns ${expected.length} value(s), but 'return' has ${v.operands.length}`);
      return;
    }
    expected.forEach((t, i) => {
      const got = v.operands[i];
      if (t && got && printType(t) !== printType(got)) v.error(op.operands[i].span, `return value ${i} has type ${printType(got)}, expected ${printType(t)}`);
    });
  },
};

/**
 * `func.call @f(%a) : (A) -> R`: the callee is a function of the caller's module and its signature is the one
 * written. Its results may be left unnamed (MLIR's `func.call @f() : () -> i64` discards them).
 */
export const callOp: OpDefinition = {
  name: 'func.call',
  syntax: 'CallBody',
  spellings: [{ name: 'call' }],
  properties: { callsFunction: true },
  verify(v) {
    const { op } = v;
    // PTOAS places a helper's whole body in one section: it may launch SIMT work, not call code of its own.
    if (attrOf(v.function, 'pto.tileop.helper'))
      v.error(op.nameSpan, 'tileop helpers must not call another helper; use pto.simt_launch for SIMT work', undefined, D.tileOpHelper);
    const calleeAttr = attrOf(op, 'callee')!;
    const name = calleeAttr.kind === 'symbol' ? calleeAttr.name : '';
    const callee = v.callee(name);
    const symbol = callee?.symbol;
    if (!symbol) {
      v.error(calleeAttr.span, `func.call: no function @${name} in this module`);
    } else {
      const params = (symbol.params ?? []).map((p) => (p.type ? v.type(p.type) : undefined));
      const results = symbol.resultTypes.map((t) => v.type(t));
      const show = (ts: (Type | undefined)[]) => `(${ts.map((t) => (t ? printType(t) : '?')).join(', ')})`;
      const differs = (a: (Type | undefined)[], b: (Type | undefined)[]) =>
        a.length !== b.length || a.some((t, i) => t && b[i] && printType(t) !== printType(b[i]!));
      if (differs(v.operands, params) || differs(v.declared, results)) {
        v.error(op.nameSpan, `func.call: @${name} takes ${show(params)} -> ${show(results)}, but this call says ${show(v.operands)} -> ${show(v.declared)}`, [
          { message: `@${name} defined here`, span: symbol.nameSpan },
        ]);
      }
      const recursion =
        callee!.definition === v.function ? 'calls itself' : callsBack(v, callee!.definition) ? `calls back into @${v.function.symbol}` : undefined;
      if (recursion) {
        // PTOAS's C++ emission (emitc, its default back end) refuses recursion; the vpto back end is not known to.
        if (v.backend === 'vpto') v.warning(op.nameSpan, `@${name} ${recursion}: the VM stops recursion after 64 nested calls`, D.recursiveCall);
        else v.error(op.nameSpan, `@${name} ${recursion}: recursive function calls are not supported for EmitC C++ emission`, [], D.recursiveCallRejected);
      }
    }
    v.decide(callee?.definition ?? name);
    if (op.results.length > 0) v.expectResults(v.declared.length);
    v.define(v.declared);
  },
  *execute(x, op) {
    const callee = decided<OpNode | string>(op);
    const args = op.operands.map((_, i) => x.operand(op, i));
    // A call of a pto.simt_entry function after pto.store_vfsimt_info is a SIMT launch (src/micro/run/simt.ts).
    if (runSimtEntryCall(x, op, callee, args)) return;
    const values = yield* x.call(op, callee, args);
    x.setResults(op, values);
  },
};

/** The names each function's body calls (the AST does not change while it is verified). */
const calledNames = new WeakMap<OpNode, string[]>();

function namesCalledBy(fn: OpNode): string[] {
  let names = calledNames.get(fn);
  if (!names) {
    const found: string[] = [];
    const walk = (ops: OpNode[]): void => {
      for (const o of ops) {
        const callee = o.name === callOp.name ? attrOf(o, 'callee') : undefined;
        if (callee?.kind === 'symbol') found.push(callee.name);
        for (const r of o.regions) for (const b of r.blocks) walk(b.ops);
      }
    };
    for (const r of fn.regions) for (const b of r.blocks) walk(b.ops);
    calledNames.set(fn, (names = found));
  }
  return names;
}

/** `from` calls, directly or through other functions, the function being verified. */
function callsBack(v: OpVerifier, from: OpNode | undefined): boolean {
  const seen = new Set<OpNode>();
  const pending = from ? [from] : [];
  for (let fn = pending.pop(); fn; fn = pending.pop()) {
    if (fn === v.function) return true;
    if (seen.has(fn)) continue;
    seen.add(fn);
    for (const name of namesCalledBy(fn)) {
      const next = v.callee(name)?.definition;
      if (next) pending.push(next);
    }
  }
  return false;
}

/**
 * `%u = builtin.unrealized_conversion_cast %x : i32 to ui32`: the same bits seen as another type, which frontends
 * leave between type systems. The VM runs it between integer types of one width and between identical types.
 */
const unrealizedCast: OpDefinition = {
  name: 'builtin.unrealized_conversion_cast',
  syntax: 'ArithCastBody',
  verify(v) {
    const [from] = v.operands;
    const [to] = v.declared;
    v.expectResults(1);
    v.define([to]);
    v.decide(
      from && to && from.kind === 'scalar' && to.kind === 'scalar' && isInteger(from.elem) && isInteger(to.elem) && bitWidth(from.elem) === bitWidth(to.elem)
        ? bitWidth(to.elem)
        : undefined,
    );
  },
  execute(x, op) {
    const bits = decided<number | undefined>(op);
    const value = x.operand(op, 0);
    if (bits !== undefined) x.setResults(op, [wrapInteger(value as bigint, bits)]);
    else if (op.operandTypes[0] && op.resultTypes[0] && printType(op.operandTypes[0]) === printType(op.resultTypes[0])) x.setResults(op, [value]);
    else
      throw vmTrap(
        `builtin.unrealized_conversion_cast from ${printType(op.operandTypes[0]!)} to ${printType(op.resultTypes[0]!)} is not implemented yet`,
        op.node.span,
      );
  },
};

export const BUILTIN_DEFINITIONS: OpDefinition[] = [moduleOp, funcOp, returnOp, callOp, unrealizedCast];
