/**
 * The values of the host-harness interpreter (run.ts): C scalars with their types, pointers into host or device
 * memory (or to a variable), strings, structs, arrays and functions; C's conversions and arithmetic on them, and
 * their bytes in memory.
 */
import { codec } from '../../numerics/elements';
import { ElemType } from '../../types/type';
import { CType, FunctionDef, HostProgram } from './parse';

/** A problem running the harness (not a syntax error): what a board's host would have done is unknown. */
export class HostError extends Error {}

export interface Region {
  bytes: Uint8Array;
  device: boolean;
}
export interface Cell {
  type: CType;
  value: Val;
}
export type Val =
  | { t: 'int'; type: string; v: bigint }
  | { t: 'float'; type: string; v: number }
  | { t: 'ptr'; region?: Region; cell?: Cell; off: number; elem: CType }
  | { t: 'str'; v: string }
  | { t: 'struct'; name: string; fields: Map<string, Cell> }
  | { t: 'array'; items: Cell[] }
  | { t: 'fn'; name?: string; def?: FunctionDef }
  | { t: 'file'; data?: Uint8Array; pos: number }
  | { t: 'void' };

export const INT_BITS: Record<string, number> = { bool: 1, i8: 8, u8: 8, i16: 16, u16: 16, i32: 32, u32: 32, i64: 64, u64: 64 };
export const FLOATS = new Set(['f16', 'bf16', 'f32', 'f64']);
export const int = (type: string, v: bigint): Val => ({ t: 'int', type, v: wrap(type, v) });
export const i32 = (v: number | bigint): Val => int('i32', BigInt(v));
export const VOID: Val = { t: 'void' };

export function wrap(type: string, v: bigint): bigint {
  if (type === 'bool') return v !== 0n ? 1n : 0n;
  const bits = INT_BITS[type] ?? 64;
  return type.startsWith('u') ? BigInt.asUintN(bits, v) : BigInt.asIntN(bits, v);
}

export function sizeOf(type: CType, program?: HostProgram): number {
  if (type.ptr > 0 || type.base === 'fn') return 8;
  if (type.base in INT_BITS) return type.base === 'bool' ? 1 : INT_BITS[type.base] / 8;
  if (FLOATS.has(type.base)) return type.base === 'f64' ? 8 : type.base === 'f32' ? 4 : 2;
  const fields = program?.structs.get(type.base);
  if (fields) return fields.reduce((n, f) => n + sizeOf(f.type, program), 0);
  return 1; // void, char arithmetic
}

/** `&x` in `aclrtMalloc(&x, ...)` is the variable x; the argument is given as `&x` or `(void **)&x`. */
export function asPtr(v: Val): Val & { t: 'ptr' } {
  if (v.t !== 'ptr') throw new HostError(`expected a pointer, got a ${v.t}`);
  return v;
}

export function asInt(v: Val): bigint {
  if (v.t === 'int') return v.v;
  if (v.t === 'float') return BigInt(Math.trunc(v.v));
  throw new HostError(`expected a number, got a ${v.t}`);
}

export function num(v: Val): number {
  if (v.t === 'int') return Number(v.v);
  if (v.t === 'float') return v.v;
  throw new HostError(`expected a number, got a ${v.t}`);
}

export function str(v: Val): string {
  if (v.t === 'str') return v.v;
  if (v.t === 'int') return v.v.toString();
  if (v.t === 'float') return String(v.v);
  if (v.t === 'ptr' && !v.region && !v.cell) return '(null)';
  // A char array (`char path[16]` that snprintf wrote): its characters up to the first NUL.
  if (v.t === 'array' && v.items.every((c) => c.value.t === 'int')) {
    const codes = v.items.map((c) => Number((c.value as { v: bigint }).v) & 0xff);
    const end = codes.indexOf(0);
    return String.fromCharCode(...(end < 0 ? codes : codes.slice(0, end)));
  }
  throw new HostError(`expected a string, got a ${v.t}`);
}

export function truthy(v: Val): boolean {
  if (v.t === 'int') return v.v !== 0n;
  if (v.t === 'float') return v.v !== 0;
  if (v.t === 'ptr') return v.region !== undefined || v.cell !== undefined;
  if (v.t === 'file') return v.data !== undefined;
  return v.t !== 'void';
}

