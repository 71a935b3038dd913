/**
 * MGATHER and MSCATTER (spec/instructions/gather.json): a global f32 table of 4 rows x 8 columns and index tiles,
 * with the expected tables and tiles written out here from the manual's formulas (row and elem coalescing, the
 * out-of-range policies, atomic combination, later duplicates winning).
 */
import { LocatedError } from '../../../../src/diag/located-error';
import { assemble } from '../../../../src/verify/assemble';
import { formatAll } from '../../../../src/diag/diagnostic';
import { Value, runFunction } from '../../../../src/vm/interpreter';
import { GlobalBuffer } from '../../../../src/machine/memory';

const TABLE = Array.from({ length: 32 }, (_, k) => 100 + k); // table[r][c] = 100 + 8r + c
const data = (rows: number, cols: number, v = 'v_row=2, v_col=8') =>
  `!pto.tile_buf<loc=vec, dtype=f32, rows=${rows}, cols=${cols}, ${v}, blayout=row_major, slayout=none_box, fractal=512, pad=0>`;
const index = (rows: number, cols: number, v: string) =>
  `!pto.tile_buf<loc=vec, dtype=i32, rows=${rows}, cols=${cols}, ${v}, blayout=row_major, slayout=none_box, fractal=512, pad=0>`;

/**
 * Loads %ix (2x8 i32) and %tile (2x8 f32) whole, runs `op` on the views IDX/DATA (the op's valid regions), stores
 * the tile back whole; returns the table and the tile afterwards.
 */
function run(op: string, idx: number[], tileData: number[], valid: { idx: string; data: string }, target: 'a2a3' | 'a5' = 'a5') {
  const whole = { idx: index(2, 8, 'v_row=2, v_col=8'), data: data(2, 8, 'v_row=2, v_col=8') };
  const text = `module {
  func.func @k(%t: !pto.ptr<f32>, %i: !pto.ptr<i32>, %x: !pto.ptr<f32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    %tv = pto.make_tensor_view %t, shape = [%c4, %c8], strides = [%c8, %c1] : !pto.tensor_view<?x?xf32>
    %mem = pto.partition_view %tv, offsets = [%c0, %c0], sizes = [%c4, %c8] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<4x8xf32>
    %iv = pto.make_tensor_view %i, shape = [%c2, %c8], strides = [%c8, %c1] : !pto.tensor_view<?x?xi32>
    %ip = pto.partition_view %iv, offsets = [%c0, %c0], sizes = [%c2, %c8] : !pto.tensor_view<?x?xi32> -> !pto.partition_tensor_view<2x8xi32>
    %xv = pto.make_tensor_view %x, shape = [%c2, %c8], strides = [%c8, %c1] : !pto.tensor_view<?x?xf32>
    %xp = pto.partition_view %xv, offsets = [%c0, %c0], sizes = [%c2, %c8] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<2x8xf32>
    %ixw = pto.alloc_tile addr = %c0 : ${whole.idx}
    %tw = pto.alloc_tile addr = %c64 : ${whole.data}
    pto.tload ins(%ip : !pto.partition_tensor_view<2x8xi32>) outs(%ixw : ${whole.idx})
    pto.tload ins(%xp : !pto.partition_tensor_view<2x8xf32>) outs(%tw : ${whole.data})
    %ix = pto.alloc_tile addr = %c0 : ${index(2, 8, valid.idx)}
    %tile = pto.alloc_tile addr = %c64 : ${data(2, 8, valid.data)}
    ${op
      .replace(/\bIDX\b/g, index(2, 8, valid.idx))
      .replace(/\bDATA\b/g, data(2, 8, valid.data))
      .replace(/\bMEM\b/g, '!pto.partition_tensor_view<4x8xf32>')}
    pto.tstore ins(%tw : ${whole.data}) outs(%xp : !pto.partition_tensor_view<2x8xf32>)
    return
  }
}`;
  const asm = assemble('gather.pto', text, { target });
  if (asm.diags.hasErrors()) throw new Error(formatAll(asm.diags));
  const buffers = {
    t: new GlobalBuffer('t', 'f32', new Uint8Array(new Float32Array(TABLE).buffer)),
    i: new GlobalBuffer('i', 'i32', new Uint8Array(new Int32Array([...idx, ...Array(16 - idx.length).fill(0)]).buffer)),
    x: new GlobalBuffer('x', 'f32', new Uint8Array(new Float32Array([...tileData, ...Array(16 - tileData.length).fill(0)]).buffer)),
  };
  const args = new Map<string, Value>(Object.entries(buffers).map(([k, b]) => [`%${k}`, b]));
  runFunction(asm.program, asm.types, [...asm.program.functions.values()][0], args, { numerics: 'npu', maxSteps: 1000 });
  return { table: Array.from(new Float32Array(buffers.t.bytes.buffer)), tile: Array.from(new Float32Array(buffers.x.bytes.buffer)) };
}

