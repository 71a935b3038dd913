/**
 * The bench's pypto kernel rows time pto-vm against plain-JavaScript programs (bench/kernels) that must compute the
 * same thing: for each kernel, pto-vm's --out of its output (on its generated inputs) and the checksum the program
 * prints are the same bytes. Needs dist/ built (npm test builds it) and PTO_UPSTREAM_DIR (a PTOAS checkout with
 * test/samples); without it the cases are skipped, saying so.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the bench's own module (plain JavaScript)
const { PYPTO_KERNELS, sampleFile, checksums } = require('../../bench/pypto-kernels');

interface Kernel {
  sample: string;
  js: string;
}

const MINUTE = 60_000;
const kernels: Kernel[] = PYPTO_KERNELS;

describe('pypto kernels of the bench: pto-vm --out and the plain-JavaScript program give the same bytes', () => {
  if (!process.env.PTO_UPSTREAM_DIR) {
    it.skip('skipped: set PTO_UPSTREAM_DIR to a PTOAS checkout', () => undefined);
    return;
  }
  it.each(kernels.map((k) => [k.sample, k.js, k] as const))(
    '%s against bench/kernels/%s',
    (_sample, _js, kernel) => {
      const file = sampleFile(kernel);
      expect(file).toBeDefined();
      const { vm, js } = checksums(kernel, file);
      expect(js).toMatch(/^[0-9a-f]{8}$/);
      expect(vm).toBe(js);
    },
    2 * MINUTE,
  );
});
