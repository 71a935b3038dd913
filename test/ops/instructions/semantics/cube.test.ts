/**
 * The cube path in the VM: tload into Mat, tmov/textract into Left/Right/Bias, tmatmul/tgemv (+ .acc, .bias),
 * tmov/tstore out of Acc. Kernels are written as PTOAS writes its cube samples (Level 2 ins/outs, tile_buf
 * types); expected values come from a plain triple loop here (f32 steps rounded with Math.fround, inputs chosen
 * exactly representable), never from the implementation.
 */
import { getFloat16, setFloat16 } from '@petamoriken/float16';
import { assemble } from '../../../../src/verify/assemble';
import { formatAll } from '../../../../src/diag/diagnostic';
import { ElemType } from '../../../../src/types/type';
import { runFunction, RunResult, Value } from '../../../../src/vm/interpreter';
import { GlobalBuffer } from '../../../../src/machine/memory';
import { matmul as reference } from '../../../models/matmul';
import { Matrix, rowsOf } from '../../../models/matrix';

type Numerics = 'npu' | 'cpu-sim';
type InputType = 'f16' | 'bf16' | 'f32' | 'i8';

const mlir = (e: ElemType) => (e.startsWith('u') ? 'ui' + e.slice(1) : e);
const SIZE: Record<string, number> = { i8: 1, f16: 2, bf16: 2, f32: 4, i32: 4 };

// ---- global buffers ---------------------------------------------------------------------------------------------

function writeElement(view: DataView, dtype: ElemType, k: number, v: number): void {
  if (dtype === 'f32') view.setFloat32(k * 4, v, true);
  else if (dtype === 'f16') setFloat16(view, k * 2, v, true);
  else if (dtype === 'bf16')
    view.setUint16(k * 2, new Uint32Array(new Float32Array([v]).buffer)[0] >>> 16, true); // inputs are exact bf16 values
  else if (dtype === 'i8') view.setInt8(k, v);
  else view.setInt32(k * 4, v, true);
}

function readElement(view: DataView, dtype: ElemType, k: number): number {
  if (dtype === 'f32') return view.getFloat32(k * 4, true);
  if (dtype === 'f16') return getFloat16(view, k * 2, true);
  if (dtype === 'bf16') return new Float32Array(new Uint32Array([view.getUint16(k * 2, true) << 16]).buffer)[0];
  if (dtype === 'i8') return view.getInt8(k);
  return view.getInt32(k * 4, true);
}

function buffer(name: string, dtype: ElemType, values: number[]): GlobalBuffer {
  const bytes = new Uint8Array(values.length * SIZE[dtype]);
  const view = new DataView(bytes.buffer);
  values.forEach((v, k) => writeElement(view, dtype, k, v));
  return new GlobalBuffer(name, dtype, bytes);
}

function values(b: GlobalBuffer): number[] {
  return Array.from({ length: b.length }, (_, k) => readElement(b.view, b.elem, k));
}

/** Deterministic inputs exactly representable in `dtype`: small multiples of 1/8 (floats) or integers in [-128, 127] (i8). */
function inputs(dtype: InputType, count: number, seed: number): number[] {
  let s = seed >>> 0;
  const next = () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
  return Array.from({ length: count }, () => (dtype === 'i8' ? Math.floor(next() * 256) - 128 : (Math.floor(next() * 255) - 127) / 8));
}

/** f32 values with full 24-bit significands (random), for the f32 path. */
function f32Inputs(count: number, seed: number): number[] {
  let s = seed >>> 0;
  return Array.from({ length: count }, () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return Math.fround((s / 2 ** 32 - 0.5) * 7.3);
  });
}

// ---- kernels ----------------------------------------------------------------------------------------------------

interface TileSpec {
  loc: string;
  dtype: ElemType;
  rows: number;
  cols: number;
  vRow: number;
  vCol: number;
  layout: 'nz' | 'zz' | 'zn' | 'nd';
}

const LAYOUT = {
  nz: 'blayout=col_major, slayout=row_major',
  zz: 'blayout=row_major, slayout=row_major',
  zn: 'blayout=row_major, slayout=col_major',
  nd: 'blayout=row_major, slayout=none_box',
};
const tileBuf = (t: TileSpec) =>
  `!pto.tile_buf<loc=${t.loc}, dtype=${mlir(t.dtype)}, rows=${t.rows}, cols=${t.cols}, v_row=${t.vRow}, v_col=${t.vCol}, ${LAYOUT[t.layout]}, fractal=${t.loc === 'acc' ? 1024 : 512}, pad=0>`;

/** Writes a kernel line by line; tiles and views get names and their types are spelled out as PTOAS does. */
class KernelWriter {
  readonly args: string[] = [];
  readonly body: string[] = ['%c0 = arith.constant 0 : index', '%c1 = arith.constant 1 : index'];
  private readonly tiles = new Map<string, TileSpec>();
  private readonly constants = new Set<number>([0, 1]);

  constant(n: number): string {
    if (!this.constants.has(n)) {
      this.constants.add(n);
      this.body.push(`%c${n} = arith.constant ${n} : index`);
    }
    return `%c${n}`;
  }

  /** A pointer argument viewed as a rows x cols row-major tensor. */
  global(name: string, dtype: ElemType, rows: number, cols: number): void {
    this.args.push(`%${name}: !pto.ptr<${mlir(dtype)}>`);
    const [r, c] = [this.constant(rows), this.constant(cols)];
    this.body.push(`%${name}_tv = pto.make_tensor_view %${name}, shape = [${r}, ${c}], strides = [${c}, %c1] : !pto.tensor_view<?x?x${mlir(dtype)}>`);
  }

  tile(name: string, t: TileSpec): void {
    this.tiles.set(name, t);
    this.body.push(`%${name} = pto.alloc_tile : ${tileBuf(t)}`);
  }

