import { BoundOp } from '../../ir/bound';
import { Execution, Executor } from '../../ir/definition';
import { GlobalBuffer } from '../../machine/memory';
import { LocalPointer, Register, Value } from '../../machine/value';
import { ElemType, Type, elemSize, isFloat } from '../../types/type';
import { MicroBinding } from '../format';
import { Fail, Granularity } from '../semantics/core';

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

/** A semantics runs at once, or (a SIMT barrier or collective) as a generator that waits for the other threads. */
export type MicroSemantics = (r: MicroRun) => void | Execution;

export const reg = (r: MicroRun, name: string): Uint8Array => {
  const v = r.x.operand(r.op, r.b.operands[name][0]) as Register;
  return v.bytes;
};
export const typeOf = (r: MicroRun, name: string): Type | undefined => r.op.operandTypes[r.b.operands[name][0]];
export const vregElem = (t: Type | undefined, r: MicroRun): ElemType => (t?.kind === 'vreg' ? t.elem : r.fail('a vector register operand has no element type'));
export const granularity = (t: Type | undefined): Granularity => (t?.kind === 'mask' ? t.granularity : 'b8');
export const register = (kind: Register['kind'], bytes: Uint8Array): Register => ({ kind, bytes });
export const intOf = (r: MicroRun, name: string, k = 0): number => Number(r.x.int(r.op, r.b.operands[name][k]));
/**
 * A scalar operand as the lanes of `elem` hold values: a bigint for 64-bit integers, else a number (an i16 shift
 * count of vshls arrives as a bigint and shifts i32 lanes, which are numbers).
 */
export const scalarOf = (r: MicroRun, name: string, elem: ElemType): number | bigint => {
  const s = r.x.operand(r.op, r.b.operands[name][0]);
  if (typeof s !== 'bigint' && typeof s !== 'number') return r.fail(`the operand '${name}' is not a number`);
  return !isFloat(elem) && elemSize(elem) === 8 ? BigInt(s) : Number(s);
};
/** A string attribute of the format's items (`cmp_mode`), which the verifier checked. */
export const attrText = (r: MicroRun, name: string): string => {
  const a = r.b.attrs[name];
  return a?.kind === 'string' ? a.value : r.fail(`'${name}' is not a string`);
};
/** A string attribute of the attribute dictionary (`{dist = "..."}`), undefined when absent. */
export const dictText = (r: MicroRun, name: string): string | undefined => {
  const a = r.op.node.attrs.find((e) => e.key === name)?.value;
  return a?.kind === 'string' ? a.value : undefined;
};
export const dist = (r: MicroRun): string | undefined => dictText(r, 'dist');
export const resultElem = (r: MicroRun, k = 0): ElemType => vregElem(r.op.resultTypes[k], r);

/** A UB pointer operand's buffer and byte address plus `offset` elements of the pointer's type. */
export function localAddress(r: MicroRun, ptr: string, offsetElems: number): { buffer: string; address: number } {
  const p = r.x.operand(r.op, r.b.operands[ptr][0]) as LocalPointer;
  const t = typeOf(r, ptr);
  if (p?.kind !== 'local_pointer' || t?.kind !== 'ptr') return r.fail(`'${ptr}' is not a pointer into an on-chip buffer`);
  return { buffer: p.buffer, address: p.address + offsetElems * elemSize(t.elem) };
}

/** A GM pointer operand: its buffer and the byte its element offset is at. */
export function globalAddress(r: MicroRun, ptr: string): { buffer: GlobalBuffer; byte: number } {
  const v = r.x.operand(r.op, r.b.operands[ptr][0]) as Value;
  if (v instanceof GlobalBuffer) return { buffer: v, byte: 0 };
  if (typeof v === 'object' && v !== null && 'kind' in v && v.kind === 'pointer') return { buffer: v.buffer, byte: v.offset * v.buffer.codec.size };
  return r.fail(`'${ptr}' is not a pointer into global memory`);
}
