/**
 * Every constraint of reference/ascendc.md on the four AscendC/TIK instructions and TCOLMIN, each shown with the
 * located error pto-as gives (line:col, code, message) for a program that breaks it. Alignment rules cannot be
 * broken in the text form (an operand is a tile, and tiles start 32-byte aligned: addresses are relative to them);
 * the model's own checks of those are in test/ascendc/model.test.ts.
 */
import { assemble } from '../../src/verify/assemble';
import { TargetName } from '../../src/spec/schema';

const tile = (dtype: string, rows: number, cols: number, extra: Record<string, string | number> = {}) => {
  const fields = { loc: 'vec', dtype, rows, cols, v_row: rows, v_col: cols, blayout: 'row_major', slayout: 'none_box', fractal: 512, pad: 0, ...extra };
  return `!pto.tile_buf<${Object.entries(fields)
    .map(([k, v]) => `${k}=${v}`)
    .join(', ')}>`;
};

interface Call {
  op: string;
  src: string;
  dst: string;
  attrs: string;
  /** A work tile (vec_reduce_add), or the source tile itself as work. */
  work?: string | 'src';
  /** The source tile is the destination too. */
  inPlace?: boolean;
  target?: TargetName;
}

/** The diagnostics of a function that allocates the tiles and makes the call (on line 5 or 6), as `line:col code message`. */
function diagnostics(c: Call): string[] {
  const lines = [`    %src = pto.alloc_tile : ${c.src}`];
  if (!c.inPlace) lines.push(`    %dst = pto.alloc_tile : ${c.dst}`);
  if (c.work && c.work !== 'src') lines.push(`    %work = pto.alloc_tile : ${c.work}`);
  const workType = c.work === 'src' ? c.src : c.work;
  const ins = c.work ? `ins(%src, ${c.work === 'src' ? '%src' : '%work'} : ${c.src}, ${workType})` : `ins(%src : ${c.src})`;
  const outs = c.inPlace ? `outs(%src : ${c.src})` : `outs(%dst : ${c.dst})`;
  lines.push(`    ${c.op} ${ins} ${outs} ${c.attrs}`);
  const text = `module {\n  func.func @k() {\n${lines.join('\n')}\n    return\n  }\n}\n`;
  const r = assemble('t.pto', text, { target: c.target ?? 'a5' });
  return r.diags.items.map((d) => {
    const p = r.source.position(d.span.start);
    return `${p.line}:${p.col} ${d.code} ${d.message}`;
  });
}

const F16 = tile('f16', 8, 128);
const F32 = tile('f32', 8, 64);
const OUT16 = tile('f16', 1, 16);
const OUT32 = tile('f32', 1, 16);
const WRM = 'ascendc.whole_reduce_min';
const BRS = 'ascendc.block_reduce_sum';
const VRA = 'tik.vec_reduce_add';
const COPY = 'ascendc.copy';

