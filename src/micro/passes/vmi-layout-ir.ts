import type { OpNode, Operand } from '../../syntax/ast';
import { Type, VmiVregType, elemBits } from '../../types/type';
import type { PassCheckContext } from './index';
import { Program } from '../../ir/program';
import { foldedConstant, microRow } from './definitions';

/**
 * A function of the verified program as the layout passes look at it: who defines each value, who uses it, which
 * values are the function's own arguments (whose layout the assignment fixes as contiguous) and their types.
 */
export interface FnView {
  fn: OpNode;
  /** Every op of the body, nested ones included, in the order MLIR's post-order walk visits them. */
  ops: OpNode[];
  /** The op defining each result, by the name its uses spell (`%x`, or `%x#1` for one of `%x:2`). */
  defs: Map<string, OpNode>;
  /** The ops using each value, by name. */
  users: Map<string, OpNode[]>;
  /** The entry block's arguments. */
  params: Set<string>;
  types: Map<string, Type>;
  /** The verified program, whose bound ops give each op's definition. */
  program: Program;
}

/** A rule of a pass: reports what it finds over the functions viewed. */
export type Rule = (c: PassCheckContext, views: FnView[]) => void;

/** The functions of the program with a body, viewed. */
export function functionViews(c: PassCheckContext): FnView[] {
  const views: FnView[] = [];
  for (const fn of c.program.functions.values()) {
    const entry = fn.regions[0]?.blocks[0];
    if (!entry) continue;
    const view: FnView = {
      fn,
      ops: [],
      defs: new Map(),
      users: new Map(),
      params: new Set(entry.args.map((a) => a.name)),
      types: c.program.valueTypes.get(fn) ?? new Map(),
      program: c.program,
    };
    const visit = (op: OpNode) => {
      for (const region of op.regions) for (const block of region.blocks) for (const inner of block.ops) visit(inner);
      view.ops.push(op);
      for (const r of op.results) {
        if (r.count === 1) view.defs.set(r.name, op);
        else for (let i = 0; i < r.count; i++) view.defs.set(`${r.name}#${i}`, op);
      }
      for (const operand of op.operands) {
        const name = valueName(operand);
        if (name === undefined) continue;
        const list = view.users.get(name) ?? [];
        if (!list.includes(op)) list.push(op);
        view.users.set(name, list);
      }
    };
    for (const region of fn.regions) for (const block of region.blocks) for (const op of block.ops) visit(op);
    views.push(view);
  }
  return views;
}

/** The name a use spells, `%x` or `%x#1`. */
export function valueName(operand: Operand | undefined): string | undefined {
  const v = operand?.value;
  if (!v) return undefined;
  return v.index === undefined ? v.name : `${v.name}#${v.index}`;
}

/** The VMI data type of an operand, when it is one. */
export function vregOf(view: FnView, operand: Operand | undefined): VmiVregType | undefined {
  const name = valueName(operand);
  const t = name === undefined ? undefined : view.types.get(name);
  return t?.kind === 'vmi_vreg' ? t : undefined;
}

/** The type of an op's first result. */
export function resultType(view: FnView, op: OpNode): Type | undefined {
  const r = op.results[0];
  return r === undefined ? undefined : view.types.get(r.count === 1 ? r.name : `${r.name}#0`);
}

/** The name of an op's first result. */
export function resultName(op: OpNode): string | undefined {
  const r = op.results[0];
  return r === undefined ? undefined : r.count === 1 ? r.name : `${r.name}#0`;
}

/** The integer constant an operand reads (PTOAS's getConstantIndexValue: its definer folds to it), else undefined. */
export function constantInt(view: FnView, operand: Operand | undefined): number | undefined {
  if (operand?.literal !== undefined) return operand.literal;
  const name = valueName(operand);
  const value = foldedConstant(view.program, name === undefined ? undefined : view.defs.get(name));
  return value === undefined ? undefined : Number(value);
}

