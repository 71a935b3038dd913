/**
 * mgather/mscatter's forms as PTOAS's MGatherOp/MScatterOp verifiers take them (ops/instructions/checks/
 * global-gather.ts): the index tile's valid shape per coalesce mode, when coalesce must be written, and mgather's
 * GM -> L1 form (a mat NZ dst, global indexes, a global scratch for elem).
 */
import { at, atOnLine, diagLines, kernel, run } from '../fixtures/verify/helpers';

const vec = (dtype: string, rows: number, cols: number, valid = `v_row=${rows}, v_col=${cols}`, blayout = 'row_major') =>
  `!pto.tile_buf<loc=vec, dtype=${dtype}, rows=${rows}, cols=${cols}, ${valid}, blayout=${blayout}, slayout=none_box, fractal=512, pad=0>`;
const nz = (layout = 'blayout=col_major, slayout=row_major') =>
  `!pto.tile_buf<loc=mat, dtype=f16, rows=32, cols=32, v_row=32, v_col=32, ${layout}, fractal=512, pad=0>`;
const view = (shape: string, elem: string) => `!pto.partition_tensor_view<${shape}x${elem}>`;

/** A kernel over a 32 x 32 i32 table %mem, a data tile %d (DATA) and an index tile %ix (IDX), both allocated. */
function withTiles(data: string, idx: string, line: string, target: 'a2a3' | 'a5' = 'a5') {
  const text = kernel(
    [
      '%c0 = arith.constant 0 : index',
      '%c1 = arith.constant 1 : index',
      '%c32 = arith.constant 32 : index',
      '%tv = pto.make_tensor_view %p, shape = [%c32, %c32], strides = [%c32, %c1] : !pto.tensor_view<?x?xi32>',
      `%mem = pto.partition_view %tv, offsets = [%c0, %c0], sizes = [%c32, %c32] : !pto.tensor_view<?x?xi32> -> ${view('32x32', 'i32')}`,
      `%d = pto.alloc_tile : ${data}`,
      `%ix = pto.alloc_tile : ${idx}`,
      line.replace(/DATA/g, data).replace(/IDX/g, idx).replace(/MEM/g, view('32x32', 'i32')),
      'return',
    ],
    '%p: !pto.ptr<i32>',
  );
  return { text, lines: diagLines(run(text, target)) };
}
const gather = (attrs: string) => `pto.mgather ins(%mem, %ix : MEM, IDX) outs(%d : DATA)${attrs ? ` {${attrs}}` : ''}`;
const scatter = (attrs: string) => `pto.mscatter ins(%d, %ix : DATA, IDX) outs(%mem : MEM)${attrs ? ` {${attrs}}` : ''}`;
const ROW = 'coalesce = #pto<coalesce row>';

describe('GM <-> UB', () => {
  test("PTOAS's Mgather and Mscatter samples: a 1x32 index tile moves 32 rows with coalesce row, on both targets", () => {
    for (const target of ['a2a3', 'a5'] as const) {
      expect(withTiles(vec('i32', 32, 32), vec('i32', 1, 32), gather(ROW), target).lines).toEqual([]);
      expect(withTiles(vec('i32', 32, 32), vec('i32', 1, 32), scatter(ROW), target).lines).toEqual([]);
    }
  });

  test('mgather must name its coalesce mode, even where the index shape would tell', () => {
    const { text, lines } = withTiles(vec('i32', 32, 32), vec('i32', 32, 32), gather('gatherOob = #pto<gather_oob zero>'));
    expect(lines).toEqual([`${at(text, 'pto.mgather')}: error[E0507]: pto.mgather needs the attribute 'coalesce'`]);
  });

  test('row mode takes [1, R] row-major or [R, 1] col-major indexes, not the data shape nor [R, 1] row-major', () => {
    expect(withTiles(vec('i32', 8, 32), vec('i32', 8, 32, 'v_row=8, v_col=1', 'col_major'), gather(ROW)).lines).toEqual([]);
    const whole = withTiles(vec('i32', 8, 32), vec('i32', 8, 32), gather(ROW));
    expect(whole.lines).toEqual([
      `${atOnLine(whole.text, 'pto.mgather', '!pto.tile_buf')}: error[E0506]: pto.mgather: coalesce = row needs indexes' valid shape (8x32) to be [0|1, dst.valid_row] (row-major) or [dst.valid_row, 0|1] (col-major)`,
    ]);
    expect(withTiles(vec('i32', 8, 32), vec('i32', 8, 32, 'v_row=8, v_col=1'), scatter(ROW)).lines).toHaveLength(1);
  });

  test('elem mode takes indexes of the data valid shape', () => {
    expect(withTiles(vec('i32', 8, 32), vec('i32', 8, 32), gather('coalesce = #pto<coalesce elem>')).lines).toEqual([]);
    expect(withTiles(vec('i32', 8, 32), vec('i32', 1, 8), gather('coalesce = #pto<coalesce elem>')).lines).toHaveLength(1);
  });

  test('mscatter may leave coalesce out with [R, 0|1] row-major or data-shaped indexes, not with [1, R]', () => {
    expect(withTiles(vec('i32', 8, 32), vec('i32', 8, 32, 'v_row=8, v_col=1'), scatter('')).lines).toEqual([]);
    expect(withTiles(vec('i32', 8, 32), vec('i32', 8, 32), scatter('')).lines).toEqual([]);
    const { text, lines } = withTiles(vec('i32', 8, 32), vec('i32', 1, 8), scatter(''));
    expect(lines).toEqual([
      `${atOnLine(text, 'pto.mscatter', '!pto.tile_buf', 1)}: error[E0506]: pto.mscatter: without coalesce, indexes' valid shape (1x8) must be [src.valid_row, 0|1] (row-major) or src's valid shape`,
    ]);
  });

  test('mscatter needs coalesce when a scatter policy is written', () => {
    const data = vec('i32', 8, 32);
    const idx = vec('i32', 8, 32, 'v_row=8, v_col=1');
    const { text, lines } = withTiles(data, idx, scatter('scatterAtomicOp = #pto<scatter_atomic_op add>'));
    expect(lines).toEqual([
      `${at(text, 'pto.mscatter')}: error[E0507]: pto.mscatter: needs coalesce when scatterAtomicOp, scatterOob or scatterConflict is given`,
    ]);
    expect(withTiles(data, idx, scatter('scatterAtomicOp = #pto<scatter_atomic_op none>')).lines).toEqual([]);
    expect(withTiles(data, vec('i32', 8, 32, 'v_row=8, v_col=1', 'col_major'), scatter(`${ROW}, scatterOob = #pto<scatter_oob skip>`)).lines).toEqual([]);
    expect(withTiles(data, idx, scatter('scatterConflict = #pto<scatter_conflict last>')).lines).toHaveLength(1);
  });

  test('a vec dst takes no scratch', () => {
    const data = vec('i32', 32, 32);
    const idx = vec('i32', 1, 32);
    const { text, lines } = withTiles(data, idx, `pto.mgather ins(%mem, %ix, %mem : MEM, IDX, MEM) outs(%d : DATA) {${ROW}}`);
    expect(lines).toEqual([
      `${atOnLine(text, 'pto.mgather', view('32x32', 'i32'), 1)}: error[E0501]: pto.mgather: a scratch operand is only for a mat dst (GM -> L1)`,
    ]);
  });
});

