import { DIAGNOSTICS as D } from '../../diag/catalog';
import { BoundOp, decided } from '../../ir/bound';
import { unknownAttributeMessage } from './attributes';
import { Execution, Executor, OpDefinition, OpProperties, OpVerifier } from '../../ir/definition';
import { Span } from '../../diag/source';
import { Attr, OpNode } from '../../syntax/ast';
import { GenericOp, GenericRewrite } from '../../syntax/op-syntax';
import { Type, isFloat, isStoredFormat, printType } from '../../types/type';

/**
 * Ops declared as data, as ODS declares them: named operands of given classes (by position, or by keyword:
 * `key = %v`, `buf(%a, %b)`, `aiv_subblockid(%v)`), attributes of given kinds, results of given classes. One
 * verification serves them all (counts, classes, attribute kinds and values, targets, results); a declaration adds
 * only the rules its op has beyond that (`check`) and, where the VM runs it, its semantics (`execute`).
 */

/** What a value may be, as PTOAS's type constraints name it. */
export type ValueClass =
  | 'tile'
  | 'tensor_view'
  | 'partition_view'
  | 'ptr'
  | 'index'
  | 'i1'
  | 'i8'
  | 'i32'
  | 'i64'
  | 'f32'
  /** Any integer scalar but index (MLIR's AnyInteger). */
  | 'integer'
  /** Any integer or float scalar. */
  | 'scalar'
  | 'pipe'
  | 'async_session'
  | 'async_event'
  | 'prefetch_async_context'
  | 'multi_tile'
  | 'local_array'
  | 'eventid_array'
  | 'struct'
  | 'any';

export interface DeclaredOperand {
  name: string;
  /** The classes the value may have (any of them). */
  is: ValueClass[];
  optional?: boolean;
  variadic?: boolean;
  /** Written under its name (`name = %v`, `name(%v)`) rather than by position. */
  keyword?: boolean;
}

export type AttrKind =
  | { kind: 'int'; range?: [number, number] }
  | { kind: 'bool' }
  | { kind: 'string' }
  | { kind: 'symbol' }
  | { kind: 'int-array' }
  /** Any attribute of the dialect written `#prefix<...>` (a structured attribute the toolchain does not decode). */
  | { kind: 'dialect'; prefix: string }
  /** A dialect enum: `#pto<wait_cmp ge>`; `syntax` lists the accepted spellings with `{}` for the value. */
  | { kind: 'enum'; syntax: string[]; values: string[] };

export interface DeclaredAttr {
  name: string;
  type: AttrKind;
  required?: boolean;
}

export interface DeclaredResult {
  name: string;
  is: ValueClass[];
  /** The type it always has; a written type must be this one, and may be left out. */
  fixed?: Type;
  variadic?: boolean;
}

/** A declared op's operands and attributes after verification, by name. */
export interface DeclaredBinding {
  /** Operand indices of each declared operand that is present. */
  operands: Record<string, number[]>;
  attrs: Record<string, Attr>;
}

/** What a declaration's own rules see. */
export interface DeclaredCheck {
  v: OpVerifier;
  binding: DeclaredBinding;
  /** The type of the (first) operand of this name, if present. */
  type(name: string): Type | undefined;
  /** The span of the (first) operand of this name, or of the op. */
  span(name: string): Span;
  /** An integer attribute's value. */
  int(name: string): number | undefined;
  /** An enum attribute's value name. */
  enumValue(name: string): string | undefined;
  error(span: Span, message: string, notes?: { message: string; span: Span }[]): void;
}

export interface DeclaredOp {
  name: string;
  /** Facts about the op that transforms and structural checks ask for (OpProperties). */
  properties?: OpProperties;
  /** The grammar rule of its syntax, when it has its own (absent: the generic forms). */
  syntax?: string;
  operands?: DeclaredOperand[];
  attrs?: DeclaredAttr[];
  results?: DeclaredResult[];
  /** Attribute names the op refuses (where an unknown attribute would only get a warning), with why. */
  refusedAttrs?: { names: string[]; reason: string };
  /** Rules beyond the declaration's. */
  check?(c: DeclaredCheck): void;
  /** Result types that follow from the operands when none is written. */
  inferResults?(c: DeclaredCheck): (Type | undefined)[] | undefined;
  /** Its semantics; a generator (`Execution`) when it can wait for another core. */
  execute?(x: Executor, op: BoundOp, binding: DeclaredBinding): void | Execution;
  checkResultUse?: OpDefinition['checkResultUse'];
}

/** `#pto<wait_cmp ge>` and `#pto.wait_cmp<ge>`: the two spellings of a PTO enum attribute. */
export function ptoEnum(mnemonic: string, values: string[]): AttrKind {
  return { kind: 'enum', syntax: [`#pto<${mnemonic} {}>`, `#pto.${mnemonic}<{}>`, '<{}>'], values };
}

