import { throwIfProblems } from './errors';
import { laneEnables } from './mask';
import { InstructionMemory, atomically } from './memory';
import { CopyParams, DTYPE_SIZE, laneAddress, lanesPerRepeat, resolveCopy } from './params';
import { validateCopy } from './validate';

/**
 * Copy<T>(dst, src, mask, repeatTime, CopyRepeatParams{dstStride, srcStride, dstRepeatSize, srcRepeatSize})
 * (seed 003, intrinsic vcopy; reference/ascendc.md §5).
 *
 * For each repeat r = 0..R-1, in order, and each active lane l:
 *   bits at laneAddress(dst, r, l, dstStride, dstRepeatSize) = bits at laneAddress(src, r, l, srcStride, srcRepeatSize)
 * A bit copy: NaN payloads, -0 and subnormals survive; masked lanes and every other byte stay untouched.
 * All reads of a repeat happen before its writes, so overlapping repeats are deterministic and with
 * dstRepeatSize = 0 the last repeat stays. srcStride = 0 makes every block read block 0.
 */
export function copy(memory: InstructionMemory, dst: number, src: number, params: CopyParams): void {
  throwIfProblems('Copy', validateCopy(dst, src, params));
  const p = resolveCopy(params);
  atomically(memory, (mem) => {
    const sz = DTYPE_SIZE[p.dtype];
    const enabled = laneEnables(p.mask, sz);

    for (let r = 0; r < p.repeat; r++) {
      mem.startRepeat?.(r);
      const moved: { lane: number; bits: number }[] = [];
      for (let l = 0; l < lanesPerRepeat(sz); l++) {
        if (enabled[l]) moved.push({ lane: l, bits: mem.readBits(laneAddress(src, r, l, p.srcStride, p.srcRepeatSize, sz), sz) });
      }
      for (const { lane, bits } of moved) {
        mem.writeBits(laneAddress(dst, r, lane, p.dstStride, p.dstRepeatSize, sz), sz, bits);
      }
    }
  });
}
