import { PartitionView, Tile } from '../../../machine/memory';
import { innerBox } from '../../../types/geometry';
import { InstructionContext } from './context';

/**
 * Which elements a tload or tstore moves when the view's shape is not the tile's valid region: tile (r, c) <->
 * global element `element(r, c)`, for r < rows and c < cols. The plain case (a view whose shape is the valid region)
 * is memory.ts's own; these are the cases pto-isa and PTOAS's TileLang templates define otherwise.
 */
export interface TransferPlan {
  rows: number;
  cols: number;
  element(r: number, c: number): number;
}

export type Direction = 'load' | 'store';

/** A checked global element index: the buffer's bounds, as a DMA reading or writing past them would fault. */
function checked(ctx: InstructionContext, view: PartitionView, index: number): number {
  const limit = view.buffer.length;
  if (index < 0 || index >= limit) ctx.trap(`${view.buffer.name}: element ${index} is out of bounds (the buffer has ${limit} elements of ${view.buffer.elem})`);
  return index;
}

/**
 * A view as a matrix: its rows are the combinations of the outer indices in row-major order, its columns the
 * innermost dimension (an ND global tensor). `element(r, c)` is the buffer index of that element, checked against
 * the buffer.
 */
export function viewMatrix(ctx: InstructionContext, view: PartitionView): { rows: number; cols: number; element(r: number, c: number): number } {
  const shape = view.shape;
  const outerDims = shape.slice(0, -1);
  const innerStride = view.strides[shape.length - 1];
  const limit = view.buffer.length;
  // Transfers walk a row at a time: its base is computed once.
  let cachedRow = -1;
  let rowBase = 0;
  return {
    rows: outerDims.reduce((p, d) => p * d, 1),
    cols: shape[shape.length - 1],
    element(r, c) {
      if (r !== cachedRow) {
        let rest = r;
        rowBase = view.offset;
        for (let d = outerDims.length - 1; d >= 0; d--) {
          rowBase += (rest % outerDims[d]) * view.strides[d];
          rest = Math.floor(rest / outerDims[d]);
        }
        cachedRow = r;
      }
      const index = rowBase + c * innerStride;
      if (index < 0 || index >= limit) {
        ctx.trap(`${view.buffer.name}: element ${index} is out of bounds (the buffer has ${limit} elements of ${view.buffer.elem})`);
      }
      return index;
    },
  };
}

/** A shape or its strides right-aligned to 5-D, as PTOAS pads a view for pto-isa's GlobalTensor (leading 1s). */
const to5d = <T>(dims: T[], fill: T): T[] => [...new Array<T>(Math.max(0, 5 - dims.length)).fill(fill), ...dims];

/**
 * The element (r, c) of a view read as a DN global tensor (pto-isa cpu/tile_offsets.hpp, MapTileIndicesToGlobalOffset):
 * rows are Shape3, columns Shape0 x Shape1 x Shape2 x Shape4 with Shape4 innermost.
 */
function dnElement(ctx: InstructionContext, view: PartitionView): (r: number, c: number) => number {
  const [, g1, g2, , g4] = to5d(view.shape, 1);
  const [s0, s1, s2, s3, s4] = to5d(view.strides, 0);
  return (r, c) => {
    const outer = Math.floor(c / g4);
    const index = view.offset + Math.floor(outer / (g1 * g2)) * s0 + (Math.floor(outer / g2) % g1) * s1 + (outer % g2) * s2 + r * s3 + (c % g4) * s4;
    return checked(ctx, view, index);
  };
}

/**
 * The plan of a transfer whose view is not the valid region, or a trap naming why it is not defined. Two kinds are:
 * a 5-D NZ view of a vec NZ tile (tload and tstore), and a tload of a view larger than an ND or DN vec tile's valid
 * region.
 */
