import { ElemType, isFloat } from '../../../types/type';
import { x86Nan } from '../../../numerics/arithmetic';
import { Scalar, codec } from '../../../numerics/elements';
import { saturateF16, saturates } from '../../../numerics/saturation';
import { InstructionContext, NumericsProfile, SemanticsModule } from './context';
import { mapFloat1 } from '../../../machine/tile-loops';

export const UNARY_OPERATIONS = ['exp', 'log', 'sqrt', 'rsqrt', 'recip', 'abs', 'neg', 'relu', 'not'] as const;
type UnaryName = (typeof UNARY_OPERATIONS)[number];

/** The float formats' bit layout, for the ops that work on the sign bit and for NaN payloads. */
const FLOAT_BITS: Partial<Record<ElemType, { size: 2 | 4; sign: number; exponentMask: number; mantissaMask: number; quiet: number }>> = {
  f16: { size: 2, sign: 0x8000, exponentMask: 0x7c00, mantissaMask: 0x3ff, quiet: 0x200 },
  bf16: { size: 2, sign: 0x8000, exponentMask: 0x7f80, mantissaMask: 0x7f, quiet: 0x40 },
  f32: { size: 4, sign: 0x80000000, exponentMask: 0x7f800000, mantissaMask: 0x7fffff, quiet: 0x400000 },
};
type FloatBits = NonNullable<(typeof FLOAT_BITS)[ElemType]>;

const isNaNBits = (bits: number, f: FloatBits) => (bits & f.exponentMask) >>> 0 === f.exponentMask && (bits & f.mantissaMask) !== 0;

/**
 * An op on the bit pattern of a float element: sign-bit ops (abs, neg, relu) are exact there, and NaN payloads
 * survive (x86 negates and compares bit patterns; a JS number would canonicalise the NaN).
 */
type BitsOp = (bits: number, value: number) => number;

function signOp(name: 'abs' | 'neg' | 'relu', f: FloatBits, numerics: NumericsProfile): BitsOp {
  const flip = (bits: number) => (bits ^ f.sign) >>> 0;
  switch (name) {
    case 'neg':
      return flip;
    case 'abs':
      // cpu-sim: `src < 0 ? -src : src` leaves -0 and NaN alone; npu: vabs clears the sign bit.
      return numerics === 'cpu-sim' ? (bits, v) => (v < 0 ? flip(bits) : bits) : (bits) => (bits & ~f.sign) >>> 0;
    case 'relu':
      // cpu-sim: std::max(src, 0) = (src < 0 ? 0 : src), so -0 and NaN stay; npu: vrelu gives +0 for -0, NaN stays NaN.
      return numerics === 'cpu-sim' ? (bits, v) => (v < 0 ? 0 : bits) : (bits, v) => (v > 0 || isNaNBits(bits, f) ? bits : 0);
  }
}

/** The float math ops in double, before the rounding to the element type (cpu-sim: the simulator's C++ expressions). */
function floatMath(name: 'exp' | 'log' | 'sqrt' | 'rsqrt' | 'recip', dtype: ElemType, ctx: InstructionContext): (x: number) => number {
  const cpuSim = ctx.numerics === 'cpu-sim';
  // x86's default NaN for an invalid operation (log or sqrt of a negative number), whatever host runs the VM.
  const invalid = (v: number) => (cpuSim && Number.isNaN(v) ? x86Nan(0, 0) : v);
  switch (name) {
    case 'exp':
      // The simulator calls expf for half (the float result is rounded to float, then to half), exp in double otherwise.
      return cpuSim && dtype === 'f16' ? (x) => Math.fround(Math.exp(x)) : Math.exp;
    case 'log':
      return (x) => invalid(Math.log(x));
    case 'sqrt':
      return (x) => invalid(Math.sqrt(x));
    case 'rsqrt': {
      // A5's vector unit: vsqrt, then vdiv of 1 by it, each rounded to the element type (pto-isa npu/a5/TRsqrt.hpp,
      // the default precision; PTOAS's template does the same), so two roundings in the element type.
      if (ctx.numerics === 'npu' && ctx.target === 'a5') {
        const c = codec(dtype);
        return (x) => 1 / (c.round(invalid(Math.sqrt(x))) as number);
      }
      // 1.0 / std::sqrt(x) in double (two roundings), then rounded to the element type, as the simulator computes it.
      return (x) => 1 / invalid(Math.sqrt(x));
    }
    case 'recip':
      return (x) => {
        if (cpuSim && x === 0) ctx.trap('pto.trecip of 0: the reference simulator asserts a non-zero divisor');
        return 1 / x;
      };
  }
}

