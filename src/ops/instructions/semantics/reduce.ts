import { TargetName } from '../../../spec/schema';
import { ElemType } from '../../../types/type';
import { binaryOperation, x86Nan } from '../../../numerics/arithmetic';
import { ElementCodec, Scalar } from '../../../numerics/elements';
import { Tile } from '../../../machine/memory';
import { pairTree } from '../../../numerics/pair-tree';
import { saturateF16, saturates } from '../../../numerics/saturation';
import { InstructionContext, NumericsProfile, SemanticsModule } from './context';
import { copyElement } from './memory';
import { fastArgScan, fastRowSums, npuF32RowSums } from './fast-reduce';
import { readValues } from '../../../machine/tile-loops';

type Combine = (acc: Scalar, x: Scalar) => Scalar;

/**
 * min/max keep the first element and replace it only with a strictly smaller/greater one, so between
 * +0 and -0 the first wins. NaN: under cpu-sim, as the reference simulator's strict `<` scan does, a
 * NaN wins only when it comes first; under npu, NaN propagates (the vector unit's vmin/vmax give NaN
 * for a NaN input): the first NaN reached wins. This is whether `x` replaces the current `acc`.
 */
function replaces(kind: 'min' | 'max', numerics: NumericsProfile): (x: Scalar, acc: Scalar) => boolean {
  const better = kind === 'min' ? (x: Scalar, acc: Scalar) => x < acc : (x: Scalar, acc: Scalar) => x > acc;
  if (numerics === 'cpu-sim') return better;
  return (x, acc) => !Number.isNaN(acc) && (Number.isNaN(x) || better(x, acc)); // the first NaN reached stays
}

/** An in-order sum, rounded (floats) or wrapped (integers) in `accumulate` after every add. */
function summer(accumulate: ElementCodec, numerics: NumericsProfile, nanOrder: NanOrder = 'sum-first'): Combine {
  const add = hostIndependentAdd(numerics, nanOrder);
  return (acc, x) => (typeof acc === 'bigint' || typeof x === 'bigint' ? accumulate.round(BigInt(acc) + BigInt(x)) : accumulate.round(add(acc, x)));
}

/**
 * Which NaN an x86 add of two NaNs keeps: the running sum's or the new element's. The simulator's compiler orders the
 * operands of `sum += x` as it likes. Measured on the golden softmax cases: f32 sums keep the sum's NaN (all rows);
 * f16 rows summed in f32 keep the element's in 86 of 89 rows (3 rows follow neither order: see docs/numerics.md).
 */
type NanOrder = 'sum-first' | 'element-first';

/**
 * acc + x in double. A NaN result follows the simulator's x86 rule (`x86Nan`: one NaN operand propagates, per
 * `nanOrder` when both are; inf - inf gives the negative default NaN), whatever the host's `+` gives.
 */
function hostIndependentAdd(_numerics: NumericsProfile, nanOrder: NanOrder = 'sum-first'): (acc: number, x: number) => number {
  // npu too: the NPU's NaN propagation is not documented, and the host's `+` would depend on the JIT's operand order.
  return (acc, x) => {
    const v = acc + x;
    if (!Number.isNaN(v)) return v;
    return nanOrder === 'sum-first' ? x86Nan(acc, x) : x86Nan(x, acc);
  };
}

function reduceKind(ctx: InstructionContext): 'min' | 'max' | 'sum' | 'prod' {
  const kind = ctx.bound.spec.reduce;
  if (!kind) ctx.trap(`no reduction kind in spec/instructions`);
  return kind;
}

/** The add of a float sum, rounded in the element type and, in the npu fp16 saturation mode, saturated. */
function floatAdd(ctx: InstructionContext, codec: ElementCodec): (a: number, b: number) => number {
  const saturate = saturates(ctx.tile('dst').type.dtype, ctx, ctx.flag('saturation'));
  const add = hostIndependentAdd(ctx.numerics);
  return saturate ? (a, b) => saturateF16(codec.round(a + b) as number) : (a, b) => codec.round(add(a, b)) as number;
}

