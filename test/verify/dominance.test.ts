import { immediateDominators } from '../../src/verify/dominance';

describe('immediateDominators', () => {
  it('a diamond: both arms and the join are dominated by the entry only', () => {
    // 0 -> 1, 2; 1 -> 3; 2 -> 3
    expect(immediateDominators([[1, 2], [3], [3], []])).toEqual([-1, 0, 0, 0]);
  });

  it('a chain: each block dominates the next', () => {
    expect(immediateDominators([[1], [2], []])).toEqual([-1, 0, 1]);
  });

  it('a loop: the header dominates the body and the exit', () => {
    // 0 -> 1; 1 -> 2, 3; 2 -> 1
    expect(immediateDominators([[1], [2, 3], [1], []])).toEqual([-1, 0, 1, 1]);
  });

  it('a block the entry cannot reach has no dominator', () => {
    expect(immediateDominators([[], [0]])).toEqual([-1, undefined]);
  });
});
