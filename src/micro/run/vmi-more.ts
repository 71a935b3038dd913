import { DIAGNOSTICS as D } from '../../diag/catalog';
import { Span } from '../../diag/source';
import { decided } from '../../ir/bound';
import { OpDefinition } from '../../ir/definition';
import { vmTrap } from '../../machine/trap';
import { Register } from '../../machine/value';
import { codec } from '../../numerics/elements';
import type { MicroOpRowData } from '../../spec/micro-schema';
import { Attr, MicroItem } from '../../syntax/ast';
import { GenericOp, GenericRewrite } from '../../syntax/op-syntax';
import { ElemType, Type, VmiMaskType, VmiVregType, isFloat, isInteger } from '../../types/type';
import { VMI_GENERIC_CHECKS, denseElements, physicalPlacement } from '../checks/vmi-more';
import { MicroBinding, MicroFormat, parseFormat } from '../format';
import { Mask, VReg, elemBytes, laneActive, maskFromLanes, newMask, newVReg, setMaskBit, view } from '../semantics/core';
import { vaxpy, vexpdif, vmula, vmull } from '../semantics/fused';
import { carry, vlrelu, vprelu } from '../semantics/lanewise';
import { localAddress, MicroRun, MicroSemantics } from './operands';
import { extremum, groupSum } from './vmi';
import { microReporters } from '../report';

/**
 * The second group of VMI ops (spec/micro/vmi-more.json), run on logical values as ./vmi.ts runs the first (docs/vpto.md,
 * "VMI (more ops)"): a `!pto.vmi.vreg<LxT>` is L little-endian lanes of T, a `!pto.vmi.mask<LxG>` one byte per lane.
 * The layout helpers leave the logical value as it is; unpack and pack move lanes between it and the physical
 * registers its layout names (VMI.cpp's lane map); the fused ops cut lanes into 256-byte registers for the VPTO lane
 * functions of ../semantics.
 */

const vmiVreg = (t: Type | undefined, r: MicroRun): VmiVregType => (t?.kind === 'vmi_vreg' ? t : r.fail('a VMI vector value has no !pto.vmi.vreg type'));
const vmiMask = (t: Type | undefined, r: MicroRun): VmiMaskType => (t?.kind === 'vmi_mask' ? t : r.fail('a VMI mask value has no !pto.vmi.mask type'));
const typeNamed = (r: MicroRun, name: string, k = 0): Type | undefined => r.op.operandTypes[r.b.operands[name][k]];
const bytesNamed = (r: MicroRun, name: string, k = 0): Uint8Array => (r.x.operand(r.op, r.b.operands[name][k]) as Register).bytes;
const vreg = (bytes: Uint8Array): Register => ({ kind: 'vreg', bytes });
const maskReg = (bytes: Uint8Array): Register => ({ kind: 'mask', bytes });
const dictAttr = (r: MicroRun, name: string): Attr | undefined => r.op.node.attrs.find((e) => e.key === name)?.value;
const dictInt = (r: MicroRun, name: string): number | undefined => {
  const a = dictAttr(r, name);
  return a?.kind === 'int' ? Number(a.value) : undefined;
};

/** Zeroing predication only: `pmode = "merge"` keeps a "destination's old value" an SSA result does not have. */
function zeroingOnly(r: MicroRun): void {
  const p = dictAttr(r, 'pmode');
  if (p?.kind === 'string' && p.value === 'merge') r.fail('pmode "merge" of a masked result is not implemented yet');
}

/**
 * The lanes cut into physical registers of `elem` (the last one zero-padded), `f` applied to each with a mask of its
 * active lanes (lanes beyond L off), the results' lanes joined: what PTOAS's lowering does per part.
 */
function perRegister(elem: ElemType, lanes: number, inputs: Uint8Array[], active: Uint8Array | undefined, f: (regs: VReg[], m: Mask) => VReg[]): Uint8Array[] {
  const size = elemBytes(elem);
  const per = 256 / size;
  let outs: Uint8Array[] = [];
  for (let base = 0; base < lanes; base += per) {
    const n = Math.min(per, lanes - base);
    const regs = inputs.map((b) => {
      const reg = newVReg();
      reg.set(b.subarray(base * size, (base + n) * size));
      return reg;
    });
    const results = f(
      regs,
      maskFromLanes((l) => l < n && (!active || active[base + l] === 1), size),
    );
    if (outs.length === 0) outs = results.map(() => new Uint8Array(lanes * size));
    results.forEach((res, k) => outs[k].set(res.subarray(0, n * size), base * size));
  }
  return outs;
}

/** A dense attribute's element as the lane codec takes it. */
function denseValue(a: Attr, elem: ElemType, r: MicroRun): number | bigint {
  if (a.kind === 'float') return a.value;
  if (a.kind === 'bool') return a.value ? 1 : 0;
  if (a.kind === 'int') {
    // MLIR writes a float's bits as a hex integer (0x7FC00000): not decoded yet.
    if (isFloat(elem)) return r.fail('a float constant written as its bits is not implemented yet');
    return elemBytes(elem) === 8 ? a.value : Number(a.value);
  }
  return r.fail(`a dense element of kind ${a.kind} is not implemented yet`);
}

