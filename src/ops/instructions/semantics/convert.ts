import { requestedSaturation } from '../checks/convert';
import { ElemType, elemTypeName, isStoredFormat } from '../../../types/type';
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
  const convertNan = (r: number, c: number): boolean => {
    const bits = nanBits ? simulatorNanBits(src.getBits(r, c), from, to) : undefined;
    if (bits !== undefined) dst.setBits(r, c, bits);
    return bits !== undefined;
  };
  if (convertFloats(dst, src, element, convertNan)) return;
  for (let r = 0; r < dst.vRow; r++) {
    for (let c = 0; c < dst.vCol; c++) {
      if (nanBits) {
        const bits = simulatorNanBits(src.getBits(r, c), from, to);
        if (bits !== undefined) {
          dst.setBits(r, c, bits);
          continue;
        }
      }
      dst.set(r, c, element(src.get(r, c)));
    }
  }
}

/**
 * The typed-array path of TCVT between float types (f32, f16, bf16): the same element conversions, a NaN through
 * `nan` (its bits, under cpu-sim) in the same row-by-row order; false when a tile has no float lanes.
 */
function convertFloats(dst: Tile, src: Tile, element: Converter, nan: (r: number, c: number) => boolean): boolean {
  const [rows, cols] = [dst.vRow, dst.vCol];
  const [d, a] = [floatLanes(dst, rows, cols), floatLanes(src, rows, cols)];
  if (!d || !a) return false;
  for (let r = 0; r < rows; r++)
    for (let c = 0; c < cols; c++) {
      const x = a.read(a.base + r * a.row + c * a.col);
      if (x !== x && nan(r, c)) continue;
      d.write(d.base + r * d.row + c * d.col, element(x) as number);
    }
  return true;
}

/** A float tile's lanes with a reader and a writer of values (16-bit floats through their table and encoder). */
function floatLanes(tile: Tile, rows: number, cols: number): (Lanes<unknown> & { read(i: number): number; write(i: number, v: number): void }) | undefined {
  const single = f32Lanes([tile], rows, cols);
  if (single) {
    const [l] = single;
    return { ...l, read: (i) => l.data[i], write: (i, v) => (l.data[i] = v) };
  }
  const half = halfLanes([tile], rows, cols);
  if (!half) return undefined;
  const [l] = half.lanes;
  const { decode, encode } = half;
  return { ...l, read: (i) => decode[l.data[i]], write: (i, v) => (l.data[i] = encode(v)) };
}

export const module: SemanticsModule = { semantics: { convert } };