  private partition(global: string, dtype: ElemType, at: [number, number], size: [number, number]): string {
    const name = `%p${this.body.length}`;
    const type = `!pto.partition_tensor_view<${size[0]}x${size[1]}x${mlir(dtype)}>`;
    this.body.push(
      `${name} = pto.partition_view %${global}_tv, offsets = [${this.constant(at[0])}, ${this.constant(at[1])}], sizes = [${this.constant(size[0])}, ${this.constant(size[1])}] : !pto.tensor_view<?x?x${mlir(dtype)}> -> ${type}`,
    );
    return `${name} : ${type}`;
  }

  load(tile: string, global: string, at: [number, number] = [0, 0]): void {
    const t = this.tiles.get(tile)!;
    this.body.push(`pto.tload ins(${this.partition(global, t.dtype, at, [t.vRow, t.vCol])}) outs(%${tile} : ${tileBuf(t)})`);
  }

  store(tile: string, global: string, dtype: ElemType): void {
    const t = this.tiles.get(tile)!;
    this.body.push(`pto.tstore ins(%${tile} : ${tileBuf(t)}) outs(${this.partition(global, dtype, [0, 0], [t.vRow, t.vCol])})`);
  }

  /** `pto.OP ins(...) outs(...)` over named tiles (a `%name` starting with a digit is a literal index). */
  op(name: string, ins: string[], outs: string[]): void {
    const typeOf = (n: string) => (this.tiles.has(n) ? tileBuf(this.tiles.get(n)!) : 'index');
    const ref = (n: string) => (this.tiles.has(n) ? `%${n}` : this.constant(Number(n)));
    this.body.push(
      `pto.${name} ins(${ins.map(ref).join(', ')} : ${ins.map(typeOf).join(', ')}) outs(${outs.map(ref).join(', ')} : ${outs.map(typeOf).join(', ')})`,
    );
  }

  text(): string {
    return ['module {', `  func.func @kernel(${this.args.join(', ')}) {`, ...this.body.map((l) => '    ' + l), '    return', '  }', '}', ''].join('\n');
  }
}

function runText(text: string, buffers: GlobalBuffer[], numerics: Numerics, target: 'a2a3' | 'a5' = 'a5'): RunResult {
  const asm = assemble('cube.pto', text, { target });
  if (asm.diags.hasErrors()) throw new Error(formatAll(asm.diags) + '\n' + text);
  const fn = [...asm.program.functions.values()][0];
  const args = new Map<string, Value>(buffers.map((b) => [`%${b.name}`, b]));
  return runFunction(asm.program, asm.types, fn, args, { numerics, maxSteps: 1e6 });
}

/** The C0 of an input type: elements per 32-byte fractal row (the inner box's K extent). */
const c0 = (dtype: InputType) => 32 / SIZE[dtype];
const accOf = (dtype: InputType): ElemType => (dtype === 'i8' ? 'i32' : 'f32');
const roundUp = (v: number, to: number) => Math.ceil(v / to) * to;

interface ChainOptions {
  dtype: InputType;
  m: number;
  k: number;
  n: number;
  /** Tile extents (default: M, N to 16, K to C0, rounded up). */
  tile?: { m: number; k: number; n: number };
  /** Left's layout: Zz (A2/A3's TileLeft) or Nz (A5's). */
  left?: 'zz' | 'nz';
  op?: 'tmatmul' | 'tmatmul.bias' | 'tgemv' | 'tgemv.bias';
  /** K split into this many tmatmul(.acc) steps. */
  chunks?: number;
  /** The global output's dtype (an f32 accumulator may be stored as f16/bf16). */
  out?: ElemType;
  numerics?: Numerics;
  target?: 'a2a3' | 'a5';
  a?: number[];
  b?: number[];
  bias?: number[];
}

