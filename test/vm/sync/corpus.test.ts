/**
 * PTOAS samples that carry their synchronization, read in place from PTO_CORPUS_DIR (an export of
 * zhangstevenunity/PTOAS); skipped without it:
 *
 *   PTO_CORPUS_DIR=/path/to/PTOAS npx jest test/vm/sync/corpus
 *
 * As written each sample runs without findings; with one sync op removed (a text edit here) the VM reports exactly
 * the dependency that op protected.
 */
import * as fs from 'fs';
import * as path from 'path';
import { assemble } from '../../../src/verify/assemble';
import { formatAll } from '../../../src/diag/diagnostic';
import { TargetName } from '../../../src/spec/schema';
import { runFunction } from '../../../src/vm/interpreter';
import { bindArguments } from '../../../src/vm/io/arguments';

const root = process.env.PTO_CORPUS_DIR;

interface SyncSample {
  file: string;
  target?: TargetName;
  args: Record<string, string>;
  /** The line removed for the broken copy (its first occurrence), and what the VM must then report. */
  remove: string;
  /** Expected findings of the broken copy: [text of the line reported (first occurrence in the broken text), message]. */
  findings: [string, string][];
}

const SAMPLES: SyncSample[] = [
  {
    file: 'test/samples/Memory/5-post-insert-sync.pto',
    args: { arg2: '0', arg3: '0' },
    remove: 'pto.wait_flag[<PIPE_MTE2>, <PIPE_V>',
    findings: [
      [
        'pto.tcolexpand_dps',
        'pto.tcolexpand (PIPE_V) reads %ub_src, written by pto.tload (PIPE_MTE2), with no set_flag/wait_flag from PIPE_MTE2 to PIPE_V between them',
      ],
      ['pto.set_flag[<PIPE_MTE2>, <PIPE_V>', 'pto.set_flag[PIPE_MTE2, PIPE_V, EVENT_ID0] is never waited (its flag is still set when the kernel ends)'],
    ],
  },
  {
    // The accumulator is stored (FIX) right after the matmul (M) writes it.
    file: 'test/samples/Matmul_transpose/Matmul_transpose-pto-ir.pto',
    args: { arg3: '1', arg4: '1' },
    remove: 'pto.wait_event[#pto.sync_op_type<TMATMUL>, #pto.sync_op_type<TSTORE_ACC>',
    findings: [
      [
        'pto.tstore ins(%15',
        'pto.tstore (PIPE_FIX) reads %15, written by pto.tmatmul (PIPE_M), with no set_flag/wait_flag from PIPE_M to PIPE_FIX between them',
      ],
      [
        'pto.record_event[#pto.sync_op_type<TMATMUL>',
        'pto.record_event[TMATMUL, TSTORE_ACC, EVENT_ID0] is never waited (its flag is still set when the kernel ends)',
      ],
    ],
  },
  {
    // An acquired buffer id must be released.
    file: 'test/samples/Sync/test_a5_buf_sync.pto',
    target: 'a5',
    args: {},
    remove: 'pto.rls_buf[#pto.pipe_event_type<TVEC>, 0]',
    findings: [['pto.get_buf[#pto.pipe_event_type<TVEC>, 0]', 'pto.get_buf[TVEC, 0] acquires buffer id 0 and no rls_buf releases it']],
  },
];

function findings(sample: SyncSample, text: string): string[] {
  const asm = assemble(sample.file, text, { target: sample.target });
  if (asm.diags.hasErrors()) throw new Error(formatAll(asm.diags));
  const fn = [...asm.program.functions.values()].find((f) => f.regions.length > 0)!;
  const bound = bindArguments(asm.types, fn, new Map(Object.entries(sample.args)));
  const result = runFunction(asm.program, asm.types, fn, bound.values, { numerics: 'npu', maxSteps: 1e7 });
  return result.sync.map((f) => `${asm.source.position(f.span.start).line}: ${f.message}`);
}

if (!root) {
  test.skip('PTO_CORPUS_DIR is not set: the synchronized samples are not checked', () => undefined);
} else {
  describe.each(SAMPLES.map((s) => [s.file, s] as const))('%s', (_file, sample) => {
    const text = fs.readFileSync(path.join(root, sample.file), 'utf8');

    test('as PTOAS synchronized it: no findings', () => {
      expect(findings(sample, text)).toEqual([]);
    });

    test(`without ${sample.remove}...: exactly the dependency it protected`, () => {
      const lines = text.split('\n');
      const removed = lines.findIndex((l) => l.includes(sample.remove));
      expect(removed).toBeGreaterThanOrEqual(0);
      const broken = lines.filter((_, i) => i !== removed);
      const lineOf = (needle: string) => broken.findIndex((l) => l.includes(needle)) + 1;
      expect(findings(sample, broken.join('\n'))).toEqual(sample.findings.map(([needle, message]) => `${lineOf(needle)}: ${message}`));
    });
  });
}
