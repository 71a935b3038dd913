import { DIAGNOSTICS as D } from '../diag/catalog';
import { DiagnosticBag } from '../diag/diagnostic';
import { Span } from '../diag/source';
import { Block, Module, OpNode, Operand, Region, TypeRef, attrOf, hasUnclosedRegion } from '../syntax/ast';
import { Type, isIntegerLike, printType } from '../types/type';
import { TypeTable } from '../syntax/type-table';
import { Isa, isa } from '../spec/isa';
import { TargetName } from '../spec/schema';
import { Program } from '../ir/program';
import { BuildLevel, CodeBackend, CoreKind, OpDefinition } from '../ir/definition';
import { BoundInstruction, VerifiedSyncOp } from '../ir/program';
import { BoundBlock, BoundFunction, BoundOp, BoundRegion, Slot } from '../ir/bound';
import { tileTypeProblems } from '../ops/memory/tile-rules';
import { immediateDominators } from './dominance';
import { checkEntryFunction, checkStructSignature, checkTileOpHelperSignature } from './function-rules';
import { checkUncoveredSections } from './sections';
import { checkVptoKernelModules } from './vpto-container';
import { planFunctionMemory } from './memory-plan';
import { Registry, opRegistry } from '../ops/registry';
import { OpContext, VerifierState } from './op-context';
import { emptyList, sharedIfEmpty } from '../syntax/shared-parts';

export interface VerifyOptions {
  /** From the command line; overrides the module's `pto.target_arch`. */
  target?: TargetName;
  /** PTOAS's `--pto-level`: when given, the rules that depend on it apply. */
  level?: BuildLevel;
  /** PTOAS's `--pto-backend`: overrides the module's `pto.backend`. */
  backend?: CodeBackend;
  /**
   * The PTOAS passes whose input checks apply (src/micro/passes), as pto-test-opt runs them; undefined: those of
   * ptoas's pipeline for the program's back end.
   */
  passes?: string[];
}

/**
 * AST -> verified program. Every problem is a diagnostic; verification goes on to find them all. The driver keeps
 * the scopes and SSA values; each op is checked by its definition in the op registry (src/ops/registry.ts).
 */
export function verifyModule(module: Module, types: TypeTable, diags: DiagnosticBag, options: VerifyOptions = {}): Program {
  return new Verifier(module, types, diags, options).run();
}

/** A value in scope; `definer` is the op whose result it is (absent for block arguments). */
interface ScopeEntry {
  type: Type;
  span: Span;
  slot: Slot;
  definer?: { op: OpNode; def: OpDefinition };
}
type Scope = Map<string, ScopeEntry>;

/** Where a use could not be resolved (an error has been reported). */
const NO_SLOT: Slot = -1;

/** The type of a value whose definition could not be verified. */
const UNKNOWN: Type = { kind: 'opaque', text: '?' };
const isUnknown = (t: Type): boolean => t.kind === 'opaque' && t.text === '?';

class Verifier implements VerifierState {
  readonly spec: Isa = isa();
  private readonly registry: Registry = opRegistry();
  readonly target: TargetName;
  readonly level: BuildLevel | undefined;
  private readonly program: Program;
  private scopes: Scope[] = [];
  /**
   * Every name defined so far in the current function, for the message on a use out of its definition's scope. A
   * name is unique among the values in scope (MLIR's parser): sibling regions may each define their `%arg4`.
   */
  private functionNames = new Map<string, Span>();
  private functionTypes = new Map<string, Type>();
  /** Integer `arith.constant` values of the current function, by SSA name, for rules on static operands. */
  private integerConstants = new Map<string, bigint>();
  /** The byte address of each tile an `alloc_tile addr = %c` places at a constant, by value name. */
  private tilePlacements = new Map<string, bigint>();
  /** Type texts whose error, whose warnings, and whose tile-type problems have been reported (once each). */
  private readonly reportedTypeErrors = new Set<string>();
  private readonly reportedTypeWarnings = new Set<string>();
  private readonly checkedTileTypes = new Set<string>();
  private currentFunction: OpNode | undefined;
  /** The current function is a tile-op helper (`pto.tileop.helper`), which some ops may not be in. */
  private inTileOpHelper = false;
  /** Values declared with an old type spelling, by name: the text and what it means. */
  private respelled = new Map<string, { old: string; canonical: string }>();
  /** A region was never closed: where each op belongs is a guess, so placement checks are skipped. */
  private readonly unclosedRegion: boolean;
  get placementUncertain(): boolean {
    return this.unclosedRegion;
  }
  get backend(): CodeBackend | undefined {
    return this.program.backend;
  }
  /** The frame of the function being verified: its next free slot and the literal operands it presets. */
  private frame: { size: number; literals: { slot: Slot; value: bigint }[] } = { size: 0, literals: [] };
  /** The ops whose regions enclose the op being verified, outermost first (below the function). */
  readonly enclosing: OpNode[] = [];
  /** Every occurrence of each op with a program-wide rule (`checkAll`). */
  private readonly occurrences = new Map<OpDefinition, OpNode[]>();
  /** How many errors were reported inside regions so far (so that an op's own errors are told from its regions'). */
  private regionErrors = 0;
  /** How many of the bag's diagnostics `errorsSoFar` has counted, and how many of them are errors. */
  private itemsCounted = 0;
  private errorsCounted = 0;
  /** Undefined values reported in the current function: each name once, not at every use. */
  private reportedUndefined = new Set<string>();
  /** Defining ops whose results' uses have been reported already (one report per op, as PTOAS's passes stop). */
  private readonly reportedUses = new Set<OpNode>();
  /** The regions being verified, innermost last: their blocks and the blocks' labels, for branches. */
  private readonly regionStack: { labels: Map<string, number>; blocks: Block[] }[] = [];

