import { Span } from '../../diag/source';
import { Attr } from '../../syntax/ast';
import { VmiLayout, parseVmiLayout } from '../../syntax/vmi-layout';
import { Type, VmiMaskType, VmiVregType, elemBits, isInteger, printType } from '../../types/type';
import type { MicroCheck, MicroCheckContext } from '../checks';
import { VMI_CHECKS } from './vmi';

/**
 * Verifier rules of the VMI rows of spec/micro/vmi-more.json, after PTOAS e32488c9's lib/PTO/IR/VMI.cpp (messages as
 * VMI.cpp's): the layout helpers (ensure_layout, ensure_mask_layout, ensure_mask_granularity), the projections to and
 * from physical parts (unpack, pack), constants, histograms, the fused ops (vexpdif, vmull, vmula), expand_load,
 * group_slot_load and the channel split/merge.
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

const BF16X2 = '!pto.bf16x2';
const layoutOf = (t: { layout?: string }): VmiLayout | undefined => {
  if (t.layout === undefined) return undefined;
  const l = parseVmiLayout(t.layout);
  return 'error' in l ? undefined : l;
};
/** VMILayoutAttr::isContiguous: the kind (a lane stride may go with it). */
const contiguous = (l: VmiLayout | undefined) => l?.kind === 'contiguous';

/** VMI.cpp's verifyMaskMatchesData. */
function maskMatches(c: MicroCheckContext, m: Located<VmiMaskType> | undefined, data: VmiVregType | undefined): boolean {
  if (!m || !data) return true;
  const problem =
    m.type.lanes !== data.lanes
      ? 'requires mask logical lane count to match data lane count'
      : (m.type.layout !== undefined) !== (data.layout !== undefined)
        ? 'requires either both mask and data to carry layout or neither to carry layout'
        : m.type.layout !== data.layout
          ? 'requires mask layout to match data layout'
          : m.type.granularity !== 'pred' && m.type.granularity !== `b${elemBits(data.elem)}`
            ? 'requires mask granularity to match data element width'
            : undefined;
  if (problem) c.err(m.span, problem);
  return !problem;
}

/** VMI.cpp's verifyAllSameVRegShapeAndLayout with the same element required. */
function sameShape(c: MicroCheckContext, values: (Located<VmiVregType> | undefined)[]): boolean {
  const known = values.filter((v): v is Located<VmiVregType> => v !== undefined);
  const anyLayout = known.some((v) => v.type.layout !== undefined);
  for (const v of known) {
    const first = known[0].type;
    const problem =
      v.type.lanes !== first.lanes
        ? 'requires all VMI data values to have the same logical lane count'
        : v.type.spelled !== first.spelled
          ? 'requires all VMI data values to have the same element type'
          : anyLayout && v.type.layout === undefined
            ? 'requires either all or no VMI data values to carry layout'
            : anyLayout && v.type.layout !== first.layout
              ? 'requires all layout-assigned VMI data values to have the same layout'
              : undefined;
    if (problem) return (c.err(v.span, problem), false);
  }
  return true;
}

/** A pointer operand's element against the data's (verifyMemoryElementMatches). */
function memoryMatches(c: MicroCheckContext, ptr: string, data: Located<VmiVregType> | undefined): boolean {
  const p = c.value(ptr)?.type;
  if (p?.kind !== 'ptr' || !data || p.elem === data.type.elem) return true;
  c.err(data.span, `requires memory ${ptr} element type to match VMI data element type`);
  return false;
}

function intAttr(c: MicroCheckContext, name: string): number | undefined {
  const a = c.attr(name);
  return a?.kind === 'int' ? Number(a.value) : undefined;
}

function pmodeIn(c: MicroCheckContext, allowed: string[], message: string): void {
  const p = c.attr('pmode');
  if (p?.kind === 'string' && !allowed.includes(p.value)) c.err(p.span, message);
}

const sameTypes = (a: VmiVregType, b: VmiVregType) => a.lanes === b.lanes && a.spelled === b.spelled && a.layout === b.layout;

const ensureLayout: MicroCheck = (c) => {
  const [s, r] = [vreg(c, 'source'), vreg(c, 'result')];
  if (!s || !r) return;
  if (s.type.lanes !== r.type.lanes || s.type.spelled !== r.type.spelled)
    return c.err(r.span, 'requires source and result to preserve VMI data shape and element type');
  if (s.type.layout === undefined || r.type.layout === undefined) c.err(r.span, 'requires source and result to be layout-assigned');
};

const ensureMaskLayout: MicroCheck = (c) => {
  const [s, r] = [mask(c, 'source'), mask(c, 'result')];
  if (!s || !r) return;
  if (s.type.lanes !== r.type.lanes || s.type.granularity !== r.type.granularity)
    return c.err(r.span, 'requires source and result to preserve VMI mask shape and granularity');
  if (s.type.layout === undefined || r.type.layout === undefined) c.err(r.span, 'requires source and result to be layout-assigned');
};

const ensureMaskGranularity: MicroCheck = (c) => {
  const [s, r] = [mask(c, 'source'), mask(c, 'result')];
  if (!s || !r) return;
  if (s.type.lanes !== r.type.lanes) return c.err(r.span, 'requires source and result to preserve VMI mask lane count');
  if (s.type.granularity === 'pred' || r.type.granularity === 'pred') return c.err(r.span, 'requires concrete source and result mask granularities');
  if ((s.type.layout === undefined) !== (r.type.layout === undefined))
    c.err(r.span, 'requires either both source and result to carry layout or neither to carry layout');
};

