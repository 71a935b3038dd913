/**
 * PTOAS's sample programs (test/samples/**\/*.pto) and how its sample runner assembles each: the target and the
 * build level the runner gives ptoas for the sample's folder (test/samples/runop.sh).
 */
import * as path from 'path';
import { corpusFiles } from './files';
import { TargetName } from '../spec/schema';

export interface SampleCase {
  /** Relative to the corpus root. */
  file: string;
  /** The target ptoas is given; the module's own `pto.target_arch` takes precedence, as in ptoas. */
  target: TargetName;
  /** ptoas's build level: the pypto model folders are compiled at level3 (caller-owned addresses). */
  level: 'level2' | 'level3';
}

/** Folders the runner builds for A5 only, and the pypto model folders, which it builds at level3. */
const A5_FOLDERS = /^(Qwen.*A5|Deepseek.*A5|TquantMx|TquantMxDn)$/;
const MODEL_FOLDERS = /^(Qwen|Deepseek).*A[35]$/;
/** Samples the runner skips unless it runs for A5 (runop.sh names them): their ops exist on A5 only. */
const A5_SAMPLES = /^(test_a5_buf_sync|test_intercore_sync_a5(_dyn|_functional|_ptoisa_vec)?)$/;

export function sampleCases(root: string): SampleCase[] {
  const samples = 'test/samples';
  return corpusFiles(root, samples, (f) => f.endsWith('.pto') && !f.includes('npu_validation') && !f.endsWith('-pto-ir.pto')).map((file) => {
    const folder = path.relative(samples, file).split(path.sep)[0];
    const a5 = A5_FOLDERS.test(folder) || A5_SAMPLES.test(path.basename(file, '.pto'));
    return { file, target: a5 ? 'a5' : 'a2a3', level: MODEL_FOLDERS.test(folder) ? 'level3' : 'level2' };
  });
}

/** The module names its target itself (`pto.target_arch`, or an A5 `pto.device-spec`). */
export function namesTarget(text: string): boolean {
  return /pto\.target_arch\s*=|"pto\.device-spec"\s*=/.test(text);
}
