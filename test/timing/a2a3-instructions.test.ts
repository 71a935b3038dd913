import { a2a3InstructionCost } from '../../src/timing/a2a3-instructions';
import { tileOpCost } from '../../src/timing/estimate';
import type { OpCost } from '../../src/timing/cost';
import type { TileOpInput } from '../../src/timing/cost';

const cycles = (c: OpCost): number | string => (c.kind === 'cycles' ? c.cycles : `no data: ${c.reason}`);
const a2a3 = (op: string, dtype: TileOpInput['dtype'], rows: number, cols: number): TileOpInput => ({ op, arch: 'a2a3', dtype, rows, cols });

/**
 * pto-isa's a2a3 instruction-level model, worked by hand from its a2a3 lowerings (include/pto/npu/a2a3) and the
 * intrinsic costs of cce_costmodel_vector_compute.hpp. Several are the very numbers tests/costmodel/st's accuracies
 * imply for pto-isa's model (accuracy = 1 - |profiled - model| / profiled).
 */
describe('a2a3 tile ops in pto-isa`s instruction-level model', () => {
  it('one vadd over the whole tile: head + slope * repeats + tail', () => {
    // TADD f32 64x64: 4096 / 64 = 64 repeats: 10 + 2 * 64 + 14 = 152 (st: profiled 160, accuracy 0.949999 = 1 - 8/160)
    expect(cycles(a2a3InstructionCost(a2a3('TADD', 'f32', 64, 64)))).toBe(152);
    // TADD f16 16x256: 128 lanes, 32 repeats: 10 + 64 + 14 = 88 (st: profiled 92, accuracy 1 - 4/92)
    expect(cycles(a2a3InstructionCost(a2a3('TADD', 'f16', 16, 256)))).toBe(88);
  });

  it('a tile narrower than a repeat: rows as repeats under a partial mask, which costs the count-mode floor', () => {
    // TADD i16 64x64 (64 < 128 lanes): mask 1 + vadd 64 repeats (10 + 128 + floor 16) + full mask 1 + tail 14 = 170
    expect(cycles(a2a3InstructionCost(a2a3('TADD', 'i16', 64, 64)))).toBe(170);
  });

  it('a width that is not a whole number of repeats: one count-mode call (repeat 0)', () => {
    // TADD f32 4x100: set_mask_count 1 + count mask 1 + vadd(0) (10 + floor 16) + set_mask_norm 1 + full mask 1 + tail 14
    expect(cycles(a2a3InstructionCost(a2a3('TADD', 'f32', 4, 100)))).toBe(44);
  });

  it('scalar ops with a runtime valid region: rows as repeats per 256-byte column block, the remainder masked', () => {
    // TADDS i16 15x192: vadds 15 repeats (13 + 15), mask 1, vadds 15 repeats (15), mask 1, tail 18 = 63 (st implies 63)
    expect(cycles(a2a3InstructionCost(a2a3('TADDS', 'i16', 15, 192)))).toBe(63);
    // TADDS f32 256x16: more than 255 rows: mask 1, vadds 255 (13 + 255), vadds 1 (1), mask 1, tail 18 = 289 (st implies 289)
    expect(cycles(a2a3InstructionCost(a2a3('TADDS', 'f32', 256, 16)))).toBe(289);
  });

  it('unary ops: one run of the intrinsic', () => {
    // TEXP f16 64x64: 32 repeats: 13 + 2 * 32 + 18 = 95; TRSQRT f16 64x64: 10 + 32 + 14 = 56
    expect(cycles(a2a3InstructionCost(a2a3('TEXP', 'f16', 64, 64)))).toBe(95);
    expect(cycles(a2a3InstructionCost(a2a3('TRSQRT', 'f16', 64, 64)))).toBe(56);
  });

  it('TDIVS on i16 and i32 takes pto-isa`s stated constant', () => {
    expect(cycles(a2a3InstructionCost(a2a3('TDIVS', 'i32', 31, 128)))).toBe(4);
  });

  it('an op without a lowering here has no data', () => {
    expect(a2a3InstructionCost(a2a3('TGATHER', 'f32', 8, 32)).kind).toBe('no-data');
    expect(a2a3InstructionCost({ ...a2a3('TEXP', 'f32', 4, 64), validCols: 40 }).kind).toBe('no-data');
  });

  it('tileOpCost on a2a3: the dtype`s own formula curve first, then the instruction model, then the dtype-blind rows', () => {
    // TADDS f32 width 64 has its own curve: 0.0156 * 2048 + 25 = 57 (the instruction model says 63)
    const fitted = tileOpCost(a2a3('TADDS', 'f32', 32, 64));
    expect([cycles(fitted), fitted.kind === 'cycles' && fitted.basis]).toEqual([57, 'a2a3 formula TADDS fp32 cols=64']);
    // TADD has no curve: 152 as above; TEXP f16 no longer takes the f32-fitted blind row (159 for 64x64)
    expect(cycles(tileOpCost(a2a3('TADD', 'f32', 64, 64)))).toBe(152);
    expect(cycles(tileOpCost(a2a3('TEXP', 'f16', 64, 64)))).toBe(95);
  });
});

