import { ElemType, elemBits, elemTypeName, isInteger, isStoredFormat, printType } from '../../types/type';
import type { MicroCheck, MicroCheckContext } from '../checks';

/**
 * Verifier rules of vector-core rows that their fields do not express, after PTOAS e32488c9's lib/PTO/IR/VPTO.cpp.
 */

/** PTOAS's spellings of a token and the one each means (VPTO.cpp's normalize*Token): `ROUND_R` is R, `RS_ENABLE` SAT. */
const ROUND_TOKENS: Record<string, string> = Object.fromEntries(
  ['R', 'A', 'F', 'C', 'Z', 'O', 'H'].flatMap((m) => [
    [m, m],
    [`ROUND_${m}`, m],
  ]),
);
const SAT_TOKENS: Record<string, string> = { SAT: 'SAT', RS_ENABLE: 'SAT', NOSAT: 'NOSAT', RS_DISABLE: 'NOSAT' };
const PART_TOKENS: Record<string, string> = Object.fromEntries(
  ['EVEN', 'ODD', 'P0', 'P1', 'P2', 'P3'].flatMap((p) => [
    [p, p],
    [`PART_${p}`, p],
  ]),
);

/** vcvt's attributes as VcvtOp's parser normalizes them (`round_mode` is the old name of `rnd`); undefined: absent or not a token. */
export function vcvtTokens(text: (name: string) => string | undefined): { rnd?: string; sat?: string; part?: string } {
  const rnd = text('rnd') ?? text('round_mode');
  const sat = text('sat');
  const part = text('part');
  return { rnd: rnd && ROUND_TOKENS[rnd], sat: sat && SAT_TOKENS[sat], part: part && PART_TOKENS[part] };
}

/**
 * The class of a vcvt element (VPTO.cpp's classifyVcvtElemType): integers by width and signedness (a signless
 * integer is signed), u64 none.
 */
function vcvtKind(e: ElemType): string | undefined {
  switch (e) {
    case 'f16':
    case 'bf16':
    case 'f32':
    case 'i8':
    case 'u8':
    case 'i16':
    case 'u16':
    case 'i32':
    case 'u32':
    case 'i64':
      return e;
    case 'f8E4M3FN':
      return 'f8e4m3';
    case 'f8E5M2':
      return 'f8e5m2';
    case '!pto.hif8':
      return 'hif8';
    case '!pto.f4E1M2x2':
    case '!pto.f4E2M1x2':
      return 'f4x2';
    default:
      return undefined;
  }
}

/**
 * A legal pair's contract (VPTO.cpp's lookupVcvtContract): which of rnd, sat and part it requires (each is required
 * exactly when the pair has it: `r`, `s`, `p`), a part family fixed by the pair (`4`: P0-P3) where the widths alone
 * would say otherwise, and the round modes allowed (absent: any).
 */
interface VcvtContract {
  flags: string;
  packed4?: boolean;
  modes?: string;
}
const c = (flags: string, modes?: string, packed4?: boolean): VcvtContract => ({ flags, modes, packed4 });
const VCVT_CONTRACTS: Record<string, Record<string, VcvtContract>> = {
  f32: {
    f8e4m3: c('rsp', 'RAHZ', true),
    f8e5m2: c('rsp', 'RAHZ', true),
    hif8: c('rsp', 'AH', true),
    f16: c('rsp'),
    bf16: c('rsp'),
    i16: c('rsp'),
    i64: c('rsp'),
    i32: c('rs'),
  },
  f16: { f8e4m3: c('rsp', 'RAFZC'), f8e5m2: c('rsp', 'RAFZC'), hif8: c('rsp', 'AH'), f32: c('p'), i32: c('rp'), i16: c('rs'), i8: c('rsp'), u8: c('rsp') },
  bf16: { f8e4m3: c('rsp', 'RAFZC'), f8e5m2: c('rsp', 'RAFZC'), f4x2: c('rp', 'RAFZC', true), f16: c('rs'), f32: c('p'), i32: c('rsp') },
  u8: { f16: c('p'), u16: c('p'), u32: c('p') },
  i8: { f16: c('p'), i16: c('p'), i32: c('p') },
  u16: { u8: c('sp'), u32: c('p') },
  i16: { f16: c('r'), f32: c('p'), u32: c('p'), i32: c('p'), u8: c('sp') },
  u32: { u8: c('sp'), u16: c('sp'), i16: c('sp') },
  i32: { f32: c('r'), u8: c('sp'), u16: c('sp'), i16: c('sp'), i64: c('p') },
  i64: { f32: c('rp'), i32: c('sp') },
  f8e4m3: { f32: c('p', undefined, true) },
  f8e5m2: { f32: c('p', undefined, true) },
  hif8: { f32: c('p', undefined, true) },
  f4x2: { bf16: c('p', undefined, true) },
};

