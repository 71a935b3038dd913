import { GlobalBuffer } from '../../machine/memory';
import { codec } from '../../numerics/elements';
import { bitsOf, coreConfig, pairOf } from './config';
import { globalAddress, intOf, localAddress, MicroRun, MicroSemantics } from './operands';

/**
 * The DMA micro-ops (docs/isa/micro-isa/02-dma-copy.md): bursts of bytes between global memory and the on-chip
 * buffers, repeated by loop groups. PTOAS's A5 expansion (VPTOExpandWrapperOps.cpp) defines the grouped ops by the
 * raw ones: a `pto.mte_gm_ub` sets the MTE loop registers from its first two loop groups, runs `copy_gm_to_ubuf` once
 * per iteration of the remaining groups, and resets the loop sizes; without loop groups the raw copy runs under the
 * registers as the program left them. The semantics here do the same, so a grouped op and its expansion agree.
 */

/** One side of a transfer: `len` bytes at byte `at` from the pointer the op was given. */
interface Endpoint {
  read(at: number, len: number): Uint8Array;
  write(at: number, bytes: Uint8Array): void;
}

/** An on-chip pointer operand (UB, L1, L0A/B/C, ...): bounds checked by the memory model. */
function localEndpoint(r: MicroRun, name: string): Endpoint {
  const { buffer, address } = localAddress(r, name, 0);
  const at = (offset: number, len: number) => r.x.memory.bytesAt(buffer, address + offset, len, r.op.def.name, r.op.node.span);
  return {
    read: (offset, len) => at(offset, len).slice(),
    write: (offset, bytes) => at(offset, bytes.length).set(bytes),
  };
}

/**
 * A GM pointer operand, moved by whole elements of its buffer (a burst that splits an element traps); a store under
 * an atomic mode (pto.set_atomic_*) combines each element with the one in memory.
 */
function globalEndpoint(r: MicroRun, name: string, atomic = false): Endpoint {
  const gm = globalAddress(r, name);
  const size = gm.buffer.codec.size;
  const elements = (offset: number, len: number): number => {
    const byte = gm.byte + offset;
    if (byte % size !== 0 || len % size !== 0) r.fail(`a burst of ${len} bytes at GM byte ${byte} splits ${gm.buffer.elem} elements`);
    const first = byte / size;
    if (first < 0 || first + len / size > gm.buffer.length)
      r.fail(`elements ${first}..${first + len / size} of %${gm.buffer.name} are out of bounds (the buffer has ${gm.buffer.length})`);
    return first;
  };
  const store = atomic ? atomicStore(r, gm.buffer) : undefined;
  return {
    read(offset, len) {
      const first = elements(offset, len);
      const out = new Uint8Array(len);
      for (let e = 0; e < len / size; e++) gm.buffer.copyElementTo(first + e, out, e * size);
      return out;
    },
    write(offset, bytes) {
      const first = elements(offset, bytes.length);
      for (let e = 0; e < bytes.length / size; e++) {
        if (store) store(first + e, bytes, e * size);
        else gm.buffer.copyElementFrom(first + e, bytes, e * size);
      }
    },
  };
}

/** The atomic element types of pto.set_atomic_* and the element type each reads. */
const ATOMIC_TYPES = { s8: 'i8', s16: 'i16', s32: 'i32', f16: 'f16', bf16: 'bf16', f32: 'f32' } as const;

/**
 * The element update of a GM store under the core's atomic mode, or undefined when none is set. The new value is
 * the UB bits read as the atomic type (which must be as wide as the buffer's elements); add rounds once (floats) or
 * wraps (integers); max/min of a NaN trap, as no source states the result.
 */
function atomicStore(r: MicroRun, buffer: GlobalBuffer): ((index: number, from: Uint8Array, at: number) => void) | undefined {
  const { op, type } = coreConfig(r.x.memory).atomic;
  if (op === 'none') return undefined;
  const elem = type ? ATOMIC_TYPES[type as keyof typeof ATOMIC_TYPES] : undefined;
  if (!elem) return r.fail(`an atomic ${op} store without a supported atomic type (pto.set_atomic_s32, ...) is not implemented yet`);
  const c = codec(elem);
  if (c.size !== buffer.codec.size || c.isFloat !== buffer.codec.isFloat)
    return r.fail(`an atomic ${type} store into ${buffer.elem} elements is not implemented yet`);
  return (index, from, at) => {
    const value = Number(c.read(new DataView(from.buffer, from.byteOffset), at));
    buffer.updateElement(index, (old) => {
      const a = Number(old);
      if (op === 'add') return c.round(a + value);
      if (Number.isNaN(a) || Number.isNaN(value)) return r.fail(`an atomic ${op} of a NaN is not implemented yet`);
      return c.round(op === 'max' ? Math.max(a, value) : Math.min(a, value));
    });
  };
}

/** A repetition level: count iterations, the source and destination moved by their strides (bytes) per iteration. */
interface Loop {
  count: number;
  src: number;
  dst: number;
}

