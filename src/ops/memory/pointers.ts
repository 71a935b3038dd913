import { DIAGNOSTICS as D } from '../../diag/catalog';
import { localAddressProblem } from './tile-rules';
import { Executor, OpDefinition } from '../../ir/definition';
import { BoundOp } from '../../ir/bound';
import { GlobalBuffer, PartitionView, TensorView, Tile } from '../../machine/memory';
import { DeclaredOp, declaredDefinition } from '../define/declared';
import { vmTrap } from '../../machine/trap';
import { LocalPointer } from '../../machine/value';
import { ElemType, elemSize, isFloat } from '../../types/type';
import { codec } from '../../numerics/elements';
import { pointerOperand } from './global-memory';
import { pointerAt } from '../../machine/windows';
import { elemTypeName, printType } from '../../types/type';

/** Pointers to global memory and the scalars they address. */

/** The element `pto.load_scalar`/`store_scalar` touch: the pointer plus the offset, inside the buffer. */
function scalarAccess(x: Executor, op: BoundOp): { buffer: GlobalBuffer; element: number } {
  const { segments } = op.node;
  const { buffer, offset } = pointerOperand(x, op, segments.ptr[0]);
  const element = offset + x.index(op, segments.offset[0]);
  if (element < 0 || element >= buffer.length) {
    throw vmTrap(
      `${op.def.name}: element ${element} of %${buffer.name} is out of bounds (the buffer has ${buffer.length} elements of ${buffer.elem})`,
      op.node.span,
    );
  }
  return { buffer, element };
}

/**
 * The scalar a `pto.load_scalar`/`store_scalar` touches through a pointer into an on-chip buffer (`pto.castptr`'s: the
 * scalar unit reading or writing UB, as the micro level's kernels do), as a view of its bytes; outside the buffer traps.
 */
function localScalar(x: Executor, op: BoundOp, pointer: LocalPointer): { view: DataView; elem: ElemType } | undefined {
  const t = op.operandTypes[op.node.segments.ptr[0]];
  if (t?.kind !== 'ptr') return undefined;
  const size = elemSize(t.elem);
  const address = pointer.address + x.index(op, op.node.segments.offset[0]) * size;
  const bytes = x.memory.bytesAt(pointer.buffer, address, size, op.def.name, op.node.span);
  return { view: new DataView(bytes.buffer, bytes.byteOffset, size), elem: t.elem };
}

/** The operand as a pointer into an on-chip buffer, or undefined (a global pointer). */
function asLocalPointer(x: Executor, op: BoundOp): LocalPointer | undefined {
  const v = x.operand(op, op.node.segments.ptr[0]);
  return typeof v === 'object' && v !== null && 'kind' in v && v.kind === 'local_pointer' ? v : undefined;
}

/** The pointer ops by name, with how each runs; they share one verification. */
const POINTER_OPS: Record<string, Pick<OpDefinition, 'syntax' | 'execute' | 'properties'>> = {
  'pto.addptr': {
    syntax: 'AddPtrBody',
    properties: { movesPointer: true },
    execute(x, op) {
      const base = x.operand(op, 0);
      const t = op.operandTypes[0];
      // A pointer into an on-chip buffer (pto.castptr's) moves by whole elements of its type.
      if (typeof base === 'object' && base !== null && 'kind' in base && base.kind === 'local_pointer' && t?.kind === 'ptr') {
        x.setResults(op, [{ ...base, address: base.address + x.index(op, 1) * elemSize(t.elem) }]);
        return;
      }
      const { buffer, offset } = pointerOperand(x, op, 0);
      x.setResults(op, [pointerAt(buffer, offset + x.index(op, 1))]);
    },
  },
  'pto.load_scalar': {
    syntax: 'LoadScalarBody',
    properties: { accessesElement: true },
    execute(x, op) {
      const local = asLocalPointer(x, op);
      const scalar = local && localScalar(x, op, local);
      if (scalar) {
        const value = codec(scalar.elem).read(scalar.view, 0);
        x.setResults(op, [isFloat(scalar.elem) ? value : BigInt(value)]);
        return;
      }
      const { buffer, element } = scalarAccess(x, op);
      const loaded = buffer.readElement(element);
      // Integer scalars are bigint in the VM whatever their width (the codec reads narrow ones as numbers).
      x.setResults(op, [isFloat(buffer.elem) ? loaded : BigInt(loaded)]);
    },
  },
  'pto.store_scalar': {
    syntax: 'StoreScalarBody',
    properties: { accessesElement: true },
    execute(x, op) {
      const value = x.operand(op, op.node.segments.value[0]) as number | bigint;
      const local = asLocalPointer(x, op);
      const scalar = local && localScalar(x, op, local);
      if (scalar) {
        codec(scalar.elem).write(scalar.view, 0, value);
        return;
      }
      const { buffer, element } = scalarAccess(x, op);
      buffer.writeElement(element, value);
    },
  },
};