/** VcvtOp's parser and verifier: a legal (source, result) pair, a mask of the source's width, and the pair's rnd/sat/part. */
function vcvt(c: MicroCheckContext): void {
  const input = c.value('input');
  const result = c.value('result');
  const mask = c.value('mask');
  const text = (name: string) => {
    const a = c.attr(name);
    return a?.kind === 'string' ? a.value : undefined;
  };
  const attrSpan = (name: string) => c.attr(name)?.span ?? c.v.op.nameSpan;
  if (c.attr('rnd') && c.attr('round_mode')) return c.err(attrSpan('round_mode'), 'rnd and round_mode cannot be specified together');
  const tokens = vcvtTokens(text);
  for (const [name, value] of [
    ['round_mode', tokens.rnd],
    ['rnd', tokens.rnd],
    ['sat', tokens.sat],
    ['part', tokens.part],
  ] as const) {
    if (text(name) !== undefined && value === undefined) return c.err(attrSpan(name), `${name} has unsupported value '${text(name)}'`);
  }
  if (input?.type?.kind !== 'vreg' || result?.type?.kind !== 'vreg') return;
  const [from, to] = [input.type.elem, result.type.elem];
  const [src, dst] = [vcvtKind(from), vcvtKind(to)];
  const contract = src && dst ? VCVT_CONTRACTS[src]?.[dst] : undefined;
  if (!contract) return c.err(result.span, `unsupported vcvt source/result element type pair (${elemTypeName(from)} -> ${elemTypeName(to)})`);
  const [srcBits, dstBits] = [elemBits(from), elemBits(to)];
  const granularity = `b${Math.min(srcBits, 32)}`;
  if (mask?.type?.kind === 'mask' && mask.type.granularity !== granularity)
    return c.err(mask.span, `mask type must be !pto.mask<${granularity}> for ${elemTypeName(from)} input, got !pto.mask<${mask.type.granularity}>`);
  const rndName = c.attr('rnd') ? 'rnd' : 'round_mode';
  if (tokens.rnd && contract.modes && !contract.modes.includes(tokens.rnd))
    return c.err(attrSpan(rndName), `rnd attr is not valid for this vcvt type pair (${contract.modes.split('').join('/')})`);
  const presence = [
    ['rnd', 'r', tokens.rnd, rndName],
    ['sat', 's', tokens.sat, 'sat'],
    ['part', 'p', tokens.part, 'part'],
  ] as const;
  for (const [what, flag, value, name] of presence) {
    if (what === 'part' && value) {
      const family =
        contract.packed4 || Math.max(srcBits, dstBits) === 4 * Math.min(srcBits, dstBits)
          ? 4
          : Math.max(srcBits, dstBits) === 2 * Math.min(srcBits, dstBits)
            ? 2
            : 0;
      if (family === 0) return c.err(attrSpan(name), 'part attr is not supported for this vcvt width relation');
      if (family === 2 && value !== 'EVEN' && value !== 'ODD') return c.err(attrSpan(name), 'part must be EVEN or ODD for 8/16 and 16/32 vcvt forms');
      if (family === 4 && !/^P[0-3]$/.test(value)) return c.err(attrSpan(name), 'part must be P0, P1, P2, or P3 for packed vcvt forms');
    }
    const required = contract.flags.includes(flag);
    if (required !== (value !== undefined))
      return c.err(
        required ? c.v.op.nameSpan : attrSpan(name),
        required ? `requires ${what} attr for this vcvt type pair` : `${what} attr is not valid for this vcvt type pair`,
      );
  }
}