/** The byte offsets (source, destination) of every iteration of a loop nest, outermost loop first. */
function offsets(loops: Loop[]): [number, number][] {
  let out: [number, number][] = [[0, 0]];
  for (const l of loops) {
    const next: [number, number][] = [];
    for (const [s, d] of out) for (let i = 0; i < l.count; i++) next.push([s + i * l.src, d + i * l.dst]);
    out = next;
  }
  return out;
}

/**
 * The hardware loops of a raw MTE copy in one direction (`outtoub`, `ubtoout`, `outtol1`): loop2 around loop1
 * around the bursts (pto-isa's A5 TLoad: loop2 is the outer shape dimension). set_loop_size_* writes (loop2,
 * loop1), set_loop*_stride_* (source stride, destination stride).
 */
function hardwareLoops(r: MicroRun, direction: string): Loop[] {
  const [size2, size1] = pairOf(r.x.memory, `loop_size_${direction}`);
  const [src1, dst1] = pairOf(r.x.memory, `loop1_stride_${direction}`);
  const [src2, dst2] = pairOf(r.x.memory, `loop2_stride_${direction}`);
  return [
    { count: Number(size2), src: Number(src2), dst: Number(dst2) },
    { count: Number(size1), src: Number(src1), dst: Number(dst1) },
  ];
}

/** A raw copy's bursts: n of len bytes, burst i at i * stride on each side. */
interface Bursts {
  n: number;
  len: number;
  srcStride: number;
  dstStride: number;
}

/** The padding of a GM -> UB copy: elements before and after each burst's data, filled with the pad register. */
interface Padding {
  left: number;
  right: number;
  select: boolean;
  elemSize: number;
}

/**
 * One raw copy under the hardware loops of `direction`, from `srcBase`/`dstBase` bytes into the endpoints. With
 * padding selected a UB row is the left pad, the burst's bytes, the right pad, then pad up to the next 32 bytes
 * (02-dma-copy.md: each UB row padded to the 32B boundary with pad_val).
 */
function rawCopy(r: MicroRun, direction: string, src: Endpoint, dst: Endpoint, base: [number, number], b: Bursts, pad?: Padding): void {
  if (pad && !pad.select && (pad.left !== 0 || pad.right !== 0)) r.fail('padding counts without the data select bit are not implemented yet');
  const fill = pad?.select ? padBytes(r, pad) : undefined;
  for (const [s, d] of offsets(hardwareLoops(r, direction))) {
    for (let i = 0; i < b.n; i++) {
      const data = src.read(base[0] + s + i * b.srcStride, b.len);
      const at = base[1] + d + i * b.dstStride;
      if (!fill || !pad) {
        dst.write(at, data);
        continue;
      }
      const used = (pad.left + pad.right) * pad.elemSize + b.len;
      const row = new Uint8Array(Math.ceil(used / 32) * 32);
      for (let k = 0; k < row.length; k++) row[k] = fill[k % fill.length];
      row.set(data, pad.left * pad.elemSize);
      dst.write(at, row);
    }
  }
}

/** The pad register's low bytes, one element of the destination's width (PTOAS zero-extends the pad scalar). */
function padBytes(r: MicroRun, pad: Padding): Uint8Array {
  const bits = coreConfig(r.x.memory).values.get('mov_pad_val') ?? 0n;
  const out = new Uint8Array(pad.elemSize);
  for (let k = 0; k < pad.elemSize; k++) out[k] = Number((bits >> BigInt(8 * k)) & 0xffn);
  return out;
}

/** The element size of a pointer operand's type. */
function pointeeSize(r: MicroRun, name: string): number {
  const t = r.op.operandTypes[r.b.operands[name][0]];
  return t?.kind === 'ptr' ? codec(t.elem).size : r.fail(`'${name}' is not a pointer`);
}

/** The loop(...) groups of a grouped op, as written (innermost first). */
function loopGroups(r: MicroRun): Loop[] {
  return (r.b.operands.loop_counts ?? []).map((_, k) => ({
    count: intOf(r, 'loop_counts', k),
    src: intOf(r, 'loop_src_strides', k),
    dst: intOf(r, 'loop_dst_strides', k),
  }));
}

/**
 * A grouped op as PTOAS's A5 expansion runs it: its first two loop groups in the hardware registers of `direction`
 * (two groups: the first in loop2, the second in loop1; one: loop1 with loop2 of size 1), each further group a
 * software loop around the raw copy (the third outermost), the loop sizes reset to 1 afterwards (PTOAS resets them
 * unless both counts are 1, which leaves them 1 anyway). Iteration order
 * only matters where destinations overlap; the addresses are the docs' sums of count * stride.
 */
