import { DiagnosticKind } from '../diag/catalog';
import { DiagnosticBag } from '../diag/diagnostic';
import { Span } from '../diag/source';
import { Isa } from '../spec/isa';
import { TargetName } from '../spec/schema';
import { Attr, OpNode, Region, TypeRef } from '../syntax/ast';
import { GenericOp, GenericRewrite, InsKeywordMoves } from '../syntax/op-syntax';
import { TileType, Type } from '../types/type';
import { BoundInstruction, VerifiedSyncOp } from './program';
import { BoundOp, BoundRegion } from './bound';
import { OnChipMemory } from '../machine/memory';
import { Value } from '../machine/value';

/**
 * One op of PTO-AS, defined once (as MLIR's ODS defines a dialect's ops): how it is spelled, whether it owns
 * regions, how it is verified, and the properties the transforms ask about. Everything that needs to know about
 * an op (the scanner's region ops, the parser, the verifier, the VM, the printers, the level conversion) reads this
 * definition from the registry (src/ops/registry.ts); none keeps a list or a switch of op names of its own.
 */
export interface OpDefinition {
  /** The canonical name, as printed. */
  name: string;
  /** Other accepted spellings; a deprecated one is reported with a located warning naming the canonical one. */
  spellings?: Spelling[];
  /**
   * The grammar rule (src/syntax/pto.ohm) of its custom syntax, what follows the name: `ScfForBody` for
   * `scf.for %i = %lb to %ub step %s {...}`. Absent: the generic syntax (Level 1 SSA, Level 2 DPS, positional).
   */
  syntax?: string;
  /**
   * Reads the op written in MLIR's generic form (`"pto.x"(%a, %b) <{...}> : (A, B) -> ()`) into the AST of its own
   * form. Absent: the generic form reads as the generic syntax's SSA form (ops without a syntax of their own).
   */
  fromGeneric?(op: GenericOp): GenericRewrite;
  /** Its `{` opens regions (the scanner must know before anything is parsed). */
  hasRegions?: boolean;
  /**
   * A terminator ends the block it is in: `yield` hands its operands to the op that owns the region, `return` to
   * the caller of the function, `branch` to another block of its region (`branch` says which).
   */
  terminator?: 'yield' | 'return' | 'branch';
  /** `module` and `func.func` are the structure around the code; the verifier walks them itself. */
  structure?: 'module' | 'function';
  /** Checks the op and defines its results (through the verifier context). */
  verify(v: OpVerifier): void;
  /** A branch: the block of its region it goes to (an index) and the arguments it hands that block. */
  branch?(x: Executor, op: BoundOp): { block: number; args: Value[] };
  /**
   * Runs the op in the VM; absent: the VM reports the op as not implemented. An op that can wait for another core
   * (a pop from an empty pipe, a flag another core sets) or that owns regions (whose ops can) runs as a generator
   * that yields what it waits for (`Execution`); the others return nothing.
   */
  execute?(x: Executor, op: BoundOp): void | Execution;
  /**
   * The value of its one result when its operands are known integers (MLIR's fold), for analyses before a run
   * (sizing pointer arguments from constant shapes); undefined when it does not fold.
   */
  fold?(operands: bigint[], resultType: Type | undefined, op: OpNode): bigint | undefined;
  /** A rule across every occurrence of the op in the program (after each has been verified). */
  checkAll?(occurrences: OpNode[], error: (span: Span, message: string, notes?: { message: string; span: Span }[]) => void): void;
  properties?: OpProperties;
  /**
   * A rule on where the op's results may be used (PTOAS checks some in passes over the uses): the problem with one
   * use, reported at this op with a note at the use; undefined when the use is allowed.
   */
  checkResultUse?(use: ResultUse): { message: string; kind?: DiagnosticKind } | undefined;
  /** The catalog kind of the problems its `verify` reports, unless a report names another. */
  diagnostic?: DiagnosticKind;
}

export interface Spelling {
  name: string;
  deprecated?: boolean;
  /**
   * The name now belongs to another op: this spelling applies only to a statement that does not parse as that
   * op (always an old spelling, reported as such).
   */
  reused?: boolean;
  /** The old op wrote keyword operands among its `ins` (see `InsKeywordMoves`): the parser moves them out. */
  insKeywords?: InsKeywordMoves;
}

