import { unknownAttributeMessage } from '../define/attributes';
import { DIAGNOSTICS as D } from '../../diag/catalog';
import { Span } from '../../diag/source';
import { OpDefinition, OpProperties, OpVerifier, Spelling, todaysDpsOrder } from '../../ir/definition';
import { BoundInstruction, BoundOperand } from '../../ir/program';
import { DEFAULT_PRODUCT } from '../../ascendc/model/params';
import { Instruction } from '../../spec/isa';
import { ELEM_TYPE_NAMES } from '../../spec/elem-type-names';
import type { OperandSpec } from '../../spec/schema';
import { Dims, checkDimRule, dimsOfType, viewFitsFlatBuffer, viewMatchesValid } from '../../spec/valid';
import { OpNode, Operand, attrOf } from '../../syntax/ast';
import { ElemType, TileType, Type, elemSize, elemTypeName, isFloat, isInteger, printType } from '../../types/type';
import { AttributeValue, readAttribute } from '../define/attributes';
import { layoutProblem } from '../memory/tile-rules';
import { ascendcFootprint, ascendcProblems } from './ascendc-run';
import { overlapProblems } from '../../ascendc/model/overlap';
import { outsideOf } from '../../ascendc/model/memory';
import { attributeOf, paramsFromAttributes } from './ascendc-text-form';
import { INSTRUCTION_CHECKS } from './checks';
import { missingExplicitTmp } from './implicit-tmp';
import { executeInstruction } from './execute';
import { mxScaleLoadElements } from './semantics/memory';
import { instructionFromGeneric } from './generic-form';

/**
 * The definition of a table instruction (spec/instructions/*.json): its operands bind to the entry's names
 * (Level 2 `ins`/`outs`, Level 1 operands and results) and every rule of the entry is checked, then the family's
 * checks beyond the tables (./checks).
 */
export function instructionDefinition(spec: Instruction): OpDefinition {
  const moved = formerlyOuts(spec);
  return {
    name: spec.opName,
    spellings: [...oldDpsSpellings(spec.opName), ...formerlyInsSpellings(spec)],
    properties: {
      attributesInIns: spec.attributesInIns,
      formerlyOuts: moved,
      // PTOAS's tile ops (TileOpInterface); the AscendC/TIK seed instructions are this toolchain's own.
      notInTileOpHelper: spec.semantics === 'ascendc' ? undefined : 'Tile allocation or high-level TileOps',
      viewFootprint: spec.semantics === 'load' ? mxScaleLoadElements : undefined,
    },
    verify: (v) => new InstructionVerification(v, spec, moved).run(),
    execute: executeInstruction,
    fromGeneric: (g) => instructionFromGeneric(spec, g),
  };
}

function formerlyOuts(spec: Instruction): OpProperties['formerlyOuts'] {
  let after = spec.outs.length;
  const moves = spec.ins.flatMap((s, i) => {
    if (s.formerlyOuts === undefined || s.formerlyOuts === false) return [];
    const from = s.formerlyOuts === true ? after++ : s.formerlyOuts;
    return [{ from, to: s.writtenLast ? ('last' as const) : i }];
  });
  return moves.length > 0 ? { outs: spec.outs.length, moves } : undefined;
}

/** Early PTOAS spelled Level 2 tile ops with a `_dps` suffix, and the transfers also without their `t`. */
function oldDpsSpellings(name: string): Spelling[] {
  if (!name.startsWith('pto.t')) return [];
  const spellings = [{ name: `${name}_dps`, deprecated: true }];
  const transfer = /^pto\.t(load|store)$/.exec(name);
  if (transfer) spellings.push({ name: `pto.${transfer[1]}_dps`, deprecated: true });
  return spellings;
}

/** Ops older PTOAS printed with a keyword operand among their ins (`textract_fp`, today `textract ... fp %fp`). */
function formerlyInsSpellings(spec: Instruction): Spelling[] {
  const byOp = new Map<string, Record<string, number>>();
  for (const s of spec.ins) {
    if (!s.formerlyIns || !s.keyword) continue;
    const moves = byOp.get(s.formerlyIns.op) ?? {};
    moves[s.keyword] = s.formerlyIns.at;
    byOp.set(s.formerlyIns.op, moves);
  }
  return [...byOp].map(([op, insKeywords]) => ({ name: `${spec.dialect}.${op}`, deprecated: true, insKeywords }));
}

