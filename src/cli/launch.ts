import * as fs from 'fs';
import * as path from 'path';
import * as vm from 'vm';
import Module from 'module';
import { setFlagsFromString } from 'v8';

/**
 * Start-up of bin/pto-as and bin/pto-vm. Loading ~180 compiled modules one by one, each resolved on disk and
 * compiled by V8, took most of a run on a small program; so the build joins them into one file (the bundle,
 * scripts/bundle.js) and saves, per tool, the code V8 compiled while running it (a code cache), from which V8
 * deserializes its functions instead of compiling them. Without a usable bundle the tools load the compiled modules
 * as before: the bundle is an acceleration only.
 */

export type Tool = 'pto-as' | 'pto-vm';

/**
 * V8 settings per tool, set before the tool's code is compiled (V8 keeps a code cache only for the flags it was made
 * with: recording and reading one set them alike).
 *
 * pto-as inlines only small functions (under 50 bytes of bytecode; V8's default is 460). An assembler run is short
 * and runs much code a few thousand times: TurboFan compiled large inlined bodies early, which new object shapes
 * then sent back to the interpreter, again and again in the first hundred milliseconds. Measured on the bench's
 * assembler children (medians of three, alternating): the 10 MB module's first run 0.93 -> 0.81 s, the pypto
 * kernels 0.67 -> 0.57 s; a warm run is unchanged (0.52 s). pto-vm keeps V8's defaults: a kernel runs long enough
 * for inlining to pay.
 */
export const TOOL_V8_FLAGS: Readonly<Record<Tool, readonly string[]>> = {
  'pto-as': ['--max-inlined-bytecode-size=50'],
  'pto-vm': [],
};

/** Sets the tool's V8 flags (again is harmless). */
export function tuneEngineFor(tool: Tool): void {
  for (const flag of TOOL_V8_FLAGS[tool]) setFlagsFromString(flag);
}

/** What the build writes beside the bundle: which compiled modules it joined, and its identity. */
export interface BundleManifest {
  /** A hash of the bundle's text: a code cache is only good for the text it was compiled from. */
  id: string;
  /** The compiled modules it joined, relative to dist/. */
  inputs: string[];
}

const DIST = path.join(__dirname, '..');
export const BUNDLE_DIR = path.join(DIST, 'bundle');
export const BUNDLE_FILE = path.join(BUNDLE_DIR, 'cli.js');
export const MANIFEST_FILE = path.join(BUNDLE_DIR, 'cli.json');

interface Entry {
  start(tool: Tool): void;
}

/** Runs the tool on process.argv, from the bundle when it is up to date. */
export function launch(tool: Tool): void {
  let bundled: Entry | undefined;
  try {
    // It sets the tool's V8 flags first, for the bundle and for the modules alike.
    bundled = loadBundle(tool)?.entry;
  } catch {
    // A damaged bundle (a build cut short): the modules it was built from still run.
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the modules the bundle was built from
  const entry: Entry = bundled ?? require('./entry');
  entry.start(tool);
}

/**
 * The bundle's entry module, with whether V8 compiled it from the tool's code cache; undefined when there is no
 * bundle or it is out of date.
 */
export function loadBundle(tool: Tool): { entry: Entry; fromCodeCache: boolean } | undefined {
  tuneEngineFor(tool);
  const bundle = currentBundle();
  if (!bundle) return undefined;
  const cachedData = readCodeCache(tool, bundle.manifest.id);
  const { entry, script } = run(bundle, cachedData);
  return { entry, fromCodeCache: cachedData !== undefined && !script.cachedDataRejected };
}

/**
 * The build's warm-up: runs the tool on process.argv from the bundle compiled afresh, then saves the code V8
 * compiled for the run as the tool's code cache. Returns the tool's exit code.
 */
export function recordCodeCache(tool: Tool): number {
  tuneEngineFor(tool);
  const bundle = currentBundle();
  if (!bundle) throw new Error(`${BUNDLE_FILE} is missing or older than the modules it joins`);
  const { entry, script } = run(bundle, undefined);
  entry.start(tool);
  fs.writeFileSync(codeCacheFile(tool, bundle.manifest.id), script.createCachedData());
  return Number(process.exitCode ?? 0);
}

export function codeCacheFile(tool: Tool, id: string): string {
  return path.join(BUNDLE_DIR, `${tool}.${id}.cache`);
}

interface Bundle {
  manifest: BundleManifest;
  text: string;
}

/**
 * The bundle, unless there is none or a module it joined has been compiled since (tsc alone, without the rest of
 * the build): then it would run outdated code.
 */
function currentBundle(): Bundle | undefined {
  let manifest: BundleManifest;
  let built: number;
  try {
    manifest = JSON.parse(fs.readFileSync(MANIFEST_FILE, 'utf8'));
    built = fs.statSync(BUNDLE_FILE).mtimeMs;
  } catch {
    return undefined;
  }
  // ~170 files: joined by hand, as path.join's normalizing cost more than the stat.
  for (const input of manifest.inputs) {
    const compiled = fs.statSync(DIST + path.sep + input, { throwIfNoEntry: false });
    if (!compiled || compiled.mtimeMs > built) return undefined;
  }
  // The build checks that the bundle is ASCII: latin1 reads it as it is, without decoding UTF-8.
  return { manifest, text: fs.readFileSync(BUNDLE_FILE, 'latin1') };
}

function readCodeCache(tool: Tool, id: string): Buffer | undefined {
  try {
    return fs.readFileSync(codeCacheFile(tool, id));
  } catch {
    return undefined;
  }
}

/**
 * Runs the bundle's text as Node runs a CommonJS module (the same wrapper and arguments), compiled from the code
 * cache if V8 accepts it (it rejects one made by another V8 version or with other flags, and compiles the text).
 */
function run(bundle: Bundle, cachedData: Buffer | undefined): { entry: Entry; script: vm.Script } {
  const script = new vm.Script(Module.wrap(bundle.text), { filename: BUNDLE_FILE, cachedData });
  const module = { exports: {} as Entry };
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
  wrapper.call(module.exports, module.exports, Module.createRequire(BUNDLE_FILE), module, BUNDLE_FILE, BUNDLE_DIR);
  return { entry: module.exports, script };
}
