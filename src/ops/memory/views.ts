import { DIAGNOSTICS as D } from '../../diag/catalog';
import { OpDefinition } from '../../ir/definition';
import { PartitionView, TensorView } from '../../machine/memory';
import { vmTrap } from '../../machine/trap';
import { box, pointerOperand } from './global-memory';
import { Type, printType } from '../../types/type';

/** Views of global memory: a tensor view over a pointer, a partition of it, and its dimensions. */

export const makeTensorView: OpDefinition = {
  name: 'pto.make_tensor_view',
  syntax: 'MakeTensorViewBody',
  execute(x, op) {
    const { buffer, offset } = pointerOperand(x, op, 0);
    const { segments, operands } = op.node;
    const shape = segments.shape.map((i) => x.index(op, i));
    const strides = segments.strides.map((i) => x.index(op, i));
    shape.forEach((d, i) => {
      if (d < 0) throw vmTrap(`shape[${i}] is negative (${d})`, operands[segments.shape[i]].span);
    });
    x.setResults(op, [{ kind: 'tensor_view', buffer, shape, strides, offset } satisfies TensorView]);
  },
  verify(v) {
    const { op } = v;
    let declared = v.declared;
    const ptr = v.operands[0];
    let result = declared[0];
    if (ptr && ptr.kind !== 'ptr') v.error(op.operands[0].span, `pto.make_tensor_view needs a !pto.ptr source, got ${printType(ptr)}`);
    if (result && result.kind !== 'tensor_view') v.error(op.resultTypes[0].span, `pto.make_tensor_view produces a !pto.tensor_view, not ${printType(result)}`);
    const entries = op.segments.shape.length;
    if (result?.kind === 'tensor_view' && result.shape.length === 1 && entries > 1 && result.shape[0] === entries && op.segments.strides.length === entries) {
      // Older PTOAS wrote a view's rank where its shape goes: `shape = [%m, %n] ... : !pto.tensor_view<2xf32>`.
      const canonical = printType({ kind: 'tensor_view', shape: new Array(entries).fill(null), elem: result.elem });
      const old = op.resultTypes[0].text;
      v.warning(op.resultTypes[0].span, `'${old}' gives the view's rank (the old spelling); write its shape: '${canonical}'`, D.oldSpelling);
      declared = [v.respellResult(0, canonical)];
      result = declared[0];
    }
    if (result?.kind === 'tensor_view') {
      const rank = result.shape.length;
      for (const seg of ['shape', 'strides']) {
        if (op.segments[seg].length !== rank) v.error(op.span, `${seg} has ${op.segments[seg].length} entries, but the view has rank ${rank}`);
      }
      if (ptr?.kind === 'ptr' && ptr.elem !== result.elem)
        v.error(op.resultTypes[0].span, `view element type ${result.elem} differs from the pointer's ${ptr.elem}`);
    }
    v.expectIndexOperands(['shape', 'strides']);
    v.expectResults(1);
    v.define(declared);
  },
};

export const partitionView: OpDefinition = {
  name: 'pto.partition_view',
  syntax: 'PartitionViewBody',
  spellings: [{ name: 'pto.subview', deprecated: true, reused: true }],
  execute(x, op) {
    const part = box(x, op, x.operand(op, 0) as TensorView, 'partition', "the view's extent");
    const declared = op.resultTypes[0];
    if (declared?.kind === 'partition_view') {
      declared.shape.forEach((d, i) => {
        if (d !== null && d !== part.shape[i])
          throw vmTrap(`sizes[${i}] is ${part.shape[i]}, but the result type says ${d}`, op.node.operands[op.node.segments.sizes[i]].span);
      });
    }
    x.setResults(op, [part]);
  },
  verify(v) {
    const { op } = v;
    const declared = v.declared;
    const source = v.operands[0];
    // Without a written result type, PTOAS infers it: each constant size is static, any other one dynamic.
    const inferred: Type | undefined =
      op.resultTypes.length === 0 && source?.kind === 'tensor_view'
        ? {
            kind: 'partition_view',
            shape: op.segments.sizes.map((i) => {
              const literal = op.operands[i].literal;
              const known = literal !== undefined ? BigInt(literal) : v.constant(i);
              return known !== undefined && known >= 0n ? Number(known) : null;
            }),
            elem: source.elem,
          }
        : undefined;
    const result = declared[0] ?? inferred;
    if (!result) {
      if (op.resultTypes.length === 0) v.error(op.span, 'pto.partition_view needs a !pto.tensor_view source to infer its result type from');
    } else if (result.kind !== 'partition_view') {
      v.error(op.resultTypes[0].span, `pto.partition_view produces a !pto.partition_tensor_view, not ${printType(result)}`);
    }
    if (source && source.kind !== 'tensor_view') v.error(op.operands[0].span, `pto.partition_view needs a !pto.tensor_view source, got ${printType(source)}`);
    if (source?.kind === 'tensor_view') {
      for (const seg of ['offsets', 'sizes']) {
        if (op.segments[seg].length !== source.shape.length)
          v.error(op.span, `${seg} has ${op.segments[seg].length} entries, but the source view has rank ${source.shape.length}`);
      }
      if (result?.kind === 'partition_view' && result.elem !== source.elem)
        v.error(op.resultTypes[0].span, `partition element type ${result.elem} differs from the source's ${source.elem}`);
    }
    v.expectIndexOperands(['offsets', 'sizes']);
    v.expectResults(1);
    v.define([result]);
  },
};

/** `pto.get_tensor_view_dim %v, %d : T -> index` and `get_tensor_view_stride`: a dimension's extent or stride. */
function tensorViewQuery(name: string, what: 'shape' | 'strides'): OpDefinition {
  return {
    name,
    syntax: 'TensorViewDimBody',
    execute(x, op) {
      const view = x.operand(op, 0) as TensorView | PartitionView;
      const dim = x.index(op, 1);
      if (dim < 0 || dim >= view.shape.length)
        throw vmTrap(`dimension ${dim} is out of range: the view has rank ${view.shape.length}`, op.node.operands[1].span);
      x.setResults(op, [BigInt(view[what][dim])]);
    },
    verify(v) {
      const { op } = v;
      const declared = v.declared;
      const [view, dim] = v.operands;
      if (view && !(view.kind === 'tensor_view' || view.kind === 'partition_view')) {
        v.error(op.operands[0].span, `${name} needs a !pto.tensor_view or !pto.partition_tensor_view, got ${printType(view)}`);
      }
      if (dim && !(dim.kind === 'scalar' && dim.elem === 'index')) v.error(op.operands[1].span, `the dimension must be an index, got ${printType(dim)}`);
      const known = v.constant(1);
      if (known !== undefined && (view?.kind === 'tensor_view' || view?.kind === 'partition_view') && (known < 0n || known >= BigInt(view.shape.length))) {
        v.error(op.operands[1].span, `dimension ${known} is out of range: the view has rank ${view.shape.length}`);
      }
      if (declared[0] && !(declared[0].kind === 'scalar' && declared[0].elem === 'index'))
        v.error(op.resultTypes[0].span, `${name} gives an index, not ${printType(declared[0])}`);
      v.expectResults(1);
      v.define(declared);
    },
  };
}

export const VIEW_DEFINITIONS: OpDefinition[] = [
  makeTensorView,
  partitionView,
  tensorViewQuery('pto.get_tensor_view_dim', 'shape'),
  tensorViewQuery('pto.get_tensor_view_stride', 'strides'),
];