const NO_ATTRIBUTES: ReadonlyMap<string, AttributeValue | undefined> = new Map();
const NONE_WRITTEN: ReadonlySet<string> = new Set();

const resultCount = (op: OpNode): number => op.results.reduce((n, r) => n + r.count, 0);

class InstructionVerification {
  constructor(
    private readonly v: OpVerifier,
    private readonly spec: Instruction,
    /** The entry's `formerlyOuts` (worked out once per entry, not per op). */
    private readonly moved: OpProperties['formerlyOuts'],
  ) {}

  run(): void {
    const { op, operands: operandTypes, declared } = this.v;
    const spec = this.spec;
    const bound = op.form === 'dps' ? this.bindDps(op, spec, operandTypes, declared) : this.bindSsa(op, spec, operandTypes, declared);
    if (!bound) {
      this.v.define(declared);
      return;
    }
    this.v.recordInstruction(bound);
    this.checkInstruction(op, spec, bound);
    this.v.define(op.form === 'dps' ? declared : [...bound.operands.values()].filter((b) => b.result).map((b) => b.type));
  }

  private usage(spec: Instruction, level: 1 | 2): string {
    if (level === 2) {
      const ins = spec.ins
        .filter((o) => !o.keyword)
        .map((o) => `%${o.name}${o.optional ? '?' : ''}`)
        .join(', ');
      const keywords = spec.ins
        .filter((o) => o.keyword)
        .map((o) => ` [${o.keyword} %${o.name} : ...]`)
        .join('');
      return `${spec.opName} ins(${ins} : ...${keywords}) outs(${spec.outs.map((o) => '%' + o.name).join(', ')} : ...)`;
    }
    const results = spec.outs.filter((o) => o.kind === 'tile');
    const args = [...spec.ins.filter((o) => o.l1 !== false), ...spec.outs.filter((o) => o.kind !== 'tile')];
    const argText = (o: Instruction['operands'][number]) => `%${o.name}${o.optional || o.l1 === 'optional' ? '?' : ''}`;
    return `${results.map((o) => '%' + o.name).join(', ')}${results.length ? ' = ' : ''}${spec.opName} ${args.map(argText).join(', ')} : ...`;
  }

  private bindList(
    op: OpNode,
    specs: Instruction['operands'],
    operands: Operand[],
    types: (Type | undefined)[],
    where: string,
    spec: Instruction,
    level: 1 | 2,
  ): Map<string, BoundOperand> | undefined {
    const isOptional = (s: Instruction['operands'][number]) => s.optional === true || (level === 1 && s.l1 === 'optional');
    const required = specs.filter((s) => !isOptional(s)).length;
    if (operands.length < required || operands.length > specs.length) {
      // Too many: the caret is on the ones past the last the op takes; too few: on the list written (or the name).
      const shown = operands.length > specs.length ? operands.slice(specs.length) : operands;
      const span = shown.length > 0 ? { start: shown[0].span.start, end: shown.at(-1)!.span.end } : op.nameSpan;
      const count = required === specs.length ? `${specs.length}` : `${required} to ${specs.length}`;
      this.v.error(
        span,
        `${spec.opName} takes ${count} ${where} operand(s), got ${operands.length}; expected '${this.usage(spec, level)}'`,
        undefined,
        D.instructionOperands,
      );
      return undefined;
    }
    // As MLIR's optional operands: with k of them written, the first k (in spec order) are present; an optional
    // tile is passed over for a scalar written in its place (`tmov ins(%acc, %preQuantScalar : T, i64)`).
    let optionalsLeft = operands.length - required;
    let at = 0;
    const bound = new Map<string, BoundOperand>();
    let unplaced: Operand | undefined;
    operands.forEach((o, i) => {
      const t = types[i];
      const passOver = (s: Instruction['operands'][number]) => isOptional(s) && (optionalsLeft === 0 || (s.kind === 'tile' && t?.kind === 'scalar'));
      while (at < specs.length && passOver(specs[at])) at++;
      if (at >= specs.length) {
        unplaced ??= o;
        return;
      }
      if (isOptional(specs[at])) optionalsLeft--;
      if (t) bound.set(specs[at].name, { spec: specs[at], type: t, use: o });
      at++;
    });
    // Operands left over once the optional ones were passed over (a scalar where a tile goes, two where one may).
    if (unplaced)
      this.v.error(
        unplaced.value?.span ?? unplaced.span,
        `${spec.opName}: this ${where} operand has no place; expected '${this.usage(spec, level)}'`,
        undefined,
        D.instructionOperands,
      );
    // An operand without a type had its error already.
    return bound.size === operands.length ? bound : undefined;
  }

