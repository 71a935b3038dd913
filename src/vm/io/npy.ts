import { ElemType, STORED_FORMATS, isStoredFormat } from '../../types/type';
/**
 * NumPy .npy reader/writer.
 *
 * File layout (https://numpy.org/doc/stable/reference/generated/numpy.lib.format.html):
 *   "\x93NUMPY" | major u8 | minor u8 | header_len (u16 LE for 1.0, u32 LE for 2.0/3.0)
 *   | header: a Python dict literal {'descr': ..., 'fortran_order': ..., 'shape': (...), }
 *     padded with spaces and terminated by '\n' so the data starts 64-byte aligned
 *   | raw element data.
 * Header text is latin-1 in 1.0/2.0 and UTF-8 in 3.0.
 *
 * Reading accepts versions 1.0, 2.0 and 3.0, byte-swaps big-endian data to
 * little-endian and converts Fortran-order data to C order, so callers always
 * get little-endian, C-order bytes.
 *
 * bf16 is not a NumPy dtype. It is written as '<u2' (raw bit patterns), so
 * NumPy can load the file and a reader that knows the tensor is bf16 can
 * reinterpret it. On reading, '<u2' is reported as 'u16' (the caller decides
 * whether it is bf16); the spellings ml_dtypes may produce, 'bfloat16' and a
 * 2-byte void ('<V2' / '|V2'), are reported as 'bf16'.
 */

export type NpyDtype = 'f16' | 'bf16' | 'f32' | 'f64' | 'i8' | 'u8' | 'i16' | 'u16' | 'i32' | 'u32' | 'i64' | 'u64' | 'bool';

export interface NpyArray {
  dtype: NpyDtype;
  /** The descr string exactly as written in the file (data below is already little-endian, C order). */
  descr: string;
  shape: number[];
  /** Whether the file stored the data in Fortran order; `data` has been converted to C order either way. */
  fortranOrder: boolean;
  /** Raw little-endian element bytes, C order. A fresh copy, starting at offset 0. */
  data: Uint8Array;
}

export class NpyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NpyError';
  }
}

const MAGIC = [0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59]; // "\x93NUMPY"
const MAGIC_AND_VERSION_LENGTH = 8;
const ARRAY_ALIGN = 64;
/** NumPy leaves room for the growth axis to reach this many digits (see numpy.lib.format). */
const GROWTH_AXIS_MAX_DIGITS = 21;

const DESCR_BY_DTYPE: Record<NpyDtype, string> = {
  f16: '<f2',
  bf16: '<u2',
  f32: '<f4',
  f64: '<f8',
  i8: '|i1',
  u8: '|u1',
  i16: '<i2',
  u16: '<u2',
  i32: '<i4',
  u32: '<u4',
  i64: '<i8',
  u64: '<u8',
  bool: '|b1',
};

const ITEM_SIZE_BY_DTYPE: Record<NpyDtype, number> = {
  f16: 2,
  bf16: 2,
  f32: 4,
  f64: 8,
  i8: 1,
  u8: 1,
  i16: 2,
  u16: 2,
  i32: 4,
  u32: 4,
  i64: 8,
  u64: 8,
  bool: 1,
};

/** NumPy type code (kind + item size, byte order stripped) -> dtype. */
const DTYPE_BY_TYPE_CODE: Record<string, NpyDtype> = {
  f2: 'f16',
  f4: 'f32',
  f8: 'f64',
  i1: 'i8',
  u1: 'u8',
  i2: 'i16',
  u2: 'u16',
  i4: 'i32',
  u4: 'u32',
  i8: 'i64',
  u8: 'u64',
  b1: 'bool',
  V2: 'bf16', // ml_dtypes.bfloat16 saved by np.save
};

/** The descr writeNpy uses for a dtype (bf16 -> '<u2'). */
export function npyDescr(dtype: NpyDtype): string {
  return DESCR_BY_DTYPE[dtype];
}

