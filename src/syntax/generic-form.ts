import { DIAGNOSTICS as D } from '../diag/catalog';
import { DiagnosticBag } from '../diag/diagnostic';
import { Span } from '../diag/source';
import { AttrEntry, OpNode, Operand, ResultDef, TypeRef, ValueRef } from './ast';
import { GenericOp, GenericRewrite, OpSyntax } from './op-syntax';

/** What the parser read of a statement in MLIR's generic form. */
export interface GenericStatement {
  results: ResultDef[];
  name: string;
  nameSpan: Span;
  span: Span;
  values: ValueRef[];
  attrs: AttrEntry[];
  signature: TypeRef & { fn: { inputs: TypeRef[]; results: TypeRef[] } };
}

const SEGMENT_SIZES = 'operandSegmentSizes';

/**
 * The op a generic-form statement writes, in the op's own form: each operand takes its type from the signature,
 * `operandSegmentSizes` says which declared operands are there, and the op's definition reads that into the AST its
 * own syntax would give (`op.fromGeneric`). An op the toolchain does not define keeps the generic syntax's SSA
 * form, and the verifier reports it by name. Undefined: the operands do not fit the op (reported).
 */
export function genericOp(stmt: GenericStatement, op: OpSyntax | undefined, diags: DiagnosticBag): OpNode | undefined {
  const { inputs, results: resultTypes } = stmt.signature.fn;
  if (inputs.length !== stmt.values.length) {
    diags.report(D.genericForm, stmt.signature.span, `${stmt.name}: ${stmt.values.length} operand(s) but ${inputs.length} type(s) in the signature`);
    return undefined;
  }
  const operands: Operand[] = stmt.values.map((value, i) => ({ value, type: inputs[i], span: value.span }));
  const sizes = stmt.attrs.find((a) => a.key === SEGMENT_SIZES);
  const generic: GenericOp = {
    name: stmt.name,
    nameSpan: stmt.nameSpan,
    span: stmt.span,
    operands,
    attrs: stmt.attrs.filter((a) => a !== sizes),
    resultTypes,
  };
  if (sizes) {
    const items = sizes.value.kind === 'array' ? sizes.value.items : [];
    if (sizes.value.kind !== 'array' || items.some((i) => i.kind !== 'int' || i.value < 0n)) {
      diags.report(D.genericForm, sizes.span, `${stmt.name}: ${SEGMENT_SIZES} must be an array of non-negative integers, array<i32: ...>`);
      return undefined;
    } else {
      const counts = items.map((i) => Number((i as { value: bigint }).value));
      const total = counts.reduce((a, b) => a + b, 0);
      if (total !== operands.length) {
        diags.report(
          D.genericForm,
          sizes.span,
          `${stmt.name}: operand count (${operands.length}) does not match the total size (${total}) given by ${SEGMENT_SIZES}`,
        );
        return undefined;
      }
      generic.segmentSizes = { sizes: counts, span: sizes.span };
    }
  }
  const base = { name: op?.name ?? stmt.name, nameSpan: stmt.nameSpan, span: stmt.span, results: stmt.results, regions: [] };
  const ssa = { form: 'ssa' as const, operands, segments: { operands: operands.map((_, i) => i) }, attrs: generic.attrs, resultTypes };
  if (!op) return { ...base, ...ssa };
  if (op.insKeywords) {
    // The old op declared its operands in another order than today's, which the generic form would follow.
    diags.report(D.genericForm, stmt.nameSpan, `the generic form of ${stmt.name}, an old name of ${op.name}, is not supported: write ${op.name}`);
    return undefined;
  }
  if (op.fromGeneric) {
    const rewrite = op.fromGeneric(generic);
    if ('error' in rewrite) {
      // Dropped, as a statement with a syntax error is: its other forms would only report more of the same.
      diags.report(D.genericForm, rewrite.span, rewrite.error);
      return undefined;
    }
    return { ...base, ...rewrite.fields };
  }
  if (op.syntax !== undefined) {
    const plain = PLAIN_OPERANDS[op.syntax];
    const rewrite = plain ? plainOperands(op.name, plain, generic) : undefined;
    if (rewrite && 'fields' in rewrite) return { ...base, ...rewrite.fields };
    // Dropped too: the op's verifier expects its own form's operands and attributes.
    diags.report(
      D.genericForm,
      rewrite?.span ?? stmt.nameSpan,
      rewrite?.error ?? `the generic form of ${op.name} is not supported yet: write it in its own form`,
    );
    return undefined;
  }
  return { ...base, ...ssa };
}

