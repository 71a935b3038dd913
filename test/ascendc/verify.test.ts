/** The AscendC text form in the verifier: attribute problems and the model's rules, located. */
import { assemble } from '../../src/verify/assemble';

const SRC = '!pto.tile_buf<loc=vec, dtype=f16, rows=8, cols=128, v_row=8, v_col=128, blayout=row_major, slayout=none_box, fractal=512, pad=0>';
const DST = '!pto.tile_buf<loc=vec, dtype=f16, rows=1, cols=16, v_row=1, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>';

function check(attrs: string, op = 'ascendc.whole_reduce_min'): string[] {
  const text = `module {
  func.func @k() {
    %src = pto.alloc_tile : ${SRC}
    %dst = pto.alloc_tile : ${DST}
    ${op} ins(%src : ${SRC}) outs(%dst : ${DST}) ${attrs}
    return
  }
}
`;
  const r = assemble('t.pto', text);
  return r.diags.items.map((d) => {
    const p = r.source.position(d.span.start);
    return `${p.line}:${p.col} ${d.message}`;
  });
}

const col = (attrs: string, needle: string) => 5 + `    ascendc.whole_reduce_min ins(%src : ${SRC}) outs(%dst : ${DST}) ${attrs}`.indexOf(needle) - 4;

describe('ascendc text form', () => {
  test('the seed example verifies: 8 repeats of 128 halves into 8 (value, index) pairs', () => {
    expect(check('{mask = 128, repeat = 8, dst_rep_stride = 1, src_blk_stride = 1, src_rep_stride = 8, order = "value_index"}')).toEqual([]);
  });

  test('a bit mask is [M0, M1] in decimal or hex', () => {
    expect(check('{mask = [0xFFFFFFFFFFFFFFFF, 0x1], repeat = 8}')).toEqual([]);
    expect(check('{mask = [0, 0], repeat = 8}')).toHaveLength(1);
  });

  test('attribute problems: unknown name, wrong kind, missing required, bad enum value', () => {
    const attrs = '{mask = "all", repeat = 8, stride = 2, order = "max_index", saturation = 1}';
    expect(check(attrs)).toEqual([
      `5:${col(attrs, '"all"')} 'mask' must be an integer (contiguous mode) or [M0, M1] (bit mode: two unsigned 64-bit integers)`,
      `5:${col(attrs, 'stride')} ascendc.whole_reduce_min has no attribute 'stride' (it has mask, repeat, dst_rep_stride, src_blk_stride, src_rep_stride, order, product, saturation)`,
      `5:${col(attrs, '"max_index"')} 'order' must be one of "value_index", "index_value", "only_value", "only_index"`,
      `5:${col(attrs, '1}')} 'saturation' must be true or false`,
    ]);
    expect(check('{repeat = 8}')).toEqual(["5:5 ascendc.whole_reduce_min needs the attribute 'mask'"]);
  });

  test("the model's value rules are located at the attribute", () => {
    const attrs = '{mask = 129, repeat = 256}';
    expect(check(attrs)).toEqual([
      `5:${col(attrs, '129')} ascendc.whole_reduce_min: mask (contiguous mode)=129 out of range [1, 128] for 16-bit half`,
      `5:${col(attrs, '256')} ascendc.whole_reduce_min: repeatTimes=256 out of range [0, 255]`,
    ]);
  });

  test('an access outside a tile is found before anything runs', () => {
    expect(check('{mask = 128, repeat = 9}')).toEqual([
      '5:5 ascendc.whole_reduce_min: read of 2 byte(s) at address 2048 is outside %src [0, 2048): byte 2048 is out of bounds',
    ]);
  });

  test('an order the product does not support is rejected', () => {
    expect(check('{mask = 128, repeat = 1, order = "only_value", product = "910"}')[0]).toMatch(/ORDER_ONLY_VALUE/);
  });
});

describe('ascendc element types', () => {
  const tile = (dtype: string, cols: number) =>
    `!pto.tile_buf<loc=vec, dtype=${dtype}, rows=1, cols=${cols}, v_row=1, v_col=${cols}, blayout=row_major, slayout=none_box, fractal=512, pad=0>`;
  const program = (op: string, src: string, dst: string, attrs: string) => `module {
  func.func @k() {
    %src = pto.alloc_tile : ${src}
    %dst = pto.alloc_tile : ${dst}
    ${op} ins(%src : ${src}) outs(%dst : ${dst}) ${attrs}
    return
  }
}
`;
  const errors = (text: string) => assemble('t.pto', text).diags.items.map((d) => d.message);

  test('copy and block_reduce_sum need one element type for src and dst', () => {
    expect(errors(program('ascendc.copy', tile('f16', 128), tile('f32', 64), '{mask = 128, repeat = 1}'))).toEqual([
      'ascendc.copy: dst (f32) and src (f16) must have the same element type',
    ]);
    expect(errors(program('ascendc.copy', tile('f16', 128), tile('f16', 128), '{mask = 128, repeat = 1}'))).toEqual([]);
  });

  test('whole_reduce_min may store its uint32 indexes in a u32 tile', () => {
    expect(errors(program('ascendc.whole_reduce_min', tile('f16', 128), tile('u32', 8), '{mask = 128, repeat = 1, order = "only_index"}'))).toEqual([]);
  });
});
