import { Block, OpNode, segment } from '../../syntax/ast';
import * as builtin from '../../ops/structure/builtin';
import * as scf from '../../ops/structure/scf';
import { OperandSpec } from '../../spec/schema';
import { Program } from '../../ir/program';
import { useKey } from './ast-edit';

/** What a run of ops does first to a buffer: reads its contents, overwrites them, or neither (on some path). */
export type Access = 'read' | 'written' | 'none';

/** A scratch operand that Level 1 leaves out: Level 2 passes a buffer only for the instruction to clobber. */
export function droppedAtLevel1(spec: OperandSpec): boolean {
  return spec.role === 'tmp' && spec.l1 === 'optional';
}

/**
 * Reads and writes of Level 2 buffers in one function, over structured control flow. A Level 2 instruction writes
 * the buffers in its `outs` (and clobbers a scratch buffer Level 1 leaves out); everything else that names a buffer reads it.
 */
export class BufferFlow {
  /** Each op's block, and the op owning that block (the function, a loop, an if, ...). */
  private readonly placement = new Map<OpNode, { block: Block; owner: OpNode }>();

  constructor(
    private readonly program: Program,
    fn: OpNode,
  ) {
    const visit = (owner: OpNode): void => {
      for (const region of owner.regions) {
        for (const block of region.blocks) {
          for (const op of block.ops) {
            this.placement.set(op, { block, owner });
            visit(op);
          }
        }
      }
    };
    visit(fn);
  }

  /** The buffers an instruction reads and writes (only for the instruction itself, not nested ops). */
  private effect(op: OpNode): { reads: Set<string>; writes: Set<string> } {
    const reads = new Set<string>();
    const writes = new Set<string>();
    const bound = this.program.instructions.get(op);
    if (bound && op.form === 'dps') {
      for (const b of bound.operands.values()) {
        const key = b.use ? useKey(b.use) : undefined;
        if (!key) continue;
        if ((b.spec.role === 'dst' && b.spec.kind === 'tile') || droppedAtLevel1(b.spec)) writes.add(key);
        else reads.add(key);
      }
      return { reads, writes };
    }
    for (const o of op.operands) {
      const key = useKey(o);
      if (key) reads.add(key);
    }
    return { reads, writes };
  }

  /** What `ops`, run in order, do first to buffer `b`. */
  scan(ops: OpNode[], b: string): Access {
    for (const op of ops) {
      const access = this.access(op, b);
      if (access !== 'none') return access;
    }
    return 'none';
  }

  private access(op: OpNode, b: string): Access {
    const { reads, writes } = this.effect(op);
    if (reads.has(b)) return 'read';
    if (op.name === scf.ifOp.name) {
      const branches = [op.regions[0], op.regions[1]].map((r) => (r ? this.scan(r.blocks[0].ops, b) : 'none'));
      if (branches.includes('read')) return 'read';
      return branches.every((a) => a === 'written') ? 'written' : 'none';
    }
    if (op.name === scf.forOp.name) return this.scan(op.regions[0].blocks[0].ops, b) === 'read' ? 'read' : 'none';
    if (op.name === scf.whileOp.name) return this.mentions(op, b) ? 'read' : 'none';
    if (op.regions.length === 1 && op.regions[0].blocks.length === 1) {
      // Regions run once, in place (pto.section.vector / cube).
      const inner = this.scan(op.regions[0].blocks[0].ops, b);
      if (inner !== 'none') return inner;
    } else if (op.regions.length > 0 && this.mentions(op, b)) {
      return 'read';
    }
    return writes.has(b) ? 'written' : 'none';
  }

  private mentions(op: OpNode, b: string): boolean {
    if (op.operands.some((o) => useKey(o) === b)) return true;
    return op.regions.some((r) => r.blocks.some((blk) => blk.ops.some((o) => this.mentions(o, b))));
  }

  /** Whether the contents of `b` after `op` may still be read (by later ops, later iterations, or after the enclosing constructs). */
  liveAfter(op: OpNode, b: string): boolean {
    const place = this.placement.get(op);
    if (!place) return false;
    const rest = place.block.ops.slice(place.block.ops.indexOf(op) + 1);
    const access = this.scan(rest, b);
    if (access !== 'none') return access === 'read';
    const owner = place.owner;
    switch (owner.name) {
      case builtin.funcOp.name:
        return false;
      case scf.forOp.name:
        return this.scan(owner.regions[0].blocks[0].ops, b) === 'read' || this.liveAfter(owner, b);
      case scf.whileOp.name:
        return true;
      default:
        return this.liveAfter(owner, b);
    }
  }

  /** The buffers written anywhere inside an op's regions, in the order they are first written. */
  writtenInside(op: OpNode): string[] {
    const found: string[] = [];
    const visit = (o: OpNode): void => {
      for (const w of this.effect(o).writes) if (!found.includes(w)) found.push(w);
      for (const r of o.regions) for (const blk of r.blocks) blk.ops.forEach(visit);
    };
    for (const r of op.regions) for (const blk of r.blocks) blk.ops.forEach(visit);
    return found;
  }
}

/** The loop body, or the if branch, without its terminator. */
export function bodyOps(block: Block): { ops: OpNode[]; terminator?: OpNode } {
  const last = block.ops.at(-1);
  if (last?.name === scf.yieldOp.name) return { ops: block.ops.slice(0, -1), terminator: last };
  return { ops: block.ops };
}

export function yielded(terminator: OpNode | undefined): ReturnType<typeof segment> {
  return terminator ? segment(terminator, 'values') : [];
}
