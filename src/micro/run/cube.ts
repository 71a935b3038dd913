import { Tile } from '../../machine/memory';
import { readValues, writeValues } from '../../machine/tile-loops';
import { addF32, dotProducts } from '../../numerics/cube-dots';
import { codec as codecOf } from '../../numerics/elements';
import { isPackedFp4, lowPrecisionFormat } from '../../numerics/low-precision';
import { TileType } from '../../types/type';
import { fixpipeBufferBytes, vectorMemory } from './acc-store';
import { coreConfig } from './config';
import { globalAddress, intOf, localAddress, MicroRun, MicroSemantics } from './operands';

/**
 * The cube-side micro-ops that run today (docs/isa/micro-isa/16-cube-matmul.md): L1 fills, the GM -> L1 NZ
 * fractal loads, the loads into L0A/L0B and the bias table, and pto.mad / mad_acc / mad_bias. The MX forms and the
 * raw forms parse and verify (spec/micro/dma.json) and trap as not implemented yet.
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

/**
 * copy_gm_to_cbuf_multi_nd2nz / _dn2nz (pto.mte_gm_l1_frac's expansion): group_count logical N x D matrices from GM
 * into L1 NZ fractals under the MTE2 NZ register (set_mte2_nz_para: group count in bits 0..15, then the destination
 * loop2, loop3, loop4 strides in 32-byte units, 16 bits each). Element [n, d] of group g is read from
 * src + g * loop4_src_stride + n * loop1_src_stride + d * size (nd2nz; dn2nz swaps n and d) and written at
 * dst + (g * loop4 + (d / C0) * loop3 + n * loop2) * 32 + (d % C0) * size, C0 = 32 / size elements; the lanes of the
 * last C0 group past d_value are written as zero (16-cube-matmul.md's reference addressing).
 */
export function fracLoad(r: MicroRun, mode: 'nd2nz' | 'dn2nz', strides = { inner: 'loop1_src_stride', outer: 'loop4_src_stride' as string | undefined }): void {
  if (intOf(r, 'smallc0_en') !== 0) return r.fail('the small-C0 mode is not implemented yet');
  const para = coreConfig(r.x.memory).values.get('mte2_nz_para') ?? 0n;
  const field = (k: number) => Number((para >> BigInt(16 * k)) & 0xffffn);
  const [groups, loop2, loop3, loop4] = [field(0), field(1), field(2), field(3)];
  const src = globalAddress(r, 'source');
  const size = src.buffer.codec.size;
  const { buffer, address } = localAddress(r, 'destination', 0);
  const c0 = 32 / size;
  const [nValue, dValue] = [intOf(r, 'n_value'), intOf(r, 'd_value')];
  const [inner, outer] = [intOf(r, strides.inner), strides.outer ? intOf(r, strides.outer) : 0];
  const dBlocks = Math.ceil(dValue / c0);
  for (let g = 0; g < groups; g++) {
    for (let n = 0; n < nValue; n++) {
      for (let j = 0; j < dBlocks; j++) {
        const at = address + (g * loop4 + j * loop3 + n * loop2) * 32;
        const row = r.x.memory.bytesAt(buffer, at, 32, r.op.def.name, r.op.node.span);
        row.fill(0);
        for (let e = 0; e < c0 && j * c0 + e < dValue; e++) {
          const d = j * c0 + e;
          const byte = src.byte + g * outer + (mode === 'nd2nz' ? n * inner + d * size : d * inner + n * size);
          if (byte % size !== 0) r.fail(`GM byte ${byte} splits ${src.buffer.elem} elements`);
          const index = byte / size;
          if (index < 0 || index >= src.buffer.length) r.fail(`element ${index} of %${src.buffer.name} is out of bounds (the buffer has ${src.buffer.length})`);
          src.buffer.copyElementTo(index, row, e * size);
        }
      }
    }
  }
}

