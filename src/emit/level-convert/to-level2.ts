import { Block, BlockArg, Module, OpNode, Operand, Region, segment } from '../../syntax/ast';
import { opRegistry } from '../../ops/registry';
import * as builtin from '../../ops/structure/builtin';
import * as scf from '../../ops/structure/scf';
import * as tiles from '../../ops/memory/tiles';
import { TypeTable } from '../../syntax/type-table';
import { BoundInstruction, Program } from '../../ir/program';
import { newOp, typeRef, valueOperand, withSegments } from '../../syntax/build';
import { conversionError, Names, TypeSpeller, allocTile, keptResults, resultKeys, tileCopy, useKey, yieldOp } from './ast-edit';

/**
 * Level 1 (SSA tile values) -> Level 2 (buffers, ins/outs).
 *
 * Every tile value gets its own buffer, named like the value and allocated at the start of its function
 * (all tile types are static, so the allocations can move there). Exceptions that avoid copies:
 * - a loop's tile iter_arg, its result and its init share the init's buffer when the init is used nowhere else;
 *   the value the body yields is computed straight into that buffer when nothing reads the iter_arg afterwards;
 * - an scf.if result gets a fresh buffer, and a branch's yielded value is computed straight into it;
 * - an accumulating matmul (cInMatrix) writes into its input's buffer when that value is used nowhere else.
 * Elsewhere, `pto.tmov` copies a value into the buffer the dataflow needs. Scratch operands (`tmp`) that Level 1
 * leaves out are optional at Level 2 too (PTOAS supplies them), so none is added.
 */
export function moduleToLevel2(program: Program, types: TypeTable): Module {
  const ops = program.module.ops.map((op) => convertTopLevel(op, program, types));
  return { ...program.module, ops };
}

function convertTopLevel(op: OpNode, program: Program, types: TypeTable): OpNode {
  if (op.name === builtin.funcOp.name) return new FunctionToLevel2(program, types, op).convert();
  if (op.name === builtin.moduleOp.name)
    return {
      ...op,
      regions: op.regions.map((r) => ({ ...r, blocks: r.blocks.map((b) => ({ ...b, ops: b.ops.map((o) => convertTopLevel(o, program, types)) })) })),
    };
  return op;
}

/** Operands that may be the destination's own buffer: the instruction reads each element before writing it. */
const IN_PLACE_SEMANTICS = new Set(['elementwise', 'elementwise-scalar', 'unary']);
const ACCUMULATOR = 'cInMatrix';
/** Ops whose result shares its source's bytes: buffers involved are never reused for other values. */
/** Ops whose result is, at Level 2 too, only another name for an operand's bytes (a view, not a new buffer). */
const viewsOperand = (op: OpNode): boolean => opRegistry().lookup(op.name)?.def.properties?.aliasesOperand?.level2 === true;

class FunctionToLevel2 {
  private readonly spell: TypeSpeller;
  private readonly names: Names;
  /** Value key -> the name its uses take at Level 2 (a buffer for tile values). */
  private readonly renames = new Map<string, string>();
  /** Tile value key -> the buffer an enclosing loop or if wants it computed into. */
  private readonly targets = new Map<string, string>();
  private readonly allocations: OpNode[] = [];
  private readonly useCounts = new Map<string, number>();
  private readonly aliased = new Set<string>();
  /** An if result computed into a loop's carried buffer -> that loop's iter_arg, which its branches must not read after writing. */
  private readonly carriedBy = new Map<string, string>();

  constructor(
    private readonly program: Program,
    types: TypeTable,
    private readonly fn: OpNode,
  ) {
    this.spell = new TypeSpeller(types, 2);
    this.names = new Names(fn);
    this.countUses(fn);
  }

  convert(): OpNode {
    const body = this.fn.regions[0];
    const params = this.fn.params?.map((p) => this.blockArg(p));
    if (!body) return { ...this.fn, params, resultTypes: this.fn.resultTypes.map((t) => this.spell.ref(t)) };
    const [entry, ...rest] = body.blocks;
    if (rest.length > 0) throw conversionError('L1 -> L2: a function with several blocks cannot be converted', rest[0].span);
    const converted = this.block(entry);
    const withAllocations = { ...converted, args: entry.args.map((a) => this.blockArg(a)), ops: [...this.allocations, ...converted.ops] };
    return { ...this.fn, params, resultTypes: this.fn.resultTypes.map((t) => this.spell.ref(t)), regions: [{ ...body, blocks: [withAllocations] }] };
  }

