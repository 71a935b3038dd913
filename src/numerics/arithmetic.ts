import { ElemType, isFloat } from '../types/type';
import { ElementCodec, Scalar, codec } from './elements';
import { npuConverter } from './conversion';

/**
 * Per-element arithmetic of the elementwise instructions, for every dtype and both numerics profiles.
 * Each operation takes elements of one dtype and returns the element it writes, already rounded (floats,
 * round to nearest even) or wrapped (integers). Composite instructions (taddc, tfusedmuladd, ...) are
 * built from these, so each step rounds as the simulator's C++ expression does.
 */
export type Numerics = 'npu' | 'cpu-sim';
export type ElementOperation = (a: Scalar, b: Scalar) => Scalar;
/** Stops the instruction with a message (the VM's trap). */
export type Fail = (message: string) => never;

export const BINARY_OPERATIONS = [
  'add',
  'sub',
  'mul',
  'div',
  'max',
  'min',
  'and',
  'or',
  'xor',
  'shl',
  'shr',
  'rem',
  'fmod',
  'pow',
  'prelu',
  'subrelu',
] as const;
export type BinaryOperationName = (typeof BINARY_OPERATIONS)[number];

export interface OperationOptions {
  /** The tile-scalar form (tpows, trems, tfmods): the simulator's scalar overloads differ in a few integer and f16 details. */
  scalarForm?: boolean;
  /** npu on A5: a float fmod is A5's vector sequence (a5Fmod), not C's exact fmod. */
  a5?: boolean;
}

/** x86's default NaN (the "real indefinite", sign bit set): f32 0xffc00000, f16 0xfe00 once rounded. */
const X86_DEFAULT_NAN = new Float64Array(new BigUint64Array([0xfff8000000000000n]).buffer)[0];

/**
 * cpu-sim: the NaN the simulator's x86 build gives, whatever host the VM runs on. A NaN operand
 * propagates (the first one when both are); an invalid operation (inf - inf, 0 * inf, 0 / 0, fmod(x, 0))
 * gives the x86 default NaN, which is negative. Plain JS arithmetic gives the host's default NaN, which
 * is positive on ARM (Apple silicon, Graviton), so the sign of such results would depend on the machine.
 */
export function x86Nan(a: Scalar, b: Scalar): number {
  if (Number.isNaN(a)) return a as number;
  if (Number.isNaN(b)) return b as number;
  return X86_DEFAULT_NAN;
}

/** An element operation of `dtype` under `numerics`; unknown names and dtypes are programming errors. */
export function binaryOperation(name: BinaryOperationName, dtype: ElemType, numerics: Numerics, fail: Fail, options: OperationOptions = {}): ElementOperation {
  if (isFloat(dtype)) return floatOperation(name, dtype, numerics, fail, options);
  if (dtype === 'i64' || dtype === 'u64') return int64Operation(name, dtype, numerics, fail, options);
  return int32Operation(name, dtype, numerics, fail, options);
}

// ---- floats ------------------------------------------------------------------------------------

/** C's pow: pow(x, +-0) = 1 and pow(1, y) = 1 even for a NaN y, pow(-1, +-inf) = 1 (JS gives NaN for the last two). */
export function cPow(x: number, y: number): number {
  if (y === 0 || x === 1) return 1;
  if (x === -1 && (y === Infinity || y === -Infinity)) return 1;
  return Math.pow(x, y);
}

function floatOperation(name: BinaryOperationName, dtype: ElemType, numerics: Numerics, fail: Fail, options: OperationOptions): ElementOperation {
  const c = codec(dtype);
  const cpuSim = numerics === 'cpu-sim';
  // One IEEE operation, exact in double and rounded once (innocuous for f16/f32; bf16 goes through f32 as the unit does).
  // A NaN result follows x86's rule under both profiles: the host's would depend on the machine and on the JIT (V8
  // commutes an add's operands as it likes), and the NPU's NaN propagation is not documented.
  const rounded =
    (f: (a: number, b: number) => number): ElementOperation =>
    (a, b) => {
      const v = f(a as number, b as number);
      return c.round(Number.isNaN(v) ? x86Nan(a, b) : v);
    };
  const add = rounded((a, b) => a + b);
  const sub = rounded((a, b) => a - b);
  const mul = rounded((a, b) => a * b);
  switch (name) {
    case 'add':
      return add;
    case 'sub':
      return sub;
    case 'mul':
      return mul;
    case 'div':
      return rounded((a, b) => a / b);
    case 'max':
      return cpuSim ? (a, b) => ((a as number) < (b as number) ? b : a) : nanFirst((a, b) => ((a as number) < (b as number) ? b : a));
    case 'min':
      return cpuSim ? (a, b) => ((b as number) < (a as number) ? b : a) : nanFirst((a, b) => ((b as number) < (a as number) ? b : a));
    case 'fmod':
      if (!cpuSim && options.a5 && (dtype === 'f32' || dtype === 'f16')) return a5Fmod(dtype, fail);
      // JS % on numbers is C's fmod: exact, sign of the dividend.
      return rounded((a, b) => a % b);
    case 'rem': {
      if (!cpuSim && options.a5 && (dtype === 'f32' || dtype === 'f16')) return a5Rem(dtype, !options.scalarForm, fail);
      const fmod = rounded((a, b) => a % b);
      return (a, b) => {
        const r = fmod(a, b);
        return differentSigns(a, b) && r !== 0 ? add(r, b) : r;
      };
    }
    case 'pow':
      // The simulator's tpow converts the double result of f16 to float first, then to half; its tpows converts directly.
      if (cpuSim && dtype === 'f16' && !options.scalarForm) return rounded((a, b) => Math.fround(cPow(a, b)));
      return rounded(cPow);
    case 'prelu':
      return (a, b) => ((a as number) > 0 ? a : mul(a, b));
    case 'subrelu':
      return (a, b) => relu(sub(a, b), numerics);
  }
  return fail(`${name} is not defined for ${dtype}`);
}

