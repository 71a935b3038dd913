import { DIAGNOSTICS as D } from '../../diag/catalog';
import { isInteger } from '../../types/type';
import {
  Rule,
  bitsOf,
  constantInt,
  groupBlocks,
  groupLoad,
  groupLoadPlan,
  intAttr,
  reduceGroups,
  resultName,
  resultType,
  runsAfter,
  stringAttr,
  valueName,
  vregOf,
} from './vmi-layout-ir';
import { microRow } from './definitions';

/**
 * What the layouts layout assignment picks leave `vmi-to-vpto` unable to lower (VMIToVPTO.cpp's support checks and
 * conversion patterns, VMILayoutSupport's ensure_layout tables), checked when that pass follows the assignment in the
 * pipeline (`pto-test-opt -vmi-layout-assignment -vmi-to-vpto`). PTOAS fails in the pipeline either way; these rules
 * say why at the op the layout comes from. The last two are limits of vmi-to-vpto that no layout changes.
 */

function lowered(passes: string[]): boolean {
  return runsAfter(passes, 'vmi-to-vpto', 'vmi-layout-assignment');
}

/**
 * A grouped load whose rows stand a multiple of 8 elements apart is loaded as 8-element blocks
 * (block_deinterleaved = 2 or 4). No ensure_layout row converts such a value to another layout, so a conversion of it
 * cannot be lowered; and converting a mask from outside (a function argument, contiguous) to that layout for the
 * reduction has a table row but no lowering.
 */
const blockLoadUsers: Rule = (c, views) => {
  for (const view of views)
    for (const op of view.ops) {
      if (groupLoadPlan(view, op, c.passes) !== 'blocks') continue;
      const name = resultName(op)!;
      const layout = `#pto.vmi.layout<block_deinterleaved = ${groupLoad(view, op, c.passes)!.groupSize / 8}>`;
      for (const user of view.users.get(name) ?? []) {
        const operand = user.operands[0];
        // A conversion (its row's `conversion`, unified or legacy): no layout-table row takes a block layout.
        if (microRow(view.program, user)?.conversion !== undefined && valueName(operand) === name) {
          c.diags.report(
            D.vmiLayoutLowering,
            operand.span,
            `${name} is loaded in 8-element blocks (${layout}, its rows being a multiple of 8 elements apart); ${user.name} needs it in another layout and no layout conversion from blocks exists`,
          );
          return;
        }
        const mask = user.operands[1];
        const maskName = valueName(mask);
        const maskType = maskName === undefined ? undefined : view.types.get(maskName);
        if (
          reduceGroups(view, user) !== undefined &&
          valueName(operand) === name &&
          maskName &&
          view.params.has(maskName) &&
          maskType?.kind === 'vmi_mask' &&
          !maskType.layout
        ) {
          c.diags.report(
            D.vmiLayoutLowering,
            mask.span,
            `the mask ${maskName} is a function argument (contiguous) and this grouped reduction of ${name}, loaded in 8-element blocks, needs it as ${layout}: vmi-to-vpto cannot lower that mask conversion`,
          );
          return;
        }
      }
    }
};

/**
 * The contiguous-to-deinterleaved conversions ensure_layout has (kEnsureLayoutPatterns), by element bits: the lane
 * counts that convert to factor 2 and to factor 4.
 */
const DEINTERLEAVE_LANES: Record<number, Record<2 | 4, number[]>> = {
  16: { 2: [256], 4: [] },
  32: { 2: [128, 256], 4: [256] },
  64: { 2: [64, 128, 256], 4: [128, 256] },
};

/**
 * A grouped reduction of groups of two or four 32-byte blocks reads its source deinterleaved by 2 or 4. A function's
 * argument is contiguous, and converting it is lowered only for the lane counts of the table.
 */
const argumentReduce: Rule = (c, views) => {
  for (const view of views)
    for (const op of view.ops) {
      const groups = reduceGroups(view, op);
      const source = vregOf(view, op.operands[0]);
      const name = valueName(op.operands[0]);
      if (groups === undefined || groups <= 0 || !source || source.layout || !name || !view.params.has(name) || source.lanes % groups !== 0) continue;
      const blocks = groupBlocks(source.lanes / groups, bitsOf(source));
      if (blocks !== 2 && blocks !== 4) continue;
      if ((DEINTERLEAVE_LANES[bitsOf(source)]?.[blocks] ?? []).includes(source.lanes)) continue;
      c.diags.report(
        D.vmiLayoutLowering,
        op.operands[0].span,
        `groups of ${source.lanes / groups} ${source.elem} elements are reduced from #pto.vmi.layout<deinterleaved = ${blocks}>, and ${name}, a function argument, is contiguous: no layout conversion of ${source.lanes} ${bitsOf(source)}-bit lanes to it exists`,
      );
      return;
    }
};