export const CUBE_SEMANTICS: Record<string, MicroSemantics> = {
  'l1-bt'(r) {
    l1ToBias(r);
  },
  'l1-l0a'(r) {
    l1ToL0(r, true);
  },
  'l1-l0b'(r) {
    l1ToL0(r, false);
  },
  'frac-gm-l1'(r) {
    fracLoad(r, r.mnemonic.endsWith('dn2nz') ? 'dn2nz' : 'nd2nz');
  },
  'fill-l1'(r) {
    fill(r, (r.b.operands.byte_offset ?? []).length > 0 ? intOf(r, 'byte_offset') : 0);
  },
  'l1-l0-fractal'(r) {
    loadOneFractal(r);
  },
  mad(r) {
    mad(r);
  },
  'l1-fb'(r) {
    l1ToFixpipeBuffer(r);
  },
  'l1-l0-mx'(r) {
    if ((r.b.operands.start_row ?? []).length === 0) return r.fail('the full MX control form is not implemented yet');
    if (intOf(r, 'start_row') !== 0 || intOf(r, 'start_col') !== 0) r.fail('a start row or column other than 0 is not implemented yet');
    const bytes = scaleSpace(r, 'destination', r.mnemonic.endsWith('l0a_mx'));
    const src = localAddress(r, 'source', 0);
    bytes.set(r.x.memory.bytesAt(src.buffer, src.address, bytes.length, r.op.def.name, r.op.node.span));
  },
  'l1-ub'(r) {
    l1ToUb(r);
  },
};

/** A tile of the tile model (src/machine) over raw on-chip bytes: `loc`'s layout, rows x cols of `dtype`. */
function tileOver(
  r: MicroRun,
  ptr: string,
  loc: TileType['loc'],
  blayout: TileType['blayout'],
  slayout: TileType['slayout'],
  rows: number,
  cols: number,
  fractal = 512,
): Tile {
  const t = r.op.operandTypes[r.b.operands[ptr][0]];
  if (t?.kind !== 'ptr') return r.fail(`'${ptr}' is not a pointer`);
  const { buffer, address } = localAddress(r, ptr, 0);
  if (r.x.memory.bufferOf(loc) !== buffer) r.fail(`'${ptr}' is not in ${r.x.memory.bufferOf(loc)}`);
  const type: TileType = {
    kind: 'tile',
    level: 'buf',
    loc,
    dtype: t.elem,
    rows,
    cols,
    vRow: rows,
    vCol: cols,
    blayout,
    slayout,
    fractal,
    pad: 0,
    compact: 0,
  };
  return r.x.memory.place(type, address, r.op.def.name, r.op.node.span);
}

const align = (v: number, to: number) => Math.ceil(v / to) * to;

/**
 * mte_l1_l0a / mte_l1_l0b, the shape form from (0, 0): an L1 cube-fractal tile (NZ: the tile model's mat tile,
 * col_major boxes of row_major elements) into L0A (A5's left tile, the same layout) or L0B (the right tile, row_major
 * boxes of col_major elements), as PTOAS's expansion derives load_cbuf_to_ca/cb: without transpose the fractals move
 * as they are (L0A: an M x K source, rows a multiple of 16, columns of C0 = 32 bytes; L0B: the N x K source whose
 * fractals are the K x N right tile's); with transpose the source is the other orientation (L0A from K x M, L0B from
 * K x N), both sides aligned to max(16, C0). Every element of the aligned extent moves, as the hardware moves whole
 * fractals. Element bits move through the tiles' elementIndex, so the tile-level ops that read these buffers
 * (pto.tmatmul) see the same values.
 */
function l1ToL0(r: MicroRun, left: boolean): void {
  if ((r.b.operands.m_start ?? r.b.operands.x_start ?? []).length > 0) r.fail('the full-control form is not implemented yet');
  if (intOf(r, 'start_row') !== 0 || intOf(r, 'start_col') !== 0) r.fail('a start row or column other than 0 is not implemented yet');
  const transpose = r.op.node.attrs.find((a) => a.key === 'transpose')?.value;
  const transposed = transpose?.kind === 'bool' && transpose.value;
  const t = r.op.operandTypes[r.b.operands.source[0]];
  if (t?.kind !== 'ptr') return r.fail('the source is not a pointer');
  const size = codecOf(t.elem).size;
  const c0 = 32 / size;
  // The destination's logical rows x cols (L0A: M x K, L0B: K x N), aligned as the expansion's steps and strides are.
  const [rows, cols] = left ? [intOf(r, 'm'), intOf(r, 'k')] : [intOf(r, 'k'), intOf(r, 'n')];
  const square = Math.max(16, c0);
  const [dRows, dCols] = transposed
    ? [align(rows, square), align(cols, square)]
    : left
      ? [align(rows, 16), align(cols, c0)]
      : [align(rows, c0), align(cols, 16)];
  // The source holds the destination (transpose, L0B) or its transpose (transpose, L0A; no transpose, L0B).
  const flip = left ? transposed : !transposed;
  const src = tileOver(r, 'source', 'mat', 'col_major', 'row_major', flip ? dCols : dRows, flip ? dRows : dCols);
  const dst = left
    ? tileOver(r, 'destination', 'left', 'col_major', 'row_major', dRows, dCols)
    : tileOver(r, 'destination', 'right', 'row_major', 'col_major', dRows, dCols);
  for (let i = 0; i < dRows; i++) {
    for (let j = 0; j < dCols; j++) {
      const from = (flip ? src.elementIndex(j, i) : src.elementIndex(i, j)) * size;
      dst.bytes.set(src.bytes.subarray(from, from + size), dst.elementIndex(i, j) * size);
    }
  }
}

