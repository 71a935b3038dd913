import { z } from 'zod';
import { ELEM_TYPE_NAMES } from './elem-type-names';

/** Schemas of spec/: each PTO instruction described once, as data (spec/instructions/*.json). */

/** An element type, by name (see elem-type-names.ts). */
export const ElemTypeName = z.enum(ELEM_TYPE_NAMES);
const Loc = z.enum(['vec', 'mat', 'left', 'right', 'acc', 'bias', 'scaling']);
const Target = z.enum(['a2a3', 'a5']);

export const OperandSpec = z.object({
  name: z.string(),
  role: z.enum(['dst', 'src', 'tmp']),
  /** tile: a tile buffer/value; view: a partition of a global tensor; scalar: an SSA scalar. */
  kind: z.enum(['tile', 'view', 'scalar']),
  /**
   * A scalar's types, as PTOAS constrains the operand (PTOOps.td, or the op's verifier): `numeric` (its ScalarType,
   * a signless integer or a float), `signless-integer`, `integer-or-float` (either signedness), `f32`, `index`
   * (ODS Index: an offset). Absent: any.
   */
  scalarTypes: z.enum(['numeric', 'signless-integer', 'integer-or-float', 'f32', 'index']).optional(),
  optional: z.boolean().optional(),
  /** Level 1 (SSA) spelling: absent (`false`) or optional (`"optional"`), e.g. scratch tiles. Default: as at Level 2. */
  l1: z.union([z.literal(false), z.literal('optional')]).optional(),
  /**
   * A source that older PTOAS wrote in `outs(...)`: after the destinations (`true`) or at this index of the old
   * outs (tmrgsort's `outs(%dst, %tmp, %executed)`). That form is accepted with a warning.
   */
  formerlyOuts: z.union([z.boolean(), z.number().int().min(0)]).optional(),
  /**
   * An optional source written after all the others, whichever optional ones before it are left out (tmrgsort's tmp
   * follows 2 to 4 lists); `no_NAME` after the operands says it is left out.
   */
  writtenLast: z.boolean().optional(),
  /**
   * Its kind depends on the op's form (why, in words): bound to a value of another kind than `kind`, the generic
   * checks skip it and the family's check (ops/instructions/checks) checks it.
   */
  polymorphic: z.string().optional(),
  /** At Level 2, written after the ins list as `KEYWORD %v : T` (PTOAS's `fp %fp : F`) rather than by position. */
  keyword: z.enum(['fp', 'pre_quant']).optional(),
  /**
   * A keyword operand that an op older PTOAS printed under another name wrote among its `ins`, at index `at`, the
   * others in today's order (`textract_fp ins(%src, %fp, %r, %c ...)`, today `textract ins(%src, %r, %c fp %fp : F)`):
   * that spelling is accepted with a warning.
   */
  formerlyIns: z.object({ op: z.string(), at: z.number().int().min(0) }).optional(),
  /**
   * A scratch operand these targets' implementation never touches: PTOAS's memory planning gives a tile used only
   * here no storage (PTOPlanMemory.cpp's isIgnoredA5TmpOperandUse), so it takes no room of its buffer.
   */
  scratchUnusedOn: z.array(Target).min(1).optional(),
  /**
   * A scratch operand PTOAS allocates itself when it is left out (its pto-materialize-implicit-tmp pass, before
   * PlanMemory), on these targets and, with `when`, only in that case: at level3, which skips PlanMemory, it must
   * be written (ops/instructions/implicit-tmp.ts).
   */
  implicitTmp: z
    .object({
      targets: z.array(Target).min(1),
      when: z.enum(['float-dst', 'unaligned-width', 'unsaturated-narrowing', 'binary', 'several-lists']).optional(),
    })
    .optional(),
});

/** Layout requirements, by name: see ops/memory/tile-rules.ts. */
export const LayoutRule = z.enum(['any', 'nd', 'row-major', 'nd-or-dn-column', 'none-box']);

const DimRef = z.string().regex(/^[A-Za-z0-9]+\.(vRow|vCol|rows|cols)$/, 'expected OPERAND.vRow|vCol|rows|cols');

export const ValidRule = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('eq'), lhs: DimRef, rhs: z.union([DimRef, z.number().int()]), when: z.string().optional() }),
  z.object({ kind: z.literal('le'), lhs: DimRef, rhs: DimRef, when: z.string().optional() }),
  z.object({ kind: z.literal('positive'), of: DimRef, when: z.string().optional() }),
  z.object({ kind: z.literal('view-matches-valid'), view: z.string(), tile: z.string() }),
]);

export const DtypeRelation = z.object({
  kind: z.enum(['same', 'same-size']),
  operands: z.array(z.string()).min(2),
  when: z.string().optional(),
});

/** An attribute's decoded value: bool, int (a bigint when a number cannot hold it exactly), or enum spelling. */
export type AttributeValue = boolean | number | bigint | string;

export const AttributeSpec = z.object({
  name: z.string(),
  /** mask: an integer (contiguous) or `[M0, M1]` (two unsigned 64-bit words, bit mode). */
  kind: z.enum(['bool', 'int', 'enum', 'mask']),
  required: z.boolean().optional(),
  default: z.union([z.boolean(), z.number(), z.string()]).optional(),
  /** enum: the allowed values, as written in the attribute. */
  values: z.array(z.string()).optional(),
  /**
   * enum: how the value is spelled, `{}` standing for it: `#pto<cmp {}>` (an MLIR EnumAttr),
   * `#pto.mask_pattern<{}>`. Absent: a bare identifier or a string.
   */
  syntax: z.string().includes('{}').optional(),
  /** enum: other spellings (another document's) -> the accepted value, suggested in the error. */
  aliases: z.record(z.string(), z.string()).optional(),
  /** int: the inclusive range of allowed values. */
  range: z.tuple([z.number(), z.number()]).optional(),
});

