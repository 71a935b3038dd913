import { Attr, Block, BlockArg, OpNode, Operand, Region, attrOf, segment } from '../syntax/ast';
import { ElemType, TileType, Type, isFloat } from '../types/type';
import { TypeTable } from '../syntax/type-table';
import { Isa, isa } from '../spec/isa';
import { checkDimRule } from '../spec/valid';
import { BoundInstruction, Program } from '../ir/program';
import { InstructionContext, NumericsProfile } from '../ops/instructions/semantics/context';
import { SEMANTICS } from '../ops/instructions/semantics';
import { GlobalBuffer, OnChipMemory, PartitionView, Pointer, TensorView, Tile, TileContents } from '../machine/memory';
import { codec } from '../numerics/elements';
import { subsetBoundsProblem, subsetType } from '../ops/tile-views';
import { tileBytes } from '../types/geometry';
import { VmTrap } from '../machine/trap';
import { attributeValues } from '../ops/attributes';
import { SyncFinding, SyncTracker } from './sync/tracker';
import { parseAffineMap } from '../syntax/affine';
import { evaluateAffine } from './affine';
import { CMPF_PREDICATES, FLOAT_BINARY, floatToInt, roundTo } from '../ops/arith-float';
import { CmpfPredicate, FLOAT_CAST_OPS, FloatBinaryOp } from '../spec/arith';

/** Run-time values: integers (index, iN) as bigint, floats as number, and memory objects. */
export type Value = bigint | number | GlobalBuffer | Pointer | TensorView | PartitionView | Tile | TileContents;

export interface RunOptions {
  numerics: NumericsProfile;
  maxSteps: number;
  /** Which core this run is: pto.get_block_idx and friends read it. One block, one sub-block by default. */
  core?: CoreIndex;
}

