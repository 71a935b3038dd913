import type { PassCheck, PassCheckContext } from './index';
import { DIAGNOSTICS as D, DiagnosticKind } from '../../diag/catalog';
import { OpNode, Region, attrOf } from '../../syntax/ast';
import { Span } from '../../diag/source';
import { VmiLayout, parseVmiLayout } from '../../syntax/vmi-layout';
import { Type, VmiMaskType, VmiVregType, elemBits } from '../../types/type';
import { physicalPlacement } from '../checks/vmi-more';
import { foldedConstant } from './definitions';

/**
 * The data-movement limits of PTOAS's VMI -> VPTO lowering (VMIToVPTO.cpp's verifySupportedVMIToVPTOOps and the
 * layout tables of VMILayoutSupport.cpp): the lowering has one VPTO sequence per table row or per shape of physical
 * chunks, and rejects layout-assigned VMI that fits none. A rule reads the layouts the input spells; when a layout
 * pass ran before (pto-test-opt -vmi-layout-assignment ...), the layouts are that pass's choice, which is not
 * modelled, so no rule applies.
 */

type Vmi = VmiVregType | VmiMaskType;

/** Passes that may run before vmi-to-vpto without choosing layouts: the rules still see the layouts as written. */
const LAYOUT_PRESERVING = new Set(['vmi-lower-unified-to-legacy', 'pto-vmi-normalize-signless-int-to-unsigned', 'pto-validate-vmi-layout-ir']);

/** An op under the lowering's eyes: its name as the lowering knows it (unified forms mapped), types, constants. */
interface Site {
  op: OpNode;
  /** The legacy op name without `pto.vmi.` (vmi-lower-unified-to-legacy's result for a unified op). */
  name: string;
  operand(i: number): Type | undefined;
  result(i: number): Type | undefined;
  /** An operand's value when an arith.constant defines it; null when it is not a constant. */
  constant(i: number): number | null;
  /** The same for an operand of another op (the producer of a mask). */
  constantOf(op: OpNode, i: number): number | null;
  /** The op defining an operand (undefined: a block argument). */
  def(i: number): OpNode | undefined;
  span(i: number): Span;
  report(kind: DiagnosticKind, message: string): void;
}

const vmiOf = (t: Type | undefined): Vmi | undefined => (t?.kind === 'vmi_vreg' || t?.kind === 'vmi_mask' ? t : undefined);
const layoutOf = (t: Type | undefined): VmiLayout | undefined => {
  const v = vmiOf(t);
  const l = v?.layout === undefined ? undefined : parseVmiLayout(v.layout);
  return l && !('error' in l) ? l : undefined;
};
const isContiguous = (l: VmiLayout | undefined) => l?.kind === 'contiguous';
const plain = (l: VmiLayout | undefined) => isContiguous(l) && l!.laneStride === 1;
const bitsOf = (t: Vmi) => (t.kind === 'vmi_vreg' ? (t.elem === 'index' ? 64 : elemBits(t.elem)) : Number(t.granularity.slice(1)) || 0);

/** The physical registers a layout-assigned type takes (VMI.cpp's getVMIPhysicalArity), or undefined. */
function arity(t: Type | undefined): number | undefined {
  const v = vmiOf(t);
  if (!v || !layoutOf(v)) return undefined;
  const p = physicalPlacement(v);
  return 'error' in p ? undefined : p.arity;
}

/** No physical lane of the type is padding: every lane of every register holds a logical lane (isPaddingLane). */
function full(t: Type | undefined): boolean | undefined {
  const v = vmiOf(t);
  if (!v || !layoutOf(v)) return undefined;
  const p = physicalPlacement(v);
  if ('error' in p) return undefined;
  const held = new Set<number>();
  for (let i = 0; i < v.lanes; i++) {
    const at = p.place(i);
    held.add(at.part * p.lanesPerPart + at.lane);
  }
  return held.size === p.arity * p.lanesPerPart;
}

/**
 * getContiguousMaterializationPartCount's one rule that can fail for a split layout: the two parts of a
 * deinterleaved=2 value must take equally many registers (129 lanes of f32: 65 and 64 lanes, 2 and 1 registers).
 */
