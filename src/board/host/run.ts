/**
 * Runs a host harness's main() (parse.ts) as the board's host would: host and device memory are byte arrays, the
 * ACL runtime calls and the harness's ReadFile/WriteFile (test_common.h) act on them and on the case's folder, and
 * a kernel launch (`kernel<<<blocks, ...>>>(args)`) is handed to the caller with the device memory its pointer
 * arguments point into and its scalar arguments converted to the kernel's declared C types. The memory the host
 * allocates starts zeroed (on a board it holds whatever was there).
 */
import * as fs from 'fs';
import * as path from 'path';
import { codec } from '../../numerics/elements';
import { ElemType } from '../../types/type';
import { CType, Declarator, Expr, FunctionDef, HostProgram, Stmt } from './parse';
import {
  Cell,
  FLOATS,
  HostError,
  INT_BITS,
  VOID,
  Val,
  asInt,
  asPtr,
  common,
  compare,
  decode,
  encode,
  floatOp,
  i32,
  int,
  num,
  parseNumber,
  printf,
  promote,
  sizeOf,
  str,
  truthy,
  typeOfVal,
  wrap,
} from './values';

export { HostError } from './values';

/** A pointer argument of a launch: the device bytes from where it points to the end of its allocation. */
export interface LaunchBuffer {
  kind: 'buffer';
  bytes: Uint8Array;
}
/** A scalar argument, as the kernel's declared C type holds it (`ctype` i8..u64, f16, bf16, f32, f64, bool). */
export interface LaunchScalar {
  kind: 'scalar';
  ctype: string;
  value: bigint | number;
}
export interface Launch {
  kernel: string;
  blocks: number;
  args: (LaunchBuffer | LaunchScalar)[];
}

export interface HostRun {
  /** main's return value. */
  status: number;
  /** What the host printed to stderr (its [ERROR] lines). */
  stderr: string[];
}

const ACL_CONSTANTS: Record<string, number> = {
  ACL_SUCCESS: 0,
  ACL_MEMCPY_HOST_TO_HOST: 0,
  ACL_MEMCPY_HOST_TO_DEVICE: 1,
  ACL_MEMCPY_DEVICE_TO_HOST: 2,
  ACL_MEMCPY_DEVICE_TO_DEVICE: 3,
  ACL_MEM_MALLOC_HUGE_FIRST: 0,
  ACL_MEM_MALLOC_HUGE_ONLY: 1,
  ACL_MEM_MALLOC_NORMAL_ONLY: 2,
};
/** Calls that change nothing the case's data depends on (the device, streams, freeing, messages to stdout). */
const NO_EFFECT = [
  'aclInit',
  'aclFinalize',
  'aclrtSetDevice',
  'aclrtResetDevice',
  'aclrtCreateStream',
  'aclrtDestroyStream',
  'aclrtSynchronizeStream',
  'aclrtFree',
  'aclrtFreeHost',
  'aclGetRecentErrMsg',
  'printf',
  'puts',
  'fflush',
];
/** Statements and loop iterations one run may take: a harness that loops for ever is reported, not waited for. */
const MAX_STEPS = 50_000_000;

class Return {
  constructor(readonly value: Val) {}
}
class Jump {
  constructor(
    readonly kind: 'break' | 'continue' | 'goto',
    readonly label = '',
  ) {}
}

export class HostInterpreter {
  private readonly globals = new Map<string, Cell>();
  private steps = 0;
  private readonly stderr: string[] = [];

  constructor(
    private readonly program: HostProgram,
    /** The case's folder: the harness's relative paths are resolved against it. */
    private readonly cwd: string,
    private readonly launch: (l: Launch) => void,
  ) {
    for (const s of program.globals) this.exec(s, [this.globals]);
  }

  /** The names of the case table's rows: the first string field of each element of the global array kCases. */
  caseNames(): string[] {
    const table = this.globals.get('kCases')?.value;
    if (table?.t !== 'array') throw new HostError('main.cpp has no case table kCases');
    return table.items.map((c) => {
      const row = c.value;
      const name = row.t === 'struct' ? [...row.fields.values()].find((f) => f.value.t === 'str')?.value : undefined;
      if (name?.t !== 'str') throw new HostError('a row of kCases has no name');
      return name.v;
    });
  }