  /** The specs to bind sources to, in the order written: a leading scalar swaps the two sources (scalarMayLead). */
  private sourceOrder(spec: Instruction, specs: Instruction['operands'], types: (Type | undefined)[]): Instruction['operands'] {
    if (!spec.scalarMayLead || specs.length < 2 || types[0]?.kind === 'tile' || types[1]?.kind !== 'tile') return specs;
    return [specs[1], specs[0], ...specs.slice(2)];
  }

  private bindDps(op: OpNode, spec: Instruction, operandTypes: (Type | undefined)[], declared: (Type | undefined)[]): BoundInstruction | undefined {
    if (resultCount(op) > 0 && op.resultTypes.length === 0) {
      this.v.error(op.results[0].span, `${spec.opName} in destination-passing form (ins/outs) has no results`, undefined, D.instructionOperands);
    }
    // Each operand with its type, in the order written; the old form (sources after the destinations in outs)
    // is read in today's order.
    const typed = (key: string) => (op.segments[key] ?? []).map((i) => ({ operand: op.operands[i], type: operandTypes[i] }));
    const written = { ins: typed('ins'), outs: typed('outs') };
    const today = todaysDpsOrder(written.ins, written.outs, this.moved);
    if (today) {
      const sources = spec.ins.filter((s) => s.formerlyOuts);
      this.v.warning(
        op.nameSpan,
        `${spec.opName} with ${sources.map((s) => '%' + s.name).join(', ')} in outs is the old form; PTOAS now writes '${this.usage(spec, 2)}'`,
        D.oldSpelling,
      );
    }
    const { ins: insList, outs: outsList } = today ?? written;
    const [insOperands, insTypes] = [insList.map((t) => t.operand), insList.map((t) => t.type)];
    const [outsOperands, outsTypes] = [outsList.map((t) => t.operand), outsList.map((t) => t.type)];
    const positional = spec.ins.filter((s) => !s.keyword);
    const { specs: insSpecs, last } = this.writtenLast(op, spec, positional, insOperands.length);
    const listed = last ? insOperands.length - 1 : insOperands.length;
    let ins = this.bindList(op, this.sourceOrder(spec, insSpecs, insTypes), insOperands.slice(0, listed), insTypes.slice(0, listed), 'ins', spec, 2);
    if (ins && last) {
      const type = insTypes[listed];
      if (type) ins.set(last.name, { spec: last, type, use: insOperands[listed] });
      else ins = undefined;
    }
    const keywordOperands = this.bindKeywords(op, spec, operandTypes);
    if (ins && keywordOperands) for (const [k, b] of keywordOperands) ins.set(k, b);
    // `%v = op ins(...) outs : T`: a scalar destination is the op's result (pto.tgetval).
    const scalarOut = spec.outs.length === 1 && spec.outs[0].kind === 'scalar' ? spec.outs[0] : undefined;
    if (scalarOut && (op.segments.outs ?? []).length === 0) {
      if (!ins || !declared[0] || !this.v.expectResults(1)) return undefined;
      return { spec, operands: new Map([[scalarOut.name, { spec: scalarOut, type: declared[0], result: op.results[0] }], ...ins]) };
    }
    const outs = this.bindList(op, spec.outs, outsOperands, outsTypes, 'outs', spec, 2);
    if (!ins || !outs || !keywordOperands) return undefined;
    // The destinations, then the sources (entry by entry: no arrays of entries made per op).
    const operands = new Map(outs);
    ins.forEach((b, name) => operands.set(name, b));
    return { spec, operands };
  }

