import { DIAGNOSTICS as D, DiagnosticKind } from '../../diag/catalog';
import { Span } from '../../diag/source';
import { Attr, OpNode, Operand, TypeRef, attrOf } from '../../syntax/ast';
import { Type, VmiMaskType, VmiVregType, elemBits, isInteger, printType } from '../../types/type';
import type { PassCheck, PassCheckContext } from './index';
import { Dense, arity, chunksInPart, dense, flatIndex, fullChunks, layoutOf, layoutText, logicalAt, maskArity, physicalOf } from './vmi-to-vpto-lanes';

/**
 * The compute and type rules of PTOAS's `vmi-to-vpto` (lib/PTO/Transforms/VMIToVPTO.cpp, VMILayoutSupport.cpp): what
 * the pass takes as input (layout-assigned VMI types only, none hidden in attributes or unrealized casts), and the
 * reductions, fused multiply-adds, gathers, casts, lane selections and constants it has a lowering for.
 *
 * Rules about layouts read the layouts the input writes. When layout assignment ran earlier in the pipeline the
 * input carries none, and a rule that needs one does not apply (the assignment's choice is not modelled).
 * `pto.vmi.vcadd`, `vcmax`, `vcmin`, `vmula`, `vgather` and `vcvt` reach the pass as the legacy ops
 * `-vmi-lower-unified-to-legacy` makes of them (VMILowerUnifiedToLegacy.cpp), so their rules are the legacy ops'.
 */

type Ctx = PassCheckContext;

/** A pass ran earlier in the pipeline than vmi-to-vpto. */
function ranBefore(c: Ctx, pass: string): boolean {
  const at = c.passes.indexOf(pass);
  return at >= 0 && at < c.passes.indexOf('vmi-to-vpto');
}

/** Visits every op under `ops` with the function it is in (the module op itself too). */
function walk(ops: OpNode[], visit: (op: OpNode, fn: OpNode | undefined) => void, fn?: OpNode): void {
  for (const op of ops) {
    visit(op, fn);
    const inner = op.params !== undefined ? op : fn; // a function has parameters
    for (const r of op.regions) for (const b of r.blocks) walk(b.ops, visit, inner);
  }
}

// ---- types of an op's operands and results ---------------------------------------------------------------------

function useType(c: Ctx, fn: OpNode | undefined, o: Operand | undefined): Type | undefined {
  if (!o) return undefined;
  if (o.value && fn) {
    const t = c.program.valueTypes.get(fn)?.get(o.value.index !== undefined ? `${o.value.name}#${o.value.index}` : o.value.name);
    if (t) return t;
  }
  return o.type ? c.types.resolve(o.type).type : undefined;
}

function resultTypes(c: Ctx, fn: OpNode | undefined, op: OpNode): (Type | undefined)[] {
  const names = op.results.flatMap((r) => (r.count === 1 ? [r.name] : Array.from({ length: r.count }, (_, i) => `${r.name}#${i}`)));
  const types = fn ? c.program.valueTypes.get(fn) : undefined;
  return names.map((n, i) => types?.get(n) ?? (op.resultTypes[i] ? c.types.resolve(op.resultTypes[i]).type : undefined));
}

const vreg = (t: Type | undefined): VmiVregType | undefined => (t?.kind === 'vmi_vreg' ? t : undefined);
const vmask = (t: Type | undefined): VmiMaskType | undefined => (t?.kind === 'vmi_mask' ? t : undefined);

// ---- the input: layout-assigned VMI types, none left where the conversion cannot reach ------------------------

/** The VMI types a type's text names, itself or nested (`tensor<...>`, a function type). */
function vmiTypesIn(c: Ctx, text: string): Type[] {
  const whole = c.types.parse(text).type;
  if (whole?.kind === 'vmi_vreg' || whole?.kind === 'vmi_mask') return [whole];
  const found: Type[] = [];
  for (const m of text.matchAll(/!pto\.vmi\.(?:vreg|mask)</g)) {
    let depth = 0;
    let end = m.index!;
    for (; end < text.length; end++) {
      if (text[end] === '<') depth++;
      else if (text[end] === '>' && --depth === 0) break;
    }
    const t = c.types.parse(text.slice(m.index, end + 1)).type;
    if (t) found.push(t);
  }
  return found;
}

