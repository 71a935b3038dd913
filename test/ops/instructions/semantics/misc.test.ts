/**
 * THISTOGRAM and TRANDOM on the VM (spec/instructions/misc.json). Histograms are checked against counts written
 * out here (by hand, or by counting per bin); TRANDOM against Random123's published Philox4x32-10 known answers
 * and a reference Philox written here with 32-bit number arithmetic (not the VM's BigInt code), in each profile's
 * word placement.
 */
import fc from 'fast-check';
import { assemble } from '../../../../src/verify/assemble';
import { formatAll } from '../../../../src/diag/diagnostic';
import { runFunction, Value } from '../../../../src/vm/interpreter';
import { GlobalBuffer } from '../../../../src/machine/memory';
import { ElemType } from '../../../../src/types/type';

type Numerics = 'npu' | 'cpu-sim';

interface TileArg {
  dtype: ElemType;
  rows: number;
  cols: number;
  /** Row-major element values of the whole tile (col-major for a DN tile); default: every byte 0xAB. */
  data?: number[];
  valid?: [number, number];
  blayout?: 'row_major' | 'col_major';
}

const SIZE: Partial<Record<ElemType, number>> = { u8: 1, u16: 2, u32: 4, i32: 4 };
const mlir = (e: ElemType) => (e.startsWith('u') ? 'ui' + e.slice(1) : e);
const tileType = (t: TileArg, v: [number, number] = [t.rows, t.cols]) =>
  `!pto.tile_buf<loc=vec, dtype=${mlir(t.dtype)}, rows=${t.rows}, cols=${t.cols}, v_row=${v[0]}, v_col=${v[1]}, blayout=${t.blayout ?? 'row_major'}, slayout=none_box, fractal=512, pad=0>`;

function storage(t: TileArg): Uint8Array {
  const size = SIZE[t.dtype]!;
  const bytes = new Uint8Array(t.rows * t.cols * size).fill(0xab);
  const view = new DataView(bytes.buffer);
  (t.data ?? []).forEach((v, k) => {
    if (size === 1) view.setUint8(k, v);
    else if (size === 2) view.setUint16(k * 2, v, true);
    else view.setUint32(k * 4, v >>> 0, true);
  });
  return bytes;
}

/** Loads every tile whole, runs `line` (T(name): the type the op sees), stores every tile whole; returns the bytes. */
function run(line: string, tiles: Record<string, TileArg>, numerics: Numerics = 'npu'): Record<string, DataView> {
  const body = ['%c0 = arith.constant 0 : index', '%c1 = arith.constant 1 : index'];
  const args: string[] = [];
  const values = new Map<string, Value>();
  const buffers: Record<string, GlobalBuffer> = {};
  Object.entries(tiles).forEach(([name, t], i) => {
    buffers[name] = new GlobalBuffer(name, t.dtype, storage(t));
    values.set(`%g_${name}`, buffers[name]);
    const m = mlir(t.dtype);
    args.push(`%g_${name}: !pto.ptr<${m}>`);
    // A DN tile is its column-major storage: loaded as a flat row of the same bytes.
    const [vr, vc] = t.blayout === 'col_major' ? [1, t.rows * t.cols] : [t.rows, t.cols];
    const flat: TileArg = { dtype: t.dtype, rows: vr, cols: vc };
    const view = `!pto.partition_tensor_view<${vr}x${vc}x${m}>`;
    body.push(
      `%r_${name} = arith.constant ${vr} : index`,
      `%k_${name} = arith.constant ${vc} : index`,
      `%a_${name} = arith.constant ${i * 16384} : index`,
      `%tv_${name} = pto.make_tensor_view %g_${name}, shape = [%r_${name}, %k_${name}], strides = [%k_${name}, %c1] : !pto.tensor_view<?x?x${m}>`,
      `%pv_${name} = pto.partition_view %tv_${name}, offsets = [%c0, %c0], sizes = [%r_${name}, %k_${name}] : !pto.tensor_view<?x?x${m}> -> ${view}`,
      `%full_${name} = pto.alloc_tile addr = %a_${name} : ${tileType(flat)}`,
      `pto.tload ins(%pv_${name} : ${view}) outs(%full_${name} : ${tileType(flat)})`,
      `%${name} = pto.alloc_tile addr = %a_${name} : ${tileType(t, t.valid)}`,
    );
  });
  body.push(line.replace(/\bT\(([a-z0-9_]+)\)/g, (_, n) => tileType(tiles[n], tiles[n].valid)));
  for (const [name, t] of Object.entries(tiles)) {
    const [vr, vc] = t.blayout === 'col_major' ? [1, t.rows * t.cols] : [t.rows, t.cols];
    body.push(
      `pto.tstore ins(%full_${name} : ${tileType({ dtype: t.dtype, rows: vr, cols: vc })}) outs(%pv_${name} : !pto.partition_tensor_view<${vr}x${vc}x${mlir(t.dtype)}>)`,
    );
  }
  body.push('return');
  const text = ['module {', `  func.func @k(${args.join(', ')}) {`, ...body.map((l) => '    ' + l), '  }', '}', ''].join('\n');
  const asm = assemble('test.pto', text, { target: 'a5' });
  if (asm.diags.hasErrors()) throw new Error(formatAll(asm.diags) + '\n' + text);
  runFunction(asm.program, asm.types, [...asm.program.functions.values()][0], values, { numerics, maxSteps: 1e6 });
  const out: Record<string, DataView> = {};
  for (const [name, b] of Object.entries(buffers)) out[name] = new DataView(b.bytes.buffer, b.bytes.byteOffset, b.bytes.byteLength);
  return out;
}