/** verifyVMIHistogramOp (vdhist, vchist): ui16/i16 bins (128 or 256) from ui8/i8 lanes, contiguous layouts, a b8 mask. */
const histogram: MicroCheck = (c) => {
  const [acc, source, result] = [vreg(c, 'acc'), vreg(c, 'source'), vreg(c, 'result')];
  const m = mask(c, 'mask');
  if (!acc || !source || !result || !m) return;
  const unsigned = (t: VmiVregType, bits: number) => isInteger(t.elem) && elemBits(t.elem) === bits && !t.spelled.startsWith('si');
  const at = c.v.op.nameSpan;
  if (!unsigned(acc.type, 16) || (acc.type.lanes !== 128 && acc.type.lanes !== 256))
    return c.err(acc.span, 'requires acc type to be !pto.vmi.vreg<128x{ui16|i16}> (Bin_N0-only) or !pto.vmi.vreg<256x{ui16|i16}>');
  if (result.type.lanes !== acc.type.lanes) return c.err(result.span, 'requires result element count to match acc (bins must be identical)');
  if (result.type.layout !== acc.type.layout) return c.err(result.span, 'requires result layout attribute to match acc');
  if (!unsigned(result.type, 16)) return c.err(result.span, 'requires result element type to be ui16 or i16 (interpreted as unsigned)');
  if (!unsigned(source.type, 8)) return c.err(source.span, 'requires source type to be !pto.vmi.vreg<Nx{ui8|i8}> (interpreted as unsigned)');
  if (m.type.lanes !== source.type.lanes) return c.err(m.span, 'requires mask logical lane count to match source');
  for (const [name, t] of [
    ['acc', acc],
    ['source', source],
    ['result', result],
    ['mask', m],
  ] as const)
    if (t.type.layout !== undefined && !contiguous(layoutOf(t.type))) return c.err(t.span, `requires layout-assigned ${name} to use contiguous layout`);
  if (m.type.layout !== undefined && m.type.granularity !== 'b8') c.err(at, 'requires layout-assigned mask granularity b8');
};

const vexpdif: MicroCheck = (c) => {
  const [x, max, result] = [vreg(c, 'x'), vreg(c, 'max'), vreg(c, 'result')];
  if (!x || !max || !result) return;
  if (x.type.spelled !== 'f16' && x.type.spelled !== 'f32') return c.err(x.span, 'requires x element type to be f16 or f32');
  if (max.type.spelled !== x.type.spelled) return c.err(max.span, 'requires x and max to have the same element type');
  if (result.type.spelled !== 'f32') return c.err(result.span, 'requires result element type to be f32');
  if (x.type.lanes !== max.type.lanes || x.type.lanes !== result.type.lanes)
    return c.err(result.span, 'requires x, max, and result logical lane counts to match');
  if (!maskMatches(c, mask(c, 'mask'), x.type)) return;
  pmodeIn(c, ['merge', 'zero'], "pmode must be 'merge' or 'zero'");
};

const vmull: MicroCheck = (c) => {
  const values = ['a', 'b', 'low', 'high'].map((n) => vreg(c, n));
  if (values.some((v) => !v)) return;
  const [a] = values as Located<VmiVregType>[];
  if (values.some((v) => v!.type.spelled !== 'i32' && v!.type.spelled !== 'ui32'))
    return c.err(a.span, 'requires a, b, low, and high element types to be exactly i32 or ui32');
  if (values.some((v) => !sameTypes(v!.type, a.type))) return c.err(a.span, 'requires a, b, low, and high to have identical VMI vreg types');
  if (![64, 128, 256].includes(a.type.lanes)) return c.err(a.span, 'requires logical lane count to be 64, 128, or 256');
  if (!maskMatches(c, mask(c, 'mask'), a.type)) return;
  pmodeIn(c, ['zero'], "pmode must be 'zero' when specified");
};

const vmula: MicroCheck = (c) => {
  const values = ['acc', 'lhs', 'rhs', 'result'].map((n) => vreg(c, n));
  if (values.some((v) => !v)) return;
  const [acc] = values as Located<VmiVregType>[];
  if (acc.type.spelled === BF16X2) return c.err(acc.span, 'does not support bf16x2 VMI element type; bf16x2 is conversion-only');
  if (values.some((v) => !sameTypes(v!.type, acc.type))) return c.err(acc.span, 'requires acc, lhs, rhs, and result to have identical VMI vreg types');
  pmodeIn(c, ['merge', 'zero'], 'pmode must be "merge" or "zero"');
  maskMatches(c, mask(c, 'mask'), acc.type);
};

const expandLoad: MicroCheck = (c) => {
  const result = vreg(c, 'result');
  if (!memoryMatches(c, 'source', result)) return;
  if (!sameShape(c, [vreg(c, 'passthru'), result])) return;
  maskMatches(c, mask(c, 'mask'), result?.type);
};

const groupSlotLoad: MicroCheck = (c) => {
  const result = vreg(c, 'result');
  const groups = intAttr(c, 'num_groups');
  if (!result) return;
  if (groups === undefined) return c.err(c.v.op.nameSpan, "requires attribute 'num_groups'");
  if (result.type.lanes !== groups) return c.err(result.span, 'requires result logical lane count to match num_groups');
  if (!memoryMatches(c, 'source', result)) return;
  const l = layoutOf(result.type);
  if (result.type.layout !== undefined && (l?.kind !== 'num_groups' || l.factor !== groups))
    return c.err(result.span, `requires layout-assigned result to use #pto.vmi.layout<num_groups = ${groups}>`);
  if (groups <= 0) c.err(result.span, 'requires num_groups to be positive');
};

