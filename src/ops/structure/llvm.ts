import { OpDefinition, OpVerifier } from '../../ir/definition';
import { vmTrap } from '../../machine/trap';
import { Span } from '../../diag/source';
import { printType, scalarFromName, Type } from '../../types/type';

/**
 * The few ops of MLIR's LLVM dialect that PTOAS's micro-level tests write in a kernel (a SIMT thread's private
 * fragment: `llvm.alloca` of `pto.persistent` storage, `llvm.getelementptr`, `llvm.load`, `llvm.store`), in MLIR's
 * assembly forms, read through the micro level's grammar rule (MicroBody) and printed back as written:
 *
 *   %f = llvm.alloca %n x f32 {pto.persistent} : (i32) -> !llvm.ptr
 *   %e = llvm.getelementptr %f[%i] : (!llvm.ptr, i64) -> !llvm.ptr, i8
 *   %v = llvm.load %e : !llvm.ptr -> f32
 *   llvm.store %v, %e : f32, !llvm.ptr
 *   %x = llvm.extractelement %w[%i : i32] : vector<2xf32>         (its own grammar rule, LlvmExtractElementBody)
 *   %q = llvm.inttoptr %a : i64 to !llvm.ptr<6>     (and ptrtoint: arith's cast form, ArithCastBody; llvm.bitcast
 *                                                    of scalars is a spelling of arith.bitcast)
 *
 * Their types are checked as MLIR's verifiers check them; the VM does not run them yet (it says so).
 */

/** `!llvm.ptr`, `!llvm.ptr<6>`: the LLVM dialect's opaque pointer, held as an opaque type. */
function isLlvmPointer(t: Type | undefined): boolean {
  return t?.kind === 'opaque' && /^!llvm\.ptr(<\s*\d+\s*>)?$/.test(t.text);
}

/** `(A, B) -> R` as written (an opaque type's text): its inputs and result, or undefined for another form. */
function functionType(t: Type | undefined): { inputs: string[]; result: string } | undefined {
  const m = t?.kind === 'opaque' ? /^\(([^()]*)\)\s*->\s*(.+)$/.exec(t.text) : null;
  if (!m) return undefined;
  return { inputs: m[1].trim() === '' ? [] : m[1].split(',').map((s) => s.trim()), result: m[2].trim() };
}

const spelled = (t: Type | undefined) => (t ? printType(t) : undefined);

/** The checks every form shares: no keyword groups unless asked, no keyed types, written types as many as asked. */
function shape(v: OpVerifier, clauses: number, types: number, arrow: boolean): boolean {
  const m = v.op.micro!;
  const problem =
    m.clauses.length !== clauses
      ? 'unexpected words'
      : m.types.length !== types || m.types.some((t) => t.keyword)
        ? `expects ${types} type(s) after ':'`
        : m.arrow !== arrow
          ? arrow
            ? "expects '-> type'"
            : "takes no '->' here"
          : undefined;
  if (problem) v.error(v.op.nameSpan, `${v.op.name} ${problem}`);
  return problem === undefined;
}

/** The operand at `index` has the type written for it. */
function written(v: OpVerifier, index: number, text: string | undefined, span: Span): void {
  const got = spelled(v.operands[index]);
  if (got !== undefined && text !== undefined && got !== text) v.error(span, `${v.op.name}: operand ${index + 1} is ${got}, but its type is written ${text}`);
}

const notRun = (name: string): OpDefinition['execute'] => {
  return (_x, op) => {
    throw vmTrap(`${name} is not implemented yet`, op.node.nameSpan);
  };
};

const alloca: OpDefinition = {
  name: 'llvm.alloca',
  syntax: 'MicroBody',
  verify(v) {
    const m = v.op.micro!;
    const [x, elem] = m.clauses;
    const ok = m.items.length === 1 && !('attr' in m.items[0]) && m.clauses.length === 2 && x.keyword === 'x' && x.bare && elem.bare && shape(v, 2, 1, false);
    const signature = ok ? functionType(v.type(m.types[0].type)) : undefined;
    if (!ok || !signature || signature.inputs.length !== 1) {
      v.error(v.op.nameSpan, `${v.op.name} is written '%p = llvm.alloca %count x T : (i32) -> !llvm.ptr'`);
      v.define([undefined]);
      return;
    }
    if (!scalarFromName(elem.keyword)) v.error(elem.span, `llvm.alloca: unsupported element type '${elem.keyword}'`);
    const count = v.operands[0];
    if (count && !(count.kind === 'scalar' && /^i\d+$/.test(count.elem)))
      v.error(v.op.operands[0].span, `llvm.alloca: the count must be a signless integer, got ${spelled(count)}`);
    written(v, 0, signature.inputs[0], m.types[0].type.span);
    const result = v.type({ text: signature.result, span: m.types[0].type.span });
    if (result && !isLlvmPointer(result)) v.error(m.types[0].type.span, `llvm.alloca gives an !llvm.ptr, not ${signature.result}`);
    v.expectResults(1);
    v.define([result]);
  },
  execute: notRun('llvm.alloca'),
};

