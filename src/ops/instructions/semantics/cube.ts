import { x86Nan } from '../../../numerics/arithmetic';
import { addF32, floatDots, halfDots, integerDot, isHalf } from '../../../numerics/cube-dots';
import { codec } from '../../../numerics/elements';
import { elemTypeName, isStoredFormat } from '../../../types/type';
import { Tile, mxScaleBuffer, SHIFT_MX_ADDR } from '../../../machine/memory';
import { readValues, writeValues } from '../../../machine/tile-loops';
import { isMxDecodable, isMxSpecialCode, mxValue } from '../../../numerics/microscaling';
import { InstructionContext, SemanticsModule } from './context';

/** The hardware's m/k/n range (TMATMUL/TGEMV manual pages: m, k, n in [1, 4095]). */
const MAX_MMAD_LENGTH = 4095;

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

/**
 * Arrays the cube's values live in for one instruction, kept for the next (a new array per instruction kept the
 * collector busy); one per role, so that no two of one instruction's share. Larger ones are made and dropped.
 */
const scratch: Float64Array[] = [];
const SCRATCH_LIMIT = 1 << 20;

function scratchArray(role: number, length: number): Float64Array {
  if (length > SCRATCH_LIMIT) return new Float64Array(length);
  const kept = scratch[role];
  if (kept && kept.length >= length) return kept;
  return (scratch[role] = new Float64Array(Math.max(length, 4096)));
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
  // All of C is computed before any is written: cInMatrix may be cOutMatrix. A Float64Array keeps NaN bits.
  const results = scratchArray(0, m * n);
  const av = readValues(a, m, k, false, scratchArray(1, m * k));
  // B column by column: the dot products walk it down a column.
  const bt = readValues(b, k, n, true, scratchArray(2, k * n));
  const accumulated = cIn && readValues(cIn, m, n, false, scratchArray(3, m * n));
  const biases = bias && readValues(bias, 1, n, false, scratchArray(4, n));
  if (integer) {
    for (let i = 0; i < m; i++) {
      for (let j = 0; j < n; j++) {
        let v = integerDot(av, bt, i, j, k);
        if (accumulated) v = (accumulated[i * n + j] + v) | 0;
        if (biases) v = (v + biases[j]) | 0;
        results[i * n + j] = v;
      }
    }
  } else {
    if (isHalf(a.type.dtype) && isHalf(b.type.dtype)) halfDots(av, bt, m, n, k, results);
    else floatDots(av, bt, m, n, k, results);
    if (accumulated) for (let q = 0; q < m * n; q++) results[q] = addF32(accumulated[q], results[q]);
    if (biases) for (let i = 0; i < m; i++) for (let j = 0; j < n; j++) results[i * n + j] = addF32(results[i * n + j], biases[j]);
  }
  writeValues(c, m, n, results);
}

/** K elements share one E8M0 scale (pto-isa cpu/TMatmul.hpp: scale[i, k / 32], scale[k / 32, j]). */
const MX_GROUP = 32;

/**
 * On the NPU, mad_mx is given a and b only (npu/a5/TMatmul.hpp TMatmulMx): the cube reads each input's scales at
 * the input's address >> SHIFT_MX_ADDR in the scale space beside it, which pto.tget_scale_addr binds a scale tile
 * to. A scale tile anywhere else is not what the NPU reads.
 */
function requireScaleAt(ctx: InstructionContext, scale: Tile, scaleName: string, input: Tile, inputName: string): void {
  if (ctx.numerics !== 'npu') return;
  const buffer = mxScaleBuffer(input.buffer);
  const address = input.address >> SHIFT_MX_ADDR;
  if (scale.buffer !== buffer || scale.address !== address) {
    ctx.trap(
      `on the NPU the cube reads ${inputName}'s scales at ${buffer} address ${address} (${inputName}'s address >> ${SHIFT_MX_ADDR}), ` +
        `but ${scaleName} is at ${scale.buffer} address ${scale.address}: bind it with pto.tget_scale_addr before moving the scales in`,
    );
  }
}

/**
 * TMATMUL_MX (plain, .acc, .bias) and TGEMV_MX: C[i, j] = sum over k of A[i, k] x B[k, j] x 2^(sa[i, k/32] - 127)
 * x 2^(sb[k/32, j] - 127). Both profiles compute what the reference simulator computes (cpu/TMatmul.hpp TMatmulMX):
 * the inputs decoded as cpu/MXTypes.hpp does (src/numerics/microscaling.ts), each step's product a x b x scale_a
 * x scale_b exact in double, added in double to the f32 sum (from +0, k ascending) and rounded back to f32; then
 * c_in + sum (.acc) or sum + bias[j] (.bias) in f32. M, K from a's valid region, N from b's (a gemv: m = 1, as
 * npu/a5 passes). The manual leaves the scales' role and the cube's order and precision target-defined: the npu
 * profile takes the simulator's with a note, and traps on the codes the simulator decodes as numbers but IEEE-style
 * decoding does not (NaN, infinity), whose handling by the cube is not documented.
 */