/** The two kinds of core of a launch: the cube core (matrix unit) and the vector cores. */
export type CoreKind = 'cube' | 'vector';

/** One use of an op's result: the op using it and which of its operands it is. */
export interface ResultUse {
  user: OpNode;
  userDef: OpDefinition;
  operand: number;
}

/** Facts about an op that transforms and printers ask for, instead of keeping lists of names. */
export interface OpProperties {
  /** PTOAS gives it no assembly format (`pto.vmi.unpack`): the canonical printer writes MLIR's generic form. */
  genericForm?: boolean;
  /**
   * Running it can wait for another core (a pop from an empty pipe, a flag another core sets): the VM runs the code
   * around it under the scheduler. Ops with regions or calls wait when their regions or callees do (src/vm/waits.ts).
   */
  mayWait?: boolean;
  /**
   * The result names the bytes of an operand (a second name for a buffer): the level conversion cannot express
   * that at Level 1. `level2`: also at Level 2 it is only a view (not a new buffer).
   */
  aliasesOperand?: { level2: boolean };
  /** Its region holds code for one kind of core (`pto.section.cube`). */
  coreKind?: CoreKind;
  /** Its region is run by SIMT threads of a vector core, each with its own copy of the frame (`pto.section.simt`). */
  simtSection?: boolean;
  /**
   * Structured control flow, which passes take as one unit or look into: `counted-loop` (`scf.for`, the loop
   * `pto.unroll` marks), `loop` (`scf.while`), `conditional` (`scf.if`).
   */
  controlFlow?: 'counted-loop' | 'loop' | 'conditional';
  /** It runs another function of the program (`func.call`). */
  callsFunction?: boolean;
  /** It reads which core runs it: the field of `CoreIndex` it returns (`pto.get_block_idx`: `block`). */
  coreQuery?: 'block' | 'blocks' | 'subblock' | 'subblocks';
  /**
   * It reads global memory through the views among its operands (a transfer or collective between ranks): the VM
   * fills the pointers behind them with generated data when they are not bound.
   */
  readsGlobalViews?: boolean;
  /** Its result is its pointer operand (the first) moved by whole elements (the second): pointer sizing follows it. */
  movesPointer?: boolean;
  /**
   * How many elements it reads from the first element of its `ins` view when that depends on its `outs` tile rather
   * than on the view's shape (a tload of MX scales reads the tile's whole shape); undefined when it reads the view.
   * The VM sizes unbound pointers by it, as the board harness does from the global tensor PTOAS emits.
   */
  viewFootprint?: (dst: TileType) => number | undefined;
  /** It reads or writes the one element at its `ptr` plus its `offset` (segments): the VM sizes unbound pointers by it. */
  accessesElement?: boolean;
  /** Its result is the stack storage of a `!pto.struct`: the one kind of op that may give a struct value. */
  declaresStruct?: boolean;
  /**
   * PTOAS's VPTO back end refuses it (its emission-stage checks or LLVM lowering stop on it): why, as PTOAS says. A
   * module the vpto back end compiles (`--pto-backend=vpto`, else the module's `pto.backend`) may not hold it.
   */
  notInVptoBackend?: string;
  /** PTOAS prints its attributes inside `ins(...)` rather than after `outs(...)`. */
  attributesInIns?: boolean;
  /**
   * Sources older PTOAS wrote in `outs(...)`: `outs` is how many today's outs has; each move takes the old outs
   * operand at `from` to its place `to` in today's `ins(...)` (`last`: after the others), for the printer to move it.
   */
  formerlyOuts?: { outs: number; moves: { from: number; to: number | 'last' }[] };
  /**
   * Its positional list as PTOAS prints it today, for the printer: an older spelling (`"PIPE_V"` for `<PIPE_V>`),
   * another form (get_buf's bare or bracketed one, by what it names) or an optional attribute not written (get_buf's
   * mode); undefined: as written. An SSA value in the list keeps its position.
   */
  todaysPositional?(op: OpNode): { bracketed: boolean; items: Attr[] } | undefined;
  /**
   * What kind of op a tile-op helper (`pto.tileop.helper`, compute code a kernel calls) may not contain, in
   * PTOAS's words (its pto-materialize-tileop-sections pass): synchronization between pipes, or tiles' allocation
   * and the tile-granular ops themselves, the micro level's moves between memories, and the ops of PTOAS's
   * SimtOpInterface (the SIMT micro-ops, the core queries, pto.trap), which a helper must launch as a SIMT function.
   */
  notInTileOpHelper?: 'pipe synchronization' | 'Tile allocation or high-level TileOps' | 'MTE data movement' | 'SIMT operations';
  /**
   * A synchronization op that delimits vector scopes, so it may not stand inside `pto.vecscope` (VPTO.cpp's
   * isForbiddenSynchronizationInsideVecScope; pto.mem_bar may).
   */
  delimitsVectorScope?: boolean;
  /**
   * How PTOAS's vecscope inference (PTOInferVPTOVecScope) takes it, where its types do not tell: an op that ends an
   * inferred scope (`boundary`), a scope written out (`explicit-scope`), an op without vector values that still runs
   * in a vector scope (`needs-scope`).
   */
  vecscopeInference?: 'boundary' | 'explicit-scope' | 'needs-scope';
}

