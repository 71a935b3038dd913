/**
 * Runs a PTOAS sample (read from PTO_CORPUS_DIR) and compares every global buffer after the run with what its
 * reference says, element for element (Object.is: -0 and NaN count). A reference is written from the sample's
 * meaning (its .py source, its comments, the ops it runs) with the plain models in test/models, never with VM code.
 * Buffers a reference does not mention must come back unchanged, unless it lists them as scratch.
 */
import * as fs from 'fs';
import * as path from 'path';
import { getFloat16, setFloat16 } from '@petamoriken/float16';
import { assemble } from '../../../src/verify/assemble';
import { formatAll } from '../../../src/diag/diagnostic';
import { TargetName } from '../../../src/spec/schema';
import { ElemType, elemSize } from '../../../src/types/type';
import { runLaunch } from '../../../src/vm/interpreter';
import { bindArguments } from '../../../src/vm/io/arguments';
import { GlobalBuffer } from '../../../src/machine/memory';
import { Profile } from '../../models/reduce';

export const corpusRoot = process.env.PTO_CORPUS_DIR;

export interface SampleIO {
  /** Every global buffer before the run, by argument name (without %), as numbers. */
  in: Record<string, number[]>;
  /** The scalar arguments as bound. */
  scalar: Record<string, number>;
  profile: Profile;
}

export interface SampleReference {
  /** Relative to the corpus root. */
  file: string;
  /** The function to run when the file has several. */
  fn?: string;
  target?: TargetName;
  /** Scalar arguments (and sizes of buffers the views do not fix), as `pto-vm run --arg` takes them. */
  args?: Record<string, string>;
  /**
   * Input data: `generated` is what pto-vm generates (uniform in [-4, 4)); `exact` are small multiples of 1/8,
   * exactly representable in bf16 and with exact products, for the cube kernels.
   */
  fill?: 'generated' | 'exact';
  /** Profiles to run under; both by default. */
  profiles?: Profile[];
  /** Buffers the kernel writes that the reference does not check (intermediate results it stores for itself). */
  scratch?: string[];
  /**
   * Tiles to observe, for kernels that keep their result on chip: the harness adds a pointer argument
   * `%observed_<tile>` per tile and stores the tile's valid region there before the function returns (see observe()).
   */
  observe?: string[];
  /** Run the kernel on this many blocks and sub-blocks (pto-vm --blocks/--subblocks); one core by default. */
  launch?: { blocks: number; subblocks: number };
  /** Every checked buffer after the run. */
  expect(io: SampleIO): Record<string, number[]>;
}

/** The file, the function when named, the scalar bindings, the launch and the fill: what tells two entries of one file apart. */
export function sampleName(r: SampleReference): string {
  const args = Object.entries(r.args ?? {}).map(([k, v]) => `${k}=${v}`);
  const launch = r.launch ? [`--blocks ${r.launch.blocks} --subblocks ${r.launch.subblocks}`] : [];
  const fill = r.fill === 'exact' ? ['(exact inputs)'] : [];
  return [r.file, ...(r.fn ? [`@${r.fn}`] : []), ...args, ...launch, ...fill].join(' ');
}

// ---- element codecs (independent of the VM's) ----------------------------------------------------------------

function read(view: DataView, elem: ElemType, k: number): number {
  switch (elem) {
    case 'f32':
      return view.getFloat32(k * 4, true);
    case 'f16':
      return getFloat16(view, k * 2, true);
    case 'bf16':
      return new Float32Array(new Uint32Array([view.getUint16(k * 2, true) << 16]).buffer)[0];
    case 'i32':
      return view.getInt32(k * 4, true);
    case 'i16':
      return view.getInt16(k * 2, true);
    case 'i8':
      return view.getInt8(k);
    case 'u8':
      return view.getUint8(k);
    case 'u16':
      return view.getUint16(k * 2, true);
    case 'u32':
      return view.getUint32(k * 4, true);
    default:
      throw new Error(`no reference codec for ${elem}`);
  }
}

