import { Instruction } from '../../spec/isa';
import { OperandSpec } from '../../spec/schema';
import { Operand } from '../../syntax/ast';
import { GenericOp, GenericRewrite } from '../../syntax/op-syntax';

/**
 * A table instruction written in MLIR's generic form, read into its Level 2 form: the operands bind to the entry's
 * operands in PTOAS's declaration order (`mlirOperands`), the optional ones as `operandSegmentSizes` says (else
 * the first ones), and go to `ins(...)` (keyword sources after the list) and `outs(...)`.
 */
export function instructionFromGeneric(spec: Instruction, g: GenericOp): GenericRewrite {
  const order = spec.mlirOperands.map((name) => spec.operands.find((o) => o.name === name)!);
  const bound = g.segmentSizes ? bySegmentSizes(spec, order, g) : byCount(spec, order, g);
  if ('error' in bound) return bound;

  // The Level 2 form binds an optional source by position (a tile passed over for a scalar in its place), so a
  // source it cannot place is an error rather than another binding.
  const positional = spec.ins.filter((o) => !o.keyword);
  const missing = positional.findIndex((o) => !bound.has(o.name));
  const later = missing < 0 ? undefined : positional.slice(missing + 1).find((o) => bound.has(o.name));
  if (later && !(positional[missing].kind === 'tile' && later.kind === 'scalar')) {
    return {
      error: `${spec.opName}: ${later.name} without ${positional[missing].name} cannot be written in the op's own form`,
      span: bound.get(later.name)!.span,
    };
  }

  const operands: Operand[] = [];
  const segments: Record<string, number[]> = {};
  const add = (segment: string, list: Operand[]) => {
    segments[segment] = list.map((_, i) => operands.length + i);
    operands.push(...list);
  };
  const present = (list: OperandSpec[]) => list.filter((o) => bound.has(o.name)).map((o) => bound.get(o.name)!);
  add('ins', present(positional));
  const keywords = spec.ins.filter((o) => o.keyword && bound.has(o.name));
  for (const o of keywords) add(o.keyword!, [bound.get(o.name)!]);
  add('outs', present(spec.outs));
  return {
    fields: {
      form: 'dps',
      operands,
      segments,
      attrs: g.attrs,
      resultTypes: g.resultTypes,
      ...(keywords.length > 0 ? { insKeywords: keywords.map((o) => o.keyword!) } : {}),
    },
  };
}

type Bound = Map<string, Operand> | { error: string; span: GenericOp['span'] };

function bySegmentSizes(spec: Instruction, order: OperandSpec[], g: GenericOp): Bound {
  const { sizes, span } = g.segmentSizes!;
  if (sizes.length !== order.length) {
    return {
      error: `${spec.opName}: operandSegmentSizes has ${sizes.length} group(s), but the op declares ${order.length} operand(s) (${order.map((o) => o.name).join(', ')})`,
      span,
    };
  }
  const bound = new Map<string, Operand>();
  let next = 0;
  for (const [i, o] of order.entries()) {
    if (sizes[i] > 1) return { error: `${spec.opName}: operandSegmentSizes gives ${o.name} ${sizes[i]} operands; it takes one`, span };
    if (sizes[i] === 0 && !o.optional) return { error: `${spec.opName}: operandSegmentSizes leaves out ${o.name}, which is required`, span };
    if (sizes[i] === 1) bound.set(o.name, g.operands[next++]);
  }
  return bound;
}

function byCount(spec: Instruction, order: OperandSpec[], g: GenericOp): Bound {
  const required = order.filter((o) => !o.optional).length;
  const n = g.operands.length;
  if (n < required || n > order.length) {
    const counts = required === order.length ? `${required}` : `${required} to ${order.length}`;
    return { error: `${spec.opName} takes ${counts} operand(s) (${order.map((o) => o.name).join(', ')}), got ${n}`, span: g.span };
  }
  const bound = new Map<string, Operand>();
  let spare = n - required;
  let next = 0;
  for (const o of order) {
    if (!o.optional) bound.set(o.name, g.operands[next++]);
    else if (spare > 0) {
      bound.set(o.name, g.operands[next++]);
      spare--;
    }
  }
  return bound;
}