export function typeOfVal(v: Val): CType {
  if (v.t === 'int' || v.t === 'float') return { base: v.type, ptr: 0 };
  if (v.t === 'ptr') return { ...v.elem, ptr: v.elem.ptr + 1 };
  if (v.t === 'str') return { base: 'string', ptr: 0 };
  if (v.t === 'struct') return { base: v.name, ptr: 0 };
  if (v.t === 'fn') return { base: 'fn', ptr: 0 };
  return { base: 'void', ptr: 0 };
}

export function promote(type: string): string {
  return (INT_BITS[type] ?? 32) < 32 ? 'i32' : type;
}

/** C's usual arithmetic conversions of two integer types. */
export function common(a: string, b: string): string {
  const [x, y] = [promote(a), promote(b)];
  if (x === y) return x;
  const [bx, by] = [INT_BITS[x], INT_BITS[y]];
  const [ux, uy] = [x.startsWith('u'), y.startsWith('u')];
  if (ux === uy) return bx >= by ? x : y;
  const [u, s] = ux ? [x, y] : [y, x];
  return INT_BITS[u] >= INT_BITS[s] ? u : s;
}

export function compare(op: string, x: bigint | number, y: bigint | number): boolean | undefined {
  switch (op) {
    case '<':
      return x < y;
    case '>':
      return x > y;
    case '<=':
      return x <= y;
    case '>=':
      return x >= y;
    case '==':
      return x === y;
    case '!=':
      return x !== y;
  }
  return undefined;
}

export function floatOp(op: string, x: number, y: number): number | boolean | undefined {
  switch (op) {
    case '+':
      return x + y;
    case '-':
      return x - y;
    case '*':
      return x * y;
    case '/':
      return x / y;
  }
  return compare(op, x, y);
}

export function parseNumber(text: string): Val {
  // A hex literal's F is a digit, never the float suffix (0x7BEF is 31727).
  const isHex = /^0x/i.test(text);
  const suffix = (isHex ? /[uUlL]*$/ : /[uUlLfF]*$/).exec(text)![0].toLowerCase();
  const body = text.slice(0, text.length - suffix.length);
  if (!isHex && (/[.eE]/.test(body) || suffix.includes('f'))) return { t: 'float', type: suffix.includes('f') ? 'f32' : 'f64', v: Number(body) };
  const v = BigInt(isHex ? body : body.replace(/^0(?=\d)/, '0o'));
  const unsigned = suffix.includes('u');
  const long = suffix.includes('l');
  // A literal's type: the first of int, unsigned (hex only), long, unsigned long that holds it.
  const type =
    !long && v <= 0x7fffffffn && !unsigned
      ? 'i32'
      : !long && v <= 0xffffffffn && (unsigned || isHex)
        ? 'u32'
        : unsigned || v > 0x7fffffffffffffffn
          ? 'u64'
          : 'i64';
  return int(type, v);
}

export function encode(v: Val, type: CType): Uint8Array {
  const size = sizeOf(type);
  const bytes = new Uint8Array(size);
  if (type.ptr > 0 || !(type.base in INT_BITS || FLOATS.has(type.base))) return bytes;
  const view = new DataView(bytes.buffer);
  if (type.base === 'bool') bytes[0] = truthy(v) ? 1 : 0;
  else if (FLOATS.has(type.base)) codec(type.base as ElemType).write(view, 0, num(v));
  else {
    const big = v.t === 'int' ? v.v : BigInt(Math.trunc(num(v)));
    codec(type.base as ElemType).write(view, 0, INT_BITS[type.base] === 64 ? big : Number(wrap(type.base, big)));
  }
  return bytes;
}

export function decode(bytes: Uint8Array, type: CType): Val {
  if (type.ptr > 0) throw new HostError('the host reads a pointer from memory');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (type.base === 'bool') return int('bool', bytes[0] ? 1n : 0n);
  if (FLOATS.has(type.base)) return { t: 'float', type: type.base, v: codec(type.base as ElemType).read(view, 0) as number };
  if (type.base in INT_BITS) return int(type.base, BigInt(codec(type.base as ElemType).read(view, 0)));
  throw new HostError(`the host reads a ${type.base} from memory`);
}

/** printf's conversions, enough for the harness's messages. */
export function printf(format: string, args: Val[]): string {
  let k = 0;
  return format.replace(/%[-+ #0]*\d*(?:\.\d+)?(?:hh|h|ll|l|z|j|t)?([diuxXfFeEgGsc%])/g, (_, c: string) => {
    if (c === '%') return '%';
    const v = args[k++];
    return v === undefined ? '' : str(v);
  });
}
