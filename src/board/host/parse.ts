/**
 * A parser for the C++ of a host harness (tokens.ts): the declarations, statements and expressions PTOAS's
 * tilelang_st main.cpp and launch.cpp use, into a small tree that run.ts interprets. What it does not know it
 * reports with the file and line instead of guessing.
 */
import { HostSyntaxError, Token } from './tokens';

/** A C type as far as the interpreter needs it: the scalar base and the pointer depth. */
export interface CType {
  /** i8..u64, f16, bf16, f32, f64, bool, void, string, ifstream, a struct's name, or `fn` (a function pointer). */
  base: string;
  ptr: number;
}

export type Expr =
  | { k: 'num'; text: string; line: number }
  | { k: 'str'; text: string; line: number }
  | { k: 'id'; name: string; line: number }
  | { k: 'call'; fn: Expr; args: Expr[]; line: number }
  | { k: 'launch'; kernel: string; config: Expr[]; args: Expr[]; line: number }
  | { k: 'member'; obj: Expr; name: string; line: number }
  | { k: 'index'; obj: Expr; index: Expr; line: number }
  | { k: 'unary'; op: string; e: Expr; line: number }
  | { k: 'postfix'; op: string; e: Expr; line: number }
  | { k: 'binary'; op: string; l: Expr; r: Expr; line: number }
  | { k: 'assign'; op: string; l: Expr; r: Expr; line: number }
  | { k: 'cond'; c: Expr; a: Expr; b: Expr; line: number }
  | { k: 'cast'; type: CType; e: Expr; line: number }
  | { k: 'sizeof'; type?: CType; e?: Expr; line: number }
  | { k: 'lambda'; fn: FunctionDef; line: number }
  | { k: 'list'; items: Expr[]; line: number }
  | { k: 'designated'; field: string; e: Expr; line: number };

export interface Declarator {
  name: string;
  type: CType;
  init?: Expr;
  /** `std::ifstream f(path, mode)`: constructor arguments. */
  ctor?: Expr[];
  /** `T a[N]`: an array (N may be absent with a brace initializer). */
  array?: Expr | 'open';
}

export type Stmt =
  | { k: 'block'; body: Stmt[] }
  | { k: 'decl'; decls: Declarator[]; line: number }
  | { k: 'expr'; e: Expr; line: number }
  | { k: 'if'; init?: Stmt; c: Expr; then: Stmt; else?: Stmt; line: number }
  | { k: 'for'; init?: Stmt; c?: Expr; step?: Expr; body: Stmt; line: number }
  | { k: 'forEach'; name: string; type: CType; range: Expr; body: Stmt; line: number }
  | { k: 'while'; c: Expr; body: Stmt; line: number }
  | { k: 'switch'; e: Expr; body: Stmt[]; line: number }
  /** A switch's `case value:` (`default:` without a value). */
  | { k: 'case'; value?: Expr; line: number }
  | { k: 'do'; body: Stmt; c: Expr; line: number }
  | { k: 'return'; e?: Expr; line: number }
  | { k: 'break' | 'continue' | 'empty'; line: number }
  | { k: 'goto' | 'label'; label: string; line: number };

export interface FunctionDef {
  name: string;
  params: { name: string; type: CType }[];
  body: Stmt;
}

/** A struct's field; an anonymous union's members are one field with several names. */
export interface Field {
  name: string;
  type: CType;
  aliases?: string[];
}

export interface HostProgram {
  functions: Map<string, FunctionDef>;
  /** extern "C" kernels: their parameters' C types. */
  kernels: Map<string, CType[]>;
  structs: Map<string, Field[]>;
  /** Enumerators (also as Enum::Name). */
  constants: Map<string, bigint>;
  /** Global variables, initialized in order before main runs. */
  globals: Stmt[];
}

