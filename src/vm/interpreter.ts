import { LocatedError } from '../diag/located-error';
import { DIAGNOSTICS, DiagnosticKind } from '../diag/catalog';
import { LIMITS } from '../diag/limits';
import { OpNode, attrOf } from '../syntax/ast';
import { TypeTable } from '../syntax/type-table';
import { isa } from '../spec/isa';
import { Program } from '../ir/program';
import { BoundBlock, BoundFunction, BoundOp, BoundRegion } from '../ir/bound';
import { CodeBackend, CoreIndex, CoreKind, Executor, HappensBefore, NumericsProfile, RegionExecution, SharedScope, Wait } from '../ir/definition';
import { Span } from '../diag/source';
import { runCores } from './scheduler';
import { GlobalBuffer, OnChipMemory, Tile, TileContents } from '../machine/memory';
import { vmTrap } from '../machine/trap';
import { Value } from '../machine/value';
import { TargetName } from '../spec/schema';
import { SyncFinding, SyncTracker } from './sync/tracker';
import { CrossCoreRaces } from './sync/cross-core';
import { WaitAnalysis } from './waits';
import type { RunObserver } from './observer';
import { coreMemoryKey } from '../micro/run/acc-store';

export type { Value } from '../machine/value';
export type { CoreIndex } from '../ir/definition';

export interface RunOptions {
  numerics: NumericsProfile;
  /** Default: the module's `pto.backend`, else emitc (PTOAS's order). */
  backend?: CodeBackend;
  /** Bounds each core's executed ops. */
  maxSteps: number;
  /** Which core this run is: pto.get_block_idx and friends read it. One block, one sub-block by default. */
  core?: CoreIndex;
  /** Runs another legal interleaving of the cores (a seeded choice at each op that can block); none: round robin. */
  scheduleSeed?: number;
  /**
   * Which fast paths instructions may take (default true: all): `javascript` the typed-array loops but not the
   * WebAssembly kernels, false none (every element goes through the general definitions). The tests run each way
   * and compare the results bit for bit.
   */
  fastPaths?: boolean | 'javascript';
  /** Whether synchronization is checked (default true): false runs without the pipe and cross-core checkers. */
  syncCheck?: boolean;
  /** When the run must stop (`Date.now()` milliseconds; `--timeout`), checked every few hundred steps. */
  deadline?: number;
  /** Told of every instruction and sync op as it runs, by core (the timing model of --profile); results are unchanged. */
  observer?: RunObserver;
  /**
   * Told after each op has run (not a terminator), with its operands' values and the core's on-chip memory: pto-vm
   * check-lowering finds there which op last wrote each byte (src/expand/provenance.ts). Unset in plain runs.
   */
  afterOp?: (op: OpNode, operands: () => (Value | undefined)[], memory: OnChipMemory) => void;
}

export interface RunResult {
  steps: number;
  notes: string[];
  /** What the program printed (pto.tprint), in the order the cores printed it. */
  printed: string[];
  /** Synchronization problems found while running (missing flags, unsynchronized pipe dependencies). */
  sync: SyncFinding[];
  /** Other located warnings of the run (a partition past its view's extent), once per op. */
  warnings: RunWarning[];
  /** How many cores ran (every rank's). */
  cores: number;
}

/** A located warning of a run, with its catalog kind. */
export type RunWarning = SyncFinding & { kind: DiagnosticKind };

/** The shape of a launch: how many blocks, and per block how many vector cores (sub-blocks). */
export interface LaunchShape {
  blocks: number;
  /** Undefined: 2 for a mixed kernel (each cube core pairs with two vector cores), else 1. */
  subblocks?: number;
}

/**
 * Runs a kernel on a launch of blocks x subblocks cores sharing the global buffers, each core with its own on-chip
 * memory. A mixed kernel (code for both kinds of core: sections, `pto.kernel_kind` functions) gets per block a cube
 * core and its vector cores, each running the code of its kind. The cores run concurrently under a deterministic
 * cooperative scheduler (src/vm/scheduler.ts): a core that waits for another (an empty pipe, a flag) lets the others
 * run; cores that never wait run one after another in block order. --max-steps bounds each core.
 */
export function runLaunch(
  program: Program,
  types: TypeTable,
  fn: OpNode,
  args: Map<string, Value>,
  options: RunOptions,
  blocks: number,
  subblocks?: number,
): RunResult {
  return runRanks(program, types, fn, [args], options, { blocks, subblocks });
}

/**
 * Runs a kernel on `perRank.length` devices (ranks), each with its own global buffers (its argument map) and its
 * own launch of `shape`; every core of every rank runs under one scheduler, so that ranks can exchange data.
 */
