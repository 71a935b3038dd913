import { VmiVregType, elemBits, isInteger } from '../../types/type';
import type { MicroCheck } from '../checks';

/**
 * pto.vmi.vcvt's contract (lib/PTO/IR/VMI.cpp, VMICvtOp::verify and the lookupVMIFp*Contract tables): the direction
 * follows the element types, and each direction takes or refuses `rounding` and `saturate`. Signless integers are
 * unsigned; an integer source of an int -> fp conversion must be spelled signed (`siN`).
 */

export type CvtDirection = 'FpWiden' | 'FpNarrow' | 'FpToSi' | 'FpToUi' | 'SiToFp' | 'IntWiden' | 'IntNarrow';

const PACKED_CARRIERS = ['!pto.hif8x2', '!pto.f4E1M2x2', '!pto.f4E2M1x2', '!pto.bf16x2'];
const isFp4 = (t: VmiVregType) => t.spelled === '!pto.f4E1M2x2' || t.spelled === '!pto.f4E2M1x2';
const isFloatLike = (t: VmiVregType) => !isInteger(t.elem) && t.elem !== 'index';
const isSigned = (t: VmiVregType) => t.spelled.startsWith('si');
const bits = (t: VmiVregType) => (t.elem === 'index' ? 64 : elemBits(t.elem));

/** lookupVMIFpToFpContract: the packed fp4 pairs and same-width bf16 -> f16. */
export function fpToFpContract(from: VmiVregType, to: VmiVregType): { requiresSat: boolean; rnd?: string } | undefined {
  if (from.spelled === '!pto.bf16x2' && isFp4(to)) return { requiresSat: false, rnd: 'RAFZC' };
  if (isFp4(from) && to.spelled === '!pto.bf16x2') return { requiresSat: false };
  if (from.elem === 'bf16' && to.elem === 'f16') return { requiresSat: true };
  return undefined;
}

/** lookupVMIFpToSiContract / lookupVMIFpToUIContract: whether the pair exists and needs `saturate`. */
function fpToIntContract(from: VmiVregType, to: VmiVregType, signed: boolean): { requiresSat: boolean } | undefined {
  const key = `${from.spelled}>${bits(to)}`;
  if (!signed) return key === 'f16>8' ? { requiresSat: true } : undefined;
  const table: Record<string, boolean> = { 'f32>32': true, 'f32>16': true, 'f16>32': false, 'f16>16': true, 'f16>8': true, 'bf16>32': true };
  return key in table ? { requiresSat: table[key] } : undefined;
}

/** The direction of a conversion, or VMI.cpp's message for a pair it refuses. */
export function cvtDirection(from: VmiVregType, to: VmiVregType): CvtDirection | { error: string } {
  const [sb, db] = [bits(from), bits(to)];
  const [sf, df] = [isFloatLike(from), isFloatLike(to)];
  const contract = sf && df ? fpToFpContract(from, to) : undefined;
  if ((from.spelled === '!pto.bf16x2' || to.spelled === '!pto.bf16x2') && !contract) return { error: 'unsupported conversion involving bf16x2 element type' };
  if (sf && df && (PACKED_CARRIERS.includes(from.spelled) || PACKED_CARRIERS.includes(to.spelled)) && !contract)
    return { error: 'unsupported packed fp-to-fp conversion element type pair' };
  if (sf && df) {
    if (db !== sb) return db > sb ? 'FpWiden' : 'FpNarrow';
    return contract ? 'FpNarrow' : { error: 'same-width fp-to-fp conversion is not supported for this type pair; see lookupVMIFpToFpContract' };
  }
  if (sf) return isSigned(to) ? 'FpToSi' : 'FpToUi';
  if (df) return isSigned(from) ? 'SiToFp' : { error: 'int-to-fp conversion requires explicitly signed integer source element type' };
  if (db === sb) return { error: 'int-to-int conversion must change element bit-width' };
  return db > sb ? 'IntWiden' : 'IntNarrow';
}