/** Bytes per element. */
export function dtypeItemSize(dtype: NpyDtype): number {
  return ITEM_SIZE_BY_DTYPE[dtype];
}

// ---------------------------------------------------------------------------
// Reading

export function parseNpy(bytes: Uint8Array): NpyArray {
  if (bytes.length < MAGIC_AND_VERSION_LENGTH || MAGIC.some((b, i) => bytes[i] !== b)) {
    throw new NpyError('not a .npy file: missing the "\\x93NUMPY" magic string');
  }
  const major = bytes[6];
  const minor = bytes[7];
  if ((major !== 1 && major !== 2 && major !== 3) || minor !== 0) {
    throw new NpyError(`unsupported .npy format version ${major}.${minor} (supported: 1.0, 2.0, 3.0)`);
  }
  const lengthFieldSize = major === 1 ? 2 : 4;
  const headerStart = MAGIC_AND_VERSION_LENGTH + lengthFieldSize;
  if (bytes.length < headerStart) {
    throw new NpyError(`truncated .npy file: ${bytes.length} bytes, too short for the header length field`);
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headerLength = major === 1 ? view.getUint16(8, true) : view.getUint32(8, true);
  const dataStart = headerStart + headerLength;
  if (bytes.length < dataStart) {
    throw new NpyError(`truncated .npy file: header claims ${headerLength} bytes but only ${bytes.length - headerStart} follow`);
  }
  const headerBytes = bytes.subarray(headerStart, dataStart);
  const headerText = major === 3 ? decodeUtf8(headerBytes) : decodeLatin1(headerBytes);

  const header = parseHeader(headerText);
  const { dtype, bigEndian } = dtypeFromDescr(header.descr);
  const itemSize = dtypeItemSize(dtype);

  const elementCount = header.shape.reduce((n, d) => n * d, 1);
  const expectedDataLength = elementCount * itemSize;
  const actualDataLength = bytes.length - dataStart;
  if (actualDataLength !== expectedDataLength) {
    throw new NpyError(
      `data length mismatch: shape (${header.shape.join(', ')}) of ${header.descr} needs ` + `${expectedDataLength} bytes but the file has ${actualDataLength}`,
    );
  }

  let data: Uint8Array = bytes.slice(dataStart); // copy: aligned, and independent of the caller's buffer
  if (bigEndian) swapByteOrderInPlace(data, itemSize);
  if (header.fortranOrder && header.shape.length > 1) {
    data = fortranToCOrder(data, header.shape, itemSize);
  }
  return { dtype, descr: header.descr, shape: header.shape, fortranOrder: header.fortranOrder, data };
}

interface NpyHeader {
  descr: string;
  fortranOrder: boolean;
  shape: number[];
}

/** Latin-1: each byte is its own code point. (TextDecoder('latin1') is really windows-1252.) */
function decodeLatin1(bytes: Uint8Array): string {
  let text = '';
  for (let i = 0; i < bytes.length; i += 8192) {
    text += String.fromCharCode(...bytes.subarray(i, i + 8192));
  }
  return text;
}

function decodeUtf8(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new NpyError('malformed .npy header: version 3.0 header is not valid UTF-8');
  }
}

function parseHeader(text: string): NpyHeader {
  let dict: PyValue;
  try {
    dict = new PyLiteralParser(text).parseWhole();
  } catch (e) {
    throw new NpyError(`malformed .npy header ${JSON.stringify(text.trimEnd())}: ${(e as Error).message}`);
  }
  if (!(dict instanceof Map)) {
    throw new NpyError(`malformed .npy header: expected a dict, got ${JSON.stringify(text.trimEnd())}`);
  }
  const keys = [...dict.keys()].sort();
  if (keys.join(',') !== 'descr,fortran_order,shape') {
    throw new NpyError(`malformed .npy header: keys must be exactly 'descr', 'fortran_order', 'shape'; got ${keys.map((k) => `'${k}'`).join(', ') || 'none'}`);
  }
  const descr = dict.get('descr');
  const fortranOrder = dict.get('fortran_order');
  const shape = dict.get('shape');
  if (typeof descr !== 'string') {
    throw new NpyError(`unsupported dtype: descr must be a simple type string like '<f4', got ${describePy(descr)} (structured dtypes are not supported)`);
  }
  if (typeof fortranOrder !== 'boolean') {
    throw new NpyError(`malformed .npy header: 'fortran_order' must be True or False, got ${describePy(fortranOrder)}`);
  }
  if (!isTupleOfInts(shape)) {
    throw new NpyError(`malformed .npy header: 'shape' must be a tuple of non-negative integers, got ${describePy(shape)}`);
  }
  return { descr, fortranOrder, shape: shape.items.map(Number) };
}

