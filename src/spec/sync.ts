import * as fs from 'fs';
import * as path from 'path';
import { z } from 'zod';
import { TARGETS } from './schema';

/**
 * The synchronization ops (flags, events, barriers, buffer tokens) as data (spec/sync.json): their positional
 * attributes and what each names, the op-type -> pipe map PTOAS lowers events with, and the pipe every PTO
 * instruction runs on.
 */

const Target = z.enum(TARGETS as ['a2a3', 'a5']);
const Loc = z.enum(['vec', 'mat', 'left', 'right', 'acc', 'bias', 'scaling']);

/**
 * pipe: `<PIPE_V>`; event: `<EVENT_ID0>`; op-type: `<TLOAD>` or `#pto.pipe_event_type<TLOAD>`; sync-op-type: op-type
 * without the pipe_event_type spelling; int: a literal; index: an SSA value of type index (an event id given at run
 * time, `pto.set_flag_dyn [..., %eid]`).
 */
const AttributeKind = z.enum(['pipe', 'event', 'op-type', 'sync-op-type', 'int', 'index']);

const SyncAttribute = z.object({
  name: z.string(),
  kind: AttributeKind,
  /** Inclusive bounds of an int. */
  range: z.tuple([z.number().int(), z.number().int()]).optional(),
  /** Inclusive bounds of an int that differ per target (they replace `range` there). */
  rangeOn: z.partialRecord(Target, z.tuple([z.number().int(), z.number().int()])).optional(),
  /** An int that may instead be an SSA value of type index, read at run time. */
  dynamic: z.boolean().optional(),
  /** The only pipes a pipe attribute may name (PTOAS's verifier of the op); absent: any core pipe. */
  pipes: z.array(z.string()).optional(),
  /** A pipe attribute that may be PIPE_ALL. */
  allowAll: z.boolean().optional(),
});

const SyncOpEntry = z.object({
  name: z.string(),
  summary: z.string(),
  /** What the op does to the pipes: the VM's tracker dispatches on it. */
  role: z.enum(['set', 'wait', 'barrier', 'acquire', 'release', 'cross-set', 'cross-wait']),
  /** `[a, b, c]` (true) or bare `a, b` (false), as PTOAS's assembly format has it. */
  bracketed: z.boolean(),
  targets: z.array(Target).min(1),
  /** The positional attributes, in order. */
  attributes: z.array(SyncAttribute).min(1),
  /** Attributes of the trailing `{...}` dictionary. */
  keyed: z.array(SyncAttribute).optional(),
  /**
   * The flags of a cross-core op: ops of the same space signal each other (`intra-block`: set_intra_block and
   * wait_intra_block); absent: the FFTS flags of sync.set/sync.wait.
   */
  space: z.string().optional(),
});

const PipeRule = z.object({
  ops: z.array(z.string()).optional(),
  semantics: z.array(z.string()).optional(),
  src: z.array(Loc).optional(),
  dst: z.array(Loc).optional(),
  pipe: z.string(),
  why: z.string(),
});

export const SyncFile = z.object({
  $comment: z.string().optional(),
  pipes: z.object({ $comment: z.string().optional(), names: z.array(z.string()), core: z.array(z.string()), all: z.string() }),
  events: z.object({ $comment: z.string().optional(), prefix: z.string(), count: z.number().int().positive() }),
  opTypes: z.object({ $comment: z.string().optional(), pipes: z.record(z.string(), z.string()), manualNames: z.record(z.string(), z.string()) }),
  spellings: z.object({ $comment: z.string().optional() }).catchall(z.array(z.string())),
  ops: z.array(SyncOpEntry),
  instructionPipes: z.object({ $comment: z.string().optional(), rules: z.array(PipeRule).min(1) }),
});

export type SyncAttributeSpec = z.infer<typeof SyncAttribute>;
export type SyncAttributeKind = z.infer<typeof AttributeKind>;
export type PipeRuleSpec = z.infer<typeof PipeRule>;

/** One sync op of the table; `opName` is `pto.NAME`. */
export interface SyncOpSpec extends z.infer<typeof SyncOpEntry> {
  opName: string;
}

export interface SyncTables {
  ops: Map<string, SyncOpSpec>;
  /** Every PIPE enum name. */
  pipeNames: string[];
  /** The pipes of an AI core, which flags may name. */
  corePipes: string[];
  allPipes: string;
  eventPrefix: string;
  eventCount: number;
  opTypePipes: Record<string, string>;
  manualOpTypeNames: Record<string, string>;
  spellings: Record<SyncAttributeKind, string[]>;
  pipeRules: PipeRuleSpec[];
}

const specDir = path.join(__dirname, '..', '..', 'spec');
let loaded: SyncTables | undefined;

/** Loads and checks spec/sync.json once per process; a malformed table is a bug and throws. */
export function syncTables(): SyncTables {
  if (!loaded) loaded = loadSyncTables(JSON.parse(fs.readFileSync(path.join(specDir, 'sync.json'), 'utf8')));
  return loaded;
}

export function loadSyncTables(json: unknown): SyncTables {
  const file = SyncFile.parse(json);
  const pipeNames = file.pipes.names;
  const known = (pipe: string, where: string) => {
    if (!file.pipes.core.includes(pipe)) throw new Error(`spec/sync.json: ${where} names '${pipe}', which is not a core pipe`);
  };
  for (const p of [...file.pipes.core, file.pipes.all]) if (!pipeNames.includes(p)) throw new Error(`spec/sync.json: unknown pipe '${p}'`);
  for (const [type, pipe] of Object.entries(file.opTypes.pipes)) known(pipe, `op type ${type}`);
  for (const [manual, type] of Object.entries(file.opTypes.manualNames)) {
    if (!(type in file.opTypes.pipes)) throw new Error(`spec/sync.json: manual name ${manual} maps to unknown op type '${type}'`);
  }
  file.instructionPipes.rules.forEach((r, i) => known(r.pipe, `pipe rule ${i + 1}`));
  const spellings = {} as Record<SyncAttributeKind, string[]>;
  for (const kind of AttributeKind.options.filter((k) => k !== 'int' && k !== 'index')) {
    const list = file.spellings[kind];
    if (!Array.isArray(list) || list.some((s) => !s.includes('{}'))) throw new Error(`spec/sync.json: spellings of '${kind}' missing or without {}`);
    spellings[kind] = list;
  }
  const ops = new Map<string, SyncOpSpec>();
  for (const entry of file.ops) {
    const opName = `pto.${entry.name}`;
    if (ops.has(opName)) throw new Error(`spec/sync.json: ${opName} is described twice`);
    for (const a of [...entry.attributes, ...(entry.keyed ?? [])]) for (const p of a.pipes ?? []) known(p, `${opName} ${a.name}`);
    ops.set(opName, { ...entry, opName });
  }
  return {
    ops,
    pipeNames,
    corePipes: file.pipes.core,
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
