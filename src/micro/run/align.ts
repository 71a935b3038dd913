import { OnChipMemory } from '../../machine/memory';
import { LocalPointer, Register } from '../../machine/value';
import { elemSize } from '../../types/type';
import { MASK_BYTES, VREG_BYTES, maskBit } from '../semantics/core';
import { MicroRun, MicroSemantics, attrText, intOf, localAddress, reg, register, typeOf, vregElem } from './operands';

/**
 * The unaligned loads and stores of the vector core (03-vector-load-store.md, 04-predicate-load-store.md) and the
 * state they carry: a `!pto.align` register, and the core's SPR AR (the byte offset of AR-driven stores) and SQZN
 * (the byte count of the last vsqz, which vstur stores).
 *
 * An align value is a Register of kind 'align' whose state is kept here, keyed by its bytes:
 * - load side (vldas, vldus): the 32-byte UB block the stream is primed with, as read when it was loaded. vldus at
 *   address a needs the block of a: its result is that block from a on and the memory after it, 256 bytes in all,
 *   and it leaves the block of a + 256 primed (a stream of 256-byte steps). A state primed for another block traps.
 * - store side (init_align, vstus, vstur, pstu): the bytes of the stream not yet written (they end inside a 32-byte
 *   block) and where they go. A store appends its bytes to the stream (it must continue it: start where the pending
 *   bytes end) and writes every byte before the last 32-byte boundary; vstas/vstar flush the rest at the stream's end,
 *   which their destination (+ offset, + AR) must name.
 */
type AlignState = { role: 'load'; buffer: string; block: number; bytes: Uint8Array } | { role: 'store'; buffer?: string; address: number; pending: Uint8Array };

const states = new WeakMap<Uint8Array, AlignState>();
const alignRegister = (state: AlignState): Register => {
  const bytes = new Uint8Array(32);
  states.set(bytes, state);
  return register('align', bytes);
};
function alignState(r: MicroRun, name: string, role: AlignState['role']): AlignState {
  const s = states.get(reg(r, name));
  if (!s || s.role !== role)
    return r.fail(`'${name}' is not ${role === 'load' ? 'a load' : 'a store'} alignment state (pto.${role === 'load' ? 'vldas' : 'init_align'} starts one)`);
  return s;
}

/** SPR AR and SQZN of a core, keyed by its on-chip memory as src/micro/run/config.ts keys its registers; 0 at reset. */
const sprs = new WeakMap<OnChipMemory, { ar: number; sqzn: number }>();
export function coreSprs(memory: OnChipMemory): { ar: number; sqzn: number } {
  let s = sprs.get(memory);
  if (!s) sprs.set(memory, (s = { ar: 0, sqzn: 0 }));
  return s;
}

const pointer = (buffer: string, address: number): LocalPointer => ({ kind: 'local_pointer', buffer, address });
const ptrElemSize = (r: MicroRun, name: string): number => {
  const t = typeOf(r, name);
  return t?.kind === 'ptr' ? elemSize(t.elem) : 1;
};
const floor32 = (a: number) => Math.floor(a / 32) * 32;

/** Appends `data` at `address` to a store stream, writes what precedes the stream's last 32-byte boundary, returns the new state. */
function streamStore(r: MicroRun, state: AlignState, buffer: string, address: number, data: Uint8Array): AlignState {
  if (state.role !== 'store') return r.fail('a store needs a store alignment state');
  let start = address;
  let bytes = data;
  if (state.pending.length > 0) {
    if (state.buffer !== buffer || state.address + state.pending.length !== address)
      r.fail(
        `a store at byte ${address} that does not continue its stream (pending bytes end at ${state.address + state.pending.length}) is not implemented yet`,
      );
    start = state.address;
    bytes = new Uint8Array(state.pending.length + data.length);
    bytes.set(state.pending);
    bytes.set(data, state.pending.length);
  }
  const cut = Math.max(start, floor32(start + bytes.length));
  if (cut > start) r.x.memory.bytesAt(buffer, start, cut - start, r.op.def.name, r.op.node.span).set(bytes.subarray(0, cut - start));
  return { role: 'store', buffer, address: cut, pending: bytes.slice(cut - start) };
}

/** Writes a store stream's pending bytes; the flush must name the stream's end. */
function flush(r: MicroRun, state: AlignState, buffer: string, end: number): void {
  if (state.role !== 'store' || state.pending.length === 0) return;
  if (state.buffer !== buffer || state.address + state.pending.length !== end)
    r.fail(`a flush at byte ${end} of a stream that ends at byte ${state.address + state.pending.length} is not implemented yet`);
  r.x.memory.bytesAt(buffer, state.address, state.pending.length, r.op.def.name, r.op.node.span).set(state.pending);
}

/** The lanes of a mask as one bit each, packed (pstu: 64 bits of a b32 mask, 128 of a b16 one). */
function packedLanes(mask: Uint8Array, laneBytes: number): Uint8Array {
  const lanes = (MASK_BYTES * 8) / laneBytes;
  const out = new Uint8Array(lanes / 8);
  for (let i = 0; i < lanes; i++) if (maskBit(mask, i * laneBytes)) out[i >> 3] |= 1 << (i & 7);
  return out;
}

