/** (to be written) */
import { SampleReference } from './harness';

export const ATTENTION_KERNELS: SampleReference[] = [];
