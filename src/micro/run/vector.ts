import { elemSize } from '../../types/type';
import { vcvtTokens } from '../checks/vector';
import { LocalPointer } from '../../machine/value';
import { MicroRun } from './operands';
import { ALIGN_SEMANTICS, setSqueezeCount } from './align';
import { GATHER_SEMANTICS } from './gather';
import { attrText, dictText, dist, granularity, intOf, localAddress, reg, register, resultElem, scalarOf, typeOf, vregElem, MicroSemantics } from './operands';
import { vcmp, vcmps, vsel, vselr } from '../semantics/compare-select';
import { vcvt, vtrc } from '../semantics/conversion';
import { elemBytes, Mask, GRANULE_BYTES, maskBit, VREG_BYTES } from '../semantics/core';
import { vaxpy, vbitcast, vexpdif, vmadd, vmulscvt, vmula, vmull } from '../semantics/fused';
import { binary, unary, vecScalar, vlrelu, vprelu, carry } from '../semantics/lanewise';
import { loadFootprint, vlds, vldsx2, vsts, vstsx2 } from '../semantics/load-store';
import {
  pand,
  pattern,
  plt,
  pdintlv,
  pintlv,
  pltm,
  pnot,
  por,
  ppack,
  punpack,
  PREDICATE_LOAD_BYTES,
  predicateLoad,
  predicateStore,
  psel,
  pxor,
} from '../semantics/predicate';
import { vbr, vci, vdintlv, vdupLane, vdupScalar, vintlv, vpack, vsqz, vunpack, vusqz } from '../semantics/rearrange';
import { vcadd, vcgroup, vcmaxmin, vcpadd } from '../semantics/reduction';

/**
 * Where a load or store at `ptr` with an advance of `advance` bytes accesses UB, and the updated base when the op
 * returns one (`postUpdate`): without it the access is at base + advance; with it the access is at the base itself
 * and the result is base + advance (04-predicate-load-store.md; the vlds-post-update and predicate-post-update
 * goldens read and write their data in order through the returned pointers).
 */
function access(r: MicroRun, ptr: string, advance: number, postUpdate: boolean): { buffer: string; address: number; updated?: LocalPointer } {
  const { buffer, address } = localAddress(r, ptr, 0);
  if (!postUpdate) return { buffer, address: address + advance };
  return { buffer, address, updated: { kind: 'local_pointer', buffer, address: address + advance } };
}

/** A `base[offset]` operand pair's advance in bytes: offset elements of the pointer's type. */
const elementAdvance = (r: MicroRun, ptr: string): number => {
  const t = typeOf(r, ptr);
  return r.x.index(r.op, r.b.operands.offset[0]) * (t?.kind === 'ptr' ? elemSize(t.elem) : 1);
};

/** pldi's and psti's immediate offset unit by dist (04-predicate-load-store.md, A5: VL = 256 bytes); plds/psts count bytes. */
const PREDICATE_UNIT: Record<string, Record<string, number>> = { pldi: { NORM: 32, US: 16, DS: 32 }, psti: { NORM: 32, PK: 16 } };
const predicateAdvance = (r: MicroRun, d: string): number => r.x.index(r.op, r.b.operands.offset[0]) * (PREDICATE_UNIT[r.mnemonic]?.[d] ?? 1);

/**
 * The blocks of a block-strided access (vsldb, vsstb; 03-vector-load-store.md): block k of the register (32 bytes) at
 * base + (repeat_stride + k * block_stride) * 32 bytes, or with a post-update at base + k * block_stride * 32 and the
 * result base + repeat_stride * 32 (the vldsx2-vsldb-post-update and soft-post-update-step4-combined goldens).
 * Which mask bit governs block k no source settles: the docs' `pg_b32[blk]` reads lane k of the mask's granularity,
 * the register's byte model the bit of the block's first byte; where the two differ the op traps.
 */
function blocks(r: MicroRun, ptr: string, postUpdate: boolean): { buffer: string; addresses: (number | undefined)[]; updated?: LocalPointer } {
  const [block, repeat] = [intOf(r, 'block_stride'), intOf(r, 'repeat_stride')];
  const at = access(r, ptr, repeat * 32, postUpdate);
  const mask = reg(r, 'mask');
  const lane = GRANULE_BYTES[granularity(typeOf(r, 'mask'))];
  const addresses = Array.from({ length: 8 }, (_, k) => {
    const [byLane, byByte] = [maskBit(mask, k * lane), maskBit(mask, k * 32)];
    if (byLane !== byByte) r.fail(`a block mask whose lane ${k} and byte ${k * 32} bits differ is not implemented yet`);
    return byLane ? at.address + k * block * 32 : undefined;
  });
  return { buffer: at.buffer, addresses, updated: at.updated };
}

