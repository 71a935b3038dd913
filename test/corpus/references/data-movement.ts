/** (to be written) */
import { SampleReference } from './harness';

export const DATA_MOVEMENT: SampleReference[] = [];
