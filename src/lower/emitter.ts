import { Span } from '../diag/source';
import { Attr, AttrEntry, OpNode, Operand, ResultDef, TypeRef } from '../syntax/ast';
import { newOp, typeRef, withSegments } from '../syntax/build';
import { ElemType, TileType, elemSize, elemTypeName, printType } from '../types/type';
import { subview } from '../ops/memory/tiles';
import { addiOp, constantOp, muliOp } from '../ops/structure/arith';
import { forOp } from '../ops/structure/scf';

/** A tile value of the lowered program: its SSA name and type. */
export interface TileValue {
  name: string;
  type: TileType;
}

/** An index (or integer) SSA value, or a constant the emitter materializes on use. */
export type IndexValue = string | number;

/** The tile shape of a lowered value: a Vec tile with no boxes; valid shape defaults to the whole tile. */
export interface Shape {
  dtype: ElemType;
  rows: number;
  cols: number;
  vRow?: number;
  vCol?: number;
  /** Column-major (DN) for the reductions' one-column outputs. */
  columnMajor?: boolean;
}

export function vecTile(s: Shape): TileType {
  return {
    kind: 'tile',
    level: 'buf',
    loc: 'vec',
    dtype: s.dtype,
    rows: s.rows,
    cols: s.cols,
    vRow: s.vRow ?? s.rows,
    vCol: s.vCol ?? s.cols,
    blayout: s.columnMajor ? 'col_major' : 'row_major',
    slayout: 'none_box',
    fractal: 512,
    pad: 0,
    compact: 0,
  };
}

/** The signless integer type of an element size: element moves go through integer views, so bits are kept. */
export function bitsType(size: number): ElemType {
  return size === 2 ? 'i16' : 'i32';
}

export const roundUp = (n: number, m: number): number => Math.ceil(n / m) * m;

/**
 * Builds the lowered IR of one op, op by op (AST nodes made the way the parser makes them, so the verifier
 * checks them like any other): fresh SSA names under a prefix no name of the module uses, constants on first
 * use (hoisted to the start of the lowering, so loops see them), and `scf.for` bodies as nested regions. Every
 * node carries the span of the op it replaces, so a diagnostic or a trap in the lowered code points there.
 */
export class Emitter {
  /** The op lists being filled: the lowering's top level, then the body of each open loop. */
  private readonly blocks: OpNode[][] = [[]];
  private readonly constants: OpNode[] = [];
  private readonly constantNames = new Map<string, string>();
  private counter = 0;

  constructor(
    private readonly prefix: string,
    private readonly span: Span,
  ) {}

  /** The lowered ops: the hoisted constants, then the body. */
  ops(): OpNode[] {
    return [...this.constants, ...this.blocks[0]];
  }

  fresh(hint: string): string {
    return `%${this.prefix}${hint}${this.counter++}`;
  }

  private push(op: OpNode): void {
    this.blocks[this.blocks.length - 1].push(op);
  }

  private typeRef(type: string | TileType): TypeRef {
    return typeRef(typeof type === 'string' ? type : printType(type), this.span);
  }

  /** A use of a value (`%x`, or `%x#1` for one result of a multi-result op), typed as given. */
  private use(name: string, type?: string | TileType): Operand {
    const hash = name.indexOf('#');
    const value = hash < 0 ? { name, span: this.span } : { name: name.slice(0, hash), index: Number(name.slice(hash + 1)), span: this.span };
    return { value, type: type === undefined ? undefined : this.typeRef(type), span: this.span };
  }

  private result(name: string): ResultDef[] {
    return [{ name, count: 1, span: this.span }];
  }

  constant(value: number, type: string = 'index'): string {
    const key = `${value}:${type}`;
    let name = this.constantNames.get(key);
    if (!name) {
      name = `%${this.prefix}c${value < 0 ? 'm' + -value : value}${type === 'index' ? '' : '_' + type}`;
      this.constantNames.set(key, name);
      const literal: Attr = { kind: 'int', value: BigInt(value), type: this.typeRef(type), span: this.span };
      this.constants.push(
        newOp(constantOp.name, 'custom', this.span, {
          results: this.result(name),
          attrs: [{ key: 'value', value: literal, span: this.span }],
          resultTypes: [this.typeRef(type)],
        }),
      );
    }
    return name;
  }

  index(v: IndexValue): string {
    return typeof v === 'number' ? this.constant(v) : v;
  }

  /** `name a, b : index`, an index-typed arith op. */
  private indexArith(name: string, a: string, b: string, hint: string): string {
    const result = this.fresh(hint);
    this.push(
      newOp(name, 'custom', this.span, {
        results: this.result(result),
        ...withSegments([['operands', [this.use(a, 'index'), this.use(b, 'index')]]]),
        resultTypes: [this.typeRef('index')],
      }),
    );
    return result;
  }

  /** `base * scale + offset` on index values, folding constants. */
  affine(base: IndexValue, scale: number, offset: number): IndexValue {
    if (typeof base === 'number') return base * scale + offset;
    const v = scale === 1 ? base : this.indexArith(muliOp.name, base, this.constant(scale), 'm');
    return this.add(v, offset);
  }

  /** `scf.for %i = from to to` around `body`; a single trip runs the body once with a constant. */
  loop(from: number, to: number, body: (i: IndexValue) => void): void {
    if (to <= from) return;
    if (to - from === 1) return body(from);
    const i = this.fresh('i');
    const bounds = [this.constant(from), this.constant(to), this.constant(1)].map((name) => this.use(name));
    const ops: OpNode[] = [];
    this.blocks.push(ops);
    body(i);
    this.blocks.pop();
    const block = { args: [{ name: i, type: undefined, span: this.span }], ops, span: this.span };
    this.push(
      newOp(forOp.name, 'custom', this.span, {
        ...withSegments([
          ['lb', [bounds[0]]],
          ['ub', [bounds[1]]],
          ['step', [bounds[2]]],
          ['init', []],
        ]),
        regions: [{ blocks: [block], span: this.span }],
      }),
    );
  }