/** VMIActivePrefixIndexOp::verify: signless i8/i16/i32 indices, a mask of the result's lanes and width. */
const activePrefixIndex: MicroCheck = (c) => {
  const result = vreg(c, 'result');
  if (!result) return;
  if (!isInteger(result.type.elem) || !result.type.spelled.startsWith('i')) return c.err(result.span, 'requires signless integer result element type');
  if (![8, 16, 32].includes(elemBits(result.type.elem))) return c.err(result.span, 'requires i8, i16, or i32 result element type');
  maskMatches(c, mask(c, 'mask'), result.type);
};

const compress: MicroCheck = (c) => {
  const source = vreg(c, 'source');
  if (!sameShape(c, [source, vreg(c, 'result')])) return;
  maskMatches(c, mask(c, 'mask'), source?.type);
};

const compressStore: MicroCheck = (c) => {
  const value = vreg(c, 'value');
  if (!memoryMatches(c, 'destination', value)) return;
  maskMatches(c, mask(c, 'mask'), value?.type);
};

/** A group store of 32-bit integer lanes into 8-bit integer memory packs each lane's low byte (isPackedByteGroupStore). */
function packedByteStore(ptr: Type | undefined, value: VmiVregType): boolean {
  return ptr?.kind === 'ptr' && isInteger(ptr.elem) && elemBits(ptr.elem) === 8 && isInteger(value.elem) && elemBits(value.elem) === 32;
}

/** VMIGroupStoreOp::verify: the destination's element (or packed bytes), num_groups dividing the lanes (verifyNumGroups). */
const groupStore: MicroCheck = (c) => {
  const value = vreg(c, 'value');
  const groups = intAttr(c, 'num_groups');
  if (!value) return;
  if (groups === undefined) return c.err(c.v.op.nameSpan, "requires attribute 'num_groups'");
  if (!packedByteStore(c.value('destination')?.type, value.type) && !memoryMatches(c, 'destination', value)) return;
  if (groups <= 0) c.err(value.span, 'requires num_groups to be positive');
  else if (value.type.lanes % groups !== 0) c.err(value.span, `requires num_groups to evenly divide VMI logical lane count ${value.type.lanes}`);
};

/** VMIVscatterOp::verify. */
const scatter: MicroCheck = (c) => {
  const [value, offsets] = [vreg(c, 'value'), vreg(c, 'offsets')];
  if (!value || !offsets) return;
  if (!memoryMatches(c, 'destination', value)) return;
  const bits = elemBits(offsets.type.elem);
  if (!isInteger(offsets.type.elem) || offsets.type.spelled.startsWith('si') || (bits !== 32 && bits !== 16))
    return c.err(offsets.span, 'requires signless or unsigned 16-bit or 32-bit integer offsets');
  const known = [value, offsets];
  const anyLayout = known.some((v) => v.type.layout !== undefined);
  if (offsets.type.lanes !== value.type.lanes) return c.err(offsets.span, 'requires all VMI data values to have the same logical lane count');
  if (anyLayout && known.some((v) => v.type.layout === undefined)) return c.err(offsets.span, 'requires either all or no VMI data values to carry layout');
  if (anyLayout && offsets.type.layout !== value.type.layout)
    return c.err(offsets.span, 'requires all layout-assigned VMI data values to have the same layout');
  if (!maskMatches(c, mask(c, 'mask'), value.type)) return;
  pmodeIn(c, ['merge', 'zero'], "pmode must be 'merge' or 'zero'");
};

/** VMI.cpp's verifyAllSameMaskShapeLayoutAndGranularity. */
function sameMasks(c: MicroCheckContext, masks: (Located<VmiMaskType> | undefined)[]): boolean {
  const known = masks.filter((m): m is Located<VmiMaskType> => m !== undefined);
  const anyLayout = known.some((m) => m.type.layout !== undefined);
  for (const m of known) {
    const first = known[0].type;
    const problem =
      m.type.lanes !== first.lanes
        ? 'requires all VMI mask values to have the same logical lane count'
        : m.type.granularity !== first.granularity
          ? 'requires all VMI mask values to have the same granularity'
          : anyLayout && m.type.layout === undefined
            ? 'requires either all or no VMI mask values to carry layout'
            : anyLayout && m.type.layout !== first.layout
              ? 'requires all layout-assigned VMI mask values to have the same layout'
              : undefined;
    if (problem) return (c.err(m.span, problem), false);
  }
  return true;
}

/** verifyVMIAddCarryOp (vaddc, vaddcs): 32-bit integer lanes, the masks (mask, carry, carry_in) of the data's lanes. */
const carry: MicroCheck = (c) => {
  const lhs = vreg(c, 'lhs');
  if (!lhs) return;
  if (!isInteger(lhs.type.elem) || elemBits(lhs.type.elem) !== 32) return c.err(lhs.span, 'requires 32-bit integer vector element types');
  if (!sameShape(c, [lhs, vreg(c, 'rhs'), vreg(c, 'result')])) return;
  const masks = [mask(c, 'mask'), mask(c, 'carry'), mask(c, 'carry_in')];
  if (!masks.every((m) => maskMatches(c, m, lhs.type))) return;
  sameMasks(c, masks);
};

/** VMIVsstbOp::verify: the destination's element, a mask of the value, and no merge (a store keeps nothing). */
const blockStore: MicroCheck = (c) => {
  const value = vreg(c, 'value');
  if (!memoryMatches(c, 'destination', value)) return;
  const p = c.attr('pmode');
  if (p?.kind === 'string' && p.value !== 'zero' && p.value !== 'merge') return c.err(p.span, `invalid pmode: "${p.value}"`);
  if (p?.kind === 'string' && p.value !== 'zero')
    return c.err(
      p.span,
      'pmode "merge" is not supported for stores: the legacy store lowering is mask-governed only and cannot retain prior destination contents on inactive blocks; omit pmode (defaults to "zero")',
    );
  maskMatches(c, mask(c, 'mask'), value?.type);
};

