import { z } from 'zod';

/**
 * Schema of spec/micro/*.json: PTOAS's micro-op level (VPTO, include/PTO/IR/VPTOOps.td), one row per op. A row names
 * its operands, results and attributes, the kinds of value each is, and its assembly format (`format`, in the small
 * language src/micro/format.ts reads: what ODS's assemblyFormat or the op's custom parser writes).
 */

/** `vreg-or-scalar`: either (vdup's input: a scalar to broadcast or a register whose lane it copies). */
/**
 * `vmi-vreg`, `vmi-mask`: VMI's logical `!pto.vmi.vreg<...>` and `!pto.vmi.mask<...>`; `vmi-vreg-or-scalar` a vreg or a
 * scalar (vbrc's value); `vmi-value` a vreg or a mask (vand's operands: lanes or mask logic).
 */
export const MicroValueKind = z.enum(['vreg', 'mask', 'align', 'ptr', 'scalar', 'index', 'vreg-or-scalar', 'vmi-vreg', 'vmi-mask', 'vmi-vreg-or-scalar', 'vmi-value']);

const MicroValue = z.object({
  name: z.string(),
  kind: MicroValueKind,
  /** A scalar's or pointer's element types (`i32`, `i64`); absent: any. */
  elems: z.array(z.string()).optional(),
  /** A pointer's address space (`ub`, `gm`, or a cube buffer: `l1`, `l0a`, `l0b`, `l0c`, `bt`, `fb`); absent: any. */
  space: z.enum(['ub', 'gm', 'l1', 'l0a', 'l0b', 'l0c', 'bt', 'fb']).optional(),
  /** A pointer into any one of these address spaces (pto.dcci: gm or ub). */
  spaces: z.array(z.enum(['ub', 'gm', 'l1', 'l0a', 'l0b', 'l0c', 'bt', 'fb'])).optional(),
  /** A mask of one granularity (`pset_b16`: `b16`). */
  granularity: z.enum(['b8', 'b16', 'b32']).optional(),
  optional: z.boolean().optional(),
  /** Repeated groups (`loop(...)` of the DMA ops): any number of operands. */
  variadic: z.boolean().optional(),
});

const MicroAttribute = z.object({
  name: z.string(),
  kind: z.enum(['string']),
  /** The values PTOAS accepts; absent: any. */
  values: z.array(z.string()).optional(),
  optional: z.boolean().optional(),
});

