import { DIAGNOSTICS as D, DiagnosticKind } from '../../diag/catalog';
import { Span } from '../../diag/source';
import { Attr, OpNode } from '../../syntax/ast';
import { Type, VmiMaskType, VmiVregType } from '../../types/type';
import { PassCheckContext } from './index';
import {
  bitcastProblem,
  castProblem,
  ensureLayoutProblem,
  ensureMaskLayoutProblem,
  groupBroadcastLoadProblem,
  groupBroadcastProblem,
  groupLoadProblem,
  groupReduceProblem,
  groupSlotMemoryProblem,
  layoutOf,
  storeProblem,
} from './vmi-layout-support';
import { boundOps, foldedConstant, isFunction, microRow } from './definitions';

/**
 * The two gates of PTOAS's VMI pipeline (lib/PTO/Transforms/PTOValidateVMIIR.cpp). `pto-validate-vmi-ir` checks
 * the producer boundary, the IR a front end hands to VMI: VMI values there are logical (no layout, masks of `pred`
 * granularity), and only pto.vmi ops and structural ops (func, scf, cf) touch them. `pto-validate-vmi-layout-ir`
 * checks the IR after layout assignment: every VMI value has a layout (a mask also a b8/b16/b32 granularity), the
 * physicalization helpers pack/unpack have not appeared yet, and each op's layouts have a rule in the VMI -> VPTO
 * lowering (vmi-layout-support.ts). Both walk the module as MLIR does, inner ops before the op that holds them, and
 * stop at the first problem, as the passes do.
 */

type Stage = 'boundary' | 'layout';

const isStructural = (name: string) =>
  name === 'module' || name === 'builtin.module' || name.startsWith('func.') || name.startsWith('scf.') || name.startsWith('cf.');

const isVmi = (t: Type | undefined): t is VmiVregType | VmiMaskType => t?.kind === 'vmi_vreg' || t?.kind === 'vmi_mask';

/** A VMI type where an op holds it, for the report. */
interface Held {
  type: VmiVregType | VmiMaskType;
  text: string;
  span: Span;
}

class Validator {
  /** Whether pto.vmi's unified ops were lowered to the legacy ops the layout gate checks (PTOAS's pipeline order). */
  private readonly lowered: boolean;
  /** Whether vmi-legalize-arith-select turned each arith.select of VMI values on a scalar condition into scf.if. */
  private readonly selectsLegalized: boolean;
  private readonly defs = new Map<OpNode, Map<string, OpNode>>();

  constructor(
    private readonly stage: Stage,
    private readonly c: PassCheckContext,
  ) {
    const self = c.passes.indexOf(stage === 'layout' ? 'pto-validate-vmi-layout-ir' : 'pto-validate-vmi-ir');
    const ranBefore = (pass: string) => c.passes.indexOf(pass) >= 0 && c.passes.indexOf(pass) < self;
    this.lowered = ranBefore('vmi-lower-unified-to-legacy');
    this.selectsLegalized = ranBefore('vmi-legalize-arith-select');
  }

  run(): void {
    for (const op of this.c.program.module.ops) if (this.visit(op, undefined)) return;
  }

  /** Inner ops first (MLIR's post-order walk); true once something is reported. */
  private visit(op: OpNode, fn: OpNode | undefined): boolean {
    const inner = isFunction(this.c.program, op) ? op : fn;
    for (const region of op.regions) for (const block of region.blocks) for (const child of block.ops) if (this.visit(child, inner)) return true;
    return this.check(op, inner);
  }

  private report(kind: DiagnosticKind, span: Span, message: string): true {
    this.c.diags.report(kind, span, message);
    return true;
  }