const SCALAR_TYPES: Record<string, string> = {
  int8_t: 'i8',
  char: 'i8',
  uint8_t: 'u8',
  int16_t: 'i16',
  short: 'i16',
  uint16_t: 'u16',
  int32_t: 'i32',
  int: 'i32',
  uint32_t: 'u32',
  int64_t: 'i64',
  long: 'i64',
  ssize_t: 'i64',
  uint64_t: 'u64',
  size_t: 'u64',
  float: 'f32',
  double: 'f64',
  half: 'f16',
  __fp16: 'f16',
  float16_t: 'f16',
  bfloat16_t: 'bf16',
  bool: 'bool',
  void: 'void',
  // The kernels' low-precision element types: bytes to the host.
  float8_e4m3_t: 'u8',
  float8_e5m2_t: 'u8',
  hifloat8_t: 'u8',
  float4_e2m1x2_t: 'u8',
  float4_e1m2x2_t: 'u8',
  aclError: 'i32',
  aclrtStream: 'stream',
  aclrtContext: 'stream',
  FILE: 'void',
};
const QUALIFIERS = new Set(['const', 'constexpr', 'static', 'inline', 'volatile', 'extern', '__gm__', '__global__', '__aicore__', 'typename', 'mutable']);

/** Parses the files of one harness (main.cpp and launch.cpp, as token lists) into one program. */
export function parseHost(files: { name: string; tokens: Token[] }[]): HostProgram {
  const program: HostProgram = { functions: new Map(), kernels: new Map(), structs: new Map(), constants: new Map(), globals: [] };
  const types = new Map<string, CType>();
  for (const f of files) new Parser(f.tokens, f.name, program, types).topLevel();
  return program;
}

class Parser {
  private i = 0;
  /** Template parameters in scope: any type. */
  private typeParams = new Set<string>();

  constructor(
    private readonly tokens: Token[],
    private readonly file: string,
    private readonly program: HostProgram,
    private readonly types: Map<string, CType>,
  ) {}

  private get t(): Token | undefined {
    return this.tokens[this.i];
  }
  private peek(n = 0): string | undefined {
    return this.tokens[this.i + n]?.text;
  }
  private line(): number {
    return (this.tokens[this.i] ?? this.tokens[this.tokens.length - 1])?.line ?? 0;
  }
  private fail(what: string): never {
    throw new HostSyntaxError(`${this.file}:${this.line()}: ${what} (at '${this.peek() ?? 'end of file'}')`);
  }
  private eat(text: string): boolean {
    if (this.peek() !== text) return false;
    this.i++;
    return true;
  }
  private expect(text: string): void {
    if (!this.eat(text)) this.fail(`expected '${text}'`);
  }
  private ident(): string {
    const t = this.t;
    if (t?.kind !== 'id') this.fail('expected a name');
    this.i++;
    return t.text;
  }
  /** A name with its namespaces (`std::string`, `DataType::F16`). */
  private qualifiedName(): string {
    let name = this.ident();
    while (this.peek() === '::' && this.tokens[this.i + 1]?.kind === 'id') {
      this.i++;
      name += '::' + this.ident();
    }
    return name;
  }
  private skipBalanced(open: string, close: string): void {
    let depth = 0;
    do {
      if (this.peek() === open) depth++;
      else if (this.peek() === close) depth--;
      else if (this.peek() === '>>' && open === '<') depth -= 2;
      if (this.t === undefined) this.fail(`unbalanced '${open}'`);
      this.i++;
    } while (depth > 0);
  }

  // ---- types ----

  private isTypeName(name: string): boolean {
    const plain = name.replace(/^std::/, '');
    return (
      plain in SCALAR_TYPES ||
      this.types.has(name) ||
      this.program.structs.has(name) ||
      this.typeParams.has(name) ||
      name === 'auto' ||
      name === 'std::string' ||
      name === 'std::ifstream'
    );
  }

  /** Whether a type starts here. */
  private atType(): boolean {
    let k = this.i;
    while (QUALIFIERS.has(this.tokens[k]?.text ?? '')) k++;
    const t = this.tokens[k];
    if (!t || t.kind !== 'id') return false;
    if (['unsigned', 'signed', 'struct', 'enum', 'class'].includes(t.text)) return true;
    let name = t.text;
    for (let j = k + 1; this.tokens[j]?.text === '::' && this.tokens[j + 1]?.kind === 'id'; j += 2) name += '::' + this.tokens[j + 1].text;
    return this.isTypeName(name);
  }

