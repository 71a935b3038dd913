import * as fs from 'fs';
import * as path from 'path';
import { SPEC_DIR } from './tables';
import type { A2a3FormulaData, A2a3InstructionsData, A5FormulaData, ArchData } from './costmodel-schema';

/** spec/costmodel/'s tables, validated by zod once per process (only runs that estimate time load them). */
export interface CostModelTables {
  a2a3: A2a3FormulaData;
  a2a3Instructions: A2a3InstructionsData;
  a5: A5FormulaData;
  arch: ArchData;
}

let loaded: CostModelTables | undefined;

export function costModelTables(dir = path.join(SPEC_DIR, 'costmodel')): CostModelTables {
  if (loaded && dir === path.join(SPEC_DIR, 'costmodel')) return loaded;
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- zod only when a run asks for timing
  const schema: typeof import('./costmodel-schema') = require('./costmodel-schema');
  const read = (f: string): unknown => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'));
  const tables = {
    a2a3: schema.A2a3FormulaFile.parse(read('a2a3-formula.json')),
    a2a3Instructions: schema.A2a3InstructionsFile.parse(read('a2a3-instructions.json')),
    a5: schema.A5FormulaFile.parse(read('a5-formula.json')),
    arch: schema.ArchFile.parse(read('arch.json')),
  };
  if (dir === path.join(SPEC_DIR, 'costmodel')) loaded = tables;
  return tables;
}
