import { codec, Scalar } from '../../numerics/elements';
import { Register } from '../../machine/value';
import { ElemType, Type, VmiMaskType, VmiVregType, isFloat, isInteger } from '../../types/type';
import { vcmp, vcmps } from '../semantics/compare-select';
import { unitConverter } from '../semantics/conversion';
import { Mask, VREG_BYTES, VReg, elemBytes, laneActive, maskFromLanes, newMask, newVReg, view } from '../semantics/core';
import { binary, unary, vecScalar } from '../semantics/lanewise';
import { pand } from '../semantics/predicate';
import { vcadd } from '../semantics/reduction';
import { cvtDirection } from '../checks/vmi-convert';
import { specTables } from '../../spec/tables';
import { intOf, localAddress, MicroRun, MicroSemantics } from './operands';

/**
 * VMI's ops run directly on logical values (docs/vpto.md, "VMI"): a `!pto.vmi.vreg<LxT>` is L little-endian lanes
 * of T (L * sizeof(T) bytes, whatever its layout, which only places lanes in physical registers), a
 * `!pto.vmi.mask<LxG>` is one byte per logical lane, 1 on and 0 off. Lane-wise ops cut the lanes into 256-byte
 * physical registers and apply the VPTO lane functions of ../semantics, which is what PTOAS's lowering emits per part.
 */

const vmiVreg = (t: Type | undefined, r: MicroRun): VmiVregType => (t?.kind === 'vmi_vreg' ? t : r.fail('a VMI vector operand has no !pto.vmi.vreg type'));
const vmiMask = (t: Type | undefined, r: MicroRun): VmiMaskType => (t?.kind === 'vmi_mask' ? t : r.fail('a VMI mask operand has no !pto.vmi.mask type'));

const has = (r: MicroRun, name: string): boolean => (r.b.operands[name] ?? []).length > 0;
const typeNamed = (r: MicroRun, name: string): Type | undefined => r.op.operandTypes[r.b.operands[name][0]];
const bytesNamed = (r: MicroRun, name: string): Uint8Array => (r.x.operand(r.op, r.b.operands[name][0]) as Register).bytes;
/** The optional mask operand's lanes (undefined: no mask, every lane active). */
const maskNamed = (r: MicroRun, name = 'mask'): Uint8Array | undefined => (has(r, name) ? bytesNamed(r, name) : undefined);
const vreg = (bytes: Uint8Array): Register => ({ kind: 'vreg', bytes });
const mask = (lanes: Uint8Array): Register => ({ kind: 'mask', bytes: lanes });

function dictAttr(r: MicroRun, name: string) {
  return r.op.node.attrs.find((e) => e.key === name)?.value;
}
const dictInt = (r: MicroRun, name: string): number | undefined => {
  const a = dictAttr(r, name);
  return a?.kind === 'int' ? Number(a.value) : undefined;
};
const dictString = (r: MicroRun, name: string): string | undefined => {
  const a = dictAttr(r, name);
  return a?.kind === 'string' ? a.value : undefined;
};

/**
 * The element a lane computes as: VMI's signless integers have unsigned semantics (VMIOps.td's vcmp and vcvt, the
 * vshr page's "unsigned right shift"); `siN` is signed. The toolchain reads `siN` and `iN` alike, so the spelling decides.
 */
function semanticElem(t: VmiVregType): ElemType {
  if (!isInteger(t.elem) || !t.spelled.startsWith('i')) return t.elem;
  return t.elem.replace(/^i/, 'u') as ElemType;
}

/** The element a conversion reads or writes: a `!pto.bf16x2` lane is two bf16 (the unit of a packed fp4 byte). */
function conversionElem(t: VmiVregType): ElemType {
  return t.spelled === '!pto.bf16x2' ? 'bf16' : semanticElem(t);
}

/** The VPTO lane operation a row runs: its `op` (the legacy addf is vadd), else its own name (vadd). */
const ROW_OPS = new Map<string, string | undefined>();
function laneOp(r: MicroRun): string {
  if (ROW_OPS.size === 0) for (const row of specTables().micro) ROW_OPS.set(row.name, row.op);
  return ROW_OPS.get(r.op.def.name) ?? r.mnemonic.slice(4);
}

