/**
 * PTOAS's VPTO golden suite (test/vpto/cases) with the VM as the simulator (src/board/vpto.ts, docs/corpus.md),
 * read in place from PTO_UPSTREAM_DIR (an export of tonibohnlein/PTOAS at e32488c9):
 *
 *   PTO_UPSTREAM_DIR=/path/to/PTOAS npx jest test/corpus/vpto
 *   node scripts/vpto-suite.js /path/to/PTOAS        (the same, one line per case and a summary per family)
 *
 * Every case runs as run_host_vpto_validation.sh runs it on CANN's simulator: golden.py, the host harness (main.cpp,
 * launch.cpp) with kernel.pto on the VM, compare.py with COMPARE_STRICT=1. Each case that does not pass is listed
 * in vpto-exceptions.json under its category (for a kernel the toolchain cannot read yet: the first op it does not
 * support); a listed case that passes, or now fails for another category, or a new failure fails the test.
 * `node scripts/vpto-suite.js $PTO_UPSTREAM_DIR --write-exceptions` rewrites the list from a run. PTODSL cases
 * (kernel.py) and onboard-only ones are skipped, saying why, as upstream skips the latter on the simulator. Needs
 * python3 with numpy and ml_dtypes.
 */
import * as os from 'os';
import { spawnSync } from 'child_process';
import { categoryOf, runSuite } from '../../src/board/vpto-suite';
import exceptions from './vpto-exceptions.json';

const root = process.env.PTO_UPSTREAM_DIR;
const python = spawnSync(process.env.PYTHON ?? 'python3', ['-c', 'import numpy, ml_dtypes'], { encoding: 'utf8' });

if (!root) {
  test.skip('PTO_UPSTREAM_DIR is not set: export tonibohnlein/PTOAS (e32488c9) and point PTO_UPSTREAM_DIR at it to run the VPTO golden suite', () => undefined);
} else if (python.status !== 0) {
  test.skip("python3 with numpy and ml_dtypes is not available: the suite's golden.py and compare.py scripts cannot run", () => undefined);
} else {
  test(
    'test/vpto/cases: every case passes or is listed in vpto-exceptions.json under its category, and every listed case still fails so',
    async () => {
      const results = await runSuite(root, { jobs: os.availableParallelism() });
      // 254 kernel.pto cases (141 micro-op, 110 vmi_new, 1 kernels, 2 onboard-only) and 10 PTODSL ones.
      expect(results.length).toBe(264);
      const skipped = results.filter((r) => r.outcome === 'skip');
      expect(
        skipped
          .map((r) => categoryOf(r.reason ?? ''))
          .every((c) => /^skipped: (PTODSL kernel traced by ptodsl|onboard-only|golden\.py needs the Python module)/.test(c)),
      ).toBe(true);
      const listed = new Map<string, string>();
      for (const [category, cases] of Object.entries(exceptions as Record<string, Record<string, string>>))
        for (const id of Object.keys(cases)) listed.set(id, category);
      const failing = results.filter((r) => r.outcome !== 'pass' && r.outcome !== 'skip');
      const unlisted = failing
        .filter((r) => listed.get(r.id) !== categoryOf(r.reason ?? ''))
        .map((r) => `${r.id}  [${categoryOf(r.reason ?? '')}] (listed: ${listed.get(r.id) ?? 'no'}) ${r.outcome}: ${r.reason ?? ''}`);
      const ids = new Set(failing.map((r) => r.id));
      const stale = [...listed.keys()].filter((id) => !ids.has(id));
      expect({ unlisted, stale }).toEqual({ unlisted: [], stale: [] });
    },
    30 * 60 * 1000,
  );
}