  /** Runs main(argc, argv) with `args` after the program's name. */
  main(args: string[]): HostRun {
    const main = this.program.functions.get('main');
    if (!main) throw new HostError('main.cpp has no main()');
    const argv: Val = { t: 'array', items: ['main', ...args].map((a) => ({ type: { base: 'i8', ptr: 1 }, value: { t: 'str', v: a } })) };
    const result = this.call(main, [i32(args.length + 1), argv]);
    return { status: result.t === 'int' ? Number(result.v) : 0, stderr: this.stderr };
  }

  // ---- statements ----

  private step(line: number): void {
    if (++this.steps > MAX_STEPS) throw new HostError(`the harness ran more than ${MAX_STEPS} steps (line ${line})`);
  }

  private exec(s: Stmt, scopes: Map<string, Cell>[]): void {
    switch (s.k) {
      case 'block': {
        const inner = [new Map<string, Cell>(), ...scopes];
        for (let i = 0; i < s.body.length; i++) {
          try {
            this.exec(s.body[i], inner);
          } catch (e) {
            // goto: to a label of this block (the harness jumps forward to its cleanup), else further out.
            const at = e instanceof Jump && e.kind === 'goto' ? s.body.findIndex((b) => b.k === 'label' && b.label === e.label) : -1;
            if (at < 0) throw e;
            i = at;
          }
        }
        return;
      }
      case 'decl':
        this.step(s.line);
        for (const d of s.decls) scopes[0].set(d.name, this.declare(d, scopes));
        return;
      case 'expr':
        this.step(s.line);
        this.eval(s.e, scopes);
        return;
      case 'if': {
        const inner = [new Map<string, Cell>(), ...scopes];
        if (s.init) this.exec(s.init, inner);
        if (truthy(this.eval(s.c, inner))) this.exec(s.then, inner);
        else if (s.else) this.exec(s.else, inner);
        return;
      }
      case 'for': {
        const inner = [new Map<string, Cell>(), ...scopes];
        if (s.init) this.exec(s.init, inner);
        for (; !s.c || truthy(this.eval(s.c, inner)); s.step && this.eval(s.step, inner)) {
          this.step(s.line);
          if (this.loopBody(s.body, inner) === 'break') break;
        }
        return;
      }
      case 'forEach': {
        const range = this.eval(s.range, scopes);
        if (range.t !== 'array') throw new HostError(`line ${s.line}: a range-for over a ${range.t}`);
        for (const item of range.items) {
          this.step(s.line);
          if (this.loopBody(s.body, [new Map([[s.name, item]]), ...scopes]) === 'break') break;
        }
        return;
      }
      case 'switch': {
        const v = this.eval(s.e, scopes);
        const matches = (c: Stmt) => c.k === 'case' && c.value !== undefined && !truthy(this.binary('!=', v, this.eval(c.value, scopes), c.line));
        let at = s.body.findIndex(matches);
        if (at < 0) at = s.body.findIndex((c) => c.k === 'case' && c.value === undefined);
        if (at < 0) return;
        const inner = [new Map<string, Cell>(), ...scopes];
        try {
          for (const c of s.body.slice(at)) this.exec(c, inner);
        } catch (e) {
          if (!(e instanceof Jump && e.kind === 'break')) throw e;
        }
        return;
      }
      case 'while':
        while (truthy(this.eval(s.c, scopes))) {
          this.step(s.line);
          if (this.loopBody(s.body, scopes) === 'break') break;
        }
        return;
      case 'do':
        do {
          this.step(s.line);
          if (this.loopBody(s.body, scopes) === 'break') break;
        } while (truthy(this.eval(s.c, scopes)));
        return;
      case 'return':
        throw new Return(s.e ? this.eval(s.e, scopes) : VOID);
      case 'break':
      case 'continue':
        throw new Jump(s.k);
      case 'goto':
        throw new Jump('goto', s.label);
      case 'label':
      case 'case':
      case 'empty':
        return;
    }
  }

  private loopBody(body: Stmt, scopes: Map<string, Cell>[]): 'break' | undefined {
    try {
      this.exec(body, scopes);
    } catch (e) {
      if (e instanceof Jump && e.kind === 'break') return 'break';
      if (!(e instanceof Jump && e.kind === 'continue')) throw e;
    }
    return undefined;
  }