/** Pure zeroing predication: `pmode = "merge"` keeps a "destination's old value" an SSA result does not have. */
function zeroingOnly(r: MicroRun): void {
  if (dictString(r, 'pmode') === 'merge' && has(r, 'mask')) r.fail('pmode "merge" of a masked result is not implemented yet');
}

/**
 * The lanes cut into physical registers of `elem` (the last one zero-padded), each with a mask of its active lanes
 * (lanes beyond L off): what PTOAS's lowering hands the VPTO op of each part.
 */
function* parts(
  elem: ElemType,
  lanes: number,
  inputs: Uint8Array[],
  active: Uint8Array | undefined,
): Generator<{ base: number; n: number; regs: VReg[]; m: Mask }> {
  const size = elemBytes(elem);
  const per = VREG_BYTES / size;
  for (let base = 0; base < lanes; base += per) {
    const n = Math.min(per, lanes - base);
    const regs = inputs.map((b) => {
      const reg = newVReg();
      reg.set(b.subarray(base * size, (base + n) * size));
      return reg;
    });
    yield { base, n, regs, m: maskFromLanes((l) => l < n && (!active || active[base + l] === 1), size) };
  }
}

/** A lane function applied part by part, the results' lanes joined. */
function perRegister(elem: ElemType, lanes: number, inputs: Uint8Array[], active: Uint8Array | undefined, f: (regs: VReg[], m: Mask) => VReg): Uint8Array {
  const size = elemBytes(elem);
  const out = new Uint8Array(lanes * size);
  for (const { base, n, regs, m } of parts(elem, lanes, inputs, active)) out.set(f(regs, m).subarray(0, n * size), base * size);
  return out;
}

/** As perRegister, for lane functions that give a predicate: the logical mask of the lanes whose bit is on. */
function perRegisterMask(elem: ElemType, lanes: number, inputs: Uint8Array[], active: Uint8Array | undefined, f: (regs: VReg[], m: Mask) => Mask): Uint8Array {
  const size = elemBytes(elem);
  const out = new Uint8Array(lanes);
  for (const { base, n, regs, m } of parts(elem, lanes, inputs, active)) {
    const on = f(regs, m);
    for (let l = 0; l < n; l++) out[base + l] = laneActive(on, l, size) ? 1 : 0;
  }
  return out;
}

/** A scalar operand as a number (VMI lanes are at most 32 bits wide). */
function scalarNamed(r: MicroRun, name: string): number {
  const s = r.x.operand(r.op, r.b.operands[name][0]);
  if (typeof s !== 'number' && typeof s !== 'bigint') return r.fail(`the operand '${name}' is not a number`);
  return Number(s);
}

/** vand, vor, vxor and vnot of masks: the operation lane by lane (the mask logic path of VMI.cpp's verifiers). */
function maskLogic(r: MicroRun, masks: Uint8Array[]): void {
  const [a, b] = masks;
  const name = r.mnemonic.slice(4);
  const f = (i: number): boolean =>
    name === 'vnot' ? a[i] !== 1 : name === 'vand' ? a[i] === 1 && b[i] === 1 : name === 'vor' ? a[i] === 1 || b[i] === 1 : (a[i] === 1) !== (b[i] === 1);
  r.x.setResults(r.op, [mask(Uint8Array.from(a, (_, i) => (f(i) ? 1 : 0)))]);
}

/** Every lane of a logical vector as numbers. */
function lanesOf(bytes: Uint8Array, elem: ElemType): number[] {
  return Array.from({ length: bytes.length / elemBytes(elem) }, (_, i) => Number(laneOf(bytes, elem, i)));
}

/** Lane i of a logical vector. */
function laneOf(bytes: Uint8Array, elem: ElemType, i: number): Scalar {
  const c = codec(elem);
  return c.read(view(bytes), i * c.size);
}

function setLane(bytes: Uint8Array, elem: ElemType, i: number, value: Scalar): void {
  const c = codec(elem);
  c.write(view(bytes), i * c.size, c.round(value));
}

