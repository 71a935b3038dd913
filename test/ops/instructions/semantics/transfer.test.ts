/**
 * tload and tstore of views whose shape is not the tile's valid region (semantics/transfer.ts): a view larger than an
 * ND or DN vec tile's valid region, and a 5-D NZ view of an NZ vec tile. Expected values are worked out by hand from
 * the copy each implementation does (PTOAS's lib/TileOps/a5 templates under vpto, pto-isa's npu/a5 and npu/a2a3
 * TLoad/TStore under emitc, cpu/TLoad.hpp under cpu-sim): a global element's value is its index (plus 100 where a
 * second buffer needs telling apart), and a tile position the op does not write keeps a background of -1.
 */
import { assemble } from '../../../../src/verify/assemble';
import { formatAll } from '../../../../src/diag/diagnostic';
import { runFunction, Value } from '../../../../src/vm/interpreter';
import { GlobalBuffer } from '../../../../src/machine/memory';
import { codec } from '../../../../src/numerics/elements';
import { ElemType } from '../../../../src/types/type';

type Dtype = 'f32' | 'f16' | 'i8';

interface Setup {
  dtype?: Dtype;
  /** The source view of the op under test over global `src`, and its type's shape ('?' for a dynamic size). */
  shape: number[];
  strides: number[];
  typeShape?: (number | '?')[];
  /** The tile: rows x cols, layout, the valid region the op sees ('?' = dynamic, set to validAt), its pad. */
  rows: number;
  cols: number;
  layout?: 'nd' | 'dn' | 'nz';
  valid: [number | '?', number | '?'];
  validAt?: [number, number];
  pad?: number;
}

interface Run {
  target?: 'a2a3' | 'a5';
  numerics?: 'npu' | 'cpu-sim';
  backend?: 'emitc' | 'vpto';
}

const LAYOUT = { nd: '', dn: ', blayout=col_major', nz: ', blayout=col_major, slayout=row_major' };
const tileType = (s: Setup, valid?: string, pad?: number) =>
  `!pto.tile_buf<vec, ${s.rows}x${s.cols}x${s.dtype ?? 'f32'}${valid ? `, valid=${valid}` : ''}${LAYOUT[s.layout ?? 'nd']}${pad ? `, pad=${pad}` : ''}>`;

/**
 * The kernel: the whole tile is loaded with the background (-1) from `bg`, the op under test loads `src` through the
 * view into an alias of the tile with the smaller valid region, and the whole tile is stored to `out` as a row-major
 * rows x cols matrix (tile (r, c) -> out[r * cols + c]).
 */
function loadKernel(s: Setup): string {
  const e = s.dtype ?? 'f32';
  const consts = new Set([0, 1, s.rows, s.cols, ...s.shape, ...s.strides, ...(s.validAt ?? [])]);
  const c = (n: number) => `%c${n}`;
  const whole = tileType(s);
  const [vr, vc] = s.valid;
  const partial = tileType(s, `${vr}x${vc}`, s.pad);
  const dynamic = [vr === '?' ? `valid_row = ${c(s.validAt![0])}` : '', vc === '?' ? `valid_col = ${c(s.validAt![1])}` : ''].filter(Boolean).join(' ');
  const viewType = `!pto.partition_tensor_view<${(s.typeShape ?? s.shape).join('x')}x${e}>`;
  const rank = s.shape.length;
  const anyView = `!pto.tensor_view<${s.shape.map(() => '?').join('x')}x${e}>`;
  const matrix = `!pto.partition_tensor_view<${s.rows}x${s.cols}x${e}>`;
  return `module {
  func.func @k(%src: !pto.ptr<${e}>, %bg: !pto.ptr<${e}>, %out: !pto.ptr<${e}>) {
${[...consts].map((n) => `    ${c(n)} = arith.constant ${n} : index`).join('\n')}
    %sv = pto.make_tensor_view %src, shape = [${s.shape.map(c).join(', ')}], strides = [${s.strides.map(c).join(', ')}] : ${anyView}
    %sp = pto.partition_view %sv, offsets = [${Array(rank).fill('%c0').join(', ')}], sizes = [${s.shape.map(c).join(', ')}] : ${anyView} -> ${viewType}
    %bv = pto.make_tensor_view %bg, shape = [${c(s.rows)}, ${c(s.cols)}], strides = [${c(s.cols)}, %c1] : !pto.tensor_view<?x?x${e}>
    %bp = pto.partition_view %bv, offsets = [%c0, %c0], sizes = [${c(s.rows)}, ${c(s.cols)}] : !pto.tensor_view<?x?x${e}> -> ${matrix}
    %ov = pto.make_tensor_view %out, shape = [${c(s.rows)}, ${c(s.cols)}], strides = [${c(s.cols)}, %c1] : !pto.tensor_view<?x?x${e}>
    %op = pto.partition_view %ov, offsets = [%c0, %c0], sizes = [${c(s.rows)}, ${c(s.cols)}] : !pto.tensor_view<?x?x${e}> -> ${matrix}
    %whole = pto.alloc_tile addr = %c0 : ${whole}
    pto.tload ins(%bp : ${matrix}) outs(%whole : ${whole})
    %t = pto.alloc_tile addr = %c0 ${dynamic} : ${partial}
    pto.tload ins(%sp : ${viewType}) outs(%t : ${partial})
    pto.tstore ins(%whole : ${whole}) outs(%op : ${matrix})
    return
  }
}
`;
}

