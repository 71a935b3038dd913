/**
 * The fixpipe contract of a cube -> vector pipe (PTOAS's docs/designs/fixpipe-tpipe-design.md): the epilogue's
 * published values, the two ends matched through the reserved buffer, the types each quant mode takes and gives,
 * and the quantization state a push reads.
 */
import { assemble } from '../../../src/verify/assemble';
import { formatAll } from '../../../src/diag/diagnostic';
import { accElementFits, consumerElementFits, decodeEpilogue } from '../../../src/ops/pipes/fixpipe-epilogue';

const ACC = (dtype: string) =>
  `!pto.tile_buf<loc=acc, dtype=${dtype}, rows=16, cols=16, v_row=16, v_col=16, blayout=col_major, slayout=row_major, fractal=1024, pad=0>`;
const VEC = (dtype: string, blayout = 'row_major') =>
  `!pto.tile_buf<loc=vec, dtype=${dtype}, rows=16, cols=16, v_row=16, v_col=16, blayout=${blayout}, slayout=none_box, fractal=512, pad=0>`;
const SCALING = (dtype: string) =>
  `!pto.tile_buf<loc=scaling, dtype=${dtype}, rows=1, cols=32, v_row=1, v_col=32, blayout=row_major, slayout=none_box, fractal=512, pad=0>`;

interface Pipe {
  quant: string;
  acc: string;
  popped: string;
  /** The consumer's epilogue, when it differs from the producer's. */
  consumerQuant?: string;
  slotSize?: number;
  /** Lines before the push (quantization state). */
  beforePush?: string[];
  pops?: string[];
}

/** A cube kernel pushing one acc tile through a fixpipe pipe to a vector kernel that pops it. */
function program(p: Pipe, target = 'a5'): string {
  const epilogue = (quant: string) => `#pto.acc_push_epilogue<layout = nz2nd, quant = ${quant}, relu = no_relu>`;
  const init = (side: string, buf: string, quant: string) =>
    `pto.${side}_initialize_pipe {id = 0, dir_mask = 1, slot_size = ${p.slotSize ?? 1024}, nosplit = true, acc_push_epilogue = ${epilogue(quant)}} (c2v_consumer_buf = ${buf} : i32)`;
  return [
    `module attributes {pto.target_arch = "${target}"} {`,
    '  func.func @cube() attributes {pto.kernel_kind = #pto.kernel_kind<cube>} {',
    '    %fifo = pto.import_reserved_buffer {name = "fifo", peer_func = @vector} -> i32',
    `    ${init('aic', '%fifo', p.quant)}`,
    `    %acc = pto.alloc_tile : ${p.acc}`,
    ...(p.beforePush ?? []).map((l) => '    ' + l),
    `    pto.tpush_to_aiv(%acc : ${p.acc}) {id = 0, split = 0}`,
    '    return',
    '  }',
    '  func.func @vector() attributes {pto.kernel_kind = #pto.kernel_kind<vector>} {',
    '    %fifo = pto.reserve_buffer {name = "fifo", size = 8192, location = #pto.address_space<vec>, auto = true} -> i32',
    `    ${init('aiv', '%fifo', p.consumerQuant ?? p.quant)}`,
    ...(p.pops ?? [`%t = pto.tpop_from_aic {id = 0, split = 0} -> ${p.popped}`]).map((l) => '    ' + l),
    '    pto.tfree_from_aic {id = 0, split = 0}',
    '    return',
    '  }',
    '}',
  ].join('\n');
}

const diagnostics = (text: string) => formatAll(assemble('f.pto', text).diags);

describe('the epilogue and its quant modes', () => {
  test('only the published layouts, quant modes and relus decode', () => {
    expect(decodeEpilogue('#pto.acc_push_epilogue<layout = nz2dn, quant = deqf16_vec, relu = normal_relu>')).toEqual({
      epilogue: { layout: 'nz2dn', quant: 'deqf16_vec', relu: 'normal_relu' },
    });
    expect(decodeEpilogue('#pto.acc_push_epilogue<layout = nz2nd, quant = deqf16_scalar, relu = pwl>')).toEqual({
      problem: expect.stringContaining('relu must be one of no_relu, normal_relu'),
    });
    // The vector forms of the f8/f16 pre-quant modes exist in pto-isa but are not published.
    expect(decodeEpilogue('#pto.acc_push_epilogue<layout = nz2nd, quant = qf322f16_pre_vec, relu = no_relu>')).toHaveProperty('problem');
    expect(decodeEpilogue('#pto.acc_push_epilogue<nz2nd, no_convert, no_relu>')).toHaveProperty('problem');
  });

  test('what each mode converts from and gives', () => {
    expect(accElementFits('deqf16_scalar', 'i32')).toBe(true);
    expect(accElementFits('deqf16_scalar', 'f32')).toBe(false);
    expect(accElementFits('qf322b8_pre_vec', 'f32')).toBe(true);
    // 8-bit results: a scalar mode takes si8 or ui8, a vector mode si8 only; never a signless i8.
    expect(consumerElementFits('req8_scalar', { elem: 'u8', signedness: 'unsigned' })).toBe(true);
    expect(consumerElementFits('req8_scalar', { elem: 'i8', signedness: 'signless' })).toBe(false);
    expect(consumerElementFits('req8_vec', { elem: 'u8', signedness: 'unsigned' })).toBe(false);
    expect(consumerElementFits('req8_vec', { elem: 'i8', signedness: 'signed' })).toBe(true);
    // no_convert passes the acc element through.
    expect(consumerElementFits('no_convert', { elem: 'f32' }, 'f32')).toBe(true);
    expect(consumerElementFits('no_convert', { elem: 'i32' }, 'f32')).toBe(false);
  });
});