/** VMIVgatherbOp::verify: byte offsets of 16 or 32 bits (any lane count), a mask of the result. */
const gatherBytes: MicroCheck = (c) => {
  const [offsets, result] = [vreg(c, 'offsets'), vreg(c, 'result')];
  if (!offsets || !result) return;
  if (!memoryMatches(c, 'source', result)) return;
  const bits = elemBits(offsets.type.elem);
  if (!isInteger(offsets.type.elem) || offsets.type.spelled.startsWith('si') || (bits !== 32 && bits !== 16))
    return c.err(offsets.span, 'requires signless or unsigned 16-bit or 32-bit integer offsets');
  if (!maskMatches(c, mask(c, 'mask'), result.type)) return;
  pmodeIn(c, ['merge', 'zero'], "pmode must be 'merge' or 'zero'");
};

/** VMIVpreluOp::verify: f16/f32 lanes, x, alpha and result of one type. */
const prelu: MicroCheck = (c) => {
  const [x, alpha, result] = [vreg(c, 'x'), vreg(c, 'alpha'), vreg(c, 'result')];
  if (!x || !alpha || !result) return;
  if (x.type.spelled === BF16X2) return c.err(x.span, 'does not support bf16x2 VMI element type; bf16x2 is conversion-only');
  if (isInteger(x.type.elem)) return c.err(x.span, 'requires vector element type to be f16 or f32');
  if (!sameTypes(x.type, alpha.type) || !sameTypes(alpha.type, result.type))
    return c.err(alpha.span, 'requires x, alpha, and result to have identical VMI vreg types');
  if (!maskMatches(c, mask(c, 'mask'), result.type)) return;
  pmodeIn(c, ['merge', 'zero'], "pmode must be 'merge' or 'zero'");
};

/** VMIPgeOp::verify: "PAT_VL<n>", 0 < n <= L; a concrete result carries a layout. */
const prefixPattern: MicroCheck = (c) => {
  const result = mask(c, 'result');
  const p = c.attr('pattern');
  if (!result || p?.kind !== 'string') return;
  if (!p.value.startsWith('PAT_VL')) return c.err(p.span, 'requires pattern to start with "PAT_VL"');
  const n = p.value.slice(6);
  if (!/^-?\d+$/.test(n)) return c.err(p.span, 'requires pattern "PAT_VL<n>" with integer n');
  if (Number(n) <= 0) return c.err(p.span, 'requires positive n in pattern "PAT_VL<n>"');
  if (Number(n) > result.type.lanes) return c.err(p.span, `PAT_VL active lanes ${Number(n)} exceeds mask element count ${result.type.lanes}`);
  if (result.type.granularity !== 'pred' && result.type.layout === undefined) c.err(result.span, 'requires concrete mask result to carry layout');
};

/** VMIPltOp::verify: i32 in and out; a concrete result carries a layout. */
const remainderMask: MicroCheck = (c) => {
  const [scalar, out, m] = [c.value('scalar'), c.value('scalar_out'), mask(c, 'mask')];
  if (scalar?.type && (scalar.type.kind !== 'scalar' || elemBits(scalar.type.elem) !== 32 || !isInteger(scalar.type.elem)))
    return c.err(scalar.span, 'requires i32 scalar input');
  if (out?.type && (out.type.kind !== 'scalar' || elemBits(out.type.elem) !== 32 || !isInteger(out.type.elem)))
    return c.err(out.span, 'requires i32 scalar_out result');
  if (m && m.type.granularity !== 'pred' && m.type.layout === undefined) c.err(m.span, 'requires concrete mask result to carry layout');
};

/** verifyContiguousIfLayoutAssigned. */
function contiguousIfAssigned(c: MicroCheckContext, v: Located<VmiVregType> | undefined, role: string): boolean {
  if (!v || v.type.layout === undefined || contiguous(layoutOf(v.type))) return true;
  c.err(v.span, `requires layout-assigned ${role} to use #pto.vmi.layout<contiguous>`);
  return false;
}

/** VMIDeinterleaveLoadOp / VMIInterleaveStoreOp::verify: two halves of one type, contiguous when assigned. */
function twoWay(load: boolean): MicroCheck {
  return (c) => {
    const [low, high] = [vreg(c, 'low'), vreg(c, 'high')];
    if (!sameShape(c, [low, high])) return;
    if (!memoryMatches(c, load ? 'source' : 'destination', low)) return;
    const role = load ? 'result' : 'input';
    if (contiguousIfAssigned(c, low, `low ${role}`)) contiguousIfAssigned(c, high, `high ${role}`);
  };
}

/** VMIGroupLoadOp / VMIGroupBroadcastLoadOp::verify: the source's element, num_groups dividing the lanes. */
function groupLoad(broadcast: boolean): MicroCheck {
  return (c) => {
    const result = vreg(c, 'result');
    const groups = intAttr(c, 'num_groups');
    if (!result) return;
    if (groups === undefined) return c.err(c.v.op.nameSpan, "requires attribute 'num_groups'");
    if (broadcast && groups <= 0) return c.err(result.span, 'requires num_groups to be positive');
    if (broadcast && result.type.lanes % groups !== 0) return c.err(result.span, 'requires num_groups to evenly divide result logical lane count');
    if (!memoryMatches(c, 'source', result)) return;
    if (broadcast && layoutOf(result.type)?.kind === 'num_groups') return c.err(result.span, 'requires layout-assigned result to use a dense VMI layout');
    if (groups <= 0) c.err(result.span, 'requires num_groups to be positive');
    else if (result.type.lanes % groups !== 0) c.err(result.span, `requires num_groups to evenly divide VMI logical lane count ${result.type.lanes}`);
  };
}

