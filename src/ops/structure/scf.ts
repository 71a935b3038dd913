import { DIAGNOSTICS as D } from '../../diag/catalog';
import { OpDefinition, OpVerifier } from '../../ir/definition';
import { vmTrap } from '../../machine/trap';
import { Region, segment } from '../../syntax/ast';
import { Type, isIntegerLike, isScalarOf, printType } from '../../types/type';

/** Structured control flow: loops, branches and the terminators that hand values back to them. */

const INDEX: Type = { kind: 'scalar', elem: 'index' };

/** The region's terminator yields values of the given types (an empty yield may be left out). */
function checkYields(v: OpVerifier, region: Region, types: (Type | undefined)[]): void {
  const { op } = v;
  const last = region.blocks.at(-1)?.ops.at(-1);
  if (!last || last.name !== yieldOp.name) {
    if (types.length > 0)
      v.error({ start: region.span.end - 1, end: region.span.end }, `this region of '${op.name}' must end with 'scf.yield' of ${types.length} value(s)`);
    return;
  }
  const values = segment(last, 'values');
  if (values.length !== types.length) {
    v.error(last.span, `'scf.yield' gives ${values.length} value(s), but '${op.name}' expects ${types.length}`);
    return;
  }
  values.forEach((value, i) => {
    const t = value.type ? v.type(value.type) : undefined;
    const want = types[i];
    if (t && want && printType(t) !== printType(want))
      v.error(value.span, `yielded value ${i} has type ${printType(t)}, but '${op.name}' expects ${printType(want)}`);
  });
}

export const forOp: OpDefinition = {
  name: 'scf.for',
  syntax: 'ScfForBody',
  hasRegions: true,
  properties: { controlFlow: 'counted-loop' },
  verify(v) {
    const { op } = v;
    for (const k of ['lb', 'ub', 'step']) {
      const i = op.segments[k][0];
      if (!isIntegerLike(v.operands[i]))
        v.error(op.operands[i].span, `scf.for ${k === 'lb' ? 'lower bound' : k === 'ub' ? 'upper bound' : 'step'} must be an index or integer`);
    }
    const step = v.constant(op.segments.step[0]);
    if (step !== undefined && step <= 0n) v.error(op.operands[op.segments.step[0]].span, `scf.for: a constant step must be positive, got ${step}`);
    const body = op.regions[0];
    v.expectResults(v.declared.length);
    // The induction variable is an index unless the loop says otherwise (`: i32`).
    v.region(body, [INDEX]);
    checkYields(v, body, v.declared);
    v.define(v.declared);
  },
  *execute(x, op) {
    const { segments } = op.node;
    const [lb, ub, step] = [segments.lb[0], segments.ub[0], segments.step[0]].map((i) => x.int(op, i));
    if (step <= 0n) throw vmTrap(`scf.for step must be positive, got ${step}`, op.node.operands[segments.step[0]].span);
    let carried = segments.init.map((i) => x.operand(op, i));
    // Every iteration is a step (--max-steps), even of a body with no ops.
    for (let i = lb; i < ub; i += step) {
      x.step(op);
      carried = yield* x.runRegion(op.regions[0], [i, ...carried]);
    }
    x.setResults(op, carried);
  },
};

export const ifOp: OpDefinition = {
  name: 'scf.if',
  syntax: 'ScfIfBody',
  hasRegions: true,
  properties: { controlFlow: 'conditional' },
  verify(v) {
    const { op } = v;
    if (!isScalarOf(v.operands[0], ['i1'])) v.error(op.operands[0].span, 'scf.if condition must be i1');
    v.expectResults(v.declared.length);
    if (v.declared.length > 0 && op.regions.length < 2) v.error(op.nameSpan, "an scf.if with results needs an 'else' region");
    for (const r of op.regions) {
      v.region(r);
      checkYields(v, r, v.declared);
    }
    v.define(v.declared);
  },
  *execute(x, op) {
    const taken = x.int(op, 0) !== 0n ? op.regions[0] : op.regions[1];
    x.setResults(op, taken ? yield* x.runRegion(taken, []) : []);
  },
};

export const whileOp: OpDefinition = {
  name: 'scf.while',
  syntax: 'ScfWhileBody',
  hasRegions: true,
  properties: { controlFlow: 'loop' },
  verify(v) {
    const { op } = v;
    v.expectResults(v.declared.length);
    const [before, after] = op.regions;
    v.region(before);
    const condition = before.blocks.at(-1)?.ops.at(-1);
    if (!condition || condition.name !== conditionOp.name) v.error(before.span, "the first region of scf.while must end with 'scf.condition'");
    v.region(after);
    checkYields(
      v,
      after,
      op.operands.map((o) => (o.type ? v.type(o.type) : undefined)),
    );
    v.define(v.declared);
  },
  *execute(x, op) {
    let carried = op.operands.map((_, i) => x.operand(op, i));
    for (;;) {
      x.step(op);
      const [condition, ...forwarded] = yield* x.runRegion(op.regions[0], carried);
      if (condition === 0n) {
        x.setResults(op, forwarded);
        return;
      }
      carried = yield* x.runRegion(op.regions[1], forwarded);
    }
  },
};

/**
 * `%r = scf.execute_region -> T { ... scf.yield %x : T }`: runs its region once, in place. The region may have
 * several blocks joined by cf branches; each block that leaves it yields the results.
 */
export const executeRegionOp: OpDefinition = {
  name: 'scf.execute_region',
  syntax: 'ScfExecuteRegionBody',
  hasRegions: true,
  verify(v) {
    const { op } = v;
    v.expectResults(v.declared.length);
    const region = op.regions[0];
    v.region(region);
    // Each block that does not branch to another leaves the region: it ends with the yield of the results.
    for (const block of region.blocks) if (!block.ops.at(-1)?.successors?.length) checkYields(v, { ...region, blocks: [block] }, v.declared);
    v.define(v.declared);
  },
  *execute(x, op) {
    x.setResults(op, yield* x.runRegion(op.regions[0], []));
  },
};

function terminator(name: string, syntax: string, parents: OpDefinition[]): OpDefinition {
  return {
    name,
    syntax,
    terminator: 'yield',
    verify(v) {
      if (!parents.some((p) => p.name === v.parent.name)) v.error(v.op.nameSpan, `'${name}' is only allowed inside ${parents.map((p) => p.name).join(' or ')}`);
    },
  };
}

export const yieldOp = terminator('scf.yield', 'ScfYieldBody', [forOp, ifOp, whileOp, executeRegionOp]);
const conditionOp = terminator('scf.condition', 'ScfConditionBody', [whileOp]);

/** Region ops of the scf dialect that PTOAS does not emit: known (their `{` opens a region), not implemented. */
const unimplemented = (name: string): OpDefinition => ({
  name,
  hasRegions: true,
  verify(v) {
    v.error(v.op.nameSpan, `${name} is not implemented yet`, undefined, D.unknownOp);
    v.define(v.declared);
  },
});

export const SCF_DEFINITIONS: OpDefinition[] = [
  forOp,
  ifOp,
  whileOp,
  yieldOp,
  conditionOp,
  executeRegionOp,
  ...['scf.parallel', 'scf.forall'].map(unimplemented),
];