/**
 * mte_l1_bt: len_burst 32-byte units of L1 per burst (pto-isa's A5 TMov to a bias tile: burstLen = bytes >> 5) into
 * the bias table; f16 and bf16 sources widen to f32 (16-cube-matmul.md: bf16 -> f32 always, f16 -> f32 for an f32
 * bias), f32 and i32 move as they are. Bursts with gaps trap as not implemented yet (their unit is not documented).
 */
function l1ToBias(r: MicroRun): void {
  const [n, len, srcGap, dstGap] = [intOf(r, 'n_burst'), intOf(r, 'len_burst'), intOf(r, 'nburst_src_gap'), intOf(r, 'nburst_dst_gap')];
  if (n !== 1 && (srcGap !== 0 || dstGap !== 0)) r.fail('bursts with gaps are not implemented yet');
  const [s, d] = [r.op.operandTypes[r.b.operands.source[0]], r.op.operandTypes[r.b.operands.destination[0]]];
  if (s?.kind !== 'ptr' || d?.kind !== 'ptr') return r.fail('the operands are not pointers');
  const widen = (s.elem === 'f16' || s.elem === 'bf16') && d.elem === 'f32';
  if (!widen && !(s.elem === d.elem && (s.elem === 'f32' || s.elem === 'i32'))) return r.fail(`a ${s.elem} -> ${d.elem} bias load is not implemented yet`);
  const bytes = n * len * 32;
  const src = localAddress(r, 'source', 0);
  const dst = localAddress(r, 'destination', 0);
  const from = r.x.memory.bytesAt(src.buffer, src.address, bytes, r.op.def.name, r.op.node.span);
  if (!widen) return r.x.memory.bytesAt(dst.buffer, dst.address, bytes, r.op.def.name, r.op.node.span).set(from);
  const [sc, dc] = [codecOf(s.elem), codecOf('f32')];
  const to = r.x.memory.bytesAt(dst.buffer, dst.address, bytes * 2, r.op.def.name, r.op.node.span);
  const [sv, dv] = [new DataView(from.buffer, from.byteOffset, from.byteLength), new DataView(to.buffer, to.byteOffset, to.byteLength)];
  // f16 and bf16 values are all f32 values: the widening is exact.
  for (let e = 0; e < bytes / 2; e++) dc.write(dv, e * 4, sc.read(sv, e * 2));
}

/**
 * load_cbuf_to_ca / load_cbuf_to_cb with one fractal from (0, 0) (m_start = k_start = 0, m_step = k_step = 1):
 * the 512 bytes move as they are, which is how a GEMV A vector (1 x K, contiguous) reaches L0A. The hardware's
 * stepping over several fractals is not documented (16-cube-matmul.md gives the operands only): other controls trap.
 */
function loadOneFractal(r: MicroRun): void {
  const controls = ['m_start', 'k_start', 'm_step', 'k_step'].map((n) => intOf(r, n));
  if (controls.join() !== '0,0,1,1')
    return r.fail(`(m_start, k_start, m_step, k_step) = (${controls.join(', ')}) is not implemented yet (only one fractal from (0, 0))`);
  const src = localAddress(r, 'source', 0);
  const dst = localAddress(r, 'destination', 0);
  const from = r.x.memory.bytesAt(src.buffer, src.address, 512, r.op.def.name, r.op.node.span);
  r.x.memory.bytesAt(dst.buffer, dst.address, 512, r.op.def.name, r.op.node.span).set(from);
}