/** VMIStrideLoadOp / VMIStrideStoreOp / VMIMaskedLoadOp::verify: the memory's element, a mask of the data. */
function maskedMemory(data: string, ptr: string, passthru: boolean): MicroCheck {
  return (c) => {
    const value = vreg(c, data);
    if (!memoryMatches(c, ptr, value)) return;
    if (passthru && !sameShape(c, [vreg(c, 'passthru'), value])) return;
    maskMatches(c, mask(c, 'mask'), value?.type);
  };
}

/** VMIGatherOp / VMIScatterOp::verify: 16/32-bit unsigned-or-signless indices of the data's lanes. */
function indexed(gather: boolean): MicroCheck {
  return (c) => {
    const data = vreg(c, gather ? 'result' : 'value');
    const indices = vreg(c, 'indices');
    if (!data || !indices) return;
    if (!memoryMatches(c, gather ? 'source' : 'destination', data)) return;
    const bits = elemBits(indices.type.elem);
    if (!isInteger(indices.type.elem) || indices.type.spelled.startsWith('si') || (bits !== 32 && bits !== 16))
      return c.err(indices.span, 'requires signless or unsigned 16-bit or 32-bit integer indices');
    const passthru = vreg(c, 'passthru');
    const anyLayout = [data, indices, passthru].some((v) => v?.type.layout !== undefined);
    for (const v of [indices, passthru]) {
      if (!v) continue;
      if (v.type.lanes !== data.type.lanes) return c.err(v.span, 'requires all VMI data values to have the same logical lane count');
      if (anyLayout && v.type.layout === undefined) return c.err(v.span, 'requires either all or no VMI data values to carry layout');
      if (anyLayout && v.type.layout !== data.type.layout) return c.err(v.span, 'requires all layout-assigned VMI data values to have the same layout');
    }
    if (gather && !sameShape(c, [passthru, data])) return;
    if (gather && bits === 16 && data.type.spelled !== 'ui16')
      return c.err(data.span, 'requires ui16 result and passthru element type when using ui16 indices');
    maskMatches(c, mask(c, 'mask'), data.type);
  };
}

/** VMIMaskAndOp ... VMIMaskNotOp::verify: one lane count, granularity and layout. */
const maskLogic: MicroCheck = (c) => {
  sameMasks(c, [mask(c, 'lhs') ?? mask(c, 'source'), mask(c, 'rhs'), mask(c, 'result')]);
};

/** VMIFmaOp::verify: f16/bf16/f32 lanes, lhs, rhs, acc and result of one shape (verifyFloatTernaryVRegOp). */
const fma: MicroCheck = (c) => {
  const lhs = vreg(c, 'lhs');
  if (!lhs) return;
  if (lhs.type.spelled !== 'f16' && lhs.type.spelled !== 'bf16' && lhs.type.spelled !== 'f32')
    return c.err(lhs.span, 'requires f16, bf16, or f32 VMI element type');
  sameShape(c, [lhs, vreg(c, 'rhs'), vreg(c, 'acc'), vreg(c, 'result')]);
};

/** VMIReduce*Op::verify: the source's element class, a 1-lane result of its element, a mask of the source. */
const legacyReduce: MicroCheck = (c) => {
  const [source, result] = [vreg(c, 'source'), vreg(c, 'result')];
  if (!source || !result) return;
  const name = c.row.name.slice('pto.vmi.reduce_'.length);
  const float = name.endsWith('f');
  const e = source.type;
  if (name === 'addf' && !c.attr('reassoc'))
    return c.err(c.v.op.nameSpan, 'requires reassoc attr because VPTO vcadd performs pair-wise floating-point reduction');
  if (float && isInteger(e.elem)) return c.err(source.span, 'requires floating-point-like VMI source element type');
  if (float && e.spelled !== 'f16' && e.spelled !== 'f32') return c.err(source.span, 'requires f16 or f32 source element type');
  if (name === 'addi' && !isInteger(e.elem)) return c.err(source.span, 'requires integer-like VMI source element type');
  if (name === 'addi' && elemBits(e.elem) !== 32) return c.err(source.span, 'requires 32-bit integer source element type');
  if (!float && name !== 'addi' && (!isInteger(e.elem) || ![8, 16, 32].includes(elemBits(e.elem))))
    return c.err(source.span, 'requires 8-bit, 16-bit, or 32-bit integer source element type');
  if (e.spelled !== result.type.spelled) return c.err(result.span, 'requires source and result element types to match');
  if (result.type.lanes !== 1) return c.err(result.span, 'requires result to be a 1-lane VMI vector');
  maskMatches(c, mask(c, 'mask'), e);
};

/** VMIGroupIotaOp::verify: vci's rules with group > 1 and a contiguous result. */
const groupIota: MicroCheck = (c) => {
  const result = vreg(c, 'result');
  const group = intAttr(c, 'group');
  if (group === undefined) return c.err(c.v.op.nameSpan, "requires attribute 'group'");
  if (group <= 1) return c.err(c.attr('group')!.span, 'requires group greater than one');
  VMI_CHECKS.vmiIndex(c);
  if (result && result.type.layout !== undefined && !contiguous(layoutOf(result.type))) c.err(result.span, 'requires contiguous result layout');
};

