import { DIAGNOSTICS as D } from '../../diag/catalog';
import { decided } from '../../ir/bound';
import { OpDefinition } from '../../ir/definition';
import { vmTrap } from '../../machine/trap';
import type { MicroOpRowData } from '../../spec/micro-schema';
import { OnChipMemory } from '../../machine/memory';
import { codec } from '../../numerics/elements';
import { m1Scale } from '../../numerics/fixpipe';
import { ElemType, POINTER_SPACE_NAMES, TileType, printType } from '../../types/type';
import { globalAddress, localAddress, MicroRun } from './operands';
import { microReporters } from '../report';

/**
 * The FIXPIPE stores pto.mte_l0c_gm, pto.mte_l0c_ub and pto.mte_l0c_l1 (VPTOOps.td; VPTO.cpp's parser
 * parseStructuredAccStoreClauses and verifyStructuredAccStoreLike), written in the grammar rule `AccStoreBody`
 * (src/syntax/cube-parse.ts). Read: the operands, `dst_mode(...)` of mte_l0c_ub, and the clauses unit_flag, pre_quant
 * (the f32 -> f16/bf16/f32 modes, scalar or vector), pre_relu (no_relu, normal_relu, scalar_relu, vector_relu, with
 * an optional clip), nz2nd, loop3, sat and nosat, and atomic(type, op) of mte_l0c_gm in PTOAS's canonical order;
 * the other quant modes and pwl are reported as not supported yet. The nz2nd layout runs (storeNz2nd), and
 * nz2dn(1) into GM; one loop3 iteration; nz2nz and sat(preserve_nan) verify and trap as not implemented yet.
 */
/** PTOAS's clause kinds in canonical order (StructuredAccStoreClauseKind). */
const CLAUSE_ORDER: Record<string, number> = {
  unit_flag: 0,
  pre_quant: 1,
  pre_relu: 2,
  nz2nd: 3,
  nz2dn: 3,
  nz2nz: 3,
  loop3: 4,
  sat: 5,
  nosat: 5,
  atomic: 6,
};
const SUPPORTED = new Set(['unit_flag', 'pre_quant', 'pre_relu', 'nz2nd', 'nz2dn', 'nz2nz', 'loop3', 'sat', 'nosat', 'atomic']);

/** The pre_quant modes that run: f32 accumulators scaled into f16, bf16 or f32 (PTOAS's AccStoreQuantPreMode names). */
const QUANT_TO: Record<string, 'f16' | 'bf16' | 'f32'> = {
  // Plain conversions (16-cube-matmul.md: a scalar payload required by the syntax, no scaling, ties to even).
  f32_f16: 'f16',
  f32_bf16: 'bf16',
  qf322f16_pre_scalar: 'f16',
  qf322f16_pre_vec: 'f16',
  qf322bf16_pre_scalar: 'bf16',
  qf322bf16_pre_vec: 'bf16',
  qf322f32_pre_scalar: 'f32',
  qf322f32_pre_vec: 'f32',
};
/** Modes that verify (the destination family: 8-bit integers) but do not run yet: their offset and sign controls are not settled. */
const VERIFY_ONLY_QUANT: Record<string, string[]> = { qf322b8_pre_scalar: ['i8', 'u8'], qf322b8_pre_vec: ['i8', 'u8'] };
/** The clip payload a destination takes (16-cube-matmul.md: f16 for f16, a 16-bit unsigned or signless one for ui8). */
const CLIP_PAYLOAD: Record<string, string[]> = { f16: ['f16'], u8: ['i16', 'ui16'] };
const RELU_MODES = new Set(['no_relu', 'normal_relu', 'scalar_relu', 'vector_relu']);
const FLOAT_PAYLOAD = new Set(['f16', 'bf16', 'f32']);

/** The `key = value` arguments of a clause (`mode = scalar_relu, clip = %c8`), by key. */
function keyed(word: string | undefined): Map<string, string> {
  const m = new Map<string, string>();
  for (const part of (word ?? '').split(',')) {
    const [k, v] = part.split('=').map((t) => t.trim());
    if (k && v !== undefined) m.set(k, v);
  }
  return m;
}

/** The key of a core's on-chip memory in a launch's shared state (src/vm/interpreter.ts registers every core's). */
export const coreMemoryKey = (core: { block: number; kind?: string; subblock: number }): string =>
  `core-memory:${core.block}:${core.kind ?? 'any'}:${core.subblock}`;

