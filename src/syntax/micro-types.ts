import { parseVmiLayout, printVmiLayout } from './vmi-layout';
import { ElemType, MASK_GRANULARITIES, MaskGranularity, Type, VREG_BYTES, elemBits, scalarFromName } from '../types/type';

/**
 * The register types of PTOAS's vector micro-op level (include/PTO/IR/VPTOTypeDefs.td, their parsers and verifiers
 * in lib/PTO/IR/VPTO.cpp): `!pto.vreg<64xf32>` (one 256-byte register as lanes), `!pto.mask<b32>` (a predicate read
 * at a lane granularity) and `!pto.align` (the alignment state of unaligned loads and stores, no parameters).
 */
export const MICRO_TYPE_NAMES = ['pto.vreg', 'pto.mask', 'pto.align', 'pto.vmi.vreg', 'pto.vmi.mask'];

/** The type a micro-level type's name and body (`<...>`, or undefined) spell, or what is wrong with them. */
export function microType(name: string, body: string | undefined): { type: Type } | { error: string } {
  const spelled = `!${name}${body ?? ''}`;
  const inner = body?.slice(1, -1).trim();
  switch (name) {
    case 'pto.vmi.vreg':
    case 'pto.vmi.mask':
      return vmiType(name, inner);
    case 'pto.align':
      return body === undefined ? { type: { kind: 'align' } } : { error: `'!pto.align' takes no parameters` };
    case 'pto.mask': {
      if (inner === undefined) return { error: `'!pto.mask' needs a granularity, e.g. '!pto.mask<b32>'` };
      if (!(MASK_GRANULARITIES as readonly string[]).includes(inner)) return { error: `'${spelled}' expected granularity to be one of b8, b16, b32` };
      return { type: { kind: 'mask', granularity: inner as MaskGranularity } };
    }
    default: {
      // `<64xf32>`: exactly one static dimension, then the element type.
      const m = inner === undefined ? null : /^(\d+)\s*x\s*(\S+)$/.exec(inner);
      if (!m) return { error: `'!pto.vreg' expects a lane count and an element type, e.g. '!pto.vreg<64xf32>'` };
      const lanes = Number(m[1]);
      const elem: ElemType | undefined = scalarFromName(m[2]);
      if (!elem || elem === 'index' || /^(u?int|half|float)/.test(m[2]))
        return { error: `'${spelled}' expected an integer, floating-point, or PTO low-precision element type` };
      if (lanes <= 0) return { error: `'${spelled}' expected a positive element count` };
      if (lanes * elemBits(elem) !== VREG_BYTES * 8) return { error: `'${spelled}' expected exactly ${VREG_BYTES} bytes` };
      return { type: { kind: 'vreg', lanes, elem } };
    }
  }
}

/**
 * VMI's logical types (VMITypeDefs.td, parsed and verified in lib/PTO/IR/VMI.cpp): `!pto.vmi.vreg<Lx T[, layout]>`
 * with an 8-, 16- or 32-bit element and `!pto.vmi.mask<Lx G[, layout]>` with G one of pred, b8, b16, b32 (a pred
 * mask carries no layout). The layout attribute is kept as written.
 */
function vmiType(name: 'pto.vmi.vreg' | 'pto.vmi.mask', inner: string | undefined): { type: Type } | { error: string } {
  const m = inner === undefined ? null : /^(-?\d+)\s*x\s*([^,\s]+)\s*(?:,\s*(#pto\.vmi\.layout<[^>]*>))?$/.exec(inner);
  if (!m)
    return {
      error: `'!${name}' expects a lane count and ${name === 'pto.vmi.vreg' ? 'an element type' : 'a granularity'}, e.g. '!${name}<64x${name === 'pto.vmi.vreg' ? 'f32' : 'pred'}>'`,
    };
  const lanes = Number(m[1]);
  const spelled = `!${name}<${inner}>`;
  const parsed = m[3] === undefined ? undefined : parseVmiLayout(m[3]);
  if (parsed && 'error' in parsed) return parsed;
  const layout = parsed && printVmiLayout(parsed);
  if (lanes <= 0) return { error: `'${spelled}' expected a positive element count` };
  if (name === 'pto.vmi.mask') {
    const g = m[2];
    if (g !== 'pred' && !(MASK_GRANULARITIES as readonly string[]).includes(g))
      return { error: `'${spelled}' expected granularity to be one of pred, b8, b16, b32` };
    if (g === 'pred' && layout) return { error: `'${spelled}' pred mask must not carry layout` };
    return { type: { kind: 'vmi_mask', lanes, granularity: g as 'pred' | MaskGranularity, ...(layout ? { layout } : {}) } };
  }
  const elem: ElemType | undefined = scalarFromName(m[2]);
  if (!elem || /^(u?int|half|float)/.test(m[2])) return { error: `'${spelled}' expected an integer, index, floating-point, or PTO low-precision element type` };
  const bits = elem === 'index' ? 64 : elemBits(elem);
  if (bits !== 8 && bits !== 16 && bits !== 32) return { error: `'${spelled}' expected an 8-bit, 16-bit, or 32-bit logical element type` };
  if (parsed?.kind === 'num_groups' && parsed.factor !== lanes)
    return { error: `'${spelled}' expected num_groups layout to describe exactly one logical result lane per group` };
  return { type: { kind: 'vmi_vreg', lanes, elem, spelled: m[2], ...(layout ? { layout } : {}) } };
}