export const VMI_MORE_SEMANTICS: Record<string, MicroSemantics> = {
  /** ensure_layout, ensure_mask_layout, ensure_mask_granularity: a new placement of the same logical value. */
  vmiSameValue(r) {
    r.x.setResults(r.op, [{ ...(r.x.operand(r.op, r.b.operands.source[0]) as Register) }]);
  },
  vmiConstant(r) {
    const t = vmiVreg(r.op.resultTypes[0], r);
    const d = denseElements(dictAttr(r, 'value')) ?? r.fail('the value is not a dense attribute');
    const c = codec(t.elem);
    const out = new Uint8Array(t.lanes * c.size);
    for (let i = 0; i < t.lanes; i++) c.write(view(out), i * c.size, c.round(denseValue(d.items[d.splat ? 0 : i], t.elem, r)));
    r.x.setResults(r.op, [vreg(out)]);
  },
  vmiConstantMask(r) {
    const t = vmiMask(r.op.resultTypes[0], r);
    const d = denseElements(dictAttr(r, 'value')) ?? r.fail('the value is not a dense attribute');
    const on = (a: Attr) => (a.kind === 'bool' ? a.value : a.kind === 'int' ? a.value !== 0n : r.fail('a mask constant element is not a boolean'));
    r.x.setResults(r.op, [maskReg(Uint8Array.from({ length: t.lanes }, (_, i) => (on(d.items[d.splat ? 0 : i]) ? 1 : 0)))]);
  },
  /**
   * The physical registers of a layout-assigned value: logical lane i at the register and lane VMI.cpp's lane map
   * gives it; a register's lanes no logical lane maps to (padding) are zero.
   */
  vmiUnpack(r) {
    const t = r.op.operandTypes[0];
    if (t?.kind !== 'vmi_vreg' && t?.kind !== 'vmi_mask') return r.fail('the source is not a VMI value');
    const placement = physicalPlacement(t);
    if ('error' in placement) return r.fail(placement.error);
    const src = bytesNamed(r, 'source');
    if (t.kind === 'vmi_vreg') {
      const size = elemBytes(t.elem);
      const parts = Array.from({ length: placement.arity }, newVReg);
      for (let i = 0; i < t.lanes; i++) {
        const p = placement.place(i);
        parts[p.part].set(src.subarray(i * size, (i + 1) * size), p.lane * size);
      }
      return r.x.setResults(r.op, parts.map(vreg));
    }
    const carrier = Number(placement.carrier!.slice(1)) / 8;
    const parts = Array.from({ length: placement.arity }, newMask);
    for (let i = 0; i < t.lanes; i++) {
      const p = placement.place(i);
      if (src[i] === 1) setMaskBit(parts[p.part], p.lane * carrier, true);
    }
    r.x.setResults(r.op, parts.map(maskReg));
  },
  /** The inverse of unpack: each logical lane read from its place in the physical registers. */
  vmiPack(r) {
    const t = r.op.resultTypes[0];
    if (t?.kind !== 'vmi_vreg' && t?.kind !== 'vmi_mask') return r.fail('the result is not a VMI value');
    const placement = physicalPlacement(t);
    if ('error' in placement) return r.fail(placement.error);
    const parts = r.b.operands.parts.map((_, k) => bytesNamed(r, 'parts', k));
    if (t.kind === 'vmi_vreg') {
      const size = elemBytes(t.elem);
      const out = new Uint8Array(t.lanes * size);
      for (let i = 0; i < t.lanes; i++) {
        const p = placement.place(i);
        out.set(parts[p.part].subarray(p.lane * size, (p.lane + 1) * size), i * size);
      }
      return r.x.setResults(r.op, [vreg(out)]);
    }
    const carrier = Number(placement.carrier!.slice(1)) / 8;
    const out = new Uint8Array(t.lanes);
    for (let i = 0; i < t.lanes; i++) {
      const p = placement.place(i);
      out[i] = laneActive(parts[p.part], p.lane, carrier) ? 1 : 0;
    }
    r.x.setResults(r.op, [maskReg(out)]);
  },
  /**
   * vdhist: acc[b] + the count of active source lanes equal to b; vchist: acc[b] + the count of those <= b
   * (07-sfu.md's loops; the vchist-tail-mask-store golden's cumsum). 8-bit sources read unsigned, bins wrap at 16
   * bits; with 128 bins (Bin_N0 only) a source lane of 128 or more is in no bin.
   */
  vmiHistogram(r) {
    const t = vmiVreg(typeNamed(r, 'acc'), r);
    const src = bytesNamed(r, 'source');
    const active = bytesNamed(r, 'mask');
    const acc = bytesNamed(r, 'acc');
    const counts = new Array<number>(t.lanes).fill(0);
    for (let i = 0; i < src.length; i++) if (active[i] === 1 && src[i] < t.lanes) counts[src[i]]++;
    const cumulative = r.mnemonic === 'vmi.vchist';
    const out = new Uint8Array(t.lanes * 2);
    const [a, o] = [view(acc), view(out)];
    let sum = 0;
    for (let b = 0; b < t.lanes; b++) {
      sum += counts[b];
      o.setUint16(b * 2, (a.getUint16(b * 2, true) + (cumulative ? sum : counts[b])) & 0xffff, true);
    }
    r.x.setResults(r.op, [vreg(out)]);
  },
  /**
   * vexpdif: exp(x - max) into f32 lanes, lane i from lane i (the lowering's EVEN/ODD parts put the f16 lanes back in
   * order); inactive lanes zero.
   */
  vmiExpdif(r) {
    zeroingOnly(r);
    const t = vmiVreg(typeNamed(r, 'x'), r);
    const [x, max, active] = [bytesNamed(r, 'x'), bytesNamed(r, 'max'), bytesNamed(r, 'mask')];
    const out = new Uint8Array(t.lanes * 4);
    // f32 lanes one register at a time: 64 lanes of x (f16 ones widened lane by lane, EVEN part of a spread copy).
    const size = elemBytes(t.elem);
    for (let base = 0; base < t.lanes; base += 64) {
      const n = Math.min(64, t.lanes - base);
      const [rx, rm] = [newVReg(), newVReg()];
      for (let l = 0; l < n; l++) {
        // An f16 lane l goes to source lane 2l, the EVEN part (vexpdif's widening by part).
        const at = (size === 2 ? 2 * l : l) * size;
        rx.set(x.subarray((base + l) * size, (base + l + 1) * size), at);
        rm.set(max.subarray((base + l) * size, (base + l + 1) * size), at);
      }
      const m = maskFromLanes((l) => (size === 2 ? l % 2 === 0 && l / 2 < n && active[base + l / 2] === 1 : l < n && active[base + l] === 1), size);
      out.set(vexpdif(t.elem, rx, rm, m, 'EVEN', r.fail).subarray(0, n * 4), base * 4);
    }
    r.x.setResults(r.op, [vreg(out)]);
  },
  /** vmull: the 64-bit product's low and high words; i32 signed, ui32 unsigned (the vmull-pair-result golden). */
  vmiMull(r) {
    const t = vmiVreg(typeNamed(r, 'a'), r);
    const elem: ElemType = t.spelled === 'ui32' ? 'u32' : 'i32';
    const [low, high] = perRegister(elem, t.lanes, [bytesNamed(r, 'a'), bytesNamed(r, 'b')], bytesNamed(r, 'mask'), ([a, b], m) => {
      const res = vmull(elem, a, b, m, r.fail);
      return [res.low, res.high];
    });
    r.x.setResults(r.op, [vreg(low), vreg(high)]);
  },
  /**
   * vmula: acc + lhs * rhs, fused (one rounding) for floats, wrapping for integers. The mask is only an annotation
   * (VMIOps.td: "discarded during lowering to legacy fma"): every lane is computed.
   */
  vmiMula(r) {
    const t = vmiVreg(typeNamed(r, 'acc'), r);
    const [out] = perRegister(t.elem, t.lanes, [bytesNamed(r, 'acc'), bytesNamed(r, 'lhs'), bytesNamed(r, 'rhs')], undefined, ([acc, lhs, rhs], m) => [
      vmula(t.elem, acc, lhs, rhs, m, r.fail),
    ]);
    r.x.setResults(r.op, [vreg(out)]);
  },
  /** expand_load: the k-th active lane takes the k-th element from source + offset; inactive lanes keep passthru. */
  vmiExpandLoad(r) {
    const t = vmiVreg(r.op.resultTypes[0], r);
    const size = elemBytes(t.elem);
    const active = bytesNamed(r, 'mask');
    const out = bytesNamed(r, 'passthru').slice();
    const count = active.subarray(0, t.lanes).reduce((n, a) => n + a, 0);
    const offset = r.x.index(r.op, r.b.operands.offset[0]);
    const ub = window(r, 'source', offset, count, size);
    for (let i = 0, k = 0; i < t.lanes; i++) if (active[i] === 1) out.set(ub.subarray(k * size, ++k * size), i * size);
    r.x.setResults(r.op, [vreg(out)]);
  },
  /** group_slot_load: slot g is the element at source + offset + g * source_group_stride. */
  vmiGroupSlotLoad(r) {
    const t = vmiVreg(r.op.resultTypes[0], r);
    const size = elemBytes(t.elem);
    const offset = r.x.index(r.op, r.b.operands.offset[0]);
    const stride = r.x.index(r.op, r.b.operands.source_group_stride[0]);
    const groups = dictInt(r, 'num_groups') ?? r.fail('num_groups is not an integer');
    const out = new Uint8Array(t.lanes * size);
    for (let g = 0; g < groups; g++) out.set(window(r, 'source', offset + g * stride, 1, size), g * size);
    r.x.setResults(r.op, [vreg(out)]);
  },
  /** channel_split: channel c takes lanes c, c + C, c + 2C, ... of the interleaved source. */
  vmiChannelSplit(r) {
    const t = vmiVreg(typeNamed(r, 'source'), r);
    const size = elemBytes(t.elem);
    const channels = r.op.resultTypes.length;
    const src = bytesNamed(r, 'source');
    const outs = r.op.resultTypes.map(() => new Uint8Array((t.lanes / channels) * size));
    for (let i = 0; i < t.lanes; i++) outs[i % channels].set(src.subarray(i * size, (i + 1) * size), Math.floor(i / channels) * size);
    r.x.setResults(r.op, outs.map(vreg));
  },
  /** channel_merge: the inverse, lane i of the result from lane i / C of input i % C. */
  vmiChannelMerge(r) {
    const t = vmiVreg(r.op.resultTypes[0], r);
    const size = elemBytes(t.elem);
    const inputs = r.b.operands.inputs.map((_, k) => bytesNamed(r, 'inputs', k));
    const out = new Uint8Array(t.lanes * size);
    for (let i = 0; i < t.lanes; i++) {
      const j = Math.floor(i / inputs.length);
      out.set(inputs[i % inputs.length].subarray(j * size, (j + 1) * size), i * size);
    }
    r.x.setResults(r.op, [vreg(out)]);
  },
  /** active_prefix_index: lane i counts the active lanes before it (vmi-implementation-manual: popcount(mask[0 .. i))). */
  vmiActivePrefixIndex(r) {
    const t = vmiVreg(r.op.resultTypes[0], r);
    const active = bytesNamed(r, 'mask');
    const c = codec(t.elem);
    const out = new Uint8Array(t.lanes * c.size);
    for (let i = 0, k = 0; i < t.lanes; k += active[i], i++) c.write(view(out), i * c.size, c.round(k));
    r.x.setResults(r.op, [vreg(out)]);
  },
  /** compress: the active lanes in order at the front, the tail zero (vsqz's; the manual says zero or undefined). */
  vmiCompress(r) {
    const t = vmiVreg(r.op.resultTypes[0], r);
    const size = elemBytes(t.elem);
    const [src, active] = [bytesNamed(r, 'source'), bytesNamed(r, 'mask')];
    const out = new Uint8Array(t.lanes * size);
    for (let i = 0, k = 0; i < t.lanes; i++) if (active[i] === 1) out.set(src.subarray(i * size, (i + 1) * size), k++ * size);
    r.x.setResults(r.op, [vreg(out)]);
  },
  /** compress_store: the active lanes, in order, to destination + offset, + 1, ... */
  vmiCompressStore(r) {
    const t = vmiVreg(typeNamed(r, 'value'), r);
    const size = elemBytes(t.elem);
    const [value, active] = [bytesNamed(r, 'value'), bytesNamed(r, 'mask')];
    const count = active.subarray(0, t.lanes).reduce((n, a) => n + a, 0);
    const ub = window(r, 'destination', r.x.index(r.op, r.b.operands.offset[0]), count, size);
    for (let i = 0, k = 0; i < t.lanes; i++) if (active[i] === 1) ub.set(value.subarray(i * size, (i + 1) * size), k++ * size);
  },
  /**
   * group_store: row g (lanes g * L/C ...) to destination + offset + g * row_stride; 32-bit integer lanes into 8-bit
   * memory keep their low byte (VMIToVPTO's packed byte store).
   */
  vmiGroupStore(r) {
    const t = vmiVreg(typeNamed(r, 'value'), r);
    const size = elemBytes(t.elem);
    const p = typeNamed(r, 'destination');
    const memory = p?.kind === 'ptr' ? elemBytes(p.elem) : size;
    const value = bytesNamed(r, 'value');
    const groups = dictInt(r, 'num_groups') ?? r.fail('num_groups is not an integer');
    const [offset, stride] = [r.x.index(r.op, r.b.operands.offset[0]), r.x.index(r.op, r.b.operands.row_stride[0])];
    const row = t.lanes / groups;
    for (let g = 0; g < groups; g++) {
      const ub = window(r, 'destination', offset + g * stride, row, memory);
      for (let k = 0; k < row; k++) ub.set(value.subarray((g * row + k) * size, (g * row + k) * size + memory), k * memory);
    }
  },
  /** vscatter: active lane i to destination + offsets[i] elements (read unsigned), in lane order (a later lane wins). */
  vmiScatter(r) {
    const t = vmiVreg(typeNamed(r, 'value'), r);
    const o = vmiVreg(typeNamed(r, 'offsets'), r);
    const size = elemBytes(t.elem);
    const [value, offsets, active] = [bytesNamed(r, 'value'), bytesNamed(r, 'offsets'), bytesNamed(r, 'mask')];
    const oc = codec(o.elem.replace(/^i/, 'u') as ElemType);
    for (let i = 0; i < t.lanes; i++)
      if (active[i] === 1) window(r, 'destination', Number(oc.read(view(offsets), i * oc.size)), 1, size).set(value.subarray(i * size, (i + 1) * size));
  },
  /** shuffle: result lane i is source lane indices[i]. */
  vmiShuffle(r) {
    const t = vmiVreg(r.op.resultTypes[0], r);
    const size = elemBytes(t.elem);
    const a = dictAttr(r, 'indices');
    if (a?.kind !== 'array') return r.fail('indices is not an array');
    const src = bytesNamed(r, 'source');
    const out = new Uint8Array(t.lanes * size);
    a.items.forEach((item, i) => {
      const j = item.kind === 'int' ? Number(item.value) : r.fail('an index is not an integer');
      out.set(src.subarray(j * size, (j + 1) * size), i * size);
    });
    r.x.setResults(r.op, [vreg(out)]);
  },
  /**
   * vaddc / vaddcs: 32-bit lanes through the VPTO carry lane function (the sum's low word, a carry where the unsigned
   * sum overflows; vaddcs adds the carry-in lane); inactive lanes give 0 and no carry.
   */
  vmiCarry(r) {
    const t = vmiVreg(typeNamed(r, 'lhs'), r);
    const elem: ElemType = t.spelled === 'ui32' ? 'u32' : 'i32';
    const name = r.mnemonic.slice('vmi.'.length) as 'vaddc' | 'vaddcs';
    const [lhs, rhs, active] = [bytesNamed(r, 'lhs'), bytesNamed(r, 'rhs'), bytesNamed(r, 'mask')];
    const carryIn = name === 'vaddcs' ? bytesNamed(r, 'carry_in') : undefined;
    const out = new Uint8Array(t.lanes * 4);
    const carried = new Uint8Array(t.lanes);
    for (let base = 0; base < t.lanes; base += 64) {
      const n = Math.min(64, t.lanes - base);
      const [a, b] = [newVReg(), newVReg()];
      a.set(lhs.subarray(base * 4, (base + n) * 4));
      b.set(rhs.subarray(base * 4, (base + n) * 4));
      const lanes = (bytes: Uint8Array) => maskFromLanes((l) => l < n && bytes[base + l] === 1, 4);
      const res = carry(name, elem, a, b, lanes(active), r.fail, carryIn && lanes(carryIn));
      out.set(res.result.subarray(0, n * 4), base * 4);
      for (let l = 0; l < n; l++) carried[base + l] = laneActive(res.carry, l, 4) ? 1 : 0;
    }
    r.x.setResults(r.op, [vreg(out), maskReg(carried)]);
  },
  /**
   * vsstb and stride_store (one register: VMIToVPTO stores a single physical chunk): block k (32 bytes) of the value to
   * destination + offset + (repeat_stride + k * block_stride) * 32 bytes (vsstb: repeat 0), as the VPTO vsstb.
   */
  vmiBlockStore(r) {
    const t = vmiVreg(typeNamed(r, 'value'), r);
    const padded = newVReg();
    padded.set(oneRegister(r, t, bytesNamed(r, 'value')));
    const { buffer, addresses } = strideBlocks(r, t, 'destination');
    addresses.forEach((a, k) => a !== undefined && r.x.memory.bytesAt(buffer, a, 32, r.op.def.name, r.op.node.span).set(padded.subarray(k * 32, k * 32 + 32)));
  },
  /** stride_load: the blocks of vsstb's addressing read into one register, blocks whose mask lane is off zero. */
  vmiStrideLoad(r) {
    const t = vmiVreg(r.op.resultTypes[0], r);
    const size = elemBytes(t.elem);
    if (t.lanes * size > 256) return r.fail('a block-strided load of more than one physical register is not implemented yet');
    const { buffer, addresses } = strideBlocks(r, t, 'source');
    const v = newVReg();
    addresses.forEach((a, k) => a !== undefined && v.set(r.x.memory.bytesAt(buffer, a, 32, r.op.def.name, r.op.node.span), k * 32));
    r.x.setResults(r.op, [vreg(v.slice(0, t.lanes * size))]);
  },
  /** deinterleave_load: 2L elements from source + offset, the even ones to low, the odd ones to high. */
  vmiDeinterleaveLoad(r) {
    const t = vmiVreg(r.op.resultTypes[0], r);
    const size = elemBytes(t.elem);
    const ub = window(r, 'source', r.x.index(r.op, r.b.operands.offset[0]), 2 * t.lanes, size);
    const [low, high] = [new Uint8Array(t.lanes * size), new Uint8Array(t.lanes * size)];
    for (let i = 0; i < 2 * t.lanes; i++) (i % 2 === 0 ? low : high).set(ub.subarray(i * size, (i + 1) * size), (i >> 1) * size);
    r.x.setResults(r.op, [vreg(low), vreg(high)]);
  },
  /** interleave_store: low[i] and high[i] to destination + offset + 2i and + 2i + 1. */
  vmiInterleaveStore(r) {
    const t = vmiVreg(typeNamed(r, 'low'), r);
    const size = elemBytes(t.elem);
    const [low, high] = [bytesNamed(r, 'low'), bytesNamed(r, 'high')];
    const ub = window(r, 'destination', r.x.index(r.op, r.b.operands.offset[0]), 2 * t.lanes, size);
    for (let i = 0; i < t.lanes; i++) {
      ub.set(low.subarray(i * size, (i + 1) * size), 2 * i * size);
      ub.set(high.subarray(i * size, (i + 1) * size), (2 * i + 1) * size);
    }
  },
  /** group_load: row g (L/C lanes) from source + offset + g * row_stride; group_broadcast_load: one element per row. */
  vmiGroupLoad(r) {
    const t = vmiVreg(r.op.resultTypes[0], r);
    const size = elemBytes(t.elem);
    const groups = dictInt(r, 'num_groups') ?? r.fail('num_groups is not an integer');
    const offset = r.x.index(r.op, r.b.operands.offset[0]);
    const broadcast = r.mnemonic === 'vmi.group_broadcast_load';
    const stride = r.x.index(r.op, r.b.operands[broadcast ? 'source_group_stride' : 'row_stride'][0]);
    const row = t.lanes / groups;
    const out = new Uint8Array(t.lanes * size);
    for (let g = 0; g < groups; g++) {
      const ub = window(r, 'source', offset + g * stride, broadcast ? 1 : row, size);
      for (let k = 0; k < row; k++) out.set(broadcast ? ub : ub.subarray(k * size, (k + 1) * size), (g * row + k) * size);
    }
    r.x.setResults(r.op, [vreg(out)]);
  },
  /** masked_load: active lane i from source + offset + i, inactive lanes from passthru (their memory is not read). */
  vmiMaskedLoad(r) {
    const t = vmiVreg(r.op.resultTypes[0], r);
    const size = elemBytes(t.elem);
    const active = bytesNamed(r, 'mask');
    const out = bytesNamed(r, 'passthru').slice();
    const offset = r.x.index(r.op, r.b.operands.offset[0]);
    for (let i = 0; i < t.lanes; i++) if (active[i] === 1) out.set(window(r, 'source', offset + i, 1, size), i * size);
    r.x.setResults(r.op, [vreg(out)]);
  },
  /** gather: active lane i from source + indices[i] elements (unsigned), inactive lanes from passthru. */
  vmiIndexedGather(r) {
    const t = vmiVreg(r.op.resultTypes[0], r);
    const size = elemBytes(t.elem);
    const index = unsignedLanes(r, 'indices');
    const active = bytesNamed(r, 'mask');
    const out = bytesNamed(r, 'passthru').slice();
    for (let i = 0; i < t.lanes; i++) if (active[i] === 1) out.set(window(r, 'source', index(i), 1, size), i * size);
    r.x.setResults(r.op, [vreg(out)]);
  },
  /** scatter: active lane i to destination + indices[i] elements (unsigned), in lane order (a later lane wins). */
  vmiIndexedScatter(r) {
    const t = vmiVreg(typeNamed(r, 'value'), r);
    const size = elemBytes(t.elem);
    const index = unsignedLanes(r, 'indices');
    const [value, active] = [bytesNamed(r, 'value'), bytesNamed(r, 'mask')];
    for (let i = 0; i < t.lanes; i++) if (active[i] === 1) window(r, 'destination', index(i), 1, size).set(value.subarray(i * size, (i + 1) * size));
  },
  /** vaxpy: alpha * x + acc rounded once (the VPTO vaxpy lanes); inactive lanes zero. */
  vmiAxpy(r) {
    zeroingOnly(r);
    const t = vmiVreg(typeNamed(r, 'x'), r);
    const alpha = Number(r.x.operand(r.op, r.b.operands.alpha[0]));
    const [out] = perRegister(t.elem, t.lanes, [bytesNamed(r, 'x'), bytesNamed(r, 'acc')], bytesNamed(r, 'mask'), ([x, acc], m) => [
      vaxpy(t.elem, x, acc, alpha, m, r.fail),
    ]);
    r.x.setResults(r.op, [vreg(out)]);
  },
  /** vlrelu: x >= 0 ? x : slope * x (the VPTO vlrelu lanes); inactive lanes zero. */
  vmiLrelu(r) {
    zeroingOnly(r);
    const t = vmiVreg(typeNamed(r, 'x'), r);
    const slope = Number(r.x.operand(r.op, r.b.operands.slope[0]));
    const [out] = perRegister(t.elem, t.lanes, [bytesNamed(r, 'x')], bytesNamed(r, 'mask'), ([x], m) => [vlrelu(t.elem, x, slope, m, r.fail)]);
    r.x.setResults(r.op, [vreg(out)]);
  },
  /** vprelu: the same with a per-lane alpha (the VPTO vprelu lanes); inactive lanes zero. */
  vmiPrelu(r) {
    zeroingOnly(r);
    const t = vmiVreg(typeNamed(r, 'x'), r);
    const [out] = perRegister(t.elem, t.lanes, [bytesNamed(r, 'x'), bytesNamed(r, 'alpha')], bytesNamed(r, 'mask'), ([x, alpha], m) => [
      vprelu(t.elem, x, alpha, m, r.fail),
    ]);
    r.x.setResults(r.op, [vreg(out)]);
  },
  /** pge "PAT_VL<n>": the first n lanes, of each of `group` groups when given (VMIOps.td). */
  vmiPrefixPattern(r) {
    const t = vmiMask(r.op.resultTypes[0], r);
    const p = r.b.attrs.pattern;
    const n = p?.kind === 'string' ? Number(p.value.slice('PAT_VL'.length)) : r.fail('the pattern is not a string');
    const size = t.lanes / (dictInt(r, 'group') ?? 1);
    r.x.setResults(r.op, [maskReg(Uint8Array.from({ length: t.lanes }, (_, i) => (i % size < n ? 1 : 0)))]);
  },
  /** plt: the first min(rem, L) lanes, and the remainder rem - L (0 when rem < L), as the VPTO plt. */
  vmiRemainderMask(r) {
    const t = vmiMask(r.op.resultTypes[0], r);
    const rem = Number(BigInt.asIntN(32, BigInt(r.x.int(r.op, r.b.operands.scalar[0]))));
    r.x.setResults(r.op, [maskReg(Uint8Array.from({ length: t.lanes }, (_, i) => (i < rem ? 1 : 0))), BigInt(rem < t.lanes ? 0 : rem - t.lanes)]);
  },
  /** mask_and / mask_or / mask_xor / mask_not: lane by lane. */
  vmiMaskLogic(r) {
    const name = r.mnemonic.slice('vmi.mask_'.length);
    const a = bytesNamed(r, name === 'not' ? 'source' : 'lhs');
    const b = name === 'not' ? a : bytesNamed(r, 'rhs');
    const f = { and: (x: number, y: number) => x & y, or: (x: number, y: number) => x | y, xor: (x: number, y: number) => x ^ y, not: (x: number) => 1 - x }[
      name
    ];
    if (!f) return r.fail(`mask op ${name} is not defined`);
    r.x.setResults(r.op, [maskReg(a.map((x, i) => f(x, b[i])))]);
  },
  /** fma: lhs * rhs + acc rounded once, every lane (the VPTO vmula lanes). */
  vmiFma(r) {
    const t = vmiVreg(typeNamed(r, 'lhs'), r);
    const [out] = perRegister(t.elem, t.lanes, [bytesNamed(r, 'acc'), bytesNamed(r, 'lhs'), bytesNamed(r, 'rhs')], undefined, ([acc, lhs, rhs], m) => [
      vmula(t.elem, acc, lhs, rhs, m, r.fail),
    ]);
    r.x.setResults(r.op, [vreg(out)]);
  },
  /**
   * reduce_addf/addi/maxf/minf/maxi/mini: one lane, the active lanes reduced as vcadd / vcmax / vcmin reduce them
   * (./vmi.ts: a float sum in the lowering's order, an integer sum wrapped; a max/min of no lane or a NaN traps).
   */
  vmiLegacyReduce(r) {
    const t = vmiVreg(typeNamed(r, 'source'), r);
    // Signless integers compare unsigned (VMI's reading); siN signed.
    const elem = isInteger(t.elem) && t.spelled.startsWith('i') ? (t.elem.replace(/^i/, 'u') as ElemType) : t.elem;
    const [src, active] = [bytesNamed(r, 'source'), bytesNamed(r, 'mask')];
    const lanes = Array.from({ length: t.lanes }, (_, i) => i).filter((i) => active[i] === 1);
    const kind = r.mnemonic.slice('vmi.reduce_'.length, -1);
    const c = codec(elem);
    const value =
      kind === 'add'
        ? groupSum(elem, lanes, src, r)
        : extremum(
            kind === 'max',
            lanes.map((i) => c.read(view(src), i * c.size)),
            r,
          );
    const out = new Uint8Array(c.size);
    c.write(view(out), 0, c.round(value));
    r.x.setResults(r.op, [vreg(out)]);
  },
};