function buffer(name: string, dtype: ElemType, values: number[]): GlobalBuffer {
  const c = codec(dtype);
  const bytes = new Uint8Array(values.length * c.size);
  const view = new DataView(bytes.buffer);
  values.forEach((v, k) => c.write(view, k * c.size, v));
  return new GlobalBuffer(name, dtype, bytes);
}

function read(b: GlobalBuffer): number[] {
  const c = codec(b.elem);
  const view = new DataView(b.bytes.buffer, b.bytes.byteOffset, b.bytes.byteLength);
  return Array.from({ length: b.length }, (_, k) => Number(c.read(view, k * c.size)));
}

function run(text: string, buffers: GlobalBuffer[], r: Run): void {
  const asm = assemble('t.pto', text, { target: r.target ?? 'a5' });
  if (asm.diags.hasErrors()) throw new Error(formatAll(asm.diags) + '\n' + text);
  const values = new Map<string, Value>(buffers.map((b) => [`%${b.name}`, b]));
  runFunction(asm.program, asm.types, asm.program.functions.get('k')!, values, { numerics: r.numerics ?? 'npu', backend: r.backend, maxSteps: 1e6 });
}

/** Runs loadKernel; the tile's whole contents afterwards, row-major. `src[k]` = k. */
function load(s: Setup, r: Run): number[] {
  const dtype = s.dtype ?? 'f32';
  const count = s.shape.reduce((n, d, i) => n + (d - 1) * s.strides[i], 1);
  const out = buffer('out', dtype, Array(s.rows * s.cols).fill(0));
  run(
    loadKernel(s),
    [
      buffer(
        'src',
        dtype,
        Array.from({ length: count }, (_, k) => k),
      ),
      buffer('bg', dtype, Array(s.rows * s.cols).fill(-1)),
      out,
    ],
    r,
  );
  return read(out);
}

/** A rows x cols matrix, row-major, from its element function. */
const matrix = (rows: number, cols: number, f: (r: number, c: number) => number) =>
  Array.from({ length: rows * cols }, (_, k) => f(Math.floor(k / cols), k % cols));

const VPTO: Run = { backend: 'vpto' };

