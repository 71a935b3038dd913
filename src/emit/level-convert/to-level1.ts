import { Span } from '../../diag/source';
import { opRegistry } from '../../ops/registry';
import * as builtin from '../../ops/structure/builtin';
import * as scf from '../../ops/structure/scf';
import * as tiles from '../../ops/memory/tiles';
import { Block, BlockArg, Module, OpNode, Operand, Region, ResultDef, segment } from '../../syntax/ast';
import { TypeTable } from '../../syntax/type-table';
import { BoundInstruction, Program } from '../../ir/program';
import { newOp, typeRef, withSegments } from '../../syntax/build';
import { conversionError, Names, TypeSpeller, allocTile, resultKeys, useKey, yieldOp } from './ast-edit';
import { BufferFlow, bodyOps, droppedAtLevel1, yielded } from './buffer-flow';

/**
 * Level 2 (buffers, ins/outs) -> Level 1 (SSA tile values).
 *
 * Each write of an instruction to a buffer defines a new value (the first is named like the buffer, later ones
 * `%buf_1`, `%buf_2`, ...); reads use the buffer's latest value. A loop that writes a buffer whose contents the next
 * iteration or the code after the loop reads carries it as an iter_arg; an if that writes a buffer read afterwards
 * yields it as a result. A buffer whose initial (uninitialised) contents are read keeps its `pto.alloc_tile`, typed
 * as a `!pto.tile` value. Contents outside a tile's valid region are not carried from one value to the next.
 * Aliasing (pto.subset, pto.treshape, pto.bitcast, pto.bind_tile), manual addresses, dynamic valid regions and
 * instructions that read their own destination cannot be expressed and are refused.
 */
export function moduleToLevel1(program: Program, types: TypeTable): Module {
  const ops = program.module.ops.map((op) => convertTopLevel(op, program, types));
  return { ...program.module, ops };
}

function convertTopLevel(op: OpNode, program: Program, types: TypeTable): OpNode {
  if (op.name === builtin.funcOp.name) return new FunctionToLevel1(program, types, op).convert();
  if (op.name === builtin.moduleOp.name)
    return {
      ...op,
      regions: op.regions.map((r) => ({ ...r, blocks: r.blocks.map((b) => ({ ...b, ops: b.ops.map((o) => convertTopLevel(o, program, types)) })) })),
    };
  return op;
}

/** Ops whose result names the bytes of an operand (a second name for a buffer). */
const aliasesOperand = (op: OpNode): boolean => opRegistry().lookup(op.name)?.def.properties?.aliasesOperand !== undefined;

/** What a buffer holds at a point of the program: a value, or contents Level 1 has no name for. */
type Contents = { value: string } | { state: 'uninitialised' | 'scratch' | 'unknown'; where: Span };

class FunctionToLevel1 {
  private readonly spell: TypeSpeller;
  private readonly names: Names;
  private readonly flow: BufferFlow;
  /** Buffer -> its type spelled as a Level 1 value. */
  private readonly bufferTypes = new Map<string, string>();
  /** Value names the output defines so far. */
  private readonly defined = new Set<string>();

  constructor(
    private readonly program: Program,
    types: TypeTable,
    private readonly fn: OpNode,
  ) {
    this.spell = new TypeSpeller(types, 1);
    this.names = new Names(fn);
    this.flow = new BufferFlow(program, fn);
  }

  convert(): OpNode {
    const body = this.fn.regions[0];
    const env = new Map<string, Contents>();
    const params = this.fn.params?.map((p) => this.param(p, env));
    const resultTypes = this.fn.resultTypes.map((t) => this.spell.ref(t));
    if (!body) return { ...this.fn, params, resultTypes };
    const blocks = body.blocks.map((b, i) => ({ ...b, args: i === 0 ? b.args.map((a) => this.param(a, env)) : b.args, ops: this.ops(b.ops, env) }));
    return { ...this.fn, params, resultTypes, regions: [{ ...body, blocks }] };
  }

  private param(p: BlockArg, env: Map<string, Contents>): BlockArg {
    const tile = this.spell.tile(p.type);
    if (tile) {
      env.set(p.name, { value: p.name });
      this.bufferTypes.set(p.name, this.spell.text(tile));
      this.defined.add(p.name);
    }
    return { ...p, type: this.spell.ref(p.type) };
  }

  private refuse(span: Span, what: string): never {
    throw conversionError(`L2 -> L1: ${what}`, span);
  }