  constructor(
    module: Module,
    private readonly types: TypeTable,
    readonly diags: DiagnosticBag,
    options: VerifyOptions,
  ) {
    const fromModule = this.targetFromModule(module);
    this.target = options.target ?? fromModule ?? 'a2a3';
    this.level = options.level;
    this.program = {
      module,
      target: this.target,
      ...this.backendFromModule(module),
      ...(options.backend ? { backend: options.backend } : {}),
      functions: new Map(),
      instructions: new Map(),
      syncOps: new Map(),
      valueTypes: new Map(),
      bound: { target: this.target, module, functions: new Map() },
    };
    this.unclosedRegion = hasUnclosedRegion(module.ops);
  }

  /**
   * Each module is a symbol table (MLIR's): its functions by name, so that a call may come before its callee. The
   * key is the module op; `undefined` for a file's top level.
   */
  private readonly symbolTables = new Map<OpNode | undefined, Map<string, OpNode>>();
  /** The module each function is directly in. */
  private readonly moduleOf = new Map<OpNode, OpNode | undefined>();
  /** The functions with a body by name, each a definition a declaration of another module links to (PTOAS's backend links them). */
  private readonly definitions = new Map<string, OpNode[]>();
  /** The module each function and nested module is written in (undefined: the file's top level). */
  private readonly containerOf = new Map<OpNode, OpNode | undefined>();

  private structureOf(op: OpNode): OpDefinition['structure'] {
    return this.registry.lookup(op.name)?.def.structure;
  }

  run(): Program {
    this.collectSymbols(this.program.module.ops, undefined);
    // A type alias's type is parsed where it is defined (MLIR's parser), used or not: `!a = !pto.foobar` is an error.
    // It is resolved by its name, so that a problem is reported once, here, and not again at its uses.
    for (const alias of this.program.module.aliases) {
      if (alias.alias.startsWith('!')) this.resolveType({ text: alias.alias, span: { start: alias.span.end - alias.text.length, end: alias.span.end } });
    }
    for (const op of this.program.module.ops) {
      const structure = this.structureOf(op);
      // A statement that did not parse is reported already, wherever it stands.
      if (op.unparsed) continue;
      if (structure === 'module') {
        this.checkMixedBackendContainer(op);
        this.verifyModuleOp(op);
      } else if (structure === 'function') this.verifyFunction(op);
      else this.diags.report(D.misplacedOp, op.nameSpan, `'${op.name}' is not allowed at the top level (expected 'module' or 'func.func')`);
    }
    for (const [def, ops] of this.occurrences) def.checkAll!(ops, (span, message, notes) => this.diags.report(def.diagnostic!, span, message, notes));
    for (const [fn, bound] of this.program.bound.functions) checkUncoveredSections(bound, this.moduleOf.get(fn), this.diags);
    checkVptoKernelModules(
      this.program,
      this.diags,
      (op) => this.structureOf(op) ?? (this.registry.lookup(op.name)?.def.terminator === 'return' ? 'return' : undefined),
    );
    return this.program;
  }