  /**
   * The ins specs bound by position, and the `writtenLast` operand when the last operand written is it: when its
   * `no_NAME` marker is absent and more operands are written than required (tmrgsort's format 1 has none).
   */
  private writtenLast(
    op: OpNode,
    spec: Instruction,
    positional: Instruction['operands'],
    count: number,
  ): { specs: Instruction['operands']; last?: Instruction['operands'][number] } {
    const last = positional.find((s) => s.writtenLast);
    const markers = op.insMarkers ?? [];
    for (const marker of markers.filter((m) => m !== `no_${last?.name}`)) {
      this.v.error(op.nameSpan, `${spec.opName} takes no '${marker}' marker; expected '${this.usage(spec, 2)}'`, undefined, D.instructionOperands);
    }
    if (!last) return { specs: positional };
    const specs = positional.filter((s) => s !== last);
    const required = specs.filter((s) => !s.optional).length;
    const leftOut = markers.includes(`no_${last.name}`) || count <= required;
    return { specs, last: leftOut ? undefined : last };
  }

  /** The sources written `KEYWORD %v : T` inside ins, bound by their keyword. */
  private bindKeywords(op: OpNode, spec: Instruction, operandTypes: (Type | undefined)[]): Map<string, BoundOperand> | undefined {
    const bound = new Map<string, BoundOperand>();
    let ok = true;
    for (const keyword of op.insKeywords ?? []) {
      const index = op.segments[keyword][0];
      const operandSpec = spec.ins.find((s) => s.keyword === keyword);
      if (!operandSpec) {
        this.v.error(
          op.operands[index].span,
          `${spec.opName} takes no '${keyword}' operand; expected '${this.usage(spec, 2)}'`,
          undefined,
          D.instructionOperands,
        );
        ok = false;
        continue;
      }
      const type = operandTypes[index];
      if (type) bound.set(operandSpec.name, { spec: operandSpec, type, use: op.operands[index] });
      else ok = false;
    }
    return ok ? bound : undefined;
  }

  private bindSsa(op: OpNode, spec: Instruction, operandTypes: (Type | undefined)[], declared: (Type | undefined)[]): BoundInstruction | undefined {
    const resultSpecs = spec.outs.filter((o) => o.kind === 'tile');
    const argSpecs = [...spec.ins.filter((o) => o.l1 !== false), ...spec.outs.filter((o) => o.kind !== 'tile')];
    const args = this.bindList(op, this.sourceOrder(spec, argSpecs, operandTypes), op.operands, operandTypes, 'input', spec, 1);
    if (!args) return undefined;
    if (resultCount(op) !== resultSpecs.length) {
      this.v.error(
        op.results[0]?.span ?? op.nameSpan,
        `${spec.opName} produces ${resultSpecs.length} result(s), got ${resultCount(op)}; expected '${this.usage(spec, 1)}'`,
        undefined,
        D.instructionOperands,
      );
      return undefined;
    }
    if (declared.length !== resultSpecs.length) {
      const where = op.resultTypes[0]?.span ?? op.span;
      this.v.error(
        where,
        `${spec.opName} needs a signature with ${resultSpecs.length} result type(s): '${this.usage(spec, 1)} -> RESULT_TYPE'`,
        undefined,
        D.instructionOperands,
      );
      return undefined;
    }
    const operands = new Map<string, BoundOperand>();
    resultSpecs.forEach((s, i) => {
      const t = declared[i];
      if (t) operands.set(s.name, { spec: s, type: t, result: op.results[i] });
    });
    if (operands.size !== resultSpecs.length) return undefined;
    for (const [k, v] of args) operands.set(k, v);
    return { spec, operands };
  }

