/**
 * The tile-op lowerings of ptoas's VPTO back end: pto-lower-to-ubuf-ops (A2/A3; LowerPTOToUBufOps.cpp
 * extractDmaViewInfo: "A2/A3 DMA lowering requires a unit innermost stride") and pto-expand-tile-op (A5; the textract
 * templates of lib/TileOps/a5/textract.py and textract_fp.py). Expected values from those files and PTOAS's
 * test/lit/vpto/ub/tile_to_ub/transfer/tload_nonunit_stride.pto and test/lit/vpto/textract_verify_invalid_vec2mat_loc_pair.pto.
 */
import { CodeBackend } from '../../../src/ir/definition';
import { TargetName } from '../../../src/spec/schema';
import { errorsAt } from '../../fixtures/micro';

/** Each error as `code line:col`, the file assembled for `target` with the checks of `passes` (else the back end's). */
const errors = (text: string, target: TargetName, passes?: string[], backend?: CodeBackend): string[] => errorsAt(text, { target, passes, backend });

const TILE = '!pto.tile_buf<vec, 16x32xf32>';

/** A tload (or tstore) of a 16x32 f32 view whose rows are `rowStride` apart and elements `stride` apart. */
function transfer(op: 'tload' | 'tstore', rowStride: string, stride: string): string {
  const io =
    op === 'tload'
      ? `ins(%part : !pto.partition_tensor_view<16x32xf32>) outs(%tile : ${TILE})`
      : `ins(%tile : ${TILE}) outs(%part : !pto.partition_tensor_view<16x32xf32>)`;
  return `module attributes {pto.target_arch = "a3"} {
  func.func @k(%gm: !pto.ptr<f32, gm>, %s: index) attributes {pto.aicore} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %view = pto.make_tensor_view %gm, shape = [%c16, %c32], strides = [${rowStride}, ${stride}] : !pto.tensor_view<?x?xf32>
    %part = pto.partition_view %view, offsets = [%c0, %c0], sizes = [%c16, %c32] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<16x32xf32>
    %tile = pto.alloc_tile : ${TILE}
    pto.${op} ${io}
    return
  }
}
`;
}

describe('pto-lower-to-ubuf-ops (A2/A3): a tensor view moves as contiguous bursts', () => {
  test('an innermost stride other than the constant 1 is reported at the view operand', () => {
    expect(errors(transfer('tload', '%c64', '%c2'), 'a2a3', ['pto-lower-to-ubuf-ops'])).toEqual(['E0486 12:19']);
    expect(errors(transfer('tstore', '%c64', '%c2'), 'a2a3', ['pto-lower-to-ubuf-ops'])).toEqual(['E0486 12:64']);
    // A stride known only at run time is no constant 1 either (LowerPTOToUBufOps matches m_One()).
    expect(errors(transfer('tload', '%c64', '%s'), 'a2a3', ['pto-lower-to-ubuf-ops'])).toEqual(['E0486 12:19']);
  });

  test('the back end vpto runs the check by default; a unit stride, A5 and the emitc back end are accepted', () => {
    expect(errors(transfer('tload', '%c64', '%c2'), 'a2a3', undefined, 'vpto')).toEqual(['E0486 12:19']);
    expect(errors(transfer('tload', '%c64', '%c1'), 'a2a3', ['pto-lower-to-ubuf-ops'])).toEqual([]);
    expect(errors(transfer('tload', '%c64', '%c2'), 'a2a3', undefined, 'emitc')).toEqual([]);
    // A5 lowers tload through its templates (its verifier has rules of its own for such a view: E0302).
    expect(errors(transfer('tload', '%c64', '%c2').replace('"a3"', '"a5"'), 'a5', ['pto-lower-to-ubuf-ops']).filter((e) => e.startsWith('E0486'))).toEqual([]);
  });
});

/** A textract from a `from` tile into a `to` tile (16x16 f16, layouts each location takes). */
function extract(from: string, to: string): string {
  const LAYOUT: Record<string, string> = {
    vec: '',
    mat: ', blayout=col_major, slayout=row_major',
    left: ', blayout=col_major, slayout=row_major',
    right: ', blayout=row_major, slayout=col_major',
  };
  const [s, d] = [`!pto.tile_buf<${from}, 16x16xf16${LAYOUT[from]}>`, `!pto.tile_buf<${to}, 16x16xf16${LAYOUT[to]}>`];
  return `module attributes {pto.target_arch = "a5"} {
  func.func @k() {
    %c0 = arith.constant 0 : index
    %s = pto.alloc_tile : ${s}
    %d = pto.alloc_tile : ${d}
    pto.textract ins(%s, %c0, %c0 : ${s}, index, index) outs(%d : ${d})
    return
  }
}
`;
}

describe('pto-expand-tile-op (A5): a textract needs a template', () => {
  test('vec -> mat has none: reported at the op', () => {
    expect(errors(extract('vec', 'mat'), 'a5', ['pto-expand-tile-op'])).toEqual(['E0486 6:5']);
    expect(errors(extract('vec', 'mat'), 'a5', undefined, 'vpto')).toEqual(['E0486 6:5']);
  });

  test('vec -> vec and mat -> left/right have templates; the emitc back end takes vec -> mat', () => {
    expect(errors(extract('vec', 'vec'), 'a5', ['pto-expand-tile-op'])).toEqual([]);
    expect(errors(extract('mat', 'left'), 'a5', ['pto-expand-tile-op'])).toEqual([]);
    expect(errors(extract('mat', 'right'), 'a5', ['pto-expand-tile-op'])).toEqual([]);
    expect(errors(extract('vec', 'mat'), 'a5', undefined, 'emitc')).toEqual([]);
  });
});