/** The UB window of `count` elements of the pointer operand at element `offset`. */
function window(r: MicroRun, ptr: string, offset: number, count: number, size: number): Uint8Array {
  const { buffer, address } = localAddress(r, ptr, 0);
  return r.x.memory.bytesAt(buffer, address + offset * size, count * size, r.op.def.name, r.op.node.span);
}

/**
 * Group mode of vload/vstore: C rows; with L > C each row is L/C lanes at element offset + g * stride, with L == C
 * each row is the one slot lane g (01-load-store.md: "Full-group load" and "Slot load").
 */
function groupRows(lanes: number, groups: number): number {
  return lanes / groups;
}

export const VMI_SEMANTICS: Record<string, MicroSemantics> = {
  vmiCreateMask(r) {
    const t = vmiMask(r.op.resultTypes[0], r);
    const n = intOf(r, 'active_lanes');
    r.x.setResults(r.op, [mask(Uint8Array.from({ length: t.lanes }, (_, i) => (i < n ? 1 : 0)))]);
  },
  vmiCreateGroupMask(r) {
    const t = vmiMask(r.op.resultTypes[0], r);
    const active = intOf(r, 'active_elems_per_group');
    const size = dictInt(r, 'group_size') ?? r.fail('group_size is not an integer');
    r.x.setResults(r.op, [mask(Uint8Array.from({ length: t.lanes }, (_, i) => (i % size < active ? 1 : 0)))]);
  },
  vmiLoad(r) {
    const results = r.op.resultTypes.map((t) => vmiVreg(t, r));
    const t = results[0];
    const size = elemBytes(t.elem);
    const offset = r.x.index(r.op, r.b.operands.offset[0]);
    const dist = dictString(r, 'dist_mode') ?? 'continuous';
    const group = dictInt(r, 'group');
    if (has(r, 'block_stride')) r.fail('the block-strided vload is not implemented yet');
    if (dist === 'brc' && group === undefined) {
      // One element in every lane (VMIOps.td: "broadcast load").
      const one = window(r, 'source', offset, 1, size);
      const out = new Uint8Array(t.lanes * size);
      for (let i = 0; i < t.lanes; i++) out.set(one, i * size);
      return r.x.setResults(r.op, [vreg(out)]);
    }
    if (dist !== 'continuous') r.fail(`vload with dist_mode "${dist}"${group !== undefined ? ' and group' : ''} is not implemented yet`);
    if (group !== undefined) {
      const stride = r.x.index(r.op, r.b.operands.stride[0]);
      const row = groupRows(t.lanes, group);
      const out = new Uint8Array(t.lanes * size);
      for (let g = 0; g < group; g++) out.set(window(r, 'source', offset + g * stride, row, size), g * row * size);
      return r.x.setResults(r.op, [vreg(out)]);
    }
    r.x.setResults(r.op, [vreg(window(r, 'source', offset, t.lanes, size).slice())]);
  },
  vmiStore(r) {
    const t = vmiVreg(typeNamed(r, 'value'), r);
    const size = elemBytes(t.elem);
    const value = bytesNamed(r, 'value');
    const offset = r.x.index(r.op, r.b.operands.offset[0]);
    const group = dictInt(r, 'group');
    if (has(r, 'high') || has(r, 'block_stride')) r.fail(`the ${has(r, 'high') ? 'interleaving' : 'block-strided'} vstore is not implemented yet`);
    const p = typeNamed(r, 'destination');
    const memory = p?.kind === 'ptr' ? elemBytes(p.elem) : size;
    if (group !== undefined) {
      // A group store of 32-bit integer lanes into 8-bit memory keeps each lane's low byte (VMIToVPTO.cpp packs
      // them with two vpack LOWER); the checker allows no other width change.
      const stride = r.x.index(r.op, r.b.operands.stride[0]);
      const row = groupRows(t.lanes, group);
      for (let g = 0; g < group; g++) {
        const ub = window(r, 'destination', offset + g * stride, row, memory);
        for (let k = 0; k < row; k++) ub.set(value.subarray((g * row + k) * size, (g * row + k) * size + memory), k * memory);
      }
      return;
    }
    if (memory !== size) r.fail(`a vstore of ${t.spelled} lanes into ${p?.kind === 'ptr' ? p.elem : ''} memory is not implemented yet`);
    // Only active lanes are written (the mask-select-store golden keeps its sentinel in the inactive ones).
    const active = maskNamed(r);
    const ub = window(r, 'destination', offset, t.lanes, size);
    for (let i = 0; i < t.lanes; i++) if (!active || active[i] === 1) ub.set(value.subarray(i * size, (i + 1) * size), i * size);
  },
  vmiBroadcast(r) {
    const t = vmiVreg(r.op.resultTypes[0], r);
    const size = elemBytes(t.elem);
    const out = new Uint8Array(t.lanes * size);
    const port = has(r, 'value') ? 'value' : 'source';
    const source = typeNamed(r, port);
    const group = dictInt(r, 'group') ?? dictInt(r, 'num_groups');
    if (source?.kind === 'vmi_vreg') {
      // Slot g fills group g (one slot and one group without a group attribute).
      const slots = bytesNamed(r, port);
      const row = t.lanes / (group ?? 1);
      for (let i = 0; i < t.lanes; i++) out.set(slots.subarray(Math.floor(i / row) * size, Math.floor(i / row) * size + size), i * size);
    } else {
      const s = r.x.operand(r.op, r.b.operands.value[0]);
      if (typeof s !== 'number' && typeof s !== 'bigint') return r.fail('the broadcast value is not a number');
      const c = codec(t.elem);
      const one = new Uint8Array(size);
      c.write(view(one), 0, c.round(isFloat(t.elem) || size < 8 ? Number(s) : BigInt(s)));
      for (let i = 0; i < t.lanes; i++) out.set(one, i * size);
    }
    r.x.setResults(r.op, [vreg(out)]);
  },
  vmiBinary(r) {
    zeroingOnly(r);
    if (typeNamed(r, 'lhs')?.kind === 'vmi_mask') return maskLogic(r, [bytesNamed(r, 'lhs'), bytesNamed(r, 'rhs')]);
    const t = vmiVreg(typeNamed(r, 'lhs'), r);
    const elem = semanticElem(t);
    const out = perRegister(elem, t.lanes, [bytesNamed(r, 'lhs'), bytesNamed(r, 'rhs')], maskNamed(r), ([a, b], m) => binary(laneOp(r), elem, a, b, m, r.fail));
    r.x.setResults(r.op, [vreg(out)]);
  },
  vmiUnary(r) {
    zeroingOnly(r);
    if (typeNamed(r, 'source')?.kind === 'vmi_mask') return maskLogic(r, [bytesNamed(r, 'source')]);
    const t = vmiVreg(typeNamed(r, 'source'), r);
    const name = laneOp(r);
    // abs and neg are signed operations whatever the spelling.
    const elem = name === 'vabs' || name === 'vneg' ? t.elem : semanticElem(t);
    const out = perRegister(elem, t.lanes, [bytesNamed(r, 'source')], maskNamed(r), ([a], m) => unary(name, elem, a, m, r.fail));
    r.x.setResults(r.op, [vreg(out)]);
  },
  vmiSelect(r) {
    const t = vmiVreg(r.op.resultTypes[0], r);
    const size = elemBytes(t.elem);
    const sel = bytesNamed(r, 'mask');
    const a = bytesNamed(r, 'true_value');
    const b = bytesNamed(r, 'false_value');
    const out = new Uint8Array(t.lanes * size);
    for (let i = 0; i < t.lanes; i++) out.set((sel[i] === 1 ? a : b).subarray(i * size, (i + 1) * size), i * size);
    r.x.setResults(r.op, [vreg(out)]);
  },
  vmiReduce(r) {
    zeroingOnly(r);
    const t = vmiVreg(typeNamed(r, 'source'), r);
    const elem = semanticElem(t);
    const size = elemBytes(elem);
    const groups = dictInt(r, 'group') ?? dictInt(r, 'num_groups') ?? 1;
    const row = t.lanes / groups;
    const src = bytesNamed(r, 'source');
    const active = bytesNamed(r, 'mask');
    const out = new Uint8Array(groups * size);
    // vcadd, vcmax, vcmin, and the group_reduce rows that name them as their op.
    const kind = laneOp(r);
    for (let g = 0; g < groups; g++) {
      const lanes = Array.from({ length: row }, (_, i) => g * row + i).filter((i) => active[i] === 1);
      const values = () => lanes.map((i) => laneOf(src, elem, i));
      setLane(out, elem, g, kind === 'vcadd' ? groupSum(elem, lanes, src, r) : extremum(kind === 'vcmax', values(), r));
    }
    r.x.setResults(r.op, [vreg(out)]);
  },
  vmiConvert(r) {
    const [from, to] = [vmiVreg(typeNamed(r, 'source'), r), vmiVreg(r.op.resultTypes[0], r)];
    const dir = cvtDirection(from, to);
    if (typeof dir !== 'string') return r.fail(dir.error);
    // The lowering's defaults (VMIToVPTO.cpp): R for fp narrowing (A into hif8) and for fp -> int.
    const rounds = dir === 'FpNarrow' || dir === 'FpToSi' || dir === 'FpToUi';
    const rnd = dictString(r, 'rounding') ?? (rounds ? (to.spelled === '!pto.hif8' ? 'A' : 'R') : undefined);
    // bf16x2 -> f4x2 takes no saturate (its contract); a value past the format's range becomes its largest magnitude
    // (the quant-bf16x2-to-f4x2-overflow golden: 100 -> 1.75), which is the converter's SAT.
    const fp4 = to.spelled === '!pto.f4E1M2x2' || to.spelled === '!pto.f4E2M1x2';
    const sat = dictString(r, 'saturate') ?? (fp4 ? 'SAT' : undefined);
    // No golden says what such a NaN becomes (SAT would write 0).
    if (fp4 && !dictString(r, 'saturate') && lanesOf(bytesNamed(r, 'source'), 'bf16').some((v) => Number.isNaN(v)))
      r.fail(`a NaN converted to ${to.spelled} is not implemented yet`);
    const convert = unitConverter(conversionElem(from), conversionElem(to), { rnd, sat }, r.fail);
    const [su, du] = [elemBytes(from.elem), elemBytes(to.elem)];
    const src = bytesNamed(r, 'source');
    const out = new Uint8Array(to.lanes * du);
    const [s, d] = [view(src), view(out)];
    for (let i = 0; i < from.lanes; i++) convert(s, i * su, d, i * du);
    r.x.setResults(r.op, [vreg(out)]);
  },
  vmiCompare(r) {
    // Lanes off in the seed are off ("zeroing"); "merge" would keep an old mask an SSA result does not have.
    if (dictString(r, 'pmode') === 'merge') r.fail('pmode "merge" of a compare is not implemented yet');
    const [a, b] = has(r, 'lhs') ? ['lhs', 'rhs'] : ['src', 'scalar'];
    const t = vmiVreg(typeNamed(r, a), r);
    const elem = semanticElem(t);
    // The legacy cmpf/cmpi write the predicate first and have no seed (every lane); `slt`, `ult`, ... compare as lt.
    const predicate = r.b.attrs.predicate?.kind === 'string' ? r.b.attrs.predicate.value.replace(/^[su](?=[lg][te]$)/, '') : undefined;
    const cmp = dictString(r, 'cmp') ?? predicate ?? r.fail('cmp is not a string');
    // The ordered float predicates are IEEE comparisons, false on NaN, as the plain ones are except `ne`: `one` is
    // `ne` where both lanes are numbers (a lane equal to itself).
    const mode = cmp.startsWith('o') ? cmp.slice(1) : cmp;
    const seed = has(r, 'seed') ? bytesNamed(r, 'seed') : undefined;
    const scalar = b === 'scalar' ? scalarNamed(r, 'scalar') : undefined;
    const inputs = scalar === undefined ? [bytesNamed(r, a), bytesNamed(r, b)] : [bytesNamed(r, a)];
    const out = perRegisterMask(elem, t.lanes, inputs, seed, ([x, y], m) => {
      const on = scalar === undefined ? vcmp(mode, elem, x, y, m, r.fail) : vcmps(mode, elem, x, scalar, m, r.fail);
      if (cmp !== 'one') return on;
      const ordered = (v: VReg) => vcmp('eq', elem, v, v, m, r.fail);
      const both = scalar === undefined ? pand(ordered(x), ordered(y), m) : typeof scalar === 'number' && Number.isNaN(scalar) ? newMask() : ordered(x);
      return pand(on, both, m);
    });
    r.x.setResults(r.op, [mask(out)]);
  },
  vmiVecScalar(r) {
    const t = vmiVreg(typeNamed(r, 'src'), r);
    const name = r.mnemonic.slice(4);
    const elem = semanticElem(t);
    const src = bytesNamed(r, 'src');
    const active = bytesNamed(r, 'mask');
    const scalar = scalarNamed(r, 'scalar');
    const computed = perRegister(elem, t.lanes, [src], active, ([a], m) => vecScalar(name, elem, a, scalar, m, r.fail));
    // VMI_VecScalarOp: pmode "merge" (the default) keeps src in inactive lanes, "zero" zeroes them.
    if (dictString(r, 'pmode') !== 'zero') {
      const size = elemBytes(elem);
      for (let i = 0; i < t.lanes; i++) if (active[i] !== 1) computed.set(src.subarray(i * size, (i + 1) * size), i * size);
    }
    r.x.setResults(r.op, [vreg(computed)]);
  },
  vmiIndex(r) {
    const t = vmiVreg(r.op.resultTypes[0], r);
    const base = scalarNamed(r, 'base');
    const sign = dictString(r, 'order') === 'DESC' ? -1 : 1;
    const size = t.lanes / (dictInt(r, 'group') ?? 1);
    const bits = elemBytes(t.elem) * 8;
    const out = new Uint8Array(t.lanes * elemBytes(t.elem));
    for (let i = 0; i < t.lanes; i++) {
      const v = base + sign * (i % size);
      // Integers wrap in the element's width, floats round once (the VPTO vci's rules).
      setLane(out, t.elem, i, isInteger(t.elem) ? Number(t.elem.startsWith('u') ? BigInt.asUintN(bits, BigInt(v)) : BigInt.asIntN(bits, BigInt(v))) : v);
    }
    r.x.setResults(r.op, [vreg(out)]);
  },
  vmiPattern(r) {
    r.x.setResults(r.op, [mask(new Uint8Array(vmiMask(r.op.resultTypes[0], r).lanes).fill(1))]);
  },
  vmiGather(r) {
    zeroingOnly(r);
    const t = vmiVreg(r.op.resultTypes[0], r);
    const offsets = vmiVreg(typeNamed(r, 'offsets'), r);
    const size = elemBytes(t.elem);
    const index = bytesNamed(r, 'offsets');
    const active = bytesNamed(r, 'mask');
    const out = new Uint8Array(t.lanes * size);
    // Offsets are element offsets from the base (07-sfu.md: "Per-lane element offset"), read unsigned.
    for (let i = 0; i < t.lanes; i++)
      if (active[i] === 1) out.set(window(r, 'source', Number(laneOf(index, offsets.elem.replace(/^i/, 'u') as ElemType, i)), 1, size), i * size);
    r.x.setResults(r.op, [vreg(out)]);
  },
  vmiInterleave(r) {
    const t = vmiVreg(typeNamed(r, 'lhs'), r);
    const size = elemBytes(t.elem);
    // Which lanes a mask would switch off (of the sources or of the results) no source settles: all must be on.
    if (bytesNamed(r, 'mask').some((on) => on !== 1)) r.fail('a partial mask is not implemented yet');
    const [lhs, rhs] = [bytesNamed(r, 'lhs'), bytesNamed(r, 'rhs')];
    const [low, high] = [new Uint8Array(t.lanes * size), new Uint8Array(t.lanes * size)];
    const half = t.lanes / 2;
    const put = (to: Uint8Array, at: number, from: Uint8Array, lane: number) => to.set(from.subarray(lane * size, (lane + 1) * size), at * size);
    if (t.lanes % 2 !== 0) r.fail(`an odd lane count (${t.lanes}) is not implemented yet`);
    for (let i = 0; i < half; i++) {
      if (r.mnemonic === 'vmi.vintlv') {
        // The interleave-layout-roundtrip golden: low = lhs[i], rhs[i] over the first halves, high over the second.
        put(low, 2 * i, lhs, i);
        put(low, 2 * i + 1, rhs, i);
        put(high, 2 * i, lhs, half + i);
        put(high, 2 * i + 1, rhs, half + i);
      } else {
        // Its inverse: lhs ++ rhs as one stream, low its even lanes and high its odd ones.
        put(low, i, lhs, 2 * i);
        put(high, i, lhs, 2 * i + 1);
        put(low, half + i, rhs, 2 * i);
        put(high, half + i, rhs, 2 * i + 1);
      }
    }
    r.x.setResults(r.op, [vreg(low), vreg(high)]);
  },
  vmiLaneSelect(r) {
    const t = vmiVreg(r.op.resultTypes[0], r);
    const source = vmiVreg(typeNamed(r, 'source'), r);
    const index = vmiVreg(typeNamed(r, 'index'), r);
    const size = elemBytes(t.elem);
    const [src, idx] = [bytesNamed(r, 'source'), bytesNamed(r, 'index')];
    const out = new Uint8Array(t.lanes * size);
    for (let i = 0; i < t.lanes; i++) {
      // Indices are read unsigned; one past the source's lanes is not defined (the VPTO vselr traps as well).
      const k = Number(laneOf(idx, index.elem.replace(/^i/, 'u') as ElemType, i));
      if (k >= source.lanes) r.fail(`lane ${i} selects lane ${k} of ${source.lanes}`);
      out.set(src.subarray(k * size, (k + 1) * size), i * size);
    }
    r.x.setResults(r.op, [vreg(out)]);
  },
  vmiInterpretCast(r) {
    r.x.setResults(r.op, [vreg(bytesNamed(r, 'source').slice())]);
  },
};