function unevenHalves(t: Type | undefined): boolean {
  const v = vmiOf(t);
  const l = layoutOf(v);
  if (!v || !l || (l.kind !== 'deinterleaved' && l.kind !== 'block_deinterleaved') || l.factor !== 2 || l.laneStride !== 1) return false;
  const p = physicalPlacement(v);
  if ('error' in p) return false;
  const chunks = (part: number) => Math.ceil(Math.floor((v.lanes + 1 - part) / 2) / p.lanesPerPart);
  return chunks(0) !== chunks(1);
}

/** The unified ops vmi-lower-unified-to-legacy rewrites into the legacy ops the rules know. */
function legacyName(op: OpNode, type: (i: number) => Type | undefined): string | undefined {
  const base = op.name.slice('pto.vmi.'.length);
  switch (base) {
    case 'vgather':
      return 'gather';
    case 'vscatter':
      return 'scatter';
    case 'vinterpret_cast':
      return 'bitcast';
    case 'vcadd':
    case 'vcmax':
    case 'vcmin':
      return attrOf(op, 'group') ? `group_reduce_${base.slice(2)}` : undefined;
    case 'vstore': {
      if (attrOf(op, 'group')) return 'group_store';
      if (attrOf(op, 'block_stride') || attrOf(op, 'dist_mode') || attrOf(op, 'pmode')) return undefined;
      const value = vmiOf(type(0));
      // A 1/2/4/8-lane value becomes a group_store when unmasked; its rules are not modelled here.
      if (!value || [1, 2, 4, 8].includes(value.lanes)) return undefined;
      return type(3)?.kind === 'vmi_mask' ? 'masked_store' : op.operands.length === 3 ? 'store' : undefined;
    }
  }
  return undefined;
}

type Rule = (s: Site) => void;

const compaction = (what: string) => `${what} lowers to one squeeze of a single physical register (vsqz/vusqz)`;

/** compress, compress_store, active_prefix_index: one contiguous register, all lanes real (no carry across chunks). */
function oneFullChunk(s: Site, what: string, ports: Type[]): void {
  if (ports.some((t) => layoutOf(t) === undefined)) return;
  if (!ports.every((t) => isContiguous(layoutOf(t)))) return s.report(D.vmiLowerCompaction, `${compaction(what)}: its layouts must be contiguous`);
  const data = ports.filter((t) => t.kind === 'vmi_vreg');
  const mustBeFull = what === 'pto.vmi.active_prefix_index' ? ports : data.slice(0, 1);
  if (mustBeFull.some((t) => full(t) === false))
    return s.report(D.vmiLowerCompaction, `${compaction(what)}: padding lanes of a partly used register would take part, so every lane must be a logical one`);
  if (ports.some((t) => arity(t) !== undefined && arity(t) !== 1))
    return s.report(
      D.vmiLowerCompaction,
      `${compaction(what)}: more than one register would need a carry from one register to the next, which it does not have`,
    );
}

/** A layout as the lowering's tables name it (VMILayoutSupport.cpp's c(), ls(s), d(f), bd(f), gs(k, s)). */
function rowKey(l: VmiLayout | undefined): string {
  if (!l) return '?';
  if (l.kind === 'contiguous') return l.laneStride === 1 ? 'c' : `ls${l.laneStride}`;
  if (l.laneStride !== 1 && l.kind !== 'num_groups') return '?';
  if (l.kind === 'deinterleaved') return `d${l.factor}`;
  if (l.kind === 'block_deinterleaved') return `bd${l.factor}`;
  if (l.slots === 0) return '?';
  return l.laneStride === 1 ? `gs${l.slots}` : `gs${l.slots}/${l.laneStride}`;
}

/** A table row and its mirror image: [element (or mask) bits, lane counts (undefined: any), from, to]. */
type Row = [number[], number[] | undefined, string, string];
const both = (bits: number[], counts: number[] | undefined, a: string, b: string): Row[] => [
  [bits, counts, a, b],
  [bits, counts, b, a],
];

/** kEnsureLayoutPatterns: the data layout conversions ensure_layout lowers. */
const ENSURE_LAYOUT: Row[] = [
  ...both([8, 16, 32, 64], [1], 'c', 'gs1'),
  ...both([16], [256], 'c', 'd2'),
  ...both([32], [128, 256], 'c', 'd2'),
  ...both([64], [64, 128, 256], 'c', 'd2'),
  ...both([32], [256], 'c', 'd4'),
  ...both([64], [128, 256], 'c', 'd4'),
  ...both([32], [256, 512], 'd2', 'd4'),
  ...both([64], [128, 256], 'd2', 'd4'),
  ...both([8, 16], undefined, 'c', 'ls2'),
  ...both([8], undefined, 'c', 'ls4'),
  ...both([8, 16], undefined, 'gs8', 'gs8/2'),
  ...both([8], undefined, 'gs8', 'gs8/4'),
  ...both([8], undefined, 'gs8/2', 'gs8/4'),
];

