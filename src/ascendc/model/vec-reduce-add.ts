import { throwIfProblems } from './errors';
import { laneEnables } from './mask';
import { InstructionMemory, atomically } from './memory';
import { Add, adder, bitsToNumber, numberToBits, pairTree, sequentialSum } from './numerics';
import { DTYPE_SIZE, Product, VecReduceAddParams, laneAddress, lanesPerRepeat, resolveVecReduceAdd } from './params';
import { validateVecReduceAdd } from './validate';

/** The three accumulation orders of vec_reduce_add (seed 002; reference/ascendc.md §4). */
export type VecReduceAddOrder = 'tree' | 'a2' | 'oddeven';

/** tree: Atlas training (910), 200/300/500 inference (310), inference AI/Vector Core (310P); a2: Atlas A2; oddeven: Atlas 200I/500 A2 (310B). */
export function vecReduceAddOrder(product: Product): VecReduceAddOrder {
  switch (product) {
    case 'A2':
      return 'a2';
    case '310B':
      return 'oddeven';
    default:
      return 'tree';
  }
}

/** Repeats per sequential chunk in the A2 order: the seed's example splits 1024 repeats as 4 x 255 + 4. */
export const A2_CHUNK = 255;

/**
 * The result of vec_reduce_add over the repeat vectors `v` (each L lanes, masked lanes already +0),
 * in the given order. Write T(x) for the adjacent-pair binary tree:
 *
 *   tree:    rs_r = T(v_r); res = T(rs_0 .. rs_{R-1})
 *   a2:      rs_r = T(v_r); chunk_k = ((rs_{255k} + rs_{255k+1}) + ...) over up to 255 repeat sums,
 *            left to right; res = T(chunk_0 ..)   (e.g. R = 1024: ((A+B)+(C+D))+E)
 *   oddeven: P = R div 2; A = v_0 + v_2 + ... + v_{2P-2} and B = v_1 + v_3 + ... + v_{2P-1}, lane-wise
 *            and left to right; D = A + B, then D = D + v_{R-1} if R is odd (R = 1: D = v_0);
 *            res = T(D over the L lanes)
 */
export function vecReduceAddCombine(v: readonly (readonly number[])[], order: VecReduceAddOrder, add: Add): number {
  const R = v.length;
  switch (order) {
    case 'tree':
      return pairTree(
        v.map((lanes) => pairTree(lanes, add)),
        add,
      );
    case 'a2': {
      const rs = v.map((lanes) => pairTree(lanes, add));
      const chunks: number[] = [];
      for (let k = 0; k < R; k += A2_CHUNK) chunks.push(sequentialSum(rs.slice(k, k + A2_CHUNK), add));
      return pairTree(chunks, add);
    }
    case 'oddeven': {
      const laneWise = (x: readonly number[], y: readonly number[]) => x.map((xi, l) => add(xi, y[l]));
      let D: readonly number[];
      if (R === 1) {
        D = v[0];
      } else {
        const P = Math.floor(R / 2);
        let A = v[0];
        let B = v[1];
        for (let i = 1; i < P; i++) {
          A = laneWise(A, v[2 * i]);
          B = laneWise(B, v[2 * i + 1]);
        }
        D = laneWise(A, B);
        if (R % 2 === 1) D = laneWise(D, v[R - 1]);
      }
      return pairTree(D, add);
    }
  }
}

/**
 * TIK vec_reduce_add(mask, dst, src, work_tensor, repeat_times, src_rep_stride) (seed 002).
 *
 * Repeat r reads lane l (block stride fixed at 1) at laneAddress(src, r, l, 1, src_rep_stride); masked
 * lanes count as +0 in their tree positions. The sum, in the order of the product
 * (`vecReduceAddOrder`), is written to dst[0] only. Every add is rounded in the element type and, for
 * half in saturation mode, saturated (inf -> +-65504, NaN -> +0). work_tensor's contents afterwards are
 * unspecified: the model neither reads nor writes it, it only checks that the `repeat_times` elements
 * lie inside the memory.
 */
export function vecReduceAdd(memory: InstructionMemory, dst: number, src: number, work: number, params: VecReduceAddParams): void {
  throwIfProblems('vec_reduce_add', validateVecReduceAdd(dst, src, work, params));
  const p = resolveVecReduceAdd(params);
  const dtype = p.dtype as 'f16' | 'f32';
  atomically(memory, (mem) => {
    const sz = DTYPE_SIZE[dtype];
    const enabled = laneEnables(p.mask, sz);
    mem.checkWork(work, p.repeat * sz);

    const v: number[][] = [];
    for (let r = 0; r < p.repeat; r++) {
      const lanes: number[] = [];
      for (let l = 0; l < lanesPerRepeat(sz); l++) {
        lanes.push(enabled[l] ? bitsToNumber(dtype, mem.readBits(laneAddress(src, r, l, 1, p.srcRepStride, sz), sz)) : 0);
      }
      v.push(lanes);
    }
    const result = vecReduceAddCombine(v, vecReduceAddOrder(p.product), adder(dtype, p.sat));
    mem.writeBits(dst, sz, numberToBits(dtype, result));
  });
}