const u32Row = (view: DataView, cols: number, row: number, count: number, first = 0) =>
  Array.from({ length: count }, (_, c) => view.getUint32((row * cols + first + c) * 4, true));

/** A cumulative histogram from (bin, count) steps: bins below the first step are 0. */
function cumulative(steps: [number, number][]): number[] {
  const out: number[] = [];
  let total = 0;
  for (let b = 0; b < 256; b++) {
    for (const [bin, n] of steps) if (bin === b) total += n;
    out.push(total);
  }
  return out;
}

describe('thistogram', () => {
  const histogram = (attrs: string) => `pto.thistogram ins(%src, %idx${attrs ? ` {${attrs}}` : ''} : T(src), T(idx)) outs(%dst : T(dst))`;
  const dst = (rows: number): TileArg => ({ dtype: 'u32', rows, cols: 264, valid: [rows, 256] });
  // A ui16 src takes a DN idx with src's rows (PTOAS): 32 rows (a 32-byte column), 2 of them valid.
  const dst16: TileArg = { dtype: 'u32', rows: 32, cols: 264, valid: [2, 256] };
  const idx16 = (data: number[] = []): TileArg => ({
    dtype: 'u8',
    rows: 32,
    cols: 1,
    blayout: 'col_major',
    data: [...data, ...Array(32 - data.length).fill(0)],
    valid: [2, 1],
  });

  test('ui16, byte 1: cumulative counts of the high bytes, per row; dst columns past 256 untouched', () => {
    const src: TileArg = {
      dtype: 'u16',
      rows: 32,
      cols: 16,
      valid: [2, 16],
      data: [0x0100, 0x0105, 0x0200, 0xff00, ...Array(12).fill(0x0000), ...Array(16).fill(0x7f7f)],
    };
    const idx = idx16();
    const out = run(histogram('byte = 1 : i32'), { src, idx, dst: dst16 });
    expect(u32Row(out.dst, 264, 0, 256)).toEqual(
      cumulative([
        [0, 12],
        [1, 2],
        [2, 1],
        [255, 1],
      ]),
    );
    expect(u32Row(out.dst, 264, 1, 256)).toEqual(cumulative([[0x7f, 16]]));
    expect(u32Row(out.dst, 264, 0, 8, 256)).toEqual(Array(8).fill(0xabababab));
  });

  test('byte defaults to 1; the legacy isMSB = true is byte 1, false byte 0', () => {
    const src: TileArg = { dtype: 'u16', rows: 32, cols: 16, valid: [2, 16], data: [0x0203, 0x0105, ...Array(14).fill(0x0200), ...Array(16).fill(0x0101)] };
    const idx = idx16([2, 1]);
    const highBytes = [
      cumulative([
        [1, 1],
        [2, 15],
      ]),
      cumulative([[1, 16]]),
    ];
    for (const attrs of ['', 'isMSB = true']) {
      const out = run(histogram(attrs), { src, idx, dst: dst16 });
      expect([0, 1].map((r) => u32Row(out.dst, 264, r, 256))).toEqual(highBytes);
    }
    // Byte 0 of the elements whose high byte is the row's idx byte: row 0 (idx 2): 0x03 and 14 x 0x00; row 1 (idx 1): 16 x 0x01.
    const out = run(histogram('isMSB = false'), { src, idx, dst: dst16 });
    expect([0, 1].map((r) => u32Row(out.dst, 264, r, 256))).toEqual([
      cumulative([
        [0, 14],
        [3, 1],
      ]),
      cumulative([[1, 16]]),
    ]);
  });

  test('a dst with no valid columns receives no bins', () => {
    const src: TileArg = { dtype: 'u16', rows: 32, cols: 16, valid: [2, 16], data: Array(32).fill(0x0100) };
    const out = run(histogram(''), { src, idx: idx16(), dst: { dtype: 'u32', rows: 32, cols: 256, valid: [2, 0] } });
    expect(u32Row(out.dst, 256, 0, 256)).toEqual(Array(256).fill(0xabababab));
  });

  test("ui16, byte 0: only the elements whose high byte is the row's idx byte", () => {
    const src: TileArg = {
      dtype: 'u16',
      rows: 32,
      cols: 16,
      valid: [2, 16],
      data: [0x0103, 0x0203, 0x01ff, 0x0100, ...Array(12).fill(0x0501), 0x0207, 0x0207, 0x0103, ...Array(13).fill(0x0300)],
    };
    const idx = idx16([1, 2]);
    const out = run(histogram('byte = 0 : i32'), { src, idx, dst: dst16 }, 'cpu-sim');
    expect(u32Row(out.dst, 264, 0, 256)).toEqual(
      cumulative([
        [0, 1],
        [3, 1],
        [0xff, 1],
      ]),
    );
    expect(u32Row(out.dst, 264, 1, 256)).toEqual(cumulative([[7, 2]]));
  });

  test('ui32, byte 0: filtered by bytes 3, 2, 1 equal to idx(0, 0), idx(1, 0), idx(2, 0) for every row', () => {
    const data = [0xaabbcc01, 0xaabbcc02, 0xaabbcd01, 0xaabacc01, 0xabbbcc01, 0xaabbccff, ...Array(26).fill(0)];
    const src: TileArg = { dtype: 'u32', rows: 1, cols: 32, data };
    const idx: TileArg = { dtype: 'u8', rows: 3, cols: 32, data: [0xaa, ...Array(31).fill(0), 0xbb, ...Array(31).fill(0), 0xcc, ...Array(31).fill(0)] };
    const out = run(histogram('byte = 0 : i32'), { src, idx, dst: dst(1) });
    expect(u32Row(out.dst, 264, 0, 256)).toEqual(
      cumulative([
        [1, 1],
        [2, 1],
        [0xff, 1],
      ]),
    );
  });

  test('property (ui32, any byte): dst(r, b) counts the passing elements whose byte is at most b', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 0xffffffff }), { minLength: 64, maxLength: 64 }),
        fc.integer({ min: 0, max: 3 }),
        fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 3, maxLength: 3 }),
        (raw, byte, filterSeeds) => {
          // Mostly shared upper bytes, so that filters pass often.
          const data = raw.map((v) => ((0x01020300 | (v & 0xff)) ^ ((v >>> 8) & 0x03030300)) >>> 0);
          const filters = filterSeeds.map((f, k) => [1, 2, 3][k] ^ f);
          const rows = 3 - byte;
          const idx: TileArg | undefined =
            rows > 0 ? { dtype: 'u8', rows, cols: 32, data: filters.slice(0, rows).flatMap((f) => [f, ...Array(31).fill(0)]) } : undefined;
          const src: TileArg = { dtype: 'u32', rows: 2, cols: 32, data };
          const out = run(histogram(`byte = ${byte} : i32`), { src, idx: idx ?? { dtype: 'u8', rows: 1, cols: 32 }, dst: dst(2) });
          for (let r = 0; r < 2; r++) {
            const row = data.slice(r * 32, r * 32 + 32);
            const passing = row.filter((v) => filters.slice(0, rows).every((f, k) => ((v >>> (8 * (3 - k))) & 0xff) === f));
            const want = Array.from({ length: 256 }, (_, b) => passing.filter((v) => ((v >>> (8 * byte)) & 0xff) <= b).length);
            expect(u32Row(out.dst, 264, r, 256)).toEqual(want);
          }
        },
      ),
      { numRuns: 12 },
    );
  });
});

