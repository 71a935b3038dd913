import { requestedSaturation } from '../checks/convert';
import { ElemType, elemTypeName, isStoredFormat } from '../../../types/type';
import { f32Bits } from '../../../numerics/elements';
import { Converter, castMode, cpuSimConverter, npuConverter, npuSaturates } from '../../../numerics/conversion';
import { InstructionContext, SemanticsModule } from './context';
import { Tile } from '../../../machine/memory';
import { Lanes, f32Lanes, halfLanes } from '../../../machine/tile-loops';

const FLOAT_BITS: Partial<Record<ElemType, { size: 2 | 4; mantissa: number; exponentMask: number }>> = {
  f16: { size: 2, mantissa: 10, exponentMask: 0x7c00 },
  bf16: { size: 2, mantissa: 7, exponentMask: 0x7f80 },
  f32: { size: 4, mantissa: 23, exponentMask: 0x7f800000 },
};

/**
 * cpu-sim NaNs between float types, on bit patterns: x86 (and the compiler's half/float conversions) keeps the
 * sign and the top payload bits and sets the quiet bit; a same-type cast changes nothing. A JS number would lose them.
 * Returns undefined when the source element is not a NaN.
 */
function simulatorNanBits(bits: number, src: ElemType, dst: ElemType): number | undefined {
  const from = FLOAT_BITS[src]!;
  const to = FLOAT_BITS[dst]!;
  const mantissaMask = 2 ** from.mantissa - 1;
  if ((bits & from.exponentMask) >>> 0 !== from.exponentMask || (bits & mantissaMask) === 0) return undefined;
  if (src === dst) return bits;
  const signed = bits >>> (from.size * 8 - 1) === 1;
  const payload = bits & mantissaMask;
  const shifted = from.mantissa >= to.mantissa ? payload >>> (from.mantissa - to.mantissa) : payload << (to.mantissa - from.mantissa);
  const quiet = 2 ** (to.mantissa - 1);
  const sign = signed ? 2 ** (to.size * 8 - 1) : 0;
  return (sign + to.exponentMask + (shifted | quiet)) >>> 0;
}

/** TCVT: dst = src converted to dst's element type per rmode and saturation, over the valid region. */
function convert(ctx: InstructionContext): void {
  const dst = ctx.tile('dst');
  const src = ctx.tile('src');
  const from = src.type.dtype;
  const to = dst.type.dtype;
  if (isStoredFormat(from) || isStoredFormat(to)) {
    // The manual lists these pairs but not the formats' encodings nor the rounding into them; the VM holds them as bits.
    ctx.trap(`converting ${elemTypeName(from)} to ${elemTypeName(to)} is not implemented yet (the low-precision formats are held as bits)`);
  }
  const mode = castMode(String(ctx.attribute('rmode')));
  const explicitSaturation = requestedSaturation((n) => ctx.attribute(n));
  let element: Converter;
  if (ctx.numerics === 'cpu-sim') {
    // The simulator's 3-argument TCVT (what PTOAS emits) runs with SaturationMode::OFF.
    element = cpuSimConverter(from, to, mode, explicitSaturation ?? false);
  } else {
    element = npuConverter(from, to, mode, npuSaturates(from, to, explicitSaturation), ctx.trap);
  }
  const nanBits = ctx.numerics === 'cpu-sim' && !explicitSaturation && FLOAT_BITS[from] && FLOAT_BITS[to];
  const nan = nanBits ? (bits: number) => simulatorNanBits(bits, from, to) : () => undefined;
  const run = convertFloats(dst, src, element, nan);
  if (run) {
    run();
    return ctx.repeatWith(run);
  }
  for (let r = 0; r < dst.vRow; r++) {
    for (let c = 0; c < dst.vCol; c++) {
      // Only float elements (2 or 4 bytes) have a NaN's bits to keep.
      const bits = nanBits ? nan(src.getBits(r, c)) : undefined;
      if (bits !== undefined) dst.setBits(r, c, bits);
      else dst.set(r, c, element(src.get(r, c)));
    }
  }
}

/** A cpu-sim NaN's converted bits (simulatorNanBits), undefined for other elements (and under npu). */
type NanBits = (bits: number) => number | undefined;

/**
 * The typed-array paths of TCVT between float types (f32, f16, bf16): the same element conversions (a NaN's bits
 * through `nan` first), prepared; undefined when a tile has no float lanes. A 16-bit source has 65536 patterns: each
 * one's result bits are worked out once per prepared run, when first met.
 */
function convertFloats(dst: Tile, src: Tile, element: Converter, nan: NanBits): (() => void) | undefined {
  const [rows, cols] = [dst.vRow, dst.vCol];
  const [d, a] = [bitLanes(dst, rows, cols), bitLanes(src, rows, cols)];
  if (!d || !a) return undefined;
  // Each loop walks the region row by row, i over the source's lanes and j over the destination's.
  if (a.decode) {
    const [decode, known, table] = [a.decode, new Uint8Array(1 << 16), new Uint32Array(1 << 16)];
    // The result bits of a value, stored as the general path stores it (an f32 through a Float32Array).
    const encode = d.encode ?? f32Bits;
    const [from, to] = [a.bits, d.bits];
    return () => {
      for (let r = 0; r < rows; r++)
        for (let c = 0, i = a.base + r * a.row, j = d.base + r * d.row; c < cols; c++, i += a.col, j += d.col) {
          const x = from[i];
          if (known[x] === 0) {
            table[x] = nan(x) ?? encode(element(decode[x]) as number);
            known[x] = 1;
          }
          to[j] = table[x];
        }
    };
  }
  const [from, fromBits, toBits] = [a.values!, a.bits, d.bits];
  // f32 -> f32 (an integral rounding) stores values; f32 -> a 16-bit float, their encoding.
  const to = d.values;
  const encode = d.encode;
  return () => {
    for (let r = 0; r < rows; r++)
      for (let c = 0, i = a.base + r * a.row, j = d.base + r * d.row; c < cols; c++, i += a.col, j += d.col) {
        const x = from[i];
        const bits = x !== x ? nan(fromBits[i]) : undefined;
        if (bits !== undefined) toBits[j] = bits;
        else if (to) to[j] = element(x) as number;
        else toBits[j] = encode!(element(x) as number);
      }
  };
}

/**
 * A float tile's lanes as bits (Uint32 for f32, the Uint16 pattern for 16-bit floats), with the f32 values or the
 * 16-bit decode table and encoder.
 */
interface BitLanes extends Lanes<unknown> {
  bits: Uint32Array | Uint16Array;
  values?: Float32Array;
  decode?: Float32Array;
  encode?: (v: number) => number;
}

function bitLanes(tile: Tile, rows: number, cols: number): BitLanes | undefined {
  const single = f32Lanes([tile], rows, cols);
  if (single) {
    const [l] = single;
    return { ...l, values: l.data, bits: new Uint32Array(l.data.buffer, l.data.byteOffset, l.data.length) };
  }
  const half = halfLanes([tile], rows, cols);
  if (!half) return undefined;
  const [l] = half.lanes;
  return { ...l, bits: l.data, decode: half.decode, encode: half.encode };
}

export const module: SemanticsModule = { semantics: { convert } };
