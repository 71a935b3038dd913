/**
 * PTOAS gives a function without a `pto.kernel_kind` sections by the kind of core its top-level ops say
 * (lib/PTO/Transforms/PTONormalizeUncoveredTileSections.cpp) and refuses a run of them it cannot give one. The cases
 * are PTOAS's own tests (test/lit/vpto/normalize_uncovered_*.pto); pto-as accepted the refused ones.
 */
import { at, diagLines, run } from '../fixtures/verify/helpers';

const A5 = 'module attributes {pto.target_arch = "a5"} {';
const T = '!pto.tile_buf<vec, 16x16xf32>';
const V = '!pto.partition_tensor_view<16x16xf32>';
const HINT = 'wrap the ambiguous region in pto.section.cube or pto.section.vector to specify its physical section explicitly';
const AMBIGUOUS = (names: string) => `this top-level op segment has a section kind that cannot be inferred uniquely; ambiguous op(s): ${names}; ${HINT}`;

const lines = (...ls: string[]) => ls.join('\n') + '\n';

describe('refused: a run whose kind of core cannot be inferred', () => {
  test('a flag set on a pipe both cores have (normalize_uncovered_tile_sections_suggest_explicit)', () => {
    const text = lines(
      A5,
      '  func.func @ambiguous_shared_pipe_sync() attributes {pto.kernel} {',
      '    pto.set_flag[<PIPE_MTE2>, <PIPE_S>, <EVENT_ID0>]',
      '    return',
      '  }',
      '}',
    );
    expect(diagLines(run(text))).toEqual([
      `${at(text, 'pto.set_flag')}: error[E0432]: ${AMBIGUOUS("'pto.set_flag'")}`,
      `  note ${at(text, 'func.func')}: in @ambiguous_shared_pipe_sync, which has no pto.kernel_kind: PTOAS infers the section of each run of its top-level ops`,
    ]);
  });

  test('a set_flag whose source pipe is shared, though its peer is a vector pipe (normalize_uncovered_shared_flag_pipe_flat)', () => {
    const text = lines(
      'module attributes {pto.backend = "vpto", pto.target_arch = "a5"} {',
      '  func.func @shared_flag_pipe_flat() attributes {pto.entry} {',
      '    pto.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]',
      '    return',
      '  }',
      '}',
    );
    expect(diagLines(run(text))[0]).toBe(`${at(text, 'pto.set_flag')}: error[E0432]: ${AMBIGUOUS("'pto.set_flag'")}`);
  });

  test('a wait_flag runs on its destination pipe: in a helper, PIPE_MTE2 is either core (normalize_uncovered_shared_flag_pipe_helper)', () => {
    const text = lines(
      A5,
      '  func.func private @shared_flag_pipe_helper() {',
      '    pto.wait_flag[<PIPE_S>, <PIPE_MTE2>, <EVENT_ID0>]',
      '    return',
      '  }',
      '  func.func @entry() attributes {pto.entry} {',
      '    func.call @shared_flag_pipe_helper() : () -> ()',
      '    return',
      '  }',
      '}',
    );
    expect(diagLines(run(text))[0]).toBe(`${at(text, 'pto.wait_flag')}: error[E0432]: ${AMBIGUOUS("'pto.wait_flag'")}`);
  });

  test('vector and cube work inside one top-level op', () => {
    const text = lines(
      A5,
      '  func.func @k(%n: index) {',
      '    %c0 = arith.constant 0 : index',
      '    %c1 = arith.constant 1 : index',
      '    scf.for %i = %c0 to %n step %c1 {',
      '      pto.set_flag[<PIPE_FIX>, <PIPE_M>, <EVENT_ID0>]',
      '      pto.wait_flag[<PIPE_FIX>, <PIPE_M>, <EVENT_ID0>]',
      '      pto.set_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID1>]',
      '      pto.wait_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID1>]',
      '    }',
      '    return',
      '  }',
      '}',
    );
    expect(diagLines(run(text))[0]).toBe(
      `${at(text, 'scf.for')}: error[E0432]: this top-level op segment has a section kind that cannot be inferred uniquely; saw both vector-like and cube-like ops in the same segment; ${HINT}`,
    );
  });

  test('a cube pop (named for its peer, tpop_from_aiv) in one loop with a vector flag: both kinds in one segment', () => {
    const mat = '!pto.tile_buf<loc=mat, dtype=f32, rows=16, cols=16, v_row=16, v_col=16, blayout=col_major, slayout=row_major, fractal=512, pad=0>';
    const text = lines(
      A5,
      '  func.func @k(%n: index) {',
      '    %c0 = arith.constant 0 : index',
      '    %c1 = arith.constant 1 : index',
      '    scf.for %i = %c0 to %n step %c1 {',
      `      %m = pto.tpop_from_aiv {id = 0, split = 1} -> ${mat}`,
      '      pto.tfree_from_aiv {id = 0, split = 1}',
      '      pto.set_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID1>]',
      '      pto.wait_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID1>]',
      '    }',
      '    return',
      '  }',
      '}',
    );
    expect(diagLines(run(text)).filter((d) => d.includes('E0432'))).toEqual([
      `${at(text, 'scf.for')}: error[E0432]: this top-level op segment has a section kind that cannot be inferred uniquely; saw both vector-like and cube-like ops in the same segment; ${HINT}`,
    ]);
  });

  test('a top-level op holding an explicit section beside other tile work (normalize_uncovered_tile_sections_reject_residual_nested_mix)', () => {
    const text = lines(
      A5,
      `  func.func @reject_nested_section_with_sibling_uncovered_tiles(%src: ${V}, %dst: ${V}) attributes {pto.kernel} {`,
      '    %c0 = arith.constant 0 : index',
      '    %c1 = arith.constant 1 : index',
      `    %tile0 = pto.alloc_tile : ${T}`,
      `    %tile1 = pto.alloc_tile : ${T}`,
      '    %scalar = arith.constant 1.0 : f32',
      '    scf.for %i = %c0 to %c1 step %c1 {',
      '      pto.section.vector {',
      `        pto.tload ins(%src : ${V}) outs(%tile0 : ${T})`,
      '      }',
      `      pto.tadds ins(%tile0, %scalar : ${T}, f32) outs(%tile1 : ${T})`,
      `      pto.tstore ins(%tile1 : ${T}) outs(%dst : ${V})`,
      '    }',
      '    return',
      '  }',
      '}',
    );
    expect(diagLines(run(text))[0]).toBe(
      `${at(text, 'scf.for')}: error[E0432]: this top-level op mixes nested explicit pto.section.* with sibling ops outside those sections: it stays an uncovered segment after section normalization`,
    );
  });
});

