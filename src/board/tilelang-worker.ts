/**
 * A child process of the tile-op suite's pool (tilelang-suite.ts): runs the testcases it is sent, one at a time,
 * with a warm Python of its own, and sends back each testcase's results.
 *
 *   argv: SUITE_DIR SCRATCH_DIR OPTIONS_JSON
 *   in:  { testcase: NAME }      out: { testcase: NAME, results: CaseResult[] }
 */
import { pythonCommand, pythonRunner } from './python-runner';
import { CaseResult, TestcaseOptions, runTestcase } from './tilelang';

const [suite, scratch, optionsJson] = process.argv.slice(2);
const options = JSON.parse(optionsJson ?? '{}') as Omit<TestcaseOptions, 'runner' | 'scratch'>;
const runner = pythonRunner(pythonCommand());

process.on('message', (message: { testcase?: string }) => {
  const testcase = message.testcase;
  if (testcase === undefined) {
    runner.close();
    process.disconnect();
    return;
  }
  runTestcase(suite, testcase, { ...options, runner, scratch }).then(
    (results) => process.send!({ testcase, results }),
    // An internal error of one testcase must not hide the others' results.
    (e: Error) => process.send!({ testcase, results: [{ id: testcase, outcome: 'error', reason: `internal error: ${e.message}` }] satisfies CaseResult[] }),
  );
});
