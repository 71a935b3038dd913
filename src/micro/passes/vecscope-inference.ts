import { DIAGNOSTICS as D } from '../../diag/catalog';
import { Block, OpNode } from '../../syntax/ast';
import { Type, printType } from '../../types/type';
import type { PassCheck } from './index';
import { SsaGraph, SsaValue, ancestorIn, ssaGraph } from './ssa-graph';
import { OpDefinition } from '../../ir/definition';
import { definitionOf } from './definitions';

/**
 * PTOAS's `pto-infer-vpto-vecscope`: vector ops written outside any `pto.vecscope` are gathered, per block, into runs
 * between boundaries (barriers, calls, block-index queries, ops with memory effects, explicit vector scopes, structured
 * control flow that holds a boundary), and each run is wrapped in a resultless `pto.vecscope`. A vector register,
 * mask or align value cannot leave its scope, so one made in a run and used past a boundary (in a later run, in a
 * boundary op's regions, or by a terminator) must be made again where it is used: the pass clones its producer when
 * that reads no memory (a `pset`, a `vdup` of such operands), and rejects the program otherwise (a `vlds`).
 *
 * The effects of an op are approximated from its operands: an op that takes a pointer reads or writes memory, one
 * without results is kept for its effects; `pto.init_align` (which PTOAS gives unknown effects) is taken as clonable,
 * so the check may accept what ptoas rejects, never the reverse. The passes that run before it (CSE merging equal
 * masks, wrapper expansion) are not modelled.
 */

type OpClass = 'vector' | 'scalar' | 'boundary';

/** Ops of other dialects with memory effects. */
const MEMORY = /^(memref\.(load|store|copy)|llvm\.(load|store))$/;

const isScopeType = (t: Type | undefined) => t?.kind === 'vreg' || t?.kind === 'mask' || t?.kind === 'align';

export const vecscopeInference: PassCheck = (c) => {
  for (const fn of c.program.functions.values()) {
    if (fn.regions.length === 0) continue;
    const g = ssaGraph(fn);
    if (g.multiBlock) continue;
    const types = c.program.valueTypes.get(fn);
    const typeOf = (v: SsaValue | undefined) => (v ? types?.get(v.name) : undefined);
    const inference = new Inference(g, typeOf, (op) => definitionOf(c.program, op));
    for (const r of fn.regions)
      for (const b of r.blocks) {
        const escape = inference.block(b);
        if (escape) {
          c.diags.report(
            D.vecscopeEscape,
            escape.producer.nameSpan,
            `${escape.producer.name} is outside any pto.vecscope, so ptoas wraps it in one, but its ${printType(escape.type)} is used past a boundary of that scope, where an op that reads memory cannot be repeated: put the producer and its users in one pto.vecscope`,
            [{ message: 'used here, outside the scope', span: escape.user.span }],
          );
          break;
        }
      }
  }
};

interface Escape {
  producer: OpNode;
  type: Type;
  user: OpNode;
}

class Inference {
  private classes = new Map<OpNode, OpClass>();

  constructor(
    private g: SsaGraph,
    private typeOf: (v: SsaValue | undefined) => Type | undefined,
    private definitionOf: (op: OpNode) => OpDefinition | undefined,
  ) {}

  /** How the pass takes the op where its types do not tell (its definition says: vecscopeInference). */
  private role(op: OpNode): 'boundary' | 'explicit-scope' | 'needs-scope' | undefined {
    return this.definitionOf(op)?.properties?.vecscopeInference;
  }

  /** Ends a run: a terminator, a call, a block query or an op the pass names a boundary. */
  private boundary(op: OpNode): boolean {
    const def = this.definitionOf(op);
    const query = def?.properties?.coreQuery;
    return (
      def?.terminator !== undefined ||
      def?.properties?.callsFunction === true ||
      query === 'block' ||
      query === 'blocks' ||
      def?.properties?.vecscopeInference === 'boundary'
    );
  }

  /** The first vector value of `block` (or of the blocks nested in its boundary ops) that escapes its inferred scope. */
  block(block: Block): Escape | undefined {
    // Runs: maximal sequences of non-boundary ops.
    const run = new Map<OpNode, number>();
    let current = 0;
    for (const op of block.ops) {
      if (this.classify(op) === 'boundary') current++;
      else run.set(op, current);
    }
    for (const op of block.ops) {
      if (this.classify(op) !== 'vector') continue;
      for (const value of this.g.results.get(op) ?? []) {
        const type = this.typeOf(value);
        if (!isScopeType(type)) continue;
        for (const use of value.uses) {
          const at = ancestorIn(this.g, use.op, block);
          const userRun = at ? run.get(at) : undefined;
          if (userRun === run.get(op)) continue;
          // Used in another run: the pass clones a producer that reads no memory into it; used by a boundary op
          // (a terminator, an explicit scope, control flow with a boundary), no clone can be placed.
          if (userRun !== undefined && this.clonable(value)) continue;
          return { producer: op, type: type!, user: use.op };
        }
      }
    }
    for (const op of block.ops) {
      if (this.role(op) === 'explicit-scope' || this.classify(op) === 'vector') continue;
      for (const r of op.regions)
        for (const b of r.blocks) {
          const escape = this.block(b);
          if (escape) return escape;
        }
    }
    return undefined;
  }

  /** Whether the pass can make `value` again where it is used: its producer and theirs read no memory. */
  private clonable(value: SsaValue): boolean {
    const op = value.op;
    if (!op || op.regions.length > 0 || !this.pure(op)) return false;
    return (this.g.operands.get(op) ?? []).every((v) => !isScopeType(this.typeOf(v)) || (v !== undefined && this.clonable(v)));
  }

  /** No memory effects (approximated): no pointer operand, and a result to be kept for. */
  private pure(op: OpNode): boolean {
    if (this.boundary(op) || this.role(op) === 'needs-scope' || MEMORY.test(op.name)) return false;
    if (op.results.length === 0) return false;
    return !(this.g.operands.get(op) ?? []).some((v) => this.typeOf(v)?.kind === 'ptr');
  }

  classify(op: OpNode): OpClass {
    let k = this.classes.get(op);
    if (k === undefined) this.classes.set(op, (k = this.compute(op)));
    return k;
  }

  private compute(op: OpNode): OpClass {
    if (this.role(op) === 'explicit-scope' || this.boundary(op)) return 'boundary';
    const values = [...(this.g.operands.get(op) ?? []), ...(this.g.results.get(op) ?? [])];
    if (op.name.startsWith('pto.') && (this.role(op) === 'needs-scope' || values.some((v) => isScopeType(this.typeOf(v))))) return 'vector';
    if (op.regions.length > 0) {
      // Structured control flow is one unit when it holds vector ops and no boundary.
      if (!this.definitionOf(op)?.properties?.controlFlow) return 'boundary';
      const nested = op.regions.flatMap((r) => r.blocks.flatMap((b) => b.ops.filter((o) => this.definitionOf(o)?.terminator === undefined)));
      const classes = nested.map((o) => this.classify(o));
      return classes.includes('vector') && !classes.includes('boundary') ? 'vector' : 'boundary';
    }
    if (MEMORY.test(op.name)) return 'boundary';
    if (op.name.startsWith('pto.')) {
      // A pto op kept for its effects (no results: sync, DMA, scalar store), or one reading memory (a scalar load).
      if (op.results.length === 0) return 'boundary';
      const results = this.g.results.get(op) ?? [];
      if (values.some((v) => this.typeOf(v)?.kind === 'ptr') && !results.every((v) => this.typeOf(v)?.kind === 'ptr')) return 'boundary';
    }
    return 'scalar';
  }
}
