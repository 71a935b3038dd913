import { DIAGNOSTICS as D } from '../diag/catalog';
import { decided } from '../ir/bound';
import { OpDefinition, OpVerifier } from '../ir/definition';
import { specTables } from '../spec/tables';
import type { MicroOpRowData, MicroValueSpec } from '../spec/micro-schema';
import { ElemType, POINTER_SPACE_NAMES, Type, VREG_BYTES, elemBits, elemTypeName, isInteger, printType } from '../types/type';
import { MicroBinding, MicroFormat, bindFirst, parseFormat } from './format';
import { MICRO_DEFINITIONS, MICRO_SEMANTICS, microFail } from './execute';
import { MICRO_CHECKS, MicroValueInfo } from './checks';
import { microReporters } from './report';

/**
 * The ops of PTOAS's micro-op level (VPTO), each defined by its row of spec/micro/*.json: written in its format
 * (the grammar rule `MicroBody`, bound by ./format.ts), its operands and results checked for their kinds and element
 * types, and run by the semantics its row names (./execute.ts). A region op (`pto.vecscope`) is written as a section.
 */
export function microDefinitions(): OpDefinition[] {
  return specTables().micro.map((row) => {
    const def = microDefinition(row);
    rows.set(def, row);
    return def;
  });
}

const rows = new WeakMap<OpDefinition, MicroOpRowData>();

/**
 * The row of spec/micro an op's definition was made from; undefined for an op of another level. What only the micro
 * level's passes ask of an op (a comparison, a conversion that widens, a helper only a pass inserts) they read here,
 * from its definition, rather than keeping lists of names.
 */
export const microRowOf = (def: OpDefinition | undefined): MicroOpRowData | undefined => (def ? rows.get(def) : undefined);

/** What a row's op may not be inside of, and whether it waits: from its family and fields. */
function rowProperties(row: MicroOpRowData): OpDefinition['properties'] {
  // A tile-op helper computes on the tiles it is given; moving data in or out is its caller's (PTOAS's helper
  // contract), and SIMT code it must launch: the ops of PTOAS's SimtOpInterface are the SIMT op families (simt-math,
  // simt-memory, ...), not the launch, whose family is `simt` (ld_dev/st_dev are of family device-memory).
  const simt = row.family.startsWith('simt-');
  const refused = row.family === 'dma' ? 'MTE data movement' : simt ? 'SIMT operations' : undefined;
  return {
    ...(refused ? { notInTileOpHelper: refused } : {}),
    ...(row.mayWait ? { mayWait: true } : {}),
    ...(row.delimitsVectorScope ? { delimitsVectorScope: true } : {}),
    ...(row.vecscopeInference ? { vecscopeInference: row.vecscopeInference } : {}),
  };
}