/**
 * A slot load (one element per group) with a stride other than 1 gets one slot per group (slots = 1), lowered as one
 * 32-byte-aligned block load per group: its stride must be a constant positive multiple of a block's elements.
 */
const slotLoadStride: Rule = (c, views) => {
  for (const view of views)
    for (const op of view.ops) {
      const t = resultType(view, op);
      const groups =
        op.name === 'pto.vmi.group_slot_load'
          ? intAttr(op, 'num_groups')
          : op.name === 'pto.vmi.vload' && runsAfter(c.passes, 'vmi-layout-assignment', 'vmi-lower-unified-to-legacy') && stringAttr(op, 'dist_mode') !== 'brc'
            ? intAttr(op, 'group')
            : undefined;
      const strideOperand = op.operands[2];
      if (groups === undefined || t?.kind !== 'vmi_vreg' || t.layout || t.lanes !== groups || !strideOperand) continue;
      // A broadcast of the slots takes them packed eight to a block (the pre-assignment combine may fold both into one load).
      if (view.users.get(resultName(op)!)?.some((u) => microRow(view.program, u)?.broadcasts)) continue;
      const stride = constantInt(view, strideOperand);
      const block = 256 / bitsOf(t);
      if (stride === 1 || (stride !== undefined && stride > 0 && stride % block === 0)) continue;
      c.diags.report(
        D.vmiLayoutLowering,
        strideOperand.span,
        `a slot load with a group stride other than 1 gets one slot per group (#pto.vmi.layout<num_groups = ${groups}, slots = 1>), lowered as one 32-byte-aligned load per group: the stride must be a constant positive multiple of ${block} elements`,
      );
      return;
    }
};

/** vselr's rows (kVselrLayoutPatterns): one contiguous register of 64, 128 or 256 8-bit, 64 or 128 16-bit, or 64 32-bit lanes. */
const VSELR_LANES: Record<number, number[]> = { 8: [64, 128, 256], 16: [64, 128], 32: [64] };

const vselrShape: Rule = (c, views) => {
  for (const view of views)
    for (const op of view.ops) {
      if (op.name !== 'pto.vmi.vselr') continue;
      const [source, index] = [vregOf(view, op.operands[0]), vregOf(view, op.operands[1])];
      const result = resultType(view, op);
      if (!source || !index || result?.kind !== 'vmi_vreg' || source.layout || index.layout || result.layout) continue;
      const lanes = VSELR_LANES[bitsOf(source)] ?? [];
      if (lanes.includes(source.lanes) && index.lanes === source.lanes && result.lanes === source.lanes) continue;
      c.diags.report(
        D.vmiLayoutLowering,
        op.nameSpan,
        `vselr of ${source.lanes} ${source.elem} lanes by ${index.lanes} indices: it is lowered for one contiguous register only, the same lane count throughout, 64, 128 or 256 lanes of 8 bits, 64 or 128 of 16 bits, or 64 of 32 bits`,
      );
      return;
    }
};

/** A vector-scalar op (its row says `vectorScalar`) merging: keeping the inactive lanes needs a lowering it has not. */
const mergeVecScalar: Rule = (c, views) => {
  for (const view of views)
    for (const op of view.ops) {
      if (!microRow(view.program, op)?.vectorScalar || stringAttr(op, 'pmode') !== 'merge') continue;
      const attr = op.attrs.find((a) => a.key === 'pmode')!;
      c.diags.report(
        D.vmiNoLowering,
        attr.span,
        `${op.name} with pmode = "merge" has no lowering to VPTO yet: keeping the inactive lanes needs a passthru value`,
      );
      return;
    }
};

/** vmula becomes the legacy fma, which is floating-point only: an integer one stays and is not lowered. */
const integerVmula: Rule = (c, views) => {
  for (const view of views)
    for (const op of view.ops) {
      const t = resultType(view, op);
      if (op.name !== 'pto.vmi.vmula' || t?.kind !== 'vmi_vreg' || !isInteger(t.elem)) continue;
      c.diags.report(D.vmiNoLowering, op.nameSpan, `pto.vmi.vmula on ${t.elem} has no lowering to VPTO: its legacy form, pto.vmi.fma, is floating-point only`);
      return;
    }
};

const RULES: Rule[] = [blockLoadUsers, argumentReduce, slotLoadStride, vselrShape, mergeVecScalar, integerVmula];

/** The rules, each a no-op unless vmi-to-vpto runs after layout assignment. */
export const LOWERING_RULES: Rule[] = RULES.map((rule): Rule => (c, views) => {
  if (lowered(c.passes)) rule(c, views);
});