/** A value that must fit one physical register (a block-strided access lowers to one VPTO op). */
function oneRegister(r: MicroRun, t: VmiVregType, bytes: Uint8Array): Uint8Array {
  if (t.lanes * elemBytes(t.elem) > 256) return r.fail('a block-strided access of more than one physical register is not implemented yet');
  return bytes;
}

/**
 * The 8 blocks of a block-strided access: block k at the pointer + offset + (repeat_stride + k * block_stride) * 32
 * bytes when its mask lane k is on. Which mask bit governs a block the sources leave open (the VPTO vsldb/vsstb note):
 * where lane k and the lane of the block's first byte disagree it traps.
 */
function strideBlocks(r: MicroRun, t: VmiVregType, ptr: string): { buffer: string; addresses: (number | undefined)[] } {
  const size = elemBytes(t.elem);
  const active = bytesNamed(r, 'mask');
  const { buffer, address } = localAddress(r, ptr, r.x.index(r.op, r.b.operands.offset[0]));
  const block = Number(r.x.int(r.op, r.b.operands.block_stride[0]));
  const repeat = r.b.operands.repeat_stride?.length ? Number(r.x.int(r.op, r.b.operands.repeat_stride[0])) : 0;
  const addresses = Array.from({ length: 8 }, (_, k) => {
    const [byLane, byByte] = [active[k] === 1, active[(k * 32) / size] === 1];
    if (byLane !== byByte) r.fail(`a block mask whose lane ${k} and lane ${(k * 32) / size} differ is not implemented yet`);
    return byLane ? address + (repeat + k * block) * 32 : undefined;
  });
  return { buffer, addresses };
}