function microDefinition(row: MicroOpRowData): OpDefinition {
  // Alternatives separated by ` || ` (VMI's vstore: with or without a mask, a group stride, two values). Read when an
  // op of the row is first verified: a run of a few ops should not pay for reading the formats of all ~700 rows.
  let formats: MicroFormat[] | undefined;
  const formatsOf = (): MicroFormat[] =>
    (formats ??= row.format.split(' || ').map((f) =>
      parseFormat(
        f,
        row.results.map((r) => r.name),
      ),
    ));
  const attributes = new Set(row.attributes.map((a) => a.name));
  const mnemonic = row.name.slice('pto.'.length);
  if (row.definition) {
    const make = MICRO_DEFINITIONS[row.definition];
    if (!make) throw new Error(`${row.name}: no micro-op definition '${row.definition}'`);
    // The standard definition (the row's format and value rules), which a definition of its own may build on.
    return make(row, () => microDefinition({ ...row, definition: undefined }));
  }
  if (row.region) {
    return {
      name: row.name,
      syntax: 'SectionBody',
      hasRegions: true,
      diagnostic: D.microOperand,
      properties: rowProperties(row),
      verify(v) {
        v.expectResults(0);
        for (const r of v.op.regions) v.region(r);
      },
      *execute(x, op) {
        yield* x.runRegion(op.regions[0], []);
      },
    };
  }
  const semantics = row.semantics ? MICRO_SEMANTICS[row.semantics] : undefined;
  return {
    name: row.name,
    syntax: 'MicroBody',
    diagnostic: D.microOperand,
    properties: rowProperties(row),
    verify(v) {
      const named = v.op.results.reduce((n, r) => n + r.count, 0);
      const bound = v.op.micro ? bindFirst(v.op, formatsOf(), attributes, named) : { span: v.op.nameSpan, message: `${row.name} is not written in its format` };
      if ('message' in bound) {
        v.error(bound.span, bound.message, undefined, D.microFormat);
        v.define(v.op.results.map(() => undefined));
        return;
      }
      const results = bound.resultTypes.map((t) => v.type(t));
      const values = checkValues(v, row, bound, results);
      // A contract the row's fields do not express (vcvt's type pairs): the check the row names (./checks).
      if (row.check) {
        const check = MICRO_CHECKS[row.check];
        if (!check) throw new Error(`${row.name}: no micro check '${row.check}'`);
        const attr = (n: string) => bound.attrs[n] ?? v.op.attrs.find((e) => e.key === n)?.value;
        check({
          v,
          row,
          b: bound,
          value: (n) => values.get(n),
          attr,
          err: (span, message) => v.error(span, `${row.name}: ${message}`, undefined, D.microOperand),
        });
      }
      v.define(results);
      v.decide(bound);
    },
    execute(x, op) {
      const fail = microFail(op);
      if (!semantics) return fail('is not implemented yet');
      return semantics({ x, op, b: decided<MicroBinding>(op), mnemonic, fail });
    },
  };
}

