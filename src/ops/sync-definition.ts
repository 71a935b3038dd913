import { DIAGNOSTICS as D } from '../diag/catalog';
import { Executor, OpDefinition, OpVerifier } from '../ir/definition';
import { BoundOp } from '../ir/bound';
import { Attr, OpNode } from '../syntax/ast';
import { vmTrap } from '../machine/trap';
import { SyncOpSpec, syncOps, syncTables } from '../spec/sync';
import { verifySyncOp } from './sync';
import { SET_FFTS } from './comm';
import { FftsMode, signalFlag, waitFlag } from './cross-core-flags';

/** The definition of a synchronization op of spec/sync.json (flags, events, barriers, buffer tokens). */
export function syncDefinition(spec: SyncOpSpec): OpDefinition {
  return {
    name: spec.opName,
    properties: {
      // PTOAS materializes a tile-op helper's body into sections of its callers, which own the synchronization.
      notInTileOpHelper: 'pipe synchronization',
      mayWait: spec.role === 'cross-wait',
      ...(spec.oldStrings ? { todaysAttribute: todaysEnum } : {}),
    },
    verify(v) {
      v.expectResults(0);
      const verified = verifySyncOp(v.op, spec, v.target, v.diags, (i) => v.operands[i]);
      if (verified) v.recordSync(verified);
      if (spec.role === 'cross-set' || spec.role === 'cross-wait') checkFftsBase(v);
    },
    execute(x, op) {
      const dynamic = op.sync!.dynamicId;
      const id = dynamic === undefined ? undefined : dynamicEventId(x, op, dynamic);
      x.observeSync(op, id);
      const flag = id ?? op.sync!.id;
      if (spec.role === 'cross-set') signalFlag(x, flag, fftsMode(op));
      if (spec.role === 'cross-wait') return waitFlag(x, flag, fftsMode(op));
    },
  };
}

/** Per function: its first cross-core flag op (in the order of the text) and whether it sets the FFTS base. */
const fftsUse = new WeakMap<OpNode, { first?: OpNode; base: boolean }>();

/**
 * PTOAS's EmitC backend for A2/A3 (EmitPTOManualPass) stops on every function that holds a cross-core flag op
 * (sync.set/wait, set/wait_intra_block, set/wait_cross_block), at any depth, and no pto.set_ffts, which sets the
 * flags' base address. Reported once per function, at its first such op.
 */
function checkFftsBase(v: OpVerifier): void {
  if (v.target !== 'a2a3' || v.backend === 'vpto') return;
  let use = fftsUse.get(v.function);
  if (!use) fftsUse.set(v.function, (use = scanFfts(v.function, { base: false })));
  if (use.base || use.first !== v.op) return;
  v.error(
    v.op.nameSpan,
    `${v.op.name} on a2a3 needs a ${SET_FFTS} in its function (the cross-core flags' base address): PTOAS requires one in every function with cross-core flags`,
    [{ message: `@${v.function.symbol ?? ''} has no ${SET_FFTS}`, span: v.function.nameSpan }],
    D.fftsBase,
  );
}

function scanFfts(op: OpNode, use: { first?: OpNode; base: boolean }): { first?: OpNode; base: boolean } {
  for (const region of op.regions) {
    for (const block of region.blocks) {
      for (const inner of block.ops) {
        if (inner.name === SET_FFTS) use.base = true;
        const role = syncOps().get(inner.name)?.role;
        if (!use.first && (role === 'cross-set' || role === 'cross-wait')) use.first = inner;
        scanFfts(inner, use);
      }
    }
  }
  return use;
}

/** A pipe or event written as a string (`"PIPE_V"`, PTOAS's former print) as PTOAS prints it now: `<PIPE_V>`. */
function todaysEnum(item: Attr): Attr | undefined {
  return item.kind === 'string' ? { kind: 'dialect', text: `<${item.value}>`, span: item.span } : undefined;
}

/**
 * An event id given at run time: a set_flag_dyn names one of the core's events (EVENT_ID0..7), a cross-core signal
 * (sync.set, the intra- and cross-block ops) one of its flags (the static form's range on the target: 0..15 for
 * sync.set on A5); anything else traps rather than signal a flag the NPU does not have.
 */
function dynamicEventId(x: Executor, op: BoundOp, operand: number): number {
  const spec = op.sync!.spec;
  const tables = syncTables();
  const id = x.int(op, operand);
  const idAttr = spec.attributes.find((a) => a.kind === 'index' || a.kind === 'int')!;
  const [low, high] = idAttr.kind === 'index' ? [0, tables.eventCount - 1] : (idAttr.rangeOn?.[x.target] ?? idAttr.range ?? [0, Number.MAX_SAFE_INTEGER]);
  if (id < BigInt(low) || id > BigInt(high)) {
    throw vmTrap(`${op.node.name}: event id ${id} is out of range ${low}..${high}`, op.node.operands[operand].span);
  }
  return Number(id);
}

/** The FFTS mode of a cross-core op: as written (`ffts_mode`), else inter-block for the cross-block ops, else block. */
function fftsMode(op: BoundOp): FftsMode {
  const written = op.sync!.values.get('ffts_mode');
  if (typeof written === 'number') return written as FftsMode;
  return op.sync!.spec.space === 'cross-block' ? 0 : 2;
}
