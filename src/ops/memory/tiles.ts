import { DIAGNOSTICS as D } from '../../diag/catalog';
import { Executor, OpDefinition, OpVerifier } from '../../ir/definition';
import { BoundOp, decided } from '../../ir/bound';
import { Tile } from '../../machine/memory';
import { vmTrap } from '../../machine/trap';
import { tileBytes } from '../../types/geometry';
import { attrOf } from '../../syntax/ast';
import { TileType, elemSize, elemTypeName, printType } from '../../types/type';
import { allocatedTileProblems, localAddressProblem, tileTypeProblems } from './tile-rules';
import { boxedOffsetProblem, subsetBoundsProblem, subsetType, treshapeProblem } from './tile-views';

/** A tile operand (verification makes sure it is one). */
export function tileOperand(x: Executor, op: BoundOp, i: number): Tile {
  const v = x.operand(op, i);
  if (!(v instanceof Tile)) throw vmTrap(`${op.def.name} needs a tile`, op.node.operands[i].span);
  return v;
}

/** A valid extent given at run time by operand `i`: a trap, located at the operand, unless it is in 0..limit. */
export function runtimeExtent(x: Executor, op: BoundOp, i: number, limit: number, label: string): number {
  const v = x.index(op, i);
  if (v < 0 || v > limit) throw vmTrap(`${label} = ${v} is outside 0..${limit}`, op.node.operands[i].span);
  return v;
}

/**
 * The storage of a tile an op allocates (its result `slot`; tile `k` of a multi-tile buffer): where memory planning
 * put it (src/verify/memory-plan.ts), storage apart when planning gives it none, or after the tiles placed so far
 * when the op was not planned.
 */
export function plannedTile(x: Executor, op: BoundOp, slot: number, type: TileType, k = 0): Tile {
  const placement = op.placement;
  if (!placement) return x.memory.allocate(type, op.def.name, op.node.span);
  const offset = placement.offsets.get(slot)?.[k];
  return offset === undefined ? x.memory.unplanned(type) : x.memory.placePlanned(type, placement.frame, offset, op.def.name, op.node.span);
}

/** A valid dimension of an allocation: the type's, or the `valid_row`/`valid_col` operand for `?`. */
function validDim(x: Executor, op: BoundOp, key: string, declared: number | null, physical: number): number {
  return declared !== null ? declared : runtimeExtent(x, op, op.node.segments[key][0], physical, key);
}

/** Tiles: allocation, and views of a tile's bytes (a window, a reshape, a bit cast). */

