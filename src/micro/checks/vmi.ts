import { Span } from '../../diag/source';
import { ElemType, VmiMaskType, VmiVregType, elemBits, isInteger } from '../../types/type';
import { parseVmiLayout } from '../../syntax/vmi-layout';
import type { MicroCheck, MicroCheckContext } from '../checks';
import { legacyConvertCheck, vmiConvertCheck } from './vmi-convert';

/**
 * Verifier rules of VMI rows (spec/micro/vmi.json), after PTOAS e32488c9's lib/PTO/IR/VMI.cpp: lane counts and element
 * types that must agree, a mask's lanes and granularity against the data it governs, vload's and vstore's modes, the
 * group counts of reductions, broadcasts and group masks. Messages follow VMI.cpp's.
 */

type Located<T> = { type: T; span: Span };

function vreg(c: MicroCheckContext, name: string): Located<VmiVregType> | undefined {
  const v = c.value(name);
  return v?.type?.kind === 'vmi_vreg' ? { type: v.type, span: v.span } : undefined;
}

function mask(c: MicroCheckContext, name: string): Located<VmiMaskType> | undefined {
  const v = c.value(name);
  return v?.type?.kind === 'vmi_mask' ? { type: v.type, span: v.span } : undefined;
}

/** An integer attribute of the dictionary; undefined when absent, NaN when not an integer. */
function intAttr(c: MicroCheckContext, name: string): number | undefined {
  const a = c.attr(name);
  if (!a) return undefined;
  return a.kind === 'int' ? Number(a.value) : NaN;
}

function stringAttr(c: MicroCheckContext, name: string): string | undefined {
  const a = c.attr(name);
  return a?.kind === 'string' ? a.value : undefined;
}

/** VMI.cpp's verifyAllSameVRegShapeAndLayout: one lane count, one element type (when asked), layouts all or none and equal. */
function sameShape(c: MicroCheckContext, values: (Located<VmiVregType> | undefined)[], sameElement: boolean): boolean {
  const known = values.filter((v): v is Located<VmiVregType> => v !== undefined);
  const [first] = known;
  const anyLayout = known.some((v) => v.type.layout !== undefined);
  for (const v of known) {
    const problem =
      v.type.lanes !== first.type.lanes
        ? 'requires all VMI data values to have the same logical lane count'
        : sameElement && v.type.spelled !== first.type.spelled
          ? 'requires all VMI data values to have the same element type'
          : anyLayout && v.type.layout === undefined
            ? 'requires either all or no VMI data values to carry layout'
            : anyLayout && v.type.layout !== first.type.layout
              ? 'requires all layout-assigned VMI data values to have the same layout'
              : undefined;
    if (problem) {
      c.err(v.span, problem);
      return false;
    }
  }
  return true;
}

/** VMI.cpp's verifyMaskMatchesData: the mask's lanes, its layout, and a concrete granularity of the element's width. */
function maskMatches(c: MicroCheckContext, m: Located<VmiMaskType> | undefined, data: Located<VmiVregType> | undefined): boolean {
  if (!m || !data) return true;
  const problem =
    m.type.lanes !== data.type.lanes
      ? 'requires mask logical lane count to match data lane count'
      : (m.type.layout !== undefined) !== (data.type.layout !== undefined)
        ? 'requires either both mask and data to carry layout or neither to carry layout'
        : m.type.layout !== data.type.layout
          ? 'requires mask layout to match data layout'
          : m.type.granularity !== 'pred' && m.type.granularity !== `b${elemBits(data.type.elem)}`
            ? 'requires mask granularity to match data element width'
            : undefined;
  if (problem) c.err(m.span, problem);
  return !problem;
}

function pmodeValid(c: MicroCheckContext): boolean {
  const a = c.attr('pmode');
  if (a?.kind === 'string' && a.value !== 'merge' && a.value !== 'zero') {
    c.err(a.span, `pmode must be "merge" or "zero", got "${a.value}"`);
    return false;
  }
  return true;
}