function isTupleOfInts(value: PyValue | undefined): value is PyTuple {
  return value instanceof PyTuple && value.items.every((d) => typeof d === 'bigint' && d >= 0n && d <= BigInt(Number.MAX_SAFE_INTEGER));
}

function dtypeFromDescr(descr: string): { dtype: NpyDtype; bigEndian: boolean } {
  if (descr === 'bfloat16') return { dtype: 'bf16', bigEndian: false };
  const match = /^([<>|=]?)([a-zA-Z]\d+)$/.exec(descr);
  const dtype = match ? DTYPE_BY_TYPE_CODE[match[2]] : undefined;
  if (!match || dtype === undefined) {
    throw new NpyError(`unsupported dtype '${descr}' (supported: f2 f4 f8 i1 u1 i2 u2 i4 u4 i8 u8 b1, plus bfloat16 as 'bfloat16'/'V2')`);
  }
  const byteOrder = match[1];
  const itemSize = dtypeItemSize(dtype);
  if (byteOrder === '=') {
    // '=' means "native to the machine that wrote the file", which we cannot know.
    throw new NpyError(`unsupported dtype '${descr}': native byte order '=' is ambiguous; expected '<', '>' or '|'`);
  }
  if (byteOrder === '|' || byteOrder === '') {
    // '|' (not applicable) is only meaningful for single-byte types and void/raw data.
    if (itemSize !== 1 && dtype !== 'bf16') {
      throw new NpyError(`unsupported dtype '${descr}': a ${itemSize}-byte type needs an explicit byte order '<' or '>'`);
    }
    return { dtype, bigEndian: false };
  }
  // Void (V2) data is opaque to NumPy and never byte-swapped, so neither do we.
  return { dtype, bigEndian: byteOrder === '>' && itemSize > 1 && !match[2].startsWith('V') };
}

function swapByteOrderInPlace(data: Uint8Array, itemSize: number): void {
  for (let start = 0; start < data.length; start += itemSize) {
    for (let i = start, j = start + itemSize - 1; i < j; i++, j--) {
      const t = data[i];
      data[i] = data[j];
      data[j] = t;
    }
  }
}

/** Reorder elements from Fortran (first index fastest) to C (last index fastest) order. */
function fortranToCOrder(data: Uint8Array, shape: number[], itemSize: number): Uint8Array {
  const ndim = shape.length;
  const fortranStrides: number[] = []; // in elements
  let stride = 1;
  for (let axis = 0; axis < ndim; axis++) {
    fortranStrides.push(stride);
    stride *= shape[axis];
  }
  const out = new Uint8Array(data.length);
  const elementCount = data.length / itemSize;
  const index = new Array<number>(ndim).fill(0); // C-order odometer
  let sourceElement = 0;
  for (let target = 0; target < elementCount; target++) {
    out.set(data.subarray(sourceElement * itemSize, (sourceElement + 1) * itemSize), target * itemSize);
    // Advance the odometer (last axis fastest), keeping sourceElement in step.
    for (let axis = ndim - 1; axis >= 0; axis--) {
      index[axis]++;
      sourceElement += fortranStrides[axis];
      if (index[axis] < shape[axis]) break;
      sourceElement -= fortranStrides[axis] * index[axis];
      index[axis] = 0;
    }
  }
  return out;
}