/** The kinds, element types, agreements and mask granularity the row asks of the op's values; the values' types by name. */
function checkValues(v: OpVerifier, row: MicroOpRowData, b: MicroBinding, results: (Type | undefined)[]): Map<string, MicroValueInfo> {
  const { err } = microReporters(v, row.name);
  const typeOf = new Map<string, MicroValueInfo>();
  for (const spec of row.operands) {
    for (const i of b.operands[spec.name] ?? []) {
      const type = v.operands[i];
      const span = v.op.operands[i].span;
      const written = b.operandTypes.get(i);
      const writtenType = written ? v.type(written) : undefined;
      if (type && writtenType && printType(type) !== printType(writtenType)) {
        err(written!.span, `'${spec.name}' is ${printType(type)}, but its type is written ${printType(writtenType)}`);
      }
      const problem = kindProblem(spec, type, row);
      if (problem) err(span, `'${spec.name}' ${problem}`);
      typeOf.set(spec.name, { type, span });
    }
    if (!spec.optional && !spec.variadic && (b.operands[spec.name] ?? []).length === 0) err(v.op.nameSpan, `needs the operand '${spec.name}'`);
  }
  row.results.forEach((spec, k) => {
    if (k >= results.length) return;
    const span = b.resultTypes[k].span;
    const problem = kindProblem(spec, results[k], row);
    if (problem) err(span, `result '${spec.name}' ${problem}`);
    typeOf.set(spec.name, { type: results[k], span });
  });
  for (const a of row.attributes) {
    // An attribute of the format's items, else of the attribute dictionary (vlds's and vsts's `{dist = "..."}`).
    const attr = b.attrs[a.name] ?? v.op.attrs.find((e) => e.key === a.name)?.value;
    if (attr && attr.kind !== 'string') err(attr.span, `'${a.name}' is a string attribute`);
    else if (
      attr?.kind === 'string' &&
      a.values &&
      !a.values.includes(attr.value) &&
      !a.values.some((p) => p.endsWith('*') && attr.value.startsWith(p.slice(0, -1)))
    )
      err(attr.span, `'${a.name}' must be one of ${a.values.join(', ')}, got "${attr.value}"`);
  }
  if (row.sameType) {
    // Registers only: a value of another kind is reported as such already.
    const [first, ...rest] = row.sameType.map((n) => typeOf.get(n)).filter((t) => t?.type?.kind === 'vreg');
    for (const other of rest) {
      if (first && other && printType(first.type!) !== printType(other.type!))
        err(other.span, `requires matching register vector shapes: ${printType(first.type!)} and ${printType(other.type!)}`);
    }
  }
  if (row.sameGranularity) {
    const [first, ...rest] = row.sameGranularity.map((n) => ({ n, t: typeOf.get(n) })).filter((m) => m.t?.type?.kind === 'mask');
    for (const other of rest) {
      if (first && printType(first.t!.type!) !== printType(other.t!.type!))
        err(other.t!.span, `${other.n} type ${printType(other.t!.type!)} does not match ${first.n} type ${printType(first.t!.type!)}`);
    }
  }
  if (row.scalarMatches) {
    const scalar = typeOf.get(row.scalarMatches.scalar);
    const vector = typeOf.get(row.scalarMatches.vector);
    if (scalar?.type?.kind === 'scalar' && vector?.type?.kind === 'vreg' && !scalarFits(vector.type.elem, scalar.type.elem))
      err(scalar.span, `scalar type ${printType(scalar.type)} must match vector element type ${elemTypeName(vector.type.elem)}`);
  }
  if (row.derivedElem) {
    const from = typeOf.get(row.derivedElem.from)?.type;
    const to = typeOf.get(row.derivedElem.to);
    if (from?.kind === 'vreg' && to?.type?.kind === 'vreg') {
      const allowed = derivedElems(row.derivedElem.rule, from.elem);
      const expected = allowed[0];
      if (!allowed.includes(to.type.elem))
        err(
          to.span,
          expected
            ? `expects result type !pto.vreg<${(VREG_BYTES * 8) / elemBits(expected)}x${elemTypeName(expected)}> for ${row.derivedElem.from} element type ${elemTypeName(from.elem)}, got ${printType(to.type)}`
            : `takes no ${row.derivedElem.from} element type ${elemTypeName(from.elem)}`,
        );
    }
  }
  if (row.vectorOnly) {
    const attr = v.op.attrs.find((e) => e.key === row.vectorOnly!.attribute);
    const operand = typeOf.get(row.vectorOnly.operand);
    if (attr && operand?.type && operand.type.kind !== 'vreg') err(attr.value.span, `${row.vectorOnly.attribute} is only supported for vector input`);
  }
  if (row.laneIndex) {
    const index = typeOf.get(row.laneIndex.index);
    const vector = typeOf.get(row.laneIndex.vector)?.type;
    if (index?.type?.kind === 'vreg' && vector?.kind === 'vreg') {
      if (!isInteger(index.type.elem)) err(index.span, `requires ${row.laneIndex.index} to use integer vector elements`);
      else if (elemBits(index.type.elem) !== elemBits(vector.elem))
        err(index.span, `requires ${row.laneIndex.index} integer element width to match ${row.laneIndex.vector} element width`);
    }
  }
  if (row.maskMatches) {
    const mask = typeOf.get(row.maskMatches.mask);
    const vector = typeOf.get(row.maskMatches.vector);
    // PTOValidateVPTOIR's validateMaskMatchesVectorFamily: a mask of the vector's element width (8, 16 or 32 bits).
    if (mask?.type?.kind === 'mask' && vector?.type?.kind === 'vreg') {
      const bits = elemBits(vector.type.elem);
      const expected = bits === 8 || bits === 16 || bits === 32 ? `b${bits}` : undefined;
      if (expected && mask.type.granularity !== expected)
        err(
          mask.span,
          `mask type ${printType(mask.type)} does not match ${row.maskMatches.vector} type ${printType(vector.type)}; expected !pto.mask<${expected}>`,
        );
    }
  }
  return typeOf;
}

/**
 * A scalar operand for lanes of `elem`: the element type itself, or a signless integer of its width (`i32` for si32
 * or ui32 lanes; the toolchain reads si32 as i32, so an i32 lane takes an i32 scalar and no ui32 one).
 */
function scalarFits(elem: ElemType, scalar: ElemType): boolean {
  if (elem === scalar) return true;
  return isInteger(elem) && isInteger(scalar) && scalar.startsWith('i') && elemBits(elem) === elemBits(scalar);
}

