import { z } from 'zod';
import { TARGETS } from './schema';
import { SYNC_ATTRIBUTE_KINDS } from './sync';

/** The zod schema of spec/sync.json (see src/spec/sync.ts for what the tables mean). */

const Target = z.enum(TARGETS as ['a2a3', 'a5']);
const Loc = z.enum(['vec', 'mat', 'left', 'right', 'acc', 'bias', 'scaling']);

const AttributeKind = z.enum(SYNC_ATTRIBUTE_KINDS);

const SyncAttribute = z.object({
  name: z.string(),
  kind: AttributeKind,
  /** Inclusive bounds of an int. */
  range: z.tuple([z.number().int(), z.number().int()]).optional(),
  /** Inclusive bounds of an int that differ per target (they replace `range` there). */
  rangeOn: z.partialRecord(Target, z.tuple([z.number().int(), z.number().int()])).optional(),
  /** An int that may instead be an SSA value of type index, read at run time. */
  dynamic: z.boolean().optional(),
  /**
   * An int PTOAS reads as a signless i32 attribute (MLIR's integer literal of type i32): -2^31..2^32-1, a literal of
   * 2^31 and up standing for its negative two's complement, which is its value (PTOAS prints it so).
   */
  i32: z.boolean().optional(),
  /** An optional trailing attribute of the list, and its value when it is not written. */
  default: z.number().int().optional(),
  /** The only pipes a pipe attribute may name (PTOAS's verifier of the op); absent: any value of the PIPE enum. */
  pipes: z.array(z.string()).optional(),
  /** The only pipes it may name on a target, where they differ per target (they replace `pipes` there). */
  pipesOn: z.partialRecord(Target, z.array(z.string())).optional(),
  /** Pipes it may not name (PTOAS's verifier of the op: not PIPE_ALL nor PIPE_UNASSIGNED). */
  exceptPipes: z.array(z.string()).optional(),
});

const SyncOpEntry = z.object({
  name: z.string(),
  summary: z.string(),
  /** What the op does to the pipes: the VM's tracker dispatches on it. */
  role: z.enum(['set', 'wait', 'barrier', 'acquire', 'release', 'cross-set', 'cross-wait']),
  /** `[a, b, c]` (true) or bare `a, b` (false), as PTOAS's assembly format has it. */
  bracketed: z.boolean(),
  /**
   * Its pipes and event may be written as strings (`["PIPE_V", "PIPE_MTE3", "EVENT_ID0"]`), as PTOAS printed them
   * from 87a8429d to 812e800c (its parser still reads them): an old spelling, printed as `<PIPE_V>` today.
   */
  oldStrings: z.boolean().optional(),
  /**
   * It may also be written bare, its first attribute a string naming a pipe or an op type (`pto.get_buf "PIPE_V",
   * 0, 0`), as PTOAS's parser reads it (parseBufSyncOp) and prints it for a pipe (printBufSyncOp).
   */
  stringForm: z.boolean().optional(),
  /**
   * PTOAS parses it by hand (PTO.cpp) and adds its positional attributes to the op's attribute list beside the
   * trailing dictionary's: a dictionary key naming one of them is an error there ("attribute 'mode' occurs more
   * than once in the attribute list").
   */
  customParser: z.boolean().optional(),
  /** It delimits vector scopes: it may not stand inside `pto.vecscope` (VPTO.cpp's isForbiddenSynchronizationInsideVecScope). */
  delimitsVectorScope: z.boolean().optional(),
  /** How PTOAS's vecscope inference takes it (OpProperties.vecscopeInference). */
  vecscopeInference: z.enum(['boundary', 'explicit-scope', 'needs-scope']).optional(),
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
  pipes: z.object({ $comment: z.string().optional(), names: z.array(z.string()), core: z.array(z.string()), idle: z.array(z.string()), all: z.string() }),
  events: z.object({ $comment: z.string().optional(), prefix: z.string(), count: z.number().int().positive() }),
  opTypes: z.object({ $comment: z.string().optional(), pipes: z.record(z.string(), z.string()), manualNames: z.record(z.string(), z.string()) }),
  spellings: z.object({ $comment: z.string().optional() }).catchall(z.array(z.string())),
  ops: z.array(SyncOpEntry),
  instructionPipes: z.object({ $comment: z.string().optional(), rules: z.array(PipeRule).min(1) }),
});

export type SyncAttributeSpec = z.infer<typeof SyncAttribute>;
export type PipeRuleSpec = z.infer<typeof PipeRule>;
export type SyncOpEntrySpec = z.infer<typeof SyncOpEntry>;
export type SyncFileData = z.infer<typeof SyncFile>;