  /** A type's specifiers and pointer stars (not a declarator's name). */
  private type(): CType {
    while (QUALIFIERS.has(this.peek() ?? '')) this.i++;
    let base: string;
    if (this.peek() === 'unsigned' || this.peek() === 'signed') {
      const unsigned = this.ident() === 'unsigned';
      const words: string[] = [];
      while (['char', 'short', 'int', 'long'].includes(this.peek() ?? '')) words.push(this.ident());
      const size = words.includes('char') ? 8 : words.includes('short') ? 16 : words.includes('long') ? 64 : 32;
      base = `${unsigned ? 'u' : 'i'}${size}`;
    } else {
      if (this.peek() === 'struct' || this.peek() === 'enum' || this.peek() === 'class') this.i++;
      const name = this.qualifiedName();
      const plain = name.replace(/^std::/, '');
      if (name === 'std::string') base = 'string';
      else if (name === 'std::ifstream') base = 'ifstream';
      else if (plain in SCALAR_TYPES) {
        base = SCALAR_TYPES[plain];
        while (['long', 'int'].includes(this.peek() ?? '')) this.i++;
      } else if (this.types.has(name)) {
        const alias = this.types.get(name)!;
        if (this.peek() === '<') this.skipBalanced('<', '>');
        return this.stars({ ...alias });
      } else if (this.program.structs.has(name)) base = name;
      else if (this.typeParams.has(name) || name === 'auto') base = 'any';
      else this.fail(`unknown type ${name}`);
    }
    if (base === 'stream') return this.stars({ base: 'void', ptr: 1 });
    return this.stars({ base, ptr: 0 });
  }

  private stars(type: CType): CType {
    for (;;) {
      if (this.eat('*')) type.ptr++;
      else if (this.eat('&') || this.eat('&&') || this.eat('const') || this.eat('__gm__')) continue;
      else return type;
    }
  }

  /** After a type: `(*name)(params)` makes a function pointer named name. */
  private functionPointer(): string | undefined {
    if (this.peek() !== '(' || this.peek(1) !== '*') return undefined;
    this.i += 2;
    const name = this.peek() === ')' ? '' : this.ident();
    this.expect(')');
    this.skipBalanced('(', ')');
    return name;
  }

  // ---- top level ----

  topLevel(): void {
    while (this.t) this.declaration();
  }

