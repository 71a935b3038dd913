import * as fs from 'fs';
import * as path from 'path';
import { SPEC_DIR } from './tables';
import type { A2a3FormulaData, A2a3InstructionsData, A5FormulaData, A5VfBodiesData, A5VfSimData, ArchData } from './costmodel-schema';

/** spec/costmodel/'s tables, validated by zod once per process (only runs that estimate time load them). */
export interface CostModelTables {
  a2a3: A2a3FormulaData;
  a2a3Instructions: A2a3InstructionsData;
  a5: A5FormulaData;
  /** VfSim's tables: the A5 vector micro-ops (src/timing/vf-sim.ts). */
  a5VfSim: A5VfSimData;
  /** The vector-function bodies of the A5 ops without a curve (src/timing/a5-vf-bodies.ts). */
  a5VfBodies: A5VfBodiesData;
  arch: ArchData;
}

let loaded: CostModelTables | undefined;

const DEFAULT_DIR = path.join(SPEC_DIR, 'costmodel');
const FILES = ['a2a3-formula.json', 'a2a3-instructions.json', 'a5-formula.json', 'a5-vfsim.json', 'a5-vf-bodies.json', 'arch.json'];

/** Where the build saves the validated tables (scripts/spec-tables.js), beside the compiled costmodel.js. */
export const SAVED_COSTMODEL_FILE = path.join(__dirname, 'costmodel-tables.json');

/**
 * The tables, validated once per process. A run takes the build's validated copy when the files are the ones it
 * came from (the same sizes and times), which spares it loading zod and validating (a third of a second, most of
 * what --profile added to a run); otherwise they are validated here.
 */
export function costModelTables(dir = DEFAULT_DIR): CostModelTables {
  if (loaded && dir === DEFAULT_DIR) return loaded;
  const tables = (dir === DEFAULT_DIR ? savedCostModel(SAVED_COSTMODEL_FILE, dir) : undefined) ?? validateCostModel(dir);
  if (dir === DEFAULT_DIR) loaded = tables;
  return tables;
}

/** The tables as their zod schemas validate them. */
export function validateCostModel(dir = DEFAULT_DIR): CostModelTables {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- zod only when a run asks for timing
  const schema: typeof import('./costmodel-schema') = require('./costmodel-schema');
  const read = (f: string): unknown => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'));
  return {
    a2a3: schema.A2a3FormulaFile.parse(read('a2a3-formula.json')),
    a2a3Instructions: schema.A2a3InstructionsFile.parse(read('a2a3-instructions.json')),
    a5: schema.A5FormulaFile.parse(read('a5-formula.json')),
    a5VfSim: schema.A5VfSimFile.parse(read('a5-vfsim.json')),
    a5VfBodies: schema.A5VfBodiesFile.parse(read('a5-vf-bodies.json')),
    arch: schema.ArchFile.parse(read('arch.json')),
  };
}

/** Each table's size and modification time: what identifies the files a saved copy came from. */
export function costModelStamps(dir = DEFAULT_DIR): [string, number, number][] {
  return FILES.map((f) => {
    const stat = fs.statSync(path.join(dir, f));
    return [f, stat.size, stat.mtimeMs];
  });
}

/** The validated copy in `file`, if it came from the tables now in `dir`. */
export function savedCostModel(file: string, dir: string): CostModelTables | undefined {
  try {
    const saved = JSON.parse(fs.readFileSync(file, 'utf8')) as { stamps: unknown; tables: CostModelTables };
    return JSON.stringify(saved.stamps) === JSON.stringify(costModelStamps(dir)) ? saved.tables : undefined;
  } catch {
    return undefined;
  }
}