describe('a2a3 column reductions in pto-isa`s instruction-level model', () => {
  it('TCOLMAX: the first row copied UB -> UB, each further row folded in with a barrier after it (head and tail each time)', () => {
    // f32 64x64: copy of 256 bytes (0 cycles at 1024 GiB/s) + barrier 1; set_mask_count 1 + count mask 1;
    // 63 x (vmax(0): head 10 + floor 16, barrier 1 + tail 14) = 2583; set_mask_norm 1 + full mask 1; barrier 1 = 2589,
    // the profiled cycles of st's TColMax.float_64x64
    expect(cycles(a2a3InstructionCost(a2a3('TCOLMAX', 'f32', 64, 64)))).toBe(2589);
    // f16 64x64: 64 < 128 lanes, a masked repeat per row: 1 + 1 (mask) + 63 x (10 + 2 + 16 + 1 + 14) + 1 + 1 = 2713
    expect(cycles(a2a3InstructionCost(a2a3('TCOLMAX', 'f16', 64, 64)))).toBe(2713);
    // one row: the copy alone, 12288 bytes at 1024 GiB/s and 1.85 GHz = 20.67 -> 20, and its barrier
    expect(cycles(a2a3InstructionCost(a2a3('TCOLMAX', 'f32', 1, 3072)))).toBe(21);
  });

  it('TCOLSUM: sequential, pairwise through the scratch tile, and no data when the form is not known', () => {
    // sequential f16 16x256: copy 0 + barrier 1, count mode 2, 15 x (vadd(0) 10 + 16, barrier 1 + 14), 2 = 620
    expect(cycles(a2a3InstructionCost({ ...a2a3('TCOLSUM', 'f16', 16, 256), binary: false }))).toBe(620);
    // pairwise f32 64x64: levels of 32, 16, 8, 4, 2, 1 adds, each 2 + (26 + 16 per further add) + barrier 15 + 2,
    // every level after the first with one more barrier (1); then the copy (0) and its barrier (1):
    // 541 + 286 + 158 + 94 + 62 + 46 + 1 = 1188
    expect(cycles(a2a3InstructionCost({ ...a2a3('TCOLSUM', 'f32', 64, 64), binary: true }))).toBe(1188);
    expect(a2a3InstructionCost(a2a3('TCOLSUM', 'f32', 64, 64)).kind).toBe('no-data');
  });

  it('TMATMUL i8: one cycle a fractal like f16 (only f32 takes two): 6 + 1 for 6x7x8', () => {
    expect(cycles(tileOpCost({ ...a2a3('TMATMUL', 'i8', 6, 8), k: 7 }))).toBe(7);
  });
});

