import { OpDefinition } from '../ir/definition';
import { OpSyntaxTable } from '../syntax/op-syntax';
import { isa, knownOps } from '../spec/isa';
import { syncOps } from '../spec/sync';
import { ARITH_DEFINITIONS } from './arith';
import { BUILTIN_DEFINITIONS } from './builtin';
import { instructionDefinition } from './instructions/definition';
import { MEMREF_DEFINITIONS } from './memref';
import { POINTER_DEFINITIONS } from './pointers';
import { RUNTIME_DEFINITIONS } from './runtime';
import { SCF_DEFINITIONS } from './scf';
import { syncDefinition } from './sync-definition';
import { TILE_DEFINITIONS } from './tiles';
import { VIEW_DEFINITIONS } from './views';

/**
 * Every op the toolchain knows, each defined once: the structural ops (one file per dialect group) and the
 * instructions and sync ops of the tables in spec/. Lookups go through here; nothing else lists op names.
 */
export interface Registry extends OpSyntaxTable {
  /** All definitions, structural ops first, then the table instructions and sync ops. */
  readonly definitions: readonly OpDefinition[];
  /** The definition of a name or one of its other spellings; `deprecated` when the spelling is an old one. */
  lookup(name: string): { def: OpDefinition; deprecated: boolean } | undefined;
  /**
   * For a name with no definition: why it is not run. An op of the dialects the toolchain speaks (known from the
   * manual or the dialect, or any arith/scf op) is "not implemented yet"; anything else is unknown.
   */
  unknownOpMessage(name: string): string;
}

let registry: Registry | undefined;

export function opRegistry(): Registry {
  registry ??= buildRegistry([
    ...BUILTIN_DEFINITIONS,
    ...SCF_DEFINITIONS,
    ...ARITH_DEFINITIONS,
    ...VIEW_DEFINITIONS,
    ...TILE_DEFINITIONS,
    ...POINTER_DEFINITIONS,
    ...MEMREF_DEFINITIONS,
    ...RUNTIME_DEFINITIONS,
    ...[...isa().instructions.values()].map(instructionDefinition),
    ...[...syncOps().values()].map(syncDefinition),
  ]);
  return registry;
}

/** Dialects whose every op is one the toolchain may come to run: an op of these without a definition is not implemented (yet). */
const SPOKEN_DIALECTS = ['arith.', 'scf.'];

export function buildRegistry(definitions: OpDefinition[]): Registry {
  const byName = new Map<string, { def: OpDefinition; deprecated: boolean }>();
  const add = (name: string, def: OpDefinition, deprecated: boolean) => {
    const other = byName.get(name);
    if (other) throw new Error(`op registry: '${name}' is defined by '${other.def.name}' and by '${def.name}'`);
    byName.set(name, { def, deprecated });
  };
  for (const def of definitions) {
    add(def.name, def, false);
    for (const s of def.spellings ?? []) add(s.name, def, s.deprecated === true);
  }
  const known = knownOps().names;
  return {
    definitions,
    lookup: (name) => byName.get(name),
    syntaxOf(name) {
      const entry = byName.get(name);
      if (!entry) return undefined;
      const { def, deprecated } = entry;
      return { name: def.name, syntax: def.syntax, deprecated, hasRegions: def.hasRegions === true };
    },
    unknownOpMessage: (name) =>
      known.has(name) || SPOKEN_DIALECTS.some((d) => name.startsWith(d)) ? `${name} is not implemented yet` : `unknown op '${name}'`,
  };
}