/** kEnsureMaskLayoutPatterns: the mask layout conversions ensure_mask_layout lowers (bits: the granularity). */
const ENSURE_MASK_LAYOUT: Row[] = [
  ...both([16], [256], 'c', 'd2'),
  ...both([32], [128, 256, 512], 'c', 'd2'),
  ...both([32], [128], 'c', 'bd2'),
  ...both([32], [256], 'c', 'd4'),
  ...both([32], [256], 'c', 'bd4'),
  ...both([8], [1, 2, 4, 8, 64, 128], 'c', 'ls2'),
  ...both([16, 32], [1, 2, 4, 8, 64], 'c', 'ls2'),
  ...both([8], [1, 2, 4, 8, 64], 'c', 'ls4'),
  ...both([16, 32], [1, 2, 4, 8], 'c', 'ls4'),
];

/** ensure_layout / ensure_mask_layout: the same layout, or a row of the table. */
function ensureRule(table: Row[], what: string): Rule {
  return (s) => {
    const [from, to] = [vmiOf(s.operand(0)), vmiOf(s.result(0))];
    const [a, b] = [layoutOf(from), layoutOf(to)];
    if (!from || !to || !a || !b || from.layout === to.layout) return;
    const groups = [a, b].filter((l) => l.kind === 'num_groups').map((l) => l.factor);
    const sameGroups = groups.every((g) => g === groups[0]);
    const [ka, kb] = [rowKey(a), rowKey(b)];
    const row = table.find(([bits, counts, x, y]) => bits.includes(bitsOf(from)) && (!counts || counts.includes(from.lanes)) && x === ka && y === kb);
    if (!row || !sameGroups)
      s.report(
        D.vmiLowerLayoutChange,
        `pto.vmi.${what} has no lowering from ${from.layout} to ${to.layout} for ${from.lanes} lanes of ${bitsOf(from)} bits: no row of its conversion table (a part-filled split needs a packing plan the lowering does not have)`,
      );
  };
}

/** The rows of kGroupReduceLayoutPatterns by layouts: source (= mask) layout -> result slots. */
const GROUP_REDUCE: [string, string][] = [
  ['ls4', 'gs8'],
  ['ls2', 'gs8'],
  ['c', 'gs8'],
  ['d2', 'gs8'],
  ['bd2', 'gs8'],
  ['d4', 'gs8'],
  ['bd4', 'gs8'],
  ['c', 'gs1'],
  ['d2', 'gs1'],
  ['d4', 'gs1'],
];

const numGroupsOf = (s: Site): number | undefined => {
  const a = attrOf(s.op, 'num_groups') ?? attrOf(s.op, 'group');
  return a?.kind === 'int' ? Number(a.value) : undefined;
};

const ONE_BLOCK_BITS = 256;