  /** A new value for a buffer: the buffer's own name the first time, then `%buf_N`. */
  private newValue(buffer: string): string {
    const name = this.defined.has(buffer) ? this.names.fresh(buffer) : buffer;
    this.defined.add(name);
    return name;
  }

  private typeOf(buffer: string, span: Span): string {
    const t = this.bufferTypes.get(buffer);
    if (!t) this.refuse(span, `the type of ${buffer} is unknown`);
    return t;
  }

  /** A use, renamed to the buffer's current value when it names a buffer. */
  private read(o: Operand, env: Map<string, Contents>, by: OpNode): Operand {
    const key = useKey(o);
    const contents = key ? env.get(key) : undefined;
    const type = this.spell.ref(o.type);
    if (!contents) return { ...o, type };
    if ('value' in contents) return { ...o, value: { name: contents.value, span: o.value!.span }, type: typeRef(this.typeOf(key!, o.span), o.span) };
    const why = {
      uninitialised: `${by.name} reads ${key} before anything is written to it`,
      scratch: `${by.name} reads ${key} after an instruction used it as scratch (tmp); those contents cannot be expressed at Level 1`,
      unknown: `${by.name} reads ${key}, whose contents here depend on how a loop or branch ran, which cannot be expressed at Level 1`,
    }[contents.state];
    return this.refuse(o.span, why);
  }

  private ops(ops: OpNode[], env: Map<string, Contents>): OpNode[] {
    return ops.flatMap((op) => this.op(op, env));
  }

  private op(op: OpNode, env: Map<string, Contents>): OpNode[] {
    if (op.name === tiles.allocTile.name) return this.alloc(op, env);
    if (aliasesOperand(op)) this.refuse(op.nameSpan, `${op.name} makes a second name for a buffer's bytes; aliasing cannot be expressed at Level 1`);
    const bound = this.program.instructions.get(op);
    if (bound && op.form === 'dps') return [this.instruction(op, bound, env)];
    if (bound) {
      // A Level 1 instruction in a mixed program: its results are values already, and buffers from now on.
      const converted = this.copy(op, env);
      for (const [i, key] of resultKeys(op.results).entries()) {
        const t = this.spell.tile(op.resultTypes[i]);
        if (!t || key.includes('#')) continue;
        env.set(key, { value: key });
        this.bufferTypes.set(key, this.spell.text(t));
        this.defined.add(key);
      }
      return [converted];
    }
    switch (op.name) {
      case scf.forOp.name:
        return this.loop(op, env);
      case scf.ifOp.name:
        return this.branch(op, env);
      case scf.whileOp.name:
        if (this.flow.writtenInside(op).some((b) => env.has(b)))
          this.refuse(op.nameSpan, 'an scf.while that writes a tile buffer cannot be expressed at Level 1 yet');
        break;
      case builtin.callOp.name:
        for (const o of op.operands) {
          if (useKey(o) && env.has(useKey(o)!))
            this.refuse(o.span, `func.call passes the buffer ${useKey(o)}, which the callee may write; that cannot be expressed at Level 1`);
        }
        break;
    }
    if (op.regions.length > 0 && op.name !== scf.whileOp.name) {
      // Regions that run once in place (pto.section.vector / cube) share the enclosing buffers' values.
      return [
        { ...this.copyOperands(op, env), regions: op.regions.map((r) => ({ ...r, blocks: r.blocks.map((b) => ({ ...b, ops: this.ops(b.ops, env) })) })) },
      ];
    }
    return [this.copy(op, env)];
  }

  private copyOperands(op: OpNode, env: Map<string, Contents>): OpNode {
    return { ...op, operands: op.operands.map((o) => this.read(o, env, op)), resultTypes: op.resultTypes.map((t) => this.spell.ref(t)) };
  }

  private copy(op: OpNode, env: Map<string, Contents>): OpNode {
    const copied = this.copyOperands(op, env);
    return { ...copied, regions: op.regions.map((r) => this.region(r, env)) };
  }

  /** A region that does not write buffers (scf.while): uses renamed, nothing else. */
  private region(r: Region, env: Map<string, Contents>): Region {
    return {
      ...r,
      blocks: r.blocks.map((b) => ({ ...b, args: b.args.map((a) => ({ ...a, type: this.spell.ref(a.type) })), ops: this.ops(b.ops, new Map(env)) })),
    };
  }