/**
 * The `ins` and `outs` of a destination-passing op in today's order: when `outs` also holds the sources older PTOAS
 * wrote after the destinations (`formerlyOuts`), they move to their places in `ins`. Undefined when the op is
 * written in today's form already. The binder and the printer both read the old form through here.
 */
export function todaysDpsOrder<T>(ins: T[], outs: T[], moved: OpProperties['formerlyOuts']): { ins: T[]; outs: T[] } | undefined {
  if (!moved || outs.length !== moved.outs + moved.moves.length) return undefined;
  const taken = new Set(moved.moves.map((m) => m.from));
  const reordered = [...ins];
  const place = (to: number | 'last') => (to === 'last' ? Infinity : to);
  for (const m of [...moved.moves].sort((a, b) => place(a.to) - place(b.to))) {
    reordered.splice(Math.min(place(m.to), reordered.length), 0, outs[m.from]);
  }
  return { ins: reordered, outs: outs.filter((_, i) => !taken.has(i)) };
}

/**
 * PTOAS's build level (`--pto-level`): level 3 is code whose tiles the author placed (`addr = %a`, `pto.tassign`);
 * levels 1 and 2 leave placement to PTOAS.
 */
export type BuildLevel = 'level1' | 'level2' | 'level3';

/** What an op's `verify` sees: the op with its operand and declared result types resolved, and the verifier's services. */
export interface OpVerifier {
  readonly op: OpNode;
  /** The op whose region holds this op (`func.func`, `scf.for`, ...). */
  readonly parent: OpNode;
  readonly target: TargetName;
  /** The build level asked for; undefined: none was, and the rules that depend on it do not apply. */
  readonly level?: BuildLevel;
  readonly isa: Isa;
  /** Each operand's type; undefined where the value is undefined or its type did not parse (already reported). */
  readonly operands: (Type | undefined)[];
  /** Each declared result type (`resultTypes` of the AST), resolved. */
  readonly declared: (Type | undefined)[];
  /** The function being verified. */
  readonly function: OpNode;
  /** The ops whose regions enclose this op inside its function, outermost first. */
  readonly enclosing: readonly OpNode[];
  /** The back end the module names (`pto.backend`); undefined: PTOAS's default, `emitc`. */
  readonly backend?: CodeBackend;
  /** A region of the file was never closed: which op a region belongs to is a guess, so placement checks are skipped. */
  readonly placementUncertain: boolean;