// ---------------------------------------------------------------------------
// Writing

/**
 * Serialise C-order little-endian element bytes as a .npy file, byte-for-byte
 * as NumPy's np.save would (including its spare space for growing the first
 * axis). Uses format 1.0 unless the header is too long for its u16 length field.
 * bf16 is written as '<u2'.
 */
export function writeNpy(dtype: NpyDtype, shape: number[], data: Uint8Array): Uint8Array {
  if (!(dtype in DESCR_BY_DTYPE)) throw new NpyError(`unknown dtype '${String(dtype)}'`);
  for (const d of shape) {
    if (!Number.isSafeInteger(d) || d < 0) {
      throw new NpyError(`invalid shape (${shape.join(', ')}): dimensions must be non-negative integers`);
    }
  }
  const expectedDataLength = shape.reduce((n, d) => n * d, 1) * dtypeItemSize(dtype);
  if (data.length !== expectedDataLength) {
    throw new NpyError(`data length mismatch: shape (${shape.join(', ')}) of ${dtype} needs ${expectedDataLength} bytes, got ${data.length}`);
  }

  const dict = `{'descr': '${npyDescr(dtype)}', 'fortran_order': False, 'shape': ${pythonTupleRepr(shape)}, }`;
  const growthSpace = shape.length > 0 ? ' '.repeat(Math.max(0, GROWTH_AXIS_MAX_DIGITS - String(shape[0]).length)) : '';
  const header = dict + growthSpace;

  // Mirrors numpy.lib.format._wrap_header: padding is 1..64 spaces, then '\n'.
  const wrap = (lengthFieldSize: number) => {
    const unpadded = MAGIC_AND_VERSION_LENGTH + lengthFieldSize + header.length + 1;
    const padding = ARRAY_ALIGN - (unpadded % ARRAY_ALIGN);
    return { headerLength: header.length + padding + 1, padding };
  };
  let version = 1;
  let { headerLength, padding } = wrap(2);
  if (headerLength > 0xffff) {
    version = 2;
    ({ headerLength, padding } = wrap(4));
  }
  const lengthFieldSize = version === 1 ? 2 : 4;
  const headerText = header + ' '.repeat(padding) + '\n';
  const dataStart = MAGIC_AND_VERSION_LENGTH + lengthFieldSize + headerLength;

  const out = new Uint8Array(dataStart + data.length);
  out.set(MAGIC, 0);
  out[6] = version;
  out[7] = 0;
  const view = new DataView(out.buffer);
  if (version === 1) view.setUint16(8, headerLength, true);
  else view.setUint32(8, headerLength, true);
  for (let i = 0; i < headerText.length; i++) out[MAGIC_AND_VERSION_LENGTH + lengthFieldSize + i] = headerText.charCodeAt(i);
  out.set(data, dataStart);
  return out;
}

function pythonTupleRepr(items: number[]): string {
  if (items.length === 1) return `(${items[0]},)`;
  return `(${items.join(', ')})`;
}

// ---------------------------------------------------------------------------
// A small parser for the Python literals that can appear in a .npy header:
// dicts, tuples, lists, strings, integers, True/False/None.

class PyTuple {
  constructor(readonly items: PyValue[]) {}
}
type PyValue = string | bigint | boolean | null | PyTuple | PyValue[] | Map<string, PyValue>;

function describePy(value: PyValue | undefined): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'None';
  if (typeof value === 'string') return `'${value}'`;
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof PyTuple) return `(${value.items.map(describePy).join(', ')}${value.items.length === 1 ? ',' : ''})`;
  if (Array.isArray(value)) return `[${value.map(describePy).join(', ')}]`;
  return `{${[...value].map(([k, v]) => `'${k}': ${describePy(v)}`).join(', ')}}`;
}

/** Sticky, so it matches exactly at lastIndex. The 'L' suffix appears in Python 2 era files. */
const INTEGER_LITERAL = /[-+]?\d+[lL]?/y;

class PyLiteralParser {
  private pos = 0;
  constructor(private readonly text: string) {}

