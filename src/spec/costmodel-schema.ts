import { z } from 'zod';

/**
 * The zod schemas of spec/costmodel/*.json: pto-isa's cost-model numbers (formula tables, bandwidths), written as
 * JSON by scripts/costmodel-fixtures.py and by hand (arch.json). What they mean and how they are evaluated is
 * src/timing/ (docs/performance.md).
 */

const Origin = {
  repository: z.string(),
  commit: z.string().regex(/^[0-9a-f]{40}$/),
};

/** a2a3: cycles = round(slope * rows * cols + bias), one row per op, dtype and tile width (cols null: any width). */
export const A2a3FormulaFile = z.object({
  ...Origin,
  extractedBy: z.string(),
  source: z.string(),
  rows: z.array(
    z.strictObject({
      op: z.string().regex(/^T[A-Z0-9]+$/),
      dtype: z.enum(['fp32', 'fp16', 'any']),
      cols: z.number().int().positive().nullable(),
      slope: z.number(),
      bias: z.number(),
    }),
  ),
});

/** a5: one curve per op, dtypes, 1-D/2-D path, vector-function form, full/tail; linear or nested in the loop counts. */
export const A5FormulaFile = z.object({
  ...Origin,
  extractedBy: z.string(),
  source: z.string(),
  rows: z.array(
    z.strictObject({
      op: z.string().regex(/^T[A-Z0-9]+$/),
      srcDtype: z.string(),
      dstDtype: z.string(),
      shapePath: z.enum(['1D', '2D']),
      vfImplKind: z.enum(['POST_UPDATE', 'NO_POST_UPDATE', 'DEFAULT']),
      tailKind: z.enum(['full', 'tail']),
      opParams: z.string(),
      formula: z.enum(['linear', 'linear_rows', 'linear_tail', 'nested_loop']),
      params: z.array(z.number()).length(4),
    }),
  ),
});

const Path = z.strictObject({
  gibs: z.number().positive(),
  /** Which curve the model takes where pto-isa has two (see arch.json's note). */
  use: z.enum(['flat', 'fitted', 'measured']).optional(),
  fitted: z.strictObject({ peakGibs: z.number().positive(), kBytes: z.number().nonnegative() }).optional(),
  /**
   * Our own fit to pto-isa's hardware measurements (test/timing/fits.test.ts refits it from the fixtures): each DMA
   * instruction takes startCycles + bytes / bytesPerCycle. `from` names the profiled tests it was fitted on.
   */
  measured: z
    .strictObject({ startCycles: z.number().nonnegative(), bytesPerCycle: z.number().positive(), from: z.string() })
    .optional(),
});

export const TRANSFER_PATHS = [
  'GM_TO_UB',
  'GM_TO_L1',
  'UB_TO_GM',
  'L1_TO_GM',
  'UB_TO_UB',
  'L0C_TO_GM',
  'L0C_TO_L1',
  'L1_TO_L0A',
  'L1_TO_L0B',
  'L1_TO_BT',
  'L1_TO_FB',
  'L1_FILL',
] as const;
export type TransferPath = (typeof TRANSFER_PATHS)[number];

export const ArchFile = z.object({
  ...Origin,
  note: z.string(),
  frequencyHz: z.number().positive(),
  bytesPerGiB: z.number().positive(),
  blockBytes: z.number().int().positive(),
  paths: z.strictObject(Object.fromEntries(TRANSFER_PATHS.map((p) => [p, Path])) as Record<TransferPath, typeof Path>),
  mad: z.strictObject({
    headCycles: z.number().int(),
    mTile: z.number().int().positive(),
    nTile: z.number().int().positive(),
    kFractalBytes: z.number().int().positive(),
    cyclesPerRepeat: z.record(z.string(), z.number().int().positive()),
  }),
});

/** a2a3 instruction level: each vector intrinsic's head, slope and tail, and the costs around them (note in the file). */
export const A2a3InstructionsFile = z.object({
  ...Origin,
  source: z.string(),
  note: z.string(),
  controlCallCycles: z.number().int().nonnegative(),
  countModeFloorCycles: z.number().int().nonnegative(),
  intrinsics: z.record(
    z.string().regex(/^[a-z][a-z_0-9]+$/),
    z.strictObject({
      head: z.number().int().nonnegative(),
      slope: z.number().int().nonnegative(),
      tail: z.number().int().nonnegative(),
      countModeFloor: z.boolean(),
    }),
  ),
  /** Per tile op: which of pto-isa's a2a3 lowerings it takes (src/timing/a2a3-instructions.ts) and its intrinsic. */
  ops: z.record(
    z.string().regex(/^T[A-Z0-9]+$/),
    z.strictObject({
      lowering: z.enum(['binary', 'binaryScalar', 'unary', 'columnReduce', 'columnSum', 'rowReduce', 'convert', 'transpose', 'select', 'sort32', 'mergeSort', 'gather', 'rowExpandBinary']),
      intrinsic: z.string().regex(/^[a-z][a-z_0-9]+$/),
      /** The reducing intrinsic of a row reduction (vcmax, vcadd). */
      reduceIntrinsic: z.string().regex(/^[a-z][a-z_0-9]+$/).optional(),
      /** The group-reducing intrinsic of an f32 row reduction into a column (vcgmax, vcgadd). */
      groupIntrinsic: z.string().regex(/^[a-z][a-z_0-9]+$/).optional(),
    }),
  ),
  /** Ops whose cost pto-isa states as a constant in place of the instruction model. */
  fixedOpCycles: z.array(z.strictObject({ op: z.string().regex(/^T[A-Z0-9]+$/), dtypes: z.array(z.string()), cycles: z.number().int() })),
});

