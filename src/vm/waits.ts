import { BoundFunction, BoundOp, BoundRegion } from '../ir/bound';
import { Program } from '../ir/program';
import { OpNode } from '../syntax/ast';

/**
 * Which code can wait for another core: an op whose definition says so (OpProperties.mayWait), an op whose regions
 * can, a call of a function whose body can. The rest runs straight through, without the scheduler's generators
 * (the interpreter's synchronous path), since nothing in it can hand control to another core.
 */
export class WaitAnalysis {
  private readonly regions = new Map<BoundRegion, boolean>();
  private readonly functions = new Map<BoundFunction, boolean>();

  constructor(private readonly program: Program) {}

  region(region: BoundRegion): boolean {
    let waits = this.regions.get(region);
    if (waits === undefined) {
      // A region reached again while it is being looked at (recursion) adds no wait of its own.
      this.regions.set(region, false);
      waits = region.blocks.some((block) => block.ops.some((op) => this.op(op)));
      this.regions.set(region, waits);
    }
    return waits;
  }

  function(fn: BoundFunction): boolean {
    let waits = this.functions.get(fn);
    if (waits === undefined) {
      this.functions.set(fn, false);
      waits = fn.body !== undefined && this.region(fn.body);
      this.functions.set(fn, waits);
    }
    return waits;
  }

  private op(op: BoundOp): boolean {
    if (op.def.properties?.mayWait) return true;
    if (op.regions.some((r) => this.region(r))) return true;
    const callee = typeof op.decoded === 'object' ? this.program.bound.functions.get(op.decoded as OpNode) : undefined;
    return callee !== undefined && this.function(callee);
  }
}