  parseWhole(): PyValue {
    const value = this.parseValue();
    this.skipSpace();
    if (this.pos !== this.text.length) this.fail('unexpected trailing text');
    return value;
  }

  private parseValue(): PyValue {
    this.skipSpace();
    const c = this.text[this.pos];
    if (c === '{') return this.parseDict();
    if (c === '(') return this.parseSequence('(', ')');
    if (c === '[') return this.parseSequence('[', ']');
    if (c === "'" || c === '"') return this.parseString();
    if (c !== undefined && /[-+0-9]/.test(c)) return this.parseInteger();
    for (const [word, value] of [
      ['True', true],
      ['False', false],
      ['None', null],
    ] as const) {
      if (this.text.startsWith(word, this.pos)) {
        this.pos += word.length;
        return value;
      }
    }
    return this.fail(c === undefined ? 'unexpected end of header' : `unexpected character '${c}'`);
  }

  private parseDict(): Map<string, PyValue> {
    const dict = new Map<string, PyValue>();
    this.expect('{');
    while (!this.tryConsume('}')) {
      this.skipSpace();
      const key = this.parseValue();
      if (typeof key !== 'string') this.fail('dict keys must be strings');
      if (dict.has(key)) this.fail(`duplicate key '${key}'`);
      this.expect(':');
      dict.set(key, this.parseValue());
      if (!this.tryConsume(',')) {
        this.expect('}');
        break;
      }
    }
    return dict;
  }

  /** A tuple or list. A parenthesised single value without a comma is just that value. */
  private parseSequence(open: string, close: string): PyValue {
    const items: PyValue[] = [];
    let sawComma = false;
    this.expect(open);
    while (!this.tryConsume(close)) {
      items.push(this.parseValue());
      if (this.tryConsume(',')) {
        sawComma = true;
      } else {
        this.expect(close);
        break;
      }
    }
    if (open === '[') return items;
    if (items.length === 1 && !sawComma) return items[0];
    return new PyTuple(items);
  }

  private parseString(): string {
    const quote = this.text[this.pos++];
    let result = '';
    for (;;) {
      const c = this.text[this.pos++];
      if (c === undefined) this.fail('unterminated string');
      if (c === quote) return result;
      if (c === '\\') {
        const escaped = this.text[this.pos++];
        if (escaped === undefined) this.fail('unterminated string');
        result += escaped; // descr strings never need escapes; keep the escaped character literally
      } else {
        result += c;
      }
    }
  }

  private parseInteger(): bigint {
    INTEGER_LITERAL.lastIndex = this.pos;
    const match = INTEGER_LITERAL.exec(this.text);
    if (!match) this.fail('malformed number');
    this.pos += match[0].length;
    return BigInt(match[0].replace(/[lL]$/, ''));
  }

  private skipSpace(): void {
    while (this.pos < this.text.length && /\s/.test(this.text[this.pos])) this.pos++;
  }

  private tryConsume(token: string): boolean {
    this.skipSpace();
    if (this.text[this.pos] !== token) return false;
    this.pos++;
    return true;
  }

  private expect(token: string): void {
    if (!this.tryConsume(token)) {
      const found = this.text[this.pos];
      this.fail(`expected '${token}' but found ${found === undefined ? 'end of header' : `'${found}'`}`);
    }
  }

  private fail(message: string): never {
    throw new Error(`${message} at offset ${this.pos}`);
  }
}

/** The dtype a buffer of element type `e` is saved as: its own, or its bits as unsigned integers of its size. */
export function npyDtypeOf(e: ElemType): NpyDtype {
  if (isStoredFormat(e)) return ({ 1: 'u8', 2: 'u16', 4: 'u32' } as const)[STORED_FORMATS[e]];
  return e === 'f64' || e === 'i1' || e === 'index' ? 'u8' : e;
}

export function npyItemSize(dtype: NpyDtype): number {
  return ITEM_SIZE_BY_DTYPE[dtype];
}
