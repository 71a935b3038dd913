/**
 * PTOAS samples with the sync PTOAS inserted (test/samples/Memory/5-post-insert-sync.pto), read in place from
 * PTO_CORPUS_DIR (an export of zhangstevenunity/PTOAS); skipped without it:
 *
 *   PTO_CORPUS_DIR=/path/to/PTOAS npx jest test/vm/sync/corpus
 *
 * As written the sample runs without findings; with its MTE2 -> V wait_flag removed (a text edit here) the
 * column expansion reads the loaded tile unsynchronized.
 */
import * as fs from 'fs';
import * as path from 'path';
import { assemble } from '../../../src/assemble';
import { formatAll } from '../../../src/diag/diagnostic';
import { runFunction } from '../../../src/vm/interpreter';
import { bindArguments } from '../../../src/vm/io/arguments';

const root = process.env.PTO_CORPUS_DIR;
const SAMPLE = 'test/samples/Memory/5-post-insert-sync.pto';

function findings(text: string): string[] {
  const asm = assemble(SAMPLE, text);
  if (asm.diags.hasErrors()) throw new Error(formatAll(asm.diags));
  const fn = [...asm.program.functions.values()].find((f) => f.regions.length > 0)!;
  const bound = bindArguments(asm.types, fn, new Map([['arg2', '0'], ['arg3', '0']]));
  const result = runFunction(asm.program, asm.types, fn, bound.values, { numerics: 'npu', maxSteps: 1e6 });
  return result.sync.map((f) => `${asm.source.position(f.span.start).line}: ${f.message}`);
}

if (!root) {
  test.skip('PTO_CORPUS_DIR is not set: the post-insert-sync sample is not checked', () => undefined);
} else {
  const text = fs.readFileSync(path.join(root, SAMPLE), 'utf8');
  const lines = text.split('\n');
  const lineOf = (needle: string) => lines.findIndex((l) => l.includes(needle)) + 1;

  test(`${SAMPLE} as PTOAS synchronized it: no findings`, () => {
    expect(findings(text)).toEqual([]);
  });

  test(`${SAMPLE} without its wait_flag[MTE2, V]: the vector op reads the loaded tile unsynchronized`, () => {
    const wait = lineOf('pto.wait_flag[<PIPE_MTE2>, <PIPE_V>');
    const broken = lines.filter((_, i) => i !== wait - 1).join('\n');
    const brokenLines = broken.split('\n');
    const at = (needle: string) => brokenLines.findIndex((l) => l.includes(needle)) + 1;
    expect(findings(broken)).toEqual([
      `${at('pto.tcolexpand_dps')}: pto.tcolexpand (PIPE_V) reads %ub_src, written by pto.tload (PIPE_MTE2), with no set_flag/wait_flag from PIPE_MTE2 to PIPE_V between them`,
      `${at('pto.set_flag[<PIPE_MTE2>, <PIPE_V>')}: pto.set_flag[PIPE_MTE2, PIPE_V, EVENT_ID0] is never waited (its flag is still set when the kernel ends)`,
    ]);
  });
}