/** tload A, B (and bias) into Mat, tmov into Left/Right/Bias, tmatmul (+ .acc per K chunk), tstore Acc: the PTOAS sample chain. */
function chain(o: ChainOptions): { c: Matrix; a: Matrix; b: Matrix; bias?: number[]; text: string; result: RunResult; cBuffer: GlobalBuffer } {
  const acc = accOf(o.dtype);
  const chunks = o.chunks ?? 1;
  const kc = o.k / chunks;
  // Mat tiles are Nz for both inputs, so B's columns fill whole 16 x C0 boxes too.
  const tile = o.tile ?? { m: roundUp(o.m, 16), k: roundUp(kc, Math.max(16, c0(o.dtype))), n: roundUp(o.n, Math.max(16, c0(o.dtype))) };
  const op = o.op ?? 'tmatmul';
  const w = new KernelWriter();
  w.global('a', o.dtype, o.m, o.k);
  w.global('b', o.dtype, o.k, o.n);
  const withBias = op.endsWith('.bias');
  if (withBias) w.global('bias', acc, 1, o.n);
  const out = o.out ?? acc;
  w.global('c', out, o.m, o.n);
  w.tile('a_mat', { loc: 'mat', dtype: o.dtype, rows: tile.m, cols: tile.k, vRow: o.m, vCol: kc, layout: 'nz' });
  w.tile('b_mat', { loc: 'mat', dtype: o.dtype, rows: tile.k, cols: tile.n, vRow: kc, vCol: o.n, layout: 'nz' });
  w.tile('a_left', { loc: 'left', dtype: o.dtype, rows: tile.m, cols: tile.k, vRow: o.m, vCol: kc, layout: o.left ?? 'nz' });
  w.tile('b_right', { loc: 'right', dtype: o.dtype, rows: tile.k, cols: tile.n, vRow: kc, vCol: o.n, layout: 'zn' });
  w.tile('c_acc', { loc: 'acc', dtype: acc, rows: tile.m, cols: tile.n, vRow: o.m, vCol: o.n, layout: 'nz' });
  if (withBias) {
    w.tile('bias_mat', { loc: 'mat', dtype: acc, rows: 1, cols: tile.n, vRow: 1, vCol: o.n, layout: 'nd' });
    w.tile('bias_bt', { loc: 'bias', dtype: acc, rows: 1, cols: tile.n, vRow: 1, vCol: o.n, layout: 'nd' });
    w.load('bias_mat', 'bias');
    w.op('tmov', ['bias_mat'], ['bias_bt']);
  }
  for (let s = 0; s < chunks; s++) {
    w.load('a_mat', 'a', [0, s * kc]);
    w.load('b_mat', 'b', [s * kc, 0]);
    w.op('tmov', ['a_mat'], ['a_left']);
    w.op('tmov', ['b_mat'], ['b_right']);
    if (s === 0) w.op(op, withBias ? ['a_left', 'b_right', 'bias_bt'] : ['a_left', 'b_right'], ['c_acc']);
    else w.op(`${op.replace('.bias', '')}.acc`, ['c_acc', 'a_left', 'b_right'], ['c_acc']);
  }
  w.store('c_acc', 'c', out);
  const aValues = o.a ?? (o.dtype === 'f32' ? f32Inputs(o.m * o.k, 1) : inputs(o.dtype, o.m * o.k, 1));
  const bValues = o.b ?? (o.dtype === 'f32' ? f32Inputs(o.k * o.n, 2) : inputs(o.dtype, o.k * o.n, 2));
  const biasValues = o.bias ?? (acc === 'i32' ? inputs('i8', o.n, 3).map((v) => v * 1000) : inputs('f16', o.n, 3));
  const buffers = [
    buffer('a', o.dtype, aValues),
    buffer('b', o.dtype, bValues),
    ...(withBias ? [buffer('bias', acc, biasValues)] : []),
    buffer('c', out, Array(o.m * o.n).fill(0)),
  ];
  const text = w.text();
  const result = runText(text, buffers, o.numerics ?? 'npu', o.target ?? 'a5');
  const c = rowsOf(values(buffers[buffers.length - 1]), o.m, o.n);
  const cBuffer = buffers[buffers.length - 1];
  return { c, a: rowsOf(aValues, o.m, o.k), b: rowsOf(bValues, o.k, o.n), bias: withBias ? biasValues : undefined, text, result, cBuffer };
}

// ---- tests -------------------------------------------------------------------------------------------------------

describe('tmatmul through the whole chain (tload -> tmov -> tmatmul -> tstore)', () => {
  test.each(['f16', 'bf16', 'f32', 'i8'] as InputType[])('%s inputs, valid regions smaller than the tiles, both profiles', (dtype) => {
    for (const numerics of ['npu', 'cpu-sim'] as Numerics[]) {
      const { c, a, b } = chain({ dtype, m: 5, k: dtype === 'i8' ? 40 : 13, n: 7, numerics, tile: { m: 16, k: dtype === 'i8' ? 64 : 32, n: 32 } });
      expect(c).toEqual(reference(a, b, { integer: dtype === 'i8' }));
    }
  });

  test('Left in Zz (A2/A3) and Nz (A5) layouts gives the same product; the target does not change it', () => {
    const nz = chain({ dtype: 'f16', m: 20, k: 48, n: 24, left: 'nz' });
    const zz = chain({ dtype: 'f16', m: 20, k: 48, n: 24, left: 'zz', target: 'a2a3' });
    expect(zz.c).toEqual(nz.c);
    expect(nz.c).toEqual(reference(nz.a, nz.b));
  });

  test('k ascending from +0, rounding to f32 at every step: 2^24 + 1 - 2^24 gives 0, not 1', () => {
    const { c } = chain({ dtype: 'f32', m: 1, k: 3, n: 1, a: [2 ** 24, 1, -(2 ** 24)], b: [1, 1, 1] });
    expect(c).toEqual([[0]]);
    const reordered = chain({ dtype: 'f32', m: 1, k: 3, n: 1, a: [2 ** 24, -(2 ** 24), 1], b: [1, 1, 1] });
    expect(reordered.c).toEqual([[1]]);
  });

  test('f32 inputs: each step is one fused multiply-add (no rounding of the product on its own)', () => {
    const x = 1 + 2 ** -12; // x * x = 1 + 2^-11 + 2^-24: rounding it to f32 first would lose the 2^-24
    const { c } = chain({ dtype: 'f32', m: 1, k: 2, n: 1, a: [-1, x], b: [1, x] });
    expect(c).toEqual([[2 ** -11 + 2 ** -24]]);
  });

  test('i8 products accumulate exactly in i32', () => {
    const { c } = chain({ dtype: 'i8', m: 2, k: 64, n: 2, a: Array(128).fill(-128), b: Array(128).fill(-128) });
    expect(c).toEqual([
      [64 * 16384, 64 * 16384],
      [64 * 16384, 64 * 16384],
    ]);
  });

  test("npu notes that the float summation order is the simulator's; cpu-sim and integer sums do not", () => {
    const note =
      "npu: the cube's summation order and internal precision are not documented; the VM sums as the reference simulator does (k ascending, f32 fused multiply-add)";
    expect(chain({ dtype: 'f16', m: 2, k: 16, n: 2 }).result.notes).toEqual([note]);
    expect(chain({ dtype: 'f16', m: 2, k: 16, n: 2, numerics: 'cpu-sim' }).result.notes).toEqual([]);
    expect(chain({ dtype: 'i8', m: 2, k: 32, n: 2 }).result.notes).toEqual([]);
  });

  test('only the valid region of the output view is written', () => {
    const w = new KernelWriter();
    w.global('a', 'f16', 16, 16);
    w.global('b', 'f16', 16, 16);
    w.global('c', 'f32', 16, 16);
    w.tile('am', { loc: 'mat', dtype: 'f16', rows: 16, cols: 16, vRow: 16, vCol: 16, layout: 'nz' });
    w.tile('bm', { loc: 'mat', dtype: 'f16', rows: 16, cols: 16, vRow: 16, vCol: 16, layout: 'nz' });
    w.tile('al', { loc: 'left', dtype: 'f16', rows: 16, cols: 16, vRow: 3, vCol: 16, layout: 'nz' });
    w.tile('br', { loc: 'right', dtype: 'f16', rows: 16, cols: 16, vRow: 16, vCol: 5, layout: 'zn' });
    w.tile('acc', { loc: 'acc', dtype: 'f32', rows: 16, cols: 16, vRow: 3, vCol: 5, layout: 'nz' });
    w.load('am', 'a');
    w.load('bm', 'b');
    // npu: the move copies dst's valid region from inside src's rows x cols.
    w.op('tmov', ['am'], ['al']);
    w.op('tmov', ['bm'], ['br']);
    w.op('tmatmul', ['al', 'br'], ['acc']);
    w.store('acc', 'c', 'f32');
    const aValues = inputs('f16', 256, 4);
    const bValues = inputs('f16', 256, 5);
    const c = buffer('c', 'f32', Array(256).fill(-7));
    runText(w.text(), [buffer('a', 'f16', aValues), buffer('b', 'f16', bValues), c], 'npu');
    const expected = reference(
      rowsOf(aValues, 16, 16).slice(0, 3),
      rowsOf(bValues, 16, 16).map((r) => r.slice(0, 5)),
    );
    const out = rowsOf(values(c), 16, 16);
    out.forEach((row, r) => row.forEach((v, j) => expect(v).toBe(r < 3 && j < 5 ? expected[r][j] : -7)));
  });
});