  private declare(d: Declarator, scopes: Map<string, Cell>[]): Cell {
    if (d.array !== undefined) {
      const items = d.init?.k === 'list' ? d.init.items.map((e) => this.cellOf(d.type, e, scopes)) : [];
      const count = d.array === 'open' ? items.length : Number(asInt(this.eval(d.array, scopes)));
      while (items.length < count) items.push({ type: d.type, value: this.zero(d.type) });
      return { type: { ...d.type, ptr: d.type.ptr + 1 }, value: { t: 'array', items } };
    }
    if (d.type.base === 'ifstream') {
      const file = this.resolve(d.ctor?.[0] ? str(this.eval(d.ctor[0], scopes)) : '');
      return { type: d.type, value: { t: 'file', data: fs.existsSync(file) ? new Uint8Array(fs.readFileSync(file)) : undefined, pos: 0 } };
    }
    if (d.init === undefined && d.ctor) return this.cellOf(d.type, d.ctor[0], scopes);
    return d.init === undefined ? { type: d.type, value: this.zero(d.type) } : this.cellOf(d.type, d.init, scopes);
  }

  private cellOf(type: CType, init: Expr, scopes: Map<string, Cell>[]): Cell {
    if (init.k === 'list' && this.program.structs.has(type.base) && type.ptr === 0) {
      // Positional fields, or designated ones (`.launchF32 = f`), which the next positional ones follow.
      const layout = this.program.structs.get(type.base)!;
      const fields = new Map<string, Cell>();
      for (const f of layout) {
        const cell = { type: f.type, value: this.zero(f.type) };
        for (const name of [f.name, ...(f.aliases ?? [])]) fields.set(name, cell);
      }
      let next = 0;
      for (const item of init.items) {
        const at = item.k === 'designated' ? layout.findIndex((f) => f.name === item.field || f.aliases?.includes(item.field)) : next;
        if (at < 0 || at >= layout.length) throw new HostError(`line ${item.line}: ${type.base} has no such field`);
        const cell = fields.get(layout[at].name)!;
        cell.value = this.cellOf(cell.type, item.k === 'designated' ? item.e : item, scopes).value;
        next = at + 1;
      }
      return { type, value: { t: 'struct', name: type.base, fields } };
    }
    const v = this.eval(init, scopes);
    return { type: type.base === 'any' ? typeOfVal(v) : type, value: this.convert(v, type) };
  }

  private zero(type: CType): Val {
    if (type.ptr > 0) return { t: 'ptr', off: 0, elem: { ...type, ptr: type.ptr - 1 } };
    if (type.base in INT_BITS) return int(type.base, 0n);
    if (FLOATS.has(type.base)) return { t: 'float', type: type.base, v: 0 };
    if (type.base === 'string') return { t: 'str', v: '' };
    const fields = this.program.structs.get(type.base);
    if (fields) return { t: 'struct', name: type.base, fields: new Map(fields.map((f) => [f.name, { type: f.type, value: this.zero(f.type) }])) };
    return VOID;
  }

  // ---- values ----

  /** C's conversion of a value to a declared type (an initialization, an argument, an assignment, a cast). */
  private convert(v: Val, type: CType): Val {
    if (type.base === 'any' || type.base === 'fn' || (type.base === 'void' && type.ptr === 0)) return v;
    if (type.ptr > 0) {
      if (v.t === 'ptr') return { ...v, elem: { ...type, ptr: type.ptr - 1 } };
      if (v.t === 'int' && v.v === 0n) return this.zero(type);
      return v; // strings, arrays and functions stand for their own pointers
    }
    if (type.base === 'string') return v.t === 'str' ? v : { t: 'str', v: str(v) };
    if (type.base in INT_BITS) {
      if (v.t === 'int') return int(type.base, v.v);
      if (v.t === 'float') return int(type.base, type.base === 'bool' ? (v.v !== 0 ? 1n : 0n) : BigInt(Math.trunc(v.v)));
      if (v.t === 'ptr') return int(type.base, v.region || v.cell ? 1n : 0n);
      throw new HostError(`cannot convert a ${v.t} to ${type.base}`);
    }
    if (FLOATS.has(type.base)) {
      const n = v.t === 'int' ? Number(v.v) : v.t === 'float' ? v.v : NaN;
      if (Number.isNaN(n) && v.t !== 'float') throw new HostError(`cannot convert a ${v.t} to ${type.base}`);
      return { t: 'float', type: type.base, v: type.base === 'f64' ? n : (codec(type.base as ElemType).round(n) as number) };
    }
    return v;
  }

  private lookup(name: string, scopes: Map<string, Cell>[]): Cell | undefined {
    for (const s of scopes) if (s.has(name)) return s.get(name);
    return this.globals.get(name);
  }

