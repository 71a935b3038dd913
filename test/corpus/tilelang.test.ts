/**
 * PTOAS's A5 tile-op suite (test/tilelang_st/npu/a5/src/st/testcase) with the VM as the board (src/board/tilelang.ts,
 * docs/corpus.md), read in place from PTO_UPSTREAM_DIR (an export of tonibohnlein/PTOAS at e32488c9):
 *
 *   PTO_UPSTREAM_DIR=/path/to/PTOAS npx jest test/corpus/tilelang
 *   node scripts/tilelang-suite.js /path/to/PTOAS        (the same, one line per case that does not pass)
 *
 * Every case of every testcase runs: gen_data.py, the host harness (main.cpp, launch.cpp) with the kernel on the VM,
 * compare.py. Each case that does not pass is listed in tilelang-exceptions.json with why; a listed case that passes
 * (or no longer exists), or a new failure, fails the test. `node scripts/tilelang-suite.js $PTO_UPSTREAM_DIR
 * --write-exceptions` rewrites the list from a run. Needs python3 with numpy and ml_dtypes; about a minute and a
 * half on two CPUs.
 */
import * as os from 'os';
import { spawnSync } from 'child_process';
import { runSuite } from '../../src/board/tilelang-suite';
import exceptions from './tilelang-exceptions.json';

const root = process.env.PTO_UPSTREAM_DIR;
const python = spawnSync(process.env.PYTHON ?? 'python3', ['-c', 'import numpy, ml_dtypes'], { encoding: 'utf8' });

if (!root) {
  test.skip('PTO_UPSTREAM_DIR is not set: export tonibohnlein/PTOAS (e32488c9) and point PTO_UPSTREAM_DIR at it to run the tile-op suite', () => undefined);
} else if (python.status !== 0) {
  test.skip("python3 with numpy and ml_dtypes is not available: the suite's gen_data.py and compare.py scripts cannot run", () => undefined);
} else {
  test(
    'tilelang_st a5: every case passes or is listed in tilelang-exceptions.json, and every listed case still fails',
    async () => {
      const results = await runSuite(root, { jobs: os.availableParallelism() });
      expect(results.length).toBe(1060);
      const listed: Record<string, string> = exceptions;
      // A case whose gen_data.py needs a module this machine lacks (en_dtypes) is skipped, saying so.
      const skipped = results.filter((r) => r.outcome === 'skip');
      if (skipped.length > 0) console.log(`${skipped.length} cases skipped: ${[...new Set(skipped.map((r) => r.reason))].join('; ')}`);
      expect(skipped.every((r) => /needs the Python module/.test(r.reason ?? ''))).toBe(true);
      const failing = results.filter((r) => r.outcome !== 'pass' && r.outcome !== 'skip');
      const unlisted = failing.filter((r) => !(r.id in listed)).map((r) => `${r.id}  ${r.outcome}: ${r.reason ?? ''}`);
      const ids = new Set(failing.map((r) => r.id));
      const stale = Object.keys(listed).filter((id) => !ids.has(id));
      expect({ unlisted, stale }).toEqual({ unlisted: [], stale: [] });
    },
    30 * 60 * 1000,
  );
}