/**
 * Whether an element is of a row's classes, VMI.cpp's isVMI...Type predicates: `iN` any N-bit integer, `siN` a signed
 * one, `f16`, `bf16`, `f32` themselves, `integer-like` any integer or index, `integer` any integer.
 */
function elemAllowed(classes: string[], t: VmiVregType): boolean {
  if (t.spelled === '!pto.bf16x2') return false;
  if (!isInteger(t.elem)) return classes.includes(t.elem) || (t.elem === 'index' && classes.includes('integer-like'));
  const bits = elemBits(t.elem);
  return (
    classes.includes('integer-like') ||
    classes.includes('integer') ||
    classes.includes(`i${bits}`) ||
    (t.spelled.startsWith('si') && classes.includes(`si${bits}`))
  );
}

/** VMI.cpp's message for the classes: "requires i8, i16, or f32 VMI element type", "requires integer-like VMI element type". */
function listed(classes: string[]): string {
  return classes.length === 1 ? classes[0] : `${classes.slice(0, -1).join(', ')}${classes.length > 2 ? ',' : ''} or ${classes.at(-1)}`;
}

/**
 * The ports of an elementwise op: its data values by the row's names (lhs/rhs or source, then result). The logic ops
 * (vand, vor, vxor, vnot) of masks are mask logic: no governing mask, no pmode, masks of one shape and granularity.
 */
const elementwise: MicroCheck = (c) => {
  const names = ['lhs', 'rhs', 'source', 'result'];
  const masks = names.map((n) => mask(c, n)).filter((m) => m !== undefined);
  if (masks.length > 0) return maskLogic(c, masks);
  const data = names.map((n) => vreg(c, n)).filter((v) => v !== undefined);
  const first = data[0];
  if (first?.type.spelled === '!pto.bf16x2') return c.err(first.span, 'does not support bf16x2 VMI element type; bf16x2 is conversion-only');
  if (first && c.row.elems && !elemAllowed(c.row.elems, first.type)) return c.err(first.span, `requires ${listed(c.row.elems)} VMI element type`);
  if (!sameShape(c, data, true)) return;
  if (!pmodeValid(c)) return;
  maskMatches(c, mask(c, 'mask'), data.at(-1));
};

/** verifyAllSameMaskShapeLayoutAndGranularity, after the mask logic path's own rules. */
function maskLogic(c: MicroCheckContext, masks: Located<VmiMaskType>[]): void {
  const at = c.v.op.nameSpan;
  if ((c.b.operands.mask ?? []).length > 0) return c.err(at, 'mask logic op does not support predication mask');
  if (c.attr('pmode')) return c.err(at, 'mask logic op does not support pmode');
  const count = ['lhs', 'rhs', 'source', 'result'].filter((n) => c.value(n)?.type).length;
  const other = ['lhs', 'rhs', 'source', 'result'].map((n) => vreg(c, n)).find((v) => v !== undefined);
  if (masks.length !== count && other) return c.err(other.span, 'mask logic op requires every operand and the result to be a !pto.vmi.mask');
  const [first] = masks;
  const anyLayout = masks.some((m) => m.type.layout !== undefined);
  for (const m of masks) {
    const problem =
      m.type.lanes !== first.type.lanes
        ? 'requires all VMI mask values to have the same logical lane count'
        : m.type.granularity !== first.type.granularity
          ? 'requires all VMI mask values to have the same granularity'
          : anyLayout && m.type.layout === undefined
            ? 'requires either all or no VMI mask values to carry layout'
            : anyLayout && m.type.layout !== first.type.layout
              ? 'requires all layout-assigned VMI mask values to have the same layout'
              : undefined;
    if (problem) return c.err(m.span, problem);
  }
}

const select: MicroCheck = (c) => {
  const result = vreg(c, 'result');
  if (!sameShape(c, [vreg(c, 'true_value'), vreg(c, 'false_value'), result], true)) return;
  if (!maskMatches(c, mask(c, 'mask'), result)) return;
  pmodeValid(c);
};

