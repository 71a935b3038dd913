import { DIAGNOSTICS as D } from '../../diag/catalog';
import type { Attr, OpNode } from '../../syntax/ast';
import type { PassCheck, PassCheckContext } from './index';
import {
  FnView,
  Rule,
  bitsOf,
  functionViews,
  groupBlocks,
  groupLoad,
  groupLoadPlan,
  intAttr,
  reduceGroups,
  resultName,
  resultType,
  valueName,
  vregOf,
} from './vmi-layout-ir';
import { LOWERING_RULES } from './vmi-layout-lowering';
import { definitionOf, microRow } from './definitions';

/**
 * The input checks of PTOAS's VMI layout assignment (lib/PTO/Transforms/VMILayoutAssignment.cpp with
 * VMILayoutSupport's tables) and of the mask granularity assignment that runs before it
 * (VMIMaskGranularityAssignment.cpp). Both solve one layout (or granularity) per group of joined values and stop at
 * the first value they cannot give one; then the layout-assigned module is validated (PTOValidateVMIIR.cpp).
 * When vmi-to-vpto follows, the layouts picked here decide what it can lower (vmi-layout-lowering.ts).
 */

const VMI_TYPE = /!pto\.vmi\.(vreg|mask)</;

/** A function declared without a body whose signature has VMI types: neither pass knows the layouts across it. */
const declarations: Rule = (c) => {
  for (const fn of c.program.functions.values()) {
    if (fn.regions.some((r) => r.blocks.length > 0)) continue;
    const types = [...(fn.params ?? []).map((p) => p.type?.text ?? ''), ...fn.resultTypes.map((t) => t.text)];
    if (types.some((t) => VMI_TYPE.test(t)))
      c.diags.report(
        D.vmiLayoutContract,
        fn.span,
        `@${fn.symbol ?? '?'} is declared without a body and has VMI values in its signature: layout assignment has no plan for how their layouts cross an external ABI`,
      );
  }
};

/** Splitting into or merging from channels needs a deinterleaved layout of factor 2 or 4. */
const channelCount: Rule = (c, views) => {
  for (const view of views)
    for (const op of view.ops) {
      const channels =
        op.name === 'pto.vmi.channel_split' ? op.results.reduce((n, r) => n + r.count, 0) : op.name === 'pto.vmi.channel_merge' ? op.operands.length : 0;
      if (channels > 0 && channels !== 2 && channels !== 4)
        c.diags.report(
          D.vmiLayoutContract,
          op.nameSpan,
          `${op.name} of ${channels} channels: layout assignment gives channels a deinterleaved layout of factor 2 or 4 only`,
        );
    }
};

const groupLoadStride: Rule = (c, views) => {
  for (const view of views)
    for (const op of view.ops) {
      if (groupLoadPlan(view, op, c.passes) !== 'none') continue;
      const load = groupLoad(view, op, c.passes)!;
      c.diags.report(
        D.vmiLayoutContract,
        load.stride.span,
        `a grouped load of ${load.groupSize}-element f32 groups needs its row stride to be ${load.groupSize} or a constant positive multiple of 8 elements (rows loaded as 8-element blocks); loading other strides by gathers is not implemented`,
      );
    }
};

/**
 * Masks joined by scf.if (each result with what both branches yield) must agree on one granularity. Values are told
 * apart by their defining op, not their name: sibling regions may each define a `%m`.
 */
const maskGranularity: Rule = (c, views) => {
  for (const view of views) {
    const parent = new Map<unknown, unknown>();
    const granularity = new Map<unknown, number>();
    const find = (v: unknown): unknown => {
      const p = parent.get(v);
      if (p === undefined || p === v) return v;
      const root = find(p);
      parent.set(v, root);
      return root;
    };
    for (const op of view.ops) {
      // A comparison (its row says `compares`) fixes its mask's granularity: the width of the data compared.
      if (microRow(view.program, op)?.compares) {
        const lhs = vregOf(view, op.operands[0]);
        if (lhs) granularity.set(find(op), bitsOf(lhs));
        continue;
      }
      if (definitionOf(view.program, op)?.properties?.controlFlow !== 'conditional') continue;
      for (let i = 0; i < op.results.length; i++) {
        if (view.types.get(op.results[i].name)?.kind !== 'vmi_mask') continue;
        const result = op.results[i];
        for (const region of op.regions) {
          const block = region.blocks[region.blocks.length - 1];
          const name = valueName(block?.ops[block.ops.length - 1]?.operands[i]);
          if (name === undefined) continue;
          // The yielded value: defined in the branch, or else outside it.
          const yielded = block.ops.find((o) => o.results.length === 1 && o.results[0].count === 1 && o.results[0].name === name) ?? name;
          const [a, b] = [find(result), find(yielded)];
          if (a === b) continue;
          const [ga, gb] = [granularity.get(a), granularity.get(b)];
          if (ga !== undefined && gb !== undefined && ga !== gb) {
            c.diags.report(
              D.vmiLayoutConflict,
              op.nameSpan,
              `the branches of this scf.if yield masks of different granularities for ${result.name} (b${ga} and b${gb}: comparisons of ${ga}- and ${gb}-bit data); one mask value has one granularity`,
            );
            return;
          }
          parent.set(b, a);
          if (ga === undefined && gb !== undefined) granularity.set(a, gb);
        }
      }
    }
  }
};