  /** Fills the symbol table of one module (a symbol is defined once in it) and, recursively, of its modules. */
  private collectSymbols(ops: OpNode[], module: OpNode | undefined): void {
    const table = new Map<string, OpNode>();
    this.symbolTables.set(module, table);
    for (const op of ops) {
      const structure = this.structureOf(op);
      if (structure === 'module' || structure === 'function') this.containerOf.set(op, module);
      if (structure === 'module') for (const b of op.regions[0]?.blocks ?? []) this.collectSymbols(b.ops, op);
      if (structure !== 'function' || op.symbol === undefined) continue;
      this.moduleOf.set(op, module);
      const previous = table.get(op.symbol);
      if (previous) {
        this.diags.report(D.redefinition, op.nameSpan, `redefinition of function @${op.symbol}`, [
          { message: 'previously defined here', span: previous.nameSpan },
        ]);
        continue;
      }
      table.set(op.symbol, op);
      if (op.regions.length > 0) {
        const same = this.definitions.get(op.symbol);
        if (same) same.push(op);
        else this.definitions.set(op.symbol, [op]);
      }
      // By name for the command line and the tests: the definition when a module only declares it.
      const known = this.program.functions.get(op.symbol);
      if (!known || (known.regions.length === 0 && op.regions.length > 0)) this.program.functions.set(op.symbol, op);
    }
  }

  /**
   * The function `caller` names: the symbol of the caller's module, and the definition it runs, itself or (for a
   * declaration, or a name the module does not hold) the one public definition of that name in another module, as
   * PTOAS's backend links its child modules.
   */
  resolveCallee(caller: OpNode, name: string): { symbol?: OpNode; definition?: OpNode } | undefined {
    const symbol = this.symbolTables.get(this.moduleOf.get(caller))?.get(name);
    if (symbol && symbol.regions.length > 0) return { symbol, definition: symbol };
    const linked = (this.definitions.get(name) ?? []).filter((d) => d.visibility !== 'private');
    const definition = linked.length === 1 ? linked[0] : undefined;
    return symbol || definition ? { symbol, definition } : undefined;
  }

  private targetFromModule(module: Module): TargetName | undefined {
    for (const op of module.ops) {
      if (this.structureOf(op) !== 'module') continue;
      // PTOAS's names, in any case: a2 and a3 (and the a2a3 pypto writes) are one target; an A5 device spec names A5.
      const spec = attrOf(op, 'pto.device-spec');
      if (spec?.kind === 'string' && /^(Ascend950|Ascend910_95)/.test(spec.value)) return 'a5';
      const arch = attrOf(op, 'pto.target_arch');
      if (!arch) continue;
      const value = arch.kind === 'string' ? arch.value : arch.kind === 'ident' ? arch.name : undefined;
      const name = value?.toLowerCase();
      if (name === 'a2' || name === 'a3' || name === 'a2a3') return 'a2a3';
      if (name === 'a5') return 'a5';
      this.diags.report(D.unknownTarget, arch.span, `unknown pto.target_arch ${JSON.stringify(value ?? '')} is ignored (PTOAS knows "a2", "a3" and "a5")`);
    }
    return undefined;
  }

  /** The back end the outermost module names (`pto.backend`), which a run follows unless told otherwise. */
  private backendFromModule(module: Module): { backend?: CodeBackend } {
    for (const op of module.ops) {
      if (this.structureOf(op) !== 'module') continue;
      const attr = attrOf(op, 'pto.backend');
      if (!attr) continue;
      const value = attr.kind === 'string' ? attr.value : undefined;
      if (value === 'emitc' || value === 'vpto') return { backend: value };
      this.diags.report(
        D.unknownBackend,
        attr.span,
        `unknown pto.backend ${value === undefined ? '' : JSON.stringify(value) + ' '}(PTOAS knows "emitc" and "vpto")`,
      );
    }
    return {};
  }

  /**
   * PTOAS's driver (resolveSingleBackend) compiles an outer module of two or more child modules, when neither the
   * command line nor the outer module names a back end, as a fat object of one compile unit per child: the outer
   * module may then hold nothing but its child modules.
   */
  private checkMixedBackendContainer(outer: OpNode): void {
    if (this.program.backend !== undefined) return;
    const ops = (outer.regions[0]?.blocks ?? []).flatMap((b) => b.ops);
    const children = ops.filter((o) => this.structureOf(o) === 'module');
    const stray = ops.find((o) => this.structureOf(o) !== 'module');
    if (children.length < 2 || !stray) return;
    this.diags.report(
      D.mixedBackendContainer,
      stray.nameSpan,
      'mixed pto.backend fatobj mode expects either a single module or an outer module containing only child modules; found non-module top-level ops alongside child modules',
    );
  }

