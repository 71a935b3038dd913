/**
 * The programs the fuzzer mutates: programs/*.pto, the test corpora (test/fixtures/**\/*.pto), and the .pto files
 * under $PTO_UPSTREAM_DIR and $PTO_CORPUS_DIR when set.
 */
import * as fs from 'fs';
import * as path from 'path';

export interface Seed {
  /** Where it came from (relative to its root, with the root's label). */
  name: string;
  text: string;
}

function walk(dir: string, out: string[]): void {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const e of entries) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (e.name !== 'node_modules' && !e.name.startsWith('.')) walk(p, out);
    } else if (e.isFile() && e.name.endsWith('.pto')) out.push(p);
  }
}

/** The .pto files under `dir`, sorted (so that a seed picks the same files on every machine), up to maxBytes each. */
export function loadSeeds(dir: string, label: string, maxBytes: number): Seed[] {
  const files: string[] = [];
  walk(dir, files);
  const seeds: Seed[] = [];
  for (const f of files) {
    const size = fs.statSync(f).size;
    if (size === 0 || size > maxBytes) continue;
    seeds.push({ name: `${label}/${path.relative(dir, f)}`, text: fs.readFileSync(f, 'utf8') });
  }
  return seeds;
}

/** The default corpus of the repository at `root`, plus the environment's corpus directories. */
export function defaultCorpus(root: string, maxBytes = 64 * 1024, env: NodeJS.ProcessEnv = process.env): Seed[] {
  const seeds = [...loadSeeds(path.join(root, 'programs'), 'programs', maxBytes), ...loadSeeds(path.join(root, 'test', 'fixtures'), 'test/fixtures', maxBytes)];
  for (const key of ['PTO_UPSTREAM_DIR', 'PTO_CORPUS_DIR']) {
    const dir = env[key];
    if (dir) seeds.push(...loadSeeds(dir, `$${key}`, maxBytes));
  }
  return seeds;
}