/** The largest finite value of the float types the cube multiplies. */
const FINITE_MAX: Record<string, number> = { f32: 3.4028234663852886e38, f16: 65504, bf16: 3.3895313892515355e38 };

/** f32 bits rounded to TF32 (10 fraction bits): ties to even, or ties away from zero (16-cube-matmul.md's tf32_mode). */
function tf32(values: Float64Array, length: number, away: boolean): void {
  const f = new Float32Array(1);
  const u = new Uint32Array(f.buffer);
  for (let q = 0; q < length; q++) {
    f[0] = values[q];
    const lsb = (u[0] >>> 13) & 1;
    u[0] = ((u[0] + (away ? 0x1000 : 0xfff + lsb)) & 0xffffe000) >>> 0;
    values[q] = f[0];
  }
}

/**
 * pto.mad / mad_acc / mad_bias (16-cube-matmul.md): dst[i, j] = sum over t < k of lhs[i, t] * rhs[t, j], then
 * + dst[i, j] (acc) or + bias[j] (bias), with the tile-level tmatmul's arithmetic (dotProducts: k ascending, one f32
 * fused multiply-add per step; i8 inputs an i32 sum). L0A is read as mte_l1_l0a writes it (the left tile, rows
 * aligned to 16), or, for m = 1 without disable_gemv, as the GEMV vector: k contiguous elements. L0B is the right
 * tile and L0C the accumulator tile (NZ, 16 x 16 fractals), rows and columns aligned to 16. tf32_mode rounds f32
 * inputs first (the goldens' bit formulas). sat: a NaN input counts as 0 and an infinity as its type's finite
 * extreme, and the result saturates to f32's finite range (a NaN result to 0, as mad_f32f32f32's golden); nosat
 * keeps them. Without either the mode is the CTRL register's: nosat from reset; after a set_ctrl an exceptional
 * input or result traps (its mode bits are not modelled).
 */
