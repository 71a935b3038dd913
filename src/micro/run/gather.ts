import { elemSize } from '../../types/type';
import { codec } from '../../numerics/elements';
import { VREG_BYTES, maskBit, view } from '../semantics/core';
import { OnChipMemory } from '../../machine/memory';
import { MicroRun, MicroSemantics, intOf, localAddress, reg, register, resultElem, typeOf, vregElem } from './operands';

/**
 * The indexed UB accesses of 03-vector-load-store.md: vgather2 (lane i from source element offsets[i]; 8-bit sources
 * zero-extended into 16-bit lanes), vgatherb (32-byte block k from source + offsets[k] bytes, b32 lane k governing
 * it) and vscatter (value lane i to destination element offsets[i]; for 8-bit values request i stores byte 2i).
 * Offsets are unsigned; masked-off lanes read nothing (zero) and write nothing. And vbitsort, the UB sort helper.
 */
const unsignedLane = (v: Uint8Array, bytes: number, i: number): number => {
  const d = view(v);
  return bytes === 2 ? d.getUint16(i * 2, true) : d.getUint32(i * 4, true);
};

/**
 * vbitsort (13-dsa-sfu-ops.md): per repeat, 32 f32 scores and their 32 ui32 indices sorted by descending score, equal
 * scores in input order (the golden's stable argsort), as 8-byte records: the score's bits, then the index. f16
 * scores leave the record's upper score half reserved (unstated), and a NaN score has no stated place: both trap.
 */
function vbitsort(r: Parameters<MicroSemantics>[0]): void {
  const t = typeOf(r, 'source');
  if (t?.kind !== 'ptr' || t.elem !== 'f32') return r.fail(`vbitsort of ${t?.kind === 'ptr' ? t.elem : 'these'} scores is not implemented yet`);
  const [dst, src, idx] = [localAddress(r, 'destination', 0), localAddress(r, 'source', 0), localAddress(r, 'indices', 0)];
  const repeats = r.x.index(r.op, r.b.operands.repeat_times[0]);
  const at = (p: { buffer: string; address: number }, offset: number, n: number) =>
    r.x.memory.bytesAt(p.buffer, p.address + offset, n, r.op.def.name, r.op.node.span);
  for (let k = 0; k < repeats; k++) {
    const scores = view(at(src, k * 128, 128).slice());
    const indices = view(at(idx, k * 128, 128).slice());
    const order = Array.from({ length: 32 }, (_, i) => i);
    if (order.some((i) => Number.isNaN(scores.getFloat32(i * 4, true)))) r.fail('vbitsort of a NaN score is not implemented yet');
    // Array.prototype.sort is stable: equal scores keep their input order.
    order.sort((a, b) => scores.getFloat32(b * 4, true) - scores.getFloat32(a * 4, true));
    const out = view(at(dst, k * 256, 256));
    order.forEach((i, j) => {
      out.setUint32(j * 8, scores.getUint32(i * 4, true), true);
      out.setUint32(j * 8 + 4, indices.getUint32(i * 4, true), true);
    });
  }
}

/** VMS4_SR of a core: the proposals each list gave the last vmrgsort4 (get_vms4_sr reads it); keyed by its memory. */
const vms4 = new WeakMap<OnChipMemory, number[]>();

/**
 * vmrgsort4 (13-dsa-sfu-ops.md, pto-isa's A5 TMrgSort for the control words): four lists of 8-byte proposals (the
 * first element the score), each sorted by descending score, merged into the destination by descending score; of
 * equal heads the lower list goes first (pto-isa's CPU TMrgSort picks a strictly greater score). count holds each
 * list's length (16 bits each), config the repeat (bits 7:0), the lists taking part (bits 11:8) and exhausted
 * suspension (bit 12: stop once a taking-part list is used up). VMS4_SR records how many proposals each list gave.
 * A repeat other than 1 and NaN scores trap as not implemented yet.
 */
