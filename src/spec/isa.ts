import * as fs from 'fs';
import * as path from 'path';
import { ElemType, TileLoc } from '../types/type';
import { DtypeSetsFile, InstructionFile, KnownOpsFile, InstructionSpecRaw, OperandSpec, TargetName, TargetsFile } from './schema';

/** An instruction of spec/instructions/*.json, with dtype set names resolved. */
export interface Instruction extends Omit<InstructionSpecRaw, 'dtypes'> {
  /** `dialect.name`, as programs spell the op. */
  opName: string;
  /** Per target: operand name -> allowed element types; undefined target = not available there. */
  dtypes: Partial<Record<TargetName, Record<string, ElemType[]>>>;
  /** Operands in the Level 2 `ins(...)` list, in order. */
  ins: OperandSpec[];
  /** The operands' names in PTOAS's declaration order (the generic form's), defaults applied. */
  mlirOperands: string[];
  /** Operands in the Level 2 `outs(...)` list, in order. */
  outs: OperandSpec[];
}

export interface Isa {
  /** By op name (`pto.tcolmin`). */
  instructions: Map<string, Instruction>;
  buffers: Record<TargetName, Record<string, number>>;
  /** The largest tile type a buffer takes, by buffer: the hardware's capacity unless PTOAS assumes more (targets.json). */
  typeLimits: Record<TargetName, Record<string, number>>;
  locationBuffer: Record<TileLoc, string>;
  alignment: number;
}

const specDir = path.join(__dirname, '..', '..', 'spec');
let loaded: Isa | undefined;

/** Loads and validates the ISA tables once per process. A malformed table is a bug: it throws. */
export function isa(): Isa {
  if (!loaded) loaded = loadIsa(specDir);
  return loaded;
}

export function loadIsa(dir: string): Isa {
  const read = (file: string): unknown => JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'));
  const { dtypeSets } = DtypeSetsFile.parse(read('dtype-sets.json'));
  const targets = TargetsFile.parse(read('targets.json'));
  const instructions = new Map<string, Instruction>();
  for (const raw of instructionFiles(dir).flatMap((f) => InstructionFile.parse(read(f)).instructions)) {
    const opName = `${raw.dialect}.${raw.name}`;
    if (instructions.has(opName)) throw new Error(`spec: instruction '${opName}' is described twice`);
    const dtypes: Instruction['dtypes'] = {};
    for (const [target, table] of Object.entries(raw.dtypes) as [TargetName, Record<string, string | string[]>][]) {
      const resolved: Record<string, ElemType[]> = {};
      for (const [operand, set] of Object.entries(table)) {
        if (!raw.operands.some((o) => o.name === operand)) throw new Error(`spec: ${raw.name}: dtypes name unknown operand '${operand}'`);
        const list = typeof set === 'string' ? dtypeSets[set] : set;
        if (!list) throw new Error(`spec: ${raw.name}: unknown dtype set '${set}'`);
        resolved[operand] = list as ElemType[];
      }
      dtypes[target] = resolved;
    }
    for (const key of Object.keys({ ...raw.tileLocs, ...raw.layouts })) {
      if (!raw.operands.some((o) => o.name === key)) throw new Error(`spec: ${raw.name}: tileLocs/layouts name unknown operand '${key}'`);
    }
    const ins = raw.operands.filter((o) => o.role !== 'dst');
    const outs = raw.operands.filter((o) => o.role === 'dst');
    const mlirOperands = raw.mlirOperands ?? [...ins.filter((o) => !o.optional), ...outs, ...ins.filter((o) => o.optional)].map((o) => o.name);
    if ([...mlirOperands].sort().join() !== raw.operands.map((o) => o.name).sort().join()) {
      throw new Error(`spec: ${raw.name}: mlirOperands must name each operand once`);
    }
    instructions.set(opName, { ...raw, opName, dtypes, ins, outs, mlirOperands });
  }
  return {
    instructions,
    buffers: { a2a3: targets.targets.a2a3.buffers, a5: targets.targets.a5.buffers },
    typeLimits: {
      a2a3: { ...targets.targets.a2a3.buffers, ...targets.targets.a2a3.typeLimits },
      a5: { ...targets.targets.a5.buffers, ...targets.targets.a5.typeLimits },
    },
    locationBuffer: targets.locations as Record<TileLoc, string>,
    alignment: targets.alignment,
  };
}

export type KnownOps = ReturnType<typeof KnownOpsFile.parse> & { names: Set<string>; microOps: Set<string> };
let known: KnownOps | undefined;

/** Every PTO op name of the dialect and the manual (spec/known-ops.json), with the gaps of the tables. */
export function knownOps(): KnownOps {
  if (!known) {
    const file = KnownOpsFile.parse(JSON.parse(fs.readFileSync(path.join(specDir, 'known-ops.json'), 'utf8')));
    known = { ...file, names: new Set(file.ops), microOps: new Set(file.vpto) };
  }
  return known;
}

/** The instruction tables, in a fixed order: spec/instructions/*.json by file name. */
export function instructionFiles(dir: string): string[] {
  return fs
    .readdirSync(path.join(dir, 'instructions'))
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => path.join('instructions', f));
}