/**
 * A float row sum in the NPU's order (docs/numerics.md): a row of at most one repeat (256 bytes, L
 * lanes) is one adjacent-pair tree; a longer row is first folded lane-wise, repeat after repeat, into
 * L lanes, then reduced by the tree.
 */
function npuRowSum(row: Float64Array, lanes: number, add: (a: number, b: number) => number): number {
  if (row.length <= lanes) return pairTree(row, add);
  const acc = row.slice(0, lanes);
  for (let k = lanes; k < row.length; k++) acc[k % lanes] = add(acc[k % lanes], row[k]);
  return pairTree(acc, add);
}

/**
 * A float row sum in A5's order: an accumulator starting at +0 takes, repeat after repeat, the pair tree of the
 * repeat's L lanes (pto-isa npu/a5/TRowReduce.hpp TRowReduceProc: vbr 0, then vcadd and vadd per repeat; PTOAS's
 * template_trowsum does the same). So ((+0 + tree(x0..xL-1)) + tree(xL..x2L-1)) + ..., and a sum of zeros is +0.
 */
function a5RowSum(row: Float64Array, lanes: number, add: (a: number, b: number) => number): number {
  let acc = 0;
  for (let k = 0; k < row.length; k += lanes) acc = add(acc, pairTree(row.subarray(k, Math.min(k + lanes, row.length)), add));
  return acc;
}

/** Copies the bits of src(r, c) to dst(dr, dc): min and max select an element, they compute nothing. */
function copySelected(src: Tile, r: number, c: number, dst: Tile, dr: number, dc: number): void {
  copyElement(src.bytes, src.elementIndex(r, c) * src.codec.size, dst.bytes, dst.elementIndex(dr, dc) * dst.codec.size, dst.codec.size);
}

/** The multiply of a product, rounded (floats) or wrapped (integers) in the element type; npu f16 saturates. */
function multiplier(ctx: InstructionContext, dtype: ElemType): Combine {
  const mul = binaryOperation('mul', dtype, ctx.numerics, ctx.trap);
  return saturates(dtype, ctx, ctx.flag('saturation')) ? (a, b) => saturateF16(mul(a, b) as number) : mul;
}

/** The add of a sum in the element type: floats as floatAdd, integers wrapped. */
function adder(ctx: InstructionContext, dst: Tile): Combine {
  return dst.codec.isFloat ? (floatAdd(ctx, dst.codec) as Combine) : summer(dst.codec, ctx.numerics);
}

/**
 * TCOLSUM with isBinary = true on the NPU: adjacent rows are added pairwise, t[i] = x[2i] + x[2i + 1], and the
 * halving repeats over t until one row is left. An odd last row joins a pair of the level below:
 * - A2/A3 (TColSum's BinarySum) adds it to t[0]: 5 rows give ((x0 + x1) + x4) + (x2 + x3); one row is x0 itself.
 * - A5 (TColSum_Binary) adds the pair to it, into the last pair: 5 rows give (x0 + x1) + (x4 + (x2 + x3)); one row
 *   is x0 + 0, since the accumulator register starts at zero (so -0 gives +0).
 */
export function binaryColumnSum(values: ArrayLike<Scalar>, add: Combine, target: TargetName, zero: Scalar): Scalar {
  if (values.length === 1) return target === 'a5' ? add(values[0], zero) : values[0];
  // Halved in place: level i takes 2i and 2i + 1, which no earlier step of the level has overwritten.
  const level = copyOfLine(values);
  for (let n = level.length; n > 1; n >>= 1) {
    const half = n >> 1;
    for (let i = 0; i < half; i++) level[i] = add(level[2 * i], level[2 * i + 1]);
    if (n % 2 === 1) {
      const odd = level[n - 1];
      if (target === 'a5') level[half - 1] = add(odd, level[half - 1]);
      else level[0] = add(level[0], odd);
    }
  }
  return level[0];
}