/** Lane i of an index vector read unsigned (signless VMI integers are unsigned). */
function unsignedLanes(r: MicroRun, name: string): (i: number) => number {
  const t = vmiVreg(typeNamed(r, name), r);
  const c = codec(t.elem.replace(/^i/, 'u') as ElemType);
  const bytes = view(bytesNamed(r, name));
  return (i) => Number(c.read(bytes, i * c.size));
}

/** The UB window of `count` elements of the pointer operand at element `offset`. */
function window(r: MicroRun, ptr: string, offset: number, count: number, size: number): Uint8Array {
  const { buffer, address } = localAddress(r, ptr, 0);
  return r.x.memory.bytesAt(buffer, address + offset * size, count * size, r.op.def.name, r.op.node.span);
}

/**
 * An op PTOAS writes in its assembly format and also in MLIR's generic form (`"pto.vmi.ensure_mask_layout"(%m) :
 * (A) -> B`): the row's standard definition, which reads the generic form as its (first) format's items: the operands
 * in the order the op declares them (the row's format lists them so), a `base[offset]` item taking two, attributes
 * from the dictionary. A format with keyword groups or attribute items has no such reading.
 */
function vmiGenericToo(row: MicroOpRowData, standard: () => OpDefinition): OpDefinition {
  const format = parseFormat(
    row.format.split(' || ')[0],
    row.results.map((r) => r.name),
  );
  const attributes = new Set(row.attributes.map((a) => a.name));
  if (format.clauses.length > 0 || format.items.some((i) => 'name' in i && attributes.has(i.name)))
    throw new Error(`${row.name}: vmi-generic-too needs a format of operands and base[offset] pairs`);
  return { ...standard(), fromGeneric: (g) => microFromGeneric(g, format) };
}