/** A post-incrementing access's updated base has its base's pointer type (VldsOp/VstsOp::verify). */
function updatedBase(c: MicroCheckContext, base: string): void {
  const [b, u] = [c.value(base), c.value('updated_base')];
  if (b?.type && u?.type && printType(b.type) !== printType(u.type))
    c.err(u.span, `requires updated base result to match base type (${printType(b.type)}, got ${printType(u.type)})`);
}

/**
 * The mask a store distribution reads at its own width (VPTO.cpp's getVstsMaskGranularityOverride): PK_B16 a b16
 * mask, PK_B32, PK_B64 and PK4_B32 a b32 one (MRG* trap at run time); other distributions a mask of the value's
 * element width (PTOValidateVPTOIR's validateMaskMatchesVectorFamily).
 */
const VSTS_MASK: Record<string, string> = {
  PK_B16: 'b16',
  PK_B32: 'b32',
  PK_B64: 'b32',
  PK4_B32: 'b32',
  MRG4CHN_B8: 'b32',
  MRG2CHN_B8: 'b16',
  MRG2CHN_B16: 'b32',
};

function vsts(c: MicroCheckContext): void {
  updatedBase(c, 'destination');
  const [value, mask] = [c.value('value'), c.value('mask')];
  const dist = c.attr('dist');
  if (value?.type?.kind !== 'vreg' || mask?.type?.kind !== 'mask') return;
  const bits = elemBits(value.type.elem);
  const expected = (dist?.kind === 'string' ? VSTS_MASK[dist.value] : undefined) ?? (bits === 8 || bits === 16 || bits === 32 ? `b${bits}` : undefined);
  if (expected && mask.type.granularity !== expected)
    c.err(mask.span, `mask type ${printType(mask.type)} does not match value type ${printType(value.type)}; expected !pto.mask<${expected}>`);
}

/**
 * The element of a vreg operand as the op's signature writes it (`si16`, `i16`, `ui16`); undefined when written
 * through an alias. The vreg type reads si16 and signless i16 as one element type (the lanes hold the same bits),
 * where PTOAS's verifiers tell a signed integer from a signless one.
 */
function writtenElem(c: MicroCheckContext, name: string): string | undefined {
  const i = c.b.operands[name]?.[0];
  const ref = i === undefined ? undefined : c.b.operandTypes.get(i);
  return ref ? /^!pto\.vreg<\s*\d+\s*x\s*(\w+)\s*>$/.exec(ref.text.trim())?.[1] : undefined;
}

/**
 * vshl/vshr (VPTO.cpp's verifyShiftVecOp): integer lanes, the result lhs's type, counts of lhs's width and a signed
 * type (`siN`: a signless or unsigned count is rejected; frontends bitcast theirs).
 */
function shift(c: MicroCheckContext): void {
  const [lhs, rhs, result] = [c.value('lhs'), c.value('rhs'), c.value('result')];
  if (lhs?.type?.kind !== 'vreg' || rhs?.type?.kind !== 'vreg' || lowPrecision(c, 'lhs')) return;
  if (!isInteger(lhs.type.elem)) return c.err(lhs.span, 'requires integer vector element type');
  if (result?.type && printType(result.type) !== printType(lhs.type)) return c.err(result.span, 'requires matching result register vector shape');
  if (!isInteger(rhs.type.elem)) return c.err(rhs.span, 'requires integer vector element type for shift count');
  if (elemBits(rhs.type.elem) !== elemBits(lhs.type.elem)) return c.err(rhs.span, 'requires shift count with matching element bitwidth');
  const spelled = writtenElem(c, 'rhs');
  if (rhs.type.elem.startsWith('u') || (spelled !== undefined && !spelled.startsWith('si')))
    c.err(rhs.span, 'requires shift count to use a signed integer element type');
}

