import { DIAGNOSTICS as D, DiagnosticKind } from '../../diag/catalog';
import { Span } from '../../diag/source';
import { OpNode } from '../../syntax/ast';
import { BoundOp } from '../../ir/bound';
import type { PassCheck } from './index';
import { boundOps } from './definitions';
import { SsaGraph, SsaValue, dominates, enclosing, ssaGraph } from './ssa-graph';

/**
 * PTOAS's `pto-analyze-simt-persistent-fragment` (and `pto-materialize-simt-persistent-fragment`, which consumes its
 * analysis): a `llvm.alloca ... {pto.persistent}` in a kernel is not stack memory but a set of per-lane registers that
 * SIMT sections keep and resume (`pto.keep` / `pto.resume`). Each element becomes a slot, so every access must name
 * its element at compile time, stand directly in a `pto.section.simt` body, and read only elements that one init
 * section (the accessing section that dominates all others) stores first; sections after it carry the slots and
 * must have its lane topology; a kernel has 123 slots (a 64-bit element takes an aligned pair).
 *
 * ptoas runs SCCP, the canonicalizer and CSE before the analysis: constants are folded through casts and arithmetic
 * here, and loads, address computations and allocas whose values nothing uses are dropped as they would be. Scalar
 * code that is not known constant nor known run-time (a loop variable of a `pto.unroll` loop) stops the check
 * without a report: the unrolling is not modelled.
 */

const SLOT_LIMIT = 123;
const ENTRY_ATTRS = ['pto.entry', 'hacc.entry', 'pto.kernel', 'pto.aicore'];

/** Ops the canonicalizer erases when their results are unused (no effects, or reads only). */
const DROPPABLE = /^(arith\.|llvm\.(getelementptr|load|extractelement|ptrtoint|inttoptr|alloca)$)/;

/** A fragment problem: where, which kind, what. */
class Rejected {
  constructor(
    readonly kind: DiagnosticKind,
    readonly span: Span,
    readonly message: string,
  ) {}
}
/** The input is outside what is modelled: no report. */
class Unmodelled {}

const reject = (kind: DiagnosticKind, span: Span, message: string): never => {
  throw new Rejected(kind, span, message);
};

export const simtPersistentFragment: PassCheck = (c) => {
  for (const fn of c.program.functions.values()) {
    if (fn.regions.length === 0) continue;
    try {
      checkFunction(fn, boundOps(c.program));
    } catch (e) {
      if (e instanceof Rejected) c.diags.report(e.kind, e.span, e.message);
      else if (!(e instanceof Unmodelled)) throw e;
    }
  }
};

/** The program's ops as verification bound them: what an op is, its definition says. */
type Bound = ReadonlyMap<OpNode, BoundOp>;

const isSimtSection = (b: Bound, op: OpNode) => b.get(op)?.def.properties?.simtSection === true;

/** The scalar types a fragment holds, with their byte size (MLIR's data layout: a power of two of whole bytes). */
function scalarBytes(t: string): number | undefined {
  if (t === 'f16' || t === 'bf16') return 2;
  if (t === 'f32') return 4;
  const m = /^i(\d+)$/.exec(t);
  if (m && Number(m[1]) >= 1 && Number(m[1]) <= 64) return 2 ** Math.ceil(Math.log2(Math.ceil(Number(m[1]) / 8)));
  return undefined;
}

const lanesOf = (t: string) => /^vector<\s*(.*?)\s*>$/.exec(t);

interface Access {
  op: OpNode;
  section: OpNode;
  store: boolean;
  /** The element offset of each lane. */
  elements: number[];
}

function checkFunction(fn: OpNode, b: Bound): void {
  const g = ssaGraph(fn);
  const allocas = g.ops.filter((op) => op.name === 'llvm.alloca' && op.attrs.some((a) => a.key === 'pto.persistent') && live(g, op));
  if (allocas.length === 0) return;
  if (g.multiBlock) throw new Unmodelled();
  if (!fn.attrs.some((a) => ENTRY_ATTRS.includes(a.key) && a.value.kind === 'unit'))
    reject(D.simtFragmentDefinition, allocas[0].nameSpan, `a persistent SIMT fragment belongs to a kernel entry (pto.entry); @${fn.symbol} is not one`);
  const sections = g.ops.filter((op) => isSimtSection(b, op));
  const plans = allocas.map((a) => analyzeFragment(g, b, fn, a, sections));
  allocateSlots(fn, plans);
}