export const allocTile: OpDefinition = {
  name: 'pto.alloc_tile',
  syntax: 'AllocTileBody',
  properties: { notInTileOpHelper: 'Tile allocation or high-level TileOps' },
  execute(x, op) {
    const type = op.resultTypes[0] as TileType;
    const addr = op.node.segments.addr?.[0];
    // Placed by address, the tile may move from one run of the op to the next; else it keeps its first storage.
    const tile =
      addr !== undefined
        ? x.memory.place(type, x.index(op, addr), op.def.name, op.node.operands[addr].span)
        : x.storage(op, 'tile', () => plannedTile(x, op, op.results[0], type));
    tile.vRow = validDim(x, op, 'valid_row', type.vRow, type.rows);
    tile.vCol = validDim(x, op, 'valid_col', type.vCol, type.cols);
    x.setResults(op, [tile]);
  },
  /**
   * Tiles are placed by address (`alloc_tile addr = %a`) only at PTOAS's level 3, and there every tile is:
   * a program places all its tiles or none.
   */
  checkAll(allocs, error) {
    const placed = allocs.filter((op) => op.segments.addr);
    if (placed.length === 0 || placed.length === allocs.length) return;
    for (const op of allocs.filter((a) => !a.segments.addr)) {
      error(
        op.nameSpan,
        "pto.alloc_tile needs 'addr = %a' here: other tiles of this program are placed by address (PTOAS's level 3), and a program places all its tiles or none",
        [{ message: 'placed by address here', span: placed[0].span }],
      );
    }
  },
  verify(v) {
    const { op } = v;
    const declared = v.declared;
    const t = declared[0];
    if (t && t.kind !== 'tile') v.error(op.resultTypes[0].span, `pto.alloc_tile produces a !pto.tile_buf, not ${printType(t)}`);
    if (t?.kind === 'tile') for (const p of allocatedTileProblems(t)) v.error(op.resultTypes[0].span, `pto.alloc_tile: ${p}`, undefined, D.invalidTileType);
    if (t?.kind === 'tile') {
      for (const [key, dim] of [
        ['valid_row', t.vRow],
        ['valid_col', t.vCol],
      ] as const) {
        const given = op.segments[key] !== undefined;
        const field = key === 'valid_row' ? 'v_row' : 'v_col';
        if (dim === null && !given) v.error(op.nameSpan, `the type has ${field}=? so pto.alloc_tile needs '${key} = %value'`);
        if (dim !== null && given) v.error(op.operands[op.segments[key][0]].span, `'${key}' is only allowed when the type has ${field}=?`);
      }
    }
    const addr = op.segments.addr?.[0];
    const at = addr !== undefined ? v.constant(addr) : undefined;
    const misplaced = t?.kind === 'tile' && at !== undefined ? localAddressProblem(t.loc, at) : undefined;
    if (misplaced) v.error(op.operands[addr!].span, `pto.alloc_tile: ${misplaced}`);
    if (at !== undefined) v.recordPlacement(at);
    if (v.level && v.level !== 'level3' && addr !== undefined)
      v.error(op.operands[addr].span, "unexpected 'addr' operand: only supported when --pto-level=level3", undefined, D.buildLevel);
    if (v.level === 'level3' && addr === undefined)
      v.error(op.nameSpan, "pto.alloc_tile requires 'addr' operand when --pto-level=level3", undefined, D.buildLevel);
    v.expectIndexOperands(['valid_row', 'valid_col', 'addr']);
    v.expectResults(1);
    v.define(declared);
  },
};

/** `%v = pto.treshape %t : A -> B`: B views A's bytes. */
const treshape: OpDefinition = {
  name: 'pto.treshape',
  properties: { aliasesOperand: { level2: true }, notInTileOpHelper: 'Tile allocation or high-level TileOps' },
  /** The source's bytes as another tile type (no copy). */
  execute(x, op) {
    const src = tileOperand(x, op, 0);
    const type = op.resultTypes[0] as TileType;
    if (!src.isContiguous())
      throw vmTrap('pto.treshape: the source is a window whose rows are not adjacent; only a contiguous tile can be reshaped', op.node.operands[0].span);
    // A dynamic valid size of the result keeps the source's (PTOAS carries the source's valid shape over); a reshape
    // that also changes rows x cols gives no such size.
    const dynamic = type.vRow === null || type.vCol === null;
    if (dynamic && (type.rows !== src.type.rows || type.cols !== src.type.cols))
      throw vmTrap('pto.treshape to a new shape with a dynamic valid shape is not implemented yet', op.node.resultTypes[0]?.span ?? op.node.span);
    x.setResults(op, [
      new Tile(
        type,
        src.buffer,
        src.address,
        src.bytes.subarray(0, tileBytes(type)),
        type.vRow ?? src.vRow,
        type.vCol ?? src.vCol,
        undefined,
        undefined,
        src.fastPaths,
      ),
    ]);
  },
  verify(v) {
    const { op } = v;
    if (op.form !== 'ssa') {
      // The manual's TRESHAPE in destination-passing form: only the Level 1 view is run here.
      v.error(op.nameSpan, 'pto.treshape is not implemented yet', undefined, D.unknownOp);
      v.define(v.declared);
      return;
    }
    const declared = v.declared;
    const [src] = v.operands;
    const [dst] = declared;
    if (op.operands.length !== 1 || op.resultTypes.length !== 1) {
      v.error(op.span, "pto.treshape takes one tile: '%v = pto.treshape %t : SOURCE_TYPE -> RESULT_TYPE'");
    } else if (src && src.kind !== 'tile') {
      v.error(op.operands[0].span, `pto.treshape needs a tile, got ${printType(src)}`);
    } else if (dst && dst.kind !== 'tile') {
      v.error(op.resultTypes[0].span, `pto.treshape produces a tile, not ${printType(dst)}`);
    } else if (src && dst) {
      const problem = treshapeProblem(src as TileType, dst as TileType);
      if (problem) v.error(op.resultTypes[0].span, `pto.treshape: ${problem}`);
    }
    v.expectResults(1);
    v.define(declared);
  },
};