describe('tmatmul.acc', () => {
  test.each(['f16', 'bf16', 'f32', 'i8'] as InputType[])('%s: K split into chunks accumulates chunk sums into the Acc tile', (dtype) => {
    for (const numerics of ['npu', 'cpu-sim'] as Numerics[]) {
      const k = dtype === 'i8' ? 96 : 48;
      const { c, a, b } = chain({ dtype, m: 6, k, n: 9, chunks: 3, numerics });
      expect(c).toEqual(reference(a, b, { integer: dtype === 'i8', chunks: 3 }));
    }
  });

  test('cInMatrix + chunk sum rounds once more: chunks of [2^24] and [1] then [-2^24]', () => {
    // chunk 1 = 2^24 + 1 -> 2^24 (ties to even); chunk 2 = -2^24: total 0. One chunk over all K gives 0 too, but 1 + (2^24 - 2^24) would be 1.
    const { c } = chain({ dtype: 'f32', m: 1, k: 4, n: 1, chunks: 2, a: [1, 2 ** 24, -(2 ** 24), 0], b: [1, 1, 1, 1] });
    expect(c).toEqual([[Math.fround(Math.fround(1 + 2 ** 24) - 2 ** 24)]]);
  });

  function distinctAccumulators(numerics: Numerics): { out: number[]; text: string } {
    const w = new KernelWriter();
    w.global('a', 'f16', 16, 16);
    w.global('b', 'f16', 16, 16);
    w.global('c', 'f32', 16, 16);
    w.tile('am', { loc: 'mat', dtype: 'f16', rows: 16, cols: 16, vRow: 16, vCol: 16, layout: 'nz' });
    w.tile('bm', { loc: 'mat', dtype: 'f16', rows: 16, cols: 16, vRow: 16, vCol: 16, layout: 'nz' });
    w.tile('al', { loc: 'left', dtype: 'f16', rows: 16, cols: 16, vRow: 16, vCol: 16, layout: 'nz' });
    w.tile('br', { loc: 'right', dtype: 'f16', rows: 16, cols: 16, vRow: 16, vCol: 16, layout: 'zn' });
    w.tile('acc0', { loc: 'acc', dtype: 'f32', rows: 16, cols: 16, vRow: 16, vCol: 16, layout: 'nz' });
    w.tile('acc1', { loc: 'acc', dtype: 'f32', rows: 16, cols: 16, vRow: 16, vCol: 16, layout: 'nz' });
    w.load('am', 'a');
    w.load('bm', 'b');
    w.op('tmov', ['am'], ['al']);
    w.op('tmov', ['bm'], ['br']);
    w.op('tmatmul', ['al', 'br'], ['acc0']);
    w.op('tmatmul.acc', ['acc0', 'al', 'br'], ['acc1']);
    w.store('acc1', 'c', 'f32');
    const c = buffer('c', 'f32', Array(256).fill(0));
    runText(w.text(), [buffer('a', 'f16', Array(256).fill(0.5)), buffer('b', 'f16', Array(256).fill(0.25)), c], numerics);
    return { out: values(c), text: w.text() };
  }

  test('cpu-sim: a distinct cInMatrix is read (cOut = cIn + A x B)', () => {
    expect(distinctAccumulators('cpu-sim').out).toEqual(Array(256).fill(2 * 16 * 0.125));
  });

  test('npu: the NPU accumulates in place, so a distinct cInMatrix is an error, not another result', () => {
    expect(() => distinctAccumulators('npu')).toThrow(
      'pto.tmatmul.acc: on the NPU the accumulation happens in cOutMatrix in place (cInMatrix is not read): with a distinct cInMatrix this is not implemented yet; pass the same tile',
    );
  });
});

