/**
 * Runs the AscendC conformance cases (test/fixtures/ascendc/cases.json, read by case-harness.ts)
 * through the PTO-AS text form: one program per case, assembled and run on the VM.
 *
 * How a case becomes a program
 * ----------------------------
 * A case describes one instruction on a 192 KiB UB (0xEE bytes plus its init regions) with operands
 * at byte addresses. In the text form an operand is a tile, and the instruction's addresses are
 * relative to each tile's first byte. So every operand (src, dst, and for vec_reduce_add the work
 * tensor) becomes a 1-row row-major tile that *is* a contiguous byte range of the UB starting at the
 * operand's address:
 *
 *   - its dtype is the case's dtype (the op takes its element type from %src; dst and work use the
 *     same one), so an element divides the region and `cols * elemsize` is a multiple of 32;
 *   - its length covers every byte the instruction touches in that operand (computed here from the
 *     parameters, independently of the model: the lanes the mask enables, the strides, the repeats)
 *     and, for dst, the bytes the case's `expect` regions check after dst's address; rounded up to
 *     32 bytes, at least 32.
 *
 * Tiles are separate buffers in the VM, so the bytes between operands are not shared: each tile gets
 * only its own UB bytes. The program has a pointer argument per tile for its initial bytes
 * (`%src_in`, ...) and one for its final bytes (`%src_out`, ...): it tloads each tile from its input,
 * runs the instruction, and tstores each tile to its output. The harness then rebuilds the UB (the
 * initial UB with every tile's final bytes written back at its address; bytes outside every tile
 * cannot change) and compares the case's expect regions bit for bit.
 *
 * Error cases become the same program with the case's invalid parameters; `assemble` must reject it
 * with one located error.
 */
import { ConformanceCase, DEFAULT_DST, DEFAULT_SRC, DEFAULT_WORK, buildUb } from './case-harness';
import { Assembled, assemble } from '../../src/verify/assemble';
import { formatAll } from '../../src/diag/diagnostic';
import { ElemType } from '../../src/types/type';
import { firstLowerableOp, lowerToText } from '../../src/lower';
import { runFunction } from '../../src/vm/interpreter';
import { bindArguments } from '../../src/vm/io/arguments';

export type Role = 'src' | 'dst' | 'work';

/** One operand as a tile: the UB bytes [addr, addr + bytes). */
export interface TileLayout {
  role: Role;
  addr: number;
  bytes: number;
  dtype: ElemType;
}

export interface TextProgram {
  id: string;
  /** The PTO-AS source. */
  text: string;
  /** The function to run. */
  entry: string;
  /** The op's line (1-based) in `text`, and its text. */
  opLine: number;
  opText: string;
  /** The tiles, in the order of the arguments. */
  tiles: TileLayout[];
  /** Input argument name -> initial bytes (each tile's bytes of the case's UB). */
  inputs: Map<string, Uint8Array>;
  /** Role -> the pointer argument that receives the tile's final bytes. */
  outputs: Map<Role, string>;
  /** The tile each role reads or writes (for in-place forms: src for work). */
  operandOf: Map<Role, Role>;
}

export interface BuildOptions {
  /** vec_reduce_add: pass a work tile (default true). Without one the toolchain provides the scratch. */
  work?: boolean;
  /** Write `product` and `saturation` even when they are the defaults (a2, true). */
  explicitDefaults?: boolean;
  /** Bit masks in decimal instead of hex. */
  decimalMasks?: boolean;
}

const ELEM: Record<string, ElemType> = { f16: 'f16', f32: 'f32', bf16: 'bf16', u16: 'u16', i16: 'i16', u32: 'u32', i32: 'i32' };
const SIZE: Record<string, number> = { f16: 2, bf16: 2, u16: 2, i16: 2, f32: 4, u32: 4, i32: 4 };
const PRODUCT_ATTR: Record<string, string> = { A2: 'a2', '310B': '310b', '910': '910', '310P': '310p', '310': '310' };
const ORDER_ATTR: Record<string, string> = {
  ORDER_VALUE_INDEX: 'value_index',
  ORDER_INDEX_VALUE: 'index_value',
  ORDER_ONLY_VALUE: 'only_value',
  ORDER_ONLY_INDEX: 'only_index',
};
const OP_NAME: Record<Exclude<ConformanceCase['instr'], 'TCOLMIN'>, string> = {
  WholeReduceMin: 'ascendc.whole_reduce_min',
  BlockReduceSum: 'ascendc.block_reduce_sum',
  vec_reduce_add: 'tik.vec_reduce_add',
  Copy: 'ascendc.copy',
};