export interface CoreIndex {
  block: number;
  blocks: number;
  subblock: number;
  subblocks: number;
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
export function runLaunch(program: Program, types: TypeTable, fn: OpNode, args: Map<string, Value>, options: RunOptions, blocks: number, subblocks: number): RunResult {
  const total: RunResult = { steps: 0, notes: [], printed: [], sync: [] };
  for (let block = 0; block < blocks; block++) {
    for (let subblock = 0; subblock < subblocks; subblock++) {
      const core = { block, blocks, subblock, subblocks };
      let result: RunResult;
      try {
        result = runFunction(program, types, fn, args, { ...options, core });
      } catch (e) {
        if (!(e instanceof VmTrap) || blocks * subblocks === 1) throw e;
        throw new VmTrap(`block ${block}${subblocks > 1 ? `, sub-block ${subblock}` : ''}: ${e.message}`, e.span);
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
export function runFunction(program: Program, types: TypeTable, fn: OpNode, args: Map<string, Value>, options: RunOptions): RunResult {
  return new Interpreter(program, types, options).run(fn, args);
}

const MAX_CALL_DEPTH = 64;

class ReturnSignal {
  constructor(readonly values: Value[]) {}
}

class Interpreter {
  private readonly spec: Isa = isa();
  private readonly memory: OnChipMemory;
  /** Storage is static per op: an alloc_tile (or an L1 result) in a loop reuses its tile each iteration. */
  private readonly tiles = new Map<OpNode, Tile>();
  private readonly resultTiles = new Map<OpNode, Map<string, Tile>>();
  private readonly env = new Map<string, Value>();
  private steps = 0;
  /** How deep func.call has nested. */
  private depth = 0;
  private readonly notes: string[] = [];
  private readonly printed: string[] = [];
  private readonly sync: SyncTracker;

  private readonly core: CoreIndex;

  constructor(
    private readonly program: Program,
    private readonly types: TypeTable,
    private readonly options: RunOptions,
  ) {
    this.core = options.core ?? { block: 0, blocks: 1, subblock: 0, subblocks: 1 };
    this.memory = new OnChipMemory(this.spec, program.target);
    this.sync = new SyncTracker(program);
  }

  run(fn: OpNode, args: Map<string, Value>): RunResult {
    const body = fn.regions[0];
    if (!body) throw new VmTrap(`function @${fn.symbol} has no body`, fn.span);
    for (const arg of body.blocks[0].args) {
      const v = args.get(arg.name);
      if (v === undefined) throw new VmTrap(`argument ${arg.name} is not bound`, arg.span);
      this.env.set(arg.name, typeof v === 'object' && 'kind' in v && v.kind === 'tile_contents' ? this.tileArgument(arg, v) : v);
    }
    try {
      this.runBlock(body.blocks[0]);
    } catch (e) {
      if (!(e instanceof ReturnSignal)) throw e;
    }
    return { steps: this.steps, notes: this.notes, printed: this.printed, sync: this.sync.findings };
  }

  /** A tile argument (a kernel handed a buffer on chip): placed like an allocation, holding the given bytes. */
  private tileArgument(arg: BlockArg, contents: TileContents): Tile {
    const type = arg.type ? this.types.parse(arg.type.text).type : undefined;
    if (type?.kind !== 'tile') throw new VmTrap(`argument ${arg.name} is not a tile`, arg.span);
    const tile = this.memory.allocate(type, `argument ${arg.name}`, arg.span);
    tile.bytes.set(contents.bytes.subarray(0, tile.bytes.length));
    return tile;
  }

  /** Runs a block; returns the operands of its terminator (scf.yield / scf.condition). */
  private runBlock(block: Block): { name: string; values: Value[] } | undefined {
    for (const op of block.ops) {
      this.step(op);
      if (op.name === 'scf.yield' || op.name === 'scf.condition') return { name: op.name, values: op.operands.map((o) => this.value(o)) };
      this.runOp(op);
    }
    return undefined;
  }

  /** Counts one executed op; `--max-steps` bounds runaway loops. */
  private step(op: OpNode): void {
    if (++this.steps > this.options.maxSteps) throw new VmTrap(`stopped after ${this.options.maxSteps} steps (--max-steps)`, op.nameSpan);
  }

  private runRegion(region: Region, args: Value[]): Value[] {
    const block = region.blocks[0];
    block.args.forEach((a, i) => this.env.set(a.name, args[i]));
    const end = this.runBlock(block);
    return end?.values ?? [];
  }

  private value(o: Operand): Value {
    if (o.literal !== undefined) return BigInt(o.literal);
    const ref = o.value!;
    const key = ref.index !== undefined ? `${ref.name}#${ref.index}` : ref.name;
    const v = this.env.get(key) ?? (ref.index === 0 ? this.env.get(ref.name) : undefined);
    if (v === undefined) throw new VmTrap(`${key} has no value here`, o.span);
    return v;
  }

  private int(o: Operand): bigint {
    const v = this.value(o);
    if (typeof v !== 'bigint') throw new VmTrap('expected an integer value', o.span);
    return v;
  }

  private float(o: Operand): number {
    const v = this.value(o);
    if (typeof v !== 'number') throw new VmTrap('expected a floating-point value', o.span);
    return v;
  }

  /** sitofp/uitofp round to the result type; fptosi/fptoui truncate (out of range is a trap); extf/truncf convert. */
  private floatCast(op: OpNode): Value {
    const to = this.resultElem(op);
    const fromType = op.operands[0].type ? this.typeOf(op.operands[0].type) : undefined;
    const from = fromType?.kind === 'scalar' ? fromType.elem : 'index';
    switch (op.name) {
      case 'arith.sitofp':
        return roundTo(to, Number(this.int(op.operands[0])));
      case 'arith.uitofp':
        return roundTo(to, Number(BigInt.asUintN(bitWidth(from), this.int(op.operands[0]))));
      case 'arith.fptosi':
      case 'arith.fptoui':
        try {
          return floatToInt(this.float(op.operands[0]), bitWidth(to), op.name === 'arith.fptoui');
        } catch (e) {
          if (e instanceof RangeError) throw new VmTrap(`${op.name}: ${e.message} (the result is undefined in MLIR)`, op.span);
          throw e;
        }
      default:
        return roundTo(to, this.float(op.operands[0]));
    }
  }

  private index(o: Operand): number {
    return Number(this.int(o));
  }

  private setResults(op: OpNode, values: Value[]): void {
    let k = 0;
    for (const r of op.results) {
      if (r.count === 1) this.env.set(r.name, values[k++]);
      else for (let i = 0; i < r.count; i++) this.env.set(`${r.name}#${i}`, values[k++]);
    }
  }

  private typeOf(text: { text: string }): Type {
    const t = this.types.parse(text.text).type;
    if (!t) throw new Error(`internal: unverified type ${text.text}`);
    return t;
  }

  private runOp(op: OpNode): void {
    switch (op.name) {
      case 'func.return':
        throw new ReturnSignal(op.operands.map((o) => this.value(o)));
      case 'arith.constant':
        return this.setResults(op, [constantValue(attrOf(op, 'value')!, op.resultTypes[0] ? this.typeOf(op.resultTypes[0]) : undefined)]);
      case 'arith.cmpi':
        return this.setResults(op, [this.compare(op)]);
      case 'arith.cmpf': {
        const pred = attrOf(op, 'predicate');
        const [a, b] = op.operands.map((o) => this.float(o));
        return this.setResults(op, [CMPF_PREDICATES[(pred?.kind === 'ident' ? pred.name : 'false') as CmpfPredicate](a, b) ? 1n : 0n]);
      }
      case 'arith.negf':
        return this.setResults(op, [-this.float(op.operands[0])]);
      case 'arith.select': {
        const [c, a, b] = op.operands.map((o) => this.value(o));
        return this.setResults(op, [c !== 0n ? a : b]);
      }
      case 'scf.for':
        return this.runFor(op);
      case 'scf.if': {
        const taken = this.int(op.operands[0]) !== 0n ? op.regions[0] : op.regions[1];
        return this.setResults(op, taken ? this.runRegion(taken, []) : []);
      }
      case 'scf.while':
        return this.runWhile(op);
      case 'pto.get_block_idx':
        return this.setResults(op, [BigInt(this.core.block)]);
      case 'pto.get_block_num':
        return this.setResults(op, [BigInt(this.core.blocks)]);
      case 'pto.get_subblock_idx':
        return this.setResults(op, [BigInt(this.core.subblock)]);
      case 'pto.get_subblock_num':
        return this.setResults(op, [BigInt(this.core.subblocks)]);
      case 'pto.section.vector':
      case 'pto.section.cube':
        this.runRegion(op.regions[0], []);
        return;
      case 'pto.make_tensor_view':
        return this.setResults(op, [this.makeTensorView(op)]);
      case 'pto.partition_view':
        return this.setResults(op, [this.partitionView(op)]);
      case 'pto.alloc_tile':
        return this.setResults(op, [this.allocTile(op)]);
      case 'pto.treshape':
        if (op.form === 'ssa') return this.setResults(op, [this.treshape(op)]);
        break;
      case 'pto.subset':
        return this.setResults(op, [this.subset(op)]);
      case 'memref.alloc':
        return this.setResults(op, [this.tileFor(op, this.typeOf(op.resultTypes[0]) as TileType)]);
      case 'pto.pointer_cast':
        return this.setResults(op, [this.pointerCast(op)]);
      case 'pto.bind_tile':
        return this.setResults(op, [this.bindTile(op)]);
      case 'memref.subview':
        return this.setResults(op, [this.memrefSubview(op)]);
      case 'affine.apply':
        return this.setResults(op, [this.affineApply(op)]);
      case 'func.call':
        return this.setResults(op, this.call(op));
      case 'pto.addptr': {
        const { buffer, offset } = this.pointer(op.operands[0], op.name);
        return this.setResults(op, [{ kind: 'pointer', buffer, offset: offset + this.index(op.operands[1]) } satisfies Pointer]);
      }
      case 'pto.load_scalar': {
        const { buffer, element } = this.scalarAccess(op);
        const loaded = buffer.codec.read(buffer.view, element * buffer.codec.size);
        // Integer scalars are bigint in the VM whatever their width (the codec reads narrow ones as numbers).
        return this.setResults(op, [isFloat(buffer.elem) ? loaded : BigInt(loaded)]);
      }
      case 'pto.store_scalar': {
        const { buffer, element } = this.scalarAccess(op);
        buffer.codec.write(buffer.view, element * buffer.codec.size, this.value(op.operands[0]) as number | bigint);
        buffer.written[element] = 1;
        return;
      }
      case 'pto.get_tensor_view_dim': {
        const view = this.value(op.operands[0]) as TensorView | PartitionView;
        const dim = this.index(op.operands[1]);
        if (dim < 0 || dim >= view.shape.length) throw new VmTrap(`dimension ${dim} is out of range: the view has rank ${view.shape.length}`, op.operands[1].span);
        return this.setResults(op, [BigInt(view.shape[dim])]);
      }
      case 'pto.print':
        this.printed.push(formatScalar(this.stringAttr(op, 'format'), this.value(op.operands[0]) as number | bigint, op));
        return;
      case 'pto.trap':
        throw new VmTrap('pto.trap: the program stopped itself', op.nameSpan);
      case 'pto.bitcast': {
        const src = this.tileOperand(op.operands[0], 'pto.bitcast');
        const type = this.typeOf(op.resultTypes[0]) as TileType;
        return this.setResults(op, [new Tile(type, src.buffer, src.address, src.bytes, src.vRow, src.vCol, src.strides)]);
      }
    }
    const floatOp = FLOAT_BINARY[op.name as FloatBinaryOp];
    if (floatOp) return this.setResults(op, [roundTo(this.resultElem(op), floatOp(this.float(op.operands[0]), this.float(op.operands[1])))]);
    if ((FLOAT_CAST_OPS as readonly string[]).includes(op.name)) return this.setResults(op, [this.floatCast(op)]);
    if (op.name.startsWith('arith.')) return this.setResults(op, [this.arith(op)]);
    const bound = this.program.instructions.get(op);
    if (bound) return this.runInstruction(op, bound);
    const sync = this.program.syncOps.get(op);
    if (sync) return this.sync.syncOp(op, sync);
    throw new VmTrap(`${op.name} is not implemented yet`, op.nameSpan);
  }

  private runFor(op: OpNode): void {
    const lb = this.int(op.operands[op.segments.lb[0]]);
    const ub = this.int(op.operands[op.segments.ub[0]]);
    const step = this.int(op.operands[op.segments.step[0]]);
    if (step <= 0n) throw new VmTrap(`scf.for step must be positive, got ${step}`, op.operands[op.segments.step[0]].span);
    let carried = segment(op, 'init').map((o) => this.value(o));
    for (let i = lb; i < ub; i += step) carried = this.runRegion(op.regions[0], [i, ...carried]);
    this.setResults(op, carried);
  }

  private runWhile(op: OpNode): void {
    let carried = op.operands.map((o) => this.value(o));
    for (;;) {
      this.step(op);
      const [cond, ...forwarded] = this.runRegion(op.regions[0], carried);
      if (cond === 0n) {
        this.setResults(op, forwarded);
        return;
      }
      carried = this.runRegion(op.regions[1], forwarded);
    }
  }

  private resultElem(op: OpNode): ElemType {
    const t = op.resultTypes[0] ? this.typeOf(op.resultTypes[0]) : undefined;
    return t?.kind === 'scalar' ? t.elem : 'index';
  }

  private compare(op: OpNode): bigint {
    const pred = attrOf(op, 'predicate');
    const name = pred?.kind === 'ident' ? pred.name : 'eq';
    const operandType = op.operands[0].type ? this.typeOf(op.operands[0].type) : undefined;
    const elem = operandType?.kind === 'scalar' ? operandType.elem : 'index';
    let a = this.int(op.operands[0]);
    let b = this.int(op.operands[1]);
    if (name.startsWith('u')) {
      const bits = bitWidth(elem);
      a = BigInt.asUintN(bits, a);
      b = BigInt.asUintN(bits, b);
    }
    const results: Record<string, boolean> = {
      eq: a === b, ne: a !== b, slt: a < b, sle: a <= b, sgt: a > b, sge: a >= b, ult: a < b, ule: a <= b, ugt: a > b, uge: a >= b,
    };
    return results[name] ? 1n : 0n;
  }

  private arith(op: OpNode): bigint {
    const elem = this.resultElem(op);
    const bits = bitWidth(elem);
    const wrap = (v: bigint): bigint => (bits === 1 ? v & 1n : BigInt.asIntN(bits, v));
    const [a, b] = op.operands.map((o) => this.int(o));
    const divisor = (): bigint => {
      if (b === 0n) throw new VmTrap(`${op.name}: division by zero`, op.span);
      return b;
    };
    const unsigned = (v: bigint): bigint => BigInt.asUintN(bits, v);
    switch (op.name) {
      case 'arith.addi':
        return wrap(a + b);
      case 'arith.subi':
        return wrap(a - b);
      case 'arith.muli':
        return wrap(a * b);
      case 'arith.divsi':
        return wrap(a / divisor());
      case 'arith.remsi':
        return wrap(a % divisor());
      case 'arith.divui':
        return wrap(unsigned(a) / unsigned(divisor()));
      case 'arith.remui':
        return wrap(unsigned(a) % unsigned(divisor()));
      case 'arith.ceildivsi': {
        const d = divisor();
        const q = a / d;
        return wrap(q * d !== a && (a < 0n) === (d < 0n) ? q + 1n : q);
      }
      case 'arith.floordivsi': {
        const d = divisor();
        const q = a / d;
        return wrap(q * d !== a && (a < 0n) !== (d < 0n) ? q - 1n : q);
      }
      case 'arith.andi':
        return wrap(a & b);
      case 'arith.ori':
        return wrap(a | b);
      case 'arith.xori':
        return wrap(a ^ b);
      case 'arith.minsi':
        return a < b ? a : b;
      case 'arith.maxsi':
        return a > b ? a : b;
      case 'arith.shli':
        return wrap(a << b);
      case 'arith.shrsi':
        return wrap(a >> b);
      case 'arith.index_cast':
      case 'arith.extsi':
      case 'arith.trunci':
        return wrap(a);
      case 'arith.index_castui':
      case 'arith.extui': {
        const from = op.operands[0].type ? this.typeOf(op.operands[0].type) : undefined;
        return wrap(BigInt.asUintN(bitWidth(from?.kind === 'scalar' ? from.elem : 'index'), a));
      }
    }
    throw new VmTrap(`${op.name} is not implemented yet`, op.nameSpan);
  }

  private makeTensorView(op: OpNode): TensorView {
    const { buffer, offset: base } = this.pointer(op.operands[0], 'pto.make_tensor_view');
    const shape = segment(op, 'shape').map((o) => this.index(o));
    const strides = segment(op, 'strides').map((o) => this.index(o));
    shape.forEach((d, i) => {
      if (d < 0) throw new VmTrap(`shape[${i}] is negative (${d})`, segment(op, 'shape')[i].span);
    });
    return { kind: 'tensor_view', buffer, shape, strides, offset: base };
  }

  private partitionView(op: OpNode): PartitionView {
    const box = this.box(op, this.value(op.operands[0]) as TensorView, 'partition', "the view's extent");
    const sizes = box.shape;
    const declared = op.resultTypes[0] ? this.typeOf(op.resultTypes[0]) : undefined;
    if (declared?.kind === 'partition_view') {
      declared.shape.forEach((d, i) => {
        if (d !== null && d !== sizes[i]) throw new VmTrap(`sizes[${i}] is ${sizes[i]}, but the result type says ${d}`, segment(op, 'sizes')[i].span);
      });
    }
    return box;
  }

  /** The box `offsets`/`sizes` of `op` cut from a view (or global memref): each dimension must stay inside. */
  private box(op: OpNode, source: TensorView | PartitionView, what: string, extent: string): PartitionView {
    const offsets = segment(op, 'offsets').map((o) => this.index(o));
    const sizes = segment(op, 'sizes').map((o) => this.index(o));
    let offset = source.offset;
    for (let d = 0; d < source.shape.length; d++) {
      if (offsets[d] < 0 || sizes[d] < 0 || offsets[d] + sizes[d] > source.shape[d]) {
        throw new VmTrap(`${what} [${offsets[d]}, ${offsets[d] + sizes[d]}) of dim ${d} is outside ${extent} ${source.shape[d]}`, segment(op, 'offsets')[d].span);
      }
      offset += offsets[d] * source.strides[d];
    }
    return { kind: 'partition_view', buffer: source.buffer, shape: sizes, strides: source.strides, offset };
  }

  /** The storage of a Level 1 tile result: one per result of the op, reused when the op runs again. */
  private resultTile(op: OpNode, name: string, type: TileType): Tile {
    let byName = this.resultTiles.get(op);
    if (!byName) this.resultTiles.set(op, (byName = new Map()));
    let tile = byName.get(name);
    if (!tile) byName.set(name, (tile = this.memory.allocate(type, op.name, op.span)));
    return tile;
  }

  private tileFor(op: OpNode, type: TileType): Tile {
    let tile = this.tiles.get(op);
    if (!tile) {
      tile = this.memory.allocate(type, op.name, op.span);
      this.tiles.set(op, tile);
    }
    return tile;
  }

  private allocTile(op: OpNode): Tile {
    const type = this.typeOf(op.resultTypes[0]) as TileType;
    const addr = segment(op, 'addr')[0];
    let tile: Tile;
    if (addr) {
      // Manual placement: the address may change from one execution to the next.
      tile = this.memory.place(type, this.index(addr), op.name, addr.span);
      this.tiles.set(op, tile);
    } else {
      tile = this.tileFor(op, type);
    }
    tile.vRow = this.validDim(op, 'valid_row', type.vRow, type.rows);
    tile.vCol = this.validDim(op, 'valid_col', type.vCol, type.cols);
    return tile;
  }

  private tileOperand(o: Operand, what: string): Tile {
    const v = this.value(o);
    if (!(v instanceof Tile)) throw new VmTrap(`${what} needs a tile`, o.span);
    return v;
  }

  /** `pto.treshape`: the source's bytes as another tile type (no copy). */
  private treshape(op: OpNode): Tile {
    const src = this.tileOperand(op.operands[0], 'pto.treshape');
    const type = this.typeOf(op.resultTypes[0]) as TileType;
    if (!src.isContiguous()) throw new VmTrap('pto.treshape: the source is a window whose rows are not adjacent; only a contiguous tile can be reshaped', op.operands[0].span);
    return new Tile(type, src.buffer, src.address, src.bytes.subarray(0, tileBytes(type)), type.vRow!, type.vCol!);
  }

  /** `pto.subset`: a window of the source at (row, col), with the source's strides (no copy). */
  private subset(op: OpNode): Tile {
    const parent = this.tileOperand(op.operands[0], 'pto.subset');
    const [row, col] = segment(op, 'offsets').map((o) => this.index(o));
    const sizesAttr = attrOf(op, 'sizes');
    const sizes = (sizesAttr?.kind === 'array' ? sizesAttr.items.map((i) => (i.kind === 'int' ? Number(i.value) : 0)) : []) as [number, number];
    const { type } = subsetType(parent.type, sizes);
    const problem = subsetBoundsProblem(parent.type, row, col, sizes);
    if (problem || !type) throw new VmTrap(`pto.subset: ${problem ?? 'invalid window'}`, op.span);
    const strides = parent.elementStrides();
    const offset = (row * strides.row + col * strides.col) * parent.codec.size;
    return new Tile(type, parent.buffer, parent.address + offset, parent.bytes.subarray(offset), sizes[0], sizes[1], strides);
  }

  /** A pointer operand: an argument (its buffer from element 0) or a `pto.addptr` result. */
  private pointer(o: Operand, what: string): { buffer: GlobalBuffer; offset: number } {
    const v = this.value(o);
    if (v instanceof GlobalBuffer) return { buffer: v, offset: 0 };
    if (typeof v === 'object' && 'kind' in v && v.kind === 'pointer') return v;
    throw new VmTrap(`${what} needs a pointer`, o.span);
  }

  /** The element `pto.load_scalar`/`store_scalar` touch: the pointer plus the offset, inside the buffer. */
  private scalarAccess(op: OpNode): { buffer: GlobalBuffer; element: number } {
    const ptr = segment(op, 'ptr')[0];
    const { buffer, offset } = this.pointer(ptr, op.name);
    const element = offset + this.index(segment(op, 'offset')[0]);
    if (element < 0 || element >= buffer.length) {
      throw new VmTrap(`${op.name}: element ${element} of %${buffer.name} is out of bounds (the buffer has ${buffer.length} elements of ${buffer.elem})`, op.span);
    }
    return { buffer, element };
  }

  private stringAttr(op: OpNode, key: string): string {
    const a = attrOf(op, key);
    return a?.kind === 'string' ? a.value : '';
  }

  /** `pto.pointer_cast(%addr) : memref<...>`: a buffer placed at a byte offset of its on-chip memory. */
  private pointerCast(op: OpNode): Tile {
    const type = this.typeOf(op.resultTypes[0]) as TileType;
    const tile = this.memory.place(type, this.index(op.operands[0]), op.name, op.operands[0].span);
    this.tiles.set(op, tile);
    return tile;
  }

  /** `pto.bind_tile %buf, %rows, %cols`: the same bytes, with a valid region. */
  private bindTile(op: OpNode): Tile {
    const buffer = this.tileOperand(op.operands[0], 'pto.bind_tile');
    const [rows, cols] = [this.index(op.operands[1]), this.index(op.operands[2])];
    if (rows < 0 || rows > buffer.type.rows || cols < 0 || cols > buffer.type.cols) {
      throw new VmTrap(`pto.bind_tile: valid region ${rows}x${cols} is outside the ${buffer.type.rows}x${buffer.type.cols} buffer`, op.span);
    }
    return new Tile(buffer.type, buffer.buffer, buffer.address, buffer.bytes, rows, cols, buffer.strides);
  }

  /** `memref.subview %gm[offsets] [sizes] [1, ...]`: a box of global memory. */
  private memrefSubview(op: OpNode): PartitionView {
    const source = this.value(op.operands[0]);
    if (!(typeof source === 'object' && 'kind' in source && source.kind === 'partition_view')) throw new VmTrap('memref.subview needs a global memref', op.operands[0].span);
    return this.box(op, source, 'subview', "the memref's extent");
  }

  private affineApply(op: OpNode): bigint {
    const map = attrOf(op, 'map');
    const parsed = parseAffineMap(map?.kind === 'dialect' ? map.text : '');
    if (typeof parsed === 'string') throw new VmTrap(parsed, op.span);
    const dims = segment(op, 'dims').map((o) => this.int(o));
    const symbols = segment(op, 'symbols').map((o) => this.int(o));
    try {
      return evaluateAffine(parsed.results[0], dims, symbols);
    } catch (e) {
      if (e instanceof RangeError) throw new VmTrap(`affine.apply: ${e.message}`, op.span);
      throw e;
    }
  }

  /** `func.call @f(%a, ...)`: runs @f's body with its own values; tiles and memory are shared. */
  private call(op: OpNode): Value[] {
    const callee = attrOf(op, 'callee');
    const fn = callee?.kind === 'symbol' ? this.program.functions.get(callee.name) : undefined;
    if (!fn?.regions[0]) throw new VmTrap(`func.call: no function ${callee?.kind === 'symbol' ? '@' + callee.name : ''} with a body`, op.span);
    if (++this.depth > MAX_CALL_DEPTH) throw new VmTrap(`func.call: calls nested deeper than ${MAX_CALL_DEPTH} (recursion?)`, op.span);
    const args = op.operands.map((o) => this.value(o));
    const saved = new Map(this.env);
    try {
      this.env.clear();
      const entry = fn.regions[0].blocks[0];
      entry.args.forEach((a, i) => this.env.set(a.name, args[i]));
      this.runBlock(entry);
      return [];
    } catch (e) {
      if (e instanceof ReturnSignal) return e.values;
      throw e;
    } finally {
      this.env.clear();
      for (const [k, v] of saved) this.env.set(k, v);
      this.depth--;
    }
  }

  private validDim(op: OpNode, key: string, declared: number | null, physical: number): number {
    if (declared !== null) return declared;
    const operand = segment(op, key)[0];
    const v = this.index(operand);
    if (v < 0 || v > physical) throw new VmTrap(`${key} = ${v} is outside 0..${physical}`, operand.span);
    return v;
  }

  private runInstruction(op: OpNode, bound: BoundInstruction): void {
    const objects = new Map<string, Value>();
    for (const [name, b] of bound.operands) {
      if (b.use) objects.set(name, this.value(b.use));
      else if (b.result && b.type.kind === 'tile') objects.set(name, this.resultTile(op, name, b.type));
    }
    const trap = (message: string): never => {
      throw new VmTrap(`${bound.spec.opName}: ${message}`, op.nameSpan);
    };
    // Rules the verifier could not decide statically (dynamic valid regions) are checked now.
    const dims = (name: string) => {
      const v = objects.get(name);
      return v instanceof Tile ? { rows: v.type.rows, cols: v.type.cols, vRow: v.vRow, vCol: v.vCol } : undefined;
    };
    const early = bound.spec.earlyReturnIfEmpty ? dims(bound.spec.earlyReturnIfEmpty) : undefined;
    if (early && (early.vRow === 0 || early.vCol === 0)) return;
    for (const rule of bound.spec.valid ?? []) {
      if (rule.kind === 'view-matches-valid') continue; // checked by the transfer itself
      const outcome = checkDimRule(rule, dims);
      if (outcome.status === 'violated') trap(outcome.message);
    }
    let attributes: ReturnType<typeof attributeValues> | undefined;
    const ctx: InstructionContext = {
      op,
      bound,
      numerics: this.options.numerics,
      target: this.program.target,
      tile: (name) => {
        const v = objects.get(name);
        if (!(v instanceof Tile)) trap(`operand ${name} is not a tile`);
        return v as Tile;
      },
      optionalTile: (name) => {
        const v = objects.get(name);
        return v instanceof Tile ? v : undefined;
      },
      view: (name) => {
        const v = objects.get(name);
        if (!v || typeof v !== 'object' || !('kind' in v) || v.kind !== 'partition_view') trap(`operand ${name} is not a partition view`);
        return v as PartitionView;
      },
      trap,
      scalar: (name) => {
        const v = objects.get(name);
        if (typeof v !== 'bigint' && typeof v !== 'number') trap(`operand ${name} is not a scalar`);
        return v as bigint | number;
      },
      setResult: (name, value) => objects.set(name, value),
      flag: (name) => {
        const a = attrOf(op, name);
        return a?.kind === 'bool' ? a.value : undefined;
      },
      attribute: (name) => {
        if (!attributes) attributes = attributeValues(op, bound.spec);
        return attributes.get(name);
      },
      print: (text) => {
        this.printed.push(text);
      },
      note: (message) => {
        if (!this.notes.includes(message)) this.notes.push(message);
      },
    };
    const semantics = bound.spec.implemented ? SEMANTICS[bound.spec.semantics] : undefined;
    if (!semantics) return trap('is not implemented yet');
    this.sync.instruction(op, bound, objects);
    semantics(ctx);
    const results = [...bound.operands.values()].filter((b) => b.result).map((b) => objects.get(b.spec.name)!);
    if (results.length > 0) this.setResults(op, results);
  }
}

/**
 * printf for one scalar, as C formats it: %d %i %u (integers), %f %e with an optional precision (floats), %x,
 * %%. Any other conversion is refused rather than guessed.
 */
function formatScalar(format: string, value: number | bigint, op: OpNode): string {
  let used = false;
  return format.replace(/%(?:%|(\.\d+)?(l{0,2})([a-zA-Z]))/g, (whole, precision: string | undefined, _length: string, conversion: string | undefined) => {
    if (whole === '%%') return '%';
    if (used) throw new VmTrap(`pto.print: the format '${format}' has more than one conversion, but pto.print prints one value`, op.span);
    used = true;
    const digits = precision ? Number(precision.slice(1)) : 6;
    const n = Number(value);
    switch (conversion) {
      case 'd':
      case 'i':
      case 'u':
        return typeof value === 'bigint' ? value.toString() : String(Math.trunc(n));
      case 'x':
        return typeof value === 'bigint' ? BigInt.asUintN(64, value).toString(16) : Math.trunc(n).toString(16);
      case 'f':
        return Number.isFinite(n) ? n.toFixed(digits) : String(n).toLowerCase().replace('infinity', 'inf');
      case 'e':
        return Number.isFinite(n) ? n.toExponential(digits).replace(/e([+-])(\d)$/, 'e$10$2') : String(n).toLowerCase().replace('infinity', 'inf');
    }
    throw new VmTrap(`pto.print: the conversion '${whole}' is not supported (use %d, %i, %u, %x, %f or %e)`, op.span);
  });
}

function bitWidth(elem: ElemType): number {
  switch (elem) {
    case 'i1':
      return 1;
    case 'i8':
    case 'u8':
      return 8;
    case 'i16':
    case 'u16':
      return 16;
    case 'i32':
    case 'u32':
      return 32;
    default:
      return 64;
  }
}

/** The value of an `arith.constant`: integers wrap to their type; a hex literal of a float type is its bit pattern. */
function constantValue(attr: Attr, type: Type | undefined): Value {
  if (attr.kind === 'bool') return attr.value ? 1n : 0n;
  const elem: ElemType = type?.kind === 'scalar' ? type.elem : 'index';
  if (isFloat(elem)) {
    if (attr.kind === 'int') {
      const c = codec(elem);
      const bytes = new DataView(new ArrayBuffer(8));
      if (c.size === 8) bytes.setBigUint64(0, BigInt.asUintN(64, attr.value), true);
      else if (c.size === 4) bytes.setUint32(0, Number(BigInt.asUintN(32, attr.value)), true);
      else bytes.setUint16(0, Number(BigInt.asUintN(16, attr.value)), true);
      return c.read(bytes, 0) as number;
    }
    if (attr.kind === 'float') return codec(elem).round(attr.value) as number;
  }
  if (attr.kind === 'int') return bitWidth(elem) === 1 ? attr.value & 1n : BigInt.asIntN(bitWidth(elem), attr.value);
  if (attr.kind === 'float') return attr.value;
  return 0n;
}