describe('tmatmul.bias', () => {
  test.each(['f16', 'bf16', 'f32', 'i8'] as InputType[])('%s: bias[j] is added to every row of column j after the sum', (dtype) => {
    for (const numerics of ['npu', 'cpu-sim'] as Numerics[]) {
      const { c, a, b, bias } = chain({ dtype, m: 9, k: dtype === 'i8' ? 32 : 24, n: 11, op: 'tmatmul.bias', numerics });
      expect(c).toEqual(reference(a, b, { integer: dtype === 'i8', bias }));
    }
  });

  test('the bias is added after the sum: 2^24 - 2^24 + 1 gives 1 (bias first would give (1 + 2^24) - 2^24 = 0)', () => {
    const { c } = chain({ dtype: 'f32', m: 1, k: 2, n: 1, op: 'tmatmul.bias', a: [2 ** 24, -(2 ** 24)], b: [1, 1], bias: [1] });
    expect(c).toEqual([[1]]);
  });

  test('an i32 sum plus bias wraps', () => {
    const { c } = chain({ dtype: 'i8', m: 1, k: 32, n: 2, op: 'tmatmul.bias', a: Array(32).fill(1), b: Array(64).fill(1), bias: [2147483647, -2147483648] });
    expect(c).toEqual([[-2147483648 + 31, -2147483648 + 32]]);
  });

  test('Mat -> Bias widens an f16 bias to f32 (A2/A3 bias table load)', () => {
    const w = new KernelWriter();
    w.global('bias', 'f16', 1, 16);
    w.global('a', 'f16', 16, 16);
    w.global('b', 'f16', 16, 16);
    w.global('c', 'f32', 16, 16);
    w.tile('bm', { loc: 'mat', dtype: 'f16', rows: 1, cols: 32, vRow: 1, vCol: 16, layout: 'nd' });
    w.tile('bt', { loc: 'bias', dtype: 'f32', rows: 1, cols: 32, vRow: 1, vCol: 16, layout: 'nd' });
    w.tile('am', { loc: 'mat', dtype: 'f16', rows: 16, cols: 16, vRow: 16, vCol: 16, layout: 'nz' });
    w.tile('rm', { loc: 'mat', dtype: 'f16', rows: 16, cols: 16, vRow: 16, vCol: 16, layout: 'nz' });
    w.tile('al', { loc: 'left', dtype: 'f16', rows: 16, cols: 16, vRow: 16, vCol: 16, layout: 'zz' });
    w.tile('br', { loc: 'right', dtype: 'f16', rows: 16, cols: 16, vRow: 16, vCol: 16, layout: 'zn' });
    w.tile('acc', { loc: 'acc', dtype: 'f32', rows: 16, cols: 16, vRow: 16, vCol: 16, layout: 'nz' });
    w.load('bm', 'bias');
    w.op('tmov', ['bm'], ['bt']);
    w.load('am', 'a');
    w.load('rm', 'b');
    w.op('tmov', ['am'], ['al']);
    w.op('tmov', ['rm'], ['br']);
    w.op('tmatmul.bias', ['al', 'br', 'bt'], ['acc']);
    w.store('acc', 'c', 'f32');
    const biasValues = inputs('f16', 16, 9);
    const c = buffer('c', 'f32', Array(256).fill(0));
    runText(w.text(), [buffer('bias', 'f16', biasValues), buffer('a', 'f16', Array(256).fill(0)), buffer('b', 'f16', Array(256).fill(0)), c], 'npu', 'a2a3');
    expect(rowsOf(values(c), 16, 16)).toEqual(Array(16).fill(biasValues));
  });
});

describe('tgemv', () => {
  test.each(['f16', 'bf16', 'f32', 'i8'] as InputType[])('%s: a one-row aMatrix times bMatrix, plain, .acc and .bias', (dtype) => {
    const k = dtype === 'i8' ? 64 : 32;
    // Left tiles of 16 rows with one valid row (see the report: a rows=1 boxed tile's addressing in memory.ts).
    const tile = { m: 16, k: k / 2, n: dtype === 'i8' ? 32 : 16 };
    for (const numerics of ['npu', 'cpu-sim'] as Numerics[]) {
      const plain = chain({ dtype, m: 1, k: k / 2, n: 10, op: 'tgemv', numerics, tile });
      expect(plain.c).toEqual(reference(plain.a, plain.b, { integer: dtype === 'i8' }));
      const acc = chain({ dtype, m: 1, k, n: 10, op: 'tgemv', chunks: 2, numerics, tile });
      expect(acc.c).toEqual(reference(acc.a, acc.b, { integer: dtype === 'i8', chunks: 2 }));
      const bias = chain({ dtype, m: 1, k: k / 2, n: 10, op: 'tgemv.bias', numerics, tile });
      expect(bias.c).toEqual(reference(bias.a, bias.b, { integer: dtype === 'i8', bias: bias.bias }));
    }
  });

  test('an aMatrix with two valid rows is an error (the manual requires m = 1; PTOAS rejects a static one)', () => {
    expect(() => chain({ dtype: 'f16', m: 2, k: 16, n: 16, op: 'tgemv' })).toThrow('pto.tgemv: aMatrix must have one valid row for a gemv, not 2');
  });
});

