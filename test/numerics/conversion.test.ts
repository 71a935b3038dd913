/** numerics/conversion.ts valueConverter: A5 TCVT pairs no implementation defines, by value. Values worked out by hand. */
import { valueConverter } from '../../src/numerics/conversion';

const fail = (message: string): never => {
  throw new Error(message);
};

describe('valueConverter', () => {
  test('u64 -> f32: 2^64 - 1 lies between 2^64 - 2^40 and 2^64 (f32 keeps 24 bits)', () => {
    const max = 2n ** 64n - 1n;
    expect(valueConverter('u64', 'f32', 'rint', true, fail)(max)).toBe(2 ** 64);
    expect(valueConverter('u64', 'f32', 'trunc', true, fail)(max)).toBe(2 ** 64 - 2 ** 40);
    expect(valueConverter('u64', 'f32', 'none', true, fail)(2n ** 40n)).toBe(2 ** 40); // exact: no rounding asked
  });

  test('i64 -> i8 and u32 -> i32: in range kept, out of range clamped when saturating, a trap otherwise', () => {
    expect([-129n, -128n, 127n, 128n].map(valueConverter('i64', 'i8', 'rint', true, fail))).toEqual([-128, -128, 127, 127]);
    expect(valueConverter('u32', 'i32', 'rint', true, fail)(2 ** 32 - 1)).toBe(2 ** 31 - 1);
    expect(() => valueConverter('u32', 'i32', 'rint', false, fail)(2 ** 31)).toThrow('pto.tcvt u32 -> i32 without saturation');
  });

  test('bf16 -> u16, saturated: -inf clamps to 0 and 65536 to 65535; FLOOR takes 1.5 to 1', () => {
    const c = valueConverter('bf16', 'u16', 'floor', true, fail);
    expect([-Infinity, 65536, 1.5].map(c)).toEqual([0, 65535, 1]);
  });

  test('i64 -> f16 overflow: 65520 rounds to inf unsaturated (RINT), to 65504 saturated or truncated', () => {
    expect(valueConverter('i64', 'f16', 'rint', false, fail)(65520n)).toBe(Infinity);
    expect(valueConverter('i64', 'f16', 'rint', true, fail)(-65520n)).toBe(-65504);
    expect(valueConverter('i64', 'f16', 'trunc', false, fail)(65520n)).toBe(65504);
  });
});