interface FragmentPlan {
  alloca: OpNode;
  elem: string;
  resident: number[];
}

function analyzeFragment(g: SsaGraph, b: Bound, fn: OpNode, alloca: OpNode, sections: OpNode[]): FragmentPlan {
  const attr = alloca.attrs.find((a) => a.key === 'pto.persistent')!;
  if (attr.value.kind !== 'unit') reject(D.simtFragmentDefinition, attr.span, "'pto.persistent' is a unit attribute: write it without a value");
  if (enclosing(g, alloca, (p) => isSimtSection(b, p)))
    reject(D.simtFragmentDefinition, alloca.nameSpan, 'a persistent SIMT fragment is defined before the pto.section.simt regions that use it, not inside one');
  if (fn.attrs.some((a) => a.key === 'pto.simt_entry'))
    reject(D.simtFragmentDefinition, alloca.nameSpan, 'a persistent SIMT fragment cannot be defined in an outlined SIMT function');
  const elemClause = alloca.micro?.clauses[1];
  const elem = elemClause?.keyword ?? '';
  const elemBytes = scalarBytes(elem);
  if (elemBytes === undefined)
    reject(
      D.simtFragmentDefinition,
      elemClause?.span ?? alloca.nameSpan,
      `a persistent SIMT fragment holds integers of up to 64 bits, f16, bf16 or f32, not ${elem}`,
    );
  const count = constant(g, b, g.operands.get(alloca)![0]);
  if (typeof count !== 'bigint') {
    if (count === 'dynamic')
      reject(D.simtFragmentDefinition, alloca.operands[0].span, 'the element count of a persistent SIMT fragment must be a compile-time constant');
    throw new Unmodelled();
  }
  if (count <= 0n) reject(D.simtFragmentDefinition, alloca.operands[0].span, `a persistent SIMT fragment needs a positive element count, not ${count}`);
  const total = Number(count) * elemBytes!;

  // The pointer's uses, through getelementptr, to the loads and stores; each offset known at compile time.
  const accesses: Access[] = [];
  const walk = (pointer: SsaValue, byteOffset: number): void => {
    for (const use of pointer.uses) {
      const user = use.op;
      if (!live(g, user)) continue;
      if (user.name === 'llvm.getelementptr') {
        if (use.operand !== 0)
          reject(
            D.simtFragmentAccess,
            user.operands[use.operand].span,
            'a persistent SIMT fragment pointer may be the base of llvm.getelementptr only, not its index',
          );
        walk(g.results.get(user)![0], byteOffset + gepBytes(g, b, user));
      } else if (user.name === 'llvm.load') {
        accesses.push(access(g, b, user, user.resultTypes[0]?.text ?? '', byteOffset, elem, elemBytes!, total, false));
      } else if (user.name === 'llvm.store') {
        if (use.operand === 0)
          reject(
            D.simtFragmentAccess,
            user.operands[0].span,
            'a persistent SIMT fragment pointer cannot be stored as a value: the fragment lives in registers, not memory',
          );
        accesses.push(access(g, b, user, user.micro?.types[0]?.type.text ?? '', byteOffset, elem, elemBytes!, total, true));
      } else {
        reject(
          D.simtFragmentAccess,
          user.operands[use.operand].span,
          `${user.name} cannot use a persistent SIMT fragment pointer: only llvm.getelementptr, llvm.load and llvm.store can (the fragment is registers, it has no address)`,
        );
      }
    }
  };
  walk(g.results.get(alloca)![0], 0);
  if (accesses.length === 0)
    reject(D.simtFragmentDefinition, alloca.nameSpan, 'a persistent SIMT fragment needs at least one llvm.load or llvm.store inside a pto.section.simt');

  // The init section: the one accessing section that dominates every other.
  const accessed = sections.filter((s) => accesses.some((a) => a.section === s));
  const inits = accessed.filter((s) => accessed.every((o) => o === s || dominates(g, s, o)));
  if (inits.length !== 1)
    reject(
      D.simtFragmentDefinition,
      alloca.nameSpan,
      'a persistent SIMT fragment needs one init section: a pto.section.simt that accesses it and comes before every other section that does, on every path',
    );
  const init = inits[0];

  // Its resident elements: those the init section stores before it loads them.
  const resident = new Set<number>();
  for (const a of accesses.filter((x) => x.section === init).sort((x, y) => placeOf(g, x.op) - placeOf(g, y.op)))
    for (const e of a.elements) {
      if (resident.has(e)) continue;
      if (!a.store)
        reject(
          D.simtFragmentResidency,
          a.op.nameSpan,
          `element ${e} of the persistent SIMT fragment is loaded in its init section before a store gives it a value`,
        );
      resident.add(e);
    }
  for (const a of accesses)
    for (const e of a.elements)
      if (!resident.has(e))
        reject(
          D.simtFragmentResidency,
          a.op.nameSpan,
          `element ${e} of the persistent SIMT fragment is not stored by its init section, so no slot carries it to this access`,
        );

  // Every section after the init section carries the slots: it must run the same lanes.
  const dims = (s: OpNode) =>
    ['dimX', 'dimY', 'dimZ'].map((k) => s.attrs.find((a) => a.key === k)?.value).map((v) => (v?.kind === 'int' ? v.value : undefined));
  const initDims = dims(init);
  for (const s of sections) {
    if (s === init || !dominates(g, init, s)) continue;
    const d = dims(s);
    if (d.some((x, i) => x !== initDims[i]))
      reject(
        D.simtFragmentResidency,
        s.nameSpan,
        `this pto.section.simt runs (${d.join(', ')}) lanes but carries a persistent fragment whose init section runs (${initDims.join(', ')}): each lane keeps its own slots, so the launch dimensions must match`,
      );
  }
  return { alloca, elem, resident: [...resident].sort((a, b) => a - b) };
}