/** isLayoutAssignedVMIType: a vreg with a layout, a mask with a layout and a b8/b16/b32 granularity. */
const assigned = (t: Type) =>
  t.kind === 'vmi_vreg' ? t.layout !== undefined : t.kind === 'vmi_mask' ? t.layout !== undefined && t.granularity !== 'pred' : true;

/** The types written in an attribute (a type attribute, a typed literal), through arrays and dictionaries. */
function attrTypes(a: Attr): TypeRef[] {
  if (a.kind === 'type') return [a.type];
  if (a.kind === 'array') return a.items.flatMap(attrTypes);
  if (a.kind === 'dict') return a.entries.flatMap((e) => attrTypes(e.value));
  return 'type' in a && a.type ? [a.type] : [];
}

/**
 * verifyVMIToVPTOInputIR, then the residue verifyNoResidualVMIIR finds: the pass converts the VMI types of values
 * and signatures, so a layout-free one cannot be placed in registers, and one inside an attribute or carried by an
 * unrealized cast is left behind. The first problem is reported, as the pass stops at it.
 */
const inputTypes: PassCheck = (c) => {
  const checkAssigned = !ranBefore(c, 'vmi-layout-assignment');
  let reported = false;
  const report = (span: Span, message: string) => {
    if (!reported) c.diags.report(D.vmiToVptoInput, span, message);
    reported = true;
  };
  const layoutFree = (types: (Type | undefined)[], span: Span, text: () => string) => {
    if (checkAssigned && types.some((t) => t && !assigned(t)))
      report(span, `vmi-to-vpto takes layout-assigned VMI types only: ${text()} has no layout (or is a pred mask); -vmi-layout-assignment assigns them`);
  };
  const written = (refs: (TypeRef | undefined)[]) => {
    for (const ref of refs) if (ref) layoutFree(vmiTypesIn(c, c.types.spelling(ref)), ref.span, () => `'${ref.text}'`);
  };
  walk(c.program.module.ops, (op, fn) => {
    if (reported) return;
    if (op.name === 'builtin.unrealized_conversion_cast') {
      const types = [...op.operands.map((o) => useType(c, fn, o)), ...resultTypes(c, fn, op)];
      if (types.some((t) => t?.kind === 'vmi_vreg' || t?.kind === 'vmi_mask'))
        return report(
          op.nameSpan,
          'an unrealized_conversion_cast carries a VMI type: vmi-to-vpto converts VMI values only through the ops that define and use them',
        );
    }
    // Every value is defined once: by a result, a block argument or a parameter; a signature's results are written.
    if (op.params !== undefined) written([...op.resultTypes, ...(op.params ?? []).map((p) => p.type)]);
    else resultTypes(c, fn, op).forEach((t, i) => layoutFree([t], op.results[Math.min(i, op.results.length - 1)].span, () => `${printType(t!)}`));
    for (const r of op.regions) for (const b of r.blocks) written(b.args.map((a) => a.type));
    for (const entry of op.attrs) {
      const refs = attrTypes(entry.value);
      written(refs);
      if (refs.some((r) => vmiTypesIn(c, c.types.spelling(r)).length > 0))
        report(entry.span, `attribute '${entry.key}' holds a VMI type, which vmi-to-vpto does not convert: VMI would remain after the pass`);
    }
  });
};

// ---- the ops as the pass sees them -------------------------------------------------------------------------------

/** An op with its operand and result types, under the name of the legacy op the pass lowers. */
interface View {
  op: OpNode;
  name: string;
  ins: (Type | undefined)[];
  outs: (Type | undefined)[];
}

