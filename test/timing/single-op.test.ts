import * as fs from 'fs';
import * as path from 'path';
import { tileOpCost } from '../../src/timing/estimate';
import { a2a3FormulaCost } from '../../src/timing/a2a3-formula';
import { sliceInstructions, transferCost, ubCopyInstructions } from '../../src/timing/transfer';
import { costModelTables } from '../../src/spec/costmodel';
import type { OpCost, TileOpInput } from '../../src/timing/cost';

const cycles = (c: OpCost): number | string => (c.kind === 'cycles' ? c.cycles : `no data: ${c.reason}`);

describe('one tile op from pto-isa`s formula tables (values computed by hand from the CSV rows)', () => {
  it('a2a3: round(slope * rows * cols + bias) of the row for the op, dtype and width', () => {
    // TADDS,fp32,64: 0.0156 * 2048 + 25 = 56.95
    expect(cycles(tileOpCost({ op: 'TADDS', arch: 'a2a3', dtype: 'f32', rows: 32, cols: 64 }))).toBe(57);
    // TMUL,fp16,128: 0.0156 * 2048 + 26 = 57.95
    expect(cycles(tileOpCost({ op: 'TMUL', arch: 'a2a3', dtype: 'f16', rows: 16, cols: 128 }))).toBe(58);
    // TEXP,any,*: 0.0314 * 2048 + 30.1 = 94.41, any width and dtype (tileOpCost prefers the instruction model there)
    expect(cycles(a2a3FormulaCost({ op: 'TEXP', arch: 'a2a3', dtype: 'f32', rows: 32, cols: 64 }))).toBe(94);
  });

  it('a2a3 TMATMUL: 6 + repeats of 16 x (32 bytes of k) x 16, an f32 repeat two cycles', () => {
    expect(cycles(tileOpCost({ op: 'TMATMUL', arch: 'a2a3', dtype: 'f16', rows: 31, cols: 17, k: 33 }))).toBe(6 + 2 * 3 * 2);
    expect(cycles(tileOpCost({ op: 'TMATMUL', arch: 'a2a3', dtype: 'f32', rows: 31, cols: 17, k: 33 }))).toBe(6 + 2 * (2 * 5 * 2));
  });

  it('reproduces the exact outputs st_fit requires of pto-isa`s a2a3 formula model', () => {
    const file = path.join(__dirname, '..', 'fixtures', 'costmodel', 'formula-model.json');
    const cases: { test: string; input: Record<string, string | number>; modelCycles: number }[] = JSON.parse(fs.readFileSync(file, 'utf8')).cases;
    expect(cases.length).toBe(4);
    for (const c of cases) {
      const dtype = c.input.dtype === 'Float' ? 'f32' : 'f16';
      const input: TileOpInput = {
        op: String(c.input.op),
        arch: 'a2a3',
        dtype,
        rows: Number(c.input.rows),
        cols: Number(c.input.cols),
        k: c.input.k as number,
      };
      // The formula model itself: tileOpCost prefers the instruction model to its dtype-blind rows (TEXP).
      const cost = input.op === 'TMATMUL' ? tileOpCost(input) : a2a3FormulaCost(input);
      expect([c.test, cycles(cost)]).toEqual([c.test, c.modelCycles]);
    }
  });

  it('a5 2-D TADD: nested curve (p0 * inner + p1) * rows + p2 over the valid region', () => {
    // 10 x 160 tile, valid 10 x 128: 2-D (the valid width is not the tile's), 2 repeats of 64 per row, no tail:
    // (1.8749443 * 2 + 2.8762808) * 10 + 44.344619 = 110.61
    const c = tileOpCost({ op: 'TADD', arch: 'a5', dtype: 'f32', rows: 10, cols: 160, validRows: 10, validCols: 128 });
    expect(cycles(c)).toBe(111);
    expect(c.kind === 'cycles' && c.basis).toBe('A5 curve TADD fp32 2D NO_POST_UPDATE full');
  });

  it('a5 TSEL f32 on the 1-D path picks its curve by the parity of the repeat count', () => {
    // 640 / 64 = 10 repeats, even: 1.9336735 * 10 + 58.846939 = 78.18
    expect(cycles(tileOpCost({ op: 'TSEL', arch: 'a5', dtype: 'f32', rows: 1, cols: 640 }))).toBe(78);
    // 704 / 64 = 11 repeats, odd: 3.9142857 * 11 + 63.885714 = 106.94
    expect(cycles(tileOpCost({ op: 'TSEL', arch: 'a5', dtype: 'f32', rows: 1, cols: 704 }))).toBe(107);
  });

  it('says "no data" (never a number) for an op, dtype or width the tables lack', () => {
    expect(tileOpCost({ op: 'TGATHER', arch: 'a2a3', dtype: 'f32', rows: 16, cols: 16 })).toMatchObject({ kind: 'no-data' });
    expect(tileOpCost({ op: 'TMAX', arch: 'a5', dtype: 'f32', rows: 16, cols: 64 })).toMatchObject({ kind: 'no-data' });
    // The formula table alone (tileOpCost has these from the instruction model: test/timing/a2a3-instructions.test.ts)
    expect(a2a3FormulaCost({ op: 'TADDS', arch: 'a2a3', dtype: 'i32', rows: 16, cols: 64 })).toMatchObject({ kind: 'no-data' });
    expect(a2a3FormulaCost({ op: 'TADDS', arch: 'a2a3', dtype: 'f32', rows: 16, cols: 448 })).toMatchObject({
      kind: 'no-data',
      reason: expect.stringContaining('no curve for 448 columns'),
    });
    expect(tileOpCost({ op: 'TMATMUL', arch: 'a2a3', dtype: 'i16', rows: 6, cols: 8, k: 7 })).toMatchObject({ kind: 'no-data', pipe: 'cube' });
  });
});