  private countUses(op: OpNode): void {
    for (const o of op.operands) {
      const key = useKey(o);
      if (key) this.useCounts.set(key, (this.useCounts.get(key) ?? 0) + 1);
    }
    if (viewsOperand(op)) {
      for (const o of op.operands) if (useKey(o)) this.aliased.add(useKey(o)!);
      for (const key of resultKeys(op.results)) this.aliased.add(key);
    }
    for (const r of op.regions) for (const b of r.blocks) b.ops.forEach((o) => this.countUses(o));
  }

  private blockArg(a: BlockArg): BlockArg {
    return { ...a, type: this.spell.ref(a.type) };
  }

  private operand(o: Operand): Operand {
    const key = useKey(o);
    const renamed = key ? this.renames.get(key) : undefined;
    const type = this.spell.ref(o.type);
    if (renamed) return { ...o, value: { name: renamed, span: o.value!.span }, type };
    return { ...o, type };
  }

  private block(b: Block): Block {
    return { ...b, args: b.args.map((a) => this.blockArg(a)), ops: b.ops.flatMap((op) => this.op(op)) };
  }

  private region(r: Region): Region {
    return { ...r, blocks: r.blocks.map((b) => this.block(b)) };
  }

  private op(op: OpNode): OpNode[] {
    const bound = this.program.instructions.get(op);
    if (bound && op.form === 'ssa') return [this.instruction(op, bound)];
    if (op.name === scf.forOp.name && this.hasTileCarried(op)) return this.loop(op);
    if (op.name === scf.ifOp.name && op.resultTypes.some((t) => this.spell.tile(t))) return this.branch(op);
    if (op.name === scf.whileOp.name && [...op.operands.map((o) => o.type), ...op.resultTypes].some((t) => this.spell.tile(t))) {
      throw conversionError('L1 -> L2: an scf.while carrying a tile value cannot be converted yet', op.nameSpan);
    }
    if (op.name === tiles.allocTile.name || viewsOperand(op)) {
      // Buffers already (an uninitialised tile, or a view of another tile's bytes): their own names.
      for (const key of resultKeys(op.results)) this.renames.set(key, key);
    }
    return [this.copy(op)];
  }

  /** The op with its uses renamed, its tile types spelled as buffers and its regions converted. */
  private copy(op: OpNode): OpNode {
    return {
      ...op,
      operands: op.operands.map((o) => this.operand(o)),
      resultTypes: op.resultTypes.map((t) => this.spell.ref(t)),
      regions: op.regions.map((r) => this.region(r)),
      params: op.params?.map((p) => this.blockArg(p)),
    };
  }

  // ---- instructions ----------------------------------------------------------------------------

  private instruction(op: OpNode, bound: BoundInstruction): OpNode {
    const spec = bound.spec;
    const specOf = new Map<Operand, string>();
    for (const [name, b] of bound.operands) if (b.use) specOf.set(b.use, name);
    const keys = resultKeys(op.results);
    const resultBuffers = new Map<string, Operand>();
    spec.outs
      .filter((s) => s.kind === 'tile')
      .forEach((s, i) => {
        const b = bound.operands.get(s.name)!;
        const buffer = this.resultBuffer(keys[i], bound, op, this.spell.text(b.type));
        resultBuffers.set(s.name, valueOperand(buffer, typeRef(this.spell.text(b.type), op.span), op.results[0]?.span ?? op.span));
      });
    const sourceOf = (o: Operand) => spec.ins.find((s) => s.name === specOf.get(o));
    const ins: Operand[] = op.operands.filter((o) => sourceOf(o) && !sourceOf(o)!.keyword).map((o) => this.operand(o));
    // Sources PTOAS writes `KEYWORD %v : T` inside ins (`fp %fp : F`).
    const keyworded = op.operands.flatMap((o) => (sourceOf(o)?.keyword ? [[sourceOf(o)!.keyword!, [this.operand(o)]] as [string, Operand[]]] : []));
    const outs: Operand[] = [];
    for (const s of spec.outs) {
      const b = bound.operands.get(s.name);
      if (!b) break;
      outs.push(b.result ? resultBuffers.get(s.name)! : this.operand(b.use!));
    }
    return {
      ...newOp(op.name, 'dps', op.span, withSegments([['ins', ins], ['outs', outs], ...keyworded])),
      nameSpan: op.nameSpan,
      attrs: op.attrs,
      ...(keyworded.length ? { insKeywords: keyworded.map(([k]) => k) } : {}),
    };
  }

