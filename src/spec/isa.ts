import { ElemType, TileLoc } from '../types/type';
import type { InstructionSpecRaw, OperandSpec, TargetName } from './schema';
import { specTables, zodValidation } from './tables';
import type { IsaTables, KnownOpsTable } from './validate-tables';

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
  /** What PTOAS's memory planning assumes of each buffer (targets.json): its capacity per target, its alignment. */
  planning: { capacity: Record<TargetName, Record<string, number>>; alignment: Record<string, number> };
}

let loaded: Isa | undefined;

/** The ISA tables of spec/, checked once per process. A malformed table is a bug: it throws. */
export function isa(): Isa {
  if (!loaded) loaded = resolveIsa(specTables().isa);
  return loaded;
}

/** Validates and checks the ISA tables of another spec directory. */
export function loadIsa(dir: string): Isa {
  return resolveIsa(zodValidation().validateIsaTables(dir));
}

/** Checks the cross-references of the tables (their shape zod has validated) and resolves the dtype set names. */
function resolveIsa({ dtypeSets, targets, instructions: raws }: IsaTables): Isa {
  const instructions = new Map<string, Instruction>();
  for (const raw of raws) {
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
    planning: { capacity: { a2a3: targets.targets.a2a3.planned, a5: targets.targets.a5.planned }, alignment: targets.planAlignment },
  };
}

export type KnownOps = KnownOpsTable & { names: Set<string>; microOps: Set<string> };
let known: KnownOps | undefined;

/** Every PTO op name of the dialect and the manual (spec/known-ops.json), with the gaps of the tables. */
export function knownOps(): KnownOps {
  if (!known) {
    const table = specTables().knownOps;
    known = { ...table, names: new Set(table.ops), microOps: new Set(table.vpto) };
  }
  return known;
}