/**
 * A line of a tile's values, `at(k)` for k < n: a Float64Array for numbers (a JS array may canonicalize a NaN it
 * stores, depending on the JIT's feedback, which would make a NaN's sign vary from run to run), an array for bigints.
 */
function lineOf(n: number, at: (k: number) => Scalar): Float64Array | Scalar[] {
  const first = n > 0 ? at(0) : 0;
  if (typeof first === 'bigint') return Array.from({ length: n }, (_, k) => at(k));
  const line = new Float64Array(n);
  for (let k = 0; k < n; k++) line[k] = at(k) as number;
  return line;
}

function copyOfLine(values: ArrayLike<Scalar>): Float64Array | Scalar[] {
  return values instanceof Float64Array ? values.slice() : Array.from(values);
}

/** acc = f(acc, x) over the line from `start` (its first element when none). */
function fold(line: ArrayLike<Scalar>, f: Combine, start?: Scalar): Scalar {
  let acc = start ?? line[0];
  for (let k = start === undefined ? 1 : 0; k < line.length; k++) acc = f(acc, line[k]);
  return acc;
}

/**
 * TCOLMIN/TCOLMAX/TCOLSUM/TCOLPROD: dst[0, j] = reduce over valid rows of src[i, j]. Sums and products go row after
 * row, rounding in the element type after every step: the NPU's order (isBinary = false) and the simulator's, which
 * starts a sum at +0 (so a column of -0 sums to +0 under cpu-sim). tcolsum isBinary = true: the NPU's pairwise order
 * (`binaryColumnSum`); the simulator ignores the flag.
 */
export function colReduce(ctx: InstructionContext): void {
  const src = ctx.tile('src');
  const dst = ctx.tile('dst');
  if (src.vRow === 0 || src.vCol === 0) return;
  const kind = reduceKind(ctx);
  if (kind === 'min' || kind === 'max') {
    if (fastArgScan(src, src.vRow, src.vCol, 'col', kind, ctx.numerics, (c, r) => copySelected(src, r, c, dst, 0, c))) return;
    const replace = replaces(kind, ctx.numerics);
    for (let c = 0; c < src.vCol; c++)
      copySelected(
        src,
        argScan(src.vRow, (r) => src.get(r, c), replace),
        c,
        dst,
        0,
        c,
      );
    return;
  }
  const column = (c: number) => lineOf(src.vRow, (r) => src.get(r, c));
  if (kind === 'prod') {
    const mul = multiplier(ctx, dst.type.dtype);
    for (let c = 0; c < src.vCol; c++) dst.set(0, c, fold(column(c), mul));
    return;
  }
  const add = adder(ctx, dst);
  if (ctx.attribute('isBinary') === true && ctx.numerics === 'npu') {
    const zero = typeof src.get(0, 0) === 'bigint' ? 0n : 0;
    for (let c = 0; c < src.vCol; c++) dst.set(0, c, binaryColumnSum(column(c), add, ctx.target, zero));
    return;
  }
  const start = ctx.numerics === 'cpu-sim' && dst.codec.isFloat ? 0 : undefined;
  for (let c = 0; c < src.vCol; c++) dst.set(0, c, fold(column(c), add, start));
}

/**
 * TROWPROD on the NPU (A2/A3 TRowProd): L = 32 / size lanes start at 1; lane k multiplies columns k, k + L, k + 2L, ...
 * in order (vmul in the element type, `laneMul`); then the scalar unit multiplies the L lanes in order (`finalMul`).
 */
export function npuRowProduct(row: ArrayLike<Scalar>, lanes: number, one: Scalar, laneMul: Combine, finalMul: (lanes: ArrayLike<Scalar>) => Scalar): Scalar {
  const acc = lineOf(lanes, () => one);
  for (let j = 0; j < row.length; j++) acc[j % lanes] = laneMul(acc[j % lanes], row[j]);
  return finalMul(acc);
}