describe('tload of a view larger than an ND tile valid region', () => {
  // A 4x8 f32 view (src[k] = k, rows 8 apart) into a 4x8 tile.
  const nd = (valid: [number | '?', number | '?'], more: Partial<Setup> = {}): Setup => ({
    shape: [1, 1, 1, 4, 8],
    strides: [32, 32, 32, 8, 1],
    rows: 4,
    cols: 8,
    valid,
    ...more,
  });
  const wholeView = matrix(4, 8, (r, c) => 8 * r + c);

  test('vpto, valid 2x8: template_tload_nd2nd copies all 4 rows of the static view, past the valid rows', () => {
    expect(load(nd([2, 8]), VPTO)).toEqual(wholeView);
  });

  test('vpto, valid 4x1 (the trowexpand case): all 8 columns of each row land too', () => {
    expect(load(nd([4, 1]), VPTO)).toEqual(wholeView);
    // f16 and i8, whose 32-byte rows hold 16 and 32 elements: a 4x16 and a 4x32 view, all of it.
    for (const [dtype, cols] of [
      ['f16', 16],
      ['i8', 32],
    ] as const) {
      const s: Setup = { dtype, shape: [1, 1, 1, 4, cols], strides: [4 * cols, 4 * cols, 4 * cols, cols, 1], rows: 4, cols, valid: [4, 1] };
      expect(load(s, VPTO)).toEqual(matrix(4, cols, (r, c) => cols * r + c));
    }
  });

  test('vpto, a 2-D view: the template moves the valid region only (rows 2, 3 keep the background)', () => {
    const got = load({ shape: [4, 8], strides: [8, 1], rows: 4, cols: 8, valid: [2, 8] }, VPTO);
    expect(got).toEqual(matrix(4, 8, (r, c) => (r < 2 ? 8 * r + c : -1)));
  });

  test('vpto, a view with more rows than the tile: PTOAS has no template for it', () => {
    expect(() => load({ shape: [1, 1, 1, 8, 8], strides: [64, 64, 64, 8, 1], rows: 4, cols: 8, valid: [4, 8] }, VPTO)).toThrow(
      "PTOAS has no TileLang template for it (template_tload_nd2nd needs the valid region <= the view's rows x cols <= the tile's 4x8)",
    );
  });

  test('vpto, a pad value fills only what the copy leaves: here nothing (the view covers the tile)', () => {
    expect(load(nd([2, 8], { pad: 1 }), VPTO)).toEqual(wholeView);
    // A 3x8 view into valid 2x8: row 3 is padding (0), rows 0..2 the view's.
    const got = load({ shape: [1, 1, 1, 3, 8], strides: [24, 24, 24, 8, 1], rows: 4, cols: 8, valid: [2, 8], pad: 1 }, VPTO);
    expect(got).toEqual(matrix(4, 8, (r, c) => (r < 3 ? 8 * r + c : 0)));
  });

  test('vpto, a dynamic Shape3 with unit outer dims takes the valid rows; one that differs at run time is not guessed', () => {
    // Valid 4x2: the dynamic Shape3 gives the valid rows (4, the view's too), the static Shape4 all 8 columns.
    expect(load(nd([4, 2], { typeShape: [1, 1, 1, '?', 8] }), VPTO)).toEqual(wholeView);
    // Valid 2x8: the template would take 2 rows for a dynamic size, 4 for a constant one, which the type does not tell.
    expect(() => load(nd([2, 8], { typeShape: [1, 1, 1, '?', 8] }), VPTO)).toThrow("is not implemented yet: the view's type leaves a dimension dynamic");
  });

  test('emitc on A5, a dynamic valid region: TLoadVecND2ND moves the view rows (4) of the valid cols (2)', () => {
    const got = load(nd(['?', '?'], { validAt: [2, 2] }), {});
    expect(got).toEqual(matrix(4, 8, (r, c) => (c < 2 ? 8 * r + c : -1)));
  });

  test('an empty valid region (a zero-row tail) still moves the static view on A5; elsewhere nothing, as before', () => {
    const tail = nd(['?', '?'], { validAt: [0, 8] });
    expect(load(tail, VPTO)).toEqual(wholeView);
    expect(load(tail, {})).toEqual(wholeView);
    expect(load(tail, { target: 'a2a3' })).toEqual(Array(32).fill(-1));
  });

  test('emitc on A5, static shapes that differ: pto-isa static_asserts (StaticCheck)', () => {
    expect(() => load(nd([2, 8]), {})).toThrow("pto-isa's A5 TLOAD static_asserts that a static valid region equals the view's static rows and cols");
  });

  test('A2/A3 and the simulator assert that the view is the valid region', () => {
    expect(() => load(nd([2, 8]), { target: 'a2a3' })).toThrow("A2/A3's TLOAD asserts that an ND view's shape is the valid region (pto-isa TLoadGm2ubNd2nd)");
    expect(() => load(nd([2, 8]), { numerics: 'cpu-sim' })).toThrow('the simulator asserts that an ND view');
  });
});

describe('tload of a view larger than a DN tile valid region', () => {
  // A DN view: element (r, c) at 8c + r (column-major 8x4), src[k] = k, into an 8x4 column-major tile.
  const dn = (valid: [number, number]): Setup => ({ shape: [1, 1, 1, 8, 4], strides: [32, 32, 32, 1, 8], rows: 8, cols: 4, layout: 'dn', valid });

  test('vpto, valid 4x4: template_tload_dn2dn moves the valid rows of every view column', () => {
    expect(load(dn([4, 4]), VPTO)).toEqual(matrix(8, 4, (r, c) => (r < 4 ? 8 * c + r : -1)));
  });

  test('vpto and emitc on A5, valid 8x2: all 4 view columns of the 8 valid rows', () => {
    const all = matrix(8, 4, (r, c) => 8 * c + r);
    expect(load(dn([8, 2]), VPTO)).toEqual(all);
    expect(load(dn([8, 2]), {})).toEqual(all);
  });
});