function mad(r: MicroRun): void {
  const [m, n, k] = [intOf(r, 'm'), intOf(r, 'n'), intOf(r, 'k')];
  for (const [name, v] of [
    ['m', m],
    ['n', n],
    ['k', k],
  ] as const)
    if (v < 1 || v > 4095) r.fail(`${name} = ${v} is outside the cube's range [1, 4095]`);
  const elem = (ptr: string) => {
    const t = r.op.operandTypes[r.b.operands[ptr][0]];
    return t?.kind === 'ptr' ? t.elem : r.fail(`'${ptr}' is not a pointer`);
  };
  const [aType, bType, cType] = [elem('lhs'), elem('rhs'), elem('dst')];
  const kind = aType === 'i8' && bType === 'i8' && cType === 'i32' ? 'integer' : ['f16', 'bf16'].includes(aType) && bType === aType ? 'half' : 'float';
  // The 8-bit floats (hif8, f8E4M3FN, f8E5M2) are held as their codes and decoded here (numerics/low-precision's
  // formats: hif8's 0x40 is 16, so mad_hif8's golden products of 256); their products are exact in f32.
  const byteFloat = aType === bType && !isPackedFp4(aType) ? lowPrecisionFormat(aType) : undefined;
  if (!(kind !== 'float' || (aType === 'f32' && bType === 'f32') || byteFloat) || (kind !== 'integer' && cType !== 'f32'))
    return r.fail(`a ${aType} x ${bType} -> ${cType} matmul is not implemented yet`);
  const text = (name: string) => {
    const a = r.b.attrs[name];
    return a?.kind === 'string' ? a.value : undefined;
  };
  const c0 = 32 / codecOf(aType).size;
  const gemv = m === 1 && text('disable_gemv') === undefined;
  let av: Float64Array;
  if (gemv) {
    const { buffer, address } = localAddress(r, 'lhs', 0);
    const size = codecOf(aType).size;
    const bytes = r.x.memory.bytesAt(buffer, address, k * size, r.op.def.name, r.op.node.span);
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    av = Float64Array.from({ length: k }, (_, t) => Number(codecOf(aType).read(view, t * size)));
  } else av = readValues(tileOver(r, 'lhs', 'left', 'col_major', 'row_major', align(m, 16), align(k, c0)), m, k);
  const bt = readValues(tileOver(r, 'rhs', 'right', 'row_major', 'col_major', align(k, c0), align(n, 16)), k, n, true);
  if (byteFloat) for (const values of [av, bt]) for (let q = 0; q < values.length; q++) values[q] = byteFloat.decode(values[q]);
  // mad_mx*: each input times its group's scale, exact in a double (a power of two); then the sums as for mad.
  if (r.mnemonic.startsWith('mad_mx')) {
    if (!byteFloat) return r.fail(`an MX matmul of ${aType} inputs is not implemented yet`);
    applyScales(r, av, bt, m, n, k);
  }
  const c = tileOver(r, 'dst', 'acc', 'col_major', 'row_major', align(m, 16), align(n, 16), 1024);
  const tf32Mode = text('tf32_mode');
  if (tf32Mode) {
    tf32(av, m * k, tf32Mode === 'round_away');
    tf32(bt, k * n, tf32Mode === 'round_away');
  }
  // Without sat or nosat the CTRL register decides: from reset (no set_ctrl yet) exceptional values pass as with
  // nosat (fixpipe-acc-store-sat-f16-cv's golden multiplies infinities and NaNs before it touches CTRL); after a
  // set_ctrl the mode bits are not modelled and an exceptional value traps.
  const sat = text('sat_mode') ?? (coreConfig(r.x.memory).values.has('ctrl') ? undefined : 'nosat');
  if (kind !== 'integer') {
    const max = byteFloat ? byteFloat.max : FINITE_MAX[aType];
    for (const values of [av, bt]) {
      for (let q = 0; q < values.length; q++) {
        const v = values[q];
        if (Number.isFinite(v)) continue;
        if (sat === 'sat') values[q] = v !== v ? 0 : Math.sign(v) * max;
        else if (sat !== 'nosat') r.fail('an infinity or NaN input under the mode a set_ctrl selected (neither sat nor nosat) is not implemented yet');
      }
    }
  }
  const out = new Float64Array(m * n);
  dotProducts(av, bt, m, n, k, kind, out);
  if (r.mnemonic === 'mad_acc' || r.mnemonic === 'mad_mx_acc') {
    const before = readValues(c, m, n);
    for (let q = 0; q < m * n; q++) out[q] = kind === 'integer' ? (before[q] + out[q]) | 0 : addF32(before[q], out[q]);
  } else if (r.mnemonic === 'mad_bias' || r.mnemonic === 'mad_mx_bias') {
    const { buffer, address } = localAddress(r, 'bias', 0);
    const bytes = r.x.memory.bytesAt(buffer, address, n * 4, r.op.def.name, r.op.node.span);
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const bias = codecOf(cType);
    for (let q = 0; q < m * n; q++) {
      const b = Number(bias.read(view, (q % n) * 4));
      out[q] = kind === 'integer' ? (out[q] + b) | 0 : addF32(out[q], b);
    }
  }
  if (kind !== 'integer') {
    const max = FINITE_MAX.f32;
    for (let q = 0; q < out.length; q++) {
      const v = out[q];
      if (Number.isFinite(v)) continue;
      if (sat === 'sat') out[q] = v !== v ? 0 : Math.sign(v) * max;
      else if (sat !== 'nosat') r.fail('an infinity or NaN result under the mode a set_ctrl selected (neither sat nor nosat) is not implemented yet');
    }
  }
  writeValues(c, m, n, out);
}

/**
 * mte_l1_fb: n_burst bursts of len_burst parameter-load units of 64 bytes (pto-isa's A5 TMov to a scaling tile:
 * burstLen = bytes >> 6; 16-cube-matmul.md: the gaps count the same units), burst i starting i * (len_burst + gap)
 * units after each side's start. The bytes move as they are.
 */
function l1ToFixpipeBuffer(r: MicroRun): void {
  const [n, len, srcGap, dstGap] = [intOf(r, 'n_burst'), intOf(r, 'len_burst'), intOf(r, 'nburst_src_gap'), intOf(r, 'nburst_dst_gap')];
  const src = localAddress(r, 'source', 0);
  const dst = localAddress(r, 'destination', 0);
  for (let i = 0; i < n; i++) {
    const from = r.x.memory.bytesAt(src.buffer, src.address + i * (len + srcGap) * 64, len * 64, r.op.def.name, r.op.node.span);
    fixpipeBufferBytes(r, dst.address + i * (len + dstGap) * 64, len * 64).set(from);
  }
}