export const ALIGN_SEMANTICS: Record<string, MicroSemantics> = {
  init_align(r) {
    r.x.setResults(r.op, [alignRegister({ role: 'store', address: 0, pending: new Uint8Array(0) })]);
  },
  vldas(r) {
    const { buffer, address } = localAddress(r, 'source', 0);
    const block = floor32(address);
    r.x.setResults(r.op, [alignRegister({ role: 'load', buffer, block, bytes: r.x.memory.bytesAt(buffer, block, 32, r.op.def.name, r.op.node.span).slice() })]);
  },
  vldus(r) {
    const state = alignState(r, 'align', 'load');
    const { buffer, address } = localAddress(r, 'source', 0);
    if (state.role !== 'load' || state.buffer !== buffer || state.block !== floor32(address))
      return r.fail(`vldus at byte ${address} with a state primed for another block is not implemented yet`);
    const head = state.bytes.subarray(address - state.block);
    const after = r.x.memory.bytesAt(buffer, state.block + 32, VREG_BYTES, r.op.def.name, r.op.node.span);
    const result = new Uint8Array(VREG_BYTES);
    result.set(head);
    result.set(after.subarray(0, VREG_BYTES - head.length), head.length);
    // The block of address + 256 is the last one the hardware read: the next step's primed block.
    const next = floor32(address + VREG_BYTES);
    const nextState = alignRegister({ role: 'load', buffer, block: next, bytes: after.slice(next - state.block - 32, next - state.block) });
    const increment = r.b.operands.increment?.length ? r.x.index(r.op, r.b.operands.increment[0]) * ptrElemSize(r, 'source') : undefined;
    r.x.setResults(r.op, [register('vreg', result), nextState, ...(increment === undefined ? [] : [pointer(buffer, address + increment)])]);
  },
  vstus(r) {
    const size = elemSize(vregElem(typeOf(r, 'value'), r));
    const n = intOf(r, 'offset');
    if (n < 0 || n * size > VREG_BYTES) r.fail(`a stream advance of ${n} elements is not implemented yet`);
    const { buffer, address } = localAddress(r, 'base', 0);
    const next = streamStore(r, alignState(r, 'align_in', 'store'), buffer, address, reg(r, 'value').slice(0, n * size));
    r.x.setResults(r.op, [alignRegister(next), ...(r.op.resultTypes.length > 1 ? [pointer(buffer, address + n * size)] : [])]);
  },
  vstur(r) {
    // The effective address is base + AR; the byte count is SQZN, which the last vsqz set.
    const spr = coreSprs(r.x.memory);
    const { buffer, address } = localAddress(r, 'base', 0);
    const next = streamStore(r, alignState(r, 'align_in', 'store'), buffer, address + spr.ar, reg(r, 'value').slice(0, spr.sqzn));
    if (attrText(r, 'mode') === 'POST_UPDATE') spr.ar += spr.sqzn;
    r.x.setResults(r.op, [alignRegister(next)]);
  },
  pstu(r) {
    const t = typeOf(r, 'value');
    const laneBytes = t?.kind === 'mask' && t.granularity === 'b16' ? 2 : 4;
    const data = packedLanes(reg(r, 'value'), laneBytes);
    const { buffer, address } = localAddress(r, 'base', 0);
    const next = streamStore(r, alignState(r, 'align_in', 'store'), buffer, address, data);
    r.x.setResults(r.op, [alignRegister(next), pointer(buffer, address + data.length)]);
  },
  vstas(r) {
    const { buffer, address } = localAddress(r, 'destination', 0);
    const end = address + intOf(r, 'offset') * ptrElemSize(r, 'destination');
    flush(r, alignState(r, 'value', 'store'), buffer, end);
    if (r.op.resultTypes.length > 0) r.x.setResults(r.op, [pointer(buffer, end)]);
  },
  vstar(r) {
    const { buffer, address } = localAddress(r, 'destination', 0);
    flush(r, alignState(r, 'value', 'store'), buffer, address + coreSprs(r.x.memory).ar);
  },
  sprclr(r) {
    coreSprs(r.x.memory).ar = 0;
  },
  /** sprsti counts its offset in 4-byte words, sprsts in bytes; a post-update stores at the base itself. */
  sprst(r) {
    const unit = r.mnemonic === 'sprsti' ? 4 : 1;
    const { buffer, address } = localAddress(r, 'destination', 0);
    const advance = intOf(r, 'offset') * unit;
    const post = r.op.resultTypes.length > 0;
    const at = post ? address : address + advance;
    const ub = r.x.memory.bytesAt(buffer, at, 4, r.op.def.name, r.op.node.span);
    new DataView(ub.buffer, ub.byteOffset, 4).setUint32(0, coreSprs(r.x.memory).ar >>> 0, true);
    if (post) r.x.setResults(r.op, [pointer(buffer, address + advance)]);
  },
};

/** vsqz sets SQZN, the byte count vstur stores: the active lanes times the element size (03-vector-load-store.md). */
export function setSqueezeCount(r: MicroRun, activeLanes: number): void {
  coreSprs(r.x.memory).sqzn = activeLanes * elemSize(vregElem(typeOf(r, 'input'), r));
}