function write(view: DataView, elem: ElemType, k: number, v: number): void {
  switch (elem) {
    case 'f32':
      return view.setFloat32(k * 4, v, true);
    case 'f16':
      return setFloat16(view, k * 2, v, true);
    case 'bf16':
      return view.setUint16(k * 2, new Uint32Array(new Float32Array([v]).buffer)[0] >>> 16, true); // exact inputs only
    case 'i32':
    case 'u32':
      return view.setInt32(k * 4, v, true);
    case 'i16':
    case 'u16':
      return view.setInt16(k * 2, v, true);
    case 'i8':
    case 'u8':
      return view.setInt8(k, v);
    default:
      throw new Error(`no reference codec for ${elem}`);
  }
}

function valuesOf(b: GlobalBuffer): number[] {
  // The common 4-byte types through a typed array: the 5-D samples hold 16M elements.
  if (b.elem === 'f32') return Array.from(new Float32Array(b.bytes.slice().buffer));
  if (b.elem === 'i32') return Array.from(new Int32Array(b.bytes.slice().buffer));
  return Array.from({ length: b.length }, (_, k) => read(b.view, b.elem, k));
}

/** Small multiples of 1/8 in [-16, 16) (floats) or integers in [-100, 100]: exact in bf16, products exact in f32. */
function exactValues(elem: ElemType, count: number, seed: number): number[] {
  let s = seed >>> 0;
  const next = () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
  const float = elem === 'f32' || elem === 'f16' || elem === 'bf16';
  return Array.from({ length: count }, () => (float ? (Math.floor(next() * 255) - 127) / 8 : Math.floor(next() * 201) - 100));
}

// ---- running ----------------------------------------------------------------------------------------------------

export interface SampleRun {
  before: Record<string, number[]>;
  after: Record<string, number[]>;
  scalar: Record<string, number>;
}

/**
 * The sample with a store of each observed tile added before the last `return` of the function (the only one, or
 * `fn`), into a new pointer argument `%observed_<tile>` shaped like the tile's valid region. A text edit: the tile's
 * type is read from its alloc_tile.
 */
