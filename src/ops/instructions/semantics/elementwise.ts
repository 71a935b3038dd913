import { ElemType } from '../../../types/type';
import { BINARY_OPERATIONS, BinaryOperationName, ElementOperation, Fail, fusedMultiplyAdd, binaryOperation, relu } from '../../../numerics/arithmetic';
import { Scalar, codec, f32Bits } from '../../../numerics/elements';
import { saturateF16, saturates } from '../../../numerics/saturation';
import { Tile } from '../../../machine/memory';
import { f32Lanes, mapFloat2, rowRuns3 } from '../../../machine/tile-loops';
import { f32BinaryLoops } from './fast-f32';
import { vectorTiles } from './vector-kernels';
import { npuConverter } from '../../../numerics/conversion';
import { InstructionContext, SemanticsModule } from './context';

/** The spec's `op` of a binary or tile-scalar instruction, checked against the operation table. */
function binaryName(ctx: InstructionContext): BinaryOperationName {
  const kind = ctx.bound.spec.op as BinaryOperationName;
  if (!BINARY_OPERATIONS.includes(kind)) ctx.trap(`unknown elementwise op '${kind}' in spec/instructions`);
  return kind;
}

/** The names of each spec's tile sources, found once per spec (instructions run many times). */
const SOURCE_NAMES = new WeakMap<object, string[]>();

/** The spec's tile sources (role src), in spec order: src0/src1, or base/exp for tpow. */
function sourceTiles(ctx: InstructionContext): Tile[] {
  const spec = ctx.bound.spec;
  let names = SOURCE_NAMES.get(spec);
  if (!names) SOURCE_NAMES.set(spec, (names = spec.operands.filter((o) => o.role === 'src' && o.kind === 'tile').map((o) => o.name)));
  return names.map((name) => ctx.tile(name));
}

function scalarOperandName(ctx: InstructionContext): string {
  return ctx.bound.spec.operands.find((o) => o.role === 'src' && o.kind === 'scalar')!.name;
}

/**
 * The last step of every element: fp16 saturation (npu, only for instructions that declare the `saturation`
 * attribute: the arithmetic ones; max/min and bitwise ops do not overflow).
 */
export function finisher(ctx: InstructionContext, dtype: ElemType): (v: Scalar) => Scalar {
  const declared = ctx.bound.spec.attributes?.some((a) => a.name === 'saturation') ?? false;
  return declared && saturates(dtype, ctx, ctx.flag('saturation')) ? (v) => saturateF16(v as number) : (v) => v;
}

/** Writes f(r, c) to every position of dst's valid region. */
function forEachValid(dst: Tile, f: (r: number, c: number) => Scalar): void {
  dst.forEachValid((r, c) => dst.set(r, c, f(r, c)));
}

/**
 * A scalar operand as an element of `dtype`, as the C++ API's `typename Tile::DType scalar` parameter converts it:
 * floats round to nearest even, integers wrap, a float on an integer tile truncates toward zero.
 */
export function scalarAsElement(v: bigint | number, dtype: ElemType, fail: Fail): Scalar {
  const c = codec(dtype);
  if (c.isFloat) return c.round(Number(v));
  if (typeof v === 'number' && !Number.isFinite(v)) fail(`the scalar ${v} has no ${dtype} value`);
  return c.round(typeof v === 'bigint' ? v : BigInt(Math.trunc(v)));
}

/** TADD, TSUB, TMUL, TDIV, TMAX, ...: dst = src0 op src1 over dst's valid region. */
export function elementwise(ctx: InstructionContext): void {
  const dst = ctx.tile('dst');
  const [a, b] = sourceTiles(ctx);
  const name = binaryName(ctx);
  const loops = f32BinaryLoops(name, ctx.numerics);
  const lanes = loops && f32Lanes([dst, a, b], dst.vRow, dst.vCol);
  if (loops && lanes) {
    const [d, x, y] = lanes;
    const run = ctx.vectorKernels ? vectorTiles(name, ctx.numerics, d, x, y, dst.vRow, dst.vCol) : undefined;
    if (run) {
      run();
      return ctx.repeatWith(run);
    }
    if (rowRuns3(d, x, y, dst.vRow, dst.vCol, (i, j, k, n) => loops.tiles(d.data, i, x.data, j, y.data, k, n))) return;
  }
  const op = binaryOperation(name, dst.type.dtype, ctx.numerics, ctx.trap, { a5: ctx.target === 'a5' });
  const finish = finisher(ctx, dst.type.dtype);
  const element = (x: Scalar, y: Scalar) => finish(op(x, y));
  if (mapFloat2(dst, a, b, dst.vRow, dst.vCol, element as (x: number, y: number) => number)) return;
  forEachValid(dst, (r, c) => element(a.get(r, c), b.get(r, c)));
}