/**
 * mte_l1_ub (copy_cbuf_to_ubuf): n_burst bursts of len_burst 32-byte units from L1 into a vector core's UB; the cube
 * core writes vector sub-block 0's (the only one the goldens read back). The unit is copy_cbuf_to_ubuf's field's
 * (dma.ts's blockBursts), which PTOAS passes through: the doc's bytes would move only a quarter of fixpipe-cc-gm's
 * 40 rows of 256 bytes (len_burst 64). The nburst strides go to the gap fields, and the cases write (n, 0, 0) for
 * back-to-back bursts: other gaps and loop groups trap as not implemented yet.
 */
function l1ToUb(r: MicroRun): void {
  const [n, len, srcGap, dstGap] = [intOf(r, 'n_burst'), intOf(r, 'len_burst'), intOf(r, 'nburst_src_stride'), intOf(r, 'nburst_dst_stride')];
  if (srcGap !== 0 || dstGap !== 0) return r.fail('nburst gaps other than 0 are not implemented yet');
  if ((r.b.operands.loop_counts ?? []).length > 0) return r.fail('loop groups are not implemented yet');
  const src = localAddress(r, 'source', 0);
  const dst = localAddress(r, 'destination', 0);
  const bytes = n * len * 32;
  const from = r.x.memory.bytesAt(src.buffer, src.address, bytes, r.op.def.name, r.op.node.span);
  vectorMemory(r, 0).bytesAt(dst.buffer, dst.address, bytes, r.op.def.name, r.op.node.span).set(from);
}

/** K elements share one E8M0 scale (16-cube-matmul.md's k_group = floor(k / 32)). */
const MX_GROUP = 32;

/**
 * The MX scales of an L0A (left) or L0B (right) pointer: the scale space beside that buffer at the pointer's address
 * >> SHIFT_MX_ADDR (the tile model's placeMxScale, as pto.tget_scale_addr binds it), rows x ceil(k / 32) bytes, rows
 * the m (L0A) or n (L0B) of the op. The layout is the goldens' (mad_mx's pack_a_scale / pack_b_scale): row i's groups
 * one after another, for L0B the transposed [n][group]; mte_l1_l0a_mx / l0b_mx (shape form from (0, 0)) move them
 * from L1 as they are.
 */
function scaleSpace(r: MicroRun, ptr: string, left: boolean): Uint8Array {
  const [rows, k] = left ? [intOf(r, 'm'), intOf(r, 'k')] : [intOf(r, 'n'), intOf(r, 'k')];
  const of = tileOver(r, ptr, left ? 'left' : 'right', left ? 'col_major' : 'row_major', left ? 'row_major' : 'col_major', 16, 32);
  const cols = rows * Math.ceil(k / MX_GROUP);
  const type: TileType = { ...of.type, dtype: '!pto.f8E8M0', rows: 1, cols, vRow: 1, vCol: cols, blayout: 'row_major', slayout: 'none_box', fractal: 512 };
  const t = r.x.memory.placeMxScale(type, of, r.op.def.name, r.op.node.span);
  return t.bytes.subarray(0, cols);
}

/** Multiplies decoded MX inputs by their E8M0 scales (2^(code - 127); code 255, NaN, traps as not implemented yet). */
function applyScales(r: MicroRun, av: Float64Array, bt: Float64Array, m: number, n: number, k: number): void {
  const groups = Math.ceil(k / MX_GROUP);
  const scale = (code: number) => (code === 255 ? r.fail('an E8M0 NaN scale (0xff) is not implemented yet') : 2 ** (code - 127));
  const [sa, sb] = [scaleSpace(r, 'lhs', true), scaleSpace(r, 'rhs', false)];
  for (let i = 0; i < m; i++) for (let t = 0; t < k; t++) av[i * k + t] *= scale(sa[i * groups + Math.floor(t / MX_GROUP)]);
  for (let j = 0; j < n; j++) for (let t = 0; t < k; t++) bt[j * k + t] *= scale(sb[j * groups + Math.floor(t / MX_GROUP)]);
}
