import { OpDefinition } from '../../ir/definition';
import { decided } from '../../ir/bound';
import { PartitionView, Tile } from '../../machine/memory';
import { vmTrap } from '../../machine/trap';
import { evaluateAffine } from '../structure/affine';
import { box } from './global-memory';
import { tileOperand } from './tiles';
import { attrOf, segment } from '../../syntax/ast';
import { TileType, Type, isIntegerLike, printType } from '../../types/type';
import { AffineMap, parseAffineMap } from '../../syntax/affine';

/** The memref form (buffers after PTOAS's memory planning) and index arithmetic with affine maps. */

/** `memref.alloc` takes the next free bytes of its buffer (once, reused by later runs); `pto.pointer_cast` is placed at its address. */
const PLACEMENT: Record<string, Pick<OpDefinition, 'syntax' | 'execute'>> = {
  'memref.alloc': {
    syntax: 'MemrefAllocBody',
    execute(x, op) {
      const type = op.resultTypes[0] as TileType;
      x.setResults(op, [x.storage(op, 'tile', () => x.memory.allocate(type, op.def.name, op.node.span))]);
    },
  },
  'pto.pointer_cast': {
    syntax: 'PointerCastBody',
    execute(x, op) {
      x.setResults(op, [x.memory.place(op.resultTypes[0] as TileType, x.index(op, 0), op.def.name, op.node.operands[0].span)]);
    },
  },
};

function memrefBuffer(name: string): OpDefinition {
  return {
    name,
    ...PLACEMENT[name],
    properties: { aliasesOperand: { level2: false } },
    verify(v) {
      const { op } = v;
      const declared = v.declared;
      const t = declared[0];
      if (t && !(t.kind === 'tile' && t.memref))
        v.error(op.resultTypes[0].span, `${op.name} produces an on-chip memref (memref<..., #pto.address_space<vec>>), not ${printType(t)}`);
      if (op.name === 'memref.alloc' && op.operands.length > 0)
        v.error(op.operands[0].span, 'memref.alloc with dynamic sizes is not supported: give the memref a static shape');
      if (op.name === 'pto.pointer_cast' && op.operands.length !== 1) v.error(op.span, `pto.pointer_cast takes one address, got ${op.operands.length}`);
      v.expectIndexOperands(['addr']);
      v.expectResults(1);
      v.define(declared);
    },
  };
}

/** `memref.subview %gm[offsets] [sizes] [strides] : A to B`: a box of a global memref. */
export const subview: OpDefinition = {
  name: 'memref.subview',
  syntax: 'MemrefSubviewBody',
  execute(x, op) {
    const source = x.operand(op, 0);
    if (!(typeof source === 'object' && 'kind' in source && source.kind === 'partition_view'))
      throw vmTrap('memref.subview needs a global memref', op.node.operands[0].span);
    x.setResults(op, [box(x, op, source as PartitionView, 'subview', "the memref's extent")]);
  },
  verify(v) {
    const { op } = v;
    const declared = v.declared;
    const [source] = v.operands;
    const [result] = declared;
    const isGlobal = (t: Type | undefined) => t?.kind === 'partition_view' && t.memref !== undefined;
    if (source && !isGlobal(source)) v.error(op.operands[0].span, `memref.subview needs a global memref (#pto.address_space<gm>), got ${printType(source)}`);
    if (result && !isGlobal(result)) v.error(op.resultTypes[0].span, `memref.subview produces a global memref, not ${printType(result)}`);
    if (source?.kind === 'partition_view' && result?.kind === 'partition_view') {
      for (const seg of ['offsets', 'sizes', 'strides']) {
        if (op.segments[seg].length !== source.shape.length)
          v.error(op.span, `${seg} has ${op.segments[seg].length} entries, but the source has rank ${source.shape.length}`);
      }
      segment(op, 'sizes').forEach((o, i) => {
        if (o.literal !== undefined && result.shape[i] !== null && result.shape[i] !== o.literal)
          v.error(o.span, `size ${o.literal} differs from the result's dimension ${result.shape[i]}`);
      });
      segment(op, 'strides').forEach((o) => {
        if (o.literal !== 1) v.error(o.span, 'memref.subview strides other than 1 are not supported');
      });
      if (result.elem !== source.elem) v.error(op.resultTypes[0].span, `element type ${result.elem} differs from the source's ${source.elem}`);
    }
    v.expectIndexOperands(['offsets', 'sizes', 'strides']);
    v.expectResults(1);
    v.define(declared);
  },
};