  private declaration(): void {
    const line = this.line();
    if (this.eat(';')) return;
    if (this.peek() === 'using' && this.peek(1) === 'namespace') {
      while (!this.eat(';')) this.i++;
      return;
    }
    if (this.peek() === 'namespace') {
      this.i++;
      if (this.t?.kind === 'id') this.i++;
      this.expect('{');
      while (!this.eat('}')) this.declaration();
      return;
    }
    if (this.peek() === 'template') {
      this.i++;
      this.expect('<');
      while (!this.eat('>')) {
        if ((this.peek() === 'typename' || this.peek() === 'class') && this.tokens[this.i + 1]?.kind === 'id')
          this.typeParams.add(this.tokens[this.i + 1].text);
        this.i++;
      }
      this.declaration();
      return;
    }
    if (this.peek() === 'using') {
      this.i++;
      const name = this.ident();
      this.expect('=');
      this.types.set(name, this.aliasedType());
      this.expect(';');
      return;
    }
    if (this.peek() === 'typedef') {
      this.i++;
      const type = this.type();
      const fn = this.functionPointer();
      const name = fn ?? this.ident();
      this.types.set(name, fn !== undefined ? { base: 'fn', ptr: 0 } : type);
      this.expect(';');
      return;
    }
    if ((this.peek() === 'struct' || this.peek() === 'class') && this.tokens[this.i + 1]?.kind === 'id' && this.peek(2) === '{') {
      this.i++;
      const name = this.ident();
      const fields: Field[] = [];
      this.program.structs.set(name, fields);
      this.expect('{');
      while (!this.eat('}')) {
        if (this.peek() === 'union' && this.peek(1) === '{') {
          // An anonymous union: its members share one value (the harness stores one of them, by a designator).
          this.i += 2;
          const members: Field[] = [];
          while (!this.eat('}')) {
            const type = this.type();
            members.push({ name: this.functionPointer() ?? this.ident(), type });
            this.expect(';');
          }
          this.expect(';');
          fields.push({ ...members[0], aliases: members.slice(1).map((m) => m.name) });
          continue;
        }
        const type = this.type();
        for (;;) {
          const fn = this.functionPointer();
          const field = fn ?? this.ident();
          if (this.peek() === '[') this.skipBalanced('[', ']');
          fields.push({ name: field, type: fn !== undefined ? { base: 'fn', ptr: 0 } : type });
          if (this.eat('=')) this.expression(1);
          if (!this.eat(',')) break;
        }
        this.expect(';');
      }
      this.expect(';');
      return;
    }
    if (this.peek() === 'enum') {
      this.i++;
      const scoped = this.eat('class') || this.eat('struct');
      const name = this.ident();
      if (this.eat(':')) this.type();
      this.types.set(name, { base: 'i32', ptr: 0 });
      this.expect('{');
      let next = 0n;
      while (!this.eat('}')) {
        const item = this.ident();
        if (this.eat('=')) {
          next = BigInt(parseInt(this.t!.text));
          this.i++;
        }
        this.program.constants.set(`${name}::${item}`, next);
        if (!scoped) this.program.constants.set(item, next);
        next++;
        this.eat(',');
      }
      this.expect(';');
      return;
    }
    if (this.peek() === 'extern' && this.t && this.tokens[this.i + 1]?.kind === 'str') {
      this.i += 2;
      if (this.peek() === '{') {
        this.i++;
        while (!this.eat('}')) this.declaration();
        return;
      }
      this.kernelDeclaration();
      return;
    }
    if (!this.atType()) this.fail('expected a declaration');
    const type = this.type();
    const at = this.i;
    const name = this.qualifiedName();
    if (this.peek() === '(') {
      const params = this.parameters();
      while (this.eat('const') || this.eat('noexcept'));
      if (this.eat(';')) return; // a prototype: defined in the other file, or one of the harness's built-ins
      const body = this.block();
      this.program.functions.set(name, { name, params, body });
      return;
    }
    this.i = at;
    this.program.globals.push({ k: 'decl', decls: this.declarators(type), line });
    this.expect(';');
  }

  /** `using X = ...`: a function pointer type, or a plain one. */
  private aliasedType(): CType {
    const type = this.type();
    if (this.peek() === '(' && this.peek(1) === '*') {
      this.functionPointer();
      return { base: 'fn', ptr: 0 };
    }
    return type;
  }

  /** extern "C" [__global__ AICORE] void NAME(params); the C types of its parameters. */
  private kernelDeclaration(): void {
    // The kernel attribute as the vpto suite's launch.cpp spells it, unexpanded: `__global__ [aicore] void`.
    while (QUALIFIERS.has(this.peek() ?? '')) this.i++;
    if (this.peek() === '[') this.skipBalanced('[', ']');
    this.type();
    const name = this.ident();
    const params = this.parameters();
    this.program.kernels.set(
      name,
      params.map((p) => p.type),
    );
    if (!this.eat(';')) this.block();
  }

  private parameters(): { name: string; type: CType }[] {
    this.expect('(');
    const params: { name: string; type: CType }[] = [];
    if (this.peek() === 'void' && this.peek(1) === ')') this.i++;
    while (!this.eat(')')) {
      const type = this.type();
      const fn = this.functionPointer();
      const name = fn ?? (this.t?.kind === 'id' ? this.ident() : `#${params.length}`);
      if (this.peek() === '[') this.skipBalanced('[', ']');
      if (this.eat('=')) this.expression(1);
      params.push({ name, type: fn !== undefined ? { base: 'fn', ptr: 0 } : type });
      if (!this.eat(',') && this.peek() !== ')') this.fail("expected ',' or ')' in a parameter list");
    }
    return params;
  }