/** A case's parameters in the text form's terms (defaults filled in), with its operand addresses. */
export interface CaseParams {
  dtype: string;
  src: number;
  dst: number;
  work: number;
  /** Contiguous count, or [M0, M1] (AscendC order). */
  mask: number | [bigint, bigint];
  repeat: number;
  /** Attribute name -> value, in the text form's order (strides, order). */
  attrs: [string, string | number][];
  /** The values of the stride attributes (defaults included), by attribute name. */
  strides: Record<string, number>;
  order: string;
  /** vec_reduce_add: the work tensor's size in elements, when the case gives it. */
  workElems?: number;
}

function list(v: unknown): number[] | undefined {
  return v === undefined
    ? undefined
    : String(v)
        .replace(/[{}\s]/g, '')
        .split(',')
        .map(Number);
}

function num(v: unknown): number | undefined {
  return v === undefined ? undefined : Number(v);
}

/** The case's parameters, with the defaults case-harness.ts uses for what the case leaves out. */
export function caseParams(c: ConformanceCase): CaseParams {
  const q = c.params;
  const dtype = String(q.dtype);
  const lanes = 256 / SIZE[dtype];
  const bitMask = (words: unknown): [bigint, bigint] => {
    const w = words as string[];
    return [BigInt(w[0]), BigInt(w[1])];
  };
  let mask: CaseParams['mask'] = lanes;
  if (typeof q.mask === 'number') mask = q.mask;
  else if (Array.isArray(q.mask)) mask = bitMask(q.mask);
  else if (Array.isArray(q.mask_tik)) {
    const [h, l] = bitMask(q.mask_tik); // TIK writes [mask_h, mask_l]
    mask = [l, h];
  }
  const src = num(q.src) ?? DEFAULT_SRC;
  const dst = num(q.dst) ?? DEFAULT_DST[c.instr];
  const work = num(q.work) ?? DEFAULT_WORK;
  const attrs: [string, string | number][] = [];
  const strides: Record<string, number> = {};
  const stride = (name: string, value: number | undefined, dflt: number) => {
    strides[name] = value ?? dflt;
    if (value !== undefined) attrs.push([name, value]);
  };
  let repeat = Number(q.repeat);
  let order = 'ORDER_VALUE_INDEX';
  switch (c.instr) {
    case 'WholeReduceMin': {
      const s = list(q.strides);
      stride('dst_rep_stride', num(q.dstRepStride) ?? s?.[0], 1);
      stride('src_blk_stride', num(q.srcBlkStride) ?? s?.[1], 1);
      stride('src_rep_stride', num(q.srcRepStride) ?? s?.[2], 8);
      if (q.order !== undefined) {
        order = String(q.order);
        attrs.push(['order', `"${ORDER_ATTR[order]}"`]);
      }
      break;
    }
    case 'BlockReduceSum':
      stride('dst_rep_stride', num(q.dstRepStride), 1);
      stride('src_blk_stride', num(q.srcBlkStride), 1);
      stride('src_rep_stride', num(q.srcRepStride), 8);
      break;
    case 'vec_reduce_add':
      repeat = Number(q.repeat_times);
      stride('src_rep_stride', num(q.src_rep_stride), 8);
      break;
    case 'Copy': {
      const s = list(q.params);
      stride('dst_stride', s?.[0], 1);
      stride('src_stride', s?.[1], 1);
      stride('dst_repeat_size', s?.[2], 8);
      stride('src_repeat_size', s?.[3], 8);
      break;
    }
    case 'TCOLMIN':
      throw new Error(`${c.id}: TCOLMIN is a PTO tile instruction, not an AscendC one`);
  }
  return { dtype, src, dst, work, mask, repeat, attrs, strides, order, workElems: num(q.work_elems) };
}

// ---------------------------------------------------------------------------------------------------
// The bytes each operand touches, from the parameters alone (reference/ascendc.md §1: lane l of repeat
// r is at base + r*repStride*32 + (l div E)*blkStride*32 + (l mod E)*sz).

function enabledLanes(mask: CaseParams['mask'], sz: number): number[] {
  const lanes = 256 / sz;
  const out: number[] = [];
  for (let l = 0; l < lanes; l++) {
    const on = typeof mask === 'number' ? l < mask : ((l < 64 ? mask[0] : mask[1]) >> BigInt(l % 64)) & 1n;
    if (on) out.push(l);
  }
  return out;
}

function lane(r: number, l: number, blk: number, rep: number, sz: number): number {
  const E = 32 / sz;
  return r * rep * 32 + Math.floor(l / E) * blk * 32 + (l % E) * sz;
}

