import { Attr, AttrEntry, Block, BlockArg, Module, OpNode, Operand, ParenLayout, Region, ResultDef, TypeRef, attrOf, segment } from '../syntax/ast';
import { TypeTable } from '../syntax/type-table';
import { printType } from '../types/type';
import { opRegistry } from '../ops/registry';
import { todaysDpsOrder } from '../ir/definition';

/**
 * Prints a module in the current PTOAS spelling: keyword tile_buf types in their fixed order,
 * `shape = [...], strides = [...]` with the comma, `pto.partition_view` for `pto.subview`.
 * Level 1 (SSA) ops stay Level 1, with canonical types.
 */
export function printCanonical(module: Module, types: TypeTable): string {
  const p = new Printer(types);
  for (const op of module.ops) p.op(op, 0);
  return p.lines.join('\n') + '\n';
}

/** An MLIR string literal: \\ \" \n \t, and \XX for other control characters. */
function quote(value: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what gets escaped
  const escaped = value.replace(/[\\"\x00-\x1f\x7f]/g, (c) => {
    if (c === '\\' || c === '"') return '\\' + c;
    if (c === '\n') return '\\n';
    if (c === '\t') return '\\t';
    return '\\' + c.charCodeAt(0).toString(16).padStart(2, '0').toUpperCase();
  });
  return `"${escaped}"`;
}

class Printer {
  readonly lines: string[] = [];

  constructor(private readonly types: TypeTable) {}

  type(t: TypeRef): string {
    const parsed = this.types.resolve(t).type;
    if (!parsed) return t.text;
    // The type model folds a signed integer (si8) into the signless one; PTOAS's fixpipe contracts tell them apart.
    const signed = /si(8|16|32|64)\b/.exec(t.text);
    return signed ? printType(parsed).replace(new RegExp(`(?<=[x=<\\s,])i${signed[1]}\\b`), `si${signed[1]}`) : printType(parsed);
  }

  use(o: Operand): string {
    if (o.literal !== undefined) return String(o.literal);
    const v = o.value!;
    return v.index !== undefined ? `${v.name}#${v.index}` : v.name;
  }

  results(rs: ResultDef[]): string {
    if (rs.length === 0) return '';
    return rs.map((r) => (r.count > 1 ? `${r.name}:${r.count}` : r.name)).join(', ') + ' = ';
  }

  /** `^bb1` or `^bb1(%x, %y : i32, f32)`. */
  successor(op: OpNode, k: number): string {
    const { label, operands } = op.successors![k];
    const args = operands.map((i) => op.operands[i]);
    return args.length ? `${label}(${this.typedList(args)})` : label;
  }