  // ---- statements ----

  private block(): Stmt {
    this.expect('{');
    const body: Stmt[] = [];
    while (!this.eat('}')) body.push(this.statement());
    return { k: 'block', body };
  }

  private statement(): Stmt {
    const line = this.line();
    const word = this.peek();
    if (word === '{') return this.block();
    if (word === ';') {
      this.i++;
      return { k: 'empty', line };
    }
    if (word === 'if') {
      this.i++;
      this.expect('(');
      let init: Stmt | undefined;
      let c: Expr;
      if (this.atType()) {
        // if (T x = e): the condition is x.
        const decls = this.declarators(this.type());
        init = { k: 'decl', decls, line };
        c = { k: 'id', name: decls[0].name, line };
      } else c = this.expression();
      this.expect(')');
      const then = this.statement();
      const otherwise = this.eat('else') ? this.statement() : undefined;
      return { k: 'if', init, c, then, else: otherwise, line };
    }
    if (word === 'for') {
      this.i++;
      this.expect('(');
      const at = this.i;
      if (this.atType()) {
        // for (T x : range)
        const type = this.type();
        const name = this.t?.kind === 'id' ? this.ident() : '';
        if (this.eat(':')) {
          const range = this.expression();
          this.expect(')');
          return { k: 'forEach', name, type, range, body: this.statement(), line };
        }
        this.i = at;
      }
      const init = this.peek() === ';' ? undefined : this.simple();
      this.expect(';');
      const c = this.peek() === ';' ? undefined : this.expression();
      this.expect(';');
      const step = this.peek() === ')' ? undefined : this.expression();
      this.expect(')');
      return { k: 'for', init, c, step, body: this.statement(), line };
    }
    if (word === 'while') {
      this.i++;
      this.expect('(');
      const c = this.expression();
      this.expect(')');
      return { k: 'while', c, body: this.statement(), line };
    }
    if (word === 'switch') {
      this.i++;
      this.expect('(');
      const e = this.expression();
      this.expect(')');
      this.expect('{');
      const body: Stmt[] = [];
      while (!this.eat('}')) {
        const at = this.line();
        if (this.eat('case')) {
          body.push({ k: 'case', value: this.conditional(), line: at });
          this.expect(':');
        } else if (this.eat('default')) {
          body.push({ k: 'case', line: at });
          this.expect(':');
        } else body.push(this.statement());
      }
      return { k: 'switch', e, body, line };
    }
    if (word === 'do') {
      this.i++;
      const body = this.statement();
      this.expect('while');
      this.expect('(');
      const c = this.expression();
      this.expect(')');
      this.expect(';');
      return { k: 'do', body, c, line };
    }
    if (word === 'return') {
      this.i++;
      const e = this.peek() === ';' ? undefined : this.expression();
      this.expect(';');
      return { k: 'return', e, line };
    }
    if (word === 'break' || word === 'continue') {
      this.i++;
      this.expect(';');
      return { k: word, line };
    }
    if (word === 'goto') {
      this.i++;
      const label = this.ident();
      this.expect(';');
      return { k: 'goto', label, line };
    }
    if (this.t?.kind === 'id' && this.peek(1) === ':' && this.peek(2) !== ':') {
      const label = this.ident();
      this.i++;
      return { k: 'label', label, line };
    }
    const s = this.simple();
    this.expect(';');
    return s;
  }

  /** A declaration or an expression, without the semicolon. */
  private simple(): Stmt {
    const line = this.line();
    if (this.atType() && !(this.tokens[this.i + 1]?.text === '(' && !QUALIFIERS.has(this.peek()!) && this.peek(2) !== '*')) {
      return { k: 'decl', decls: this.declarators(this.type()), line };
    }
    return { k: 'expr', e: this.expression(), line };
  }

