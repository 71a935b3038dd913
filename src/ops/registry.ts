import { DIAGNOSTICS as D } from '../diag/catalog';
import { DiagnosticKind } from '../diag/catalog';
import { OpDefinition } from '../ir/definition';
import { InsKeywordMoves, OpSyntax, OpSyntaxTable, VECTOR_LEVEL_UNSUPPORTED } from '../syntax/op-syntax';
import { distance } from 'fastest-levenshtein';
import { closestName } from '../diag/suggest';
import { isa, knownOps } from '../spec/isa';
import { syncOps } from '../spec/sync';
import { ARITH_DEFINITIONS } from './structure/arith';
import { BUILTIN_DEFINITIONS } from './structure/builtin';
import { instructionDefinition } from './instructions/definition';
import { MEMREF_DEFINITIONS } from './memory/memref';
import { ADDRESS_DEFINITIONS, POINTER_DEFINITIONS } from './memory/pointers';
import { RUNTIME_DEFINITIONS } from './structure/runtime';
import { SCF_DEFINITIONS } from './structure/scf';
import { CF_DEFINITIONS } from './structure/cf';
import { syncDefinition } from './sync/sync-definition';
import { TILE_DEFINITIONS } from './memory/tiles';
import { VIEW_DEFINITIONS } from './memory/views';
import { VALID_SHAPE_DEFINITIONS } from './memory/valid-shape';
import { PIPE_DEFINITIONS } from './pipes/pipes';
import { COMM_DEFINITIONS } from './sync/comm';
import { PREFETCH_DEFINITIONS } from './memory/prefetch';
import { LOCAL_STORAGE_DEFINITIONS } from './memory/local-storage';
import { MULTI_TILE_DEFINITIONS } from './memory/multi-tile';
import { ORDERING_DEFINITIONS } from './sync/ordering';
import { LLVM_DEFINITIONS } from './structure/llvm';
import { microDefinitions } from '../micro/definitions';

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
  // Each group's problems are of one kind of the diagnostics catalog, unless a report names another.
  registry ??= buildRegistry([
    ...reporting(BUILTIN_DEFINITIONS, D.functionOp),
    ...reporting(SCF_DEFINITIONS, D.scfOp),
    ...reporting(CF_DEFINITIONS, D.branchOp),
    ...reporting(ARITH_DEFINITIONS, D.arithOp),
    ...reporting(LLVM_DEFINITIONS, D.llvmOp),
    ...reporting(VIEW_DEFINITIONS, D.viewOp),
    ...reporting(TILE_DEFINITIONS, D.tileOp),
    ...reporting(VALID_SHAPE_DEFINITIONS, D.tileOp),
    ...reporting(MULTI_TILE_DEFINITIONS, D.tileOp),
    ...reporting(LOCAL_STORAGE_DEFINITIONS, D.runtimeOp),
    ...reporting(PIPE_DEFINITIONS, D.pipeOp),
    ...reporting(COMM_DEFINITIONS, D.runtimeOp),
    ...reporting(PREFETCH_DEFINITIONS, D.runtimeOp),
    ...reporting(ORDERING_DEFINITIONS, D.syncOp),
    ...reporting(POINTER_DEFINITIONS, D.pointerOp),
    ...reporting(ADDRESS_DEFINITIONS, D.pointerOp),
    ...reporting(MEMREF_DEFINITIONS, D.memrefOp),
    ...reporting(RUNTIME_DEFINITIONS, D.runtimeOp),
    ...reporting([...isa().instructions.values()].map(instructionDefinition), D.instructionRule),
    ...reporting([...syncOps().values()].map(syncDefinition), D.syncOp),
    ...reporting(microDefinitions(), D.microOperand),
  ]);
  return registry;
}

/** The definitions, reporting their problems as `kind` (the definition objects themselves, so identity holds). */
function reporting(definitions: OpDefinition[], kind: DiagnosticKind): OpDefinition[] {
  for (const def of definitions) def.diagnostic ??= kind;
  return definitions;
}

const microOpMessage = (name: string) => `${name} is a VPTO micro-op ${VECTOR_LEVEL_UNSUPPORTED}`;

/** Dialects whose every op is one the toolchain may come to run: an op of these without a definition is not implemented (yet). */
const SPOKEN_DIALECTS = ['arith.', 'scf.'];