  /** The buffer a result is computed into: the one an enclosing construct asked for, a reused accumulator, or its own. */
  private resultBuffer(key: string, bound: BoundInstruction, op: OpNode, typeText: string): string {
    const wanted = this.targets.get(key);
    if (wanted) {
      this.renames.set(key, wanted);
      return wanted;
    }
    const accumulator = bound.operands.get(ACCUMULATOR)?.use;
    const accKey = accumulator ? useKey(accumulator) : undefined;
    if (accKey && this.useCounts.get(accKey) === 1 && !this.aliased.has(accKey) && !this.aliased.has(key) && this.renames.has(accKey)) {
      const buffer = this.renames.get(accKey)!;
      this.renames.set(key, buffer);
      return buffer;
    }
    return this.newBuffer(key, typeText, op);
  }

  /** A buffer for a tile value, allocated at the start of the function. */
  private newBuffer(key: string, typeText: string | undefined, where: OpNode, nameHint = key): string {
    if (!typeText) throw conversionError(`L1 -> L2: the type of ${key} is unknown`, where.span);
    const tile = this.spell.types.parse(typeText).type;
    if (tile?.kind === 'tile' && (tile.vRow === null || tile.vCol === null)) {
      throw conversionError(
        `L1 -> L2: ${key} has a dynamic valid region (v_row/v_col = ?), which Level 1 gives no value for; it cannot be expressed as an allocation`,
        where.span,
      );
    }
    const name = nameHint.includes('#') ? this.names.fresh(nameHint) : nameHint;
    this.names.claim(name);
    this.allocations.push(allocTile(name, typeRef(typeText, where.span), where.span));
    this.renames.set(key, name);
    return name;
  }

  // ---- control flow ----------------------------------------------------------------------------

  private hasTileCarried(op: OpNode): boolean {
    return segment(op, 'init').some((o) => this.spell.tile(o.type));
  }

  private copyInto(value: Operand, buffer: string, span: OpNode['span']): OpNode {
    const src = this.operand(value);
    return tileCopy(src, valueOperand(buffer, src.type, span), span);
  }

  /** scf.for: tile iter_args become one buffer each, written in place by the body. */
  private loop(op: OpNode): OpNode[] {
    const body = op.regions[0].blocks[0];
    const [iv, ...iterArgs] = body.args;
    const inits = segment(op, 'init');
    const keys = resultKeys(op.results);
    const isTile = iterArgs.map((a) => this.spell.tile(a.type) !== undefined);
    const before: OpNode[] = [];
    const buffers: (string | undefined)[] = [];
    iterArgs.forEach((arg, k) => {
      if (!isTile[k]) return;
      const initKey = useKey(inits[k]);
      const shareable = initKey && this.useCounts.get(initKey) === 1 && !this.aliased.has(initKey) && !this.aliased.has(arg.name) && this.renames.has(initKey);
      let buffer: string;
      if (shareable) buffer = this.renames.get(initKey!)!;
      else {
        buffer = this.newBuffer(arg.name, this.spell.text(this.spell.parse(arg.type)!), op);
        before.push(this.copyInto(inits[k], buffer, op.span));
      }
      buffers[k] = buffer;
      this.renames.set(arg.name, buffer);
      if (keys[k]) this.renames.set(keys[k], buffer);
    });
    const terminator = body.ops.at(-1);
    const yielded = terminator?.name === scf.yieldOp.name ? segment(terminator, 'values') : [];
    this.chooseTargets(body, yielded, buffers, (k) => (isTile[k] ? iterArgs[k].name : undefined));
    const ops = body.ops.slice(0, terminator?.name === scf.yieldOp.name ? -1 : undefined).flatMap((o) => this.op(o));
    ops.push(...this.finalCopies(yielded, buffers, op));
    const kept = yielded.filter((_, k) => !isTile[k]).map((o) => this.operand(o));
    if (kept.length > 0) ops.push(yieldOp(kept, terminator?.span ?? op.span));
    const keptArgs = isTile.map((t) => !t);
    const results = keptResults(op.results, keptArgs, (key, name) => this.renames.set(key, name), this.names, op.span);
    const newBody: Block = { ...body, args: [this.blockArg(iv), ...iterArgs.filter((_, k) => keptArgs[k]).map((a) => this.blockArg(a))], ops };
    const { operands, segments } = withSegments([
      ['lb', segment(op, 'lb').map((o) => this.operand(o))],
      ['ub', segment(op, 'ub').map((o) => this.operand(o))],
      ['step', segment(op, 'step').map((o) => this.operand(o))],
      ['init', inits.filter((_, k) => keptArgs[k]).map((o) => this.operand(o))],
    ]);
    const resultTypes = op.resultTypes.filter((_, k) => keptArgs[k]).map((t) => this.spell.ref(t));
    return [...before, { ...op, results, operands, segments, resultTypes, regions: [{ ...op.regions[0], blocks: [newBody] }] }];
  }

