/** How the corpus runner picks a case's target (src/corpus/samples.ts). */
import { namesA5Target } from '../../src/corpus/samples';

describe('namesA5Target', () => {
  test('a module naming A5 (target_arch or an A5 device spec) overrides --pto-arch, as getTargetArch does', () => {
    expect(namesA5Target('module attributes {pto.target_arch = "a5"} {')).toBe(true);
    expect(namesA5Target('module attributes {"pto.device-spec" = "Ascend950PR_9599"} {')).toBe(true);
    expect(namesA5Target('module attributes {"pto.device-spec" = "Ascend910_9382"} {')).toBe(false);
    expect(namesA5Target('module attributes {"pto.device-spec" = "Ascend910_9599"} {')).toBe(true);
  });
  test('a module naming A2/A3 leaves the target to --pto-arch', () => {
    expect(namesA5Target('module attributes {"pto.device-spec" = "Ascend910B3"} {')).toBe(false);
    expect(namesA5Target('module attributes {pto.target_arch = "a3"} {')).toBe(false);
  });
});