describe('GM -> L1 (a mat dst)', () => {
  /** f16 table %mem (64x32), i32 global indexes %gi (1x32 for row, 32x32 for elem) and an f16 scratch %sc (32x32). */
  function l1(line: string, dst = nz()) {
    const text = kernel(
      [`%dst = pto.alloc_tile : ${dst}`, `%ub = pto.alloc_tile : ${vec('i32', 1, 32)}`, line.replace(/DST/g, dst).replace(/UB/g, vec('i32', 1, 32)), 'return'],
      `%mem: ${view('64x32', 'f16')}, %gi: ${view('1x32', 'i32')}, %ge: ${view('32x32', 'i32')}, %sc: ${view('32x32', 'f16')}`,
    );
    return { text, lines: diagLines(run(text, 'a5')) };
  }
  const [MEM, ROWS, ELEMS, SCRATCH] = [view('64x32', 'f16'), view('1x32', 'i32'), view('32x32', 'i32'), view('32x32', 'f16')];
  const ELEM = 'coalesce = #pto<coalesce elem>';

  test('row takes global indexes and no scratch; elem a global scratch of dst element type', () => {
    expect(l1(`pto.mgather ins(%mem, %gi : ${MEM}, ${ROWS}) outs(%dst : DST) {${ROW}}`).lines).toEqual([]);
    expect(l1(`pto.mgather ins(%mem, %ge, %sc : ${MEM}, ${ELEMS}, ${SCRATCH}) outs(%dst : DST) {${ELEM}}`).lines).toEqual([]);
    const noScratch = l1(`pto.mgather ins(%mem, %ge : ${MEM}, ${ELEMS}) outs(%dst : DST) {${ELEM}}`);
    expect(noScratch.lines).toEqual([
      `${at(noScratch.text, 'pto.mgather')}: error[E0501]: pto.mgather: coalesce = elem with a mat dst (GM -> L1) needs a global scratch view: ins(%mem, %idx, %scratch : ...)`,
    ]);
    const extra = l1(`pto.mgather ins(%mem, %gi, %sc : ${MEM}, ${ROWS}, ${SCRATCH}) outs(%dst : DST) {${ROW}}`);
    expect(extra.lines).toEqual([`${at(extra.text, SCRATCH, 1)}: error[E0501]: pto.mgather: coalesce = row (GM -> L1) takes no scratch operand`]);
  });

  test('a UB index tile is rejected at the index operand', () => {
    const { text, lines } = l1(`pto.mgather ins(%mem, %ub : ${MEM}, UB) outs(%dst : DST) {${ROW}}`);
    expect(lines).toEqual([
      `${atOnLine(text, 'pto.mgather', '!pto.tile_buf')}: error[E0502]: pto.mgather: with a mat dst (GM -> L1), indexes must be a global !pto.partition_tensor_view, not a tile (the cube core cannot read UB)`,
    ]);
  });

  test('the mat dst must be NZ', () => {
    const dst = nz('blayout=row_major, slayout=none_box');
    const { text, lines } = l1(`pto.mgather ins(%mem, %gi : ${MEM}, ${ROWS}) outs(%dst : DST) {${ROW}}`, dst);
    expect(lines).toEqual([
      `${at(text, dst, 1)}: error[E0504]: pto.mgather: a mat dst (GM -> L1) must be NZ (blayout=col_major, slayout=row_major), not row_major/none_box`,
    ]);
  });
});