function integerOp(name: UnaryName, dtype: ElemType, ctx: InstructionContext): (v: Scalar) => Scalar {
  const c = codec(dtype);
  const wide = typeof c.round(0) === 'bigint';
  switch (name) {
    case 'neg':
      return wide ? (v) => c.round(-(v as bigint)) : (v) => c.round(-(v as number));
    case 'abs':
      return wide ? (v) => c.round((v as bigint) < 0n ? -(v as bigint) : v) : (v) => c.round((v as number) < 0 ? -(v as number) : v);
    case 'relu':
      return (v) => (v < 0 ? c.round(0) : v);
    case 'not':
      return wide ? (v) => c.round(~(v as bigint)) : (v) => c.round(~(v as number));
    case 'recip':
      return (v) => {
        if (v === 0 || v === 0n) ctx.trap(`division by zero (an integer 0 of ${dtype})`);
        // 1 / v truncated toward zero: 1 for 1, -1 for -1, 0 otherwise.
        return v === 1 || v === 1n ? v : v === -1 || v === -1n ? v : c.round(0);
      };
  }
  return ctx.trap(`not defined for ${dtype}`);
}

/** TEXP, TLOG, TSQRT, TRSQRT, TRECIP, TABS, TNEG, TRELU, TNOT: dst = op(src) over dst's valid region. */
function unary(ctx: InstructionContext): void {
  const name = ctx.bound.spec.op as UnaryName;
  if (!UNARY_OPERATIONS.includes(name)) ctx.trap(`unknown unary op '${name}' in spec/instructions`);
  const dst = ctx.tile('dst');
  const src = ctx.tile('src');
  const dtype = dst.type.dtype;
  const f = FLOAT_BITS[dtype];
  if (!isFloat(dtype) || !f) {
    const op = integerOp(name, dtype, ctx);
    dst.forEachValid((r, c) => dst.set(r, c, op(src.get(r, c))));
    return;
  }
  if (name === 'not') ctx.trap(`not defined for ${dtype}`);
  if (name === 'abs' || name === 'neg' || name === 'relu') {
    const op = signOp(name, f, ctx.numerics);
    dst.forEachValid((r, c) => dst.setBits(r, c, op(src.getBits(r, c), src.get(r, c) as number)));
    return;
  }
  // A5's trsqrt is vsqrt and vdiv, both correctly rounded (floatMath).
  if (ctx.numerics === 'npu' && name !== 'sqrt' && name !== 'recip' && !(name === 'rsqrt' && ctx.target === 'a5')) {
    ctx.note(`pto.t${name} under --numerics npu: the vector unit's own error is not documented; the VM computes the correctly rounded result`);
  }
  const math = floatMath(name, dtype, ctx);
  const saturate = saturates(dtype, ctx, ctx.flag('saturation'));
  const cpuSim = ctx.numerics === 'cpu-sim';
  // f32 over typed arrays: a NaN read into a double is already quieted, as the bits path below quiets it.
  if (dtype === 'f32' && src.type.dtype === 'f32' && mapFloat1(dst, src, dst.vRow, dst.vCol, (x) => (cpuSim && x !== x ? x : math(x)))) return;
  dst.forEachValid((r, c) => {
    const bits = src.getBits(r, c);
    // cpu-sim: a NaN operand comes out as itself, quieted (x86 and libm return their NaN operand).
    if (cpuSim && isNaNBits(bits, f)) return dst.setBits(r, c, (bits | f.quiet) >>> 0);
    const v = dst.codec.round(math(src.get(r, c) as number)) as number;
    dst.set(r, c, saturate ? saturateF16(v) : v);
  });
}

export const module: SemanticsModule = { semantics: { unary }, operations: { unary: UNARY_OPERATIONS } };
