import * as fs from 'fs';
import * as path from 'path';
import { z } from 'zod';
import { DtypeSetsFile, InstructionFile, InstructionSpecRaw, KnownOpsFile, TargetsFile } from './schema';
import { SyncFile } from './sync-schema';
import { instructionFiles, microFiles, SpecTables } from './tables';
import { MicroFile } from './micro-schema';

/** Validation of spec/'s tables with their zod schemas: by the build, and by a run that has no validated copy. */

/** What isa.ts builds the instruction set from. */
export interface IsaTables {
  dtypeSets: Record<string, string[]>;
  targets: z.infer<typeof TargetsFile>;
  /** Every instruction, in file order. */
  instructions: InstructionSpecRaw[];
}

export type KnownOpsTable = z.infer<typeof KnownOpsFile>;

const read = (dir: string, file: string): unknown => JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'));

export function validateSpec(dir: string): SpecTables {
  return { isa: validateIsaTables(dir), knownOps: KnownOpsFile.parse(read(dir, 'known-ops.json')), sync: SyncFile.parse(read(dir, 'sync.json')),
    micro: microFiles(dir).flatMap((f) => MicroFile.parse(read(dir, f)).ops),
  };
}

/** spec/dtype-sets.json, spec/targets.json and spec/instructions/*.json. */
export function validateIsaTables(dir: string): IsaTables {
  return {
    dtypeSets: DtypeSetsFile.parse(read(dir, 'dtype-sets.json')).dtypeSets,
    targets: TargetsFile.parse(read(dir, 'targets.json')),
    instructions: instructionFiles(dir).flatMap((f) => InstructionFile.parse(read(dir, f)).instructions),
  };
}