const RULES: Record<string, Rule> = {
  active_prefix_index: (s) => oneFullChunk(s, 'pto.vmi.active_prefix_index', [s.operand(0)!, s.result(0)!]),
  compress: (s) => oneFullChunk(s, 'pto.vmi.compress', [s.operand(0)!, s.operand(1)!, s.result(0)!]),
  compress_store: (s) => oneFullChunk(s, 'pto.vmi.compress_store', [s.operand(0)!, s.operand(3)!]),

  expand_load: (s) => {
    const [result, mask, passthru] = [s.result(0), s.operand(2), s.operand(3)];
    const layouts = [result, mask, passthru].map(layoutOf);
    if (layouts.some((l) => l === undefined)) return;
    if (!layouts.every(isContiguous)) return s.report(D.vmiLowerCompaction, 'pto.vmi.expand_load lowers for contiguous result, mask and passthru layouts only');
    const def = s.def(2);
    // A create_mask of a constant count at least the lane count is all-active (isStaticAllActiveMask); other
    // producers (constant_mask, layout casts the lowering looks through) are not modelled: no verdict then.
    let allActive: boolean;
    if (def === undefined) allActive = false;
    else if (def.name === 'pto.vmi.create_mask') {
      const n = s.constantOf(def, 0);
      allActive = n !== null && n >= vmiOf(result)!.lanes;
    } else return;
    if (allActive && full(result)) return;
    // The all-active path also takes a partial register when the read is proven in bounds, which needs a memref
    // source of static shape and a constant non-negative offset; a pointer source never has that proof.
    const offset = s.constant(1);
    const provable = s.operand(0)?.kind !== 'ptr' && offset !== null && offset >= 0;
    if (allActive && provable) return;
    // The runtime-mask path: pto.vusqz + pto.vgather2_bc over one full 32-bit register.
    const why =
      s.operand(0)?.kind !== 'ptr'
        ? 'its runtime-mask form gathers from a pointer, and the source is not one'
        : bitsOf(vmiOf(result)!) !== 32
          ? 'its runtime-mask form needs 32-bit elements'
          : (vmiOf(mask) as VmiMaskType).granularity !== 'b32'
            ? 'its runtime-mask form needs a b32 mask'
            : [result, passthru, mask].some((t) => arity(t) !== 1)
              ? 'its runtime-mask form covers one physical register (the prefix indices cannot restart at the next one)'
              : [result, passthru, mask].some((t) => full(t) === false)
                ? 'its runtime-mask form needs every lane of the register to be a logical one'
                : undefined;
    if (why)
      s.report(
        D.vmiLowerCompaction,
        `pto.vmi.expand_load lowers an all-active mask over whole registers (or a proven in-bounds read) or a runtime mask over one register: ${why}`,
      );
  },

  ensure_layout: ensureRule(ENSURE_LAYOUT, 'ensure_layout'),
  ensure_mask_layout: ensureRule(ENSURE_MASK_LAYOUT, 'ensure_mask_layout'),

  bitcast: (s) => {
    const [from, to] = [vmiOf(s.operand(0)), vmiOf(s.result(0))];
    if (!from?.layout || !to?.layout) return;
    if (from.layout !== to.layout)
      return s.report(
        D.vmiLowerLayoutChange,
        `pto.vmi.bitcast reinterprets registers in place, so source and result need the same layout (${from.layout} vs ${to.layout})`,
      );
    if (bitsOf(from) !== bitsOf(to) && !plain(layoutOf(from)))
      s.report(D.vmiLowerLayoutChange, `pto.vmi.bitcast changes the element width only in the contiguous layout, not in ${from.layout}`);
  },

  channel_split: (s) =>
    channels(
      s,
      s.operand(0),
      s.op.resultTypes.map((_, i) => s.result(i)),
      'channel_split',
    ),
  channel_merge: (s) =>
    channels(
      s,
      s.result(0),
      s.op.operands.map((_, i) => s.operand(i)),
      'channel_merge',
    ),

  gather: (s) => {
    const result = s.result(0);
    // The unified vgather has no passthru: the rewrite gives it a zero of the result's type.
    const passthru = s.op.name === 'pto.vmi.vgather' ? result : s.operand(3);
    gatherScatter(s, 'gather', 'pto.vgather2_bc', [result, s.operand(1), passthru, s.operand(2)], s.operand(0));
  },
  scatter: (s) => gatherScatter(s, 'scatter', 'pto.vscatter', [s.operand(0), s.operand(2), s.operand(3)], s.operand(1)),

  store: (s) => {
    if (full(s.operand(0)) === false && unevenHalves(s.operand(0))) s.report(D.vmiLowerMemory, unevenMessage('pto.vmi.store', s.operand(0)));
  },
  masked_store: (s) => {
    const [value, mask] = [s.operand(0), s.operand(3)];
    if (!layoutOf(value) || !layoutOf(mask) || (full(value) && full(mask))) return;
    if (arity(value) !== arity(mask))
      return s.report(D.vmiLowerMemory, 'pto.vmi.masked_store stores register by register, so value and mask must take as many physical registers');
    // A lane-strided value may match a masked-store table row instead (not modelled: no verdict).
    if (layoutOf(value)!.laneStride !== 1) return;
    const uneven = [value, mask].find(unevenHalves);
    if (uneven) s.report(D.vmiLowerMemory, unevenMessage('pto.vmi.masked_store', uneven));
  },

  group_store: (s) => {
    const value = vmiOf(s.operand(0));
    const l = layoutOf(value);
    const groups = numGroupsOf(s);
    const stride = s.constant(3);
    // (A unified vstore {group} may leave the row stride out: not modelled.)
    if (!value || !l || groups === undefined || s.op.operands.length < 4) return;
    if (l.kind === 'num_groups' && l.slots === 8 && stride !== 1)
      return s.report(
        D.vmiLowerGroupMemory,
        'pto.vmi.group_store of slots = 8 writes the eight group values as one packet, so its row_stride must be the constant 1',
      );
    const groupSize = value.lanes / groups;
    if (!plain(l) || groupSize * bitsOf(value) !== ONE_BLOCK_BITS || stride === null || stride <= 0 || stride % groupSize !== 0) return;
    if (stride / groupSize > 0xffff)
      s.report(
        D.vmiLowerGroupMemory,
        `pto.vmi.group_store of one 32-byte group per block lowers to pto.vsstb, whose block stride is a 16-bit field: ${stride / groupSize} blocks do not fit`,
      );
  },
  group_slot_load: (s) => {
    const l = layoutOf(s.result(0));
    if (l?.kind === 'num_groups' && l.slots === 8 && s.constant(2) !== 1)
      s.report(
        D.vmiLowerGroupMemory,
        'pto.vmi.group_slot_load of slots = 8 reads the eight group values as one packet, so its source_group_stride must be the constant 1',
      );
  },
  group_broadcast_load: (s) => {
    const l = layoutOf(s.result(0));
    const groups = numGroupsOf(s);
    if (!l || groups === undefined) return;
    const key = rowKey(l);
    const spelled = vmiOf(s.result(0))!.layout;
    // kGroupBroadcastLoadLayoutPatterns: these result layouts only; a stride that is not a constant only with
    // the whole-register broadcast (contiguous, or split for a single group).
    const why = !['c', 'ls2', 'ls4', 'd2', 'd4'].includes(key)
      ? `no row of its table has the result layout ${spelled}`
      : s.constant(2) === null && key !== 'c' && !((key === 'd2' || key === 'd4') && groups === 1)
        ? `a source_group_stride that is not a constant takes a contiguous result (or a split one for a single group), not ${spelled}`
        : undefined;
    if (why) s.report(D.vmiLowerGroupMemory, `pto.vmi.group_broadcast_load has no lowering: ${why}`);
  },

  group_reduce_addf: groupReduce,
  group_reduce_addi: groupReduce,
  group_reduce_maxf: groupReduce,
  group_reduce_maxi: groupReduce,
  group_reduce_minf: groupReduce,
  group_reduce_mini: groupReduce,
  group_reduce_add: groupReduce,
  group_reduce_max: groupReduce,
  group_reduce_min: groupReduce,
};