/**
 * fmod on A5's vector unit (pto-isa npu/a5/TFMod.hpp and TFModS.hpp, default precision; the tile-scalar form alike):
 * a / b (vdiv), truncated (vtrc ROUND_Z), times b (vmul), subtracted from a (vsub), each step rounded in f32. f16
 * operands are widened to f32 first and the f32 remainder converted back toward zero, saturating (vcvt ROUND_Z
 * RS_ENABLE). So an exact multiple gives a - a = +0 where C's fmod keeps the dividend's sign (fmod(-5, 2.5) = -0), and
 * a quotient past 2^24 loses the low bits C's exact fmod keeps. A NaN follows the x86 rule, as the other npu ops.
 */
function a5Fmod(dtype: 'f32' | 'f16', fail: Fail): ElementOperation {
  const f = Math.fround;
  const narrow = dtype === 'f16' ? npuConverter('f32', 'f16', 'trunc', true, fail) : (v: Scalar) => v;
  return (a, b) => {
    const x = a as number;
    const y = b as number;
    const r = f(x - f(Math.trunc(f(x / y)) * y));
    return narrow(Number.isNaN(r) ? f(x86Nan(a, b)) : r);
  };
}

/**
 * The remainder on A5's vector unit (pto-isa npu/a5/TRem.hpp, TRemS.hpp, default precision): a / b (vdiv), floored
 * (vtrc ROUND_F), times b (vmul), subtracted from a (vsub), each step rounded in f32; f16 widened to f32 first and the
 * f32 result converted back toward zero, saturating. trem then (`correct`) adds b where b * r < 0 (vmul, vcmps LT,
 * vadd, vsel; in f16 for f16), trems does not. So an exact multiple gives +0 (C's fmod keeps the dividend's sign) and
 * a quotient past 2^24 loses the low bits an exact remainder keeps (1e9 rem 3: 0, not 1).
 */
function a5Rem(dtype: 'f32' | 'f16', correct: boolean, fail: Fail): ElementOperation {
  const f = Math.fround;
  const narrow = dtype === 'f16' ? npuConverter('f32', 'f16', 'trunc', true, fail) : (v: Scalar) => v;
  const round = codec(dtype).round;
  return (a, b) => {
    const x = a as number;
    const y = b as number;
    const r = f(x - f(Math.floor(f(x / y)) * y));
    if (Number.isNaN(r)) return narrow(f(x86Nan(a, b)));
    const n = narrow(r) as number;
    return correct && (round(y * n) as number) < 0 ? round(n + y) : n;
  };
}

/** npu max/min: the vector unit's vmax/vmin return a NaN when either input is one (the first NaN here). */
function nanFirst(pick: ElementOperation): ElementOperation {
  return (a, b) => (Number.isNaN(a) ? a : Number.isNaN(b) ? b : pick(a, b));
}

/** The simulator's sign test of the remainder adjustment: `(a >= 0) != (b >= 0)` (so -0 counts as non-negative, NaN as negative). */
function differentSigns(a: Scalar, b: Scalar): boolean {
  return a >= 0 !== b >= 0;
}

/**
 * max(v, 0) as the ReLU after an arithmetic step. cpu-sim: the simulator's `(v > 0) ? v : 0`, so NaN and -0 give +0.
 * npu (vrelu): NaN stays NaN (fp16 saturation may turn it into +0 afterwards); -0 gives +0.
 */