  private verifyModuleOp(op: OpNode): void {
    for (const block of op.regions[0]?.blocks ?? []) {
      for (const inner of block.ops) {
        const structure = this.structureOf(inner);
        if (inner.unparsed) continue;
        if (structure === 'function') this.verifyFunction(inner);
        else if (structure === 'module') this.verifyModuleOp(inner);
        else this.diags.report(D.misplacedOp, inner.nameSpan, `'${inner.name}' is not allowed directly in a module (expected 'func.func')`);
      }
    }
  }

  private verifyFunction(fn: OpNode): void {
    const name = fn.symbol ?? '';
    const errorsBefore = this.diags.errorCount;
    this.currentFunction = fn;
    this.inTileOpHelper = attrOf(fn, 'pto.tileop.helper') !== undefined;
    this.functionNames = new Map();
    this.reportedUndefined = new Set();
    this.functionTypes = new Map();
    this.integerConstants = new Map();
    this.tilePlacements = new Map();
    this.respelled = new Map();
    this.frame = { size: 0, literals: [] };
    this.program.valueTypes.set(fn, this.functionTypes);
    this.scopes = [new Map()];
    for (const t of fn.resultTypes) this.resolveType(t);
    checkEntryFunction(fn, this.diags);
    checkTileOpHelperSignature(fn, this.diags);
    checkStructSignature(fn, (ref) => this.resolveType(ref), this.diags);
    const body = fn.regions[0];
    const kind = kernelKindOf(fn);
    const bound: BoundFunction = { name, node: fn, params: [], paramTypes: [], frameSize: 0, literals: this.frame.literals, ...(kind ? { kind } : {}) };
    this.program.bound.functions.set(fn, bound);
    if (body) {
      bound.body = this.verifyRegion(body, fn);
      bound.params = bound.body.blocks[0]?.args ?? [];
      bound.paramTypes = (body.blocks[0]?.args ?? []).map((a) => this.functionTypes.get(a.name));
      // Every block ends with 'return' or a branch to another block.
      // An op that did not parse or that no definition names may be the terminator it was meant to be (its error
      // is reported).
      const ends = (block: Block) => {
        const last = block.ops.at(-1);
        if (last === undefined) return false;
        const def = this.registry.lookup(last.name)?.def;
        return last.unparsed === true || def === undefined || def.terminator === 'return' || def.terminator === 'branch';
      };
      if (!this.unclosedRegion && (body.blocks.length === 0 || !body.blocks.every(ends))) {
        this.diags.report(D.missingReturn, { start: body.span.end - 1, end: body.span.end }, `function @${name} must end with 'return'`);
      }
    } else {
      // A declaration: its parameter types are still types the program must spell correctly.
      for (const p of fn.params ?? []) if (p.type) this.resolveType(p.type);
    }
    bound.frameSize = this.frame.size;
    // Memory planning needs the whole function verified; PTOAS plans nothing at level3, where tiles are placed by address.
    if (this.diags.errorCount === errorsBefore && !this.inTileOpHelper) {
      const report = (span: Span, message: string, notes: { message: string; span: Span }[]) => this.diags.report(D.memoryOverflow, span, message, notes);
      planFunctionMemory(bound, this.target, this.spec, this.level === 'level3' ? undefined : report);
    }
    this.currentFunction = undefined;
    this.inTileOpHelper = false;
  }

  verifyRegion(region: Region, owner: OpNode, untyped: Type[] = []): BoundRegion {
    const errorsBefore = this.errorsSoFar();
    const regionErrors = this.regionErrors;
    const bound = this.verifyRegionBlocks(region, owner, untyped);
    // Counted once, however deep: the errors of every op inside, which are not the owner's own.
    this.regionErrors = regionErrors + this.errorsSoFar() - errorsBefore;
    return bound;
  }

  private verifyRegionBlocks(region: Region, owner: OpNode, untyped: Type[]): BoundRegion {
    const { blocks } = region;
    const labels = new Map<string, number>();
    blocks.forEach((b, i) => b.label !== undefined && labels.set(b.label, i));
    this.regionStack.push({ labels, blocks });
    const bound = new Array<BoundBlock>(blocks.length);
    // A value is visible in the blocks its block dominates: each block is verified inside the scopes of its
    // dominators. A block the entry cannot reach sees the entry's values.
    const successors = blocks.map((b) => (b.ops.at(-1)?.successors ?? []).flatMap((s) => labels.get(s.label) ?? []));
    const idom = blocks.length > 1 ? immediateDominators(successors) : [-1];
    const children = blocks.map(() => [] as number[]);
    for (let b = 1; b < blocks.length; b++) children[idom[b] ?? 0].push(b);
    const walk = (b: number): void => {
      this.scopes.push(new Map());
      bound[b] = this.verifyBlock(blocks[b], owner, b === 0 ? untyped : []);
      for (const child of children[b]) walk(child);
      this.scopes.pop();
    };
    if (blocks.length > 0) walk(0);
    this.regionStack.pop();
    return { node: region, blocks: bound };
  }