/** The leading operands of each op (after them come its clauses). */
const LEADING: Record<string, { names: string[]; destination: string }> = {
  'pto.mte_l0c_gm': { names: ['source', 'destination', 'm', 'n', 'src_stride', 'dst_stride', 'sid', 'l2_cache_ctrl'], destination: 'gm' },
  'pto.mte_l0c_ub': { names: ['source', 'destination', 'm', 'n', 'src_stride', 'dst_stride'], destination: 'ub' },
  'pto.mte_l0c_l1': { names: ['source', 'destination', 'm', 'n', 'src_stride', 'dst_stride'], destination: 'l1' },
};

interface AccStoreDecision {
  /** The leading operands by name, and the clauses' operands: quant, relu, clip (one each), loop3 (three). */
  operands: Record<string, number[]>;
  layout?: string;
  dual?: 'split_m' | 'split_n';
  quant?: { mode: string; vector: boolean };
  relu?: string;
  sat?: 'sat' | 'nosat' | 'preserve_nan';
  atomic?: { type: string; op: string };
}

export function accStoreDefinition(row: MicroOpRowData): OpDefinition {
  const name = row.name;
  const leading = LEADING[name];
  return {
    name,
    syntax: 'AccStoreBody',
    diagnostic: D.microOperand,
    properties: { notInTileOpHelper: 'MTE data movement' },
    verify(v) {
      const { op } = v;
      const layout = op.micro!;
      const { formatError, err } = microReporters(v, name);
      v.expectResults(0);
      v.define([]);
      if (layout.items.length !== leading.names.length)
        return formatError(layout.items.at(-1)?.span ?? op.nameSpan, `takes ${leading.names.length} operands before its clauses, got ${layout.items.length}`);
      const operands: Record<string, number[]> = Object.fromEntries(leading.names.map((n, i) => [n, [i]])); // the items are the first operands
      const decision: AccStoreDecision = { operands };
      let clauses = layout.clauses;
      if (name === 'pto.mte_l0c_ub') {
        const mode = clauses[0];
        if (mode?.keyword !== 'dst_mode' || mode.bare)
          return formatError(mode?.span ?? op.nameSpan, 'expects dst_mode(%sub_blockid), dst_mode(split_m), or dst_mode(split_n)');
        if (mode.operands.length === 1 && !mode.word) operands.sub_blockid = mode.operands;
        else if (mode.operands.length > 0 || (mode.word !== 'split_m' && mode.word !== 'split_n'))
          return formatError(mode.span, 'expects dst_mode(%sub_blockid), dst_mode(split_m), or dst_mode(split_n)');
        else decision.dual = mode.word;
        clauses = clauses.slice(1);
      }
      let last = -1;
      const seen = new Set<number>();
      let mode: string | undefined;
      for (const c of clauses) {
        const kind = CLAUSE_ORDER[c.keyword];
        if (kind === undefined) return formatError(c.span, 'has an unknown mte_l0c clause');
        if (kind < last) return formatError(c.span, 'clauses must follow canonical order');
        if (seen.has(kind)) return formatError(c.span, `has a duplicate ${c.keyword} clause`);
        seen.add(kind);
        last = kind;
        if (kind === 3) mode = c.keyword;
        if (c.keyword === 'unit_flag' && (c.bare || c.operands.length > 0 || (c.word !== 'check_only' && c.word !== 'check_and_clear')))
          return formatError(c.span, "expects unit_flag('check_only' or 'check_and_clear')");
        if ((c.keyword === 'nz2nd' || c.keyword === 'nosat') && !c.bare) return formatError(c.span, `takes no arguments after ${c.keyword}`);
        if (!SUPPORTED.has(c.keyword) || (c.keyword === 'sat' && !c.bare && c.word !== 'preserve_nan')) {
          err(c.span, `the ${c.keyword}${c.bare ? '' : '(...)'} clause is not supported yet`);
          continue;
        }
        const args = keyed(c.word);
        if (c.keyword === 'sat' || c.keyword === 'nosat') decision.sat = c.bare ? c.keyword : 'preserve_nan';
        else if (c.keyword === 'nz2nz') {
          // nz2nz or nz2nz(%split) (VPTO.cpp: an f32 destination, no loop3); it runs as not implemented yet.
          if (c.word || c.operands.length > 1) return formatError(c.span, 'expects nz2nz or nz2nz(%split)');
          if (c.operands.length === 1) operands.split = c.operands;
        } else if (c.keyword === 'nz2dn') {
          if (c.operands.length !== 1 || c.word) return formatError(c.span, 'expects nz2dn(%loop0_src_stride)');
          operands.loop0 = c.operands;
        } else if (c.keyword === 'loop3') {
          if (c.operands.length !== 3) return formatError(c.span, 'expects loop3(%count, %src_stride, %dst_stride)');
          operands.loop3 = c.operands;
        } else if (c.keyword === 'pre_quant') {
          const m = args.get('mode') ?? '';
          if (c.operands.length !== 1 || !m) return formatError(c.span, 'expects pre_quant(%payload, mode = <mode>)');
          if (!QUANT_TO[m] && !VERIFY_ONLY_QUANT[m]) err(c.span, `the pre_quant mode ${m} is not supported yet`);
          decision.quant = { mode: m, vector: m.endsWith('_vec') };
          operands.quant = c.operands;
        } else if (c.keyword === 'pre_relu') {
          const m = args.get('mode') ?? '';
          const clip = args.has('clip') ? 1 : 0;
          if (!m || c.operands.length - clip > 1) return formatError(c.span, 'expects pre_relu([%payload, ]mode = <mode>[, clip = %value])');
          if (!RELU_MODES.has(m)) err(c.span, `the pre_relu mode ${m} is not supported yet`);
          const payload = c.operands.length - clip === 1;
          if ((m === 'scalar_relu' || m === 'vector_relu') !== payload)
            err(c.span, payload ? 'mode does not accept pre_relu payload' : `${m} requires payload`);
          decision.relu = m;
          if (payload) operands.relu = [c.operands[0]];
          if (clip) operands.clip = [c.operands.at(-1)!];
        } else if (c.keyword === 'atomic') {
          const [type, atomicOp] = [args.get('type'), args.get('op')];
          if (!type || !atomicOp) return formatError(c.span, 'expects atomic(type = <type>, op = <op>)');
          if (name !== 'pto.mte_l0c_gm') err(c.span, 'atomic(...) is supported by mte_l0c_gm only');
          decision.atomic = { type, op: atomicOp };
        }
      }
      // Types: one per operand, in written order.
      if (layout.types.length !== op.operands.length)
        return formatError(layout.types[0]?.type.span ?? op.span, `writes ${layout.types.length} types for ${op.operands.length} operands`);
      const [src, dst] = [v.operands[0], v.operands[1]];
      const space = (i: number) => {
        const t = v.operands[i];
        return t?.kind === 'ptr' ? POINTER_SPACE_NAMES[t.space][0] : undefined;
      };
      if (src && space(0) !== 'l0c') err(op.operands[0].span, `'source' must point to l0c, got ${printType(src)}`);
      if (dst && space(1) !== leading.destination) err(op.operands[1].span, `'destination' must point to ${leading.destination}, got ${printType(dst)}`);
      for (const [n, list] of Object.entries(operands)) {
        if (n === 'quant' || n === 'relu' || n === 'clip') continue; // payloads, checked below
        for (const i of list) {
          const t = v.operands[i];
          if (i >= 2 && t && printType(t) !== 'i64') err(op.operands[i].span, `'${n}' must be i64, got ${printType(t)}`);
        }
      }
      // Without pre_quant the accumulator's elements are stored as they are; a pre_quant mode names its destination type.
      const to = decision.quant ? QUANT_TO[decision.quant.mode] : undefined;
      if (src?.kind === 'ptr' && dst?.kind === 'ptr') {
        if (!decision.quant && src.elem !== dst.elem)
          err(op.operands[1].span, `storing ${printType(src)} elements as ${printType(dst)} needs a pre_quant conversion`);
        const family = decision.quant && VERIFY_ONLY_QUANT[decision.quant.mode];
        if ((to && (src.elem !== 'f32' || dst.elem !== to)) || (family && (src.elem !== 'f32' || !family.includes(dst.elem))))
          err(op.operands[1].span, `pre_quant mode ${decision.quant!.mode} is incompatible with ${printType(src)} and ${printType(dst)}`);
      }
      const payload = (slot: string, vector: boolean) => {
        const i = operands[slot]?.[0];
        const t = i === undefined ? undefined : v.operands[i];
        if (!t) return;
        const ok = vector
          ? t.kind === 'ptr' && POINTER_SPACE_NAMES[t.space][0] === 'fb' && FLOAT_PAYLOAD.has(t.elem)
          : t.kind === 'scalar' && FLOAT_PAYLOAD.has(t.elem);
        if (!ok)
          err(
            op.operands[i!].span,
            `the ${slot} payload must be ${vector ? 'a pointer to fb of f16, bf16 or f32' : 'an f16, bf16 or f32 scalar'}, got ${printType(t)}`,
          );
      };
      if (decision.quant) payload('quant', decision.quant.vector);
      if (decision.relu) payload('relu', decision.relu === 'vector_relu');
      if (operands.clip && dst?.kind === 'ptr') {
        const t = v.operands[operands.clip[0]];
        const allowed = CLIP_PAYLOAD[dst.elem];
        if (!allowed) err(op.operands[operands.clip[0]].span, `a clip of ${printType(dst)} elements is not supported yet`);
        else if (t && !allowed.includes(printType(t)))
          err(op.operands[operands.clip[0]].span, `the clip value must be ${allowed.join(' or ')}, got ${printType(t)}`);
      }
      // VPTO.cpp's rules that read constants: nz2dn's loop0_src_stride other than 1 with a unit flag, and the dual
      // destinations (MteL0cUbOp::verify: no transform clauses, nz2nd only, an even m / n a multiple of 32).
      const constant = (slot: string) => (operands[slot] ? v.constant(operands[slot][0]) : undefined);
      const unitFlag = clauses.find((c) => c.keyword === 'unit_flag');
      if (mode === 'nz2nz' && dst?.kind === 'ptr' && dst.elem !== 'f32') err(op.operands[1].span, `nz2nz requires destination element type to be f32`);
      if (mode === 'nz2nz' && operands.loop3) err(op.nameSpan, 'loop3 requires nz2nd or nz2dn');
      if (mode === 'nz2dn' && unitFlag && constant('loop0') !== 1n) err(unitFlag.span, 'unit_flag must be off when nz2dn loop0_src_stride is not 1');
      if (decision.dual) {
        const at = op.nameSpan;
        if (decision.quant || decision.relu || operands.loop3 || operands.loop0 || (mode && mode !== 'nz2nd'))
          err(
            at,
            mode && mode !== 'nz2nd' && mode !== 'nz2dn'
              ? 'dual destination mode requires normal or nz2nd layout'
              : 'dual destination mode cannot be combined with pre_quant, pre_relu, clip, nz2dn, nz2nz, or loop3',
          );
        const [m, n] = [constant('m'), constant('n')];
        if (decision.dual === 'split_m' && m !== undefined && m % 2n !== 0n) err(at, 'split-M dual destination requires m to be even');
        if (decision.dual === 'split_n' && n !== undefined && n % 32n !== 0n) err(at, 'split-N dual destination requires n to be a multiple of 32');
      }
      const sub = constant('sub_blockid');
      if (sub !== undefined && sub > 1n) err(op.operands[operands.sub_blockid[0]].span, 'sub_blockid must be 0 or 1');
      decision.layout = mode;
      v.decide(decision);
    },
    execute(x, op) {
      const fail = (message: string): never => {
        throw vmTrap(`${name}: ${message}`, op.node.span);
      };
      const d = decided<AccStoreDecision>(op);
      if (d.layout !== 'nz2nd' && d.layout !== 'nz2dn') return fail(`the ${d.layout ?? 'default'} layout is not implemented yet`);
      const r: MicroRun = { x, op, b: { operands: d.operands, attrs: {}, operandTypes: new Map(), resultTypes: [] }, mnemonic: name.slice(4), fail };
      storeNz2nd(r, d, leading.destination);
    },
  };
}