export function relu(v: Scalar, numerics: Numerics): Scalar {
  if (typeof v === 'bigint') return v > 0n ? v : 0n;
  if (numerics === 'npu' && Number.isNaN(v)) return v;
  return v > 0 ? v : 0;
}

// ---- fused multiply-add ------------------------------------------------------------------------

const scratch = new Float64Array(1);
const scratchBits = new BigInt64Array(scratch.buffer);

/** The double next to `x` (finite, non-zero) in the direction of `toward`'s sign. */
function nudge(x: number, toward: number): number {
  scratch[0] = x;
  const away = x > 0 === toward > 0;
  scratchBits[0] += away ? 1n : -1n;
  return scratch[0];
}

/**
 * a * b + c rounded once to `dtype` (f16 or f32 inputs): the product is exact in double, the sum is computed
 * exactly as a double plus its error (TwoSum), and rounding to odd in double before the final round to nearest
 * even makes the two roundings one (double has more than 2 bits beyond f32's and f16's precision).
 */
export function fusedMultiplyAdd(a: number, b: number, c: number, target: ElementCodec): number {
  const p = a * b;
  const s = p + c;
  if (!Number.isFinite(s)) return target.round(s) as number;
  const bv = s - p;
  const err = p - (s - bv) + (c - bv);
  if (err === 0 || s === 0) return target.round(s) as number;
  scratch[0] = s;
  const odd = (scratchBits[0] & 1n) === 1n;
  return target.round(odd ? s : nudge(s, err)) as number;
}

// ---- integers ----------------------------------------------------------------------------------

function bitsOf(dtype: ElemType): number {
  return dtype === 'i8' || dtype === 'u8' ? 8 : dtype === 'i16' || dtype === 'u16' ? 16 : dtype === 'i64' || dtype === 'u64' ? 64 : 32;
}

const isSigned = (dtype: ElemType): boolean => dtype.startsWith('i');

/** base ** exponent wrapped to `bits`, as the simulator's square-and-multiply in the element type (which wraps at every step). */
export function wrappedIntegerPower(base: bigint, exponent: bigint, bits: number, signed: boolean): bigint {
  const wrap = (v: bigint) => (signed ? BigInt.asIntN(bits, v) : BigInt.asUintN(bits, v));
  if (exponent === 0n || base === 1n) return 1n;
  if (exponent < 0n) return base === -1n ? (exponent % 2n === 0n ? 1n : wrap(-1n)) : 0n;
  let result = 1n;
  let b = wrap(base);
  for (let e = exponent; e > 0n; e >>= 1n) {
    if (e & 1n) result = wrap(result * b);
    b = wrap(b * b);
  }
  return result;
}

/**
 * x86-64's conversion of a double to an 8/16/32-bit integer type in the simulator's build (`static_cast<T>(double)`):
 * truncation by cvttsd2si into int32 (int64 for u32), whose out-of-range and NaN result is that register's minimum
 * (the "integer indefinite"); the low bits of the register are the element.
 */
export function x86DoubleToInteger(v: number, dtype: ElemType): bigint {
  const limit = dtype === 'u32' ? 2 ** 63 : 2 ** 31;
  const t = Math.trunc(v);
  return BigInt(Number.isFinite(t) && t >= -limit && t < limit ? t : -limit);
}

