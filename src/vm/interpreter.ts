import { LocatedError } from '../diag/located-error';
import { OpNode } from '../syntax/ast';
import { TypeTable } from '../syntax/type-table';
import { isa } from '../spec/isa';
import { Program } from '../ir/program';
import { BoundBlock, BoundFunction, BoundOp, BoundRegion } from '../ir/bound';
import { CodeBackend, CoreIndex, Executor, NumericsProfile } from '../ir/definition';
import { OnChipMemory, Tile, TileContents } from '../machine/memory';
import { vmTrap } from '../machine/trap';
import { Value } from '../machine/value';
import { TargetName } from '../spec/schema';
import { SyncFinding, SyncTracker } from './sync/tracker';

export type { Value } from '../machine/value';
export type { CoreIndex } from '../ir/definition';

export interface RunOptions {
  numerics: NumericsProfile;
  /** Default: the module's `pto.backend`, else emitc (PTOAS's order). */
  backend?: CodeBackend;
  maxSteps: number;
  /** Which core this run is: pto.get_block_idx and friends read it. One block, one sub-block by default. */
  core?: CoreIndex;
}

export interface RunResult {
  steps: number;
  notes: string[];
  /** What the program printed (pto.tprint), in order. */
  printed: string[];
  /** Synchronization problems found while running (missing flags, unsynchronized pipe dependencies). */
  sync: SyncFinding[];
}

/**
 * Runs a kernel on blocks x subblocks cores, one core after another in index order (block-major), all sharing the
 * global buffers; each core has its own on-chip memory. Cores that wait for each other are not modelled: a kernel
 * that hands data between cores inside one launch sees every earlier core finished. --max-steps bounds each core.
 */
export function runLaunch(
  program: Program,
  types: TypeTable,
  fn: OpNode,
  args: Map<string, Value>,
  options: RunOptions,
  blocks: number,
  subblocks: number,
): RunResult {
  const total: RunResult = { steps: 0, notes: [], printed: [], sync: [] };
  for (let block = 0; block < blocks; block++) {
    for (let subblock = 0; subblock < subblocks; subblock++) {
      const core = { block, blocks, subblock, subblocks };
      let result: RunResult;
      try {
        result = runFunction(program, types, fn, args, { ...options, core });
      } catch (e) {
        if (!(e instanceof LocatedError) || blocks * subblocks === 1) throw e;
        throw vmTrap(`block ${block}${subblocks > 1 ? `, sub-block ${subblock}` : ''}: ${e.message}`, e.span);
      }
      total.steps += result.steps;
      for (const note of result.notes) if (!total.notes.includes(note)) total.notes.push(note);
      total.printed.push(...result.printed);
      total.sync.push(...result.sync);
    }
  }
  return total;
}

/** Executes one function of a verified program. Arguments are bound by name (`%arg0`). */
export function runFunction(program: Program, _types: TypeTable, fn: OpNode, args: Map<string, Value>, options: RunOptions): RunResult {
  return new Interpreter(program, options).run(fn, args);
}

const MAX_CALL_DEPTH = 64;

class ReturnSignal {
  constructor(readonly values: Value[]) {}
}

/**
 * The VM's driver over the bound IR: a frame of values per function call, ops run by their definitions
 * (src/ops/registry.ts), terminators handing values back to the op that owns their region.
 */
class Interpreter implements Executor {
  readonly memory: OnChipMemory;
  readonly core: CoreIndex;
  readonly numerics: NumericsProfile;
  readonly backend: CodeBackend;
  readonly target: TargetName;
  /** The values of the running function's SSA slots. */
  private frame: Value[] = [];
  /** Storage is static per op: an allocation (or a Level 1 result) in a loop reuses its tile each iteration. */
  private readonly storages = new Map<BoundOp, Map<string, Value>>();
  private steps = 0;
  /** How deep func.call has nested. */
  private depth = 0;
  private readonly notes: string[] = [];
  private readonly printed: string[] = [];
  private readonly sync: SyncTracker;

  constructor(
    private readonly program: Program,
    private readonly options: RunOptions,
  ) {
    this.core = options.core ?? { block: 0, blocks: 1, subblock: 0, subblocks: 1 };
    this.numerics = options.numerics;
    this.backend = options.backend ?? program.backend ?? 'emitc';
    this.target = program.target;
    this.memory = new OnChipMemory(isa(), program.target);
    this.sync = new SyncTracker(program);
  }

  run(node: OpNode, args: Map<string, Value>): RunResult {
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
      this.runBlocks(body, 0);
    } catch (e) {
      if (!(e instanceof ReturnSignal)) throw e;
    }
    return { steps: this.steps, notes: this.notes, printed: this.printed, sync: this.sync.findings };
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
   * returns the operands of the terminator that leaves it (scf.yield / scf.condition), if one does.
   */
  private runBlocks(region: BoundRegion, first: number): Value[] | undefined {
    let block = region.blocks[first];
    for (;;) {
      const end = this.runBlock(block);
      if (!end || !end.branch) return end?.values;
      block = region.blocks[end.branch.block];
      block.args.forEach((slot, i) => (this.frame[slot] = end.branch!.args[i]));
    }
  }

  /** Runs a block up to its terminator: the values it hands back, or the block it branches to. */
  private runBlock(block: BoundBlock): { values?: Value[]; branch?: { block: number; args: Value[] } } | undefined {
    for (const op of block.ops) {
      this.step(op);
      const terminator = op.def.terminator;
      if (terminator === 'branch') return { branch: op.def.branch!(this, op) };
      if (terminator) {
        const values = op.operands.map((_, i) => this.operand(op, i));
        if (terminator === 'return') throw new ReturnSignal(values);
        return { values };
      }
      if (!op.def.execute) throw vmTrap(`${op.node.name} is not implemented yet`, op.node.nameSpan);
      op.def.execute(this, op);
    }
    return undefined;
  }

  step(op: BoundOp): void {
    if (++this.steps > this.options.maxSteps) throw vmTrap(`stopped after ${this.options.maxSteps} steps (--max-steps)`, op.node.nameSpan);
  }

  runRegion(region: BoundRegion, args: Value[]): Value[] {
    region.blocks[0].args.forEach((slot, i) => (this.frame[slot] = args[i]));
    return this.runBlocks(region, 0) ?? [];
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

  /** `func.call @f(%a, ...)`: runs @f's body in a frame of its own; tiles and memory are shared. */
  call(op: BoundOp, callee: OpNode | string, args: Value[]): Value[] {
    const fn = typeof callee === 'string' ? undefined : this.program.bound.functions.get(callee);
    if (!fn?.body) throw vmTrap(`func.call: no function @${typeof callee === 'string' ? callee : callee.symbol} with a body`, op.node.span);
    if (++this.depth > MAX_CALL_DEPTH) throw vmTrap(`func.call: calls nested deeper than ${MAX_CALL_DEPTH} (recursion?)`, op.node.span);
    const saved = this.frame;
    try {
      this.frame = this.newFrame(fn);
      fn.params.forEach((slot, i) => (this.frame[slot] = args[i]));
      this.runBlocks(fn.body, 0);
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

  print(text: string): void {
    this.printed.push(text);
  }

  note(message: string): void {
    if (!this.notes.includes(message)) this.notes.push(message);
  }

  observeInstruction(op: BoundOp, objects: Map<string, Value>): void {
    this.sync.instruction(op.node, op.instruction!, objects);
  }

  observeSync(op: BoundOp, id?: number): void {
    this.sync.syncOp(op.node, id === undefined ? op.sync! : { ...op.sync!, id });
  }
}
