import { GlobalBuffer, Pointer } from './memory';

/**
 * How ranks address one another's global memory (symmetric memory, as HCCL windows and pypto's CommContext lay it
 * out): every rank holds the same buffers at the same places in its window, and rank r's window begins at address
 * r x RANK_WINDOW_BYTES. A pointer moved (`pto.addptr`) by whole windows lands on the same buffer of another rank:
 * a kernel reaches a peer's copy of its buffer by adding the difference of the two window bases, which it reads from
 * its communication context.
 */
export const RANK_WINDOW_BYTES = 2 ** 32;

/** The window base of a rank (what a communication context lists for it). */
export function windowBase(rank: number): bigint {
  return BigInt(rank) * BigInt(RANK_WINDOW_BYTES);
}

/**
 * A pointer into `buffer` at element `offset`: when the offset leaves the buffer by whole rank windows, the same
 * offset in that rank's copy of the buffer; else the offset as it is (an access outside the buffer traps).
 */
export function pointerAt(buffer: GlobalBuffer, offset: number): Pointer {
  const placement = buffer.placement;
  if (!placement || (offset >= 0 && offset <= buffer.length)) return { kind: 'pointer', buffer, offset };
  const size = buffer.codec.size;
  const byte = offset * size;
  const shift = Math.round(byte / RANK_WINDOW_BYTES);
  const rest = byte - shift * RANK_WINDOW_BYTES;
  const peer = placement.byRank[placement.rank + shift];
  if (shift === 0 || !peer || rest % size !== 0) return { kind: 'pointer', buffer, offset };
  return { kind: 'pointer', buffer: peer, offset: rest / size };
}