export function reshapedTransfer(ctx: InstructionContext, view: PartitionView, tile: Tile, direction: Direction): TransferPlan {
  const t = tile.type;
  const what = `view shape ${view.shape.join('x')} and the tile's valid region ${tile.vRow}x${tile.vCol}`;
  // The view's type says which dimensions PTOAS knows when it picks and expands a template; the rest are dynamic.
  const declared = ctx.bound.operands.get(direction === 'load' ? 'src' : 'dst')?.type;
  const known: (number | null)[] =
    declared?.kind === 'partition_view' && declared.shape.length === view.shape.length ? declared.shape : view.shape.map(() => null);
  let plan: TransferPlan;
  if (t.loc === 'vec' && t.blayout === 'col_major' && t.slayout === 'row_major' && view.shape.length === 5)
    plan = nzTransfer(ctx, view, tile, direction, what, known);
  else if (direction === 'load' && t.loc === 'vec' && t.slayout === 'none_box') plan = largerLoad(ctx, view, tile, what, known);
  else
    ctx.trap(
      `${what} is not implemented yet (the VM transfers a view whose shape is the valid region, a tload of a larger view into an ND or DN vec tile, and a 5-D NZ view of an NZ vec tile)`,
    );
  // Every layout's index grows with the row and the column: the tile's rows x cols bound what the copy may write.
  if (plan.rows > t.rows || plan.cols > t.cols)
    ctx.trap(`${what} moves ${plan.rows}x${plan.cols} elements, more than the ${t.rows}x${t.cols} tile holds: not defined`);
  return plan;
}

/**
 * A tload of a view larger than an ND (row_major) or DN (col_major) vec tile's valid region. Per back end:
 * - vpto (PTOAS lib/TileOps/a5/tload.py): template_tload_nd2nd and _dn2dn. A 2-D view moves the valid region. A 5-D
 *   view's static dimensions drive the copy: ND moves its Shape0..3 rows of Shape4 columns (a dynamic Shape3 with
 *   unit outer dims, or a dynamic Shape4, takes the valid extent instead), DN moves the valid rows of its Shape0..2 x
 *   Shape4 columns. Each lands at its own (r, c), past the valid region too. The templates' constraint (valid region
 *   <= the view's rows x cols <= the tile's) picks them; without a match PTOAS has no expansion.
 * - emitc on A5 (pto-isa npu/a5 TLoadVecND2ND, TLoadVecDN2DN): ND moves the view's Shape0..3 rows of valid-cols
 *   columns, DN the valid rows of the view's columns; StaticCheck static_asserts, for ND, that a static valid region
 *   equals the view's static rows and cols.
 * - emitc on A2/A3 (TLoadGm2ubNd2nd, _Dn2dn) and the simulator (cpu/TLoad.hpp, CheckTileData) assert that the view's
 *   shape is the valid region.
 */
function largerLoad(ctx: InstructionContext, view: PartitionView, tile: Tile, what: string, known: (number | null)[]): TransferPlan {
  const dn = tile.type.blayout === 'col_major';
  const layout = dn ? 'DN' : 'ND';
  if (ctx.backend === 'vpto') return templateLoad(ctx, view, tile, what, known, dn);
  if (ctx.numerics === 'cpu-sim')
    ctx.trap(`${what} is not defined: the simulator asserts that an ${layout} view's shape is the valid region (pto-isa cpu/TLoad.hpp, CheckTileData)`);
  if (ctx.target === 'a2a3')
    ctx.trap(`${what} is not defined: A2/A3's TLOAD asserts that an ${layout} view's shape is the valid region (pto-isa TLoadGm2ub${dn ? 'Dn2dn' : 'Nd2nd'})`);
  const [g0, g1, g2, g3, g4] = to5d(view.shape, 1);
  if (dn) return { rows: tile.vRow, cols: g0 * g1 * g2 * g4, element: dnElement(ctx, view) };
  const [k0, k1, k2, k3, k4] = to5d(known, 1);
  const staticRows = k0 !== null && k1 !== null && k2 !== null && k3 !== null ? k0 * k1 * k2 * k3 : null;
  // StaticCheck compares only where both sides are static and positive (TileData::ValidCol > 0, staticShape[4] > 0).
  const differ = (valid: number | null, shape: number | null) => valid !== null && shape !== null && valid > 0 && shape > 0 && valid !== shape;
  if (differ(tile.type.vCol, k4) || differ(tile.type.vRow, staticRows))
    ctx.trap(
      `${what} is not defined under the emitc back end: pto-isa's A5 TLOAD static_asserts that a static valid region equals the view's static rows and cols (npu/a5 TLoad.hpp, StaticCheck)`,
    );
  const matrix = viewMatrix(ctx, view);
  return { rows: g0 * g1 * g2 * g3, cols: tile.vCol, element: matrix.element };
}