describe('a2a3 row reductions in pto-isa`s instruction-level model', () => {
  it('a row of one repeat: one count-mode vcmax/vcadd, the values st`s accuracies imply for pto-isa`s model', () => {
    // TROWMAX f32 64x64: set_mask_count 1 + mask 1 + vcmax(0) head 6 + norm 1 + full mask 1 + barrier 1 (tail 0) = 11;
    // st: profiled 480, accuracy 0.022916 = 11/480
    expect(cycles(a2a3InstructionCost(a2a3('TROWMAX', 'f32', 64, 64)))).toBe(11);
    // TROWSUM f16 64x128: the same with vcadd (head 14, tail 32): 4 + 14 + 1 + 32 = 51; st: 0.10303 = 51/495
    expect(cycles(a2a3InstructionCost(a2a3('TROWSUM', 'f16', 64, 128)))).toBe(51);
  });

  it('wider rows: repeats folded into the scratch by vmax in count mode, a barrier after each, then the reduction', () => {
    // f32 16x256, 4 repeats a row: folds of repeats 0+1, then 2 and 3, each 4 + vmax(0) (10 + floor 16) + barrier
    // 1 + tail 14 = 45; then the vcmax call 11: 3 x 45 + 11 = 146
    expect(cycles(a2a3InstructionCost(a2a3('TROWMAX', 'f32', 16, 256)))).toBe(146);
    // f32 8x100: the first repeat of each row copied (8 x 256 bytes at 1024 GiB/s: 3) + barrier 1; the 36 left
    // under a mask: mask 1, vmax 8 repeats (10 + 16 + floor 16), full mask 1, barrier 1 + 14; then vcmax 11 = 74
    expect(cycles(a2a3InstructionCost(a2a3('TROWMAX', 'f32', 8, 100)))).toBe(74);
  });

  it('no data where pto-isa lowers differently and the input does not say how', () => {
    expect(a2a3InstructionCost(a2a3('TROWMAX', 'f32', 64, 128))).toMatchObject({ kind: 'no-data', reason: expect.stringContaining('by groups') });
    expect(a2a3InstructionCost(a2a3('TROWSUM', 'i16', 16, 64)).kind).toBe('no-data');
  });

  it('into a column, f32 64x128, 32x256, 16x512 and 8x1024 reduce by groups (vcgmax/vcgadd), a barrier after each step', () => {
    const column = (op: string, rows: number, cols: number): TileOpInput => ({ ...a2a3(op, 'f32', rows, cols), columnDestination: true });
    // 32x256: vcgmax 128 repeats (14 + 128, barrier 1 + tail 17), vmax 8 (10 + 16, 1 + 14), vmax 4 (10 + 8, 1 + 14),
    // vcgmax 4 (14 + 4, 1 + 17): 160 + 41 + 33 + 36 = 270, perf_sim's TROWMAX(32x1,fp32) in its flash-attention trace;
    // TROWSUM with vcgadd (14, 1, 24) and vadd: 167 + 41 + 33 + 43 = 284, perf_sim's too (every tail paid at a barrier).
    expect(cycles(a2a3InstructionCost(column('TROWMAX', 32, 256)))).toBe(270);
    expect(cycles(a2a3InstructionCost(column('TROWSUM', 32, 256)))).toBe(284);
    // 64x128: vcgmax 128 (160), vmax 8 (41), vcgmax 8 (14 + 8 + 1 + 17 = 40): 241
    expect(cycles(a2a3InstructionCost(column('TROWMAX', 64, 128)))).toBe(241);
    // A row-major destination takes the folds: three count-mode vmax folds, each set_mask_count, mask, vmax(0)
    // (10 + floor 16), set_mask_norm, mask, barrier 1 + tail 14 = 45; then the count-mode vcmax(0) 1 + 1 + 6 + 1 + 1
    // and its barrier 1: 135 + 11 = 146
    expect(cycles(a2a3InstructionCost({ ...a2a3('TROWMAX', 'f32', 32, 256), columnDestination: false }))).toBe(146);
  });
});

describe('a2a3 TCVT in pto-isa`s instruction-level model', () => {
  const cvt = (from: TileOpInput['dtype'], to: TileOpInput['dtype'], rows: number, cols: number): TileOpInput => ({
    ...a2a3('TCVT', from, rows, cols),
    dstDtype: to,
  });
  it('f32 <-> f16: a vconv per row (repeats of 64, the f32 side), two set_ctrl around it', () => {
    // f32 -> f16 4x64: set_ctrl 1 + vconv 1 repeat per row (14 + 4 x 2) + tail 18 + set_ctrl 1 = 42
    expect(cycles(a2a3InstructionCost(cvt('f32', 'f16', 4, 64)))).toBe(42);
    // f16 -> f32 2x100: 1 + rows' whole repeat (14 + 2 + 2) + mask 1 + the 36 left, rows as repeats (2 x 2) + mask 1
    // + tail 18 + 1 = 44
    expect(cycles(a2a3InstructionCost(cvt('f16', 'f32', 2, 100)))).toBe(44);
  });
  it('other conversions have no data (pto-isa issues several instructions for many of them)', () => {
    expect(a2a3InstructionCost(cvt('f32', 'i8', 4, 64)).kind).toBe('no-data');
  });
});