export function runRanks(program: Program, _types: TypeTable, fn: OpNode, perRank: Map<string, Value>[], options: RunOptions, shape: LaunchShape): RunResult {
  const plan = planLaunch(program, fn, perRank, shape);
  const { cores, labels } = plan;
  const world = new RunState(cores.length);
  const launches = perRank.map(() => new Map<string, unknown>());
  const interpreters = cores.map((core, id) => new Interpreter(program, { ...options, core }, world, launches[core.rank], id));
  options.observer?.launch?.(cores);
  // A core may write into another core's on-chip memory (the cube's FIXPIPE store into a vector core's UB,
  // pto.mte_l0c_ub, src/micro/run/acc-store.ts): each core's memory is launch state under coreMemoryKey.
  interpreters.forEach((x, i) => launches[cores[i].rank].set(coreMemoryKey(cores[i]), x.memory));
  // Races between cores are looked for only when there are several (a single core pays nothing).
  const races = cores.length > 1 && options.syncCheck !== false ? new CrossCoreRaces(world.clocks, labels) : undefined;
  world.races = races;
  const buffers = races ? globalBuffersOf(perRank) : [];
  for (const b of buffers) b.observer = races;
  try {
    runCores(
      interpreters.map((x, i) => ({
        label: labels[i],
        run: labelled(observed(x.run(plan.kernels[i], plan.args[i]), races, i), cores.length > 1 ? labels[i] : undefined),
        at: () => x.waitingAt(),
      })),
      options.scheduleSeed,
    );
  } catch (e) {
    // A trap often follows from what a warning saw (a partition past its view, then a load past the buffer).
    if (e instanceof LocatedError) throw withWarnings(e, mergedWarnings(interpreters));
    throw e;
  } finally {
    for (const b of buffers) b.observer = undefined;
  }
  const total: RunResult = { steps: 0, notes: [], printed: world.printed, sync: [], warnings: mergedWarnings(interpreters), cores: cores.length };
  for (const x of interpreters) {
    const result = x.result();
    total.steps += result.steps;
    for (const note of result.notes) if (!total.notes.includes(note)) total.notes.push(note);
    total.sync.push(...result.sync);
  }
  if (races) total.sync.push(...races.findings);
  return total;
}

/**
 * A launch's cores in the scheduler's order, each with its label, the kernel it runs and that kernel's arguments:
 * what runRanks runs, and what src/vm/parallel runs on several threads when no core can wait for another.
 */
export interface LaunchPlan {
  cores: CoreIndex[];
  labels: string[];
  kernels: OpNode[];
  args: Map<string, Value>[];
}

/** The cores of a launch of `shape` on every rank (a trap when a peer kernel lacks an argument). */
export function planLaunch(program: Program, fn: OpNode, perRank: Map<string, Value>[], shape: LaunchShape): LaunchPlan {
  const { cores, labels, kernels } = launchCores(program, fn, perRank.length, shape);
  const args = cores.map((core, i) => argumentsFor(fn, kernels[i], perRank[core.rank], core));
  return { cores, labels, kernels, args };
}

/** A launch's cores, their labels and the kernel each runs: what a plan is before the arguments are bound. */
function launchCores(program: Program, fn: OpNode, ranks: number, shape: LaunchShape): Omit<LaunchPlan, 'args'> {
  const kinds = kindsReachedFrom(program, fn);
  // A kernel for one kind of core whose pipes name a kernel for the other (a pair PTOAS compiles together, the runtime
  // launching one on the cube cores and the other on the vector cores, with the same arguments).
  const peer = kinds.size === 1 ? peerKernel(program, fn) : undefined;
  const mixed = (kinds.has('cube') && kinds.has('vector')) || peer !== undefined;
  const kernelFor = (kind: CoreKind | undefined): OpNode => (peer && kind && program.bound.functions.get(fn)?.kind !== kind ? peer : fn);
  const subblocks = shape.subblocks ?? (mixed ? 2 : 1);
  const count = ranks * shape.blocks * (subblocks + (mixed ? 1 : 0));
  if (count > LIMITS.cores.value)
    throw new LocatedError(DIAGNOSTICS.limit, `this launch makes ${count} cores, more than the VM runs (${LIMITS.cores.value})`, fn.nameSpan);
  const cores: CoreIndex[] = [];
  for (let rank = 0; rank < ranks; rank++)
    for (let block = 0; block < shape.blocks; block++) {
      const core = { block, blocks: shape.blocks, subblocks, rank, ranks };
      if (mixed) cores.push({ ...core, subblock: 0, kind: 'cube' });
      for (let subblock = 0; subblock < subblocks; subblock++) cores.push({ ...core, subblock, ...(mixed ? { kind: 'vector' as const } : {}) });
    }
  const labels = cores.map((core) => coreLabel(core, { ranks, blocks: shape.blocks, subblocks, mixed }));
  const kernels = cores.map((core) => kernelFor(core.kind));
  return { cores, labels, kernels };
}

