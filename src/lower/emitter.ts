import { ElemType, TileType, elemSize, elemTypeName, printType } from '../types/type';

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
  };
}

/** The signless integer type of an element size: element moves go through integer views, so bits are kept. */
export function bitsType(size: number): ElemType {
  return size === 2 ? 'i16' : 'i32';
}

export const roundUp = (n: number, m: number): number => Math.ceil(n / m) * m;

/**
 * Writes the lowered PTO-AS of one op, line by line: fresh SSA names under a prefix no name of the
 * module uses, constants on first use (hoisted to the start of the lowering, so loops see them), and
 * `scf.for` bodies indented.
 */
export class Emitter {
  private readonly body: string[] = [];
  private readonly constants: string[] = [];
  private readonly constantNames = new Map<string, string>();
  private depth = 0;
  private counter = 0;

  constructor(private readonly prefix: string) {}

  lines(): string[] {
    return [...this.constants, ...this.body];
  }

  fresh(hint: string): string {
    return `%${this.prefix}${hint}${this.counter++}`;
  }

  line(text: string): void {
    this.body.push('  '.repeat(this.depth) + text);
  }

  constant(value: number, type: string = 'index'): string {
    const key = `${value}:${type}`;
    let name = this.constantNames.get(key);
    if (!name) {
      name = `%${this.prefix}c${value < 0 ? 'm' + -value : value}${type === 'index' ? '' : '_' + type}`;
      this.constantNames.set(key, name);
      this.constants.push(`${name} = arith.constant ${value} : ${type}`);
    }
    return name;
  }

  index(v: IndexValue): string {
    return typeof v === 'number' ? this.constant(v) : v;
  }

  /** `base * scale + offset` on index values, folding constants. */
  affine(base: IndexValue, scale: number, offset: number): IndexValue {
    if (typeof base === 'number') return base * scale + offset;
    let v: IndexValue = base;
    if (scale !== 1) {
      const product = this.fresh('m');
      this.line(`${product} = arith.muli ${v}, ${this.constant(scale)} : index`);
      v = product;
    }
    return this.add(v, offset);
  }

  /** `scf.for %i = from to to` around `body`; a single trip runs the body once with a constant. */
  loop(from: number, to: number, body: (i: IndexValue) => void): void {
    if (to <= from) return;
    if (to - from === 1) return body(from);
    const i = this.fresh('i');
    this.line(`scf.for ${i} = ${this.constant(from)} to ${this.constant(to)} step ${this.constant(1)} {`);
    this.depth++;
    body(i);
    this.depth--;
    this.line('}');
  }

  type(t: TileType): string {
    return printType(t);
  }

  alloc(shape: Shape, hint = 't'): TileValue {
    const type = vecTile(shape);
    const name = this.fresh(hint);
    this.line(`${name} = pto.alloc_tile : ${this.type(type)}`);
    return { name, type };
  }

  reshape(v: TileValue, shape: Shape, hint = 'v'): TileValue {
    const type = vecTile(shape);
    const name = this.fresh(hint);
    this.line(`${name} = pto.treshape ${v.name} : ${this.type(v.type)} -> ${this.type(type)}`);
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
    this.line(`${name} = pto.subset ${v.name}[${this.index(row)}, ${this.index(col)}] sizes [${rows}, ${cols}] : ${this.type(v.type)}`);
    return { name, type: { ...v.type, rows, cols, vRow: rows, vCol: cols } };
  }

  /** A DPS tile op: `op ins(a, b : A, B) outs(d : D) {attrs}`. */
  op(name: string, ins: TileValue[], outs: TileValue[], attrs = ''): void {
    const insText = `${ins.map((v) => v.name).join(', ')} : ${ins.map((v) => this.type(v.type)).join(', ')}`;
    const outsText = `${outs.map((v) => v.name).join(', ')} : ${outs.map((v) => this.type(v.type)).join(', ')}`;
    this.line(`pto.${name} ins(${insText}) outs(${outsText})${attrs}`);
  }

  fill(v: TileValue, value: number): void {
    const elem = elemTypeName(v.type.dtype);
    this.line(`pto.texpands ins(${this.constant(value, elem)} : ${elem}) outs(${v.name} : ${this.type(v.type)})`);
  }

  getval(v: TileValue, offset: IndexValue): string {
    const name = this.fresh('e');
    this.line(`${name} = pto.tgetval ins(${v.name}, ${this.index(offset)} : ${this.type(v.type)}, index) outs : ${elemTypeName(v.type.dtype)}`);
    return name;
  }

  setval(v: TileValue, offset: IndexValue, value: string): void {
    this.line(`pto.tsetval ins(${this.index(offset)}, ${value} : index, ${elemTypeName(v.type.dtype)}) outs(${v.name} : ${this.type(v.type)})`);
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
    const name = this.fresh('a');
    this.line(`${name} = arith.addi ${this.index(a)}, ${this.index(b)} : index`);
    return name;
  }

  cast(value: string, from: string, to: string, op: string): string {
    const name = this.fresh('x');
    this.line(`${name} = ${op} ${value} : ${from} to ${to}`);
    return name;
  }
}
