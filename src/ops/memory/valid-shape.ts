import { OpDefinition, OpVerifier } from '../../ir/definition';
import { Tile } from '../../machine/memory';
import { TileType, Type, printType } from '../../types/type';
import { runtimeExtent } from './tiles';

/**
 * A tile's valid region at run time: set (on a tile whose type leaves it dynamic, `valid=?x?`) and read
 * (`pto.get_validshape`, `pto.tile_valid_rows`, `pto.tile_valid_cols`).
 */

const INDEX: Type = { kind: 'scalar', elem: 'index' };

/** The tile operand (the first), or undefined after reporting what it is instead. */
function tileSource(v: OpVerifier): TileType | undefined {
  const t = v.operands[0];
  if (t && t.kind !== 'tile') v.error(v.op.operands[0].span, `${v.op.name} needs a tile, got ${printType(t)}`);
  return t?.kind === 'tile' ? t : undefined;
}

/** `pto.set_validshape %t, %rows, %cols : T`: the tile's valid region from here on. */
const setValidShape: OpDefinition = {
  name: 'pto.set_validshape',
  syntax: 'FirstOperandTypedBody',
  execute(x, op) {
    const tile = x.operand(op, 0) as Tile;
    const rows = runtimeExtent(x, op, 1, tile.type.rows, 'pto.set_validshape: rows');
    const cols = runtimeExtent(x, op, 2, tile.type.cols, 'pto.set_validshape: cols');
    tile.vRow = rows;
    tile.vCol = cols;
  },
  verify(v) {
    const { op } = v;
    if (op.operands.length !== 3) v.error(op.span, `pto.set_validshape takes a tile, its valid rows and its valid cols, got ${op.operands.length} operand(s)`);
    const tile = tileSource(v);
    if (tile && (tile.vRow !== null || tile.vCol !== null))
      v.error(op.operands[0].type?.span ?? op.span, `pto.set_validshape needs a tile whose valid region is dynamic (valid=?x?), got ${printType(tile)}`);
    const source = op.operands[0].value?.name;
    if (source && (v.function.params ?? []).some((p) => p.name === source))
      v.error(op.operands[0].span, 'pto.set_validshape needs a tile allocated in this function, not a function argument');
    for (const [i, limit] of [
      [1, tile?.rows],
      [2, tile?.cols],
    ] as const) {
      const c = op.operands[i] ? v.constant(i) : undefined;
      if (c !== undefined && (c < 0n || (limit !== undefined && c > BigInt(limit))))
        v.error(op.operands[i].span, `pto.set_validshape: ${i === 1 ? 'rows' : 'cols'} = ${c} is outside 0..${limit}`);
    }
    expectIndexes(v, [1, 2]);
    v.expectResults(0);
    v.define([]);
  },
};

/** `%rows, %cols = pto.get_validshape %t : T`. */
const getValidShape: OpDefinition = {
  name: 'pto.get_validshape',
  syntax: 'FirstOperandTypedBody',
  execute(x, op) {
    const tile = x.operand(op, 0) as Tile;
    x.setResults(op, [BigInt(tile.vRow), BigInt(tile.vCol)]);
  },
  verify(v) {
    if (v.op.operands.length !== 1) v.error(v.op.span, `pto.get_validshape takes one tile, got ${v.op.operands.length} operands`);
    tileSource(v);
    if (v.op.resultTypes.length > 0) v.error(v.op.resultTypes[0].span, 'pto.get_validshape gives two index values; write no result type');
    v.expectResults(2);
    v.define([INDEX, INDEX]);
  },
};

/** `%n = pto.tile_valid_rows %t : T -> index` (and `tile_valid_cols`). */
function validExtent(name: string, pick: (t: Tile) => number): OpDefinition {
  return {
    name,
    syntax: 'FirstOperandTypedBody',
    execute(x, op) {
      x.setResults(op, [BigInt(pick(x.operand(op, 0) as Tile))]);
    },
    verify(v) {
      if (v.op.operands.length !== 1) v.error(v.op.span, `${name} takes one tile, got ${v.op.operands.length} operands`);
      tileSource(v);
      const declared = v.declared[0];
      if (!v.op.resultTypes[0]) v.error(v.op.span, `${name} needs its result type: '%n = ${name} %t : T -> index'`);
      else if (declared && !(declared.kind === 'scalar' && declared.elem === 'index'))
        v.error(v.op.resultTypes[0].span, `${name} gives an index, not ${printType(declared)}`);
      v.expectResults(1);
      v.define([INDEX]);
    },
  };
}

function expectIndexes(v: OpVerifier, indices: number[]): void {
  for (const i of indices) {
    const t = v.operands[i];
    if (t && !(t.kind === 'scalar' && t.elem === 'index')) v.error(v.op.operands[i].span, `${v.op.name}: operand ${i} must be an index, got ${printType(t)}`);
  }
}

export const VALID_SHAPE_DEFINITIONS: OpDefinition[] = [
  setValidShape,
  getValidShape,
  validExtent('pto.tile_valid_rows', (t) => t.vRow),
  validExtent('pto.tile_valid_cols', (t) => t.vCol),
];