  /** Defines a block's arguments and verifies its ops, in the scope the caller opened. */
  private verifyBlock(block: Block, owner: OpNode, untyped: Type[]): BoundBlock {
    const args = block.args.map((arg, i) => {
      const type = arg.type ? this.resolveType(arg.type) : untyped[i];
      return this.define(arg.name, type ?? UNKNOWN, arg.span);
    });
    const ops: BoundOp[] = [];
    for (const op of block.ops) {
      const bound = this.verifyOp(op, owner);
      if (bound) ops.push(bound);
    }
    return { node: block, args, ops };
  }

  /** A block of the region being verified, by label, with its arguments' types (for a branch to it). */
  successor(label: string): { index: number; argTypes: (Type | undefined)[] } | undefined {
    const region = this.regionStack.at(-1);
    const index = region?.labels.get(label);
    if (index === undefined) return undefined;
    return { index, argTypes: region!.blocks[index].args.map((a) => (a.type ? this.resolveType(a.type) : undefined)) };
  }

  // ---- values ----------------------------------------------------------------------------------

  /** Defines an SSA value in the current scope; returns its frame slot. */
  private define(name: string, type: Type, span: Span): Slot {
    const slot = this.frame.size++;
    const previous = this.lookup(name);
    if (previous) {
      this.diags.report(D.redefinition, span, `redefinition of SSA value ${name}`, [{ message: 'previously defined here', span: previous.span }]);
      return slot;
    }
    this.functionNames.set(name, span);
    this.functionTypes.set(name, type);
    this.scopes[this.scopes.length - 1].set(name, { type, span, slot });
    return slot;
  }

  private lookup(name: string): ScopeEntry | undefined {
    for (let i = this.scopes.length - 1; i >= 0; i--) {
      const found = this.scopes[i].get(name);
      if (found) return found;
    }
    return undefined;
  }

  /** The type and slot of a used operand; reports undefined values and type mismatches with the definition. */
  // Every use is one shape of object (`found` undefined too): the loops over them stay monomorphic.
  private useOperand(operand: Operand): { type: Type | undefined; slot: Slot; found: ScopeEntry | undefined } {
    if (operand.literal !== undefined) {
      const slot = this.frame.size++;
      this.frame.literals.push({ slot, value: BigInt(operand.literal) });
      return { type: { kind: 'scalar', elem: 'index' }, slot, found: undefined };
    }
    const ref = operand.value!;
    const key = ref.index !== undefined ? `${ref.name}#${ref.index}` : ref.name;
    let found = this.lookup(key);
    if (!found && ref.index === 0) found = this.lookup(ref.name);
    if (!found) {
      // Once per name: its other uses would repeat the error (clang and MLIR report an undeclared name once).
      if (this.reportedUndefined.has(key)) return { type: operand.type ? this.resolveType(operand.type) : undefined, slot: NO_SLOT, found: undefined };
      this.reportedUndefined.add(key);
      const elsewhere = this.functionNames.get(key);
      this.diags.report(
        D.undefinedValue,
        ref.span,
        elsewhere ? `${key} is not visible here (defined in a region that does not enclose this use)` : `use of undefined value ${key}`,
      );
      return { type: undefined, slot: NO_SLOT, found: undefined };
    }
    if (isUnknown(found.type)) {
      // Defined by an op that failed to verify: trust the use's type, so no errors cascade.
      return { type: operand.type ? this.resolveType(operand.type) : undefined, slot: found.slot, found };
    }
    const respelled = this.respelled.get(key);
    if (operand.type && respelled?.old === operand.type.text) this.types.respell(operand.type, respelled.canonical); // normalized, as its definition was
    if (operand.type) {
      const declared = this.resolveType(operand.type);
      // One type text parses to one Type object: the same object needs no printing to compare.
      if (declared && declared !== found.type && printType(declared) !== printType(found.type) && found.type.kind !== 'opaque') {
        this.diags.report(D.typeMismatch, operand.type.span, `type of ${key} is ${printType(found.type)}, but this use says ${printType(declared)}`, [
          { message: `${key} defined here`, span: found.span },
        ]);
      }
    }
    return { type: found.type, slot: found.slot, found };
  }

