import { decided } from '../../ir/bound';
import { CoreKind, OpDefinition, OpProperties } from '../../ir/definition';
import { vmTrap } from '../../machine/trap';
import { formatScalar } from './print-format';
import { attrOf } from '../../syntax/ast';
import { isInteger, printType } from '../../types/type';
import { bitWidth } from './arith';
import { runThreads } from '../../micro/run/simt';

/** What a kernel asks of the machine it runs on: which core it is, code sections per core kind, printing, stopping. */

/** `pto.get_block_idx` and friends: no operands, one i64 result (PTOAS writes no type). */
function coreQuery(name: string, field: NonNullable<OpProperties['coreQuery']>): OpDefinition {
  return {
    name,
    // PTOAS gives the core queries its SimtOpInterface.
    properties: { notInTileOpHelper: 'SIMT operations', coreQuery: field },
    execute: (x, op) => x.setResults(op, [BigInt(x.core[field])]),
    verify(v) {
      if (v.op.operands.length > 0) v.error(v.op.operands[0].span, `'${name}' takes no operands`);
      v.expectResults(1);
      v.define([{ kind: 'scalar', elem: 'i64' }]);
    },
  };
}

/** `pto.section.vector { ... }`: code for one kind of core, run in place. */
function section(name: string, coreKind: CoreKind): OpDefinition {
  return {
    name,
    syntax: 'SectionBody',
    hasRegions: true,
    properties: { coreKind },
    verify(v) {
      v.expectResults(0);
      for (const r of v.op.regions) v.region(r);
    },
    *execute(x, op) {
      // In a mixed kernel's launch each core runs only the sections of its kind.
      if (x.core.kind && x.core.kind !== coreKind) return;
      yield* x.runRegion(op.regions[0], []);
    },
  };
}

/**
 * `pto.section.simt<<<x, y, z>>> { ... }`: code run by x*y*z SIMT threads of a vector core, each with a copy of
 * the enclosing frame (src/micro/run/simt.ts).
 */
const simtSection: OpDefinition = {
  name: 'pto.section.simt',
  syntax: 'SimtSectionBody',
  hasRegions: true,
  properties: { simtSection: true },
  verify(v) {
    for (const key of ['dimX', 'dimY', 'dimZ']) {
      const a = attrOf(v.op, key);
      if (a?.kind === 'int' && (a.value < 1n || a.value > 2147483647n)) v.error(a.span, `pto.section.simt: ${key} must be a positive i32, got ${a.value}`);
    }
    // PTOAS: a SIMT section is outlined into a function of its own; it cannot be nested, nor be in a function that
    // is itself a SIMT entry.
    if (v.enclosing.some((o) => o.name === v.op.name)) v.error(v.op.nameSpan, 'nested pto.section.simt is not allowed');
    // PTOAS's SIMT outlining: a launch of at most 2048 threads (docs/isa/micro-isa/17-simt.md).
    const dims = ['dimX', 'dimY', 'dimZ'].map((k) => attrOf(v.op, k)).map((a) => (a?.kind === 'int' ? a.value : 1n));
    const product = dims.reduce((p, d) => p * d, 1n);
    if (dims.every((d) => d >= 1n) && product > 2048n)
      v.error(v.op.nameSpan, `pto.section.simt: SIMT launch dimensions must have a positive product no greater than 2048, got (${dims.join(', ')})`);
    const simtEntry = v.function.attrs.find((a) => a.key === 'pto.simt_entry');
    if (simtEntry)
      v.error(v.op.nameSpan, `pto.section.simt must not appear inside a function marked with 'pto.simt_entry'`, [
        { message: `@${v.function.symbol} is marked here`, span: simtEntry.span },
      ]);
    v.expectResults(0);
    for (const r of v.op.regions) v.region(r);
  },
  execute(x, op) {
    const dims = ['dimX', 'dimY', 'dimZ'].map((k) => {
      const a = attrOf(op.node, k);
      return a?.kind === 'int' ? Number(a.value) : 1;
    }) as [number, number, number];
    runThreads(x, op, dims, (t) => t.runRegion(op.regions[0], []));
  },
};