/** The vpto back end's template_tload_nd2nd / _dn2dn (see largerLoad). */
function templateLoad(ctx: InstructionContext, view: PartitionView, tile: Tile, what: string, known: (number | null)[], dn: boolean): TransferPlan {
  const template = dn ? 'template_tload_dn2dn' : 'template_tload_nd2nd';
  const t = tile.type;
  const { vRow, vCol } = tile;
  const rank = view.shape.length;
  if (rank !== 2 && rank !== 5) ctx.trap(`${what} is not implemented yet: PTOAS's ${template} takes 2-D and 5-D views, this one has rank ${rank}`);
  if (rank === 5 && known.slice(0, 3).some((d) => d === null))
    ctx.trap(`${what} is not implemented yet: PTOAS's ${template} needs static outer dims (Shape0..2), and the view's type has dynamic ones`);
  const [g0, g1, g2, g3, g4] = to5d(view.shape, 1);
  const [k0, k1, k2, k3, k4] = to5d(known, 1);
  // The constraint (lib/TileOps/a5/_load_store.py, _check_load_bounds): valid <= the view's rows x cols <= the tile's, where known.
  const logical: [number | null, number | null] =
    rank === 2 ? [k3, k4] : dn ? [k3, k4 === null ? null : k0! * k1! * k2! * k4] : [k3 === null ? null : k0! * k1! * k2! * k3, k4];
  const fits = (valid: number, extent: number | null, room: number) => extent === null || (valid <= extent && extent <= room);
  if (!fits(vRow, logical[0], t.rows) || !fits(vCol, logical[1], t.cols))
    ctx.trap(`${what}: PTOAS has no TileLang template for it (${template} needs the valid region <= the view's rows x cols <= the tile's ${t.rows}x${t.cols})`);
  // A dimension the type leaves dynamic takes the valid extent in the template; PTOAS reads a constant size operand
  // as static, which the VM cannot see from the type: where the two would differ, it does not guess.
  const dynamicDiffers = (k: number | null, runtime: number, valid: number) => k === null && runtime !== valid;
  if (rank === 2) {
    if (dynamicDiffers(k3, g3, vRow) || dynamicDiffers(k4, g4, vCol)) ctx.trap(`${what} is not implemented yet: ${ambiguous}`);
    return { rows: vRow, cols: vCol, element: viewMatrix(ctx, view).element };
  }
  if (dn) {
    if (dynamicDiffers(k4, g4, vCol)) ctx.trap(`${what} is not implemented yet: ${ambiguous}`);
    return { rows: vRow, cols: g0 * g1 * g2 * g4, element: dnElement(ctx, view) };
  }
  if (k3 === null && (k0 !== 1 || k1 !== 1 || k2 !== 1))
    ctx.trap(`${what} is not implemented yet: ${template} takes the valid rows for a dynamic Shape3 only when Shape0..2 are 1`);
  if (dynamicDiffers(k3, g3, vRow) || dynamicDiffers(k4, g4, vCol)) ctx.trap(`${what} is not implemented yet: ${ambiguous}`);
  return { rows: g0 * g1 * g2 * g3, cols: g4, element: viewMatrix(ctx, view).element };
}

const ambiguous =
  "the view's type leaves a dimension dynamic that differs from the valid region at run time, and whether PTOAS's template copies the view's extent or the valid one depends on whether its size operand is a constant";

