import { DIAGNOSTICS as D } from '../diag/catalog';
import { DiagnosticBag } from '../diag/diagnostic';
import { Span } from '../diag/source';
import { AttrEntry, OpNode, Operand, ResultDef, TypeRef, ValueRef } from './ast';
import { GenericOp, OpSyntax } from './op-syntax';

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
    // Dropped too: the op's verifier expects its own form's operands and attributes.
    diags.report(D.genericForm, stmt.nameSpan, `the generic form of ${op.name} is not supported yet: write it in its own form`);
    return undefined;
  }
  return { ...base, ...ssa };
}