export const VMI_MORE_CHECKS: Record<string, MicroCheck> = {
  vmiEnsureLayout: ensureLayout,
  vmiEnsureMaskLayout: ensureMaskLayout,
  vmiEnsureMaskGranularity: ensureMaskGranularity,
  vmiHistogram: histogram,
  vmiExpdif: vexpdif,
  vmiMull: vmull,
  vmiMula: vmula,
  vmiExpandLoad: expandLoad,
  vmiGroupSlotLoad: groupSlotLoad,
  vmiScatter: scatter,
  vmiActivePrefixIndex: activePrefixIndex,
  vmiCompress: compress,
  vmiCompressStore: compressStore,
  vmiGroupStore: groupStore,
  vmiDeinterleaveLoad: twoWay(true),
  vmiInterleaveStore: twoWay(false),
  vmiGroupLoad: groupLoad(false),
  vmiGroupBroadcastLoad: groupLoad(true),
  vmiStrideLoad: maskedMemory('result', 'source', false),
  vmiStrideStore: maskedMemory('value', 'destination', false),
  vmiMaskedLoad: maskedMemory('result', 'source', true),
  vmiIndexedGather: indexed(true),
  vmiIndexedScatter: indexed(false),
  vmiMaskLogic: maskLogic,
  vmiFma: fma,
  vmiLegacyReduce: legacyReduce,
  vmiGroupIota: groupIota,
  vmiCarry: carry,
  vmiBlockStore: blockStore,
  vmiGatherBytes: gatherBytes,
  vmiPrelu: prelu,
  vmiPrefixPattern: prefixPattern,
  vmiRemainderMask: remainderMask,
};

/**
 * What a rule of an op PTOAS writes only in MLIR's generic form (unpack, pack, constant, constant_mask,
 * channel_split, channel_merge) sees: every operand and result with its type (they are variadic), the attributes.
 */
export interface GenericCheckContext {
  operands: Located<Type | undefined>[];
  results: Located<Type | undefined>[];
  attr(name: string): Attr | undefined;
  at: Span;
  err(span: Span, message: string): void;
}

export type GenericCheck = (c: GenericCheckContext) => void;

/** How a layout-assigned VMI value is held in physical registers (VMI.cpp's getVMIPhysicalArity and its helpers). */
export interface PhysicalPlacement {
  /** The physical registers, in the order unpack gives them (split part by split part, each chunk by chunk). */
  arity: number;
  /** Lanes of one physical register (vreg: of the element; mask: of the carrier granularity). */
  lanesPerPart: number;
  /** A mask's carrier granularity (its granularity times the layout's lane stride). */
  carrier?: 'b8' | 'b16' | 'b32';
  /** Logical lane i -> (register index, lane in it). */
  place(i: number): { part: number; lane: number };
}

/** The placement of a VMI type, or VMI.cpp's reason it has none. */
export function physicalPlacement(t: VmiVregType | VmiMaskType): PhysicalPlacement | { error: string } {
  const layout = layoutOf(t);
  if (!layout) return { error: 'requires a layout-assigned VMI type with computable physical arity' };
  let lanesPerPart: number;
  let carrier: PhysicalPlacement['carrier'];
  if (t.kind === 'vmi_vreg') lanesPerPart = 2048 / elemBits(t.elem);
  else {
    if (t.granularity === 'pred') return { error: 'requires layout-assigned mask with concrete granularity' };
    const bits = Number(t.granularity.slice(1)) * layout.laneStride;
    if (bits !== 8 && bits !== 16 && bits !== 32) return { error: 'requires mask type with supported physical carrier granularity' };
    carrier = `b${bits}` as PhysicalPlacement['carrier'];
    lanesPerPart = 2048 / bits;
  }
  if (layout.kind === 'num_groups' && layout.slots > 0) {
    const slots = layout.slots;
    return { arity: Math.ceil(layout.factor / slots), lanesPerPart, carrier, place: (i) => ({ part: Math.floor(i / slots), lane: i % slots }) };
  }
  const split = layout.kind === 'deinterleaved' || layout.kind === 'block_deinterleaved';
  const factor = split ? layout.factor : 1;
  const blockElems = layout.kind === 'block_deinterleaved' ? lanesPerPart / 8 : 1;
  const stride = t.kind === 'vmi_mask' || layout.kind === 'num_groups' ? 1 : layout.laneStride;
  // Logical lane -> (split part, index in it): blocks of blockElems lanes dealt round-robin to the parts.
  const inPart = (i: number) => {
    const block = Math.floor(i / blockElems);
    return { split: block % factor, index: Math.floor(block / factor) * blockElems + (i % blockElems) };
  };
  const lanesIn = new Array<number>(factor).fill(0);
  for (let i = 0; i < t.lanes; i++) {
    const p = inPart(i);
    lanesIn[p.split] = Math.max(lanesIn[p.split], p.index + 1);
  }
  const chunks = lanesIn.map((n) => Math.ceil((n === 0 ? 0 : (n - 1) * stride + 1) / lanesPerPart));
  const first = chunks.map((_, k) => chunks.slice(0, k).reduce((a, b) => a + b, 0));
  return {
    arity: chunks.reduce((a, b) => a + b, 0),
    lanesPerPart,
    carrier,
    place: (i) => {
      const p = inPart(i);
      const physical = p.index * stride;
      return { part: first[p.split] + Math.floor(physical / lanesPerPart), lane: physical % lanesPerPart };
    },
  };
}

