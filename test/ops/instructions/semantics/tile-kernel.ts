/**
 * A small harness for instruction tests: loads each tile whole from global memory, runs one op line on tiles
 * that may have smaller valid regions (a second alloc_tile at the same address, so padding stays observable),
 * stores every tile whole, and returns every tile's contents and bytes.
 */
import { assemble } from '../../../../src/verify/assemble';
import { formatAll } from '../../../../src/diag/diagnostic';
import { ElemType, elemSize } from '../../../../src/types/type';
import { runFunction, Value } from '../../../../src/vm/interpreter';
import { GlobalBuffer } from '../../../../src/machine/memory';
import { codec } from '../../../../src/numerics/elements';

export type Numerics = 'npu' | 'cpu-sim';
export type Elem = number | bigint;

export interface TileArg {
  dtype: ElemType;
  rows: number;
  cols: number;
  /** Row-major contents of the whole tile; missing elements are 0. */
  data?: Elem[];
  /** The whole tile's initial bytes, instead of `data`. */
  bytes?: Uint8Array;
  /** A column-major (DN) tile. */
  columnMajor?: boolean;
  /** The valid region the op sees; default the whole tile. */
  valid?: [number, number];
  /** The pad value of the tile the op sees (`pad=` of its type); default 0 (null). */
  pad?: string;
  /** Raw little-endian 32-bit words written after `data` (bit patterns a codec would not keep, NaN payloads). */
  words?: number[];
}

export interface RunOptions {
  numerics?: Numerics;
  target?: 'a2a3' | 'a5';
  /** PTOAS's back end the run follows (default emitc). */
  backend?: 'emitc' | 'vpto';
  scalars?: Record<string, [string, Elem]>;
}

const mlir = (e: ElemType) => (e.startsWith('u') ? 'ui' + e.slice(1) : e);
export const tileType = (t: TileArg, v?: [number, number], pad = '0') =>
  `!pto.tile_buf<loc=vec, dtype=${mlir(t.dtype)}, rows=${t.rows}, cols=${t.cols}, v_row=${v ? v[0] : t.rows}, v_col=${v ? v[1] : t.cols}, ` +
  `blayout=${t.columnMajor ? 'col_major' : 'row_major'}, slayout=none_box, fractal=512, pad=${pad}>`;
/** The type the op sees: the tile's valid region and pad value. */
const opType = (t: TileArg) => tileType(t, t.valid, t.pad);

/** The kernel text: `T(name)` in `line` stands for the tile's type with its valid region. */
export function kernelText(line: string, tiles: Record<string, TileArg>, opts: RunOptions = {}): string {
  const body: string[] = ['%c0 = arith.constant 0 : index', '%c1 = arith.constant 1 : index'];
  const args: string[] = [];
  let address = 0;
  Object.entries(tiles).forEach(([name, t]) => {
    const m = mlir(t.dtype);
    const view = `!pto.partition_tensor_view<${t.rows}x${t.cols}x${m}>`;
    args.push(`%g_${name}: !pto.ptr<${m}>`);
    body.push(
      `%r_${name} = arith.constant ${t.rows} : index`,
      `%k_${name} = arith.constant ${t.cols} : index`,
      `%a_${name} = arith.constant ${address} : index`,
      `%tv_${name} = pto.make_tensor_view %g_${name}, shape = [%r_${name}, %k_${name}], strides = [%k_${name}, %c1] : !pto.tensor_view<?x?x${m}>`,
      `%pv_${name} = pto.partition_view %tv_${name}, offsets = [%c0, %c0], sizes = [%r_${name}, %k_${name}] : !pto.tensor_view<?x?x${m}> -> ${view}`,
      `%full_${name} = pto.alloc_tile addr = %a_${name} : ${tileType(t)}`,
      `pto.tload ins(%pv_${name} : ${view}) outs(%full_${name} : ${tileType(t)})`,
      `%${name} = pto.alloc_tile addr = %a_${name} : ${opType(t)}`,
    );
    address += Math.ceil((t.rows * t.cols * elemSize(t.dtype)) / 32) * 32;
  });
  for (const [name, [type]] of Object.entries(opts.scalars ?? {})) args.push(`%${name}: ${type}`);
  body.push(line.replace(/\bT\(([a-z0-9_]+)\)/g, (_, n) => opType(tiles[n])));
  for (const [name, t] of Object.entries(tiles)) {
    body.push(`pto.tstore ins(%full_${name} : ${tileType(t)}) outs(%pv_${name} : !pto.partition_tensor_view<${t.rows}x${t.cols}x${mlir(t.dtype)}>)`);
  }
  body.push('return');
  return ['module {', `  func.func @k(${args.join(', ')}) {`, ...body.map((l) => '    ' + l), '  }', '}', ''].join('\n');
}

