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
  /** The target ptoas is given; a module that names A5 itself takes precedence, as in ptoas. */
  target: TargetName;
  /** ptoas's build level: the pypto model folders are compiled at level3 (caller-owned addresses). */
  level: 'level2' | 'level3';
  /** The runner expects ptoas to reject it (a name ending `_invalid` or `_xfail`). */
  expectReject: boolean;
}

/** Folders the runner builds for A5 only, and the pypto model folders, which it builds at level3. */
const A5_FOLDERS = /^(Qwen.*A5|Deepseek.*A5|TquantMx|TquantMxDn)$/;
const MODEL_FOLDERS = /^(Qwen|Deepseek).*A[35]$/;
/** Samples in other folders that the runner builds for A5 only (it skips them for any other --pto-arch or SoC). */
const A5_SAMPLES =
  /^(test_tmov_col_major_16x1_align_a5|test_tmov_row_major_1x16_control_a5|movfp_fixpipe_reuse-pto|decode_projection_incore_0|rmsnorm_incore_0|test_a5_buf_sync|test_intercore_sync_a5\w*)$/;
const EXPECT_REJECT = /_(invalid|xfail)$/;

export function sampleCases(root: string): SampleCase[] {
  const samples = 'test/samples';
  return corpusFiles(root, samples, (f) => f.endsWith('.pto') && !f.includes('npu_validation') && !f.endsWith('-pto-ir.pto')).map((file) => {
    const folder = path.relative(samples, file).split(path.sep)[0];
    const base = path.basename(file, '.pto');
    return {
      file,
      target: sampleTarget(folder, base),
      level: MODEL_FOLDERS.test(folder) ? 'level3' : 'level2',
      expectReject: EXPECT_REJECT.test(base),
    };
  });
}

/** The target the runner builds a sample for: from its folder under test/samples and its file name (no .pto). */
export function sampleTarget(folder: string, base: string): TargetName {
  return A5_FOLDERS.test(folder) || A5_SAMPLES.test(base) ? 'a5' : 'a2a3';
}

/**
 * The module names A5 itself (`pto.target_arch = "a5"`, or an A5 `pto.device-spec`): PTOAS then verifies for A5
 * whatever --pto-arch says (getTargetArch). A module naming A2/A3 does not override --pto-arch=a5.
 */
export function namesA5Target(text: string): boolean {
  return /pto\.target_arch\s*=\s*"a5"|"pto\.device-spec"\s*=\s*"(Ascend950|Ascend910_95)/i.test(text);
}
