import { DIAGNOSTICS as D } from '../diag/catalog';
import { DiagnosticBag } from '../diag/diagnostic';
import { BoundFunction, BoundOp } from '../ir/bound';
import { CoreKind } from '../ir/definition';
import { instructionPipe } from '../ops/instructions/pipe';
import { OpNode, attrOf } from '../syntax/ast';
import { Type } from '../types/type';

/**
 * PTOAS compiles a function without a `pto.kernel_kind` (its own or its module's) for the kind of core its ops say:
 * its pto-normalize-uncovered-tile-sections pass (PTONormalizeUncoveredTileSections.cpp) wraps each run of top-level
 * ops of one kind in a `pto.section.cube` or `pto.section.vector`. A run it cannot give a kind is an error: an op
 * that either kind of core could run (a flag on a pipe both have), vector and cube work inside one top-level op, or
 * a top-level op holding both an explicit section and work outside it. This is that rule, on the ops PTOAS counts:
 * tile instructions and the flags between pipes.
 *
 * (The pass first gives a whole function, or module, one kind when all its ops agree; a function that gets one has
 * no run without a kind, so the runs alone decide what is refused.)
 */
export function checkUncoveredSections(fn: BoundFunction, module: OpNode | undefined, diags: DiagnosticBag): void {
  const { node } = fn;
  const entry = fn.body?.blocks;
  if (!entry || entry.length !== 1) return; // a declaration, or several blocks: PTOAS looks at one block only
  if (attrOf(node, 'pto.kernel_kind') || (module && attrOf(module, 'pto.kernel_kind'))) return;
  if (attrOf(node, 'pto.tileop.helper')) return; // PTOAS puts a tile-op helper's whole body in a section of its own
  const runs = topLevelRuns(entry[0].ops);
  const note = [{ message: `in @${fn.name}, which has no pto.kernel_kind: PTOAS infers the section of each run of its top-level ops`, span: node.nameSpan }];
  const hint = 'wrap the ambiguous region in pto.section.cube or pto.section.vector to specify its physical section explicitly';
  for (const run of runs) {
    if (run.nestedSection || kindOf(run)) continue;
    const base = 'this top-level op segment has a section kind that cannot be inferred uniquely';
    if (run.ambiguous.length > 0) {
      const names = run.ambiguous.slice(0, 3).map((o) => `'${o.node.name}'`);
      diags.report(D.sectionKind, run.ambiguous[0].node.nameSpan, `${base}; ambiguous op(s): ${names.join(', ')}; ${hint}`, note);
    } else {
      diags.report(D.sectionKind, run.first.node.nameSpan, `${base}; saw both vector-like and cube-like ops in the same segment; ${hint}`, note);
    }
    return;
  }
  const mixed = runs.find((r) => r.nestedSection);
  if (mixed) {
    diags.report(
      D.sectionKind,
      mixed.first.node.nameSpan,
      'this top-level op mixes nested explicit pto.section.* with sibling ops outside those sections: it stays an uncovered segment after section normalization',
      note,
    );
  }
}

/** One run of top-level ops (PTOAS's UncoveredTopLevelSegment): what its ops that have a kind say. */
interface Run {
  first: BoundOp;
  vector: number;
  cube: number;
  /** Ops that count but could run on either kind of core. */
  ambiguous: BoundOp[];
  /** One of its ops holds a pto.section.cube/vector inside (with work outside it). */
  nestedSection: boolean;
}

function kindOf(run: Run): CoreKind | undefined {
  if (run.ambiguous.length > 0 || (run.vector > 0 && run.cube > 0)) return undefined;
  return run.vector > 0 ? 'vector' : run.cube > 0 ? 'cube' : undefined;
}

const isSection = (op: BoundOp): boolean => op.def.properties?.coreKind !== undefined;

/** The runs of the entry block: consecutive top-level ops of one known kind are one run; every other op starts its own. */
function topLevelRuns(ops: BoundOp[]): Run[] {
  const runs: Run[] = [];
  let current: Run | undefined;
  const flush = () => {
    if (current) runs.push(current);
    current = undefined;
  };
  for (const op of ops) {
    if (op.def.terminator || isSection(op)) {
      flush();
      continue;
    }
    const run: Run = { first: op, vector: 0, cube: 0, ambiguous: [], nestedSection: false };
    inspect(op, run);
    if (run.vector + run.cube + run.ambiguous.length === 0) {
      flush();
      continue;
    }
    const [a, b] = [current && kindOf(current), kindOf(run)];
    if (!current || current.nestedSection || run.nestedSection || !a || a !== b) {
      flush();
      current = run;
      continue;
    }
    current.vector += run.vector;
    current.cube += run.cube;
  }
  flush();
  return runs;
}

