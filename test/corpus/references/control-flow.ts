/** (to be written) */
import { SampleReference } from './harness';

export const CONTROL_FLOW: SampleReference[] = [];