/** PldiOp/PstiOp::verify: the offset an integer constant (an immediate of the instruction). */
function immediateOffset(c: MicroCheckContext): void {
  const offset = c.b.operands.offset?.[0];
  if (offset !== undefined && c.v.constant(offset) === undefined) c.err(c.v.op.operands[offset].span, 'requires offset to be a constant index immediate');
}

/** PstuOp::verify: a b16 mask with a ui16 base, a b32 one with ui32; base_out of the base's type. */
function pstu(c: MicroCheckContext): void {
  const [value, base, out] = [c.value('value'), c.value('base'), c.value('base_out')];
  if (base?.type && out?.type && printType(base.type) !== printType(out.type)) c.err(out.span, 'requires base and base_out to have identical types');
  if (value?.type?.kind !== 'mask' || base?.type?.kind !== 'ptr') return;
  const want: ElemType | undefined = value.type.granularity === 'b16' ? 'u16' : value.type.granularity === 'b32' ? 'u32' : undefined;
  if (want !== base.type.elem)
    c.err(base.span, `requires !pto.mask<${value.type.granularity}> to pair with ${want ? `!pto.ptr<${elemTypeName(want)}, ub>` : 'a b16 or b32 mask'}`);
}

/** PpackOp/PunpackOp::verify: the result's granularity the input's, or one step narrower (ppack) or wider (punpack). */
const GRANULARITIES = ['b8', 'b16', 'b32'];
function granularityStep(step: -1 | 1, verb: string): MicroCheck {
  return (c) => {
    const [input, result] = [c.value('input'), c.value('result')];
    if (input?.type?.kind !== 'mask' || result?.type?.kind !== 'mask') return;
    const [from, to] = [GRANULARITIES.indexOf(input.type.granularity), GRANULARITIES.indexOf(result.type.granularity)];
    if (to !== from && to !== from + step) c.err(result.span, `requires result mask granularity to match the input or ${verb} by one step`);
  };
}

const intOfWidth = (e: ElemType, bits: number) => isInteger(e) && elemBits(e) === bits;

/**
 * Vgather2Op::verify: by the source's element width, the result (i8/ui8 -> i16/ui16 of the same signedness; 16- and
 * 32-bit integers of the same width and signedness, f16/bf16/f32 the same type), the lane count (128 or 64), offsets
 * of the lanes' width and a mask of it.
 */
function vgather2(c: MicroCheckContext): void {
  const [source, offsets, result, mask] = [c.value('source'), c.value('offsets'), c.value('result'), c.value('mask')];
  if (source?.type?.kind !== 'ptr' || offsets?.type?.kind !== 'vreg' || result?.type?.kind !== 'vreg') return;
  const [src, out, off] = [source.type.elem, result.type.elem, offsets.type.elem];
  if (!isInteger(off)) return c.err(offsets.span, 'offset vector must use integer element type');
  const unsigned = (e: ElemType) => e.startsWith('u');
  const bits = elemBits(src);
  let ok: boolean;
  if (bits === 8 && isInteger(src)) ok = intOfWidth(out, 16) && unsigned(out) === unsigned(src);
  else if (bits === 16 || bits === 32) ok = isInteger(src) ? intOfWidth(out, bits) && unsigned(out) === unsigned(src) : src === out && src !== 'i1';
  else return c.err(source.span, 'requires source element type i8/ui8/i16/ui16/i32/ui32/f16/bf16/f32');
  if (!ok || (bits !== 8 && isInteger(src) !== isInteger(out)))
    return c.err(result.span, `a gather from ${elemTypeName(src)} elements requires a matching result, got ${printType(result.type)}`);
  const width = bits === 32 ? 32 : 16;
  // Unsigned or signless offsets (isUnsignedOrSignlessIntegerOfWidth): a signed `siN` offset vector is rejected.
  if (elemBits(off) !== width || writtenElem(c, 'offsets')?.startsWith('si'))
    return c.err(offsets.span, `requires ui${width}/i${width} offset vector elements`);
  if (mask?.type?.kind === 'mask' && mask.type.granularity !== `b${width}`)
    c.err(mask.span, `mask type must be !pto.mask<b${width}>, got ${printType(mask.type)}`);
}