/** An op as VfSim names it in its pair tables: OP.form (VADD.fp32, VCVT_F16_TO_F32.f16_to_f32). */
const VfSimOp = z.string().regex(/^[A-Z][A-Z0-9_]*\.[a-z0-9_]+$/);
const Cycles = z.number().int().nonnegative();

/** a5 VfSim (pto-isa's micro-architecture model of the vector core): its parameter CSVs as one table. */
export const A5VfSimFile = z.object({
  ...Origin,
  extractedBy: z.string(),
  source: z.string(),
  /** isa_defaults.csv: a vector function's start-up before its first dispatch and drain after its last op. */
  defaults: z.strictObject({ vfStartupCost: Cycles, vfDrainCost: Cycles }),
  /** uarch.csv: issue ports, queue sizes, delays between the stages (by VfSim's key). */
  uarch: z.record(z.string().regex(/^[A-Za-z][A-Za-z0-9_]*$/), z.union([z.number().int(), z.boolean(), z.string()])),
  /** isa.csv: per op and form, its latency, the data store cost a store of its result takes, its unit and class. */
  instructions: z.array(
    z.strictObject({
      op: z.string().regex(/^[A-Z][A-Z0-9_]*$/),
      form: z.string().regex(/^[a-z0-9_]+$/),
      startupCost: Cycles,
      latency: Cycles,
      throughput: Cycles,
      drainCost: Cycles,
      loadCost: Cycles,
      storeCost: Cycles,
      exu: z.enum(['ALU', 'SFU', '']),
      dispatchExu: z.enum(['EXU01', 'EXU0_ONLY', 'EXU012', '']),
      opClass: z.enum(['COMPUTE', 'LOAD', 'STORE']),
    }),
  ),
  /** forwarding.csv: producer -> consumer -> the cycles from the producer's start until the consumer may use it. */
  forwarding: z.record(VfSimOp, z.record(VfSimOp, Cycles)),
  /** initiation_interval.csv: previous -> current op on one issue port -> the cycles between their issues. */
  initiationInterval: z.record(VfSimOp, z.record(VfSimOp, Cycles)),
});

/** A node of a vector-function body: an instruction (op a VfSim name or a role), a loop, or a block issued once. */
export type A5VfBodyNode =
  | { op: string; dst: string[]; src: string[] }
  | { loop: A5VfBodyCount; body: A5VfBodyNode[] }
  | { if: A5VfBodyCount; body: A5VfBodyNode[] };
const COUNTS = ['rows', 'repeats', 'cells', 'rowRepeats', 'pairs', 'oddRest'] as const;
export type A5VfBodyCount = (typeof COUNTS)[number];
const Register = z.string().regex(/^[a-z][a-z0-9]*$/);
const BodyNode: z.ZodType<A5VfBodyNode> = z.lazy(() =>
  z.union([
    z.strictObject({ op: z.string().regex(/^([A-Z][A-Z0-9_]*|[a-z]+)$/), dst: z.array(Register), src: z.array(Register) }),
    z.strictObject({ loop: z.enum(COUNTS), body: z.array(BodyNode) }),
    z.strictObject({ if: z.enum(COUNTS), body: z.array(BodyNode) }),
  ]),
);

/** a5: the vector-function bodies of the tile ops pto-isa's curves lack, per family (src/timing/a5-vf-bodies.ts). */
export const A5VfBodiesFile = z.object({
  ...Origin,
  source: z.string(),
  note: z.string(),
  families: z.record(
    z.enum(['rowReduce', 'rowExpand', 'colReduce', 'colExpand', 'binaryScalar', 'fill']),
    z.strictObject({
      from: z.string(),
      region: z.enum(['source', 'destination']),
      dtypes: z.array(z.enum(['f32', 'f16'])),
      paths: z.partialRecord(z.enum(['1D', '2D', '1D-rowMajor', '1D-colMajor']), z.array(BodyNode)),
    }),
  ),
  ops: z.record(
    z.string().regex(/^T[A-Z0-9]+$/),
    z.strictObject({
      family: z.enum(['rowReduce', 'rowExpand', 'colReduce', 'colExpand', 'binaryScalar', 'fill']),
      /** The VfSim op each role of the family's body takes for this op. */
      roles: z.record(z.string().regex(/^[a-z]+$/), z.string().regex(/^[A-Z][A-Z0-9_]*$/)),
      /** TCOLSUM: only its non-binary form runs this body. */
      needsNotBinary: z.boolean().optional(),
      /** TEXPANDS takes either layout, which the cost input does not carry: costed where both give the same loops. */
      eitherLayout: z.boolean().optional(),
    }),
  ),
});

export type A2a3FormulaData = z.infer<typeof A2a3FormulaFile>;
export type A5VfBodiesData = z.infer<typeof A5VfBodiesFile>;
export type A5VfSimData = z.infer<typeof A5VfSimFile>;
export type A5FormulaData = z.infer<typeof A5FormulaFile>;
export type A5FormulaRow = A5FormulaData['rows'][number];
export type ArchData = z.infer<typeof ArchFile>;
export type A2a3InstructionsData = z.infer<typeof A2a3InstructionsFile>;