const createGroupMask: MicroCheck = (c) => {
  const result = mask(c, 'result');
  const groups = intAttr(c, 'num_groups');
  const size = intAttr(c, 'group_size');
  const at = c.v.op.nameSpan;
  if (groups === undefined || size === undefined) return c.err(at, `requires attribute '${groups === undefined ? 'num_groups' : 'group_size'}'`);
  if (Number.isNaN(groups) || Number.isNaN(size)) return c.err(at, 'num_groups and group_size are 64-bit integer attributes');
  if (groups <= 0) return c.err(at, 'requires positive num_groups');
  if (size <= 0) return c.err(at, 'requires positive group_size');
  if (result && result.type.lanes !== groups * size) c.err(result.span, 'requires result lane count to equal num_groups * group_size');
};

/** VMI.cpp's verifyNumGroups. */
function numGroups(c: MicroCheckContext, t: Located<VmiVregType>, groups: number): boolean {
  if (groups <= 0) c.err(t.span, 'requires num_groups to be positive');
  else if (t.type.lanes % groups !== 0) c.err(t.span, `requires num_groups to evenly divide VMI logical lane count ${t.type.lanes}`);
  else return true;
  return false;
}

/** A pointer operand's element against the data's (verifyMemoryElementMatches). */
function memoryMatches(c: MicroCheckContext, ptr: string, data: Located<VmiVregType> | undefined, role: string): boolean {
  const p = c.value(ptr)?.type;
  if (p?.kind !== 'ptr' || !data || p.elem === data.type.elem) return true;
  c.err(data.span, `requires memory ${role} element type to match VMI data element type`);
  return false;
}

const DIST_MODES = ['continuous', 'unpack', 'dintlv', 'brc'];

/** The mode attributes common to vload and vstore: group, stride, block/repeat stride, dist_mode, pmode. */
function modes(c: MicroCheckContext): { group?: number; dist?: string; ok: boolean } {
  const at = c.v.op.nameSpan;
  const group = intAttr(c, 'group');
  const dist = stringAttr(c, 'dist_mode');
  const has = (n: string) => (c.b.operands[n] ?? []).length > 0;
  const load = c.row.results.length > 0;
  const fail = (m: string) => (c.err(at, m), { ok: false });
  if (group !== undefined && dist !== undefined && !(load && dist === 'brc')) return fail('group and dist_mode are mutually exclusive');
  if (group !== undefined && !has('stride')) return fail('group requires a stride operand');
  if (group === undefined && has('stride')) return fail('stride operand is only valid with group');
  if (!load && group !== undefined && has('mask')) return fail('group mode does not support mask operand');
  if (group !== undefined && group <= 0) return fail(`group must be positive, got ${group}`);
  if (has('block_stride') && dist !== undefined) return fail('block_stride and dist_mode are mutually exclusive');
  return { group, dist, ok: true };
}

const load: MicroCheck = (c) => {
  const { group, dist, ok } = modes(c);
  if (!ok) return;
  const results = ['result', 'high'].map((n) => vreg(c, n)).filter((v) => v !== undefined);
  const dintlv = dist === 'dintlv';
  const at = c.v.op.nameSpan;
  if (group !== undefined && results.length !== 1) return c.err(at, 'group mode requires exactly 1 result');
  if (group !== undefined && !numGroups(c, results[0], group)) return;
  if (dintlv && results.length !== 2) return c.err(at, 'dist-mode "dintlv" requires exactly 2 results');
  if (!dintlv && results.length !== 1) return c.err(at, `requires exactly 1 result for dist-mode "${dist ?? 'continuous'}"`);
  if (dist !== undefined && !DIST_MODES.includes(dist)) return c.err(c.attr('dist_mode')!.span, `invalid dist-mode: "${dist}"`);
  const pmode = stringAttr(c, 'pmode');
  if (pmode !== undefined && pmode !== 'zero' && pmode !== 'merge') return c.err(c.attr('pmode')!.span, `invalid pmode: "${pmode}"`);
  if (dist !== 'unpack') for (const r of results) if (!memoryMatches(c, 'source', r, 'source')) return;
};