/**
 * A 5-D NZ view [Shape0, Shape1, Shape2, Shape3, C0] of a vec NZ tile (col_major boxes of 16 rows x C0 = 32 bytes
 * of columns). Every implementation moves column blocks: block k = i0 * Shape1 + i1 holds the view's
 * (i0, i1, ., ., .) elements, its rows in 32-byte bursts (pto-isa TLoadVecNZ2NZ / TStoreVecNZ on A5,
 * TLoadGm2ubNz2nz / TStoreUb2gmNz2nz on A2/A3, PTOAS's template_tload_nz2nz / template_tstore_nz; the simulator's
 * GetNZGlobalIndex maps the same elements). The rows moved are the tile's valid rows, the columns Shape0 x Shape1 x
 * C0. What each requires:
 * - vpto: its constraints: a tload's valid rows <= Shape2 <= the tile's rows; a tstore's valid region is
 *   Shape2 x Shape3 rows by Shape0 x Shape1 x Shape4 columns.
 * - emitc: Shape3 = 16 and Shape4 = C0 static (static_assert); A2/A3 and every tstore assert the valid region as
 *   above (PTO_ASSERT); an A5 tload does not.
 * - the simulator asserts the valid region as above.
 */
function nzTransfer(ctx: InstructionContext, view: PartitionView, tile: Tile, direction: Direction, what: string, known: (number | null)[]): TransferPlan {
  const [g0, g1, g2, g3, g4] = view.shape;
  const [s0, s1, s2, s3, s4] = view.strides;
  const c0 = 32 / tile.codec.size;
  const { vRow, vCol } = tile;
  if (innerBox(tile.type).cols !== c0 || g4 !== c0)
    ctx.trap(`${what} is not implemented yet: an NZ view moves 32-byte rows of 512-byte boxes (Shape4 = ${c0} for ${tile.type.dtype}, fractal=512)`);
  const validIsView = vRow === g2 * g3 && vCol === g0 * g1 * g4;
  const viewRegion = `Shape2 x Shape3 = ${g2 * g3} rows by Shape0 x Shape1 x Shape4 = ${g0 * g1 * g4} columns`;
  if (ctx.backend === 'vpto') {
    if (direction === 'load' ? !(vRow <= g2 && g2 <= tile.type.rows) : !validIsView)
      ctx.trap(
        `${what}: PTOAS has no TileLang template for it (${direction === 'load' ? `template_tload_nz2nz needs valid rows <= Shape2 = ${g2} <= the tile's ${tile.type.rows} rows` : `template_tstore_nz needs the valid region to be ${viewRegion}`})`,
      );
  } else if (ctx.numerics === 'cpu-sim') {
    if (!validIsView) ctx.trap(`${what} is not defined: the simulator asserts that the valid region is the NZ view's ${viewRegion}`);
  } else {
    if (known[3] !== 16 || known[4] !== c0)
      ctx.trap(`${what} is not defined under the emitc back end: pto-isa static_asserts that an NZ view's Shape3 and Shape4 are 16 and ${c0}, static`);
    if ((ctx.target === 'a2a3' || direction === 'store') && !validIsView)
      ctx.trap(`${what} is not defined: pto-isa asserts that the valid region is the NZ view's ${viewRegion}`);
  }
  // The DMA reads each block's rows as one contiguous run: strides other than the dense NZ ones are not modelled.
  const rowsOfBlocks = Math.ceil(vRow / g3);
  if (ctx.numerics !== 'cpu-sim' && (s4 !== 1 || (g3 > 1 && s3 !== c0) || (rowsOfBlocks > 1 && s2 !== g3 * c0)))
    ctx.trap(
      `${what} is not implemented yet: the NZ burst copy reads dense rows (strides Shape2 = ${g3 * c0}, Shape3 = ${c0}, Shape4 = 1), not ${view.strides.join(', ')}`,
    );
  return {
    rows: vRow,
    cols: g0 * g1 * c0,
    element(r, c) {
      const block = Math.floor(c / c0);
      const index = view.offset + Math.floor(block / g1) * s0 + (block % g1) * s1 + Math.floor(r / g3) * s2 + (r % g3) * s3 + (c % c0) * s4;
      return checked(ctx, view, index);
    },
  };
}