/** verifyPhysicalParts: the VMI value's layout gives how many physical parts, and of which type. */
function physicalParts(c: GenericCheckContext, vmi: Located<Type | undefined> | undefined, parts: Located<Type | undefined>[]): void {
  if (!kindIs(c, vmi, ['vmi_vreg', 'vmi_mask'], vmi === c.operands[0] ? 'operand #0' : 'result #0', 'VMI logical vector or mask type')) return;
  const t = vmi!.type as VmiVregType | VmiMaskType;
  const placement = physicalPlacement(t);
  if ('error' in placement) return c.err(vmi!.span, placement.error);
  if (parts.length !== placement.arity) return c.err(c.at, `requires ${placement.arity} physical parts, got ${parts.length}`);
  for (const p of parts) {
    if (!p.type) continue;
    if (t.kind === 'vmi_vreg') {
      if (p.type.kind !== 'vreg') return c.err(p.span, 'requires physical data parts to be !pto.vreg');
      if (p.type.elem !== t.elem || 2048 / elemBits(p.type.elem) !== placement.lanesPerPart)
        return c.err(p.span, 'requires physical data part type to match VMI lane-map helper');
    } else {
      if (p.type.kind !== 'mask') return c.err(p.span, 'requires physical mask parts to be !pto.mask');
      if (p.type.granularity !== placement.carrier) return c.err(p.span, 'requires physical mask part granularity to match VMI mask carrier');
    }
  }
}

/** A dense attribute's elements (one for a splat) and its element type, or undefined when it is not `dense<...> : T`. */
export function denseElements(a: Attr | undefined): { items: Attr[]; splat: boolean; elem?: string; count?: number } | undefined {
  if (a?.kind !== 'dense') return undefined;
  const items = a.elements.kind === 'array' ? a.elements.items : [a.elements];
  const m = a.type ? /<(?:(\d+)x)?([a-z0-9]+)>/.exec(a.type.text) : null;
  return { items, splat: a.elements.kind !== 'array', elem: m?.[2], count: m?.[1] !== undefined ? Number(m[1]) : undefined };
}

/** ODS's type constraint of a value: its kind, else the message MLIR gives. */
function kindIs(c: GenericCheckContext, v: Located<Type | undefined> | undefined, kinds: Type['kind'][], what: string, described: string): boolean {
  if (!v?.type) return false;
  if (kinds.includes(v.type.kind)) return true;
  c.err(v.span, `${what} must be ${described}, but got ${printType(v.type)}`);
  return false;
}

const constant: GenericCheck = (c) => {
  if (!kindIs(c, c.results[0], ['vmi_vreg'], 'result #0', 'VMI logical vector register type')) return;
  const r = c.results[0].type as VmiVregType;
  const d = denseElements(c.attr('value'));
  if (!d) return c.err(c.at, 'requires dense elements constant attribute');
  if (d.elem !== r.spelled) return c.err(c.at, 'requires dense constant element type to match result element type');
  if ((d.count ?? 1) !== r.lanes || (!d.splat && d.items.length !== r.lanes))
    c.err(c.at, 'requires dense constant element count to match result logical lane count');
};

const constantMask: GenericCheck = (c) => {
  if (!kindIs(c, c.results[0], ['vmi_mask'], 'result #0', 'VMI logical mask type')) return;
  const r = c.results[0].type as VmiMaskType;
  const d = denseElements(c.attr('value'));
  if (!d) return c.err(c.at, 'requires dense elements mask constant attribute');
  if (d.elem !== 'i1') return c.err(c.at, 'requires dense mask constant element type to be i1');
  if ((d.count ?? 1) !== r.lanes || (!d.splat && d.items.length !== r.lanes))
    c.err(c.at, 'requires dense mask constant element count to match result logical lane count');
};

/** VMIChannelSplitOp / VMIChannelMergeOp::verify: the interleaved value is `channels` values of equal lanes. */
function channels(c: GenericCheckContext, whole: Located<Type | undefined>, each: Located<Type | undefined>[], split: boolean): void {
  const word = split ? 'result' : 'input';
  const vmi = 'VMI logical vector register type';
  if (!kindIs(c, whole, ['vmi_vreg'], split ? 'operand #0' : 'result #0', vmi)) return;
  if (!each.every((e, k) => kindIs(c, e, ['vmi_vreg'], `${split ? 'result' : 'operand'} #${k}`, vmi))) return;
  const w = whole.type as VmiVregType;
  if (each.length < 2) return c.err(c.at, `requires at least two channel ${word}s`);
  const ts = each.map((e) => e.type).filter((t): t is VmiVregType => t?.kind === 'vmi_vreg');
  if (ts.length !== each.length) return;
  if (split) {
    if (w.lanes !== each.length * ts[0].lanes) return c.err(c.at, 'requires source lane count to equal result count times per-channel lane count');
    if (ts.some((t) => t.lanes !== ts[0].lanes || t.spelled !== w.spelled))
      return c.err(c.at, 'requires every channel result to have equal lane count and source element type');
  } else {
    if (ts.some((t) => t.lanes !== ts[0].lanes || t.spelled !== ts[0].spelled))
      return c.err(c.at, 'requires all channel inputs to have the same lane count and element type');
    if (w.lanes !== each.length * ts[0].lanes || w.spelled !== ts[0].spelled)
      return c.err(c.at, 'requires result lane count and element type to match merged channels');
  }
  const anyLayout = w.layout !== undefined || ts.some((t) => t.layout !== undefined);
  if (!anyLayout) return;
  const op = split ? 'channel_split' : 'channel_merge';
  if (w.layout === undefined)
    return c.err(
      c.at,
      split
        ? 'requires layout-assigned channel_split source when any channel result has layout'
        : 'requires layout-assigned channel_merge result when any channel input has layout',
    );
  if (ts.some((t) => t.layout === undefined))
    return c.err(
      c.at,
      split
        ? 'requires every channel_split result to carry layout when source has layout'
        : 'requires every channel_merge input to carry layout when result has layout',
    );
  if (ts.some((t) => !contiguous(layoutOf(t)))) return c.err(c.at, `requires layout-assigned ${op} ${split ? 'results' : 'inputs'} to be contiguous`);
  const l = layoutOf(w);
  if (
    (each.length === 2 || each.length === 4) &&
    !(l?.kind === 'contiguous' || (l?.kind === 'deinterleaved' && l.factor === each.length && l.laneStride === 1))
  )
    c.err(
      c.at,
      split
        ? 'requires layout-assigned channel_split source to be contiguous or deinterleaved by result count'
        : 'requires layout-assigned channel_merge result to be contiguous or deinterleaved by input count',
    );
}