describe('a2a3 TTRANS in pto-isa`s instruction-level model', () => {
  it('a scatter_vnchwconv per 32-byte column block over the 16-row groups, then the copy out', () => {
    // f32 128x128: 16 blocks x (4 set_va_reg_sb + 8 repeats x 2) + head 6 = 326; barrier 1; copy of 128 x 512 bytes
    // at 1024 GiB/s = 110: 437, the value st's accuracy implies (0.872255 of 501)
    expect(cycles(a2a3InstructionCost(a2a3('TTRANS', 'f32', 128, 128)))).toBe(437);
    // f16 20x16: one block: 4 + (6 + 2); the 4 rows past the group: 4 + 2; barrier 1; copy 16 x 64 bytes = 1: 20
    expect(cycles(a2a3InstructionCost(a2a3('TTRANS', 'f16', 20, 16)))).toBe(20);
    expect(a2a3InstructionCost(a2a3('TTRANS', 'i8', 32, 32)).kind).toBe('no-data');
  });
});

describe('a2a3 TSEL in pto-isa`s instruction-level model', () => {
  it('per row: mask bits duplicated, two barriers around set_cmpmask, one vsel', () => {
    // f16 1x128: set_mask_count 1; mask 1, vector_dup (11 + 1), barrier 1 + tail 13, set_cmpmask 1, barrier 1,
    // mask 1, vsel (13 + 2); set_mask_norm 1, full mask 1, vsel's tail 14 = 62
    expect(cycles(a2a3InstructionCost(a2a3('TSEL', 'f16', 1, 128)))).toBe(62);
    // f32 4x64: the rows after the first find the pipe busy (no vector_dup head): 62 + 3 x (1 + 1 + 14 + 1 + 1 + 1 + 15) = 164
    expect(cycles(a2a3InstructionCost(a2a3('TSEL', 'f32', 4, 64)))).toBe(164);
  });
});

describe('a2a3 TSORT32 in pto-isa`s instruction-level model', () => {
  it('per row one vbitsort over its 32-element blocks, a barrier after it', () => {
    // f32 8x32: 8 x (vbitsort 1 block: head 6 + 2, barrier 1) = 72
    expect(cycles(a2a3InstructionCost(a2a3('TSORT32', 'f32', 8, 32)))).toBe(72);
    expect(a2a3InstructionCost(a2a3('TSORT32', 'f16', 32, 16)).kind).toBe('no-data');
  });
});

/**
 * The ops of pto-isa's top-k kernel (perf_sim_st), worked by hand from TMrgSort.hpp, TGather.hpp, TSort32.hpp and
 * cce_costmodel_vector_compute.hpp (vmrgsort4: head 20, slope 78; vreducev2: head 14, slope 14, tail 20). perf_sim's
 * trace of that kernel shows the same TMRGSORT and TSORT32 cycles (and TGATHER without vreducev2's tail).
 */
describe('a2a3 TMRGSORT, TGATHER and TSORT32 as the top-k kernel issues them', () => {
  const row = (validCols: number) => ({ validRows: 1, validCols });
  it('TMRGSORT format 1: one vmrgsort4, a repeat per group of 4 blocks of blockLen', () => {
    // f32 1x2048, blockLen 64: 2048 / 256 = 8 repeats: 20 + 78 * 8 = 644; blockLen 256: 2 repeats: 20 + 156 = 176
    expect(cycles(a2a3InstructionCost({ ...a2a3('TMRGSORT', 'f32', 1, 2048), sources: [row(2048)], blockLen: 64 }))).toBe(644);
    expect(cycles(a2a3InstructionCost({ ...a2a3('TMRGSORT', 'f32', 1, 2048), sources: [row(2048)], blockLen: 256 }))).toBe(176);
    // 384 columns are not whole groups of 4 x 64
    expect(a2a3InstructionCost({ ...a2a3('TMRGSORT', 'f32', 1, 384), sources: [row(384)], blockLen: 64 }).kind).toBe('no-data');
  });

  it('TMRGSORT format 2: one vmrgsort4 repeat into tmp, a barrier, the UB -> UB copy of dst`s valid width at the flat rate', () => {
    // two lists of 256 f32 into 1x512: 20 + 78 + barrier 1 + 2048 bytes at 1024 GiB/s (594.2 bytes a cycle) = 3 -> 102
    expect(cycles(a2a3InstructionCost({ ...a2a3('TMRGSORT', 'f32', 1, 512), sources: [row(256), row(256)] }))).toBe(102);
  });

  it('TGATHER`s mask form: one vreducev2 in count mode, a repeat per source row', () => {
    // set_mask_count 1 + mask 1 + vreducev2 (14 + 14 * 1) + set_mask_norm 1 + full mask 1 + tail 20 = 52
    expect(cycles(a2a3InstructionCost({ ...a2a3('TGATHER', 'f32', 1, 1024), sources: [row(2048)], maskPattern: 'P0101' }))).toBe(52);
    // 7 rows: 14 + 14 * 7 + 4 + 20 = 136
    expect(cycles(a2a3InstructionCost({ ...a2a3('TGATHER', 'u32', 7, 512), sources: [{ validRows: 7, validCols: 1024 }], maskPattern: 'P1010' }))).toBe(136);
  });

  it('TSORT32 counts the blocks of the source`s width, not of the destination`s records', () => {
    // src 1x1024 f32 (dst 1x2048): 32 blocks: 6 + 2 * 32 + barrier 1 = 71
    expect(cycles(a2a3InstructionCost({ ...a2a3('TSORT32', 'f32', 1, 2048), sources: [row(1024), row(1024)] }))).toBe(71);
  });
});