/**
 * TADDS, TMULS, TDIVS, TMAXS, TLRELU, ...: dst = src op scalar over dst's valid region. When the scalar is
 * written before the tile (`pto.tdivs ins(%s, %t ...)`, scalar / tile), the operands swap.
 */
export function elementwiseScalar(ctx: InstructionContext): void {
  const dst = ctx.tile('dst');
  const [src] = sourceTiles(ctx);
  const scalarName = scalarOperandName(ctx);
  const s = scalarAsElement(ctx.scalar(scalarName), src.type.dtype, ctx.trap);
  const op = binaryOperation(binaryName(ctx), dst.type.dtype, ctx.numerics, ctx.trap, { scalarForm: true, a5: ctx.target === 'a5' });
  const finish = finisher(ctx, dst.type.dtype);
  const uses = ctx.bound.operands;
  const scalarFirst =
    (uses.get(scalarName)?.use?.span.start ?? 0) <
    (uses.get(ctx.bound.spec.operands.find((o) => o.role === 'src' && o.kind === 'tile')!.name)?.use?.span.start ?? 0);
  if (scalarFirst) forEachValid(dst, (r, c) => finish(op(s, src.get(r, c))));
  else forEachValid(dst, (r, c) => finish(op(src.get(r, c), s)));
}

export const TERNARY_OPERATIONS = ['addc', 'subc', 'addsc', 'subsc', 'muladddst', 'fusedmuladd', 'fusedmuladdrelu', 'axpy'] as const;
type TernaryName = (typeof TERNARY_OPERATIONS)[number];

/** One element of a ternary instruction from its three inputs (x, y, z as named per instruction below). */
type Ternary = (x: Scalar, y: Scalar, z: Scalar) => Scalar;

/**
 * a * b + c: under cpu-sim the simulator's C++ expression, which rounds the product first (its build has no FP
 * contraction); under npu the vector unit's multiply-add (vmadd, vmula, vaxpy), modelled as one rounding.
 */
function multiplyAdd(ctx: InstructionContext, dtype: ElemType): Ternary {
  const mul = binaryOperation('mul', dtype, ctx.numerics, ctx.trap);
  const add = binaryOperation('add', dtype, ctx.numerics, ctx.trap);
  if (ctx.numerics === 'cpu-sim') return (a, b, c) => add(mul(a, b), c);
  const target = codec(dtype);
  return (a, b, c) => fusedMultiplyAdd(a as number, b as number, c as number, target);
}

function ternaryOperation(ctx: InstructionContext, kind: TernaryName, dtype: ElemType): Ternary {
  const op = (name: BinaryOperationName): ElementOperation => binaryOperation(name, dtype, ctx.numerics, ctx.trap);
  const [add, sub] = [op('add'), op('sub')];
  switch (kind) {
    case 'addc': // (src0, src1, src2)
    case 'addsc': // (src0, scalar, src1)
      return (x, y, z) => add(add(x, y), z);
    case 'subc':
    case 'subsc':
      return (x, y, z) => add(sub(x, y), z);
    case 'muladddst': {
      // (src0, src1, dst): src0 * src1 + dst
      const fma = multiplyAdd(ctx, dtype);
      return (x, y, d) => fma(x, y, d);
    }
    case 'fusedmuladd': {
      // (src0, src1, dst): src0 * dst + src1
      const fma = multiplyAdd(ctx, dtype);
      return (x, y, d) => fma(x, d, y);
    }
    case 'fusedmuladdrelu': {
      const fma = multiplyAdd(ctx, dtype);
      return (x, y, d) => relu(fma(x, d, y), ctx.numerics);
    }
  }
  return ctx.trap(`${kind} has no element rule`);
}

/** TAXPY: dst = scalar * src0 + dst, dst of src0's type or f32 over f16 src0. */
function axpy(ctx: InstructionContext): void {
  const dst = ctx.tile('dst');
  const src = ctx.tile('src0');
  const s = scalarAsElement(ctx.scalar('scalar'), src.type.dtype, ctx.trap);
  const finish = finisher(ctx, dst.type.dtype);
  let step: (x: Scalar, d: Scalar) => Scalar;
  if (ctx.numerics === 'cpu-sim') {
    // The simulator multiplies in src0's type (half * half is rounded to half), then adds in dst's type.
    const mul = binaryOperation('mul', src.type.dtype, ctx.numerics, ctx.trap);
    const add = binaryOperation('add', dst.type.dtype, ctx.numerics, ctx.trap);
    step = (x, d) => add(d, mul(x, s));
  } else {
    const target = codec(dst.type.dtype);
    step = (x, d) => fusedMultiplyAdd(s as number, x as number, d as number, target);
  }
  forEachValid(dst, (r, c) => finish(step(src.get(r, c), dst.get(r, c))));
}