export interface KernelRun {
  /** Each tile's whole contents, row-major. */
  values: Record<string, Elem[]>;
  /** Each tile's raw bytes. */
  bytes: Record<string, Uint8Array>;
  /** What the kernel printed (pto.tprint). */
  printed: string[];
}

/** Runs the op on the tiles (see kernelText) and returns what every tile holds afterwards. */
export function runKernel(line: string, tiles: Record<string, TileArg>, opts: RunOptions = {}): KernelRun {
  const text = kernelText(line, tiles, opts);
  const asm = assemble('test.pto', text, { target: opts.target ?? 'a5' });
  if (asm.diags.hasErrors()) throw new Error(formatAll(asm.diags) + '\n' + text);
  const values = new Map<string, Value>();
  const buffers: Record<string, GlobalBuffer> = {};
  for (const [name, t] of Object.entries(tiles)) {
    const c = codec(t.dtype);
    const bytes = t.bytes ? t.bytes.slice() : new Uint8Array(t.rows * t.cols * c.size);
    if (bytes.length !== t.rows * t.cols * c.size) throw new Error(`${name}: ${bytes.length} bytes for ${t.rows}x${t.cols} ${t.dtype}`);
    const view = new DataView(bytes.buffer);
    (t.data ?? []).forEach((v, k) => c.write(view, k * c.size, v));
    t.words?.forEach((w, k) => view.setUint32(k * 4, w, true));
    buffers[name] = new GlobalBuffer(name, t.dtype, bytes);
    values.set(`%g_${name}`, buffers[name]);
  }
  for (const [name, [, v]] of Object.entries(opts.scalars ?? {})) values.set(`%${name}`, v);
  const fn = [...asm.program.functions.values()][0];
  const { printed } = runFunction(asm.program, asm.types, fn, values, { numerics: opts.numerics ?? 'npu', backend: opts.backend, maxSteps: 1e6 });
  const run: KernelRun = { values: {}, bytes: {}, printed };
  for (const [name, b] of Object.entries(buffers)) {
    const c = codec(tiles[name].dtype);
    const view = new DataView(b.bytes.buffer, b.bytes.byteOffset, b.bytes.byteLength);
    run.bytes[name] = b.bytes;
    run.values[name] = Array.from({ length: b.bytes.length / c.size }, (_, k) => c.read(view, k * c.size));
  }
  return run;
}

/** Runs the op; returns each tile's whole contents (row-major) and raw bytes. */
export function runTiles(line: string, tiles: Record<string, TileArg>, opts: RunOptions = {}): Record<string, Elem[]> & { bytes: Record<string, Uint8Array> } {
  const { values, bytes } = runKernel(line, tiles, opts);
  return Object.assign({ bytes }, values) as Record<string, Elem[]> & { bytes: Record<string, Uint8Array> };
}

/** Runs the op under `numerics` on `target`; every tile's whole contents afterwards (storage order). */
export function runValues(line: string, tiles: Record<string, TileArg>, numerics: Numerics, target: 'a2a3' | 'a5' = 'a5'): Record<string, Elem[]> {
  return runKernel(line, tiles, { numerics, target }).values;
}

/** Runs the op with the same valid region on every tile; each tile's bytes afterwards. */
export function runWithValid(line: string, tiles: Record<string, TileArg>, opts: RunOptions & { valid?: [number, number] } = {}): Record<string, Uint8Array> {
  const withValid = Object.fromEntries(Object.entries(tiles).map(([name, t]) => [name, { ...t, valid: opts.valid }]));
  return runKernel(line, withValid, opts).bytes;
}

/** `count` elements of `dtype`: `values` first, then `fill`. */
export function elementBytes(dtype: ElemType, count: number, values: Elem[], fill: Elem = 0): Uint8Array {
  const c = codec(dtype);
  const bytes = new Uint8Array(count * c.size);
  const view = new DataView(bytes.buffer);
  for (let k = 0; k < count; k++) c.write(view, k * c.size, k < values.length ? values[k] : fill);
  return bytes;
}

/** The first `count` elements of `dtype` in `bytes`, decoded. */
export function elementValues(dtype: ElemType, bytes: Uint8Array, count: number): Elem[] {
  const c = codec(dtype);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return Array.from({ length: count }, (_, k) => c.read(view, k * c.size));
}

/** The raw bits of element k of 16-bit or 32-bit elements (NaN payloads a decoded number would lose). */
export const bits16 = (bytes: Uint8Array, k: number): number => new DataView(bytes.buffer, bytes.byteOffset).getUint16(k * 2, true);
export const bits32 = (bytes: Uint8Array, k: number): number => new DataView(bytes.buffer, bytes.byteOffset).getUint32(k * 4, true);
