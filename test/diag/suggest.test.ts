import { closestName, didYouMean } from '../../src/diag/suggest';

describe('closestName', () => {
  const ops = ['pto.tcolmin', 'pto.tcolmax', 'pto.trowmin', 'arith.constant', 'pto.make_tensor_view'];

  test.each([
    ['pto.tcolmni', 'pto.tcolmin'], // a swap: 2 edits in 11 characters
    ['arith.consant', 'arith.constant'],
    ['pto.make_tensorview', 'pto.make_tensor_view'],
    ['PTO.TCOLMAX', 'pto.tcolmax'],
  ])('%s -> %s', (typo, expected) => {
    expect(closestName(typo, ops)).toBe(expected);
  });

  test('nothing when every candidate is more than a third of the name away', () => {
    // 'pto.tfoo' is 5 edits from 'pto.tcolmin' and its limit is floor(8 / 3) = 2.
    expect(closestName('pto.tfoo', ops)).toBeUndefined();
    expect(closestName('--traget', ['--target', '--entry'])).toBe('--target');
    expect(closestName('x', ['yy'])).toBeUndefined();
  });

  test('the name itself is not a suggestion, and ties go to the first candidate', () => {
    expect(closestName('pto.tcolmin', ['pto.tcolmin'])).toBeUndefined();
    expect(closestName('ab', ['ac', 'ad'])).toBe('ac');
  });

  test('didYouMean phrases the hint, or says nothing', () => {
    expect(didYouMean('--traget', ['--target'])).toBe("; did you mean '--target'?");
    expect(didYouMean('--zzzzzz', ['--target'])).toBe('');
  });
});