  alloc(shape: Shape, hint = 't'): TileValue {
    const type = vecTile(shape);
    const name = this.fresh(hint);
    this.push(newOp('pto.alloc_tile', 'custom', this.span, { results: this.result(name), resultTypes: [this.typeRef(type)] }));
    return { name, type };
  }

  reshape(v: TileValue, shape: Shape, hint = 'v'): TileValue {
    const type = vecTile(shape);
    const name = this.fresh(hint);
    const op = newOp('pto.treshape', 'ssa', this.span, {
      results: this.result(name),
      ...withSegments([['operands', [this.use(v.name, v.type)]]]),
      resultTypes: [this.typeRef(type)],
    });
    this.push(Object.assign(op, { signatureSingle: false }));
    return { name, type };
  }

  /** The tile's bytes as one row of `elem` (it must be a whole, contiguous tile). */
  flat(v: TileValue, elem: ElemType, hint = 'f'): TileValue {
    const bytes = v.type.rows * v.type.cols * elemSize(v.type.dtype);
    return this.reshape(v, { dtype: elem, rows: 1, cols: bytes / elemSize(elem) }, hint);
  }

  /** The tile's bytes as rows of one 32-byte data block each. */
  blockRows(v: TileValue, hint = 'b'): TileValue {
    const size = elemSize(v.type.dtype);
    const bytes = v.type.rows * v.type.cols * size;
    return this.reshape(v, { dtype: v.type.dtype, rows: bytes / 32, cols: 32 / size }, hint);
  }

  subset(v: TileValue, row: IndexValue, col: IndexValue, rows: number, cols: number, hint = 'w'): TileValue {
    const name = this.fresh(hint);
    const sizes: Attr = {
      kind: 'array',
      items: [rows, cols].map((n): Attr => ({ kind: 'int', value: BigInt(n), span: this.span })),
      span: this.span,
    };
    this.push(
      newOp(subview.name, 'custom', this.span, {
        results: this.result(name),
        ...withSegments([
          ['source', [this.use(v.name, v.type)]],
          ['offsets', [this.use(this.index(row)), this.use(this.index(col))]],
        ]),
        attrs: [{ key: 'sizes', value: sizes, span: this.span }],
      }),
    );
    return { name, type: { ...v.type, rows, cols, vRow: rows, vCol: cols } };
  }

  /** A DPS op `pto.NAME ins(...) outs(...) {attrs}`; a scalar result (`outs : T`) when `scalarResult` is given. */
  private dps(name: string, ins: Operand[], outs: Operand[], attrs: AttrEntry[] = [], scalarResult?: { name: string; type: string }): void {
    this.push(
      newOp(`pto.${name}`, 'dps', this.span, {
        results: scalarResult ? this.result(scalarResult.name) : [],
        ...withSegments([
          ['ins', ins],
          ['outs', outs],
        ]),
        attrs,
        resultTypes: scalarResult ? [this.typeRef(scalarResult.type)] : [],
      }),
    );
  }

  /** A DPS tile op: `op ins(a, b : A, B) outs(d : D) {attrs}`. */
  op(name: string, ins: TileValue[], outs: TileValue[], attrs: AttrEntry[] = []): void {
    const typed = (v: TileValue) => this.use(v.name, v.type);
    this.dps(name, ins.map(typed), outs.map(typed), attrs);
  }

  /** `{name = value}`: a boolean attribute for `op`. */
  flag(name: string, value: boolean): AttrEntry[] {
    return [{ key: name, value: { kind: 'bool', value, span: this.span }, span: this.span }];
  }

  fill(v: TileValue, value: number): void {
    const elem = elemTypeName(v.type.dtype);
    this.dps('texpands', [this.use(this.constant(value, elem), elem)], [this.use(v.name, v.type)]);
  }

  getval(v: TileValue, offset: IndexValue): string {
    const name = this.fresh('e');
    this.dps('tgetval', [this.use(v.name, v.type), this.use(this.index(offset), 'index')], [], [], { name, type: elemTypeName(v.type.dtype) });
    return name;
  }

  setval(v: TileValue, offset: IndexValue, value: string): void {
    this.dps('tsetval', [this.use(this.index(offset), 'index'), this.use(value, elemTypeName(v.type.dtype))], [this.use(v.name, v.type)]);
  }

  /** Copies `count` elements, bit for bit, between two integer views of the same element size. */
  moveRun(from: TileValue, fromOffset: IndexValue, to: TileValue, toOffset: IndexValue, count: number): void {
    this.loop(0, count, (e) => {
      const value = this.getval(from, this.add(fromOffset, e));
      this.setval(to, this.add(toOffset, e), value);
    });
  }

  add(a: IndexValue, b: IndexValue): IndexValue {
    if (typeof a === 'number' && typeof b === 'number') return a + b;
    if (a === 0) return b;
    if (b === 0) return a;
    return this.indexArith(addiOp.name, this.index(a), this.index(b), 'a');
  }

  cast(value: string, from: string, to: string, op: string): string {
    const name = this.fresh('x');
    this.push(
      newOp(op, 'custom', this.span, { results: this.result(name), ...withSegments([['operands', [this.use(value, from)]]]), resultTypes: [this.typeRef(to)] }),
    );
    return name;
  }
}