  private checkInstruction(op: OpNode, spec: Instruction, bound: BoundInstruction): void {
    const name = `${spec.opName}`;
    const spanOf = (b: BoundOperand): Span => b.use?.type?.span ?? b.use?.span ?? op.resultTypes[0]?.span ?? op.span;
    const allowedByTarget = spec.dtypes[this.v.target];
    if (!allowedByTarget) {
      this.v.error(op.nameSpan, `${name} is not available on ${this.v.target}`);
      return;
    }
    const tiles = new Map<string, TileType>();
    for (const [operandName, b] of bound.operands) {
      const { spec: os, type } = b;
      // A polymorphic operand of another kind than the table's is its form's: the family's check checks it.
      const declaredKind = os.kind === 'view' ? 'partition_view' : os.kind;
      if (os.polymorphic && type.kind !== declaredKind) continue;
      if (os.kind === 'tile') {
        if (type.kind !== 'tile') {
          this.v.error(spanOf(b), `${name}: ${operandName} must be a tile, got ${printType(type)}`, undefined, D.operandKind);
          continue;
        }
        tiles.set(operandName, type);
        if (op.form === 'dps' && type.level !== 'buf')
          this.v.error(
            spanOf(b),
            `${name}: in ins/outs form, ${operandName} must be a !pto.tile_buf (a !pto.tile is a Level 1 SSA value)`,
            undefined,
            D.operandKind,
          );
        if (op.form === 'ssa' && b.result && type.level !== 'value')
          this.v.warning(spanOf(b), `${name}: a Level 1 result is a !pto.tile value; !pto.tile_buf is a Level 2 buffer`, D.bufferTypedValue);
      } else if (os.kind === 'view' && type.kind !== 'partition_view') {
        this.v.error(spanOf(b), `${name}: ${operandName} must be a !pto.partition_tensor_view, got ${printType(type)}`, undefined, D.operandKind);
      } else if (os.kind === 'scalar' && type.kind !== 'scalar') {
        this.v.error(spanOf(b), `${name}: ${operandName} must be a scalar (index, integer or float), got ${printType(type)}`, undefined, D.operandKind);
      } else if (os.kind === 'scalar' && type.kind === 'scalar' && os.scalarTypes && !SCALAR_TYPES[os.scalarTypes].admits(type.elem)) {
        const words = SCALAR_TYPES[os.scalarTypes].words;
        this.v.error(spanOf(b), `${name}: ${operandName} must be ${words}, not ${elemTypeName(type.elem)}`, undefined, D.elementType);
      }
    }
    const direction = this.direction(tiles);
    for (const [operandName, tile] of tiles) {
      const b = bound.operands.get(operandName)!;
      const locs = spec.tileLocs[operandName];
      if (locs && !locs.includes(tile.loc))
        this.v.error(spanOf(b), `${name}: ${operandName} must be a ${locs.join('/')} tile, not loc=${tile.loc}`, undefined, D.tileLocation);
      const rule = spec.layouts[operandName];
      const problem = rule ? layoutProblem(rule, tile) : null;
      if (problem) this.v.error(spanOf(b), `${name}: ${operandName} ${problem}`, undefined, D.tileLayout);
      const allowed = allowedByTarget[operandName];
      if (allowed && allowed.length > 0 && !allowed.includes(tile.dtype)) {
        this.v.error(
          spanOf(b),
          `${name}: ${operandName} dtype ${elemTypeName(tile.dtype)} is not supported on ${this.v.target} (allowed: ${inElementOrder(allowed).map(elemTypeName).join(', ')})`,
          undefined,
          D.elementType,
        );
      }
    }
    for (const rel of spec.dtypeRelations ?? []) {
      if (rel.when && rel.when !== direction) continue;
      const present = rel.operands.filter((n) => bound.operands.has(n));
      const elems = present.map((n) => elemOf(bound.operands.get(n)!.type));
      if (elems.some((e) => e === undefined)) continue;
      const first = elems[0]!;
      for (let i = 1; i < present.length; i++) {
        const e = elems[i]!;
        const ok = rel.kind === 'same' ? e === first : elemSize(e) === elemSize(first);
        if (!ok) {
          const what = rel.kind === 'same' ? 'the same element type' : 'element types of the same size';
          this.v.error(
            spanOf(bound.operands.get(present[i])!),
            `${name}: ${present[0]} (${elemTypeName(first)}) and ${present[i]} (${elemTypeName(e)}) must have ${what}`,
            undefined,
            D.elementType,
          );
        }
      }
    }
    const dims = (n: string): Dims | undefined => {
      const t = tiles.get(n);
      return t ? dimsOfType(t) : undefined;
    };
    const marker = spec.noOpWhenEmpty ? tiles.get(spec.noOpWhenEmpty) : undefined;
    const noOp = marker !== undefined && marker.vRow === 0 && marker.vCol === 0;
    for (const rule of noOp ? [] : (spec.valid ?? [])) {
      if ('when' in rule && rule.when && rule.when !== direction) continue;
      if (rule.kind === 'view-matches-valid') {
        const view = bound.operands.get(rule.view)?.type;
        const tile = tiles.get(rule.tile);
        if (view?.kind !== 'partition_view' || !tile) continue;
        const sizeRelated = (spec.dtypeRelations ?? []).some((r) => r.operands.includes(rule.view) && r.operands.includes(rule.tile));
        if (sizeRelated && elemSize(view.elem) !== elemSize(tile.dtype)) continue; // reported by the dtype relation
        const outcome = tile.memref ? viewFitsFlatBuffer(view.shape, tile.rows * tile.cols) : viewMatchesValid(view.shape, tile.vRow, tile.vCol);
        if (outcome.status === 'violated') this.v.error(op.nameSpan, `${name}: ${outcome.message}`, undefined, D.validRegion);
        continue;
      }
      const outcome = checkDimRule(rule, dims);
      if (outcome.status === 'violated') this.v.error(op.nameSpan, `${name}: ${outcome.message}`, undefined, D.validRegion);
    }
    if (spec.semantics === 'ascendc') {
      this.checkAscendc(op, spec, bound, tiles);
      return;
    }
    let attributesOk = true;
    // Most instructions take no attribute: they share one empty map and set (two per op were 5 MB of a 10 MB module).
    const takesAttributes = spec.attributes !== undefined && spec.attributes.length > 0;
    const decoded = takesAttributes ? new Map<string, AttributeValue | undefined>() : undefined;
    const written = takesAttributes ? new Set<string>() : undefined;
    for (const attr of spec.attributes ?? []) {
      const a = attrOf(op, attr.name);
      const reading = readAttribute(attr, a);
      if (a) written!.add(attr.name);
      if ('problem' in reading) {
        this.v.error(a!.span, `${name}: ${reading.problem}`, undefined, D.instructionAttribute);
        attributesOk = false;
      } else if (attr.required && reading.value === undefined) {
        this.v.error(op.nameSpan, `${name} needs the attribute '${attr.name}'`, undefined, D.instructionAttribute);
        attributesOk = false;
      }
      decoded!.set(attr.name, 'value' in reading && reading.value !== undefined ? reading.value : attr.default);
    }
    const attributes = decoded ?? NO_ATTRIBUTES;
    if (op.attrs.length > 0) {
      const known = new Set((spec.attributes ?? []).map((a) => a.name));
      for (const a of op.attrs) if (!known.has(a.key)) this.v.warning(a.span, unknownAttributeMessage(name, a.key, [...known]), D.unknownAttribute);
    }
    bound.attributes = attributes;
    bound.written = written ?? NONE_WRITTEN;
    // Rules the tables cannot express (type pairs of tcvt, index ranges, ...): ops/instructions/checks.
    const check = INSTRUCTION_CHECKS[spec.opName];
    if (check && attributesOk) {
      check({
        op,
        spec,
        bound,
        tiles,
        target: this.v.target,
        attributes,
        error: (span, message, kind) => this.v.error(span, `${name}: ${message}`, undefined, kind),
        warning: (span, message, kind) => this.v.warning(span, `${name}: ${message}`, kind),
        constant: (operand) => {
          const use = bound.operands.get(operand)?.use;
          return use === undefined ? undefined : this.v.constant(op.operands.indexOf(use));
        },
        placement: (operand) => {
          const use = bound.operands.get(operand)?.use;
          return use === undefined ? undefined : this.v.placement(op.operands.indexOf(use));
        },
        spanOf: (operand) => {
          const b = bound.operands.get(operand);
          return b ? spanOf(b) : op.nameSpan;
        },
      });
    }
    if (this.v.level === 'level3' && attributesOk) {
      const missing = missingExplicitTmp({
        spec,
        written: new Set(bound.operands.keys()),
        tiles,
        types: new Map([...bound.operands].map(([k, b]) => [k, b.type])),
        target: this.v.target,
        attributes,
      });
      if (missing) this.v.error(op.nameSpan, `${name}: ${missing.message}`, undefined, D.buildLevel);
    }
  }