  private lvalue(e: Expr, scopes: Map<string, Cell>[]): Cell | { ptr: Val & { t: 'ptr' } } {
    if (e.k === 'id') {
      const cell = this.lookup(e.name, scopes);
      if (!cell) throw new HostError(`line ${e.line}: ${e.name} is not a variable`);
      return cell;
    }
    if (e.k === 'member') {
      const obj = this.eval(e.obj, scopes);
      const target = obj.t === 'ptr' && obj.cell ? obj.cell.value : obj;
      if (target.t !== 'struct' || !target.fields.has(e.name)) throw new HostError(`line ${e.line}: no field ${e.name}`);
      return target.fields.get(e.name)!;
    }
    if (e.k === 'index') {
      const obj = this.eval(e.obj, scopes);
      const i = Number(asInt(this.eval(e.index, scopes)));
      if (obj.t === 'array') {
        if (!obj.items[i]) throw new HostError(`line ${e.line}: index ${i} is outside an array of ${obj.items.length}`);
        return obj.items[i];
      }
      if (obj.t === 'ptr') return { ptr: this.advance(obj, i) };
    }
    if (e.k === 'unary' && e.op === '*') {
      const p = this.eval(e.e, scopes);
      if (p.t === 'ptr') return p.cell && p.off === 0 ? p.cell : { ptr: p };
    }
    throw new HostError(`line ${e.line}: cannot assign to this expression`);
  }

  private load(p: Val & { t: 'ptr' }): Val {
    if (p.cell && p.off === 0) return p.cell.value;
    return decode(this.bytesAt(p, sizeOf(p.elem, this.program)), p.elem);
  }

  private store(target: Cell | { ptr: Val & { t: 'ptr' } }, v: Val): void {
    if ('type' in target) target.value = this.convert(v, target.type);
    else this.writeBytes(target.ptr, encode(this.convert(v, target.ptr.elem), target.ptr.elem));
  }

  private advance(p: Val & { t: 'ptr' }, n: number): Val & { t: 'ptr' } {
    return { ...p, off: p.off + n * (p.elem.base === 'void' ? 1 : sizeOf(p.elem, this.program)) };
  }

  /** The bytes a pointer points at (a variable's: its value's representation). */
  private bytesAt(p: Val & { t: 'ptr' }, n: number): Uint8Array {
    if (p.region) {
      if (p.off < 0 || p.off + n > p.region.bytes.length)
        throw new HostError(`the host reads ${n} bytes at offset ${p.off} of a ${p.region.bytes.length}-byte allocation`);
      return p.region.bytes.slice(p.off, p.off + n);
    }
    if (p.cell) return encode(p.cell.value, p.cell.type).slice(p.off, p.off + n);
    throw new HostError('the host reads through a null pointer');
  }

  private writeBytes(p: Val & { t: 'ptr' }, bytes: Uint8Array): void {
    if (p.region) {
      if (p.off < 0 || p.off + bytes.length > p.region.bytes.length)
        throw new HostError(`the host writes ${bytes.length} bytes at offset ${p.off} of a ${p.region.bytes.length}-byte allocation`);
      p.region.bytes.set(bytes, p.off);
      return;
    }
    if (p.cell) {
      const whole = encode(p.cell.value, p.cell.type);
      const merged = new Uint8Array(Math.max(whole.length, p.off + bytes.length));
      merged.set(whole);
      merged.set(bytes, p.off);
      p.cell.value = decode(merged.subarray(0, whole.length), p.cell.type);
      return;
    }
    throw new HostError('the host writes through a null pointer');
  }

  private resolve(file: string): string {
    return path.resolve(this.cwd, file);
  }

  // ---- expressions ----

