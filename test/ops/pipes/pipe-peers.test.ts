/**
 * The rules of PTOAS's verifiers and passes that relate a pipe op to the rest of the module: the core its code is
 * for, the two ends of each pipe in two functions, their split usage, the hardware flags each function gives its
 * pipes, and where an imported buffer's peer is looked up.
 */
import { assemble } from '../../../src/verify/assemble';
import { formatAll } from '../../../src/diag/diagnostic';

const diagnostics = (text: string) => formatAll(assemble('p.pto', text).diags);
const CUBE = 'attributes {pto.kernel_kind = #pto.kernel_kind<cube>}';
const VECTOR = 'attributes {pto.kernel_kind = #pto.kernel_kind<vector>}';
const ACC = '!pto.tile_buf<loc=acc, dtype=f32, rows=16, cols=16, v_row=16, v_col=16, blayout=col_major, slayout=row_major, fractal=1024, pad=0>';
const VEC = '!pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=16, v_row=16, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>';

/** `pipes` one-way cube -> vector pipes (ids 0..n-1), each through its own reserved buffer. */
function pipes(n: number, cubeExtra: string[] = [], vectorExtra: string[] = []): string {
  const ids = [...Array(n).keys()];
  return [
    'module attributes {pto.target_arch = "a5"} {',
    `  func.func @cube() ${CUBE} {`,
    ...ids.map((i) => `    %f${i} = pto.import_reserved_buffer {name = "fifo${i}", peer_func = @vector} -> i32`),
    ...ids.map((i) => `    pto.aic_initialize_pipe {id = ${i}, dir_mask = 1, slot_size = 1024} (c2v_consumer_buf = %f${i} : i32)`),
    ...cubeExtra.map((l) => '    ' + l),
    '    return',
    '  }',
    `  func.func @vector() ${VECTOR} {`,
    ...ids.map((i) => `    %f${i} = pto.reserve_buffer {name = "fifo${i}", size = 8192, location = #pto.address_space<vec>, auto = true} -> i32`),
    ...ids.map((i) => `    pto.aiv_initialize_pipe {id = ${i}, dir_mask = 1, slot_size = 1024} (c2v_consumer_buf = %f${i} : i32)`),
    ...vectorExtra.map((l) => '    ' + l),
    '    return',
    '  }',
    '}',
  ].join('\n');
}

test('a pipe op runs in code for its core: a kernel of that kind or a section of it', () => {
  expect(diagnostics(pipes(1))).toBe('');
  expect(diagnostics(pipes(1).replace(`@cube() ${CUBE}`, '@cube()'))).toContain('pto.aic_initialize_pipe must be inside a cube kernel function or section');
  const inSection = pipes(1)
    .replace(`@vector() ${VECTOR}`, '@vector()')
    .replace(/(\n {4}%f0 = pto.reserve_buffer[^\n]*\n)( {4}pto.aiv_initialize_pipe[^\n]*\n)/, '$1    pto.section.vector {\n  $2    }\n');
  expect(diagnostics(inSection)).toBe('');
  expect(diagnostics(inSection.replace('pto.section.vector', 'pto.section.cube'))).toContain('must be inside a vector kernel function or section');
});

test("each pipe has one end in each of two functions, and each function's pipes share 16 flags", () => {
  // Eight one-way pipes take all 16 flags (2 each); a ninth does not fit.
  expect(diagnostics(pipes(8))).toBe('');
  expect(diagnostics(pipes(9))).toContain('requires all pipe components in a function to fit within 16 hardware flag ids');
  const lonely = pipes(1).replace(/ {4}pto.aiv_initialize_pipe[^\n]*\n/, '');
  expect(diagnostics(lonely)).toContain(
    'pto.aic_initialize_pipe requires a complete compatible peer init pair when local_addr comes from pto.reserve_buffer or pto.import_reserved_buffer',
  );
  const unkeyed = pipes(1).replace(
    '(c2v_consumer_buf = %f0 : i32)\n    return\n  }\n  func.func @vector',
    '(c2v_consumer_buf = %c : i32)\n    return\n  }\n  func.func @vector',
  );
  expect(diagnostics(unkeyed.replace('@cube() ', '@cube(%c: i32) '))).toContain(
    "requires local_addr to come from pto.reserve_buffer or pto.import_reserved_buffer when 'flag_base' is not explicit",
  );
});

test('the two ends of a pipe agree on splitting', () => {
  const push = (split: number) => [`%acc = pto.alloc_tile : ${ACC}`, `pto.tpush_to_aiv(%acc : ${ACC}) {id = 0, split = ${split}}`];
  const pop = (split: number) => [`%t = pto.tpop_from_aic {id = 0, split = ${split}} -> ${VEC}`, `pto.tfree_from_aic {id = 0, split = ${split}}`];
  expect(diagnostics(pipes(1, push(0), pop(0)))).toBe('');
  expect(diagnostics(pipes(1, push(1), pop(0)))).toContain('pto.aiv_initialize_pipe conflicting pipe split usage across peer pipe init ops');
  const explicit = pipes(1, push(0), pop(0)).replace('{id = 0, dir_mask = 1, slot_size = 1024}', '{id = 0, dir_mask = 1, slot_size = 1024, nosplit = false}');
  expect(diagnostics(explicit)).toContain("explicit 'nosplit = false' conflicts with downstream users that require split = 0");
});

test('odd splits need a one-way GM-backed pipe, odd counts, and per-sub-core valid shapes', () => {
  const odd = [`%acc = pto.alloc_tile : ${ACC}`, `pto.tpush_to_aiv(%acc : ${ACC}) {id = 0, split = 3}`];
  expect(diagnostics(pipes(1, odd))).toContain('pto.tpush_to_aiv supports odd split modes (split = 3 or 4) only for a unidirectional C2V GM-backed tile pipe');
  const dynamicPop = `%t = pto.tpop_from_aic(%r, %r) {id = 0, split = 0} -> ${VEC}`;
  expect(diagnostics(pipes(1, [], ['%r = arith.constant 16 : index', dynamicPop]))).toContain(
    'pto.tpop_from_aic expects tile result to have dynamic validShape (?, ?) when valid_row/valid_col operands are provided',
  );
});

test("an imported buffer's peer is a function PTOAS can see: not a private one of a sibling module", () => {
  const modules = (visibility: string) =>
    [
      'module attributes {pto.target_arch = "a5"} {',
      '  module {',
      '    func.func @consumer() {',
      '      %import = pto.import_reserved_buffer {name = "fifo", peer_func = @producer} -> i32',
      '      return',
      '    }',
      '  }',
      '  module {',
      `    func.func ${visibility}@producer() {`,
      '      %b = pto.reserve_buffer {name = "fifo", size = 4096, location = #pto.address_space<vec>, auto = true} -> i32',
      '      return',
      '    }',
      '  }',
      '}',
    ].join('\n');
  expect(diagnostics(modules(''))).toBe('');
  expect(diagnostics(modules('private '))).toContain("'peer_func' @producer is not a function PTOAS can see from here");
  expect(diagnostics(modules('').replace('name = "fifo", size', 'name = "other", size'))).toContain(
    'pto.import_reserved_buffer expects @producer to reserve a buffer named "fifo"',
  );
});
