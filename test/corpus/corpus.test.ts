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
import { assemble } from '../../src/verify/assemble';
import { formatAll } from '../../src/diag/diagnostic';
import { printCanonical } from '../../src/emit/canonical';
import { TargetName } from '../../src/spec/schema';
import { RunOutcome, runWithGeneratedInputs as runFile } from '../../src/corpus/runs';

const root = process.env.PTO_CORPUS_DIR;

/** Corpus file (relative to the root) -> [the start of its first error, why it fails]. */
const NOT_YET: Record<string, [string, string]> = {};

/**
 * Arguments the run checks bind where the defaults (integer scalars 32, i1 1, floats 1.5) do not fit the file:
 * by name, or `@function name` in a file whose functions name their arguments alike.
 */
const BINDINGS: Record<string, Record<string, string>> = {
  // Block indices of a 1024x1024 tensor cut into 32x32 blocks, and offsets inside a block.
  'test/samples/Complex/5-post-insert-sync.pto': { tile_i: '3', tile_j: '5' },
  'test/samples/DataMovement/5-post-insert-sync.pto': { arg2: '3', arg3: '5', arg4: '4', arg5: '16' },
  'test/samples/Elementwise/5-post-insert-sync.pto': {
    '@vec_and_kernel_2d arg3': '3',
    '@vec_and_kernel_2d arg4': '5',
    '@vec_abs_kernel_2d arg2': '3',
    '@vec_abs_kernel_2d arg3': '5',
    '@vec_add_kernel_2d arg3': '3',
    '@vec_add_kernel_2d arg4': '5',
    '@vec_addc_kernel_2d arg4': '3',
    '@vec_addc_kernel_2d arg5': '5',
  },
  'test/samples/Memory/5-post-insert-sync.pto': { arg2: '3', arg3: '5' },
  'test/samples/TileScalar/5-post-insert-sync.pto': { arg2: '-9', arg3: '3', arg4: '5' },
  // Offsets and sizes of a 5-D partition: 1x1x16x16x16 at (0, 0, 0, 16, 32), a 256x16 tile.
  'test/samples/Partition5D/partition5d_dynamic.pto': {
    arg2: '0',
    arg3: '0',
    arg4: '0',
    arg5: '16',
    arg6: '32',
    arg7: '1',
    arg8: '1',
    arg9: '16',
    arg10: '16',
    arg11: '16',
  },
  'test/samples/Sync/test_dynamic_valid_shape.pto': { arg0: 'random:64', arg1: 'zeros:64', argN: '64' },
};

/** What the files that do not run with generated inputs stop with; why is in each comment. */
const DO_NOT_RUN: string[] = [
  // PTOAS's memory planning reuses freed UB; the VM places each memref.alloc once and never reuses it.
  'test/basic/plan_memory_fragmentation_hole_fit.mlir: @fragmentation_hole_fit: memref.alloc: out of UB memory: this 256x16 f16 tile needs 8192 bytes at offset 196608, but the UB of a2a3 has 196608 bytes (196608 already allocated)',
  'test/basic/plan_memory_fragmentation_two_holes.mlir: @fragmentation_two_holes: memref.alloc: out of UB memory: this 256x16 f16 tile needs 8192 bytes at offset 196608, but the UB of a2a3 has 196608 bytes (196608 already allocated)',
  'test/basic/plan_memory_reuse_sequential.mlir: @reuse_sequential: memref.alloc: out of UB memory: this 256x16 f16 tile needs 8192 bytes at offset 196608, but the UB of a2a3 has 196608 bytes (196608 already allocated)',
  // The sample alternates valid_col between 32 and 33 on a 32-column tile: the second is outside the tile.
  'test/samples/Sync/test_dynamic_valid_shape.pto: @test_dynamic_valid_shape: valid_col = 33 is outside 0..32',
];

/** Files valid only on one target (the default is a2a3), and why. */
const TARGET: Record<string, [TargetName, string]> = {
  'test/samples/Elementwise/5-post-insert-sync.pto': ['a5', 'tabs on i32 exists only on A5'],
  'test/samples/Sync/test_a5_buf_sync.pto': ['a5', 'pto.get_buf and pto.rls_buf exist only on A5'],
  'test/samples/Complex/mix_kernel.pto': ['a5', 'it moves the accumulator to Vec, which only A5 can'],
};

/** Runs every function of a file with generated inputs (src/corpus/runs.ts), with the file's bindings. */
function runWithGeneratedInputs(file: string, text: string, target: TargetName | undefined): RunOutcome {
  return runFile(file, text, { target, bindings: BINDINGS[file] });
}

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

  test('the files that do not run with generated inputs are exactly the known ones', () => {
    const traps = files.flatMap((file) => {
      const outcome = runWithGeneratedInputs(file, fs.readFileSync(path.join(root, file), 'utf8'), TARGET[file]?.[0]);
      if (outcome.notAssembled) return [`${file}: does not assemble`];
      return outcome.trap ? [`${file}: ${outcome.trap}`] : [];
    });
    expect(traps).toEqual(DO_NOT_RUN);
  });

  describe.each(files)('%s', (file) => {
    const text = fs.readFileSync(path.join(root, file), 'utf8');
    const known = NOT_YET[file];
    const options = { target: TARGET[file]?.[0] };
    if (known) {
      test(`does not assemble yet: ${known[1]}`, () => {
        const first = assemble(file, text, options)
          .diags.sorted()
          .find((d) => d.severity === 'error');
        expect(first?.message.startsWith(known[0])).toBe(true);
      });
      return;
    }
    test('every function runs the same before and after canonicalization (generated inputs; integer scalars 32, i1 1, floats 1.5)', () => {
      const before = runWithGeneratedInputs(file, text, options.target);
      expect(before.notAssembled).toBeUndefined();
      const asm = assemble(file, text, options);
      const after = runWithGeneratedInputs(file, printCanonical(asm.module, asm.types), options.target);
      expect(after).toEqual(before);
    });

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
