/**
 * TCVT's fast paths (src/ops/instructions/semantics/convert.ts): f32 -> bf16 in RINT and ROUND on the f32 bits, and
 * the results of 16-bit sources kept from one tcvt to the next per conversion. Expected bits worked out by hand: a
 * bf16 is the top half of an f32, so an f32 whose low 16 bits are 0x8000 lies halfway between two bf16 values.
 */
import { f32ToBf16Bits } from '../../../../src/ops/instructions/semantics/convert';
import { FORMATS, roundToFormat } from '../../../../src/numerics/rounding';
import { bits16, elementBytes, runWithValid } from './tile-kernel';

describe('f32ToBf16Bits', () => {
  test.each([
    // [f32 bits, RINT, ROUND]
    [0x3f800000, 0x3f80, 0x3f80], // 1.0, exact
    [0x3f808000, 0x3f80, 0x3f81], // 1 + 2^-8: a tie, even is 1.0, away is 1 + 2^-7
    [0x3f818000, 0x3f82, 0x3f82], // a tie whose even neighbour is the larger one
    [0xbf808000, 0xbf80, 0xbf81], // negative: away from zero is the larger magnitude
    [0x3f807fff, 0x3f80, 0x3f80], // just under a tie
    [0x3f808001, 0x3f81, 0x3f81], // just over a tie
    [0x00008000, 0x0000, 0x0001], // a subnormal tie between +0 and the least subnormal
    [0x80000000, 0x8000, 0x8000], // -0
    [0x7f7f7fff, 0x7f7f, 0x7f7f], // rounds down to bf16's largest finite value
  ])('f32 %s gives RINT %s, ROUND %s', (bits, rint, round) => {
    expect(f32ToBf16Bits(bits, 'rint')).toBe(rint);
    expect(f32ToBf16Bits(bits, 'round')).toBe(round);
  });

  test('a value or result that is not finite goes the general way (-1)', () => {
    for (const bits of [0x7f7fffff, 0xff7fffff, 0x7f800000, 0xff800000, 0x7fc00000, 0xffffffff]) {
      expect([bits, f32ToBf16Bits(bits, 'rint'), f32ToBf16Bits(bits, 'round')]).toEqual([bits, -1, -1]);
    }
  });

  test("a finite result is roundToFormat's", () => {
    const f32 = new Float32Array(1);
    const u32 = new Uint32Array(f32.buffer);
    let state = 12345;
    for (let n = 0; n < 20000; n++) {
      state = (Math.imul(state, 1103515245) + 12345) >>> 0;
      // Half the patterns with a low half of 0x8000 (ties), the rest any.
      u32[0] = n % 2 ? (state & 0xffff0000) | 0x8000 : state;
      for (const mode of ['rint', 'round'] as const) {
        const fast = f32ToBf16Bits(u32[0], mode);
        if (fast < 0) continue;
        expect([u32[0], mode, fast]).toEqual([u32[0], mode, FORMATS.bf16.encode(roundToFormat(f32[0], FORMATS.bf16, mode))]);
      }
    }
  });
});

test('the kept results of 16-bit sources are per conversion: f16 -> bf16 FLOOR, then CEIL, of the same pattern', () => {
  // f16 0x3c01 is 1 + 2^-10, between bf16 1.0 (0x3f80) and 1 + 2^-7 (0x3f81).
  const src = elementBytes('f16', 32, [], 0);
  new DataView(src.buffer).setUint16(0, 0x3c01, true);
  const run = (mode: string) =>
    bits16(
      runWithValid(
        `pto.tcvt ins(%src {rmode = #pto<round_mode ${mode}>} : T(src)) outs(%dst : T(dst))`,
        {
          src: { dtype: 'f16', rows: 1, cols: 32, bytes: src },
          dst: { dtype: 'bf16', rows: 1, cols: 32, bytes: elementBytes('bf16', 32, [], 0) },
        },
        { numerics: 'npu', target: 'a5', valid: [1, 1] },
      ).dst,
      0,
    );
  expect([run('FLOOR'), run('CEIL'), run('FLOOR')]).toEqual([0x3f80, 0x3f81, 0x3f80]);
});
