// Joins the compiled modules of the command-line tools into one file, dist/bundle/cli.js, and saves each tool's code
// cache for it: see src/cli/launch.ts, which runs them. tsc and the other asset scripts have built dist/ already.
//
// esbuild joins the modules (a development dependency: the bundle is built by `npm run build`, which `prepare` runs
// on install). The bundle runs with its own __dirname, so each module's __dirname is rewritten to the directory it
// had. zod stays out: only a run without the build's validated spec tables loads it (src/spec/tables.ts).
//
// `node scripts/bundle.js --record TOOL ARGS...` is the warm-up this script runs for each tool, in a child process.
const { spawnSync } = require('child_process');
const { Buffer } = require('buffer');
const crypto = require('crypto');
const fs = require('fs');
const path = require('path');

const root = path.join(__dirname, '..');
const dist = path.join(root, 'dist');

/** What each tool's code cache is recorded on: the README's first command, and pto-as verifying the same program. */
const WARM_UPS = [
  ['pto-as', 'programs/tcolmin.pto'],
  ['pto-vm', 'run', 'programs/tcolmin.pto', '--target', 'a5'],
];

if (process.argv[2] === '--record') {
  const tool = process.argv[3];
  process.argv.splice(2, 2);
  process.exitCode = require('../dist/cli/launch.js').recordCodeCache(tool);
} else {
  build().catch((e) => {
    console.error(e);
    process.exitCode = 1;
  });
}

async function build() {
  const { BUNDLE_DIR, BUNDLE_FILE, MANIFEST_FILE } = require('../dist/cli/launch.js');
  fs.rmSync(BUNDLE_DIR, { recursive: true, force: true });
  let esbuild;
  try {
    esbuild = require('esbuild');
  } catch (e) {
    // An install without development dependencies or without esbuild's binary for this machine: the tools work.
    console.warn(`scripts/bundle.js: no bundle (${e.message.split('\n')[0]}): the tools will start from the compiled modules, more slowly`);
    return;
  }
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: [path.join(dist, 'cli', 'entry.js')],
    outfile: BUNDLE_FILE,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    // Without comments and indentation the text is 30% shorter; names stay, for stack traces (PTO_DEBUG=1).
    minifyWhitespace: true,
    charset: 'ascii',
    external: ['zod'],
    plugins: [ownDirnames(path.dirname(BUNDLE_FILE))],
    // The rewritten __dirname of a package resolves the package at run time, where npm has put it.
    logOverride: { 'require-resolve-not-external': 'silent' },
    metafile: true,
    write: false,
    logLevel: 'warning',
  });
  const text = result.outputFiles[0].text;
  if (Buffer.byteLength(text) !== text.length) throw new Error('the bundle is not ASCII: src/cli/launch.ts reads it as latin1');
  fs.mkdirSync(BUNDLE_DIR, { recursive: true });
  fs.writeFileSync(BUNDLE_FILE, text);
  const inputs = Object.keys(result.metafile.inputs)
    .filter((input) => input.startsWith('dist/'))
    .map((input) => path.relative(dist, path.join(root, input)));
  const id = crypto.createHash('sha256').update(text).digest('hex').slice(0, 16);
  fs.writeFileSync(MANIFEST_FILE, JSON.stringify({ id, inputs }));
  // A warm-up that fails still leaves a cache, of what it ran; the failure is the tests' to report, not the build's.
  for (const [tool, ...args] of WARM_UPS) {
    const warmUp = spawnSync(process.execPath, [__filename, '--record', tool, ...args], { cwd: root, encoding: 'utf8' });
    if (warmUp.status !== 0) console.warn(`scripts/bundle.js: warm-up \`${tool} ${args.join(' ')}\` failed (exit ${warmUp.status}):\n${warmUp.stderr}`);
  }
}

/** An esbuild plugin: in each module, __dirname means the directory the module was in. */
function ownDirnames(bundleDir) {
  return {
    name: 'own-dirnames',
    setup(build) {
      build.onLoad({ filter: /\.c?js$/ }, (args) => {
        const text = fs.readFileSync(args.path, 'utf8');
        if (!text.includes('__dirname')) return undefined;
        return { contents: text.replace(/\b__dirname\b/g, dirnameExpression(path.dirname(args.path), bundleDir)), loader: 'js' };
      });
    },
  };
}

/** The directory, as seen from the bundle's: relative to it for our modules, found by require for a package's. */
function dirnameExpression(dir, bundleDir) {
  const parts = path.relative(root, dir).split(path.sep);
  const packageAt = parts.lastIndexOf('node_modules') + 1;
  if (packageAt === 0) return `require("path").join(__dirname, ${JSON.stringify(path.relative(bundleDir, dir))})`;
  const nameLength = parts[packageAt].startsWith('@') ? 2 : 1;
  const name = parts.slice(packageAt, packageAt + nameLength).join('/');
  const within = parts.slice(packageAt + nameLength).join('/');
  require.resolve(`${name}/package.json`, { paths: [bundleDir] }); // throws now rather than in a run
  return `require("path").join(require("path").dirname(require.resolve(${JSON.stringify(`${name}/package.json`)})), ${JSON.stringify(within)})`;
}