const store: MicroCheck = (c) => {
  const { group, dist, ok } = modes(c);
  if (!ok) return;
  const value = vreg(c, 'value');
  const high = vreg(c, 'high');
  const at = c.v.op.nameSpan;
  const count = high ? 2 : 1;
  if (group !== undefined && count !== 1) return c.err(at, 'group mode requires exactly 1 value');
  if (group !== undefined && value && !numGroups(c, value, group)) return;
  if (dist === 'dintlv' && count !== 2) return c.err(at, 'dist-mode "dintlv" requires exactly 2 values');
  if (dist !== 'dintlv' && count !== 1) return c.err(at, `requires exactly 1 value for dist-mode "${dist ?? 'continuous'}"`);
  if (dist !== undefined && !DIST_MODES.includes(dist)) return c.err(c.attr('dist_mode')!.span, `invalid dist-mode: "${dist}"`);
  if (dist === 'unpack' || dist === 'brc') return c.err(c.attr('dist_mode')!.span, `dist-mode "${dist}" is not valid for vstore`);
  const pmode = c.attr('pmode');
  if (pmode?.kind === 'string' && pmode.value !== 'zero' && pmode.value !== 'merge') return c.err(pmode.span, `invalid pmode: "${pmode.value}"`);
  if (pmode?.kind === 'string' && pmode.value === 'merge')
    return c.err(
      pmode.span,
      'pmode "merge" is not supported for stores: the legacy store lowering is mask-governed only and cannot retain prior destination contents on inactive lanes; omit pmode (defaults to "zero")',
    );
  // A group store of 32-bit integer lanes into 8-bit integer memory packs bytes (isPackedByteGroupStore).
  const p = c.value('destination')?.type;
  const packed =
    group !== undefined &&
    p?.kind === 'ptr' &&
    isInteger(p.elem) &&
    elemBits(p.elem) === 8 &&
    value &&
    isInteger(value.type.elem) &&
    elemBits(value.type.elem) === 32;
  if (!packed && !memoryMatches(c, 'destination', value, 'destination')) return;
  if (high && !sameShape(c, [value, high], true)) return;
  maskMatches(c, mask(c, 'mask'), value);
};

const broadcast: MicroCheck = (c) => {
  const result = vreg(c, 'result');
  const value = c.value('value');
  if (!result || !value?.type) return;
  const group = intAttr(c, 'group');
  const source = value.type.kind === 'vmi_vreg' ? value.type : undefined;
  if (group !== undefined) {
    if (!source) return c.err(value.span, 'requires VMI vector input when num_groups is set');
    if (source.lanes !== group) return c.err(value.span, `requires source logical lane count ${source.lanes} to match num_groups ${group}`);
    if (source.spelled !== result.type.spelled) return c.err(value.span, 'requires source and result element types to match');
    const layout = source.layout === undefined ? undefined : parseVmiLayout(source.layout);
    if (layout && ('error' in layout || layout.kind !== 'num_groups' || layout.factor !== group))
      return c.err(value.span, `requires layout-assigned source to use #pto.vmi.layout<num_groups = ${group}>`);
    if (result.type.layout?.startsWith('#pto.vmi.layout<num_groups')) return c.err(result.span, 'requires layout-assigned result to use a dense VMI layout');
    numGroups(c, result, group);
    return;
  }
  if (source) {
    if (source.lanes !== 1) return c.err(value.span, 'requires VMI vector input to have one logical lane');
    if (source.spelled !== result.type.spelled) c.err(value.span, 'requires VMI vector input element type to match result element type');
    return;
  }
  if (value.type.kind !== 'scalar' || value.type.elem !== result.type.elem)
    c.err(value.span, 'requires scalar or VMI vector input element type to match result element type');
};

