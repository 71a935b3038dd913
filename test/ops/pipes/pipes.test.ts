/**
 * Pipes between the cube and vector cores, as PTOAS writes them (test/samples/TPushTPop and the pypto decoder
 * layers): the forms parse, verify, print back unchanged, and the rules of PTOAS's verifiers reject what they reject.
 */
import { assemble } from '../../../src/verify/assemble';
import { formatAll } from '../../../src/diag/diagnostic';
import { printCanonical } from '../../../src/emit/canonical';

const ACC = '!pto.tile_buf<acc, 16x16xf32, blayout=col_major, slayout=row_major, fractal=1024>';
const VEC = '!pto.tile_buf<vec, 16x16xf32>';

function module(cube: string[], vector: string[]): string {
  return [
    'module attributes {"pto.target_arch" = "a3"} {',
    '  func.func @cube_kernel() attributes {pto.kernel_kind = #pto.kernel_kind<cube>} {',
    '    %c2v = pto.import_reserved_buffer {name = "c2v_fifo", peer_func = @vector_kernel} -> i32',
    '    %c0_i32 = arith.constant 0 : i32',
    ...cube.map((l) => '    ' + l),
    '    return',
    '  }',
    '  func.func @vector_kernel() attributes {pto.kernel_kind = #pto.kernel_kind<vector>} {',
    '    %c2v = pto.reserve_buffer {name = "c2v_fifo", size = 4096, location = #pto.address_space<vec>, auto = true} -> i32',
    '    %c0_i32 = arith.constant 0 : i32',
    ...vector.map((l) => '    ' + l),
    '    return',
    '  }',
    '}',
  ].join('\n');
}

const CUBE = [
  'pto.aic_initialize_pipe {id = 0, dir_mask = 1, slot_size = 1024} (c2v_consumer_buf = %c2v : i32, v2c_consumer_buf = %c0_i32 : i32)',
  `%acc = pto.alloc_tile : ${ACC}`,
  `pto.tpush_to_aiv(%acc : ${ACC}) {id = 0, split = 0}`,
];
const VECTOR = [
  'pto.aiv_initialize_pipe {id = 0, dir_mask = 1, slot_size = 1024} (c2v_consumer_buf = %c2v : i32, v2c_consumer_buf = %c0_i32 : i32)',
  `%t = pto.tpop_from_aic {id = 0, split = 0} -> ${VEC}`,
  `pto.tfree_from_aic(%t : ${VEC}) {id = 0, split = 0}`,
];

const errorsOf = (text: string) => formatAll(assemble('p.pto', text).diags);

test('a cube -> vector hand-off verifies and prints back as written (a fixed point)', () => {
  const text = module(CUBE, VECTOR);
  const asm = assemble('p.pto', text);
  expect(formatAll(asm.diags)).toBe('');
  const printed = printCanonical(asm.module, asm.types);
  for (const line of [...CUBE, ...VECTOR]) expect(printed).toContain(line);
  const again = assemble('p.pto', printed);
  expect(printCanonical(again.module, again.types)).toBe(printed);
});

test("the pipe configuration's rules", () => {
  const init = (attrs: string, operands = 'c2v_consumer_buf = %c2v : i32') => module([], [`pto.aiv_initialize_pipe {${attrs}} (${operands})`]);
  expect(errorsOf(init('id = 0, dir_mask = 4, slot_size = 1024'))).toContain("expects 'dir_mask' to be 1, 2 or 3, got 4");
  expect(errorsOf(init('id = 0, dir_mask = 1, slot_size = 0'))).toContain("expects 'slot_size' to be greater than 0, got 0");
  expect(errorsOf(init('id = 0, dir_mask = 2, slot_size = 64'))).toContain("needs 'v2c_consumer_buf' when dir_mask is 2");
  expect(errorsOf(init('id = 0, dir_mask = 1, slot_size = 64, slot_num = 2, local_slot_num = 4'))).toContain(
    "expects 'local_slot_num' (4) to be at most slot_num (2) for dir_mask = 1",
  );
  // dir_mask 3 defaults to 4 slots, the one-way directions to 8.
  expect(errorsOf(init('id = 0, dir_mask = 3, slot_size = 64, local_slot_num = 5', 'c2v_consumer_buf = %c2v : i32, v2c_consumer_buf = %c2v : i32'))).toContain(
    'to be at most slot_num (4)',
  );
  expect(
    errorsOf(
      init(
        'id = 0, dir_mask = 2, slot_size = 64, acc_push_epilogue = #pto.acc_push_epilogue<layout = nz2nd, quant = no_convert, relu = no_relu>',
        'v2c_consumer_buf = %c2v : i32',
      ),
    ),
  ).toContain("a fixpipe pipe (with 'acc_push_epilogue') goes cube -> vector only (dir_mask = 1)");
  // MLIR keeps an attribute an op does not define: a warning, not an error.
  expect(errorsOf(init('id = 0, dir_mask = 1, slot_size = 64, bogus = 1'))).toContain(
    "warning[W0411]: pto.aiv_initialize_pipe has no attribute 'bogus': it is kept but has no effect",
  );
  const withCube = (vector: string) => module([CUBE[0].replace('slot_size = 1024', 'slot_size = 64')], [vector]);
  expect(errorsOf(withCube('pto.aiv_initialize_pipe {id = 0, dir_mask = 1, slot_size = 64, bogus = 1} (c2v_consumer_buf = %c2v : i32)'))).not.toContain(
    'error',
  );
});

