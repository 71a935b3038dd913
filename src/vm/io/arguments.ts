import * as fs from 'fs';
import { OpNode, Operand, Region, attrOf, segment } from '../../syntax/ast';
import { ElemType, elemSize, isFloat } from '../../types/type';
import { TypeTable } from '../../syntax/type-table';
import { Value } from '../interpreter';
import { BufferMemory, ElementGenerator, GlobalBuffer, allocateBytes, generatedChunks } from '../../machine/memory';
import { codec } from '../../numerics/elements';
import { LIMITS, showBytes } from '../../diag/limits';
import { DIAGNOSTICS } from '../../diag/catalog';
import { LocatedError } from '../../diag/located-error';
import { Span } from '../../diag/source';
import { elementStore } from '../../machine/element-arrays';
import { NpyError, parseNpy } from './npy';
import { opRegistry } from '../../ops/registry';
import { makeTensorView, partitionView } from '../../ops/memory/views';
import { subview } from '../../ops/memory/memref';
import { callOp } from '../../ops/structure/builtin';
import { forOp } from '../../ops/structure/scf';
import { MULBERRY32_STEP, mulberry32, mulberry32Bits } from '../mulberry32';
import { isLaunchScalar } from '../interpreter';

/** A problem with how the user bound arguments: a usage error (exit 2), not a program error. */
export class ArgumentError extends Error {}

/**
 * Random elements: floats uniform in [-4, 4) (rounded to the type), signed integers in [-100, 100],
 * unsigned in [0, 200]. Elements [from, count) of `into` when given, each the value of its own number (the state
 * mulberry32 reaches after that many steps), so that an input can be made a part at a time with the same bytes.
 */
export function randomBytes(elem: ElemType, count: number, seed: number, into?: Uint8Array, from = 0): Uint8Array {
  const c = codec(elem);
  const bytes = into ?? new Uint8Array(count * c.size);
  // The state before element `from`: mulberry32 adds MULBERRY32_STEP per number.
  const start = (seed + Math.imul(from, MULBERRY32_STEP)) >>> 0;
  // Floats through the elements' typed array (f32 stored as values, 16-bit floats encoded): the codec's rounding.
  // The loops step mulberry32 themselves (the numbers mulberry32(seed) gives): an input can have millions of elements.
  const store = isFloat(elem) ? elementStore(elem, bytes) : undefined;
  if (store) {
    const { data, encode } = store;
    let state = start;
    if (encode) {
      for (let i = from; i < count; i++) {
        state = (state + MULBERRY32_STEP) >>> 0;
        data[i] = encode((mulberry32Bits(state) / 4294967296) * 8 - 4);
      }
    } else {
      for (let i = from; i < count; i++) {
        state = (state + MULBERRY32_STEP) >>> 0;
        data[i] = (mulberry32Bits(state) / 4294967296) * 8 - 4;
      }
    }
    return bytes;
  }
  const next = mulberry32(start);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const unsigned = elem.startsWith('u');
  for (let i = from; i < count; i++) {
    const r = next();
    let v: number | bigint = isFloat(elem) ? r * 8 - 4 : unsigned ? Math.floor(r * 201) : Math.floor(r * 201) - 100;
    if (c.size === 8 && !isFloat(elem)) v = BigInt(v);
    c.write(view, i * c.size, v);
  }
  return bytes;
}

/** Makes elements of a random input where they are first touched (GlobalBuffer.materialize): what randomBytes makes there. */
export function randomGenerator(elem: ElemType, seed: number): ElementGenerator {
  return (into, start, end) => randomBytes(elem, end, seed, into, start);
}

export interface BoundArguments {
  values: Map<string, Value>;
  buffers: GlobalBuffer[];
  /** How each pointer got its data, for the run summary. */
  origins: Map<string, string>;
}

/**
 * Binds `--arg NAME=VALUE` specs to the function's arguments; unbound pointers get generated data, sized from the views
 * made of them (in the functions it calls too, which `callees` finds by name).
 */