/** A generator function's prototype: a declared op whose semantics is one can wait (it yields what it waits for). */
const GENERATOR_FUNCTION = Object.getPrototypeOf(function* () {});

export function declaredDefinition(spec: DeclaredOp): OpDefinition {
  const waits = spec.execute !== undefined && Object.getPrototypeOf(spec.execute) === GENERATOR_FUNCTION;
  return {
    name: spec.name,
    syntax: spec.syntax,
    properties: waits ? { ...spec.properties, mayWait: true } : spec.properties,
    verify: (v) => verifyDeclared(spec, v),
    ...(spec.syntax === undefined ? { fromGeneric: (g: GenericOp) => declaredFromGeneric(spec, g) } : {}),
    execute: spec.execute && ((x, op) => spec.execute!(x, op, decided<DeclaredBinding>(op))),
    checkResultUse: spec.checkResultUse,
  };
}

/**
 * The op in MLIR's generic form, read into the generic syntax's SSA form: with `operandSegmentSizes`, each declared
 * operand takes its group (a keyword operand its named segment); without, the operands bind by position.
 */
function declaredFromGeneric(spec: DeclaredOp, g: GenericOp): GenericRewrite {
  const declared = spec.operands ?? [];
  const segments: Record<string, number[]> = { operands: [] };
  const ssa = { form: 'ssa' as const, operands: g.operands, segments, attrs: g.attrs, resultTypes: g.resultTypes };
  if (!g.segmentSizes) {
    segments.operands = g.operands.map((_, i) => i);
    return { fields: ssa };
  }
  const { sizes, span } = g.segmentSizes;
  if (sizes.length !== declared.length) {
    const names = declared.map((d) => d.name).join(', ');
    return { error: `${spec.name}: operandSegmentSizes has ${sizes.length} group(s), but the op declares ${declared.length} operand(s) (${names})`, span };
  }
  let next = 0;
  let skipped: DeclaredOperand | undefined;
  for (const [i, d] of declared.entries()) {
    const group = Array.from({ length: sizes[i] }, (_, k) => next + k);
    next += sizes[i];
    if (sizes[i] > 1 && !d.variadic) return { error: `${spec.name}: operandSegmentSizes gives ${d.name} ${sizes[i]} operands; it takes one`, span };
    if (sizes[i] === 0 && !d.optional && !d.variadic) return { error: `${spec.name}: operandSegmentSizes leaves out ${d.name}, which is required`, span };
    if (d.keyword) {
      if (group.length > 0) segments[d.name] = group;
      continue;
    }
    // Positional operands bind in order: one left out cannot be followed by another that is written.
    if (group.length > 0 && skipped) {
      return { error: `${spec.name}: ${d.name} without ${skipped.name} cannot be written in the op's own form`, span: g.operands[group[0]].span };
    }
    if (group.length === 0) skipped = d;
    segments.operands.push(...group);
  }
  return { fields: ssa };
}

function verifyDeclared(spec: DeclaredOp, v: OpVerifier): void {
  const binding: DeclaredBinding = { operands: bindOperands(spec, v), attrs: {} };
  checkAttributes(spec, v, binding);
  const check = checker(spec, v, binding);
  spec.check?.(check);
  v.decide(binding);
  defineResults(spec, v, check);
}

/** Assigns the written operands to the declared ones: keyword segments by name, the rest by position. */
function bindOperands(spec: DeclaredOp, v: OpVerifier): Record<string, number[]> {
  const { op } = v;
  const declared = spec.operands ?? [];
  const bound: Record<string, number[]> = {};
  for (const [segment, indices] of Object.entries(op.segments)) {
    if (segment === 'operands' || segment === 'ins' || segment === 'outs') continue;
    const d = declared.find((o) => o.name === segment && o.keyword);
    if (!d) {
      v.error(op.operands[indices[0]]?.span ?? op.span, `${op.name} has no operand '${segment}'${keywordList(declared)}`);
      continue;
    }
    if (!d.variadic && indices.length > 1) v.error(op.operands[indices[1]].span, `${op.name}: '${segment}' takes one operand, got ${indices.length}`);
    bound[segment] = indices;
  }
  const positional = [...(op.segments.operands ?? []), ...(op.segments.ins ?? []), ...(op.segments.outs ?? [])];
  const byPosition = declared.filter((o) => !o.keyword);
  const required = byPosition.filter((o) => !o.optional && !o.variadic).length;
  let spare = positional.length - required;
  let next = 0;
  for (const d of byPosition) {
    if (d.variadic) {
      const take = Math.max(0, positional.length - next - byPosition.slice(byPosition.indexOf(d) + 1).filter((o) => !o.optional).length);
      bound[d.name] = positional.slice(next, next + take);
      next += take;
      spare = 0;
    } else if (d.optional) {
      if (spare > 0) {
        bound[d.name] = [positional[next++]];
        spare--;
      }
    } else if (next < positional.length) bound[d.name] = [positional[next++]];
  }
  if (positional.length < required || next < positional.length) {
    const span = positional.length > required ? op.operands[positional[next]].span : op.span;
    v.error(span, `${op.name} takes ${operandSummary(byPosition)}, got ${positional.length} operand(s)`);
  }
  for (const d of declared) {
    for (const i of bound[d.name] ?? []) {
      const t = v.operands[i];
      if (t && !d.is.some((c) => isOfClass(t, c))) v.error(op.operands[i].span, `${op.name}: ${d.name} must be ${classNames(d.is)}, got ${printType(t)}`);
    }
  }
  return bound;
}