/**
 * The layout a widening conversion (its row's `conversion`: widening, or any for vcvt) prefers for its result when
 * it spans several registers (VMILayoutSupport's kPreferredCastLayoutPatterns): 2x wider deinterleaved = 2, 4x wider
 * deinterleaved = 4.
 */
function preferredWideningLayout(view: FnView, name: string | undefined): string | undefined {
  const def = name === undefined ? undefined : view.defs.get(name);
  const conversion = def && microRow(view.program, def)?.conversion;
  if (!def || (conversion !== 'widening' && conversion !== 'any')) return undefined;
  const source = vregOf(view, def.operands[0]);
  const result = resultType(view, def);
  if (!source || result?.kind !== 'vmi_vreg' || result.layout !== undefined) return undefined;
  const float = (e: string) => /^(f|bf)\d/.test(e);
  if (float(source.elem) !== float(result.elem)) return undefined;
  const factor = bitsOf(result) / bitsOf(source);
  if ((factor !== 2 && factor !== 4) || (result.lanes * bitsOf(result)) / 8 <= 256) return undefined;
  return `deinterleaved = ${factor}`;
}

/** The values a function returns at one position, from every return, must agree on one layout. */
const returnConflict: Rule = (c, views) => {
  for (const view of views) {
    const returns = view.ops.filter((op) => definitionOf(view.program, op)?.terminator === 'return' && op.operands.length > 0);
    for (let i = 0; returns.length > 1 && i < returns[0].operands.length; i++) {
      let joined = preferredWideningLayout(view, valueName(returns[0].operands[i]));
      for (const ret of returns.slice(1)) {
        const layout = preferredWideningLayout(view, valueName(ret.operands[i]));
        if (joined && layout && joined !== layout) {
          c.diags.report(
            D.vmiLayoutConflict,
            ret.operands[i].span,
            `the returns of @${view.fn.symbol ?? '?'} give result #${i} two preferred layouts, #pto.vmi.layout<${joined}> and #pto.vmi.layout<${layout}> (widening conversions of different factors); a function result has one layout`,
          );
          return;
        }
        joined ??= layout;
      }
    }
  }
};

/**
 * A grouped reduction over groups of a size that has no row in the reduction table (not a quarter, half, one, two
 * or four 32-byte blocks, nor whole registers) leaves its result in a bare group layout, which a grouped store's
 * eight-slot layout cannot be made from.
 */
const reduceGroupSize: Rule = (c, views) => {
  for (const view of views)
    for (const op of view.ops) {
      const groups = reduceGroups(view, op);
      const source = vregOf(view, op.operands[0]);
      const name = resultName(op);
      if (groups === undefined || groups <= 0 || !source || source.layout || source.lanes % groups !== 0 || name === undefined) continue;
      const size = source.lanes / groups;
      if (groupBlocks(size, bitsOf(source)) !== undefined) continue;
      // A grouped store (its row's `storesGroups`: always, or with a positive `group`) uses the result.
      const storesGroups = (u: OpNode) => {
        const stores = microRow(view.program, u)?.storesGroups;
        return stores === 'always' || (stores === 'with-group' && (intAttr(u, 'group') ?? 0) > 0);
      };
      if (!view.users.get(name)?.some(storesGroups)) continue;
      c.diags.report(
        D.vmiLayoutContract,
        op.nameSpan,
        `groups of ${size} ${source.elem} elements have no grouped-reduction layout (groups must be a quarter, half, one, two or four 32-byte blocks, or whole registers), so the grouped store of ${name} cannot get its #pto.vmi.layout<num_groups = ${groups}, slots = 8> operand`,
      );
    }
};

/** An attribute (other than a function's signature) holding a VMI type: after layout assignment no such type may hide there. */
const hiddenTypes: Rule = (c) => {
  const holds = (a: Attr): boolean =>
    (a.kind === 'type' && VMI_TYPE.test(a.type.text)) ||
    ('type' in a && a.kind !== 'type' && a.type !== undefined && VMI_TYPE.test(a.type.text)) ||
    (a.kind === 'array' && a.items.some(holds)) ||
    (a.kind === 'dict' && a.entries.some((e) => holds(e.value))) ||
    (a.kind === 'dense' && holds(a.elements));
  const visit = (op: OpNode): boolean => {
    const entry = op.attrs.find((e) => holds(e.value));
    if (entry) {
      c.diags.report(
        D.vmiHiddenType,
        entry.span,
        `attribute '${entry.key}' of ${op.name} holds a VMI type: VMI types may stand only in values' types and function signatures, where layout assignment rewrites them`,
      );
      return true;
    }
    return op.regions.some((r) => r.blocks.some((b) => b.ops.some(visit)));
  };
  c.program.module.ops.some(visit);
};

function runRules(c: PassCheckContext, rules: Rule[]): void {
  const views = functionViews(c);
  for (const rule of rules) {
    rule(c, views);
    if (c.diags.hasErrors()) return;
  }
}

/** vmi-mask-granularity-assignment: external VMI declarations, then masks joined with two granularities. */
export const vmiMaskGranularityAssignment: PassCheck = (c) => runRules(c, [declarations, maskGranularity]);

/**
 * vmi-layout-assignment, its rules in the order the pass meets them: the constraint walk, the propagation of the
 * layouts, the validation of the result; then what the picked layouts leave vmi-to-vpto unable to lower when it follows.
 */
export const vmiLayoutAssignment: PassCheck = (c) =>
  runRules(c, [declarations, channelCount, groupLoadStride, returnConflict, reduceGroupSize, hiddenTypes, ...LOWERING_RULES]);