/** TROWPROD: dst[i, 0] = product of the valid cols of row i; see npuRowProduct for the npu order. */
function rowProduct(ctx: InstructionContext, src: Tile, dst: Tile): void {
  const dtype = dst.type.dtype;
  const mul = multiplier(ctx, dtype);
  const rowOf = (r: number) => lineOf(src.vCol, (c) => src.get(r, c));
  if (ctx.numerics === 'cpu-sim') {
    for (let r = 0; r < src.vRow; r++) dst.set(r, 0, fold(rowOf(r), mul));
    return;
  }
  const lanes = 32 / src.codec.size;
  const one: Scalar = dst.codec.isFloat ? 1 : typeof src.get(0, 0) === 'bigint' ? 1n : 1;
  // The scalar unit: f32 products in f32, f16 lanes widened to f32 and rounded to f16 once, integers wrapped.
  const finalMul =
    dtype === 'f16'
      ? (acc: ArrayLike<Scalar>) => dst.codec.round(fold(acc, (a, b) => Math.fround((a as number) * (b as number))))
      : (acc: ArrayLike<Scalar>) => fold(acc, binaryOperation('mul', dtype, ctx.numerics, ctx.trap));
  for (let r = 0; r < src.vRow; r++) dst.set(r, 0, npuRowProduct(rowOf(r), lanes, one, mul, finalMul));
}

/**
 * TROWMIN/TROWMAX/TROWSUM: dst[i, 0] = reduce over valid cols of src[i, j]. Float sums: cpu-sim adds
 * in order (f16 accumulating in f32), as the reference simulator does; npu adds in the vector unit's
 * tree order (`npuRowSum`; on A5 `a5RowSum`, one tree per repeat).
 */
export function rowReduce(ctx: InstructionContext): void {
  const src = ctx.tile('src');
  const dst = ctx.tile('dst');
  const kind = reduceKind(ctx);
  if (kind === 'prod') return rowProduct(ctx, src, dst);
  if (kind !== 'sum') {
    if (fastArgScan(src, src.vRow, src.vCol, 'row', kind, ctx.numerics, (r, c) => copySelected(src, r, c, dst, r, 0))) return;
    const replace = replaces(kind, ctx.numerics);
    for (let r = 0; r < src.vRow; r++)
      copySelected(
        src,
        r,
        argScan(src.vCol, (c) => src.get(r, c), replace),
        dst,
        r,
        0,
      );
    return;
  }
  if (ctx.numerics === 'npu' && src.codec.isFloat) {
    const a5 = ctx.target === 'a5';
    const fast = dst.type.dtype === 'f32' ? npuF32RowSums(src, dst, src.vRow, src.vCol, a5) : undefined;
    if (fast) {
      fast();
      return ctx.repeatWith(fast);
    }
    const add = floatAdd(ctx, dst.codec);
    const lanes = 256 / src.codec.size;
    // Float64Arrays keep a NaN's bits; a JS array may not (see numerics/pair-tree.ts).
    const values = readValues(src, src.vRow, src.vCol);
    const sum = a5 ? a5RowSum : npuRowSum;
    for (let r = 0; r < src.vRow; r++) dst.set(r, 0, sum(values.subarray(r * src.vCol, (r + 1) * src.vCol), lanes, add));
    return;
  }
  const run = ctx.numerics === 'cpu-sim' && dst.type.dtype === 'f32' ? fastRowSums(src, dst, src.vRow, src.vCol, ctx.vectorKernels) : undefined;
  if (run) {
    run();
    return ctx.repeatWith(run);
  }
  const accumulator = src.type.dtype === 'f16' ? f32Accumulator : dst.codec;
  const combine = summer(accumulator, ctx.numerics, src.type.dtype === 'f16' ? 'element-first' : 'sum-first');
  for (let r = 0; r < src.vRow; r++) {
    let acc = src.get(r, 0);
    for (let c = 1; c < src.vCol; c++) acc = combine(acc, src.get(r, c));
    dst.set(r, 0, acc);
  }
}