/**
 * `%v = pto.subview %t[%r, %c] sizes [R, C] [valid [%vr, %vc]] : T [-> W]`: an R x C window of %t with %t's
 * strides and configuration. Its valid region is R x C, or the valid operands (the smaller of each constant and
 * the size; dynamic otherwise); a declared result type may give any static valid region within the sizes.
 */
export const subview: OpDefinition = {
  name: 'pto.subview',
  spellings: [{ name: 'pto.subset', deprecated: true }],
  syntax: 'SubviewBody',
  properties: { aliasesOperand: { level2: true } },
  /** A window of the source at (row, col), with the source's strides (no copy). */
  execute(x, op) {
    const parent = tileOperand(x, op, 0);
    const [row, col] = op.node.segments.offsets.map((i) => x.index(op, i));
    const { sizes, type } = decided<{ sizes: [number, number]; type: TileType }>(op);
    const problem = subsetBoundsProblem(parent.type, row, col, sizes);
    if (problem) throw vmTrap(`pto.subview: ${problem}`, op.node.span);
    const validOf = (segment: string, size: number, declared: number | null): number => {
      const index = op.node.segments[segment]?.[0];
      return index === undefined ? (declared ?? size) : runtimeExtent(x, op, index, size, `pto.subview: ${segment}`);
    };
    const [vRow, vCol] = [validOf('valid_row', sizes[0], type.vRow), validOf('valid_col', sizes[1], type.vCol)];
    if (parent.type.slayout !== 'none_box') {
      // Whole boxes of the parent, addressed through the parent's box grid.
      const offset = parent.elementIndex(row, col) * parent.codec.size;
      const frame = parent.frame ?? { rows: parent.type.rows, cols: parent.type.cols };
      x.setResults(op, [new Tile(type, parent.buffer, parent.address + offset, parent.bytes.subarray(offset), vRow, vCol, undefined, frame, parent.fastPaths)]);
      return;
    }
    const strides = parent.elementStrides();
    const offset = (row * strides.row + col * strides.col) * parent.codec.size;
    x.setResults(op, [new Tile(type, parent.buffer, parent.address + offset, parent.bytes.subarray(offset), vRow, vCol, strides, undefined, parent.fastPaths)]);
  },
  verify(v) {
    const { op } = v;
    const parent = v.operands[0];
    const sizesAttr = attrOf(op, 'sizes');
    const sizes = sizesAttr?.kind === 'array' ? sizesAttr.items.map((i) => (i.kind === 'int' ? Number(i.value) : NaN)) : [];
    let result: TileType | undefined;
    if (parent && parent.kind !== 'tile') {
      v.error(op.operands[0].span, `pto.subview needs a tile, got ${printType(parent)}`);
    } else if (parent) {
      if (op.segments.offsets.length !== 2) v.error(op.span, `pto.subview needs 2 offsets (row, col), got ${op.segments.offsets.length}`);
      op.segments.offsets.forEach((i, k) => {
        const c = v.constant(i);
        if (c !== undefined && c < 0n) v.error(op.operands[i].span, `pto.subview offsets must be non-negative, got ${c}`);
        const boxed = c === undefined ? null : boxedOffsetProblem(parent, k === 0 ? 'row' : 'col', Number(c));
        if (boxed) v.error(op.operands[i].span, `pto.subview: ${boxed}`);
      });
      const { type, problem } = subsetType(parent, sizes);
      if (problem) v.error(sizesAttr?.span ?? op.span, `pto.subview: ${problem}`);
      else {
        for (const p of tileTypeProblems(type!, v.target, v.isa)) v.error(sizesAttr?.span ?? op.span, `pto.subview: the window is not a valid tile: ${p}`);
        result = { ...type!, vRow: subviewValid(v, 'valid_row', sizes[0]), vCol: subviewValid(v, 'valid_col', sizes[1]) };
      }
    }
    v.expectIndexOperands(['offsets', 'valid_row', 'valid_col']);
    v.expectResults(1);
    const declared = v.declared[0];
    if (result && declared) {
      const inferred = result;
      const validOk = (d: number | null, i: number | null, size: number, given: boolean) => d === i || (!given && d !== null && d >= 0 && d <= size);
      if (
        declared.kind !== 'tile' ||
        printType({ ...declared, vRow: 0, vCol: 0 }) !== printType({ ...inferred, vRow: 0, vCol: 0 }) ||
        !validOk(declared.vRow, inferred.vRow, sizes[0], op.segments.valid_row !== undefined) ||
        !validOk(declared.vCol, inferred.vCol, sizes[1], op.segments.valid_col !== undefined)
      ) {
        v.error(op.resultTypes[0].span, `pto.subview gives ${printType(inferred)}, not ${printType(declared)}`);
      } else result = declared;
    }
    v.define([result]);
    v.decide({ sizes, type: result });
  },
};