  private declarators(base: CType): Declarator[] {
    const decls: Declarator[] = [];
    for (;;) {
      const type = this.stars({ ...base });
      const fn = this.functionPointer();
      const name = fn ?? this.ident();
      const d: Declarator = { name, type: fn !== undefined ? { base: 'fn', ptr: 0 } : type };
      if (this.eat('[')) {
        d.array = this.peek() === ']' ? 'open' : this.expression();
        this.expect(']');
      }
      if (this.eat('=')) d.init = this.peek() === '{' ? this.braceList() : this.expression(1);
      else if (this.peek() === '{') d.init = this.braceList();
      else if (this.peek() === '(') d.ctor = this.arguments();
      decls.push(d);
      if (!this.eat(',')) return decls;
    }
  }

  private braceList(): Expr {
    const line = this.line();
    this.expect('{');
    const items: Expr[] = [];
    while (!this.eat('}')) {
      const itemLine = this.line();
      const field = this.peek() === '.' && this.tokens[this.i + 1]?.kind === 'id' && this.peek(2) === '=' ? this.tokens[this.i + 1].text : undefined;
      if (field !== undefined) this.i += 3;
      const e = this.peek() === '{' ? this.braceList() : this.expression(1);
      items.push(field !== undefined ? { k: 'designated', field, e, line: itemLine } : e);
      if (!this.eat(',') && this.peek() !== '}') this.fail("expected ',' or '}'");
    }
    return { k: 'list', items, line };
  }

  private arguments(): Expr[] {
    this.expect('(');
    const args: Expr[] = [];
    while (!this.eat(')')) {
      args.push(this.peek() === '{' ? this.braceList() : this.expression(1));
      if (!this.eat(',') && this.peek() !== ')') this.fail("expected ',' or ')'");
    }
    return args;
  }

  // ---- expressions (C precedence; level 0 is the comma operator, 1 assignment) ----

  expression(level = 0): Expr {
    if (level === 0) {
      let e = this.expression(1);
      while (this.peek() === ',') {
        const line = this.line();
        this.i++;
        e = { k: 'binary', op: ',', l: e, r: this.expression(1), line };
      }
      return e;
    }
    const line = this.line();
    const left = this.conditional();
    const op = this.peek();
    if (op && /^([-+*/%&|^]|<<|>>)?=$/.test(op)) {
      this.i++;
      return { k: 'assign', op, l: left, r: this.expression(1), line };
    }
    return left;
  }

  private conditional(): Expr {
    const line = this.line();
    const c = this.binary(0);
    if (!this.eat('?')) return c;
    const a = this.expression(1);
    this.expect(':');
    return { k: 'cond', c, a, b: this.expression(1), line };
  }

  private static readonly LEVELS = [['||'], ['&&'], ['|'], ['^'], ['&'], ['==', '!='], ['<', '>', '<=', '>='], ['<<', '>>'], ['+', '-'], ['*', '/', '%']];

  private binary(level: number): Expr {
    if (level === Parser.LEVELS.length) return this.unary();
    let e = this.binary(level + 1);
    while (Parser.LEVELS[level].includes(this.peek() ?? '')) {
      const line = this.line();
      const op = this.peek()!;
      this.i++;
      e = { k: 'binary', op, l: e, r: this.binary(level + 1), line };
    }
    return e;
  }

  private unary(): Expr {
    const line = this.line();
    const op = this.peek();
    if (op === '(' && this.castAhead()) {
      this.i++;
      const type = this.type();
      this.functionPointer();
      this.expect(')');
      return { k: 'cast', type, e: this.unary(), line };
    }
    if (op && ['!', '~', '-', '+', '*', '&', '++', '--'].includes(op)) {
      this.i++;
      return { k: 'unary', op, e: this.unary(), line };
    }
    if (op === 'sizeof') {
      this.i++;
      if (this.peek() === '(' && this.castAhead()) {
        this.i++;
        const type = this.type();
        this.expect(')');
        return { k: 'sizeof', type, line };
      }
      return { k: 'sizeof', e: this.unary(), line };
    }
    return this.postfix(this.primary());
  }

