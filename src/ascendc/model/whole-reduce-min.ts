import { throwIfProblems } from './errors';
import { laneEnables } from './mask';
import { InstructionMemory, atomically } from './memory';
import { bitsToNumber } from './numerics';
import { DTYPE_SIZE, WholeReduceMinParams, laneAddress, lanesPerRepeat, resolveWholeReduceMin } from './params';
import { validateWholeReduceMin, wholeReduceMinDstUnit } from './validate';

/**
 * WholeReduceMin<T>(dst, src, mask, repeatTimes, dstRepStride, srcBlkStride, srcRepStride, order)
 * (seed 000, intrinsic vcmin; reference/ascendc.md §2).
 *
 * For each repeat r = 0..R-1, in order:
 *   vals[l] = the T at laneAddress(src, r, l, srcBlkStride, srcRepStride) for every active lane l;
 *   (v, i)  = the minimum and the smallest lane holding it ("如果存在多个最值，该指令会将最小索引写入目的操作数");
 *             NaN policy (numpy argmin/min): the first NaN lane wins and its bits are the value;
 *   out     = dst + r * dstRepStride * U    (U: 4/8 B for pairs, sizeof(T) for the value, 4 B for the index)
 *   VALUE_INDEX: out+0 = bits(v), out+sz = i     INDEX_VALUE: out+0 = i, out+sz = bits(v)
 *   ONLY_VALUE:  out+0 = bits(v)                 ONLY_INDEX:  out+0 = i as uint32 (4 bytes, also for half)
 * The index is the lane position b*E+e inside the 256-byte logical vector, whatever the strides; in a pair
 * it is a uint16 in the half slot for half and a uint32 in the float slot for float. No arithmetic is
 * done: the selected element's bits are copied, so saturation never applies. repeatTimes = 0 writes
 * nothing; with dstRepStride = 0 every repeat writes the same slot and the last one stays.
 */
export function wholeReduceMin(memory: InstructionMemory, dst: number, src: number, params: WholeReduceMinParams): void {
  throwIfProblems('WholeReduceMin', validateWholeReduceMin(dst, src, params));
  const p = resolveWholeReduceMin(params);
  const dtype = p.dtype as 'f16' | 'f32';
  atomically(memory, (mem) => {
    const sz = DTYPE_SIZE[dtype];
    const enabled = laneEnables(p.mask, sz);
    const unit = wholeReduceMinDstUnit(dtype, p.order);

    for (let r = 0; r < p.repeat; r++) {
      mem.startRepeat?.(r);
      // Reads of the repeat.
      let index = -1;
      let valueBits = 0;
      let value = 0;
      for (let l = 0; l < lanesPerRepeat(sz); l++) {
        if (!enabled[l]) continue;
        const bits = mem.readBits(laneAddress(src, r, l, p.srcBlkStride, p.srcRepStride, sz), sz);
        const x = bitsToNumber(dtype, bits);
        const better = index < 0 || (!Number.isNaN(value) && (Number.isNaN(x) || x < value));
        if (better) {
          index = l;
          valueBits = bits;
          value = x;
        }
      }
      // Writes of the repeat.
      const out = dst + r * p.dstRepStride * unit;
      switch (p.order) {
        case 'ORDER_VALUE_INDEX':
          mem.writeBits(out, sz, valueBits);
          mem.writeBits(out + sz, sz, index);
          break;
        case 'ORDER_INDEX_VALUE':
          mem.writeBits(out, sz, index);
          mem.writeBits(out + sz, sz, valueBits);
          break;
        case 'ORDER_ONLY_VALUE':
          mem.writeBits(out, sz, valueBits);
          break;
        case 'ORDER_ONLY_INDEX':
          mem.writeBits(out, 4, index);
          break;
      }
    }
  });
}