/** [the rule as reference/ascendc.md words it, the call, the diagnostics]. */
const RULES: [string, Call, string[]][] = [
  // §1 / §2 masks
  [
    'contiguous mask, 16-bit: [1, 128]',
    { op: WRM, src: F16, dst: OUT16, attrs: '{mask = 0, repeat = 1}' },
    ['5:319 E0601 ascendc.whole_reduce_min: mask (contiguous mode)=0 out of range [1, 128] for 16-bit half'],
  ],
  [
    'contiguous mask, 32-bit: [1, 64]',
    { op: WRM, src: F32, dst: OUT32, attrs: '{mask = 65, repeat = 1}' },
    ['5:317 E0601 ascendc.whole_reduce_min: mask (contiguous mode)=65 out of range [1, 64] for 32-bit float'],
  ],
  [
    'bit mask: the two words may not both be 0',
    { op: WRM, src: F16, dst: OUT16, attrs: '{mask = [0, 0], repeat = 1}' },
    ['5:319 E0601 ascendc.whole_reduce_min: bit-mode mask: mask[0] and mask[1] must not both be 0'],
  ],
  [
    'bit mask, 32-bit: mask[1] must be 0',
    { op: WRM, src: F32, dst: OUT32, attrs: '{mask = [1, 1], repeat = 1}' },
    ['5:317 E0601 ascendc.whole_reduce_min: bit-mode mask: mask[1]=0x1 must be 0 for 32-bit float (64 lanes)'],
  ],
  [
    'bit mask words are 64-bit',
    { op: WRM, src: F16, dst: OUT16, attrs: '{mask = [18446744073709551616, 0], repeat = 1}' },
    ["5:319 E0601 'mask' words must be unsigned 64-bit integers"],
  ],
  // §2 WholeReduceMin
  [
    'WholeReduceMin: repeat in [0, 255]',
    { op: WRM, src: F16, dst: OUT16, attrs: '{mask = 128, repeat = 256}' },
    ['5:333 E0601 ascendc.whole_reduce_min: repeatTimes=256 out of range [0, 255]'],
  ],
  [
    'WholeReduceMin: dstRepStride, srcBlkStride, srcRepStride in [0, 65535]',
    { op: WRM, src: F16, dst: OUT16, attrs: '{mask = 128, repeat = 1, dst_rep_stride = 65536, src_blk_stride = 65536, src_rep_stride = 65536}' },
    [
      '5:353 E0601 ascendc.whole_reduce_min: dstRepStride=65536 out of range [0, 65535]',
      '5:377 E0601 ascendc.whole_reduce_min: srcBlkStride=65536 out of range [0, 65535]',
      '5:401 E0601 ascendc.whole_reduce_min: srcRepStride=65536 out of range [0, 65535]',
    ],
  ],
  [
    'WholeReduceMin: an order the product does not support (INDEX_VALUE on 310B)',
    { op: WRM, src: F16, dst: OUT16, attrs: '{mask = 128, repeat = 1, order = "index_value", product = "310b"}' },
    ['5:344 E0601 ascendc.whole_reduce_min: WholeReduceMin: ORDER_INDEX_VALUE not supported on 310B (Atlas 200I/500 A2 inference); supported on: 310P, A2'],
  ],
  [
    'WholeReduceMin: half only on 910',
    { op: WRM, src: F32, dst: OUT32, attrs: '{mask = 64, repeat = 1, product = "910"}' },
    ['5:41 E0601 ascendc.whole_reduce_min: WholeReduceMin: dtype f32 not supported on 910 (Atlas training series); supported: f16 (half)'],
  ],
  [
    'WholeReduceMin: dstRepStride = 0 is illegal on 910',
    { op: WRM, src: F16, dst: OUT16, attrs: '{mask = 128, repeat = 1, dst_rep_stride = 0, product = "910"}' },
    ['5:353 E0601 ascendc.whole_reduce_min: WholeReduceMin: dstRepStride=0 is not supported on Atlas training series (910)'],
  ],
  [
    'WholeReduceMin: an access outside UB (here, the tile)',
    { op: WRM, src: F16, dst: OUT16, attrs: '{mask = 128, repeat = 9}' },
    ['5:5 E0602 ascendc.whole_reduce_min: read of 2 byte(s) at address 2048 is outside %src [0, 2048): byte 2048 is out of bounds'],
  ],
  [
    'src/dst overlap across repeats is unsupported',
    { op: WRM, src: F16, dst: F16, attrs: '{mask = 128, repeat = 2}', inPlace: true },
    [
      '4:176 E0603 ascendc.whole_reduce_min: repeat 1 writes byte 4 of the tile, which repeat 0 reads: AscendC does not support a source and destination that overlap across repeats',
      '4:176 E0603 ascendc.whole_reduce_min: repeat 0 reads 256 byte(s) and writes 4, 4 of them the same: within a repeat AscendC supports only a source and destination that overlap completely',
    ],
  ],
  // §3 BlockReduceSum
  [
    'BlockReduceSum: masks, repeat in [0, 255], dstRepStride = 0 not on 910',
    { op: BRS, src: F16, dst: OUT16, attrs: '{mask = 129, repeat = 256, dst_rep_stride = 0, product = "910"}' },
    [
      '5:319 E0601 ascendc.block_reduce_sum: mask (contiguous mode)=129 out of range [1, 128] for 16-bit half',
      '5:333 E0601 ascendc.block_reduce_sum: repeatTime=256 out of range [0, 255]',
      '5:355 E0601 ascendc.block_reduce_sum: BlockReduceSum: dstRepStride=0 is not supported on Atlas training series (910)',
    ],
  ],
  [
    'BlockReduceSum: half only on 910',
    { op: BRS, src: F32, dst: OUT32, attrs: '{mask = 64, repeat = 1, product = "910"}' },
    ['5:41 E0601 ascendc.block_reduce_sum: BlockReduceSum: dtype f32 not supported on 910 (Atlas training series); supported: f16 (half)'],
  ],
  [
    'BlockReduceSum: src/dst overlap within a repeat only in full',
    { op: BRS, src: F16, dst: F16, attrs: '{mask = 128, repeat = 1}', inPlace: true },
    [
      '4:176 E0603 ascendc.block_reduce_sum: repeat 0 reads 256 byte(s) and writes 16, 16 of them the same: within a repeat AscendC supports only a source and destination that overlap completely',
    ],
  ],
  // §4 vec_reduce_add
  [
    'vec_reduce_add: repeat_times in [1, 4095] (0)',
    { op: VRA, src: F16, dst: OUT16, attrs: '{mask = 128, repeat = 0}' },
    ['5:327 E0601 tik.vec_reduce_add: repeat_times=0 out of range [1, 4095]'],
  ],
  [
    'vec_reduce_add: repeat_times in [1, 4095], src_rep_stride in [0, 65535]',
    { op: VRA, src: F16, dst: OUT16, attrs: '{mask = 128, repeat = 4096, src_rep_stride = 65536}' },
    [
      '5:327 E0601 tik.vec_reduce_add: repeat_times=4096 out of range [1, 4095]',
      '5:350 E0601 tik.vec_reduce_add: src_rep_stride=65536 out of range [0, 65535]',
    ],
  ],
  [
    'vec_reduce_add: work_tensor needs >= repeat_times elements',
    { op: VRA, src: F16, dst: OUT16, attrs: '{mask = 128, repeat = 32}', work: tile('f16', 1, 16) },
    ['6:172 E0601 tik.vec_reduce_add: work_tensor needs at least repeat_times=32 elements, has 16'],
  ],
  [
    'vec_reduce_add: src and work must not overlap',
    { op: VRA, src: F16, dst: OUT16, attrs: '{mask = 128, repeat = 2}', work: 'src' },
    ['5:171 E0601 tik.vec_reduce_add: vec_reduce_add: src and work_tensor overlap (src bytes [0, 512), work_tensor bytes [0, 4))'],
  ],
  [
    'vec_reduce_add: src and dst must not overlap',
    { op: VRA, src: F16, dst: F16, attrs: '{mask = 128, repeat = 2}', inPlace: true },
    ['4:177 E0601 tik.vec_reduce_add: vec_reduce_add: src and dst overlap (src bytes [0, 512), dst bytes [0, 2))'],
  ],
  [
    'vec_reduce_add: dst, src and work share a dtype',
    { op: VRA, src: F16, dst: OUT16, attrs: '{mask = 128, repeat = 2}', work: tile('f32', 1, 16) },
    ['6:172 E0505 tik.vec_reduce_add: dst (f16) and work (f32) must have the same element type'],
  ],
  [
    'vec_reduce_add: f16 or f32',
    { op: VRA, src: tile('i16', 8, 128), dst: tile('i16', 1, 16), attrs: '{mask = 128, repeat = 1}' },
    [
      '5:177 E0505 tik.vec_reduce_add: dst dtype i16 is not supported on a5 (allowed: f16, f32)',
      '5:35 E0505 tik.vec_reduce_add: src dtype i16 is not supported on a5 (allowed: f16, f32)',
      '5:35 E0601 tik.vec_reduce_add: vec_reduce_add: dtype i16 not supported on A2 (Atlas A2 training series / Atlas 800I A2 inference); supported: f16 (half), f32 (float)',
    ],
  ],
  // §5 Copy
  [
    'Copy: A2 and 310B only',
    { op: COPY, src: F16, dst: F16, attrs: '{mask = 128, repeat = 1, product = "910"}' },
    ['5:336 E0601 ascendc.copy: Copy (UB->UB, masked) is not supported on product 910 (Atlas training series); supported on: A2, 310B'],
  ],
  [
    'Copy: bf16 only on 310B',
    { op: COPY, src: tile('bf16', 8, 128), dst: tile('bf16', 8, 128), attrs: '{mask = 128, repeat = 1}' },
    [
      '5:29 E0601 ascendc.copy: Copy: dtype bf16 not supported on A2 (Atlas A2 training series / Atlas 800I A2 inference); supported: u16 (uint16_t), i16 (int16_t), f16 (half), u32 (uint32_t), i32 (int32_t), f32 (float)',
    ],
  ],
  [
    'Copy: dstStride = 0 is rejected',
    { op: COPY, src: F16, dst: F16, attrs: '{mask = 128, repeat = 1, dst_stride = 0}' },
    ['5:339 E0601 ascendc.copy: Copy: dstStride=0 is undefined behaviour (dstBlkStride must not be 0); set allowDstStride0 for last-block-wins'],
  ],
  [
    'Copy: block strides in [0, 65535], repeat sizes in [0, 4095]',
    { op: COPY, src: F16, dst: F16, attrs: '{mask = 128, repeat = 1, dst_stride = 65536, src_stride = 65536, dst_repeat_size = 4096, src_repeat_size = 4096}' },
    [
      '5:339 E0601 ascendc.copy: dstStride=65536 out of range [0, 65535]',
      '5:359 E0601 ascendc.copy: srcStride=65536 out of range [0, 65535]',
      '5:384 E0601 ascendc.copy: dstRepeatSize=4096 out of range [0, 4095]',
      '5:408 E0601 ascendc.copy: srcRepeatSize=4096 out of range [0, 4095]',
    ],
  ],
  [
    'Copy: in place, a repeat may not write what another reads',
    { op: COPY, src: F16, dst: F16, attrs: '{mask = 128, repeat = 2, src_repeat_size = 4}', inPlace: true },
    [
      '4:164 E0603 ascendc.copy: repeat 0 writes byte 128 of the tile, which repeat 1 reads: AscendC does not support a source and destination that overlap across repeats',
      '4:164 E0603 ascendc.copy: repeat 1 reads 256 byte(s) and writes 256, 128 of them the same: within a repeat AscendC supports only a source and destination that overlap completely',
    ],
  ],
  // §6 TCOLMIN
  [
    'TCOLMIN: src is a Vec tile',
    { op: 'pto.tcolmin', src: tile('f16', 16, 64, { loc: 'mat' }), dst: tile('f16', 1, 64), attrs: '' },
    ['5:28 E0503 pto.tcolmin: src must be a vec tile, not loc=mat'],
  ],
  [
    'TCOLMIN: src is ND',
    { op: 'pto.tcolmin', src: tile('f16', 16, 64, { blayout: 'col_major' }), dst: tile('f16', 1, 64), attrs: '' },
    ['5:28 E0504 pto.tcolmin: src must be ND (blayout=row_major, slayout=none_box), not DN'],
  ],
  [
    'TCOLMIN: the same dtype',
    { op: 'pto.tcolmin', src: tile('f16', 16, 64), dst: tile('f32', 1, 64), attrs: '' },
    ['5:28 E0505 pto.tcolmin: dst (f32) and src (f16) must have the same element type'],
  ],
  [
    'TCOLMIN: src.validCol == dst.validCol',
    { op: 'pto.tcolmin', src: tile('f16', 16, 64), dst: tile('f16', 1, 64, { v_col: 32 }), attrs: '' },
    ['5:5 E0506 pto.tcolmin: src valid cols (64) must equal dst valid cols (32)'],
  ],
  [
    'TCOLMIN: A2A3 dtypes are half/float/int16/int32',
    { op: 'pto.tcolmin', src: tile('bf16', 16, 64), dst: tile('bf16', 1, 64), attrs: '', target: 'a2a3' },
    [
      '5:171 E0505 pto.tcolmin: dst dtype bf16 is not supported on a2a3 (allowed: i16, i32, f16, f32)',
      '5:28 E0505 pto.tcolmin: src dtype bf16 is not supported on a2a3 (allowed: i16, i32, f16, f32)',
    ],
  ],
];

describe('each AscendC constraint of the reference gives a located error', () => {
  test.each(RULES)('%s', (_rule, call, expected) => {
    expect(diagnostics(call)).toEqual(expected);
  });
});

describe('what the constraints allow', () => {
  test.each<[string, Call]>([
    ['an in-place Copy whose repeats each overlap themselves completely', { op: COPY, src: F16, dst: F16, attrs: '{mask = 128, repeat = 8}', inPlace: true }],
    ['bf16 Copy on 310B', { op: COPY, src: tile('bf16', 8, 128), dst: tile('bf16', 8, 128), attrs: '{mask = 128, repeat = 1, product = "310b"}' }],
    ['vec_reduce_add with a work tile of its dtype', { op: VRA, src: F16, dst: OUT16, attrs: '{mask = 128, repeat = 2}', work: tile('f16', 1, 16) }],
    ['TCOLMIN on bf16 on A5', { op: 'pto.tcolmin', src: tile('bf16', 16, 64), dst: tile('bf16', 1, 64), attrs: '' }],
  ])('%s', (_what, call) => {
    expect(diagnostics(call)).toEqual([]);
  });
});