/** End (exclusive, relative to the operand's address) of the bytes each operand touches; 0 = none. */
export function touchedEnds(c: ConformanceCase, p: CaseParams): Record<Role, number> {
  const sz = SIZE[p.dtype];
  const on = enabledLanes(p.mask, sz);
  const s = p.strides;
  const ends: Record<Role, number> = { src: 0, dst: 0, work: 0 };
  const reads = (blk: number, rep: number) => {
    for (let r = 0; r < p.repeat; r++) for (const l of on) ends.src = Math.max(ends.src, lane(r, l, blk, rep, sz) + sz);
  };
  switch (c.instr) {
    case 'WholeReduceMin': {
      reads(s.src_blk_stride, s.src_rep_stride);
      const unit = p.order === 'ORDER_ONLY_VALUE' ? sz : p.order === 'ORDER_ONLY_INDEX' ? 4 : 2 * sz;
      if (on.length > 0) for (let r = 0; r < p.repeat; r++) ends.dst = Math.max(ends.dst, r * s.dst_rep_stride * unit + unit);
      break;
    }
    case 'BlockReduceSum': {
      reads(s.src_blk_stride, s.src_rep_stride);
      const E = 32 / sz;
      for (let r = 0; r < p.repeat; r++) {
        for (let b = 0; b < 8; b++) {
          const written = c.product === '310B' || on.some((l) => Math.floor(l / E) === b);
          if (written) ends.dst = Math.max(ends.dst, (r * s.dst_rep_stride * 8 + b) * sz + sz);
        }
      }
      break;
    }
    case 'vec_reduce_add':
      reads(1, s.src_rep_stride);
      ends.dst = sz;
      ends.work = p.repeat * sz;
      break;
    case 'Copy':
      reads(s.src_stride, s.src_repeat_size);
      for (let r = 0; r < p.repeat; r++) for (const l of on) ends.dst = Math.max(ends.dst, lane(r, l, s.dst_stride, s.dst_repeat_size, sz) + sz);
      break;
    case 'TCOLMIN':
      break;
  }
  return ends;
}

const round32 = (n: number) => Math.max(32, Math.ceil(n / 32) * 32);

/** Largest tile the harness makes (error cases with huge repeats or strides never run). */
const MAX_TILE = 64 * 1024;

/**
 * The tiles of a case: each operand's touched bytes, dst also up to the end of the expect regions
 * (error cases: at most 64 KiB a tile). `workTile` = false leaves vec_reduce_add's work operand out.
 */
export function layoutTiles(c: ConformanceCase, p: CaseParams, workTile: boolean): TileLayout[] {
  const cap = c.error === undefined ? Infinity : MAX_TILE;
  const ends = touchedEnds(c, p);
  for (const region of c.expect ?? []) {
    const end = region.addr + region.count * SIZE[region.dtype];
    if (end > p.dst) ends.dst = Math.max(ends.dst, end - p.dst);
  }
  const dtype = ELEM[p.dtype];
  const tile = (role: Role, addr: number, end: number): TileLayout => ({ role, addr, bytes: Math.min(cap, round32(end)), dtype });
  const tiles = [tile('src', p.src, ends.src), tile('dst', p.dst, ends.dst)];
  if (c.instr === 'vec_reduce_add' && workTile) tiles.push(tile('work', p.work, ends.work));
  return tiles;
}