/** The legacy op `-vmi-lower-unified-to-legacy` makes of a unified one (undefined: none, or not one of these rules'). */
function legacyName(c: Ctx, op: OpNode, ins: (Type | undefined)[], outs: (Type | undefined)[]): string | undefined {
  const name = op.name.slice('pto.vmi.'.length);
  const unified = ['vcadd', 'vcmax', 'vcmin', 'vmula', 'vgather', 'vcvt'];
  if (!unified.includes(name)) return name;
  const pmode = attrOf(op, 'pmode');
  if (!ranBefore(c, 'vmi-lower-unified-to-legacy') || (pmode?.kind === 'string' && pmode.value === 'merge')) return undefined;
  if (name === 'vgather') return 'gather';
  const source = vreg(ins[0]);
  const result = vreg(outs[0]);
  if (!source || !result) return undefined;
  const float = !isInteger(source.elem);
  if (name === 'vmula') return isInteger(result.elem) ? undefined : 'fma';
  if (name === 'vcvt') {
    const [from, to] = [elemBits(source.elem), elemBits(result.elem)];
    const toFloat = !isInteger(result.elem);
    if (float !== toFloat) return undefined;
    // A widening is signed only from an explicitly signed source (a signless one extends as unsigned).
    return float ? (to > from ? 'extf' : 'truncf') : to <= from ? 'trunci' : source.spelled.startsWith('si') ? 'extsi' : 'extui';
  }
  // A grouped reduction (a group attribute, or a result without a layout: one group) is not lowered to these.
  if (attrOf(op, 'group') || result.layout === undefined) return undefined;
  const kind = name === 'vcadd' ? 'add' : name === 'vcmax' ? 'max' : 'min';
  return `reduce_${kind}${float ? 'f' : 'i'}`;
}

type Problem = { span: Span; message: string; kind: DiagnosticKind };

/** checkSupportedReduceShape: one contiguous source of whole registers, its mask in as many, one result register. */
function reduce(v: View): Problem | undefined {
  const [source, mask, result] = [vreg(v.ins[0]), vmask(v.ins[1]), vreg(v.outs[0])];
  if (!source || !mask || !result) return undefined;
  const at = (message: string) => ({
    span: v.op.nameSpan,
    message: `${v.name} lowers through one VPTO reduction per register: ${message}`,
    kind: D.vmiToVptoReduce,
  });
  if (v.name === 'reduce_addi' && (!isInteger(source.elem) || elemBits(source.elem) !== 32))
    return {
      span: v.op.nameSpan,
      message: `reduce_addi (what ${v.op.name} becomes) sums 32-bit integers only, not ${source.spelled}`,
      kind: D.vmiToVptoElement,
    };
  if (v.name.endsWith('f') && source.spelled !== 'f16' && source.spelled !== 'f32')
    return {
      span: v.op.nameSpan,
      message: `${v.name} (what ${v.op.name} becomes) takes f16 or f32 elements only, not ${source.spelled}`,
      kind: D.vmiToVptoElement,
    };
  const layouts = [layoutOf(source), layoutOf(mask), layoutOf(result)];
  if (layouts.some((l) => !l)) return undefined;
  if (layouts.some((l) => l!.kind !== 'contiguous')) return at('its source, mask and result must be contiguous');
  const d = dense(source)!;
  if (!fullChunks(d))
    return at(`the source must fill whole registers (${source.lanes} lanes of ${source.spelled} leave padding lanes, which would join the reduction)`);
  if (maskArity(mask) !== arity(d)) return at('the mask must span as many registers as the source');
  return undefined;
}

/** The element pairs VPTO's vcvt converts between integers (VPTO.cpp lookupVcvtContract), by signedness and width. */
const VCVT_INT = new Set(['u16>u8', 's16>u8', 'u32>u8', 'u32>u16', 'u32>s16', 's32>u8', 's32>u16', 's32>s16']);
const intKind = (t: VmiVregType) => `${t.spelled.startsWith('ui') ? 'u' : 's'}${elemBits(t.elem)}`;

/**
 * The legal cast relations of source and result layouts (VMILayoutSupport.cpp's cast table) by element widths:
 * `c` contiguous, `lsK` contiguous with lane_stride K, `dK` deinterleaved = K, `gK` / `gK.S` num_groups with slots = K
 * (and lane_stride S), the group count the source's.
 */
