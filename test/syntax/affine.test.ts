import { parseAffineMap } from '../../src/syntax/affine';
import { evaluateAffine } from '../../src/ops/structure/affine';

const apply = (map: string, dims: number[], symbols: number[] = []) => {
  const parsed = parseAffineMap(map);
  if (typeof parsed === 'string') throw new Error(parsed);
  return Number(evaluateAffine(parsed.results[0], dims.map(BigInt), symbols.map(BigInt)));
};

describe('affine maps', () => {
  test('dimensions and symbols count in order of declaration', () => {
    expect(parseAffineMap('affine_map<(d0, d1)[s0] -> (d0 + d1 * s0)>')).toMatchObject({ dims: 2, symbols: 1 });
    expect(apply('affine_map<(d0, d1)[s0] -> (d0 + d1 * s0)>', [3, 4], [10])).toBe(43);
    expect(apply('affine_map<()[s0] -> (s0 * 32)>', [], [5])).toBe(160);
  });

  test('* binds tighter than + and -, which associate to the left', () => {
    expect(apply('affine_map<(a, b, c) -> (a - b - c * 2)>', [20, 5, 3])).toBe(9);
    expect(apply('affine_map<(a, b) -> ((a - b) * 2)>', [7, 3])).toBe(8);
    expect(apply('affine_map<(a) -> (-a + 1)>', [4])).toBe(-3);
  });

  test.each([
    // [a, b, floordiv, ceildiv, mod]: MLIR rounds floordiv down, ceildiv up, and mod is never negative.
    [7, 2, 3, 4, 1],
    [-7, 2, -4, -3, 1],
    [6, 3, 2, 2, 0],
    [-6, 3, -2, -2, 0],
  ])('%i and %i: floordiv %i, ceildiv %i, mod %i', (a, b, floor, ceil, mod) => {
    expect(apply('affine_map<(a, b) -> (a floordiv b)>', [a, b])).toBe(floor);
    expect(apply('affine_map<(a, b) -> (a ceildiv b)>', [a, b])).toBe(ceil);
    expect(apply('affine_map<(a, b) -> (a mod b)>', [a, b])).toBe(mod);
  });

  test('a zero divisor is a RangeError', () => {
    expect(() => apply('affine_map<(a, b) -> (a mod b)>', [1, 0])).toThrow(RangeError);
  });

  test.each([
    ['affine_map<(d0) -> (d1)>', "'d1' is not a dimension or symbol of 'affine_map<(d0) -> (d1)>'"],
    ['affine_map<(d0, d0) -> (d0)>', "'d0' is declared twice in 'affine_map<(d0, d0) -> (d0)>'"],
    ['affine_map<(d0) -> (d0 +)>', "malformed affine map 'affine_map<(d0) -> (d0 +)>'"],
  ])('%s is refused', (map, problem) => {
    expect(parseAffineMap(map)).toBe(problem);
  });
});