const row = (r: number) => Array.from({ length: 8 }, (_, c) => 100 + 8 * r + c);
/** mgather in row mode, with more attributes. */
const gatherRow = (more = '') => `pto.mgather ins(%mem, %ix : MEM, IDX) outs(%tile : DATA) {coalesce = row${more ? ', ' + more : ''}}`;

describe('mgather', () => {
  test('row coalescing: dst row r is table row idx[0, r]', () => {
    const { tile } = run(gatherRow(), [3, 1], [], { idx: 'v_row=1, v_col=2', data: 'v_row=2, v_col=8' });
    expect(tile).toEqual([...row(3), ...row(1)]);
  });
  test('elem coalescing: dst[r, c] = the flattened table at idx[r, c]; the rest of dst is untouched', () => {
    const { tile } = run(
      'pto.mgather ins(%mem, %ix : MEM, IDX) outs(%tile : DATA) {coalesce = elem}',
      [31, 0, 9, 0, 0, 0, 0, 0, 17, 2, 5],
      [...Array(16).fill(-1)],
      { idx: 'v_row=2, v_col=3', data: 'v_row=2, v_col=3' },
    );
    expect(tile).toEqual([131, 100, 109, -1, -1, -1, -1, -1, 117, 102, 105, -1, -1, -1, -1, -1]);
  });
  test('out-of-range rows: clamp to the last, wrap modulo the capacity, zero fills; undefined traps', () => {
    const valid = { idx: 'v_row=1, v_col=2', data: 'v_row=2, v_col=8' };
    expect(run(gatherRow('oob = clamp'), [9, 0], [], valid).tile).toEqual([...row(3), ...row(0)]);
    expect(run(gatherRow('oob = wrap'), [9, 0], [], valid).tile).toEqual([...row(1), ...row(0)]);
    expect(run(gatherRow('oob = zero'), [9, 2], [], valid).tile).toEqual([...Array(8).fill(0), ...row(2)]);
    // Today's PTOAS spellings mean the same.
    expect(
      run('pto.mgather ins(%mem, %ix : MEM, IDX) outs(%tile : DATA) {coalesce = #pto<coalesce row>, gatherOob = #pto<gather_oob clamp>}', [9, 0], [], valid)
        .tile,
    ).toEqual([...row(3), ...row(0)]);
    expect(() => run(gatherRow(), [4, 0], [], valid)).toThrow(LocatedError);
    expect(() => run(gatherRow(), [-1, 0], [], valid)).toThrow('index 4294967295 is out of range (capacity 4)');
  });
});

