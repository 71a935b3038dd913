/**
 * Every PTOAS sample program checked against an independent computation (test/corpus/references/*.ts, one file per
 * family of samples), read from PTO_CORPUS_DIR:
 *
 *   PTO_CORPUS_DIR=/path/to/PTOAS npx jest test/corpus/references
 *
 * A sample with no reference must be listed in NO_REFERENCE with the reason.
 */
import * as fs from 'fs';
import * as path from 'path';
import { ATTENTION_KERNELS } from './references/attention-kernels';
import { CONTROL_FLOW } from './references/control-flow';
import { CUBE } from './references/cube';
import { DATA_MOVEMENT } from './references/data-movement';
import { ELEMENTWISE } from './references/elementwise';
import { SampleReference, checkReferences, corpusRoot } from './references/harness';
import { MATMUL_KERNELS } from './references/matmul-kernels';
import { PAGED_ATTENTION } from './references/paged-attention';
import { SOFTMAX } from './references/softmax';

const GROUPS: Record<string, SampleReference[]> = {
  'elementwise samples': ELEMENTWISE,
  'matmul samples': CUBE,
  'softmax and FFN activation samples': SOFTMAX,
  'control flow and Sync samples': CONTROL_FLOW,
  'paged attention vector samples': PAGED_ATTENTION,
  'data movement and legacy memref samples': DATA_MOVEMENT,
  'attention and FFN kernels (cube + vector)': ATTENTION_KERNELS,
  'matmul kernels with sync': MATMUL_KERNELS,
};

/** Sample programs with no reference, and why. */
const NO_REFERENCE: Record<string, string> = {
  'test/samples/Sync/test_a5_buf_sync.pto': 'it moves no data (two get_buf/rls_buf pairs); test/vm/sync/corpus.test.ts checks its buffer ids',
  'test/samples/Sync/test_dynamic_valid_shape.pto':
    'its loop runs twice whatever the arguments and sets valid_col = 33 on a 32-column tile the second time, which the VM stops at (test/corpus/corpus.test.ts); it stores nothing either',
  'test/samples/Sync/test_inject_sync_intra_pipe_barrier.pto':
    'it has no arguments: two tadds on memref.alloc buffers nothing loads (zeros in the VM, undefined on the NPU), so there is no result to compare',
};

for (const [group, references] of Object.entries(GROUPS)) describe(group, () => checkReferences(group, references));

(corpusRoot ? test : test.skip)('every sample program has a reference or a reason', () => {
  const samples = [
    ...fs.readdirSync(path.join(corpusRoot!, 'test/samples'), { recursive: true }).map((f) => path.join('test/samples', String(f))),
    ...fs.readdirSync(path.join(corpusRoot!, 'tools/ptobc/testdata')).map((f) => path.join('tools/ptobc/testdata', f)),
  ].filter((f) => f.endsWith('.pto'));
  const checked = new Set(Object.values(GROUPS).flatMap((g) => g.map((r) => r.file)));
  const missing = samples.filter((f) => !checked.has(f) && !(f in NO_REFERENCE)).sort();
  expect(missing).toEqual([]);
  expect(samples.length).toBe(66);
});