const CAST_TABLE: [number, number, string, string][] = [
  [16, 16, 'c', 'c'],
  ...([8, 16].flatMap((from) => [
    [from, from * 2, 'c', 'd2'],
    [from, from * 2, 'ls2', 'c'],
    [from, from * 2, 'd2', 'd4'],
    [from * 2, from, 'd2', 'c'],
    [from * 2, from, 'c', 'ls2'],
    [from * 2, from, 'd4', 'd2'],
  ]) as [number, number, string, string][]),
  [8, 32, 'c', 'd4'],
  [8, 32, 'ls2', 'd2'],
  [8, 32, 'ls4', 'c'],
  [32, 8, 'd4', 'c'],
  [32, 8, 'c', 'ls4'],
  [32, 8, 'd2', 'ls2'],
  ...([
    [8, 16, 2],
    [16, 32, 2],
    [8, 32, 4],
  ].flatMap(([n, w, s]) => [
    [n, w, 'g1', 'g1'],
    [n, w, `g8.${s}`, 'g8'],
    [w, n, 'g1', 'g1'],
    [w, n, 'g8', `g8.${s}`],
    [n, w, 'g2', 'g2'],
    [n, w, 'g4', 'g4'],
    [n, w, 'g8', 'g8'],
  ]) as [number, number, string, string][]),
];

/** A layout in the table's notation (undefined: one the table has no row for). */
function castCode(t: VmiVregType): string | undefined {
  const l = layoutOf(t);
  if (!l) return undefined;
  if (l.kind === 'contiguous') return l.laneStride === 1 ? 'c' : `ls${l.laneStride}`;
  if (l.kind === 'deinterleaved' && l.laneStride === 1) return `d${l.factor}`;
  if (l.kind === 'num_groups') return `g${l.slots}${l.laneStride === 1 ? '' : `.${l.laneStride}`}`;
  return 'other';
}

/** getCastLayoutFactForLayouts, and the vcvt a dense integer narrowing emits (OneToNVMITruncIOpPattern). */
function cast(v: View): Problem | undefined {
  const [source, result] = [vreg(v.ins[0]), vreg(v.outs[0])];
  const [from, to] = [source && castCode(source), result && castCode(result)];
  if (!source || !result || !from || !to) return undefined;
  const [fromBits, toBits] = [elemBits(source.elem), elemBits(result.elem)];
  const groups = layoutOf(source)?.kind === 'num_groups' && layoutOf(result)?.kind === 'num_groups';
  const sameGroups = !groups || layoutOf(source)!.factor === layoutOf(result)!.factor;
  if (!sameGroups || !CAST_TABLE.some(([f, t, a, b]) => f === fromBits && t === toBits && a === from && b === to))
    return {
      span: v.op.nameSpan,
      message: `${v.name} of ${fromBits}-bit to ${toBits}-bit elements has no lowering from layout ${source.layout} to ${result.layout} (see the legal cast relations of VMI layouts)`,
      kind: D.vmiToVptoLayout,
    };
  // A dense integer narrowing converts each register with one vcvt (si32 -> si8 goes through ui32 -> ui8).
  const nosatForward = from === 'c' && to !== 'c' && (attrOf(v.op, 'saturate') as { value?: string } | undefined)?.value === 'NOSAT';
  if (v.name === 'trunci' && !groups && !nosatForward) {
    const pair = source.spelled === 'si32' && result.spelled === 'si8' ? 'u32>u8' : `${intKind(source)}>${intKind(result)}`;
    if (!VCVT_INT.has(pair))
      return {
        span: v.op.nameSpan,
        message: `trunci from ${source.spelled} to ${result.spelled} lowers to a vcvt of that element pair, which VPTO's vcvt does not convert`,
        kind: D.vmiToVptoElement,
      };
  }
  return undefined;
}