function microFromGeneric(g: GenericOp, format: MicroFormat): GenericRewrite {
  const operands = g.operands.map((o) => ({ value: o.value, span: o.span }));
  const items: MicroItem[] = [];
  // Each format name's operand, for the types the format writes after `:` (by name, in its order).
  const byName = new Map<string, number>();
  let next = 0;
  for (const item of format.items) {
    if (next >= operands.length) break;
    if ('base' in item && next + 1 < operands.length) {
      items.push({ operand: next, offset: next + 1, span: operands[next].span });
      byName.set(item.base, next).set(item.offset, next + 1);
      next += 2;
    } else {
      if ('name' in item) byName.set(item.name, next);
      items.push({ operand: next, span: operands[next++].span });
    }
  }
  // Optional operands beyond the format's items (vmula's mask): each an item of its own, for the next alternative.
  const extra: number[] = [];
  for (; next < operands.length; next++) {
    items.push({ operand: next, span: operands[next].span });
    extra.push(next);
  }
  const typed = [...format.types.filter((t): t is string => typeof t === 'string').map((n) => byName.get(n)), ...extra].filter((i) => i !== undefined);
  return {
    fields: {
      form: 'custom',
      operands,
      segments: { operands: operands.map((_, i) => i) },
      attrs: g.attrs,
      resultTypes: g.resultTypes,
      micro: { items, clauses: [], types: typed.map((i) => ({ type: g.operands[i].type! })), arrow: format.arrow || g.resultTypes.length > 0 },
    },
  };
}

