import { x86Nan, fusedMultiplyAdd } from '../../../numerics/arithmetic';
import { codec } from '../../../numerics/elements';
import { elemTypeName, isStoredFormat } from '../../../types/type';
import { Tile } from '../../../machine/memory';
import { InstructionContext, SemanticsModule } from './context';

/** The hardware's m/k/n range (TMATMUL/TGEMV manual pages: m, k, n in [1, 4095]). */
const MAX_MMAD_LENGTH = 4095;
const F32 = codec('f32');

/** The product's extent: M x K times K x N. */
interface MatmulShape {
  m: number;
  k: number;
  n: number;
}

/**
 * TMATMUL: M, K from aMatrix's valid region, N from bMatrix's (manual). TGEMV: M = 1, K and N from bMatrix's
 * valid region (manual; the NPU passes m = 1 to mad); the manual requires m = 1, so a taller aMatrix is an error.
 */
function shapeOf(ctx: InstructionContext, a: Tile, b: Tile): MatmulShape {
  const gemv = ctx.bound.spec.name.startsWith('tgemv');
  if (gemv && a.vRow !== 1) ctx.trap(`aMatrix has ${a.vRow} valid rows; a gemv multiplies a one-row aMatrix (m = 1)`);
  const shape = gemv ? { m: 1, k: b.vRow, n: b.vCol } : { m: a.vRow, k: a.vCol, n: b.vCol };
  for (const [name, v] of Object.entries(shape)) {
    if (v < 1 || v > MAX_MMAD_LENGTH) ctx.trap(`${name} = ${v} is outside the cube's range [1, ${MAX_MMAD_LENGTH}]`);
  }
  return shape;
}

/**
 * On the NPU, TMATMUL_ACC/TGEMV_ACC accumulate into cOutMatrix in place (npu/a2a3/TMatmul.hpp passes only
 * cOutMatrix to mad, with "initialise C" off): cInMatrix is never read. The manual's C1 = C0 + A x B then
 * holds only when both are the same storage; anything else would give a result the manual does not describe.
 */
function requireInPlaceAccumulation(ctx: InstructionContext, cIn: Tile, cOut: Tile): void {
  // At Level 1 the result is a new value: the compiler gives it cInMatrix's storage, so C1 = C0 + A x B holds.
  if (ctx.numerics !== 'npu' || ctx.op.form === 'ssa') return;
  if (cIn.buffer !== cOut.buffer || cIn.address !== cOut.address) {
    ctx.trap(
      'on the NPU the accumulation happens in cOutMatrix in place (cInMatrix is not read): with a distinct cInMatrix this is not implemented yet; pass the same tile',
    );
  }
}

/** sum over k of a[i, k] * b[k, j] in the simulator's order: from +0, k ascending, one fused multiply-add (f32) per step. */
function floatDot(a: Tile, b: Tile, i: number, j: number, k: number): number {
  let sum = 0;
  for (let t = 0; t < k; t++) {
    const x = a.get(i, t) as number;
    const y = b.get(t, j) as number;
    const next = fusedMultiplyAdd(x, y, sum, F32);
    // x86's NaN rule instead of the host's: a NaN input propagates (a, then b, then the sum); 0 x inf gives the default NaN.
    sum = Number.isNaN(next) ? x86Nan(x86Nan(x, y), sum) : next;
  }
  return sum;
}

/** The i8 x i8 -> i32 dot product; the i32 sum wraps (every partial sum fits a double exactly, so wrapping once is the same). */
function integerDot(a: Tile, b: Tile, i: number, j: number, k: number): number {
  let sum = 0;
  for (let t = 0; t < k; t++) sum += (a.get(i, t) as number) * (b.get(t, j) as number);
  return sum | 0;
}

/** f32 a + b rounded once, with x86's NaN choice (the simulator's `acc + mul_acc` and `c += bias`). */
function addF32(a: number, b: number): number {
  const v = a + b;
  return Number.isNaN(v) ? x86Nan(a, b) : Math.fround(v);
}

/**
 * TMATMUL, TMATMUL_ACC, TMATMUL_BIAS and the TGEMV forms. Both profiles compute what the reference simulator
 * (cpu/TMatmul.hpp) computes: per element of C a sum from +0 over k in ascending order, each step an f32 fused
 * multiply-add of the inputs widened to f32 (i8 inputs: an i32 sum, wrapping); then the accumulator input
 * (cInMatrix + sum) or the bias (sum + bias[j]) is added, rounded to f32. The manual leaves the NPU's order
 * and precision "implementation-defined", so the npu profile takes the simulator's, with a note for floats.
 */
export function matmul(ctx: InstructionContext): void {
  const c = ctx.optionalTile('cMatrix') ?? ctx.tile('cOutMatrix');
  const a = ctx.tile('aMatrix');
  const b = ctx.tile('bMatrix');
  const cIn = ctx.optionalTile('cInMatrix');
  const bias = ctx.optionalTile('biasData');
  for (const input of [a, b]) {
    // The VM holds A5's 8-bit float formats as bits; their products are not computed here.
    if (isStoredFormat(input.type.dtype)) ctx.trap(`a product of ${elemTypeName(input.type.dtype)} inputs is not implemented yet`);
  }
  const { m, k, n } = shapeOf(ctx, a, b);
  if (cIn) requireInPlaceAccumulation(ctx, cIn, c);
  if (bias && bias.vCol < n) ctx.trap(`biasData has ${bias.vCol} valid cols, fewer than n = ${n}`);
  const integer = c.type.dtype === 'i32';
  if (!integer && ctx.numerics === 'npu') {
    ctx.note(
      "npu: the cube's summation order and internal precision are not documented; the VM sums as the reference simulator does (k ascending, f32 fused multiply-add)",
    );
  }
  // All of C is computed before any is written: cInMatrix may be cOutMatrix.
  const results: number[] = [];
  for (let i = 0; i < m; i++) {
    for (let j = 0; j < n; j++) {
      let v = integer ? integerDot(a, b, i, j, k) : floatDot(a, b, i, j, k);
      if (cIn) v = integer ? ((cIn.get(i, j) as number) + v) | 0 : addF32(cIn.get(i, j) as number, v);
      if (bias) v = integer ? (v + (bias.get(0, j) as number)) | 0 : addF32(v, bias.get(0, j) as number);
      results.push(v);
    }
  }
  for (let i = 0; i < m; i++) {
    for (let j = 0; j < n; j++) c.set(i, j, results[i * n + j]);
  }
}

/** The fixpipe's f32 -> f16/bf16 cast of accumulator values (TMOV Acc -> Mat/Vec, TSTORE from Acc). */
export function accumulatorCast(ctx: InstructionContext, to: 'f16' | 'bf16'): (v: number) => number {
  const target = codec(to);
  return (v) => {
    const r = target.round(v) as number;
    if (ctx.numerics === 'npu' && Number.isFinite(v) && !Number.isFinite(r)) {
      ctx.note(`npu: an accumulator value overflowed ${to}; the fixpipe's overflow result is not documented, the VM gives infinity`);
    }
    return r;
  };
}

export const module: SemanticsModule = { semantics: { matmul } };