  private check(op: OpNode, fn: OpNode | undefined): boolean {
    const held = this.heldTypes(op, fn);
    const kind = this.stage === 'boundary' ? D.vmiProducerBoundary : D.vmiLayoutAssigned;
    for (const h of held) {
      if (this.stage === 'boundary' && (h.type.layout || (h.type.kind === 'vmi_mask' && h.type.granularity !== 'pred')))
        return this.report(
          kind,
          h.span,
          `'${h.text}' is not a surface VMI type: before layout assignment a VMI value is a !pto.vmi.vreg without a layout or a !pto.vmi.mask<Nxpred>`,
        );
      if (this.stage === 'layout' && (!h.type.layout || (h.type.kind === 'vmi_mask' && h.type.granularity === 'pred')))
        return this.report(
          kind,
          h.span,
          `'${h.text}' has no assigned layout: after layout assignment every !pto.vmi.vreg carries a layout and every !pto.vmi.mask a b8/b16/b32 granularity and a layout`,
        );
    }
    for (const a of op.attrs) {
      const hidden = typesInAttr(a.value)[0];
      if (hidden !== undefined)
        return this.report(kind, a.span, `attribute '${a.key}' holds the VMI type '${hidden}': VMI types may stand only in signatures, operands and results`);
    }
    if (held.length === 0) return false;
    // An op only layout assignment or VMI -> VPTO inserts says so (its row's `vmiHelper`).
    const helper = microRow(this.c.program, op)?.vmiHelper;
    if (helper) {
      if (this.stage === 'boundary')
        return this.report(kind, op.nameSpan, `'${op.name}' is a VMI helper, which only layout assignment and VMI -> VPTO insert: it cannot stand before them`);
      if (helper === 'physical')
        return this.report(kind, op.nameSpan, `'${op.name}' belongs to VMI -> VPTO physicalization: layout-assigned IR cannot hold it yet`);
    } else if (!op.name.startsWith('pto.vmi.')) {
      if (isStructural(op.name)) return false;
      if (this.selectsLegalized && op.name === 'arith.select' && isI1(this.typeOf(fn, op, 0))) return false;
      return this.report(kind, op.nameSpan, `'${op.name}' takes or makes a VMI value, but only pto.vmi ops and structural ops (func, scf, cf) may`);
    }
    if (this.stage === 'boundary') return false;
    const problem = this.layoutSupport(op, fn);
    if (!problem) return false;
    const [legacy, reason] = problem;
    const spelled = legacy === op.name ? `'${op.name}'` : `'${op.name}' (${legacy} once lowered)`;
    const message = `${spelled} has no VMI -> VPTO lowering rule for these layouts: ${reason}`;
    // A helper serves the one op that asked for its layout: PTOAS blames that op, and points at the helper.
    const user = helper === 'layout' ? this.soleUser(op, fn) : undefined;
    if (user) {
      this.c.diags.report(D.vmiLayoutUnsupported, user.nameSpan, `an operand of '${user.name}' gets its layout from ${message}`, [
        { message: 'the helper that converts it', span: op.nameSpan },
      ]);
      return true;
    }
    return this.report(D.vmiLayoutUnsupported, op.nameSpan, message);
  }

  /** The op that uses `op`'s one result, when exactly one use exists. */
  private soleUser(op: OpNode, fn: OpNode | undefined): OpNode | undefined {
    const name = op.results.length === 1 && op.results[0].count === 1 ? op.results[0].name : undefined;
    if (!name || !fn) return undefined;
    const users: OpNode[] = [];
    const walk = (ops: OpNode[]) => {
      for (const o of ops) {
        for (const operand of o.operands) if (operand.value?.name === name && operand.value.index === undefined) users.push(o);
        for (const region of o.regions) for (const b of region.blocks) walk(b.ops);
      }
    };
    for (const region of fn.regions) for (const b of region.blocks) walk(b.ops);
    return users.length === 1 ? users[0] : undefined;
  }

  /** The VMI types of an op's signature (a function's), operands, results and block arguments. */
  private heldTypes(op: OpNode, fn: OpNode | undefined): Held[] {
    const held: Held[] = [];
    const addText = (text: string | undefined, span: Span) => {
      for (const t of vmiTypeTexts(text ?? '')) {
        const type = this.c.types.parse(t).type;
        if (isVmi(type)) held.push({ type, text: t, span });
      }
    };
    const values = fn && this.c.program.valueTypes.get(fn);
    if (isFunction(this.c.program, op)) {
      for (const p of op.params ?? []) addText(p.type?.text, p.type?.span ?? p.span);
      for (const r of op.resultTypes) addText(r.text, r.span);
      return held;
    }
    for (const o of op.operands) {
      if (o.type) addText(o.type.text, o.type.span);
      else if (o.value) {
        const t = values?.get(o.value.index !== undefined ? `${o.value.name}#${o.value.index}` : o.value.name);
        if (isVmi(t)) held.push({ type: t, text: printed(t), span: o.span });
      }
    }
    op.results.forEach((r, i) => {
      for (let k = 0; k < r.count; k++) {
        const t = values?.get(r.count === 1 ? r.name : `${r.name}#${k}`);
        if (isVmi(t)) held.push({ type: t, text: printed(t), span: r.span });
        else if (!values) addText(op.resultTypes[i + k]?.text, r.span);
      }
    });
    for (const region of op.regions)
      for (const block of region.blocks)
        for (const arg of block.args) {
          if (arg.type) addText(arg.type.text, arg.type.span);
          else {
            const t = values?.get(arg.name);
            if (isVmi(t)) held.push({ type: t, text: printed(t), span: arg.span });
          }
        }
    return held;
  }

