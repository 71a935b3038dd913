/**
 * Runs one tile instruction on the VM over raw bytes, for the unary and conversion tests: every tile is loaded
 * whole from a global buffer (tload copies bits, so NaN payloads survive), the instruction runs on tiles with the
 * given valid region, and every tile is stored back whole, so its padding is observable.
 */
import { assemble } from '../../../src/assemble';
import { formatAll } from '../../../src/diag/diagnostic';
import { runFunction, Value } from '../../../src/vm/interpreter';
import { GlobalBuffer } from '../../../src/vm/memory';
import { ElemType, elemSize } from '../../../src/syntax/types';
import { codec } from '../../../src/vm/numerics/elements';

export type Numerics = 'npu' | 'cpu-sim';

export interface RawTile {
  dtype: ElemType;
  rows: number;
  /** Columns: rows must be whole 32-byte blocks. */
  cols: number;
  bytes: Uint8Array;
}

export const mlirName = (e: ElemType): string => (e.startsWith('u') ? 'ui' + e.slice(1) : e);

export function tileType(t: { dtype: ElemType; rows: number; cols: number }, valid?: [number, number]): string {
  const [vr, vc] = valid ?? [t.rows, t.cols];
  return `!pto.tile_buf<loc=vec, dtype=${mlirName(t.dtype)}, rows=${t.rows}, cols=${t.cols}, v_row=${vr}, v_col=${vc}, blayout=row_major, slayout=none_box, fractal=512, pad=0>`;
}

/** `count` elements of `dtype`: `values` first, then `fill`. */
export function elementBytes(dtype: ElemType, count: number, values: (number | bigint)[], fill: number | bigint = 0): Uint8Array {
  const c = codec(dtype);
  const bytes = new Uint8Array(count * c.size);
  const view = new DataView(bytes.buffer);
  for (let k = 0; k < count; k++) c.write(view, k * c.size, k < values.length ? values[k] : fill);
  return bytes;
}

export interface KernelOptions {
  numerics?: Numerics;
  target?: 'a2a3' | 'a5';
  /** The valid region of every tile the instruction sees (default: whole tiles). */
  valid?: [number, number];
}

/**
 * `line` names tiles %NAME and may write T(NAME) for NAME's tile type with the valid region.
 * Returns each tile's bytes after the run.
 */
export function runTileKernel(line: string, tiles: Record<string, RawTile>, opts: KernelOptions = {}): Record<string, Uint8Array> {
  const body = ['%c0 = arith.constant 0 : index', '%c1 = arith.constant 1 : index'];
  const args: string[] = [];
  const values = new Map<string, Value>();
  const buffers: Record<string, GlobalBuffer> = {};
  let address = 0;
  for (const [name, t] of Object.entries(tiles)) {
    const m = mlirName(t.dtype);
    if (t.bytes.length !== t.rows * t.cols * elemSize(t.dtype)) throw new Error(`${name}: ${t.bytes.length} bytes for ${t.rows}x${t.cols} ${t.dtype}`);
    buffers[name] = new GlobalBuffer(name, t.dtype, t.bytes.slice());
    values.set(`%g_${name}`, buffers[name]);
    args.push(`%g_${name}: !pto.ptr<${m}>`);
    const view = `!pto.partition_tensor_view<${t.rows}x${t.cols}x${m}>`;
    body.push(
      `%r_${name} = arith.constant ${t.rows} : index`,
      `%k_${name} = arith.constant ${t.cols} : index`,
      `%a_${name} = arith.constant ${address} : index`,
      `%tv_${name} = pto.make_tensor_view %g_${name}, shape = [%r_${name}, %k_${name}], strides = [%k_${name}, %c1] : !pto.tensor_view<?x?x${m}>`,
      `%pv_${name} = pto.partition_view %tv_${name}, offsets = [%c0, %c0], sizes = [%r_${name}, %k_${name}] : !pto.tensor_view<?x?x${m}> -> ${view}`,
      `%full_${name} = pto.alloc_tile addr = %a_${name} : ${tileType(t)}`,
      `pto.tload ins(%pv_${name} : ${view}) outs(%full_${name} : ${tileType(t)})`,
      `%${name} = pto.alloc_tile addr = %a_${name} : ${tileType(t, opts.valid)}`,
    );
    address += Math.ceil(t.bytes.length / 32) * 32;
  }
  body.push(line.replace(/\bT\(([a-z0-9_]+)\)/g, (_, n: string) => tileType(tiles[n], opts.valid)));
  for (const [name, t] of Object.entries(tiles)) {
    body.push(`pto.tstore ins(%full_${name} : ${tileType(t)}) outs(%pv_${name} : !pto.partition_tensor_view<${t.rows}x${t.cols}x${mlirName(t.dtype)}>)`);
  }
  body.push('return');
  const text = ['module {', `  func.func @k(${args.join(', ')}) {`, ...body.map((l) => '    ' + l), '  }', '}', ''].join('\n');
  const asm = assemble('test.pto', text, { target: opts.target ?? 'a5' });
  if (asm.diags.hasErrors()) throw new Error(formatAll(asm.diags) + '\n' + text);
  const fn = [...asm.program.functions.values()][0];
  runFunction(asm.program, asm.types, fn, values, { numerics: opts.numerics ?? 'npu', maxSteps: 1e6 });
  return Object.fromEntries(Object.entries(buffers).map(([name, b]) => [name, b.bytes]));
}
