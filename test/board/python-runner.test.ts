/**
 * The board flow's Python runners: the warm one (a fork per script) must give each script what `python3 script` in
 * its folder gives it, as the plain one does.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { spawnSync } from 'child_process';
import { ScriptResult, forkingRunner, resolvePython, spawningRunner } from '../../src/board/python-runner';

const hasPython = spawnSync('python3', ['-c', 'pass']).status === 0;
jest.setTimeout(60_000);

/** Scripts that show what a script sees, and how it ends. */
const SCRIPTS: Record<string, string> = {
  'sees.py': [
    'import os, sys',
    'import helper',
    'print(os.getcwd() == os.environ["EXPECT_CWD"], sys.argv[1:], os.environ["CASE"], helper.VALUE)',
    'print(os.path.basename(__file__), __name__)',
    'print("to stderr", file=sys.stderr)',
  ].join('\n'),
  'helper.py': 'VALUE = 41 + 1\n',
  'fails.py': 'raise ValueError("bad input")\n',
  'exits.py': 'import sys\nsys.exit(3)\n',
  'says.py': 'import sys\nsys.exit("a message")\n',
  // A global the first run sets must not be seen by the next one.
  'leaks.py': 'import json\nprint(getattr(json, "marked", False))\njson.marked = True\n',
  'path.py': 'import sys, os\nprint(os.environ["EXTRA"] in sys.path)\n',
};

function scratch(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'python-runner-'));
  for (const [name, text] of Object.entries(SCRIPTS)) fs.writeFileSync(path.join(dir, name), text);
  return dir;
}

async function runAll(runner: ReturnType<typeof spawningRunner>, dir: string): Promise<ScriptResult[]> {
  const env = { ...process.env, EXPECT_CWD: dir, CASE: 'c1', EXTRA: path.join(dir, 'extra'), PYTHONPATH: path.join(dir, 'extra') };
  const out: ScriptResult[] = [];
  for (const [script, args] of [
    ['sees.py', ['a', 'b']],
    ['fails.py', []],
    ['exits.py', []],
    ['says.py', []],
    ['leaks.py', []],
    ['leaks.py', []],
    ['path.py', []],
  ] as const)
    out.push(await runner.run({ script, args: [...args], cwd: dir, env }));
  runner.close();
  return out;
}

if (!hasPython) {
  test.skip('python3 is not available', () => undefined);
} else {
  test('the interpreter is found behind its shim, with whether numpy imports', () => {
    const found = resolvePython('python3');
    expect('executable' in found && path.isAbsolute(found.executable)).toBe(true);
    expect(resolvePython('no-such-python-here')).toEqual({ error: 'no-such-python-here is not installed' });
  });

  test('a forked run gives a script what python3 gives it: folder, arguments, environment, imports, exit status, output', async () => {
    const dir = scratch();
    try {
      const python = resolvePython('python3');
      if ('error' in python) throw new Error(python.error);
      const forked = await runAll(forkingRunner(python.executable), dir);
      const spawned = await runAll(spawningRunner(python.executable), dir);
      expect(forked[0]).toEqual({ status: 0, stdout: "True ['a', 'b'] c1 42\nsees.py __main__\n", stderr: 'to stderr\n' });
      expect([forked[1].status, forked[1].stderr.trim().split('\n').pop()]).toEqual([1, 'ValueError: bad input']);
      expect(forked[2].status).toBe(3);
      expect([forked[3].status, forked[3].stderr]).toEqual([1, 'a message\n']);
      // Each run starts afresh: the attribute the first run set on a module is gone in the second.
      expect([forked[4].stdout, forked[5].stdout]).toEqual(['False\n', 'False\n']);
      expect(forked[6].stdout).toBe('True\n');
      // The plain runner gives the same, but for the traceback's file positions.
      const strip = (r: ScriptResult) => ({ status: r.status, stdout: r.stdout, last: r.stderr.trim().split('\n').pop() });
      expect(forked.map(strip)).toEqual(spawned.map(strip));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a script past its time is killed and reported', async () => {
    const dir = scratch();
    fs.writeFileSync(path.join(dir, 'sleeps.py'), 'import time\ntime.sleep(30)\n');
    const python = resolvePython('python3');
    if ('error' in python) throw new Error(python.error);
    const runner = forkingRunner(python.executable);
    try {
      const r = await runner.run({ script: 'sleeps.py', cwd: dir, env: process.env, timeoutMs: 500 });
      expect([r.status, r.error]).toEqual([null, 'timed out after 0.5 s']);
      // The runner goes on with the next script.
      expect((await runner.run({ script: 'exits.py', cwd: dir, env: process.env })).status).toBe(3);
    } finally {
      runner.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
}