describe('valid regions at run time', () => {
  test('M comes from aMatrix, not the accumulator: 8 valid rows of A into a C of 16 dynamic valid rows fill C rows 0..7 only', () => {
    // As pypto emits it: the accumulator allocated with all 16 rows valid, A with 8. The hardware takes m from A
    // (manual, TMATMUL) and checks nothing of C, so the product fills rows 0..7 and leaves the rest as it was.
    const mat = (dtype: string, rows: number, cols: number, vRow: string) =>
      `!pto.tile_buf<loc=mat, dtype=${dtype}, rows=${rows}, cols=${cols}, v_row=${vRow}, v_col=${cols}, blayout=col_major, slayout=row_major, fractal=512, pad=0>`;
    const left = `!pto.tile_buf<loc=left, dtype=f16, rows=16, cols=16, v_row=?, v_col=16, blayout=col_major, slayout=row_major, fractal=512, pad=0>`;
    const right = `!pto.tile_buf<loc=right, dtype=f16, rows=16, cols=16, v_row=16, v_col=16, blayout=row_major, slayout=col_major, fractal=512, pad=0>`;
    const acc = `!pto.tile_buf<loc=acc, dtype=f32, rows=16, cols=16, v_row=?, v_col=16, blayout=col_major, slayout=row_major, fractal=1024, pad=0>`;
    const view = (name: string, dtype: string, rows: number) =>
      `%${name}_tv = pto.make_tensor_view %${name}, shape = [%c${rows}, %c16], strides = [%c16, %c1] : !pto.tensor_view<?x?x${dtype}>`;
    const part = (name: string, dtype: string, rows: number) =>
      `%${name}_p = pto.partition_view %${name}_tv, offsets = [%c0, %c0], sizes = [%c${rows}, %c16] : !pto.tensor_view<?x?x${dtype}> -> !pto.partition_tensor_view<${rows}x16x${dtype}>`;
    const text = [
      'module {',
      '  func.func @kernel(%a: !pto.ptr<f16>, %b: !pto.ptr<f16>, %c: !pto.ptr<f32>) {',
      ...[
        '%c0 = arith.constant 0 : index',
        '%c1 = arith.constant 1 : index',
        '%c8 = arith.constant 8 : index',
        '%c16 = arith.constant 16 : index',
        view('a', 'f16', 8),
        view('b', 'f16', 16),
        view('c', 'f32', 16),
        part('a', 'f16', 8),
        part('b', 'f16', 16),
        part('c', 'f32', 16),
        `%am = pto.alloc_tile valid_row = %c8 : ${mat('f16', 16, 16, '?')}`,
        `%bm = pto.alloc_tile : ${mat('f16', 16, 16, '16')}`,
        `%al = pto.alloc_tile valid_row = %c8 : ${left}`,
        `%br = pto.alloc_tile : ${right}`,
        `%acc = pto.alloc_tile valid_row = %c16 : ${acc}`,
        `pto.tload ins(%a_p : !pto.partition_tensor_view<8x16xf16>) outs(%am : ${mat('f16', 16, 16, '?')})`,
        `pto.tload ins(%b_p : !pto.partition_tensor_view<16x16xf16>) outs(%bm : ${mat('f16', 16, 16, '16')})`,
        `pto.tmov ins(%am : ${mat('f16', 16, 16, '?')}) outs(%al : ${left})`,
        `pto.tmov ins(%bm : ${mat('f16', 16, 16, '16')}) outs(%br : ${right})`,
        `pto.tmatmul ins(%al, %br : ${left}, ${right}) outs(%acc : ${acc})`,
        `pto.tstore ins(%acc : ${acc}) outs(%c_p : !pto.partition_tensor_view<16x16xf32>)`,
      ].map((l) => '    ' + l),
      '    return',
      '  }',
      '}',
      '',
    ].join('\n');
    const a = inputs('f16', 8 * 16, 21);
    const b = inputs('f16', 16 * 16, 22);
    const c = buffer('c', 'f32', new Array(256).fill(0));
    runText(text, [buffer('a', 'f16', a), buffer('b', 'f16', b), c], 'npu');
    const got = rowsOf(values(c), 16, 16);
    expect(got.slice(0, 8)).toEqual(reference(rowsOf(a, 8, 16), rowsOf(b, 16, 16)));
  });
});

describe('textract Mat -> Left/Right', () => {
  test('windows at row/col offsets feed the product (C = A[:, 16:32] x B[16:32, :])', () => {
    const w = new KernelWriter();
    w.global('a', 'f16', 16, 32);
    w.global('b', 'f16', 32, 16);
    w.global('c', 'f32', 16, 16);
    w.tile('am', { loc: 'mat', dtype: 'f16', rows: 16, cols: 32, vRow: 16, vCol: 32, layout: 'nz' });
    w.tile('bm', { loc: 'mat', dtype: 'f16', rows: 32, cols: 16, vRow: 32, vCol: 16, layout: 'nz' });
    w.tile('al', { loc: 'left', dtype: 'f16', rows: 16, cols: 16, vRow: 16, vCol: 16, layout: 'nz' });
    w.tile('br', { loc: 'right', dtype: 'f16', rows: 16, cols: 16, vRow: 16, vCol: 16, layout: 'zn' });
    w.tile('acc', { loc: 'acc', dtype: 'f32', rows: 16, cols: 16, vRow: 16, vCol: 16, layout: 'nz' });
    w.load('am', 'a');
    w.load('bm', 'b');
    w.op('textract', ['am', '0', '16'], ['al']);
    w.op('textract', ['bm', '16', '0'], ['br']);
    w.op('tmatmul', ['al', 'br'], ['acc']);
    w.store('acc', 'c', 'f32');
    const aValues = inputs('f16', 512, 11);
    const bValues = inputs('f16', 512, 12);
    const c = buffer('c', 'f32', Array(256).fill(0));
    runText(w.text(), [buffer('a', 'f16', aValues), buffer('b', 'f16', bValues), c], 'npu');
    const a = rowsOf(aValues, 16, 32).map((r) => r.slice(16));
    const b = rowsOf(bValues, 32, 16).slice(16);
    expect(rowsOf(values(c), 16, 16)).toEqual(reference(a, b));
  });
});