/** One load or store of the fragment at `byteOffset`: where it stands and the elements its lanes touch. */
function access(g: SsaGraph, b: Bound, op: OpNode, type: string, byteOffset: number, elem: string, elemBytes: number, total: number, store: boolean): Access {
  const section = enclosing(g, op, (p) => isSimtSection(b, p));
  if (!section)
    reject(D.simtFragmentAccess, op.nameSpan, 'a persistent SIMT fragment is accessed inside pto.section.simt only: outside, no lane owns its slots');
  if (section!.regions[0]?.blocks.length !== 1 || g.places.get(op)!.parent !== section) {
    // ptoas unrolls `pto.unroll` loops before the analysis; an access in one is not judged here.
    if (enclosing(g, op, (p) => b.get(p)?.def.properties?.controlFlow === 'counted-loop')) throw new Unmodelled();
    reject(
      D.simtFragmentAccess,
      op.nameSpan,
      'a persistent SIMT fragment access must stand directly in the body of its pto.section.simt, not in a nested region',
    );
  }
  let lanes = 1;
  let scalar = type;
  const vector = lanesOf(type);
  if (vector) {
    const m = /^(\d+)\s*x\s*(\w+)$/.exec(vector[1]);
    if (!m) reject(D.simtFragmentOffset, op.nameSpan, `a persistent SIMT fragment access by vector must be of one fixed dimension, not ${type}`);
    lanes = Number(m![1]);
    scalar = m![2];
    if (lanes !== 2 && lanes !== 4)
      reject(D.simtFragmentOffset, op.nameSpan, `a persistent SIMT fragment is accessed by scalars or by vectors of 2 or 4 lanes, not ${lanes}`);
  }
  if (scalarBytes(scalar) === undefined)
    reject(D.simtFragmentOffset, op.nameSpan, `a persistent SIMT fragment holds integers of up to 64 bits, f16, bf16 or f32, not ${scalar}`);
  if (scalar !== elem) reject(D.simtFragmentOffset, op.nameSpan, `this access is of ${scalar}, but the persistent SIMT fragment holds ${elem}`);
  if (byteOffset < 0 || byteOffset % elemBytes !== 0)
    reject(
      D.simtFragmentOffset,
      op.nameSpan,
      `byte ${byteOffset} of a persistent SIMT fragment of ${elem} is not the start of an element (${elemBytes} bytes each)`,
    );
  if (byteOffset + lanes * elemBytes > total)
    reject(
      D.simtFragmentOffset,
      op.nameSpan,
      lanes === 1
        ? `byte ${byteOffset} is past the end of the persistent SIMT fragment (${total} bytes)`
        : `${lanes} lanes from byte ${byteOffset} reach past the end of the persistent SIMT fragment (${total} bytes)`,
    );
  const first = byteOffset / elemBytes;
  return { op, section: section!, store, elements: Array.from({ length: lanes }, (_, i) => first + i) };
}

