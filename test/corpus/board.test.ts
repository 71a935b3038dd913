/**
 * PTOAS's board validation of its samples with the VM as the board (src/board, docs/board.md), over today's corpus
 * read in place from PTO_UPSTREAM_DIR (an export of tonibohnlein/PTOAS at e32488c9; nothing of it is committed):
 *
 *   PTO_UPSTREAM_DIR=/path/to/PTOAS npx jest test/corpus/board
 *   bin/pto-vm validate /path/to/PTOAS/test/samples          (the same, one line per case)
 *
 * Every golden case runs its golden script, the kernel in the VM and its compare script. Cases whose golden script
 * checks only run-to-run determinism are counted apart (they must still run); every case that fails or cannot run,
 * of either kind, is listed in board-exceptions.json with the reason: a listed case that starts to pass, or a new
 * failure, fails the test. Needs python3 with numpy; the whole run takes about five minutes on two CPUs (two cases at a
 * time, each with a warm Python: `pto-vm validate` prints where the time goes).
 */
import * as os from 'os';
import * as path from 'path';
import { spawnSync } from 'child_process';
import { findCases } from '../../src/board/cases';
import { CaseResult, validateCases } from '../../src/board/validate';
import { shimDirectory } from '../../src/board/python-kernel';
import exceptions from './board-exceptions.json';

const root = process.env.PTO_UPSTREAM_DIR;
const hasNumpy = spawnSync('python3', ['-c', 'import numpy'], { encoding: 'utf8' }).status === 0;

const nameOf = (r: CaseResult) => `${path.basename(r.case.sampleDir)}/${r.case.testcase}`;

if (!root) {
  test.skip('PTO_UPSTREAM_DIR is not set: export tonibohnlein/PTOAS (e32488c9) and point PTO_UPSTREAM_DIR at it to run the board flow', () => undefined);
} else if (!hasNumpy) {
  test.skip("python3 with numpy is not available: PTOAS's golden scripts cannot run", () => undefined);
} else {
  test(
    'board flow: at least 97% of the golden-checked cases the board runner runs pass; every failure or error is listed',
    async () => {
      // With the package's stand-in for PTOAS's Python bindings, as `pto-vm validate` runs (docs/board-python.md).
      const results = await validateCases(findCases(path.join(root, 'test', 'samples')), { pythonShim: shimDirectory(), jobs: os.availableParallelism() });
      expect(results.length).toBe(297);
      const checked = results.filter((r) => r.checks !== 'determinism' && (r.outcome === 'pass' || r.outcome === 'fail' || r.outcome === 'error'));
      const passed = checked.filter((r) => r.outcome === 'pass');
      expect(passed.length / checked.length).toBeGreaterThanOrEqual(0.94);
      // Of the golden-checked cases PTOAS's board runner runs itself (it skips four Qwen residual kernels whose
      // golden models one vector sub-block: test/corpus/qwen-subblocks.test.ts), at least 97% pass.
      const boardRuns = checked.filter((r) => !r.boardSkips);
      expect(boardRuns.filter((r) => r.outcome === 'pass').length / boardRuns.length).toBeGreaterThanOrEqual(0.97);
      const listed: Record<string, string> = exceptions;
      const failing = results.filter((r) => r.outcome === 'fail' || r.outcome === 'error');
      const unlisted = failing.filter((r) => !(nameOf(r) in listed)).map((r) => `${nameOf(r)}  ${r.outcome}: ${r.reason ?? ''}`);
      const names = new Set(failing.map(nameOf));
      const stale = Object.keys(listed).filter((name) => !names.has(name));
      expect({ unlisted, stale }).toEqual({ unlisted: [], stale: [] });
    },
    30 * 60 * 1000,
  );
}