/** checkSupportedGatherShape: vgather2_bc gathers 32-bit elements by 32-bit indices under a b32 mask, or ui16 by ui16. */
function gather(v: View): Problem | undefined {
  const unified = v.op.name === 'pto.vmi.vgather';
  const [indices, mask, result] = [vreg(v.ins[1]), vmask(v.ins[2]), vreg(v.outs[0])];
  const passthru = unified ? result : vreg(v.ins[3]);
  if (!indices || !mask || !result || !passthru) return undefined;
  // Layouts and register counts are the movement rules' (vmi-to-vpto-movement.ts); the element types are checked here.
  if (![result, indices, passthru, mask].every((t) => layoutOf(t)?.kind === 'contiguous')) return undefined;
  const bits = elemBits(result.elem);
  const indexOk = isInteger(indices.elem) && !indices.spelled.startsWith('si');
  const b32 = bits === 32 && elemBits(indices.elem) === 32 && mask.granularity === 'b32';
  const u16 = bits === 16 && indices.spelled === 'ui16' && mask.granularity === 'b16';
  if (!indexOk || (!b32 && !u16))
    return {
      span: v.op.nameSpan,
      message: `gather lowers through vgather2_bc only for 32-bit results with 32-bit signless or unsigned indices and a b32 mask, or ui16 results with ui16 indices and a b16 mask (here ${result.spelled} by ${indices.spelled}, mask ${mask.granularity})`,
      kind: D.vmiToVptoElement,
    };
  return undefined;
}

/** checkSupportedVmullShape's layout: contiguous or deinterleaved = 2/4, lane_stride 1, the mask in the same. */
function vmull(v: View): Problem | undefined {
  const [a, mask] = [vreg(v.ins[0]), vmask(v.ins[2])];
  const l = a && layoutOf(a);
  if (!l || !mask) return undefined;
  if (l.laneStride !== 1 || (l.kind !== 'contiguous' && l.kind !== 'deinterleaved'))
    return {
      span: v.op.nameSpan,
      message: `vmull lowers only for contiguous or deinterleaved = 2/4 layouts with lane_stride 1, not ${a!.layout}`,
      kind: D.vmiToVptoLayout,
    };
  if (mask.layout !== undefined && layoutText(layoutOf(mask)) !== layoutText(l))
    return { span: v.op.nameSpan, message: 'vmull lowers only when its mask has the layout of its data', kind: D.vmiToVptoLayout };
  return undefined;
}

/** VMILayoutSupport's vselr table: one contiguous register each, 64/128/256 lanes of 8 bits, 64/128 of 16, 64 of 32. */
function vselr(v: View): Problem | undefined {
  const [source, index, result] = [vreg(v.ins[0]), vreg(v.ins[1]), vreg(v.outs[0])];
  if (!source || !index || !result) return undefined;
  const layouts = [source, index, result].map((t) => t.layout);
  if (layouts.some((l) => l === undefined)) return undefined;
  const lanes = { 8: [64, 128, 256], 16: [64, 128], 32: [64] }[elemBits(source.elem)] ?? [];
  const ok =
    layouts.every((l) => layoutText(layoutOf({ layout: l })) === '#pto.vmi.layout<contiguous>') &&
    source.spelled === result.spelled &&
    index.lanes === result.lanes &&
    elemBits(index.elem) === elemBits(source.elem) &&
    [source.lanes, index.lanes, result.lanes].every((n) => lanes.includes(n));
  if (ok) return undefined;
  return {
    span: v.op.nameSpan,
    message:
      'vselr lowers only with contiguous layouts (lane_stride 1) filling one register: 64, 128 or 256 lanes of 8 bits, 64 or 128 of 16 bits, 64 of 32 bits',
    kind: D.vmiToVptoLayout,
  };
}

/** The integers of an `array<i64: ...>` or `[...]` attribute. */
function intList(a: Attr | undefined): number[] | undefined {
  if (a?.kind !== 'array' || a.items.some((i) => i.kind !== 'int')) return undefined;
  return a.items.map((i) => Number((i as { value: bigint }).value));
}

/**
 * A shuffle lowers when each result register is a source register as it is (forwarding), every lane reads source
 * lane 0 (a splat), or each full result register reads one source register in ascending or descending lane order (a
 * vselr by a vci index). computeShuffle{ForwardingSourceParts,Lane0SplatSourcePart,VselrPlans}.
 */