export function bindArguments(
  types: TypeTable,
  fn: OpNode,
  specs: Map<string, string>,
  callees?: (symbol: string) => OpNode | undefined,
  /** The bytes the run's global memory may take (LIMITS.globalMemory, `--max-memory`). */
  maxMemory = LIMITS.globalMemory.value,
  /** The bytes of it other ranks' buffers already take. */
  usedMemory = 0,
  /** Where the buffers' bytes live ('shared': a run on several threads, --jobs). */
  memory: BufferMemory = 'own',
  /** Told of each input about to be generated (its elements), before it is: pto-vm starts threads meanwhile. */
  beforeGenerating?: (elements: number) => void,
): BoundArguments {
  const params = fn.regions[0]?.blocks[0]?.args ?? [];
  const known = new Set(params.map((p) => p.name.slice(1)));
  for (const name of specs.keys()) {
    if (!known.has(name))
      throw new ArgumentError(`--arg ${name}: @${fn.symbol} has no argument %${name} (it has ${[...known].map((k) => '%' + k).join(', ') || 'none'})`);
  }
  const values = new Map<string, Value>();
  const buffers: GlobalBuffer[] = [];
  const origins = new Map<string, string>();
  // Scalars without a value are one usage error, found before any buffer is generated (they can be large). pypto's
  // launch scalars need none: each core gets its own (src/vm/interpreter.ts, LAUNCH_SCALARS).
  const missing: string[] = [];
  for (const param of params) {
    const type = param.type ? types.resolve(param.type).type : undefined;
    const name = param.name.slice(1);
    if (type?.kind === 'scalar' && !specs.has(name) && !isLaunchScalar(param.name)) missing.push(`%${name} (${type.elem})`);
  }
  if (missing.length > 0) {
    const plural = missing.length > 1;
    const example = missing.map((m) => `--arg ${m.slice(1, m.indexOf(' '))}=NUMBER`).join(' ');
    throw new ArgumentError(`scalar argument${plural ? 's' : ''} ${missing.join(', ')} need${plural ? '' : 's'} a value: ${example}`);
  }
  const sizing = new StaticSizing(fn, specs, types, callees);
  // Every buffer's size is checked against what is left before it is allocated.
  let left = maxMemory - usedMemory;
  const limit = `the run's global memory limit of ${showBytes(maxMemory)} (--max-memory)`;
  const reserve = (bytes: number, whose: string, span: Span | undefined, spec: string | undefined): void => {
    if (bytes > left) {
      const more = left === maxMemory ? limit : `the ${showBytes(left)} left of ${limit}`;
      const message = `${whose} needs ${showBytes(bytes)}, more than ${more}`;
      if (spec !== undefined || !span) throw new ArgumentError(`--arg ${spec ?? whose}: ${message}`);
      throw new LocatedError(DIAGNOSTICS.limit, `${message}: sized by the views made of it`, span);
    }
    left -= bytes;
  };
  params.forEach((param, index) => {
    const name = param.name.slice(1);
    const type = param.type ? types.resolve(param.type).type : undefined;
    const spec = specs.get(name);
    if (type?.kind === 'ptr') {
      let buffer: GlobalBuffer;
      if (spec !== undefined) {
        if (isNumber(spec))
          throw new ArgumentError(
            `--arg ${name}=${spec}: %${name} is a pointer (${param.type?.text}): expected FILE.npy, FILE.bin, zeros:N or random:N[:SEED], not a number`,
          );
        reserve(specBytes(type.elem, spec), `%${name}`, param.span, `${name}=${spec}`);
        const data = readPointerData(name, type.elem, spec);
        // A file shorter than the views made of the pointer: the run would read past it.
        const needed = (sizing.extent(param.name) ?? 0) * elemSize(type.elem);
        const length = dataBytes(type.elem, data);
        if (isFile(spec) && length < needed)
          throw new ArgumentError(
            `--arg ${name}=${spec}: ${spec} holds ${length} bytes of data (${length / elemSize(type.elem)} ${type.elem}), but the views of %${name} ` +
              `reach ${needed} bytes (${needed / elemSize(type.elem)} ${type.elem})`,
          );
        buffer = boundBuffer(name, type.elem, data, memory, beforeGenerating);
        origins.set(name, spec);
      } else {
        const count = sizing.extent(param.name);
        if (count === undefined) {
          throw new ArgumentError(`cannot tell how large %${name} is from static views: bind it with --arg ${name}=FILE.npy|FILE.bin|zeros:N|random:N`);
        }
        reserve(count * elemSize(type.elem), `%${name}`, param.span, undefined);
        const read = sizing.isRead(param.name);
        buffer = boundBuffer(name, type.elem, read ? { count, seed: 1 + index } : { count }, memory, beforeGenerating);
        origins.set(name, read ? `random:${count}:${1 + index}` : `zeros:${count}`);
      }
      buffers.push(buffer);
      values.set(param.name, buffer);
    } else if (type?.kind === 'partition_view' && type.memref) {
      // The memref form passes global memory as a typed buffer: its shape (and strides, when static) size it.
      const strides = memrefStrides(type.shape, type.memref.layout);
      if (!strides || type.shape.some((d) => d === null)) {
        throw new ArgumentError(`argument %${name} is a memref with a dynamic shape or strides (${param.type!.text}): the VM cannot size it yet`);
      }
      const shape = type.shape as number[];
      const count = footprint(shape, strides);
      reserve(count * elemSize(type.elem), `%${name}`, param.span, spec === undefined ? undefined : `${name}=${spec}`);
      let buffer: GlobalBuffer;
      if (spec !== undefined) {
        const data = readPointerData(name, type.elem, spec);
        const length = dataBytes(type.elem, data);
        if (length < count * elemSize(type.elem))
          throw new ArgumentError(`--arg ${name}: %${name} needs ${count} elements, got ${length / elemSize(type.elem)}`);
        buffer = boundBuffer(name, type.elem, data, memory, beforeGenerating);
        origins.set(name, spec);
      } else {
        const read = sizing.isRead(param.name);
        buffer = boundBuffer(name, type.elem, read ? { count, seed: 1 + index } : { count }, memory, beforeGenerating);
        origins.set(name, read ? `random:${count}:${1 + index}` : `zeros:${count}`);
      }
      buffers.push(buffer);
      values.set(param.name, { kind: 'partition_view', buffer, shape, strides, offset: 0 });
    } else if (type?.kind === 'tile') {
      // A tile argument starts with generated elements (in storage order); the VM places it on chip.
      const count = type.rows * type.cols;
      if (spec !== undefined) throw new ArgumentError(`--arg ${name}: %${name} is a tile; the VM fills tile arguments itself (random:${count}:${1 + index})`);
      values.set(param.name, { kind: 'tile_contents', bytes: randomBytes(type.dtype, count, 1 + index) });
      origins.set(name, `random:${count}:${1 + index}`);
    } else if (type?.kind === 'scalar') {
      // Unbound, a launch scalar is each core's own (checked above: any other scalar has a value).
      if (spec !== undefined) values.set(param.name, parseScalar(name, type.elem, spec));
    } else {
      throw new ArgumentError(`argument %${name} has a type the VM cannot bind (${param.type?.text ?? 'unknown'})`);
    }
  });
  return { values, buffers, origins };
}

