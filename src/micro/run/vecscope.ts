import { DIAGNOSTICS as D } from '../../diag/catalog';
import { OpDefinition, OpVerifier } from '../../ir/definition';
import type { MicroOpRowData } from '../../spec/micro-schema';
import { Region } from '../../syntax/ast';
import { printType } from '../../types/type';

/** The first synchronization op anywhere in the region (nested regions included) is an error at that op. */
function checkNoSynchronization(v: OpVerifier, region: Region, scope: string): void {
  for (const block of region.blocks)
    for (const op of block.ops) {
      // The ops that delimit vector scopes say so (OpProperties.delimitsVectorScope); pto.mem_bar does not.
      if (v.definitionOf(op)?.properties?.delimitsVectorScope) {
        v.error(op.nameSpan, `${op.name} must be outside '${scope}'; synchronization operations delimit vector scopes`, undefined, D.syncInVecScope);
        return;
      }
      for (const r of op.regions) checkNoSynchronization(v, r, scope);
    }
}

/**
 * `pto.vecscope { ... }`: a vector scope (VecScopeOp::verify: no entry arguments, no synchronization inside). Its row
 * is a region op: the standard definition (src/micro/definitions.ts) writes and runs it, this adds the scope's rule.
 */
function vecscope(row: MicroOpRowData, standard: () => OpDefinition): OpDefinition {
  const region = standard();
  return {
    ...region,
    verify(v) {
      for (const r of v.op.regions) checkNoSynchronization(v, r, row.name);
      region.verify(v);
    },
  };
}

/**
 * `pto.strict_vecscope(%a, ...) { ^bb0(%x: T, ...): ... } : (T, ...) -> ()`: a vector scope whose body sees only its
 * captures, as its entry block's arguments (VPTO.cpp's StrictVecScopeOp::verify: one argument per capture, of the
 * capture's type; no synchronization inside). It runs its body once with the captured values.
 */
function strictVecscope(row: MicroOpRowData, standard: () => OpDefinition): OpDefinition {
  const name = row.name;
  return {
    name,
    syntax: 'StrictVecScopeBody',
    hasRegions: true,
    diagnostic: D.microOperand,
    // What its row says of it (vecscope inference leaves it alone), as for every row's op.
    properties: standard().properties,
    verify(v) {
      const { op } = v;
      const err = (message: string, span = op.nameSpan) => v.error(span, `${name}: ${message}`, undefined, D.microOperand);
      const region = op.regions[0];
      const args = region?.blocks[0]?.args ?? [];
      const captures = op.segments.captures ?? [];
      if (!region || region.blocks.length === 0) err('expects a non-empty body region');
      else if (args.length !== captures.length)
        err(`expects body block to have ${captures.length} arguments to match explicit captures, got ${args.length}`, region.span);
      else
        args.forEach((a, k) => {
          const [want, got] = [v.operands[captures[k]], a.type ? v.type(a.type) : undefined];
          if (want && got && printType(want) !== printType(got))
            err(`expects body block argument #${k} to have type ${printType(want)}, got ${printType(got)}`, a.span);
        });
      if (op.resultTypes.length > 0) err('gives no results', op.resultTypes[0].span);
      for (const r of op.regions) {
        checkNoSynchronization(v, r, name);
        v.region(r);
      }
      v.expectResults(0);
      v.define([]);
    },
    *execute(x, op) {
      yield* x.runRegion(
        op.regions[0],
        (op.node.segments.captures ?? []).map((i) => x.operand(op, i)),
      );
    },
  };
}

export const VECTOR_DEFINITIONS: Record<string, (row: MicroOpRowData, standard: () => OpDefinition) => OpDefinition> = {
  vecscope,
  strict_vecscope: strictVecscope,
};