/** Whether some core of the launch runs code that can wait for another core (then only the scheduler can run it). */
export function launchCanWait(program: Program, plan: Pick<LaunchPlan, 'kernels'>): boolean {
  const waits = new WaitAnalysis(program);
  return [...new Set(plan.kernels)].some((kernel) => {
    const bound = program.bound.functions.get(kernel);
    return bound === undefined || waits.function(bound);
  });
}

/**
 * How many cores a launch of `fn` on `ranks` ranks can run apart (on threads of their own), known before its
 * arguments are bound: 0 when it has one core or a core can wait for another (or it cannot be planned).
 */
export function coresRunApart(program: Program, fn: OpNode, ranks: number, shape: LaunchShape): number {
  let plan: Omit<LaunchPlan, 'args'>;
  try {
    plan = launchCores(program, fn, ranks, shape);
  } catch {
    return 0;
  }
  return plan.cores.length < 2 || launchCanWait(program, plan) ? 0 : plan.cores.length;
}

/** How one core of a launch ended when it ran alone: its result, or the trap that stopped it and its warnings by then. */
export type AloneOutcome = { result: RunResult } | { trap: LocatedError; warnings: RunWarning[] };

/**
 * Runs core `i` of a launch by itself, to its end, as runRanks would run it between the other cores of a launch whose
 * cores cannot wait (launchCanWait): the same options, label and arguments. `shared` is called where the core reaches
 * state it would share with other cores (a flag, a pipe, a signal, a clock) and must throw: a core alone has none.
 * A trap is returned with the core's label; any other error is thrown.
 */
export function runCoreAlone(program: Program, options: RunOptions, plan: LaunchPlan, i: number, shared: () => never): AloneOutcome {
  const world = new RunState(0);
  world.alone = shared;
  const x = new Interpreter(program, { ...options, core: plan.cores[i] }, world, new Map(), i);
  const run = labelled(x.run(plan.kernels[i], plan.args[i]), plan.cores.length > 1 ? plan.labels[i] : undefined);
  try {
    for (let step = run.next(); !step.done; step = run.next()) {
      if (!step.value.ready()) throw new Error(`${plan.labels[i]} waits (${step.value.what}) in a launch run without the scheduler`);
    }
  } catch (e) {
    if (e instanceof LocatedError) return { trap: e, warnings: x.warningsSoFar() };
    throw e;
  }
  return { result: { ...x.result(), printed: world.printed } };
}

/** The global buffers the arguments of a run reach (a buffer, or a pointer or view into one). */
function globalBuffersOf(perRank: Map<string, Value>[]): GlobalBuffer[] {
  const found = new Set<GlobalBuffer>();
  for (const args of perRank)
    for (const v of args.values()) {
      if (v instanceof GlobalBuffer) found.add(v);
      else if (typeof v === 'object' && 'buffer' in v && v.buffer instanceof GlobalBuffer) found.add(v.buffer);
    }
  return [...found];
}

/** A core's run that tells the race checker which core runs each time the scheduler resumes it. */
function* observed(run: Generator<Wait, void, void>, races: CrossCoreRaces | undefined, id: number): Generator<Wait, void, void> {
  if (!races) return yield* run;
  for (;;) {
    races.switchTo(id);
    const step = run.next();
    if (step.done) return;
    yield step.value;
  }
}

/** Executes one function of a verified program on one core. Arguments are bound by name (`%arg0`). */
export function runFunction(program: Program, types: TypeTable, fn: OpNode, args: Map<string, Value>, options: RunOptions): RunResult {
  const core = options.core;
  if (!core) return runLaunch(program, types, fn, args, options, 1, 1);
  const world = new RunState(1);
  const x = new Interpreter(program, options, world, new Map(), 0);
  runCores(
    [{ label: coreLabel(core, { ranks: 1, blocks: 1, subblocks: 1, mixed: false }), run: x.run(fn, args), at: () => x.waitingAt() }],
    options.scheduleSeed,
  );
  return { ...x.result(), printed: world.printed };
}

/** Every core of a launch runs the same code: one warning per op and kind, whichever core found it first. */
function mergedWarnings(interpreters: Interpreter[]): RunWarning[] {
  return mergeWarnings(interpreters.map((x) => x.warningsSoFar()));
}

/** The warnings of each core of a launch, in the order of the cores, merged: one per op and kind, the first found. */
export function mergeWarnings(perCore: RunWarning[][]): RunWarning[] {
  const merged = new Map<string, RunWarning>();
  for (const warnings of perCore)
    for (const w of warnings) {
      const key = `${w.span.start}:${w.kind.code}`;
      if (!merged.has(key)) merged.set(key, w);
    }
  return [...merged.values()];
}