  private eval(e: Expr, scopes: Map<string, Cell>[]): Val {
    switch (e.k) {
      case 'num':
        return parseNumber(e.text);
      case 'str':
        return { t: 'str', v: e.text };
      case 'id':
        return this.identifier(e.name, e.line, scopes);
      case 'designated':
        return this.eval(e.e, scopes);
      case 'list':
        return { t: 'array', items: e.items.map((x) => ({ type: { base: 'any', ptr: 0 }, value: this.eval(x, scopes) })) };
      case 'lambda':
        return { t: 'fn', def: e.fn };
      case 'cast':
        return this.convert(this.eval(e.e, scopes), e.type);
      case 'sizeof':
        if (e.type) return int('u64', BigInt(sizeOf(e.type, this.program)));
        return int('u64', BigInt(this.sizeOfValue(this.eval(e.e!, scopes))));
      case 'cond':
        return truthy(this.eval(e.c, scopes)) ? this.eval(e.a, scopes) : this.eval(e.b, scopes);
      case 'member': {
        const obj = this.eval(e.obj, scopes);
        if (obj.t === 'struct' && obj.fields.has(e.name)) return obj.fields.get(e.name)!.value;
        if (obj.t === 'ptr' && obj.cell?.value.t === 'struct') return obj.cell.value.fields.get(e.name)?.value ?? VOID;
        throw new HostError(`line ${e.line}: no member ${e.name}`);
      }
      case 'index': {
        const target = this.lvalue(e, scopes);
        return 'type' in target ? target.value : this.load(target.ptr);
      }
      case 'assign': {
        const target = this.lvalue(e.l, scopes);
        let v = this.eval(e.r, scopes);
        if (e.op !== '=') v = this.binary(e.op.slice(0, -1), 'type' in target ? target.value : this.load(target.ptr), v, e.line);
        this.store(target, v);
        return v;
      }
      case 'unary':
        return this.unary(e, scopes);
      case 'postfix': {
        const target = this.lvalue(e.e, scopes);
        const old = 'type' in target ? target.value : this.load(target.ptr);
        this.store(target, this.binary(e.op[0], old, i32(1), e.line));
        return old;
      }
      case 'binary': {
        if (e.op === '&&') return i32(truthy(this.eval(e.l, scopes)) && truthy(this.eval(e.r, scopes)) ? 1 : 0);
        if (e.op === '||') return i32(truthy(this.eval(e.l, scopes)) || truthy(this.eval(e.r, scopes)) ? 1 : 0);
        if (e.op === ',') {
          this.eval(e.l, scopes);
          return this.eval(e.r, scopes);
        }
        return this.binary(e.op, this.eval(e.l, scopes), this.eval(e.r, scopes), e.line);
      }
      case 'call':
        return this.callExpr(e, scopes);
      case 'launch':
        return this.kernelLaunch(e, scopes);
    }
  }

  private identifier(name: string, line: number, scopes: Map<string, Cell>[]): Val {
    const cell = this.lookup(name, scopes);
    if (cell) return cell.value;
    if (this.program.constants.has(name)) return i32(this.program.constants.get(name)!);
    if (name in ACL_CONSTANTS) return i32(ACL_CONSTANTS[name]);
    if (name === 'nullptr' || name === 'NULL') return { t: 'ptr', off: 0, elem: { base: 'void', ptr: 0 } };
    if (name === 'true' || name === 'false') return int('bool', name === 'true' ? 1n : 0n);
    if (this.program.functions.has(name) || this.program.kernels.has(name)) return { t: 'fn', name };
    if (/^(std::)?(stderr|stdout|ios::\w+)$/.test(name)) return i32(0);
    throw new HostError(`line ${line}: unknown name ${name}`);
  }

  private sizeOfValue(v: Val): number {
    if (v.t === 'array') return v.items.reduce((n, c) => n + this.sizeOfValue(c.value), 0);
    if (v.t === 'struct') return sizeOf({ base: v.name, ptr: 0 }, this.program);
    return sizeOf(typeOfVal(v), this.program);
  }

  private unary(e: Expr & { k: 'unary' }, scopes: Map<string, Cell>[]): Val {
    if (e.op === '&') {
      const target = this.lvalue(e.e, scopes);
      if (!('type' in target)) return target.ptr;
      if (target.value.t === 'array') return { t: 'ptr', cell: target, off: 0, elem: target.type };
      return { t: 'ptr', cell: target, off: 0, elem: target.type };
    }
    if (e.op === '*') {
      const p = this.eval(e.e, scopes);
      if (p.t !== 'ptr') throw new HostError(`line ${e.line}: * of a ${p.t}`);
      return this.load(p);
    }
    if (e.op === '++' || e.op === '--') {
      const target = this.lvalue(e.e, scopes);
      const v = this.binary(e.op[0], 'type' in target ? target.value : this.load(target.ptr), i32(1), e.line);
      this.store(target, v);
      return v;
    }
    const v = this.eval(e.e, scopes);
    if (e.op === '!') return i32(truthy(v) ? 0 : 1);
    if (e.op === '+') return v;
    if (e.op === '-') return this.binary('-', v.t === 'float' ? { t: 'float', type: v.type, v: 0 } : i32(0), v, e.line);
    if (e.op === '~' && v.t === 'int') return int(promote(v.type), ~v.v);
    throw new HostError(`line ${e.line}: ${e.op} of a ${v.t}`);
  }