/** A pointer argument's data: bytes read from a file or a spec, generated elements (a seed), or zeros. */
type BufferData = { data: Uint8Array } | { count: number; seed?: number };

const dataBytes = (elem: ElemType, data: BufferData): number => ('data' in data ? data.data.length : data.count * elemSize(elem));

/**
 * The buffer of a pointer argument. Generated data is made where the run first touches it (GlobalBuffer.materialize):
 * zeros need no making, the memory starts zero. In shared memory it can be made again as bound: generated data is
 * generated again (a seed makes the same elements), data read is kept.
 */
function boundBuffer(name: string, elem: ElemType, data: BufferData, memory: BufferMemory, beforeGenerating?: (elements: number) => void): GlobalBuffer {
  const size = 'data' in data ? data.data.length : data.count * elemSize(elem);
  const shared = memory === 'shared';
  const written = shared ? allocateBytes(Math.floor(size / elemSize(elem)), 'shared') : undefined;
  if ('data' in data) {
    if (!shared) return new GlobalBuffer(name, elem, data.data);
    const bytes = allocateBytes(size, 'shared');
    bytes.set(data.data);
    const buffer = new GlobalBuffer(name, elem, bytes, written);
    buffer.initialBytes = () => data.data;
    return buffer;
  }
  const { count, seed } = data;
  if (seed !== undefined) beforeGenerating?.(count);
  const generated = seed === undefined ? undefined : { generate: randomGenerator(elem, seed), seed, chunks: generatedChunks(size, memory) };
  const buffer = new GlobalBuffer(name, elem, allocateBytes(size, memory), written, generated);
  if (shared) buffer.initialBytes = () => (seed === undefined ? new Uint8Array(size) : randomBytes(elem, count, seed));
  return buffer;
}

