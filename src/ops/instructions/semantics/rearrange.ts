import { deinterleaveShapeProblem } from '../checks/movement';
import { Tile } from '../../../machine/memory';
import { InstructionContext, SemanticsModule } from './context';
import { copyElement } from './memory';

/** Copies the bits of element (fr, fc) of `from` to element (tr, tc) of `to` (same element size). */
function copyAt(from: Tile, fr: number, fc: number, to: Tile, tr: number, tc: number): void {
  const size = to.codec.size;
  copyElement(from.bytes, from.elementIndex(fr, fc) * size, to.bytes, to.elementIndex(tr, tc) * size, size);
}

/**
 * The simulator moves values through the destination's C++ type (SetElement), so two different
 * element types of one size convert there; the NPU moves bits. Only the shared behaviour is run.
 */
function requireSameTypeUnderCpuSim(ctx: InstructionContext, name: string, a: Tile, b: Tile): void {
  if (ctx.numerics === 'cpu-sim' && a.type.dtype !== b.type.dtype) {
    ctx.trap(`${name} from ${a.type.dtype} to ${b.type.dtype} under cpu-sim (a value conversion in the simulator) is not implemented yet`);
  }
}

/** TTRANS: dst[c, r] = src[r, c] over src's valid region, whatever dst's valid shape says (as pto-isa sizes it). */
export function transpose(ctx: InstructionContext): void {
  const dst = ctx.tile('dst');
  const src = ctx.tile('src');
  requireSameTypeUnderCpuSim(ctx, 'ttrans', src, dst);
  if (src.vCol > dst.type.rows || src.vRow > dst.type.cols) {
    ctx.trap(
      `the transpose of src's valid region ${src.vRow}x${src.vCol} is ${src.vCol}x${src.vRow}, which does not fit in dst (${dst.type.rows}x${dst.type.cols})`,
    );
  }
  for (let r = 0; r < src.vRow; r++) {
    for (let c = 0; c < src.vCol; c++) copyAt(src, r, c, dst, c, r);
  }
}

/** TCONCAT: row r of dst = the first n0 elements of src0's row, then the first n1 of src1's. */
export function concat(ctx: InstructionContext): void {
  const dst = ctx.tile('dst');
  const src0 = ctx.tile('src0');
  const src1 = ctx.tile('src1');
  const idx0 = ctx.optionalTile('src0Idx');
  const idx1 = ctx.optionalTile('src1Idx');
  const dstIdx = ctx.optionalTile('dstIdx');
  // The simulator asserts this in both forms; on the NPU only A5's basic form requires it (the verifier checks that).
  if (ctx.numerics === 'cpu-sim' && src0.vCol + src1.vCol !== dst.vCol) {
    ctx.trap(`dst valid cols (${dst.vCol}) must equal src0 valid cols (${src0.vCol}) + src1 valid cols (${src1.vCol})`);
  }
  if (!idx0 || !idx1) {
    concatRows(ctx, dst, src0, src1, () => [src0.vCol, src1.vCol]);
    return;
  }
  concatRows(ctx, dst, src0, src1, (r) => indexedCounts(ctx, r, dst, idx0, idx1, dstIdx));
}

function concatRows(ctx: InstructionContext, dst: Tile, src0: Tile, src1: Tile, counts: (row: number) => [number, number]): void {
  for (let r = 0; r < dst.vRow; r++) {
    const [n0, n1] = counts(r);
    if (n0 > src0.type.cols || n1 > src1.type.cols || n0 + n1 > dst.type.cols) {
      ctx.trap(`row ${r} concatenates ${n0} + ${n1} columns: more than src0 (${src0.type.cols}), src1 (${src1.type.cols}) or dst (${dst.type.cols}) has`);
    }
    for (let c = 0; c < n0; c++) copyAt(src0, r, c, dst, r, c);
    for (let c = 0; c < n1; c++) copyAt(src1, r, c, dst, r, n0 + c);
  }
}

/**
 * Per-row column counts of the indexed form: the index value divided by the index element size
 * (both implementations divide so). npu clamps the counts to dst's valid cols and writes the
 * clamped total to dstIdx; cpu-sim takes them as they are and writes the sum of the raw values.
 */
function indexedCounts(ctx: InstructionContext, r: number, dst: Tile, idx0: Tile, idx1: Tile, dstIdx: Tile | undefined): [number, number] {
  const size = idx0.codec.size;
  // The C++ code reads the index into an unsigned int: negative values become large counts.
  const raw0 = Number(idx0.get(r, 0)) >>> 0;
  const raw1 = Number(idx1.get(r, 0)) >>> 0;
  const n0 = Math.floor(raw0 / size);
  const n1 = Math.floor(raw1 / size);
  if (ctx.numerics === 'cpu-sim') {
    dstIdx?.set(r, 0, idx0.codec.round(raw0 + raw1));
    return [n0, n1];
  }
  const wrap = (v: number) => Number(idx0.codec.round(v));
  if (dstIdx) {
    const total = wrap(n0 + n1);
    const limit = wrap(dst.vCol);
    dstIdx.set(r, 0, wrap((total < limit ? total : limit) * size));
  }
  const c0 = Math.min(n0, dst.vCol);
  return [c0, Math.min(n1, dst.vCol - c0)];
}

/** TINTERLEAVE: stream s = src0[r,0], src1[r,0], src0[r,1], ...; dst0 = s[0, V), dst1 = s[V, 2V). */
export function interleave(ctx: InstructionContext): void {
  const [dst0, dst1, src0, src1] = ['dst0', 'dst1', 'src0', 'src1'].map((n) => ctx.tile(n));
  requireEvenCols(ctx, 'dst0', dst0.vCol);
  const half = dst0.vCol / 2;
  for (let r = 0; r < dst0.vRow; r++) {
    for (let k = 0; k < half; k++) {
      copyAt(src0, r, k, dst0, r, 2 * k);
      copyAt(src1, r, k, dst0, r, 2 * k + 1);
      copyAt(src0, r, half + k, dst1, r, 2 * k);
      copyAt(src1, r, half + k, dst1, r, 2 * k + 1);
    }
  }
}

/** TDEINTERLEAVE: dst0 = the even positions, dst1 = the odd positions of src0 ++ src1 (or of src0 alone). */
export function deinterleave(ctx: InstructionContext): void {
  const dst0 = ctx.tile('dst0');
  const dst1 = ctx.tile('dst1');
  const src0 = ctx.tile('src0');
  const src1 = ctx.optionalTile('src1');
  const problem = deinterleaveShapeProblem(dst0, dst1, src0, src1);
  if (problem) ctx.trap(problem);
  // Stream position p lives in src0 for p < src0's valid cols (two-source form), else in src1.
  const width = src0.vCol;
  const at = (p: number): [Tile, number] => (p < width ? [src0, p] : [src1!, p - width]);
  for (let r = 0; r < dst0.vRow; r++) {
    for (let k = 0; k < dst0.vCol; k++) {
      const [even, ec] = at(2 * k);
      const [odd, oc] = at(2 * k + 1);
      copyAt(even, r, ec, dst0, r, k);
      copyAt(odd, r, oc, dst1, r, k);
    }
  }
}

function requireEvenCols(ctx: InstructionContext, name: string, cols: number): void {
  if (cols % 2 !== 0) ctx.trap(`${name} valid cols (${cols}) must be even`);
}

export const module: SemanticsModule = { semantics: { transpose, concat, interleave, deinterleave } };
