import { Attr, AttrEntry, Block, Module, OpNode, Operand, Region, ResultDef, TypeRef, attrOf, segment } from '../syntax/ast';
import { TypeTable } from '../syntax/type-table';
import { printType } from '../types/type';

/**
 * Prints a module in the current PTOAS spelling: keyword tile_buf types in their fixed order,
 * `shape = [...], strides = [...]` with the comma, `pto.partition_view` for `pto.subview`.
 * Level 1 (SSA) ops stay Level 1, with canonical types.
 */
export function printCanonical(module: Module, types: TypeTable, rewrite?: Rewrite): string {
  const p = new Printer(types, rewrite);
  for (const op of module.ops) p.op(op, 0);
  return p.lines.join('\n') + '\n';
}

/** Replaces an op by lines of PTO-AS (a lowering), or keeps it (undefined). */
export type Rewrite = (op: OpNode) => string[] | undefined;

/** Attributes printed inside `ins(...)` rather than after `outs(...)` (PTOAS's format for these ops). */
const ATTRS_INSIDE_INS = new Set(['pto.tcmp', 'pto.tcmps', 'pto.tcvt', 'pto.tci']);

/** An MLIR string literal: \\ \" \n \t, and \XX for other control characters. */
function quote(value: string): string {
  const escaped = value.replace(/[\\"\x00-\x1f\x7f]/g, (c) => {
    if (c === '\\' || c === '"') return '\\' + c;
    if (c === '\n') return '\\n';
    if (c === '\t') return '\\t';
    return '\\' + c.charCodeAt(0).toString(16).padStart(2, '0').toUpperCase();
  });
  return `"${escaped}"`;
}

const ARITH_CASTS = new Set(['arith.index_cast', 'arith.index_castui', 'arith.extsi', 'arith.extui', 'arith.trunci', 'arith.sitofp',
  'arith.uitofp', 'arith.fptosi', 'arith.fptoui', 'arith.extf', 'arith.truncf', 'arith.bitcast']);

class Printer {
  readonly lines: string[] = [];

  constructor(
    private readonly types: TypeTable,
    private readonly rewrite?: Rewrite,
  ) {}

  private type(t: TypeRef): string {
    const parsed = this.types.parse(t.text).type;
    return parsed ? printType(parsed) : t.text;
  }

  private use(o: Operand): string {
    if (o.literal !== undefined) return String(o.literal);
    const v = o.value!;
    return v.index !== undefined ? `${v.name}#${v.index}` : v.name;
  }

  private results(rs: ResultDef[]): string {
    if (rs.length === 0) return '';
    return rs.map((r) => (r.count > 1 ? `${r.name}:${r.count}` : r.name)).join(', ') + ' = ';
  }

  private typedList(os: Operand[]): string {
    if (os.length === 0) return '';
    return `${os.map((o) => this.use(o)).join(', ')} : ${os.map((o) => (o.type ? this.type(o.type) : '?')).join(', ')}`;
  }

  attr(a: Attr): string {
    switch (a.kind) {
      case 'int':
        return a.type ? `${a.value} : ${this.type(a.type)}` : `${a.value}`;
      case 'float':
        return a.type ? `${a.text} : ${this.type(a.type)}` : a.text;
      case 'string':
        return quote(a.value) + (a.type ? ` : ${this.type(a.type)}` : '');
      case 'bool':
        return String(a.value);
      case 'unit':
        return 'unit';
      case 'array':
        return `[${a.items.map((i) => this.attr(i)).join(', ')}]`;
      case 'dict':
        return this.dict(a.entries);
      case 'dialect':
        return a.text;
      case 'symbol':
        return '@' + a.name;
      case 'type':
        return this.type(a.type);
      case 'ident':
        return a.name;
    }
  }

  private dict(entries: AttrEntry[]): string {
    const key = (k: string) => (/^[A-Za-z_][\w$.]*$/.test(k) ? k : JSON.stringify(k));
    return `{${entries.map((e) => (e.value.kind === 'unit' ? key(e.key) : `${key(e.key)} = ${this.attr(e.value)}`)).join(', ')}}`;
  }

  private attrSuffix(entries: AttrEntry[]): string {
    return entries.length > 0 ? ' ' + this.dict(entries) : '';
  }

  private emit(depth: number, text: string): void {
    this.lines.push('  '.repeat(depth) + text);
  }

  private region(region: Region, depth: number, showEntryArgs = false): void {
    region.blocks.forEach((b: Block, i) => {
      if (b.label !== undefined && (i > 0 || showEntryArgs || b.args.length > 0)) {
        const args = b.args.map((a) => `${a.name}: ${a.type ? this.type(a.type) : '?'}`).join(', ');
        this.emit(depth, `${b.label}${args ? `(${args})` : ''}:`);
      }
      for (const op of b.ops) this.op(op, depth + 1);
    });
  }