/** VgatherbOp and Vgather2BcOp::verify: 32-bit integer offsets (vgather2_bc: as many as result lanes). */
function offsets32(sameCount: boolean): MicroCheck {
  return (c) => {
    const [offsets, result] = [c.value('offsets'), c.value('result')];
    if (offsets?.type?.kind !== 'vreg' || result?.type?.kind !== 'vreg') return;
    if (!isInteger(offsets.type.elem)) return c.err(offsets.span, 'offset vector must use integer element type');
    if (elemBits(offsets.type.elem) !== 32) return c.err(offsets.span, 'currently requires 32-bit offset vector elements');
    if (sameCount && elemBits(offsets.type.elem) !== elemBits(result.type.elem))
      c.err(offsets.span, 'offset and result vectors must have the same element count');
  };
}

/** VscatterOp::verify: 8/16/32-bit values, offsets of 16 bits (32 for 32-bit values), a mask of that width, the destination's element the value's. */
function vscatter(c: MicroCheckContext): void {
  const [value, offsets, mask, destination] = [c.value('value'), c.value('offsets'), c.value('mask'), c.value('destination')];
  if (value?.type?.kind !== 'vreg' || offsets?.type?.kind !== 'vreg') return;
  if (!isInteger(offsets.type.elem)) return c.err(offsets.span, 'offset vector must use integer element type');
  const bits = elemBits(value.type.elem);
  if (bits !== 8 && bits !== 16 && bits !== 32) return c.err(value.span, 'requires 8-, 16-, or 32-bit value elements');
  const width = bits === 32 ? 32 : 16;
  if (elemBits(offsets.type.elem) !== width) return c.err(offsets.span, `requires ${width}-bit offset vector elements for ${bits}-bit values`);
  if (mask?.type?.kind === 'mask' && mask.type.granularity !== `b${width}`)
    return c.err(mask.span, `mask type must be !pto.mask<b${width}>, got ${printType(mask.type)}`);
  if (destination?.type?.kind === 'ptr' && destination.type.elem !== value.type.elem)
    c.err(destination.span, 'requires destination element type to match value element type');
}

/**
 * VPTO.cpp's verifyNonLowPrecisionVRegElementTypeLike: the lane ops (binary, unary, vector-scalar, vsel, vsqz, the
 * shifts) take no low-precision lanes (fp8, hif8, e8m0, fp4, hif8x2, bf16x2: the stored formats); those live only
 * in loads, stores and conversions. The role names the operand the rule reads.
 */
function lowPrecision(c: MicroCheckContext, name: string): boolean {
  const value = c.value(name);
  if (value?.type?.kind !== 'vreg' || !isStoredFormat(value.type.elem)) return false;
  c.err(
    value.span,
    `${name} type must not use low-precision vector element type; low-precision vreg elements are only supported on explicit memory/conversion ops such as vlds/vsts/vcvt/vpack`,
  );
  return true;
}

/**
 * Integer vdiv (PTOAS's PTOExpandSoftLib): only i16 lanes with a b16 mask and i32 lanes with a b32 mask have a
 * software-library expansion; ui16, ui32 and other integer widths are rejected at compile time.
 */
function vdiv(c: MicroCheckContext): void {
  if (lowPrecision(c, 'lhs')) return;
  const [result, mask] = [c.value('result'), c.value('mask')];
  if (result?.type?.kind !== 'vreg' || !isInteger(result.type.elem)) return;
  const elem = result.type.elem;
  const want = elem === 'i16' ? 'b16' : 'b32';
  if ((elem !== 'i16' && elem !== 'i32') || (mask?.type?.kind === 'mask' && mask.type.granularity !== want))
    c.err(
      c.v.op.nameSpan,
      `A5 integer pto.vdiv is not supported for ${printType(result.type)}${mask?.type ? ` with mask ${printType(mask.type)}` : ''}; only signed or signless i16 vectors with a b16 mask and i32 vectors with a b32 mask are materialized through the A5 Software Library`,
    );
}

