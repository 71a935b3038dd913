import { BoundOp } from '../ir/bound';
import { Executor } from '../ir/definition';
import { GlobalBuffer } from '../machine/memory';
import { vmTrap } from '../machine/trap';
import { LocalPointer, Register, Value } from '../machine/value';
import { ElemType, Type, elemSize, isFloat } from '../types/type';
import { MicroBinding } from './format';
import {
  Fail,
  Granularity,
  Mask,
  VREG_BYTES,
  binary,
  elemBytes,
  loadFootprint,
  pand,
  pattern,
  plt,
  pnot,
  por,
  psel,
  pxor,
  unary,
  vbr,
  vcadd,
  vcgroup,
  vci,
  vcmaxmin,
  vcmp,
  vcmps,
  vcpadd,
  vdintlv,
  vdupLane,
  vdupScalar,
  vecScalar,
  vintlv,
  vldsx2,
  vlds,
  vlrelu,
  vpack,
  vprelu,
  vsel,
  vselr,
  vsqz,
  vsts,
  vstsx2,
  vtrc,
  vunpack,
  vusqz,
} from './semantics';

/**
 * How each semantics of spec/micro/ runs: it reads the bound operands by name, moves bytes between the registers
 * and the memory model (UB through OnChipMemory.bytesAt, bounds checked; GM through GlobalBuffer's element methods,
 * which the race checker observes), and leaves the lanes to the pure functions of ./semantics.
 */
export interface MicroRun {
  x: Executor;
  op: BoundOp;
  b: MicroBinding;
  /** The op's name without its dialect (`vadd`), as the lane semantics name ops. */
  mnemonic: string;
  fail: Fail;
}

export type MicroSemantics = (r: MicroRun) => void;

const reg = (r: MicroRun, name: string): Uint8Array => {
  const v = r.x.operand(r.op, r.b.operands[name][0]) as Register;
  return v.bytes;
};
const typeOf = (r: MicroRun, name: string): Type | undefined => r.op.operandTypes[r.b.operands[name][0]];
const vregElem = (t: Type | undefined, r: MicroRun): ElemType => (t?.kind === 'vreg' ? t.elem : r.fail('a vector register operand has no element type'));
const granularity = (t: Type | undefined): Granularity => (t?.kind === 'mask' ? t.granularity : 'b8');
const register = (kind: Register['kind'], bytes: Uint8Array): Register => ({ kind, bytes });
const intOf = (r: MicroRun, name: string, k = 0): number => Number(r.x.int(r.op, r.b.operands[name][k]));
/**
 * A scalar operand as the lanes of `elem` hold values: a bigint for 64-bit integers, else a number (an i16 shift
 * count of vshls arrives as a bigint and shifts i32 lanes, which are numbers).
 */
const scalarOf = (r: MicroRun, name: string, elem: ElemType): number | bigint => {
  const s = r.x.operand(r.op, r.b.operands[name][0]);
  if (typeof s !== 'bigint' && typeof s !== 'number') return r.fail(`the operand '${name}' is not a number`);
  return !isFloat(elem) && elemSize(elem) === 8 ? BigInt(s) : Number(s);
};
/** A string attribute of the format's items (`cmp_mode`), which the verifier checked. */
const attrText = (r: MicroRun, name: string): string => {
  const a = r.b.attrs[name];
  return a?.kind === 'string' ? a.value : r.fail(`'${name}' is not a string`);
};
/** A string attribute of the attribute dictionary (`{dist = "..."}`), undefined when absent. */
const dictText = (r: MicroRun, name: string): string | undefined => {
  const a = r.op.node.attrs.find((e) => e.key === name)?.value;
  return a?.kind === 'string' ? a.value : undefined;
};
const dist = (r: MicroRun): string | undefined => dictText(r, 'dist');
const resultElem = (r: MicroRun, k = 0): ElemType => vregElem(r.op.resultTypes[k], r);

/** A UB pointer operand's buffer and byte address plus `offset` elements of the pointer's type. */
function localAddress(r: MicroRun, ptr: string, offsetElems: number): { buffer: string; address: number } {
  const p = r.x.operand(r.op, r.b.operands[ptr][0]) as LocalPointer;
  const t = typeOf(r, ptr);
  if (p?.kind !== 'local_pointer' || t?.kind !== 'ptr') return r.fail(`'${ptr}' is not a pointer into an on-chip buffer`);
  return { buffer: p.buffer, address: p.address + offsetElems * elemSize(t.elem) };
}

/** A GM pointer operand: its buffer and the byte its element offset is at. */
function globalAddress(r: MicroRun, ptr: string): { buffer: GlobalBuffer; byte: number } {
  const v = r.x.operand(r.op, r.b.operands[ptr][0]) as Value;
  if (v instanceof GlobalBuffer) return { buffer: v, byte: 0 };
  if (typeof v === 'object' && v !== null && 'kind' in v && v.kind === 'pointer') return { buffer: v.buffer, byte: v.offset * v.buffer.codec.size };
  return r.fail(`'${ptr}' is not a pointer into global memory`);
}

/**
 * The bursts of a DMA between GM and UB (docs/isa/micro-isa/02-dma-copy.md): `n_burst` bursts of `len_burst` bytes,
 * burst i from source byte i * src_stride to destination byte i * dst_stride. Loop groups (outer repetitions) and
 * padding are not implemented yet.
 */
function bursts(r: MicroRun): { n: number; len: number; srcStride: number; dstStride: number } {
  if ((r.b.operands.loop_counts ?? []).length > 0) r.fail('DMA loop groups are not implemented yet');
  if ((r.b.operands.pad_value ?? []).length > 0) r.fail('DMA padding is not implemented yet');
  return { n: intOf(r, 'n_burst'), len: intOf(r, 'len_burst'), srcStride: intOf(r, 'nburst_src_stride'), dstStride: intOf(r, 'nburst_dst_stride') };
}