describe('mscatter', () => {
  const SCATTER = 'pto.mscatter ins(%tile, %ix : DATA, IDX) outs(%mem : MEM)';
  test('row coalescing: table row idx[0, r] = src row r; a later duplicate wins', () => {
    const src = Array.from({ length: 16 }, (_, k) => -k);
    const { table } = run(`${SCATTER} {coalesce = row}`, [2, 2], src, { idx: 'v_row=1, v_col=2', data: 'v_row=2, v_col=8' });
    expect(table).toEqual([...row(0), ...row(1), ...src.slice(8), ...row(3)]);
  });
  test('elem coalescing with atomic add: duplicates accumulate', () => {
    const { table } = run(`${SCATTER} {coalesce = elem, atomic = add}`, [5, 5, 0], [1.5, 2, 3], { idx: 'v_row=1, v_col=3', data: 'v_row=1, v_col=3' });
    const want = [...TABLE];
    want[5] += 3.5;
    want[0] += 3;
    expect(table).toEqual(want);
    const today = `${SCATTER} {coalesce = #pto<coalesce elem>, scatterAtomicOp = #pto<scatter_atomic_op add>, scatterConflict = #pto<scatter_conflict last>}`;
    expect(run(today, [5, 5, 0], [1.5, 2, 3], { idx: 'v_row=1, v_col=3', data: 'v_row=1, v_col=3' }).table).toEqual(want);
  });
  test('out-of-range writes: skip leaves the table, clamp writes the last row; undefined traps', () => {
    const valid = { idx: 'v_row=1, v_col=2', data: 'v_row=2, v_col=8' };
    const src = Array.from({ length: 16 }, (_, k) => -k);
    expect(run(`${SCATTER} {coalesce = row, oob = skip}`, [7, 0], src, valid).table).toEqual([...src.slice(8), ...row(1), ...row(2), ...row(3)]);
    expect(run(`${SCATTER} {coalesce = row, oob = clamp}`, [7, 0], src, valid).table).toEqual([...src.slice(8), ...row(1), ...row(2), ...src.slice(0, 8)]);
    expect(() => run(`${SCATTER} {coalesce = row}`, [7, 0], src, valid)).toThrow('index 7 is out of range (capacity 4)');
  });
  test("without coalesce, an [R, 1] index tile scatters rows and one of the data's valid shape elements", () => {
    const src = Array.from({ length: 16 }, (_, k) => -k);
    // idx[r, 0] picks the table row of src row r.
    const rows = run(SCATTER, [3, 0, 0, 0, 0, 0, 0, 0, 1], src, { idx: 'v_row=2, v_col=1', data: 'v_row=2, v_col=8' });
    expect(rows.table).toEqual([...row(0), ...src.slice(8), ...row(2), ...src.slice(0, 8)]);
    // idx[r, c] is a flat table element: 2x2 sources into elements 31, 0, 9, 10.
    const elems = run(SCATTER, [31, 0, 0, 0, 0, 0, 0, 0, 9, 10], [1, 2, 0, 0, 0, 0, 0, 0, 3, 4], { idx: 'v_row=2, v_col=2', data: 'v_row=2, v_col=2' });
    const want = [...TABLE];
    [want[31], want[0], want[9], want[10]] = [1, 2, 3, 4];
    expect(elems.table).toEqual(want);
  });
});

test('the GM -> L1 form (a mat dst, global indexes) verifies, and the VM says it does not run it yet', () => {
  const nz = '!pto.tile_buf<loc=mat, dtype=f32, rows=16, cols=8, v_row=16, v_col=8, blayout=col_major, slayout=row_major, fractal=512, pad=0>';
  const text = `module {
  func.func @k(%t: !pto.ptr<f32>, %i: !pto.ptr<i32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %tv = pto.make_tensor_view %t, shape = [%c4, %c8], strides = [%c8, %c1] : !pto.tensor_view<?x?xf32>
    %mem = pto.partition_view %tv, offsets = [%c0, %c0], sizes = [%c4, %c8] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<4x8xf32>
    %iv = pto.make_tensor_view %i, shape = [%c1, %c16], strides = [%c16, %c1] : !pto.tensor_view<?x?xi32>
    %ip = pto.partition_view %iv, offsets = [%c0, %c0], sizes = [%c1, %c16] : !pto.tensor_view<?x?xi32> -> !pto.partition_tensor_view<1x16xi32>
    %dst = pto.alloc_tile : ${nz}
    pto.mgather ins(%mem, %ip : !pto.partition_tensor_view<4x8xf32>, !pto.partition_tensor_view<1x16xi32>) outs(%dst : ${nz}) {coalesce = #pto<coalesce row>}
    return
  }
}`;
  const asm = assemble('gm2l1.pto', text, { target: 'a5' });
  expect(formatAll(asm.diags)).toBe('');
  const args = new Map<string, Value>([
    ['%t', new GlobalBuffer('t', 'f32', new Uint8Array(new Float32Array(TABLE).buffer))],
    ['%i', new GlobalBuffer('i', 'i32', new Uint8Array(64))],
  ]);
  const runIt = () => runFunction(asm.program, asm.types, [...asm.program.functions.values()][0], args, { numerics: 'npu', maxSteps: 100 });
  expect(runIt).toThrow(LocatedError);
  expect(runIt).toThrow('pto.mgather: a mat tile destination (GM -> L1, global indexes) is not implemented yet');
});