function operandSummary(operands: DeclaredOperand[]): string {
  if (operands.length === 0) return 'no operands';
  return operands.map((o) => (o.variadic ? `${o.name}...` : o.optional ? `[${o.name}]` : o.name)).join(', ');
}

function keywordList(operands: DeclaredOperand[]): string {
  const names = operands.filter((o) => o.keyword).map((o) => o.name);
  return names.length ? ` (it takes ${names.join(', ')})` : '';
}

function checkAttributes(spec: DeclaredOp, v: OpVerifier, binding: DeclaredBinding): void {
  const { op } = v;
  const declared = spec.attrs ?? [];
  for (const entry of op.attrs) {
    const d = declared.find((a) => a.name === entry.key);
    if (!d && spec.refusedAttrs?.names.includes(entry.key)) {
      v.error(entry.span, `${op.name} does not allow ${spec.refusedAttrs.reason} '${entry.key}'`);
      continue;
    }
    if (!d) {
      // Attributes named with a dialect prefix (`pto.fusion.group_id`) are annotations of passes, meant to be kept.
      if (entry.key.includes('.')) continue;
      v.warning(
        entry.span,
        unknownAttributeMessage(
          op.name,
          entry.key,
          declared.map((a) => a.name),
        ),
        D.unknownAttribute,
      );
      continue;
    }
    const problem = attrProblem(d.type, entry.value);
    if (problem) v.error(entry.value.span, `${op.name}: ${d.name} ${problem}`);
    else binding.attrs[d.name] = entry.value;
  }
  for (const d of declared) {
    if (d.required && !op.attrs.some((a) => a.key === d.name)) v.error(op.span, `${op.name} needs the attribute '${d.name}'`);
  }
}

/** Why an attribute value does not fit its kind, or undefined when it does. */
function attrProblem(type: AttrKind, a: Attr): string | undefined {
  switch (type.kind) {
    case 'int': {
      if (a.kind !== 'int') return 'must be an integer';
      const n = Number(a.value);
      return type.range && (n < type.range[0] || n > type.range[1]) ? `must be in ${type.range[0]}..${type.range[1]}, got ${n}` : undefined;
    }
    case 'bool':
      return a.kind === 'bool' ? undefined : 'must be true or false';
    case 'string':
      return a.kind === 'string' ? undefined : 'must be a string';
    case 'symbol':
      return a.kind === 'symbol' ? undefined : 'must be a symbol (@name)';
    case 'int-array':
      return a.kind === 'array' && a.items.every((i) => i.kind === 'int') ? undefined : 'must be an array of integers';
    case 'dialect':
      return a.kind === 'dialect' && a.text.startsWith(type.prefix + '<') ? undefined : `must be ${type.prefix}<...>`;
    case 'enum': {
      const value = a.kind === 'dialect' ? enumValueOf(a.text, type.syntax) : undefined;
      if (value !== undefined && type.values.includes(value)) return undefined;
      const shown = type.syntax[0].replace('{}', type.values.join('|'));
      return `must be ${shown}, got ${a.kind === 'dialect' ? a.text : `a ${a.kind}`}`;
    }
  }
}

/** `#pto<wait_cmp ge>` against spellings like `#pto<wait_cmp {}>` -> `ge`. */
export function enumValueOf(text: string, syntax: string[]): string | undefined {
  const squashed = text.replace(/\s+/g, ' ').trim();
  for (const s of syntax) {
    const [before, after] = s.split('{}');
    if (squashed.startsWith(before) && squashed.endsWith(after) && squashed.length > before.length + after.length) {
      return squashed.slice(before.length, squashed.length - after.length).trim();
    }
  }
  return undefined;
}