/** Element strides of a memref: its `strided<[...]>` layout when every stride is static, else row-major; undefined if it cannot tell. */
function memrefStrides(shape: (number | null)[], layout: string | undefined): number[] | undefined {
  const written = layout ? /^strided<\s*\[([^\]]*)\]/.exec(layout) : null;
  if (written) {
    const strides = written[1].split(',').map((x) => x.trim());
    if (strides.length === shape.length && strides.every((x) => /^\d+$/.test(x))) return strides.map(Number);
  }
  if (shape.some((d) => d === null)) return undefined;
  const strides = new Array<number>(shape.length);
  let step = 1;
  for (let d = shape.length - 1; d >= 0; d--) {
    strides[d] = step;
    step *= shape[d] as number;
  }
  return strides;
}

function parseScalar(name: string, elem: ElemType, text: string): Value {
  if (isFloat(elem)) {
    const v = Number(text);
    if (text.trim() === '' || (Number.isNaN(v) && text.trim().toLowerCase() !== 'nan')) throw new ArgumentError(`--arg ${name}=${text}: not a number`);
    return codec(elem).round(v) as number;
  }
  if (!/^[+-]?(0x[0-9a-f]+|\d+)$/i.test(text.trim())) throw new ArgumentError(`--arg ${name}=${text}: not an integer`);
  const negative = text.trim().startsWith('-');
  const magnitude = BigInt(text.trim().replace(/^[+-]/, ''));
  return negative ? -magnitude : magnitude;
}

/** Whether an `--arg` value is a number (what a scalar argument takes). */
function isNumber(text: string): boolean {
  const t = text.trim();
  return t !== '' && (!Number.isNaN(Number(t)) || /^[+-]?(0x[0-9a-f]+|nan|inf(inity)?)$/i.test(t));
}

const isFile = (spec: string) => spec.endsWith('.npy') || spec.endsWith('.bin');

/**
 * What is wrong with the form of an `--arg` value, found without the program: zeros:N, random:N[:SEED], a number,
 * @RANK[:NAME], or a FILE.npy / FILE.bin that can be read; undefined when nothing is.
 */
export function argSpecProblem(spec: string): string | undefined {
  const generator = /^(zeros|random):(.*)$/.exec(spec);
  if (generator) {
    const [count, seed, ...rest] = generator[2].split(':');
    const form = generator[1] === 'zeros' ? 'zeros:N' : 'random:N[:SEED]';
    if (!/^\d+$/.test(count)) return `expected ${form} with N a number of elements, got '${count}'`;
    if (generator[1] === 'zeros' && seed !== undefined) return `expected zeros:N (zeros take no seed)`;
    if (seed !== undefined && !/^\d+$/.test(seed)) return `expected ${form} with SEED a non-negative integer, got '${seed}'`;
    if (rest.length > 0) return `expected ${form}`;
    return undefined;
  }
  if (isNumber(spec) || /^@\d+(:%?\S+)?$/.test(spec)) return undefined;
  if (!isFile(spec)) return `expected FILE.npy, FILE.bin, zeros:N, random:N[:SEED], a number or @RANK[:NAME]`;
  let stat: fs.Stats | undefined;
  try {
    stat = fs.statSync(spec);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? `no such file` : `cannot read the file (${code ?? 'error'})`;
  }
  if (!stat.isFile()) return `${spec} is not a file`;
  return undefined;
}

