import { BoundOp } from '../ir/bound';
import { vmTrap } from '../machine/trap';
import { Fail } from './semantics';
import { MicroSemantics } from './run/operands';
import { CONFIG_SEMANTICS } from './run/config';
import { DMA_SEMANTICS } from './run/dma';
import { VECTOR_SEMANTICS } from './run/vector';

export type { MicroRun, MicroSemantics } from './run/operands';

/** Every semantics a row of spec/micro/ may name, by name: one table per family of src/micro/run. */
export const MICRO_SEMANTICS: Record<string, MicroSemantics> = { ...VECTOR_SEMANTICS, ...DMA_SEMANTICS, ...CONFIG_SEMANTICS };

/** The trap of a micro-level op at run time. */
export function microFail(op: BoundOp): Fail {
  return (message: string) => {
    throw vmTrap(`${op.def.name}: ${message}`, op.node.span);
  };
}
