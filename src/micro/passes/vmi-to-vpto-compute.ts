import type { PassCheck } from './index';

/** The compute and type rules of PTOAS's VMI -> VPTO lowering (filled by its own change). */
export const COMPUTE_RULES: PassCheck[] = [];