  op(op: OpNode, depth: number): void {
    const replacement = this.rewrite?.(op);
    if (replacement) {
      for (const line of replacement) this.emit(depth, line);
      return;
    }
    const res = this.results(op.results);
    const others = op.attrs;
    const except = (...keys: string[]) => op.attrs.filter((a) => !keys.includes(a.key));
    switch (op.name) {
      case 'module':
        this.emit(depth, `module${op.symbol ? ' @' + op.symbol : ''}${op.attrs.length ? ' attributes ' + this.dict(op.attrs) : ''} {`);
        this.region(op.regions[0], depth);
        this.emit(depth, '}');
        return;
      case 'func.func': {
        const body = op.regions[0];
        const params = (op.params ?? []).map((a) => `${a.name}: ${a.type ? this.type(a.type) : '?'}`).join(', ');
        const results = op.resultTypes.length === 0 ? '' : op.resultTypes.length === 1 ? ` -> ${this.type(op.resultTypes[0])}` : ` -> (${op.resultTypes.map((t) => this.type(t)).join(', ')})`;
        const attrs = op.attrs.length ? ' attributes ' + this.dict(op.attrs) : '';
        if (!body) {
          this.emit(depth, `func.func private @${op.symbol}(${params})${results}${attrs}`);
          return;
        }
        this.emit(depth, `func.func @${op.symbol}(${params})${results}${attrs} {`);
        this.region(body, depth);
        this.emit(depth, '}');
        return;
      }
      case 'func.return': {
        const values = segment(op, 'values');
        this.emit(depth, values.length ? `return ${this.typedList(values)}` : 'return');
        return;
      }
      case 'arith.constant': {
        const v = attrOf(op, 'value')!;
        const dict = except('value');
        this.emit(depth, `${res}arith.constant ${dict.length ? this.dict(dict) + ' ' : ''}${this.attr(v)}`);
        return;
      }
      case 'arith.cmpi':
      case 'arith.cmpf': {
        const pred = attrOf(op, 'predicate');
        const [a, b] = op.operands;
        this.emit(depth, `${res}${op.name} ${pred?.kind === 'ident' ? pred.name : '?'}, ${this.use(a)}, ${this.use(b)}${this.attrSuffix(except('predicate'))} : ${a.type ? this.type(a.type) : '?'}`);
        return;
      }
      case 'arith.select': {
        const [c, a, b] = op.operands;
        const condType = c.type && c.type.text !== 'i1' ? `${this.type(c.type)}, ` : '';
        this.emit(depth, `${res}arith.select ${this.use(c)}, ${this.use(a)}, ${this.use(b)}${this.attrSuffix(others)} : ${condType}${this.type(op.resultTypes[0])}`);
        return;
      }
      case 'scf.for': {
        const [lb, ub, step] = ['lb', 'ub', 'step'].map((k) => this.use(segment(op, k)[0]));
        const body = op.regions[0];
        const inits = segment(op, 'init');
        const iter = inits.length
          ? ` iter_args(${inits.map((o, i) => `${body.blocks[0].args[i + 1].name} = ${this.use(o)}`).join(', ')}) -> (${op.resultTypes.map((t) => this.type(t)).join(', ')})`
          : '';
        const ivType = segment(op, 'lb')[0].type;
        const forType = ivType && ivType.text !== 'index' ? ` : ${this.type(ivType)}` : '';
        this.emit(depth, `${res}scf.for ${body.blocks[0].args[0].name} = ${lb} to ${ub} step ${step}${iter}${forType} {`);
        this.region(body, depth);
        this.emit(depth, `}${this.attrSuffix(others)}`);
        return;
      }
      case 'scf.if': {
        const types = op.resultTypes.length ? ` -> (${op.resultTypes.map((t) => this.type(t)).join(', ')})` : '';
        this.emit(depth, `${res}scf.if ${this.use(op.operands[0])}${types} {`);
        this.region(op.regions[0], depth);
        if (op.regions[1]) {
          this.emit(depth, '} else {');
          this.region(op.regions[1], depth);
        }
        this.emit(depth, `}${this.attrSuffix(others)}`);
        return;
      }
      case 'scf.while': {
        const before = op.regions[0].blocks[0];
        const inits = op.operands.map((o, i) => `${before.args[i].name} = ${this.use(o)}`).join(', ');
        const ins = op.operands.map((o) => (o.type ? this.type(o.type) : '?')).join(', ');
        const outs = op.resultTypes.map((t) => this.type(t)).join(', ');
        this.emit(depth, `${res}scf.while (${inits}) : (${ins}) -> (${outs}) {`);
        this.region(op.regions[0], depth);
        this.emit(depth, '} do {');
        this.region(op.regions[1], depth, true);
        this.emit(depth, `}${this.attrSuffix(others)}`);
        return;
      }
      case 'scf.condition': {
        const values = segment(op, 'values');
        this.emit(depth, `scf.condition(${this.use(op.operands[0])})${values.length ? ' ' + this.typedList(values) : ''}`);
        return;
      }
      case 'scf.yield': {
        const values = segment(op, 'values');
        this.emit(depth, values.length ? `scf.yield ${this.typedList(values)}` : 'scf.yield');
        return;
      }
      case 'pto.section.vector':
      case 'pto.section.cube':
        this.emit(depth, `${op.name} {`);
        this.region(op.regions[0], depth);
        this.emit(depth, `}${this.attrSuffix(others)}`);
        return;
      case 'pto.make_tensor_view': {
        const list = (k: string) => `[${segment(op, k).map((o) => this.use(o)).join(', ')}]`;
        this.emit(depth, `${res}pto.make_tensor_view ${this.use(op.operands[0])}, shape = ${list('shape')}, strides = ${list('strides')}${this.attrSuffix(others)} : ${this.type(op.resultTypes[0])}`);
        return;
      }
      case 'pto.partition_view': {
        const list = (k: string) => `[${segment(op, k).map((o) => this.use(o)).join(', ')}]`;
        const src = op.operands[0];
        const result = op.resultTypes[0] ? ` -> ${this.type(op.resultTypes[0])}` : '';
        this.emit(depth, `${res}pto.partition_view ${this.use(src)}, offsets = ${list('offsets')}, sizes = ${list('sizes')}${this.attrSuffix(others)} : ${src.type ? this.type(src.type) : '?'}${result}`);
        return;
      }
      case 'pto.subset': {
        const src = op.operands[0];
        const offsets = segment(op, 'offsets').map((o) => this.use(o)).join(', ');
        const sizes = attrOf(op, 'sizes');
        this.emit(depth, `${res}pto.subset ${this.use(src)}[${offsets}] sizes ${sizes ? this.attr(sizes) : '[]'}${this.attrSuffix(except('sizes'))} : ${src.type ? this.type(src.type) : '?'}`);
        return;
      }
      case 'pto.alloc_tile': {
        const keyed = ['addr', 'valid_row', 'valid_col'].filter((k) => op.segments[k]).map((k) => ` ${k} = ${this.use(segment(op, k)[0])}`).join('');
        this.emit(depth, `${res}pto.alloc_tile${keyed}${this.attrSuffix(others)} : ${this.type(op.resultTypes[0])}`);
        return;
      }
      case 'func.call': {
        const callee = attrOf(op, 'callee');
        const results = op.resultTypes.map((t) => this.type(t));
        const signature = `(${op.operands.map((o) => (o.type ? this.type(o.type) : '?')).join(', ')}) -> ${results.length === 1 ? results[0] : `(${results.join(', ')})`}`;
        this.emit(depth, `${res}func.call ${callee ? this.attr(callee) : '@?'}(${op.operands.map((o) => this.use(o)).join(', ')})${this.attrSuffix(except('callee'))} : ${signature}`);
        return;
      }
      case 'pto.addptr':
      case 'pto.get_tensor_view_dim': {
        const [a, b] = op.operands;
        this.emit(depth, `${res}${op.name} ${this.use(a)}, ${this.use(b)}${this.attrSuffix(others)} : ${a.type ? this.type(a.type) : '?'} -> ${this.type(op.resultTypes[0])}`);
        return;
      }
      case 'pto.load_scalar': {
        const [ptr, offset] = op.operands;
        this.emit(depth, `${res}pto.load_scalar ${this.use(ptr)}[${this.use(offset)}]${this.attrSuffix(others)} : ${ptr.type ? this.type(ptr.type) : '?'} -> ${this.type(op.resultTypes[0])}`);
        return;
      }
      case 'pto.store_scalar': {
        const [value, ptr, offset] = op.operands;
        const types = `${ptr.type ? this.type(ptr.type) : '?'}, ${value.type ? this.type(value.type) : '?'}`;
        this.emit(depth, `pto.store_scalar ${this.use(value)}, ${this.use(ptr)}[${this.use(offset)}]${this.attrSuffix(others)} : ${types}`);
        return;
      }
      case 'pto.print': {
        const format = attrOf(op, 'format');
        const value = op.operands[0];
        this.emit(depth, `pto.print ins(${format ? this.attr(format) : '""'}, ${this.use(value)} : ${value.type ? this.type(value.type) : '?'})${this.attrSuffix(except('format'))}`);
        return;
      }
      case 'memref.alloc':
        this.emit(depth, `${res}memref.alloc(${op.operands.map((o) => this.use(o)).join(', ')})${this.attrSuffix(others)} : ${this.type(op.resultTypes[0])}`);
        return;
      case 'pto.pointer_cast':
        this.emit(depth, `${res}pto.pointer_cast(${op.operands.map((o) => this.use(o)).join(', ')})${this.attrSuffix(others)} : ${this.type(op.resultTypes[0])}`);
        return;
      case 'memref.subview': {
        const list = (k: string) => `[${segment(op, k).map((o) => this.use(o)).join(', ')}]`;
        const src = op.operands[0];
        this.emit(depth, `${res}memref.subview ${this.use(src)}${list('offsets')} ${list('sizes')} ${list('strides')}${this.attrSuffix(others)} : ${src.type ? this.type(src.type) : '?'} to ${this.type(op.resultTypes[0])}`);
        return;
      }
      case 'pto.bind_tile': {
        const [src, rows, cols] = op.operands;
        this.emit(depth, `${res}pto.bind_tile ${this.use(src)}, ${this.use(rows)}, ${this.use(cols)}${this.attrSuffix(others)} : ${src.type ? this.type(src.type) : '?'} -> ${this.type(op.resultTypes[0])}`);
        return;
      }
      case 'affine.apply': {
        const map = attrOf(op, 'map');
        const symbols = segment(op, 'symbols');
        const dims = segment(op, 'dims').map((o) => this.use(o)).join(', ');
        this.emit(depth, `${res}affine.apply ${map ? this.attr(map) : '?'}(${dims})${symbols.length ? `[${symbols.map((o) => this.use(o)).join(', ')}]` : ''}${this.attrSuffix(except('map'))}`);
        return;
      }
    }
    if (op.positional) {
      // An SSA value in the list stands in a segment named by its position.
      const items = op.positional.items.map((a, i) => (op.segments[String(i)] ? this.use(segment(op, String(i))[0]) : this.attr(a)));
      const args = op.positional.bracketed ? `[${items.join(', ')}]` : ` ${items.join(', ')}`;
      this.emit(depth, `${res}${op.name}${args}${this.attrSuffix(others)}`);
      return;
    }
    if (op.name.startsWith('arith.')) {
      if (ARITH_CASTS.has(op.name)) {
        const from = op.operands[0].type;
        this.emit(depth, `${res}${op.name} ${this.use(op.operands[0])}${this.attrSuffix(others)} : ${from ? this.type(from) : '?'} to ${this.type(op.resultTypes[0])}`);
      } else {
        this.emit(depth, `${res}${op.name} ${op.operands.map((o) => this.use(o)).join(', ')}${this.attrSuffix(others)} : ${this.type(op.resultTypes[0])}`);
      }
      return;
    }
    if (op.form === 'dps') {
      const inside = ATTRS_INSIDE_INS.has(op.name);
      const ins = segment(op, 'ins');
      const outs = segment(op, 'outs');
      const insText = ins.length ? `${ins.map((o) => this.use(o)).join(', ')}${inside ? this.attrSuffix(others) : ''} : ${ins.map((o) => (o.type ? this.type(o.type) : '?')).join(', ')}` : '';
      // `outs : T` is a scalar result (pto.tgetval); `-> T` declares results next to outs operands.
      const scalarOuts = outs.length === 0 && op.resultTypes.length > 0;
      const outsText = outs.length ? ` outs(${this.typedList(outs)})` : scalarOuts ? ` outs : ${this.type(op.resultTypes[0])}` : '';
      const trailer = !inside ? this.attrSuffix(others) : '';
      const trailingOperands = Object.keys(op.segments)
        .filter((k) => k !== 'ins' && k !== 'outs')
        .map((k) => {
          const o = segment(op, k)[0];
          return ` ${k} = ${this.use(o)}${o.type ? ' : ' + this.type(o.type) : ''}`;
        })
        .join('');
      const types = op.resultTypes.map((t) => this.type(t));
      const declared = scalarOuts || types.length === 0 ? '' : types.length === 1 ? ` -> ${types[0]}` : ` -> (${types.join(', ')})`;
      this.emit(depth, `${res}${op.name} ins(${insText})${outsText}${trailer}${trailingOperands}${declared}`);
      return;
    }
    // Level 1 / generic SSA form.
    const operands = op.operands.map((o) => this.use(o)).join(', ');
    const inTypes = op.operands.map((o) => (o.type ? this.type(o.type) : '?'));
    const outTypes = op.resultTypes.map((t) => this.type(t));
    let sig = '';
    if (inTypes.length || outTypes.length) {
      const lhs = inTypes.length === 1 ? inTypes[0] : `(${inTypes.join(', ')})`;
      const rhs = outTypes.length === 1 ? outTypes[0] : `(${outTypes.join(', ')})`;
      sig = ` : ${lhs} -> ${rhs}`;
    }
    this.emit(depth, `${res}${op.name}${operands ? ' ' + operands : ''}${this.attrSuffix(others)}${sig}`);
  }
}
