/** The fuzzing worker's runCase (src/tools/fuzz/worker.ts): a tool's main may end later, in a Promise. */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { runCase } from '../../../src/tools/fuzz/worker';
import { CaseRequest, CaseResult } from '../../../src/tools/fuzz/protocol';

let dir: string;
let cwd: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fuzz-worker-dir-'));
  cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'fuzz-worker-cwd-'));
});
afterEach(() => {
  for (const d of [dir, cwd]) fs.rmSync(d, { recursive: true, force: true });
});

const request: CaseRequest = { id: 7, tool: 'pto-vm', text: 'module {}\n', fileName: 'case.pto', argv: ['run', 'FILE'], allowedOutputs: [] };
const later = () => new Promise<void>((resolve) => setTimeout(resolve, 5));

function run(main: (argv: string[]) => number | Promise<number>): CaseResult | Promise<CaseResult> {
  const fail = () => {
    throw new Error('pto-as is not run here');
  };
  return runCase({ 'pto-as': fail, 'pto-vm': main }, { distDir: '', dir, cwd }, request);
}

it('a main that returns its code at once: the result at once, its output captured', () => {
  const result = run((argv) => {
    process.stdout.write(`ran ${path.basename(argv[1])}\n`);
    return 0;
  });
  expect(result).not.toBeInstanceOf(Promise);
  expect(result).toMatchObject({ id: 7, code: 0, stdout: 'ran case.pto\n', stderr: '', strays: [] });
});

it('a main that returns a Promise: the result when it settles, with what it printed until then', async () => {
  const [ownOut, ownErr] = [process.stdout.write, process.stderr.write];
  const result = run(async () => {
    process.stdout.write('before\n');
    await later();
    process.stderr.write('after\n');
    return 1;
  });
  expect(result).toBeInstanceOf(Promise);
  expect(await result).toMatchObject({ id: 7, code: 1, stdout: 'before\n', stderr: 'after\n' });
  // The capture is over: the streams write for the process again.
  expect([process.stdout.write, process.stderr.write]).toEqual([ownOut, ownErr]);
});

it('a Promise that rejects: the exception, as one thrown at once would be', async () => {
  const result = await run(async () => {
    await later();
    throw new TypeError('boom');
  });
  expect(result.code).toBeUndefined();
  expect(result.exception).toMatchObject({ name: 'TypeError', message: 'boom' });
});