  /** `(` type `)`: a cast, not a parenthesized expression. */
  private castAhead(): boolean {
    const save = this.i;
    this.i++;
    const ok = this.atType();
    this.i = save;
    return ok;
  }

  private postfix(e: Expr): Expr {
    for (;;) {
      const line = this.line();
      if (this.peek() === '(') e = { k: 'call', fn: e, args: this.arguments(), line };
      else if (this.eat('[')) {
        e = { k: 'index', obj: e, index: this.expression(), line };
        this.expect(']');
      } else if (this.eat('.') || this.eat('->')) e = { k: 'member', obj: e, name: this.ident(), line };
      else if (this.peek() === '++' || this.peek() === '--') {
        e = { k: 'postfix', op: this.peek()!, e, line };
        this.i++;
      } else return e;
    }
  }

  private primary(): Expr {
    const t = this.t;
    const line = this.line();
    if (!t) this.fail('expected an expression');
    if (t.kind === 'num') {
      this.i++;
      return { k: 'num', text: t.text, line };
    }
    if (t.kind === 'str') {
      let text = '';
      while (this.t?.kind === 'str') text += this.tokens[this.i++].text;
      return { k: 'str', text, line };
    }
    if (t.kind === 'chr') {
      this.i++;
      return { k: 'num', text: String(t.text.charCodeAt(0)), line };
    }
    if (this.eat('(')) {
      const e = this.expression();
      this.expect(')');
      return e;
    }
    if (t.text === '[') {
      // A lambda: [captures](params) { body }
      this.skipBalanced('[', ']');
      const params = this.peek() === '(' ? this.parameters() : [];
      if (this.eat('->')) this.type();
      return { k: 'lambda', fn: { name: 'lambda', params, body: this.block() }, line };
    }
    if (t.text === '{') return this.braceList();
    if (['static_cast', 'reinterpret_cast', 'const_cast'].includes(t.text)) {
      this.i++;
      this.expect('<');
      const type = this.type();
      this.expect('>');
      this.expect('(');
      const e = this.expression();
      this.expect(')');
      return { k: 'cast', type, e, line };
    }
    if (t.kind !== 'id') this.fail('expected an expression');
    const name = this.qualifiedName();
    // name<<<blocks, l2, stream>>>(args): a kernel launch.
    if (this.eat('<<<')) {
      const config: Expr[] = [];
      while (!this.eat('>>>')) {
        config.push(this.binary(7 + 1));
        this.eat(',');
      }
      return { k: 'launch', kernel: name, config, args: this.arguments(), line };
    }
    // name<T>(...): a template function's call; the template arguments do not matter to the host's data.
    if (this.peek() === '<' && this.templateCallAhead()) this.skipBalanced('<', '>');
    if (this.isTypeName(name) && this.peek() === '(') {
      // T(x): a functional cast or a constructor (std::string("./")).
      const type = this.typeOf(name);
      const args = this.arguments();
      return { k: 'cast', type, e: args[0] ?? { k: 'num', text: '0', line }, line };
    }
    return { k: 'id', name, line };
  }

  private typeOf(name: string): CType {
    const save = this.i;
    const tokens = name.split('::').flatMap((part, k) => (k === 0 ? [part] : ['::', part]));
    const sub = new Parser(
      tokens.map((text) => ({ kind: text === '::' ? ('punct' as const) : ('id' as const), text, line: 0 })),
      this.file,
      this.program,
      this.types,
    );
    sub.typeParams = this.typeParams;
    const type = sub.type();
    this.i = save;
    return type;
  }

  /** After a name: `<...>(` closes as a template argument list, not a comparison. */
  private templateCallAhead(): boolean {
    let depth = 0;
    for (let k = this.i; k < this.tokens.length; k++) {
      const text = this.tokens[k].text;
      if (text === '<') depth++;
      else if (text === '>') {
        if (--depth === 0) return this.tokens[k + 1]?.text === '(';
      } else if (!(this.tokens[k].kind === 'id' || text === '*' || text === '::' || text === ',')) return false;
    }
    return false;
  }
}