  /**
   * AscendC/TIK ops: attributes -> the model's parameters (decoded once, kept on the bound instruction), the
   * model's rules for their values, and the call's footprint against the tiles' sizes.
   */
  private checkAscendc(op: OpNode, spec: Instruction, bound: BoundInstruction, tiles: Map<string, TileType>): void {
    const src = tiles.get('src');
    const dst = tiles.get('dst');
    if (!src || !dst) return;
    const { params, problems } = paramsFromAttributes(op, spec, src.dtype, DEFAULT_PRODUCT);
    for (const p of problems) this.v.error(p.span, p.message, undefined, D.ascendcParameter);
    if (!params) return;
    bound.ascendc = params;
    const sameValue = (a: string, b: string) => bound.operands.get(a)?.use?.value?.name === bound.operands.get(b)?.use?.value?.name;
    const work = tiles.get('work');
    const bytesOf = (t: TileType) => t.rows * t.cols * elemSize(t.dtype);
    const shape = {
      dstIsSrc: sameValue('dst', 'src'),
      workIsSrc: !!work && sameValue('work', 'src'),
      workIsDst: !!work && sameValue('work', 'dst'),
      workBytes: work ? bytesOf(work) : undefined,
    };
    const where = (param: string): Span => {
      const operand = param === 'dtype' ? 'src' : param === 'workElems' ? 'work' : param;
      if (operand === 'src' || operand === 'dst' || operand === 'work') {
        const b = bound.operands.get(operand);
        return b?.use?.type?.span ?? b?.use?.span ?? op.nameSpan;
      }
      return attrOf(op, attributeOf(param))?.span ?? op.nameSpan;
    };
    const valueProblems = ascendcProblems(spec, params, shape);
    for (const p of valueProblems) this.v.error(where(p.param), `${spec.opName}: ${p.message}`, undefined, D.ascendcParameter);
    if (valueProblems.length > 0) return;
    // Addresses do not depend on data: the footprint of the call says whether an access leaves a tile.
    const sizes = { src: bytesOf(src), dst: bytesOf(dst), work: work ? bytesOf(work) : 0 };
    const footprint = ascendcFootprint(spec, params, shape);
    for (const { role, access } of footprint) {
      const outside = outsideOf(`%${role}`, sizes[role], access);
      if (outside) {
        this.v.error(op.nameSpan, `${spec.opName}: ${outside.message}`, undefined, D.ascendcAccess);
        return;
      }
    }
    // In place: the repeats' reads and writes share the tile (vec_reduce_add's rule is among the value problems).
    if (shape.dstIsSrc && spec.opName !== 'tik.vec_reduce_add') {
      const dstOperand = bound.operands.get('dst')?.use?.span ?? op.nameSpan;
      for (const p of overlapProblems(spec.opName, footprint)) this.v.error(dstOperand, p.message, undefined, D.ascendcOverlap);
    }
  }