const reduce: MicroCheck = (c) => {
  const source = vreg(c, 'source');
  const result = vreg(c, 'result');
  if (!source || !result) return;
  const name = c.row.name.slice('pto.vmi.'.length);
  if (source.type.spelled === '!pto.bf16x2') return c.err(source.span, 'does not support bf16x2 VMI element type; bf16x2 is conversion-only');
  const float = !isInteger(source.type.elem);
  if (name === 'vcadd' && float && !c.attr('reassoc')) return c.err(c.v.op.nameSpan, 'floating add-reduction requires reassoc attr');
  if (!maskMatches(c, mask(c, 'mask'), source)) return;
  const group = intAttr(c, 'group');
  if (group !== undefined) {
    if (source.type.lanes % group !== 0) return c.err(c.attr('group')!.span, `group count ${group} must divide source lane count ${source.type.lanes}`);
    if (result.type.lanes !== group) return c.err(result.span, `result lane count must equal group count ${group}, got ${result.type.lanes}`);
    const layout = result.type.layout === undefined ? undefined : parseVmiLayout(result.type.layout);
    if (layout && ('error' in layout || layout.kind !== 'num_groups' || layout.factor !== group))
      return c.err(result.span, `layout-assigned result must use #pto.vmi.layout<num_groups = ${group}>`);
  } else if (result.type.lanes !== 1) return c.err(result.span, `full reduction (no group) requires 1-lane result, got ${result.type.lanes}`);
  if (source.type.spelled !== result.type.spelled) return c.err(result.span, 'source and result element types must match');
  const pmode = c.attr('pmode');
  if (pmode?.kind === 'string' && pmode.value !== 'zero' && pmode.value !== 'merge') c.err(pmode.span, `pmode must be "zero" or "merge", got "${pmode.value}"`);
};

const interpretCast: MicroCheck = (c) => {
  const source = vreg(c, 'source');
  const result = vreg(c, 'result');
  if (!source || !result) return;
  if (source.type.lanes * elemBits(source.type.elem) !== result.type.lanes * elemBits(result.type.elem))
    return c.err(result.span, 'requires source and result to carry the same total number of bits');
  if ((source.type.layout !== undefined) !== (result.type.layout !== undefined))
    return c.err(result.span, 'requires either both source and result to carry layout or neither to carry layout');
  if (source.type.layout !== result.type.layout) c.err(result.span, 'requires source and result layouts to match');
};

const CMP_MODES = ['eq', 'ne', 'lt', 'le', 'gt', 'ge', 'oeq', 'one', 'olt', 'ole', 'ogt', 'oge'];

/** VMIVcmpOp / VMIVcmpsOp::verify. */
const compare: MicroCheck = (c) => {
  const data = vreg(c, 'lhs') ?? vreg(c, 'src');
  if (!data) return;
  if (data.type.spelled === '!pto.bf16x2') return c.err(data.span, 'does not support bf16x2 VMI element type; bf16x2 is conversion-only');
  if (c.row.elems && !elemAllowed(c.row.elems, data.type)) return c.err(data.span, `requires ${listed(c.row.elems)} VMI element type`);
  const cmp = stringAttr(c, 'cmp') ?? '';
  const at = c.attr('cmp')?.span ?? c.v.op.nameSpan;
  if (isInteger(data.type.elem) && cmp.startsWith('o'))
    return c.err(at, 'requires integer compare predicate eq/ne/lt/le/gt/ge; signedness is selected by the integer element type');
  if (!sameShape(c, [data, vreg(c, 'rhs')], true)) return;
  const scalar = c.value('scalar');
  if (scalar?.type?.kind === 'scalar' && !scalarMatches(data.type, scalar.type.elem))
    return c.err(scalar.span, 'requires scalar type to match vector element type');
  if (!CMP_MODES.includes(cmp)) return c.err(at, `unsupported compare predicate '${cmp}'; expected eq/ne/lt/le/gt/ge, or oeq/one/olt/ole/ogt/oge`);
  const pmode = stringAttr(c, 'pmode');
  if (pmode !== undefined && pmode !== 'zeroing' && pmode !== 'merge')
    return c.err(c.attr('pmode')!.span, `unsupported pmode '${pmode}'; expected "zeroing" or "merge"`);
  const seed = mask(c, 'seed');
  if (!maskMatches(c, seed, data)) return;
  const result = mask(c, 'result');
  if (seed && result && seed.type.lanes !== result.type.lanes) c.err(result.span, 'requires result mask lane count to match seed mask lane count');
};