function shuffle(v: View): Problem | undefined {
  const [source, result] = [vreg(v.ins[0]), vreg(v.outs[0])];
  const indices = intList(attrOf(v.op, 'indices'));
  const [s, r] = [source && dense(source), result && dense(result)];
  if (!indices || !s || !r || indices.length === 0) return undefined;
  if (indices.every((i) => i === 0)) return undefined;
  if (plan(s, r, indices, false) || plan(s, r, indices, true)) return undefined;
  return {
    span: v.op.nameSpan,
    message:
      'shuffle lowers only by forwarding whole source registers lane for lane, splatting source lane 0, or a vselr of one source register per full result register in ascending or descending order; these indices allow none',
    kind: D.vmiToVptoLayout,
  };
}

/** Whether every result register reads one source register, lane for lane (`affine` false) or as a vselr (`affine`). */
function plan(s: Dense, r: Dense, indices: number[], affine: boolean): boolean {
  for (let part = 0; part < r.factor; part++)
    for (let chunk = 0; chunk < chunksInPart(r, part); chunk++) {
      let from: number | undefined;
      let base = 0;
      let order: boolean | undefined;
      for (let lane = 0; lane < r.perPart; lane++) {
        const logical = logicalAt(r, part, chunk, lane);
        if (logical === undefined) {
          if (affine) return false;
          continue;
        }
        const at = logical < indices.length ? physicalOf(s, indices[logical]) : undefined;
        if (!at) return false;
        if (!affine && at.lane !== lane) return false;
        const register = flatIndex(s, at.part, at.chunk);
        if (from === undefined) {
          [from, base] = [register, at.lane];
          continue;
        }
        if (register !== from) return false;
        if (affine) {
          const [up, down] = [at.lane === base + lane, at.lane === base - lane];
          if (!up && !down) return false;
          if (order !== undefined && order !== (down && !up)) return false;
          order = down && !up;
        }
      }
      if (from === undefined) return false;
    }
  return true;
}

/** A constant lowers as a splat only (verifySupportedVMIToVPTOOps: no plan for other vreg immediates). */
function constant(v: View): Problem | undefined {
  const value = attrOf(v.op, 'value');
  const items = value?.kind === 'dense' && value.elements.kind === 'array' ? value.elements.items : undefined;
  const text = (a: Attr) => ('value' in a ? String(a.value) : a.kind);
  if (value?.kind === 'dense' && (!items || items.every((i) => text(i) === text(items[0])))) return undefined;
  return {
    span: value?.span ?? v.op.nameSpan,
    message: 'vmi-to-vpto materializes a VMI constant only when all its elements are equal (a splat)',
    kind: D.vmiToVptoConstant,
  };
}

/** fma's verifier on what vmula becomes: f16, bf16 or f32 only. */
function fma(v: View): Problem | undefined {
  const result = vreg(v.outs[0]);
  if (!result || v.op.name === 'pto.vmi.fma' || ['f16', 'bf16', 'f32'].includes(result.spelled)) return undefined;
  return {
    span: v.op.nameSpan,
    message: `${v.op.name} becomes fma, which takes f16, bf16 or f32 elements only, not ${result.spelled}`,
    kind: D.vmiToVptoElement,
  };
}

const RULES: Record<string, (v: View) => Problem | undefined> = {
  reduce_addi: reduce,
  reduce_addf: reduce,
  reduce_maxf: reduce,
  reduce_minf: reduce,
  reduce_maxi: reduce,
  reduce_mini: reduce,
  truncf: cast,
  trunci: cast,
  extf: cast,
  extsi: cast,
  extui: cast,
  gather,
  vmull,
  vselr,
  shuffle,
  constant,
  fma,
};

/** verifySupportedVMIToVPTOOps over the ops of these rules; the first op it cannot lower is reported. */
const supportedOps: PassCheck = (c) => {
  if (c.diags.hasErrors()) return;
  let found: Problem | undefined;
  walk(c.program.module.ops, (op, fn) => {
    if (found || !op.name.startsWith('pto.vmi.')) return;
    const ins = op.operands.map((o) => useType(c, fn, o));
    const outs = resultTypes(c, fn, op);
    const name = legacyName(c, op, ins, outs);
    found = name && RULES[name] ? RULES[name]({ op, name, ins, outs }) : undefined;
  });
  if (found) c.diags.report(found.kind, found.span, found.message);
};

export const COMPUTE_RULES: PassCheck[] = [inputTypes, supportedOps];
