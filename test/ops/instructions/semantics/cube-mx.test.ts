/**
 * The MX matmul (tmatmul.mx, .acc, .bias, tgemv.mx) and tget_scale_addr semantics, run directly on tiles placed in
 * on-chip memory. Expected values are decoded by hand from the fp8 codes (E4M3: S.EEEE.MMM, bias 7; E5M2:
 * S.EEEEE.MM, bias 15) and E8M0 scales (2^(code - 127)), never from the implementation.
 */
import { matmulMx, scaleAddress } from '../../../../src/ops/instructions/semantics/cube';
import { InstructionContext, NumericsProfile } from '../../../../src/ops/instructions/semantics/context';
import { OnChipMemory, Tile } from '../../../../src/machine/memory';
import { isa } from '../../../../src/spec/isa';
import { ElemType, TileType } from '../../../../src/types/type';
import { mxValue } from '../../../../src/numerics/microscaling';
import { assemble } from '../../../../src/verify/assemble';
import { formatAll } from '../../../../src/diag/diagnostic';
import { runFunction } from '../../../../src/vm/interpreter';

const span = { start: 0, end: 0 };

function type(
  loc: TileType['loc'],
  dtype: ElemType,
  rows: number,
  cols: number,
  layout: [TileType['blayout'], TileType['slayout']],
  fractal = 512,
  valid: [number, number] = [rows, cols],
): TileType {
  return {
    kind: 'tile',
    level: 'buf',
    loc,
    dtype,
    rows,
    cols,
    vRow: valid[0],
    vCol: valid[1],
    blayout: layout[0],
    slayout: layout[1],
    fractal,
    pad: 0,
    compact: 0,
  };
}

/** Whole boxes, as pto-isa requires: the 2 x 64 by 64 x 2 product in larger tiles with those valid regions. */
const TYPES = {
  a: type('left', 'f8E4M3FN', 16, 64, ['col_major', 'row_major'], 512, [2, 64]),
  b: type('right', 'f8E5M2', 64, 16, ['row_major', 'col_major'], 512, [64, 2]),
  aScale: type('scaling', '!pto.f8E8M0', 16, 2, ['row_major', 'row_major'], 32, [2, 2]),
  bScale: type('scaling', '!pto.f8E8M0', 2, 16, ['col_major', 'col_major'], 32, [2, 2]),
  dst: type('acc', 'f32', 16, 16, ['col_major', 'row_major'], 1024, [2, 2]),
};

interface Run {
  tiles: Record<string, Tile>;
  notes: string[];
}

function context(name: string, tiles: Record<string, Tile>, numerics: NumericsProfile, memory: OnChipMemory, notes: string[]): InstructionContext {
  const trap = (message: string): never => {
    throw new Error(message);
  };
  return {
    op: { name: `pto.${name}`, form: 'dps' } as unknown as InstructionContext['op'],
    bound: { spec: { name } } as unknown as InstructionContext['bound'],
    numerics,
    backend: 'emitc',
    target: 'a5',
    vectorKernels: false,
    tile: (n) => tiles[n] ?? trap(`no ${n}`),
    optionalTile: (n) => tiles[n],
    view: () => trap('no views'),
    scalar: () => trap('no scalars'),
    setResult: () => undefined,
    trap,
    flag: () => undefined,
    attribute: () => undefined,
    print: () => undefined,
    note: (m) => void notes.push(m),
    bindMxScale: (n, of) => {
      const placed = memory.placeMxScale(tiles[n].type, of, `pto.${name}`, span);
      placed.vRow = tiles[n].vRow;
      placed.vCol = tiles[n].vCol;
      tiles[n] = placed;
      return placed;
    },
    repeatWith: () => undefined,
  };
}

/**
 * A 2 x 64 (E4M3) times 64 x 2 (E5M2) MX matmul: K = 64 is two scale groups. The scale tiles are bound with
 * tget_scale_addr first (as the NPU requires), then filled.
 */