/** The error with the run's warnings so far as notes where they were found. */
export function withWarnings(e: LocatedError, warnings: RunWarning[]): LocatedError {
  if (warnings.length === 0) return e;
  const notes = warnings.map((w) => ({ message: `before this: warning[${w.kind.code}]: ${w.message}`, span: w.span }));
  return new LocatedError(e.kind, e.message, e.span, [...(e.notes ?? []), ...notes]);
}

/** How reports name a core: `block 1, sub-block 0`, `block 0, cube`, `rank 1, block 0, vector 1`; only the parts that vary. */
function coreLabel(core: CoreIndex, launch: { ranks: number; blocks: number; subblocks: number; mixed: boolean }): string {
  const parts: string[] = [];
  if (launch.ranks > 1) parts.push(`rank ${core.rank}`);
  parts.push(`block ${core.block}`);
  if (core.kind === 'cube') parts.push('cube');
  else if (core.kind === 'vector') parts.push(launch.subblocks > 1 ? `vector ${core.subblock}` : 'vector');
  else if (launch.subblocks > 1) parts.push(`sub-block ${core.subblock}`);
  return parts.join(', ');
}

/** A core's run whose errors name the core (when the run has several). */
function* labelled(run: Generator<Wait, void, void>, label: string | undefined): Generator<Wait, void, void> {
  try {
    yield* run;
  } catch (e) {
    if (!label || !(e instanceof LocatedError)) throw e;
    throw new LocatedError(e.kind, `${label}: ${e.message}`, e.span, e.notes);
  }
}

/** The function a call op runs: a call decides the function it calls (any other op's decision is no function). */
function calleeOf(program: Program, op: BoundOp): BoundFunction | undefined {
  return typeof op.decoded === 'object' ? program.bound.functions.get(op.decoded as OpNode) : undefined;
}

/** Every function some op of the program calls (the others are the program's kernels). */
export function calledFunctions(program: Program): Set<OpNode> {
  const called = new Set<OpNode>();
  const visit = (region: BoundRegion) => {
    for (const block of region.blocks)
      for (const op of block.ops) {
        const callee = calleeOf(program, op);
        if (callee) called.add(callee.node);
        op.regions.forEach(visit);
      }
  };
  for (const f of program.bound.functions.values()) if (f.body) visit(f.body);
  return called;
}

/**
 * The kernel for the other kind of core that `fn`'s pipes are joined to: a function of the other `pto.kernel_kind`
 * that one of them names as its `peer_func` (the buffer one reserves and the other imports).
 */
export function peerKernel(program: Program, fn: OpNode): OpNode | undefined {
  const kind = program.bound.functions.get(fn)?.kind;
  if (!kind) return undefined;
  const bySymbol = new Map([...program.bound.functions.keys()].map((f) => [f.symbol, f]));
  const peersNamed = (f: OpNode): OpNode[] => {
    const named: OpNode[] = [];
    const walk = (ops: OpNode[]) => {
      for (const op of ops) {
        const peer = attrOf(op, 'peer_func');
        const target = peer?.kind === 'symbol' ? bySymbol.get(peer.name) : undefined;
        if (target) named.push(target);
        for (const r of op.regions) for (const b of r.blocks) walk(b.ops);
      }
    };
    for (const r of f.regions) for (const b of r.blocks) walk(b.ops);
    return named;
  };
  const otherKind = (f: OpNode) => {
    const k = program.bound.functions.get(f)?.kind;
    return k !== undefined && k !== kind;
  };
  const candidates = new Set([...peersNamed(fn).filter(otherKind), ...[...bySymbol.values()].filter((f) => otherKind(f) && peersNamed(f).includes(fn))]);
  return candidates.size === 1 ? [...candidates][0] : undefined;
}

/**
 * pypto's SPMD launch scalars, which its runtime passes each core of a launch: a peer kernel's parameter of one of
 * these names that the entry lacks gets the core's own value.
 */
const LAUNCH_SCALARS: Record<string, (core: CoreIndex) => number> = {
  '%__pypto_spmd_block_idx': (core) => core.block,
  '%__pypto_spmd_block_num': (core) => core.blocks,
  '%__pypto_spmd_subblock_idx': (core) => core.subblock,
};

/** Whether a parameter is one of pypto's launch scalars, which the launch binds per core when the user does not. */
export function isLaunchScalar(name: string): boolean {
  return Object.hasOwn(LAUNCH_SCALARS, name);
}

/**
 * The peer kernel's arguments: the entry's argument of the same name, else of the same position (the runtime passes
 * both kernels the same ones); a launch scalar the entry lacks is the core's own. The entry's own launch scalars
 * left unbound (pto-vm run without --arg for them) are the core's too.
 */