/**
 * `%r = pto.fusion_region { ... pto.yield(%x) : (T) -> () } : T`: ops PTOAS fuses into one vector scope, run in
 * place; the values its `pto.yield` hands back are its results.
 */
const fusionRegion: OpDefinition = {
  name: 'pto.fusion_region',
  syntax: 'FusionRegionBody',
  hasRegions: true,
  verify(v) {
    const { op } = v;
    const region = op.regions[0];
    if (region) v.region(region);
    // PTOAS's FusionRegionOp::verify: the body block takes no arguments (nothing would bind them).
    const args = region?.blocks[0]?.args ?? [];
    if (args.length > 0) v.error(args[0].span, `pto.fusion_region's body block takes no arguments, got ${args.length}`);
    const last = region?.blocks.at(-1)?.ops.at(-1);
    if (!last || last.name !== fusionYield.name) v.error(op.span, "pto.fusion_region's region must end with 'pto.yield'");
    else if (last.operands.length !== op.resultTypes.length)
      v.error(last.span, `'pto.yield' gives ${last.operands.length} value(s), but 'pto.fusion_region' declares ${op.resultTypes.length}`);
    else
      last.operands.forEach((o, i) => {
        const t = o.type ? v.type(o.type) : undefined;
        const want = v.declared[i];
        if (t && want && printType(t) !== printType(want))
          v.error(o.span, `yielded value ${i} has type ${printType(t)}, but 'pto.fusion_region' declares ${printType(want)}`);
      });
    v.expectResults(op.resultTypes.length);
    v.define(v.declared);
  },
  *execute(x, op) {
    x.setResults(op, yield* x.runRegion(op.regions[0], []));
  },
};

const fusionYield: OpDefinition = {
  name: 'pto.yield',
  terminator: 'yield',
  verify(v) {
    if (v.parent.name !== fusionRegion.name) v.error(v.op.nameSpan, "'pto.yield' is only allowed inside pto.fusion_region");
    if (v.op.form !== 'paren') v.error(v.op.span, "pto.yield is written 'pto.yield(%a, %b) : (T, U) -> ()'");
    v.expectResults(0);
  },
};

const printOp: OpDefinition = {
  name: 'pto.print',
  syntax: 'PrintBody',
  verify(v) {
    const t = v.operands[0];
    if (t && t.kind !== 'scalar') v.error(v.op.operands[0].span, `pto.print prints a scalar, not ${printType(t)}`);
    v.expectResults(0);
    const format = attrOf(v.op, 'format');
    v.decide(format?.kind === 'string' ? format.value : '');
  },
  execute(x, op) {
    const t = op.operandTypes[0];
    const bits = t?.kind === 'scalar' && isInteger(t.elem) ? bitWidth(t.elem) : 64;
    x.print(op, () => formatScalar(decided<string>(op), x.operand(op, 0) as number | bigint, op.node, bits));
  },
};

const trapOp: OpDefinition = {
  name: 'pto.trap',
  properties: { notInTileOpHelper: 'SIMT operations' },
  verify(v) {
    if (v.op.operands.length > 0 || v.op.resultTypes.length > 0) v.error(v.op.span, "pto.trap takes no operands and gives no results: 'pto.trap'");
    v.expectResults(0);
  },
  execute(_x, op) {
    throw vmTrap('pto.trap: the program stopped itself', op.node.nameSpan);
  },
};

export const RUNTIME_DEFINITIONS: OpDefinition[] = [
  coreQuery('pto.get_block_idx', 'block'),
  coreQuery('pto.get_block_num', 'blocks'),
  coreQuery('pto.get_subblock_idx', 'subblock'),
  coreQuery('pto.get_subblock_num', 'subblocks'),
  section('pto.section.vector', 'vector'),
  section('pto.section.cube', 'cube'),
  simtSection,
  fusionRegion,
  fusionYield,
  printOp,
  trapOp,
];