/** Per target: operand name -> a dtype set name or an explicit list. */
const DtypeTable = z.record(z.string(), z.union([z.string(), z.array(ElemTypeName)]));

export const InstructionSpec = z.object({
  /** The op is spelled `DIALECT.NAME`: pto.tcolmin, ascendc.copy, tik.vec_reduce_add. */
  dialect: z.enum(['pto', 'ascendc', 'tik']).default('pto'),
  name: z.string().regex(/^[a-z][a-z0-9_.]*$/),
  isa: z.string(),
  family: z.string(),
  summary: z.string(),
  /** The VM semantics family that executes it (ops/instructions/semantics/*). */
  semantics: z.string(),
  reduce: z.enum(['min', 'max', 'sum', 'prod']).optional(),
  /**
   * The operation within a semantics family that runs several (`add`, `exp`, ...). Each family
   * lists the operations it knows (ops/instructions/semantics), and a test checks every name is one of them.
   */
  op: z.string().optional(),
  operands: z.array(OperandSpec).min(1),
  /**
   * The operands (by name) in the order PTOAS declares them (PTOOps.td `arguments`), which MLIR's generic form
   * `"pto.x"(%a, %b, ...)` writes them in. Absent: the required sources in table order, then the destinations,
   * then the optional operands in table order.
   */
  mlirOperands: z.array(z.string()).optional(),
  attributes: z.array(AttributeSpec).optional(),
  tileLocs: z.record(z.string(), z.array(Loc)),
  layouts: z.record(z.string(), LayoutRule),
  dtypes: z.partialRecord(Target, DtypeTable),
  dtypeRelations: z.array(DtypeRelation).optional(),
  valid: z.array(ValidRule).optional(),
  /**
   * Level 2 may write the scalar source before the tile source (`pto.tdivs ins(%s, %t ...)` divides
   * the scalar by each element): the operands are then bound by kind, not position.
   */
  scalarMayLead: z.boolean().optional(),
  /**
   * The destination's contents before the op are an input too (it accumulates into it, or writes only part of
   * it): at Level 1, where a result is a new value, the op cannot be expressed.
   */
  readsDestination: z.boolean().optional(),
  /** PTOAS prints the op's attributes inside `ins(...)` (`ins(%a, %b {cmpMode = ...} : ...)`), not after `outs(...)`. */
  attributesInIns: z.boolean().optional(),
  /** The instruction does nothing when this operand's valid region is empty. */
  earlyReturnIfEmpty: z.string().optional(),
  /**
   * PTOAS's no-op marker (a dual-AIV replay): when this operand's valid region is 0x0, the valid-region rules do not
   * apply and the instruction does nothing.
   */
  noOpWhenEmpty: z.string().optional(),
  notes: z.array(z.string()).optional(),
  /**
   * Element types PTOAS accepts but the code a run follows does not implement (pto-isa static_asserts them, PTOAS
   * has no template): the VM traps on them as not implemented yet, on the targets and back ends (absent: both) given.
   */
  unimplementedDtypes: z
    .array(
      z.object({
        operand: z.string(),
        dtypes: z.array(ElemTypeName).min(1),
        targets: z.array(Target).min(1),
        backends: z.array(z.enum(['emitc', 'vpto'])).min(1).optional(),
        why: z.string(),
      }),
    )
    .optional(),
  implemented: z.boolean(),
});

/** One file of spec/instructions/: the instructions of a family or two. */
export const InstructionFile = z.object({
  $comment: z.string().optional(),
  instructions: z.array(InstructionSpec),
});

/** spec/dtype-sets.json: named element-type lists the instruction tables refer to. */
export const DtypeSetsFile = z.object({
  $comment: z.string().optional(),
  dtypeSets: z.record(z.string(), z.array(ElemTypeName)),
});

/** spec/known-ops.json: every PTO op name, and why the ones without an instruction table have none. */
export const KnownOpsFile = z.object({
  $comment: z.string().optional(),
  ops: z.array(z.string()),
  gaps: z.array(z.object({ reason: z.string(), ops: z.array(z.string()) })),
  /** The tile-level ops of the PTOAS dialect at the reference commit, for the coverage report. */
  ptoas: z.array(z.string()),
  /** PTOAS's vector micro-ops (VPTO and VMI): known, and not supported yet. */
  vpto: z.array(z.string()),
});

export const TargetsFile = z.object({
  $comment: z.string().optional(),
  targets: z.record(
    Target,
    z.object({
      buffers: z.record(z.string(), z.number().int().positive()),
      typeLimits: z.record(z.string(), z.number().int().positive()).optional(),
      /** The capacity PTOAS's memory planning gives each buffer (src/verify/memory-plan.ts). */
      planned: z.record(z.string(), z.number().int().positive()),
    }),
  ),
  locations: z.record(Loc, z.string()),
  alignment: z.number().int().positive(),
  /** The alignment, in bytes, PTOAS's memory planning places a buffer's tiles at. */
  planAlignment: z.record(z.string(), z.number().int().positive()),
});

export type OperandSpec = z.infer<typeof OperandSpec>;
export type ValidRule = z.infer<typeof ValidRule>;
export type InstructionSpecRaw = z.infer<typeof InstructionSpec>;
export type TargetName = z.infer<typeof Target>;
export type LayoutRule = z.infer<typeof LayoutRule>;
export const TARGETS: TargetName[] = ['a2a3', 'a5'];