function unevenMessage(what: string, t: Type | undefined): string {
  return `${what} of a partly used ${vmiOf(t)!.layout} value goes through the contiguous layout, which needs both halves to take as many physical registers (${vmiOf(t)!.lanes} lanes do not split so)`;
}

/** channel_split / channel_merge: 2 or 4 channels, contiguous channels, a contiguous or matching split whole. */
function channels(s: Site, whole: Type | undefined, parts: (Type | undefined)[], what: string): void {
  const n = parts.length;
  if (n !== 2 && n !== 4) return s.report(D.vmiLowerLayoutChange, `pto.vmi.${what} lowers for 2 or 4 channels, not ${n}`);
  const w = layoutOf(whole);
  if (!w || parts.some((p) => !layoutOf(p))) return;
  const counts = parts.map(arity);
  const total = counts.every((n) => n !== undefined) ? counts.reduce((a, b) => a! + b!, 0) : undefined;
  const why = !(isContiguous(w) || (w.kind === 'deinterleaved' && w.factor === n && w.laneStride === 1))
    ? `the interleaved value must be contiguous or deinterleaved = ${n}`
    : !parts.every((p) => isContiguous(layoutOf(p)))
      ? 'every channel must be contiguous'
      : total !== undefined && arity(whole) !== undefined && total !== arity(whole)
        ? `the channels must fill whole physical registers (${total} channel registers against ${arity(whole)})`
        : undefined;
  if (why) s.report(D.vmiLowerLayoutChange, `pto.vmi.${what} moves whole registers between channels: ${why}`);
}

