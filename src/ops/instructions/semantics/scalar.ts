import { Tile } from '../../../machine/memory';
import { elemSize, elemTypeName, isInteger } from '../../../types/type';
import { InstructionContext } from './context';

/**
 * Scalar access to tiles: TEXPANDS (fill), TGETVAL / TSETVAL (one element). A float scalar is rounded to
 * the tile's type; an integer wraps. Offsets count elements row by row over the tile's rows x cols.
 */

function position(ctx: InstructionContext, tile: Tile, offset: bigint | number): [number, number] {
  const n = typeof offset === 'bigint' ? offset : BigInt(Math.trunc(offset));
  const size = tile.type.rows * tile.type.cols;
  if (n < 0n || n >= BigInt(size)) ctx.trap(`offset ${n} is outside the ${tile.type.rows}x${tile.type.cols} tile (0..${size - 1})`);
  const k = Number(n);
  return [Math.floor(k / tile.type.cols), k % tile.type.cols];
}

function asElement(tile: Tile, v: bigint | number): bigint | number {
  if (tile.codec.isFloat) return tile.codec.round(Number(v));
  return tile.codec.round(typeof v === 'bigint' ? v : BigInt(Math.trunc(v)));
}

/** TEXPANDS: dst[i, j] = scalar over dst's valid region. */
export function expandScalar(ctx: InstructionContext): void {
  const dst = ctx.tile('dst');
  const v = asElement(dst, ctx.scalar('scalar'));
  for (let r = 0; r < dst.vRow; r++) for (let c = 0; c < dst.vCol; c++) dst.set(r, c, v);
}

/** TGETVAL: the element at `offset`. */
export function getValue(ctx: InstructionContext): void {
  const src = ctx.tile('src');
  const [r, c] = position(ctx, src, ctx.scalar('offset'));
  const v = src.get(r, c);
  // Integer scalars are bigints in the VM, whatever their width.
  ctx.setResult('dst', src.codec.isFloat ? v : BigInt(v));
}

/**
 * TSETVAL: the element at `offset` = value. PTOAS lets the value's type differ from dst's element type (it checks
 * shaped types only); the emitted SetValue then converts as C++ does. An integer of dst's width keeps its bits
 * (int16 -> uint16 is modular); other conversions are not modelled.
 */
export function setValue(ctx: InstructionContext): void {
  const dst = ctx.tile('dst');
  const valueType = ctx.bound.operands.get('value')?.type;
  const from = valueType?.kind === 'scalar' ? valueType.elem : dst.type.dtype;
  const to = dst.type.dtype;
  if (from !== to && !(isInteger(from) && isInteger(to) && elemSize(from) === elemSize(to))) {
    ctx.trap(`${elemTypeName(from)} values into ${elemTypeName(to)} tiles are not implemented yet: PTOAS accepts them, and C++ converts them on the NPU`);
  }
  const [r, c] = position(ctx, dst, ctx.scalar('offset'));
  dst.set(r, c, asElement(dst, ctx.scalar('value')));
}
