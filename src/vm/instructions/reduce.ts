import { attrOf } from '../../syntax/ast';
import { ElementCodec, Scalar } from '../numerics/elements';
import { Tile } from '../memory';
import { pairTree } from '../numerics/pair-tree';
import { saturateF16, saturates } from '../numerics/saturation';
import { InstructionContext, NumericsProfile, SemanticsModule } from './context';
import { copyElement } from './memory';

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
function summer(accumulate: ElementCodec): Combine {
  return (acc, x) => (typeof acc === 'bigint' || typeof x === 'bigint' ? accumulate.round(BigInt(acc) + BigInt(x)) : accumulate.round(acc + x));
}

function reduceKind(ctx: InstructionContext): 'min' | 'max' | 'sum' {
  const kind = ctx.bound.spec.reduce;
  if (!kind) ctx.trap(`${ctx.bound.spec.opName} has no reduction kind in spec/instructions`);
  if (kind === 'prod') ctx.trap(`${ctx.bound.spec.opName}: products are not implemented yet`);
  return kind;
}

/** The add of a float sum, rounded in the element type and, in the npu fp16 saturation mode, saturated. */
function floatAdd(ctx: InstructionContext, codec: ElementCodec): (a: number, b: number) => number {
  const saturate = saturates(ctx.tile('dst').type.dtype, ctx.numerics, ctx.flag('saturation'));
  return saturate ? (a, b) => saturateF16(codec.round(a + b) as number) : (a, b) => codec.round(a + b) as number;
}

/**
 * A float row sum in the NPU's order (docs/numerics.md): a row of at most one repeat (256 bytes, L
 * lanes) is one adjacent-pair tree; a longer row is first folded lane-wise, repeat after repeat, into
 * L lanes, then reduced by the tree.
 */
function npuRowSum(row: number[], lanes: number, add: (a: number, b: number) => number): number {
  if (row.length <= lanes) return pairTree(row, add);
  const acc = row.slice(0, lanes);
  for (let k = lanes; k < row.length; k++) acc[k % lanes] = add(acc[k % lanes], row[k]);
  return pairTree(acc, add);
}

/** Copies the bits of src(r, c) to dst(dr, dc): min and max select an element, they compute nothing. */
function copySelected(src: Tile, r: number, c: number, dst: Tile, dr: number, dc: number): void {
  copyElement(src.bytes, src.elementIndex(r, c) * src.codec.size, dst.bytes, dst.elementIndex(dr, dc) * dst.codec.size, dst.codec.size);
}

/**
 * TCOLMIN/TCOLMAX/TCOLSUM: dst[0, j] = reduce over valid rows of src[i, j]. Sums add row after row,
 * rounding in the element type after every add: the NPU's order for isBinary = false too.
 */
export function colReduce(ctx: InstructionContext): void {
  const src = ctx.tile('src');
  const dst = ctx.tile('dst');
  if (src.vRow === 0 || src.vCol === 0) return;
  const binary = attrOf(ctx.op, 'isBinary');
  if (binary?.kind === 'bool' && binary.value) ctx.trap('tcolsum with isBinary = true (pairwise order) is not implemented yet');
  const kind = reduceKind(ctx);
  if (kind !== 'sum') {
    const replace = replaces(kind, ctx.numerics);
    for (let c = 0; c < src.vCol; c++) copySelected(src, argScan(src.vRow, (r) => src.get(r, c), replace), c, dst, 0, c);
    return;
  }
  const combine: Combine = dst.codec.isFloat ? (floatAdd(ctx, dst.codec) as Combine) : summer(dst.codec);
  for (let c = 0; c < src.vCol; c++) {
    let acc = src.get(0, c);
    for (let r = 1; r < src.vRow; r++) acc = combine(acc, src.get(r, c));
    dst.set(0, c, acc);
  }
}

/**
 * TROWMIN/TROWMAX/TROWSUM: dst[i, 0] = reduce over valid cols of src[i, j]. Float sums: cpu-sim adds
 * in order (f16 accumulating in f32), as the reference simulator does; npu adds in the vector unit's
 * tree order (`npuRowSum`).
 */
export function rowReduce(ctx: InstructionContext): void {
  const src = ctx.tile('src');
  const dst = ctx.tile('dst');
  const kind = reduceKind(ctx);
  if (kind !== 'sum') {
    const replace = replaces(kind, ctx.numerics);
    for (let r = 0; r < src.vRow; r++) copySelected(src, r, argScan(src.vCol, (c) => src.get(r, c), replace), dst, r, 0);
    return;
  }
  if (ctx.numerics === 'npu' && src.codec.isFloat) {
    const add = floatAdd(ctx, dst.codec);
    const lanes = 256 / src.codec.size;
    for (let r = 0; r < src.vRow; r++) {
      const row: number[] = [];
      for (let c = 0; c < src.vCol; c++) row.push(src.get(r, c) as number);
      dst.set(r, 0, npuRowSum(row, lanes, add));
    }
    return;
  }
  const accumulator = src.type.dtype === 'f16' ? f32Accumulator : dst.codec;
  const combine = summer(accumulator);
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
  if (kind === 'sum') ctx.trap('an arg-reduction needs reduce = min or max in spec/instructions');
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

/** TROWARGMIN/TROWARGMAX: dst[i, 0] = the column (within the valid region) of row i's min/max; ties keep the first. */
export function rowArgReduce(ctx: InstructionContext): void {
  const src = ctx.tile('src');
  const dst = ctx.tile('dst');
  const replace = replaces(argKind(ctx), ctx.numerics);
  for (let r = 0; r < src.vRow; r++) dst.set(r, 0, argScan(src.vCol, (c) => src.get(r, c), replace));
}

/** TCOLARGMIN/TCOLARGMAX: dst[0, j] = the row (within the valid region) of column j's min/max; ties keep the first. */
export function colArgReduce(ctx: InstructionContext): void {
  const src = ctx.tile('src');
  const dst = ctx.tile('dst');
  const replace = replaces(argKind(ctx), ctx.numerics);
  for (let c = 0; c < src.vCol; c++) dst.set(0, c, argScan(src.vRow, (r) => src.get(r, c), replace));
}

export const module: SemanticsModule = {
  semantics: { 'col-reduce': colReduce, 'row-reduce': rowReduce, 'row-arg-reduce': rowArgReduce, 'col-arg-reduce': colArgReduce },
};