/** The bytes a getelementptr of one constant index moves its base by. */
function gepBytes(g: SsaGraph, b: Bound, gep: OpNode): number {
  const index = constant(g, b, g.operands.get(gep)![1], gep.operands[1]?.literal);
  if (index === 'dynamic')
    reject(
      D.simtFragmentAccess,
      gep.operands[1].span,
      'the index of a getelementptr into a persistent SIMT fragment must be a compile-time constant: each element is its own register slot',
    );
  if (index === 'unknown') throw new Unmodelled();
  const bytes = scalarBytes(gep.micro?.types[1]?.type.text ?? '');
  if (bytes === undefined) throw new Unmodelled();
  return Number(index) * bytes;
}

/** Assigns each resident element its slot, in fragment order, as ptoas does; 64-bit elements take an even pair. */
function allocateSlots(fn: OpNode, plans: FragmentPlan[]): void {
  let next = 0;
  for (const p of plans) {
    const width = /^i(\d+)$/.test(p.elem) && Number(p.elem.slice(1)) > 32 ? 2 : 1;
    for (const e of p.resident) {
      const slot = width === 2 && next % 2 !== 0 ? next + 1 : next;
      if (slot > SLOT_LIMIT - width)
        reject(
          D.simtFragmentDefinition,
          p.alloca.nameSpan,
          `the persistent SIMT fragments of @${fn.symbol} need more than the ${SLOT_LIMIT} slots a kernel has: element ${e} (${p.elem}, ${width} slot(s)) would take slot ${slot}`,
        );
      next = slot + width;
    }
  }
}

/** The order of ops in one block. */
const placeOf = (g: SsaGraph, op: OpNode) => g.places.get(op)!.index;

/**
 * Whether the canonicalizer keeps `op`: an op with effects always; a pure one (or a load) only while a kept op uses
 * one of its results.
 */
function live(g: SsaGraph, op: OpNode, seen = new Set<OpNode>()): boolean {
  if (!DROPPABLE.test(op.name) || seen.has(op)) return true;
  seen.add(op);
  return (g.results.get(op) ?? []).some((r) => r.uses.some((u) => live(g, u.op, seen)));
}

/**
 * An integer value as SCCP sees it: a constant (an op's definition folds it from constant operands: a constant,
 * casts, arithmetic), 'dynamic' when it comes from a kernel argument or a load, or from an op that folds but has a
 * dynamic operand, 'unknown' otherwise (a loop variable, a value no definition folds).
 */
function constant(g: SsaGraph, b: Bound, v: SsaValue | undefined, literal?: number): bigint | 'dynamic' | 'unknown' {
  if (literal !== undefined) return BigInt(literal);
  if (!v) return 'unknown';
  if (!v.op) return v.entry ? 'dynamic' : 'unknown';
  const op = v.op;
  if (/^(llvm|pto|memref)\.load$/.test(op.name)) return 'dynamic';
  const args = (g.operands.get(op) ?? []).map((x) => constant(g, b, x));
  if (args.includes('unknown')) return 'unknown';
  const bound = b.get(op);
  if (!bound?.def.fold) return 'unknown';
  if (args.includes('dynamic')) return 'dynamic';
  return bound.def.fold(args as bigint[], bound.resultTypes[0], op) ?? 'unknown';
}