/** The vector core's ops: lanes, predicates, reductions, rearrangements, loads and stores between UB and registers. */
export const VECTOR_SEMANTICS: Record<string, MicroSemantics> = {
  ...ALIGN_SEMANTICS,
  ...GATHER_SEMANTICS,
  binary(r) {
    const elem = vregElem(typeOf(r, 'lhs'), r);
    r.x.setResults(r.op, [register('vreg', binary(r.mnemonic, elem, reg(r, 'lhs'), reg(r, 'rhs'), reg(r, 'mask'), r.fail))]);
  },
  unary(r) {
    const elem = vregElem(typeOf(r, 'input'), r);
    r.x.setResults(r.op, [register('vreg', unary(r.mnemonic, elem, reg(r, 'input'), reg(r, 'mask'), r.fail))]);
  },
  'vec-scalar'(r) {
    const elem = vregElem(typeOf(r, 'input'), r);
    r.x.setResults(r.op, [register('vreg', vecScalar(r.mnemonic, elem, reg(r, 'input'), scalarOf(r, 'scalar', elem), reg(r, 'mask'), r.fail))]);
  },
  vlrelu(r) {
    const elem = vregElem(typeOf(r, 'input'), r);
    // 13-dsa-sfu-ops.md defines it for f16 and f32 only.
    if (elem !== 'f16' && elem !== 'f32') r.fail(`vlrelu of ${elem} is not implemented yet`);
    r.x.setResults(r.op, [register('vreg', vlrelu(elem, reg(r, 'input'), scalarOf(r, 'scalar', elem), reg(r, 'mask'), r.fail))]);
  },
  vprelu(r) {
    const elem = vregElem(typeOf(r, 'lhs'), r);
    r.x.setResults(r.op, [register('vreg', vprelu(elem, reg(r, 'lhs'), reg(r, 'rhs'), reg(r, 'mask'), r.fail))]);
  },
  vcmp(r) {
    const elem = vregElem(typeOf(r, 'src0'), r);
    r.x.setResults(r.op, [register('mask', vcmp(attrText(r, 'cmp_mode'), elem, reg(r, 'src0'), reg(r, 'src1'), reg(r, 'mask'), r.fail))]);
  },
  vcmps(r) {
    const elem = vregElem(typeOf(r, 'src'), r);
    r.x.setResults(r.op, [register('mask', vcmps(attrText(r, 'cmp_mode'), elem, reg(r, 'src'), scalarOf(r, 'scalar', elem), reg(r, 'mask'), r.fail))]);
  },
  vsel(r) {
    const size = elemBytes(vregElem(typeOf(r, 'src0'), r));
    r.x.setResults(r.op, [register('vreg', vsel(size, reg(r, 'src0'), reg(r, 'src1'), reg(r, 'mask')))]);
  },
  vselr(r) {
    const size = elemBytes(vregElem(typeOf(r, 'src0'), r));
    r.x.setResults(r.op, [register('vreg', vselr(size, reg(r, 'src0'), reg(r, 'src1'), r.fail))]);
  },
  pand(r) {
    r.x.setResults(r.op, [register('mask', pand(reg(r, 'src0'), reg(r, 'src1'), reg(r, 'mask')))]);
  },
  por(r) {
    r.x.setResults(r.op, [register('mask', por(reg(r, 'src0'), reg(r, 'src1'), reg(r, 'mask')))]);
  },
  pxor(r) {
    r.x.setResults(r.op, [register('mask', pxor(reg(r, 'src0'), reg(r, 'src1'), reg(r, 'mask')))]);
  },
  pnot(r) {
    r.x.setResults(r.op, [register('mask', pnot(reg(r, 'input'), reg(r, 'mask')))]);
  },
  psel(r) {
    r.x.setResults(r.op, [register('mask', psel(reg(r, 'src0'), reg(r, 'src1'), reg(r, 'mask')))]);
  },
  vcadd(r) {
    const elem = vregElem(typeOf(r, 'input'), r);
    r.x.setResults(r.op, [register('vreg', vcadd(elem, reg(r, 'input'), reg(r, 'mask'), r.fail))]);
  },
  vcmaxmin(r) {
    const elem = vregElem(typeOf(r, 'input'), r);
    r.x.setResults(r.op, [register('vreg', vcmaxmin(r.mnemonic as 'vcmax' | 'vcmin', elem, reg(r, 'input'), reg(r, 'mask'), r.fail))]);
  },
  vcgroup(r) {
    const elem = vregElem(typeOf(r, 'input'), r);
    r.x.setResults(r.op, [register('vreg', vcgroup(r.mnemonic as 'vcgadd' | 'vcgmax' | 'vcgmin', elem, reg(r, 'input'), reg(r, 'mask'), r.fail))]);
  },
  vcpadd(r) {
    r.x.setResults(r.op, [register('vreg', vcpadd(vregElem(typeOf(r, 'input'), r), reg(r, 'input'), reg(r, 'mask'), r.fail))]);
  },
  vbr(r) {
    const elem = resultElem(r);
    r.x.setResults(r.op, [register('vreg', vbr(elem, scalarOf(r, 'value', elem)))]);
  },
  vdup(r) {
    const elem = resultElem(r);
    const mask = reg(r, 'mask');
    // A register input copies one of its lanes (position LOWEST by default, 05-materialization-predicate.md).
    const v =
      typeOf(r, 'input')?.kind === 'vreg'
        ? vdupLane(elemBytes(elem), reg(r, 'input'), dictText(r, 'position') ?? 'LOWEST', mask, r.fail)
        : vdupScalar(elem, scalarOf(r, 'input', elem), mask);
    r.x.setResults(r.op, [register('vreg', v)]);
  },
  vci(r) {
    const elem = resultElem(r);
    // No order counts up (PTOAS's own iota lowering writes vci without one).
    r.x.setResults(r.op, [register('vreg', vci(elem, scalarOf(r, 'index', elem), dictText(r, 'order') ?? 'ASC', r.fail))]);
  },
  vintlv(r) {
    const { low, high } = vintlv(elemBytes(vregElem(typeOf(r, 'lhs'), r)), reg(r, 'lhs'), reg(r, 'rhs'));
    r.x.setResults(r.op, [register('vreg', low), register('vreg', high)]);
  },
  vdintlv(r) {
    const { low, high } = vdintlv(elemBytes(vregElem(typeOf(r, 'lhs'), r)), reg(r, 'lhs'), reg(r, 'rhs'));
    r.x.setResults(r.op, [register('vreg', low), register('vreg', high)]);
  },
  vpack(r) {
    r.x.setResults(r.op, [register('vreg', vpack(elemBytes(vregElem(typeOf(r, 'src'), r)), reg(r, 'src'), attrText(r, 'part'), r.fail))]);
  },
  vunpack(r) {
    const narrow = vregElem(typeOf(r, 'src'), r);
    const part = r.x.index(r.op, r.b.operands.part[0]);
    r.x.setResults(r.op, [register('vreg', vunpack(r.mnemonic as 'vsunpack' | 'vzunpack', narrow, reg(r, 'src'), part, r.fail))]);
  },
  vsqz(r) {
    const size = elemBytes(vregElem(typeOf(r, 'input'), r));
    const mask = reg(r, 'mask');
    // The squeezed lanes' byte count goes to SPR SQZN, which a later vstur stores (./align.ts).
    let active = 0;
    for (let lane = 0; lane < VREG_BYTES / size; lane++) if (maskBit(mask, lane * size)) active++;
    setSqueezeCount(r, active);
    r.x.setResults(r.op, [register('vreg', vsqz(size, reg(r, 'input'), mask))]);
  },
  vusqz(r) {
    r.x.setResults(r.op, [register('vreg', vusqz(vregElem(typeOf(r, 'src'), r), reg(r, 'mask'), r.fail))]);
  },
  vtrc(r) {
    // PTOAS's parser reads ROUND_Z as Z (normalizeRoundModeToken).
    const mode = attrText(r, 'round_mode').replace(/^ROUND_/, '');
    r.x.setResults(r.op, [register('vreg', vtrc(vregElem(typeOf(r, 'input'), r), reg(r, 'input'), reg(r, 'mask'), mode, r.fail))]);
  },
  vcvt(r) {
    // The verifier checked the pair's contract; the tokens are read as VcvtOp's parser normalizes them.
    const tokens = vcvtTokens((name) => dictText(r, name));
    const [from, to] = [vregElem(typeOf(r, 'input'), r), resultElem(r)];
    r.x.setResults(r.op, [register('vreg', vcvt(from, to, reg(r, 'input'), reg(r, 'mask'), tokens, r.fail))]);
  },
  carry(r) {
    const elem = vregElem(typeOf(r, 'lhs'), r);
    const carryIn = r.b.operands.carry_in ? reg(r, 'carry_in') : undefined;
    const name = r.mnemonic as 'vaddc' | 'vsubc' | 'vaddcs' | 'vsubcs';
    const out = carry(name, elem, reg(r, 'lhs'), reg(r, 'rhs'), reg(r, 'mask'), r.fail, carryIn);
    r.x.setResults(r.op, [register('vreg', out.result), register('mask', out.carry)]);
  },
  vbitcast(r) {
    r.x.setResults(r.op, [register('vreg', vbitcast(reg(r, 'input')))]);
  },
  vmula(r) {
    const elem = vregElem(typeOf(r, 'acc'), r);
    r.x.setResults(r.op, [register('vreg', vmula(elem, reg(r, 'acc'), reg(r, 'lhs'), reg(r, 'rhs'), reg(r, 'mask'), r.fail))]);
  },
  vmadd(r) {
    const elem = vregElem(typeOf(r, 'acc'), r);
    r.x.setResults(r.op, [register('vreg', vmadd(elem, reg(r, 'acc'), reg(r, 'lhs'), reg(r, 'rhs'), reg(r, 'mask'), r.fail))]);
  },
  vmulscvt(r) {
    // VmulscvtOp's parser reads PART_EVEN as EVEN; the verifier allows rnd A (ROUND_A) only.
    const part = attrText(r, 'part').replace(/^PART_/, '');
    r.x.setResults(r.op, [register('vreg', vmulscvt(reg(r, 'input'), Number(scalarOf(r, 'scalar', 'f32')), reg(r, 'mask'), part, r.fail))]);
  },
  vmull(r) {
    const { low, high } = vmull(vregElem(typeOf(r, 'lhs'), r), reg(r, 'lhs'), reg(r, 'rhs'), reg(r, 'mask'), r.fail);
    r.x.setResults(r.op, [register('vreg', low), register('vreg', high)]);
  },
  vaxpy(r) {
    const elem = vregElem(typeOf(r, 'src0'), r);
    const alpha = Number(scalarOf(r, 'alpha', elem));
    r.x.setResults(r.op, [register('vreg', vaxpy(elem, reg(r, 'src0'), reg(r, 'src1'), alpha, reg(r, 'mask'), r.fail))]);
  },
  vexpdif(r) {
    const elem = vregElem(typeOf(r, 'input'), r);
    r.x.setResults(r.op, [register('vreg', vexpdif(elem, reg(r, 'input'), reg(r, 'max'), reg(r, 'mask'), attrText(r, 'part'), r.fail))]);
  },
  plt(r) {
    const g = granularity(r.op.resultTypes[0]);
    const { mask, remaining } = plt(g, intOf(r, 'scalar'));
    r.x.setResults(r.op, [register('mask', mask), BigInt(remaining)]);
  },
  pltm(r) {
    r.x.setResults(r.op, [register('mask', pltm(granularity(r.op.resultTypes[0]), intOf(r, 'loop'), intOf(r, 'bound')))]);
  },
  pintlv(r) {
    const { low, high } = pintlv(granularity(typeOf(r, 'lhs')), reg(r, 'lhs'), reg(r, 'rhs'));
    r.x.setResults(r.op, [register('mask', low), register('mask', high)]);
  },
  pdintlv(r) {
    const { low, high } = pdintlv(granularity(typeOf(r, 'lhs')), reg(r, 'lhs'), reg(r, 'rhs'));
    r.x.setResults(r.op, [register('mask', low), register('mask', high)]);
  },
  ppack(r) {
    r.x.setResults(r.op, [register('mask', ppack(reg(r, 'input'), attrText(r, 'part') as 'LOWER' | 'HIGHER'))]);
  },
  punpack(r) {
    r.x.setResults(r.op, [register('mask', punpack(reg(r, 'input'), attrText(r, 'part') as 'LOWER' | 'HIGHER'))]);
  },
  pbitcast(r) {
    r.x.setResults(r.op, [register('mask', reg(r, 'input').slice())]);
  },
  pset(r) {
    const a = r.b.attrs.pattern;
    const name = a?.kind === 'string' ? a.value : r.fail('pattern is not a string');
    r.x.setResults(r.op, [register('mask', pattern(granularity(r.op.resultTypes[0]), name, r.fail))]);
  },
  vlds(r) {
    const d = dist(r) ?? 'NORM';
    const at = access(r, 'source', elementAdvance(r, 'source'), r.op.resultTypes.length > 1);
    const window = r.x.memory.bytesAt(at.buffer, at.address, loadFootprint(d, r.fail), r.op.def.name, r.op.node.span);
    r.x.setResults(r.op, [register('vreg', vlds(d, window, r.fail)), ...(at.updated ? [at.updated] : [])]);
  },
  vsts(r) {
    const elem = vregElem(typeOf(r, 'value'), r);
    // The default distribution stores each lane whole (NORM_B<element width>).
    const d = dist(r) ?? `NORM_B${elemSize(elem) * 8}`;
    const image = vsts(d, reg(r, 'value'), reg(r, 'mask') as Mask, r.fail);
    const at = access(r, 'destination', elementAdvance(r, 'destination'), r.op.resultTypes.length > 0);
    const ub = r.x.memory.bytesAt(at.buffer, at.address, VREG_BYTES, r.op.def.name, r.op.node.span);
    for (let i = 0; i < VREG_BYTES; i++) if (image.written[i]) ub[i] = image.bytes[i];
    if (at.updated) r.x.setResults(r.op, [at.updated]);
  },
  vldsx2(r) {
    const d = attrText(r, 'dist');
    const at = access(r, 'source', elementAdvance(r, 'source'), r.op.resultTypes.length > 2);
    const window = r.x.memory.bytesAt(at.buffer, at.address, loadFootprint(d, r.fail), r.op.def.name, r.op.node.span);
    const { low, high } = vldsx2(d, window, r.fail);
    r.x.setResults(r.op, [register('vreg', low), register('vreg', high), ...(at.updated ? [at.updated] : [])]);
  },
  // The VM runs a core's loads and stores one at a time in program order, so every access is already ordered as a
  // barrier would order it (pto.mem_bar).
  ordering() {},
  vsldb(r) {
    const { buffer, addresses, updated } = blocks(r, 'source', r.op.resultTypes.length > 1);
    const v = new Uint8Array(VREG_BYTES);
    addresses.forEach((a, k) => a !== undefined && v.set(r.x.memory.bytesAt(buffer, a, 32, r.op.def.name, r.op.node.span), k * 32));
    r.x.setResults(r.op, [register('vreg', v), ...(updated ? [updated] : [])]);
  },
  vsstb(r) {
    const { buffer, addresses, updated } = blocks(r, 'destination', r.op.resultTypes.length > 0);
    const v = reg(r, 'value');
    addresses.forEach((a, k) => a !== undefined && r.x.memory.bytesAt(buffer, a, 32, r.op.def.name, r.op.node.span).set(v.subarray(k * 32, k * 32 + 32)));
    if (updated) r.x.setResults(r.op, [updated]);
  },
  'predicate-load'(r) {
    const d = attrText(r, 'dist');
    const at = access(r, 'source', predicateAdvance(r, d), r.op.resultTypes.length > 1);
    const bytes = PREDICATE_LOAD_BYTES[d] ?? r.fail(`predicate load dist ${d} is not defined`);
    const image = r.x.memory.bytesAt(at.buffer, at.address, bytes, r.op.def.name, r.op.node.span);
    r.x.setResults(r.op, [register('mask', predicateLoad(d, image, r.fail)), ...(at.updated ? [at.updated] : [])]);
  },
  'predicate-store'(r) {
    const d = attrText(r, 'dist');
    const at = access(r, 'destination', predicateAdvance(r, d), r.op.resultTypes.length > 0);
    const bytes = predicateStore(d, reg(r, 'value'), r.fail);
    r.x.memory.bytesAt(at.buffer, at.address, bytes.length, r.op.def.name, r.op.node.span).set(bytes);
    if (at.updated) r.x.setResults(r.op, [at.updated]);
  },
  vstsx2(r) {
    // The mask does not select lanes (vstsx2 in load-store.ts); it is checked against the lanes' width only.
    const bytes = vstsx2(attrText(r, 'dist'), reg(r, 'low'), reg(r, 'high'), r.fail);
    const { buffer, address } = localAddress(r, 'destination', r.x.index(r.op, r.b.operands.offset[0]));
    r.x.memory.bytesAt(buffer, address, bytes.length, r.op.def.name, r.op.node.span).set(bytes);
  },
};
