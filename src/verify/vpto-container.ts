import { DIAGNOSTICS as D } from '../diag/catalog';
import { DiagnosticBag } from '../diag/diagnostic';
import { Program } from '../ir/program';
import { OpNode, attrOf } from '../syntax/ast';

/**
 * PTOAS's VPTO back end compiles kernel modules: each says which core its code is for (`pto.kernel_kind`), and an
 * outer module is a container of them (VPTONormalizeContainer, after VPTOSplitCVModule, which gives the modules
 * whose functions hold `pto.section.cube`/`pto.section.vector` a kind per section). So a child module that the VPTO
 * back end compiles, in an outer module of nothing but child modules, must carry `pto.kernel_kind` itself.
 *
 * Which child the VPTO back end compiles (ptoas's driver, resolveSingleBackend / collectChildJobs): every child when
 * the command line or the outer module names vpto, otherwise the children whose own `pto.backend` is "vpto".
 *
 * Left alone, because PTOAS gives them a kind or rejects them elsewhere: an outer module with a kind of its own, an
 * outer module holding functions beside its children, and a child holding any op but its functions and their
 * returns: ptoas infers a kind from what the code does (pto-normalize-uncovered-tile-sections: tile ops, vector or cube
 * micro-ops, flags, DMA), so only a child with nothing to infer it from is rejected.
 */
/** What the structure of an op is, as the registry's definitions say (a return: a function's terminator). */
export type OpKind = 'module' | 'function' | 'return' | undefined;

export function checkVptoKernelModules(program: Program, diags: DiagnosticBag, kind: (op: OpNode) => OpKind): void {
  const isModule = (op: OpNode) => kind(op) === 'module';
  for (const outer of program.module.ops) {
    if (!isModule(outer) || attrOf(outer, 'pto.kernel_kind')) continue;
    const ops = (outer.regions[0]?.blocks ?? []).flatMap((b) => b.ops);
    if (ops.length === 0 || !ops.every(isModule)) continue;
    for (const child of ops) {
      const own = attrOf(child, 'pto.backend');
      const backend = program.backend ?? (own?.kind === 'string' ? own.value : 'emitc');
      if (backend !== 'vpto' || attrOf(child, 'pto.kernel_kind') || holdsCode(child, kind)) continue;
      diags.report(
        D.vptoKernelKind,
        child.nameSpan,
        "the VPTO back end compiles this module as a kernel module for one kind of core, and nothing says which: it has no 'pto.kernel_kind' (#pto.kernel_kind<vector> or <cube>) and its functions hold no code to infer one from",
      );
    }
  }
}

/** An op in the module other than a function or a return, from which ptoas could infer the module's kind of core. */
function holdsCode(module: OpNode, kind: (op: OpNode) => OpKind): boolean {
  const ops = module.regions.flatMap((r) => r.blocks.flatMap((b) => b.ops));
  return ops.some((op) => (kind(op) === 'function' ? holdsCode(op, kind) : kind(op) !== 'return'));
}
