import type { PassCheck } from './index';
import { COMPUTE_RULES } from './vmi-to-vpto-compute';
import { MOVEMENT_RULES } from './vmi-to-vpto-movement';

/**
 * PTOAS's `vmi-to-vpto` pass lowers layout-assigned VMI to VPTO and rejects what it has no lowering for. Its rules
 * live in two files by subject (data movement, compute and types); the pass runs all of them, each reporting on its own.
 */
export const vmiToVpto: PassCheck = (c) => {
  for (const rule of [...MOVEMENT_RULES, ...COMPUTE_RULES]) rule(c);
};
