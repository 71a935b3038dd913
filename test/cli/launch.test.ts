/**
 * How bin/pto-as and bin/pto-vm start (src/cli/launch.ts): from the bundle the build joins the compiled modules into,
 * compiled from each tool's code cache, and from the compiled modules themselves when the bundle is missing or older
 * than they are. Each case runs in a child process, as the tools do (dist/ must be built: `npm test` builds it).
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { TOOL_V8_FLAGS } from '../../src/cli/launch';

const ROOT = path.join(__dirname, '..', '..');

interface Started {
  /** The compiled modules under dist/ the run loaded one by one (the bundle loads none but launch.js). */
  modules: string[];
  fromCodeCache?: boolean;
  stdout: string;
}

/** Starts a tool through launch.js in `dist`, and reports how it was loaded. */
function start(dist: string, tool: string, ...args: string[]): Started {
  const script = `
    const launch = require(${JSON.stringify(path.join(dist, 'cli', 'launch.js'))});
    // Loads the bundle as launch() does, to see whether V8 took the code cache; launch() then loads it again.
    let loaded;
    try {
      loaded = launch.loadBundle(${JSON.stringify(tool)});
    } catch {}
    process.argv.splice(1, 0, 'bin');
    launch.launch(${JSON.stringify(tool)});
    const modules = Object.keys(require.cache).filter((f) => f.startsWith(${JSON.stringify(dist + path.sep)}));
    process.on('exit', () => process.stderr.write(JSON.stringify({ modules: modules.map((f) => f.slice(${dist.length + 1})), fromCodeCache: loaded?.fromCodeCache })));`;
  const run = spawnSync(process.execPath, ['-e', script, ...args], { cwd: ROOT, encoding: 'utf8' });
  expect(run.status).toBe(0);
  return { ...JSON.parse(run.stderr), stdout: run.stdout };
}

describe('the built tools', () => {
  const dist = path.join(ROOT, 'dist');

  test.each([
    ['pto-as', ['programs/tcolmin.pto', '--emit', 'canonical']],
    ['pto-vm', ['run', 'programs/tcolmin.pto', '--target', 'a5']],
  ])('%s runs from the bundle, compiled from its code cache', (tool, args) => {
    const run = start(dist, tool, ...args);
    expect(run.modules).toEqual([path.join('cli', 'launch.js')]);
    expect(run.fromCodeCache).toBe(true);
    expect(run.stdout).toContain('tcolmin_16x16');
  });
});

describe("the tools' V8 flags", () => {
  // V8 ignores a flag it does not know when it is set at run time: each must be one it takes on the command line.
  test.each(Object.entries(TOOL_V8_FLAGS).flatMap(([tool, flags]) => flags.map((flag) => [tool, flag])))('%s: %s is a flag V8 knows', (_tool, flag) => {
    const run = spawnSync(process.execPath, [flag, '-e', '0'], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });
  test('a misspelt flag would fail that check', () => {
    expect(spawnSync(process.execPath, ['--max-inlined-bytecode-sise=50', '-e', '0'], { encoding: 'utf8' }).status).not.toBe(0);
  });
});

describe('the bundle, in a copy of dist/', () => {
  // A copy of dist/ (timestamps kept), beside the package's node_modules and spec/.
  let root: string;
  let dist: string;
  beforeAll(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'pto-launch-'));
    dist = path.join(root, 'dist');
    fs.cpSync(path.join(ROOT, 'dist'), dist, { recursive: true, preserveTimestamps: true });
    for (const dir of ['node_modules', 'spec']) fs.symlinkSync(path.join(ROOT, dir), path.join(root, dir));
    fs.copyFileSync(path.join(ROOT, 'package.json'), path.join(root, 'package.json'));
  });
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  test('is used while it is up to date', () => {
    expect(start(dist, 'pto-as', 'programs/tcolmin.pto').modules).toEqual([path.join('cli', 'launch.js')]);
  });

  test('is not used when damaged: the modules run', () => {
    const bundle = path.join(dist, 'bundle', 'cli.js');
    const text = fs.readFileSync(bundle, 'latin1');
    const stamp = fs.statSync(bundle);
    try {
      fs.writeFileSync(bundle, text.slice(0, text.length / 2));
      fs.utimesSync(bundle, stamp.atime, stamp.mtime);
      const run = start(dist, 'pto-as', 'programs/tcolmin.pto', '--emit', 'canonical');
      expect(run.modules).toEqual(expect.arrayContaining([path.join('cli', 'entry.js'), path.join('syntax', 'parse.js')]));
      expect(run.stdout).toContain('tcolmin_16x16');
    } finally {
      fs.writeFileSync(bundle, text, 'latin1');
      fs.utimesSync(bundle, stamp.atime, stamp.mtime);
    }
  });

  test('is not used once a module has been compiled again (tsc without the rest of the build): the modules run', () => {
    const later = new Date(fs.statSync(path.join(dist, 'bundle', 'cli.js')).mtimeMs + 1000);
    fs.utimesSync(path.join(dist, 'syntax', 'parse.js'), later, later);
    const run = start(dist, 'pto-as', 'programs/tcolmin.pto', '--emit', 'canonical');
    expect(run.modules).toEqual(expect.arrayContaining([path.join('cli', 'entry.js'), path.join('syntax', 'parse.js')]));
    expect(run.fromCodeCache).toBeUndefined();
    expect(run.stdout).toBe(start(path.join(ROOT, 'dist'), 'pto-as', 'programs/tcolmin.pto', '--emit', 'canonical').stdout);
  });
});