  /** The file's diagnostics, for checks that report through shared helpers. */
  readonly diags: DiagnosticBag;
  /** Reports a problem: of the definition's kind (`diagnostic`), or of the kind given. */
  error(span: Span, message: string, notes?: { message: string; span: Span }[], kind?: DiagnosticKind): void;
  warning(span: Span, message: string, kind: DiagnosticKind): void;
  /** Parses and checks a type written in the program (each distinct problem reported once). */
  type(ref: TypeRef): Type | undefined;
  /** The number of results named is `n`; reports it otherwise. */
  expectResults(n: number): boolean;
  /** Defines the op's results with these types (undefined: unknown, no cascading errors on its uses). */
  define(types: (Type | undefined)[]): void;
  /** Every operand of these segments is an index or integer value. */
  expectIndexOperands(segments: string[]): void;
  /**
   * The value of an operand that an integer `arith.constant` of this function defines, or the address of a pointer
   * that `pto.castptr` makes from one.
   */
  constant(operandIndex: number): bigint | undefined;
  /** Records the integer value the op's (single) result has, for rules on static operands. */
  recordConstant(value: bigint): void;
  /** The definition of another op (the registry's), for rules that ask what a neighbouring or enclosing op is. */
  definitionOf(op: OpNode): OpDefinition | undefined;
  /** The byte address (in its tile's buffer) of a tile operand that `alloc_tile addr = %c` places at a constant. */
  placement(operandIndex: number): bigint | undefined;
  /** Records the constant byte address of the op's (single) tile result. */
  recordPlacement(byte: bigint): void;
  /**
   * The function a symbol names: `symbol`, the function of that name in the caller's module (calls may precede
   * their callee), and `definition`, the body it runs: itself, or for a declaration or a name the module does not
   * hold, the one public definition of that name in another module (PTOAS links its child modules).
   */
  callee(name: string): { symbol?: OpNode; definition?: OpNode } | undefined;
  /** A block of the region this op is in, by label (`^bb1`): its index, and its arguments' types. */
  successor(label: string): { index: number; argTypes: (Type | undefined)[] } | undefined;
  /** Every function of the module (nested modules included), for rules that relate functions (a pipe's two ends). */
  functions(): OpNode[];
  /**
   * The function a `peer_func` names, as PTOAS finds it: in the current function's module, else the one public
   * function of that name in the module around it (a sibling module of another backend).
   */
  peerFunction(name: string): OpNode | undefined;
  /**
   * The kind of core the op's code is for: an enclosing section's (`pto.section.cube`), else its function's
   * `pto.kernel_kind`; `any` in a tile-op helper function (`pto.tileop.helper`), which either kind calls;
   * undefined when nothing says.
   */
  coreKind(): CoreKind | 'any' | undefined;
  /**
   * Verifies a region of the op in a new scope. Its blocks' arguments are typed as written; `untyped` gives the
   * types of entry-block arguments written without one (a loop's induction variable).
   */
  region(region: Region, untyped?: Type[]): void;
  /** Records what an instruction bound to (its operands by spec name), for the VM and the transforms. */
  recordInstruction(bound: BoundInstruction): void;
  /** Records a verified synchronization op. */
  recordSync(verified: VerifiedSyncOp): void;
  /**
   * Records what the op's attributes decode to (a constant's value, a predicate, a parsed affine map, a callee),
   * decoded once here so that the VM and the passes read it from the bound op (`decided(op)`), typed by the
   * definition that wrote it.
   */
  decide(decoded: unknown): void;
  /**
   * The op's result `index` is declared with an old spelling of `canonical`: its type (and every use of the value
   * written with the same old text) means `canonical` from here on. Returns the resolved type.
   */
  respellResult(index: number, canonical: string): Type | undefined;
}

/** How the VM orders and rounds: as the NPU does, or as pto-isa's CPU simulator does. */
export type NumericsProfile = 'npu' | 'cpu-sim';

/**
 * Which of PTOAS's back ends the run follows where they differ (`ptoas --pto-backend`): `emitc` compiles tile ops
 * to pto-isa's C++ library (its manual's semantics), `vpto` expands them through PTOAS's TileLang templates
 * (lib/TileOps/a5), which read a row-major per-row operand's first column and pad with the finite extremes.
 */
export type CodeBackend = 'emitc' | 'vpto';

/** Which core of a launch runs: pto.get_block_idx and friends read it. */
export interface CoreIndex {
  block: number;
  blocks: number;
  subblock: number;
  subblocks: number;
  /**
   * In a launch of a mixed kernel (code for both kinds of core), the kind of this core: it runs only the code for
   * its kind (sections, `pto.kernel_kind` functions) and the code for either. Undefined: every core runs all code.
   */
  kind?: CoreKind;
  /** Which device of a multi-device run (`pto-vm --ranks`); rank 0 of 1 by default. */
  rank: number;
  ranks: number;
}

/**
 * What a core waits for at an op that can block: the scheduler (src/vm/scheduler.ts) runs the core again only once
 * `ready()` holds; `what` says what it waits for (a deadlock report names it).
 */