/** isCompatibleScalarForSemanticType, as far as the toolchain's scalar types tell signedness (it reads siN as iN). */
function scalarMatches(t: VmiVregType, scalar: ElemType): boolean {
  if (scalar === t.elem) return true;
  return isInteger(t.elem) && isInteger(scalar) && elemBits(scalar) === elemBits(t.elem) && scalar.startsWith('i');
}

/** verifyVMIVectorScalarOp / verifyVMIVectorScalarShiftOp. */
const vecScalar: MicroCheck = (c) => {
  const src = vreg(c, 'src');
  const scalar = c.value('scalar');
  if (!src) return;
  const shift = c.row.name.endsWith('shls') || c.row.name.endsWith('shrs');
  if (src.type.spelled === '!pto.bf16x2') return c.err(src.span, 'does not support bf16x2 VMI element type; bf16x2 is conversion-only');
  // VMIAddSOp and its siblings check the element list before the shared rules.
  if (c.row.elems && !elemAllowed(c.row.elems, src.type)) return c.err(src.span, `requires ${listed(c.row.elems)} VMI element type`);
  if (shift) {
    if (!isInteger(src.type.elem)) return c.err(src.span, 'requires integer-like VMI element type for shift');
    if (scalar?.type?.kind === 'scalar' && scalar.type.elem !== 'i16') return c.err(scalar.span, 'requires signless i16 shift amount');
  } else if (scalar?.type?.kind === 'scalar' && scalar.type.elem !== src.type.elem)
    return c.err(scalar.span, `requires scalar type to match vector element type, got scalar ${scalar.type.elem} vs vector element ${src.type.spelled}`);
  if (!sameShape(c, [src, vreg(c, 'result')], true)) return;
  if (!maskMatches(c, mask(c, 'mask'), vreg(c, 'result'))) return;
  const pmode = stringAttr(c, 'pmode');
  if (pmode !== undefined && pmode !== 'merge' && pmode !== 'zero') c.err(c.attr('pmode')!.span, `unsupported pmode '${pmode}'; expected "merge" or "zero"`);
};

/** VMIVciOp::verify. */
const index: MicroCheck = (c) => {
  const result = vreg(c, 'result');
  const base = c.value('base');
  if (!result) return;
  const e = result.type.elem;
  const bits = elemBits(e);
  if (!(isInteger(e) ? bits === 8 || bits === 16 || bits === 32 : e === 'f16' || e === 'f32'))
    return c.err(result.span, 'requires result element type to be integer 8/16/32 or f16/f32');
  if (base?.type?.kind === 'scalar' && !scalarMatches(result.type, base.type.elem)) return c.err(base.span, 'requires base type to match result element type');
  const order = stringAttr(c, 'order');
  if (order !== undefined && order !== 'ASC' && order !== 'DESC') return c.err(c.attr('order')!.span, 'requires order to be ASC or DESC');
  const group = intAttr(c, 'group');
  if (group === undefined) return;
  if (group <= 0) return c.err(c.attr('group')!.span, 'requires group to be positive');
  if (result.type.lanes % group !== 0) return c.err(c.attr('group')!.span, 'requires group to evenly divide result logical lane count');
  const size = result.type.lanes / group;
  const perPart = 2048 / bits;
  if (group > 1 && size % perPart !== 0 && perPart % size !== 0)
    c.err(c.attr('group')!.span, `requires group_size to divide or be a multiple of physical lanes per part (${perPart})`);
};

/** VMIPsetOp::verify. */
const pattern: MicroCheck = (c) => {
  const result = mask(c, 'result');
  const p = c.attr('pattern');
  if (p?.kind === 'string' && p.value !== 'PAT_ALL') return c.err(p.span, 'requires pattern to be "PAT_ALL"');
  if (result && result.type.granularity !== 'pred' && result.type.layout === undefined) c.err(result.span, 'requires concrete mask result to carry layout');
};