/** Philox-4x32 with 32-bit number arithmetic: the high half of a 32x32 product from 16-bit pieces. */
function mulHiLo(a: number, b: number): [number, number] {
  const lo = Math.imul(a, b) >>> 0;
  const [a0, a1, b0, b1] = [a & 0xffff, a >>> 16, b & 0xffff, b >>> 16];
  const mid = ((a0 * b0) >>> 16) + ((a1 * b0) & 0xffff) + a0 * b1;
  const hi = (a1 * b1 + ((a1 * b0) >>> 16) + Math.floor(mid / 0x10000)) >>> 0;
  return [hi, lo];
}

function philox(counter: number[], key: number[], rounds = 10): number[] {
  let [c0, c1, c2, c3] = counter;
  let [k0, k1] = key;
  for (let i = 0; i < rounds; i++) {
    const [hi0, lo0] = mulHiLo(0xd2511f53, c0);
    const [hi1, lo1] = mulHiLo(0xcd9e8d57, c2);
    [c0, c1, c2, c3] = [(hi1 ^ c1 ^ k0) >>> 0, lo1, (hi0 ^ c3 ^ k1) >>> 0, lo0];
    k0 = (k0 + 0x9e3779b9) >>> 0;
    k1 = (k1 + 0xbb67ae85) >>> 0;
  }
  return [c0, c1, c2, c3];
}

