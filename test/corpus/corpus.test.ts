/**
 * The PTOAS sample corpus (zhangstevenunity/PTOAS: test/samples/**\/*.pto, tools/ptobc/testdata/*.pto and
 * test/basic/*.mlir), read in place from PTO_CORPUS_DIR, an export of that repository; nothing of it is committed.
 *
 *   PTO_CORPUS_DIR=/path/to/PTOAS npx jest test/corpus
 *
 * Every file must assemble without errors (deprecated spellings are warnings), and its canonical form must
 * assemble again and be a fixed point. The files that do not assemble yet are listed below with the first error
 * they give and why: such a file must still give that error, so that fixing one shows here and the list shrinks.
 */
import * as fs from 'fs';
import * as path from 'path';
import { assemble } from '../../src/assemble';
import { formatAll } from '../../src/diag/diagnostic';
import { printCanonical } from '../../src/emit/canonical';
import { TargetName } from '../../src/spec/schema';

const root = process.env.PTO_CORPUS_DIR;

/** Corpus file (relative to the root) -> [the start of its first error, why it fails]. */
const NOT_YET: Record<string, [string, string]> = {};

/** Files valid only on one target (the default is a2a3), and why. */
const TARGET: Record<string, [TargetName, string]> = {
  'test/samples/Elementwise/5-post-insert-sync.pto': ['a5', 'tabs on i32 exists only on A5'],
  'test/samples/Sync/test_a5_buf_sync.pto': ['a5', 'pto.get_buf and pto.rls_buf exist only on A5'],
};

function corpusFiles(dir: string): string[] {
  const under = (sub: string, ext: string) => {
    const base = path.join(dir, sub);
    if (!fs.existsSync(base)) return [];
    return fs
      .readdirSync(base, { recursive: true })
      .map(String)
      .filter((f) => f.endsWith(ext))
      .map((f) => path.join(sub, f));
  };
  return [...under('test/samples', '.pto'), ...under('tools/ptobc/testdata', '.pto'), ...under('test/basic', '.mlir')].sort();
}

if (!root) {
  test.skip('PTO_CORPUS_DIR is not set: export zhangstevenunity/PTOAS and point PTO_CORPUS_DIR at it to run the corpus', () => undefined);
} else {
  const files = corpusFiles(root);

  test('the corpus is there: 66 sample programs and 15 test/basic files', () => {
    expect(files.filter((f) => f.endsWith('.pto')).length).toBe(66);
    expect(files.filter((f) => f.endsWith('.mlir')).length).toBe(15);
  });

  describe.each(files)('%s', (file) => {
    const text = fs.readFileSync(path.join(root, file), 'utf8');
    const known = NOT_YET[file];
    const options = { target: TARGET[file]?.[0] };
    if (known) {
      test(`does not assemble yet: ${known[1]}`, () => {
        const first = assemble(file, text, options).diags.sorted().find((d) => d.severity === 'error');
        expect(first?.message.startsWith(known[0])).toBe(true);
      });
      return;
    }
    test('assembles, and its canonical form assembles again and is a fixed point', () => {
      const original = assemble(file, text, options);
      expect(original.diags.hasErrors() ? formatAll(original.diags) : '').toBe('');
      const canonical = printCanonical(original.module, original.types);
      const again = assemble(file, canonical, options);
      expect(again.diags.hasErrors() ? formatAll(again.diags) : '').toBe('');
      expect(printCanonical(again.module, again.types)).toBe(canonical);
    });
  });
}