function setUp(aBits: (i: number, k: number) => number, bBits: (k: number, j: number) => number, scales: { a: number[][]; b: number[][] }) {
  const memory = new OnChipMemory(isa(), 'a5');
  const tiles: Record<string, Tile> = {
    a: memory.allocate(TYPES.a, 'test', span),
    b: memory.allocate(TYPES.b, 'test', span),
    a_scale: memory.allocate(TYPES.aScale, 'test', span),
    b_scale: memory.allocate(TYPES.bScale, 'test', span),
    dst: memory.allocate(TYPES.dst, 'test', span),
  };
  // Place the Right tile away from address 0, so that its scale address (>> 4) is not 0 either.
  tiles.b = memory.place(tiles.b.type, 4096, 'test', span);
  const notes: string[] = [];
  scaleAddress(context('tget_scale_addr', Object.assign(tiles, { src: tiles.a, dst: tiles.a_scale }), 'npu', memory, notes));
  tiles.a_scale = tiles.dst;
  scaleAddress(context('tget_scale_addr', Object.assign(tiles, { src: tiles.b, dst: tiles.b_scale }), 'npu', memory, notes));
  tiles.b_scale = tiles.dst;
  tiles.dst = memory.allocate(TYPES.dst, 'test', span);
  delete tiles.src;
  for (let i = 0; i < 2; i++) for (let k = 0; k < 64; k++) tiles.a.set(i, k, aBits(i, k));
  for (let k = 0; k < 64; k++) for (let j = 0; j < 2; j++) tiles.b.set(k, j, bBits(k, j));
  for (let i = 0; i < 2; i++) for (let g = 0; g < 2; g++) tiles.a_scale.set(i, g, scales.a[i][g]);
  for (let g = 0; g < 2; g++) for (let j = 0; j < 2; j++) tiles.b_scale.set(g, j, scales.b[g][j]);
  return { memory, tiles, notes };
}

function run(name: string, setup: ReturnType<typeof setUp>, numerics: NumericsProfile = 'npu', extra: Record<string, Tile> = {}): Run {
  const tiles = { ...setup.tiles, ...extra };
  const notes: string[] = [];
  matmulMx(context(name, tiles, numerics, setup.memory, notes));
  return { tiles, notes };
}

const result = (r: Run) => [0, 1].map((i) => [0, 1].map((j) => r.tiles.dst.get(i, j)));

describe('fp8 and E8M0 decoding (the simulator, cpu/MXTypes.hpp)', () => {
  it.each([
    ['f8E4M3FN', 0x38, 1], // 0.0111.000 = 2^(7-7)
    ['f8E4M3FN', 0x3c, 1.5], // 0.0111.100
    ['f8E4M3FN', 0xc1, -2.25], // 1.1000.001 = -2^1 x 1.125
    ['f8E4M3FN', 0x01, 2 ** -9], // smallest subnormal: 1 x 2^(1-7-3)
    ['f8E4M3FN', 0x7f, 480], // IEEE-style NaN code: the simulator gives 2^8 x 1.875
    ['f8E5M2', 0x3c, 1], // 0.01111.00 = 2^(15-15)
    ['f8E5M2', 0x43, 3.5], // 0.10000.11 = 2 x 1.75
    ['f8E5M2', 0x02, 2 * 2 ** -16], // subnormal: 2 x 2^(1-15-2)
    ['f8E5M2', 0x80, 0], // negative zero decodes to +0 in the simulator
    ['!pto.f8E8M0', 127, 1],
    ['!pto.f8E8M0', 130, 8],
    ['!pto.f8E8M0', 0, 2 ** -127],
  ] as [ElemType, number, number][])('%s code %d is %s', (dtype, bits, want) => {
    expect(Object.is(mxValue(dtype, bits), want)).toBe(true);
  });
});

describe('pto.tget_scale_addr', () => {
  it('places the scale tile at the input address >> 4 in the scale space beside its buffer', () => {
    const { tiles } = setUp(
      () => 0,
      () => 0,
      {
        a: [
          [127, 127],
          [127, 127],
        ],
        b: [
          [127, 127],
          [127, 127],
        ],
      },
    );
    expect([tiles.a_scale.buffer, tiles.a_scale.address]).toEqual(['L0A_MX', tiles.a.address >> 4]);
    expect([tiles.b_scale.buffer, tiles.b_scale.address]).toEqual(['L0B_MX', 4096 >> 4]);
  });

  it("carries dst's valid region (what the tmov PTOAS hoists it above wrote) to the new address", () => {
    const memory = new OnChipMemory(isa(), 'a5');
    const a = memory.allocate(TYPES.a, 'test', span);
    const scale = memory.allocate(TYPES.aScale, 'test', span);
    scale.set(1, 1, 0x81);
    scale.set(3, 1, 0x82); // outside the valid region: not carried
    const tiles: Record<string, Tile> = { src: a, dst: scale };
    scaleAddress(context('tget_scale_addr', tiles, 'npu', memory, []));
    expect(tiles.dst).not.toBe(scale);
    expect([tiles.dst.get(1, 1), tiles.dst.get(3, 1)]).toEqual([0x81, 0]);
  });
});