/** Counts the op and the ops of its regions, but not inside explicit sections. */
function inspect(op: BoundOp, run: Run): void {
  const kind = kindOfOp(op);
  if (kind === 'ambiguous') run.ambiguous.push(op);
  else if (kind) run[kind]++;
  for (const region of op.regions) {
    for (const block of region.blocks) {
      for (const inner of block.ops) {
        if (isSection(inner)) run.nestedSection = true;
        else inspect(inner, run);
      }
    }
  }
}

/** Pipes only the cube core has, and the vector core's (PTOAS's classifySyncPipe); PIPE_S and PIPE_MTE2 are on both. */
const CUBE_PIPES = ['PIPE_M', 'PIPE_MTE1', 'PIPE_FIX'];
const VECTOR_PIPES = ['PIPE_V', 'PIPE_V2', 'PIPE_MTE3'];
const syncPipeKind = (pipe: string | undefined): CoreKind | 'ambiguous' =>
  pipe && CUBE_PIPES.includes(pipe) ? 'cube' : pipe && VECTOR_PIPES.includes(pipe) ? 'vector' : 'ambiguous';

/** On-chip buffers only the cube core reaches. */
const CUBE_LOCS = ['left', 'right', 'acc', 'bias', 'scaling'];

function locOf(t: Type | undefined): string | undefined {
  if (t?.kind === 'tile') return t.loc;
  if (t?.kind === 'multi_tile') return t.slot.loc;
  if (t?.kind === 'ptr' && t.space !== 'gm') return t.space;
  return undefined;
}

const kindOfLoc = (loc: string | undefined): CoreKind | undefined =>
  loc === 'vec' ? 'vector' : loc && CUBE_LOCS.concat('mat').includes(loc) ? 'cube' : undefined;

/**
 * The kind of core an op says its section is for: 'ambiguous' when it counts but either could run it, undefined when
 * it does not count. The flags between pipes run on one pipe: a set_flag on its source, a wait_flag on its
 * destination, a cross-core flag on its own; a tile instruction by PTOAS's rules (classifyTileOp): the cube by name
 * (matmul, gemv), a load by its destination's buffer, a store by its source's, then the buffers it touches, then its pipe.
 */
function kindOfOp(op: BoundOp): CoreKind | 'ambiguous' | undefined {
  const sync = op.sync;
  if (sync) {
    const { role, attributes } = sync.spec;
    // set_flag / wait_flag (not their _dyn forms, nor record_event's op types) and the cross-core flags.
    if ((role === 'set' || role === 'wait') && attributes.map((a) => a.kind).join() === 'pipe,pipe,event')
      return syncPipeKind(sync.pipes[role === 'set' ? 0 : 1]);
    if (role === 'cross-set' || role === 'cross-wait') return syncPipeKind(sync.pipes[0]);
    return undefined;
  }
  const byName = frontendPipeKind(op.node.name);
  if (byName) return byName;
  const bound = op.instruction;
  if (!bound || bound.spec.dialect !== 'pto') return undefined;
  const { spec } = bound;
  if (/^pto\.(tmatmul|tgemv)/.test(spec.opName)) return 'cube';
  if (spec.semantics === 'load' || spec.semantics === 'store') {
    const role = spec.semantics === 'load' ? 'dst' : 'src';
    for (const b of bound.operands.values()) if (b.spec.role === role && b.type.kind === 'tile') return kindOfLoc(b.type.loc) ?? 'ambiguous';
  }
  const locs = [...op.operandTypes, ...op.resultTypes].map(locOf);
  if (locs.some((l) => l && CUBE_LOCS.includes(l))) return 'cube';
  if (locs.includes('vec')) return 'vector';
  const pipe = instructionPipe(bound);
  // Ops on Mat alone: PTOAS's pipes for them are the cube's (TFILLPAD Mat -> Mat on MTE1, where the tables follow
  // pto-isa's MTE2) or the scalar's (tsetval, tgetval), which it counts as vector work.
  if (locs.includes('mat')) return pipe === 'PIPE_V' || pipe === 'PIPE_V2' || pipe === 'PIPE_S' ? 'vector' : 'cube';
  return pipe === 'PIPE_M' || pipe === 'PIPE_MTE1' ? 'cube' : pipe === 'PIPE_V' || pipe === 'PIPE_V2' || pipe === 'PIPE_S' ? 'vector' : 'ambiguous';
}

/**
 * The cross-core pipe ops by their names, as PTOAS's classifyTileOpByName has them: a push to the cube and a pop or
 * free of what the cube sent are the vector core's, and the other way round; `talloc_to_X` is X's own op.
 */
function frontendPipeKind(name: string): CoreKind | undefined {
  const m = /^pto\.t(alloc|push|pop|free)_(?:to|from)_(aic|aiv)$/.exec(name);
  if (!m) return undefined;
  const [, verb, core] = m;
  const vector = verb === 'alloc' ? core === 'aiv' : core === 'aic';
  return vector ? 'vector' : 'cube';
}