function argumentsFor(entry: OpNode, kernel: OpNode, args: Map<string, Value>, core: CoreIndex): Map<string, Value> {
  const names = (f: OpNode) => f.regions[0]?.blocks[0]?.args.map((a) => a.name) ?? [];
  const unbound = names(entry).filter((name) => !args.has(name) && isLaunchScalar(name));
  if (unbound.length > 0) args = new Map([...args, ...unbound.map((name): [string, Value] => [name, BigInt(LAUNCH_SCALARS[name](core))])]);
  if (kernel === entry) return args;
  const from = names(entry);
  const mapped = new Map<string, Value>();
  names(kernel).forEach((name, i) => {
    const launch = LAUNCH_SCALARS[name];
    const v = from.includes(name) ? args.get(name) : launch ? BigInt(launch(core)) : from[i] !== undefined ? args.get(from[i]) : undefined;
    if (v === undefined) throw vmTrap(`@${kernel.symbol} (the peer kernel of @${entry.symbol}) has no argument for its parameter ${name}`, kernel.span);
    mapped.set(name, v);
  });
  return mapped;
}

/** The kinds of core whose code a function reaches: its own kind, its sections', its callees' (transitively). */
function kindsReachedFrom(program: Program, fn: OpNode): Set<CoreKind> {
  const kinds = new Set<CoreKind>();
  const seen = new Set<BoundFunction>();
  const visitFunction = (f: BoundFunction | undefined) => {
    if (!f || seen.has(f)) return;
    seen.add(f);
    if (f.kind) kinds.add(f.kind);
    if (f.body) visitRegion(f.body);
  };
  const visitRegion = (region: BoundRegion) => {
    for (const block of region.blocks)
      for (const op of block.ops) {
        const kind = op.def.properties?.coreKind;
        if (kind) kinds.add(kind);
        visitFunction(calleeOf(program, op));
        for (const r of op.regions) visitRegion(r);
      }
  };
  visitFunction(program.bound.functions.get(fn));
  return kinds;
}

/**
 * What every core of a run shares: what was printed, in order, the vector clocks (one per core) and the race
 * checker (when several cores run). A core's own entry starts at 1, so that its first accesses are covered by no
 * other core's clock (whose entry for it starts at 0) until it releases them.
 */
class RunState {
  readonly printed: string[] = [];
  readonly shared = new Map<string, unknown>();
  readonly clocks: number[][];
  races?: CrossCoreRaces;
  /** Set when a core runs alone (runCoreAlone): called where the core would reach state shared with other cores. */
  alone?: () => never;
  constructor(cores: number) {
    this.clocks = Array.from({ length: cores }, (_, i) => Array.from({ length: cores }, (_, j) => (i === j ? 1 : 0)));
  }
}

const MAX_CALL_DEPTH = 64;
/** Work between two readings of the clock for `--timeout` (Interpreter.step). */
const CLOCK_EVERY = 256;
const INSTRUCTION_WORK = 16;

/** A generator that has already finished with its value (what yield* of a region that ran straight through gets). */
class Finished<T> implements Generator<Wait, T, void> {
  private readonly done: IteratorReturnResult<T>;
  constructor(value: T) {
    this.done = { done: true, value };
  }
  next(): IteratorReturnResult<T> {
    return this.done;
  }
  return(): IteratorReturnResult<T> {
    return this.done;
  }
  throw(e: unknown): never {
    throw e;
  }
  [Symbol.iterator](): Generator<Wait, T, void> {
    return this;
  }
}

const finished = <T>(value: T): Generator<Wait, T, void> => new Finished(value);

/**
 * Runs an op's generator in code that cannot wait (WaitAnalysis): whatever it yields is ready at once. A wait that
 * is not would be a wrong analysis, reported as the internal error it is rather than run on.
 */
function runToEnd(execution: Generator<Wait, void, void>, op: BoundOp): void {
  for (let step = execution.next(); !step.done; step = execution.next()) {
    if (!step.value.ready()) throw new Error(`${op.node.name} waits (${step.value.what}) in code the VM runs without the scheduler`);
  }
}

/** How a block ended: the values its terminator hands back, or the block it branches to. */
type BlockEnd = { values?: Value[]; branch?: { block: number; args: Value[] } };

class ReturnSignal {
  constructor(readonly values: Value[]) {}
}

/**
 * The VM's driver over the bound IR for one core: a frame of values per function call, ops run by their definitions
 * (src/ops/registry.ts), terminators handing values back to the op that owns their region. The walk is a generator
 * so that an op that waits for another core can hand control to the scheduler in the middle of a region.
 */
