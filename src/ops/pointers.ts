import { OpDefinition } from '../ir/definition';
import { elemTypeName, printType } from '../types/type';

/** Pointers to global memory and the scalars they address. */


function pointerOp(name: string): OpDefinition {
  return {
    name,
    verify(v) {
      const { op } = v;
      const declared = v.declared;
    const ptrIndex = op.segments.ptr[0];
    const ptr = v.operands[ptrIndex];
    if (ptr && ptr.kind !== 'ptr') v.error(op.operands[ptrIndex].span, `${op.name} needs a !pto.ptr, got ${printType(ptr)}`);
    const offset = v.operands[op.segments.offset[0]];
    if (offset && !(offset.kind === 'scalar' && offset.elem === 'index')) v.error(op.operands[op.segments.offset[0]].span, `the offset must be an index, got ${printType(offset)}`);
    const scalar = op.name === 'pto.addptr' ? undefined : op.name === 'pto.load_scalar' ? declared[0] : v.operands[op.segments.value[0]];
    const where = op.name === 'pto.load_scalar' ? op.resultTypes[0]?.span : op.operands[op.segments.value?.[0] ?? 0].span;
    if (op.name === 'pto.addptr' && ptr && declared[0] && printType(ptr) !== printType(declared[0])) {
      v.error(op.resultTypes[0].span, `pto.addptr gives a pointer of its operand's type ${printType(ptr)}, not ${printType(declared[0])}`);
    }
    if (scalar && ptr?.kind === 'ptr' && !(scalar.kind === 'scalar' && scalar.elem === ptr.elem)) {
      v.error(where ?? op.span, `the value must be the pointer's element type ${elemTypeName(ptr.elem)}, got ${printType(scalar)}`);
    }
    v.expectResults(op.name === 'pto.store_scalar' ? 0 : 1);
    v.define(declared);
    },
  };
}

export const POINTER_DEFINITIONS: OpDefinition[] = ['pto.addptr', 'pto.load_scalar', 'pto.store_scalar'].map(pointerOp);