/** TADDC, TSUBC, TADDSC, TSUBSC, TMULADDDST, TFUSEDMULADD(RELU), TAXPY. */
export function elementwiseTernary(ctx: InstructionContext): void {
  const kind = ctx.bound.spec.op as TernaryName;
  if (!TERNARY_OPERATIONS.includes(kind)) ctx.trap(`unknown elementwise op '${kind}' in spec/instructions`);
  if (kind === 'axpy') return axpy(ctx);
  const dst = ctx.tile('dst');
  const dtype = dst.type.dtype;
  const element = ternaryOperation(ctx, kind, dtype);
  const finish = finisher(ctx, dtype);
  const [a, b, c] = sourceTiles(ctx);
  if (kind === 'addsc' || kind === 'subsc') {
    const s = scalarAsElement(ctx.scalar('scalar'), dtype, ctx.trap);
    forEachValid(dst, (r, col) => finish(element(a.get(r, col), s, b.get(r, col))));
  } else if (c) {
    forEachValid(dst, (r, col) => finish(element(a.get(r, col), b.get(r, col), c.get(r, col))));
  } else {
    // The multiply-adds read dst itself as their third input.
    forEachValid(dst, (r, col) => finish(element(a.get(r, col), b.get(r, col), dst.get(r, col))));
  }
}

/**
 * TADDRELUCONV: dst = convert(max(src0 + src1, 0)). The sum is rounded (floats) or wrapped (i16) in the source
 * type, ReLU keeps positive sums (a NaN stays NaN, -0 becomes +0), and the narrowing conversion rounds to nearest
 * even and saturates, as the vector unit's vcvt does (a5 TAddReluConv.hpp: add, vmaxs 0, vcvt RINT; a2a3's fused
 * vaddreluconv_*): f32 -> f16 overflows to 65504, NaN becomes 0; i8 results clamp to 0..127. The CPU simulator has
 * no TADDRELUCONV, so cpu-sim runs the same definition.
 */
export function elementwiseConvert(ctx: InstructionContext): void {
  if (ctx.bound.spec.op === 'adddeqrelu') return addDequantRelu(ctx);
  const dst = ctx.tile('dst');
  const [a, b] = sourceTiles(ctx);
  const add = binaryOperation('add', a.type.dtype, 'npu', ctx.trap);
  const convert = npuConverter(a.type.dtype, dst.type.dtype, 'rint', true, ctx.trap);
  const positive = (v: Scalar): Scalar => (typeof v === 'bigint' ? (v > 0n ? v : 0n) : Number.isNaN(v) || v > 0 ? v : 0);
  forEachValid(dst, (r, c) => convert(positive(add(a.get(r, c), b.get(r, c)))));
}

/** 2^-17 and 2^17: A2/A3 scales the sum down before the dequantization multiply and back up after it. */
const DEQ_SHIFT = 2 ** 17;

/**
 * TADDDEQRELU (A2/A3 TAddDeqRelu.hpp, the only implementation): the i32 sum (wrapping) goes to tmp; it is
 * converted to f32 (nearest even) and multiplied by 2^-17, by deqScale and by 2^17, each product rounded to f32,
 * into src0's storage; ReLU (vmax with 0) writes src1's storage; vconv_f322f16 (nearest even, saturating: overflow
 * gives 65504, NaN 0) writes dst. The hardware sequence reuses src0, src1 and tmp as scratch, and so does the VM:
 * a program that reads them afterwards sees what the NPU leaves there.
 */
function addDequantRelu(ctx: InstructionContext): void {
  const dst = ctx.tile('dst');
  const [a, b] = sourceTiles(ctx);
  const tmp = ctx.tile('tmp');
  const scale = Math.fround(Number(ctx.scalar('deqScale')));
  const toHalf = npuConverter('f32', 'f16', 'rint', true, ctx.trap);
  const f32 = Math.fround;
  for (let r = 0; r < dst.vRow; r++) {
    for (let c = 0; c < dst.vCol; c++) {
      const sum = (((a.get(r, c) as number) + (b.get(r, c) as number)) | 0) as number;
      const scaled = f32(f32(f32(f32(sum) / DEQ_SHIFT) * scale) * DEQ_SHIFT);
      const relu = Number.isNaN(scaled) || scaled > 0 ? scaled : 0;
      tmp.set(r, c, sum);
      a.setBits(r, c, f32Bits(scaled));
      b.setBits(r, c, f32Bits(relu));
      dst.set(r, c, toHalf(relu));
    }
  }
}

export const module: SemanticsModule = {
  semantics: { elementwise, 'elementwise-scalar': elementwiseScalar, 'elementwise-ternary': elementwiseTernary, 'elementwise-convert': elementwiseConvert },
  operations: {
    elementwise: BINARY_OPERATIONS,
    'elementwise-scalar': BINARY_OPERATIONS,
    'elementwise-ternary': TERNARY_OPERATIONS,
    'elementwise-convert': ['addreluconv', 'adddeqrelu'],
  },
};