/** The valid extent a subview's valid operand gives: the smaller of a constant and the size, else dynamic. */
function subviewValid(v: OpVerifier, segment: string, size: number): number | null {
  const index = v.op.segments[segment]?.[0];
  if (index === undefined) return size;
  const c = v.constant(index);
  if (c === undefined) return null;
  if (c < 0n || c > BigInt(size)) {
    v.error(v.op.operands[index].span, `pto.subview: ${segment} = ${c} must be in 0..${size} (the window's size)`);
    return null;
  }
  return Number(c);
}

const bitcast: OpDefinition = {
  name: 'pto.bitcast',
  properties: { aliasesOperand: { level2: true } },
  execute(x, op) {
    const src = tileOperand(x, op, 0);
    x.setResults(op, [new Tile(op.resultTypes[0] as TileType, src.buffer, src.address, src.bytes, src.vRow, src.vCol, src.strides, src.frame, src.fastPaths)]);
  },
  verify(v) {
    const { op } = v;
    const declared = v.declared;
    const [src] = v.operands;
    const [dst] = declared;
    if (op.operands.length !== 1 || op.resultTypes.length !== 1) {
      v.error(op.span, "pto.bitcast takes one tile: '%b = pto.bitcast %t : SOURCE_TYPE -> RESULT_TYPE'");
    } else if (src && dst) {
      if (src.kind !== 'tile' || dst.kind !== 'tile') v.error(op.span, 'pto.bitcast needs a tile and gives a tile');
      else {
        const problem =
          src.dtype === dst.dtype
            ? 'the element types are the same (use pto.treshape to change the shape or layout)'
            : elemSize(src.dtype) !== elemSize(dst.dtype)
              ? `${elemTypeName(src.dtype)} and ${elemTypeName(dst.dtype)} differ in size`
              : printType({ ...src, dtype: dst.dtype }) !== printType(dst)
                ? 'only the element type may change (location, shape, valid region and layout stay)'
                : undefined;
        if (problem) v.error(op.resultTypes[0].span, `pto.bitcast: ${problem}`);
      }
    }
    v.expectResults(1);
    v.define(declared);
  },
};

export const TILE_DEFINITIONS: OpDefinition[] = [allocTile, treshape, subview, bitcast];