export const vmiConvertCheck: MicroCheck = (c) => {
  const [source, result] = ['source', 'result'].map((n) => c.value(n));
  if (source?.type?.kind !== 'vmi_vreg' || result?.type?.kind !== 'vmi_vreg') return;
  const [from, to] = [source.type, result.type];
  const at = c.v.op.nameSpan;
  if (from.lanes !== to.lanes) return c.err(result.span, 'requires source and result logical lane counts to match');
  const dir = cvtDirection(from, to);
  if (typeof dir !== 'string') return c.err(at, dir.error);
  const contract = isFloatLike(from) && isFloatLike(to) ? fpToFpContract(from, to) : undefined;
  const rounding = c.attr('rounding');
  if (rounding) {
    const rnd = rounding.kind === 'string' ? rounding.value : '';
    if (dir !== 'FpNarrow' && dir !== 'FpToSi' && dir !== 'FpToUi')
      return c.err(rounding.span, "'rounding' attribute is only valid for floating-point narrowing or floating-point-to-integer conversions");
    if (rnd.length !== 1) return c.err(rounding.span, 'rounding must be a single-character mode token');
    if (dir === 'FpNarrow') {
      if (!(contract?.rnd ?? 'RAHZ').includes(rnd))
        return c.err(
          rounding.span,
          contract?.rnd
            ? 'rounding is not valid for this fp-to-fp conversion type pair'
            : "rounding must be 'R' (nearest-even), 'A' (away-from-zero), 'H' (half-up), or 'Z' (toward-zero)",
        );
    } else if (!'RAFCZ'.includes(rnd)) return c.err(rounding.span, "rounding must be 'R', 'A', 'F', 'C', or 'Z' for floating-point-to-integer conversions");
  }
  const saturate = c.attr('saturate');
  const sat = saturate?.kind === 'string' ? saturate.value : saturate ? '' : undefined;
  const satToken = () => (sat === 'SAT' || sat === 'NOSAT' ? true : (c.err(saturate!.span, "saturate must be 'SAT' or 'NOSAT'"), false));
  if (dir === 'FpToSi' || dir === 'FpToUi') {
    const kind = dir === 'FpToSi' ? 'fp-to-si' : 'fp-to-ui';
    const pair = fpToIntContract(from, to, dir === 'FpToSi');
    if (!pair) return c.err(at, `unsupported ${kind} conversion element type pair`);
    if (pair.requiresSat && sat === undefined) return c.err(at, `'saturate' attribute is required for this ${kind} conversion; write 'SAT' or 'NOSAT'`);
    if (pair.requiresSat && !satToken()) return;
    if (!pair.requiresSat && saturate) return c.err(saturate.span, `'saturate' attribute is not valid for this ${kind} conversion (no overflow possible)`);
  } else {
    const needSat = dir === 'IntNarrow' || (dir === 'FpNarrow' && (!contract || contract.requiresSat));
    if (needSat) {
      if (sat === undefined) return c.err(at, "'saturate' attribute is required for fp-narrow / int-narrow conversions; write 'SAT' or 'NOSAT'");
      if (!satToken()) return;
      // si32 -> si8 has no native form: the lowering aliases it through ui32 -> ui8, equal under NOSAT only.
      if (dir === 'IntNarrow' && sat === 'SAT' && bits(from) === 32 && bits(to) === 8 && isSigned(from) && isSigned(to))
        return c.err(saturate!.span, 'si32 -> si8 int-narrow does not support saturate="SAT" (no native hardware form; only saturate="NOSAT" is allowed)');
    } else if (saturate && dir === 'FpNarrow')
      return c.err(saturate.span, "'saturate' attribute is not valid for this fp-to-fp narrow conversion (no saturation)");
    else if (saturate) return c.err(saturate.span, "'saturate' attribute is only valid for fp-narrow / int-narrow conversions");
  }
  const pmode = c.attr('pmode');
  if (pmode && !(pmode.kind === 'string' && (pmode.value === 'merge' || pmode.value === 'zero'))) c.err(pmode.span, "pmode must be 'merge' or 'zero'");
};

/**
 * The legacy conversions (extf, truncf, fptosi, fptoui, sitofp, extsi, extui, trunci): VMI.cpp's verifier of each,
 * with its own messages ("saturate attr must be ...").
 */
export const legacyConvertCheck: MicroCheck = (c) => {
  const [source, result] = ['source', 'result'].map((n) => c.value(n));
  if (source?.type?.kind !== 'vmi_vreg' || result?.type?.kind !== 'vmi_vreg') return;
  const [from, to] = [source.type, result.type];
  const at = c.v.op.nameSpan;
  const name = c.row.name.slice('pto.vmi.'.length);
  if (from.lanes !== to.lanes) return c.err(result.span, 'requires source and result logical lane counts to match');
  const problem = legacyProblem(name, from, to, (n) => {
    const a = c.attr(n);
    return a ? (a.kind === 'string' ? a.value : '') : undefined;
  });
  if (problem) c.err(at, problem);
};