/** The bytes an `--arg` spec gives (a file's size, or N elements), found without reading or making them. */
function specBytes(elem: ElemType, spec: string): number {
  const generated = /^(zeros|random):(\d+)(?::(\d+))?$/.exec(spec);
  if (generated) return Number(generated[2]) * elemSize(elem);
  try {
    return fs.statSync(spec).size;
  } catch {
    return 0; // readPointerData reports the file it cannot read
  }
}

function readPointerData(name: string, elem: ElemType, spec: string): BufferData {
  const size = elemSize(elem);
  const generated = /^(zeros|random):(\d+)(?::(\d+))?$/.exec(spec);
  if (generated) {
    const count = Number(generated[2]);
    if (generated[1] === 'zeros') return { count };
    return { count, seed: generated[3] !== undefined ? Number(generated[3]) : 1 };
  }
  let data: Buffer;
  try {
    data = fs.readFileSync(spec);
  } catch (e) {
    throw new ArgumentError(`--arg ${name}=${spec}: cannot read the file (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  if (spec.endsWith('.npy')) {
    let array;
    try {
      array = parseNpy(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
    } catch (e) {
      if (e instanceof NpyError) throw new ArgumentError(`--arg ${name}=${spec}: ${e.message}`);
      throw e;
    }
    const ok = array.dtype === elem || (elem === 'bf16' && array.dtype === 'u16');
    if (!ok) throw new ArgumentError(`--arg ${name}=${spec}: the array is ${array.dtype} (${array.descr}), but %${name} points to ${elem}`);
    return { data: array.data };
  }
  if (spec.endsWith('.bin')) {
    if (data.byteLength % size !== 0) throw new ArgumentError(`--arg ${name}=${spec}: ${data.byteLength} bytes is not a whole number of ${elem} elements`);
    return { data: new Uint8Array(data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength)) };
  }
  throw new ArgumentError(`--arg ${name}=${spec}: expected FILE.npy, FILE.bin, zeros:N, random:N[:SEED] or a number`);
}

/** Elements a box of `shape` over `strides` spans: 1 + sum((shape[d] - 1) * stride[d]), none when a dimension is 0. */
function footprint(shape: number[], strides: number[]): number {
  return shape.some((d) => d === 0) ? 0 : 1 + shape.reduce((sum, d, i) => sum + (d - 1) * (strides[i] ?? 0), 0);
}

/** Where a name of the program lives: the entry's names as written, a callee's under a prefix, its parameters as the caller's values. */
interface Scope {
  prefix: string;
  params: Map<string, string>;
}

const scoped = (scope: Scope, name: string): string => scope.params.get(name) ?? scope.prefix + name;

/**
 * Sizes pointer arguments from the tensor views made of them, when shapes and strides are
 * constants (or come from bound scalar arguments): extent = 1 + sum((shape[d] - 1) * stride[d]).
 * Views made in the functions the entry calls (`callees` finds them) count, through the arguments it passes.
 */
export class StaticSizing {
  private readonly defs = new Map<string, { op: OpNode; scope: Scope }>();
  private readonly views: { source: string; op: OpNode; scope: Scope }[] = [];
  private readonly loads = new Set<string>();
  private readonly partitionSources = new Map<string, string>();
  private readonly partitions: { source: string; op: OpNode; scope: Scope }[] = [];
  /** Partitions an op reads more of than their shape (OpProperties.viewFootprint): elements from the first. */
  private readonly footprints = new Map<string, number>();
  /** pto.load_scalar / store_scalar: the pointer and the element offset they touch. */
  private readonly scalarAccesses: { ptr: string; offset: Operand; scope: Scope }[] = [];
  /** The loops whose induction variable a name is: it counts at its largest value. */
  private readonly inductions = new Map<string, { op: OpNode; scope: Scope }>();

  constructor(
    fn: OpNode,
    private readonly specs: Map<string, string>,
    private readonly types: TypeTable,
    callees?: (symbol: string) => OpNode | undefined,
  ) {
    let calls = 0;
    const visit = (region: Region, scope: Scope, depth: number): void => {
      for (const block of region.blocks) {
        for (const op of block.ops) {
          for (const r of op.results) this.defs.set(scoped(scope, r.name), { op, scope });
          const name = (o: Operand | undefined) => (o?.value ? scoped(scope, o.value.name) : undefined);
          if (op.name === makeTensorView.name && op.operands[0].value) this.views.push({ source: name(op.operands[0])!, op, scope });
          if ((op.name === partitionView.name || op.name === subview.name) && op.results[0] && op.operands[0].value)
            this.partitionSources.set(scoped(scope, op.results[0].name), name(op.operands[0])!);
          if (op.name === partitionView.name && op.operands[0].value) this.partitions.push({ source: name(op.operands[0])!, op, scope });
          if (opRegistry().lookup(op.name)?.def.properties?.accessesElement && op.segments.ptr && op.segments.offset) {
            const ptr = name(op.operands[op.segments.ptr[0]]);
            if (ptr) this.scalarAccesses.push({ ptr, offset: op.operands[op.segments.offset[0]], scope });
          }
          const induction = op.name === forOp.name ? op.regions[0]?.blocks[0]?.args[0] : undefined;
          if (induction) this.inductions.set(scoped(scope, induction.name), { op, scope });
          const viewFootprint = op.form === 'dps' ? opRegistry().lookup(op.name)?.def.properties?.viewFootprint : undefined;
          const [src, dst] = [segment(op, 'ins')[0], segment(op, 'outs')[0]];
          const dstType = viewFootprint && src?.value && dst?.type ? this.types.resolve(dst.type).type : undefined;
          const elements = dstType?.kind === 'tile' ? viewFootprint!(dstType) : undefined;
          if (elements !== undefined) this.footprints.set(name(src)!, Math.max(this.footprints.get(name(src)!) ?? 0, elements));
          const read = op.name === 'pto.tload' ? segment(op, 'ins').concat(op.form === 'ssa' ? op.operands : []) : [];
          if (opRegistry().lookup(op.name)?.def.properties?.readsGlobalViews) read.push(...op.operands);
          for (const o of read) if (o.value) this.loads.add(name(o)!);
          const callee = op.name === callOp.name ? attrOf(op, 'callee') : undefined;
          const body = callee?.kind === 'symbol' && depth < 8 ? callees?.(callee.name) : undefined;
          if (body?.regions[0]) {
            const params = new Map<string, string>();
            (body.regions[0].blocks[0]?.args ?? []).forEach((a, i) => {
              const given = name(op.operands[i]);
              if (given) params.set(a.name, given);
            });
            visit(body.regions[0], { prefix: `${scope.prefix}@${callee!.kind === 'symbol' ? callee!.name : ''}#${calls++}/`, params }, depth + 1);
          }
          op.regions.forEach((r) => visit(r, scope, depth));
        }
      }
    };
    if (fn.regions[0]) visit(fn.regions[0], { prefix: '', params: new Map() }, 0);
  }

  /**
   * The elements of `arg` its views address: each view's extent, and each partition cut from a view at its offsets
   * (a partition may reach past its view: the hardware does not check, and a board harness sizes what is addressed).
   * A loop's induction variable counts at its largest value and an offset that cannot be evaluated as 0, as PTOAS's
   * harness generator sizes buffers. Scalar loads and stores count too, where their offset can be evaluated (the
   * harness's scan sees only views; on a board such reads land in the allocation's slack).
   */
  extent(arg: string): number | undefined {
    let extent: number | undefined;
    for (const access of this.scalarAccesses) {
      const at = this.pointerBase(access.ptr);
      if (at.base !== arg) continue;
      const offset = this.evaluate(access.offset, access.scope);
      if (offset !== undefined && at.offset + offset >= 0) extent = Math.max(extent ?? 0, at.offset + offset + 1);
    }
    for (const { source, op, scope } of this.views) {
      const { base, offset: start } = this.pointerBase(source);
      if (base !== arg) continue;
      const shape = segment(op, 'shape').map((o) => this.evaluate(o, scope));
      const strides = segment(op, 'strides').map((o) => this.evaluate(o, scope));
      if (shape.some((d) => d === undefined) || strides.some((d) => d === undefined)) return undefined;
      extent = Math.max(extent ?? 0, start + footprint(shape as number[], strides as number[]));
      const view = op.results[0] && scoped(scope, op.results[0].name);
      for (const part of this.partitions) {
        if (part.source !== view) continue;
        const sizes = segment(part.op, 'sizes').map((o) => this.evaluate(o, part.scope));
        if (sizes.some((d) => d === undefined)) continue;
        const offsets = segment(part.op, 'offsets').map((o) => Math.max(this.evaluate(o, part.scope) ?? 0, 0));
        const first = start + offsets.reduce((sum, o, i) => sum + o * (strides[i] ?? 0), 0);
        const read = part.op.results[0] && this.footprints.get(scoped(part.scope, part.op.results[0].name));
        const size = Math.max(footprint(sizes as number[], strides as number[]), read ?? 0);
        if (size > 0) extent = Math.max(extent, first + size);
      }
    }
    return extent;
  }

  /** The argument a pointer value is moved from (through pto.addptr) and by how many elements (unknown steps: 0). */
  private pointerBase(pointer: string): { base: string; offset: number } {
    let base = pointer;
    let offset = 0;
    for (let depth = 0; depth < 16; depth++) {
      const found = this.defs.get(base);
      if (!found || !opRegistry().lookup(found.op.name)?.def.properties?.movesPointer || !found.op.operands[0]?.value) break;
      offset += Math.max(this.evaluate(found.op.operands[1], found.scope) ?? 0, 0);
      base = scoped(found.scope, found.op.operands[0].value.name);
    }
    return { base, offset };
  }

  /** A pointer is read when a tload's source (or a comm op's view) is a partition of one of its tensor views. */
  isRead(arg: string): boolean {
    // The memref form loads from the argument itself or from a memref.subview of it.
    for (const loaded of this.loads) if (loaded === arg || this.partitionSources.get(loaded) === arg) return true;
    const tensorViews = new Set(this.views.filter((v) => this.pointerBase(v.source).base === arg).map((v) => scoped(v.scope, v.op.results[0]?.name ?? '')));
    for (const loaded of this.loads) {
      if (tensorViews.has(this.partitionSources.get(loaded) ?? '')) return true;
    }
    return false;
  }

  private evaluate(o: Operand, scope: Scope, depth = 0): number | undefined {
    if (o.literal !== undefined) return o.literal;
    if (!o.value || depth > 16) return undefined;
    const name = scoped(scope, o.value.name);
    const bound = name.includes('/') ? undefined : this.specs.get(name.slice(1));
    if (bound !== undefined && /^[+-]?\d+$/.test(bound)) return Number(bound);
    const loop = this.inductions.get(name);
    if (loop) {
      const [lb, ub, step] = ['lb', 'ub', 'step'].map((k) => this.evaluate(loop.op.operands[loop.op.segments[k][0]], loop.scope, depth + 1));
      if (lb === undefined || ub === undefined || step === undefined || step <= 0) return undefined;
      return ub <= lb ? lb : lb + Math.floor((ub - lb - 1) / step) * step;
    }
    const found = this.defs.get(name);
    const def = found?.op;
    const fold = def && opRegistry().lookup(def.name)?.def.fold;
    if (!def || !fold) return undefined;
    const args = def.operands.map((x) => this.evaluate(x, found.scope, depth + 1));
    if (args.some((a) => a === undefined)) return undefined;
    const resultType = def.resultTypes[0] ? this.types.resolve(def.resultTypes[0]).type : undefined;
    const folded = fold(
      args.map((a) => BigInt(a!)),
      resultType,
      def,
    );
    return folded === undefined ? undefined : Number(folded);
  }
}