describe('out of the accumulator', () => {
  test('tstore converts an f32 accumulator to f16 and bf16, rounding to nearest even', () => {
    // Row sums: 1 + 2^-11 (an f16 tie: to 1), 1 + 3 * 2^-11 (tie: up to 1 + 2^-9), 1 + 2^-8 (a bf16 tie: to 1).
    const a = [1, 2 ** -11, 1, 3 * 2 ** -11, 1, 2 ** -8];
    const f16 = chain({ dtype: 'f32', m: 3, k: 2, n: 1, a, b: [1, 1], out: 'f16' });
    expect(f16.c).toEqual([[1], [1 + 2 ** -9], [1 + 2 ** -8]]);
    const bf16 = chain({ dtype: 'f32', m: 3, k: 2, n: 1, a, b: [1, 1], out: 'bf16' });
    expect(bf16.c).toEqual([[1], [1], [1]]);
  });

  test('npu notes an accumulator value that overflows f16', () => {
    const { c, result } = chain({ dtype: 'f32', m: 1, k: 1, n: 1, a: [70000], b: [1], out: 'f16' });
    expect(c).toEqual([[Infinity]]);
    expect(result.notes).toContain("npu: an accumulator value overflowed f16; the fixpipe's overflow result is not documented, the VM gives infinity");
  });

  function accToVec(opts: { numerics: Numerics; target: 'a2a3' | 'a5'; vec: ElemType }): number[] {
    const w = new KernelWriter();
    w.global('a', 'f16', 16, 16);
    w.global('b', 'f16', 16, 16);
    w.global('c', opts.vec, 16, 16);
    w.tile('am', { loc: 'mat', dtype: 'f16', rows: 16, cols: 16, vRow: 16, vCol: 16, layout: 'nz' });
    w.tile('bm', { loc: 'mat', dtype: 'f16', rows: 16, cols: 16, vRow: 16, vCol: 16, layout: 'nz' });
    w.tile('al', { loc: 'left', dtype: 'f16', rows: 16, cols: 16, vRow: 16, vCol: 16, layout: 'nz' });
    w.tile('br', { loc: 'right', dtype: 'f16', rows: 16, cols: 16, vRow: 16, vCol: 16, layout: 'zn' });
    w.tile('acc', { loc: 'acc', dtype: 'f32', rows: 16, cols: 16, vRow: 16, vCol: 16, layout: 'nz' });
    w.tile('v', { loc: 'vec', dtype: opts.vec, rows: 16, cols: 16, vRow: 16, vCol: 16, layout: 'nd' });
    w.load('am', 'a');
    w.load('bm', 'b');
    w.op('tmov', ['am'], ['al']);
    w.op('tmov', ['bm'], ['br']);
    w.op('tmatmul', ['al', 'br'], ['acc']);
    w.op('tmov', ['acc'], ['v']);
    w.store('v', 'c', opts.vec);
    const c = buffer('c', opts.vec, Array(256).fill(0));
    const aValues = inputs('f16', 256, 21);
    const bValues = inputs('f16', 256, 22);
    runText(w.text(), [buffer('a', 'f16', aValues), buffer('b', 'f16', bValues), c], opts.numerics, opts.target);
    const expected = reference(rowsOf(aValues, 16, 16), rowsOf(bValues, 16, 16)).flat();
    if (opts.vec === 'f32') expect(values(c)).toEqual(expected);
    return values(c);
  }

  test('tmov Acc -> Vec copies f32 (a5 npu, and cpu-sim on either target)', () => {
    accToVec({ numerics: 'npu', target: 'a5', vec: 'f32' });
    accToVec({ numerics: 'cpu-sim', target: 'a2a3', vec: 'f32' });
  });

  test('tmov Acc -> Vec f32 -> f16 rounds each value to f16', () => {
    const got = accToVec({ numerics: 'npu', target: 'a5', vec: 'f16' });
    const f32 = accToVec({ numerics: 'npu', target: 'a5', vec: 'f32' });
    const f16 = new DataView(new ArrayBuffer(2));
    expect(got).toEqual(f32.map((v) => (setFloat16(f16, 0, v), getFloat16(f16, 0))));
  });

  test('npu on a2a3 has no Acc -> Vec move: verified (PTOAS accepts it), and the VM says pto-isa defines none', () => {
    expect(() => accToVec({ numerics: 'npu', target: 'a2a3', vec: 'f32' })).toThrow(
      "pto.tmov: tmov from acc to vec on a2a3 is not implemented yet: pto-isa defines none (npu/a2a3/TMov.hpp static_asserts 'TMov: Invalid TileType.'",
    );
  });
});

describe('fractal layouts', () => {
  test('tload into an Nz Mat tile places (r, c) at its box-major position', () => {
    // f32 Nz with 16 x 8 boxes, stored box column after box column: (r, c) -> (c / 8) * 16 * 8 + r * 8 + c % 8.
    const w = new KernelWriter();
    w.global('a', 'f32', 16, 16);
    w.global('raw', 'f32', 1, 256);
    w.tile('nz', { loc: 'mat', dtype: 'f32', rows: 16, cols: 16, vRow: 16, vCol: 16, layout: 'nz' });
    w.load('nz', 'a');
    // The same bytes as one ND row (a second tile at the same address).
    w.body.push('%flat = pto.alloc_tile addr = %c0 : ' + tileBuf({ loc: 'mat', dtype: 'f32', rows: 1, cols: 256, vRow: 1, vCol: 256, layout: 'nd' }));
    w.body.push(
      `%flat_view = pto.partition_view %raw_tv, offsets = [%c0, %c0], sizes = [%c1, %c256] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<1x256xf32>`,
      'pto.tstore ins(%flat : ' +
        tileBuf({ loc: 'mat', dtype: 'f32', rows: 1, cols: 256, vRow: 1, vCol: 256, layout: 'nd' }) +
        ') outs(%flat_view : !pto.partition_tensor_view<1x256xf32>)',
    );
    w.constant(256);
    const a = Array.from({ length: 256 }, (_, k) => k);
    const raw = buffer('raw', 'f32', Array(256).fill(-1));
    const text = w.text().replace('%nz = pto.alloc_tile :', '%nz = pto.alloc_tile addr = %c0 :');
    runText(text, [buffer('a', 'f32', a), raw], 'npu', 'a2a3');
    const expected = Array(256);
    for (let r = 0; r < 16; r++) for (let c = 0; c < 16; c++) expected[Math.floor(c / 8) * 128 + r * 8 + (c % 8)] = r * 16 + c;
    expect(values(raw)).toEqual(expected);
  });
});