function checker(spec: DeclaredOp, v: OpVerifier, binding: DeclaredBinding): DeclaredCheck {
  return {
    v,
    binding,
    type: (name) => {
      const i = binding.operands[name]?.[0];
      return i === undefined ? undefined : v.operands[i];
    },
    span: (name) => {
      const i = binding.operands[name]?.[0];
      return i === undefined ? v.op.span : v.op.operands[i].span;
    },
    int: (name) => {
      const a = binding.attrs[name];
      return a?.kind === 'int' ? Number(a.value) : undefined;
    },
    enumValue: (name) => {
      const a = binding.attrs[name];
      const d = spec.attrs?.find((x) => x.name === name)?.type;
      return a?.kind === 'dialect' && d?.kind === 'enum' ? enumValueOf(a.text, d.syntax) : undefined;
    },
    error: (span, message, notes) => v.error(span, message, notes),
  };
}

function defineResults(spec: DeclaredOp, v: OpVerifier, check: DeclaredCheck): void {
  const { op } = v;
  const results = spec.results ?? [];
  const variadic = results.some((r) => r.variadic);
  // `op %a : T` types the operand and, by the SSA form's convention, a result; an op without results names none.
  const operandTypeOnly = (op as OpNode & { signatureSingle?: boolean }).signatureSingle === true && op.results.length === 0;
  const refs = operandTypeOnly ? [] : op.resultTypes;
  const written = operandTypeOnly ? [] : v.declared;
  const inferred = spec.inferResults?.(check);
  if (!variadic) {
    if (refs.length > results.length) v.error(refs[results.length].span, `${op.name} gives ${results.length} result(s)`);
    v.expectResults(results.length);
  }
  const types: (Type | undefined)[] = [];
  const count = variadic
    ? Math.max(
        written.length,
        op.results.reduce((n, r) => n + r.count, 0),
      )
    : results.length;
  for (let i = 0; i < count; i++) {
    const r = variadic ? results[Math.min(i, results.length - 1)] : results[i];
    const t = written[i];
    const ref = refs[i];
    if (ref && t) {
      if (r.fixed && printType(t) !== printType(r.fixed)) v.error(ref.span, `${op.name}: ${r.name} is ${printType(r.fixed)}, not ${printType(t)}`);
      else if (!r.is.some((c) => isOfClass(t, c))) v.error(ref.span, `${op.name}: ${r.name} must be ${classNames(r.is)}, got ${printType(t)}`);
      types.push(t);
    } else if (ref) types.push(undefined);
    else if (r.fixed) types.push(r.fixed);
    else if (inferred?.[i]) types.push(inferred[i]);
    else {
      v.error(op.span, `${op.name} needs its result type (${classNames(r.is)}) written: '-> T'`);
      types.push(undefined);
    }
  }
  v.define(types);
}

function isOfClass(t: Type, c: ValueClass): boolean {
  switch (c) {
    case 'tile':
    case 'tensor_view':
    case 'partition_view':
    case 'ptr':
    case 'multi_tile':
    case 'local_array':
    case 'eventid_array':
    case 'struct':
      return t.kind === c;
    case 'index':
    case 'i1':
    case 'i8':
    case 'i32':
    case 'i64':
    case 'f32':
      return t.kind === 'scalar' && t.elem === c;
    case 'integer':
      return t.kind === 'scalar' && t.elem !== 'index' && !isFloat(t.elem) && !isStoredFormat(t.elem);
    case 'scalar':
      return t.kind === 'scalar' && !isStoredFormat(t.elem);
    case 'pipe':
    case 'async_session':
    case 'async_event':
    case 'prefetch_async_context':
      return t.kind === 'handle' && t.handle === c;
    case 'any':
      return true;
  }
}

const CLASS_NAMES: Record<ValueClass, string> = {
  tile: 'a !pto.tile_buf',
  tensor_view: 'a !pto.tensor_view',
  partition_view: 'a !pto.partition_tensor_view',
  ptr: 'a !pto.ptr',
  index: 'an index',
  i1: 'an i1',
  i8: 'an i8',
  i32: 'an i32',
  i64: 'an i64',
  f32: 'an f32',
  integer: 'an integer',
  scalar: 'a scalar',
  pipe: 'a !pto.pipe',
  async_session: 'a !pto.async_session',
  async_event: 'a !pto.async_event',
  prefetch_async_context: 'a !pto.prefetch_async_context',
  multi_tile: 'a !pto.multi_tile_buf',
  local_array: 'a !pto.local_array',
  eventid_array: 'a !pto.eventid_array',
  struct: 'a !pto.struct',
  any: 'any value',
};

function classNames(classes: ValueClass[]): string {
  const names = classes.map((c) => CLASS_NAMES[c]);
  return names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}`;
}