export function observe(text: string, tiles: string[], fn?: string): string {
  const header = fn ? new RegExp(`func\\.func @${fn}\\(`) : /func\.func @[\w$.]+\(/;
  const start = text.search(header);
  if (start < 0) throw new Error(`no function ${fn ?? ''} to instrument`);
  const open = text.indexOf('(', start) + 1;
  const end = text.indexOf('\n  }', open);
  const ret = text.lastIndexOf('return', end);
  const params: string[] = [];
  const stores: string[] = [];
  for (const tile of tiles) {
    const alloc = new RegExp(`${tile} = pto\\.alloc_tile[^:]*:\\s*(!pto\\.tile_buf<[^>]*>)`).exec(text);
    if (!alloc) throw new Error(`no alloc_tile of ${tile}`);
    const type = alloc[1].replace(/\s+/g, ' ');
    const field = (key: string) => new RegExp(`${key}=(\\w+)`).exec(type)![1];
    const [dtype, rows, cols] = [field('dtype'), field('v_row'), field('v_col')];
    const name = `observed_${tile.slice(1)}`;
    const view = `!pto.tensor_view<?x?x${dtype}>`;
    const part = `!pto.partition_tensor_view<${rows}x${cols}x${dtype}>`;
    params.push(`%${name}: !pto.ptr<${dtype}>`);
    stores.push(
      `%${name}_rows = arith.constant ${rows} : index`,
      `%${name}_cols = arith.constant ${cols} : index`,
      `%${name}_one = arith.constant 1 : index`,
      `%${name}_zero = arith.constant 0 : index`,
      `%${name}_view = pto.make_tensor_view %${name}, shape = [%${name}_rows, %${name}_cols], strides = [%${name}_cols, %${name}_one] : ${view}`,
      `%${name}_part = pto.partition_view %${name}_view, offsets = [%${name}_zero, %${name}_zero], sizes = [%${name}_rows, %${name}_cols] : ${view} -> ${part}`,
      `pto.tstore ins(${tile} : ${type}) outs(%${name}_part : ${part})`,
    );
  }
  const empty = text[open] === ')';
  return text.slice(0, open) + params.join(', ') + (empty ? '' : ', ') + text.slice(open, ret) + stores.join('\n    ') + '\n    ' + text.slice(ret);
}

export function runSample(ref: SampleReference, profile: Profile, root = corpusRoot!): SampleRun {
  const original = fs.readFileSync(path.join(root, ref.file), 'utf8');
  const text = ref.observe ? observe(original, ref.observe, ref.fn) : original;
  const asm = assemble(ref.file, text, { target: ref.target });
  if (asm.diags.hasErrors()) throw new Error(formatAll(asm.diags));
  const fns = [...asm.program.functions.values()].filter((f) => f.regions.length > 0);
  const fn = ref.fn ? fns.find((f) => f.symbol === ref.fn) : fns[0];
  if (!fn) throw new Error(`${ref.file} has no function ${ref.fn}`);
  const args = new Map(Object.entries(ref.args ?? {}));
  const bound = bindArguments(asm.types, fn, args);
  bound.buffers.forEach((b, index) => {
    if (ref.fill !== 'exact') return;
    exactValues(b.elem, b.length, 7 * index + b.length).forEach((v, k) => write(b.view, b.elem, k, v));
  });
  const before = Object.fromEntries(bound.buffers.map((b) => [b.name, valuesOf(b)]));
  // Tile arguments (a kernel handed a buffer on chip) hold generated data too: their contents are inputs.
  for (const p of fn.params ?? []) {
    const value = bound.values.get(p.name);
    const type = p.type ? asm.types.parse(p.type.text).type : undefined;
    if (typeof value !== 'object' || !('kind' in value) || value.kind !== 'tile_contents' || type?.kind !== 'tile') continue;
    const view = new DataView(value.bytes.buffer, value.bytes.byteOffset, value.bytes.byteLength);
    before[p.name.slice(1)] = Array.from({ length: value.bytes.byteLength / elemSize(type.dtype) }, (_, k) => read(view, type.dtype, k));
  }
  const scalar: Record<string, number> = {};
  for (const p of fn.params ?? []) {
    const name = p.name.slice(1);
    if (args.has(name) && !(name in before)) scalar[name] = Number(args.get(name));
  }
  runLaunch(asm.program, asm.types, fn, bound.values, { numerics: profile, maxSteps: 1e8 }, ref.launch?.blocks ?? 1, ref.launch?.subblocks ?? 1);
  const after = Object.fromEntries(bound.buffers.map((b) => [b.name, valuesOf(b)]));
  return { before, after, scalar };
}

/** The first few differences between a buffer and its expected contents, as readable lines. */
export function differences(name: string, got: number[], want: number[], limit = 5): string[] {
  const out: string[] = [];
  if (got.length !== want.length) out.push(`%${name}: ${got.length} elements, the reference has ${want.length}`);
  for (let k = 0; k < Math.min(got.length, want.length) && out.length < limit; k++) {
    if (!Object.is(got[k], want[k])) out.push(`%${name}[${k}]: got ${got[k]}, want ${want[k]}`);
  }
  return out;
}

/** Registers one test per sample and profile; skipped with a message when PTO_CORPUS_DIR is unset. */
export function checkReferences(group: string, references: SampleReference[]): void {
  if (!corpusRoot) {
    test.skip(`${group}: PTO_CORPUS_DIR is not set: export zhangstevenunity/PTOAS and point PTO_CORPUS_DIR at it`, () => undefined);
    return;
  }
  if (references.length === 0) {
    test.todo(`${group}: no references yet`);
    return;
  }
  const cases = references.flatMap((r) => (r.profiles ?? (['npu', 'cpu-sim'] as Profile[])).map((p) => [sampleName(r), p, r] as const));
  test.each(cases)('%s (%s) agrees with its reference', (_name, profile, ref) => {
    const run = runSample(ref, profile);
    const want = ref.expect({ in: run.before, scalar: run.scalar, profile });
    const problems: string[] = [];
    for (const name of Object.keys(want)) if (!(name in run.after)) problems.push(`the reference names %${name}, which is not a buffer argument`);
    for (const [name, got] of Object.entries(run.after)) {
      if (ref.scratch?.includes(name)) continue;
      problems.push(...differences(name, got, want[name] ?? run.before[name]));
    }
    expect(problems).toEqual([]);
  });
}