function pointerOp(name: string): OpDefinition {
  return {
    name,
    ...POINTER_OPS[name],
    verify(v) {
      const { op } = v;
      const declared = v.declared;
      const ptrIndex = op.segments.ptr[0];
      const ptr = v.operands[ptrIndex];
      if (ptr && ptr.kind !== 'ptr') v.error(op.operands[ptrIndex].span, `${op.name} needs a !pto.ptr, got ${printType(ptr)}`);
      const offset = v.operands[op.segments.offset[0]];
      if (offset && !(offset.kind === 'scalar' && offset.elem === 'index'))
        v.error(op.operands[op.segments.offset[0]].span, `the offset must be an index, got ${printType(offset)}`);
      const scalar = op.name === 'pto.addptr' ? undefined : op.name === 'pto.load_scalar' ? declared[0] : v.operands[op.segments.value[0]];
      const where = op.name === 'pto.load_scalar' ? op.resultTypes[0]?.span : op.operands[op.segments.value?.[0] ?? 0].span;
      if (op.name === 'pto.addptr' && ptr && declared[0] && printType(ptr) !== printType(declared[0])) {
        v.error(op.resultTypes[0].span, `pto.addptr gives a pointer of its operand's type ${printType(ptr)}, not ${printType(declared[0])}`);
      }
      if (scalar && ptr?.kind === 'ptr' && !(scalar.kind === 'scalar' && scalar.elem === ptr.elem)) {
        v.error(where ?? op.span, `the value must be the pointer's element type ${elemTypeName(ptr.elem)}, got ${printType(scalar)}`);
      }
      v.expectResults(op.name === 'pto.store_scalar' ? 0 : 1);
      v.define(declared);
    },
  };
}

export const POINTER_DEFINITIONS: OpDefinition[] = Object.keys(POINTER_OPS).map(pointerOp);

/**
 * Addresses as integers and pointers of another type: PTOAS's frontends pass raw addresses (`pto.castptr %c0_i64 :
 * i64 -> !pto.ptr<f32, ub>`) and take a tile's address (`pto.tile_buf_addr`). The VM has no numeric addresses for
 * global memory, so it does not run these.
 */