export interface Wait {
  readonly what: string;
  ready(): boolean;
}

/** The run of an op that may have to wait for another core: each `yield` hands the scheduler what it waits for. */
export type Execution = Generator<Wait, void, void>;

/** A region's run that may wait for another core: what its terminator hands back, once it ends. */
export type RegionExecution = Generator<Wait, Value[], void>;

/**
 * What a core has seen of every core's work (a vector clock, one counter per core of the run): an access
 * happens-before another exactly when the first core's counter at the access is covered by the second's clock.
 */
export type HappensBefore = readonly number[];

/** Where state shared between cores lives: one launch's cores (pipes, flags), or every rank of the run (comm). */
export type SharedScope = 'launch' | 'world';

/** What an op's `execute` sees: the values of the running function's frame and the machine. */
export interface Executor {
  readonly target: TargetName;
  /** Whether instructions may run the WebAssembly kernels (RunOptions.fastPaths). */
  readonly vectorKernels: boolean;
  readonly numerics: NumericsProfile;
  readonly backend: CodeBackend;
  readonly memory: OnChipMemory;
  readonly core: CoreIndex;
  /** The value of operand `i` of `op` (a trap if it has none, which verification rules out). */
  operand(op: BoundOp, i: number): Value;
  /** An integer (index, iN) operand. */
  int(op: BoundOp, i: number): bigint;
  /** An index operand as a JavaScript number. */
  index(op: BoundOp, i: number): number;
  /** A floating-point operand. */
  float(op: BoundOp, i: number): number;
  /** The value in a slot of the running frame. */
  slot(slot: number): Value | undefined;
  setResults(op: BoundOp, values: Value[]): void;
  /** Binds another value to a slot of the running frame (an op that moves a tile operand: pto.tget_scale_addr). */
  rebindSlot(slot: number, value: Value): void;
  /**
   * Runs a region's entry block with these block arguments; its result is the values its terminator hands back.
   * A generator, since the region's ops may wait for another core: run it with `yield*`.
   */
  runRegion(region: BoundRegion, args: Value[]): RegionExecution;
  /** Counts one more step of a loop (`--max-steps` bounds runaway loops). */
  step(op: BoundOp): void;
  /**
   * An executor of the same core whose frame is a copy of this one's: a SIMT thread (src/micro/run/simt.ts), with
   * registers of its own and the core's memory. Its runs can be interleaved with this executor's.
   */
  fork(): Executor;
  /**
   * Runs a function of the program (its op, or the name of one with no definition) with these arguments; its
   * result is the function's results. A generator (its ops may wait): run it with `yield*`.
   */
  call(op: BoundOp, callee: OpNode | string, args: Value[]): RegionExecution;
  /** Storage that belongs to an op (an allocation): made the first time it runs and the same on later runs. */
  storage<T extends Value>(op: BoundOp, key: string, make: () => T): T;
  /**
   * Appends the text (made only when it is kept) to what the program printed; past this core's print buffer
   * (LIMITS.printBuffer) it is left out, with a warning at `op`.
   */
  print(op: BoundOp, text: () => string): void;
  /** A one-time note (a numerics approximation) that does not stop the run. */
  note(message: string): void;
  /**
   * A located warning that does not stop the run (the program does something the hardware lets pass but is likely
   * a mistake): reported once per op and kind, at `span` (the op by default).
   */
  warn(op: BoundOp, message: string, kind: DiagnosticKind, span?: Span): void;
  /** Tells the synchronization checker that an instruction runs, touching these operands. */
  observeInstruction(op: BoundOp, objects: Map<string, Value>): void;
  /** Tells the synchronization checker that a sync op runs (`id`: its event id when given at run time). */
  observeSync(op: BoundOp, id?: number): void;
  /**
   * State shared with the other cores of the launch (`launch`) or with every core of every rank (`world`), made by
   * `make` the first time any of them asks for `key`.
   */
  shared<T>(scope: SharedScope, key: string, make: () => T): T;
  /**
   * This core's clock as it hands something to another core (a pushed slot, a set flag): the receiver `acquire`s
   * it, so that what this core did before happens-before what the receiver does after.
   */
  release(): HappensBefore;
  /** Takes in what another core `release`d: its work so far happens-before this core's work from now on. */
  acquire(clock: HappensBefore): void;
}
