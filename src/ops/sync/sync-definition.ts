import { DIAGNOSTICS as D } from '../../diag/catalog';
import { Executor, OpDefinition, OpProperties, OpVerifier } from '../../ir/definition';
import { BoundOp } from '../../ir/bound';
import { VerifiedSyncOp } from '../../ir/program';
import { Attr, OpNode } from '../../syntax/ast';
import { vmTrap } from '../../machine/trap';
import { SyncOpSpec, syncOps, syncTables } from '../../spec/sync';
import { spellingOf, verifySyncOp } from './sync';
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
      ...(spec.delimitsVectorScope ? { delimitsVectorScope: true } : {}),
      ...(spec.vecscopeInference ? { vecscopeInference: spec.vecscopeInference } : {}),
      ...todaysList(spec),
    },
    verify(v) {
      v.expectResults(0);
      const verified = verifySyncOp(v.op, spec, v.target, v.diags, (i) => v.operands[i]);
      if (verified) v.recordSync(verified);
      if (spec.role === 'cross-set' || spec.role === 'cross-wait') checkFftsBase(v);
      if (verified) checkEmitCPipe(v, spec, verified);
    },
    execute(x, op) {
      const dynamic = op.sync!.dynamicId;
      const id = dynamic === undefined ? undefined : dynamicEventId(x, op, dynamic);
      const flag = id ?? op.sync!.id;
      if (flag < 0) {
        // Only sync.set/sync.wait on A2/A3 take one: PTOAS hands it on to the FFTS flag intrinsics as it is.
        const at = dynamic === undefined ? op.node.positional?.items[1]?.span : op.node.operands[dynamic].span;
        throw vmTrap(
          `${op.node.name} with the negative event id ${flag} is not implemented yet: PTOAS passes it on to the FFTS flag intrinsics (${spec.role === 'cross-set' ? 'ffts_cross_core_sync' : 'wait_flag_dev'}), and which flag that is is not known`,
          at ?? op.node.span,
        );
      }
      if (x.target === 'a2a3' && (spec.role === 'acquire' || spec.role === 'release')) {
        // PTOAS verifies get_buf/rls_buf on every target, but documents the buffer-id model for A5 only.
        throw vmTrap(`${op.node.name} on a2a3 is not implemented yet: PTOAS accepts it, but the buffer-id ordering it models is A5's`, op.node.span);
      }
      if (x.target === 'a2a3' && (spec.role === 'cross-set' || spec.role === 'cross-wait') && flag > 15) {
        // A2/A3's FFTS has flags 0..15; PTOAS passes a larger id on to getFFTSMsg / wait_flag_dev unchecked.
        const at = dynamic === undefined ? op.node.positional?.items[1]?.span : op.node.operands[dynamic].span;
        throw vmTrap(
          `${op.node.name} with event id ${flag} on a2a3 is not implemented yet: the FFTS flags are 0..15, and which flag PTOAS's lowering then signals is not known`,
          at ?? op.node.span,
        );
      }
      x.observeSync(op, id);
      if (spec.role === 'cross-set') signalFlag(x, flag, fftsMode(op));
      if (spec.role === 'cross-wait') return waitFlag(x, flag, fftsMode(op));
    },
  };
}

/**
 * A get_buf/rls_buf named by a pipe (PTOAS's PTO_PipeLikeAttr) verifies, but PTOAS's EmitC back end, its default,
 * lowers only op types (PTOGetBufToEmitC / PTORlsBufToEmitC stop on a pipe); its VPTO back end lowers both.
 */