  private alloc(op: OpNode, env: Map<string, Contents>): OpNode[] {
    const name = op.results[0]?.name;
    const tile = this.spell.tile(op.resultTypes[0]);
    if (!name || !tile) this.refuse(op.nameSpan, 'only pto.alloc_tile of a !pto.tile_buf can be converted');
    const addr = segment(op, 'addr')[0];
    if (addr) this.refuse(addr.span, `${name} is placed by a manual address (addr = ...), which cannot be expressed at Level 1`);
    const dynamic = segment(op, 'valid_row')[0] ?? segment(op, 'valid_col')[0];
    if (dynamic || tile.vRow === null || tile.vCol === null) {
      this.refuse(
        dynamic?.span ?? op.resultTypes[0].span,
        `${name} has a dynamic valid region; a Level 1 tile value's valid region comes from its type, so this cannot be expressed at Level 1`,
      );
    }
    const text = this.spell.text(tile);
    this.bufferTypes.set(name, text);
    if (!this.flow.liveAfter(op, name)) {
      env.set(name, { state: 'uninitialised', where: op.span });
      return [];
    }
    // Its uninitialised contents are read (as a scratch operand, or by a loop's first iteration): keep it as a value.
    env.set(name, { value: this.newValue(name) });
    return [{ ...allocTile(name, typeRef(text, op.resultTypes[0].span), op.span), attrs: op.attrs }];
  }

  private instruction(op: OpNode, bound: BoundInstruction, env: Map<string, Contents>): OpNode {
    const spec = bound.spec;
    const outs = segment(op, 'outs');
    const specOf = (o: Operand) => [...bound.operands.values()].find((b) => b.use === o)!.spec;
    const firstOut = outs.find((o) => specOf(o).kind === 'tile');
    if (spec.readsDestination)
      this.refuse(
        op.nameSpan,
        `${op.name} reads its destination${firstOut ? ' ' + useKey(firstOut) : ''}; a Level 1 result is a new value, so this cannot be expressed at Level 1`,
      );
    if (outs.length === 0 && op.resultTypes.length > 0)
      this.refuse(op.nameSpan, `${op.name} with a scalar result cannot be expressed at Level 1 (its Level 1 form takes the destination as an input)`);
    const missing = spec.outs.find((s) => s.kind === 'tile' && !bound.operands.has(s.name));
    if (missing)
      this.refuse(op.nameSpan, `${op.name} without its optional ${missing.name} cannot be expressed at Level 1, where every tile destination is a result`);
    if (op.insKeywords?.length)
      this.refuse(op.nameSpan, `${op.name} with '${op.insKeywords[0]}' cannot be expressed at Level 1, whose operands are bound by position`);
    const args: Operand[] = [];
    const clobbered: string[] = [];
    for (const o of segment(op, 'ins')) {
      const s = specOf(o);
      if (s.role === 'tmp') clobbered.push(useKey(o)!);
      if (!droppedAtLevel1(s)) args.push(this.read(o, env, op));
    }
    const writes: { buffer: string; span: Span }[] = [];
    for (const o of outs) {
      if (specOf(o).kind !== 'tile') {
        args.push(this.read(o, env, op));
        continue;
      }
      const buffer = useKey(o)!;
      if (writes.some((w) => w.buffer === buffer)) this.refuse(o.span, `${op.name} writes ${buffer} twice`);
      if (!env.has(buffer)) this.refuse(o.span, `${op.name} writes ${buffer}, which is not a tile buffer this conversion can follow`);
      writes.push({ buffer, span: o.span });
    }
    for (const b of clobbered) env.set(b, { state: 'scratch', where: op.span });
    const results: ResultDef[] = [];
    const resultTypes = writes.map((w) => typeRef(this.typeOf(w.buffer, w.span), w.span));
    for (const w of writes) {
      const name = this.newValue(w.buffer);
      env.set(w.buffer, { value: name });
      results.push({ name, count: 1, span: w.span });
    }
    return { ...newOp(op.name, 'ssa', op.span, { operands: args, results, resultTypes, attrs: op.attrs }), nameSpan: op.nameSpan };
  }

  // ---- control flow ----------------------------------------------------------------------------

  /** After a construct: carried buffers hold its results; others it wrote hold contents no value names. */
  private settle(env: Map<string, Contents>, written: string[], carried: Map<string, string>, where: Span): void {
    for (const b of written) {
      const result = carried.get(b);
      env.set(b, result ? { value: result } : { state: 'unknown', where });
    }
  }

  private current(env: Map<string, Contents>, b: string, span: Span, what: string): string {
    const contents = env.get(b);
    if (contents && 'value' in contents) return contents.value;
    return this.refuse(span, `${what} ${b}, but ${b} holds no Level 1 value there (${contents && 'state' in contents ? contents.state : 'unknown'} contents)`);
  }