  typedList(os: Operand[]): string {
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
        if (a.dense !== undefined) return `array<${a.dense}${a.items.length ? ': ' : ''}${a.items.map((i) => this.attr(i)).join(', ')}>`;
        return `[${a.items.map((i) => this.attr(i)).join(', ')}]`;
      case 'dense':
        return `dense<${this.attr(a.elements)}>` + (a.type ? ` : ${this.type(a.type)}` : '');
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

  dict(entries: AttrEntry[]): string {
    const key = (k: string) => (/^[A-Za-z_][\w$.]*$/.test(k) ? k : JSON.stringify(k));
    return `{${entries.map((e) => (e.value.kind === 'unit' ? key(e.key) : `${key(e.key)} = ${this.attr(e.value)}`)).join(', ')}}`;
  }

  attrSuffix(entries: AttrEntry[]): string {
    return entries.length > 0 ? ' ' + this.dict(entries) : '';
  }

  typeList(types: TypeRef[]): string {
    return types.length === 1 ? this.type(types[0]) : `(${types.map((t) => this.type(t)).join(', ')})`;
  }

  /** The parenthesized form, with its parts where they were written (see ParenLayout). */
  paren(op: OpNode, layout: ParenLayout, depth: number, res: string): void {
    const leading = op.attrs.filter((a) => layout.leadingAttrs.includes(a.key));
    const keywords = op.attrs.filter((a) => layout.keywordAttrs.includes(a.key));
    const rest = op.attrs.filter((a) => !layout.leadingAttrs.includes(a.key) && !layout.keywordAttrs.includes(a.key));
    const segmentOf = new Map<number, string>();
    for (const [name, indices] of Object.entries(op.segments)) for (const i of indices) segmentOf.set(i, name);
    const items: string[] = [];
    const clausesDone = new Set<string>();
    op.operands.forEach((o, i) => {
      const name = segmentOf.get(i) ?? 'operands';
      const typed = layout.typedItems ? ` : ${typeOf(this, o)}` : '';
      if (layout.trailingClauses.includes(name)) return;
      if (layout.keyedSegments.includes(name)) items.push(`${name} = ${this.use(o)}${typed}`);
      else if (layout.clauseSegments.includes(name)) {
        if (!clausesDone.has(name))
          items.push(
            `${name}(${segment(op, name)
              .map((x) => this.use(x))
              .join(', ')})`,
          );
        clausesDone.add(name);
      } else items.push(`${this.use(o)}${typed}`);
    });
    const inside = op.operands.filter((_, i) => !layout.trailingClauses.includes(segmentOf.get(i) ?? ''));
    const types =
      !layout.typedItems && !layout.signature && inside.length && inside.every((o) => o.type) ? ` : ${inside.map((o) => typeOf(this, o)).join(', ')}` : '';
    const keywordText = keywords.length ? ' ' + keywords.map((a) => `${a.key} = ${this.attr(a.value)}`).join(', ') : '';
    const clauses = layout.trailingClauses.map((k) => ` ${k}(${this.use(segment(op, k)[0])})`).join('');
    const results = layout.signature
      ? ` : (${inside.map((o) => typeOf(this, o)).join(', ')}) -> ${this.typeList(op.resultTypes)}`
      : op.resultTypes.length
        ? ` -> ${this.typeList(op.resultTypes)}`
        : '';
    this.emit(
      depth,
      `${res}${op.name}${leading.length ? ` ${this.dict(leading)} ` : ''}(${items.join(', ')}${types})${keywordText}${this.attrSuffix(rest)}${clauses}${results}`,
    );
  }

  emit(depth: number, text: string): void {
    this.lines.push('  '.repeat(depth) + text);
  }

  region(region: Region, depth: number, showEntryArgs = false): void {
    region.blocks.forEach((b: Block, i) => {
      if (b.label !== undefined && (i > 0 || showEntryArgs || b.args.length > 0)) {
        const args = b.args.map((a) => `${a.name}: ${a.type ? this.type(a.type) : '?'}`).join(', ');
        this.emit(depth, `${b.label}${args ? `(${args})` : ''}:`);
      }
      for (const op of b.ops) this.op(op, depth + 1);
    });
  }

  op(op: OpNode, depth: number): void {
    const res = this.results(op.results);
    const others = op.attrs;
    const syntax = opRegistry().syntaxOf(op.name)?.syntax;
    const custom = syntax ? CUSTOM_SYNTAX[syntax] : undefined;
    if (custom) {
      custom.call(this, op, depth, res);
      return;
    }
    if (opRegistry().lookup(op.name)?.def.properties?.genericForm) {
      // `%r = "pto.vmi.unpack"(%a) : (A) -> (B, C)`, the only form PTOAS reads of it.
      const types = (list: string[]) => (list.length === 1 ? list[0] : `(${list.join(', ')})`);
      const inTypes = op.operands.map((o) => (o.type ? this.type(o.type) : '?'));
      const sig = ` : (${inTypes.join(', ')}) -> ${types(op.resultTypes.map((t) => this.type(t)))}`;
      this.emit(depth, `${res}"${op.name}"(${op.operands.map((o) => this.use(o)).join(', ')})${this.attrSuffix(others)}${sig}`);
      return;
    }
    if (op.positional) {
      // An SSA value in the list stands in a segment named by its position; a list written otherwise than PTOAS
      // prints it today is printed as today.
      const list = opRegistry().lookup(op.name)?.def.properties?.todaysPositional?.(op) ?? op.positional;
      const items = list.items.map((a, i) => (op.segments[String(i)] ? this.use(segment(op, String(i))[0]) : this.attr(a)));
      const args = list.bracketed ? `[${items.join(', ')}]` : ` ${items.join(', ')}`;
      this.emit(depth, `${res}${op.name}${args}${this.attrSuffix(others)}`);
      return;
    }
    if (op.form === 'dps') {
      const properties = opRegistry().lookup(op.name)?.def.properties;
      const inside = properties?.attributesInIns === true;
      // The old form (sources after the destinations in outs) is printed as today's, in ins.
      const { ins, outs } = todaysDpsOrder(segment(op, 'ins'), segment(op, 'outs'), properties?.formerlyOuts) ?? {
        ins: segment(op, 'ins'),
        outs: segment(op, 'outs'),
      };
      const keywords = op.insKeywords ?? [];
      const keywordText = keywords
        .map((k) => {
          const o = segment(op, k)[0];
          return ` ${k} ${this.use(o)} : ${o.type ? this.type(o.type) : '?'}`;
        })
        .join('');
      // PTOAS's tgather/tscatter write their axis as a string after the ins types.
      const typesAttr = op.attrs.find((a) => a.key === op.insTypesAttr);
      const rest = typesAttr ? others.filter((a) => a !== typesAttr) : others;
      const markers = (op.insMarkers ?? []).map((m) => ` ${m}`).join('');
      const insText =
        (ins.length
          ? `${ins.map((o) => this.use(o)).join(', ')}${markers}${inside ? this.attrSuffix(rest) : ''} : ${ins.map((o) => (o.type ? this.type(o.type) : '?')).join(', ')}${typesAttr ? `, ${this.attr(typesAttr.value)}` : ''}`
          : '') + keywordText;
      // `outs : T` is a scalar result (pto.tgetval); `-> T` declares results next to outs operands.
      const scalarOuts = outs.length === 0 && op.resultTypes.length > 0;
      const outsText = outs.length ? ` outs(${this.typedList(outs)})` : scalarOuts ? ` outs : ${this.type(op.resultTypes[0])}` : '';
      const trailer = !inside ? this.attrSuffix(rest) : '';
      const trailingOperands = Object.keys(op.segments)
        .filter((k) => k !== 'ins' && k !== 'outs' && !keywords.includes(k))
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
    if (op.form === 'paren' && op.paren) {
      this.paren(op, op.paren, depth, res);
      return;
    }
    if (op.arrowResults || op.clauses) {
      // `pto.tpop_from_aic {split = 0} aiv_subblockid(%sb) -> T`: operands, attributes, clauses, `-> results`.
      const plain = segment(op, 'operands').map((o) => this.use(o));
      const clauses = (op.clauses ?? []).map((k) => ` ${k}(${this.use(segment(op, k)[0])})`).join('');
      const results = op.resultTypes.length ? ` -> ${this.typeList(op.resultTypes)}` : '';
      this.emit(depth, `${res}${op.name}${plain.length ? ' ' + plain.join(', ') : ''}${this.attrSuffix(others)}${clauses}${results}`);
      return;
    }
    // Level 1 / generic SSA form.
    const operands = op.operands.map((o) => this.use(o)).join(', ');
    const inTypes = op.operands.map((o) => (o.type ? this.type(o.type) : '?'));
    const outTypes = op.resultTypes.map((t) => this.type(t));
    let sig = '';
    if ((op as OpNode & { signatureSingle?: boolean }).signatureSingle && op.results.length === 0 && inTypes.length > 0) {
      // `op %a : T`: one type for the operands, and no result.
      sig = ` : ${inTypes[0]}`;
    } else if (inTypes.length || outTypes.length) {
      const lhs = inTypes.length === 1 ? inTypes[0] : `(${inTypes.join(', ')})`;
      const rhs = outTypes.length === 1 ? outTypes[0] : `(${outTypes.join(', ')})`;
      sig = ` : ${lhs} -> ${rhs}`;
    }
    this.emit(depth, `${res}${op.name}${operands ? ' ' + operands : ''}${this.attrSuffix(others)}${sig}`);
  }
}

type SyntaxPrinter = (this: Printer, op: OpNode, depth: number, res: string) => void;

/** The operands of a segment as a bracketed list: `[%a, 0, %b]`. */
function list(p: Printer, op: OpNode, key: string): string {
  return `[${segment(op, key)
    .map((o) => p.use(o))
    .join(', ')}]`;
}

const typeOf = (p: Printer, o: Operand | undefined): string => (o?.type ? p.type(o.type) : '?');
const except = (op: OpNode, ...keys: string[]): AttrEntry[] => op.attrs.filter((a) => !keys.includes(a.key));

/** `ptr, offset : T -> R` (pto.addptr, pto.get_tensor_view_dim). */
const twoOperandsArrow: SyntaxPrinter = function (op, depth, res) {
  const [a, b] = op.operands;
  this.emit(depth, `${res}${op.name} ${this.use(a)}, ${this.use(b)}${this.attrSuffix(op.attrs)} : ${typeOf(this, a)} -> ${this.type(op.resultTypes[0])}`);
};

/** `(addresses) : T` (memref.alloc, pto.pointer_cast). */
const parenthesizedOperands: SyntaxPrinter = function (op, depth, res) {
  this.emit(depth, `${res}${op.name}(${op.operands.map((o) => this.use(o)).join(', ')})${this.attrSuffix(op.attrs)} : ${this.type(op.resultTypes[0])}`);
};

/**
 * The printer of each custom syntax, by the grammar rule that parses it (an op's definition names the rule):
 * each prints what its rule reads, in the current PTOAS spelling.
 */
const CUSTOM_SYNTAX: Record<string, SyntaxPrinter> = {
  ModuleBody(op, depth) {
    this.emit(depth, `${op.name}${op.symbol ? ' @' + op.symbol : ''}${op.attrs.length ? ' attributes ' + this.dict(op.attrs) : ''} {`);
    this.region(op.regions[0], depth);
    this.emit(depth, '}');
  },
  FuncBody(op, depth) {
    const body = op.regions[0];
    const typeOf = (a: BlockArg) => (a.type ? this.type(a.type) : '?');
    const params = (op.params ?? []).map((a) => (a.name === '' ? typeOf(a) : `${a.name}: ${typeOf(a)}`)).join(', ');
    const results =
      op.resultTypes.length === 0
        ? ''
        : op.resultTypes.length === 1
          ? ` -> ${this.type(op.resultTypes[0])}`
          : ` -> (${op.resultTypes.map((t) => this.type(t)).join(', ')})`;
    const attrs = op.attrs.length ? ' attributes ' + this.dict(op.attrs) : '';
    // A declaration is private (MLIR's rule); a definition keeps the visibility written.
    const visibility = !body ? 'private ' : op.visibility ? `${op.visibility} ` : '';
    if (!body) {
      this.emit(depth, `${op.name} ${visibility}@${op.symbol}(${params})${results}${attrs}`);
      return;
    }
    this.emit(depth, `${op.name} ${visibility}@${op.symbol}(${params})${results}${attrs} {`);
    this.region(body, depth);
    this.emit(depth, '}');
  },
  // MLIR prints the function terminator by its short name.
  ReturnBody(op, depth) {
    const values = segment(op, 'values');
    this.emit(depth, values.length ? `return ${this.typedList(values)}` : 'return');
  },
  CallBody(op, depth, res) {
    const callee = attrOf(op, 'callee');
    const results = op.resultTypes.map((t) => this.type(t));
    const signature = `(${op.operands.map((o) => typeOf(this, o)).join(', ')}) -> ${results.length === 1 ? results[0] : `(${results.join(', ')})`}`;
    this.emit(
      depth,
      `${res}${op.name} ${callee ? this.attr(callee) : '@?'}(${op.operands.map((o) => this.use(o)).join(', ')})${this.attrSuffix(except(op, 'callee'))} : ${signature}`,
    );
  },
  SimtLaunchBody(op, depth) {
    const callee = attrOf(op, 'callee');
    const [dims, args] = [segment(op, 'dims'), segment(op, 'args')];
    const signature = `(${args.map((o) => typeOf(this, o)).join(', ')}) -> ()`;
    this.emit(
      depth,
      `${op.name} ${callee ? this.attr(callee) : '@?'}<<<${dims.map((o) => this.use(o)).join(', ')}>>>(${args.map((o) => this.use(o)).join(', ')})${this.attrSuffix(except(op, 'callee'))} : ${signature}`,
    );
  },
  ScfForBody(op, depth, res) {
    const [lb, ub, step] = ['lb', 'ub', 'step'].map((k) => this.use(segment(op, k)[0]));
    const body = op.regions[0];
    const inits = segment(op, 'init');
    const iter = inits.length
      ? ` iter_args(${inits.map((o, i) => `${body.blocks[0].args[i + 1].name} = ${this.use(o)}`).join(', ')}) -> (${op.resultTypes.map((t) => this.type(t)).join(', ')})`
      : '';
    const ivType = segment(op, 'lb')[0].type;
    const forType = ivType && ivType.text !== 'index' ? ` : ${this.type(ivType)}` : '';
    this.emit(depth, `${res}${op.name} ${body.blocks[0].args[0].name} = ${lb} to ${ub} step ${step}${iter}${forType} {`);
    this.region(body, depth);
    this.emit(depth, `}${this.attrSuffix(op.attrs)}`);
  },
  ScfIfBody(op, depth, res) {
    const types = op.resultTypes.length ? ` -> (${op.resultTypes.map((t) => this.type(t)).join(', ')})` : '';
    this.emit(depth, `${res}${op.name} ${this.use(op.operands[0])}${types} {`);
    this.region(op.regions[0], depth);
    if (op.regions[1]) {
      this.emit(depth, '} else {');
      this.region(op.regions[1], depth);
    }
    this.emit(depth, `}${this.attrSuffix(op.attrs)}`);
  },
  ScfWhileBody(op, depth, res) {
    const before = op.regions[0].blocks[0];
    const inits = op.operands.map((o, i) => `${before.args[i].name} = ${this.use(o)}`).join(', ');
    const ins = op.operands.map((o) => typeOf(this, o)).join(', ');
    const outs = op.resultTypes.map((t) => this.type(t)).join(', ');
    this.emit(depth, `${res}${op.name} (${inits}) : (${ins}) -> (${outs}) {`);
    this.region(op.regions[0], depth);
    this.emit(depth, '} do {');
    this.region(op.regions[1], depth, true);
    this.emit(depth, `}${this.attrSuffix(op.attrs)}`);
  },
  ScfConditionBody(op, depth) {
    const values = segment(op, 'values');
    this.emit(depth, `${op.name}(${this.use(op.operands[0])})${values.length ? ' ' + this.typedList(values) : ''}`);
  },
  ScfExecuteRegionBody(op, depth, res) {
    const types = op.resultTypes.length
      ? ` -> ${op.resultTypes.length === 1 ? this.type(op.resultTypes[0]) : `(${op.resultTypes.map((t) => this.type(t)).join(', ')})`}`
      : '';
    this.emit(depth, `${res}${op.name}${types} {`);
    this.region(op.regions[0], depth);
    this.emit(depth, `}${this.attrSuffix(op.attrs)}`);
  },
  CfBrBody(op, depth) {
    this.emit(depth, `${op.name} ${this.successor(op, 0)}${this.attrSuffix(op.attrs)}`);
  },
  CfCondBrBody(op, depth) {
    this.emit(depth, `${op.name} ${this.use(op.operands[0])}, ${this.successor(op, 0)}, ${this.successor(op, 1)}${this.attrSuffix(op.attrs)}`);
  },
  ScfYieldBody(op, depth) {
    const values = segment(op, 'values');
    this.emit(depth, values.length ? `${op.name} ${this.typedList(values)}` : op.name);
  },
  ArithConstantBody(op, depth, res) {
    const v = attrOf(op, 'value')!;
    const dict = except(op, 'value');
    this.emit(depth, `${res}${op.name} ${dict.length ? this.dict(dict) + ' ' : ''}${this.attr(v)}`);
  },
  ArithCmpBody(op, depth, res) {
    const pred = attrOf(op, 'predicate');
    const [a, b] = op.operands;
    this.emit(
      depth,
      `${res}${op.name} ${pred?.kind === 'ident' ? pred.name : '?'}, ${this.use(a)}, ${this.use(b)}${this.attrSuffix(except(op, 'predicate'))} : ${typeOf(this, a)}`,
    );
  },
  ArithSelectBody(op, depth, res) {
    const [c, a, b] = op.operands;
    const condType = c.type && c.type.text !== 'i1' ? `${this.type(c.type)}, ` : '';
    this.emit(
      depth,
      `${res}${op.name} ${this.use(c)}, ${this.use(a)}, ${this.use(b)}${this.attrSuffix(op.attrs)} : ${condType}${this.type(op.resultTypes[0])}`,
    );
  },
  ArithCastBody(op, depth, res) {
    this.emit(
      depth,
      `${res}${op.name} ${this.use(op.operands[0])}${this.attrSuffix(op.attrs)} : ${typeOf(this, op.operands[0])} to ${this.type(op.resultTypes[0])}`,
    );
  },
  ArithBody(op, depth, res) {
    this.emit(depth, `${res}${op.name} ${op.operands.map((o) => this.use(o)).join(', ')}${this.attrSuffix(op.attrs)} : ${this.type(op.resultTypes[0])}`);
  },
  StrictVecScopeBody(op, depth) {
    const captures = segment(op, 'captures');
    this.emit(depth, `${op.name}(${captures.map((o) => this.use(o)).join(', ')}) {`);
    this.region(op.regions[0], depth, true);
    this.emit(depth, `}${this.attrSuffix(op.attrs)} : (${captures.map((o) => typeOf(this, o)).join(', ')}) -> ()`);
  },
  SectionBody(op, depth) {
    this.emit(depth, `${op.name} {`);
    this.region(op.regions[0], depth);
    this.emit(depth, `}${this.attrSuffix(op.attrs)}`);
  },
  SimtSectionBody(op, depth) {
    const dims = ['dimX', 'dimY', 'dimZ'].map((k) => {
      const a = attrOf(op, k);
      return a ? this.attr(a) : '?';
    });
    this.emit(depth, `${op.name}<<<${dims.join(', ')}>>> {`);
    this.region(op.regions[0], depth);
    this.emit(depth, `}${this.attrSuffix(except(op, 'dimX', 'dimY', 'dimZ'))}`);
  },
  FusionRegionBody(op, depth, res) {
    this.emit(depth, `${res}${op.name} {`);
    this.region(op.regions[0], depth);
    const types = op.resultTypes.length ? ` : ${op.resultTypes.map((t) => this.type(t)).join(', ')}` : '';
    this.emit(depth, `}${this.attrSuffix(op.attrs)}${types}`);
  },
  FenceBody(op, depth) {
    const scope = attrOf(op, 'scope');
    this.emit(depth, `${op.name} ${scope ? this.attr(scope) : '?'}${this.attrSuffix(except(op, 'scope'))}`);
  },
  CacheInvalidBody(op, depth) {
    const addr = segment(op, 'addr')[0];
    if (addr) this.emit(depth, `${op.name} ${this.use(addr)} single_cache_line : ${typeOf(this, addr)}${this.attrSuffix(except(op, 'space'))}`);
    else {
      const space = attrOf(op, 'space');
      this.emit(depth, `${op.name} all ${space ? this.attr(space) : '?'}${this.attrSuffix(except(op, 'space'))}`);
    }
  },
  IndexedAccessBody(op, depth, res) {
    const storage = op.operands[0];
    const path = attrOf(op, 'path');
    const index = path?.kind === 'array' ? path.items.map((i) => this.attr(i)) : segment(op, 'indices').map((o) => this.use(o));
    const value = segment(op, 'value')[0];
    const result = op.resultTypes[0] ? ` -> ${this.type(op.resultTypes[0])}` : '';
    this.emit(
      depth,
      `${res}${op.name} ${this.use(storage)}[${index.join(', ')}]${value ? ', ' + this.use(value) : ''}${this.attrSuffix(except(op, 'path'))} : ${typeOf(this, storage)}${value?.type ? ', ' + this.type(value.type) : ''}${result}`,
    );
  },
  MakeTensorViewBody(op, depth, res) {
    this.emit(
      depth,
      `${res}${op.name} ${this.use(op.operands[0])}, shape = ${list(this, op, 'shape')}, strides = ${list(this, op, 'strides')}${this.attrSuffix(op.attrs)} : ${this.type(op.resultTypes[0])}`,
    );
  },
  PartitionViewBody(op, depth, res) {
    const src = op.operands[0];
    const result = op.resultTypes[0] ? ` -> ${this.type(op.resultTypes[0])}` : '';
    this.emit(
      depth,
      `${res}${op.name} ${this.use(src)}, offsets = ${list(this, op, 'offsets')}, sizes = ${list(this, op, 'sizes')}${this.attrSuffix(op.attrs)} : ${typeOf(this, src)}${result}`,
    );
  },
  FirstOperandTypedBody(op, depth, res) {
    const result = op.resultTypes[0] ? ` -> ${this.type(op.resultTypes[0])}` : '';
    this.emit(
      depth,
      `${res}${op.name} ${op.operands.map((o) => this.use(o)).join(', ')}${this.attrSuffix(op.attrs)} : ${typeOf(this, op.operands[0])}${result}`,
    );
  },
  SubviewBody(op, depth, res) {
    const src = op.operands[0];
    const offsets = segment(op, 'offsets')
      .map((o) => this.use(o))
      .join(', ');
    const sizes = attrOf(op, 'sizes');
    const valid = op.segments.valid_row ? ` valid [${this.use(segment(op, 'valid_row')[0])}, ${this.use(segment(op, 'valid_col')[0])}]` : '';
    const result = op.resultTypes[0] ? ` -> ${this.type(op.resultTypes[0])}` : '';
    this.emit(
      depth,
      `${res}${op.name} ${this.use(src)}[${offsets}] sizes ${sizes ? this.attr(sizes) : '[]'}${valid}${this.attrSuffix(except(op, 'sizes'))} : ${typeOf(this, src)}${result}`,
    );
  },
  AllocTileBody(op, depth, res) {
    const keyed = ['addr', 'valid_row', 'valid_col']
      .filter((k) => op.segments[k])
      .map((k) => ` ${k} = ${this.use(segment(op, k)[0])}`)
      .join('');
    this.emit(depth, `${res}${op.name}${keyed}${this.attrSuffix(op.attrs)} : ${this.type(op.resultTypes[0])}`);
  },
  AddPtrBody: twoOperandsArrow,
  TensorViewDimBody: twoOperandsArrow,
  /** A micro-level op as written: its items, keyword groups, attributes and signature (src/micro/format.ts binds them). */
  MicroBody(op, depth, res) {
    const m = op.micro!;
    const items = m.items.map((i) =>
      'attr' in i
        ? this.attr(i.attr)
        : 'offset' in i
          ? `${this.use(op.operands[i.operand])}[${this.use(op.operands[i.offset])}]`
          : this.use(op.operands[i.operand]),
    );
    const clauses = m.clauses
      .map((c) => (c.bare ? ` ${c.keyword}` : ` ${c.keyword}(${c.word ?? c.operands.map((k) => this.use(op.operands[k])).join(', ')})`))
      .join('');
    const types = m.types.map((t) => (t.keyword ? `${t.keyword} ` : '') + this.type(t.type)).join(', ');
    const results = m.arrow ? ` -> ${op.resultTypes.map((t) => this.type(t)).join(', ')}` : '';
    const signature = types || results ? ` :${types ? ' ' + types : ''}${results}` : '';
    const written = items.map((text, k) => (k === 0 ? '' : 'joined' in m.items[k] && m.items[k].joined ? ' ' : ', ') + text).join('');
    this.emit(depth, `${res}${op.name}${items.length ? ' ' + written : ''}${clauses}${this.attrSuffix(op.attrs)}${signature}`);
  },
  /** pto.mte_gm_l1_frac: its mode, groups and grouped types as PTOAS prints them (src/syntax/cube-parse.ts). */
  CubeFracBody(op, depth) {
    const m = op.micro!;
    const mode = attrOf(op, 'mode');
    const word = mode?.kind === 'string' ? mode.value : '?';
    const groups = m.clauses.map((c) => `, ${c.keyword}(${c.operands.map((k) => this.use(op.operands[k])).join(', ')})`).join('');
    // Each group's types follow its keyword (`shape i64, i64`), in parentheses where written so (`src_layout(i64)`).
    const rest = m.types.slice(2);
    let at = 0;
    const groupTypes = m.clauses.map((c) => {
      const types = rest.slice(at, (at += c.operands.length));
      const keyword = types[0]?.keyword ?? c.keyword;
      const list = types.map((t) => this.type(t.type)).join(', ');
      return keyword.endsWith('()') ? `${keyword.slice(0, -2)}(${list})` : `${keyword} ${list}`;
    });
    const types = [...m.types.slice(0, 2).map((t) => this.type(t.type)), word, ...groupTypes].join(', ');
    const [src, dst] = [op.operands[0], op.operands[1]];
    this.emit(depth, `${op.name} ${this.use(src)}, ${this.use(dst)}, ${word}${groups}${this.attrSuffix(except(op, 'mode', 'mode_type'))} : ${types}`);
  },
  /** pto.mte_l0c_gm/ub/l1: operands, then comma-separated clauses (src/syntax/cube-parse.ts). */
  AccStoreBody(op, depth) {
    const m = op.micro!;
    const items = m.items.map((i) => ('operand' in i ? this.use(op.operands[i.operand]) : this.attr(i.attr)));
    // A clause's positional values come before its keyed words, as PTOAS prints them (`pre_quant(%s, mode = f32_bf16)`);
    // the words spell the keyed values (`clip = %c`) themselves.
    const clauses = m.clauses.map((c) => {
      if (c.bare) return c.keyword;
      const positional = c.operands.slice(0, c.operands.length - (c.keyed ?? 0)).map((k) => this.use(op.operands[k]));
      return `${c.keyword}(${[...positional, ...(c.word ? [c.word] : [])].join(', ')})`;
    });
    const types = m.types.map((t) => this.type(t.type)).join(', ');
    this.emit(depth, `${op.name} ${[...items, ...clauses].join(', ')}${this.attrSuffix(op.attrs)} : ${types}`);
  },
  LlvmExtractElementBody(op, depth, res) {
    const [vector, position] = op.operands;
    this.emit(
      depth,
      `${res}${op.name} ${this.use(vector)}[${this.use(position)} : ${typeOf(this, position)}]${this.attrSuffix(op.attrs)} : ${typeOf(this, vector)}`,
    );
  },
  LoadScalarBody(op, depth, res) {
    const [ptr, offset] = op.operands;
    this.emit(
      depth,
      `${res}${op.name} ${this.use(ptr)}[${this.use(offset)}]${this.attrSuffix(op.attrs)} : ${typeOf(this, ptr)} -> ${this.type(op.resultTypes[0])}`,
    );
  },
  StoreScalarBody(op, depth) {
    const [value, ptr, offset] = op.operands;
    this.emit(
      depth,
      `${op.name} ${this.use(value)}, ${this.use(ptr)}[${this.use(offset)}]${this.attrSuffix(op.attrs)} : ${typeOf(this, ptr)}, ${typeOf(this, value)}`,
    );
  },
  PrintBody(op, depth) {
    const format = attrOf(op, 'format');
    const value = op.operands[0];
    this.emit(
      depth,
      `${op.name} ins(${format ? this.attr(format) : '""'}, ${this.use(value)} : ${typeOf(this, value)})${this.attrSuffix(except(op, 'format'))}`,
    );
  },
  MemrefAllocBody: parenthesizedOperands,
  PointerCastBody: parenthesizedOperands,
  MemrefSubviewBody(op, depth, res) {
    const src = op.operands[0];
    this.emit(
      depth,
      `${res}${op.name} ${this.use(src)}${list(this, op, 'offsets')} ${list(this, op, 'sizes')} ${list(this, op, 'strides')}${this.attrSuffix(op.attrs)} : ${typeOf(this, src)} to ${this.type(op.resultTypes[0])}`,
    );
  },
  BindTileBody(op, depth, res) {
    const [src, rows, cols] = op.operands;
    this.emit(
      depth,
      `${res}${op.name} ${this.use(src)}, ${this.use(rows)}, ${this.use(cols)}${this.attrSuffix(op.attrs)} : ${typeOf(this, src)} -> ${this.type(op.resultTypes[0])}`,
    );
  },
  AffineApplyBody(op, depth, res) {
    const map = attrOf(op, 'map');
    const symbols = segment(op, 'symbols');
    const dims = segment(op, 'dims')
      .map((o) => this.use(o))
      .join(', ');
    this.emit(
      depth,
      `${res}${op.name} ${map ? this.attr(map) : '?'}(${dims})${symbols.length ? `[${symbols.map((o) => this.use(o)).join(', ')}]` : ''}${this.attrSuffix(except(op, 'map'))}`,
    );
  },
};

/** The custom syntaxes that have a printer, for the test that every definition's syntax has one. */
export const PRINTED_SYNTAXES: ReadonlySet<string> = new Set(Object.keys(CUSTOM_SYNTAX));