describe('a fixpipe pipe between two kernels', () => {
  const scalar = ['%s = arith.constant 1.0 : f32', 'pto.set_quant_scalar(%s : f32) {id = 0}'];

  test('a matching pair verifies', () => {
    expect(diagnostics(program({ quant: 'deqf16_scalar', acc: ACC('i32'), popped: VEC('f16'), beforePush: scalar }))).toBe('');
    expect(diagnostics(program({ quant: 'no_convert', acc: ACC('f32'), popped: VEC('f32') }))).toBe('');
    expect(diagnostics(program({ quant: 'req8_scalar', acc: ACC('i32'), popped: VEC('ui8'), slotSize: 256, beforePush: scalar }))).toBe('');
  });

  test('the two ends carry the same epilogue', () => {
    const text = program({ quant: 'no_convert', consumerQuant: 'f32_f16', acc: ACC('f32'), popped: VEC('f16') });
    expect(diagnostics(text)).toContain(
      'error[E0421]: pto.aic_initialize_pipe expects acc_push_epilogue.quant to match peer consumer (producer has no_convert, consumer has f32_f16)',
    );
  });

  test("a push's acc element and a pop's tile fit the mode", () => {
    expect(diagnostics(program({ quant: 'f32_f16', acc: ACC('i32'), popped: VEC('f16') }))).toContain(
      'pto.tpush_to_aiv expects fixpipe TPUSH source element type to match acc_push_epilogue.quant mode requirements',
    );
    expect(diagnostics(program({ quant: 'req8_scalar', acc: ACC('i32'), popped: VEC('i8'), beforePush: scalar }))).toContain(
      'pto.aiv_initialize_pipe expects consumer element type to match acc_push_epilogue.quant req8_scalar',
    );
    expect(diagnostics(program({ quant: 'f32_f16', acc: ACC('f32'), popped: VEC('f16', 'col_major') }))).toContain(
      'expects consumer tile layout to match acc_push_epilogue.layout nz2nd',
    );
    const twoPops = [`%a = pto.tpop_from_aic {id = 0, split = 0} -> ${VEC('f16')}`, `%b = pto.tpop_from_aic {id = 0, split = 0} -> ${VEC('bf16')}`];
    expect(diagnostics(program({ quant: 'f32_f16', acc: ACC('f32'), popped: '', pops: twoPops }))).toContain(
      'expects all tpop_from_aic results for fixpipe pipe id = 0 to use the same tile type',
    );
  });

  test("the slots hold the consumer's entry: 16x16 f32 is 1024 bytes", () => {
    expect(diagnostics(program({ quant: 'no_convert', acc: ACC('f32'), popped: VEC('f32'), slotSize: 512 }))).toContain(
      'expects consumer-side fixpipe slot_size to be at least 1024 bytes',
    );
  });

  test('a push of a mode with quantization state needs it set before, in its block', () => {
    expect(diagnostics(program({ quant: 'deqf16_scalar', acc: ACC('i32'), popped: VEC('f16') }))).toContain(
      'pto.tpush_to_aiv expects a preceding pto.set_quant_scalar with id = 0 in the same block',
    );
    const vector = [`%fp = pto.alloc_tile : ${SCALING('f16')}`, `pto.set_quant_vector(%fp : ${SCALING('f16')}) {id = 0}`];
    expect(diagnostics(program({ quant: 'deqf16_vec', acc: ACC('i32'), popped: VEC('f16'), beforePush: vector }))).toBe('');
    // A5's vector payload is f16, bf16 or f32; A2/A3's packed i64.
    const packed = vector.map((l) => l.split(SCALING('f16')).join(SCALING('i64')));
    expect(diagnostics(program({ quant: 'deqf16_vec', acc: ACC('i32'), popped: VEC('f16'), beforePush: packed }))).toContain(
      "pto.set_quant_vector expects 'scaling_tile' element type to be f16, bf16, or f32 on A5",
    );
    expect(diagnostics(program({ quant: 'deqf16_vec', acc: ACC('i32'), popped: VEC('f16'), beforePush: scalar }))).toContain(
      "pto.set_quant_scalar expects 'id' = 0 to reference a pipe with scalar quantization mode, but found non-scalar mode",
    );
  });

  test('the A5-only modes, and the fixpipe attributes PTOAS does not publish', () => {
    const text = program({ quant: 'qs322bf16_pre_scalar', acc: ACC('i32'), popped: VEC('bf16'), beforePush: scalar }, 'a3');
    expect(diagnostics(text)).toContain("expects 'qs322bf16_pre_*' quantization modes to be used only on A5 target");
    const plain = program({ quant: 'no_convert', acc: ACC('f32'), popped: VEC('f32') });
    const hidden = plain.replace('(c2v_consumer_buf = %fifo : i32)\n    %acc', '(c2v_consumer_buf = %fifo : i32) {subBlockId = 1 : i64}\n    %acc');
    expect(diagnostics(hidden)).toContain("pto.aic_initialize_pipe does not allow unpublished fixpipe attr 'subBlockId'");
  });
});