function vmrgsort4(r: MicroRun): void {
  const t = typeOf(r, 'destination');
  const elem = t?.kind === 'ptr' ? t.elem : r.fail('the destination is not a pointer');
  const c = codec(elem);
  const count = BigInt.asUintN(64, BigInt(r.x.int(r.op, r.b.operands.count[0])));
  const config = intOf(r, 'config');
  if ((config & 0xff) !== 1) r.fail(`vmrgsort4 with repeat ${config & 0xff} is not implemented yet`);
  const taking = (config >> 8) & 0xf;
  const exhausted = ((config >> 12) & 1) === 1;
  const lists = ['source0', 'source1', 'source2', 'source3'].map((name, k) => {
    const length = Number((count >> BigInt(16 * k)) & 0xffffn);
    const at = localAddress(r, name, 0);
    return {
      on: ((taking >> k) & 1) === 1,
      length,
      bytes: (taking >> k) & 1 ? r.x.memory.bytesAt(at.buffer, at.address, length * 8, r.op.def.name, r.op.node.span).slice() : new Uint8Array(0),
    };
  });
  const used = [0, 0, 0, 0];
  const out: Uint8Array[] = [];
  const score = (k: number) => c.read(view(lists[k].bytes), used[k] * 8) as number;
  for (;;) {
    if (exhausted && lists.some((l, k) => l.on && used[k] === l.length)) break;
    let pick = -1;
    for (let k = 0; k < 4; k++) {
      if (!lists[k].on || used[k] === lists[k].length) continue;
      if (Number.isNaN(score(k))) r.fail('vmrgsort4 of a NaN score is not implemented yet');
      if (pick < 0 || score(k) > score(pick)) pick = k;
    }
    if (pick < 0) break;
    out.push(lists[pick].bytes.subarray(used[pick] * 8, used[pick] * 8 + 8));
    used[pick]++;
  }
  const dst = localAddress(r, 'destination', 0);
  const image = r.x.memory.bytesAt(dst.buffer, dst.address, out.length * 8, r.op.def.name, r.op.node.span);
  out.forEach((p, j) => image.set(p, j * 8));
  vms4.set(r.x.memory, used);
}

export const GATHER_SEMANTICS: Record<string, MicroSemantics> = {
  vbitsort,
  vmrgsort4,
  get_vms4_sr(r) {
    const used = vms4.get(r.x.memory) ?? [0, 0, 0, 0];
    r.x.setResults(
      r.op,
      used.map((n) => BigInt(n)),
    );
  },
  vgather2(r) {
    const out = resultElem(r);
    const t = typeOf(r, 'source');
    const size = t?.kind === 'ptr' ? elemSize(t.elem) : r.fail('the source is not a pointer');
    const lane = codec(out).size;
    const offsetBytes = codec(vregElem(typeOf(r, 'offsets'), r)).size;
    const { buffer, address } = localAddress(r, 'source', 0);
    const [offsets, mask] = [reg(r, 'offsets'), reg(r, 'mask')];
    const result = new Uint8Array(VREG_BYTES);
    for (let i = 0; i < VREG_BYTES / lane; i++) {
      if (!maskBit(mask, i * lane)) continue;
      const at = address + unsignedLane(offsets, offsetBytes, i) * size;
      if (at % size !== 0) r.fail(`lane ${i} gathers from byte ${at}, not aligned to its ${size}-byte element`);
      // An 8-bit element lands in the low byte of its 16-bit lane, the high byte zero.
      result.set(r.x.memory.bytesAt(buffer, at, size, r.op.def.name, r.op.node.span), i * lane);
    }
    r.x.setResults(r.op, [register('vreg', result)]);
  },
  vgatherb(r) {
    const { buffer, address } = localAddress(r, 'source', 0);
    if (address % 32 !== 0) r.fail(`the source (byte ${address}) is not 32-byte aligned`);
    const [offsets, mask] = [reg(r, 'offsets'), reg(r, 'mask')];
    const result = new Uint8Array(VREG_BYTES);
    for (let k = 0; k < VREG_BYTES / 32; k++) {
      if (!maskBit(mask, k * 4)) continue;
      const offset = unsignedLane(offsets, 4, k);
      if (offset % 32 !== 0) r.fail(`block ${k}'s offset ${offset} is not 32-byte aligned`);
      result.set(r.x.memory.bytesAt(buffer, address + offset, 32, r.op.def.name, r.op.node.span), k * 32);
    }
    r.x.setResults(r.op, [register('vreg', result)]);
  },
  vscatter(r) {
    const elem = vregElem(typeOf(r, 'value'), r);
    const size = elemSize(elem);
    const offsetBytes = size === 4 ? 4 : 2;
    const requests = size === 1 ? VREG_BYTES / 2 : VREG_BYTES / size;
    const laneBytes = size === 1 ? 2 : size;
    const { buffer, address } = localAddress(r, 'destination', 0);
    const [value, offsets, mask] = [reg(r, 'value'), reg(r, 'offsets'), reg(r, 'mask')];
    // Which of two active requests to one element wins the docs leave to the implementation: that traps.
    const seen = new Set<number>();
    for (let i = 0; i < requests; i++) {
      if (!maskBit(mask, i * laneBytes)) continue;
      const index = unsignedLane(offsets, offsetBytes, i);
      if (seen.has(index)) r.fail(`two active requests store to element ${index}; which one UB keeps is not implemented yet`);
      seen.add(index);
      const at = address + index * size;
      const from = size === 1 ? 2 * i : i * size;
      r.x.memory.bytesAt(buffer, at, size, r.op.def.name, r.op.node.span).set(value.subarray(from, from + size));
    }
  },
};