/** `%v = pto.bind_tile %buf, %rows, %cols {config = ...} : A -> A`: the buffer with a valid region, as a tile. */
/** `pto.bind_tile %buf, %rows, %cols`: the same bytes, with a valid region. */
export const bindTile: OpDefinition = {
  name: 'pto.bind_tile',
  syntax: 'BindTileBody',
  execute(x, op) {
    const buffer = tileOperand(x, op, 0);
    const [rows, cols] = [x.index(op, 1), x.index(op, 2)];
    if (rows < 0 || rows > buffer.type.rows || cols < 0 || cols > buffer.type.cols) {
      throw vmTrap(`pto.bind_tile: valid region ${rows}x${cols} is outside the ${buffer.type.rows}x${buffer.type.cols} buffer`, op.node.span);
    }
    x.setResults(op, [new Tile(buffer.type, buffer.buffer, buffer.address, buffer.bytes, rows, cols, buffer.strides, buffer.frame, buffer.fastPaths)]);
  },
  properties: { aliasesOperand: { level2: true } },
  verify(v) {
    const { op } = v;
    const declared = v.declared;
    const [source] = v.operands;
    if (op.operands.length !== 3) v.error(op.span, `pto.bind_tile takes a buffer and its valid rows and columns, got ${op.operands.length} operand(s)`);
    if (source && source.kind !== 'tile') v.error(op.operands[0].span, `pto.bind_tile needs an on-chip buffer, got ${printType(source)}`);
    if (source && declared[0] && printType(source) !== printType(declared[0]))
      v.error(op.resultTypes[0].span, `pto.bind_tile's result type ${printType(declared[0])} differs from its buffer's ${printType(source)}`);
    for (let i = 1; i < op.operands.length; i++) {
      if (v.operands[i] && !isIntegerLike(v.operands[i])) v.error(op.operands[i].span, 'the valid rows and columns must be index or integer values');
    }
    v.expectResults(1);
    v.define(declared);
  },
};

/**
 * `memref.dealloc %m : memref<...>`: frees a memref (MLIR's memref dialect, which PTOAS loads). The VM never hands
 * freed bytes to a later allocation, so freeing changes nothing a correct program can see; a use after it, undefined
 * in MLIR, is not detected.
 */
const dealloc: OpDefinition = {
  name: 'memref.dealloc',
  syntax: 'FirstOperandTypedBody',
  execute() {},
  verify(v) {
    const { op } = v;
    const [memref] = v.operands;
    if (op.operands.length !== 1) v.error(op.span, `memref.dealloc takes one memref, got ${op.operands.length} operand(s)`);
    else if (memref && !((memref.kind === 'tile' || memref.kind === 'partition_view') && memref.memref))
      v.error(op.operands[0].span, `memref.dealloc frees a memref, not ${printType(memref)}`);
    v.expectResults(0);
    v.define([]);
  },
};

/** `%i = affine.apply affine_map<(d0)[s0] -> (...)>(%d)[%s]`: index arithmetic. */
const affineApply: OpDefinition = {
  name: 'affine.apply',
  syntax: 'AffineApplyBody',
  execute(x, op) {
    const parsed = decided<AffineMap>(op);
    const { segments } = op.node;
    const dims = segments.dims.map((i) => x.int(op, i));
    const symbols = segments.symbols.map((i) => x.int(op, i));
    try {
      x.setResults(op, [evaluateAffine(parsed.results[0], dims, symbols)]);
    } catch (e) {
      if (e instanceof RangeError) throw vmTrap(`affine.apply: ${e.message}`, op.node.span);
      throw e;
    }
  },
  verify(v) {
    const { op } = v;
    const mapAttr = attrOf(op, 'map')!;
    const map = parseAffineMap(mapAttr.kind === 'dialect' ? mapAttr.text : '');
    if (typeof map === 'string') v.error(mapAttr.span, map);
    else {
      v.decide(map);
      if (map.results.length !== 1) v.error(mapAttr.span, `affine.apply needs a map with one result, this one has ${map.results.length}`);
      const [dims, symbols] = [op.segments.dims.length, op.segments.symbols.length];
      if (dims !== map.dims || symbols !== map.symbols)
        v.error(op.span, `the map takes ${map.dims} dimension(s) and ${map.symbols} symbol(s), but ${dims} and ${symbols} are given`);
    }
    for (let i = 0; i < op.operands.length; i++) {
      const t = v.operands[i];
      if (t && !(t.kind === 'scalar' && t.elem === 'index')) v.error(op.operands[i].span, `affine.apply operands must be index values, got ${printType(t)}`);
    }
    v.expectResults(1);
    v.define([{ kind: 'scalar', elem: 'index' }]);
  },
};

export const MEMREF_DEFINITIONS: OpDefinition[] = [...Object.keys(PLACEMENT).map(memrefBuffer), subview, bindTile, dealloc, affineApply];