test('ids, splits, names and peers', () => {
  const sub = [VECTOR[0], `%sb = arith.constant 0 : i64`, `%t = pto.tpop_from_aic {id = 0, split = 0} aiv_subblockid(%sb) -> ${VEC}`];
  expect(errorsOf(module([], sub))).toContain("pto.tpop_from_aic expects 'aiv_subblockid' only when 'split' is 1, 2, 3 or 4");
  expect(
    errorsOf(
      module(
        [CUBE[0]],
        sub.map((l) => l.replace('split = 0} aiv', 'split = 1} aiv')),
      ),
    ),
  ).not.toContain('error');
  expect(errorsOf(module([], [...VECTOR.slice(0, 1), `%t = pto.tpop_from_aic {id = 0, split = 5} -> ${VEC}`]))).toContain(
    'pto.tpop_from_aic: split must be in 0..4, got 5',
  );
  expect(errorsOf(module([], [VECTOR[0], VECTOR[0]]))).toContain("requires 'id' (0) to be unique across the function's initialize_pipe ops");
  const twice = module([], ['%again = pto.reserve_buffer {name = "c2v_fifo", size = 64, location = #pto.address_space<vec>, auto = true} -> i32']);
  expect(errorsOf(twice)).toContain('requires \'name\' ("c2v_fifo") to be unique within the function');
  const noPeer = module([], []).replace('peer_func = @vector_kernel', 'peer_func = @nowhere');
  expect(errorsOf(noPeer)).toContain("pto.import_reserved_buffer: 'peer_func' @nowhere is not a function of the module");
  const gm = module([], []).replace('#pto.address_space<vec>, auto', '#pto.address_space<gm>, auto');
  expect(errorsOf(gm)).toContain('pto.reserve_buffer reserves in vec or mat, not gm');
  expect(errorsOf(module([], [`%t = pto.tpop_from_aic {id = 0, split = 0} -> ${VEC}`.replace(' {id', '(%c0_i32) {id')]))).toContain(
    'pto.tpop_from_aic: valid_row must be an index, got i32',
  );
});

test('the lowered pipe forms', () => {
  const text = [
    'func.func @f(%gm: !pto.tensor_view<16x16xf32>, %entry: !pto.tensor_view<16x16xf32>) {',
    '  %pipe = pto.initialize_l2g2l_pipe {dir_mask = 1, slot_size = 1024, slot_num = 8} (%gm : !pto.tensor_view<16x16xf32>) -> !pto.pipe',
    '  pto.talloc(%entry, %pipe : !pto.tensor_view<16x16xf32>, !pto.pipe) {split = 0}',
    '  pto.tpush(%entry, %pipe : !pto.tensor_view<16x16xf32>, !pto.pipe) {split = 0}',
    '  pto.tfree(%pipe : !pto.pipe) {split = 0}',
    '  return',
    '}',
  ].join('\n');
  const asm = assemble('l.pto', text);
  expect(formatAll(asm.diags)).toBe('');
  const printed = printCanonical(asm.module, asm.types);
  for (const line of text.split('\n').slice(1, 5)) expect(printed).toContain(line.trim());
  expect(errorsOf(text.replace('(%pipe : !pto.pipe) {split = 0}', '(%entry : !pto.tensor_view<16x16xf32>) {split = 0}'))).toContain(
    'pto.tfree: pipe_handle must be a !pto.pipe, got !pto.tensor_view<16x16xf32>',
  );
});

describe('a GM tensor-view entry of the lowered pipe ops', () => {
  const program = (entry: string, local = '') =>
    [
      'func.func @k(%gm: !pto.tensor_view<16x16xf32>, %l: i32) attributes {pto.kernel_kind = #pto.kernel_kind<cube>} {',
      `  %pipe = "pto.initialize_l2g2l_pipe"(%gm${local ? ', %l' : ''}) <{dir_mask = 1 : i8, slot_size = 1024 : i32, slot_num = 8 : i32, flag_base = 0 : i32, operandSegmentSizes = array<i32: 1, ${local ? 1 : 0}, 0>}> : (!pto.tensor_view<16x16xf32>${local ? ', i32' : ''}) -> !pto.pipe`,
      `  %e = pto.declare_global -> ${entry}`,
      `  pto.talloc(%e, %pipe : ${entry}, !pto.pipe) {split = 0}`,
      '  return',
      '}',
    ].join('\n');
  test("matches the element type, rank and static dims of the pipe's gm_addr view", () => {
    expect(errorsOf(program('!pto.tensor_view<16x16xf32>'))).toBe('');
    expect(errorsOf(program('!pto.tensor_view<16x?xf32>'))).toBe('');
    expect(errorsOf(program('!pto.tensor_view<16x32xf32>'))).toContain(
      'pto.talloc expects pipe entry dimension 1 (32) to match pto.initialize_l2g2l_pipe gm_addr dimension 16',
    );
    expect(errorsOf(program('!pto.tensor_view<16x16xf16>'))).toContain("pto.talloc expects the pipe entry's element type to match");
    expect(errorsOf(program('!pto.tensor_view<256xf32>'))).toContain("pto.talloc expects the pipe entry's rank (1) to match");
    expect(errorsOf(program('!pto.tensor_view<16x16xf32>', 'local'))).toContain('expects a !pto.tensor_view entry to use a global-only');
  });
});