/** VMIVgatherOp::verify. */
const gather: MicroCheck = (c) => {
  const offsets = vreg(c, 'offsets');
  const result = vreg(c, 'result');
  if (!offsets || !result) return;
  if (!memoryMatches(c, 'source', result, 'source')) return;
  const bits = elemBits(offsets.type.elem);
  if (!isInteger(offsets.type.elem) || offsets.type.spelled.startsWith('si') || (bits !== 32 && bits !== 16))
    return c.err(offsets.span, 'requires signless or unsigned 16-bit or 32-bit integer offsets');
  if (!sameShape(c, [offsets, result], false)) return;
  if (!maskMatches(c, mask(c, 'mask'), result)) return;
  if (bits === 16 && result.type.spelled !== 'ui16') return c.err(result.span, 'requires ui16 result element type when using ui16 offsets');
  const pmode = stringAttr(c, 'pmode');
  if (pmode !== undefined && pmode !== 'merge' && pmode !== 'zero') c.err(c.attr('pmode')!.span, "pmode must be 'merge' or 'zero'");
};

/** VMIVintlvOp / VMIVdintlvOp::verify: one lane count and element type (layout presence alike), a mask of the data. */
const interleave: MicroCheck = (c) => {
  const values = ['lhs', 'rhs', 'low', 'high'].map((n) => vreg(c, n));
  const known = values.filter((v) => v !== undefined);
  const presence = known.map((v) => ({ ...v, type: { ...v.type, layout: v.type.layout && 'present' } }));
  if (!sameShape(c, presence, true)) return;
  if (!maskMatches(c, mask(c, 'mask'), values[0])) return;
  pmodeValid(c);
};

/** verifyGroupReduceIntegerOp. */
const groupReduceInt: MicroCheck = (c) => {
  const source = vreg(c, 'source');
  const result = vreg(c, 'result');
  const groups = intAttr(c, 'num_groups');
  const at = c.v.op.nameSpan;
  if (!source || !result) return;
  if (groups === undefined || Number.isNaN(groups)) return c.err(at, "requires the 64-bit integer attribute 'num_groups'");
  if (!isInteger(source.type.elem)) return c.err(source.span, 'requires integer-like VMI source element type');
  if (result.type.lanes !== groups) return c.err(result.span, 'requires result logical lane count to match num_groups');
  if (source.type.spelled !== result.type.spelled) return c.err(result.span, 'requires source and result element types to match');
  const layout = source.type.layout === undefined ? undefined : parseVmiLayout(source.type.layout);
  if (layout && !('error' in layout) && layout.kind === 'num_groups')
    return c.err(source.span, 'requires layout-assigned source to use contiguous layout or deinterleaved=2/4 or block_deinterleaved=2/4 layout');
  const out = result.type.layout === undefined ? undefined : parseVmiLayout(result.type.layout);
  if (out && ('error' in out || out.kind !== 'num_groups' || out.factor !== groups))
    return c.err(result.span, `requires layout-assigned result to use #pto.vmi.layout<num_groups = ${groups}>`);
  if (!maskMatches(c, mask(c, 'mask'), source)) return;
  numGroups(c, source, groups);
};

/** VMIGroupBroadcastOp::verify. */
const groupBroadcast: MicroCheck = (c) => {
  const source = vreg(c, 'source');
  const result = vreg(c, 'result');
  const groups = intAttr(c, 'num_groups');
  if (!source || !result) return;
  if (groups === undefined || Number.isNaN(groups)) return c.err(c.v.op.nameSpan, "requires the 64-bit integer attribute 'num_groups'");
  if (source.type.lanes !== groups) return c.err(source.span, 'requires source logical lane count to match num_groups');
  if (result.type.lanes % groups !== 0) return c.err(result.span, 'requires num_groups to evenly divide result logical lane count');
  if (source.type.spelled !== result.type.spelled) return c.err(result.span, 'requires source and result element types to match');
  const layout = source.type.layout === undefined ? undefined : parseVmiLayout(source.type.layout);
  if (layout && ('error' in layout || layout.kind !== 'num_groups' || layout.factor !== groups))
    return c.err(source.span, `requires layout-assigned source to use #pto.vmi.layout<num_groups = ${groups}>`);
  if (result.type.layout?.startsWith('#pto.vmi.layout<num_groups')) return c.err(result.span, 'requires layout-assigned result to use a dense VMI layout');
  numGroups(c, result, groups);
};