  /** `vec->vec`, `mat->left`, ...: the direction of a two-tile move. */
  private direction(tiles: Map<string, TileType>): string | undefined {
    const src = tiles.get('src');
    const dst = tiles.get('dst');
    return src && dst ? `${src.loc}->${dst.loc}` : undefined;
  }
}

/**
 * A dtype list as messages show it: in the schema's fixed order, whatever order the table wrote it in. (Read when
 * called: the schema module may not have run yet when this one loads.)
 */
const inElementOrder = (list: ElemType[]): ElemType[] => {
  const order: readonly ElemType[] = ELEM_TYPE_NAMES;
  return [...list].sort((a, b) => order.indexOf(a) - order.indexOf(b));
};

const SIGNLESS: readonly ElemType[] = ['i1', 'i8', 'i16', 'i32', 'i64'];
/** MLIR's builtin float types among the element types (the `!pto.` formats are the dialect's own). */
const mlirFloat = (e: ElemType): boolean => isFloat(e) || e === 'f8E4M3FN' || e === 'f8E5M2';

/**
 * What a table's `scalarTypes` admits, as PTOAS's constraints do: ODS's ScalarType is AnySignlessInteger or
 * AnyFloat (so neither `ui8` nor `index`); TDivSOp's verifier takes any IntegerType or FloatType.
 */
const SCALAR_TYPES: Record<NonNullable<OperandSpec['scalarTypes']>, { admits: (e: ElemType) => boolean; words: string }> = {
  numeric: { admits: (e) => SIGNLESS.includes(e) || mlirFloat(e), words: 'a signless integer or a float' },
  'signless-integer': { admits: (e) => SIGNLESS.includes(e), words: 'a signless integer' },
  'integer-or-float': { admits: (e) => (isInteger(e) && e !== 'index') || mlirFloat(e), words: 'an integer or a float' },
  f32: { admits: (e) => e === 'f32', words: 'f32' },
  index: { admits: (e) => e === 'index', words: 'index' },
};

function elemOf(t: Type): ElemType | undefined {
  switch (t.kind) {
    case 'tile':
      return t.dtype;
    case 'partition_view':
    case 'tensor_view':
    case 'ptr':
    case 'scalar':
      return t.elem;
    default:
      return undefined;
  }
}