  resolveType(ref: TypeRef): Type | undefined {
    const text = this.types.spelling(ref);
    const parsed = this.types.parse(text);
    if (parsed.error) {
      if (!this.reportedTypeErrors.has(text)) {
        this.reportedTypeErrors.add(text);
        this.diags.report(D.invalidType, this.partOf(ref, text, parsed.at), parsed.error);
      }
      return undefined;
    }
    if (parsed.warnings.length > 0 && !this.reportedTypeWarnings.has(text)) {
      this.reportedTypeWarnings.add(text);
      for (const w of parsed.warnings) this.diags.report(D.oldSpelling, ref.span, w);
    }
    const type = parsed.type!;
    if (type.kind === 'tile' && !this.checkedTileTypes.has(text)) {
      this.checkedTileTypes.add(text);
      for (const p of tileTypeProblems(type, this.target, this.spec)) this.diags.report(D.invalidTileType, ref.span, `invalid tile type: ${p}`);
    }
    return type;
  }

  /**
   * Where a part of a type (`at`, in its text) is written: underlined alone rather than the whole type, when the type
   * is written as it is read (not through an alias, not respelled).
   */
  private partOf(ref: TypeRef, text: string, at: { start: number; end: number } | undefined): Span {
    if (!at || ref.span.end - ref.span.start !== text.length || this.diags.source.text.slice(ref.span.start, ref.span.end) !== text) return ref.span;
    return { start: ref.span.start + at.start, end: ref.span.start + at.end };
  }

  /** Defines the op's results (`%x:2` as `%x#0`, `%x#1`); returns their slots and types. */
  defineResults(op: OpNode, types: (Type | undefined)[]): { slots: Slot[]; types: (Type | undefined)[] } {
    // Sized up front: a large module keeps one pair per op.
    const count = this.resultCount(op);
    const slots = new Array<Slot>(count);
    const defined = new Array<Type | undefined>(count);
    let k = 0;
    for (const r of op.results) {
      for (let i = 0; i < r.count; i++, k++) {
        defined[k] = types[k];
        slots[k] = this.define(r.count === 1 ? r.name : `${r.name}#${i}`, types[k] ?? UNKNOWN, r.span);
      }
    }
    // The types given, when they are one per result (not a copy of them: a large module keeps one list per op).
    return { slots: sharedIfEmpty(slots), types: sharedIfEmpty(types.length === count ? types : defined) };
  }

  private resultCount(op: OpNode): number {
    let n = 0;
    for (const r of op.results) n += r.count;
    return n;
  }

  expectResults(op: OpNode, n: number): boolean {
    const got = this.resultCount(op);
    // MLIR lets an op with results be written without naming them (`scf.for ... { }` whose results nothing reads):
    // they are defined, unnamed, and nothing can use them.
    if (got === 0) return true;
    if (got !== n) {
      this.diags.report(
        D.resultCount,
        op.results[0]?.span ?? op.nameSpan,
        `'${op.name}' produces ${n} result(s), but ${got} ${got === 1 ? 'is' : 'are'} named`,
      );
      return false;
    }
    return true;
  }

  // ---- what an op's definition asks for (OpContext) ----------------------------------------------

  integerConstant(name: string): bigint | undefined {
    return this.integerConstants.get(name);
  }

  recordIntegerConstant(name: string, value: bigint): void {
    this.integerConstants.set(name, value);
  }

  definitionOf(op: OpNode): OpDefinition | undefined {
    return this.registry.lookup(op.name)?.def;
  }

  tilePlacement(name: string): bigint | undefined {
    return this.tilePlacements.get(name);
  }

  recordTilePlacement(name: string, byte: bigint): void {
    this.tilePlacements.set(name, byte);
  }

  functionOps(): OpNode[] {
    return [...this.moduleOf.keys()];
  }

  recordInstruction(op: OpNode, instruction: BoundInstruction): void {
    this.program.instructions.set(op, instruction);
  }

  recordSync(op: OpNode, verified: VerifiedSyncOp): void {
    this.program.syncOps.set(op, verified);
  }

  respellResult(op: OpNode, index: number, canonical: string): Type | undefined {
    const ref = op.resultTypes[index];
    for (const r of op.results) this.respelled.set(r.name, { old: ref.text, canonical });
    this.types.respell(ref, canonical);
    return this.resolveType(ref);
  }

  // ---- ops -------------------------------------------------------------------------------------