class Interpreter implements Executor {
  readonly memory: OnChipMemory;
  readonly core: CoreIndex;
  readonly numerics: NumericsProfile;
  readonly backend: CodeBackend;
  readonly target: TargetName;
  readonly vectorKernels: boolean;
  /** The values of the running function's SSA slots. */
  private frame: Value[] = [];
  /** Storage is static per op: an allocation (or a Level 1 result) in a loop reuses its tile each iteration. */
  private readonly storages = new Map<BoundOp, Map<string, Value>>();
  private steps = 0;
  /** Work since the clock was last read (CLOCK_EVERY): a step, or INSTRUCTION_WORK for a tile instruction. */
  private sinceClock = 0;
  /** How deep func.call has nested. */
  private depth = 0;
  private readonly notes: string[] = [];
  /** What this core printed so far (LIMITS.printBuffer). */
  private printedChars = 0;
  private readonly warnings = new Map<string, RunWarning>();
  private readonly sync: SyncTracker;
  /** The op that can wait which this core runs last (where it waits when it yields). */
  private waiting?: BoundOp;
  /** The op running now (its generator may resume later: nothing else of this core runs meanwhile). */
  private current?: BoundOp;
  /** Which regions and functions can wait: the others run without generators. */
  private readonly waits: WaitAnalysis;

  constructor(
    private readonly program: Program,
    private readonly options: RunOptions,
    private readonly world: RunState,
    private readonly launch: Map<string, unknown>,
    /** This core's index among every core of the run (its entry in the vector clocks). */
    private readonly id: number,
  ) {
    this.core = options.core ?? { block: 0, blocks: 1, subblock: 0, subblocks: 1, rank: 0, ranks: 1 };
    this.numerics = options.numerics;
    this.backend = options.backend ?? program.backend ?? 'emitc';
    this.target = program.target;
    this.vectorKernels = (options.fastPaths ?? true) === true;
    this.memory = new OnChipMemory(isa(), program.target, (options.fastPaths ?? true) !== false, this.vectorKernels);
    this.sync = new SyncTracker(program);
    this.waits = new WaitAnalysis(program);
  }

  *run(node: OpNode, args: Map<string, Value>): Generator<Wait, void, void> {
    const fn = this.program.bound.functions.get(node);
    const body = fn?.body;
    if (!fn || !body) throw vmTrap(`function @${node.symbol} has no body`, node.span);
    this.frame = this.newFrame(fn);
    body.node.blocks[0].args.forEach((arg, i) => {
      const v = args.get(arg.name);
      if (v === undefined) throw vmTrap(`argument ${arg.name} is not bound`, arg.span);
      this.frame[fn.params[i]] = typeof v === 'object' && 'kind' in v && v.kind === 'tile_contents' ? this.tileArgument(fn, i, v) : v;
    });
    try {
      yield* this.runBlocks(body, 0);
    } catch (e) {
      if (!(e instanceof ReturnSignal)) throw e;
    }
  }

  result(): RunResult {
    return { steps: this.steps, notes: this.notes, printed: [], sync: this.sync.findings, warnings: this.warningsSoFar(), cores: 1 };
  }

  warningsSoFar(): RunWarning[] {
    return [...this.warnings.values()];
  }

  waitingAt(): { name: string; span: Span } | undefined {
    const op = this.waiting;
    return op && { name: op.node.name, span: op.node.span };
  }

  private newFrame(fn: BoundFunction): Value[] {
    const frame = new Array<Value>(fn.frameSize);
    for (const { slot, value } of fn.literals) frame[slot] = value;
    return frame;
  }

  /** A tile argument (a kernel handed a buffer on chip): placed like an allocation, holding the given bytes. */
  private tileArgument(fn: BoundFunction, index: number, contents: TileContents): Tile {
    const type = fn.paramTypes[index];
    const arg = fn.body!.node.blocks[0].args[index];
    if (type?.kind !== 'tile') throw vmTrap(`argument ${arg.name} is not a tile`, arg.span);
    const tile = this.memory.allocate(type, `argument ${arg.name}`, arg.span);
    tile.bytes.set(contents.bytes.subarray(0, tile.bytes.length));
    return tile;
  }

  /**
   * Runs a region from one of its blocks (whose arguments are set), following its branches from block to block;
   * its result is the operands of the terminator that leaves it (scf.yield / scf.condition), if one does.
   */
  private *runBlocks(region: BoundRegion, first: number): Generator<Wait, Value[] | undefined, void> {
    let block = region.blocks[first];
    for (;;) {
      const end = yield* this.runBlock(block);
      if (!end || !end.branch) return end?.values;
      block = this.enter(region, end.branch);
    }
  }

  /** Runs a block up to its terminator: the values it hands back, or the block it branches to. */
  private *runBlock(block: BoundBlock): Generator<Wait, BlockEnd | undefined, void> {
    for (const op of block.ops) {
      this.step(op);
      if (op.def.terminator) return this.end(op);
      const waits = this.execute(op);
      if (waits) {
        this.waiting = op;
        yield* waits;
      }
      this.options.afterOp?.(op.node, () => op.operands.map((_, i) => this.frame[op.operands[i]]), this.memory);
    }
    return undefined;
  }

