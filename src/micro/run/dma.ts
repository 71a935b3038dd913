import { globalAddress, intOf, localAddress, MicroRun, MicroSemantics } from './operands';

/**
 * The bursts of a DMA between GM and UB (docs/isa/micro-isa/02-dma-copy.md): `n_burst` bursts of `len_burst` bytes,
 * burst i from source byte i * src_stride to destination byte i * dst_stride. Loop groups (outer repetitions) and
 * padding are not implemented yet.
 */
function bursts(r: MicroRun): { n: number; len: number; srcStride: number; dstStride: number } {
  if ((r.b.operands.loop_counts ?? []).length > 0) r.fail('DMA loop groups are not implemented yet');
  if ((r.b.operands.pad_value ?? []).length > 0) r.fail('DMA padding is not implemented yet');
  return { n: intOf(r, 'n_burst'), len: intOf(r, 'len_burst'), srcStride: intOf(r, 'nburst_src_stride'), dstStride: intOf(r, 'nburst_dst_stride') };
}

/** GM <-> UB by whole elements of the global buffer (a burst that splits an element traps). */
function transfer(r: MicroRun, toLocal: boolean): void {
  const gm = globalAddress(r, toLocal ? 'source' : 'destination');
  const { buffer, address } = localAddress(r, toLocal ? 'destination' : 'source', 0);
  const { n, len, srcStride, dstStride } = bursts(r);
  const size = gm.buffer.codec.size;
  const [gmStride, ubStride] = toLocal ? [srcStride, dstStride] : [dstStride, srcStride];
  for (let i = 0; i < n; i++) {
    const gmByte = gm.byte + i * gmStride;
    if (gmByte % size !== 0 || len % size !== 0) r.fail(`a burst of ${len} bytes at GM byte ${gmByte} splits ${gm.buffer.elem} elements`);
    const first = gmByte / size;
    if (first < 0 || first + len / size > gm.buffer.length)
      r.fail(`elements ${first}..${first + len / size} of %${gm.buffer.name} are out of bounds (the buffer has ${gm.buffer.length})`);
    const ub = r.x.memory.bytesAt(buffer, address + i * ubStride, len, r.op.def.name, r.op.node.span);
    for (let e = 0; e < len / size; e++) {
      if (toLocal) gm.buffer.copyElementTo(first + e, ub, e * size);
      else gm.buffer.copyElementFrom(first + e, ub, e * size);
    }
  }
}

/** DMA between global memory and UB. */
export const DMA_SEMANTICS: Record<string, MicroSemantics> = {
  'dma-gm-ub'(r) {
    transfer(r, true);
  },
  'dma-ub-gm'(r) {
    transfer(r, false);
  },
};