  private binary(op: string, a: Val, b: Val, line: number): Val {
    if (a.t === 'str' || b.t === 'str') {
      if (op === '+') return { t: 'str', v: str(a) + str(b) };
      if (op === '==' || op === '!=') return i32((str(a) === str(b)) === (op === '==') ? 1 : 0);
    }
    if (a.t === 'ptr' || b.t === 'ptr') return this.pointerArithmetic(op, a, b, line);
    if (a.t === 'float' || b.t === 'float') {
      const type = [a, b].some((x) => x.t === 'float' && x.type === 'f64') ? 'f64' : 'f32';
      const [x, y] = [num(a), num(b)];
      const r = floatOp(op, x, y);
      if (r === undefined) throw new HostError(`line ${line}: ${op} of floats`);
      if (typeof r === 'boolean') return i32(r ? 1 : 0);
      return { t: 'float', type, v: type === 'f32' ? Math.fround(r) : r };
    }
    if (a.t !== 'int' || b.t !== 'int') throw new HostError(`line ${line}: ${op} of a ${a.t} and a ${b.t}`);
    const type = op === '<<' || op === '>>' ? promote(a.type) : common(a.type, b.type);
    const [x, y] = op === '<<' || op === '>>' ? [wrap(type, a.v), b.v] : [wrap(type, a.v), wrap(type, b.v)];
    switch (op) {
      case '+':
        return int(type, x + y);
      case '-':
        return int(type, x - y);
      case '*':
        return int(type, x * y);
      case '/':
      case '%':
        if (y === 0n) throw new HostError(`line ${line}: the host divides by zero`);
        return int(type, op === '/' ? x / y : x % y);
      case '<<':
        return int(type, x << y);
      case '>>':
        return int(type, x >> y);
      case '&':
        return int(type, x & y);
      case '|':
        return int(type, x | y);
      case '^':
        return int(type, x ^ y);
    }
    const r = compare(op, x, y);
    if (r === undefined) throw new HostError(`line ${line}: operator ${op}`);
    return i32(r ? 1 : 0);
  }

  private pointerArithmetic(op: string, a: Val, b: Val, line: number): Val {
    if (a.t === 'ptr' && b.t === 'int' && (op === '+' || op === '-')) return this.advance(a, Number(op === '+' ? b.v : -b.v));
    if (b.t === 'ptr' && a.t === 'int' && op === '+') return this.advance(b, Number(a.v));
    const id = (p: Val) => (p.t === 'ptr' ? [p.region ?? p.cell ?? null, p.off] : [null, 0]);
    const [ra, oa] = id(a);
    const [rb, ob] = id(b);
    if (op === '==' || op === '!=') return i32((ra === rb && oa === ob) === (op === '==') ? 1 : 0);
    throw new HostError(`line ${line}: ${op} of pointers`);
  }

  // ---- calls ----

  private callExpr(e: Expr & { k: 'call' }, scopes: Map<string, Cell>[]): Val {
    // A method: s.c_str(), f.read(p, n), f.close()
    if (e.fn.k === 'member') {
      const objVal = this.eval(e.fn.obj, scopes);
      const args = e.args.map((a) => this.eval(a, scopes));
      if (objVal.t === 'str') {
        if (e.fn.name === 'c_str' || e.fn.name === 'data') return objVal;
        if (e.fn.name === 'size' || e.fn.name === 'length') return int('u64', BigInt(objVal.v.length));
      }
      if (objVal.t === 'file') {
        if (e.fn.name === 'read' && args[0].t === 'ptr') {
          const n = Number(asInt(args[1]));
          const data = objVal.data ?? new Uint8Array(0);
          const chunk = data.slice(objVal.pos, objVal.pos + n);
          objVal.pos += chunk.length;
          this.writeBytes(args[0], chunk);
          return objVal;
        }
        if (e.fn.name === 'close' || e.fn.name === 'is_open') return i32(objVal.data ? 1 : 0);
      }
      if (objVal.t === 'struct' && objVal.fields.has(e.fn.name)) return this.callValue(objVal.fields.get(e.fn.name)!.value, args, e.line);
      throw new HostError(`line ${e.line}: unknown method ${e.fn.name}`);
    }
    const name = e.fn.k === 'id' ? e.fn.name : undefined;
    if (name !== undefined && !this.lookup(name, scopes) && !this.program.functions.has(name)) {
      const builtin = this.builtins[name.replace(/^(std|PtoTestCommon)::/, '')];
      if (builtin) return builtin(e.args, scopes, e.line);
    }
    const fn = this.eval(e.fn, scopes);
    return this.callValue(
      fn,
      e.args.map((a) => this.eval(a, scopes)),
      e.line,
    );
  }