  /** The block a branch goes to, its arguments set. */
  private enter(region: BoundRegion, branch: { block: number; args: Value[] }): BoundBlock {
    const block = region.blocks[branch.block];
    block.args.forEach((slot, i) => (this.frame[slot] = branch.args[i]));
    return block;
  }

  /** How a block ends at its terminator: the values it hands back, or the block it branches to (a return throws). */
  private end(op: BoundOp): BlockEnd {
    if (op.def.terminator === 'branch') return { branch: op.def.branch!(this, op) };
    const values = op.operands.map((_, i) => this.operand(op, i));
    if (op.def.terminator === 'return') throw new ReturnSignal(values);
    return { values };
  }

  /** Runs an op that is not a terminator: what it waits for, when it can wait. */
  private execute(op: BoundOp): void | Generator<Wait, void, void> {
    if (!op.def.execute) throw vmTrap(`${op.node.name} is not implemented yet`, op.node.nameSpan);
    this.world.races?.enter(this.id, op.node);
    // The op a release or an acquire belongs to, for the observer (which ops hand off between cores is theirs to say).
    this.current = op;
    const props = op.def.properties;
    if (this.options.observer?.microOp && (op.node.micro || props?.vecscopeInference === 'explicit-scope' || props?.controlFlow || props?.callsFunction))
      return this.observeMicro(op);
    return op.def.execute(this, op);
  }

  /** Runs a micro-level op, a control-flow op or a call under an observer that asked to see them (the timing model's vector functions). */
  private observeMicro(op: BoundOp): void | Generator<Wait, void, void> {
    const ran = this.options.observer!.microOp!(this.id, op, this);
    const run = op.def.execute!(this, op);
    if (!ran) return run;
    if (!run) return ran();
    return (function* () {
      yield* run;
      ran();
    })();
  }

  step(op: BoundOp): void {
    if (++this.steps > this.options.maxSteps) throw vmTrap(`stopped after ${this.options.maxSteps} steps (--max-steps)`, op.node.nameSpan);
    // The clock is read every 256 units of work: a scalar op is one, a tile instruction (up to a few ms: a matmul of
    // a whole L0 buffer) sixteen, so a run of heavy instructions stops within a fraction of a second of its time.
    this.sinceClock += op.instruction ? INSTRUCTION_WORK : 1;
    if (this.sinceClock >= CLOCK_EVERY) {
      this.sinceClock = 0;
      if (this.options.deadline !== undefined && Date.now() > this.options.deadline)
        throw vmTrap(`stopped after the run's time limit, at step ${this.steps} of this core (--timeout)`, op.node.nameSpan);
    }
  }

  fork(): Executor {
    // Everything but the frame is read through the prototype: the core's memory, options and run state are shared.
    const thread = Object.create(this) as Interpreter;
    thread.frame = this.frame.slice();
    // The step count and the clock's work are the core's: `--max-steps` and `--timeout` bound all its threads together.
    for (const key of ['steps', 'sinceClock'] as const) Object.defineProperty(thread, key, { get: () => this[key], set: (v: number) => (this[key] = v) });
    return thread;
  }

  runRegion(region: BoundRegion, args: Value[]): RegionExecution {
    const entry = region.blocks[0].args;
    for (let i = 0; i < entry.length; i++) this.frame[entry[i]] = args[i];
    // A region that cannot wait runs now, straight through; its generator only hands back the result.
    if (!this.waits.region(region)) return finished(this.runBlocksNow(region, 0) ?? []);
    return this.runBlocksWaiting(region);
  }

  private *runBlocksWaiting(region: BoundRegion): RegionExecution {
    return (yield* this.runBlocks(region, 0)) ?? [];
  }

  /** runBlocks for a region that cannot wait: the same walk as plain calls. */
  private runBlocksNow(region: BoundRegion, first: number): Value[] | undefined {
    let block = region.blocks[first];
    for (;;) {
      const end = this.runBlockNow(block);
      if (!end || !end.branch) return end?.values;
      block = this.enter(region, end.branch);
    }
  }

  /** runBlock for a block that cannot wait: an op's generator (a region op's) runs to its end at once. */
  private runBlockNow(block: BoundBlock): BlockEnd | undefined {
    const ops = block.ops;
    for (let k = 0; k < ops.length; k++) {
      const op = ops[k];
      this.step(op);
      if (op.def.terminator) return this.end(op);
      const waits = this.execute(op);
      if (waits) runToEnd(waits, op);
      this.options.afterOp?.(op.node, () => op.operands.map((_, i) => this.frame[op.operands[i]]), this.memory);
    }
    return undefined;
  }

  operand(op: BoundOp, i: number): Value {
    const v = this.frame[op.operands[i]];
    if (v === undefined) {
      const o = op.node.operands[i];
      const ref = o.value;
      const key = ref ? (ref.index !== undefined ? `${ref.name}#${ref.index}` : ref.name) : String(o.literal);
      throw vmTrap(`${key} has no value here`, o.span);
    }
    return v;
  }