  private typeOf(fn: OpNode | undefined, op: OpNode, i: number): Type | undefined {
    const o = op.operands[i];
    if (o?.type) return this.c.types.parse(o.type.text).type;
    const v = o?.value;
    return v && fn ? this.c.program.valueTypes.get(fn)?.get(v.index !== undefined ? `${v.name}#${v.index}` : v.name) : undefined;
  }

  private resultOf(fn: OpNode | undefined, op: OpNode): Type | undefined {
    const r = op.results[0];
    return r && fn ? this.c.program.valueTypes.get(fn)?.get(r.count === 1 ? r.name : `${r.name}#0`) : undefined;
  }

  /** An index constant's value (`arith.constant 4 : index`), as the lowering reads a row stride. */
  private constant(fn: OpNode | undefined, op: OpNode, i: number): number | undefined {
    const v = op.operands[i]?.value;
    if (!v || !fn) return undefined;
    let defs = this.defs.get(fn);
    if (!defs) {
      defs = new Map();
      const collect = (ops: OpNode[]) => {
        for (const o of ops) {
          for (const r of o.results) defs!.set(r.name, o);
          for (const region of o.regions) for (const b of region.blocks) collect(b.ops);
        }
      };
      for (const region of fn.regions) for (const b of region.blocks) collect(b.ops);
      this.defs.set(fn, defs);
    }
    const def = defs.get(v.name);
    // Its definer folds to it (an arith.constant) and it is an index.
    const value = foldedConstant(this.c.program, def);
    const type = def && boundOps(this.c.program).get(def)?.resultTypes[0];
    return value !== undefined && type?.kind === 'scalar' && type.elem === 'index' ? Number(value) : undefined;
  }

  /** The op as the layout gate sees it (unified ops by their legacy form when lowered) and why its layouts have no rule. */
  private layoutSupport(op: OpNode, fn: OpNode | undefined): [string, string] | undefined {
    const operand = (i: number) => this.typeOf(fn, op, i);
    const result = this.resultOf(fn, op);
    const vreg = (t: Type | undefined) => (t?.kind === 'vmi_vreg' ? t : undefined);
    const mask = (t: Type | undefined) => (t?.kind === 'vmi_mask' ? t : undefined);
    const attr = (key: string) => {
      const a = op.attrs.find((e) => e.key === key)?.value;
      return a?.kind === 'int' ? Number(a.value) : a?.kind === 'string' ? a.value : a ? true : undefined;
    };
    const numGroups = Number(attr('num_groups'));
    const legacy = this.lowered ? unifiedToLegacy(op, operand, result, attr) : op.name.slice('pto.vmi.'.length);
    const groups = this.lowered && op.name !== 'pto.vmi.' + legacy ? Number(attr('group') ?? vreg(operand(0))?.lanes) : numGroups;
    const why = (reason: string | undefined): [string, string] | undefined => (reason ? ['pto.vmi.' + legacy, reason] : undefined);
    const src = vreg(operand(0));
    const res = vreg(result);
    switch (legacy) {
      case 'ensure_layout':
        return src && res ? why(ensureLayoutProblem(src, res)) : undefined;
      case 'ensure_mask_layout': {
        const s = mask(operand(0));
        const r = mask(result);
        return s && r ? why(ensureMaskLayoutProblem(s, r)) : undefined;
      }
      case 'store':
        return src && layoutOf(src.layout) && layoutOf(src.layout)!.kind !== 'contiguous' ? why(storeProblem(src)) : undefined;
      case 'group_load':
        return res?.layout ? why(groupLoadProblem(res, groups, this.constant(fn, op, 2))) : undefined;
      case 'group_broadcast_load':
        return res ? why(groupBroadcastLoadProblem(res, groups, this.constant(fn, op, 2))) : undefined;
      case 'group_slot_load':
        return res ? why(groupSlotMemoryProblem(res, groups, 'result')) : undefined;
      case 'group_store':
        return src && layoutOf(src.layout)?.kind === 'num_groups' ? why(groupSlotMemoryProblem(src, groups, 'value')) : undefined;
      case 'group_reduce_addf':
      case 'group_reduce_maxf':
      case 'group_reduce_minf':
      case 'group_reduce_addi':
      case 'group_reduce_maxi':
      case 'group_reduce_mini': {
        const m = mask(operand(1));
        return src && m && res && layoutOf(res.layout)?.kind === 'num_groups' ? why(groupReduceProblem(src, m, res, groups)) : undefined;
      }
      case 'group_broadcast': {
        const l = layoutOf(src?.layout);
        return src && res && l?.kind === 'num_groups' && l.slots > 0 ? why(groupBroadcastProblem(src, res, groups)) : undefined;
      }
      case 'extf':
      case 'truncf':
        return src && res ? why(castProblem(src, res)) : undefined;
      case 'bitcast':
        return src && res ? why(bitcastProblem(src, res)) : undefined;
      default:
        return undefined;
    }
  }
}