/**
 * An op PTOAS writes only in MLIR's generic form, without an assembly format (unpack, pack, constant, constant_mask,
 * channel_split, channel_merge: variadic results or operands, a dense attribute): read as the generic syntax's SSA
 * form, its operands bound to the row's operand names (a variadic one takes the rest), checked by its rule of
 * ../checks/vmi-more.ts, run by its semantics here.
 */
function vmiGenericOnly(row: MicroOpRowData): OpDefinition {
  const check = row.check ? VMI_GENERIC_CHECKS[row.check] : undefined;
  if (row.check && !check) throw new Error(`${row.name}: no VMI generic check '${row.check}'`);
  const semantics = row.semantics ? VMI_MORE_SEMANTICS[row.semantics] : undefined;
  return {
    name: row.name,
    diagnostic: D.microOperand,
    properties: { genericForm: true },
    verify(v) {
      const results = v.op.resultTypes.map((t) => v.type(t));
      const located = (types: (Type | undefined)[], spans: { span: Span }[]) => types.map((type, i) => ({ type, span: spans[i].span }));
      const { err } = microReporters(v, row.name);
      // The operands by the row's names, a variadic one taking the rest; the kinds are the check's (./checks/vmi-more.ts).
      const operands: MicroBinding['operands'] = {};
      let next = 0;
      for (const spec of row.operands) {
        const n = spec.variadic ? Math.max(0, v.operands.length - next) : 1;
        operands[spec.name] = Array.from({ length: n }, (_, k) => next + k);
        next += n;
      }
      const fixedResults = !row.results.some((r) => r.variadic);
      if (next !== v.operands.length || (fixedResults && results.length !== row.results.length)) {
        const operandText = row.operands.map((o) => o.name + (o.variadic ? '...' : '')).join(', ') || 'no operands';
        err(
          v.op.nameSpan,
          `takes ${operandText} and ${fixedResults ? row.results.length : 'any number of'} result(s), got ${v.operands.length} operand(s) and ${results.length} result(s)`,
        );
        return v.define(results.map(() => undefined));
      }
      const opSpans = v.op.operands;
      check?.({
        operands: located([...v.operands], opSpans),
        results: located(results, v.op.resultTypes),
        attr: (n) => v.op.attrs.find((e) => e.key === n)?.value,
        at: v.op.nameSpan,
        err,
      });
      v.define(results);
      v.decide({ operands, attrs: {}, operandTypes: new Map(), resultTypes: [] } satisfies MicroBinding);
    },
    execute(x, op) {
      const fail = (message: string): never => {
        throw vmTrap(`${op.def.name}: ${message}`, op.node.span);
      };
      const run = { x, op, b: decided<MicroBinding>(op), mnemonic: row.name.slice('pto.'.length), fail };
      if (!semantics) return run.fail('is not implemented yet');
      return semantics(run);
    },
  };
}

export const VMI_MORE_DEFINITIONS: Record<string, (row: MicroOpRowData, standard: () => OpDefinition) => OpDefinition> = {
  'vmi-generic-too': vmiGenericToo,
  'vmi-generic-only': vmiGenericOnly,
};