export function intAttr(op: OpNode, key: string): number | undefined {
  const a = op.attrs.find((e) => e.key === key)?.value;
  return a?.kind === 'int' ? Number(a.value) : undefined;
}

export function stringAttr(op: OpNode, key: string): string | undefined {
  const a = op.attrs.find((e) => e.key === key)?.value;
  return a?.kind === 'string' ? a.value : undefined;
}

/** Bits of a VMI element in storage (index is 64). */
export function bitsOf(t: VmiVregType): number {
  return t.elem === 'index' ? 64 : elemBits(t.elem);
}

/** Whether `pass` runs after `before` in the pipeline (both present). */
export function runsAfter(passes: string[], pass: string, before: string): boolean {
  const a = passes.indexOf(before);
  const b = passes.indexOf(pass);
  return a >= 0 && b > a;
}

/**
 * PTOAS's group-size classes (VMILayoutSupport's kGroupBlockClassPatterns): a group of a quarter, a half, one, two or
 * four 32-byte VCG blocks, or a multiple of a whole 256-byte register; undefined for any other size.
 */
export function groupBlocks(groupSize: number, bits: number): 0.25 | 0.5 | 1 | 2 | 4 | 'full' | undefined {
  const lanesPerPart = 2048 / bits;
  const block = lanesPerPart / 8;
  for (const n of [0.25, 0.5, 1, 2, 4] as const) if (block * n === groupSize) return n;
  return groupSize >= lanesPerPart && groupSize % lanesPerPart === 0 ? 'full' : undefined;
}

/**
 * A grouped load as layout assignment sees it: `pto.vmi.group_load`, or `pto.vmi.vload {group}` with more lanes than
 * groups once vmi-lower-unified-to-legacy made it one. Its row stride, and the size of its groups.
 */
export function groupLoad(view: FnView, op: OpNode, passes: string[]): { groupSize: number; stride: Operand; f32: boolean; layout: boolean } | undefined {
  let groups: number | undefined;
  if (op.name === 'pto.vmi.group_load') groups = intAttr(op, 'num_groups');
  else if (op.name === 'pto.vmi.vload' && runsAfter(passes, 'vmi-layout-assignment', 'vmi-lower-unified-to-legacy') && stringAttr(op, 'dist_mode') !== 'brc')
    groups = intAttr(op, 'group');
  const t = resultType(view, op);
  const stride = op.operands[2];
  if (groups === undefined || groups <= 0 || t?.kind !== 'vmi_vreg' || stride === undefined) return undefined;
  if (t.lanes <= groups || t.lanes % groups !== 0) return undefined;
  return { groupSize: t.lanes / groups, stride, f32: t.elem === 'f32', layout: t.layout !== undefined };
}

/**
 * The layout assignment's plan for a grouped load of f32 groups of 16 or 32 (VMILayoutAssignment's
 * getPreferredGroupLoadResultLayout): rows stored back to back load contiguous; rows a constant positive multiple of 8
 * elements apart load as 8-element blocks (block_deinterleaved = 2 or 4); any other stride has no plan.
 */
export function groupLoadPlan(view: FnView, op: OpNode, passes: string[]): 'contiguous' | 'blocks' | 'none' | undefined {
  const load = groupLoad(view, op, passes);
  if (!load || !load.f32 || load.layout || (load.groupSize !== 16 && load.groupSize !== 32)) return undefined;
  const stride = constantInt(view, load.stride);
  if (stride === load.groupSize) return 'contiguous';
  return stride !== undefined && stride > 0 && stride % 8 === 0 ? 'blocks' : 'none';
}

/**
 * A grouped reduction's group count (`group` of the unified form, `num_groups` of the legacy one); undefined for an
 * op that is not a reduction by groups (its row says `reducesGroups`).
 */
export function reduceGroups(view: FnView, op: OpNode): number | undefined {
  if (!microRow(view.program, op)?.reducesGroups) return undefined;
  return intAttr(op, 'group') ?? intAttr(op, 'num_groups');
}
