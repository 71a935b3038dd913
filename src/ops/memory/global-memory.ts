import { DIAGNOSTICS as D } from '../../diag/catalog';
import { BoundOp } from '../../ir/bound';
import { Executor } from '../../ir/definition';
import { GlobalBuffer, PartitionView, TensorView } from '../../machine/memory';
import { vmTrap } from '../../machine/trap';

/** Run-time helpers of the ops that address global memory (views, pointers, the memref form). */

/** A pointer operand: an argument (its buffer from element 0) or a `pto.addptr` result. */
export function pointerOperand(x: Executor, op: BoundOp, i: number): { buffer: GlobalBuffer; offset: number } {
  const v = x.operand(op, i);
  if (v instanceof GlobalBuffer) return { buffer: v, offset: 0 };
  if (typeof v === 'object' && 'kind' in v && v.kind === 'pointer') return v;
  throw vmTrap(`${op.def.name} needs a pointer`, op.node.operands[i].span);
}

/**
 * The box `offsets`/`sizes` of `op` cut from a view (or global memref). A negative offset or size is a trap; a box
 * that reaches past the view's extent is what the hardware lets pass (a view is addressing, not a bound), so it is a
 * warning and the box's accesses are checked against the buffer when they happen.
 */
export function box(x: Executor, op: BoundOp, source: TensorView | PartitionView, what: string, extent: string): PartitionView {
  const { segments, operands } = op.node;
  const offsets = segments.offsets.map((i) => x.index(op, i));
  const sizes = segments.sizes.map((i) => x.index(op, i));
  let offset = source.offset;
  for (let d = 0; d < source.shape.length; d++) {
    const message = `${what} [${offsets[d]}, ${offsets[d] + sizes[d]}) of dim ${d} is outside ${extent} ${source.shape[d]}`;
    const span = operands[segments.offsets[d]].span;
    if (offsets[d] < 0 || sizes[d] < 0) throw vmTrap(message, span);
    if (offsets[d] + sizes[d] > source.shape[d]) x.warn(op, `${message} (the run goes on over the bytes that follow)`, D.partitionOutsideView, span);
    offset += offsets[d] * source.strides[d];
  }
  return { kind: 'partition_view', buffer: source.buffer, shape: sizes, strides: source.strides, offset };
}