const getelementptr: OpDefinition = {
  name: 'llvm.getelementptr',
  syntax: 'MicroBody',
  verify(v) {
    const m = v.op.micro!;
    const item = m.items[0];
    const ok = m.items.length === 1 && item && 'offset' in item && shape(v, 0, 2, false);
    const signature = ok ? functionType(v.type(m.types[0].type)) : undefined;
    if (!ok || !signature || signature.inputs.length !== 2) {
      v.error(v.op.nameSpan, `${v.op.name} is written '%q = llvm.getelementptr %p[%i] : (!llvm.ptr, i64) -> !llvm.ptr, T'`);
      v.define([undefined]);
      return;
    }
    const span = m.types[0].type.span;
    written(v, 0, signature.inputs[0], span);
    written(v, 1, signature.inputs[1], span);
    if (!isLlvmPointer(v.operands[0])) v.error(v.op.operands[0].span, `llvm.getelementptr: the base must be an !llvm.ptr, got ${spelled(v.operands[0])}`);
    const index = v.operands[1];
    if (index && !(index.kind === 'scalar' && /^i\d+$/.test(index.elem)))
      v.error(v.op.operands[1].span, `llvm.getelementptr: the index must be a signless integer, got ${spelled(index)}`);
    const result = v.type({ text: signature.result, span });
    if (result && !isLlvmPointer(result)) v.error(span, `llvm.getelementptr gives an !llvm.ptr, not ${signature.result}`);
    const elem = v.type(m.types[1].type);
    if (elem && elem.kind !== 'scalar') v.error(m.types[1].type.span, `llvm.getelementptr: the element type must be a scalar here, got ${spelled(elem)}`);
    v.expectResults(1);
    v.define([result]);
  },
  execute: notRun('llvm.getelementptr'),
};

const load: OpDefinition = {
  name: 'llvm.load',
  syntax: 'MicroBody',
  verify(v) {
    const m = v.op.micro!;
    if (!(m.items.length === 1 && !('attr' in m.items[0]) && !('offset' in m.items[0]) && shape(v, 0, 1, true) && v.declared.length === 1)) {
      v.error(v.op.nameSpan, `${v.op.name} is written '%v = llvm.load %p : !llvm.ptr -> T'`);
      v.define([undefined]);
      return;
    }
    written(v, 0, spelled(v.type(m.types[0].type)), m.types[0].type.span);
    if (!isLlvmPointer(v.operands[0])) v.error(v.op.operands[0].span, `llvm.load: the address must be an !llvm.ptr, got ${spelled(v.operands[0])}`);
    v.expectResults(1);
    v.define(v.declared);
  },
  execute: notRun('llvm.load'),
};

const store: OpDefinition = {
  name: 'llvm.store',
  syntax: 'MicroBody',
  verify(v) {
    const m = v.op.micro!;
    if (!(m.items.length === 2 && m.items.every((i) => !('attr' in i) && !('offset' in i)) && shape(v, 0, 2, false))) {
      v.error(v.op.nameSpan, `${v.op.name} is written 'llvm.store %v, %p : T, !llvm.ptr'`);
      return;
    }
    m.types.forEach((t, i) => written(v, i, spelled(v.type(t.type)), t.type.span));
    if (!isLlvmPointer(v.operands[1])) v.error(v.op.operands[1].span, `llvm.store: the address must be an !llvm.ptr, got ${spelled(v.operands[1])}`);
    v.expectResults(0);
    v.define([]);
  },
  execute: notRun('llvm.store'),
};

/** The lane of a vector (`vector<2xf32>`, an opaque type here) at a run-time position: a scalar of its element type. */
const extractelement: OpDefinition = {
  name: 'llvm.extractelement',
  syntax: 'LlvmExtractElementBody',
  verify(v) {
    const [vector, position] = v.operands;
    const lanes = vector?.kind === 'opaque' ? /^vector<\s*\d+\s*x\s*(\w+)\s*>$/.exec(vector.text) : null;
    const elem = lanes ? scalarFromName(lanes[1]) : undefined;
    if (vector && !elem) v.error(v.op.operands[0].span, `llvm.extractelement takes a vector of scalars, got ${spelled(vector)}`);
    if (position && !(position.kind === 'scalar' && /^i\d+$/.test(position.elem)))
      v.error(v.op.operands[1].span, `llvm.extractelement: the position must be a signless integer, got ${spelled(position)}`);
    v.expectResults(1);
    v.define([elem ? { kind: 'scalar', elem } : undefined]);
  },
  execute: notRun('llvm.extractelement'),
};

const isSignless = (t: Type | undefined) => t?.kind === 'scalar' && /^i\d+$/.test(t.elem);

/** A cast `%x : A to B` whose source and result `problem` judges (what is wrong, else undefined). */
function cast(name: string, problem: (from: Type | undefined, to: Type | undefined) => string | undefined): OpDefinition {
  return {
    name,
    syntax: 'ArithCastBody',
    verify(v) {
      const to = v.declared[0];
      const wrong = problem(v.operands[0], to);
      if (wrong) v.error(v.op.operands[0]?.span ?? v.op.nameSpan, `${name}: ${wrong}`);
      v.expectResults(1);
      v.define([to]);
    },
    execute: notRun(name),
  };
}

const casts = [
  cast('llvm.inttoptr', (from, to) =>
    from && !isSignless(from)
      ? `the source must be a signless integer, got ${spelled(from)}`
      : to && !isLlvmPointer(to)
        ? `the result must be an !llvm.ptr, got ${spelled(to)}`
        : undefined,
  ),
  cast('llvm.ptrtoint', (from, to) =>
    from && !isLlvmPointer(from)
      ? `the source must be an !llvm.ptr, got ${spelled(from)}`
      : to && !isSignless(to)
        ? `the result must be a signless integer, got ${spelled(to)}`
        : undefined,
  ),
];

export const LLVM_DEFINITIONS: OpDefinition[] = [alloca, getelementptr, load, store, extractelement, ...casts];
