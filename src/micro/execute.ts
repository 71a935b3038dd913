import { BoundOp } from '../ir/bound';
import { vmTrap } from '../machine/trap';
import { Fail } from './semantics/core';
import { MicroSemantics } from './run/operands';
import { CONFIG_SEMANTICS } from './run/config';
import { CUBE_SEMANTICS } from './run/cube';
import { ACC_STORE_DEFINITIONS } from './run/acc-store';
import { CUBE_DEFINITIONS } from './run/cube-frac';
import { DMA_SEMANTICS } from './run/dma';
import { VECTOR_SEMANTICS } from './run/vector';
import { VMI_SEMANTICS } from './run/vmi';
import { VMI_MORE_DEFINITIONS, VMI_MORE_SEMANTICS } from './run/vmi-more';
import { SIMT_DEFINITIONS, SIMT_SEMANTICS } from './run/simt';
import { SCALAR_SEMANTICS } from './run/scalar';
import { VECTOR_DEFINITIONS } from './run/vecscope';
import { OpDefinition } from '../ir/definition';
import type { MicroOpRowData } from '../spec/micro-schema';

export type { MicroRun, MicroSemantics } from './run/operands';

/** Every semantics a row of spec/micro/ may name, by name: one table per family of src/micro/run. */
export const MICRO_SEMANTICS: Record<string, MicroSemantics> = {
  ...VECTOR_SEMANTICS,
  ...DMA_SEMANTICS,
  ...CONFIG_SEMANTICS,
  ...CUBE_SEMANTICS,
  ...SIMT_SEMANTICS,
  ...VMI_SEMANTICS,
  ...VMI_MORE_SEMANTICS,
  ...SCALAR_SEMANTICS,
};

/** The ops of spec/micro/ with a syntax and verifier of their own (a row's `definition`), made from their rows. */
export const MICRO_DEFINITIONS: Record<string, (row: MicroOpRowData, standard: () => OpDefinition) => OpDefinition> = {
  ...SIMT_DEFINITIONS,
  ...CUBE_DEFINITIONS,
  ...ACC_STORE_DEFINITIONS,
  ...VMI_MORE_DEFINITIONS,
  ...VECTOR_DEFINITIONS,
};

/** The trap of a micro-level op at run time. */
export function microFail(op: BoundOp): Fail {
  return (message: string) => {
    throw vmTrap(`${op.def.name}: ${message}`, op.node.span);
  };
}
