import { ElemType, MASK_GRANULARITIES, MaskGranularity, Type, VREG_BYTES, elemBits, scalarFromName } from '../types/type';

/**
 * The register types of PTOAS's vector micro-op level (include/PTO/IR/VPTOTypeDefs.td, their parsers and verifiers
 * in lib/PTO/IR/VPTO.cpp): `!pto.vreg<64xf32>` (one 256-byte register as lanes), `!pto.mask<b32>` (a predicate read
 * at a lane granularity) and `!pto.align` (the alignment state of unaligned loads and stores, no parameters).
 */
export const MICRO_TYPE_NAMES = ['pto.vreg', 'pto.mask', 'pto.align'];

/** The type a micro-level type's name and body (`<...>`, or undefined) spell, or what is wrong with them. */
export function microType(name: string, body: string | undefined): { type: Type } | { error: string } {
  const spelled = `!${name}${body ?? ''}`;
  const inner = body?.slice(1, -1).trim();
  switch (name) {
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