/**
 * The legacy op a unified pto.vmi op becomes under vmi-lower-unified-to-legacy (VMILowerUnifiedToLegacy.cpp), for
 * the forms the layout gate checks; any other op keeps its own name.
 */
function unifiedToLegacy(
  op: OpNode,
  operand: (i: number) => Type | undefined,
  result: Type | undefined,
  attr: (key: string) => string | number | boolean | undefined,
): string {
  const name = op.name.slice('pto.vmi.'.length);
  const group = attr('group');
  const lanes = (t: Type | undefined) => (t?.kind === 'vmi_vreg' ? t.lanes : 0);
  switch (name) {
    case 'vinterpret_cast':
      return 'bitcast';
    case 'vbrc':
      return group !== undefined ? 'group_broadcast' : 'broadcast';
    case 'vcadd':
    case 'vcmax':
    case 'vcmin': {
      if (group === undefined) return name;
      const float = result?.kind === 'vmi_vreg' && isFloatElem(result.elem);
      return `group_reduce_${name.slice(2)}${float ? 'f' : 'i'}`;
    }
    case 'vcvt': {
      const s = operand(0);
      if (attr('pmode') === 'merge' || s?.kind !== 'vmi_vreg' || result?.kind !== 'vmi_vreg') return name;
      if (!isFloatElem(s.elem) || !isFloatElem(result.elem)) return name;
      const sb = bitsOf(s);
      const rb = bitsOf(result);
      return rb > sb ? 'extf' : rb < sb ? 'truncf' : name;
    }
    case 'vload':
      if (group === undefined) return name;
      if (attr('dist_mode') === 'brc') return 'group_broadcast_load';
      return lanes(result) === group ? 'group_slot_load' : 'group_load';
    case 'vstore': {
      if (group !== undefined) return 'group_store';
      // Block-strided stores (i16 strides) and stores other than continuous lower to other ops.
      const types = op.operands.map((_, i) => operand(i));
      if (types.some((t) => t?.kind === 'scalar' && t.elem === 'i16') || (attr('dist_mode') ?? 'continuous') !== 'continuous') return name;
      if (attr('pmode') === 'merge') return name;
      const masked = types.some((t) => t?.kind === 'vmi_mask');
      // A 1/2/4/8-lane value is one scalar per group: a group_store when unmasked. A masked one is left alone: the
      // lowering then asks whether its mask is all active, which is not modelled.
      if ([1, 2, 4, 8].includes(lanes(types[0]))) return masked ? name : 'group_store';
      return masked ? 'masked_store' : 'store';
    }
    default:
      return name;
  }
}

const isI1 = (t: Type | undefined) => t?.kind === 'scalar' && t.elem === 'i1';
const isFloatElem = (e: string) => /^(f\d|bf16|hif8|f8)/.test(e);
const bitsOf = (t: VmiVregType) => (t.elem === 'index' ? 64 : Number(/(\d+)/.exec(t.elem)?.[1] ?? 0));

/** The `!pto.vmi.vreg<...>` / `!pto.vmi.mask<...>` spelled inside a type's text (also inside a function or shaped type). */
function vmiTypeTexts(text: string): string[] {
  const found: string[] = [];
  const re = /!pto\.vmi\.(?:vreg|mask)</g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    let depth = 0;
    let end = m.index;
    for (; end < text.length; end++) {
      if (text[end] === '<') depth++;
      else if (text[end] === '>' && --depth === 0) break;
    }
    found.push(text.slice(m.index, end + 1));
  }
  return found;
}

/** The VMI types an attribute holds: as a type, as a typed value's type, or inside an array or dictionary. */
function typesInAttr(a: Attr): string[] {
  switch (a.kind) {
    case 'type':
      return vmiTypeTexts(a.type.text);
    case 'array':
      return a.items.flatMap(typesInAttr);
    case 'dict':
      return a.entries.flatMap((e) => typesInAttr(e.value));
    case 'dialect':
      return vmiTypeTexts(a.text);
    default:
      return 'type' in a && a.type ? vmiTypeTexts(a.type.text) : [];
  }
}

function printed(t: VmiVregType | VmiMaskType): string {
  const body = t.kind === 'vmi_vreg' ? `${t.lanes}x${t.spelled}` : `${t.lanes}x${t.granularity}`;
  return `!pto.${t.kind === 'vmi_vreg' ? 'vmi.vreg' : 'vmi.mask'}<${body}${t.layout ? ', ' + t.layout : ''}>`;
}

export function validateVmiBoundary(c: PassCheckContext): void {
  new Validator('boundary', c).run();
}

export function validateVmiLayout(c: PassCheckContext): void {
  new Validator('layout', c).run();
}
