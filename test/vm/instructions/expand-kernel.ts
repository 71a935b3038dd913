/**
 * A kernel builder for the expand, partial and reduce VM tests: every tile is loaded whole from its own global
 * buffer, re-declared at the same address with the op's valid region, then stored back whole, so both the valid
 * region and the padding the op must leave alone are observable.
 */
import { assemble } from '../../../src/assemble';
import { formatAll } from '../../../src/diag/diagnostic';
import { runFunction, Value } from '../../../src/vm/interpreter';
import { GlobalBuffer } from '../../../src/vm/memory';
import { codec } from '../../../src/vm/numerics/elements';
import { ElemType } from '../../../src/syntax/types';

export type Elem = number | bigint;

export interface KernelTile {
  dtype: ElemType;
  rows: number;
  cols: number;
  /** The valid region the op sees (default: the whole tile). */
  valid?: [number, number];
  /** A column-major (DN) tile. */
  columnMajor?: boolean;
  /** The whole tile in storage order (row-major, or column-major for DN); missing elements are 0. */
  data?: Elem[];
}

const mlir = (e: ElemType) => (e.startsWith('u') ? 'ui' + e.slice(1) : e);

export function tileType(t: KernelTile, valid?: [number, number]): string {
  const [vr, vc] = valid ?? [t.rows, t.cols];
  return `!pto.tile_buf<loc=vec, dtype=${mlir(t.dtype)}, rows=${t.rows}, cols=${t.cols}, v_row=${vr}, v_col=${vc}, blayout=${t.columnMajor ? 'col_major' : 'row_major'}, slayout=none_box, fractal=512, pad=0>`;
}

/**
 * Runs `line`, where T(name) stands for tile %name's type with its op valid region, and returns every tile's whole
 * contents afterwards, in storage order.
 */
export function runKernel(line: string, tiles: Record<string, KernelTile>, numerics: 'npu' | 'cpu-sim', target: 'a2a3' | 'a5' = 'a5'): Record<string, Elem[]> {
  const body: string[] = ['%c0 = arith.constant 0 : index', '%c1 = arith.constant 1 : index'];
  const args: string[] = [];
  const values = new Map<string, Value>();
  const buffers: Record<string, GlobalBuffer> = {};
  let address = 0;
  for (const [name, t] of Object.entries(tiles)) {
    const c = codec(t.dtype);
    const bytes = new Uint8Array(t.rows * t.cols * c.size);
    const view = new DataView(bytes.buffer);
    (t.data ?? []).forEach((v, k) => c.write(view, k * c.size, v));
    buffers[name] = new GlobalBuffer(name, t.dtype, bytes);
    values.set(`%g_${name}`, buffers[name]);
    const m = mlir(t.dtype);
    args.push(`%g_${name}: !pto.ptr<${m}>`);
    // A DN tile is loaded from a view of its storage order: cols x rows for col-major, rows x cols otherwise.
    const [vr, vc] = t.columnMajor ? [t.rows, t.cols] : [t.rows, t.cols];
    const part = `!pto.partition_tensor_view<${vr}x${vc}x${m}>`;
    body.push(
      `%r_${name} = arith.constant ${vr} : index`,
      `%k_${name} = arith.constant ${vc} : index`,
      `%a_${name} = arith.constant ${address} : index`,
      `%tv_${name} = pto.make_tensor_view %g_${name}, shape = [%r_${name}, %k_${name}], strides = [%k_${name}, %c1] : !pto.tensor_view<?x?x${m}>`,
      `%pv_${name} = pto.partition_view %tv_${name}, offsets = [%c0, %c0], sizes = [%r_${name}, %k_${name}] : !pto.tensor_view<?x?x${m}> -> ${part}`,
      `%full_${name} = pto.alloc_tile addr = %a_${name} : ${tileType(t)}`,
      `pto.tload ins(%pv_${name} : ${part}) outs(%full_${name} : ${tileType(t)})`,
      `%${name} = pto.alloc_tile addr = %a_${name} : ${tileType(t, t.valid)}`,
    );
    address += Math.ceil(bytes.length / 32) * 32;
  }
  body.push(line.replace(/\bT\(([A-Za-z0-9_]+)\)/g, (_, n) => tileType(tiles[n], tiles[n].valid)));
  for (const [name, t] of Object.entries(tiles)) {
    body.push(`pto.tstore ins(%full_${name} : ${tileType(t)}) outs(%pv_${name} : !pto.partition_tensor_view<${t.rows}x${t.cols}x${mlir(t.dtype)}>)`);
  }
  body.push('return');
  const text = ['module {', `  func.func @k(${args.join(', ')}) {`, ...body.map((l) => '    ' + l), '  }', '}', ''].join('\n');
  const asm = assemble('test.pto', text, { target });
  if (asm.diags.hasErrors()) throw new Error(formatAll(asm.diags) + '\n' + text);
  runFunction(asm.program, asm.types, [...asm.program.functions.values()][0], values, { numerics, maxSteps: 1e6 });
  const out: Record<string, Elem[]> = {};
  for (const [name, b] of Object.entries(buffers)) {
    const c = codec(tiles[name].dtype);
    const view = new DataView(b.bytes.buffer, b.bytes.byteOffset, b.bytes.byteLength);
    out[name] = Array.from({ length: b.bytes.length / c.size }, (_, k) => c.read(view, k * c.size));
  }
  return out;
}