describe('DMA from bytes and the path`s bandwidth', () => {
  it('GM -> UB on the curve measured from pto-isa`s profiled loads: start-up + bytes / rate, per DMA instruction', () => {
    // arch.json: 262.35 cycles + bytes / 127.66; round(262.35 + 65536 / 127.66) = round(775.71)
    expect(cycles(transferCost({ path: 'GM_TO_UB', instructions: [65536] }))).toBe(776);
    // 32 instructions of 512 bytes: each round(262.35 + 4.01) = 266
    expect(cycles(transferCost({ path: 'GM_TO_UB', instructions: Array(32).fill(512) }))).toBe(32 * 266);
    // pto-isa's flat 100.9 GiB/s (58.56 bytes a cycle) where a lowering asks for it: floor(65536 / 58.56) = 1119
    expect(cycles(transferCost({ path: 'GM_TO_UB', instructions: [65536], curve: 'flat' }))).toBe(1119);
  });

  it('UB -> UB (TMOV between vector tiles) as pto-isa`s TMovToVec issues its copies, 5 cycles + 32 bytes a cycle each', () => {
    const tile = (rows: number, cols: number, validRows: number, validCols: number) => ({ rows, cols, validRows, validCols });
    // Whole rows: one copy of all valid rows (64 x 128 f32 = 32 KB): 5 + 32768 / 32 = 1029.
    expect(ubCopyInstructions(tile(64, 128, 64, 128), tile(64, 128, 64, 128), 4, 32)).toEqual([32768]);
    expect(cycles(transferCost({ path: 'UB_TO_UB', instructions: [32768] }))).toBe(1029);
    // A valid width short of the tile's: a copy per row, 125 f32 = 500 bytes rounded up to 16 blocks of 32.
    expect(ubCopyInstructions(tile(64, 128, 63, 125), tile(64, 128, 63, 125), 4, 32)).toEqual(Array(63).fill(512));
    expect(cycles(transferCost({ path: 'UB_TO_UB', instructions: Array(63).fill(512) }))).toBe(63 * 21);
    // Tiles of different widths: a copy per row even at the full width; 23 f32 = 92 bytes -> 3 blocks.
    expect(ubCopyInstructions(tile(16, 24, 15, 23), tile(16, 32, 15, 23), 4, 32)).toEqual(Array(15).fill(96));
  });

  it('a TLOAD or TSTORE issues one DMA per slice of the view`s outer dimensions', () => {
    expect(sliceInstructions([2, 2, 2, 32, 64], 65536)).toEqual(Array(8).fill(8192));
    expect(sliceInstructions([32, 64], 8192)).toEqual([8192]);
  });

  it('other paths at their flat bandwidth', () => {
    // L1 -> GM 32 GiB/s = 18.5729 bytes a cycle: 4096 / 18.5729 = 220.54
    expect(transferCost({ path: 'L1_TO_GM', instructions: [4096] })).toMatchObject({ kind: 'cycles', cycles: 220, pipe: 'mte3' });
    expect(transferCost({ path: 'L0C_TO_GM', instructions: [1024] })).toMatchObject({ pipe: 'fixpipe' });
  });

  it('the tables load through their zod schemas', () => {
    const t = costModelTables();
    expect(t.a2a3.rows.length).toBe(274);
    expect(t.a5.rows.length).toBe(254);
    expect(t.arch.frequencyHz).toBe(1.85e9);
  });
});
