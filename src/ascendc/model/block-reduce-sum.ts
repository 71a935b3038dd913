import { throwIfProblems } from './errors';
import { laneEnables } from './mask';
import { InstructionMemory, atomically } from './memory';
import { adder, bitsToNumber, numberToBits, pairTree } from './numerics';
import { BLOCKS_PER_REPEAT, BlockReduceSumParams, DTYPE_SIZE, elemsPerBlock, laneAddress, resolveBlockReduceSum } from './params';
import { validateBlockReduceSum } from './validate';

/**
 * BlockReduceSum<T>(dst, src, repeatTime, mask, dstRepStride, srcBlkStride, srcRepStride)
 * (seed 001, intrinsic vcgadd; reference/ascendc.md §3).
 *
 * For each repeat r = 0..R-1 and each data block b = 0..7 (E = 16 lanes for half, 8 for float):
 *   the E lanes b*E .. b*E+E-1, read at laneAddress(src, r, l, srcBlkStride, srcRepStride), with masked
 *   lanes replaced by +0 in their place;
 *   if no lane of the block is active: A2 (and 910, 310P) write nothing, the old dst stays;
 *                                      310B writes 0 ("the sum ... is filled with 0");
 *   else s = adjacent-pair binary tree ((x0+x1)+(x2+x3))+... over the E values, every add rounded
 *        (and, for half in saturation mode, saturated);
 *   dst element r*dstRepStride*8 + b = s.
 * All reads of a repeat happen before its writes; repeats run in order, so with dstRepStride = 0 the
 * last repeat stays. repeatTime = 0 writes nothing.
 */
export function blockReduceSum(memory: InstructionMemory, dst: number, src: number, params: BlockReduceSumParams): void {
  throwIfProblems('BlockReduceSum', validateBlockReduceSum(dst, src, params));
  const p = resolveBlockReduceSum(params);
  const dtype = p.dtype as 'f16' | 'f32';
  atomically(memory, (mem) => {
    const sz = DTYPE_SIZE[dtype];
    const E = elemsPerBlock(sz);
    const enabled = laneEnables(p.mask, sz);
    const add = adder(dtype, p.sat);

    for (let r = 0; r < p.repeat; r++) {
      mem.startRepeat?.(r);
      // Reads and sums of the repeat: one result per block, or null for "write nothing".
      const sums: (number | null)[] = [];
      for (let b = 0; b < BLOCKS_PER_REPEAT; b++) {
        const lanes = Array.from({ length: E }, (_, e) => b * E + e);
        if (!lanes.some((l) => enabled[l])) {
          sums.push(p.product === '310B' ? 0 : null);
          continue;
        }
        const values = lanes.map((l) => (enabled[l] ? bitsToNumber(dtype, mem.readBits(laneAddress(src, r, l, p.srcBlkStride, p.srcRepStride, sz), sz)) : 0));
        sums.push(pairTree(values, add));
      }
      // Writes of the repeat.
      for (let b = 0; b < BLOCKS_PER_REPEAT; b++) {
        const s = sums[b];
        if (s === null) continue;
        mem.writeBits(dst + (r * p.dstRepStride * BLOCKS_PER_REPEAT + b) * sz, sz, numberToBits(dtype, s));
      }
    }
  });
}