describe('accepted', () => {
  test('flags whose executing pipes are one kind, whatever their peers (normalize_uncovered_shared_flag_pipe_execution_side)', () => {
    const text = lines(
      'module attributes {pto.backend = "vpto", pto.target_arch = "a5"} {',
      '  func.func @shared_peer_flags() attributes {pto.entry} {',
      '    pto.set_flag[<PIPE_MTE3>, <PIPE_MTE2>, <EVENT_ID0>]',
      '    pto.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]',
      '    return',
      '  }',
      '}',
    );
    expect(diagLines(run(text))).toEqual([]);
  });

  test('a cube run then a vector run, each its own section (normalize_uncovered_cross_core_flags)', () => {
    const text = lines(
      A5,
      '  func.func @cross_core_flags() attributes {pto.entry} {',
      '    pto.set_flag[<PIPE_FIX>, <PIPE_V>, <EVENT_ID0>]',
      '    pto.wait_flag[<PIPE_FIX>, <PIPE_V>, <EVENT_ID0>]',
      '    return',
      '  }',
      '}',
    );
    expect(diagLines(run(text))).toEqual([]);
  });

  test.each([
    ['the function names its kind', '  func.func @k() attributes {pto.kernel_kind = #pto.kernel_kind<vector>} {', '}'],
    [
      'its module names one (normalize_uncovered_tile_sections_skip_kernel_kind_module)',
      '  module attributes {pto.kernel_kind = #pto.kernel_kind<vector>} {\n  func.func @k() {',
      '}\n}',
    ],
  ])('a shared-pipe flag where %s', (_why, open, close) => {
    const text = lines(
      A5,
      open,
      '    pto.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]',
      '    pto.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]',
      '    return',
      '  }',
      close,
    );
    expect(diagLines(run(text))).toEqual([]);
  });

  test('a shared-pipe flag inside an explicit section, and vector tile work beside it (normalize_uncovered_tile_sections_mixed)', () => {
    const text = lines(
      A5,
      `  func.func @k(%src: ${V}, %dst: ${V}) attributes {pto.kernel} {`,
      `    %t = pto.alloc_tile : ${T}`,
      '    pto.section.vector {',
      '      pto.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]',
      '      pto.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]',
      '    }',
      `    pto.tload ins(%src : ${V}) outs(%t : ${T})`,
      `    pto.tstore ins(%t : ${T}) outs(%dst : ${V})`,
      '    return',
      '  }',
      '}',
    );
    expect(diagLines(run(text))).toEqual([]);
  });
});