function checkEmitCPipe(v: OpVerifier, spec: SyncOpSpec, verified: VerifiedSyncOp): void {
  const index = spec.attributes.findIndex((a) => a.kind === 'pipe-like');
  if (index < 0 || v.backend === 'vpto' || !syncTables().pipeNames.includes(String(verified.values.get(spec.attributes[index].name)))) return;
  v.warning(
    v.op.positional!.items[index].span,
    `PTOAS's EmitC back end (the default) cannot lower ${v.op.name} named by a pipe: it takes an op type (${spec.role === 'acquire' ? 'PTOGetBufToEmitC' : 'PTORlsBufToEmitC'}), e.g. #pto.pipe_event_type<TVEC>; its VPTO back end lowers both`,
    D.bufSyncPipe,
  );
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

/** How the printer writes the op's list as PTOAS prints it today, where that may differ from what was written. */
function todaysList(spec: SyncOpSpec): Pick<OpProperties, 'todaysPositional'> {
  if (spec.stringForm) return { todaysPositional: todaysBufSync };
  if (spec.oldStrings) return { todaysPositional: todaysEnums };
  const i32 = spec.attributes.findIndex((a) => a.i32);
  return i32 < 0 ? {} : { todaysPositional: (op) => todaysI32(op, i32) };
}

/** An i32 literal as PTOAS prints its attribute: its signed value (`4294967295` is `-1`). */
function todaysI32(op: OpNode, index: number): { bracketed: boolean; items: Attr[] } | undefined {
  const list = op.positional;
  const item = list?.items[index];
  if (!list || item?.kind !== 'int' || BigInt.asIntN(32, item.value) === item.value) return undefined;
  const items = list.items.map((a, i): Attr => (i === index ? { ...item, value: BigInt.asIntN(32, item.value) } : a));
  return { bracketed: list.bracketed, items };
}

/** Pipes and events written as strings (`"PIPE_V"`, PTOAS's former print) as PTOAS prints them now: `<PIPE_V>`. */
function todaysEnums(op: OpNode): { bracketed: boolean; items: Attr[] } | undefined {
  const list = op.positional;
  if (!list?.items.some((item) => item.kind === 'string')) return undefined;
  const items = list.items.map((item): Attr => (item.kind === 'string' ? { kind: 'dialect', text: `<${item.value}>`, span: item.span } : item));
  return { bracketed: list.bracketed, items };
}

/**
 * get_buf/rls_buf as PTOAS prints them (printBufSyncOp): a pipe bare, as a string (`"PIPE_V", 0, 0`); an op type in
 * brackets, as its attribute (a string op type reads as a pipe_event_type); mode always.
 */
function todaysBufSync(op: OpNode): { bracketed: boolean; items: Attr[] } | undefined {
  const [first, id, mode] = op.positional?.items ?? [];
  if (!first || !id) return undefined;
  const tables = syncTables();
  const rest: Attr[] = [id, mode ?? { kind: 'int', value: 0n, span: id.span }];
  const pipe =
    first.kind === 'string'
      ? tables.pipeNames.find((p) => p === first.value)
      : first.kind === 'dialect'
        ? spellingOf(first.text, tables.spellings.pipe)?.name
        : undefined;
  if (pipe !== undefined) return { bracketed: false, items: [{ kind: 'string', value: pipe, span: first.span }, ...rest] };
  const opType: Attr = first.kind === 'string' ? { kind: 'dialect', text: `#pto.pipe_event_type<${first.value}>`, span: first.span } : first;
  return { bracketed: true, items: [opType, ...rest] };
}

/**
 * An event id given at run time: a set_flag_dyn names one of the core's events (EVENT_ID0..7), a cross-core signal
 * (sync.set, the intra- and cross-block ops) one of its flags (the static form's range on the target: 0..15 for
 * sync.set on A5, an i32 on A2/A3, where a negative one then traps as not implemented); anything else traps rather
 * than signal a flag the NPU does not have.
 */
function dynamicEventId(x: Executor, op: BoundOp, operand: number): number {
  const spec = op.sync!.spec;
  const tables = syncTables();
  const id = x.int(op, operand);
  const idAttr = spec.attributes.find((a) => a.kind === 'index' || a.kind === 'int')!;
  const i32: [number, number] = [-(2 ** 31), 2 ** 31 - 1];
  const [low, high] =
    idAttr.kind === 'index' ? [0, tables.eventCount - 1] : (idAttr.rangeOn?.[x.target] ?? idAttr.range ?? (idAttr.i32 ? i32 : [0, Number.MAX_SAFE_INTEGER]));
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