  /** scf.if: each tile result becomes a buffer that both branches write. */
  private branch(op: OpNode): OpNode[] {
    const keys = resultKeys(op.results);
    const isTile = op.resultTypes.map((t) => this.spell.tile(t) !== undefined);
    // A result an enclosing loop yields may be computed straight into the loop's buffer.
    const buffers = op.resultTypes.map((t, k) =>
      isTile[k] ? (this.targets.get(keys[k]) ?? this.newBuffer(keys[k], this.spell.text(this.spell.parse(t)!), op)) : undefined,
    );
    buffers.forEach((b, k) => b && this.renames.set(keys[k], b));
    const regions = op.regions.map((region) => {
      const block = region.blocks[0];
      const terminator = block.ops.at(-1);
      const yielded = terminator?.name === scf.yieldOp.name ? segment(terminator, 'values') : [];
      this.chooseTargets(block, yielded, buffers, (k) => this.carriedBy.get(keys[k]));
      const ops = block.ops.slice(0, terminator?.name === scf.yieldOp.name ? -1 : undefined).flatMap((o) => this.op(o));
      ops.push(...this.finalCopies(yielded, buffers, op));
      const kept = yielded.filter((_, k) => !isTile[k]).map((o) => this.operand(o));
      if (kept.length > 0) ops.push(yieldOp(kept, terminator?.span ?? op.span));
      return { ...region, blocks: [{ ...block, args: block.args.map((a) => this.blockArg(a)), ops }] };
    });
    const kept = isTile.map((t) => !t);
    const results = keptResults(op.results, kept, (key, name) => this.renames.set(key, name), this.names, op.span);
    const resultTypes = op.resultTypes.filter((_, k) => kept[k]).map((t) => this.spell.ref(t));
    return [{ ...op, results, operands: op.operands.map((o) => this.operand(o)), resultTypes, regions }];
  }

  /**
   * Yielded tile values computed by an instruction of this block go straight into the carried buffer, when that is
   * safe: for a loop, nothing after the instruction reads the iter_arg (or the instruction reads it element by element).
   */
  private chooseTargets(block: Block, yielded: Operand[], buffers: (string | undefined)[], carriedOf: (k: number) => string | undefined): void {
    const chosen = new Set<string>();
    yielded.forEach((o, k) => {
      const buffer = buffers[k];
      const key = useKey(o);
      if (!buffer || !key || chosen.has(key) || this.aliased.has(key)) return;
      const at = block.ops.findIndex((op) => resultKeys(op.results).includes(key));
      if (at < 0) return;
      const def = block.ops[at];
      const bound = this.program.instructions.get(def);
      const ifResult = def.name === scf.ifOp.name && !bound;
      if (!ifResult && (!bound || def.form !== 'ssa')) return;
      const carried = carriedOf(k);
      if (carried) {
        if (this.aliased.has(carried)) return;
        if (block.ops.slice(at + 1).some((later) => usesValue(later, carried))) return;
        // An if computes into the carried buffer only if each branch can: checked when the branch is converted.
        if (ifResult) this.carriedBy.set(key, carried);
        else if (!this.readsInPlace(bound!, carried)) return;
      }
      chosen.add(key);
      this.targets.set(key, buffer);
    });
  }

  /** Whether an instruction reading `carried` may write its result over it. */
  private readsInPlace(bound: BoundInstruction, carried: string): boolean {
    const dst = [...bound.operands.values()].filter((b) => b.result);
    for (const [name, b] of bound.operands) {
      if (!b.use || useKey(b.use) !== carried) continue;
      const sameShape = dst.length === 1 && this.spell.text(dst[0].type) === this.spell.text(b.type);
      const elementwise = IN_PLACE_SEMANTICS.has(bound.spec.semantics) && b.spec.role === 'src';
      if (!sameShape || !(elementwise || name === ACCUMULATOR)) return false;
    }
    return true;
  }

  /** Copies for the yielded tile values that were not computed into their buffer. */
  private finalCopies(yielded: Operand[], buffers: (string | undefined)[], op: OpNode): OpNode[] {
    const copies: OpNode[] = [];
    yielded.forEach((o, k) => {
      const buffer = buffers[k];
      if (!buffer) return;
      const key = useKey(o);
      if (key && this.renames.get(key) === buffer) return;
      copies.push(this.copyInto(o, buffer, op.span));
    });
    return copies;
  }
}

/** Whether an op (or anything nested in it) uses the value. */
function usesValue(op: OpNode, key: string): boolean {
  if (op.operands.some((o) => useKey(o) === key)) return true;
  return op.regions.some((r) => r.blocks.some((b) => b.ops.some((o) => usesValue(o, key))));
}