/** x rounded once to f32 (nearest, ties to even; subnormals, overflow to infinity), exactly: through BigInt units of 2^-1200. */
function exactToF32(x: bigint): number {
  if (x === 0n) return 0;
  const a = x < 0n ? -x : x;
  const top = a.toString(2).length - 1 - 1200; // a's leading bit is 2^top
  const lsb = Math.max(top - 23, -149);
  const shift = BigInt(lsb + 1200);
  let q = a >> shift;
  const rest = a - (q << shift);
  const half = 1n << (shift - 1n);
  if (rest > half || (rest === half && (q & 1n) === 1n)) q++;
  const v = Number(q) * 2 ** lsb;
  return (x < 0n ? -1 : 1) * (v >= 2 ** 128 ? Infinity : v);
}

/** A finite double as a whole number of 2^-1200 units (exact for the magnitudes these tests use). */
function units(v: number): bigint {
  const bits = new DataView(new Float64Array([v]).buffer).getBigUint64(0, true);
  const exponent = Number((bits >> 52n) & 0x7ffn);
  const mantissa = (bits & ((1n << 52n) - 1n)) | (exponent ? 1n << 52n : 0n);
  const scaled = mantissa << BigInt(Math.max(exponent, 1) - 1075 + 1200);
  return bits >> 63n ? -scaled : scaled;
}

describe('16-bit float inputs: one rounding per step, special values', () => {
  test('bf16 products and sums of far-apart magnitudes round once per step (fround of the double sum is the FMA)', () => {
    // 8-bit significands at exponents -40..40: many steps add values so far apart that the double sum is inexact.
    let s = 7;
    const next = () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
    const bf16 = () => (next() < 0.5 ? -1 : 1) * ((128 + Math.floor(next() * 128)) / 128) * 2 ** (Math.floor(next() * 81) - 40);
    const [m, k, n] = [3, 32, 5]; // an odd m and a column past the last four
    const a = Array.from({ length: m * k }, bf16);
    const b = Array.from({ length: k * n }, bf16);
    const { c } = chain({ dtype: 'bf16', m, k, n, a, b });
    const expected = Array.from({ length: m }, (_, i) =>
      Array.from({ length: n }, (_, j) => {
        let sum = 0;
        for (let t = 0; t < k; t++) sum = exactToF32(units(a[i * k + t] * b[t * n + j]) + units(sum));
        return sum;
      }),
    );
    expect(c).toEqual(expected);
  });

  test("bf16: inf x 0 and inf - inf give x86's default NaN, a NaN input its own (the last step's), an infinity stays", () => {
    const [inf, nan] = [Infinity, NaN];
    // Columns: inf x 0 at t = 1; +inf then -inf; a NaN in B at the last step; +inf then finite steps.
    const a = [1, inf, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1];
    const b = [
      [1, inf, 1, inf],
      [0, -inf, 1, 1],
      [1, 1, 1, 1],
      [1, 1, nan, 1],
    ];
    const k = 4;
    const { cBuffer } = chain({ dtype: 'bf16', m: 1, k, n: 4, a: a.slice(0, k), b: b.flat() });
    const bits = Array.from({ length: 4 }, (_, j) => cBuffer.view.getUint32(j * 4, true));
    // f32 0xffc00000: x86's default NaN; 0x7fc00000: B's NaN (bf16 0x7fc0) widened.
    expect(bits).toEqual([0xffc00000, 0xffc00000, 0x7fc00000, 0x7f800000]);
  });
});

describe('not implemented: clear errors', () => {
  test('a tstore of an i32 accumulator as f16 without a quant word is verified but does not run', () => {
    const w = new KernelWriter();
    w.global('c', 'f16', 16, 16);
    w.tile('t', { loc: 'acc', dtype: 'i32', rows: 16, cols: 16, vRow: 16, vCol: 16, layout: 'nz' });
    w.store('t', 'c', 'f16');
    expect(() => runText(w.text(), [buffer('c', 'f16', Array(256).fill(0))], 'npu', 'a2a3')).toThrow('storing a i32 accumulator as f16 needs a quant word');
  });

  test('tmov from an i32 accumulator to an f16 tile needs quantisation', () => {
    const w = new KernelWriter();
    w.tile('acc', { loc: 'acc', dtype: 'i32', rows: 16, cols: 16, vRow: 16, vCol: 16, layout: 'nz' });
    w.tile('v', { loc: 'vec', dtype: 'f16', rows: 16, cols: 16, vRow: 16, vCol: 16, layout: 'nd' });
    w.op('tmov', ['acc'], ['v']);
    expect(() => runText(w.text(), [], 'npu', 'a5')).toThrow(
      'pto.tmov: tmov from a i32 acc tile to a f16 vec tile is not implemented yet (quantisation needs tmov.fp)',
    );
  });

  test('the verifier takes an Acc stored as f16/bf16 (PTOAS) and rejects other size-changing stores', () => {
    const kernel = (tile: TileSpec, view: ElemType) => {
      const w = new KernelWriter();
      w.global('c', view, 16, 16);
      w.tile('t', tile);
      w.store('t', 'c', view);
      return assemble('store.pto', w.text(), { target: 'a2a3' });
    };
    const acc = (dtype: ElemType): TileSpec => ({ loc: 'acc', dtype, rows: 16, cols: 16, vRow: 16, vCol: 16, layout: 'nz' });
    expect(formatAll(kernel(acc('f32'), 'f16').diags)).toBe('');
    expect(formatAll(kernel(acc('f32'), 'bf16').diags)).toBe('');
    // PTOAS's TStoreOp verifier takes i32 -> f16 without a quant word; the TSTORE manual's table has no such store.
    const i32 = kernel(acc('i32'), 'f16');
    expect(formatAll(i32.diags)).toBe('');
    const vec = { ...acc('f32'), loc: 'vec', layout: 'nd' as const };
    expect(formatAll(kernel(vec, 'f16').diags)).toContain('error[E0505]: pto.tstore: src (f32) and dst (f16) must have element types of the same size');
  });
});