  private callValue(fn: Val, args: Val[], line: number): Val {
    if (fn.t !== 'fn') throw new HostError(`line ${line}: calls a ${fn.t === 'ptr' ? 'null pointer' : fn.t}`);
    const def = fn.def ?? (fn.name ? this.program.functions.get(fn.name) : undefined);
    if (!def) throw new HostError(`line ${line}: ${fn.name ?? 'a function'} is declared but not defined (not in main.cpp or launch.cpp)`);
    return this.call(def, args);
  }

  private call(def: FunctionDef, args: Val[]): Val {
    const frame = new Map<string, Cell>();
    def.params.forEach((p, i) => {
      const v = args[i] ?? VOID;
      const type = p.type.base === 'any' ? typeOfVal(v) : p.type;
      frame.set(p.name, { type, value: this.convert(v, type) });
    });
    try {
      this.exec(def.body, [frame]);
    } catch (e) {
      if (e instanceof Return) return e.value;
      throw e;
    }
    return VOID;
  }

  private kernelLaunch(e: Expr & { k: 'launch' }, scopes: Map<string, Cell>[]): Val {
    const declared = this.program.kernels.get(e.kernel);
    if (!declared) throw new HostError(`line ${e.line}: kernel ${e.kernel} has no extern "C" declaration`);
    const blocks = Number(asInt(this.eval(e.config[0], scopes)));
    const args = e.args.map((a, i): LaunchBuffer | LaunchScalar => {
      const type = declared[i];
      if (!type) throw new HostError(`line ${e.line}: ${e.kernel} is launched with more arguments than it declares`);
      const v = this.convert(this.eval(a, scopes), type);
      if (type.ptr > 0) {
        if (v.t !== 'ptr' || !v.region) throw new HostError(`line ${e.line}: argument ${i + 1} of ${e.kernel} is not device memory`);
        if (!v.region.device) throw new HostError(`line ${e.line}: argument ${i + 1} of ${e.kernel} points into host memory`);
        return { kind: 'buffer', bytes: v.region.bytes.subarray(v.off) };
      }
      if (v.t === 'int') return { kind: 'scalar', ctype: type.base, value: v.v };
      if (v.t === 'float') return { kind: 'scalar', ctype: type.base, value: v.v };
      throw new HostError(`line ${e.line}: argument ${i + 1} of ${e.kernel} is a ${v.t}`);
    });
    this.launch({ kernel: e.kernel, blocks, args });
    return VOID;
  }

