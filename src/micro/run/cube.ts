import { intOf, localAddress, MicroRun, MicroSemantics } from './operands';

/**
 * The cube-side micro-ops that run today (docs/isa/micro-isa/16-cube-matmul.md). The fractal loads into L0A/L0B,
 * the matmuls and the FIXPIPE stores parse and verify (spec/micro/dma.json) and trap as not implemented yet.
 */

/** An integer attribute of the attribute dictionary (`{fill_word_bits = 16 : i64}`). */
function dictInt(r: MicroRun, name: string): number | undefined {
  const a = r.op.node.attrs.find((e) => e.key === name)?.value;
  return a?.kind === 'int' ? Number(a.value) : undefined;
}

/**
 * raw_fill_l1 / create_cbuf_matrix: repeat_times runs of block_num_32b 32-byte blocks, run i starting
 * i * (block_num_32b + dst_gap_32b) blocks after the destination, each word the raw value (a 16-bit fill repeats its
 * low 16 bits, a 32-bit fill takes all 32), little-endian.
 */
function fill(r: MicroRun, byteOffset: number): void {
  const bits = dictInt(r, 'fill_word_bits');
  if (bits !== 16 && bits !== 32) return r.fail(`fill_word_bits must be 16 or 32, got ${bits ?? 'none'}`);
  const raw = intOf(r, 'raw_value');
  const word = new Uint8Array(4);
  new DataView(word.buffer).setUint32(0, bits === 16 ? (raw & 0xffff) * 0x10001 : raw >>> 0, true);
  const repeats = intOf(r, 'repeat_times');
  const blocks = intOf(r, 'block_num_32b');
  const gap = intOf(r, 'dst_gap_32b');
  if (byteOffset % 32 !== 0) r.fail(`the byte offset ${byteOffset} is not a multiple of 32`);
  const { buffer, address } = localAddress(r, 'dst', 0);
  for (let i = 0; i < repeats; i++) {
    const run = r.x.memory.bytesAt(buffer, address + byteOffset + i * (blocks + gap) * 32, blocks * 32, r.op.def.name, r.op.node.span);
    for (let k = 0; k < run.length; k++) run[k] = word[k % 4];
  }
}

export const CUBE_SEMANTICS: Record<string, MicroSemantics> = {
  'fill-l1'(r) {
    fill(r, (r.b.operands.byte_offset ?? []).length > 0 ? intOf(r, 'byte_offset') : 0);
  },
};
