/**
 * A5's vector quantization with an f16 or bf16 scaling tile (PTOAS's Movfp sample: set_quant_vector, then a
 * deqf16_vec push): each column's scale multiplies the i32 accumulator in f32, and the product is clipped to the f16
 * range and rounded to f16, as the sample's golden computes f16(clip(f32(acc) * f32(scale))). Values by hand.
 */
import { OnChipMemory, Tile } from '../../../../src/machine/memory';
import { fixpipeConverter } from '../../../../src/numerics/fixpipe';
import { holdsQuantWords, quantWords } from '../../../../src/ops/instructions/semantics/fixpipe';
import { isa } from '../../../../src/spec/isa';
import { TileType } from '../../../../src/types/type';

const span = { start: 0, end: 0 };

function scaling(dtype: 'f16' | 'bf16' | 'f32', values: number[]): Tile {
  const type: TileType = {
    kind: 'tile',
    level: 'buf',
    loc: 'scaling',
    dtype,
    rows: 1,
    cols: 32,
    vRow: 1,
    vCol: values.length,
    blayout: 'row_major',
    slayout: 'none_box',
    fractal: 512,
    pad: 0,
    compact: 0,
  };
  const tile = new OnChipMemory(isa(), 'a5').allocate(type, 'test', span);
  values.forEach((v, c) => tile.set(0, c, v));
  return tile;
}

const deqf16 = fixpipeConverter({ from: 'i32', to: 'f16', form: 'vector', relu: false, profile: 'npu', site: 'tmov' });

test('an f16 scale per column: acc * scale in f32, clipped to the f16 range, rounded to f16', () => {
  if (typeof deqf16 === 'string') throw new Error(deqf16);
  // 0.53125 = 0.5 + 1/32 (the sample's fp0 at column 1); 2^-24 is the smallest f16 subnormal; 65504 the f16 maximum.
  const tile = scaling('f16', [0.5, 0.53125, 2 ** -24, 65504, 1.0625]);
  const words = quantWords(tile);
  expect(words).toHaveLength(5);
  const out = [
    deqf16(-384, words[0]), // -192
    deqf16(3, words[1]), // 1.59375 = 1 + 19/32, an f16
    deqf16(7, words[2]), // 7 * 2^-24: seven subnormal steps
    deqf16(100000, words[3]), // 6.55e9, clipped to 65504
    deqf16(-1, words[4]), // -1.0625
  ];
  expect(out).toEqual([-192, 1.59375, 7 * 2 ** -24, 65504, -1.0625]);
  // 1025 * 0.53125 = 544.53125: between the f16 neighbours 544.5 and 545 (step 0.5 from 512), nearer 544.5.
  expect(deqf16(1025, words[1])).toBe(544.5);
});

test('a bf16 scale is held exactly too; an f32 scale, which the field would truncate, is not read', () => {
  if (typeof deqf16 === 'string') throw new Error(deqf16);
  const bf16 = scaling('bf16', [1.5, -0.0078125]);
  const words = quantWords(bf16);
  expect([deqf16(3, words[0]), deqf16(256, words[1])]).toEqual([4.5, -2]);
  expect(holdsQuantWords(scaling('f32', [1]))).toBe(false);
});