function int32Operation(name: BinaryOperationName, dtype: ElemType, numerics: Numerics, fail: Fail, options: OperationOptions): ElementOperation {
  const c = codec(dtype);
  const bits = bitsOf(dtype);
  const signed = isSigned(dtype);
  const cpuSim = numerics === 'cpu-sim';
  const wrap = (v: number) => c.round(v);
  const num =
    (f: (a: number, b: number) => number): ElementOperation =>
    (a, b) =>
      wrap(f(a as number, b as number));
  const divisor = (b: number) => (b === 0 ? fail(`integer division by zero (${dtype})`) : b);
  // C promotes 8/16-bit operands to int, so only 32-bit signed MIN / -1 overflows; x86's idiv faults on it.
  const faultsOnOverflow = (a: number, b: number) => cpuSim && dtype === 'i32' && a === -0x80000000 && b === -1;
  const truncatedRemainder = (a: number, b: number) => {
    if (faultsOnOverflow(a, divisor(b))) fail('i32 remainder of -2147483648 by -1 overflows (the simulator faults on x86)');
    return a % b === 0 ? 0 : a % b; // no -0 for integers
  };
  switch (name) {
    case 'add':
      return num((a, b) => a + b);
    case 'sub':
      return num((a, b) => a - b);
    case 'mul':
      // Products of 32-bit values exceed 2^53: Math.imul gives the low 32 bits exactly.
      return num((a, b) => Math.imul(a, b));
    case 'div':
      return num((a, b) => {
        divisor(b);
        if (faultsOnOverflow(a, b)) fail('i32 division of -2147483648 by -1 overflows (the simulator faults on x86)');
        return Math.trunc(a / b);
      });
    case 'max':
      return (a, b) => ((a as number) < (b as number) ? b : a);
    case 'min':
      return (a, b) => ((b as number) < (a as number) ? b : a);
    case 'and':
      return num((a, b) => a & b);
    case 'or':
      return num((a, b) => a | b);
    case 'xor':
      return num((a, b) => a ^ b);
    case 'shl':
      return cpuSim ? num((a, b) => a << (b & 31)) : num((a, b) => (npuShiftCount(b, bits, fail) >= bits ? 0 : a << b));
    case 'shr': {
      const shift = dtype === 'u32' ? (a: number, n: number) => a >>> n : (a: number, n: number) => a >> n;
      const fill = (a: number) => (signed && a < 0 ? -1 : 0);
      return cpuSim ? num((a, b) => shift(a, b & 31)) : num((a, b) => (npuShiftCount(b, bits, fail) >= bits ? fill(a) : shift(a, b)));
    }
    case 'rem':
      return num((a, b) => {
        const r = truncatedRemainder(a, b);
        return differentSigns(a, b) && r !== 0 ? r + b : r;
      });
    case 'fmod':
      // The simulator's tfmod goes through double fmod (no fault); its tfmods uses C's %.
      return options.scalarForm ? num(truncatedRemainder) : num((a, b) => (divisor(b), a % b === 0 ? 0 : a % b));
    case 'pow':
      if (cpuSim && options.scalarForm) return (a, b) => c.round(x86DoubleToInteger(cPow(a as number, b as number), dtype));
      return (a, b) => c.round(wrappedIntegerPower(BigInt(a), BigInt(b), bits, signed));
  }
  return fail(`${name} is not defined for ${dtype}`);
}

/** npu shift counts: the manual requires counts >= 0; a count of the element width or more shifts every bit out. */
function npuShiftCount(count: number | bigint, bits: number, fail: Fail): number {
  if (count < 0) fail(`negative shift count ${count}`);
  return Number(count) >= bits ? bits : Number(count);
}

function int64Operation(name: BinaryOperationName, dtype: ElemType, numerics: Numerics, fail: Fail, options: OperationOptions): ElementOperation {
  const signed = dtype === 'i64';
  const cpuSim = numerics === 'cpu-sim';
  const wrap = signed ? (v: bigint) => BigInt.asIntN(64, v) : (v: bigint) => BigInt.asUintN(64, v);
  const big =
    (f: (a: bigint, b: bigint) => bigint): ElementOperation =>
    (a, b) =>
      wrap(f(a as bigint, b as bigint));
  const divisor = (b: bigint) => (b === 0n ? fail(`integer division by zero (${dtype})`) : b);
  const MIN = -(2n ** 63n);
  const checkOverflow = (a: bigint, b: bigint, what: string) => {
    if (cpuSim && signed && a === MIN && b === -1n) fail(`i64 ${what} of ${MIN} by -1 overflows (the simulator faults on x86)`);
  };
  switch (name) {
    case 'add':
      return big((a, b) => a + b);
    case 'sub':
      return big((a, b) => a - b);
    case 'mul':
      return big((a, b) => a * b);
    case 'div':
      return big((a, b) => (divisor(b), checkOverflow(a, b, 'division'), a / b));
    case 'max':
      return (a, b) => (a < b ? b : a);
    case 'min':
      return (a, b) => (b < a ? b : a);
    case 'and':
      return big((a, b) => a & b);
    case 'or':
      return big((a, b) => a | b);
    case 'xor':
      return big((a, b) => a ^ b);
    case 'shl':
      return cpuSim ? big((a, b) => a << (b & 63n)) : big((a, b) => (npuShiftCount(b, 64, fail) >= 64 ? 0n : a << b));
    case 'shr':
      // BigInt >> is arithmetic; u64 values are non-negative, so it is logical for them.
      return cpuSim ? big((a, b) => a >> (BigInt.asUintN(64, b) & 63n)) : big((a, b) => (npuShiftCount(b, 64, fail) >= 64 ? (a < 0n ? -1n : 0n) : a >> b));
    case 'rem':
      return big((a, b) => {
        divisor(b);
        checkOverflow(a, b, 'remainder');
        const r = a % b;
        return a >= 0n !== b >= 0n && r !== 0n ? r + b : r;
      });
    case 'fmod':
      return big((a, b) => (divisor(b), options.scalarForm && checkOverflow(a, b, 'remainder'), a % b));
    case 'pow':
      return (a, b) => wrappedIntegerPower(a as bigint, b as bigint, 64, signed);
  }
  return fail(`${name} is not defined for ${dtype}`);
}