/**
 * The custom syntaxes whose operands are the generic form's and nothing else: each names the operand segments its
 * parse action fills, in the order the op declares its operands (PTOAS's ODS arguments, which the generic form
 * follows), with how many operands each takes (`*`: all the rest), and where its own form writes them in another
 * order, that order (store_scalar's value comes last in the generic form, first in its own). An op spelled with one
 * of them reads its generic form into the AST its own form gives (its attributes as written, its result types from
 * the signature), so it verifies, runs and prints alike. A syntax that reads more than operands (a predicate, a
 * constant, regions, offsets and sizes) or whose op takes `operandSegmentSizes` (memref.alloc) is not here: its
 * generic form is not supported yet.
 */
const PLAIN_OPERANDS: Record<string, { operands: string[]; ownOrder?: string[] }> = {
  AddPtrBody: { operands: ['ptr', 'offset'] },
  LoadScalarBody: { operands: ['ptr', 'offset'] },
  StoreScalarBody: { operands: ['ptr', 'offset', 'value'], ownOrder: ['value', 'ptr', 'offset'] },
  TensorViewDimBody: { operands: ['view', 'dim'] },
  ArithBody: { operands: ['operands*'] },
  ArithCastBody: { operands: ['operands'] },
  ArithSelectBody: { operands: ['operands:3'] },
  FirstOperandTypedBody: { operands: ['operands*'] },
  ReturnBody: { operands: ['values*'] },
  ScfYieldBody: { operands: ['values*'] },
};

/** `name` (one operand), `name:N` (N operands) or `name*` (all the rest). */
function segmentSize(spec: string): [segment: string, count: number | '*'] {
  if (spec.endsWith('*')) return [spec.slice(0, -1), '*'];
  const [segment, count] = spec.split(':');
  return [segment, count === undefined ? 1 : Number(count)];
}

function plainOperands(name: string, { operands, ownOrder }: (typeof PLAIN_OPERANDS)[string], g: GenericOp): GenericRewrite {
  const layout = operands.map(segmentSize);
  if (g.segmentSizes) return { error: `${name} has no optional operands: operandSegmentSizes does not apply`, span: g.segmentSizes.span };
  const fixed = layout.reduce((n, [, count]) => n + (count === '*' ? 0 : count), 0);
  const variadic = layout.some(([, count]) => count === '*');
  if (variadic ? g.operands.length < fixed : g.operands.length !== fixed) {
    const names = layout.map(([segment, count]) => (count === '*' ? `${segment}...` : segment)).join(', ');
    return { error: `${name} takes ${variadic ? 'at least ' : ''}${fixed} operand(s) (${names}), got ${g.operands.length}`, span: g.span };
  }
  // Each segment's operands as the generic form gives them, then laid out in the own form's order.
  const groups = new Map<string, Operand[]>();
  let next = 0;
  for (const [segment, count] of layout) {
    const n = count === '*' ? g.operands.length - fixed : count;
    groups.set(segment, g.operands.slice(next, next + n));
    next += n;
  }
  const own: Operand[] = [];
  const segments: Record<string, number[]> = {};
  for (const segment of ownOrder ?? [...groups.keys()]) {
    const group = groups.get(segment)!;
    segments[segment] = group.map((_, k) => own.length + k);
    own.push(...group);
  }
  return { fields: { form: 'custom', operands: own, segments, attrs: g.attrs, resultTypes: g.resultTypes } };
}