/** gather / scatter: contiguous whole registers of 32-bit data (vgather2_bc / vscatter take one register each). */
function gatherScatter(s: Site, what: string, via: string, ports: (Type | undefined)[], memory: Type | undefined): void {
  if (ports.some((t) => !layoutOf(t))) return;
  if (!ports.every((t) => isContiguous(layoutOf(t)))) return s.report(D.vmiLowerMemory, `pto.vmi.${what} lowers through ${via} for contiguous layouts only`);
  if (memory?.kind !== 'ptr') return;
  const counts = ports.map(arity);
  if (counts.some((n) => n !== counts[0])) return s.report(D.vmiLowerMemory, `pto.vmi.${what} needs its operands to take as many physical registers`);
  // Only the all-32-bit form needs whole registers (the 16-bit gather is one register; the narrow scatters differ).
  if (ports.every((t) => bitsOf(vmiOf(t)!) === 32) && ports.some((t) => full(t) === false))
    s.report(D.vmiLowerMemory, `pto.vmi.${what} lowers through ${via} over whole registers: a partly used register's padding lanes would take part`);
}

function groupReduce(s: Site): void {
  const [source, mask, result] = [s.operand(0), s.operand(1), s.result(0)];
  const [ls, lm, lr] = [layoutOf(source), layoutOf(mask), layoutOf(result)];
  const groups = numGroupsOf(s);
  if (!ls || !lm || !lr || groups === undefined) return;
  const [ks, kr] = [rowKey(ls), rowKey(lr)];
  const row = GROUP_REDUCE.some(([a, b]) => a === ks && b === kr);
  if (!row || vmiOf(source)!.layout !== vmiOf(mask)!.layout || lr.factor !== groups)
    s.report(
      D.vmiLowerGroupLayout,
      `${s.op.name} has no lowering for source ${vmiOf(source)!.layout}, mask ${vmiOf(mask)!.layout} and result ${vmiOf(result)!.layout}: the result takes num_groups = ${groups} with slots = 1 or 8, from a source and mask of one layout of its table`,
    );
}

/** The rules over every VMI op of every function, each op under the name the lowering knows it by. */
function runRules(c: PassCheckContext): void {
  const at = c.passes.indexOf('vmi-to-vpto');
  if (c.passes.slice(0, at).some((p) => !LAYOUT_PRESERVING.has(p))) return;
  const unified = c.passes.slice(0, at).includes('vmi-lower-unified-to-legacy');
  for (const fn of c.program.functions.values()) {
    const types = c.program.valueTypes.get(fn);
    const defs = new Map<string, OpNode>();
    walk(fn.regions, (op) => {
      for (const r of op.results) {
        if (r.count === 1) defs.set(r.name, op);
        else for (let k = 0; k < r.count; k++) defs.set(`${r.name}#${k}`, op);
      }
    });
    const valueName = (op: OpNode, i: number) => {
      const v = op.operands[i]?.value;
      return v === undefined ? undefined : v.index === undefined ? v.name : `${v.name}#${v.index}`;
    };
    const typeOf = (op: OpNode, i: number): Type | undefined => {
      const name = valueName(op, i);
      return name === undefined ? undefined : types?.get(name);
    };
    const constantOf = (op: OpNode, i: number): number | null => {
      const name = valueName(op, i);
      const v = foldedConstant(c.program, name === undefined ? undefined : defs.get(name));
      return v === undefined ? null : Number(v);
    };
    walk(fn.regions, (op) => {
      if (!op.name.startsWith('pto.vmi.')) return;
      const operand = (i: number) => typeOf(op, i);
      const name = legacyName(op, operand) !== undefined && unified ? legacyName(op, operand)! : op.name.slice('pto.vmi.'.length);
      const rule = RULES[name];
      if (!rule) return;
      const result = (i: number) => {
        const t = op.resultTypes[i];
        const parsed = t === undefined ? undefined : c.types.parse(t.text);
        return parsed?.type;
      };
      let reported = false;
      rule({
        op,
        name,
        operand,
        result,
        constant: (i) => constantOf(op, i),
        constantOf,
        def: (i) => {
          const n = valueName(op, i);
          return n === undefined ? undefined : defs.get(n);
        },
        span: (i) => op.operands[i]?.span ?? op.nameSpan,
        report: (kind, message) => {
          if (!reported) c.diags.report(kind, op.nameSpan, message);
          reported = true;
        },
      });
    });
  }
}

function walk(regions: Region[], visit: (op: OpNode) => void): void {
  for (const r of regions)
    for (const b of r.blocks)
      for (const op of b.ops) {
        visit(op);
        walk(op.regions, visit);
      }
}

export const MOVEMENT_RULES: PassCheck[] = [runRules];
