import type { SyncAttributeSpec, PipeRuleSpec, SyncFileData, SyncOpEntrySpec } from './sync-schema';
import { specTables } from './tables';

export type { SyncAttributeSpec, PipeRuleSpec };

/**
 * The synchronization ops (flags, events, barriers, buffer tokens) as data (spec/sync.json): their positional
 * attributes and what each names, the op-type -> pipe map PTOAS lowers events with, and the pipe every PTO
 * instruction runs on.
 */

/**
 * pipe: `<PIPE_V>`; event: `<EVENT_ID0>`; op-type: `<TLOAD>` or `#pto.pipe_event_type<TLOAD>`; sync-op-type: op-type
 * without the pipe_event_type spelling; pipe-like: a pipe or an op type in their full spellings
 * (`#pto.pipe<PIPE_V>`, `#pto.pipe_event_type<TLOAD>`: PTOAS's PTO_PipeLikeAttr, which get_buf reads with MLIR's
 * generic attribute parser); int: a literal; index: an SSA value of type index (an event id given at run time,
 * `pto.set_flag_dyn [..., %eid]`).
 */
export const SYNC_ATTRIBUTE_KINDS = ['pipe', 'event', 'op-type', 'sync-op-type', 'pipe-like', 'int', 'index'] as const;
export type SyncAttributeKind = (typeof SYNC_ATTRIBUTE_KINDS)[number];

/** One sync op of the table; `opName` is `pto.NAME`. */
export interface SyncOpSpec extends SyncOpEntrySpec {
  opName: string;
}

export interface SyncTables {
  ops: Map<string, SyncOpSpec>;
  /** Every PIPE enum name. */
  pipeNames: string[];
  /** The pipes instructions run on. */
  corePipes: string[];
  /** The other pipes that are one in-order queue each, on which the VM runs no instruction (MTE4, MTE5, V2). */
  idlePipes: string[];
  allPipes: string;
  eventPrefix: string;
  eventCount: number;
  opTypePipes: Record<string, string>;
  manualOpTypeNames: Record<string, string>;
  spellings: Record<SyncAttributeKind, string[]>;
  pipeRules: PipeRuleSpec[];
}

let loaded: SyncTables | undefined;

/** The tables of spec/sync.json, checked once per process; a malformed table is a bug and throws. */
export function syncTables(): SyncTables {
  if (!loaded) loaded = resolveSyncTables(specTables().sync);
  return loaded;
}

/** Checks the cross-references of spec/sync.json (its shape zod has validated) and indexes its ops. */
export function resolveSyncTables(file: SyncFileData): SyncTables {
  const pipeNames = file.pipes.names;
  const known = (pipe: string, where: string) => {
    if (!file.pipes.core.includes(pipe)) throw new Error(`spec/sync.json: ${where} names '${pipe}', which is not a core pipe`);
  };
  for (const p of [...file.pipes.core, ...file.pipes.idle, file.pipes.all]) if (!pipeNames.includes(p)) throw new Error(`spec/sync.json: unknown pipe '${p}'`);
  for (const [type, pipe] of Object.entries(file.opTypes.pipes)) known(pipe, `op type ${type}`);
  for (const [manual, type] of Object.entries(file.opTypes.manualNames)) {
    if (!(type in file.opTypes.pipes)) throw new Error(`spec/sync.json: manual name ${manual} maps to unknown op type '${type}'`);
  }
  file.instructionPipes.rules.forEach((r, i) => known(r.pipe, `pipe rule ${i + 1}`));
  const spellings = {} as Record<SyncAttributeKind, string[]>;
  for (const kind of SYNC_ATTRIBUTE_KINDS.filter((k) => k !== 'int' && k !== 'index')) {
    const list = file.spellings[kind];
    if (!Array.isArray(list) || list.some((s) => !s.includes('{}'))) throw new Error(`spec/sync.json: spellings of '${kind}' missing or without {}`);
    spellings[kind] = list;
  }
  const ops = new Map<string, SyncOpSpec>();
  for (const entry of file.ops) {
    const opName = `pto.${entry.name}`;
    if (ops.has(opName)) throw new Error(`spec/sync.json: ${opName} is described twice`);
    for (const a of [...entry.attributes, ...(entry.keyed ?? [])]) {
      for (const p of [...(a.pipes ?? []), ...Object.values(a.pipesOn ?? {}).flat()]) known(p, `${opName} ${a.name}`);
      for (const p of a.exceptPipes ?? []) if (!pipeNames.includes(p)) throw new Error(`spec/sync.json: ${opName} ${a.name} excepts unknown pipe '${p}'`);
    }
    ops.set(opName, { ...entry, opName });
  }
  return {
    ops,
    pipeNames,
    corePipes: file.pipes.core,
    idlePipes: file.pipes.idle,
    allPipes: file.pipes.all,
    eventPrefix: file.events.prefix,
    eventCount: file.events.count,
    opTypePipes: file.opTypes.pipes,
    manualOpTypeNames: file.opTypes.manualNames,
    spellings,
    pipeRules: file.instructionPipes.rules,
  };
}

export function syncOps(): Map<string, SyncOpSpec> {
  return syncTables().ops;
}