/**
 * The sum of a group's active lanes as the lowering computes it (00-architecture-overview.md, "group"): the group's
 * registers folded lane-wise by vadd, then the register reduced by vcadd's pair tree (../semantics, reduction.ts).
 * Inactive lanes are +0 in their places. Integer sums are exact, wrapped to the element's width.
 */
export function groupSum(elem: ElemType, lanes: number[], src: Uint8Array, r: MicroRun): Scalar {
  const size = elemBytes(elem);
  const per = VREG_BYTES / size;
  const c = codec(elem);
  if (isInteger(elem)) {
    // An integer sum wraps in the element's width whatever the order (the i16 group-reduce golden's astype).
    const total = lanes.reduce((t, i) => t + BigInt(laneOf(src, elem, i)), 0n);
    const bits = size * 8;
    return Number(elem.startsWith('u') ? BigInt.asUintN(bits, total) : BigInt.asIntN(bits, total));
  }
  let acc: VReg | undefined;
  // Each lane keeps its place in its physical register; the other places are +0.
  const all = maskFromLanes(() => true, size);
  const byRegister = new Map<number, VReg>();
  for (const i of lanes) {
    const k = Math.floor(i / per);
    const reg = byRegister.get(k) ?? newVReg();
    byRegister.set(k, reg);
    reg.set(src.subarray(i * size, (i + 1) * size), (i % per) * size);
  }
  for (const reg of byRegister.values()) acc = acc ? binary('vadd', elem, acc, reg, all, r.fail) : reg;
  if (!acc) return c.round(0);
  return c.read(view(vcadd(elem, acc, all, r.fail)), 0);
}

/** vcmax / vcmin of the active lanes; none active gives the identity (-inf/+inf, or the integer bound), VMIOps.td. */
export function extremum(max: boolean, values: Scalar[], r: MicroRun): Scalar {
  if (values.some((v) => typeof v === 'number' && Number.isNaN(v))) r.fail(`${max ? 'vcmax' : 'vcmin'} of a NaN lane is not implemented yet`);
  if (values.length === 0) r.fail(`${max ? 'vcmax' : 'vcmin'} of no active lane is not implemented yet`);
  return values.reduce((a, b) => ((max ? b > a : b < a) ? b : a));
}
