import type { PassCheck } from './index';

/** The data-movement limits of PTOAS's VMI -> VPTO lowering: loads, stores, layout changes it cannot lower. */
export const MOVEMENT_RULES: PassCheck[] = [];