  private operandOf(name: string, buffer: string, span: Span): Operand {
    return { value: { name, span }, type: typeRef(this.typeOf(buffer, span), span), span };
  }

  private loop(op: OpNode, env: Map<string, Contents>): OpNode[] {
    const body = op.regions[0].blocks[0];
    const { ops, terminator } = bodyOps(body);
    const written = this.flow.writtenInside(op).filter((b) => env.has(b));
    const carried = written.filter((b) => this.flow.scan(body.ops, b) === 'read' || this.flow.liveAfter(op, b));
    const inits = carried.map((b) => this.operandOf(this.current(env, b, op.nameSpan, 'the loop carries'), b, op.span));
    const converted = this.copyOperands(op, env);
    const inner = new Map(env);
    const iterArgs: BlockArg[] = carried.map((b) => {
      const name = this.newValue(b);
      inner.set(b, { value: name });
      return { name, type: typeRef(this.typeOf(b, op.span), op.span), span: op.span };
    });
    const newOps = this.ops(ops, inner);
    const span = terminator?.span ?? op.span;
    const yieldedValues = [
      ...yielded(terminator).map((o) => this.read(o, inner, terminator!)),
      ...carried.map((b) => this.operandOf(this.current(inner, b, span, 'the loop body yields'), b, span)),
    ];
    if (terminator || yieldedValues.length > 0) newOps.push(yieldOp(yieldedValues, span));
    const results = carried.map((b) => this.newValue(b));
    this.settle(env, [...written, ...this.changed(env, inner)], new Map(carried.map((b, i) => [b, results[i]])), op.span);
    const { operands, segments } = withSegments([
      ['lb', segment(converted, 'lb')],
      ['ub', segment(converted, 'ub')],
      ['step', segment(converted, 'step')],
      ['init', [...segment(converted, 'init'), ...inits]],
    ]);
    const newBody: Block = { ...body, args: [...body.args.map((a) => ({ ...a, type: this.spell.ref(a.type) })), ...iterArgs], ops: newOps };
    return [
      {
        ...converted,
        operands,
        segments,
        results: [...op.results, ...results.map((name) => ({ name, count: 1, span: op.span }))],
        resultTypes: [...converted.resultTypes, ...carried.map((b) => typeRef(this.typeOf(b, op.span), op.span))],
        regions: [{ ...op.regions[0], blocks: [newBody] }],
      },
    ];
  }

  /** Buffers whose contents differ between two environments (scratch use inside a construct, for instance). */
  private changed(before: Map<string, Contents>, after: Map<string, Contents>): string[] {
    return [...before.keys()].filter((b) => after.get(b) !== before.get(b));
  }

  private branch(op: OpNode, env: Map<string, Contents>): OpNode[] {
    const written = this.flow.writtenInside(op).filter((b) => env.has(b));
    const needed = written.filter((b) => this.flow.liveAfter(op, b));
    const converted = this.copyOperands(op, env);
    const changed = new Set<string>(written);
    const regionTemplates = op.regions.length === 1 && needed.length > 0 ? [op.regions[0], undefined] : op.regions;
    const regions = regionTemplates.map((region) => {
      const inner = new Map(env);
      const block = region?.blocks[0];
      const { ops, terminator } = block ? bodyOps(block) : { ops: [], terminator: undefined };
      const newOps = this.ops(ops, inner);
      const span = terminator?.span ?? op.span;
      const values = [
        ...yielded(terminator).map((o) => this.read(o, inner, terminator!)),
        ...needed.map((b) => this.operandOf(this.current(inner, b, span, 'the if yields'), b, span)),
      ];
      if (terminator || values.length > 0) newOps.push(yieldOp(values, span));
      for (const b of this.changed(env, inner)) changed.add(b);
      const newBlock: Block = block ? { ...block, ops: newOps } : { args: [], ops: newOps, span: op.span };
      return { ...(region ?? { span: op.span }), blocks: [newBlock] } as Region;
    });
    const results = needed.map((b) => this.newValue(b));
    this.settle(env, [...changed], new Map(needed.map((b, i) => [b, results[i]])), op.span);
    return [
      {
        ...converted,
        results: [...op.results, ...results.map((name) => ({ name, count: 1, span: op.span }))],
        resultTypes: [...converted.resultTypes, ...needed.map((b) => typeRef(this.typeOf(b, op.span), op.span))],
        regions,
      },
    ];
  }
}