/** VMIShuffleOp::verify: `indices` (array<i64: ...>) picks a source lane for each result lane. */
const shuffle: GenericCheck = (c) => {
  const vmi = 'VMI logical vector register type';
  if (!kindIs(c, c.operands[0], ['vmi_vreg'], 'operand #0', vmi) || !kindIs(c, c.results[0], ['vmi_vreg'], 'result #0', vmi)) return;
  const [s, r] = [c.operands[0].type as VmiVregType, c.results[0].type as VmiVregType];
  const a = c.attr('indices');
  if (a?.kind !== 'array' || a.items.some((i) => i.kind !== 'int')) return c.err(c.at, "requires attribute 'indices', an array<i64: ...>");
  if (s.spelled !== r.spelled) return c.err(c.at, 'requires result element type to match source element type');
  if (a.items.length !== r.lanes) return c.err(c.at, 'requires shuffle index count to match result logical lane count');
  if (a.items.some((i) => i.kind === 'int' && (i.value < 0n || i.value >= BigInt(s.lanes))))
    return c.err(c.at, 'requires every shuffle index to select an existing source logical lane');
  if ((s.layout === undefined) !== (r.layout === undefined)) c.err(c.at, 'requires either both source and result to carry layout or neither to carry layout');
};

/**
 * VMIVaxpyOp / VMIVlreluOp::verify (generic form only): f16/f32 lanes, the vectors (x, acc for vaxpy) and result of one
 * type, the scalar (alpha, slope) of the element type, a mask of the result.
 */
function scaled(withAcc: boolean, scalarName: string): GenericCheck {
  return (c) => {
    const vmi = 'VMI logical vector register type';
    const vectors = withAcc ? [0, 1] : [0];
    const scalarAt = vectors.length;
    if (c.operands.length !== scalarAt + 2 || c.results.length !== 1) return c.err(c.at, `takes ${scalarAt + 2} operands and 1 result`);
    if (!vectors.every((k) => kindIs(c, c.operands[k], ['vmi_vreg'], `operand #${k}`, vmi))) return;
    if (
      !kindIs(c, c.results[0], ['vmi_vreg'], 'result #0', vmi) ||
      !kindIs(c, c.operands[scalarAt + 1], ['vmi_mask'], `operand #${scalarAt + 1}`, 'VMI logical mask type')
    )
      return;
    const x = c.operands[0].type as VmiVregType;
    const result = c.results[0].type as VmiVregType;
    if (x.spelled === BF16X2) return c.err(c.at, 'does not support bf16x2 VMI element type; bf16x2 is conversion-only');
    if (isInteger(x.elem)) return c.err(c.at, 'requires vector element type to be f16 or f32');
    const same = vectors.every((k) => sameTypes(c.operands[k].type as VmiVregType, result));
    if (!same)
      return c.err(c.at, withAcc ? 'requires x, acc, and result to have identical VMI vreg types' : 'requires x and result to have identical VMI vreg types');
    const s = c.operands[scalarAt].type;
    if (s && (s.kind !== 'scalar' || s.elem !== x.elem))
      return c.err(c.operands[scalarAt].span, `requires ${scalarName} scalar type to match vector element type`);
    const m = c.operands[scalarAt + 1];
    const layoutProblem = (mt: VmiMaskType) =>
      mt.lanes !== result.lanes
        ? 'requires mask logical lane count to match data lane count'
        : (mt.layout !== undefined) !== (result.layout !== undefined)
          ? 'requires either both mask and data to carry layout or neither to carry layout'
          : mt.layout !== result.layout
            ? 'requires mask layout to match data layout'
            : mt.granularity !== 'pred' && mt.granularity !== `b${elemBits(result.elem)}`
              ? 'requires mask granularity to match data element width'
              : undefined;
    const problem = layoutProblem(m.type as VmiMaskType);
    if (problem) return c.err(m.span, problem);
    const p = c.attr('pmode');
    if (p?.kind === 'string' && p.value !== 'merge' && p.value !== 'zero') c.err(p.span, "pmode must be 'merge' or 'zero'");
  };
}

export const VMI_GENERIC_CHECKS: Record<string, GenericCheck> = {
  vmiUnpack: (c) => physicalParts(c, c.operands[0], c.results),
  vmiPack: (c) => physicalParts(c, c.results[0], c.operands),
  vmiConstant: constant,
  vmiConstantMask: constantMask,
  vmiChannelSplit: (c) => c.operands[0] && channels(c, c.operands[0], c.results, true),
  vmiChannelMerge: (c) => c.results[0] && channels(c, c.results[0], c.operands, false),
  vmiShuffle: shuffle,
  vmiAxpy: scaled(true, 'alpha'),
  vmiLrelu: scaled(false, 'slope'),
};