/** VmulscvtOp::verify: f32 lanes in, f16 lanes out. */
function vmulscvt(c: MicroCheckContext): void {
  const [input, result] = [c.value('input'), c.value('result')];
  if (input?.type?.kind === 'vreg' && input.type.elem !== 'f32') return c.err(input.span, 'requires f32 input vector element type');
  if (result?.type?.kind === 'vreg' && result.type.elem !== 'f16') c.err(result.span, 'requires f16 result vector element type');
}

/** verifyHistogramOp: acc and result !pto.vreg<128xi16> (either signedness), the samples !pto.vreg<256xui8>/<256xi8>. */
function histogram(c: MicroCheckContext): void {
  for (const [name, bits] of [
    ['acc', 16],
    ['result', 16],
    ['source', 8],
  ] as const) {
    const v = c.value(name);
    if (v?.type?.kind === 'vreg' && !intOfWidth(v.type.elem, bits)) c.err(v.span, `requires ${name} type to be !pto.vreg<${2048 / bits}xi${bits}>`);
  }
}

/** Vmrgsort4Op::verify: the destination and the four sources of one element type, f16 or f32. */
function vmrgsort4(c: MicroCheckContext): void {
  const dst = c.value('destination');
  if (dst?.type?.kind !== 'ptr') return;
  if (dst.type.elem !== 'f16' && dst.type.elem !== 'f32') return c.err(dst.span, 'requires f16 or f32 element type');
  for (const name of ['source0', 'source1', 'source2', 'source3']) {
    const src = c.value(name);
    if (src?.type?.kind === 'ptr' && src.type.elem !== dst.type.elem)
      return c.err(src.span, 'requires destination and all sources to have the same element type');
  }
}

export const VECTOR_CHECKS: Record<string, MicroCheck> = {
  vmrgsort4,
  vmulscvt,
  histogram,
  vdiv,
  laneLhs: (c) => void lowPrecision(c, 'lhs'),
  laneInput: (c) => void lowPrecision(c, 'input'),
  laneSrc0: (c) => void lowPrecision(c, 'src0'),
  // vand/vor/vxor take 8-bit low-precision payloads, but not bf16x2 (verifyBinaryVecOp's allowLowPrecision).
  bitwise: (c) => {
    const lhs = c.value('lhs');
    if (lhs?.type?.kind === 'vreg' && lhs.type.elem === '!pto.bf16x2')
      c.err(lhs.span, 'does not support bf16x2 vector elements; low-precision bitwise operations require an 8-bit payload type');
  },
  vgather2,
  vgatherb: offsets32(false),
  vgather2_bc: offsets32(true),
  vscatter,
  ppack: granularityStep(-1, 'narrow'),
  punpack: granularityStep(1, 'widen'),
  pstu,
  vldus: (c) => updatedBase(c, 'source'),
  vstus: (c) => {
    const [b, u] = [c.value('base'), c.value('base_out')];
    if (b?.type && u?.type && printType(b.type) !== printType(u.type))
      c.err(u.span, `requires updated base result to match base type (${printType(b.type)}, got ${printType(u.type)})`);
  },
  immediateLoad: (c) => {
    updatedBase(c, 'source');
    immediateOffset(c);
  },
  immediateStore: (c) => {
    updatedBase(c, 'destination');
    immediateOffset(c);
  },
  store: (c) => updatedBase(c, 'destination'),
  shift,
  // VexpdifOp::verify: f32 lanes out, whatever the source.
  vexpdif: (c) => {
    const result = c.value('result');
    if (result?.type?.kind === 'vreg' && result.type.elem !== 'f32') c.err(result.span, 'requires f32 result vector element type');
  },
  vcvt,
  vsts,
  vlds: (c) => updatedBase(c, 'source'),
};
