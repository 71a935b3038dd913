import { Tile } from '../../../machine/memory';
import { histogramByte } from '../checks/misc';
import { InstructionContext, SemanticsModule } from './context';

const BINS = 256;

/** Byte `k` (0 = bits 7..0) of an unsigned element. */
const byteOf = (value: number, k: number): number => (value >>> (8 * k)) & 0xff;

/**
 * Whether src element `value` of row `r` passes THISTOGRAM's cascaded filter for `byte`: a u16 BYTE_0 pass counts
 * the elements whose high byte is idx(r, 0); a u32 BYTE_k pass those whose bytes 3 .. k+1 equal idx(0, 0),
 * idx(1, 0), ... (cpu/THistogram.hpp and npu/a5/THistogram.hpp read the same idx elements).
 */
function passes(src: Tile, idx: Tile, byte: number, r: number, value: number): boolean {
  if (src.type.dtype === 'u16') return byte === 1 || byteOf(value, 1) === Number(idx.get(r, 0));
  for (let upper = 3; upper > byte; upper--) {
    if (byteOf(value, upper) !== Number(idx.get(3 - upper, 0))) return false;
  }
  return true;
}

/**
 * THISTOGRAM: per valid row of src, the ascending cumulative histogram of the selected byte over the elements that
 * pass the filter: dst(r, b) = count of those elements whose byte is <= b. The A5 kernel and the simulator (and the
 * A5 test goldens) give the cumulative form; the manual's formula gives plain counts.
 */
export function histogram(ctx: InstructionContext): void {
  const src = ctx.tile('src');
  const idx = ctx.tile('idx');
  const dst = ctx.tile('dst');
  const byte = histogramByte((name) => ctx.attribute(name));
  if (src.type.dtype === 'u16' && byte > 1) ctx.trap(`a ui16 src has no byte ${byte}`);
  // A dst with no valid columns (PTOAS allows 0) receives no bins.
  if (dst.vCol === 0) return;
  for (let r = 0; r < src.vRow; r++) {
    const counts = new Array<number>(BINS).fill(0);
    for (let c = 0; c < src.vCol; c++) {
      const value = Number(src.get(r, c));
      if (passes(src, idx, byte, r, value)) counts[byteOf(value, byte)]++;
    }
    let cumulative = 0;
    for (let b = 0; b < BINS; b++) {
      cumulative += counts[b];
      dst.set(r, b, cumulative);
    }
  }
}

const MASK32 = 0xffffffffn;
const MASK128 = (1n << 128n) - 1n;
const PHILOX_M0 = 0xd2511f53n;
const PHILOX_M1 = 0xcd9e8d57n;
const PHILOX_W0 = 0x9e3779b9n;
const PHILOX_W1 = 0xbb67ae85n;

/** Philox-4x32 with `rounds` rounds: the 128-bit counter (word 0 lowest) under the 64-bit key -> 4 words. */
export function philox4x32(counter: bigint, key: [bigint, bigint], rounds: number): bigint[] {
  let c = [0, 1, 2, 3].map((w) => (counter >> BigInt(32 * w)) & MASK32);
  let [k0, k1] = key;
  for (let i = 0; i < rounds; i++) {
    const p0 = c[0] * PHILOX_M0;
    const p1 = c[2] * PHILOX_M1;
    c = [(p1 >> 32n) ^ c[1] ^ k0, p1 & MASK32, (p0 >> 32n) ^ c[3] ^ k1, p0 & MASK32];
    k0 = (k0 + PHILOX_W0) & MASK32;
    k1 = (k1 + PHILOX_W1) & MASK32;
  }
  return c;
}

/** A 32-bit word operand of TRANDOM, as unsigned. */
const word = (ctx: InstructionContext, name: string): bigint => BigInt.asUintN(32, BigInt(ctx.scalar(name)));

/** 64 lanes of 32 bits per 256-byte vector; each lane's counter gives 4 words, so one step covers 256 elements. */
const LANES = 64;
const STEP = 4 * LANES;

/**
 * TRANDOM: Philox-4x32 words into dst's valid region, row by row in steps of 256 elements; lane l of a step runs
 * counter + l. The profiles differ (docs/numerics.md): cpu-sim (cpu/TRandom.hpp) writes word w of lane l at column
 * w * 64 + l and advances the counter by cols / 4 per step; npu (npu/a5/TRandom.hpp, after its vintlv reordering)
 * writes it at column 4 * l + w and advances by 64 per step, by ((validCol - 1) % 64) + 1 after a row's last step.
 */
export function random(ctx: InstructionContext): void {
  const dst = ctx.tile('dst');
  const [k0, k1] = [word(ctx, 'key0'), word(ctx, 'key1')];
  const [c0, c1, c2, c3] = [0, 1, 2, 3].map((w) => word(ctx, `counter${w}`));
  const rounds = Number(ctx.attribute('rounds'));
  let counter = c0 | (c1 << 32n) | (c2 << 64n) | (c3 << 96n);
  const steps = Math.ceil(dst.vCol / STEP);
  const cpu = ctx.numerics === 'cpu-sim';
  const column = cpu ? (lane: number, w: number) => w * LANES + lane : (lane: number, w: number) => 4 * lane + w;
  for (let r = 0; r < dst.vRow; r++) {
    for (let s = 0; s < steps; s++) {
      for (let lane = 0; lane < LANES; lane++) {
        const out = philox4x32((counter + BigInt(lane)) & MASK128, [k0, k1], rounds);
        for (let w = 0; w < 4; w++) {
          const c = s * STEP + column(lane, w);
          if (c < dst.vCol) dst.view.setUint32(dst.elementIndex(r, c) * 4, Number(out[w]), true);
        }
      }
      const advance = cpu ? dst.type.cols / 4 : s < steps - 1 ? LANES : ((dst.vCol - 1) % LANES) + 1;
      counter = (counter + BigInt(Math.floor(advance))) & MASK128;
    }
  }
}

export const module: SemanticsModule = { semantics: { histogram, random } };
