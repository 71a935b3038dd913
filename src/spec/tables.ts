import { createHash } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import type { IsaTables, KnownOpsTable } from './validate-tables';
import type { SyncFileData } from './sync-schema';
import type { MicroOpRowData } from './micro-schema';

/** The tables of spec/, each as its zod schema (schema.ts, sync-schema.ts) validates it. */
export interface SpecTables {
  isa: IsaTables;
  knownOps: KnownOpsTable;
  sync: SyncFileData;
  /** PTOAS's micro-op level (spec/micro/*.json), every row in file order. */
  micro: MicroOpRowData[];
}

/** The tables as the build validated them, with what identifies the spec/ files they came from (scripts/spec-tables.js). */
export interface SavedSpecTables {
  hash: string;
  stamps: SpecStamps;
  tables: SpecTables;
}

/** Each table's size and modification time, by file: unchanged stamps spare hashing every table at each start. */
export type SpecStamps = Record<string, [size: number, mtimeMs: number]>;

export const SPEC_DIR = path.join(__dirname, '..', '..', 'spec');

/** Where the build saves the validated tables: beside the compiled tables.js (under src/ there is none). */
export const SAVED_TABLES_FILE = path.join(__dirname, 'tables.json');

let loaded: SpecTables | undefined;

/**
 * spec/'s tables, validated once per process. A run of the tools takes the build's validated copy, which spares
 * it loading zod and validating every table (a quarter of the tools' start-up); without a copy, or when spec/ has
 * changed since the build, the tables are validated here. A malformed table is a bug: it throws.
 */
export function specTables(): SpecTables {
  if (!loaded) loaded = savedTables(SAVED_TABLES_FILE, SPEC_DIR) ?? zodValidation().validateSpec(SPEC_DIR);
  return loaded;
}

/**
 * The validated copy in this file, if there is one and it came from the tables now in specDir: the same files with
 * the same sizes and times, or else (copied, checked out again) the same contents.
 */
export function savedTables(file: string, specDir: string): SpecTables | undefined {
  let saved: SavedSpecTables;
  try {
    saved = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
  const same = JSON.stringify(specStamps(specDir)) === JSON.stringify(saved.stamps) || saved.hash === specHash(specDir);
  return same ? saved.tables : undefined;
}

export function specStamps(dir: string): SpecStamps {
  return Object.fromEntries(
    specFiles(dir).map((file) => {
      const stat = fs.statSync(path.join(dir, file));
      return [file, [stat.size, stat.mtimeMs]];
    }),
  );
}

/** The validation with zod, loaded only when it runs. */
export function zodValidation(): typeof import('./validate-tables') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a static import would load zod on every run
  return require('./validate-tables');
}

/** A hash of the contents of every table in spec/ (a build's validated copy is only good for these). */
export function specHash(dir: string): string {
  const hash = createHash('sha256');
  for (const file of specFiles(dir)) hash.update(`${file}\n`).update(fs.readFileSync(path.join(dir, file)));
  return hash.digest('hex');
}

/** The tables of spec/, relative to it, in a fixed order. */
export function specFiles(dir: string): string[] {
  return ['dtype-sets.json', 'targets.json', 'known-ops.json', 'sync.json', ...instructionFiles(dir), ...microFiles(dir)];
}

/** The micro-op tables, spec/micro/*.json by file name. */
export function microFiles(dir: string): string[] {
  return fs
    .readdirSync(path.join(dir, 'micro'))
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => path.join('micro', f));
}

/** The instruction tables, in a fixed order: spec/instructions/*.json by file name. */
export function instructionFiles(dir: string): string[] {
  return fs
    .readdirSync(path.join(dir, 'instructions'))
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => path.join('instructions', f));
}
