/**
 * tprint: the printed text (spec/instructions/data-movement.json, format in docs/numerics.md), written out here
 * by hand, and printf's %8.4f reproduced for ties, signs and specials.
 */
import { assemble } from '../../../src/assemble';
import { formatAll } from '../../../src/diag/diagnostic';
import { ElemType } from '../../../src/syntax/types';
import { runFunction, Value } from '../../../src/vm/interpreter';
import { GlobalBuffer } from '../../../src/vm/memory';
import { codec } from '../../../src/vm/numerics/elements';

type Numerics = 'npu' | 'cpu-sim';
type Elem = number | bigint;

interface TileArg {
  dtype: ElemType;
  rows: number;
  cols: number;
  /** Row-major contents of the whole tile. */
  data: Elem[];
  /** The valid region the op sees (default: the whole tile); the rest is padding. */
  valid?: [number, number];
  pad?: string;
  /** Raw 32-bit words written instead of `data` (bit patterns a codec would not keep). */
  words?: number[];
}

const mlir = (e: ElemType) => (e.startsWith('u') ? 'ui' + e.slice(1) : e);
const tileType = (t: TileArg, whole = false) =>
  `!pto.tile_buf<loc=vec, dtype=${mlir(t.dtype)}, rows=${t.rows}, cols=${t.cols}, v_row=${whole || !t.valid ? t.rows : t.valid[0]}, ` +
  `v_col=${whole || !t.valid ? t.cols : t.valid[1]}, blayout=row_major, slayout=none_box, fractal=512, pad=${whole ? 0 : (t.pad ?? 0)}>`;

/**
 * Runs `line` (tiles named %NAME, typed T(NAME); index scalars %NAME) with every tile loaded whole from
 * global memory through a second tile at the same address, and returns every tile's whole contents after.
 */
function run(line: string, tiles: Record<string, TileArg>, opts: { numerics?: Numerics; target?: 'a2a3' | 'a5'; scalars?: Record<string, bigint> } = {}) {
  const body = ['%c0 = arith.constant 0 : index', '%c1 = arith.constant 1 : index'];
  const args: string[] = [];
  const values = new Map<string, Value>();
  const buffers: Record<string, GlobalBuffer> = {};
  Object.entries(tiles).forEach(([name, t], i) => {
    const c = codec(t.dtype);
    const bytes = new Uint8Array(t.rows * t.cols * c.size);
    const view = new DataView(bytes.buffer);
    t.data.forEach((v, k) => c.write(view, k * c.size, v));
    t.words?.forEach((w, k) => view.setUint32(k * 4, w, true));
    buffers[name] = new GlobalBuffer(name, t.dtype, bytes);
    values.set(`%g_${name}`, buffers[name]);
    args.push(`%g_${name}: !pto.ptr<${mlir(t.dtype)}>`);
    const m = mlir(t.dtype);
    const pv = `!pto.partition_tensor_view<${t.rows}x${t.cols}x${m}>`;
    body.push(
      `%r_${name} = arith.constant ${t.rows} : index`,
      `%k_${name} = arith.constant ${t.cols} : index`,
      `%a_${name} = arith.constant ${i * 8192} : index`,
      `%tv_${name} = pto.make_tensor_view %g_${name}, shape = [%r_${name}, %k_${name}], strides = [%k_${name}, %c1] : !pto.tensor_view<?x?x${m}>`,
      `%pv_${name} = pto.partition_view %tv_${name}, offsets = [%c0, %c0], sizes = [%r_${name}, %k_${name}] : !pto.tensor_view<?x?x${m}> -> ${pv}`,
      `%full_${name} = pto.alloc_tile addr = %a_${name} : ${tileType(t, true)}`,
      `pto.tload ins(%pv_${name} : ${pv}) outs(%full_${name} : ${tileType(t, true)})`,
      `%${name} = pto.alloc_tile addr = %a_${name} : ${tileType(t)}`,
    );
  });
  for (const [name, v] of Object.entries(opts.scalars ?? {})) {
    args.push(`%${name}: index`);
    values.set(`%${name}`, v);
  }
  body.push(line.replace(/\bT\(([a-z0-9_]+)\)/g, (_, n) => tileType(tiles[n])));
  for (const [name, t] of Object.entries(tiles)) {
    const pv = `!pto.partition_tensor_view<${t.rows}x${t.cols}x${mlir(t.dtype)}>`;
    body.push(`pto.tstore ins(%full_${name} : ${tileType(t, true)}) outs(%pv_${name} : ${pv})`);
  }
  body.push('return');
  const text = ['module {', `  func.func @k(${args.join(', ')}) {`, ...body.map((l) => '    ' + l), '  }', '}', ''].join('\n');
  const asm = assemble('test.pto', text, { target: opts.target ?? 'a5' });
  if (asm.diags.hasErrors()) throw new Error(formatAll(asm.diags) + '\n' + text);
  const fn = [...asm.program.functions.values()][0];
  const result = runFunction(asm.program, asm.types, fn, values, { numerics: opts.numerics ?? 'npu', maxSteps: 1e6 });
  const out: Record<string, Elem[]> = {};
  for (const [name, b] of Object.entries(buffers)) {
    const c = codec(tiles[name].dtype);
    const view = new DataView(b.bytes.buffer, b.bytes.byteOffset, b.bytes.byteLength);
    out[name] = Array.from({ length: b.bytes.length / c.size }, (_, k) => c.read(view, k * c.size));
  }
  return { out, printed: result.printed, buffers };
}


import { formatValue } from '../../../src/vm/instructions/print';

describe('tprint', () => {
  test('prints a header and every row, marking padding columns with | and padding rows with dashes', () => {
    const t: TileArg = { dtype: 'i32', rows: 3, cols: 8, data: Array.from({ length: 24 }, (_, k) => k - 3), valid: [2, 3] };
    const { printed, out } = run('pto.tprint ins(%t : T(t))', { t });
    const row = (from: number) => [0, 1, 2].map((c) => String(from + c).padStart(8)).join(' ') + ' | ' + [3, 4, 5, 6, 7].map((c) => String(from + c).padStart(8)).join(' ');
    const lines = [row(-3), row(5)];
    expect(printed).toEqual([['tprint %t: loc=vec dtype=i32 rows=3 cols=8 valid=2x3', ...lines, '-'.repeat(lines[0].length), row(13)].join('\n') + '\n']);
    expect(out.t).toEqual(t.data); // printing changes nothing
  });

  test('floats as %8.4f: ties to even on the exact value, -0, nan, inf, huge values', () => {
    expect(formatValue(1.03125, true)).toBe('  1.0312');
    expect(formatValue(1.09375, true)).toBe('  1.0938');
    expect(formatValue(-1.03125, true)).toBe(' -1.0312');
    expect(formatValue(0.1, true)).toBe('  0.1000');
    expect(formatValue(-0, true)).toBe(' -0.0000');
    expect(formatValue(NaN, true)).toBe('     nan');
    expect(formatValue(-Infinity, true)).toBe('    -inf');
    expect(formatValue(3.4028234663852886e38, true)).toBe('340282346638528859811704183484516925440.0000');
    expect(formatValue(-7, false)).toBe('      -7');
  });
});