/**
 * The legacy elementwise ops and cmpf/cmpi (VMIAddFOp::verify and its siblings): a float-like or integer-like
 * element first, then the row's element list, one lane count and element type, a compare's mask of the data's lanes.
 */
const legacyElementwise: MicroCheck = (c) => {
  const data = ['lhs', 'rhs', 'source', 'result'].map((n) => vreg(c, n)).filter((v) => v !== undefined);
  const first = data[0];
  const classes = c.row.elems ?? [];
  if (!first) return;
  const floats = classes.some((e) => e.startsWith('f') || e === 'bf16');
  if (floats && isInteger(first.type.elem)) return c.err(first.span, 'requires floating-point-like VMI element type');
  if (!floats && !isInteger(first.type.elem)) return c.err(first.span, 'requires integer-like VMI element type');
  if (!elemAllowed(classes, first.type)) return c.err(first.span, `requires ${listed(classes)} VMI element type`);
  if (!sameShape(c, data, true)) return;
  maskMatches(c, mask(c, 'result'), first);
};

/** verifyGroupReduceFloatOp: a float source, num_groups result lanes, addf needing reassoc. */
const groupReduceFloat: MicroCheck = (c) => {
  const source = vreg(c, 'source');
  const result = vreg(c, 'result');
  const groups = intAttr(c, 'num_groups');
  if (!source || !result) return;
  if (groups === undefined || Number.isNaN(groups)) return c.err(c.v.op.nameSpan, "requires the 64-bit integer attribute 'num_groups'");
  if (isInteger(source.type.elem)) return c.err(source.span, 'requires floating-point-like VMI source element type');
  if (c.row.name.endsWith('addf') && !c.attr('reassoc')) return c.err(c.v.op.nameSpan, 'floating add-reduction requires reassoc attr');
  if (result.type.lanes !== groups) return c.err(result.span, 'requires result logical lane count to match num_groups');
  if (source.type.spelled !== result.type.spelled) return c.err(result.span, 'requires source and result element types to match');
  if (!maskMatches(c, mask(c, 'mask'), source)) return;
  numGroups(c, source, groups);
};

/** VMIVselrOp::verify. */
const laneSelect: MicroCheck = (c) => {
  const [source, index, result] = ['source', 'index', 'result'].map((n) => vreg(c, n));
  if (!source || !index || !result) return;
  if (source.type.spelled !== result.type.spelled) return c.err(result.span, 'requires result element type to match source element type');
  if (index.type.lanes !== result.type.lanes) return c.err(index.span, 'requires index lane count to match result lane count');
  if (!isInteger(index.type.elem)) return c.err(index.span, 'requires index element type to be integer');
  if (elemBits(index.type.elem) !== elemBits(source.type.elem))
    return c.err(index.span, 'requires index element storage width to match source element storage width');
  if ((source.type.layout !== undefined) !== (result.type.layout !== undefined))
    return c.err(result.span, 'requires source and result to both carry layout or neither carry layout');
  if (index.type.layout !== undefined && source.type.layout === undefined) c.err(index.span, 'requires index to carry layout only when source does');
};

export const VMI_CHECKS: Record<string, MicroCheck> = {
  vmiCreateGroupMask: createGroupMask,
  vmiLoad: load,
  vmiStore: store,
  vmiBroadcast: broadcast,
  vmiElementwise: elementwise,
  vmiSelect: select,
  vmiReduce: reduce,
  vmiInterpretCast: interpretCast,
  vmiConvert: vmiConvertCheck,
  vmiLegacyConvert: legacyConvertCheck,
  vmiCompare: compare,
  vmiVecScalar: vecScalar,
  vmiIndex: index,
  vmiPattern: pattern,
  vmiGather: gather,
  vmiInterleave: interleave,
  vmiGroupReduceInt: groupReduceInt,
  vmiGroupBroadcast: groupBroadcast,
  vmiLegacyElementwise: legacyElementwise,
  vmiGroupReduceFloat: groupReduceFloat,
  vmiLaneSelect: laneSelect,
};
