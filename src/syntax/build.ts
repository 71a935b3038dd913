import { Span } from '../diag/source';
import { OpNode, Operand, TypeRef } from './ast';

/**
 * Builders of AST nodes for code that writes IR instead of parsing it (level conversion, lowering): the
 * nodes come out exactly as the parser would fill them, so the verifier treats both alike.
 */

export function typeRef(text: string, span: Span): TypeRef {
  return { text, span };
}

export function valueOperand(name: string, type: TypeRef | undefined, span: Span): Operand {
  return { value: { name, span }, type, span };
}

/** An op with fields filled in the way the parser fills them. */
export function newOp(name: string, form: OpNode['form'], span: Span, fields: Partial<OpNode> = {}): OpNode {
  return { name, nameSpan: span, span, form, results: [], operands: [], segments: {}, attrs: [], resultTypes: [], regions: [], ...fields };
}

/** Operands grouped as named segments, in order. */
export function withSegments(groups: [string, Operand[]][]): { operands: Operand[]; segments: Record<string, number[]> } {
  const operands: Operand[] = [];
  const segments: Record<string, number[]> = {};
  for (const [name, list] of groups) {
    segments[name] = list.map((_, i) => operands.length + i);
    operands.push(...list);
  }
  return { operands, segments };
}