/** counter + n, as four 32-bit words with carries (n < 2^32). */
function add(counter: number[], n: number): number[] {
  const out = [...counter];
  let carry = n;
  for (let w = 0; w < 4 && carry > 0; w++) {
    const sum = out[w] + carry;
    out[w] = sum >>> 0;
    carry = Math.floor(sum / 0x100000000);
  }
  return out;
}

// Random123's published known answers for Philox4x32-10 (its tests/kat_vectors).
const KAT: [number[], number[], number[]][] = [
  [
    [0, 0, 0, 0],
    [0, 0],
    [0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8],
  ],
  [
    [0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff],
    [0xffffffff, 0xffffffff],
    [0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd],
  ],
  [
    [0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344],
    [0xa4093822, 0x299f31d0],
    [0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1],
  ],
];

describe('trandom', () => {
  // PTOAS's form: six i32 words (key0, key1, counter0..3), written as signed constants.
  const line = (key: number[], counter: number[], attrs = '') =>
    [
      ...[...key, ...counter].map((w, i) => `%w${i} = arith.constant ${w | 0} : i32`),
      `pto.trandom ins(%w0, %w1, %w2, %w3, %w4, %w5${attrs} : i32, i32, i32, i32, i32, i32) outs(%dst : T(dst))`,
    ].join('\n');

  test('the reference Philox here gives the known answers', () => {
    for (const [counter, key, want] of KAT) expect(philox(counter, key)).toEqual(want);
  });

  test.each(KAT)('known answer for counter %j, key %j: npu writes the 4 words at columns 0..3, cpu-sim at 0, 64, 128, 192', (counter, key, want) => {
    const tiles = (): Record<string, TileArg> => ({ dst: { dtype: 'u32', rows: 1, cols: 256 } });
    expect(u32Row(run(line(key, counter), tiles(), 'npu').dst, 256, 0, 4)).toEqual(want);
    const cpu = run(line(key, counter), tiles(), 'cpu-sim').dst;
    expect([0, 64, 128, 192].map((c) => cpu.getUint32(c * 4, true))).toEqual(want);
  });

  test.each([7, 10])('a whole 256-element step with %s rounds: lane l runs counter + l (with carries)', (rounds) => {
    const counter = [0xfffffff0, 0xffffffff, 5, 0];
    const key = [0x01234, 0x56789];
    const tiles = (): Record<string, TileArg> => ({ dst: { dtype: 'u32', rows: 1, cols: 256 } });
    const lanes = Array.from({ length: 64 }, (_, l) => philox(add(counter, l), key, rounds));
    const text = line(key, counter, ` {rounds = ${rounds} : i32}`);
    expect(u32Row(run(text, tiles(), 'npu').dst, 256, 0, 256)).toEqual(lanes.flat());
    expect(u32Row(run(text, tiles(), 'cpu-sim').dst, 256, 0, 256)).toEqual([0, 1, 2, 3].flatMap((w) => lanes.map((words) => words[w])));
  });

  test('the counter advances per step and per row differently: cpu-sim by cols / 4, npu by 64 and by the valid tail', () => {
    const counter = [7, 0, 0, 0];
    const key = [1, 2];
    // Two rows of a 2 x 512 tile with 300 valid columns: two steps per row.
    const tiles = (): Record<string, TileArg> => ({ dst: { dtype: 'i32', rows: 2, cols: 512, valid: [2, 300] } });
    const cpu = run(line(key, counter), tiles(), 'cpu-sim').dst;
    const npu = run(line(key, counter), tiles(), 'npu').dst;
    const first = (view: DataView, row: number, col: number) => view.getUint32((row * 512 + col) * 4, true);
    // cpu-sim: + 128 per step (512 / 4); row 1 starts after two steps.
    expect(first(cpu, 0, 256)).toBe(philox(add(counter, 128), key)[0]);
    expect(first(cpu, 1, 0)).toBe(philox(add(counter, 256), key)[0]);
    expect(first(cpu, 1, 64 + 3)).toBe(philox(add(counter, 256 + 3), key)[1]);
    // npu: + 64 after the first step, + ((300 - 1) % 64) + 1 = 44 after the row's last.
    expect(first(npu, 0, 256)).toBe(philox(add(counter, 64), key)[0]);
    expect(first(npu, 1, 0)).toBe(philox(add(counter, 108), key)[0]);
    expect(first(npu, 1, 4 * 3 + 1)).toBe(philox(add(counter, 108 + 3), key)[1]);
    // Columns past the valid 300 are untouched in both.
    for (const view of [cpu, npu]) expect(u32Row(view, 512, 1, 212, 300)).toEqual(Array(212).fill(0xabababab));
  });
});