  private verifyOp(op: OpNode, parent: OpNode): BoundOp | undefined {
    if (op.unparsed) {
      // Its error is reported; its results are of an unknown type, so that their uses cause no more errors.
      this.defineResults(op, emptyList());
      return undefined;
    }
    for (const l of op.legacy ?? []) this.diags.report(D.oldSpelling, l.span, l.message);
    const errorsBefore = this.errorsSoFar();
    const uses = op.operands.map((o) => this.useOperand(o));
    const operandTypes = sharedIfEmpty(uses.map((u) => u.type));
    const declaredResults = op.resultTypes.length === 0 ? emptyList<Type | undefined>() : op.resultTypes.map((t) => this.resolveType(t));
    const entry = this.registry.lookup(op.name);
    if (!entry) {
      this.diags.report(D.unknownOp, op.nameSpan, this.registry.unknownOpMessage(op.name));
      // Keep its results defined so that later uses do not cascade into more errors.
      this.defineResults(op, declaredResults);
      return undefined;
    }
    const bound: BoundOp = {
      def: entry.def,
      node: op,
      operands: sharedIfEmpty(uses.map((u) => u.slot)),
      operandTypes,
      // Most ops own no region: they share the empty list until they do (OpContext.region).
      results: emptyList(),
      resultTypes: emptyList(),
      regions: emptyList(),
      // Set by the definition's verify, if at all; named here so that the object has room for them.
      instruction: undefined,
      sync: undefined,
      decoded: undefined,
    };
    const context = new OpContext(this, entry.def, bound, op, parent, this.currentFunction!, operandTypes, declaredResults);
    const refused = entry.def.properties?.notInTileOpHelper;
    if (refused && this.inTileOpHelper) {
      const message =
        refused === 'SIMT operations'
          ? 'tileop helpers must launch a @pto.simt helper instead of containing SIMT operations directly'
          : `tileop helpers must not contain ${refused}`;
      context.error(op.nameSpan, message, undefined, D.tileOpHelper);
    }
    const notVpto = entry.def.properties?.notInVptoBackend;
    if (notVpto && this.program.backend === 'vpto')
      context.error(op.nameSpan, `'${op.name}' is not supported by the VPTO backend: ${notVpto}`, undefined, D.notInVptoBackend);
    const regionErrors = this.regionErrors;
    entry.def.verify(context);
    // The errors of the ops in its regions are theirs; any other since its uses began are the op's own.
    const failed = this.errorsSoFar() - errorsBefore - (this.regionErrors - regionErrors) > 0;
    this.recordDefiner(op, entry.def, failed);
    this.checkUses(op, entry.def, uses);
    this.checkStructResults(op, entry.def, bound.resultTypes);
    if (bound.instruction) this.assignSlots(bound);
    if (entry.def.checkAll) {
      const seen = this.occurrences.get(entry.def);
      if (seen) seen.push(op);
      else this.occurrences.set(entry.def, [op]);
    }
    return bound;
  }

  /**
   * Marks the op's results (in the scope they were defined in) as its own, for the rules on their uses. The results
   * of an op that failed to verify are of an unknown type: their uses trust what they say, and cause no more errors.
   */
  private recordDefiner(op: OpNode, def: OpDefinition, failed: boolean): void {
    const scope = this.scopes[this.scopes.length - 1];
    const definer = { op, def };
    const mark = (entry: ScopeEntry | undefined) => {
      if (!entry) return;
      entry.definer = definer;
      if (failed) entry.type = UNKNOWN;
    };
    for (const r of op.results) {
      if (r.count === 1) mark(scope.get(r.name));
      else for (let i = 0; i < r.count; i++) mark(scope.get(`${r.name}#${i}`));
    }
  }

  /**
   * Errors reported so far, counted among the diagnostics added since the last call (asked twice per op: nothing is
   * made for it). Past the bag's limit errors are only counted there, and what they cause is shown no more either.
   */
  private errorsSoFar(): number {
    const items = this.diags.items;
    for (let i = this.itemsCounted; i < items.length; i++) if (items[i].severity === 'error') this.errorsCounted++;
    this.itemsCounted = items.length;
    return this.errorsCounted;
  }