const f32Accumulator: ElementCodec = {
  size: 4,
  read: () => 0,
  write: () => undefined,
  round: (v) => Math.fround(Number(v)),
  isFloat: true,
};

function argKind(ctx: InstructionContext): 'min' | 'max' {
  const kind = reduceKind(ctx);
  if (kind === 'sum' || kind === 'prod') ctx.trap('an arg-reduction needs reduce = min or max in spec/instructions');
  return kind as 'min' | 'max';
}

/** The position, among `count` elements read by `at`, of the one a min/max scan keeps. */
function argScan(count: number, at: (k: number) => Scalar, replace: (x: Scalar, acc: Scalar) => boolean): number {
  let best = at(0);
  let index = 0;
  for (let k = 1; k < count; k++) {
    const x = at(k);
    if (replace(x, best)) {
      best = x;
      index = k;
    }
  }
  return index;
}

/**
 * TROWARGMIN/TROWARGMAX: dst[i, 0] = the column (within the valid region) of row i's min/max; ties keep the first.
 * With dstIdx (the value and index form), dst takes the selected element's bits and dstIdx the column.
 */
export function rowArgReduce(ctx: InstructionContext): void {
  const src = ctx.tile('src');
  const dst = ctx.tile('dst');
  const replace = replaces(argKind(ctx), ctx.numerics);
  const index = ctx.optionalTile('dstIdx');
  for (let r = 0; r < src.vRow; r++) {
    const c = argScan(src.vCol, (k) => src.get(r, k), replace);
    if (index) {
      copySelected(src, r, c, dst, r, 0);
      index.set(r, 0, c);
    } else dst.set(r, 0, c);
  }
}

/** TCOLARGMIN/TCOLARGMAX: as the row form, down each column: dst[0, j] the row index, or with dstIdx the value and index. */
export function colArgReduce(ctx: InstructionContext): void {
  const src = ctx.tile('src');
  const dst = ctx.tile('dst');
  const replace = replaces(argKind(ctx), ctx.numerics);
  const index = ctx.optionalTile('dstIdx');
  for (let c = 0; c < src.vCol; c++) {
    const r = argScan(src.vRow, (k) => src.get(k, c), replace);
    if (index) {
      copySelected(src, r, c, dst, 0, c);
      index.set(0, c, r);
    } else dst.set(0, c, r);
  }
}

/**
 * TPAIRREDUCESUM: dst[i, k] = src0[i, 2k] + src0[i, 2k + 1] for k < ceil(C / 2) (C = valid cols), the rest of the
 * valid row 0. cpu-sim (the simulator): an odd C's last pair is src0[i, C - 1] + 0 (so -0 gives +0). npu: an odd C
 * is an error, as the A2/A3 vcpadd sequence drops the last column while the manual pairs it with 0.
 */
export function pairReduceSum(ctx: InstructionContext): void {
  const src = ctx.tile('src0');
  const dst = ctx.tile('dst');
  const cols = dst.vCol;
  if (ctx.numerics === 'npu' && cols % 2 === 1) ctx.trap(`an odd number of valid columns (${cols}) is not implemented yet for --numerics npu`);
  const add = floatAdd(ctx, dst.codec);
  const half = Math.ceil(cols / 2);
  for (let r = 0; r < dst.vRow; r++) {
    for (let k = 0; k < cols; k++) {
      if (k >= half) dst.set(r, k, 0);
      else dst.set(r, k, add(src.get(r, 2 * k) as number, 2 * k + 1 < cols ? (src.get(r, 2 * k + 1) as number) : 0));
    }
  }
}

export const module: SemanticsModule = {
  semantics: {
    'col-reduce': colReduce,
    'row-reduce': rowReduce,
    'row-arg-reduce': rowArgReduce,
    'col-arg-reduce': colArgReduce,
    'pair-reduce-sum': pairReduceSum,
  },
};
