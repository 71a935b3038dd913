import { DIAGNOSTICS as D } from '../diag/catalog';
import { DiagnosticBag } from '../diag/diagnostic';
import { OpNode, TypeRef } from '../syntax/ast';
import { Type, printType } from '../types/type';

/**
 * Rules on a function's signature and attributes that PTOAS checks over the whole module before it emits code
 * (validatePTOEntryFunctions, validateStructProvenance).
 */

/** The unit attributes that make a function a kernel entry of the generated code (PTOAS's hasExplicitPTOEntryAttr). */
const ENTRY_ATTRIBUTES = ['pto.entry', 'hacc.entry', 'pto.kernel', 'pto.aicore'];

/** An entry is a definition (the code PTOAS emits) and returns nothing (the kernel's launch has no results). */
export function checkEntryFunction(fn: OpNode, diags: DiagnosticBag): void {
  const marker = fn.attrs.find((a) => ENTRY_ATTRIBUTES.includes(a.key) && a.value.kind === 'unit');
  if (!marker) return;
  if (fn.regions.length === 0) {
    diags.report(D.entryFunction, marker.span, `\`${marker.key}\` is only valid on function definitions; @${fn.symbol} is a declaration`);
  } else if (fn.resultTypes.length > 0) {
    diags.report(D.entryFunction, fn.resultTypes[0].span, `PTO entry functions must return void; @${fn.symbol} is marked \`${marker.key}\` and returns values`);
  }
}

/** A tile-op helper (`pto.tileop.helper`) writes its results through the tiles it is given, and returns nothing (PTOAS's helper contract). */
export function checkTileOpHelperSignature(fn: OpNode, diags: DiagnosticBag): void {
  if (fn.resultTypes.length === 0 || !fn.attrs.some((a) => a.key === 'pto.tileop.helper')) return;
  diags.report(D.tileOpHelper, fn.resultTypes[0].span, 'tileop helpers must not return values; write results through mutable Tile parameters');
}

/**
 * A `!pto.struct` is a pointer to stack storage of the function that declares it: no function takes one (it would
 * hide a slot of the caller) or returns one (a pointer into a dead frame).
 */
export function checkStructSignature(fn: OpNode, resolve: (ref: TypeRef) => Type | undefined, diags: DiagnosticBag): void {
  (fn.params ?? []).forEach((p, i) => {
    const t = p.type && resolve(p.type);
    if (t?.kind === 'struct')
      diags.report(
        D.structProvenance,
        p.type!.span,
        `argument ${i} of @${fn.symbol} has type ${printType(t)}, but a stack-local struct must not be a function argument; structs must originate from the struct declaration in the same function`,
      );
  });
  fn.resultTypes.forEach((ref, i) => {
    const t = resolve(ref);
    if (t?.kind === 'struct')
      diags.report(
        D.structProvenance,
        ref.span,
        `result ${i} of @${fn.symbol} has type ${printType(t)}, but a stack-local struct must not be returned: it points into the callee's frame (a struct is mutated in place, so no result is needed)`,
      );
  });
}