  /** The rules definitions set on how their results are used, and that no terminator hands a struct out. */
  private checkUses(op: OpNode, def: OpDefinition, uses: { type: Type | undefined; found?: ScopeEntry }[]): void {
    uses.forEach((use, operand) => {
      const definer = use.found?.definer;
      if (!definer) return;
      const problem = definer.def.checkResultUse?.({ user: op, userDef: def, operand });
      if (problem && !this.reportedUses.has(definer.op)) {
        this.reportedUses.add(definer.op);
        this.diags.report(problem.kind ?? definer.def.diagnostic!, definer.op.nameSpan, problem.message, [
          { message: 'the use is here', span: op.operands[operand].span },
        ]);
      }
      // A struct value points to storage of the scope that declares it: a terminator would carry it out (PTOAS's
      // DeclareStructOp verifier).
      if (def.terminator && definer.def.properties?.declaresStruct && !this.reportedUses.has(definer.op)) {
        this.reportedUses.add(definer.op);
        this.diags.report(
          D.structProvenance,
          definer.op.nameSpan,
          `stack-local struct must not escape the scope that declares it, but its value is passed to '${op.name}'; declare it in the outer scope and set its fields from the nested region (${definer.def.name} storage is mutated in place)`,
          [{ message: 'passed here', span: op.operands[operand].span }],
        );
      }
    });
  }

  /** Only the op that declares a struct gives a struct value: a derived one (a select, a loop result) hides its storage. */
  private checkStructResults(op: OpNode, def: OpDefinition, types: (Type | undefined)[]): void {
    if (def.properties?.declaresStruct) return;
    let i = 0;
    while (i < types.length && types[i]?.kind !== 'struct') i++;
    if (i === types.length) return;
    const declaring = this.registry.definitions.find((d) => d.properties?.declaresStruct)?.name;
    this.diags.report(
      D.structProvenance,
      op.nameSpan,
      `${op.name}: result ${i} has type ${printType(types[i]!)}, but only '${declaring}' may produce a !pto.struct result; derived results hide the storage's lifetime and can escape their declaring scope`,
    );
  }

  /**
   * PTOAS's lookupPeerFuncAcrossContainer: a function of the current function's module, else the one function of
   * that name in the module around it that is not private (a peer in a sibling module, when backends partition).
   */
  peerFunction(name: string): OpNode | undefined {
    const fn = this.currentFunction;
    if (!fn) return undefined;
    const container = this.containerOf.get(fn);
    const functions = [...this.containerOf].filter(([op]) => this.structureOf(op) === 'function');
    const local = functions.find(([f, c]) => c === container && f.symbol === name)?.[0];
    if (local || !container) return local;
    const outer = this.containerOf.get(container);
    if (outer === undefined) return undefined;
    const matches = functions.filter(([f, c]) => this.isWithin(c, outer) && f.symbol === name && f.visibility !== 'private').map(([f]) => f);
    return matches.length === 1 ? matches[0] : undefined;
  }

  /** `module` is `outer` or nested in it. */
  private isWithin(module: OpNode | undefined, outer: OpNode): boolean {
    for (let m = module; m; m = this.containerOf.get(m)) if (m === outer) return true;
    return false;
  }

  coreKind(): CoreKind | 'any' | undefined {
    const fn = this.currentFunction;
    if (fn && attrOf(fn, 'pto.tileop.helper')) return 'any';
    for (let i = this.enclosing.length - 1; i >= 0; i--) {
      const kind = this.registry.lookup(this.enclosing[i].name)?.def.properties?.coreKind;
      if (kind) return kind;
    }
    return fn && kernelKindOf(fn);
  }

  /** Each bound instruction operand gets the slot of the value it names: the use's, or the Level 1 result's. */
  private assignSlots(op: BoundOp): void {
    // A result `%x:2` holds two slots: each result definition starts at the sum of the counts before it.
    let next = 0;
    const resultIndex = new Map(op.node.results.map((r) => [r, (next += r.count) - r.count]));
    for (const b of op.instruction!.operands.values()) {
      if (b.use) b.slot = op.operands[op.node.operands.indexOf(b.use)];
      else if (b.result) b.slot = op.results[resultIndex.get(b.result)!];
    }
  }

  checkIndexOperands(op: OpNode, segments: string[], operandTypes: (Type | undefined)[]): void {
    for (const seg of segments) {
      for (const i of op.segments[seg] ?? []) {
        const t = operandTypes[i];
        if (t && !isIntegerLike(t)) this.diags.report(D.indexOperand, op.operands[i].span, `${seg} must be index or integer values, got ${printType(t)}`);
      }
    }
  }
}

/** The kind of core a function's code is for, as its `pto.kernel_kind` attribute says; undefined when it has none. */
function kernelKindOf(fn: OpNode): CoreKind | undefined {
  const attr = attrOf(fn, 'pto.kernel_kind');
  const written = attr?.kind === 'dialect' ? /kernel_kind\s*<\s*(cube|vector)\s*>|kernel_kind\s+(cube|vector)\s*>/.exec(attr.text) : null;
  return written ? ((written[1] ?? written[2]) as CoreKind) : undefined;
}