describe('NZ views of an NZ vec tile', () => {
  // A 16x16 f32 NZ tile: two column blocks of 16 rows x 8. Block k of the view starts at src[128 k], its row r at 8 r.
  const nzBlock = (r: number, c: number) => 128 * Math.floor(c / 8) + 8 * r + (c % 8);

  test('vpto: a 2x1x16x1x8 view (the tilelang suite shape) fills the tile block by block', () => {
    const s: Setup = { shape: [2, 1, 16, 1, 8], strides: [128, 128, 8, 8, 1], rows: 16, cols: 16, layout: 'nz', valid: [16, 16] };
    expect(load(s, VPTO)).toEqual(matrix(16, 16, nzBlock));
  });

  test('vpto: valid 8 rows of a 2x1x8x1x8 view move 8 rows of each block; rows 8..15 keep the background', () => {
    const s: Setup = { shape: [2, 1, 8, 1, 8], strides: [128, 128, 8, 8, 1], rows: 16, cols: 16, layout: 'nz', valid: [8, 16] };
    expect(load(s, VPTO)).toEqual(matrix(16, 16, (r, c) => (r < 8 ? nzBlock(r, c) : -1)));
  });

  // pto-isa's NZ global shape: [1, C / 8, R / 16, 16, 8].
  const isaShape: Setup = { shape: [1, 2, 1, 16, 8], strides: [256, 128, 128, 8, 1], rows: 16, cols: 16, layout: 'nz', valid: [16, 16] };

  test("emitc (A5, A2/A3) and the simulator: pto-isa's [1, 2, 1, 16, 8] view", () => {
    const expected = matrix(16, 16, nzBlock);
    expect(load(isaShape, {})).toEqual(expected);
    expect(load(isaShape, { target: 'a2a3' })).toEqual(expected);
    expect(load(isaShape, { numerics: 'cpu-sim' })).toEqual(expected);
  });

  test("vpto has no template for pto-isa's shape (valid rows 16 > Shape2 = 1), emitc none for the suite's (Shape3 = 1)", () => {
    expect(() => load(isaShape, VPTO)).toThrow('template_tload_nz2nz needs valid rows <= Shape2 = 1');
    const suite: Setup = { shape: [2, 1, 16, 1, 8], strides: [128, 128, 8, 8, 1], rows: 16, cols: 16, layout: 'nz', valid: [16, 16] };
    expect(() => load(suite, {})).toThrow("pto-isa static_asserts that an NZ view's Shape3 and Shape4 are 16 and 8, static");
  });

  test('tstore through an NZ view writes each block back: out[128 k + 8 r + j] = tile (r, 8 k + j)', () => {
    // vpto with the suite's shape; emitc (A5 and A2/A3) with pto-isa's, whose Shape3 is 16.
    const cases: [Run, number[], number[]][] = [
      [VPTO, [2, 1, 16, 1, 8], [128, 128, 8, 8, 1]],
      [{}, [1, 2, 1, 16, 8], [256, 128, 128, 8, 1]],
      [{ target: 'a2a3' }, [1, 2, 1, 16, 8], [256, 128, 128, 8, 1]],
    ];
    for (const [how, shape, strides] of cases) {
      const c = (n: number) => `%c${n}`;
      const view = `!pto.partition_tensor_view<${shape.join('x')}xf32>`;
      const matrixView = '!pto.partition_tensor_view<16x16xf32>';
      const tile = '!pto.tile_buf<vec, 16x16xf32, blayout=col_major, slayout=row_major>';
      const text = `module {
  func.func @k(%in: !pto.ptr<f32>, %out: !pto.ptr<f32>) {
${[...new Set([0, 1, 16, ...shape, ...strides])].map((n) => `    ${c(n)} = arith.constant ${n} : index`).join('\n')}
    %iv = pto.make_tensor_view %in, shape = [%c16, %c16], strides = [%c16, %c1] : !pto.tensor_view<?x?xf32>
    %ip = pto.partition_view %iv, offsets = [%c0, %c0], sizes = [%c16, %c16] : !pto.tensor_view<?x?xf32> -> ${matrixView}
    %ov = pto.make_tensor_view %out, shape = [${shape.map(c).join(', ')}], strides = [${strides.map(c).join(', ')}] : !pto.tensor_view<?x?x?x?x?xf32>
    %op = pto.partition_view %ov, offsets = [%c0, %c0, %c0, %c0, %c0], sizes = [${shape.map(c).join(', ')}] : !pto.tensor_view<?x?x?x?x?xf32> -> ${view}
    %t = pto.alloc_tile : ${tile}
    pto.tload ins(%ip : ${matrixView}) outs(%t : ${tile})
    pto.tstore ins(%t : ${tile}) outs(%op : ${view})
    return
  }
}
`;
      const out = buffer('out', 'f32', Array(256).fill(0));
      run(
        text,
        [
          buffer(
            'in',
            'f32',
            Array.from({ length: 256 }, (_, k) => 100 + k),
          ),
          out,
        ],
        how,
      );
      const expected: number[] = Array(256);
      for (let row = 0; row < 16; row++) for (let col = 0; col < 16; col++) expected[nzBlock(row, col)] = 100 + 16 * row + col;
      expect(read(out)).toEqual(expected);
    }
  });
});