const F16_MAX = 65504;
const FINITE_MAX: Record<string, number> = { f16: F16_MAX, bf16: 3.3895313892515355e38, f32: 3.4028234663852886e38 };

/**
 * One accumulator value through the FIXPIPE, in the manual's order: pre_quant (the value in f32 times the quant
 * word's M1 scale, src/numerics/fixpipe.ts's m1Scale, rounded to f32), pre_relu (normal: negatives to 0; scalar and
 * vector: negatives times alpha, rounded to f32), the conversion to the destination type, then clip (the smaller of
 * the value and the clip value). The conversion: sat turns NaN into 0 and clamps to the type's finite range; nosat
 * rounds plainly (an overflow gives an infinity, NaN stays); without either a finite value is clamped (the cases'
 * goldens clip quantized f16 to its range) and a NaN or infinity traps, its handling being the CTRL register's
 * (set_ctrl), which the VM does not model. The goldens of PTOAS's cv-mixed fixpipe cases decide the details.
 */
function fixpipe(r: MicroRun, d: AccStoreDecision, to: ElemType): (value: number, col: number) => number {
  const ops = d.operands;
  const scalar = (slot: string) => Math.fround(Number(r.x.operand(r.op, ops[slot][0])));
  const fb = (slot: string, bytesPer: number, read: (view: DataView) => number) => {
    const { address } = localAddress(r, slot, 0);
    return (col: number) => {
      const bytes = fixpipeBufferBytes(r, address + col * bytesPer, bytesPer);
      return read(new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    };
  };
  let scale: ((col: number) => number) | undefined;
  const castOnly = d.quant?.mode.startsWith('f32_');
  if (d.quant && !castOnly) {
    if (d.quant.vector) {
      // One 64-bit quant word per column (the goldens' uint64 arrays), whatever the fb pointer's element type.
      scale = fb('quant', 8, (v) => m1Scale(v.getUint32(0, true)));
    } else {
      const bits = new DataView(new ArrayBuffer(4));
      bits.setFloat32(0, scalar('quant'), true);
      const s = m1Scale(bits.getUint32(0, true));
      scale = () => s;
    }
  }
  let alpha: ((col: number) => number) | undefined;
  if (d.relu === 'scalar_relu') {
    const a = scalar('relu');
    alpha = () => a;
  } else if (d.relu === 'vector_relu') {
    const t = r.op.operandTypes[ops.relu[0]];
    const c = codec(t?.kind === 'ptr' ? t.elem : 'f32');
    alpha = fb('relu', c.size, (v) => Number(c.read(v, 0)));
  }
  const clip = ops.clip ? Number(r.x.operand(r.op, ops.clip[0])) : undefined;
  const target = codec(to);
  const max = FINITE_MAX[to];
  if (max === undefined) return r.fail(`a ${to} destination is not implemented yet`);
  return (value, col) => {
    let v = scale ? Math.fround(Math.fround(value) * scale(col)) : value;
    if (d.relu === 'normal_relu') v = v < 0 || Object.is(v, -0) ? 0 : v;
    else if (alpha && v < 0) v = Math.fround(v * alpha(col));
    if (d.sat === 'sat') v = v !== v ? 0 : Math.min(max, Math.max(-max, v));
    else if (d.sat !== 'nosat') {
      if (!Number.isFinite(v)) return r.fail("a NaN or infinity under the CTRL register's saturation mode (neither sat nor nosat) is not implemented yet");
      // A plain conversion's overflow is not documented; the quant modes' goldens clamp to the range.
      if (castOnly && Math.abs(v) > max) return r.fail(`a value beyond ${to}'s range under ${d.quant!.mode} without sat or nosat is not implemented yet`);
      v = Math.min(max, Math.max(-max, v));
    }
    v = Number(target.round(v));
    return clip !== undefined && v > clip ? clip : v;
  };
}

const fbBanks = new WeakMap<OnChipMemory, Map<number, Uint8Array>>();

/**
 * FB bytes at an fb pointer's address. PTOAS encodes an FB address for the FIXPIPE (buildAccStoreFpcValue) from its
 * low 16 bits only, and fixpipe-relu-scalar-vector-f16-cv places its relu row at 65600 (0x10000 + 64): the bits above
 * select a segment of their own. Segment 0 is the VM's FB (its capacity); segment s > 0 is another region of the
 * same size, kept per core here, which mte_l1_fb writes and the FIXPIPE reads at the same address.
 */
export function fixpipeBufferBytes(r: MicroRun, address: number, length: number): Uint8Array {
  const buffer = r.x.memory.bufferOf('scaling');
  const [segment, offset] = [Math.floor(address / 65536), address % 65536];
  if (segment === 0) return r.x.memory.bytesAt(buffer, offset, length, r.op.def.name, r.op.node.span);
  const capacity = r.x.memory.capacity(buffer);
  if (offset + length > capacity) return r.fail(`bytes ${offset}..${offset + length} of FB segment ${segment} are outside its ${capacity} bytes`);
  let banks = fbBanks.get(r.x.memory);
  if (!banks) fbBanks.set(r.x.memory, (banks = new Map()));
  let bank = banks.get(segment);
  if (!bank) banks.set(segment, (bank = new Uint8Array(capacity)));
  return bank.subarray(offset, offset + length);
}

/** The on-chip memory of vector sub-block `subblock` of this core's block, as the cube's FIXPIPE reaches it. */
export function vectorMemory(r: MicroRun, subblock: number): OnChipMemory {
  const { core } = r.x;
  if (core.kind !== 'cube') {
    if (subblock === core.subblock) return r.x.memory;
    return r.fail(`sub-block ${subblock}'s UB is not reachable from this core`);
  }
  const memory = r.x.shared<OnChipMemory | undefined>('launch', coreMemoryKey({ block: core.block, kind: 'vector', subblock }), () => undefined);
  return memory ?? r.fail(`this launch has no vector sub-block ${subblock}`);
}

/**
 * nz2nd: element (i, j) of the accumulator, i < m, j < n, through the FIXPIPE (fixpipe above) to destination element
 * i * dst_stride + j (GM: atomically combined under atomic(type, op); UB: the selected sub-block's, or with
 * dst_mode(split_m/split_n) rows [0, m/2) / columns [0, n/2) to sub-block 0 and the rest to sub-block 1, each half
 * from the destination address; L1: this core's). The accumulator is L0C's NZ layout of 16 x 16 fractals with
 * src_stride rows (the tile model's acc tile, fractal 1024 for 32-bit elements), read through src/machine's Tile.
 * loop3 with a count other than 1 traps as not implemented yet.
 */
function storeNz2nd(r: MicroRun, d: AccStoreDecision, destination: string): void {
  const value = (n: string, k = 0) => Number(r.x.int(r.op, r.b.operands[n][k]));
  const [m, n, rows, stride] = [value('m'), value('n'), value('src_stride'), value('dst_stride')];
  if (d.sat === 'preserve_nan') r.fail('sat(preserve_nan) is not implemented yet');
  if (d.quant && !QUANT_TO[d.quant.mode]) r.fail(`pre_quant mode ${d.quant.mode} is not implemented yet`);
  if (r.b.operands.loop3 && value('loop3') !== 1) r.fail(`loop3 with a count of ${value('loop3')} is not implemented yet`);
  const t = r.op.operandTypes[r.b.operands.source[0]];
  const dt = r.op.operandTypes[r.b.operands.destination[0]];
  if (t?.kind !== 'ptr' || dt?.kind !== 'ptr') return r.fail('the operands are not pointers');
  if (t.elem !== 'f32' && t.elem !== 'i32') return r.fail(`an accumulator of ${t.elem} elements is not implemented yet`);
  if (t.elem === 'i32' && (d.quant || d.relu || d.sat || d.atomic)) return r.fail('the FIXPIPE clauses on an i32 accumulator are not implemented yet');
  if (rows % 16 !== 0 || rows < m) r.fail(`src_stride ${rows} is not a multiple of 16 rows holding m = ${m}`);
  const cols = Math.ceil(n / 16) * 16;
  const { buffer, address } = localAddress(r, 'source', 0);
  const type: TileType = {
    kind: 'tile',
    level: 'buf',
    loc: 'acc',
    dtype: t.elem,
    rows,
    cols,
    vRow: rows,
    vCol: cols,
    blayout: 'col_major',
    slayout: 'row_major',
    fractal: 1024,
    pad: 0,
    compact: 0,
  };
  if (r.x.memory.bufferOf('acc') !== buffer) r.fail(`the source is not in ${r.x.memory.bufferOf('acc')}`);
  const acc = r.x.memory.place(type, address, r.op.def.name, r.op.node.span);
  const plain = t.elem === 'i32' || (!d.quant && !d.relu && !d.sat && !d.atomic);
  const convert = plain ? undefined : fixpipe(r, d, dt.elem);
  const size = codec(dt.elem).size;
  // nz2nd: (i, j) to row i of the destination; nz2dn: to row j (the D/N swap; loop0_src_stride 1 walks the
  // accumulator one C0 row at a time, the only stride the cases use).
  if (d.layout === 'nz2dn' && value('loop0') !== 1) r.fail(`nz2dn with loop0_src_stride ${value('loop0')} is not implemented yet`);
  if (d.layout === 'nz2dn' && destination !== 'gm') r.fail(`nz2dn into ${destination} is not implemented yet`);
  const place = d.layout === 'nz2dn' ? (i: number, j: number) => j * stride + i : (i: number, j: number) => i * stride + j;
  const view = new DataView(acc.bytes.buffer, acc.bytes.byteOffset, acc.bytes.byteLength);
  const accValue = (i: number, j: number) => view.getFloat32(acc.elementIndex(i, j) * 4, true);
  if (destination === 'gm') {
    const gm = globalAddress(r, 'destination');
    const first = gm.byte / size;
    const combine = atomicOf(r, d);
    for (let i = 0; i < m; i++) {
      for (let j = 0; j < n; j++) {
        const index = first + place(i, j);
        if (index < 0 || index >= gm.buffer.length) r.fail(`element ${index} of %${gm.buffer.name} is out of bounds (the buffer has ${gm.buffer.length})`);
        if (!convert) gm.buffer.copyElementFrom(index, acc.bytes, acc.elementIndex(i, j) * 4);
        else if (combine) {
          const v = convert(accValue(i, j), j);
          gm.buffer.updateElement(index, (old) => combine(Number(old), v));
        } else gm.buffer.writeElement(index, convert(accValue(i, j), j));
      }
    }
    return;
  }
  const dst = localAddress(r, 'destination', 0);
  const out = codec(dt.elem);
  // The parts written: [memory, first row, rows, first column, columns].
  const parts: [OnChipMemory, number, number, number, number][] = [];
  if (destination === 'l1') parts.push([r.x.memory, 0, m, 0, n]);
  else if (d.dual === 'split_m') {
    if (m % 2 !== 0) r.fail(`dst_mode(split_m) needs an even m, got ${m}`);
    parts.push([vectorMemory(r, 0), 0, m / 2, 0, n], [vectorMemory(r, 1), m / 2, m / 2, 0, n]);
  } else if (d.dual === 'split_n') {
    if (n % 32 !== 0) r.fail(`dst_mode(split_n) needs n a multiple of 32, got ${n}`);
    parts.push([vectorMemory(r, 0), 0, m, 0, n / 2], [vectorMemory(r, 1), 0, m, n / 2, n / 2]);
  } else {
    const id = value('sub_blockid');
    if (id !== 0 && id !== 1) r.fail(`sub_blockid must be 0 or 1, got ${id}`);
    parts.push([vectorMemory(r, id), 0, m, 0, n]);
  }
  for (const [memory, row0, height, col0, width] of parts) {
    const bytes = memory.bytesAt(dst.buffer, dst.address, ((height - 1) * stride + width) * size, r.op.def.name, r.op.node.span);
    const target = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    for (let i = 0; i < height; i++) {
      for (let j = 0; j < width; j++) {
        const at = place(i, j) * size;
        const [si, sj] = [row0 + i, col0 + j];
        if (convert) out.write(target, at, convert(accValue(si, sj), sj));
        else bytes.set(acc.bytes.subarray(acc.elementIndex(si, sj) * size, acc.elementIndex(si, sj) * size + size), at);
      }
    }
  }
}

/** atomic(type, op) of mte_l0c_gm: f32 add (rounded once), max or min with the element in GM; undefined without one. */
function atomicOf(r: MicroRun, d: AccStoreDecision): ((old: number, v: number) => number) | undefined {
  if (!d.atomic) return undefined;
  if (d.atomic.type !== 'f32') return r.fail(`atomic(type = ${d.atomic.type}) is not implemented yet`);
  if (d.atomic.op === 'add') return (old, v) => Math.fround(old + v);
  if (d.atomic.op === 'max') return (old, v) => (old !== old || v !== v ? NaN : Math.max(old, v));
  if (d.atomic.op === 'min') return (old, v) => (old !== old || v !== v ? NaN : Math.min(old, v));
  return r.fail(`atomic(op = ${d.atomic.op}) is not implemented yet`);
}

export const ACC_STORE_DEFINITIONS: Record<string, (row: MicroOpRowData) => OpDefinition> = { 'acc-store': accStoreDefinition };