export function buildRegistry(definitions: OpDefinition[]): Registry {
  const byName = new Map<string, { def: OpDefinition; deprecated: boolean; insKeywords?: InsKeywordMoves }>();
  const add = (name: string, def: OpDefinition, deprecated: boolean, insKeywords?: InsKeywordMoves) => {
    const other = byName.get(name);
    if (other) throw new Error(`op registry: '${name}' is defined by '${other.def.name}' and by '${def.name}'`);
    byName.set(name, { def, deprecated, insKeywords });
  };
  const reused = new Map<string, OpDefinition>();
  for (const def of definitions) {
    add(def.name, def, false);
    for (const s of def.spellings ?? []) {
      if (s.reused) reused.set(s.name, def);
      else add(s.name, def, s.deprecated === true, s.insKeywords);
    }
  }
  // Every OpSyntax has all its fields, in one order: the parser reads them for every statement.
  const syntaxOfDefinition = (def: OpDefinition, deprecated: boolean, formerly?: OpSyntax, insKeywords?: InsKeywordMoves): OpSyntax => ({
    name: def.name,
    syntax: def.syntax,
    deprecated,
    hasRegions: def.hasRegions === true,
    formerly,
    fromGeneric: def.fromGeneric ? def.fromGeneric.bind(def) : undefined,
    insKeywords,
  });
  const { names: known, microOps } = knownOps();
  // The scanner and the parser ask for every statement: each name's syntax is made once.
  const syntaxByName = new Map<string, OpSyntax>();
  let candidates: Set<string> | undefined;
  const suggestions = new Map<string, string | null>();
  return {
    definitions,
    lookup: (name) => byName.get(name),
    syntaxOf(name) {
      let syntax = syntaxByName.get(name);
      if (syntax) return syntax;
      const entry = byName.get(name);
      if (!entry) return undefined;
      const { def, deprecated, insKeywords } = entry;
      const former = reused.get(name);
      syntax = syntaxOfDefinition(def, deprecated, former ? syntaxOfDefinition(former, true) : undefined, insKeywords);
      syntaxByName.set(name, syntax);
      return syntax;
    },
    unknownOp: (name) => (name.includes('.') || suggestion(name) !== undefined ? unknownOpMessage(name) : undefined),
    unknownOpMessage,
  };

  function unknownOpMessage(name: string): string {
    if (microOps.has(name)) return microOpMessage(name);
    if (known.has(name)) return `${name} is not implemented yet`;
    // A name close to one the toolchain knows is most likely that one misspelt, in any dialect.
    const closest = suggestion(name);
    if (closest !== undefined) return `unknown op '${name}'; did you mean '${closest}'?`;
    return SPOKEN_DIALECTS.some((d) => name.startsWith(d)) ? `${name} is not implemented yet` : `unknown op '${name}'`;
  }

  /** The known name closest to a misspelt one: the defined ops first (ties go to them), then the rest the spec names. */
  function suggestion(name: string): string | undefined {
    let best = suggestions.get(name);
    if (best === undefined) {
      candidates ??= new Set([...definitions.map((d) => d.name), ...byName.keys(), ...known, ...microOps]);
      // A file may misspell many names; the answers kept are bounded.
      if (suggestions.size >= 4096) suggestions.clear();
      best = swappedName(name, candidates) ?? closeEnough(name, closestName(name, candidates)) ?? null;
      suggestions.set(name, best);
    }
    return best ?? undefined;
  }
}

/**
 * A candidate as close to the name as closestName's third of the length, counted without the dialect: the shared
 * `pto.` says nothing of the op (`pto.vfoo` is not `pto.vnot`, two edits in four letters).
 */
function closeEnough(name: string, candidate: string | undefined): string | undefined {
  if (candidate === undefined) return undefined;
  const op = name.slice(name.indexOf('.') + 1);
  return distance(name.toLowerCase(), candidate.toLowerCase()) <= Math.max(1, Math.floor(op.length / 3)) ? candidate : undefined;
}

/** The name with two neighbouring letters swapped, if that is a known one (`scf.fro`): the commonest typo, two edits. */
function swappedName(name: string, names: Set<string>): string | undefined {
  for (let i = 0; i + 1 < name.length; i++) {
    const swapped = name.slice(0, i) + name[i + 1] + name[i] + name.slice(i + 2);
    if (swapped !== name && names.has(swapped)) return swapped;
  }
  return undefined;
}