  /** The ACL runtime, test_common.h and the C library, as far as the harnesses call them. */
  private readonly builtins: Record<string, (args: Expr[], scopes: Map<string, Cell>[], line: number) => Val> = {
    aclrtMalloc: (args, scopes) => this.allocate(args, scopes, true),
    aclrtMallocHost: (args, scopes) => this.allocate(args, scopes, false),
    aclrtMemcpy: (args, scopes) => {
      const [dst, destMax, src, count] = args.map((a) => this.eval(a, scopes));
      const n = Number(asInt(count));
      if (n > Number(asInt(destMax))) return i32(1);
      this.writeBytes(asPtr(dst), this.bytesAt(asPtr(src), n));
      return i32(0);
    },
    aclrtMemset: (args, scopes) => {
      const [dst, destMax, value, count] = args.map((a) => this.eval(a, scopes));
      const n = Number(asInt(count));
      if (n > Number(asInt(destMax))) return i32(1);
      this.writeBytes(asPtr(dst), new Uint8Array(n).fill(Number(asInt(value)) & 0xff));
      return i32(0);
    },
    memset: (args, scopes) => {
      const [dst, value, count] = args.map((a) => this.eval(a, scopes));
      this.writeBytes(asPtr(dst), new Uint8Array(Number(asInt(count))).fill(Number(asInt(value)) & 0xff));
      return dst;
    },
    memcpy: (args, scopes) => {
      const [dst, src, count] = args.map((a) => this.eval(a, scopes));
      this.writeBytes(asPtr(dst), this.bytesAt(asPtr(src), Number(asInt(count))));
      return dst;
    },
    ReadFile: (args, scopes) => {
      const file = this.resolve(str(this.eval(args[0], scopes)));
      const buffer = asPtr(this.eval(args[2], scopes));
      const capacity = Number(asInt(this.eval(args[3], scopes)));
      if (!fs.existsSync(file) || !fs.statSync(file).isFile()) return int('bool', 0n);
      const data = new Uint8Array(fs.readFileSync(file));
      if (data.length === 0 || data.length > capacity) return int('bool', 0n);
      this.writeBytes(buffer, data);
      this.store(this.lvalue(args[1], scopes), int('u64', BigInt(data.length)));
      return int('bool', 1n);
    },
    WriteFile: (args, scopes) => {
      const file = this.resolve(str(this.eval(args[0], scopes)));
      const buffer = this.eval(args[1], scopes);
      if (buffer.t !== 'ptr' || (!buffer.region && !buffer.cell)) return int('bool', 0n);
      const bytes = this.bytesAt(buffer, Number(asInt(this.eval(args[2], scopes))));
      try {
        fs.writeFileSync(file, bytes);
      } catch {
        return int('bool', 0n); // open() failed: no such folder
      }
      return int('bool', 1n);
    },
    fprintf: (args, scopes) => {
      const [, format, ...rest] = args.map((a) => this.eval(a, scopes));
      this.stderr.push(printf(str(format), rest).trimEnd());
      return i32(0);
    },
    snprintf: (args, scopes) => {
      const [dst, size, format, ...rest] = args.map((a) => this.eval(a, scopes));
      const text = printf(str(format), rest);
      // What fits with its NUL, into a char array (`char path[16]`) or through a pointer.
      const kept = new TextEncoder().encode(text).slice(0, Math.max(0, Number(asInt(size)) - 1));
      const bytes = new Uint8Array([...kept, 0]);
      if (dst.t === 'array') {
        if (bytes.length > dst.items.length) throw new HostError(`snprintf writes ${bytes.length} bytes into a char array of ${dst.items.length}`);
        bytes.forEach((b, i) => (dst.items[i].value = this.convert(int('u8', BigInt(b)), dst.items[i].type)));
      } else this.writeBytes(asPtr(dst), bytes);
      return i32(text.length);
    },
    fill_n: (args, scopes) => {
      const [first, count, value] = args.map((a) => this.eval(a, scopes));
      const p = asPtr(first);
      for (let i = 0; i < Number(asInt(count)); i++) this.store({ ptr: this.advance(p, i) }, value);
      return this.advance(p, Number(asInt(count)));
    },
    strcmp: (args, scopes) => {
      const [a, b] = args.map((x) => str(this.eval(x, scopes)));
      return i32(a < b ? -1 : a > b ? 1 : 0);
    },
    strncmp: (args, scopes) => {
      const n = Number(asInt(this.eval(args[2], scopes)));
      const [a, b] = args.slice(0, 2).map((x) => str(this.eval(x, scopes)).slice(0, n));
      return i32(a < b ? -1 : a > b ? 1 : 0);
    },
    getenv: () => ({ t: 'ptr', off: 0, elem: { base: 'i8', ptr: 0 } }),
    atoi: (args, scopes) => i32(parseInt(str(this.eval(args[0], scopes)), 10) || 0),
    ...Object.fromEntries(NO_EFFECT.map((name) => [name, () => i32(0)])),
    mkdir: (args, scopes) => {
      const dir = this.resolve(str(this.eval(args[0], scopes)));
      if (fs.existsSync(dir)) return i32(-1);
      fs.mkdirSync(dir);
      return i32(0);
    },
  };

  /** aclrtMalloc(&p, size, policy): p points to `size` new zeroed bytes. */
  private allocate(args: Expr[], scopes: Map<string, Cell>[], device: boolean): Val {
    const target = asPtr(this.eval(args[0], scopes)).cell;
    if (!target || target.type.ptr === 0) throw new HostError(`aclrtMalloc${device ? '' : 'Host'}'s first argument is not the address of a pointer variable`);
    const size = Number(asInt(this.eval(args[1], scopes)));
    target.value = { t: 'ptr', region: { bytes: new Uint8Array(size), device }, off: 0, elem: { ...target.type, ptr: target.type.ptr - 1 } };
    return i32(0);
  }
}