/** GM <-> UB by whole elements of the global buffer (a burst that splits an element traps). */
function transfer(r: MicroRun, toLocal: boolean): void {
  const gm = globalAddress(r, toLocal ? 'source' : 'destination');
  const { buffer, address } = localAddress(r, toLocal ? 'destination' : 'source', 0);
  const { n, len, srcStride, dstStride } = bursts(r);
  const size = gm.buffer.codec.size;
  const [gmStride, ubStride] = toLocal ? [srcStride, dstStride] : [dstStride, srcStride];
  for (let i = 0; i < n; i++) {
    const gmByte = gm.byte + i * gmStride;
    if (gmByte % size !== 0 || len % size !== 0) r.fail(`a burst of ${len} bytes at GM byte ${gmByte} splits ${gm.buffer.elem} elements`);
    const first = gmByte / size;
    if (first < 0 || first + len / size > gm.buffer.length)
      r.fail(`elements ${first}..${first + len / size} of %${gm.buffer.name} are out of bounds (the buffer has ${gm.buffer.length})`);
    const ub = r.x.memory.bytesAt(buffer, address + i * ubStride, len, r.op.def.name, r.op.node.span);
    for (let e = 0; e < len / size; e++) {
      if (toLocal) gm.buffer.copyElementTo(first + e, ub, e * size);
      else gm.buffer.copyElementFrom(first + e, ub, e * size);
    }
  }
}

export const MICRO_SEMANTICS: Record<string, MicroSemantics> = {
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
    r.x.setResults(r.op, [register('vreg', vsqz(elemBytes(vregElem(typeOf(r, 'input'), r)), reg(r, 'input'), reg(r, 'mask')))]);
  },
  vusqz(r) {
    r.x.setResults(r.op, [register('vreg', vusqz(vregElem(typeOf(r, 'src'), r), reg(r, 'mask'), r.fail))]);
  },
  vtrc(r) {
    // PTOAS's parser reads ROUND_Z as Z (normalizeRoundModeToken).
    const mode = attrText(r, 'round_mode').replace(/^ROUND_/, '');
    r.x.setResults(r.op, [register('vreg', vtrc(vregElem(typeOf(r, 'input'), r), reg(r, 'input'), reg(r, 'mask'), mode, r.fail))]);
  },
  plt(r) {
    const g = granularity(r.op.resultTypes[0]);
    const { mask, remaining } = plt(g, intOf(r, 'scalar'));
    r.x.setResults(r.op, [register('mask', mask), BigInt(remaining)]);
  },
  pset(r) {
    const a = r.b.attrs.pattern;
    const name = a?.kind === 'string' ? a.value : r.fail('pattern is not a string');
    r.x.setResults(r.op, [register('mask', pattern(granularity(r.op.resultTypes[0]), name, r.fail))]);
  },
  vlds(r) {
    const elem = vregElem(r.op.resultTypes[0], r);
    if (r.op.resultTypes.length > 1) r.fail('the updated base of a post-incrementing load is not implemented yet');
    const d = dist(r) ?? 'NORM';
    const { buffer, address } = localAddress(r, 'source', r.x.index(r.op, r.b.operands.offset[0]));
    void elem;
    const window = r.x.memory.bytesAt(buffer, address, loadFootprint(d, r.fail), r.op.def.name, r.op.node.span);
    r.x.setResults(r.op, [register('vreg', vlds(d, window, r.fail))]);
  },
  vsts(r) {
    const elem = vregElem(typeOf(r, 'value'), r);
    if (r.op.resultTypes.length > 0) r.fail('the updated base of a post-incrementing store is not implemented yet');
    // The default distribution stores each lane whole (NORM_B<element width>).
    const d = dist(r) ?? `NORM_B${elemSize(elem) * 8}`;
    const image = vsts(d, reg(r, 'value'), reg(r, 'mask') as Mask, r.fail);
    const { buffer, address } = localAddress(r, 'destination', r.x.index(r.op, r.b.operands.offset[0]));
    const ub = r.x.memory.bytesAt(buffer, address, VREG_BYTES, r.op.def.name, r.op.node.span);
    for (let i = 0; i < VREG_BYTES; i++) if (image.written[i]) ub[i] = image.bytes[i];
  },
  vldsx2(r) {
    if (r.op.resultTypes.length > 2) r.fail('the updated base of a post-incrementing load is not implemented yet');
    const d = attrText(r, 'dist');
    const { buffer, address } = localAddress(r, 'source', r.x.index(r.op, r.b.operands.offset[0]));
    const window = r.x.memory.bytesAt(buffer, address, loadFootprint(d, r.fail), r.op.def.name, r.op.node.span);
    const { low, high } = vldsx2(d, window, r.fail);
    r.x.setResults(r.op, [register('vreg', low), register('vreg', high)]);
  },
  vstsx2(r) {
    // The mask does not select lanes (vstsx2 in load-store.ts); it is checked against the lanes' width only.
    const bytes = vstsx2(attrText(r, 'dist'), reg(r, 'low'), reg(r, 'high'), r.fail);
    const { buffer, address } = localAddress(r, 'destination', r.x.index(r.op, r.b.operands.offset[0]));
    r.x.memory.bytesAt(buffer, address, bytes.length, r.op.def.name, r.op.node.span).set(bytes);
  },
  'dma-gm-ub'(r) {
    transfer(r, true);
  },
  'dma-ub-gm'(r) {
    transfer(r, false);
  },
};

/** The trap of a micro-level op at run time. */
export function microFail(op: BoundOp): Fail {
  return (message: string) => {
    throw vmTrap(`${op.def.name}: ${message}`, op.node.span);
  };
}