  slot(slot: number): Value | undefined {
    return this.frame[slot];
  }

  int(op: BoundOp, i: number): bigint {
    const v = this.operand(op, i);
    if (typeof v !== 'bigint') throw vmTrap('expected an integer value', op.node.operands[i].span);
    return v;
  }

  index(op: BoundOp, i: number): number {
    return Number(this.int(op, i));
  }

  float(op: BoundOp, i: number): number {
    const v = this.operand(op, i);
    if (typeof v !== 'number') throw vmTrap('expected a floating-point value', op.node.operands[i].span);
    return v;
  }

  setResults(op: BoundOp, values: Value[]): void {
    op.results.forEach((slot, k) => (this.frame[slot] = values[k]));
  }

  rebindSlot(slot: number, value: Value): void {
    this.frame[slot] = value;
  }

  /**
   * `func.call @f(%a, ...)`: runs @f's body in a frame of its own; tiles and memory are shared. In a mixed kernel's
   * launch a core skips a function for the other kind of core (PTOAS compiles it for that kind only).
   */
  *call(op: BoundOp, callee: OpNode | string, args: Value[]): RegionExecution {
    const fn = typeof callee === 'string' ? undefined : this.program.bound.functions.get(callee);
    if (!fn?.body) throw vmTrap(`func.call: no function @${typeof callee === 'string' ? callee : callee.symbol} with a body`, op.node.span);
    if (this.core.kind && fn.kind && fn.kind !== this.core.kind) return [];
    if (++this.depth > MAX_CALL_DEPTH) throw vmTrap(`func.call: calls nested deeper than ${MAX_CALL_DEPTH} (recursion?)`, op.node.span);
    const saved = this.frame;
    try {
      this.frame = this.newFrame(fn);
      fn.params.forEach((slot, i) => (this.frame[slot] = args[i]));
      if (this.waits.function(fn)) yield* this.runBlocks(fn.body, 0);
      else this.runBlocksNow(fn.body, 0);
      return [];
    } catch (e) {
      if (e instanceof ReturnSignal) return e.values;
      throw e;
    } finally {
      this.frame = saved;
      this.depth--;
    }
  }

  storage<T extends Value>(op: BoundOp, key: string, make: () => T): T {
    let byKey = this.storages.get(op);
    if (!byKey) this.storages.set(op, (byKey = new Map()));
    let value = byKey.get(key) as T | undefined;
    if (value === undefined) byKey.set(key, (value = make()));
    return value;
  }

  print(op: BoundOp, text: () => string): void {
    const room = LIMITS.printBuffer.value;
    if (this.printedChars >= room) {
      this.warn(op, `this core's print buffer of ${room} characters is full: this print and the core's later ones are left out`, DIAGNOSTICS.printLeftOut);
      return;
    }
    const s = text();
    this.printedChars += s.length;
    this.world.printed.push(s);
  }

  note(message: string): void {
    if (!this.notes.includes(message)) this.notes.push(message);
  }

  warn(op: BoundOp, message: string, kind: DiagnosticKind, span: Span = op.node.span): void {
    const key = `${span.start}:${kind.code}`;
    if (!this.warnings.has(key)) this.warnings.set(key, { message, span, kind });
  }

  observeInstruction(op: BoundOp, objects: Map<string, Value>): void {
    if (this.options.syncCheck !== false) this.sync.instruction(op.node, op.instruction!, objects);
    this.options.observer?.instruction(this.id, op, objects);
  }

  observeSync(op: BoundOp, id?: number): void {
    if (this.options.syncCheck !== false) this.sync.syncOp(op.node, id === undefined ? op.sync! : { ...op.sync!, id });
    this.options.observer?.sync(this.id, op, id);
  }

  shared<T>(scope: SharedScope, key: string, make: () => T): T {
    this.world.alone?.();
    const states = scope === 'launch' ? this.launch : this.world.shared;
    let state = states.get(key) as T | undefined;
    if (state === undefined) states.set(key, (state = make()));
    return state;
  }

  release(): HappensBefore {
    this.world.alone?.();
    // The accesses gathered so far happened at the epoch that ends here.
    this.world.races?.flush();
    const clock = this.world.clocks[this.id];
    const snapshot = clock.slice();
    clock[this.id]++;
    if (this.current) this.options.observer?.released?.(this.id, this.current, snapshot);
    return snapshot;
  }

  acquire(other: HappensBefore): void {
    this.world.alone?.();
    this.world.races?.flush();
    const clock = this.world.clocks[this.id];
    for (let i = 0; i < clock.length; i++) if (other[i] > clock[i]) clock[i] = other[i];
    if (this.current) this.options.observer?.acquired?.(this.id, this.current, other);
  }
}