function grouped(r: MicroRun, direction: string, run: (base: [number, number]) => void): void {
  const groups = loopGroups(r);
  const config = coreConfig(r.x.memory).pairs;
  const hw = groups.slice(0, 2);
  const big = (n: number) => BigInt(n);
  if (hw.length === 2) {
    config.set(`loop2_stride_${direction}`, [big(hw[0].src), big(hw[0].dst)]);
    config.set(`loop1_stride_${direction}`, [big(hw[1].src), big(hw[1].dst)]);
    config.set(`loop_size_${direction}`, [big(hw[0].count), big(hw[1].count)]);
  } else if (hw.length === 1) {
    config.set(`loop1_stride_${direction}`, [big(hw[0].src), big(hw[0].dst)]);
    config.set(`loop_size_${direction}`, [1n, big(hw[0].count)]);
  }
  for (const base of offsets(groups.slice(2))) run(base);
  if (hw.length > 0) config.set(`loop_size_${direction}`, [1n, 1n]);
}

/** Bursts from the operands named by a row. */
function bursts(r: MicroRun, srcStride: string, dstStride: string): Bursts {
  return { n: intOf(r, 'n_burst'), len: intOf(r, 'len_burst'), srcStride: intOf(r, srcStride), dstStride: intOf(r, dstStride) };
}

/** Bursts counted in 32-byte blocks with gaps between them (copy_ubuf_to_ubuf, mte_ub_ub, copy_cbuf_to_ubuf, ...). */
function blockBursts(r: MicroRun, srcGap: string, dstGap: string): Bursts {
  const len = intOf(r, 'len_burst') * 32;
  return { n: intOf(r, 'n_burst'), len, srcStride: len + intOf(r, srcGap) * 32, dstStride: len + intOf(r, dstGap) * 32 };
}

/** Runs `b` once (no hardware loops: the on-chip copies take none). */
function plainCopy(src: Endpoint, dst: Endpoint, b: Bursts): void {
  for (let i = 0; i < b.n; i++) dst.write(i * b.dstStride, src.read(i * b.srcStride, b.len));
}

/** The DMA micro-ops' semantics, by the name their rows give. */
export const DMA_SEMANTICS: Record<string, MicroSemantics> = {
  'dma-gm-ub'(r) {
    const src = globalEndpoint(r, 'source');
    const dst = localEndpoint(r, 'destination');
    const hasPad = (r.b.operands.pad_value ?? []).length > 0;
    if (hasPad) coreConfig(r.x.memory).values.set('mov_pad_val', bitsOf(r, 'pad_value'));
    const pad: Padding | undefined = hasPad
      ? {
          left: (r.b.operands.left_padding_count ?? []).length > 0 ? intOf(r, 'left_padding_count') : 0,
          right: (r.b.operands.right_padding_count ?? []).length > 0 ? intOf(r, 'right_padding_count') : 0,
          select: true,
          elemSize: pointeeSize(r, 'destination'),
        }
      : undefined;
    const b = bursts(r, 'nburst_src_stride', 'nburst_dst_stride');
    grouped(r, 'outtoub', (base) => rawCopy(r, 'outtoub', src, dst, base, b, pad));
  },
  'dma-ub-gm'(r) {
    const src = localEndpoint(r, 'source');
    const dst = globalEndpoint(r, 'destination', true);
    const b = bursts(r, 'nburst_src_stride', 'nburst_dst_stride');
    grouped(r, 'ubtoout', (base) => rawCopy(r, 'ubtoout', src, dst, base, b));
  },
  'dma-gm-l1'(r) {
    const src = globalEndpoint(r, 'source');
    const dst = localEndpoint(r, 'destination');
    const b = bursts(r, 'nburst_src_stride', 'nburst_dst_stride');
    grouped(r, 'outtol1', (base) => rawCopy(r, 'outtol1', src, dst, base, b));
  },
  'copy-gm-ubuf'(r) {
    const pad: Padding = {
      left: intOf(r, 'left_padding_count'),
      right: intOf(r, 'right_padding_count'),
      select: intOf(r, 'data_select_bit') !== 0,
      elemSize: pointeeSize(r, 'destination'),
    };
    rawCopy(r, 'outtoub', globalEndpoint(r, 'source'), localEndpoint(r, 'destination'), [0, 0], bursts(r, 'gm_stride', 'ub_stride'), pad);
  },
  'copy-ubuf-gm'(r) {
    const b = bursts(r, 'burst_src_stride', 'burst_dst_stride');
    rawCopy(r, 'ubtoout', localEndpoint(r, 'source'), globalEndpoint(r, 'destination', true), [0, 0], b);
  },
  'copy-gm-cbuf'(r) {
    rawCopy(r, 'outtol1', globalEndpoint(r, 'source'), localEndpoint(r, 'destination'), [0, 0], bursts(r, 'src_stride', 'dst_stride'));
  },
  /** On-chip to on-chip, in 32-byte blocks with gaps (copy_ubuf_to_ubuf, mte_ub_ub). */
  'copy-local-blocks'(r) {
    // The raw form's sid selects another stream of the copy engine (cbuf-ubuf-roundtrip-mixed writes with sid 1);
    // what it changes is not documented.
    if ((r.b.operands.sid ?? []).length > 0 && intOf(r, 'sid') !== 0) r.fail(`a copy with sid ${intOf(r, 'sid')} is not implemented yet`);
    plainCopy(localEndpoint(r, 'source'), localEndpoint(r, 'destination'), blockBursts(r, 'src_stride', 'dst_stride'));
  },
};
