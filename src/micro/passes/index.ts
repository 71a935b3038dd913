import { DiagnosticBag } from '../../diag/diagnostic';
import { Program } from '../../ir/program';
import { TypeTable } from '../../syntax/type-table';
import { vmiToVpto } from './vmi-to-vpto';
import { TILE_LOWERING_CHECKS } from './tile-lowering';
import { validateVmiBoundary, validateVmiLayout } from './validate-vmi-ir';
import { simtPersistentFragment } from './simt-persistent-fragment';
import { vecscopeInference } from './vecscope-inference';
import { vmiLayoutAssignment, vmiMaskGranularityAssignment } from './vmi-layout-assignment';

/**
 * The input checks of PTOAS's passes over the micro level (VMI and VPTO). PTOAS's passes reject some IR that its op
 * verifiers accept: the VMI producer boundary takes surface types only, layout assignment and the VMI -> VPTO
 * lowering have limits, the SIMT persistent fragments have rules of their own. A compiler engineer who feeds IR to
 * one of those passes (`pto-test-opt -vmi-to-vpto`) asks `pto-as --passes vmi-to-vpto` whether the pass would take
 * it; the VPTO back end of ptoas runs the passes of VPTO_PIPELINE, which apply whenever the back end is vpto.
 *
 * A check only reports: the passes' rewriting is not modelled (the VM runs VMI directly).
 */

/** What a pass's checks see: the verified program (no errors so far), its types, and where to report. */
export interface PassCheckContext {
  program: Program;
  types: TypeTable;
  diags: DiagnosticBag;
  /** The whole pipeline the check is part of (a check may depend on what ran before it: layout assignment). */
  passes: string[];
}

export type PassCheck = (c: PassCheckContext) => void;

/** Each pass whose input checks are modelled, by its PTOAS name (pto-test-opt's flag without the dash). */
export const PASS_CHECKS: Record<string, PassCheck> = {
  ...TILE_LOWERING_CHECKS,
  'vmi-to-vpto': vmiToVpto,
  'vmi-mask-granularity-assignment': vmiMaskGranularityAssignment,
  'vmi-layout-assignment': vmiLayoutAssignment,
  'pto-validate-vmi-ir': validateVmiBoundary,
  'pto-validate-vmi-layout-ir': validateVmiLayout,
  // The materialization consumes the analysis: run alone, it rejects what the analysis would.
  'pto-analyze-simt-persistent-fragment': simtPersistentFragment,
  'pto-materialize-simt-persistent-fragment': simtPersistentFragment,
  'pto-infer-vpto-vecscope': vecscopeInference,
};

/** The passes of ptoas's VPTO back end (its vpto pipeline) whose checks are modelled, in the order it runs them. */
export const VPTO_PIPELINE: string[] = ['pto-lower-to-ubuf-ops', 'pto-expand-tile-op', 'pto-analyze-simt-persistent-fragment', 'pto-infer-vpto-vecscope'];

/**
 * Passes that reject nothing the verifiers accept, named in a pipeline for what they change: the checks after them
 * judge their result (a unified VMI op as the legacy op vmi-lower-unified-to-legacy makes of it).
 */
export const REWRITING_PASSES = [
  'vmi-lower-unified-to-legacy',
  'vmi-legalize-arith-select',
  'pto-vmi-normalize-signless-int-to-unsigned',
  'canonicalize',
  'cse',
];

/** The names neither PASS_CHECKS nor REWRITING_PASSES knows, for a usage error. */
export function unknownPasses(names: string[]): string[] {
  return names.filter((n) => !(n in PASS_CHECKS) && !REWRITING_PASSES.includes(n));
}

/** Runs the checks of `passes` in order; as a pass pipeline stops at the first pass that fails, so do they. */
export function runPassChecks(passes: string[], c: Omit<PassCheckContext, 'passes'>): void {
  for (const name of passes) {
    PASS_CHECKS[name]?.({ ...c, passes });
    if (c.diags.hasErrors()) return;
  }
}
