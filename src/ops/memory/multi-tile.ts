import { DIAGNOSTICS as D } from '../../diag/catalog';
import { OpDefinition } from '../../ir/definition';
import { vmTrap } from '../../machine/trap';
import { MultiTile } from '../../machine/value';
import { printType } from '../../types/type';
import { DeclaredOp, declaredDefinition } from '../define/declared';
import { allocatedTileProblems, localAddressProblem } from './tile-rules';
import { plannedTile } from './tiles';

/**
 * Multi-buffering: `!pto.multi_tile_buf<vec, 16x16xf16, count=2>` is `count` tiles of one type, allocated together;
 * `pto.multi_tile_get %mb[%i]` selects one at run time (PTOAS later resolves each selection to an address).
 */

const ALLOC_MULTI_TILE: DeclaredOp = {
  name: 'pto.alloc_multi_tile',
  syntax: 'AllocTileBody',
  properties: { notInTileOpHelper: 'Tile allocation or high-level TileOps' },
  // The slots' addresses are what memory planning (pto-plan-memory) decides; a program may not set them.
  refusedAttrs: { names: ['pto.multi_buffer_addrs'], reason: "memory planning's internal attribute" },
  operands: [
    { name: 'addr', is: ['i64'], optional: true, keyword: true },
    { name: 'valid_row', is: ['index'], optional: true, keyword: true },
    { name: 'valid_col', is: ['index'], optional: true, keyword: true },
  ],
  results: [{ name: 'result', is: ['multi_tile'] }],
  check(c) {
    const t = c.v.declared[0];
    if (t?.kind !== 'multi_tile') return;
    for (const p of allocatedTileProblems(t.slot)) c.v.error(c.v.op.resultTypes[0].span, `pto.alloc_multi_tile: the slot: ${p}`, undefined, D.invalidTileType);
    const at = c.binding.operands.addr ? c.v.constant(c.binding.operands.addr[0]) : undefined;
    const misplaced = at !== undefined ? localAddressProblem(t.slot.loc, at) : undefined;
    if (misplaced) c.error(c.span('addr'), `pto.alloc_multi_tile: ${misplaced}`);
    const { level } = c.v;
    if (level && level !== 'level3' && c.binding.operands.addr)
      c.v.error(c.span('addr'), "unexpected 'addr' operand on pto.alloc_multi_tile: only supported when --pto-level=level3", undefined, D.buildLevel);
    if (level === 'level3' && !c.binding.operands.addr)
      c.v.error(c.v.op.nameSpan, "pto.alloc_multi_tile requires a base 'addr' operand when --pto-level=level3", undefined, D.buildLevel);
    for (const [key, dim] of [
      ['valid_row', t.slot.vRow],
      ['valid_col', t.slot.vCol],
    ] as const) {
      const given = c.binding.operands[key] !== undefined;
      if (dim === null && !given) c.error(c.v.op.nameSpan, `the slot type has a dynamic valid region, so pto.alloc_multi_tile needs '${key} = %value'`);
      if (dim !== null && given) c.error(c.span(key), `'${key}' is only allowed when the slot type's valid region is dynamic`);
    }
  },
  execute(x, op, b) {
    const type = op.resultTypes[0];
    if (type?.kind !== 'multi_tile') throw vmTrap('pto.alloc_multi_tile needs a !pto.multi_tile_buf', op.node.span);
    if (b.operands.addr) throw vmTrap('pto.alloc_multi_tile placed by address is not implemented yet', op.node.span);
    const multi = x.storage<MultiTile>(op, 'tiles', () => ({
      kind: 'multi_tile',
      tiles: Array.from({ length: type.count }, (_, k) => plannedTile(x, op, op.results[0], type.slot, k)),
    }));
    for (const tile of multi.tiles) {
      tile.vRow = type.slot.vRow ?? x.index(op, b.operands.valid_row[0]);
      tile.vCol = type.slot.vCol ?? x.index(op, b.operands.valid_col[0]);
      if (tile.vRow > type.slot.rows || tile.vCol > type.slot.cols || tile.vRow < 0 || tile.vCol < 0)
        throw vmTrap(`pto.alloc_multi_tile: valid ${tile.vRow}x${tile.vCol} is outside the slot's ${type.slot.rows}x${type.slot.cols}`, op.node.span);
    }
    x.setResults(op, [multi]);
  },
};

export const allocMultiTile: OpDefinition = declaredDefinition(ALLOC_MULTI_TILE);

const MULTI_TILE_OPS: DeclaredOp[] = [
  {
    name: 'pto.multi_tile_get',
    syntax: 'IndexedAccessBody',
    operands: [
      { name: 'storage', is: ['multi_tile'] },
      { name: 'indices', is: ['index'], variadic: true, keyword: true },
    ],
    results: [{ name: 'result', is: ['tile'] }],
    check(c) {
      const { op } = c.v;
      if ((c.binding.operands.indices?.length ?? 0) !== 1) c.error(op.span, 'pto.multi_tile_get takes one slot index: %mb[%slot]');
      const t = c.type('storage');
      const index = c.binding.operands.indices?.[0];
      const slot = index !== undefined ? c.v.constant(index) : undefined;
      if (t?.kind === 'multi_tile' && slot !== undefined && (slot < 0n || slot >= BigInt(t.count)))
        c.error(op.operands[index!].span, `pto.multi_tile_get: constant slot ${slot} is out of range for count=${t.count}`);
      const declared = c.v.declared[0];
      if (t?.kind === 'multi_tile' && declared && printType(declared) !== printType(t.slot))
        c.error(op.resultTypes[0].span, `pto.multi_tile_get gives the slot type ${printType(t.slot)}, not ${printType(declared)}`);
    },
    inferResults(c) {
      const t = c.type('storage');
      return t?.kind === 'multi_tile' ? [t.slot] : undefined;
    },
    execute(x, op, b) {
      const multi = x.operand(op, b.operands.storage[0]) as MultiTile;
      const slotOperand = b.operands.indices[0];
      const slot = x.index(op, slotOperand);
      if (slot < 0 || slot >= multi.tiles.length)
        throw vmTrap(`pto.multi_tile_get: slot ${slot} is outside 0..${multi.tiles.length - 1}`, op.node.operands[slotOperand].span);
      x.setResults(op, [multi.tiles[slot]]);
    },
  },
];

export const MULTI_TILE_DEFINITIONS: OpDefinition[] = [allocMultiTile, ...MULTI_TILE_OPS.map(declaredDefinition)];