export function matmulMx(ctx: InstructionContext): void {
  const c = ctx.tile('dst');
  const a = ctx.tile('a');
  const b = ctx.tile('b');
  const aScale = ctx.tile('a_scale');
  const bScale = ctx.tile('b_scale');
  const cIn = ctx.optionalTile('c_in');
  const bias = ctx.optionalTile('bias');
  for (const t of [a, b]) {
    if (!isMxDecodable(t.type.dtype)) {
      ctx.trap(
        `a product of ${elemTypeName(t.type.dtype)} inputs is not implemented yet (the VM decodes f8E4M3FN and f8E5M2; packed fp4 holds two values per byte)`,
      );
    }
  }
  // PTOAS's verifier leaves the scale tiles' dtype open; the cube reads E8M0 codes (f8E4M3FN/f8E5M2 decode too).
  for (const [name, t] of [
    ['a_scale', aScale],
    ['b_scale', bScale],
  ] as const) {
    if (!isMxDecodable(t.type.dtype)) {
      ctx.trap(
        `${name} is ${elemTypeName(t.type.dtype)}: the VM decodes MX scales as 8-bit codes (f8E8M0, as the cube reads them), not ${elemTypeName(t.type.dtype)} elements`,
      );
    }
  }
  const gemv = ctx.bound.spec.name.startsWith('tgemv');
  if (gemv && a.vRow !== 1) ctx.trap(`a has ${a.vRow} valid rows; a gemv multiplies a one-row a (m = 1)`);
  const shape = { m: a.vRow, k: a.vCol, n: b.vCol };
  for (const [name, v] of Object.entries(shape)) {
    if (v < 1 || v > MAX_MMAD_LENGTH) ctx.trap(`${name} = ${v} is outside the cube's range [1, ${MAX_MMAD_LENGTH}]`);
  }
  const { m, k, n } = shape;
  const groups = Math.ceil(k / MX_GROUP);
  if (aScale.vRow < m || aScale.vCol < groups) ctx.trap(`a_scale's valid region ${aScale.vRow}x${aScale.vCol} does not cover [m, ceil(k/32)] = ${m}x${groups}`);
  if (bScale.vRow < groups || bScale.vCol < n) ctx.trap(`b_scale's valid region ${bScale.vRow}x${bScale.vCol} does not cover [ceil(k/32), n] = ${groups}x${n}`);
  if (b.vRow < k) ctx.trap(`b has ${b.vRow} valid rows, fewer than k = ${k}`);
  if (bias && bias.vCol < n) ctx.trap(`bias has ${bias.vCol} valid cols, fewer than n = ${n}`);
  requireScaleAt(ctx, aScale, 'a_scale', a, 'a');
  requireScaleAt(ctx, bScale, 'b_scale', b, 'b');
  if (cIn) requireInPlaceAccumulation(ctx, cIn, c);
  const npu = ctx.numerics === 'npu';
  const decode = (t: Tile, name: string, r: number, col: number): number => {
    const bits = t.get(r, col) as number;
    if (npu && isMxSpecialCode(t.type.dtype, bits)) {
      ctx.trap(
        `${name}[${r}, ${col}] is 0x${bits.toString(16).padStart(2, '0')}, a NaN/infinity code of ${elemTypeName(t.type.dtype)}: ` +
          "the cube's handling of it is not documented (the simulator decodes it as a finite number); not implemented under npu",
      );
    }
    return mxValue(t.type.dtype, bits);
  };
  if (npu) {
    ctx.note(
      "npu: the MX cube's summation order and internal precision are not documented; the VM sums as the reference simulator does (k ascending, each scaled product exact, added in double and rounded to f32)",
    );
  }
  // Decoded once: A row by row, B and the scales as read.
  const av = Array.from({ length: m }, (_, i) => Array.from({ length: k }, (_, t) => decode(a, 'a', i, t)));
  const bv = Array.from({ length: k }, (_, t) => Array.from({ length: n }, (_, j) => decode(b, 'b', t, j)));
  const sa = Array.from({ length: m }, (_, i) => Array.from({ length: groups }, (_, g) => decode(aScale, 'a_scale', i, g)));
  const sb = Array.from({ length: groups }, (_, g) => Array.from({ length: n }, (_, j) => decode(bScale, 'b_scale', g, j)));
  // All of C is computed before any is written: c_in may be dst.
  const results: number[] = [];
  for (let i = 0; i < m; i++) {
    for (let j = 0; j < n; j++) {
      let sum = 0;
      for (let t = 0; t < k; t++) {
        const g = Math.floor(t / MX_GROUP);
        const product = av[i][t] * bv[t][j] * (sa[i][g] * sb[g][j]);
        const next = sum + product;
        // Only inf + -inf (an f32 sum that overflowed, then a product of the other sign) gives a NaN here.
        sum = Number.isNaN(next) ? x86Nan(sum, product) : Math.fround(next);
      }
      if (cIn) sum = addF32(cIn.get(i, j) as number, sum);
      if (bias) sum = addF32(sum, bias.get(0, j) as number);
      results.push(sum);
    }
  }
  for (let i = 0; i < m; i++) {
    for (let j = 0; j < n; j++) c.set(i, j, results[i * n + j]);
  }
}

/**
 * TGET_SCALE_ADDR: Address(dst) = Address(src) >> SHIFT_MX_ADDR (manual; pto-isa npu/a5 TGetScaleAddr.hpp, PTOAS's
 * GetScaleAddr + TASSIGN): from here on dst is the scale tile of src, in the scale space beside src's buffer,
 * where mad_mx reads it. PTOAS (PTOA5NormalizeTMov) moves this op above the Mat -> Scaling tmov that last wrote
 * dst with no use of dst between them, so that tmov's scales land at the new address; the VM runs the ops in
 * the program's order, so dst's valid region (what that tmov wrote) moves with it.
 */
export function scaleAddress(ctx: InstructionContext): void {
  const src = ctx.tile('src');
  const before = ctx.tile('dst');
  const after = ctx.bindMxScale('dst', src);
  if (after.buffer === before.buffer && after.address === before.address) return;
  for (let r = 0; r < before.vRow; r++) {
    for (let col = 0; col < before.vCol; col++) after.set(r, col, before.get(r, col));
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

export const module: SemanticsModule = { semantics: { matmul, 'matmul-mx': matmulMx, 'scale-address': scaleAddress } };