describe('pto.tmatmul.mx', () => {
  // a[i][k]: 1.5 (0x3c) for k < 32, -2.25 (0xc1) from 32 on; row 1 is row 0 negated (sign bit).
  const aBits = (i: number, k: number) => (k < 32 ? 0x3c : 0xc1) ^ (i === 1 ? 0x80 : 0);
  // b[k][j]: 1 (0x3c) in column 0; 3.5 (0x43) in column 1 for even k, 0 (0x00) for odd k.
  const bBits = (k: number, j: number) => (j === 0 ? 0x3c : k % 2 === 0 ? 0x43 : 0x00);
  const scales = {
    a: [
      [128, 126], // row 0: group 0 x 2, group 1 x 1/2
      [127, 129], // row 1: x 1, x 4
    ],
    b: [
      [127, 130], // group 0: col 0 x 1, col 1 x 8
      [125, 127], // group 1: col 0 x 1/4, col 1 x 1
    ],
  };
  // By hand: C[i][j] = sum over the two groups g of (32 or 16 terms) x a x b x sa[i][g] x sb[g][j].
  // C[0][0] = 32 x 1.5 x 1 x 2 x 1 + 32 x -2.25 x 1 x 1/2 x 1/4 = 96 - 9 = 87
  // C[0][1] = 16 x 1.5 x 3.5 x 2 x 8 + 16 x -2.25 x 3.5 x 1/2 x 1 = 1344 - 63 = 1281
  // C[1][0] = -(32 x 1.5 x 1 x 1 x 1) - (32 x -2.25 x 1 x 4 x 1/4) = -48 + 72 = 24
  // C[1][1] = -(16 x 1.5 x 3.5 x 1 x 8) - (16 x -2.25 x 3.5 x 4 x 1) = -672 + 504 = -168
  const want = [
    [87, 1281],
    [24, -168],
  ];

  it('multiplies each group of 32 along K by its two E8M0 scales', () => {
    const r = run('tmatmul.mx', setUp(aBits, bBits, scales));
    expect(result(r)).toEqual(want);
    expect(r.notes.some((n) => n.includes('summation order'))).toBe(true);
  });

  it('.acc adds c_in; .bias adds bias[j] (f32)', () => {
    const setup = setUp(aBits, bBits, scales);
    const cIn = setup.tiles.dst;
    [0.5, -1, 2, 0.25].forEach((v, x) => cIn.set(x >> 1, x & 1, v));
    const acc = run('tmatmul.mx.acc', setup, 'npu', { c_in: cIn });
    expect(result(acc)).toEqual([
      [87.5, 1280],
      [26, -167.75],
    ]);
    const bias = setup.memory.allocate(type('bias', 'f32', 1, 8, ['row_major', 'none_box'], 512, [1, 2]), 'test', span);
    bias.set(0, 0, 10);
    bias.set(0, 1, -0.5);
    const withBias = run('tmatmul.mx.bias', setUp(aBits, bBits, scales), 'npu', { bias });
    expect(result(withBias)).toEqual([
      [97, 1280.5],
      [34, -168.5],
    ]);
  });

  it('rounds the running sum to f32 at each step, as the simulator', () => {
    // a = 1 everywhere; b[0][j] = 1 x 2^24 scale, every other b is 1: 2^24 + 1 + 1 ... each +1 is lost in f32.
    const setup = setUp(
      (_i, k) => (k < 64 ? 0x38 : 0),
      () => 0x3c,
      {
        a: [
          [127, 127],
          [127, 127],
        ],
        b: [
          [127 + 24, 127],
          [127, 127],
        ],
      },
    );
    // Column 0: 32 terms of 2^24 (exact: 2^29), then 32 terms of 1: 2^29 + 1 is not an f32, so each is lost.
    // Column 1: 64 terms of 1 = 64.
    expect(result(run('tmatmul.mx', setup))).toEqual([
      [2 ** 29, 64],
      [2 ** 29, 64],
    ]);
  });

  it('under npu, traps on a scale tile the cube does not read and on NaN codes; cpu-sim decodes them', () => {
    const setup = setUp(aBits, bBits, scales);
    const elsewhere = setup.memory.allocate(TYPES.aScale, 'test', span);
    expect(() => run('tmatmul.mx', setup, 'npu', { a_scale: elsewhere })).toThrow(/reads a's scales at L0A_MX address 0/);
    setup.tiles.a.set(0, 0, 0x7f);
    expect(() => run('tmatmul.mx', setup)).toThrow(/a\[0, 0\] is 0x7f, a NaN\/infinity code of f8E4M3FN/);
    // cpu-sim: 0x7f is 480, in place of 1.5 at [0][0]: C[0][0] += (480 - 1.5) x 1 x 2 x 1.
    expect(run('tmatmul.mx', setup, 'cpu-sim').tiles.dst.get(0, 0)).toBe(87 + 957);
  });

  it('traps on packed fp4 inputs', () => {
    const setup = setUp(aBits, bBits, scales);
    const fp4 = setup.memory.allocate({ ...TYPES.a, dtype: '!pto.f4E2M1x2' }, 'test', span);
    expect(() => run('tmatmul.mx', setup, 'cpu-sim', { a: fp4 })).toThrow(/f4E2M1x2 inputs is not implemented yet/);
  });
});

describe('pto.tgemv.mx', () => {
  it('multiplies a one-row a and traps on more rows', () => {
    const setup = setUp(
      (i) => (i === 0 ? 0x40 : 0), // 0.1000.000 = 2
      (_k, j) => (j === 0 ? 0x3c : 0xbc), // 1, -1
      {
        a: [
          [126, 128],
          [127, 127],
        ],
        b: [
          [127, 127],
          [127, 127],
        ],
      },
    );
    // 32 x 2 x 1/2 + 32 x 2 x 2 = 32 + 128 = 160 (column 1: -160).
    expect(() => run('tgemv.mx', setup)).toThrow(/a has 2 valid rows/);
    setup.tiles.a.vRow = 1;
    const r = run('tgemv.mx', setup);
    expect([r.tiles.dst.get(0, 0), r.tiles.dst.get(0, 1)]).toEqual([160, -160]);
  });
});

test('scale tiles of a dtype the cube does not read as MX codes are a located trap (found by the fuzzer)', () => {
  const tile = (loc: string, dtype: string, rows: number, cols: number, layout: string) =>
    `!pto.tile_buf<loc=${loc}, dtype=${dtype}, rows=${rows}, cols=${cols}, v_row=${rows}, v_col=${cols}, ${layout}, pad=0>`;
  const A = tile('left', 'f8E4M3FN', 1, 128, 'blayout=col_major, slayout=row_major, fractal=512');
  const B = tile('right', 'f8E4M3FN', 128, 32, 'blayout=row_major, slayout=col_major, fractal=512');
  const SA = tile('scaling', 'f16', 1, 4, 'blayout=row_major, slayout=row_major, fractal=32');
  const SB = tile('scaling', 'f16', 4, 32, 'blayout=row_major, slayout=row_major, fractal=32');
  const C = tile('acc', 'f32', 1, 32, 'blayout=col_major, slayout=row_major, fractal=1024');
  const text = `module {
  func.func @k() {
    %a = pto.alloc_tile : ${A}
    %b = pto.alloc_tile : ${B}
    %sa = pto.alloc_tile : ${SA}
    %sb = pto.alloc_tile : ${SB}
    %c = pto.alloc_tile : ${C}
    pto.tgemv.mx ins(%a, %sa, %b, %sb : ${A}, ${SA}, ${B}, ${SB}) outs(%c : ${C})
    return
  }
}`;
  const asm = assemble('mx.pto', text, { target: 'a5' });
  expect(formatAll(asm.diags)).toBe('');
  expect(() => runFunction(asm.program, asm.types, asm.program.functions.get('k')!, new Map(), { numerics: 'cpu-sim', maxSteps: 100 })).toThrow(
    'pto.tgemv.mx: a_scale is f16: the VM decodes MX scales as 8-bit codes (f8E8M0, as the cube reads them), not f16 elements',
  );
});
