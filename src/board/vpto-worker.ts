/**
 * A child process of the VPTO suite's pool (vpto-suite.ts, through tilelang-suite.ts's runPool): runs the cases it
 * is sent, one at a time, with a warm Python of its own, and sends back each case's result.
 *
 *   argv: CASES_DIR SCRATCH_DIR OPTIONS_JSON
 *   in:  { testcase: CASE_ID }      out: { testcase: CASE_ID, results: [CaseResult] }
 */
import { pythonCommand, pythonRunner } from './python-runner';
import { CaseOptions, caseOf, runCaseReporting } from './vpto';

const [cases, scratch, optionsJson] = process.argv.slice(2);
const options = JSON.parse(optionsJson ?? '{}') as Omit<CaseOptions, 'runner' | 'scratch'>;
const runner = pythonRunner(pythonCommand());

process.on('message', (message: { testcase?: string }) => {
  const id = message.testcase;
  if (id === undefined) {
    runner.close();
    process.disconnect();
    return;
  }
  void runCaseReporting(cases, caseOf(cases, id), { ...options, runner, scratch }).then((result) => process.send!({ testcase: id, results: [result] }));
});