const ADDRESS_OPS: DeclaredOp[] = [
  { name: 'pto.ptrtoint', operands: [{ name: 'ptr', is: ['ptr'] }], results: [{ name: 'result', is: ['i64'], fixed: { kind: 'scalar', elem: 'i64' } }] },
  {
    name: 'pto.inttoptr',
    operands: [{ name: 'addr', is: ['i64'] }],
    results: [{ name: 'result', is: ['ptr'] }],
    check(c) {
      const ptr = c.v.declared[0];
      if (ptr?.kind === 'ptr' && ptr.elem === 'index') c.error(c.v.op.resultTypes[0].span, 'pto.inttoptr: a pointer to index elements has no storage size');
    },
    // PTOAS (PTOValidateIntToPtrUses): an address made into a pointer only reads or writes one scalar; no pointer
    // arithmetic, view or call may carry it further.
    checkResultUse({ user, userDef, operand }) {
      const accessesScalar = userDef.name === 'pto.load_scalar' || userDef.name === 'pto.store_scalar';
      if (accessesScalar && user.segments.ptr?.[0] === operand) return undefined;
      return {
        message: `pto.inttoptr: the result may only be used as the pointer operand of pto.load_scalar or pto.store_scalar; found a use by '${user.name}'`,
        kind: D.intToPtrUse,
      };
    },
  },
  {
    name: 'pto.castptr',
    operands: [{ name: 'input', is: ['ptr', 'integer'] }],
    results: [{ name: 'result', is: ['ptr', 'integer'] }],
    check(c) {
      const from = c.type('input');
      const to = c.v.declared[0];
      if (from?.kind === 'scalar' && to?.kind === 'scalar')
        c.error(c.v.op.span, 'pto.castptr casts between a pointer and an integer or between pointers, not integer to integer');
      // A pointer made from a constant integer is a statically known address, which ops' rules check (an MX load's
      // alignment: VPTO.cpp verifyMxPointerAlignment).
      const address = from?.kind === 'scalar' && to?.kind === 'ptr' ? c.v.constant(0) : undefined;
      if (address !== undefined) c.v.recordConstant(address);
    },
    // An integer made into a pointer to an on-chip buffer is that buffer's byte address (the micro-op level places
    // its UB data so); a GM pointer of another element type sees the same bytes (its offset must fall on an element
    // of the new type); global memory has no numeric addresses in the VM, so no integer becomes a GM pointer.
    execute(x, op) {
      const to = op.resultTypes[0];
      const from = op.operandTypes[0];
      if (to?.kind === 'ptr' && from?.kind === 'ptr' && from.space === 'gm' && to.space === 'gm') {
        const { buffer, offset } = pointerOperand(x, op, 0);
        const byte = offset * buffer.codec.size;
        const size = elemSize(to.elem);
        if (byte % size !== 0) throw vmTrap(`pto.castptr: byte ${byte} of %${buffer.name} is not on a ${printType(to)} element`, op.node.span);
        x.setResults(op, [{ kind: 'pointer', buffer: buffer.retyped(to.elem), offset: byte / size }]);
        return;
      }
      // An on-chip pointer seen as another element type (the select templates read an i8 mask as ui8): the same
      // buffer and byte address.
      if (to?.kind === 'ptr' && from?.kind === 'ptr' && from.space === to.space && to.space !== 'gm') {
        const p = x.operand(op, 0) as LocalPointer;
        x.setResults(op, [{ kind: 'local_pointer', buffer: p.buffer, address: p.address }]);
        return;
      }
      if (to?.kind !== 'ptr' || to.space === 'gm' || from?.kind !== 'scalar')
        throw vmTrap(`pto.castptr to ${to ? printType(to) : 'this type'} is not implemented yet`, op.node.span);
      x.setResults(op, [{ kind: 'local_pointer', buffer: x.memory.bufferOf(to.space), address: x.index(op, 0) }]);
    },
  },
  {
    name: 'pto.tile_buf_addr',
    operands: [{ name: 'src', is: ['tile'] }],
    results: [{ name: 'dst', is: ['ptr'] }],
    check(c) {
      const tile = c.type('src');
      const ptr = c.v.declared[0];
      if (tile?.kind === 'tile' && ptr?.kind === 'ptr' && (ptr.elem !== tile.dtype || ptr.space !== tile.loc))
        c.error(
          c.v.op.resultTypes[0].span,
          `pto.tile_buf_addr gives a pointer to the tile's elements in its buffer (!pto.ptr<${elemTypeName(tile.dtype)}, ${tile.loc}>), not ${printType(ptr)}`,
        );
    },
    inferResults(c) {
      const tile = c.type('src');
      return tile?.kind === 'tile' ? [{ kind: 'ptr', elem: tile.dtype, space: tile.loc }] : undefined;
    },
    // The byte address of the tile's first element in its buffer, as a micro-level pointer (the tile-lang kernels
    // hand their placed tiles to pto.mte_* this way).
    execute(x, op, b) {
      const tile = x.operand(op, b.operands.src[0]) as Tile;
      x.setResults(op, [{ kind: 'local_pointer', buffer: tile.buffer, address: tile.address }]);
    },
  },
  {
    // PTOAS's tload/tstore templates (lib/TileOps/a5/_load_store.py) read the GM address of the view they are given.
    name: 'pto.tensor_view_addr',
    operands: [{ name: 'src', is: ['tensor_view', 'partition_view'] }],
    results: [{ name: 'dst', is: ['ptr'] }],
    // VPTO.cpp (TensorViewAddrOp::verify): a pointer to the view's element type in GM. A memref result, which
    // PTOAS also allows, is not taken yet.
    check(c) {
      const view = c.type('src');
      const ptr = c.v.declared[0];
      if ((view?.kind === 'tensor_view' || view?.kind === 'partition_view') && ptr?.kind === 'ptr' && (ptr.elem !== view.elem || ptr.space !== 'gm'))
        c.error(
          c.v.op.resultTypes[0].span,
          `pto.tensor_view_addr gives a pointer to the view's elements in global memory (!pto.ptr<${elemTypeName(view.elem)}, gm>), not ${printType(ptr)}`,
        );
    },
    // The view's first element (a partition's offset into its tensor) as a GM pointer.
    execute(x, op, b) {
      const view = x.operand(op, b.operands.src[0]) as TensorView | PartitionView;
      x.setResults(op, [{ kind: 'pointer', buffer: view.buffer, offset: view.offset }]);
    },
  },
  {
    // `%t2 = pto.tassign %t, %addr : T -> T`: the same tile placed at another address (PTOAS's level 3).
    name: 'pto.tassign',
    syntax: 'FirstOperandTypedBody',
    properties: { notInTileOpHelper: 'Tile allocation or high-level TileOps' },
    operands: [
      { name: 'tile', is: ['tile'] },
      { name: 'addr', is: ['i64'] },
    ],
    results: [{ name: 'result', is: ['tile'] }],
    check(c) {
      const tile = c.type('tile');
      const result = c.v.declared[0];
      // A memref buffer is a tile to the VM, but not to PTOAS's tassign.
      if (tile && (tile.kind !== 'tile' || tile.memref)) c.error(c.span('tile'), `pto.tassign rebinds a !pto.tile_buf, not ${printType(tile)}`);
      if (tile && result && printType(tile) !== printType(result))
        c.error(c.v.op.resultTypes[0].span, `pto.tassign gives the tile's own type ${printType(tile)}, not ${printType(result)}`);
      const at = c.binding.operands.addr ? c.v.constant(c.binding.operands.addr[0]) : undefined;
      const misplaced = tile?.kind === 'tile' && at !== undefined ? localAddressProblem(tile.loc, at) : undefined;
      if (misplaced) c.error(c.span('addr'), `pto.tassign: ${misplaced}`);
      if (c.v.level && c.v.level !== 'level3') c.v.error(c.v.op.nameSpan, 'pto.tassign is only supported when --pto-level=level3', undefined, D.buildLevel);
    },
    inferResults: (c) => [c.type('tile')],
    execute(x, op, b) {
      const tile = x.operand(op, b.operands.tile[0]) as Tile;
      const placed = x.memory.place(tile.type, x.index(op, b.operands.addr[0]), op.def.name, op.node.operands[b.operands.addr[0]].span);
      placed.vRow = tile.vRow;
      placed.vCol = tile.vCol;
      x.setResults(op, [placed]);
    },
  },
];

export const ADDRESS_DEFINITIONS: OpDefinition[] = ADDRESS_OPS.map(declaredDefinition);