/**
 * The result element types a source element type allows under a row's derivedElem rule (VPTO.cpp's
 * verifyWideningReductionVecOp, VpackOp::verify, verifyUnpackVecOp); none when the source takes none.
 */
function derivedElems(rule: 'widenNarrowIntegers' | 'halfUnsigned' | 'doubleInteger', elem: ElemType): ElemType[] {
  const bits = elemBits(elem);
  const int = (signed: boolean, width: number) => `${signed ? 'i' : 'u'}${width}` as ElemType;
  const unsigned = elem.startsWith('u');
  switch (rule) {
    case 'widenNarrowIntegers':
      return [isInteger(elem) && (bits === 8 || bits === 16) ? int(!unsigned, bits * 2) : elem];
    case 'halfUnsigned':
      return isInteger(elem) && (bits === 16 || bits === 32) ? [int(false, bits / 2)] : [];
    case 'doubleInteger':
      // Either signedness: the op (sign- or zero-extension), not the result type, says how lanes widen.
      return isInteger(elem) && bits <= 32 ? [int(!unsigned, bits * 2), int(unsigned, bits * 2)] : [];
  }
}

/** What is wrong with a value of the operand's (or result's) spec; undefined when nothing is. */
function kindProblem(spec: MicroValueSpec, t: Type | undefined, row: MicroOpRowData): string | undefined {
  if (!t) return undefined;
  const is = printType(t);
  switch (spec.kind) {
    case 'vreg':
      if (t.kind !== 'vreg') return `must be a !pto.vreg, got ${is}`;
      if (row.elems && !row.elems.includes(elemTypeName(t.elem))) return `has element type ${elemTypeName(t.elem)}; ${row.name} takes ${row.elems.join(', ')}`;
      return undefined;
    case 'mask':
      if (t.kind !== 'mask') return `must be a !pto.mask, got ${is}`;
      return spec.granularity && t.granularity !== spec.granularity ? `must be a !pto.mask<${spec.granularity}>, got ${is}` : undefined;
    case 'align':
      return t.kind === 'align' ? undefined : `must be a !pto.align, got ${is}`;
    case 'vmi-vreg':
      return t.kind === 'vmi_vreg' ? undefined : `must be a !pto.vmi.vreg, got ${is}`;
    case 'vmi-mask':
      return t.kind === 'vmi_mask' ? undefined : `must be a !pto.vmi.mask, got ${is}`;
    case 'vmi-vreg-or-scalar':
      return t.kind === 'vmi_vreg' || (t.kind === 'scalar' && t.elem !== 'index') ? undefined : `must be a !pto.vmi.vreg or a scalar, got ${is}`;
    case 'vmi-value':
      return t.kind === 'vmi_vreg' || t.kind === 'vmi_mask' ? undefined : `must be a !pto.vmi.vreg or a !pto.vmi.mask, got ${is}`;
    case 'ptr': {
      if (t.kind !== 'ptr') return `must be a !pto.ptr, got ${is}`;
      const space = POINTER_SPACE_NAMES[t.space][0];
      if (spec.space && space !== spec.space) return `must point to ${spec.space}, got ${is}`;
      if (spec.spaces && !spec.spaces.includes(space as (typeof spec.spaces)[number])) return `must point to ${spec.spaces.join(' or ')}, got ${is}`;
      return undefined;
    }
    case 'vreg-or-scalar':
      if (t.kind === 'vreg') return kindProblem({ ...spec, kind: 'vreg' }, t, row);
      return t.kind === 'scalar' && t.elem !== 'index' ? undefined : `must be a !pto.vreg or a scalar, got ${is}`;
    case 'index':
      return t.kind === 'scalar' && t.elem === 'index' ? undefined : `must be an index, got ${is}`;
    case 'scalar':
      if (t.kind !== 'scalar' || t.elem === 'index') return `must be a scalar, got ${is}`;
      return spec.elems && !spec.elems.includes(elemTypeName(t.elem)) ? `must be ${spec.elems.join(' or ')}, got ${is}` : undefined;
  }
}