function legacyProblem(name: string, from: VmiVregType, to: VmiVregType, attr: (name: string) => string | undefined): string | undefined {
  const [sb, db] = [bits(from), bits(to)];
  const unsignedLike = (t: VmiVregType) => isInteger(t.elem) && !isSigned(t);
  const sat = attr('saturate');
  const rounding = attr('rounding');
  const satToken = sat === undefined || sat === 'SAT' || sat === 'NOSAT' ? undefined : "saturate attr must be 'SAT' or 'NOSAT'";
  const wider = 'requires result element type to be wider than source element type';
  const fpToInt = (kind: 'si' | 'ui'): string | undefined => {
    if (!isFloatLike(from)) return 'requires floating-point-like source element type';
    if (kind === 'si' ? !isSigned(to) : !unsignedLike(to))
      return kind === 'si' ? 'requires signed integer result element type' : 'requires unsigned or signless integer result element type';
    const pair = fpToIntContract(from, to, kind === 'si');
    if (!pair) return `unsupported fp-to-${kind} conversion element type pair`;
    if (rounding !== undefined && !['R', 'A', 'F', 'C', 'Z'].includes(rounding)) return 'rounding attr must be R, A, F, C, or Z';
    if (pair.requiresSat) return sat === undefined ? `'saturate' attribute is required for this fp-to-${kind} conversion (SAT or NOSAT)` : satToken;
    return sat !== undefined ? `'saturate' attribute is not valid for this fp-to-${kind} conversion (no overflow possible)` : undefined;
  };
  switch (name) {
    case 'extsi':
      return !isSigned(from) || !isSigned(to) ? 'requires signed integer source and result element types' : sb >= db ? wider : undefined;
    case 'extui':
      return !unsignedLike(from) || !unsignedLike(to) ? 'requires unsigned or signless integer source and result element types' : sb >= db ? wider : undefined;
    case 'extf':
      if (!isFloatLike(from) || !isFloatLike(to)) return 'requires floating-point-like source and result element types';
      if ((from.spelled === '!pto.bf16x2' || to.spelled === '!pto.bf16x2') && !fpToFpContract(from, to))
        return 'unsupported bf16x2 fp-to-fp conversion element type pair';
      return sb >= db ? wider : undefined;
    case 'trunci':
      if (!isInteger(from.elem) || !isInteger(to.elem)) return 'requires integer source and result element types';
      if (sb <= db) return 'requires result element type to be narrower than source element type';
      return sat === undefined ? "'saturate' attribute is required (SAT or NOSAT)" : satToken;
    case 'truncf': {
      const contract = fpToFpContract(from, to);
      if (!isFloatLike(from) || !isFloatLike(to)) return 'requires floating-point-like source and result element types';
      if ((from.spelled === '!pto.bf16x2' || to.spelled === '!pto.bf16x2') && !contract) return 'unsupported bf16x2 fp-to-fp conversion element type pair';
      if ((PACKED_CARRIERS.includes(from.spelled) || PACKED_CARRIERS.includes(to.spelled)) && !contract)
        return 'unsupported packed fp-to-fp conversion element type pair';
      if (sb < db) return 'requires result element type to be narrower than or same-width as source element type';
      if (sb === db && !contract) return 'same-width fp-to-fp conversion is not supported for this type pair; see lookupVMIFpToFpContract';
      if (rounding !== undefined) {
        if (rounding.length !== 1) return 'rounding attr must be a single-character mode token';
        if (!(contract?.rnd ?? 'RAHZ').includes(rounding))
          return contract?.rnd ? 'rounding attr is not valid for this fp-to-fp conversion type pair' : 'rounding attr must be R, A, H, or Z';
      }
      if (!contract || contract.requiresSat) return sat === undefined ? "'saturate' attribute is required (SAT or NOSAT)" : satToken;
      return sat !== undefined ? "'saturate' attribute is not valid for this fp-to-fp narrow conversion (no saturation)" : undefined;
    }
    case 'fptosi':
      return fpToInt('si');
    case 'fptoui':
      return fpToInt('ui');
    case 'sitofp':
      if (!isSigned(from)) return 'requires signed integer source element type';
      if (!isFloatLike(to)) return 'requires floating-point-like result element type';
      if (sb !== 32) return 'requires 32-bit integer source element type';
      return to.elem !== 'f32' ? 'requires f32 result element type' : undefined;
  }
  return undefined;
}