/** Throws when two tiles share UB bytes (each tile must get only its own bytes). */
export function checkDisjoint(id: string, tiles: readonly TileLayout[]): void {
  for (let i = 0; i < tiles.length; i++) {
    for (let j = i + 1; j < tiles.length; j++) {
      const a = tiles[i];
      const b = tiles[j];
      if (a.addr < b.addr + b.bytes && b.addr < a.addr + a.bytes) {
        throw new Error(`${id}: the ${a.role} tile [${a.addr}, ${a.addr + a.bytes}) and the ${b.role} tile [${b.addr}, ${b.addr + b.bytes}) overlap in the UB`);
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------------
// The program.

export function tileType(t: { dtype: ElemType; bytes: number }, validCols?: number): string {
  const cols = t.bytes / SIZE[t.dtype];
  return `!pto.tile_buf<loc=vec, dtype=${t.dtype}, rows=1, cols=${cols}, v_row=1, v_col=${validCols ?? cols}, blayout=row_major, slayout=none_box, fractal=512, pad=0>`;
}

function maskText(mask: CaseParams['mask'], decimal: boolean): string {
  if (typeof mask === 'number') return String(mask);
  const w = (v: bigint) => (decimal ? v.toString() : `0x${v.toString(16)}`);
  return `[${w(mask[0])}, ${w(mask[1])}]`;
}

/** The op's attribute dictionary. */
export function attributeText(c: ConformanceCase, p: CaseParams, options: BuildOptions = {}): string {
  const entries: string[] = [`mask = ${maskText(p.mask, options.decimalMasks ?? false)}`, `repeat = ${p.repeat}`];
  for (const [k, v] of p.attrs) entries.push(`${k} = ${v}`);
  if (options.explicitDefaults || c.product !== 'A2') entries.push(`product = "${PRODUCT_ATTR[c.product]}"`);
  if (options.explicitDefaults || !c.sat) entries.push(`saturation = ${c.sat}`);
  return `{${entries.join(', ')}}`;
}

export interface ProgramShape {
  tiles: TileLayout[];
  /** The op's operand lists: names of tiles. */
  ins: string[];
  outs: string[];
}

/**
 * A program that loads every tile from `%<role>_in`, runs `opName` with `attrs`, and stores every tile
 * to `%<role>_out`.
 */
export function programText(
  entry: string,
  header: string,
  opName: string,
  shape: ProgramShape,
  attrs: string,
): { text: string; opLine: number; opText: string } {
  const { tiles } = shape;
  const args: string[] = [];
  for (const t of tiles) args.push(`%${t.role}_in: !pto.ptr<${t.dtype}>`);
  for (const t of tiles) args.push(`%${t.role}_out: !pto.ptr<${t.dtype}>`);
  const cols = (t: TileLayout) => t.bytes / SIZE[t.dtype];
  const constants = [...new Set([0, 1, ...tiles.map(cols)])].sort((a, b) => a - b);
  const part = (t: TileLayout) => `!pto.partition_tensor_view<1x${cols(t)}x${t.dtype}>`;
  const byRole = new Map(tiles.map((t) => [t.role, t]));
  const typed = (role: string) => `%${role} : ${tileType(byRole.get(role as Role)!)}`;
  const L: string[] = [];
  L.push(`// ${header}`);
  L.push('module {');
  L.push(`  func.func @${entry}(${args.join(', ')}) {`);
  for (const n of constants) L.push(`    %c${n} = arith.constant ${n} : index`);
  for (const t of tiles) {
    for (const dir of ['in', 'out']) {
      const v = `%${t.role}_${dir}`;
      L.push(`    ${v}_view = pto.make_tensor_view ${v}, shape = [%c1, %c${cols(t)}], strides = [%c${cols(t)}, %c1] : !pto.tensor_view<?x?x${t.dtype}>`);
      L.push(
        `    ${v}_part = pto.partition_view ${v}_view, offsets = [%c0, %c0], sizes = [%c1, %c${cols(t)}] : !pto.tensor_view<?x?x${t.dtype}> -> ${part(t)}`,
      );
    }
  }
  for (const t of tiles) L.push(`    %${t.role} = pto.alloc_tile : ${tileType(t)}`);
  for (const t of tiles) L.push(`    pto.tload ins(%${t.role}_in_part : ${part(t)}) outs(${typed(t.role)})`);
  const opText = `    ${opName} ins(${shape.ins.map(typed).join(', ')}) outs(${shape.outs.map(typed).join(', ')}) ${attrs}`;
  L.push(opText);
  const opLine = L.length;
  for (const t of tiles) L.push(`    pto.tstore ins(${typed(t.role)}) outs(%${t.role}_out_part : ${part(t)})`);
  L.push('    return');
  L.push('  }');
  L.push('}');
  return { text: L.join('\n') + '\n', opLine, opText };
}

/**
 * The program of a case. Valid cases get the tiles of `layoutTiles`; error cases get the same (capped
 * at 64 KiB a tile, they never run), with these forms of the problem:
 * - `inPlaceWork`: the work operand is %src itself (the text form's way to make work overlap src);
 * - `workBytes`: the size of the work tile.
 */
export function buildTextProgram(c: ConformanceCase, options: BuildOptions & { inPlaceWork?: boolean; workBytes?: number } = {}): TextProgram {
  const p = caseParams(c);
  const withWork = c.instr === 'vec_reduce_add' && (options.work ?? true) && !options.inPlaceWork;
  const tiles = layoutTiles(c, p, withWork);
  if (options.workBytes !== undefined) tiles.find((t) => t.role === 'work')!.bytes = options.workBytes;
  if (c.error === undefined) checkDisjoint(c.id, tiles);
  const ins = ['src'];
  if (withWork) ins.push('work');
  if (options.inPlaceWork) ins.push('src');
  const entry = `case_${c.id.toLowerCase()}`;
  const opName = OP_NAME[c.instr as keyof typeof OP_NAME];
  const where = tiles.map((t) => `${t.role} = UB[${t.addr}, ${t.addr + t.bytes})`).join(', ');
  const { text, opLine, opText } = programText(entry, `${c.id}: ${c.desc} (${where})`, opName, { tiles, ins, outs: ['dst'] }, attributeText(c, p, options));
  const ub = buildUb(c);
  const inputs = new Map<string, Uint8Array>();
  const outputs = new Map<Role, string>();
  for (const t of tiles) {
    const bytes = new Uint8Array(t.bytes).fill(c.fill_byte);
    bytes.set(ub.subarray(t.addr, Math.min(ub.length, t.addr + t.bytes)));
    inputs.set(`${t.role}_in`, bytes);
    outputs.set(t.role, `${t.role}_out`);
  }
  const operandOf = new Map<Role, Role>([
    ['src', 'src'],
    ['dst', 'dst'],
  ]);
  if (withWork) operandOf.set('work', 'work');
  if (options.inPlaceWork) operandOf.set('work', 'src');
  return { id: c.id, text, entry, opLine, opText, tiles, inputs, outputs, operandOf };
}

// ---------------------------------------------------------------------------------------------------
// Running.

export const TARGET = 'a5' as const;

/** Assembles a program (target a5) and throws with every diagnostic when it does not verify. */
export function assembleOrThrow(file: string, text: string): Assembled {
  const assembled = assemble(file, text, { target: TARGET });
  if (assembled.diags.items.length > 0) throw new Error(`${file} does not verify cleanly:\n${formatAll(assembled.diags)}\n${text}`);
  return assembled;
}

/**
 * Runs a program through the library API: assemble, bindArguments (nothing bound, so the outputs get
 * zeros sized from the static views), the inputs' bytes written into their buffers, runFunction.
 * Returns every pointer argument's final bytes and how many elements were written.
 */
export function runTextProgram(prog: TextProgram, options: { lowered?: boolean } = {}): Map<string, { bytes: Uint8Array; written: number }> {
  let assembled = assembleOrThrow(`${prog.id}.pto`, prog.text);
  if (options.lowered) {
    const text = lowerToText(assembled.program, assembled.types, prog.text);
    assembled = assembleOrThrow(`${prog.id}-lowered.pto`, text);
    if (firstLowerableOp(assembled.program)) throw new Error(`${prog.id}: the lowered program still has AscendC ops`);
  }
  const fn = assembled.program.functions.get(prog.entry);
  if (!fn) throw new Error(`${prog.id}: no function @${prog.entry}`);
  const bound = bindArguments(assembled.types, fn, new Map());
  for (const [name, bytes] of prog.inputs) {
    const buffer = bound.buffers.find((b) => b.name === name);
    if (!buffer) throw new Error(`${prog.id}: no pointer argument %${name}`);
    if (buffer.bytes.length !== bytes.length) throw new Error(`${prog.id}: %${name} was sized ${buffer.bytes.length} bytes, the tile has ${bytes.length}`);
    buffer.bytes.set(bytes);
  }
  runFunction(assembled.program, assembled.types, fn, bound.values, { numerics: 'npu', maxSteps: 1_000_000 });
  const out = new Map<string, { bytes: Uint8Array; written: number }>();
  for (const b of bound.buffers) out.set(b.name, { bytes: b.bytes.slice(), written: b.written.reduce((s, w) => s + w, 0) });
  return out;
}

/** The case's UB after the run: the initial UB with every tile's final bytes at its address. */
export function rebuildUb(c: ConformanceCase, prog: TextProgram, finalBytes: (argument: string) => Uint8Array): Uint8Array {
  const ub = buildUb(c);
  const grown = new Uint8Array(Math.max(ub.length, ...prog.tiles.map((t) => t.addr + t.bytes))).fill(c.fill_byte);
  grown.set(ub);
  for (const t of prog.tiles) grown.set(finalBytes(prog.outputs.get(t.role)!), t.addr);
  return grown;
}

/** The located errors of a program that must not verify: "line:col message". */
export function errorsOf(file: string, text: string): { offset: number; at: string; code?: string; message: string }[] {
  const r = assemble(file, text, { target: TARGET });
  return r.diags.items
    .filter((d) => d.severity === 'error')
    .map((d) => {
      const pos = r.source.position(d.span.start);
      return { offset: d.span.start, at: `${pos.line}:${pos.col}`, code: d.code, message: d.message };
    });
}
