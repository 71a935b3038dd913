/** (to be written) */
import { SampleReference } from './harness';

export const PAGED_ATTENTION: SampleReference[] = [];