export const MicroOpRow = z.object({
  name: z.string().regex(/^pto\./),
  /** The family of docs/isa/micro-isa (binary-vector, vector-load-store, ...). */
  family: z.string(),
  summary: z.string().optional(),
  format: z.string(),
  operands: z.array(MicroValue),
  results: z.array(MicroValue),
  attributes: z.array(MicroAttribute).default([]),
  /** The element types of its vector registers (a set of spec/micro/README or a list); absent: any. */
  elems: z.array(z.string()).optional(),
  /** Operands and results that must have one type (`lhs`, `rhs`, `result`). */
  sameType: z.array(z.string()).optional(),
  /** The mask operand whose granularity must match this vector's element width (PTOValidateVPTOIR). */
  maskMatches: z.object({ mask: z.string(), vector: z.string() }).optional(),
  /** Masks (operands or results) that must have one granularity (PTOValidateVPTOIR's validateSameMaskGranularity). */
  sameGranularity: z.array(z.string()).optional(),
  /**
   * The scalar operand whose type must be the vector's element type, or for integers one of its width that is
   * signless (VPTO.cpp's verifyElementwiseVecScalarOpLike, isCompatibleScalarForSemanticType).
   */
  scalarMatches: z.object({ scalar: z.string(), vector: z.string() }).optional(),
  /**
   * The result's element type follows the source's (VPTO.cpp): `widenNarrowIntegers` (vcadd: 8- and 16-bit integers
   * into twice the width, same signedness; others the same type), `halfUnsigned` (vpack: 32- or 16-bit integers into
   * unsigned ones of half the width), `doubleInteger` (vsunpack, vzunpack: an integer of twice the width).
   */
  derivedElem: z.object({ from: z.string(), to: z.string(), rule: z.enum(['widenNarrowIntegers', 'halfUnsigned', 'doubleInteger']) }).optional(),
  /**
   * The register of lane indices into another (vselr's src1): integer lanes of the vector's width and count
   * (VPTO.cpp's verifyLaneSelectOp).
   */
  laneIndex: z.object({ index: z.string(), vector: z.string() }).optional(),
  /** An attribute only a register operand takes (vdup's position: only for a vector input). */
  vectorOnly: z.object({ attribute: z.string(), operand: z.string() }).optional(),
  /** The vector register whose element type is the pointer's (a load's result, a store's value). */
  pointerElem: z.object({ ptr: z.string(), vector: z.string() }).optional(),
  /** A verifier rule of its own (src/micro/checks.ts), for a contract the fields above do not express (vcvt's type pairs). */
  check: z.string().optional(),
  /** The VM semantics (src/micro/execute.ts) and the lane operation it performs (`add`). */
  semantics: z.string().optional(),
  op: z.string().optional(),
  /** A region op (`pto.vecscope`): its body is its one region. */
  region: z.boolean().optional(),
  /**
   * An op with a syntax and verifier of its own (`pto.simt_launch`): the name of its definition in
   * src/micro/execute.ts's MICRO_DEFINITIONS, made from the row.
   */
  definition: z.string().optional(),
  /** Its run may wait (a SIMT barrier or lane collective waits for the launch's other threads). */
  mayWait: z.boolean().optional(),
  /** It delimits vector scopes: it may not stand inside `pto.vecscope` (VPTO.cpp's isForbiddenSynchronizationInsideVecScope). */
  delimitsVectorScope: z.boolean().optional(),
  /** How PTOAS's vecscope inference takes it (OpProperties.vecscopeInference). */
  vecscopeInference: z.enum(['boundary', 'explicit-scope', 'needs-scope']).optional(),
  // What PTOAS's VMI passes know of the op (VMILayoutAssignment, VMILayoutSupport's tables, VMIToVPTO,
  // PTOValidateVMIIR); the pass checks (src/micro/passes) ask the op's row through its definition (microRowOf).
  /** It compares lanes into a mask: mask granularity assignment gives the mask the compared data's width. */
  compares: z.boolean().optional(),
  /**
   * An elementwise conversion, and what it does to the element width: `widening` (extf, extsi, extui), `narrowing`
   * (truncf, trunci), `float-int` between floats and integers (fptosi, fptoui, sitofp), `any` (vcvt: as its types
   * say). One that may widen prefers a deinterleaved result (kPreferredCastLayoutPatterns); none takes a
   * block-deinterleaved source (VMIToVPTO).
   */
  conversion: z.enum(['widening', 'narrowing', 'float-int', 'any']).optional(),
  /** A reduction that may reduce per group of lanes (the unified form's `group`, the legacy form's `num_groups`). */
  reducesGroups: z.boolean().optional(),
  /** A store of group slots: `always` (group_store), or `with-group` when its `group` attribute is positive (vstore). */
  storesGroups: z.enum(['always', 'with-group']).optional(),
  /** It broadcasts across lanes (vbrc; group_broadcast, from group slots): a slot load it reads keeps its slots packed. */
  broadcasts: z.boolean().optional(),
  /** A vector-scalar op (its scalar applies to every lane), whose merge predicate mode vmi-to-vpto does not lower. */
  vectorScalar: z.boolean().optional(),
  /**
   * An op only PTOAS's passes insert, never a producer: `layout` by layout assignment (ensure_layout and friends),
   * `physical` by VMI -> VPTO physicalization (pack, unpack), which layout-assigned IR may not hold yet.
   */
  vmiHelper: z.enum(['layout', 'physical']).optional(),
});

export const MicroFile = z.object({
  $comment: z.string().optional(),
  ops: z.array(MicroOpRow),
});

export type MicroOpRowData = z.infer<typeof MicroOpRow>;
export type MicroValueSpec = z.infer<typeof MicroValue>;