describe('a2a3 TROWEXPAND{ADD,SUB,MUL,DIV,MAX,MIN} in pto-isa`s instruction-level model', () => {
  // dst and src0 rows x cols f32, the per-row operand rows x 1 (column-major, as a row reduction leaves it).
  const rowExpand = (op: string, rows: number, cols: number, rowMajor = false): TileOpInput => ({
    ...a2a3(op, 'f32', rows, cols),
    sources: [
      { validRows: rows, validCols: cols },
      { validRows: rows, validCols: rowMajor ? 8 : 1, rowMajor },
    ],
  });

  it('a column-major per-row operand: vbrcb, a barrier, then the rows as repeats per 256-byte column block', () => {
    // TROWEXPANDSUB 16x64: vbrcb(2) costs 0 (head 0, slope 0), the barrier 1 + vbrcb's tail 18; vsub 16 repeats after
    // the barrier 10 + 2 * 16; the tail 14 at the end: 75
    expect(cycles(a2a3InstructionCost(rowExpand('TROWEXPANDSUB', 16, 64)))).toBe(75);
    // A row-major per-row operand (one 32-byte block a row already): no vbrcb, no barrier: 10 + 32 + 14 = 56
    expect(cycles(a2a3InstructionCost(rowExpand('TROWEXPANDSUB', 16, 64, true)))).toBe(56);
  });

  // perf_sim's flash-attention traces at 3186c381 (scripts/perf-sim-totals.py --out: FAPerfSim.*'s ops.tsv) give these
  // ops' durations from pto-isa's own model, which perf_sim reads before the last intrinsic's tail is added; ours
  // are each of them plus that tail (vmul 15, vdiv 19, vsub 14).
  it.each([
    ['TROWEXPANDMUL', 32, 64, 93, 15],
    ['TROWEXPANDMUL', 64, 64, 157, 15],
    ['TROWEXPANDMUL', 64, 128, 285, 15],
    ['TROWEXPANDDIV', 32, 64, 158, 19],
    ['TROWEXPANDDIV', 64, 64, 286, 19],
    ['TROWEXPANDDIV', 64, 128, 542, 19],
    ['TROWEXPANDSUB', 8, 256, 93, 14],
    ['TROWEXPANDSUB', 16, 256, 157, 14],
    ['TROWEXPANDSUB', 32, 256, 285, 14],
  ])('%s f32 %ix%i: perf_sim`s %i plus the tail %i', (op, rows, cols, perfSim, tail) => {
    expect(cycles(a2a3InstructionCost(rowExpand(op, rows, cols)))).toBe(perfSim + tail);
  });

  it('no data without the per-row operand`s layout, or from 256 rows on', () => {
    expect(cycles(a2a3InstructionCost(a2a3('TROWEXPANDSUB', 'f32', 16, 64)))).toContain("the per-row operand's layout is not known");
    expect(cycles(a2a3InstructionCost(rowExpand('TROWEXPANDSUB', 256, 64)))).toContain('256 rows or more');
  });
});
